"""Play against the board and the hint: the engine's turn lit on the board
(docs/controller.md "Play against the board", issue 11 §2).  Its one job is the
board's player: when to roll and think, which sub-move to light, and whether a move
made on the board's behalf is the board's own.

A `Guide` hangs on the controller (`Controller.guide`, None in a normal game) and is
driven by samsara.core.Board.tick (`tick`), samsara.display.View.show (`show`) and
Controller._apply (`check`).  `side` is the player the board plays (0 A, 1 B) or -1
(a normal game's hint only).  On the board's turn it

  1. rolls itself when the roll is due (after the human's turn is complete and the
     board settled, or at the start) and the dice can be rolled without a hand
     (electronic dice, or host-set dice waiting; manual dice are entered by the
     player with the roll button as usual);
  2. thinks in slices: samsara.rules.engine.Thinker.step(THINK_UNITS) once per tick,
     so the scan loop keeps scanning (the choice does not depend on the slicing);
  3. lights the next sub-move of its turn (origin blinking dim white, target in the
     die's colour) with a `board_move` event, then the next once that one is
     accepted (a goal first finishes as usual);
  4. insists on its turn: `check` turns any other reading into a wrong placement.

`hint(c)` (a long press of undo, or the `hint` command) thinks the same way about
the player's own roll and lights the suggested turn without forcing it; the `hint`
event (logged) names it.  The module and the engine are imported only for a game
against the board or a hint, and dropped again (mainloop.ON_DEMAND_MODULES).
"""

import gc
import sys

from samsara.rules import engine
from samsara.rules.notation import format_sub_move, format_turn
from samsara.rules.geometry import GS, GR
from samsara.debounce import ticks_diff
from samsara.states import WAITING, MOVING, TURN_COMPLETE, GOAL_PENDING, \
    GAME_OVER, MOKSHA
from samsara.turn import PLAYER
from samsara import reading as rd
from samsara import scene as sc

_UPY = sys.implementation.name == "micropython"
THINK_UNITS = 8
"""Engine work units per scan-loop iteration (docs/engine.md "On the board")."""
BLINK_MS = 300
"""Half-period of the lit origin's blink, ms."""
SEED = 1
"""The engine's tie-break seed (the one of `samsara engine match`)."""
THINK_GC = 8192
"""gc.threshold (bytes) while the engine thinks (mainloop.GC_THRESHOLD otherwise)."""

_memo = None            # bytearray(4096): engine.chance(u) + 1, 0 not known yet
_chance = engine.chance
_plain_evaluate = engine.evaluate


def _chance_memo(u):
    # engine.chance, remembered: the same values, computed once per mask.  The engine's
    # own 4 KB table (engine.use_table) costs ~10 s of Pico time up front; this one
    # fills as the masks occur (docs/engine.md "On the board").
    v = _memo[u]
    if v:
        return v - 1
    v = _chance(u)
    _memo[u] = v + 1
    return v


_nib = None            # bytearray(6 * 256): the double-space terms of 4 spaces at once
_nib_off = 0           # what the six bytes of one evaluation add up to less than the terms


def _term(t, x, y):
    # engine.evaluate's term of double space t: x, y its opponent's / mover's half.
    if x:
        return (engine.BOTH[t] if y else engine.THEIRS[t]) - 128
    if y:
        return engine.MINE[t] - 128
    return 0


def _nibbles():
    # The per-space terms of engine.evaluate summed four spaces at a time: entry
    # k * 256 + x * 16 + y is that sum over spaces t = 4k..4k+3 (bit t-4k of x: the
    # opponent's half, of y: the mover's) less the group's least sum, so that it fits
    # a byte (1.5 KB; the trained tables give ranges up to 232).  Returns (table,
    # the sum of the six least sums), or None when a range would not fit a byte.
    tab = bytearray(6 * 256)
    row = [0] * 256      # one group's sums (made once, at the game's start)
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


