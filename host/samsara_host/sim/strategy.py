"""How simulated players choose their turn: `random` and `greedy` (docs/simulator.md).

A strategy is a function ``choose(r, s, a, b, mover, d1, d2, og, rng)`` returning one
complete turn of rules.complete_turns (a tuple of sub-move tuples), or None for Moksha.
It draws from `rng` exactly once per call whatever the position (so noise never shifts
the decision sequence of a seeded game).
"""
from samsara import rules
from samsara.geometry import A_SIDE_R, A_SIDE_S, B_SIDE_R, B_SIDE_S, popcount24


def _pick(turns, rng):
    x = rng.random()
    return turns[int(x * len(turns))][0] if turns else None


def choose_random(r, s, a, b, mover, d1, d2, og, rng):
    """Any complete turn, evenly."""
    turns = rules.complete_turns(r, s, a, b, mover, d1, d2, og)
    return _pick(turns, rng)


# Marbles within reach of a goal: fields 13..24 of the lane that ends in it.  The
# round lane ends in GR (B's goal), the angular lane in GS (A's goal).
_LATE = 0xFFF000


def _threat(mask):
    # Weighted count of marbles 1..12 fields before the goal at the end of this lane:
    # nearer ones weigh more (a single die reaches the last six).
    w = 0
    for i in range(12, 24):
        if (mask >> i) & 1:
            w += 2 if i >= 18 else 1
    return w


def evaluate(r, s, a, b, mover):
    """Score of a position for `mover` (higher is better): goals first, then marbles
    on the mover's own side, then the marbles lined up before each goal (own goal:
    good, the opponent's: bad, since the opponent moves next), then fully occupied
    double spaces on the opponent's approach (they block landings there)."""
    if mover == 0:
        own, opp = a, b
        side_own = popcount24(r & A_SIDE_R) + popcount24(s & A_SIDE_S)
        side_opp = popcount24(r & B_SIDE_R) + popcount24(s & B_SIDE_S)
        near_own = _threat(s)
        near_opp = _threat(r)
    else:
        own, opp = b, a
        side_own = popcount24(r & B_SIDE_R) + popcount24(s & B_SIDE_S)
        side_opp = popcount24(r & A_SIDE_R) + popcount24(s & A_SIDE_S)
        near_own = _threat(r)
        near_opp = _threat(s)
    # Full double spaces among the opponent's last twelve fields.
    full = r & ((s & 0xFFF) << 12 | s >> 12)
    if mover == 0:
        blocks = popcount24(full & _LATE)          # R13..R24 full: B's approach to GR
    else:
        blocks = popcount24(full & 0xFFF)          # R1..R12 full = S13..S24: A's to GS
    score = 1000 * (own - opp) + 20 * (side_own - side_opp)
    score += 3 * near_own - 5 * near_opp + 4 * blocks
    if own == 6:
        score += 100000
    return score


def choose_greedy(r, s, a, b, mover, d1, d2, og, rng):
    """The complete turn whose resulting position `evaluate`s best for the mover;
    ties are broken with one draw from rng."""
    turns = rules.complete_turns(r, s, a, b, mover, d1, d2, og)
    x = rng.random()
    if not turns:
        return None
    best = None
    best_v = None
    for moves, key in turns:
        v = evaluate(key[0], key[1], key[2], key[3], mover)
        if best_v is None or v > best_v:
            best_v = v
            best = [moves]
        elif v == best_v:
            best.append(moves)
    return best[int(x * len(best))]


STRATEGIES = {"random": choose_random, "greedy": choose_greedy}


def strategy(name):
    """The strategy function called `name` ('random' or 'greedy'); ValueError else."""
    try:
        return STRATEGIES[name]
    except KeyError:
        raise ValueError("unknown strategy %r (use %s)" % (name, " or ".join(sorted(STRATEGIES))))
