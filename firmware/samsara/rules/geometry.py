"""Board geometry: field and sensor-position names, indexes and sides (docs/rules.md §1, §6).

Position index p (0..63) names every sensor hole and is also the bit order of a frame
(docs/frames.md): byte p >> 3, bit p & 7.

    p  0..23  R1..R24   round lane      (bit i of the R lane mask is field R(i+1))
    p 24..47  S1..S24   angular lane    (bit i of the S lane mask is field S(i+1))
    p 48      GS        A's goal space (follows S24)
    p 49      GR        B's goal space (follows R24)
    p 50..55  A0..A5    A's scoring track, p 56 AC (A's end of the centre, score 6)
    p 57..62  B0..B5    B's scoring track, p 63 BC (B's end of the centre, score 6)

A lane mask is a 24-bit small integer (bit i = field i+1), so every operation on it stays
below 2**30 and never allocates on the Pico.
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(__x):
        return __x

N_POSITIONS = const(64)
_LANE_FIELDS = const(24)
_LANE_FULL = const(0xFFFFFF)
_HALF_FULL = const(0xFFF)
R0 = const(0)     # first round-lane position index (R1)
S0 = const(24)    # first angular-lane position index (S1)
GS = const(48)    # A's goal space, after S24
GR = const(49)    # B's goal space, after R24
A_TRACK = const(50)  # A0; A's score k stands on A_TRACK + k (k = 6 is AC)
B_TRACK = const(57)  # B0; B's score k stands on B_TRACK + k (k = 6 is BC)
_PLAYER_A = const(0)
_PLAYER_B = const(1)

# Side masks (docs/rules.md §1): A's side is R1-R12 + S13-S24, B's is S1-S12 + R13-R24.
A_SIDE_R = const(0x000FFF)
A_SIDE_S = const(0xFFF000)
B_SIDE_R = const(0xFFF000)
B_SIDE_S = const(0x000FFF)

PLAYER_NAMES = "AB"


NAMES = [
    "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "R11", "R12",
    "R13", "R14", "R15", "R16", "R17", "R18", "R19", "R20", "R21", "R22", "R23", "R24",
    "S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10", "S11", "S12",
    "S13", "S14", "S15", "S16", "S17", "S18", "S19", "S20", "S21", "S22", "S23", "S24",
    "GS", "GR", "A0", "A1", "A2", "A3", "A4", "A5", "AC",
    "B0", "B1", "B2", "B3", "B4", "B5", "BC"]
"""The name of every position index 0..63 (a table: on the Pico building a name with
str() costs about 0.2 ms, and every lift, placement and sub-move names positions in the
iteration that answers it; docs/performance.md "Fifth round").  Read only.  A list
display, not a tuple: a constant tuple's strings are heap objects on MicroPython (2 KB),
a list's are the module's interned strings (about 0.6 KB with the list)."""


def position_name(p):
    """Name of position index p (0..63), e.g. 0 -> 'R1', 48 -> 'GS', 56 -> 'AC'.

    Raises ValueError for an index outside 0..63.
    """
    if 0 <= p < 64:
        return NAMES[p]
    raise ValueError("position index out of range 0..63: %r" % (p,))


def position_index(name):
    """Index 0..63 of a position name such as 'R1', 'S24', 'GS', 'A3', 'BC'.

    Raises ValueError naming the bad text.
    """
    if not isinstance(name, str) or len(name) < 2:
        raise ValueError("unknown position name: %r" % (name,))
    head = name[0]
    tail = name[1:]
    if name == "GS":
        return GS
    if name == "GR":
        return GR
    if head in "AB" and tail == "C":
        return (A_TRACK if head == "A" else B_TRACK) + 6
    if tail.isdigit() and (len(tail) == 1 or tail[0] != "0"):
        k = int(tail)
        if head == "R" and 1 <= k <= 24:
            return k - 1
        if head == "S" and 1 <= k <= 24:
            return k + 23
        if head in "AB" and 0 <= k <= 5:
            return (A_TRACK if head == "A" else B_TRACK) + k
    raise ValueError("unknown position name: %r" % (name,))


def partner(p):
    """Position index of the other half of the double space of track field p (0..47).

    R i pairs with S i+12 and S i with R i+12 (docs/rules.md §1).
    """
    if p < 24:
        return 24 + (p + 12) % 24
    return (p - 24 + 12) % 24


def rot12(mask):
    """Rotate a 24-bit lane mask by 12 fields: the partner halves in the other lane.

    Bit i of the result is set when bit (i + 12) mod 24 of `mask` is set, so
    ``r & rot12(s)`` marks the R fields whose partner S half is occupied too.
    Stays below 2**24 (no allocation on the Pico).
    """
    return ((mask & 0xFFF) << 12) | (mask >> 12)


def score_position(player, score):
    """Sensor position index of `player`'s (0 = A, 1 = B) scoring piece at `score` 0..6."""
    return (A_TRACK if player == 0 else B_TRACK) + score


def popcount24(m):
    """Number of set bits of a 24-bit mask (MicroPython has no int.bit_count)."""
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n
