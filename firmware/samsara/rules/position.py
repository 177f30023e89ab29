"""Positions and the position string (docs/rules.md §2, §5).

A position is two 24-bit lane masks (bit i of `r` is field R(i+1), bit i of `s` is
S(i+1)), the two scores 0..6 and the player to move (0 = A, 1 = B).  The masks are
small integers on the Pico, so copying or comparing positions never touches the heap
beyond the object itself.

Position string: ``<R1..R24>/<S1..S24> <scoreA>-<scoreB> <mover>``, e.g. the start
``oooooo................../oooooo.................. 0-0 A``.
"""

from samsara.rules.geometry import popcount24

try:
    from micropython import const
except ImportError:  # CPython
    def const(__x):
        return __x

_START_R = const(0x3F)  # R1..R6
_START_S = const(0x3F)  # S1..S6


class PositionError(ValueError):
    """A position string or position value that is not a legal Samsara position."""


class Position:
    """One board position: lane masks `r`, `s` (24-bit ints), scores `a`, `b` (0..6)
    and `mover` (0 = A, 1 = B).  Always holds exactly 12 marbles.

    Equality and hashing follow the position string.  Raises PositionError when built
    from values that are not a position (marble count not 12, score outside 0..6,
    mover not 0 or 1, a mask wider than 24 bits).
    """

    def __init__(self, r=_START_R, s=_START_S, a=0, b=0, mover=0):
        if not (0 <= r <= 0xFFFFFF and 0 <= s <= 0xFFFFFF):
            raise PositionError("lane mask outside 24 bits")
        n = popcount24(r) + popcount24(s)
        if n != 12:
            raise PositionError("marble count is %d, not 12" % n)
        if not (0 <= a <= 6 and 0 <= b <= 6):
            raise PositionError("score outside 0..6: %d-%d" % (a, b))
        if mover != 0 and mover != 1:
            raise PositionError("unknown mover: %r" % (mover,))
        self.r = r
        self.s = s
        self.a = a
        self.b = b
        self.mover = mover

    @staticmethod
    def parse(text):
        """Parse a position string (docs/rules.md §5) into a Position.

        Raises PositionError naming the problem: wrong length, bad character, marble
        count not 12, a score not one digit 0..6, unknown mover, missing parts.
        """
        if not isinstance(text, str):
            raise PositionError("position must be a string, not %s" % type(text).__name__)
        parts = text.split(" ")
        if len(parts) != 3:
            raise PositionError(
                "position needs 3 parts separated by single spaces "
                "('<R1..R24>/<S1..S24> <scoreA>-<scoreB> <mover>'), got %d" % len(parts))
        lanes, scores, mover = parts
        halves = lanes.split("/")
        if len(halves) != 2:
            raise PositionError("lanes must be two groups of 24 separated by '/'")
        masks = [0, 0]
        for k in range(2):
            lane = halves[k]
            name = "RS"[k]
            if len(lane) != 24:
                raise PositionError("%s lane has %d fields, not 24" % (name, len(lane)))
            m = 0
            for i in range(24):
                c = lane[i]
                if c == "o":
                    m |= 1 << i
                elif c != ".":
                    raise PositionError("bad character %r at %s%d (use 'o' or '.')" % (c, name, i + 1))
            masks[k] = m
        n = popcount24(masks[0]) + popcount24(masks[1])
        if n != 12:
            raise PositionError("marble count is %d, not 12" % n)
        sc = scores.split("-")
        # (one ASCII digit each: str.isdigit and int() take other scripts' digits too)
        if len(sc) != 2 or len(scores) != 3 or not ("0" <= sc[0] <= "6" and "0" <= sc[1] <= "6"):
            raise PositionError("scores must be '<A>-<B>', each one digit 0..6, got %r"
                                % scores)
        a = int(sc[0])
        b = int(sc[1])
        if mover == "A":
            mv = 0
        elif mover == "B":
            mv = 1
        else:
            raise PositionError("unknown mover %r (use 'A' or 'B')" % mover)
        return Position(masks[0], masks[1], a, b, mv)

    def format(self):
        """The position string of this position (docs/rules.md §5)."""
        return format_position(self.r, self.s, self.a, self.b, self.mover)

    def key(self):
        """(r, s, a, b, mover): a tuple that identifies the position."""
        return (self.r, self.s, self.a, self.b, self.mover)

    def occupied(self, p):
        """True when track field p (0..47) holds a marble."""
        if p < 24:
            return (self.r >> p) & 1 == 1
        return (self.s >> (p - 24)) & 1 == 1

    def __eq__(self, other):
        return isinstance(other, Position) and self.key() == other.key()

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.key())

    def __str__(self):
        return self.format()

    def __repr__(self):
        return "Position(%r)" % self.format()


_EMPTY = b"......................../........................ 0-0 A"
"""The position string of an empty board, 0-0, A to move: format_position's pattern."""


def format_position(r, s, a, b, mover):
    """Position string of raw parts: lane masks r, s (24-bit), scores a, b (0..6),
    mover 0/1.  Filled into one 55-byte buffer (on the Pico 160 bytes through the heap
    instead of 512: the string goes into every `turn` event and `position` reply,
    docs/performance.md "Seventh round")."""
    out = bytearray(_EMPTY)
    for i in range(24):
        if (r >> i) & 1:
            out[i] = 0x6F            # "o"
        if (s >> i) & 1:
            out[25 + i] = 0x6F
    out[50] = 0x30 + a
    out[52] = 0x30 + b
    out[54] = 0x41 + mover       # "A" or "B"
    return str(out, "ascii")


# The start position (docs/rules.md §5): R1..R6 and S1..S6, 0-0, A to move, and its
# string: the one definition for every module that needs the text (log headers, the
# USB link, the host's fakes).
START = Position()
START_TEXT = START.format()
