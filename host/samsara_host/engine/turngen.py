"""Resulting positions of complete turns, fast, for the host engine's search
(docs/engine.md "Host engine", docs/rules.md §3).

The firmware rules engine (`samsara.rules.moves.complete_turns`) builds every sub-move
as an 8-field tuple and removes duplicates by a linear scan, which suits MicroPython
but is most of a host search's CPU time.  The search (`hostengine.reply_values`,
`deep_values`) needs only the resulting positions, so this module computes just those:

- a position is the key ``(r, s, a, b)``: ``r, s`` the 24-bit lane masks (bit i =
  field i+1 of the round / angular lane), ``a, b`` the scores 0..6;
- `all_die_results` gives the positions after one sub-move of each die 1..6
  (docs/rules.md §3 "One die's move", "Goals and scoring") as six insertion-ordered
  dicts (keys only, values None), which drop duplicates in C; each marble's counting
  starts (with the lane change at the start) are found once for the six dice, the
  landing field's bit, its partner's bit and the die reaching the goal come from
  tables per field, and the reinsertion field is the lowest clear bit of
  ``(x | y >> 12) & 0xFFF`` (x the goal's lane, y the other lane);
- `TurnKeys` memoises, for one position and mover, the one-die results of the
  position and of each position reached by a first die, so the 21 rolls share them;
- `turn_keys` / `TurnKeys.keys(d1, d2)` list the distinct resulting keys of a roll in
  exactly the order of `complete_turns` (first occurrence of each key), so that ties
  broken by position in the list (numpy argmax in `deep_values`) fall the same way.

Host only (CPython: dicts and memo tables, no care for allocation); firmware/ keeps its
own engine.  tests/test_turngen.py checks the lists against `complete_turns`; tools/
bench_turngen.py prints both generators' speed.
"""
from samsara.rules.moves import OWNER_SCORES

_LOW12 = 0xFFF


def _bit_indexes(n):
    # Bit indexes of the set bits of a 12-bit number, ascending.
    return tuple(i for i in range(12) if (n >> i) & 1)


_BITS = tuple(_bit_indexes(n) for n in range(4096))
_BITS_HI = tuple(tuple(i + 12 for i in t) for t in _BITS)
_PARTNER = tuple(i + 12 if i < 12 else i - 12 for i in range(24))


def _steps(j):
    # Landings from field index j (0..23) for the dice 1..6 that stay on the track:
    # (die - 1, the landing field's bit, its partner's bit).
    return tuple((d - 1, 1 << (j + d), 1 << _PARTNER[j + d]) for d in range(1, 7)
                 if j + d < 24)


_STEPS = tuple(_steps(j) for j in range(24))
_GOAL_DIE = tuple(23 - j if 24 - j <= 6 else -1 for j in range(24))
"""For field index j, die - 1 of the die that reaches the goal after field 24 (-1 when
none does)."""


def _goal(out, xl, x, y, a, b, mover, og):
    # A sub-move into the goal of lane xl, x that lane's mask and y the other's (the
    # moving marble removed): the score, then reinsertion on the first field k of 1..12
    # of the goal's lane that is free with its partner free (docs/rules.md §3).
    if xl == 0:                 # R24 -> GR, B's goal
        if og and mover == 0:
            return
        if b < 6:
            b += 1
    else:                       # S24 -> GS, A's goal
        if og and mover == 1:
            return
        if a < 6:
            a += 1
    occ = (x | (y >> 12)) & _LOW12
    free = (occ + 1) & ~occ     # lowest clear bit of occ
    if free > _LOW12:
        return                  # no free field: cannot happen with 12 marbles
    x |= free
    if xl == 0:
        out[(x, y, a, b)] = None
    else:
        out[(y, x, a, b)] = None


def _starts(r, s):
    # The counting starts of every marble in gen_sub_moves order: (lane, field index,
    # that lane's mask, the other lane's mask), the moving marble removed; a marble
    # whose partner field is occupied also counts from the partner field (lane change
    # at the start, the partner marble stays).
    out = []
    for i in _BITS[r & _LOW12] + _BITS_HI[r >> 12]:
        own = r & ~(1 << i)
        out.append((0, i, own, s))
        q = _PARTNER[i]
        if (s >> q) & 1:
            out.append((1, q, s, own))
    for i in _BITS[s & _LOW12] + _BITS_HI[s >> 12]:
        own = s & ~(1 << i)
        out.append((1, i, own, r))
        q = _PARTNER[i]
        if (r >> q) & 1:
            out.append((0, q, r, own))
    return out