def _evaluate(r, s, a, b, me):
    # engine.evaluate with the same value (tests/test_vsboard.py compares them): the 24
    # double spaces in six table lookups instead of 24 steps.
    if me == 0:
        my = a
        op = b
        mine = s
        theirs = r
    else:
        my = b
        op = a
        mine = r
        theirs = s
    e_op = _chance_memo(theirs >> 12)
    v = engine.GOAL * (my - op) + engine.W_OWN * _chance_memo(mine >> 12) - \
        engine.W_OPP * e_op
    if op >= 5:
        v -= engine.W_OPP5 * e_op
    rm = ((mine & 0xFFF) << 12) | (mine >> 12)
    tab = _nib
    w = _nib_off + tab[((theirs & 15) << 4) | (rm & 15)] + \
        tab[256 + ((theirs >> 0) & 0xF0) + ((rm >> 4) & 15)] + \
        tab[512 + ((theirs >> 4) & 0xF0) + ((rm >> 8) & 15)] + \
        tab[768 + ((theirs >> 8) & 0xF0) + ((rm >> 12) & 15)] + \
        tab[1024 + ((theirs >> 12) & 0xF0) + ((rm >> 16) & 15)] + \
        tab[1280 + ((theirs >> 16) & 0xF0) + ((rm >> 20) & 15)]
    return v + 8 * w


def _fast_chance():
    # The engine on the board, faster with the same values: chance remembered, the
    # evaluation's double spaces by nibbles (docs/engine.md "On the board").
    global _memo, _nib, _nib_off
    if _memo is None:
        _memo = bytearray(4096)
        if engine._table is None:
            engine.chance = _chance_memo
        got = _nibbles()
        if got is not None:
            _nib, _nib_off = got
            engine.evaluate = _evaluate


