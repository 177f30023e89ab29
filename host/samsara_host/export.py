"""Pictures of a game record: the board after each turn as SVG (one file per turn, or
one strip) and PNG (docs/host-tool.md "logs export").

The board itself is drawn by `samsara_host.svg.render` (the hardware geometry); this
module adds the turn's fields as lit rings, titles, and lays pictures out in a strip.
PNG is the SVG rasterised by CairoSVG (needs the cairo C library, present on Linux
desktops; `pip install cairosvg` alone is not enough on Windows or macOS without it).
"""
import re

from samsara.rules.geometry import position_name
from samsara_host.boardview import turn_fields

MOVE_COLOUR = "#ffb000"   # fields the turn touched
GOAL_COLOUR = "#30c030"   # a goal entered


class ExportError(Exception):
    """An export that cannot be made (e.g. PNG without the cairo library)."""


def turn_scene(notation):
    """{position name: colour} lighting the fields a turn touched."""
    scene = {}
    for p in turn_fields(notation):
        name = position_name(p)
        scene[name] = GOAL_COLOUR if name in ("GS", "GR") else MOVE_COLOUR
    return scene


def pictures(record):
    """[(title, svg text)]: the start, then the board after each turn."""
    from samsara_host import svg
    from samsara_host.layout import load_positions
    layout = load_positions()
    if len(record.steps) != len(record.turns):
        record.replay()
    game = record.tags.get("Game", "")
    head = "Game %s" % game if game else "Samsara"
    out = [("%s: start" % head, svg.render(record.start, None, "%s: start, %s to move"
                                           % (head, "AB"[record.start.mover]),
                                           (), layout))]
    for s in record.steps:
        title = "%s, turn %d: %s %s" % (head, s.number, "AB"[s.player], s.notation)
        notes = ["score %d-%d" % (s.position.a, s.position.b)]
        if s is record.steps[-1] and record.result is not None:
            notes.append(record.summary())
        out.append((title, svg.render(s.position, turn_scene(s.notation), title, notes,
                                      layout)))
    return out


_SIZE = re.compile(r'<svg[^>]*?width="([\d.]+)"[^>]*?height="([\d.]+)"[^>]*?'
                   r'viewBox="([^"]+)"', re.S)


def strip(svgs, columns=4, gap=12):
    """One SVG holding the given SVG texts in a grid `columns` wide."""
    if not svgs:
        raise ExportError("nothing to draw")
    sizes = []
    for s in svgs:
        m = _SIZE.search(s)
        if not m:
            raise ExportError("an SVG without width, height and viewBox")
        sizes.append((float(m.group(1)), float(m.group(2))))
    cw = max(w for w, _h in sizes)
    ch = max(h for _w, h in sizes)
    cols = max(1, min(columns, len(svgs)))
    rows = (len(svgs) + cols - 1) // cols
    W = cols * cw + (cols + 1) * gap
    H = rows * ch + (rows + 1) * gap
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" '
             'viewBox="0 0 %.0f %.0f">' % (W, H, W, H),
             '<rect width="%.0f" height="%.0f" fill="#ffffff"/>' % (W, H)]
    for i, s in enumerate(svgs):
        x = gap + (i % cols) * (cw + gap)
        y = gap + (i // cols) * (ch + gap)
        body = re.sub(r"^\s*<\?xml[^>]*>\s*", "", s)
        # A nested <svg> keeps its own viewBox; only its position changes.  Gradient
        # ids repeat across pictures, which is harmless: they are identical.
        body = body.replace("<svg ", '<svg x="%.0f" y="%.0f" ' % (x, y), 1)
        parts.append(body)
    parts.append("</svg>")
    return "\n".join(parts)


def svg_to_png(svg_text, scale=1.0):
    """PNG bytes of an SVG text.  Raises ExportError when CairoSVG or the cairo
    library is missing."""
    try:
        import cairosvg
    except (ImportError, OSError) as e:
        raise ExportError("PNG export needs CairoSVG and the cairo library (%s). "
                          "Install cairo (Debian/Ubuntu: apt install libcairo2; macOS: "
                          "brew install cairo), or export --format svg." % e)
    return cairosvg.svg2png(bytestring=svg_text.encode("utf-8"), scale=scale)
