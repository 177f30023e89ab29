"""The board as a player: its side in a game against it, and the hint (docs/engine.md
"On the board", docs/controller.md "Play against the board").  Its one job is to
advise: when the board's roll is due, which turn the engine chose and which of its
sub-moves to light now, and whether a move made on the board's behalf is the board's
own.  It never acts itself: the controller asks it and acts (samsara.controller:
step_player, insist; samsara.display asks it what to light).

A BoardPlayer hangs on the controller (`Controller.player`, None in a normal game).
`side` is the player the board plays (0 A, 1 B) or -1 (a normal game's hint only).
On the board's turn it

  1. says when its roll is due (after the human's turn is complete and the board
     settled, or at the start) and the dice can be rolled without a hand (electronic
     dice, or host-set dice waiting; manual dice are entered by the player with the
     roll button as usual): step() returns P_ROLL and the controller rolls;
  2. thinks in slices: samsara.rules.engine.Thinker.step(THINK_UNITS) once per scan,
     so the scan loop keeps scanning (the choice does not depend on the slicing), with
     the engine's fast evaluation (engine.use_fast: the same values);
  3. names the next sub-move of its turn to light (to_light: the origin blinking dim
     white, the target in the die's colour); step() returns P_MOVE when a new one is
     lit, and the controller sends the `board_move` event;
  4. insists on its turn: `insist` turns any other reading into a wrong placement.

A far player (an online game, docs/online.md): BoardPlayer(side, far=True) stands for
the player at the other board.  Its turn is not thought but given by the host
(`far_turn`, Controller.far_turn -> give()); until then the board waits as while
thinking (nothing may move).  Its roll is due only with the joint dice the host set
(never electronic dice), and it is lit and insisted on exactly like the board's own.

A hint (advise(): a long press of undo, the `hint` command) thinks the same way about
the player's own roll; step() returns P_HINT once the turn is chosen (the controller
sends the `hint` event) and the turn is lit without being forced.
"""

from samsara.rules import engine
from samsara.rules.notation import format_sub_move
from samsara.rules.moves import M_DIE, M_FROM, M_TO, M_INS
from boardcore.ticks import ticks_diff
from samsara.states import WAITING, MOVING, TURN_COMPLETE, GOAL_PENDING, \
    GAME_OVER, MOKSHA
from samsara import reading as rd

try:
    from micropython import const
except ImportError:  # CPython
    def const(__x):
        return __x

# What step() advises (the controller acts on it: Controller.step_player)
P_NONE = const(0)     # nothing to do
P_ROLL = const(1)     # the board's roll is due: roll
P_SHOW = const(2)     # what is lit changed: rebuild the display
P_MOVE = const(3)     # the next sub-move of the board's own turn is lit: `board_move`
P_HINT = const(4)     # a hint's turn is chosen: `hint`
P_NOHINT = const(5)   # the hint's turn no longer fits the sub-moves played: reject it
P_DONE = const(6)     # the hint is over: the controller lets the player go
P_BLINK = const(7)    # the lit origin blinks: its mark on or off (blink, on)
THINKING = -1
"""to_light's answer while the board thinks about its own turn: nothing may move."""

THINK_UNITS = 8
"""Engine work units per scan-loop iteration (docs/engine.md "On the board")."""
BLINK_MS = 300
"""Half-period of the lit origin's blink, ms."""
SEED = 1
"""The engine's tie-break seed (the one of `samsara engine match`)."""