class Guide:
    """The board's player, or a hint (module docstring).  side: 0/1 the board's side,
    -1 none.  Attributes: plan (the chosen turn: tuple of sub-move tuples, or None),
    lit (the sub-move lit now or None), forced (the plan is the board's own turn),
    think (the engine.Thinker at work, or None)."""

    def __init__(self, side):
        self.side = side
        self.reset()
        if side >= 0:
            _fast_chance()      # the tables now, not in the first decision

    def reset(self):
        """Forget the turn (a new game)."""
        self.plan = None
        self.think = None
        self.forced = False
        self.base = None
        self.d1 = 0
        self.d2 = 0
        self.k = -1          # index of the plan's next sub-move when last looked
        self.lit = None
        self.blink = -1      # the lit origin that blinks (-1: none)
        self.on = 1
        self.t_blink = 0

    # -- the turn's identity ------------------------------------------------------------

    def _same_turn(self, t):
        return self.base is t.base and self.d1 == t.d1 and self.d2 == t.d2

    def _begin(self, c, forced):
        t = c.turn
        g = c.game
        self.base = t.base
        self.d1 = t.d1
        self.d2 = t.d2
        self.forced = forced
        self.plan = None
        self.k = -1
        p = t.base
        _fast_chance()
        if _UPY:
            # its slices' garbage has no quiet moment to go in: automatic collections
            # at 8 KB (the heap row of a game against the board), not the loop's 12 KB
            # (mainloop.GC_THRESHOLD, set again at the next quiet collection)
            gc.threshold(THINK_GC)
        self.think = engine.Thinker(p.r, p.s, p.a, p.b, p.mover, t.d1, t.d2, t.og, SEED,
                                    engine.MODE_MATCH if c.match is not None else
                                    engine.MODE_SINGLE, g.starter)

    def next_index(self, t):
        """Index in the plan of the sub-move to play next: len(plan) when all are
        played, -1 when the accepted sub-moves are not the plan's beginning."""
        plan = self.plan
        played = t.played
        n = len(played)
        if plan is None or n > len(plan):
            return -1
        i = 0
        while i < n:
            m = played[i]
            q = plan[i]
            if m[0] != q[0] or m[1] != q[1] or m[2] != q[2] or m[3] != q[3]:
                return -1
            i += 1
        return n

    # -- the loop's side ----------------------------------------------------------------

    def busy(self, c):
        """True while the guide needs ticks (thinking, its roll due, a plan to drop)."""
        return self.think is not None or self._roll_due(c) or (
            self.plan is not None and not self._same_turn(c.turn))

    def _roll_due(self, c):
        side = self.side
        if side < 0 or self.plan is not None or c.commit_due:
            return False     # (commit_due: the game may be over once it is recorded)
        st = c.state
        t = c.turn
        if not ((st == WAITING and t.mover == side and not t.d1) or
                (st == TURN_COMPLETE and t.mover != side)):
            return False
        d = c.dice
        return d.host is not None or (d.source == "electronic" and not d.entry)

    def tick(self, board, now):
        """One scan-loop iteration (from Board.tick): roll when due, think a slice,
        follow the accepted sub-moves, blink the lit origin.  Allocates nothing while
        there is nothing to do."""
        c = board.controller
        if self.think is not None:
            if self._same_turn(c.turn) and c.state == MOVING:
                if self.think.step(THINK_UNITS):
                    self._decided(c, now)
            else:
                self.think = None
            return
        if self.plan is not None:
            self._follow(c, now)
            return
        side = self.side
        if side < 0:
            c.guide = None   # a hint's turn is over: the module can go
            return
        t = c.turn
        if c.state == MOVING and t.mover == side and t.d1:
            self._begin(c, True)
        elif self._roll_due(c) and not board.debounce.busy and not c.view.lifted:
            board.press(now, "roll")

    def _decided(self, c, now):
        th = self.think
        self.think = None
        self.plan = th.moves
        if _UPY:
            gc.collect()  # the decision's garbage, before the lights and the host's asks
        if self.plan is None:
            return        # Moksha: the roll already ended the game
        t = c.turn
        if not self.forced:
            if self.next_index(t) < 0:
                self.plan = None
                c.reject("hint", "no hint: this turn went another way; undo first")
                return
            c.emit({"ev": "hint", "t": now, "turn": format_turn(t.d1, t.d2, self.plan),
                    "player": PLAYER[t.mover]})
        self.k = -2
        self._follow(c, now)

    def _follow(self, c, now):
        t = c.turn
        st = c.state
        if not self._same_turn(t) or st == WAITING or st == GAME_OVER or st == MOKSHA or (
                st == TURN_COMPLETE and not self.forced):
            self.plan = None
            self.lit = None
            self.blink = -1
            c._show()
            return
        if st == GOAL_PENDING:
            return                        # the goal first; the next sub-move after it
        plan = self.plan
        k = self.next_index(t)
        if k != self.k:
            self.k = k
            if k < 0 and not self.forced:
                self.plan = None          # the player went another way: the hint ends
                self.lit = None
                self.blink = -1
            elif self.forced and plan is not None and 0 <= k < len(plan):
                c.emit({"ev": "board_move", "t": now,
                        "move": format_sub_move(plan[k]), "player": PLAYER[t.mover]})
            c._show()
            self.t_blink = now
            return
        p = self.blink
        if p >= 0 and ticks_diff(now, self.t_blink) >= BLINK_MS:
            self.t_blink = now
            self.on ^= 1
            c.view.marks[p] = sc.ORIGIN if self.on else 0
            c.version += 1

    # -- the display and the check ------------------------------------------------------

    def show(self, c, v, marks, new):
        """Mark the lit sub-move into view `v` (marks: bytearray(64), new: the list of
        marked positions); True when done, False to leave the display as usual."""
        self.blink = -1
        self.lit = None
        plan = self.plan
        t = c.turn
        if plan is None or not self._same_turn(t):
            if self.think is not None and self.forced:
                for p in v.lifted:     # the board is thinking: nothing may move
                    _mark(marks, new, p, sc.NOMOVE)
                return True
            return False
        k = self.next_index(t)
        if k < 0 or k >= len(plan):
            return False
        m = plan[k]
        self.lit = m
        lifted = v.lifted
        if not lifted:
            _mark(marks, new, m[2], m[0])
            _mark(marks, new, m[1], sc.ORIGIN)
            self.blink = m[1]
            self.on = 1
        elif not self.forced:
            return False
        else:
            for p in lifted:
                if p == m[1]:
                    _mark(marks, new, m[2], m[0])
                    v.targets.append((m[2], m[0]))
                    _mark(marks, new, p, sc.ORIGIN)
                else:
                    _mark(marks, new, p, sc.NOMOVE)
        if v.wrong >= 0:
            _mark(marks, new, v.wrong, sc.WRONG)
        return True

    def check(self, c, res):
        """A MATCH reading `res` (samsara.reading) of the board's own turn: itself
        when its sub-moves are the beginning of the plan, else a WRONG reading (the
        landing field red, a `reject`; a 4-tuple like MATCH's)."""
        t = c.turn
        if not self.forced or t.mover != self.side:
            return res
        k = res[1]
        seq = res[2]
        plan = self.plan
        if plan is None:
            x = seq[-1][2] if seq else -1
            if x < 0:
                return res
            return (rd.WRONG, x, "wait: the board is thinking", None)
        i = k
        for m in seq:
            q = plan[i] if i < len(plan) else None
            if q is None or m[0] != q[0] or m[1] != q[1] or m[2] != q[2] or m[3] != q[3]:
                nxt = plan[k] if k < len(plan) else None
                return (rd.WRONG, m[2], "the board plays %s" % format_sub_move(nxt)
                        if nxt is not None else "the board's turn is complete", None)
            i += 1
        return res


