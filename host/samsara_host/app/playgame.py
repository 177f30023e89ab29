"""A game on the simulated board in the page (docs/app.md "Play"): the firmware's
board core (samsara.core.Board: debounce, controller, LED scene) driven through the
simulator's Driver (samsara_host.sim.driver) by clicks, and its game log written by
the firmware's own recorder (samsara.recorder) so that a finished game lands
in the library as a log like any other.  Its one job is one game in the browser.

    g = PlayGame(logs_dir, opponent="engine", seed=3)    # B is the engine
    g.roll()                   # the roll button (electronic dice from the seed)
    g.click("R1")              # lift the marble on R1 (the board lights its targets)
    g.click("R6")              # place it there; a goal's marble and scoring piece are
                               # moved by the app (the two steps the board asks for)
    g.state()                  # the page's dict

A click is the hand's move: a marble is lifted from its hole (sensor off) and put in
another (sensor on); the board's own rules decide (a wrong hole is shown red and
rejected as on the real board; clicking the lifted marble's hole puts it back).
Time is the board's virtual clock: each click runs the scan loop until it is idle.
"""
import os
import random
import shutil
import tempfile
import threading

from samsara import states
from samsara.config import Config
from samsara.core import Board
from samsara.rules import engine as dev_engine
from samsara.rules import moves as rules
from samsara.rules.geometry import GR, GS, A_TRACK, position_index, position_name
from samsara.rules.position import Position
from samsara.rules.moves import M_FROM, M_TO, M_A, M_B
from boardcore.storage.gamelog import GameLog
from boardcore.storage.osfs import OsFs
from samsara.recorder import Recorder

from samsara_host import svg
from samsara_host.app.livestate import Drawn
from samsara_host.live import describe_event, led_rgb, turn_line
from samsara_host.sim.driver import Driver, frame_of
from samsara_host.sim.player import goal_steps
from samsara_host.trace import start_occupancy

BOARD_ID = "browser"
"""The board id of games played in the page (their library folder)."""
STEP_MS = 40.0
"""Virtual time between a hand's inputs (ms); the board settles in its own time."""


class PlayError(ValueError):
    """A click or option the game cannot take; str() says why in words."""


def _on(frame, p):
    return (frame[p >> 3] >> (p & 7)) & 1


