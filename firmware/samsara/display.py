"""The display model: what the board shows now, rebuilt from the controller's state by
`View.show` and drawn by samsara.scene (docs/leds.md, docs/controller.md "States").

A View holds

    marks       bytearray(64): the mark code of each position (samsara.scene codes)
    marked      the positions with a mark (a new list each show; never changed after)
    targets     [(position, die)] of the landing fields lit for the lifted marble(s)
    lifted      track positions of the marbles in the air (read by the controller)
    wrong       the position of a wrong placement, or -1
    missing, extra   repair: position names where a marble belongs / does not belong
    reason      the text of the last rejection or repair
    state, winner, d1, d2, used, mover, entry, e1, e2
                the controller's state, winner (-2: none, -1: draw), the roll, the
                dice played (bit 0/1), the player to move and the manual dice entry
                (samsara.dice_entry) as of the last show
"""

from samsara import scene as sc
from samsara.boardplayer import THINKING
from samsara.frame import names
from samsara.rules.geometry import A_TRACK, B_TRACK, GS, GR, position_index
from samsara.rules.moves import M_DIE, M_FROM, M_TO
from samsara.reading import targets as targets_of
from samsara.states import REPAIR, WAITING, GOAL_PENDING, MOVING, TURN_COMPLETE, GAME_OVER


def _mark(marks, marked, p, code):
    marks[p] = code
    marked.append(p)


def _mark_hole(marks, marked, p, code):
    # _mark for a position that may be no hole of the track (a goal is one)
    if p < 0 or p > GR or (p > 47 and p != GS and p != GR):
        return
    marks[p] = code
    marked.append(p)


class View:
    """The display model of one controller (module docstring)."""

    def __init__(self):
        self.marks = bytearray(64)
        self.marked = []
        self.targets = []
        self.lifted = []
        self.wrong = -1
        self.missing = []
        self.extra = []
        self.reason = ""
        self.state = WAITING
        self.winner = -2
        self.d1 = 0
        self.d2 = 0
        self.used = 0
        self.mover = 0
        self.entry = 0
        self.e1 = 1
        self.e2 = 1

    def repair_marks(self, expected, frame):
        """missing, extra: the position names where `frame` (bytearray(8)) lacks a
        marble of `expected` / has one `expected` has not."""
        miss = bytearray(8)
        extra = bytearray(8)
        i = 0
        while i < 8:
            miss[i] = expected[i] & ~frame[i] & 0xFF
            extra[i] = frame[i] & ~expected[i] & 0xFF
            i += 1
        self.missing = names(miss)
        self.extra = names(extra)

    def show(self, c):
        """Rebuild the model from controller `c` (samsara.controller.Controller):
        marks and targets from its state, turn (c.turn), frame and game."""
        marks = self.marks
        for p in self.marked:
            marks[p] = 0
        new = []
        self.targets = []
        t = c.turn
        st = c.state
        if st == REPAIR:
            self.repair_marks(t.expected, c.frame)
            for n in self.missing:
                _mark(marks, new, position_index(n), sc.MISSING)
            for n in self.extra:
                _mark(marks, new, position_index(n), sc.EXTRA)
        elif st == WAITING:
            for p in self.lifted:
                _mark(marks, new, p, sc.NOMOVE)
        elif st == GOAL_PENDING:
            if t.piece_new >= 0:
                _mark(marks, new, t.piece_new, sc.SCORE)
            if t.ins >= 0:
                _mark(marks, new, t.ins, sc.REINSERT)
                if (c.frame[t.goal >> 3] >> (t.goal & 7)) & 1:
                    _mark(marks, new, t.goal, sc.GOAL)
        elif (st == MOVING or st == TURN_COMPLETE) and (
                c.player is None or not self._show_player(c.player, c, marks, new)):
            for p in self.lifted:
                tl, back = targets_of(t, p)
                for q, d in tl:
                    if not marks[q]:
                        marks[q] = d          # (_mark inlined: the lift's answer)
                        new.append(q)
                        self.targets.append((q, d))
                if back >= 0:
                    _mark(marks, new, back, sc.BACK)
                _mark(marks, new, p, sc.ORIGIN if (tl or back >= 0) else sc.NOMOVE)
            if self.wrong >= 0:
                _mark(marks, new, self.wrong, sc.WRONG)
        elif st == GAME_OVER:
            if c.winner >= 0:
                g = c.game.pos
                _mark(marks, new, (A_TRACK + g.a) if c.winner == 0 else (B_TRACK + g.b),
                      sc.WIN)
        self.marked = new
        self.state = st
        self.winner = c.winner
        self.d1 = t.d1
        self.d2 = t.d2
        self.used = t.used
        self.mover = t.mover
        e = c.dice
        self.entry = e.entry
        self.e1 = e.e1
        self.e2 = e.e2

    def _show_player(self, pl, c, marks, new):
        # What the board's player lights (samsara.boardplayer.BoardPlayer.to_light):
        # True when marked, False to show as usual.
        m = pl.to_light(c)
        if m is None:
            return False
        if m == THINKING:
            for p in self.lifted:     # the board is thinking: nothing may move
                _mark_hole(marks, new, p, sc.NOMOVE)
            return True
        lifted = self.lifted
        if not lifted:
            _mark_hole(marks, new, m[M_TO], m[M_DIE])
            _mark_hole(marks, new, m[M_FROM], sc.ORIGIN)
        else:
            for p in lifted:
                if p == m[M_FROM]:
                    _mark_hole(marks, new, m[M_TO], m[M_DIE])
                    self.targets.append((m[M_TO], m[M_DIE]))
                    _mark_hole(marks, new, p, sc.ORIGIN)
                else:
                    _mark_hole(marks, new, p, sc.NOMOVE)
        if self.wrong >= 0:
            _mark_hole(marks, new, self.wrong, sc.WRONG)
        return True

    def blink(self, p, on):
        """The blinking origin `p` of the player's lit sub-move on or off (the
        controller's P_BLINK; samsara.boardplayer)."""
        self.marks[p] = sc.ORIGIN if on else 0
