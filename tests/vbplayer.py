"""A simulated player at the virtual board, for end-to-end tests of the host tool.

It plays through the two ways a person reaches a real board: its hands (marbles lifted
and placed: feed lines of the virtual board, host/samsara_host/vboard/vdrivers.py) and
the host's commands (host-set dice and `roll` over the USB protocol).  A seeded random
player picks each complete turn with the rules engine (evenly among the legal turns in
notation order, Python's random.choice: this player's own sequence, kept), so the game
is known in advance; the hand moves of each sub-move are the one simulated player's
(samsara_host.sim.player.hand_moves).  `play` returns the host's mirror Game to
compare with what the board logged.
"""
import random
import time

from samsara.frame import from_position, to_hex
from samsara.rules.game import Game
from samsara.rules.geometry import position_name
from samsara.rules.notation import read_turn
from samsara.rules.position import Position
from samsara_host.sim.player import hand_moves

WAIT_S = 5.0       # the longest wait for the board to answer a move


class PlayError(AssertionError):
    """The board did not follow the game (a failure of the board under test)."""


def wait_event(client, names, timeout=WAIT_S, seen=None):
    """The first event whose name is in `names` within `timeout` seconds.  Events are
    taken from `client.events` one at a time (later ones stay queued); every event read
    is appended to `seen`.  Raises PlayError."""
    deadline = time.monotonic() + timeout
    while True:
        while client.events:
            ev = client.events.popleft()
            if seen is not None:
                seen.append(ev)
            if ev.get("ev") in names:
                return ev
        if time.monotonic() >= deadline:
            raise PlayError("no %s event within %.1f s" % ("/".join(names), timeout))
        client.events.extend(client.poll_events(0.05))


def frame_hex(pos):
    """The sensor frame of Position `pos` as the feed's hex (samsara.frame.to_hex)."""
    return to_hex(from_position(pos))


class Player:
    """Plays games on VirtualBoard `vb` through BoardClient `client` (seeded)."""

    def __init__(self, vb, client, seed=1):
        self.vb = vb
        self.client = client
        self.rng = random.Random(seed)
        self.events = []

    def _move(self, frm, to):
        # A hand's move: lift, wait until the board has seen the lift settle, place.
        self.vb.feed({"pos": position_name(frm), "on": False})
        wait_event(self.client, ("lift",), seen=self.events)
        self.vb.feed({"pos": position_name(to), "on": True})
        wait_event(self.client, ("place",), seen=self.events)

    def new_game(self, position=None):
        """Start a game on the board (from `position`, a Position, else the start):
        the marbles are put there first.  Returns the board's game number."""
        pos = position or Position()
        self.vb.feed({"frame": frame_hex(pos)})
        time.sleep(0.3)
        args = {"position": pos.format()} if position is not None else {}
        r = self.client.request("new_game", **args)
        return r["game"]

    def turn(self, game):
        """One complete turn: dice, roll, the sub-moves by hand.  Returns the turn
        notation played."""
        c = self.client
        d1, d2 = self.rng.randint(1, 6), self.rng.randint(1, 6)
        c.request("set_dice", dice=[d1, d2])
        c.request("roll")
        wait_event(c, ("roll",), seen=self.events)
        legal = game.legal_turns(d1, d2)
        if not legal:
            wait_event(c, ("game_over",), seen=self.events)
            return game.apply(d1, d2, [], None)
        note = self.rng.choice(legal)[0]
        p = game.pos
        dice, moves, key = read_turn(p.r, p.s, p.a, p.b, p.mover, note, game.og)
        a, b = p.a, p.b
        for m in moves:
            steps = hand_moves(m, a, b)
            self._move(steps[0][0], steps[0][1])
            wait_event(c, ("sub",), seen=self.events)
            for frm, to in steps[1:]:   # a goal: out of the goal, the scoring piece on
                self._move(frm, to)
            a, b = m[6], m[7]
        recorded = game.apply(dice[0], dice[1], moves, key)
        if game.over():
            wait_event(c, ("game_over",), seen=self.events)
        else:
            wait_event(c, ("turn_complete",), seen=self.events)
        return recorded

    def play(self, position=None, max_turns=400):
        """A whole game; returns (board game number, mirror Game)."""
        gid = self.new_game(position)
        game = Game(position) if position is not None else Game()
        while not game.over() and len(game.record) < max_turns:
            self.turn(game)
        return gid, game
