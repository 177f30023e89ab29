"""An SVG picture of a board position, with the lit LEDs of a scene (docs/simulator.md).

`render(position, scene=None, title=None, notes=())` returns the SVG text.  The holes are
drawn from `samsara_host.layout.load_positions()`: the hardware table's x_mm, y_mm
when it exists, else the computed layout, so the picture is the board's real geometry.

- round holes (R lane, GR, B's round scoring track) are circles, angular holes (S lane,
  GS, A's angular scoring track) squares; the goals are drawn larger;
- a marble is a dark glossy disc, a scoring piece a gold token (A's square, B's round);
- a lit LED is a coloured ring around its hole, in the scene's colour; the dice and the
  turn indicators are drawn where their LEDs sit;
- the connecting lines R12->R13, S12->S13, R24->GR, S24->GS are thin curves;
- optionally (`logs export`): an arrow per sub-move, the roll on the dice's pips and a
  legend of the colours; the player labels A and B sit outside the frame.
"""
from samsara.rules.geometry import (GS, GR, A_TRACK, B_TRACK, position_index, position_name,
                              score_position)
from samsara_host.layout import load_positions
from samsara_hw.names import LED_ONLY_NAMES
from samsara.scene import PIPS

MARGIN_MM = 24.0
HOLE_R = 7.0
PX_PER_MM = 2.6
SIDE_LABEL = 8.0           # room for the player labels A and B outside the frame
LEGEND_H = 9.0
ARROW_COLOUR = "#c0392b"   # a sub-move's arrow
ARROW_KINDS = {"move": ARROW_COLOUR, "board": "#1f5fbf", "hint": "#138a36"}
"""An arrow's colour by its kind: a move played (the last turn), the board's own move
to carry out, a hint."""
DICE_COLOUR = "#ff3030"    # the lit pips of the roll


def _esc(text):
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def _is_round(p):
    if p < 24 or p == GR:
        return True
    if p < 48 or p == GS:
        return False
    return p >= B_TRACK   # B's scoring track is round, A's angular


def occupied_positions(position):
    """Position indexes holding a marble or scoring piece in a samsara Position: the
    marbles' fields and each scoring piece on the field of its score."""
    out = [p for p in range(48) if position.occupied(p)]
    out.append(score_position(0, position.a))
    out.append(score_position(1, position.b))
    return out


