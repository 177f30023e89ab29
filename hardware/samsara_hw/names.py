"""Names and counts of the board's parts: sensor positions, LEDs, chips, board size.

The position names and their order come from the rules engine (samsara.rules.geometry,
docs/rules.md §6; the index order is the frame bit order).  The logical LED order is
docs/leds.md: 0..63 the positions, 64..70 the pips 0..6 of die 1, 71..77 those of
die 2, 78 and 79 the turn indicators of A and B (samsara.scene's DIE1_LED, DIE2_LED,
TURN_A_LED, TURN_B_LED).
"""
from samsara.rules.geometry import N_POSITIONS, position_name

POSITION_NAMES = tuple(position_name(p) for p in range(N_POSITIONS))
"""The 64 sensor position names in index order: R1..R24, S1..S24, GS, GR, A0..A5, AC,
B0..B5, BC."""

DIE_PIPS = 7
DICE_LED_NAMES = tuple("D%d.%d" % (d, j) for d in (1, 2) for j in range(DIE_PIPS))
TURN_LED_NAMES = ("TA", "TB")
LED_ONLY_NAMES = DICE_LED_NAMES + TURN_LED_NAMES
"""Names of the logical LEDs 64..79 (no sensor): D1.0..D1.6, D2.0..D2.6, TA, TB."""
LED_COUNT = N_POSITIONS + len(LED_ONLY_NAMES)  # 80

SR_CHIPS = 8        # 74HC165, inputs A..H = bits 0..7
SR_BITS = 8
MUX_COUNT = 4       # CD74HC4067
MUX_CHANNELS = 16

BOARD_W_MM = 390.0
BOARD_H_MM = 180.0
MIN_HOLE_PITCH_MM = 18.0   # 16 mm marbles and 2 mm of wood between two hollows


def led_name(i):
    """Name of logical LED i (0..79): the position name for 0..63, else one of
    LED_ONLY_NAMES.  Raises IndexError/ValueError outside 0..79."""
    if i < 0:
        raise ValueError("LED index out of range 0..79: %r" % (i,))
    return POSITION_NAMES[i] if i < N_POSITIONS else LED_ONLY_NAMES[i - N_POSITIONS]


def position_kind(name):
    """'track', 'goal' or 'score': the `kind` column of positions.csv for position
    `name` (a name of POSITION_NAMES)."""
    if name[0] in "RS":
        return "track"
    if name in ("GS", "GR"):
        return "goal"
    return "score"
