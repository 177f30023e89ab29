"""Simulated hands playing Samas or Schaska at a virtual board: `samsara virtual-board
--game samas|schaska --play SEED` (docs/virtual-board.md "Samas and Schaska").  Its one
job is to play the seeded self-play game of `samsara rules play --game ... --seed SEED`
through what a person at the board touches (sensors and buttons: the virtual board's
feed lines), never through the USB port, which stays free for the user's tools.

    vb = VirtualBoard(game="samas")
    play = GamesPlay(vb, SEED)          # listens to the board before it starts
    vb.start(); vb.wait_ready()
    rounds, over = play.run()

Samas, a round: the stones (or the joker) of each player's choice put into the tray,
Ready pressed (again, while the board says the tray has not settled yet: its Ready
reads the tray only once settled), the `round` event awaited and checked against the
choices, then the Sama-stones moved as the rules say and both trays emptied, until the
board says `cleared` (or `game_over`).  Schaska, a turn: the figure lifted and put down
(an entering one only put, one walking off the track only lifted), until the board's
`turn` event names that move.  Each step waits for the board's own events; no step
relies on a pause.  Raises PlayError when the board does not follow.
"""
import json
import queue
import time

from samas.controller import frame_of as samas_frame, choice_holes
from samas.rules.rounds import selection
from samas.rules.state import State as SamasState
from schaska.controller import frame_of as schaska_frame, after_mask
from schaska.rules.actions import action_obj
from schaska.rules.game import Game
from schaska.rules.layout import DEFAULT
from samsara_host import samas_lines, schaska_lines

WAIT_S = 10.0
"""The longest wait for one event of the board (s)."""
RETRY_S = 0.02
"""Pause before pressing Ready again while the tray settles (s)."""


class PlayError(Exception):
    """The board did not follow the game; str() says what did not come."""


def _hex(frame):
    return "".join("%02x" % b for b in frame)


class GamesPlay:
    """The seeded game of `game` ("samas" or "schaska", VirtualBoard vb's own game)
    played by simulated hands on `vb` (module docstring).  Create it before vb.start().
    pace_s: seconds before each hand move (0: none; the app's --pace), wait_s: the
    longest wait for one event."""

    def __init__(self, vb, seed, wait_s=WAIT_S, pace_s=0.0):
        self.vb = vb
        self.pace_s = pace_s
        self.game = vb.game
        if self.game not in ("samas", "schaska"):
            raise ValueError("GamesPlay plays Samas or Schaska, not %r" % (self.game,))
        self.seed = seed
        self.wait_s = wait_s
        self.layout = vb.layout or DEFAULT
        self.q = queue.Queue()
        vb.listen(self.q.put)

    def _wait(self, names):
        deadline = time.monotonic() + self.wait_s
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise PlayError("the board sent no %s event within %.0f s"
                                % (" or ".join(names), self.wait_s))
            try:
                ev = self.q.get(timeout=left)
            except queue.Empty:
                continue
            if ev.get("ev") in names:
                return ev

    def _frame(self, frame):
        if self.pace_s > 0:
            time.sleep(self.pace_s)     # a human pace (the app's --pace)
        self.vb.feed({"frame": _hex(frame)})

    def _press(self, button):
        self.vb.feed({"button": button, "long": False})

    def run(self):
        """Play the whole game.  Returns (rounds or turns played, True when the board
        said game_over).  Raises PlayError."""
        if self.game == "samas":
            return self._samas()
        return self._schaska()

    def _samas(self):
        _game, lines = samas_lines.self_play(self.seed)
        state = SamasState.from_obj(lines[0]["start"])
        n = 0
        over = False
        for line in lines[1:-1]:
            sa = selection(line["play"]["A"])
            sb = selection(line["play"]["B"])
            self._frame(samas_frame(state, (choice_holes(sa), choice_holes(sb))))
            for button in ("roll", "undo"):
                while True:
                    self._press(button)
                    ev = self._wait(("ready", "reject"))
                    if ev["ev"] == "ready":
                        break
                    if ev.get("why") != "the tray is not settled yet":
                        raise PlayError("Ready refused: %s" % ev.get("why"))
                    time.sleep(RETRY_S)
            ev = self._wait(("round",))
            if ev["play"] != line["play"] or ev["after"] != line["after"]:
                raise PlayError("the board revealed %s, the hands chose %s"
                                % (json.dumps(ev["play"]), json.dumps(line["play"])))
            state = SamasState.from_obj(line["after"])
            self._frame(samas_frame(state))
            ev = self._wait(("cleared", "game_over"))
            n += 1
            if ev["ev"] == "game_over":
                over = True
                break
        return n, over

    def _schaska(self):
        _game, lines = schaska_lines.self_play(self.seed, self.layout)
        replay = Game(self.layout)
        n = len(self.layout)
        mask = 0
        k = 0
        over = False
        for line in lines[1:-1]:
            want = line["move"]
            action = None
            for a in replay.legal():
                if action_obj(replay.state, a) == want:
                    action = a
                    break
            if action is None:
                raise PlayError("turn %d: %s is not legal" % (line["turn"], json.dumps(want)))
            mask = after_mask(mask, n, action)
            replay.play(action)
            self._frame(schaska_frame(mask))
            ev = self._wait(("turn",))
            if ev["move"] != want or ev["turn"] != line["turn"]:
                raise PlayError("the board took %s for turn %d, the hands made %s"
                                % (json.dumps(ev["move"]), line["turn"], json.dumps(want)))
            k += 1
            if replay.over():
                self._wait(("game_over",))
                over = True
        return k, over