def all_die_results(r, s, a, b, mover, og=OWNER_SCORES):
    """The positions after each legal sub-move of each die 1..6 from key (r, s, a, b)
    with `mover` (0 = A, 1 = B) to play, og the opponent_goal option (moves.OWNER_SCORES
    or moves.FORBIDDEN).  Returns a tuple of 6 dicts, index die - 1, whose keys are the
    resulting (r, s, a, b) in the order of `moves.gen_sub_moves` (marbles by position
    index 0..47, each without then with a lane change at the start), duplicates
    dropped; values are None.  docs/rules.md §3 "One die's move", "Goals and
    scoring"."""
    outs = ({}, {}, {}, {}, {}, {})
    for xl, j, x, y in _starts(r, s):
        g = _GOAL_DIE[j]
        if xl == 0:
            for di, bit, pb in _STEPS[j]:
                if x & bit:
                    if not y & pb:      # landing on a marble: the partner half
                        outs[di][(x, y | pb, a, b)] = None
                else:
                    outs[di][(x | bit, y, a, b)] = None
        else:
            for di, bit, pb in _STEPS[j]:
                if x & bit:
                    if not y & pb:
                        outs[di][(y | pb, x, a, b)] = None
                else:
                    outs[di][(y, x | bit, a, b)] = None
        if g >= 0:
            _goal(outs[g], xl, x, y, a, b, mover, og)
    return outs


def die_results(r, s, a, b, mover, d, og=OWNER_SCORES):
    """`all_die_results` of the one die `d` (1..6): a dict of the resulting keys
    (r, s, a, b) in gen_sub_moves order, values None."""
    return all_die_results(r, s, a, b, mover, og)[d - 1]


class TurnKeys:
    """The resulting keys of every roll from one position, sharing the one-die work
    across rolls.  key: (r, s, a, b) with r, s 24-bit lane masks and a, b scores;
    mover 0 (A) or 1 (B); og the opponent_goal option.  docs/rules.md §3."""

    def __init__(self, key, mover, og=OWNER_SCORES):
        self.key = key
        self.mover = mover
        self.og = og
        self._first = None      # all_die_results of key
        self._after = {}        # key after a first die -> its all_die_results

    def keys(self, d1, d2):
        """The distinct resulting keys (r, s, a, b) of roll (d1, d2), dice 1..6, in the
        order of `moves.complete_turns` (both orders of the dice, doubles two
        sub-moves, a sub-move that brings a score from 5 to 6 ends the turn).  An
        empty list is Moksha."""
        r, s, a, b = self.key
        seen = {}
        orders = ((d1, d2),) if d1 == d2 else ((d1, d2), (d2, d1))
        first_all = self._first
        if first_all is None:
            first_all = self._first = all_die_results(r, s, a, b, self.mover, self.og)
        after = self._after
        for first, second in orders:
            for k1 in first_all[first - 1]:
                if (k1[2] == 6 and a == 5) or (k1[3] == 6 and b == 5):
                    if k1 not in seen:
                        seen[k1] = None
                    continue
                nxt = after.get(k1)
                if nxt is None:
                    nxt = after[k1] = all_die_results(k1[0], k1[1], k1[2], k1[3],
                                                      self.mover, self.og)
                # dict.update keeps the place of a key already seen
                seen.update(nxt[second - 1])
        return list(seen)


def turn_keys(r, s, a, b, mover, d1, d2, og=OWNER_SCORES):
    """The distinct resulting keys (r, s, a, b) of roll (d1, d2) for `mover`, in the
    order of `moves.complete_turns` (its `[k for _m, k in ...]`); [] for Moksha.
    r, s: 24-bit lane masks; a, b: scores; og: the opponent_goal option.  For several
    rolls of one position use `TurnKeys`, which shares the work.  docs/rules.md §3."""
    return TurnKeys((r, s, a, b), mover, og).keys(d1, d2)
