"""The device engine: choose a complete turn for a position and a roll (docs/engine.md).

A 1-ply search over the complete turns of the roll (in the order of
moves.complete_turns) with an integer evaluation of the position each turn leaves
behind.  The choice depends only on the position, the roll, the rule option, the game
mode and a seed (ties are broken by a hash of the seed and the position): never on a
clock, so its play on CPython is its play on the Pico.

The evaluation (`evaluate`, from the side of the player who has just moved, the other
player to move next) is linear, in integer units (a goal of score difference = 1000):
  - the score difference;
  - for each of the 24 double spaces, which of its halves hold a marble (the mover's
    half, the opponent's, both: three 24-byte tables);
  - the opponent's scoring chances on their next roll: the expected goals over the 36
    rolls (`chance`) from the marbles within 12 fields of the opponent's goal (a marble
    counts from its own field or, by a lane change at the start, from its partner's,
    so the fields that can be counted from on a lane are exactly its occupied ones),
    weighed more when the opponent is one goal from the centre;
  - the mover's own chances for the roll after that.
The weights between the TRAINED markers are fitted by tools/train_engine.py (least
squares on the outcomes of seeded self-play games, docs/engine.md "Training").
A goal that wins is valued as the game (single game) or its points (match, docs/rules.md
§4: the final turn, side counts, 6 minus the loser's score).

Thinking in slices: `Thinker(...).step(n)` does at most n units of work (a unit is one
sub-move generation or one evaluated position) and returns True when the choice is
ready, so the scan loop can call it between scans; `choose` runs it to the end.  Both
give the same answer.

Two options make it faster with the same choices: `use_fast` (the board's: `chance`
remembered, the double spaces by table lookups) and `use_table` (the host's: `chance`
precomputed).

Imports only the rules engine; MicroPython-compatible (integers < 2**30, lane masks
are 24-bit ints, no tables bigger than 4 KB and those only on request: `use_fast`,
`use_table`).
"""

from samsara.rules.geometry import popcount24
from samsara.rules.moves import gen_sub_moves, ends_turn

try:
    from micropython import const
except ImportError:  # CPython
    def const(__x):
        return __x

GOAL = const(1000)          # value of one goal (the unit of the evaluation)
WIN = const(1000000)        # a won game (single game); a match adds its points
POINT = const(20000)        # one match point on top of WIN
# BEGIN TRAINED (written by tools/train_engine.py --write; docs/engine.md "Training")
W_OWN = const(7)            # per unit of the mover's chance for the roll after (x36 = 1 goal)
W_OPP = const(10)           # per unit of the opponent's chance on its next roll
W_OPP5 = const(24)          # added per unit when the opponent is one goal from the centre
# Worth of a double space t (t = 0..23: its half on the opponent's goal lane is
# field t+1 there, its other half field (t+12) mod 24 + 1 of the mover's goal lane)
# with only the mover's half occupied (MINE), only the opponent's (THEIRS), both
# (BOTH); stored as weight / 8 + 128.
MINE = b"\x97\x96\x9a\xa3\xa0\x9c\xa4\xa2\x97\x9c\x98\x97\x6c\x6f\x66\x66\x6a\x61\x5d\x62\x70\x77\x7c\x78"
THEIRS = b"\x92\x8f\x96\x97\x93\x9b\x9a\x94\x88\x83\x7d\x81\x6a\x6c\x65\x5b\x5e\x63\x5a\x5a\x64\x5c\x5b\x5e"
BOTH = b"\xa2\xa1\xa5\xb4\xaf\xa4\xb3\xae\x8d\x84\x82\x78\x5a\x5c\x54\x45\x4a\x4e\x40\x40\x57\x52\x65\x68"
# END TRAINED

MODE_SINGLE = const(0)
MODE_MATCH = const(1)

LEVEL_BEST = const(3)
"""The engine's full strength (levels 1..LEVEL_BEST; docs/engine.md "Levels")."""
LEVEL_SPREAD = (900, 250, 0)
"""Per level 1..LEVEL_BEST: the span (evaluation units, a goal = 1000) of the seeded
deviation added to each turn's value, so a lower level sometimes prefers a weaker turn;
a won game (WIN) stays worth more than any deviation, so no level misses a win."""

