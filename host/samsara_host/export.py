"""Pictures of a game record: the board after each turn as SVG (one file per turn, or
one strip), PNG, an animated GIF or one self-contained HTML page (docs/host-tool.md
"logs export").

The board itself is drawn by `samsara_host.svg.render` (the hardware geometry); this
module adds the turn's fields as lit rings, titles, and lays pictures out in a strip.
Each turn's picture has an arrow per sub-move, the roll on the dice, a legend and its
caption in words (`caption`).  GIF frames are drawn by CairoSVG and written by Pillow.
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


def sub_moves(notation):
    """[(die, from name, to name, reinsertion name or None)] of a turn's notation;
    unreadable tokens are left out."""
    from samsara.rules.notation import parse_sub_move
    out = []
    for tok in notation.split()[1:]:
        try:
            die, frm, to, ins = parse_sub_move(tok)
        except ValueError:
            continue
        out.append((die, position_name(frm), position_name(to),
                    position_name(ins) if ins >= 0 else None))
    return out


def caption(step, names=("A", "B")):
    """The turn in words, e.g. 'Turn 12: A rolled 5 3, R4 to R9, S20 to S23'; a goal
    says who scores and where the marble goes back ('S22 to GS: A scores, the marble
    back on S7'); a roll without a complete turn says so (Moksha)."""
    roll = step.notation.split()[0] if step.notation else ""
    who = names[step.player]
    head = "Turn %d: %s rolled %s" % (step.number, who, " ".join(roll))
    moves = sub_moves(step.notation)
    if not moves:
        return head + ", no complete turn (Moksha)"
    parts = []
    for _die, frm, to, ins in moves:
        words = "%s to %s" % (frm, to)
        if to in ("GS", "GR"):
            words += " (%s scores, the marble back on %s)" % (
                names[0] if to == "GS" else names[1], ins or "?")
        parts.append(words)
    return "%s, %s" % (head, ", ".join(parts))


def _names(record):
    pa, pb = record.tags.get("PlayerA", "?"), record.tags.get("PlayerB", "?")
    return ("A" if pa in ("", "?") else "A (%s)" % pa,
            "B" if pb in ("", "?") else "B (%s)" % pb)


MARK_COLOURS = {"doubtful": "#c8a000", "mistake": "#e06000", "blunder": "#d00000"}
"""Frame colour of a turn's picture by its analysis flag (`pictures` with analysis)."""


def pictures(record, legend=True, analysis=None, only=None):
    """[(caption, svg text)]: the start, then the board after each turn, each with an
    arrow per sub-move, the roll on the dice, the turn in words and (legend) a key to
    the colours.  analysis: samsara_host.analysis's dict for this record, or None;
    with it each turn's picture says the engine's verdict under the board, and a
    doubtful turn, a mistake or a blunder gets a frame in its MARK_COLOURS colour
    with the word.  only: a turn number (0: the start): that picture alone."""
    from samsara_host import svg
    from samsara_host.layout import load_positions
    layout = load_positions()
    if len(record.steps) != len(record.turns):
        record.replay()
    game = record.tags.get("Game", "")
    head = "Game %s" % game if game else "Samsara"
    names = _names(record)
    players = "%s vs %s" % names if names != ("A", "B") else None
    first = "%s: the start, %s to move" % (head, names[record.start.mover])
    out = []
    if only is None or only == 0:
        out.append((first, svg.render(record.start, None, first,
                                      [players] if players else [], layout, legend=legend)))
    verdicts = {}
    if analysis is not None:
        from samsara_host.analysis import comment
        verdicts = {t["turn"]: t for t in analysis["turns"]}
    for s in record.steps:
        if only is not None and s.number != only:
            continue
        title = caption(s, names)
        notes = ["score: A %d, B %d" % (s.position.a, s.position.b),
                 "record: %d. %s %s" % (s.number, "AB"[s.player], s.notation)]
        v = verdicts.get(s.number)
        mark = None
        if v is not None:
            if comment(v):
                notes.append("%s engine: %s" % (analysis["engine"],
                                                comment(v, analysis["units"])))
            if v["flag"]:
                mark = (v["flag"], MARK_COLOURS[v["flag"]])
        if s is record.steps[-1] and record.result is not None:
            notes.append(record.summary())
        roll = s.notation.split()[0] if s.notation else ""
        dice = (int(roll[0]), int(roll[1])) if len(roll) == 2 and roll.isdigit() else None
        out.append((title, svg.render(
            s.position, turn_scene(s.notation), "%s. %s" % (head, title), notes, layout,
            arrows=[(f, t) for _d, f, t, _i in sub_moves(s.notation)], dice=dice,
            legend=legend, mark=mark)))
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


GIF_MS = 1500        # each turn's frame in the GIF, ms
GIF_LAST_MS = 5000   # the last frame stays longer before the loop starts again


def gif(pics, scale=0.75):
    """An animated GIF (bytes) of [(caption, svg)]: one frame per picture, looping.
    CairoSVG draws each frame, Pillow writes the GIF.  Raises ExportError."""
    import io
    try:
        from PIL import Image
    except ImportError as e:
        raise ExportError("GIF export needs Pillow (%s): pip install -r requirements.txt"
                          % e)
    if not pics:
        raise ExportError("nothing to draw")
    frames = []
    for _caption, svg_text in pics:
        im = Image.open(io.BytesIO(svg_to_png(svg_text, scale))).convert("RGB")
        frames.append(im.convert("P", palette=Image.Palette.ADAPTIVE, colors=255))
    out = io.BytesIO()
    durations = [GIF_MS] * (len(frames) - 1) + [GIF_LAST_MS]
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:],
                   duration=durations, loop=0, optimize=False, disposal=1)
    return out.getvalue()


