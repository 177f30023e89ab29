"""The host engine: expectimax over the opponent's 21 rolls on top of the device
engine's evaluation (docs/engine.md "Host engine").

For a roll, every complete turn is valued by the device engine (`turn_value`); the
best `width` of them are searched one ply deeper: for each of the opponent's 21 rolls
(weighted 1/36 for a double, 2/36 otherwise) the opponent answers with its own best
turn by the same evaluation, and the turn's value is the weighted mean of the
positions so reached (a Moksha roll of the opponent is a draw, value 0).  The work is
bounded by `width` (no clock), so the choice is the same under any load; ties between
equal values go to the device engine's order (its 1-ply value, then its seeded pick).
"""
from samsara.rules import engine as dev
from samsara.rules.moves import complete_turns

WIDTH = 3
"""Turns searched one ply deeper per decision (the rest keep their 1-ply rank)."""

ROLLS = tuple((x, y, 1 if x == y else 2) for x in range(1, 7) for y in range(x, 7))
"""The 21 distinct rolls with their weight out of 36."""

_TERMINAL = dev.WIN // 2


def reply_value(r, s, a, b, opp, og, mode, starter):
    """Expected value, for the player who just moved, of position (r, s, a, b) with
    `opp` to roll: the mean over the 21 rolls (x36) of minus the opponent's best
    `turn_value` (Moksha: 0).  Units: the device evaluation's, times 36."""
    tv = dev.turn_value
    tot = 0
    for x, y, w in ROLLS:
        best = None
        for _moves, k in complete_turns(r, s, a, b, opp, x, y, og):
            v = tv(k[0], k[1], k[2], k[3], opp, a, b, mode, starter)
            if best is None or v > best:
                best = v
        tot -= w * (best if best is not None else 0)
    return tot


def choose(r, s, a, b, mover, d1, d2, og=0, seed=0, mode=dev.MODE_SINGLE, starter=0, width=WIDTH):
    """The host engine's turn for roll (d1, d2): (moves, key, value) like the device
    engine's `choose`, value in the device evaluation's units (the 2-ply mean), or
    None for Moksha.  width: how many 1-ply best turns are searched deeper."""
    dev.use_table()
    turns = complete_turns(r, s, a, b, mover, d1, d2, og)
    if not turns:
        return None
    first = dev.choose(r, s, a, b, mover, d1, d2, og, seed, mode, starter)
    scored = []
    for i, (moves, k) in enumerate(turns):
        v = dev.turn_value(k[0], k[1], k[2], k[3], mover, a, b, mode, starter)
        # The device engine's own pick first among equals, then complete_turns order.
        scored.append((-v, 0 if k == first[1] else 1, i))
    scored.sort()
    best = None
    for negv, _tie, i in scored[:width]:
        moves, k = turns[i]
        v1 = -negv
        if v1 >= _TERMINAL or v1 <= -_TERMINAL:
            v = v1
        else:
            v = reply_value(k[0], k[1], k[2], k[3], 1 - mover, og, mode, starter) // 36
        if best is None or v > best[2]:
            best = (moves, k, v)
    return best
