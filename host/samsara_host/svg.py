"""An SVG picture of a board position, with the lit LEDs of a scene (docs/simulator.md).

`render(position, scene=None, title=None, notes=())` returns the SVG text.  The holes are
drawn from `samsara_host.layout.load_positions()`: the hardware table's x_mm, y_mm
when it exists, else the computed layout, so the picture is the board's real geometry.

- round holes (R lane, GR, B's round scoring track) are circles, angular holes (S lane,
  GS, A's angular scoring track) squares; the goals are drawn larger;
- a marble is a dark glossy disc, a scoring piece a gold token (A's square, B's round);
- a lit LED is a coloured ring around its hole, in the scene's colour; the dice and the
  turn indicators are drawn where their LEDs sit;
- the connecting lines R12->R13, S12->S13, R24->GR, S24->GS are thin curves.
"""
from samsara.rules.geometry import (GS, GR, A_TRACK, B_TRACK, position_index, position_name,
                              score_position)
from samsara_host.layout import load_positions
from samsara_hw.names import LED_ONLY_NAMES

MARGIN_MM = 24.0
HOLE_R = 7.0
PX_PER_MM = 2.6


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


def render(position, scene=None, title=None, notes=(), layout=None):
    """SVG text of `position` (samsara.rules.position.Position) with the lit LEDs of `scene`
    ({LED or position name: '#rrggbb'}, unlit LEDs left out).  title: a heading line;
    notes: further lines of text under the board (e.g. the result).  layout: the
    (coords, leds, source) triple of load_positions(), loaded when None."""
    coords, leds, source = layout if layout is not None else load_positions()
    scene = scene or {}
    pts = list(coords.values()) + list(leds.values())
    xmin = min(x for x, _ in pts) - MARGIN_MM
    xmax = max(x for x, _ in pts) + MARGIN_MM
    ymin = min(y for _, y in pts) - MARGIN_MM
    ymax = max(y for _, y in pts) + MARGIN_MM
    head = 16.0 if title else 0.0
    foot = 7.0 * len(notes) + (8.0 if notes else 0.0) + 6.0
    w = xmax - xmin
    h = ymax - ymin + head + foot

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
    if title:
        a('<text x="%.1f" y="11" font-size="8" text-anchor="middle" fill="#222">%s</text>'
          % (w / 2, _esc(title)))
    a('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="10" fill="#d9b380" '
      'stroke="#7a5230" stroke-width="1.5"/>'
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
        a('<text x="%s" y="%s" font-size="3.6" text-anchor="middle" fill="#4a2f16">%s</text>'
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

    # Dice pips and turn indicators: dark when unlit, in the scene colour when lit.
    for name in LED_ONLY_NAMES:
        if name not in leds:
            continue
        x, y = leds[name]
        col = scene.get(name)
        if name.startswith("D"):
            a('<circle cx="%s" cy="%s" r="2.1" fill="%s" stroke="#3b2410" stroke-width="0.3"/>'
              % (X(x), Y(y), col or "#6d5238"))
        else:
            a('<circle cx="%s" cy="%s" r="2.8" fill="%s" stroke="#3b2410" stroke-width="0.4"/>'
              % (X(x), Y(y), col or "#6d5238"))
    # Player labels at their sides.
    a('<text x="%.1f" y="%s" font-size="6" text-anchor="middle" fill="#222">A</text>'
      % (w / 2, "%.1f" % (ymax - ymin + head - 1.0)))
    a('<text x="%.1f" y="%.1f" font-size="6" text-anchor="middle" fill="#222">B</text>'
      % (w / 2, head + 0.5 + 6.0 if not title else head + 6.0))
    y0 = ymax - ymin + head + 8.0
    for i, line in enumerate(notes):
        a('<text x="6" y="%.1f" font-size="5" fill="#222" font-family="DejaVu Sans Mono, '
          'monospace">%s</text>' % (y0 + 7.0 * i, _esc(line)))
    a("</svg>")
    return "\n".join(out) + "\n"


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