def _mark(marks, new, p, code):
    if p < 0 or p > GR or (p > 47 and p != GS and p != GR):
        return
    marks[p] = code
    new.append(p)


def hint(c):
    """A hint request on controller c (a long press of undo, the `hint` command):
    True when handled (thinking begun, or refused with a `reject`); False when it is
    no hint situation (no roll, the board's own turn: the press is an undo)."""
    t = c.turn
    g = c.guide
    if not t.d1 or c.state != MOVING or (g is not None and g.side == t.mover):
        return False
    if not t.rem:
        c.reject("hint", "no hint: the turn is complete")
        return True
    if g is None:
        g = Guide(-1)
        c.guide = g
    if g.think is None:
        g._begin(c, False)
    return True


def gesture_side(c):
    """The game a long press of undo starts now on controller c (docs/protocol.md
    "Buttons"): before the game's first roll, the board plays B, then (pressed again)
    A, then a normal game again (-1); after the game's end, a new game with the board
    on the same side as before (B after a normal game).  None: no gesture now (the
    press is an undo or a hint)."""
    st = c.state
    if c.dice.entry:
        return None
    g = c.guide
    cur = g.side if g is not None and g.side >= 0 else -1
    if st == GAME_OVER or st == MOKSHA:
        if c.match is not None and not c.match.over():
            return None
        return cur if cur >= 0 else 1
    if st == WAITING and not c.turn.d1 and len(c.game.record) == 0 and c.match is None:
        return 1 if cur < 0 else (0 if cur == 1 else -1)
    return None


def gesture(board, services, now_ms):
    """The long-undo gesture on `board` (mainloop.vs_gesture): a new game as
    `gesture_side` says, through `services` (mainloop.Services: the recorder starts its
    log) when given.  True when a game was started."""
    side = gesture_side(board.controller)
    if side is None:
        return False
    vs = None if side < 0 else side
    if services is None:
        board.new_game(vs=vs)
        return True
    try:
        services.new_game(vs=vs)
    except Exception as e:  # the log is full: the recorder announced it
        board.emit({"ev": "error", "msg": str(e)[:80]})
    return True
