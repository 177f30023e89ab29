"""A Samas board in the terminal (rich), drawn from a state object (docs/samas.md "The
state object"): the 9 hollows with both Sama-stones, each player's stones and jokers
left, and a round's two choices once they are revealed.  `samsara demo --game samas`
shows it live (samsara_host.games_demo).

    render(state_obj, title, shown=None, note="")

`shown` is None while the choices are secret (both players are choosing), or
{"A": SEL, "B": SEL} once revealed (SEL one of "0", "1", "2", "3", "J").
"""
from rich.console import Group
from rich.panel import Panel
from rich.text import Text

from samas.rules.state import FAR_END, HOLLOWS, JOKERS, PLAYERS, STONES

COLOUR = ("bold rgb(70,140,255)", "bold rgb(235,80,70)")
"""Each player's colour (A blue, B red): Sama-stone, stones, name."""
SAMA = "\u25c9"        # ◉ a Sama-stone
STONE = "\u25cf"       # ● a stone
GONE = "\u00b7"        # · a stone or joker no longer held
JOKER = "\u2605"       # ★ a joker
HIDDEN = "?"
CELL = 7               # characters per hollow


def hollows_text(state_obj, moved=()):
    """The track of 9 hollows as rich Text (4 lines): the hollow numbers, the hollows
    with the Sama-stones in them (a hollow may hold both), and where each player races
    to.  moved: the players ("A", "B") whose Sama-stone just moved (drawn with an arrow)."""
    holes = [state_obj[p]["hole"] for p in PLAYERS]
    out = Text()
    out.append("        ")
    for h in range(1, HOLLOWS + 1):
        out.append(("%d" % h).center(CELL), style="dim")
    out.append("\n        ")
    out.append("\u256d" + "\u2500" * (CELL * HOLLOWS - 2) + "\u256e", style="rgb(150,110,60)")
    out.append("\n  A \u2192   ", style=COLOUR[0])   # A's baseline is at hollow 1
    for h in range(1, HOLLOWS + 1):
        cell = Text(" ( ", style="rgb(150,110,60)")
        inside = [p for p in (0, 1) if holes[p] == h]
        if not inside:
            cell.append("  ", style="dim")
        for p in inside:
            cell.append(SAMA, style=COLOUR[p] + (" reverse" if PLAYERS[p] in moved else ""))
        if len(inside) == 1:
            cell.append(" ")
        cell.append(") ", style="rgb(150,110,60)")
        out.append_text(cell)
    out.append("  \u2190 B", style=COLOUR[1])
    out.append("\n        ")
    out.append("\u2570" + "\u2500" * (CELL * HOLLOWS - 2) + "\u256f", style="rgb(150,110,60)")
    out.append("\n        ")
    left = "A races to %d \u2192" % FAR_END[0]
    right = "\u2190 B races to %d" % FAR_END[1]
    out.append(left, style=COLOUR[0])
    out.append(" " * max(1, CELL * HOLLOWS - len(left) - len(right)))
    out.append(right, style=COLOUR[1])
    return out


def hand_text(state_obj, p):
    """Player p's hand as rich Text: a mark per stone and joker, held or gone."""
    part = state_obj[PLAYERS[p]]
    n, j = part["stones"], part["jokers"]
    t = Text("  %s  " % PLAYERS[p], style=COLOUR[p])
    t.append(STONE * n, style=COLOUR[p])
    t.append(GONE * (STONES - n), style="dim")
    t.append("  %2d stone%s   " % (n, " " if n == 1 else "s"))
    t.append(JOKER * j, style="bold yellow")
    t.append(GONE * (JOKERS - j), style="dim")
    t.append("  %d joker%s" % (j, "" if j == 1 else "s"))
    return t


def choice_text(sel):
    """A revealed choice as marks: "0" as "none", "1".."3" as stones, "J" as a joker."""
    if sel == "J":
        return Text("%s joker" % JOKER, style="bold yellow")
    n = int(sel)
    if n == 0:
        return Text("no stones", style="bold")
    return Text("%s %d stone%s" % (STONE * n, n, "" if n == 1 else "s"), style="bold")


def choices_text(shown):
    """The round's choices as rich Text: secret (both choosing) or both revealed."""
    t = Text("  ")
    for p in (0, 1):
        t.append("%s: " % PLAYERS[p], style=COLOUR[p])
        if shown is None:
            t.append("%s %s" % (HIDDEN, "(chooses in secret)"), style="dim")
        else:
            t.append_text(choice_text(shown[PLAYERS[p]]))
        if p == 0:
            t.append("      ")
    return t


def render(state_obj, title, shown=None, note="", moved=()):
    """The whole picture as a rich Panel: the track, both hands, the round's choices
    (shown: module docstring) and a line of words (`note`)."""
    parts = [hollows_text(state_obj, moved), Text(""), hand_text(state_obj, 0),
             hand_text(state_obj, 1), Text(""), choices_text(shown)]
    if note:
        parts.append(Text("  " + note, style="bold"))
    return Panel(Group(*parts), title=title, border_style="rgb(150,110,60)", expand=False)
