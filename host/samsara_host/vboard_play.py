"""Two simulated players at a virtual board's table: `samsara virtual-board --play SEED`
(docs/virtual-board.md "Played by two simulated players").  Its one job is to play a
seeded game through what a person at the board touches, never through the USB port,
which stays free for the user's tools.

    vb = VirtualBoard(seed=SEED)       # the board's electronic dice, seeded (Lcg)
    play = TablePlay(vb, SEED)          # listens to the board before it starts
    vb.start(); vb.wait_ready()        # TablePlay(vb, SEED, pace_s=0.8): a human's pace
    turns, over = play.run(turns=2)     # two complete turns, then the game stays open

- Hands: marbles lifted and placed, the roll button pressed: the virtual board's feed
  lines (vboard/vdrivers.py).  Each hand move waits for the board's own `lift` and
  `place` events, so every settle time of the board is kept (150 ms for a placement
  with the firmware's defaults).
- Dice: the board's electronic dice, seeded with SEED (VirtualBoard(seed=...), the
  firmware's samsara.rng.Lcg), so the same SEED rolls the same dice.
- Eyes: the board's events, read from the virtual board process's side channel
  (VirtualBoard.listen: the lines the board writes, as the relay passes them on), not
  from the port.
- Choices: the one simulated player core, samsara_host.sim.player.choose_greedy for
  both players, ties broken by a random.Random(SEED) pick.

A turn counts when the board says `turn_complete` (or `game_over`, the last one).
Raises PlayError when the board does not follow (an event that does not come).

One side only (`--side A|B`, TablePlay(..., side="A")): for an online game
(docs/online.md), where the board's far player is at another board.  The hand plays
its own side's turns by choice (a roll press: the board rolls the joint dice the
bridge set, the press is tried again while the board says it waits for them) and
carries out the far player's turns only as the board lights them (`board_move`, one
sub-move at a time).  The game it follows is the board's own record (`turn` events).
"""
import queue
import random
import time

from samsara.rules import moves as rules
from samsara.rules.game import Game
from samsara.rules.geometry import position_name
from samsara.rules.moves import M_DIE, M_R, M_S, M_A, M_B
from samsara.rules.notation import read_sub_move
from samsara_host.sim.player import choose_greedy, hand_moves, random_pick

WAIT_S = 10.0
"""The longest wait for one event of the board (s)."""
FAR_WAIT_S = 600.0
"""The longest wait for the far player (its turn, the joint dice), s."""


class PlayError(Exception):
    """The board did not follow the game; str() says which event did not come."""