class PlayGame:
    """One game (module docstring).  opponent: "human" (two people at one screen) or
    "engine" (the device engine, samsara.rules.engine, plays B); position: a position
    string to start from (default the start); seed: the dice.  Thread-safe."""

    def __init__(self, logs_dir, opponent="human", position=None, seed=None, names=None):
        if opponent not in ("human", "engine"):
            raise PlayError("opponent is human or engine, not %r" % (opponent,))
        self.names = None
        if names is not None and any(n.strip() for n in names if isinstance(n, str)):
            from samsara_host import gametags
            try:
                self.names = gametags.check_names(names)   # the tool's one check
            except gametags.TagError as e:
                raise PlayError(str(e))
        start = None
        if position:
            try:
                start = Position.parse(position)
            except ValueError as e:
                raise PlayError("position: %s" % e)
            if start.a >= 6 or start.b >= 6:
                raise PlayError("that position is already over (a score of 6 wins)")
        self.lock = threading.RLock()
        self.logs_dir = logs_dir
        self.opponent = opponent
        self.rng = random.Random(seed)
        self.seed = seed if seed is not None else 0
        self.tmp = tempfile.mkdtemp(prefix="samsara-play-")
        self.board = Board(Config())
        self.recorder = Recorder(GameLog(OsFs(os.path.join(self.tmp, "logs"))), self.board,
                                 BOARD_ID)
        self.recorder.boot(0)
        self.recorder.start_game(start.format() if start else None, False, 0)
        self.board.new_game(start, now_ms=0)
        self.driver = Driver(self.board, self.board.config.scan_ms,
                             frame_of(start_occupancy(start or Position())))
        self.held = None          # the lifted marble's position index
        self.words = []
        self.saved = None         # the library id of the finished game
        self.seen = 0
        self.engine_last = None   # the engine's last complete turn (notation)
        self._settle()
        self._engine_turn()

    @property
    def c(self):
        return self.board.controller

    # -- the hand and the clock ------------------------------------------------------
    def _settle(self):
        self.driver.run_out(self.driver.now + 60000)
        evs = self.driver.events
        while self.seen < len(evs):
            _t, ev = evs[self.seen]
            self.seen += 1
            self.recorder.on_event(ev)
            d = describe_event(ev)
            if d:
                self.words.append(d)
                del self.words[:-12]
        if self.c.state in states.ENDED and self.saved is None:
            self._save()

    def _t(self):
        return max(self.driver.now, 0) + STEP_MS

    def _raw(self, p, on):
        self.driver.push_raw(self._t(), p, on)
        self._settle()

    def _hand(self, frm, to):
        self._raw(frm, False)
        self._raw(to, True)

    # -- actions ---------------------------------------------------------------------
    def roll(self):
        """Press the roll button with the next dice of the seed."""
        with self.lock:
            if self.c.state in states.ENDED:
                raise PlayError("the game is over: start a new one")
            if self.held is not None:
                raise PlayError("put the lifted marble down first")
            self.driver.push_dice(self._t(), self.rng.randint(1, 6), self.rng.randint(1, 6))
            self.driver.push_button(self._t() + 1, "roll")
            self._settle()
            self._engine_turn()

    def click(self, name):
        """A click on hole `name`: lift the marble there, or put the lifted one there.
        Raises PlayError for a name that is no hole."""
        with self.lock:
            try:
                p = position_index(name)
            except ValueError:
                raise PlayError("%r is no hole of the board" % (name,))
            if self.c.state in states.ENDED:
                raise PlayError("the game is over: start a new one")
            frame = self.driver.frame
            if self.held is None:
                if p >= 48 or not _on(frame, p):
                    raise PlayError("pick up one of %s's marbles" % "AB"[self.mover()])
                self.held = p
                self._raw(p, False)
                return
            if p == self.held:
                self.held = None
                self._raw(p, True)
                return
            if _on(frame, p):
                raise PlayError("%s is taken: choose a lit hole" % name)
            before = len(self.c.turn.played)
            frm = self.held
            self.held = None
            self._raw(p, True)
            played = self.c.turn.played
            if len(played) > before and played[-1][2] in (GS, GR) and played[-1][1] == frm:
                m = played[-1]
                pa, pb = self.c.turn.prefix(len(played) - 1)[2:]
                for a, b in goal_steps(m, pa, pb):
                    self._hand(a, b)
            elif self.c.view.wrong >= 0:
                # a wrong hole: the board shows it red; the marble goes back in the hand
                self.held = frm
                self._raw(p, False)
                self._wrong = position_name(p)
                return
            self._engine_turn()

    def undo(self):
        """The undo button."""
        with self.lock:
            self.driver.push_button(self._t(), "undo")
            self._settle()

    def _engine_turn(self):
        # The engine plays B: it rolls and moves with its own hands.
        while (self.opponent == "engine" and self.c.state not in states.ENDED
               and self.mover() == 1 and self.held is None):
            c = self.c
            if not c.turn.d1 or c.state == states.TURN_COMPLETE:
                self.driver.push_dice(self._t(), self.rng.randint(1, 6), self.rng.randint(1, 6))
                self.driver.push_button(self._t() + 1, "roll")
                self._settle()
                continue
            p = c.position()
            got = dev_engine.choose(p.r, p.s, p.a, p.b, p.mover, c.turn.d1, c.turn.d2,
                                    c.turn.og, self.seed)
            if got is None:
                self.engine_last = "%d%d Moksha" % (max(c.turn.d1, c.turn.d2),
                                                    min(c.turn.d1, c.turn.d2))
                return
            from samsara.rules.notation import format_turn
            self.engine_last = format_turn(c.turn.d1, c.turn.d2, got[0])
            a, b = p.a, p.b
            for m in got[0]:
                self._hand(m[M_FROM], m[M_TO])
                if m[M_TO] in (GS, GR):
                    for x, y in goal_steps(m, a, b):
                        self._hand(x, y)
                a, b = m[M_A], m[M_B]
            if self.c.state != states.TURN_COMPLETE:
                return

    # -- what the page shows ---------------------------------------------------------
    def mover(self):
        c = self.c
        if c.state == states.TURN_COMPLETE:
            return 1 - c.turn.mover
        return c.turn.mover

    def _save(self):
        # The finished game's log into the library, as a pulled log of board BOARD_ID
        # (logpull.place: never over another game).
        from samsara_host import gametags, logpull
        self.recorder.flush()
        log = self.recorder.log
        entries = log.list()
        if not entries:
            return
        gid, size = entries[-1][0], entries[-1][1]
        data = bytes(log.read(gid, 0, size))
        dest = os.path.join(self.logs_dir, logpull.local_name(BOARD_ID, gid))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        path, _kept = logpull.place(dest, data)
        with open(path, "wb") as f:
            f.write(data)
        names = self.names or (("Player A", "Engine") if self.opponent == "engine" else None)
        try:
            gametags.stamp_pull(path, names)
        except (gametags.TagError, OSError):
            pass
        self.saved = "%s/%s" % (BOARD_ID, os.path.basename(path)[:-4])

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def state(self):
        """The page's dict: svg (the board with its LEDs as the board lights them),
        state, mover, dice, remaining, score, record, targets [[name, colour]], lifted,
        wrong, words, over, saved (library id once finished), movable (names of the
        mover's marbles that can move now), opponent."""
        with self.lock:
            c = self.c
            b = self.board
            frame = self.driver.frame
            scene_bytes = b.limited_scene()
            scene = {}
            for p in range(64):
                rgb = led_rgb(scene_bytes, p)
                if rgb:
                    scene[position_name(p)] = "#%02x%02x%02x" % rgb
            r = s = 0
            for p in range(24):
                if _on(frame, p):
                    r |= 1 << p
                if _on(frame, 24 + p):
                    s |= 1 << p
            pos = c.position()
            shown = Drawn(r, s, pos.a, pos.b, pos.mover)
            dice = (c.turn.d1, c.turn.d2) if c.turn.d1 else None
            targets = [[n, scene.get(n, "#ffffff")] for n, _d in c.lit_targets()]
            movable = []
            if c.turn.d1 and self.held is None and c.state not in states.ENDED \
                    and c.state != states.TURN_COMPLETE:
                t = c.turn
                seen = set()
                for o in range(48):
                    if _on(frame, o) and o not in seen and rules.completable_sub_moves(
                            t.r, t.s, t.a, t.b, t.mover, tuple(t.rem), o, t.og):
                        seen.add(o)
                        movable.append(position_name(o))
            over = ""
            if c.state in states.ENDED:
                res = c.game.result
                if res is None or res[0] is None:
                    over = "Game over: a draw (%d-%d)" % (pos.a, pos.b)
                else:
                    over = "Game over: %s wins %d-%d!" % (
                        self._who(res[0]), pos.a, pos.b)
            record = [[i + 1, t] for i, t in enumerate(c.game.record)]
            if c.state == states.TURN_COMPLETE:
                # a complete turn is the record's at once (the board commits it at the
                # next roll)
                record.append([len(record) + 1, c.turn_notation()])
            cur = turn_line(c) if c.state != states.TURN_COMPLETE else ""
            from samsara_host import movewords
            shown_turn = None
            if self.engine_last and self.mover() == 0 and not c.turn.played:
                shown_turn = self.engine_last       # until the player moves a marble
            arrows = [[f, t, "board"] for f, t, _d in movewords.arrows(shown_turn or "")]
            return {
                "svg": svg.render(shown, scene, dice=dice, arrows=arrows),
                "computer_turn": shown_turn,
                "computer_words": ("The computer played %s: %s." % (
                    shown_turn, movewords.turn_words(shown_turn)) if shown_turn else ""),
                "names": [self._who(0), self._who(1)],
                "state": c.state, "mover": "AB"[self.mover()],
                "mover_name": self._who(self.mover()),
                "dice": list(dice) if dice else [], "remaining": c.remaining_dice(),
                "score": [pos.a, pos.b], "record": record, "current": cur,
                "targets": targets, "movable": movable,
                "lifted": position_name(self.held) if self.held is not None else None,
                "wrong": position_name(c.view.wrong) if c.view.wrong >= 0 else None,
                "reason": c.view.reason or "", "words": list(self.words), "over": over,
                "saved": self.saved, "opponent": self.opponent,
                "position": pos.format(),
            }

    def _who(self, player):
        if self.names:
            return self.names[player]
        if self.opponent == "engine":
            return ("You (A)", "Computer (B)")[player]
        return "AB"[player]
