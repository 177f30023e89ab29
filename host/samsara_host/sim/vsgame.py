"""A game against the board on the simulated board (docs/simulator.md "Against the
board"): its one job is to play both hands of such a game on a `samsara.core.Board`
fed by the sim's `Driver` on a virtual clock.

The human side rolls (host-set seeded dice, a roll press), chooses its turn with a
strategy of samsara_host.sim.player and plays it by hand (lift, place; a goal's marble
and scoring piece).  The board's side is played by following the board's lights: the
hand reads the sub-move the board lights (`BoardPlayer.lit`: origin and target), carries
it out, and waits for the board to accept it and light the next.  The board rolls its
own turns; the sim only sets the dice it will roll (so a seed gives the same game).

    g = VsGame(seed=3, board_side=1).run()
    g.result, g.decisions_ms, g.events
"""
import random

from samsara.config import Config
from samsara.core import Board
from samsara.frame import from_position
from samsara.states import WAITING, MOVING, TURN_COMPLETE, ENDED
from samsara.rules.position import START

from samsara_host.sim.driver import Driver
from samsara_host.sim.player import hand_moves, hand_actions, random_pick, strategy

STEP_MS = 20.0
HAND_MS = 300.0       # lift -> place
TIMEOUT_MS = 20000.0
MAX_TURNS = 400


class VsError(RuntimeError):
    """The game could not go on: the board did not do what it should."""


class HandAtBoard:
    """A simulated board (samsara.core.Board fed by the sim's Driver on a virtual clock,
    `now` in ms) and the hand at it: advance the clock, move a marble, wait for the
    board.  board: the Board, its game already started; start: the position its
    marbles stand in (a rules Position)."""

    def __init__(self, board, start):
        self.board = board
        self.driver = Driver(board, board.controller.cfg.scan_ms, from_position(start))
        self.now = 0.0

    @property
    def c(self):
        return self.board.controller

    def advance(self, ms):
        """Let ms of virtual time pass."""
        self.now += ms
        self.driver.advance(self.now)

    def wait(self, cond, what):
        """Advance until cond() holds; VsError after TIMEOUT_MS."""
        end = self.now + TIMEOUT_MS
        while not cond():
            if self.now > end:
                raise VsError("waiting for %s: state %s, mover %s" % (
                    what, self.c.state, self.c.turn.mover))
            self.advance(STEP_MS)

    def hand(self, frm, to):
        """A hand moves a marble (or piece) from position frm to position to."""
        d = self.driver
        d.push_raw(self.now + 1, frm, False)
        d.push_raw(self.now + 1 + HAND_MS, to, True)
        self.advance(HAND_MS + 200)


class VsGame(HandAtBoard):
    """A seeded game of a simulated player against the board.  seed: dice and the
    player's choices; board_side: 0 (A) or 1 (B); human: a strategy name; position:
    the start (Position); config: samsara.config.Config.  After run(): events
    ((t, event) list), result (the game_over event), decisions_ms (the board's roll ->
    first sub-move lit, virtual ms, one per board turn), turns (complete turns)."""

    def __init__(self, seed=1, board_side=1, human="greedy", position=None, config=None,
                 opponent_goal="owner_scores"):
        self.cfg = config if config is not None else Config(opponent_goal=opponent_goal)
        self.rng = random.Random("vs:%d" % seed)
        self.pick = random_pick(self.rng)
        self.choose = strategy(human)
        self.side = board_side
        start = position if position is not None else START
        board = Board(self.cfg)
        board.new_game(start, vs=board_side)
        HandAtBoard.__init__(self, board, start)
        self.result = None
        self.decisions_ms = []

    @property
    def events(self):
        return self.driver.events

    def set_dice(self):
        d = self.driver
        d.push_dice(self.now + 1, self.rng.randint(1, 6), self.rng.randint(1, 6))
        self.advance(2)

    def run(self):
        """Play to the end; returns self."""
        n = 0
        while self.c.state not in ENDED:
            n += 1
            if n > MAX_TURNS:
                raise VsError("no end after %d turns" % MAX_TURNS)
            if (self.c.state == TURN_COMPLETE) != (self.c.turn.mover == self.side):
                self.board_turn()
            else:
                self.human_turn()
        for t, ev in self.events:
            if ev.get("ev") == "game_over":
                self.result = ev
        return self

    def human_turn(self):
        """Roll and play the simulated player's turn."""
        c = self.c
        self.set_dice()
        self.driver.push_button(self.now + 1, "roll")
        self.wait(lambda: c.state != TURN_COMPLETE and c.turn.d1 and
                  c.turn.mover != self.side or c.state in ENDED, "the player's roll")
        if c.state in ENDED:
            return
        t = c.turn
        p = t.base
        moves = self.choose(p.r, p.s, p.a, p.b, p.mover, t.d1, t.d2, t.og, self.pick)
        acts = hand_actions(moves, p.a, p.b)
        i = 0
        while i < len(acts):
            self.hand(acts[i][1], acts[i + 1][1])
            i += 2
        self.set_dice()       # the board's roll: it rolls when this turn is complete
        self.wait(lambda: c.state in ENDED or c.turn.mover == self.side and (
            c.state == MOVING or c.state == TURN_COMPLETE) or
            c.state == WAITING and c.turn.mover == self.side, "the board's roll")

    def board_turn(self):
        """Follow the board's lights through its turn."""
        c = self.c
        if c.dice.host is None:
            self.set_dice()
        self.wait(lambda: c.state in ENDED or c.turn.d1 and c.turn.mover == self.side
                  and c.state == MOVING, "the board rolls")
        t_roll = self.driver.now
        first = True
        while c.state not in ENDED:
            g = c.player
            self.wait(lambda: c.state in ENDED or c.state == TURN_COMPLETE or (
                g.lit is not None and c.state == MOVING and not c.view.lifted),
                "the board's lights")
            if c.state != MOVING:
                break
            m = g.lit
            if first:
                self.decisions_ms.append(self.driver.now - t_roll)
                first = False
            n = len(c.turn.played)
            for frm, to in hand_moves(m, c.turn.a, c.turn.b):
                self.hand(frm, to)
            self.wait(lambda: len(c.turn.played) > n or c.state in ENDED,
                      "the board accepts its sub-move")
        self.wait(lambda: c.state != MOVING or not c.turn.rem, "the board's turn")

    def turns(self):
        """The complete turns of the game (turn notation), in order."""
        return list(self.c.game.record)


def play(seed=1, board_side=1, human="greedy"):
    """One seeded game against the board to its end (VsGame(...).run())."""
    return VsGame(seed, board_side, human).run()