class TablePlay:
    """Two greedy players playing a seeded game on VirtualBoard `vb` (module
    docstring).  Create it before vb.start(): it listens from the boot on."""

    def __init__(self, vb, seed, wait_s=WAIT_S, pace_s=0.0, side=None):
        self.vb = vb
        self.side = side          # "A"/"B": this hand plays one side of an online game
        self.game = None          # the board's record (one side only: from `turn` events)
        self.pace_s = pace_s      # seconds before each hand move and roll (a human's pace)
        self.seed = seed
        self.wait_s = wait_s
        self.q = queue.Queue()
        vb.listen(self.q.put)

    def _wait(self, names, wait_s=None):
        deadline = time.monotonic() + (wait_s or self.wait_s)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise PlayError("the board sent no %s event within %.0f s"
                                % (" or ".join(names), wait_s or self.wait_s))
            try:
                ev = self.q.get(timeout=left)
            except queue.Empty:
                continue
            if ev.get("ev") == "turn" and self.game is not None and self.side:
                self.game.play_notation(ev["turn"])
            if ev.get("ev") in names:
                return ev

    def _drain(self):
        while True:
            try:
                self.q.get_nowait()
            except queue.Empty:
                return

    def _hand(self, frm, to):
        if self.pace_s:
            time.sleep(self.pace_s)
        self.vb.feed({"pos": position_name(frm), "on": False})
        self._wait(("lift",))
        self.vb.feed({"pos": position_name(to), "on": True})
        self._wait(("place",))

    def run(self, turns=None, on_turn=None):
        """Play until `turns` complete turns were played (None: to the end of the
        game).  on_turn(number, notation): told after each turn.  Returns (turns
        played, game over).  Raises PlayError; ValueError when the board resumed a
        game that already has turns (play needs a fresh game: a new folder)."""
        # The boot's game first: a new one (game_start) or one resumed from the log,
        # whose event may come after the boot line that ended wait_ready().
        first = self._wait(("game_start", "resume"))
        if first["ev"] == "resume" and first.get("turns"):
            n = first["turns"]
            raise ValueError("the board resumed game %s with %s turn%s: --play needs a "
                             "fresh game (start the board in a new folder)"
                             % (first.get("game"), n, "" if n == 1 else "s"))
        if self.side:             # (no drain: the bridge may start the game any moment)
            return self._run_side(turns, on_turn)
        time.sleep(0.3)           # the boot's events are in
        self._drain()
        game = Game()
        pick = random_pick(random.Random(self.seed))
        done = 0
        while not game.over() and (turns is None or done < turns):
            if self.pace_s:
                time.sleep(self.pace_s)
            self.vb.feed({"button": "roll", "long": False})
            roll = self._wait(("roll",))
            d1, d2 = roll["dice"]
            p = game.pos
            moves = choose_greedy(p.r, p.s, p.a, p.b, p.mover, d1, d2, game.og, pick)
            if moves is None:     # Moksha: no complete turn, the game ends
                game.apply(d1, d2, [], None)
                self._wait(("game_over",))
            else:
                key = None
                for mv, k in rules.complete_turns(p.r, p.s, p.a, p.b, p.mover, d1, d2,
                                                  game.og):
                    if mv == moves:
                        key = k
                        break
                a, b = p.a, p.b
                for m in moves:
                    steps = hand_moves(m, a, b)
                    self._hand(*steps[0])
                    self._wait(("sub",))
                    for frm, to in steps[1:]:   # a goal: the marble out, the score on
                        self._hand(frm, to)
                    a, b = m[M_A], m[M_B]
                game.apply(d1, d2, moves, key)
                self._wait(("game_over",) if game.over() else ("turn_complete",))
            done += 1
            if on_turn:
                on_turn(done, game.record.tail(1)[0])
        return done, game.over()

    def _game_start(self):
        # An online game's own start: the bridge starts it with new_game (far).
        while True:
            ev = self._wait(("game_start",), FAR_WAIT_S)
            if ev.get("far"):
                return ev

    def _run_side(self, turns, on_turn):
        # One side of an online game (module docstring); returns (turns, game over).
        self._game_start()
        self.game = game = Game()
        pick = random_pick(random.Random(self.seed))
        me = "AB".index(self.side)
        done = 0
        mover = game.pos.mover    # (a turn is recorded only at the next roll: count here)
        while not game.over() and (turns is None or done < turns):
            if mover == me:
                ev = self._own_turn(game, pick)
            else:
                ev = self._far_turn(game)
            mover = 1 - mover
            if ev is None or ev["ev"] == "game_over":
                break
            done += 1
            if on_turn:
                on_turn(done, ev.get("turn", ""))
        if game.over() or (turns is None):
            done = len(game.record)
        return done, game.over() or self._over

    _over = False

    def _own_turn(self, game, pick):
        # Roll (again while the board waits for the joint dice) and play by choice.
        while True:
            if self.pace_s:
                time.sleep(self.pace_s)
            self.vb.feed({"button": "roll", "long": False})
            ev = self._wait(("roll", "reject", "game_over"), FAR_WAIT_S)
            if ev["ev"] == "game_over":
                self._over = True
                return ev
            if ev["ev"] == "roll" and ev.get("player") == self.side:
                break
            time.sleep(0.3)
        d1, d2 = ev["dice"]
        p = game.pos
        moves = choose_greedy(p.r, p.s, p.a, p.b, p.mover, d1, d2, game.og, pick)
        if moves is None:
            self._over = True
            return self._wait(("game_over",))
        a, b = p.a, p.b
        for m in moves:
            steps = hand_moves(m, a, b)
            self._hand(*steps[0])
            self._wait(("sub",))
            for frm, to in steps[1:]:
                self._hand(frm, to)
            a, b = m[M_A], m[M_B]
        ev = self._wait(("turn_complete", "game_over"))
        if ev["ev"] == "game_over":
            self._over = True
        return ev

    def _far_turn(self, game):
        # Carry out the far player's turn as the board lights it, sub-move by sub-move.
        far = "AB"[1 - "AB".index(self.side)]
        ev = self._wait(("roll", "game_over"), FAR_WAIT_S)
        while ev["ev"] == "roll" and ev.get("player") != far:
            ev = self._wait(("roll", "game_over"), FAR_WAIT_S)
        if ev["ev"] == "game_over":       # Moksha: the far roll ended the game
            self._over = True
            return ev
        p = game.pos
        r, s, a, b = p.r, p.s, p.a, p.b
        rem = list(ev["dice"])
        while True:
            ev = self._wait(("board_move", "turn_complete", "game_over"), FAR_WAIT_S)
            if ev["ev"] != "board_move":
                if ev["ev"] == "game_over":
                    self._over = True
                return ev
            m = read_sub_move(r, s, a, b, p.mover, tuple(rem), ev["move"], game.og)
            steps = hand_moves(m, a, b)
            self._hand(*steps[0])
            self._wait(("sub",))
            for frm, to in steps[1:]:
                self._hand(frm, to)
            rem.remove(m[M_DIE])
            r, s, a, b = m[M_R], m[M_S], m[M_A], m[M_B]