_table = None          # use_table: chance of all 4096 masks
_memo = None           # use_fast: bytearray(4096), chance + 1 of each mask met, 0 not yet
_nib = None            # use_fast: bytearray(6 * 256), the double spaces' terms by nibbles
_nib_off = 0           # what the six bytes of one evaluation add up to less than the terms
_fast = None           # use_fast's tables while switched off: (memo, nib, nib_off)


def _count(u):
    # chance(u) counted over the 36 rolls (chance's docstring).
    tot = 0
    x = 1
    while x <= 6:
        hx = (u >> (12 - x)) & 1
        y = x
        while y <= 6:
            hy = (u >> (12 - y)) & 1
            t = x + y
            hs = (u >> (12 - t)) & 1 if t <= 12 else 0
            if hx and hy and x != y:
                g = 2
            elif hx or hy or hs:
                g = 1
            else:
                g = 0
            tot += g if x == y else 2 * g
            y += 1
        x += 1
    return tot


def chance(u):
    """Expected goals x36 (0..72) of one roll for a player whose goal lane holds the
    12-bit mask u: bit k set when a marble can count from field 13+k of the lane, i.e.
    12-k fields before the goal.  A roll (x, y) scores when x, y or x+y is such a
    distance (two goals for two different distances).  Intermediate landings are not
    checked (an estimate, docs/engine.md).  Counted, or looked up after `use_fast`
    (remembered per mask) or `use_table` (all masks at once): the same values."""
    m = _memo
    if m is not None:
        v = m[u]
        if v:
            return v - 1
        v = _count(u)
        m[u] = v + 1
        return v
    if _table is not None:
        return _table[u]
    return _count(u)


def use_table():
    """Precompute `chance` for all 4096 masks into a 4 KB bytearray (the host does;
    the values are the same, only faster).  Returns the table."""
    global _table
    if _table is None:
        t = bytearray(4096)
        u = 0
        while u < 4096:
            t[u] = _count(u)
            u += 1
        _table = t
    return _table


def _term(t, x, y):
    # evaluate's term of double space t: x, y its opponent's / mover's half occupied.
    if x:
        return (BOTH[t] if y else THEIRS[t]) - 128
    if y:
        return MINE[t] - 128
    return 0


def _nibbles():
    # The per-space terms of evaluate summed four spaces at a time: entry
    # k * 256 + x * 16 + y is that sum over spaces t = 4k..4k+3 (bit t-4k of x: the
    # opponent's half, of y: the mover's) less the group's least sum, so that it fits
    # a byte (1.5 KB; the trained tables give ranges up to 232).  Returns (table,
    # the sum of the six least sums), or None when a range would not fit a byte.
    tab = bytearray(6 * 256)
    row = [0] * 256      # one group's sums (made once)
    off = 0
    k = 0
    while k < 6:
        xy = 0
        while xy < 256:
            w = 0
            i = 0
            while i < 4:
                w += _term(4 * k + i, (xy >> (4 + i)) & 1, (xy >> i) & 1)
                i += 1
            row[xy] = w
            xy += 1
        lo = min(row)
        if max(row) - lo > 255:
            return None
        xy = 0
        while xy < 256:
            tab[k * 256 + xy] = row[xy] - lo
            xy += 1
        off += lo
        k += 1
    return (tab, off)


def use_fast(on=True):
    """The engine's fast evaluation on (True) or off (False), with the same values
    (docs/engine.md "On the board"): `chance` remembered per mask as the masks occur
    (4 KB, filled as it goes: the 4 KB table of `use_table` costs ~10 s of Pico time up
    front), and `evaluate`'s 24 double spaces in six lookups of a 1.5 KB table built
    on the first call.  For the whole module (every Thinker, choose and evaluate).
    Returns whether it was on before."""
    global _memo, _nib, _nib_off, _fast
    was = _memo is not None
    if on and not was:
        if _fast is None:
            got = _nibbles()
            _fast = (bytearray(4096),) + (got if got is not None else (None, 0))
        _memo, _nib, _nib_off = _fast
    elif not on and was:
        _fast = (_memo, _nib, _nib_off)
        _memo = None
        _nib = None
        _nib_off = 0
    return was


