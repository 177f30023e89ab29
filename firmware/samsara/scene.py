"""LED scenes: the colour of every logical LED (docs/leds.md).

A scene is a bytearray(240): R, G, B (0..255) of each of the 80 logical LEDs

    0..63    the 64 sensor positions (samsara.rules.geometry indexes, docs/rules.md §6)
    64..70   die 1 pips, 71..77 die 2 pips (pip order in PIPS below)
    78, 79   turn indicator of player A, of player B

The controller keeps a display model (samsara.display: a mark code per position, the
dice, the turn); a Painter turns it into colours, reading the model only.
"""

from samsara.states import GAME_OVER, MOKSHA

try:
    from micropython import const
except ImportError:  # CPython
    def const(__x):
        return __x

N_LEDS = 80
SCENE_BYTES = 240
DIE1_LED = 64
DIE2_LED = 71
TURN_A_LED = 78
TURN_B_LED = 79

# Mark codes of the display model's marks (one byte per position 0..63).
NONE = 0
# 1..6: a legal landing field of the lifted marble for a die of that value
ORIGIN = 7      # the hole the lifted marble came from
BACK = 8        # this turn's earlier field of the lifted marble: it may go back here
NOMOVE = 9      # a lifted marble that cannot move now (no legal sub-move / no roll yet)
WRONG = 10      # a marble placed on a field that is not a target
MISSING = 11    # repair: a marble (or scoring piece) belongs here
EXTRA = 12      # repair: no marble belongs here
SCORE = 13      # goal: move the scoring piece here
REINSERT = 14   # goal: put the marble from the goal here
GOAL = 15       # goal: the marble in this goal hole is to be taken out
WIN = 16        # game over: the winner's scoring piece
_N_MARKS = const(17)

# R, G, B of each mark code.  Brightness is kept moderate: a lit hole is read from
# a short distance, and a full scene stays far below the power budget.
COLOURS = bytes((
    0, 0, 0,        # NONE
    0, 0, 80,       # die 1: blue
    0, 56, 56,      # die 2: cyan
    0, 80, 0,       # die 3: green
    56, 56, 0,      # die 4: yellow
    80, 24, 0,      # die 5: orange
    56, 0, 56,      # die 6: magenta
    24, 24, 24,     # ORIGIN: dim white
    24, 24, 24,     # BACK: dim white
    32, 0, 0,       # NOMOVE: dim red
    96, 0, 0,       # WRONG: red
    72, 72, 72,     # MISSING: white
    96, 0, 0,       # EXTRA: red
    80, 56, 0,      # SCORE: gold
    72, 72, 72,     # REINSERT: white
    24, 16, 0,      # GOAL: dim gold
    80, 56, 0,      # WIN: gold
))

TURN_COLOUR = (40, 40, 40)      # the player to move
ENTRY_COLOUR = (48, 48, 48)     # the die being entered with the button (manual dice)
MOKSHA_COLOUR = (56, 0, 56)     # both turn LEDs and all pips after a Moksha roll
WIN_COLOUR = (80, 56, 0)        # the winner's turn LED after the game

# Pips of a die, numbered
#     0   1
#     2 3 4
#     5   6
# PIPS[v] is a 7-bit mask of the pips lit for value v (0: dark), the table of
# docs/leds.md "Dice pips" (tests/test_scene.py checks every value against it).
PIPS = (0, 0x08, 0x41, 0x49, 0x63, 0x6B, 0x77)


def put(scene, led, r, g, b):
    """Set logical LED `led` (0..79) of `scene` to r, g, b."""
    i = led * 3
    scene[i] = r
    scene[i + 1] = g
    scene[i + 2] = b


def _die(scene, first, value, r, g, b):
    # The 7 pips of a die from logical LED `first` on: lit in r, g, b as PIPS[value]
    # says, the others dark.  Written in place: no pattern kept, nothing allocated.
    mask = PIPS[value] if 0 <= value <= 6 else 0
    i = first * 3
    k = 0
    while k < 7:
        if (mask >> k) & 1:
            scene[i] = r
            scene[i + 1] = g
            scene[i + 2] = b
        else:
            scene[i] = 0
            scene[i + 1] = 0
            scene[i + 2] = 0
        i += 3
        k += 1


def _die_colour(value, dim):
    # The die's pips in the target colour of its value; a played die at 1/4.
    i = value * 3
    if dim:
        return (COLOURS[i] >> 2, COLOURS[i + 1] >> 2, COLOURS[i + 2] >> 2)
    return (COLOURS[i], COLOURS[i + 1], COLOURS[i + 2])


