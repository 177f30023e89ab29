"""The Schaska board's sensed places: which sensor position and which LED is which field
(docs/schaska.md "On the board"; the builder's table is hardware/schaska/positions.csv,
tests/test_schaska_board.py keeps the two equal).

The Schaska board uses the same electronics as Samsara's: the 64-input sensor chain
(frames are bytearray(8), bit p & 7 of byte p >> 3 for position p), the 80-LED chain and
the two buttons.  Field f of the track (1..n, n at most MAX_FIELDS) is sensor position
f - 1 and has LED f - 1.  The two start areas are not sensed: the board counts the
figures at each start from the game (an entering figure appears on the player's first
field, a figure walking off the track leaves it).  LEDs 78 and 79 (Samsara's turn LEDs)
show whose turn it is.
"""

MAX_FIELDS = 30
"""The longest track the board senses (schaska.rules.layout.MAX_FIELDS)."""
TURN_LED = (78, 79)
"""The LED showing that A, B is to move."""


def field_pos(f):
    """The sensor position (and LED) of field f (1..MAX_FIELDS).  ValueError outside."""
    if not 1 <= f <= MAX_FIELDS:
        raise ValueError("field %r is not a field of the Schaska board (1..%d)"
                         % (f, MAX_FIELDS))
    return f - 1