def side_count(r, s, player):
    """Marbles on `player`'s side (A: R1-R12 + S13-S24, B: S1-S12 + R13-R24)."""
    if player == 0:
        return popcount24(r & 0xFFF) + popcount24(s >> 12)
    return popcount24(s & 0xFFF) + popcount24(r >> 12)


def evaluate(r, s, a, b, me):
    """Integer value of position (r, s, a, b) for player `me` (0 = A, 1 = B) who has
    just moved, the opponent to move next; higher is better for `me`.  No game end is
    judged here (see `turn_value`).  Units: a goal of score difference = GOAL; the
    terms are those of tools/train_engine.py `features` (module docstring)."""
    if me == 0:
        my = a
        op = b
        mine = s      # A's goal GS ends the angular lane
        theirs = r
    else:
        my = b
        op = a
        mine = r
        theirs = s
    e_op = chance(theirs >> 12)
    v = GOAL * (my - op) + W_OWN * chance(mine >> 12) - W_OPP * e_op
    if op >= 5:
        v -= W_OPP5 * e_op
    # Double space t: field t+1 of the opponent's lane and its partner on the mover's.
    rm = ((mine & 0xFFF) << 12) | (mine >> 12)
    tab = _nib
    if tab is not None:
        # use_fast: four double spaces a lookup (_nibbles)
        w = _nib_off + tab[((theirs & 15) << 4) | (rm & 15)] + \
            tab[256 + ((theirs >> 0) & 0xF0) + ((rm >> 4) & 15)] + \
            tab[512 + ((theirs >> 4) & 0xF0) + ((rm >> 8) & 15)] + \
            tab[768 + ((theirs >> 8) & 0xF0) + ((rm >> 12) & 15)] + \
            tab[1024 + ((theirs >> 12) & 0xF0) + ((rm >> 16) & 15)] + \
            tab[1280 + ((theirs >> 16) & 0xF0) + ((rm >> 20) & 15)]
        return v + 8 * w
    w = 0
    t = 0
    while t < 24:
        x = (theirs >> t) & 1
        y = (rm >> t) & 1
        if x:
            w += (BOTH[t] if y else THEIRS[t]) - 128
        elif y:
            w += MINE[t] - 128
        t += 1
    return v + 8 * w


def turn_value(r, s, a, b, me, pa, pb, mode=MODE_SINGLE, starter=0):
    """Value for `me` of the position after `me`'s complete turn from scores (pa, pb):
    a game end valued exactly (docs/rules.md §3, §4), else `evaluate`.

    mode: MODE_SINGLE (the first 6 wins) or MODE_MATCH (competition rules: the
    starter's final turn, side counts, points); starter: who began this game (match).
    """
    if me == 0:
        my, op, pmy, pop = a, b, pa, pb
    else:
        my, op, pmy, pop = b, a, pb, pa
    if mode == MODE_MATCH and pop == 6:
        # This was the final turn (docs/rules.md §4).
        if my == 6:
            d = side_count(r, s, me) - side_count(r, s, 1 - me)
            if d == 0:
                return 0
            return (WIN + POINT * d) if d > 0 else (-WIN + POINT * d)
        return -WIN - POINT * (6 - my)
    if op == 6 and pop < 6:
        # A goal for the opponent's sixth: the game ends at once, lost.
        if mode == MODE_MATCH:
            return -WIN - POINT * (6 - my)
        return -WIN
    if my == 6 and pmy < 6:
        if mode != MODE_MATCH:
            return WIN
        v = WIN + POINT * (6 - op)
        if me == starter and op == 5:
            # The opponent's final turn may reach the centre too: side counts decide.
            v -= (WIN * min(chance((s if me == 1 else r) >> 12), 36)) // 36
        return v
    return evaluate(r, s, a, b, me)


def _mix(seed, r, s, d1, d2):
    # A 30-bit hash for the tie-break; every step stays below 2**30.
    h = (seed & 0xFFFFF) ^ 0x2545F
    h = (h * 69069 + (r & 0x3FFF)) & 0x3FFFFFFF
    h = (h * 69069 + (r >> 14)) & 0x3FFFFFFF
    h = (h * 69069 + (s & 0x3FFF)) & 0x3FFFFFFF
    h = (h * 69069 + (s >> 14)) & 0x3FFFFFFF
    h = (h * 69069 + d1 * 7 + d2) & 0x3FFFFFFF
    return h >> 8


