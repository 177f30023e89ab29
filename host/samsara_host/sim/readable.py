"""What the board can read from a position: the frames that `samsara.reading.read`
may take as moves of the turn in progress, asked by the simulated players
(host/samsara_host/sim/table.py) so that a mishap they make is never read as a move.
They ask the board's own reading (samsara.reading) instead of keeping a copy of the
rule; this host-side module is the simulator's, not the board's.
"""

from samsara.rules import moves as rules
from samsara.rules.geometry import popcount24
from samsara.rules.moves import M_DIE, M_R, M_S, M_A, M_B
from samsara.reading import MAX_LIFTED


def sequences(r, s, a, b, mover, rem, og):
    """Lane masks (r, s) reachable from the position by one sub-move of a die of `rem`,
    or two (both dice): the frames the board may read as new moves.  A goal counts with
    its marble on the reinsertion field (read as a goal whose scoring piece is still to
    move).  A set of (r, s)."""
    out = set()
    dice = list(rem)
    orders = [dice] if len(dice) < 2 or dice[0] == dice[1] else [dice, dice[::-1]]
    for order in orders:
        for m in rules.gen_sub_moves(r, s, a, b, mover, order[0], og):
            out.add((m[M_R], m[M_S]))
            if len(order) == 2:
                for m2 in rules.gen_sub_moves(m[M_R], m[M_S], m[M_A], m[M_B], mover, order[1], og):
                    out.add((m2[M_R], m2[M_S]))
    return out


def readings(turn, planned=None):
    """Every (r, s) the board could read as this turn's moves (a set): each prefix of
    the accepted sub-moves (the board also reads corrections of earlier ones) followed
    by one or two legal sub-moves of the dice left after it; with `planned` (a sub-move
    about to be played) also the readings after it."""
    g = turn.base
    out = set()
    pos = (g.r, g.s, g.a, g.b)
    left = [turn.d1, turn.d2]
    seq = list(turn.played) + ([planned] if planned is not None else [])
    for k in range(len(seq) + 1):
        if k:
            m = seq[k - 1]
            pos = (m[M_R], m[M_S], m[M_A], m[M_B])
            if m[M_DIE] not in left:
                break
            left.remove(m[M_DIE])
        out.add(pos[:2])
        if left:
            out |= sequences(pos[0], pos[1], pos[2], pos[3], g.mover, left, turn.og)
    return out


def reads_as_move(r, s, ok):
    """True when track frame (r, s) can be read as one of `ok` (from `readings`): some
    reading holds every marble of the frame and at most MAX_LIFTED more (marbles in
    the air)."""
    for qr, qs in ok:
        if not (r & ~qr) and not (s & ~qs) and \
                popcount24(qr & ~r) + popcount24(qs & ~s) <= MAX_LIFTED:
            return True
    return False