def render(position, scene=None, title=None, notes=(), layout=None, arrows=(), dice=None,
           legend=False, mark=None):
    """SVG text of `position` (samsara.rules.position.Position) with the lit LEDs of `scene`
    ({LED or position name: '#rrggbb'}, unlit LEDs left out).  title: a heading line;
    notes: further lines of text under the board (e.g. the result).  layout: the
    (coords, leds, source) triple of load_positions(), loaded when None.
    arrows: [(from name, to name)] or [(from, to, kind)], one arrow per sub-move,
    origin to target; kind one of ARROW_KINDS (default "move"; "board" and "hint"
    are drawn dashed, class "move board" / "move hint");
    dice: (d1, d2) drawn on the dice display's pips (die 1, die 2) in DICE_COLOUR;
    legend: a key to the colours and marks under the board.
    mark: None, or (word, '#rrggbb'): a frame of that colour around the picture and
    the word in its bottom right corner (class "mark", data-flag the word), e.g. an
    analysis's 'blunder'.

    Every hole label (class "label") lies off the board's frame (class "frame"); the
    dice pips are class "pip" with data-lit "1" when lit."""
    coords, leds, source = layout if layout is not None else load_positions()
    g = _frame(coords, leds, title, notes, legend)
    scene = dict(scene or {})
    if dice:
        for die, value in ((1, dice[0]), (2, dice[1])):
            mask = PIPS[value] if 0 <= value < len(PIPS) else 0
            for k in range(7):
                if mask >> k & 1:
                    scene["D%d.%d" % (die, k)] = DICE_COLOUR
    xmin, xmax, ymin, ymax, w, h, head, title_lines = g

    def X(x):
        return "%.1f" % (x - xmin)

    def Y(y):
        return "%.1f" % (ymax - y + head)

    out = []
    a = out.append
    a('<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" '
      'viewBox="0 0 %.1f %.1f" font-family="DejaVu Sans, Arial, sans-serif">'
      % (w * PX_PER_MM, h * PX_PER_MM, w, h))
    a('<defs><radialGradient id="marble" cx="35%" cy="35%" r="65%">'
      '<stop offset="0" stop-color="#9fb6d9"/><stop offset="0.45" stop-color="#2f4f86"/>'
      '<stop offset="1" stop-color="#0d1a33"/></radialGradient>'
      '<radialGradient id="piece" cx="35%" cy="35%" r="70%">'
      '<stop offset="0" stop-color="#fff3b0"/><stop offset="1" stop-color="#b8860b"/>'
      '</radialGradient></defs>')
    a('<rect x="0" y="0" width="%.1f" height="%.1f" fill="#fbf8f1"/>' % (w, h))
    for i, line in enumerate(title_lines):
        a('<text x="%.1f" y="%.1f" font-size="8" text-anchor="middle" fill="#222">%s</text>'
          % (w / 2, 11.0 + 9.0 * i, _esc(line)))
    a('<defs><marker id="arrowhead" viewBox="0 0 10 10" refX="8" refY="5" '
      'markerWidth="4" markerHeight="4" orient="auto-start-reverse">'
      '<path d="M 0 0 L 10 5 L 0 10 z" fill="%s"/></marker></defs>' % ARROW_COLOUR)
    for kind in sorted(set(_kind(x) for x in arrows) - {"move"}):
        a('<defs><marker id="arrowhead-%s" viewBox="0 0 10 10" refX="8" refY="5" '
          'markerWidth="4" markerHeight="4" orient="auto-start-reverse">'
          '<path d="M 0 0 L 10 5 L 0 10 z" fill="%s"/></marker></defs>'
          % (kind, ARROW_KINDS[kind]))
    a('<rect class="frame" x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="10" '
      'fill="#d9b380" stroke="#7a5230" stroke-width="1.5"/>'
      % (4, head + 4, w - 8, ymax - ymin - 8))

    # Connecting lines between the lane ends and into the goals.
    def link(n1, n2):
        x1, y1 = coords[position_index(n1)]
        x2, y2 = coords[position_index(n2)]
        bend = -1 if x1 < 0 or x1 < (xmin + xmax) / 2 else 1
        cx = (x1 + x2) / 2 + bend * 24.0
        a('<path d="M %s %s Q %s %s %s %s" fill="none" stroke="#7a5230" '
          'stroke-width="0.8" stroke-dasharray="2 1.5"/>'
          % (X(x1), Y(y1), X(cx), Y((y1 + y2) / 2), X(x2), Y(y2)))

    link("R12", "R13")
    link("S12", "S13")
    link("R24", "GR")
    link("S24", "GS")

    labels = []    # drawn over the rings of the holes to fix, so no name is hidden
    for p in sorted(coords):
        x, y = coords[p]
        name = position_name(p)
        r = HOLE_R * (1.35 if p in (GS, GR) else (0.8 if p >= A_TRACK else 1.0))
        lit = scene.get(name)
        if lit:
            a('<circle cx="%s" cy="%s" r="%.1f" fill="none" stroke="%s" stroke-width="2.6" '
              'opacity="0.95"/>' % (X(x), Y(y), r + 2.6, lit))
        if _is_round(p):
            a('<circle cx="%s" cy="%s" r="%.1f" fill="#5c3b1e" stroke="#3b2410" '
              'stroke-width="0.6"/>' % (X(x), Y(y), r))
        else:
            a('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#5c3b1e" '
              'stroke="#3b2410" stroke-width="0.6"/>'
              % (x - xmin - r, ymax - y + head - r, 2 * r, 2 * r))
        ly = y - r - 4.2 if p < 48 and _below_row(p, coords) else y + r + 1.8
        labels.append('<text class="label" x="%s" y="%s" font-size="3.6" '
                      'text-anchor="middle" fill="#4a2f16" stroke="#e6c79a" '
                      'stroke-width="0.9" paint-order="stroke">%s</text>'
                      % (X(x), Y(ly), name))

    for p in range(48):
        if position.occupied(p):
            x, y = coords[p]
            a('<circle cx="%s" cy="%s" r="%.1f" fill="url(#marble)"/>' % (X(x), Y(y), HOLE_R - 1.0))
    for player, score in ((0, position.a), (1, position.b)):
        p = score_position(player, score)
        x, y = coords[p]
        rr = HOLE_R * 0.8 - 0.6
        if player == 0:
            a('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="1" fill="url(#piece)" '
              'stroke="#6b4e00" stroke-width="0.5"/>'
              % (x - xmin - rr, ymax - y + head - rr, 2 * rr, 2 * rr))
        else:
            a('<circle cx="%s" cy="%s" r="%.1f" fill="url(#piece)" stroke="#6b4e00" '
              'stroke-width="0.5"/>' % (X(x), Y(y), rr))

    out.extend(labels)
    # Dice pips and turn indicators: dark when unlit, in the scene colour when lit.
    for name in LED_ONLY_NAMES:
        if name not in leds:
            continue
        x, y = leds[name]
        col = scene.get(name)
        if name.startswith("D"):
            a('<circle class="pip" data-lit="%d" cx="%s" cy="%s" r="2.1" fill="%s" '
              'stroke="#3b2410" stroke-width="0.3"/>'
              % (1 if col else 0, X(x), Y(y), col or "#6d5238"))
        else:
            a('<circle cx="%s" cy="%s" r="2.8" fill="%s" stroke="#3b2410" stroke-width="0.4"/>'
              % (X(x), Y(y), col or "#6d5238"))
    for arr in arrows:
        _arrow(a, coords, arr[0], arr[1], X, Y, xmin, xmax, _kind(arr))
    # Player labels at their sides, outside the frame.
    a('<text class="label" x="%.1f" y="%.1f" font-size="6" text-anchor="middle" '
      'fill="#222">A</text>' % (w / 2, ymax - ymin + head + SIDE_LABEL - 0.5))
    a('<text class="label" x="%.1f" y="%.1f" font-size="6" text-anchor="middle" '
      'fill="#222">B</text>' % (w / 2, head - 1.5))
    y0 = ymax - ymin + head + SIDE_LABEL + 8.0
    for i, line in enumerate(notes):
        a('<text x="6" y="%.1f" font-size="5" fill="#222" font-family="DejaVu Sans Mono, '
          'monospace">%s</text>' % (y0 + 7.0 * i, _esc(line)))
    if legend:
        _legend(a, y0 + 7.0 * len(notes) + 2.0, w)
    if mark:
        word, colour = mark
        a('<g class="mark" data-flag="%s"><rect x="1" y="1" width="%.1f" height="%.1f" '
          'fill="none" stroke="%s" stroke-width="2"/><text x="%.1f" y="%.1f" font-size="5" '
          'text-anchor="end" font-weight="bold" fill="%s">%s</text></g>'
          % (_esc(word), w - 2, h - 2, colour, w - 5, h - 2.5, colour, _esc(word)))
    a("</svg>")
    return "\n".join(out) + "\n"