class Thinker:
    """One decision in slices: the best complete turn of roll (d1, d2) for the mover of
    position (r, s, a, b, mover) under rule option `og`.

    mode, starter: as `turn_value`; seed: any int, breaks ties between equal values;
    level: 1..LEVEL_BEST (the full strength, the default): below it a seeded deviation
    of up to LEVEL_SPREAD[level - 1] units is added to each turn's value.
    step(n) does at most n units of work (one sub-move generation or one evaluated
    position each) and returns True once the choice is ready; `work` counts the units
    done.  Then `moves` is the chosen turn (a tuple of one or two sub-move tuples of
    moves.py, in the order played) or None for Moksha, `key` its resulting (r, s, a, b)
    and `value` its `turn_value`.  A roll has at most a few hundred turns, so a
    decision is at most ~1,000 units.
    """

    def __init__(self, r, s, a, b, mover, d1, d2, og=0, seed=0, mode=MODE_SINGLE, starter=0,
                 level=LEVEL_BEST):
        self.pos = (r, s, a, b, mover)
        self.spread = LEVEL_SPREAD[min(max(level, 1), LEVEL_BEST) - 1]
        self.dice = (d1, d2)
        self.og = og
        self.seed = seed
        self.mode = mode
        self.starter = starter
        self.work = 0
        self.done = False
        self.moves = None
        self.key = None
        self.value = None
        self._best = []
        self._gen = self._think()

    def _consider(self, moves, m):
        # m: the last sub-move (its r, s, a, b are the turn's result).
        r, s, a, b, mover = self.pos
        v = turn_value(m[4], m[5], m[6], m[7], mover, a, b, self.mode, self.starter)
        if self.spread:
            # a lower level: a deviation seeded by the turn's result (small ints only)
            v += _mix(self.seed, m[4], m[5], m[6], m[7]) % self.spread
        best = self._best
        if self.value is None or v > self.value:
            self.value = v
            del best[:]
            best.append(moves)
        elif v == self.value:
            for t in best:
                o = t[-1]
                if o[4] == m[4] and o[5] == m[5] and o[6] == m[6] and o[7] == m[7]:
                    return
            best.append(moves)

    def _think(self):
        r, s, a, b, mover = self.pos
        d1, d2 = self.dice
        og = self.og
        orders = ((d1, d2),) if d1 == d2 else ((d1, d2), (d2, d1))
        for first, second in orders:
            firsts = gen_sub_moves(r, s, a, b, mover, first, og)
            yield
            for m in firsts:
                if ends_turn(m, a, b):
                    self._consider((m,), m)
                    yield
                    continue
                seconds = gen_sub_moves(m[4], m[5], m[6], m[7], mover, second, og)
                yield
                for m2 in seconds:
                    self._consider((m, m2), m2)
                    yield

    def step(self, n):
        """Do at most n units of work; True when the choice is ready (module docstring)."""
        if self.done:
            return True
        gen = self._gen
        k = 0
        while k < n:
            try:
                next(gen)
            except StopIteration:
                self._finish()
                return True
            self.work += 1
            k += 1
        return False

    def _finish(self):
        self.done = True
        best = self._best
        if best:
            r, s, a, b, mover = self.pos
            i = _mix(self.seed, r, s, self.dice[0], self.dice[1]) % len(best)
            self.moves = best[i]
            m = self.moves[-1]
            self.key = (m[4], m[5], m[6], m[7])
        self._best = []


def choose(r, s, a, b, mover, d1, d2, og=0, seed=0, mode=MODE_SINGLE, starter=0,
           level=LEVEL_BEST):
    """The engine's complete turn in one call: (moves, key, value) as `Thinker`, or
    None for a Moksha roll.  Same answer as any sequence of Thinker.step calls."""
    t = Thinker(r, s, a, b, mover, d1, d2, og, seed, mode, starter, level)
    while not t.step(64):
        pass
    if t.moves is None:
        return None
    return (t.moves, t.key, t.value)
