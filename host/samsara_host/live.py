"""The simulated board in the terminal (rich): holes, marbles, lit LEDs, dice, scores,
state and the event stream (docs/simulator.md).

`render(table)` draws what a person at the board would see: marbles where the sensors
find them (the raw frame: a marble in the hand is in no hole, a slid marble shows in
the holes it crosses), each hole in the colour its LED shows (the power-limited scene
the LED driver gets, brightened for the screen), the dice display and the turn
indicators from their LEDs, and the last events of the board's event stream.
"""
from rich.console import Group
from rich.panel import Panel
from rich.table import Table as RTable
from rich.text import Text

from samsara.rules.geometry import position_index, GS, GR, A_TRACK, B_TRACK
from samsara import states
from samsara.rules.notation import format_roll
from samsara_host.boardview import tracks_text
from samsara.scene import DIE1_LED, DIE2_LED, TURN_A_LED, TURN_B_LED

ROUND_FULL, ROUND_EMPTY = "\u25cf", "\u25cb"    # ● ○
SQUARE_FULL, SQUARE_EMPTY = "\u25a0", "\u25a1"  # ■ □
PIECE = "\u25c6"                                 # ◆
PIP_ON, PIP_OFF = "\u25cf", "\u00b7"

TOP_OUTER = ["R%d" % i for i in range(13, 25)]
TOP_INNER = ["S%d" % i for i in range(1, 13)]
BOTTOM_INNER = ["R%d" % i for i in range(12, 0, -1)]
BOTTOM_OUTER = ["S%d" % i for i in range(24, 12, -1)]


GAIN = 2.65   # the brightest scene colour (96) shows near full on the screen


def led_rgb(scene, led):
    """(r, g, b) of logical LED `led` scaled by GAIN for the screen (the board's LEDs
    run dim; a played die stays dimmer than the one to play), or None when dark."""
    r, g, b = scene[3 * led], scene[3 * led + 1], scene[3 * led + 2]
    if not (r or g or b):
        return None
    return (min(255, int(r * GAIN)), min(255, int(g * GAIN)), min(255, int(b * GAIN)))


def _style(rgb, base=""):
    if rgb is None:
        return base
    r, g, b = rgb
    fg = "black" if r * 3 + g * 5 + b > 900 else "white"
    return "bold %s on rgb(%d,%d,%d)" % (fg, r, g, b)


def _on(frame, p):
    return (frame[p >> 3] >> (p & 7)) & 1


def _cell(frame, scene, p, round_hole):
    full = _on(frame, p)
    if p >= A_TRACK:
        ch = PIECE if full else (ROUND_EMPTY if round_hole else SQUARE_EMPTY)
    elif round_hole:
        ch = ROUND_FULL if full else ROUND_EMPTY
    else:
        ch = SQUARE_FULL if full else SQUARE_EMPTY
    rgb = led_rgb(scene, p)
    base = "bold" if full else "dim"
    if p >= A_TRACK and full:
        base = "bold yellow"
    return (" %s " % ch, _style(rgb, base))


def _row(frame, scene, names, round_hole, left, right=None):
    t = Text(left)
    for n in names:
        s, st = _cell(frame, scene, position_index(n), round_hole)
        t.append(s, style=st)
    if right is not None:
        t.append_text(right)
    return t


def _labels(names, left):
    return Text(left + "".join("%3s" % n[1:] for n in names), style="dim")


def _track_field(player, k):
    return (A_TRACK if player == 0 else B_TRACK) + k


def _track_score(frame, player):
    # The field of the player's track the sensors find a piece on (0 when none).
    for k in range(7):
        if _on(frame, _track_field(player, k)):
            return k
    return 0


def board_text(frame, scene):
    """The board as a rich Text: frame = the raw frame (bytearray(8)), scene = the LED
    scene (bytearray(240), logical LED order)."""
    pad = "      "
    gr = Text("  ")
    s, st = _cell(frame, scene, GR, True)
    gr.append(s, style=st)
    gr.append("GR", style="dim")
    gs = Text("GS")
    gs.stylize("dim")
    s, st = _cell(frame, scene, GS, False)
    gs.append(s, style=st)
    lines = [
        _labels(TOP_OUTER, pad),
        _row(frame, scene, TOP_OUTER, True, "    R ", gr),
        _row(frame, scene, TOP_INNER, False, "    S "),
        _labels(TOP_INNER, pad),
    ]
    centre = Text("    ")
    centre.append_text(tracks_text(_track_score(frame, 0), _track_score(frame, 1),
                                   full=lambda player, k: _on(frame, _track_field(player, k)),
                                   style=lambda player, k, full: _cell(
                                       frame, scene, _track_field(player, k), False)[1]))
    lines.append(centre)
    lines.append(_labels(BOTTOM_INNER, pad))
    lines.append(_row(frame, scene, BOTTOM_INNER, True, "    R "))
    row = Text()
    row.append_text(gs)
    row.append_text(_row(frame, scene, BOTTOM_OUTER, False, " S"))
    lines.append(row)
    lines.append(_labels(BOTTOM_OUTER, pad))
    out = Text()
    for i, line in enumerate(lines):
        if i:
            out.append("\n")
        out.append_text(line)
    return out


def dice_text(scene):
    """The two dice of the dice display as three rows of pips in their LED colours."""
    layout = ((0, -1, 1), (2, 3, 4), (5, -1, 6))
    out = Text()
    for r, row in enumerate(layout):
        if r:
            out.append("\n")
        for first in (DIE1_LED, DIE2_LED):
            out.append(" ")
            for k in row:
                if k < 0:
                    out.append("  ")
                    continue
                rgb = led_rgb(scene, first + k)
                if rgb is None:
                    out.append(PIP_OFF + " ", style="dim")
                else:
                    out.append(PIP_ON + " ", style="bold rgb(%d,%d,%d)" % rgb)
            out.append("  ")
    return out


