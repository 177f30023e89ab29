"""A Schaska board in the terminal (rich), drawn from a layout and a state object
(docs/schaska.md "The state object"): the track of fields with their values (green +k
forward, red -k backward, gold 8) and the figures on them, each player's start and home
at the ends.  `samsara demo --game schaska` shows it live (samsara_host.games_demo).

    render(layout, state_obj, title, move=None, note="")

`move` is the last turn's move object {"from": "start" | f, "to": f | "home" | "start"};
its fields are marked.  A track wider than the screen is
drawn in rows of ROW_FIELDS fields.
"""
from rich.console import Group
from rich.panel import Panel
from rich.text import Text

from schaska.rules.layout import format_value
from schaska.rules.state import FIGURES, PLAYERS

COLOUR = ("bold rgb(70,140,255)", "bold rgb(235,80,70)")
"""Each player's colour (A blue, B red)."""
FIGURE = "\u25b2"          # ▲ a figure
GONE = "\u00b7"
CELL = 4                    # characters per field
ROW_FIELDS = 16             # fields per drawn row


def value_style(v):
    """The style of a field value: green forward, red backward, gold 8."""
    if v == 8:
        return "bold black on rgb(230,190,60)"
    if v > 0:
        return "bold white on rgb(40,140,70)"
    return "bold white on rgb(190,50,50)"


def _owner(state_obj, f):
    for p in (0, 1):
        if f in state_obj[PLAYERS[p]]["fields"]:
            return p
    return None


def _marked(move, f):
    return move is not None and f in (move.get("from"), move.get("to"))


def track_text(layout, state_obj, move=None):
    """The track as rich Text: per row of fields the field numbers, the values and the
    figures on them; the field a figure left and the field it reached are marked (move:
    the last turn's move object)."""
    n = len(layout)
    out = Text()
    for lo in range(1, n + 1, ROW_FIELDS):
        hi = min(n, lo + ROW_FIELDS - 1)
        if lo > 1:
            out.append("\n")
        out.append("   field ", style="dim")
        for f in range(lo, hi + 1):
            out.append(("%d" % f).center(CELL), style="dim")
        out.append("\n   value ", style="dim")
        for f in range(lo, hi + 1):
            out.append(" ")
            out.append(format_value(layout[f - 1]).center(CELL - 2), style=value_style(layout[f - 1]))
            out.append(" ")
        out.append("\n         ")
        for f in range(lo, hi + 1):
            p = _owner(state_obj, f)
            mark = _marked(move, f)
            if p is None:
                out.append(" \u00b7  " if not mark else " \u2218  ",
                           style="dim" if not mark else "bold yellow")
            else:
                out.append(" ")
                out.append(FIGURE, style=COLOUR[p] + (" reverse" if mark else ""))
                out.append("  ")
    return out


def ends_text(state_obj, n):
    """Each end of the track as rich Text: A's start and B's home before field 1, B's
    start and A's home after field n, a mark per figure."""
    a, b = state_obj["A"], state_obj["B"]
    t = Text("   before field 1:  ")
    t.append("A start ", style=COLOUR[0])
    t.append(FIGURE * a["start"] + GONE * (FIGURES - a["start"]), style=COLOUR[0])
    t.append("  B home ", style=COLOUR[1])
    t.append(FIGURE * b["home"] + GONE * (FIGURES - b["home"]), style=COLOUR[1])
    t.append("\n   after field %d:  " % n + (" " if n < 10 else ""))
    t.append("B start ", style=COLOUR[1])
    t.append(FIGURE * b["start"] + GONE * (FIGURES - b["start"]), style=COLOUR[1])
    t.append("  A home ", style=COLOUR[0])
    t.append(FIGURE * a["home"] + GONE * (FIGURES - a["home"]), style=COLOUR[0])
    t.append("\n   A moves toward field %d, B toward field 1" % n, style="dim")
    return t


def render(layout, state_obj, title, move=None, note=""):
    """The whole picture as a rich Panel: the track, both ends, whose turn it is and a
    line of words (`note`)."""
    parts = [track_text(layout, state_obj, move), Text(""),
             ends_text(state_obj, len(layout))]
    if note:
        parts.append(Text(""))
        parts.append(Text("  " + note, style="bold"))
    return Panel(Group(*parts), title=title, border_style="rgb(150,110,60)", expand=False)