def _frame(coords, leds, title, notes, legend):
    # The picture's extent: (xmin, xmax, ymin, ymax) of the board in mm, the
    # picture's width and height, the height above the board and the title's lines.
    pts = list(coords.values()) + list(leds.values())
    xmin = min(x for x, _ in pts) - MARGIN_MM
    xmax = max(x for x, _ in pts) + MARGIN_MM
    ymin = min(y for _, y in pts) - MARGIN_MM
    ymax = max(y for _, y in pts) + MARGIN_MM
    w = xmax - xmin
    title_lines = wrap(title, int((w - 10.0) / 4.6)) if title else []
    head = (16.0 + 9.0 * (len(title_lines) - 1) if title else 4.0) + SIDE_LABEL
    legend_h = LEGEND_H if legend else 0.0
    foot = SIDE_LABEL + 7.0 * len(notes) + (8.0 if notes else 0.0) + 6.0 + legend_h
    h = ymax - ymin + head + foot
    return xmin, xmax, ymin, ymax, w, h, head, title_lines


def hole_points(layout=None, title=None, notes=(), legend=False):
    """{position name: (x, y, r)}: the centre and radius of every hole in the units of
    the SVG that `render` draws with the same layout, title, notes and legend (for a
    page that puts clickable spots over the picture, or a test that reads which holes
    hold a drawn marble).  Floats rounded as render writes them (0.1)."""
    coords, leds, _source = layout if layout is not None else load_positions()
    xmin, _xmax, _ymin, ymax, _w, _h, head, _t = _frame(coords, leds, title, notes, legend)
    out = {}
    for p in sorted(coords):
        x, y = coords[p]
        r = HOLE_R * (1.35 if p in (GS, GR) else (0.8 if p >= A_TRACK else 1.0))
        out[position_name(p)] = (round(x - xmin, 1), round(ymax - y + head, 1), round(r, 1))
    return out


def wrap(text, width):
    """`text` in lines of at most `width` characters, broken after commas, else at
    spaces (a longer word stays whole)."""
    words = str(text).split(" ")
    lines = [""]
    for word in words:
        if lines[-1] and len(lines[-1]) + 1 + len(word) > width:
            lines.append(word)
        else:
            lines[-1] = (lines[-1] + " " + word) if lines[-1] else word
    return lines