def score_words(score, names=("A", "B")):
    """'A 2, B 1' for an event's score text '2-1' (A's score first): each player named
    with their own score.  Text that is not two numbers is returned as it is."""
    parts = str(score).split("-")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        return str(score)
    return "%s %s, %s %s" % (names[0], parts[0], names[1], parts[1])


def turn_line(c):
    """The panel's turn line for Controller `c`: the turn so far ('' before the roll);
    a roll with nothing played yet is '52 (to play)', and '52 Moksha' only when the
    roll had no complete turn (the controller's state is moksha)."""
    t = c.turn
    if t.d1 and not t.played and c.state != states.MOKSHA:
        return "%s (to play)" % format_roll(t.d1, t.d2)
    return c.turn_notation()


def describe_event(e, who=None):
    """One short line for an event dict of the board's stream, or None to skip it.
    who: a function giving what to call a player from its side ("A"/"B"), e.g. its
    name; None: the letter."""
    k = e["ev"]
    if who is not None and e.get("player") in ("A", "B"):
        e = dict(e, player=who(e["player"]))
    if who is not None and k == "game_over" and e.get("winner") in ("A", "B"):
        e = dict(e, winner=who(e["winner"]))
    if k == "roll":
        return "%s rolls %d %d" % (e.get("player", "?"), e["dice"][0], e["dice"][1])
    if k == "sub":
        return "%s plays %s" % (e.get("player", "?"), e["move"])
    if k == "goal":
        return "goal in %s: %s scores: %s; reinsert on %s" % (
            e["goal"], e["player"], score_words(e["score"]), e["ins"])
    if k == "score":
        return "scoring piece of %s moved to %s" % (e["player"], e["score"])
    if k == "reinsert":
        return "marble reinserted on %s" % e["pos"]
    if k == "reject":
        return "rejected %s: %s" % (e.get("what", ""), e["reason"])
    if k == "repair":
        return "repair: %s" % e["reason"]
    if k == "repair_end":
        return "repaired, play resumes"
    if k == "undo":
        return "undo %s (%s)" % (e["move"], e.get("how", ""))
    if k == "turn_complete":
        return "turn complete: %s" % e["turn"]
    if k == "turn":
        return None
    if k == "moksha":
        return "Moksha: %s has no complete turn" % e.get("roll", "")
    if k == "game_over":
        if e["winner"] is None:
            return "game over: draw by %s: %s" % (e["how"], score_words(e["score"]))
        return "game over: %s wins: %s" % (e["winner"], score_words(e["score"]))
    if k == "board_move":
        return "the board (%s) plays %s: carry it out" % (e.get("player", "?"), e["move"])
    if k == "hint":
        return "hint for %s: %s" % (e.get("player", "?"), e["turn"])
    return None


def _event_style(e):
    k = e["ev"]
    if k in ("reject", "repair"):
        return "bold red"
    if k in ("goal", "score", "game_over"):
        return "bold yellow"
    if k in ("repair_end",):
        return "green"
    if k == "roll":
        return "cyan"
    return ""


def render(table, title=None, lines=8, speed=None):
    """A rich renderable of the running Table (samsara_host.sim.table.Table)."""
    board = table.board
    c = board.controller
    scene = board.limited_scene()
    frame = table.driver.frame
    pos = c.position()
    side = Text()
    turn_a = led_rgb(scene, TURN_A_LED)
    turn_b = led_rgb(scene, TURN_B_LED)
    for name, rgb, score, strat in (("A", turn_a, pos.a, table.player_names[0]),
                                    ("B", turn_b, pos.b, table.player_names[1])):
        side.append(" %s " % (PIP_ON if rgb else PIP_OFF),
                    style=("bold rgb(%d,%d,%d)" % rgb) if rgb else "dim")
        side.append("%s (%s) " % (name, strat), style="bold")
        side.append("score %d\n" % score)
    side.append("\n")
    side.append_text(dice_text(scene))
    side.append("\n\n now:   ", style="dim")
    from samsara_host.movewords import headline
    t = c.turn
    nxt = c.state == states.TURN_COMPLETE    # the status's mover: then the next player
    side.append(headline({"state": c.state, "mover": "AB"[1 - t.mover if nxt else t.mover],
                          "dice": [t.d1, t.d2] if t.d1 else [],
                          "remaining": c.remaining_dice(), "vs_board": None}),
                style="bold magenta" if c.state == states.REPAIR else "bold")
    note = turn_line(c)
    if note:
        side.append("\n turn:  ", style="dim")
        side.append(note)
    side.append("\n time:  %.1f s" % (table.now / 1000.0), style="dim")
    if speed:
        side.append("  (x%.1f)" % speed, style="dim")
    side.append("\n turns: %d" % len(table.turns()), style="dim")
    grid = RTable.grid(padding=(0, 2))
    grid.add_column()
    grid.add_column()
    grid.add_row(board_text(frame, scene), side)
    log = Text()
    shown = []
    for t, e in reversed(table.driver.events):
        d = describe_event(e)
        if d is None:
            continue
        shown.append((t, d, _event_style(e)))
        if len(shown) >= lines:
            break
    for i, (t, d, st) in enumerate(reversed(shown)):
        if i:
            log.append("\n")
        log.append("%8.1f s  " % (t / 1000.0), style="dim")
        log.append(d[:90], style=st)
    return Panel(Group(grid, Text(""), log), title=title or "Samsara: simulated board",
                 border_style="grey50")
