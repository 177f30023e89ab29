"""Schaska states and their object form (docs/schaska.md "The state object").

A state is a track of n fields (1..n) and, for each player (index 0 = A, 1 = B), the
figures at the player's start and at home (the other player's start), plus the player
to move.  Positions along the track are numbered 0..n+1: 0 is A's start (before field
1), n+1 is B's start (after field n); so A starts on 0 and comes home on n+1, B starts
on n+1 and comes home on 0.  `cells` is a bytearray of n+2 entries: cells[f] for field
f is EMPTY (0), or the owner's player index + 1 (1 for A, 2 for B); cells[0] and
cells[n+1] are unused.

The object form (the `S` of the JSON lines and of `samsara rules legal`):

    {"A": {"start": n, "fields": [sorted field numbers], "home": h}, "B": {...},
     "turn": "A" | "B"}
"""

FIGURES = 7
"""Figures each player has."""
PLAYERS = ("A", "B")
"""The players' names by index."""
EMPTY = 0
"""cells[f] of an empty field."""

_PART_KEYS = ("start", "fields", "home")


class StateError(ValueError):
    """A state or state object that is not a Schaska state (the message names the part)."""


class State:
    """One Schaska state on a track of `n` fields.

    cells: bytearray(n + 2) (module docstring), start and home: pairs (A's, B's) of
    figure counts, mover: 0 (A) or 1 (B).  Without `cells` the track is empty; without
    `start` each player has FIGURES figures at the start.  Raises StateError when a
    player's figures do not add up to FIGURES, when both have all figures home, or for
    a value out of range.  Equality and hashing follow the whole state.
    """

    def __init__(self, n, cells=None, start=(FIGURES, FIGURES), home=(0, 0), mover=0):
        if cells is None:
            cells = bytearray(n + 2)
        if len(cells) != n + 2:
            raise StateError("the cells of %d fields are %d entries, not %d" % (n, len(cells), n + 2))
        if mover != 0 and mover != 1:
            raise StateError("unknown player to move: %r" % (mover,))
        on = [0, 0]
        for f in range(1, n + 1):
            c = cells[f]
            if c:
                if c > 2:
                    raise StateError("field %d holds an unknown owner %d" % (f, c))
                on[c - 1] += 1
        for p in (0, 1):
            for v, what in ((start[p], "start"), (home[p], "home")):
                if type(v) is not int or not 0 <= v <= FIGURES:
                    raise StateError("%s's %s must be a whole number 0..%d, got %r"
                                     % (PLAYERS[p], what, FIGURES, v))
            if start[p] + on[p] + home[p] != FIGURES:
                raise StateError("%s has %d figures (start %d, fields %d, home %d), not %d"
                                 % (PLAYERS[p], start[p] + on[p] + home[p], start[p], on[p],
                                    home[p], FIGURES))
        if home[0] == FIGURES and home[1] == FIGURES:
            raise StateError("both players have all figures home: a game ends when the "
                             "first does")
        self.n = n
        self.cells = bytearray(cells)
        self.start = (start[0], start[1])
        self.home = (home[0], home[1])
        self.mover = mover

    def fields(self, p):
        """The fields (1..n, ascending) holding player p's figures, as a list."""
        want = p + 1
        c = self.cells
        return [f for f in range(1, self.n + 1) if c[f] == want]

    def key(self):
        """The whole state as one tuple (bytes of the cells, start, home, mover)."""
        return (bytes(self.cells), self.start, self.home, self.mover)

    def __eq__(self, other):
        return isinstance(other, State) and self.key() == other.key()

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.key())

    def __repr__(self):
        return "State.from_obj(%r, %d)" % (self.to_obj(), self.n)

    def to_obj(self):
        """The state object (module docstring), a new dict."""
        out = {}
        for p in (0, 1):
            out[PLAYERS[p]] = {"start": self.start[p], "fields": self.fields(p),
                               "home": self.home[p]}
        out["turn"] = PLAYERS[self.mover]
        return out

    @staticmethod
    def from_obj(obj, n):
        """The State of a state object (as read from JSON) on a track of n fields.
        Raises StateError naming what is wrong: not an object, a key missing or unknown,
        a count or field that is not a whole number or out of range, a field held twice,
        figures that do not add up to FIGURES, an unknown player to move."""
        if not isinstance(obj, dict):
            raise StateError('a Schaska state must be an object {"A": {"start", "fields", '
                             '"home"}, "B": {...}, "turn": "A"|"B"}')
        _check_keys(obj, ("A", "B", "turn"), "the state")
        cells = bytearray(n + 2)
        start = [0, 0]
        home = [0, 0]
        for p in (0, 1):
            name = PLAYERS[p]
            part = obj[name]
            if not isinstance(part, dict):
                raise StateError('%s must be an object {"start", "fields", "home"}' % name)
            _check_keys(part, _PART_KEYS, name)
            fields = part["fields"]
            if not isinstance(fields, list):
                raise StateError("%s's fields must be a list of field numbers" % name)
            for f in fields:
                if type(f) is not int or not 1 <= f <= n:
                    raise StateError("%s's fields: %r is not a field 1..%d" % (name, f, n))
                if cells[f]:
                    raise StateError("field %d is held twice" % f)
                cells[f] = p + 1
            start[p] = part["start"]
            home[p] = part["home"]
        turn = obj["turn"]
        if turn not in PLAYERS:
            raise StateError("turn must be \"A\" or \"B\", got %r" % (turn,))
        return State(n, cells, start, home, PLAYERS.index(turn))


def _check_keys(d, keys, where):
    for k in keys:
        if k not in d:
            raise StateError("%s has no %r" % (where, k))
    for k in d:
        if k not in keys:
            raise StateError("%s has an unknown key %r (known: %s)" % (where, k, ", ".join(keys)))
