"""The Samsara rules engine: sub-moves, complete turns, Moksha (docs/rules.md §1-§3).

Positions are handled as raw parts so that no object is built per step:
``r, s`` are 24-bit lane masks (bit i = field i+1 of the round / angular lane),
``a, b`` the scores (0..6) and ``mover`` 0 (A) or 1 (B).

A sub-move is a tuple ``(die, frm, to, ins, r, s, a, b)``, its fields named M_DIE,
M_FROM, M_TO, M_INS, M_R, M_S, M_A, M_B (the indexes 0..7):
    die   pips used, 1..6
    frm   position index of the marble's own field (0..47), even after a lane change
          at the start
    to    landing field (0..47), or GS (48) / GR (49) for a goal
    ins   reinsertion field (0..47) after a goal, else -1
    r, s, a, b   the position after it (the mover is unchanged: the turn goes on)

Rule option ``og`` (opponent_goal): OWNER_SCORES (0, default) lets the mover enter the
opponent's goal, which scores for its owner; FORBIDDEN (1) makes that sub-move illegal.
"""

from samsara.rules.geometry import GS, GR
from samsara.rules.position import Position, PositionError, format_position

try:
    from micropython import const
except ImportError:  # CPython
    def const(__x):
        return __x

OWNER_SCORES = 0
FORBIDDEN = 1
OPTION_NAMES = ("owner_scores", "forbidden")

# The fields of a sub-move tuple, by name (module docstring): m[M_R] is the round lane
# of the position after sub-move m.  Code outside the rules engine indexes sub-moves by
# these names (tests/test_move_fields.py); const: inside a module that declares them
# they cost nothing, elsewhere one lookup of a module global.
M_DIE = const(0)
"""Pips the sub-move used, 1..6."""
M_FROM = const(1)
"""Position index of the moving marble's own field (0..47)."""
M_TO = const(2)
"""Landing field (0..47), or GS (48) / GR (49) for a goal."""
M_INS = const(3)
"""Reinsertion field after a goal (0..47), else -1."""
M_R = const(4)
"""Round lane (24-bit mask) of the position after the sub-move."""
M_S = const(5)
"""Angular lane (24-bit mask) of the position after the sub-move."""
M_A = const(6)
"""A's score after the sub-move."""
M_B = const(7)
"""B's score after the sub-move."""


def option_code(name):
    """Rule option code for an opponent_goal name ('owner_scores' or 'forbidden').

    Raises ValueError for any other name.
    """
    if name == "owner_scores" or name == OWNER_SCORES:
        return OWNER_SCORES
    if name == "forbidden" or name == FORBIDDEN:
        return FORBIDDEN
    raise ValueError("unknown opponent_goal option %r (use owner_scores or forbidden)" % (name,))


def _land(xl, j, d, x, y, a, b, mover, og, frm, out):
    # Count d fields along lane xl (0 = R, 1 = S) from field index j, with x the
    # occupancy of that lane and y of the other lane (the moving marble already
    # removed).  Append the sub-move to out, unless it is illegal or a duplicate.
    t = j + d
    if t > 24:
        return
    if t == 24:
        # Goal: R24 -> GR (B's), S24 -> GS (A's).  No lane change into a goal.
        if xl == 0:
            if og and mover == 0:
                return
            to = GR
            if b < 6:
                b += 1
        else:
            if og and mover == 1:
                return
            to = GS
            if a < 6:
                a += 1
        # Reinsertion on fields 1..12 of the goal's own lane: free, partner free.
        k = 0
        while k < 12:
            if not (x >> k) & 1 and not (y >> (k + 12)) & 1:
                break
            k += 1
        if k == 12:  # cannot happen with 12 marbles (docs/rules.md §3)
            return
        x |= 1 << k
        ins = k + 24 * xl
    else:
        ins = -1
        bit = 1 << t
        if not x & bit:
            x |= bit
            to = t + 24 * xl
        else:
            q = t - 12 if t >= 12 else t + 12
            pb = 1 << q
            if y & pb:
                return  # both halves occupied
            y |= pb
            to = q + 24 * (1 - xl)
    if xl == 0:
        r = x
        s = y
    else:
        r = y
        s = x
    for m in out:
        if m[4] == r and m[5] == s and m[6] == a and m[7] == b:
            return
    out.append((d, frm, to, ins, r, s, a, b))


def gen_sub_moves(r, s, a, b, mover, d, og=OWNER_SCORES, origin=-1, out=None):
    """All legal sub-moves of die `d` (1..6), optionally only of the marble on `origin`.

    r, s: 24-bit lane masks; a, b: scores; mover: 0 = A, 1 = B; origin: position
    index 0..47 of the lifted marble, or -1 for every marble.  Returns a list of
    sub-move tuples (module docstring), duplicates by resulting position removed
    (docs/rules.md §3 "One die's move").  An empty origin gives an empty list.
    """
    if out is None:
        out = []
    if origin >= 0:
        lo = origin
        hi = origin + 1 if origin < 48 else origin
    else:
        lo = 0
        hi = 48
    p = lo
    while p < hi:
        if p < 24:
            i = p
            own = r
            oth = s
            lane = 0
        else:
            i = p - 24
            own = s
            oth = r
            lane = 1
        if (own >> i) & 1:
            own2 = own & ~(1 << i)
            _land(lane, i, d, own2, oth, a, b, mover, og, p, out)
            q = i + 12 if i < 12 else i - 12
            if (oth >> q) & 1:
                # Lane change at the start: count from the partner field.
                _land(1 - lane, q, d, oth, own2, a, b, mover, og, p, out)
        p += 1
    return out


