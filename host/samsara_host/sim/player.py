"""The one simulated player: choose a complete turn, then play it by hand.

Used through small adapters by the simulated board (samsara_host.sim.table), the
players of the firmware tests on fake hardware (tests/fakes/player.py, also under the
MicroPython Unix port) and the virtual board's test player (tests/vbplayer.py); it
imports only the rules engine, so it runs under CPython and MicroPython alike
(MICROPYPATH with firmware/ and host/).

Choosing (docs/simulator.md "Players"): a strategy is a function

    choose(r, s, a, b, mover, d1, d2, og, pick) -> one complete turn of
        rules.complete_turns (a tuple of sub-move tuples), or None for Moksha

where `pick(n)` returns an index 0..n-1 (n >= 0; anything for n == 0) and is called
exactly once per choice whatever the position, so a seeded game draws the same
sequence at every noise level.  Each adapter brings its own seeded `pick`
(`random_pick` for Python's random.Random, `lcg_pick` for a tests' Lcg), which keeps
its games as they were.  Strategies: `random` (any complete turn, evenly), `greedy`
(the best `evaluate`d result, ties by pick), `scores` (the best score difference,
ties by pick), and the engines `device` and `host` (docs/engine.md; imported only
when chosen).

Playing: `hand_moves` turns a sub-move into the marble moves a hand makes (lift here,
place there): the marble to its landing field; a goal is the marble into the goal
hole, then the marble out of the goal onto its reinsertion field and the owner's
scoring piece one field on (`goal_steps`).  `hand_actions` spells a whole turn as
(LIFT, p) / (PLACE, p) steps.
"""
from samsara.rules import moves as rules
from samsara.rules.geometry import (A_SIDE_R, A_SIDE_S, B_SIDE_R, B_SIDE_S, GR, GS,
                              popcount24, score_position)
from samsara.rules.moves import M_FROM, M_TO, M_INS, M_A, M_B

LIFT = "lift"
PLACE = "place"


def random_pick(rng):
    """A pick(n) drawing once from `rng` (random.Random or anything with random()):
    int(rng.random() * n), a draw also for n == 0 (the simulated board's sequence)."""
    def pick(n):
        return int(rng.random() * n)
    return pick


def lcg_pick(rng):
    """A pick(n) from a tests' Lcg (rng.below(n)); no draw for n == 0."""
    def pick(n):
        return rng.below(n) if n else 0
    return pick


# -- strategies ---------------------------------------------------------------------

def choose_random(r, s, a, b, mover, d1, d2, og, pick):
    """Any complete turn, evenly (module docstring)."""
    turns = rules.complete_turns(r, s, a, b, mover, d1, d2, og)
    k = pick(len(turns))
    return turns[k][0] if turns else None


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


def _best(turns, value, pick):
    # The complete turns of the highest value(key), in the order given; one pick.
    best = None
    best_v = None
    for moves, key in turns:
        v = value(key)
        if best_v is None or v > best_v:
            best_v = v
            best = [moves]
        elif v == best_v:
            best.append(moves)
    k = pick(len(best) if best else 0)
    return best[k] if best else None


def choose_greedy(r, s, a, b, mover, d1, d2, og, pick):
    """The complete turn whose resulting position `evaluate`s best for the mover;
    ties are broken with the one pick."""
    turns = rules.complete_turns(r, s, a, b, mover, d1, d2, og)
    return _best(turns, lambda key: evaluate(key[0], key[1], key[2], key[3], mover), pick)


def choose_scores(r, s, a, b, mover, d1, d2, og, pick):
    """The complete turn with the best score difference for the mover (goals first,
    nothing else weighed); ties are broken with the one pick."""
    sign = 1 if mover == 0 else -1
    turns = rules.complete_turns(r, s, a, b, mover, d1, d2, og)
    return _best(turns, lambda key: sign * (key[2] - key[3]), pick)


def choose_device(r, s, a, b, mover, d1, d2, og, pick):
    """The device engine's turn (samsara.rules.engine, docs/engine.md); its tie-break
    seed is the one pick (pick(2**20)), so the pick sequence stays one draw a choice."""
    from samsara.rules import engine
    seed = pick(1 << 20)
    res = engine.choose(r, s, a, b, mover, d1, d2, og, seed)
    return None if res is None else res[0]


def choose_host(r, s, a, b, mover, d1, d2, og, pick):
    """The host engine's turn (samsara_host.engine.hostengine: CPython with numpy
    only); one pick is drawn and not needed (the host engine breaks ties by rank)."""
    from samsara_host.engine import hostengine
    pick(1 << 20)
    res = hostengine.choose(r, s, a, b, mover, d1, d2, og)
    return None if res is None else res[0]


STRATEGIES = {"random": choose_random, "greedy": choose_greedy, "device": choose_device,
              "host": choose_host}
"""The strategies a user chooses by name (samsara demo, Table's players).  `device`
and `host` seat the engines (docs/engine.md); `host` needs CPython and numpy."""


def strategy(name):
    """The strategy function called `name` (a STRATEGIES key); ValueError else."""
    try:
        return STRATEGIES[name]
    except KeyError:
        raise ValueError("unknown strategy %r (use %s)" % (name, ", ".join(sorted(STRATEGIES))))


# -- hands ----------------------------------------------------------------------------

def goal_steps(m, a, b):
    """The hand moves (from, to) that finish goal sub-move `m` once its marble is in
    the goal hole, scores a, b before it: the marble out of the goal onto its
    reinsertion field, then the owner's scoring piece one field on (left out when
    the owner's score does not change).  Either order is accepted by the board."""
    goal = m[M_TO]
    owner = 0 if goal == GS else 1
    old = score_position(owner, a if owner == 0 else b)
    new = score_position(owner, m[M_A] if owner == 0 else m[M_B])
    steps = [(goal, m[M_INS])]
    if new != old:
        steps.append((old, new))
    return steps


def hand_moves(m, a, b):
    """The hand moves (from, to) of sub-move `m` (rules' tuple) from scores a, b: the
    marble to its landing field, and for a goal `goal_steps` after it."""
    out = [(m[M_FROM], m[M_TO])]
    if m[M_TO] == GS or m[M_TO] == GR:
        out.extend(goal_steps(m, a, b))
    return out


def hand_actions(moves, a, b):
    """A whole turn (sub-moves from scores a, b) as hand actions: a list of
    (LIFT, position) and (PLACE, position), in order."""
    out = []
    for m in moves:
        for frm, to in hand_moves(m, a, b):
            out.append((LIFT, frm))
            out.append((PLACE, to))
        a, b = m[M_A], m[M_B]
    return out