class BoardPlayer:
    """The board's player, or a hint's adviser (module docstring).  side: 0/1 the
    board's side, None or -1: none (a hint).  Attributes: plan (the chosen turn: a tuple
    of sub-move tuples, or None), k (the index in the plan of the sub-move to play
    next, as last looked), lit (the sub-move lit now or None), forced (the plan is the
    board's own turn), think (the engine.Thinker at work, or None), blink (the lit
    origin that blinks, -1: none) and on (its phase).  level: the strength of its own
    turns, 1..engine.LEVEL_BEST (the default; a hint is always at full strength)."""

    def __init__(self, side, level=engine.LEVEL_BEST, far=False):
        self.side = -1 if side is None else side
        self.level = level
        self.far = far          # the side is a far player's: its turns come from the host
        self.reset()
        if self.side >= 0 and not far:
            engine.use_fast()   # the engine's tables now, not in the first decision

    def reset(self):
        """Forget the turn (a new game)."""
        self.plan = None
        self.think = None
        self.forced = False
        self.waiting = False    # a far player's turn is rolled, its sub-moves not given yet
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
        if forced and self.far:
            self.waiting = True     # the host gives the turn: give()
            return
        p = t.base
        engine.use_fast()
        self.think = engine.Thinker(p.r, p.s, p.a, p.b, p.mover, t.d1, t.d2, t.og, SEED,
                                    engine.MODE_MATCH if c.match is not None else
                                    engine.MODE_SINGLE, g.starter,
                                    self.level if forced else engine.LEVEL_BEST)

    def waits(self, c):
        """True when the far player's turn is rolled on controller c and waits for its
        sub-moves from the host (Controller.far_turn)."""
        return self.waiting and self._same_turn(c.turn) and c.state == MOVING

    def give(self, c, moves):
        """The far player's turn (a list of sub-move tuples for the roll on controller
        c, checked by the caller): it is lit and insisted on from the next step()."""
        if not self.waits(c):
            self._begin(c, True)
        self.waiting = False
        self.forced = True
        self.plan = moves
        self.k = -2

    def advise(self, c):
        """A hint asked for on controller c (Controller.hint checked that one is
        possible): think about the player's roll, unless already thinking."""
        if self.think is None:
            self._begin(c, False)

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
            if m[M_DIE] != q[M_DIE] or m[M_FROM] != q[M_FROM] or m[M_TO] != q[M_TO] or \
                    m[M_INS] != q[M_INS]:
                return -1
            i += 1
        return n

    # -- the loop's side ----------------------------------------------------------------

    def busy(self, c):
        """True while the player needs scans (thinking, its roll due, a plan given or to
        drop, a far turn no longer waited for)."""
        return self.think is not None or self._roll_due(c) or (
            self.plan is not None and (self.k == -2 or not self._same_turn(c.turn))) or (
            self.waiting and not self.waits(c))

    def _roll_due(self, c):
        side = self.side
        if side < 0 or self.plan is not None or c.pacing.end_due:
            return False     # (end_due: the game may be over once it is recorded)
        st = c.state
        t = c.turn
        if not ((st == WAITING and t.mover == side and not t.d1) or
                (st == TURN_COMPLETE and t.mover != side)):
            return False
        d = c.dice
        if self.far:
            return d.host is not None     # only the joint dice the host set
        return d.host is not None or (d.source == "electronic" and not d.entry)

    def step(self, c, now, busy):
        """One scan's advice on controller c (Controller.step_player): P_NONE, P_ROLL,
        P_SHOW, P_MOVE, P_HINT, P_NOHINT, P_DONE or P_BLINK (module constants).  busy:
        the debounce has unsettled positions.  Thinks a slice while thinking.
        Allocates nothing while there is nothing to do."""
        if self.think is not None:
            if self._same_turn(c.turn) and c.state == MOVING:
                if self.think.step(THINK_UNITS):
                    return self._decided(c, now)
            else:
                self.think = None
            return P_NONE
        if self.waiting:
            if not self.waits(c):
                self.waiting = False
            return P_NONE
        if self.plan is not None:
            return self._follow(c, now)
        side = self.side
        if side < 0:
            return P_DONE    # a hint's turn is over
        t = c.turn
        if c.state == MOVING and t.mover == side and t.d1:
            self._begin(c, True)
        elif self._roll_due(c) and not busy and not c.view.lifted:
            return P_ROLL
        return P_NONE

    def _decided(self, c, now):
        th = self.think
        self.think = None
        self.plan = th.moves
        if self.plan is None:
            return P_NONE        # Moksha: the roll already ended the game
        if not self.forced:
            if self.next_index(c.turn) < 0:
                self.plan = None
                return P_NOHINT
            self.k = -2
            self._follow(c, now)
            return P_HINT
        self.k = -2
        return self._follow(c, now)

    def _follow(self, c, now):
        t = c.turn
        st = c.state
        if not self._same_turn(t) or st == WAITING or st == GAME_OVER or st == MOKSHA or (
                st == TURN_COMPLETE and not self.forced):
            self.plan = None
            self.lit = None
            self.blink = -1
            return P_SHOW
        if st == GOAL_PENDING:
            return P_NONE                 # the goal first; the next sub-move after it
        plan = self.plan
        k = self.next_index(t)
        if k != self.k:
            self.k = k
            self.t_blink = now
            if k < 0 and not self.forced:
                self.plan = None          # the player went another way: the hint ends
                self.lit = None
                self.blink = -1
            elif self.forced and plan is not None and 0 <= k < len(plan):
                return P_MOVE
            return P_SHOW
        if self.blink >= 0 and ticks_diff(now, self.t_blink) >= BLINK_MS:
            self.t_blink = now
            self.on ^= 1
            return P_BLINK
        return P_NONE

    def moving(self):
        """The sub-move of the plan P_MOVE announced (the next one to play)."""
        return self.plan[self.k]

    # -- the display and the check ------------------------------------------------------

    def to_light(self, c):
        """What the display lights for the player now (samsara.display.View.show):
        None (the display as usual), THINKING (the board thinks about its own turn:
        nothing may move), or the sub-move tuple to light next (with `forced`, the
        lifted marbles other than its origin are marked as not to move).  Keeps `lit`,
        `blink` and `on` for the blink."""
        self.blink = -1
        self.lit = None
        plan = self.plan
        t = c.turn
        if plan is None or not self._same_turn(t):
            if (self.think is not None or self.waiting) and self.forced:
                return THINKING
            return None
        k = self.next_index(t)
        if k < 0 or k >= len(plan):
            return None
        m = plan[k]
        self.lit = m
        if c.view.lifted and not self.forced:
            return None
        if not c.view.lifted:
            self.blink = m[M_FROM]
            self.on = 1
        return m

    def insist(self, c, res):
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
            x = seq[-1][M_TO] if seq else -1
            if x < 0:
                return res
            return (rd.WRONG, x, "wait: the far player has not played yet" if self.far
                    else "wait: the board is thinking", None)
        i = k
        for m in seq:
            q = plan[i] if i < len(plan) else None
            if q is None or m[M_DIE] != q[M_DIE] or m[M_FROM] != q[M_FROM] or \
                    m[M_TO] != q[M_TO] or m[M_INS] != q[M_INS]:
                nxt = plan[k] if k < len(plan) else None
                who = "the far player" if self.far else "the board"
                return (rd.WRONG, m[M_TO], "%s plays %s" % (who, format_sub_move(nxt))
                        if nxt is not None else "%s's turn is complete" % who, None)
            i += 1
        return res
