"""Samas states and their object form (docs/samas.md "The state object").

A state holds, for each player (index 0 = A, 1 = B), the hollow of the player's
Sama-stone (1..9, counted from A's baseline), the stones held (0..13) and the jokers
held (0..2).  Its object form (the `S` of the JSON lines and of `samsara rules legal`) is

    {"A": {"hole": h, "stones": n, "jokers": j}, "B": {"hole": h, "stones": n, "jokers": j}}

Every number is a small int; a state is never changed once built (a round makes a new
one).
"""

HOLLOWS = 9
"""Hollows on the track, numbered 1..9 from A's baseline."""
STONES = 13
"""Stones each player holds at the start."""
JOKERS = 2
"""Jokers each player holds at the start."""
START_HOLE = (2, 8)
"""The hollow of each player's Sama-stone at the start (A, B)."""
FAR_END = (9, 1)
"""The hollow each player's Sama-stone races to (A, B): reaching it wins."""
STEP = (1, -1)
"""The direction each player's Sama-stone moves in, in hollow numbers (A up, B down)."""
PLAYERS = ("A", "B")
"""The players' names by index."""

_PART_KEYS = ("hole", "stones", "jokers")


class StateError(ValueError):
    """A state or state object that is not a Samas state (the message names the part)."""


class State:
    """One Samas state: `hole`, `stones`, `jokers`, each a pair (A's, B's) of ints.

    hole: 1..9; stones: 0..13; jokers: 0..2.  Raises StateError for a value outside
    its range, a part that is not an int, or both Sama-stones on their far ends (a
    game ends as soon as one gets there).  Equality and hashing follow the six numbers.
    """

    def __init__(self, hole=START_HOLE, stones=(STONES, STONES), jokers=(JOKERS, JOKERS)):
        for p in (0, 1):
            _check_int(hole[p], 1, HOLLOWS, PLAYERS[p], "hole")
            _check_int(stones[p], 0, STONES, PLAYERS[p], "stones")
            _check_int(jokers[p], 0, JOKERS, PLAYERS[p], "jokers")
        if hole[0] == FAR_END[0] and hole[1] == FAR_END[1]:
            raise StateError("both Sama-stones are on their far ends (A on 9, B on 1): "
                             "a game ends when the first gets there")
        self.hole = (hole[0], hole[1])
        self.stones = (stones[0], stones[1])
        self.jokers = (jokers[0], jokers[1])

    def key(self):
        """The six numbers as one tuple: (hole A, hole B, stones A, stones B, jokers A,
        jokers B)."""
        return self.hole + self.stones + self.jokers

    def __eq__(self, other):
        return isinstance(other, State) and self.key() == other.key()

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.key())

    def __repr__(self):
        return "State(hole=%r, stones=%r, jokers=%r)" % (self.hole, self.stones, self.jokers)

    def distance(self, p):
        """Hollows between player p's Sama-stone and its far end (0 when there)."""
        return (FAR_END[p] - self.hole[p]) * STEP[p]

    def has_nothing(self, p):
        """True when player p holds no stone and no joker."""
        return self.stones[p] == 0 and self.jokers[p] == 0

    def to_obj(self):
        """The state object: {"A": {"hole", "stones", "jokers"}, "B": {...}} (a new dict)."""
        out = {}
        for p in (0, 1):
            out[PLAYERS[p]] = {"hole": self.hole[p], "stones": self.stones[p],
                               "jokers": self.jokers[p]}
        return out

    @staticmethod
    def from_obj(obj):
        """The State of a state object (as read from JSON).  Raises StateError naming
        what is wrong: not an object, a player or part missing or unknown, a part that
        is not an int or outside its range."""
        if not isinstance(obj, dict):
            raise StateError("a Samas state must be an object "
                             '{"A": {"hole", "stones", "jokers"}, "B": {...}}')
        _check_keys(obj, PLAYERS, "the state")
        parts = []
        for name in PLAYERS:
            part = obj[name]
            if not isinstance(part, dict):
                raise StateError("%s must be an object {\"hole\", \"stones\", \"jokers\"}" % name)
            _check_keys(part, _PART_KEYS, name)
            parts.append(part)
        return State((parts[0]["hole"], parts[1]["hole"]),
                     (parts[0]["stones"], parts[1]["stones"]),
                     (parts[0]["jokers"], parts[1]["jokers"]))


def _check_int(v, lo, hi, who, what):
    # (type() is int: JSON's true/false are ints to CPython's isinstance)
    if type(v) is not int:
        raise StateError("%s's %s must be a whole number, got %r" % (who, what, v))
    if not lo <= v <= hi:
        raise StateError("%s's %s must be %d..%d, got %d" % (who, what, lo, hi, v))


def _check_keys(d, keys, where):
    for k in keys:
        if k not in d:
            raise StateError("%s has no %r" % (where, k))
    for k in d:
        if k not in keys:
            raise StateError("%s has an unknown key %r (known: %s)" % (where, k, ", ".join(keys)))


START = State()
"""The start: A on hollow 2, B on hollow 8, each with 13 stones and 2 jokers."""