_IDS = ("marble", "piece", "arrowhead")


def _own_ids(svg_text, k):
    # Inline SVGs share one document: each picture gets its own gradient and marker
    # ids (a hidden picture's definitions do not draw in every browser).
    for name in _IDS:
        svg_text = svg_text.replace('id="%s"' % name, 'id="%s-%d"' % (name, k))
        svg_text = svg_text.replace("url(#%s)" % name, "url(#%s-%d)" % (name, k))
    return svg_text


HTML_SCRIPT = """
var turns = document.querySelectorAll(".turn"), k = 0;
var pos = document.getElementById("pos"), slider = document.getElementById("slider");
function show(n) {
  k = Math.max(0, Math.min(turns.length - 1, n));
  for (var i = 0; i < turns.length; i++) turns[i].hidden = (i !== k);
  pos.textContent = (k + 1) + " / " + turns.length;
  slider.value = k;
}
document.getElementById("first").onclick = function () { show(0); };
document.getElementById("prev").onclick = function () { show(k - 1); };
document.getElementById("next").onclick = function () { show(k + 1); };
document.getElementById("last").onclick = function () { show(turns.length - 1); };
slider.oninput = function () { show(parseInt(slider.value, 10)); };
document.addEventListener("keydown", function (e) {
  if (e.key === "ArrowRight" || e.key === " ") { show(k + 1); e.preventDefault(); }
  else if (e.key === "ArrowLeft") { show(k - 1); e.preventDefault(); }
  else if (e.key === "Home") { show(0); }
  else if (e.key === "End") { show(turns.length - 1); }
});
show(0);
"""


def html(record, pics):
    """One self-contained HTML page (text) of [(caption, svg)]: the record's tags, every
    picture inline, buttons, a slider and the arrow keys to step through; no file or
    address outside it is needed."""
    from html import escape
    tags = record.tags
    title = "Samsara game %s" % tags.get("Game", "")
    names = _names(record)
    meta = [("Players", "%s vs %s" % names), ("Event", tags.get("Event")),
            ("Date", tags.get("Date")), ("Board", tags.get("Board")),
            ("Against the board", "it played %s at level %s" % (
                tags["VsBoard"], tags.get("Level", "?")) if tags.get("VsBoard") else None),
            ("Result", record.summary())]
    out = ['<!DOCTYPE html>', '<html lang="en"><head><meta charset="utf-8">',
           '<title>%s</title>' % escape(title.strip()),
           '<style>body{font-family:sans-serif;margin:1em;background:#fbf8f1;color:#222}'
           '.turn svg{max-width:100%;height:auto}nav button{font-size:1.1em}'
           'dl{display:grid;grid-template-columns:max-content auto;gap:0 1em}'
           'dt{font-weight:bold}</style></head><body>',
           '<h1>%s</h1>' % escape(title.strip()), '<dl>']
    for key, value in meta:
        if value and value not in ("?", "????.??.??"):
            out.append("<dt>%s</dt><dd>%s</dd>" % (escape(key), escape(str(value))))
    out.append("</dl>")
    out.append('<nav><button id="first">|&lt;</button> <button id="prev">&lt; previous'
               '</button> <button id="next">next &gt;</button> <button id="last">&gt;|'
               '</button> <span id="pos"></span> <input id="slider" type="range" min="0" '
               'max="%d" value="0"> <small>(arrow keys step)</small></nav>'
               % (len(pics) - 1))
    for k, (caption, svg_text) in enumerate(pics):
        out.append('<section class="turn"%s><h2>%s</h2>%s</section>'
                   % (" hidden" if k else "", escape(caption), _own_ids(svg_text, k)))
    out.append("<script>%s</script></body></html>" % HTML_SCRIPT)
    return "\n".join(out) + "\n"
