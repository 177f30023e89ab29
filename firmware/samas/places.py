"""The Samas board's sensed places: which sensor position and which LED is which hollow,
tray hole and Ready button (docs/samas.md "On the board"; the builder's table is
hardware/samas/positions.csv, tests/test_samas_board.py keeps the two equal).

The Samas board uses the same electronics as Samsara's: the 64-input sensor chain
(frames are bytearray(8), bit p & 7 of byte p >> 3 for position p), the 80-LED chain
(a scene is bytearray(240): R, G, B of each LED) and the two buttons.  It uses 17 of
the positions:

    0..8     the hollows 1..9 of the track (hollow h at position h - 1)
    9..11    A's tray: stone holes 1..3          12   A's joker hole
    13..15   B's tray: stone holes 1..3          16   B's joker hole

The LED of each place has the place's position number; LEDs 78 and 79 (Samsara's turn
LEDs) show A's and B's Ready.  The buttons are each player's Ready: the driver's "roll"
button is A's, its "undo" button B's (the same GPIOs, hardware/samas/pins.csv).
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(__x):
        return __x

HOLLOW0 = const(0)          # position of hollow 1 (hollow h: HOLLOW0 + h - 1)
TRAY = (9, 13)              # position of stone hole 1 of A's, B's tray
TRAY_STONE_HOLES = 3        # stone holes in a tray
JOKER_HOLE = (12, 16)       # position of A's, B's joker hole
N_PLACES = const(17)        # positions the Samas board uses (0..16)
READY_LED = (78, 79)        # the LED showing A's, B's Ready
READY_BUTTON = ("roll", "undo")   # the driver's button that is A's, B's Ready


def hollow_pos(h):
    """The sensor position (and LED) of hollow h (1..9)."""
    return HOLLOW0 + h - 1


def place_name(p):
    """The name of position p (0..16): "H1".."H9", "A1".."A3", "AJ", "B1".."B3", "BJ";
    ValueError for a position the Samas board does not use."""
    if 0 <= p < 9:
        return "H%d" % (p + 1)
    for side in (0, 1):
        if TRAY[side] <= p < TRAY[side] + TRAY_STONE_HOLES:
            return "%s%d" % ("AB"[side], p - TRAY[side] + 1)
        if p == JOKER_HOLE[side]:
            return "%sJ" % "AB"[side]
    raise ValueError("position %r is not a place of the Samas board (0..16)" % (p,))


def place_index(name):
    """The position of a place name (place_name's inverse); ValueError for another name."""
    for p in range(N_PLACES):
        if place_name(p) == name:
            return p
    raise ValueError("%r is not a place of the Samas board (H1..H9, A1..A3, AJ, B1..B3, BJ)"
                     % (name,))
