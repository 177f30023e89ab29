"""A compact terminal picture of a position (for `samsara monitor` and `logs show`).

The board as seen from above, player A at the bottom (docs/rules.md §1):

         13 14 15 16 17 18 19 20 21 22 23 24
    R     ○  ○  ○  ○  ○  ○  ○  ○  ○  ○  ○  ○    GR    top outer: R13..R24
    S     ■  ■  ■  ■  ■  ■  □  □  □  □  □  □          top inner: S1..S12
          1  2  3  4  5  6  7  8  9 10 11 12
    A 0 ◆□□□□□◇   ◇○○○○○◆ 0 B                          scoring tracks (tracks_text)
         12 11 10  9  8  7  6  5  4  3  2  1
    R     ○  ○  ○  ○  ○  ○  ●  ●  ●  ●  ●  ●          bottom inner: R12..R1
    GS  S  □  □  □  □  □  □  □  □  □  □  □  □         bottom outer: S24..S13
         24 23 22 21 20 19 18 17 16 15 14 13

Round holes are ○ (● with a marble), angular holes □ (■).  A column is one double
space: R i above or below its partner S i+12, S i with R i+12.  `highlight` fields
(position indexes, see samsara.rules.geometry) are drawn in yellow, e.g. the fields the last
turn touched.  `render` returns a rich Text; `.plain` is the same picture without
colour (what tests compare and what a pipe receives).
"""
from rich.text import Text

from samsara.rules.geometry import GS, GR, position_index

ROUND_FULL, ROUND_EMPTY = "\u25cf", "\u25cb"    # ● ○
SQUARE_FULL, SQUARE_EMPTY = "\u25a0", "\u25a1"  # ■ □
CENTRE = "\u25c7"  # ◇
PIECE = "\u25c6"   # ◆ a scoring piece
CELL = 3

TOP_OUTER = ["R%d" % i for i in range(13, 25)]
TOP_INNER = ["S%d" % i for i in range(1, 13)]
BOTTOM_INNER = ["R%d" % i for i in range(12, 0, -1)]
BOTTOM_OUTER = ["S%d" % i for i in range(24, 12, -1)]


def _occupied(pos, name):
    p = position_index(name)
    return pos.occupied(p)


def _labels(names, left="      "):
    return Text(left + "".join(("%" + str(CELL) + "s") % n[1:] for n in names))


def _row(pos, names, lane, left, right, highlight):
    t = Text(left)
    for n in names:
        full = _occupied(pos, n)
        if lane == "R":
            ch = ROUND_FULL if full else ROUND_EMPTY
        else:
            ch = SQUARE_FULL if full else SQUARE_EMPTY
        style = "bold yellow" if position_index(n) in highlight else (
            "bold" if full else "dim")
        t.append(" " * (CELL - 1))
        t.append(ch, style=style)
    t.append(right)
    return t


def tracks_text(a, b, full=None, style=None, names=("A", "B")):
    """The two scoring tracks on one line, the one drawing of them used by the demo
    panel (samsara_host.live), `monitor` and `logs show`:

        A 0 \u25c6\u25a1\u25a1\u25a1\u25a1\u25a1\u25c7   \u25c7\u25cb\u25cb\u25cb\u25cb\u25cb\u25c6 0 B

    A's track is angular (\u25a1), B's round (\u25cb), as on the board; each has six own
    fields (score 0..5) and its centre field \u25c7 (score 6), A's from the left, B's from
    the right; a scoring piece is \u25c6.  a, b: the scores shown as numbers.
    full(player, k): is there a piece on field k (0..6) of player 0/1's track (default:
    k is the score); style(player, k, full): a rich style for the cell, or None for the
    default (bold yellow for a piece, dim for an empty field).  Returns a rich Text."""
    scores = (a, b)
    t = Text("%s %d " % (names[0], a))
    for player in (0, 1):
        ks = range(7) if player == 0 else range(6, -1, -1)
        if player == 1:
            t.append("   ")
        for k in ks:
            on = full(player, k) if full is not None else k == scores[player]
            if on:
                ch = PIECE
            elif k == 6:
                ch = CENTRE
            else:
                ch = SQUARE_EMPTY if player == 0 else ROUND_EMPTY
            st = style(player, k, on) if style is not None else None
            t.append(ch, style=st or ("bold yellow" if on else "dim"))
    t.append(" %d %s" % (b, names[1]))
    return t


def render(pos, highlight=(), dice=None, note=None, names=("A", "B")):
    """The picture of Position `pos` as a rich Text.

    highlight: position indexes to mark; dice: (d1, d2) shown on the side of the player
    to move or None; note: a line under the board (e.g. the last turn's notation);
    names: what to call players A and B.
    """
    hl = set(highlight)
    gr = "  GR" + ("*" if GR in hl else "")
    gs = "GS" + ("*" if GS in hl else " ")  # 3 wide: with " S " the 6-wide row head
    mover = pos.mover
    lines = []
    lines.append(_labels(TOP_OUTER))
    lines.append(_row(pos, TOP_OUTER, "R", "    R ", gr, hl))
    lines.append(_row(pos, TOP_INNER, "S", "    S ", "", hl))
    lines.append(_labels(TOP_INNER))
    centre = Text("    ")
    centre.append_text(tracks_text(pos.a, pos.b))
    lines.append(centre)
    lines.append(_labels(BOTTOM_INNER))
    lines.append(_row(pos, BOTTOM_INNER, "R", "    R ", "", hl))
    lines.append(_row(pos, BOTTOM_OUTER, "S", gs + " S ", "", hl))
    lines.append(_labels(BOTTOM_OUTER))
    who = names[mover]
    status = Text("    to move: ")
    status.append("%s (%s)" % ("AB"[mover], who) if who != "AB"[mover] else "AB"[mover],
                  style="bold")
    if dice:
        status.append("   dice: %d %d" % (dice[0], dice[1]), style="bold cyan")
    lines.append(status)
    if note:
        lines.append(Text("    " + note))
    out = Text()
    for i, line in enumerate(lines):
        if i:
            out.append("\n")
        out.append_text(line)
    return out


def turn_fields(turn):
    """Position indexes a turn's notation names (froms, tos, reinsertions), to
    highlight; unparsable tokens are ignored."""
    from samsara.rules.notation import parse_sub_move
    out = set()
    for tok in turn.split()[1:]:
        try:
            _die, frm, to, ins = parse_sub_move(tok)
        except ValueError:
            continue
        out.add(frm)
        out.add(to)
        if ins >= 0:
            out.add(ins)
    return out