def _can_land(j, d, x, y, xl, mover, og):
    # True when counting d from field index j of lane xl lands legally.
    t = j + d
    if t > 24:
        return False
    if t == 24:
        if og:
            return not ((xl == 0 and mover == 0) or (xl == 1 and mover == 1))
        return True
    if not (x >> t) & 1:
        return True
    q = t - 12 if t >= 12 else t + 12
    return not (y >> q) & 1


def any_sub_move(r, s, a, b, mover, d, og=OWNER_SCORES):
    """True when some marble can play die `d` (1..6).  Allocates nothing.

    Same rules as gen_sub_moves (docs/rules.md §3) without building the moves.
    """
    i = 0
    while i < 24:
        q = i + 12 if i < 12 else i - 12
        if (r >> i) & 1:
            r2 = r & ~(1 << i)
            if _can_land(i, d, r2, s, 0, mover, og):
                return True
            if (s >> q) & 1 and _can_land(q, d, s, r2, 1, mover, og):
                return True
        if (s >> i) & 1:
            s2 = s & ~(1 << i)
            if _can_land(i, d, s2, r, 1, mover, og):
                return True
            if (r >> q) & 1 and _can_land(q, d, r, s2, 0, mover, og):
                return True
        i += 1
    return False


def ends_turn(m, a, b):
    """True when sub-move `m` brought a score from 5 to 6 (docs/rules.md §3, Decision):
    the turn ends at once and the second die is not played.  a, b: scores before it."""
    return (m[6] == 6 and a == 5) or (m[7] == 6 and b == 5)


def _orders(d1, d2):
    if d1 == d2:
        return ((d1, d2),)
    return ((d1, d2), (d2, d1))


def has_complete_turn(r, s, a, b, mover, d1, d2, og=OWNER_SCORES):
    """True when the roll (d1, d2) has at least one complete turn, i.e. it is not
    Moksha (docs/rules.md §3 "Moksha").  Stops at the first complete turn found."""
    for first, second in _orders(d1, d2):
        if not any_sub_move(r, s, a, b, mover, first, og):
            continue
        for m in gen_sub_moves(r, s, a, b, mover, first, og):
            if ends_turn(m, a, b):
                return True
            if any_sub_move(m[4], m[5], m[6], m[7], mover, second, og):
                return True
    return False


def completable_sub_moves(r, s, a, b, mover, dice, origin=-1, og=OWNER_SCORES):
    """Sub-moves the player may start now without running into a dead end.

    dice: the dice still to play this turn, a tuple of one or two values.  With two
    dice, a sub-move of either die is completable when the other die can still be
    played after it, or when it ends the turn (a score 5 -> 6).  With one die, every
    legal sub-move of it.  origin: the lifted marble's field (0..47) or -1 for all.
    Returns a list of sub-move tuples (module docstring); the LEDs light their `to`
    fields, a colour per `die` (docs/rules.md §3, docs/controller.md).
    """
    if len(dice) == 1:
        return gen_sub_moves(r, s, a, b, mover, dice[0], og, origin)
    out = []
    d1 = dice[0]
    d2 = dice[1]
    for first, second in _orders(d1, d2):
        for m in gen_sub_moves(r, s, a, b, mover, first, og, origin):
            if ends_turn(m, a, b) or any_sub_move(m[4], m[5], m[6], m[7], mover, second, og):
                out.append(m)
    return out


def complete_turns(r, s, a, b, mover, d1, d2, og=OWNER_SCORES):
    """Every complete turn of the roll (d1, d2), one per resulting position.

    Returns a list of tuples ``(sub_moves, (r, s, a, b))``: the one or two sub-move
    tuples in the order played and the position after the turn (before the mover
    flips).  An empty list means Moksha (docs/rules.md §3).  Both orders of the dice
    are tried, doubles are two sub-moves, and a sub-move that brings a score from 5
    to 6 ends the turn after one sub-move.
    """
    seen = {}
    out = []
    for first, second in _orders(d1, d2):
        for m in gen_sub_moves(r, s, a, b, mover, first, og):
            if ends_turn(m, a, b):
                key = (m[4], m[5], m[6], m[7])
                if key not in seen:
                    seen[key] = 1
                    out.append(((m,), key))
                continue
            for m2 in gen_sub_moves(m[4], m[5], m[6], m[7], mover, second, og):
                key = (m2[4], m2[5], m2[6], m2[7])
                if key not in seen:
                    seen[key] = 1
                    out.append(((m, m2), key))
    return out


def turn_results(position_string, a, b, opponent_goal="owner_scores"):
    """Resulting positions of a roll, for tools and tests.

    position_string: a position string (docs/rules.md §5); a, b: the dice 1..6;
    opponent_goal: 'owner_scores' or 'forbidden'.  Returns (moksha, results) where
    results is the sorted list of distinct resulting position strings, each with the
    other player to move (also when the turn ended the game); empty when moksha.
    Raises PositionError for a bad position and ValueError for bad dice or option.
    """
    pos = Position.parse(position_string)
    og = option_code(opponent_goal)
    check_die(a)
    check_die(b)
    turns = complete_turns(pos.r, pos.s, pos.a, pos.b, pos.mover, a, b, og)
    nxt = 1 - pos.mover
    res = [format_position(k[0], k[1], k[2], k[3], nxt) for _m, k in turns]
    res.sort()
    return (len(res) == 0, res)


def check_die(d):
    """Raise ValueError unless d is an integer die value 1..6."""
    if type(d) is not int or not 1 <= d <= 6:
        raise ValueError("a die must be an integer 1..6, got %r" % (d,))


