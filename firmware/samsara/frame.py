"""Frames: the occupancy of the 64 sensor positions as a bytearray(8) (docs/frames.md).

Position p (0..63, the indexes of samsara.rules.geometry and docs/rules.md §6) is bit p & 7
of byte p >> 3; a set bit means "a marble or scoring piece is in the hole".  So

    bytes 0..2   R1..R24   (the round lane mask is  f[0] | f[1] << 8 | f[2] << 16)
    bytes 3..5   S1..S24   (the angular lane mask is f[3] | f[4] << 8 | f[5] << 16)
    byte  6      GS GR A0 A1 A2 A3 A4 A5          (bit 0 = GS)
    byte  7      AC B0 B1 B2 B3 B4 B5 BC          (bit 0 = AC)

Every helper here works on small integers only (masks of at most 24 bits), so reading a
frame never allocates on the Pico.  Helpers that build names or new frames allocate and
are meant for events, tests and tools, not for the scan loop.  The helpers of any
game's frames (new_frame, get, put, equal, copy_into, to_hex, from_hex) are
boardcore.frame's, importable from here too; this module adds Samsara's layout.
"""

from boardcore.frame import new_frame, get, put, equal, copy_into, to_hex, from_hex  # noqa: F401
from boardcore.frame import names as _names
from samsara.rules.geometry import position_name, position_index, GS, A_TRACK, B_TRACK


def r_mask(f):
    """The round lane of frame f as a 24-bit mask (bit i = field R(i+1))."""
    return f[0] | (f[1] << 8) | (f[2] << 16)


def s_mask(f):
    """The angular lane of frame f as a 24-bit mask (bit i = field S(i+1))."""
    return f[3] | (f[4] << 8) | (f[5] << 16)


def extra_mask(f):
    """Positions 48..63 (goals and scoring tracks) as a 16-bit mask: bit p - 48."""
    return f[6] | (f[7] << 8)


def fill(f, r, s, extra):
    """Write a whole frame in place: lane masks r, s (24-bit) and the 16-bit mask of
    positions 48..63 (bit p - 48).  Allocates nothing."""
    f[0] = r & 0xFF
    f[1] = (r >> 8) & 0xFF
    f[2] = (r >> 16) & 0xFF
    f[3] = s & 0xFF
    f[4] = (s >> 8) & 0xFF
    f[5] = (s >> 16) & 0xFF
    f[6] = extra & 0xFF
    f[7] = (extra >> 8) & 0xFF


def pieces_mask(a, b):
    """The 16-bit mask (bit p - 48) of the two scoring pieces standing on the fields of
    scores a and b (0..6): A's piece on A0..AC, B's on B0..BC, goals empty."""
    return (1 << (A_TRACK - GS + a)) | (1 << (B_TRACK - GS + b))


def fill_position(f, r, s, a, b):
    """Write the frame of a settled board in a position: marbles on lanes r, s, each
    scoring piece on the field of its score, goals empty.  In place; returns f."""
    fill(f, r, s, pieces_mask(a, b))
    return f


def from_position(pos):
    """A new frame of samsara.rules.position.Position `pos` (marbles and scoring pieces)."""
    return fill_position(new_frame(), pos.r, pos.s, pos.a, pos.b)


def from_names(names):
    """A new frame with the named positions on, e.g. from_names(['R1', 'GS', 'A0']).
    Raises ValueError for an unknown name."""
    f = new_frame()
    for n in names:
        put(f, position_index(n), 1)
    return f


def names(f):
    """Names of the positions that are on in frame f, in index order (Samsara's: "R1",
    "GS", "A0", ...)."""
    return _names(f, position_name)
