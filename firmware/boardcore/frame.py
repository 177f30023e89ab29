"""Frames of any game's board: the occupancy of the 64 sensor positions as a
bytearray(8) (docs/frames.md).  Position p (0..63) is bit p & 7 of byte p >> 3; a set
bit means "a piece is on the sensor".  Which position is which hole is the game's
(samsara.frame and samsara.rules.geometry for Samsara's, samas.places, schaska.places);
`names` takes the game's naming.

Reading a bit allocates nothing; helpers that build names, text or new frames allocate
and are meant for events, replies, tests and tools, not for the scan loop.  Runs
unchanged on MicroPython and CPython.
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(__x):
        return __x

_FRAME_BYTES = const(8)


def new_frame():
    """A cleared frame: bytearray(8), every position off."""
    return bytearray(_FRAME_BYTES)


def get(f, p):
    """1 when position p (0..63) is on in frame f, else 0."""
    return (f[p >> 3] >> (p & 7)) & 1


def put(f, p, on):
    """Set position p (0..63) of frame f on (truthy `on`) or off, in place."""
    if on:
        f[p >> 3] |= 1 << (p & 7)
    else:
        f[p >> 3] &= ~(1 << (p & 7)) & 0xFF


def names(f, place_name):
    """The names of the positions that are on in frame f, in index order; place_name(p)
    is the game's name of position p (a board's place_name)."""
    out = []
    for p in range(64):
        if (f[p >> 3] >> (p & 7)) & 1:
            out.append(place_name(p))
    return out


def equal(f, g):
    """True when frames f and g have the same bits.  Allocates nothing."""
    i = 0
    while i < _FRAME_BYTES:
        if f[i] != g[i]:
            return False
        i += 1
    return True


def copy_into(dst, src):
    """Copy frame src into frame dst in place.  Allocates nothing."""
    i = 0
    while i < _FRAME_BYTES:
        dst[i] = src[i]
        i += 1


def to_hex(f):
    """16 hex digits, byte 0 first (the `sensors` reply of docs/protocol.md)."""
    return "".join(["%02x" % f[i] for i in range(_FRAME_BYTES)])


def from_hex(text):
    """Inverse of to_hex.  Raises ValueError for text that is not 16 hex digits."""
    if len(text) != 2 * _FRAME_BYTES:
        raise ValueError("a frame is 16 hex digits, got %r" % (text,))
    f = new_frame()
    for i in range(_FRAME_BYTES):
        f[i] = int(text[2 * i:2 * i + 2], 16)
    return f