def _kind(arrow):
    k = arrow[2] if len(arrow) > 2 else "move"
    return k if k in ARROW_KINDS else "move"


def _arrow(a, coords, frm, to, X, Y, xmin, xmax, kind="move"):
    # One sub-move: a curve from the origin's hole to the target's, an arrowhead at
    # the target.  Between the two rows (round the board's end) it bends outwards.
    try:
        x1, y1 = coords[position_index(frm)]
        x2, y2 = coords[position_index(to)]
    except (KeyError, ValueError):
        return
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    if abs(y1 - y2) > 3 * HOLE_R:
        mid = (xmin + xmax) / 2
        cx = (min(x1, x2) - 40.0) if mx < mid else (max(x1, x2) + 40.0)
        cy = my
    else:
        cx, cy = mx, my + 14.0 + abs(x1 - x2) * 0.08
    # start and end a little off the holes' centres, so the marbles stay visible
    def toward(xa, ya, xb, yb, d):
        dx, dy = xb - xa, yb - ya
        n = (dx * dx + dy * dy) ** 0.5 or 1.0
        return xa + dx * d / n, ya + dy * d / n
    sx, sy = toward(x1, y1, cx, cy, HOLE_R * 0.6)
    ex, ey = toward(x2, y2, cx, cy, HOLE_R * 0.9)
    if kind == "move":
        a('<path class="move" d="M %s %s Q %s %s %s %s" fill="none" stroke="%s" '
          'stroke-width="1.6" stroke-linecap="round" opacity="0.9" '
          'marker-end="url(#arrowhead)"><title>%s to %s</title></path>'
          % (X(sx), Y(sy), X(cx), Y(cy), X(ex), Y(ey), ARROW_COLOUR, _esc(frm), _esc(to)))
        return
    a('<path class="move %s" data-from="%s" data-to="%s" d="M %s %s Q %s %s %s %s" '
      'fill="none" stroke="%s" stroke-width="2.2" stroke-dasharray="3 1.6" '
      'stroke-linecap="round" marker-end="url(#arrowhead-%s)"><title>%s to %s</title></path>'
      % (kind, _esc(frm), _esc(to), X(sx), Y(sy), X(cx), Y(cy), X(ex), Y(ey),
         ARROW_KINDS[kind], kind, _esc(frm), _esc(to)))


LEGEND = (("ring", "#ffb000", "fields of this turn"), ("ring", "#30c030", "goal entered"),
          ("arrow", ARROW_COLOUR, "a move, origin to target"),
          ("pip", "#ff3030", "the roll on the dice"),
          ("marble", None, "marble"), ("piece", None, "scoring piece (score)"))


def _legend(a, y, w):
    # One row: a mark and its words per entry.
    a('<g class="legend" font-size="4.2" fill="#222">')
    x = 6.0
    step = (w - 12.0) / len(LEGEND)
    for kind, col, words in LEGEND:
        cx, cy = x + 3.0, y + 3.0
        if kind == "ring":
            a('<circle cx="%.1f" cy="%.1f" r="2.6" fill="#5c3b1e" stroke="%s" '
              'stroke-width="1.4"/>' % (cx, cy, col))
        elif kind == "arrow":
            a('<path d="M %.1f %.1f L %.1f %.1f" stroke="%s" stroke-width="1.6" '
              'marker-end="url(#arrowhead)"/>' % (cx - 3.0, cy, cx + 2.0, cy, col))
        elif kind == "pip":
            a('<circle cx="%.1f" cy="%.1f" r="2.1" fill="%s"/>' % (cx, cy, DICE_COLOUR))
        elif kind == "marble":
            a('<circle cx="%.1f" cy="%.1f" r="2.8" fill="url(#marble)"/>' % (cx, cy))
        else:
            a('<circle cx="%.1f" cy="%.1f" r="2.6" fill="url(#piece)" stroke="#6b4e00" '
              'stroke-width="0.4"/>' % (cx, cy))
        a('<text x="%.1f" y="%.1f">%s</text>' % (x + 9.0, cy + 1.5, _esc(words)))
        x += step
    a('</g>')


def _below_row(p, coords):
    # True for holes of a bottom row: their labels go below them (under the board edge
    # side), top-row labels go above.
    _x, y = coords[p]
    ys = sorted(set(v[1] for q, v in coords.items() if q < 48))
    return y <= ys[len(ys) // 2 - 1]


def write(path, position, scene=None, title=None, notes=()):
    """Render and write the SVG to `path`; returns the path."""
    text = render(position, scene, title, notes)
    with open(path, "w") as f:
        f.write(text)
    return path