class Painter:
    """Draws a display model (samsara.display.View) into scenes, remembering what it
    drew last (the marked positions, the dice/turn signature and their channel sum) so
    that the next draw can redraw only what may have changed.  It reads the model and
    never writes to it.  Allocates nothing but the small signature tuple."""

    def __init__(self):
        self.marked = ()        # the model's marked positions at the last draw
        self.sig = None         # dice/turn part of the last draw
        self.dice_sum = 0       # and its channel sum

    def draw(self, scene, view, full=True):
        """Render `view` into `scene` (bytearray(240)).

        Reads view.marks (bytearray(64) of mark codes), view.marked, view.state,
        view.d1/d2 (0: none), view.used (bit 0: die 1 played, bit 1: die 2), view.entry
        (0, or 1/2 while die 1/2 is being entered with e1/e2), view.mover, view.winner.
        full=False redraws only the positions marked now or at the last draw, and the
        dice and turn LEDs when they changed.  Returns the change of the scene's
        channel sum (what the power limiter needs), or -1 after a full redraw (sum
        unknown: recount)."""
        marks = view.marks
        cols = COLOURS
        delta = 0
        if full:
            p = 0
            while p < 64:
                c = marks[p] * 3
                i = p * 3
                scene[i] = cols[c]
                scene[i + 1] = cols[c + 1]
                scene[i + 2] = cols[c + 2]
                p += 1
        else:
            for lst in (self.marked, view.marked):
                for p in lst:
                    c = marks[p] * 3
                    i = p * 3
                    delta += cols[c] + cols[c + 1] + cols[c + 2] - scene[i] - \
                        scene[i + 1] - scene[i + 2]
                    scene[i] = cols[c]
                    scene[i + 1] = cols[c + 1]
                    scene[i + 2] = cols[c + 2]
        self.marked = view.marked     # the model never changes a marked list it made
        state = view.state
        sig = (state, view.d1, view.d2, view.used, view.entry, view.e1, view.e2,
               view.mover, view.winner)
        if not full and sig == self.sig:
            return delta
        self.sig = sig
        before = self.dice_sum
        after = _draw_dice_turn(scene, view, state)
        self.dice_sum = after
        if full:
            return -1
        return delta + after - before


def _draw_dice_turn(scene, view, state):
    # Draws LEDs 64..79; returns their channel sum (a die of value v lights v pips).
    if state == MOKSHA:
        r, g, b = MOKSHA_COLOUR
        _die(scene, DIE1_LED, view.d1, r, g, b)
        _die(scene, DIE2_LED, view.d2, r, g, b)
        put(scene, TURN_A_LED, r, g, b)
        put(scene, TURN_B_LED, r, g, b)
        return (view.d1 + view.d2 + 2) * (r + g + b)
    if view.entry:
        r, g, b = ENTRY_COLOUR
        if view.entry == 1:
            _die(scene, DIE1_LED, view.e1, r, g, b)
            _die(scene, DIE2_LED, 0, 0, 0, 0)
            total = view.e1 * (r + g + b)
        else:
            r2, g2, b2 = _die_colour(view.e1, True)
            _die(scene, DIE1_LED, view.e1, r2, g2, b2)
            _die(scene, DIE2_LED, view.e2, r, g, b)
            total = view.e1 * (r2 + g2 + b2) + view.e2 * (r + g + b)
    else:
        r, g, b = _die_colour(view.d1, view.used & 1)
        _die(scene, DIE1_LED, view.d1, r, g, b)
        total = view.d1 * (r + g + b)
        r, g, b = _die_colour(view.d2, view.used & 2)
        _die(scene, DIE2_LED, view.d2, r, g, b)
        total += view.d2 * (r + g + b)
    put(scene, TURN_A_LED, 0, 0, 0)
    put(scene, TURN_B_LED, 0, 0, 0)
    if state == GAME_OVER:
        r, g, b = WIN_COLOUR
        w = view.winner
        if w == 0 or w == -1:
            put(scene, TURN_A_LED, r, g, b)
            total += r + g + b
        if w == 1 or w == -1:
            put(scene, TURN_B_LED, r, g, b)
            total += r + g + b
        return total
    r, g, b = TURN_COLOUR
    put(scene, TURN_A_LED if view.mover == 0 else TURN_B_LED, r, g, b)
    return total + r + g + b


def colour_name(r, g, b):
    """A short name of a colour of this module ('blue', 'red', ...), or 'r,g,b' hex
    for any other (used by tools that print scenes)."""
    for i in range(_N_MARKS):
        if COLOURS[3 * i] == r and COLOURS[3 * i + 1] == g and COLOURS[3 * i + 2] == b:
            return MARK_NAMES[i]
    if (r, g, b) == TURN_COLOUR:
        return "turn"
    if (r, g, b) == MOKSHA_COLOUR:
        return "moksha"
    return "%02x%02x%02x" % (r, g, b)


MARK_NAMES = ("off", "die1", "die2", "die3", "die4", "die5", "die6", "origin", "origin",
              "nomove", "red", "missing", "red", "score", "missing", "goal", "score")


# ---- overlays: drawn over the scene by the board core (samsara.core.Board.set_overlay)

LED_TEST = 1
"""Overlay: the LED test, one logical LED after the other lit dim white, all others
dark (the `led_test` command, docs/protocol.md)."""
LOG_FULL = 2
"""Overlay: "pull the game logs", all 14 dice pips amber every other HINT_MS over the
scene (docs/gamelog.md "Log full")."""
HINT_MS = 500
"""Blink half-period of the LOG_FULL overlay, ms."""
TEST_COLOUR = (40, 40, 40)
HINT_COLOUR = (60, 25, 0)


def draw_overlay(out, scene, kind, step):
    """Draw overlay `kind` into `out` (bytearray(240)) over `scene`: LED_TEST lights
    only logical LED `step` (0..79); LOG_FULL copies the scene and, when step is 1,
    paints the dice pips (LEDs 64..77) amber.  Returns the channel sum of `out` (for
    the power limiter).  Allocates nothing."""
    n = SCENE_BYTES
    i = 0
    if kind == LED_TEST:
        while i < n:
            out[i] = 0
            i += 1
        r, g, b = TEST_COLOUR
        put(out, step, r, g, b)
        return r + g + b
    while i < n:
        out[i] = scene[i]
        i += 1
    if step:
        r, g, b = HINT_COLOUR
        led = DIE1_LED
        while led < TURN_A_LED:
            put(out, led, r, g, b)
            led += 1
    return sum(out)
