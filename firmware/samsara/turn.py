"""The turn in progress: the one place the derived values of a turn come from
(docs/controller.md "Reading the board").

A Turn is given the position before the turn (`base`, a samsara.rules.position.Position),
the roll (`d1`, `d2`; 0 before the roll) and the sub-moves accepted so far (`played`,
sub-move tuples of samsara.rules.moves).  Everything else follows from these, and only
`push` computes it:

    used        bit 0/1: die 1/2 played
    rem         the dice still to play (empty once a sub-move ended the turn)
    ends        per accepted sub-move: True when it ended the turn (rules.ends_turn)
    floor       accepted sub-moves before this index are final (a goal's marble was
                reinserted: the board cannot show them undone)
    r, s, a, b  the position after them (lane masks, scores); mover = base.mover

A goal in progress (state goal_pending) adds `goal` (the goal hole, -1: none), `ins`
(its reinsertion field, -1 once the marble stands there), `piece_old`/`piece_new`
(the scoring piece's field before the goal and after it, -1 once it stands there) and
`goal_events` (bit 0: reinsert reported, bit 1: score reported).  `expected`
(bytearray(8), samsara.frame layout) is the frame the board should show now, rebuilt
by `set_expected`.
"""

from samsara.rules import moves as rules
from samsara.frame import fill, pieces_mask
from samsara.rules.geometry import GS, A_TRACK, B_TRACK, PLAYER_NAMES
from samsara.rules.moves import M_DIE, M_TO, M_INS, M_R, M_S, M_A, M_B

PLAYER = tuple(PLAYER_NAMES)    # ("A", "B"): player 0 and 1 (the mover) in events


def lane_bit(p):
    """(r bit, s bit) of track field p (0..47)."""
    if p < 24:
        return (1 << p, 0)
    return (0, 1 << (p - 24))


def owner_piece(m, pa, pb):
    """(old, new) sensor positions of the scoring piece moved by goal sub-move m (scores
    pa, pb before it); old == new when the score stays at 6."""
    if m[M_TO] == GS:
        return (A_TRACK + pa, A_TRACK + m[M_A])
    return (B_TRACK + pb, B_TRACK + m[M_B])


class Turn:
    """One turn's bookkeeping (module docstring).  og: the opponent-goal option code
    (samsara.rules.moves.option_code).  Call `reset(position)` to begin a turn."""

    def __init__(self, og, position):
        self.og = og
        self.expected = bytearray(8)
        self.memo = [None, ([], -1)]   # samsara.reading.targets: key, value
        self.reset(position)

    def reset(self, position):
        """Begin a turn from `position` (samsara.rules.position.Position): no roll yet."""
        self.base = position
        self.d1 = 0
        self.d2 = 0
        self.goal = -1
        self.ins = -1
        self.piece_old = -1
        self.piece_new = -1
        self.goal_events = 0
        self.set_played([])

    def set_played(self, played):
        """Make `played` (a list of sub-moves, in order) the accepted sub-moves; every
        derived value is recomputed (module docstring).  Clears no goal state."""
        p = self.base
        self.played = []
        self.ends = []
        self.floor = 0
        self.used = 0
        self.rem = [self.d1, self.d2] if self.d1 else []
        self.r = p.r
        self.s = p.s
        self.a = p.a
        self.b = p.b
        self.mover = p.mover
        for m in played:
            self.push(m)

    def push(self, m):
        """Accept sub-move m (a sub-move of a die in `rem` from the position now)."""
        ends = rules.ends_turn(m, self.a, self.b)
        self.played.append(m)
        self.ends.append(ends)
        if m[M_INS] >= 0:
            self.floor = len(self.played)
        if m[M_DIE] == self.d1 and not self.used & 1:
            self.used |= 1
        else:
            self.used |= 2
        rem = self.rem
        if rem:
            rem.remove(m[M_DIE])
        if ends:
            del rem[:]
        self.r = m[M_R]
        self.s = m[M_S]
        self.a = m[M_A]
        self.b = m[M_B]

    def drop_goal(self):
        """Forget a goal in progress (its sub-move is undone or replaced)."""
        self.goal = -1
        self.ins = -1
        self.piece_new = -1

    def rem_after(self, k):
        """The dice left after the first k accepted sub-moves (a new list)."""
        left = [self.d1, self.d2] if self.d1 else []
        i = 0
        while i < k:
            left.remove(self.played[i][0])
            i += 1
        return left

    def prefix(self, k):
        """(r, s, a, b) after the first k accepted sub-moves."""
        if k == 0:
            p = self.base
            return (p.r, p.s, p.a, p.b)
        m = self.played[k - 1]
        return (m[M_R], m[M_S], m[M_A], m[M_B])

    def goal_step(self, ins_done, piece_done):
        """The goal of the last accepted sub-move: which of its two steps are done.
        Sets ins, piece_old and piece_new."""
        m = self.played[-1]
        pr, ps, pa, pb = self.prefix(len(self.played) - 1)
        old_p, new_p = owner_piece(m, pa, pb)
        self.ins = -1 if ins_done else m[M_INS]
        self.piece_old = old_p
        self.piece_new = -1 if piece_done else new_p

    def set_expected(self):
        """Rebuild `expected`: the position after the accepted sub-moves, with a
        pending goal's marble still in the goal hole and its scoring piece not yet
        moved."""
        r = self.r
        s = self.s
        ex = pieces_mask(self.a, self.b)
        if self.goal >= 0:
            if self.ins >= 0:
                rb, sb = lane_bit(self.ins)
                r &= ~rb
                s &= ~sb
                ex |= 1 << (self.goal - GS)
            if self.piece_new >= 0:
                ex &= ~(1 << (self.piece_new - GS))
                ex |= 1 << (self.piece_old - GS)
        fill(self.expected, r, s, ex)
