"""The board core: debounce + controller + scene + power limiter + event queue in one
object, driven the same way by the Pico's main.py, the simulated board and trace replay
(docs/core-api.md).

    board = Board(Config())
    board.new_game()                       # the board is taken as settled in the start
    board.tick(now_ms, raw_frame)          # every scan period (Config.scan_ms)
    board.press(now_ms, "roll")            # buttons: "roll" / "undo", long=True
    board.limited_scene()                  # bytearray(240) for the LED driver
    ev = board.poll_event()                # event dicts, None when empty
    board.set_overlay("led_test", now_ms, 2000)   # overlays drawn over the scene

The board is the only writer of the LED scene: overlays (the LED test, the log-full
hint) are drawn here over the controller's scene and pass the power limiter with it.
Its event queue has one reader, the main loop (docs/firmware.md "Loop").
A tick in which no raw bit changes and no settle time expires allocates nothing
(with or without an overlay running).
"""

from samsara.config import Config
from samsara.controller import Controller
from samsara.debounce import Debounce, ticks_diff
from samsara.events import EventQueue
from samsara.frame import from_position
from samsara.power import PowerLimiter
from samsara.states import ENDED
from samsara.scene import Painter, draw_overlay, SCENE_BYTES, LED_TEST, LOG_FULL, HINT_MS


class Board:
    """One board core.  Attributes: config, debounce (samsara.debounce.Debounce),
    controller (samsara.controller.Controller), events (samsara.events.EventQueue),
    limiter (samsara.power.PowerLimiter), scene (bytearray(240), logical LED order),
    scene_version (int, bumped whenever the scene changes), scene_sum (sum of the
    scene's channel values, kept up to date by the redraw; set it to -1 after writing
    the scene by hand), drawn (the controller version the scene shows), lazy (set:
    tick() does not redraw, redraw() does), hold (set by the Pico's loop while it
    holds events not yet sent: tick() does not complete the turn meanwhile, so that the
    acceptance line goes out first; docs/performance.md "Fifth round")."""

    def __init__(self, config=None):
        if config is None:
            config = Config()
        self.config = config
        self.events = EventQueue(config.event_capacity)
        self.debounce = Debounce(config.settle_lift_ms, config.settle_place_ms,
                                 config.return_ms)
        self.controller = Controller(config, self.events)
        self.limiter = PowerLimiter(config.budget_ma)
        self.scene = bytearray(SCENE_BYTES)
        self.scene_version = 0
        self.scene_sum = 0              # sum of the scene's channel values (kept by draw)
        self._limited = bytearray(SCENE_BYTES)
        self._limited_version = -1
        self.drawn = -1                 # controller.version the scene was drawn from
        self.lazy = False               # True: tick() leaves the redraw to redraw()
        self.hold = False               # True: the loop still holds answers to send:
                                        # tick() leaves the turn's completion for later
        self._painter = Painter()
        self._full = True
        self.overlay = 0                # LED_TEST | LOG_FULL bits of the overlays shown
        self._test_t0 = 0
        self._test_ms = 0
        self._test_i = -1
        self._hint_t = -1               # -1: the blink starts at the next tick
        self._hint_on = 0
        self.events.clear()
        self.new_game()

    def new_game(self, position=None, match=False, starter=0, now_ms=0, frame=None,
                 vs=None):
        """Start a single game (position: Position or position string, default the
        start with `starter` to move) or a two-game match (match=True).  starter: 0/'A'
        or 1/'B'; vs: the side the board plays (0/1, 'A'/'B'; None: a normal game,
        samsara.vsplay).  The debounce takes `frame` (bytearray(8)) as the settled board, or
        when None the game's position (marbles and scoring pieces in place)."""
        if starter == "A":
            starter = 0
        elif starter == "B":
            starter = 1
        if vs == "A" or vs == "B":
            vs = "AB".index(vs)
        c = self.controller
        c.new_game(position, match, starter, now_ms, vs)
        self._full = True
        if frame is None:
            frame = from_position(c.game.pos)
        self.debounce.reset(now_ms, frame)
        c.on_frame(now_ms, self.debounce.settled)
        self._redraw()

    def tick(self, now_ms, raw):
        """One scan: raw is the scanned bytearray(8) at now_ms (int ms, wrap-safe on
        2**30).  Debounces, feeds settled changes to the controller, redraws."""
        # Kept small (few locals, short calls): its call frame stays off the heap.
        n = self.debounce.step(now_ms, raw)
        if n:
            self._commit(now_ms, n)
        elif self.controller.wait_settle and not self.debounce.busy and not self.hold:
            # the turn completes in the first tick after its last change settled (not
            # in that change's own tick, which already carries its acceptance), and on
            # the Pico not before that acceptance went out (hold)
            self.controller.on_settled(now_ms)
        elif self.controller.commit_due and ticks_diff(now_ms, self.controller.due_ms) >= 2000:
            # (the Pico) the game's last turn, left for the loop's quiet moment: a board
            # that never gets quiet (a flickering sensor) records it after 2 s
            self.controller.commit_due_now(now_ms)
        elif self.lazy and self.debounce.t_change == self.debounce.now and self.debounce.busy:
            # a raw change seen (on the Pico): a lift's targets ahead of its commit
            self.controller.foresee(raw)
        if self.controller.guide is not None:
            self.controller.guide.tick(self, now_ms)    # the board's player, a hint
        if self.controller.version != self.drawn and not self.lazy:
            self._redraw()
        if self.overlay:
            self._step_overlay(now_ms)

    def _commit(self, now_ms, n):
        deb = self.debounce
        self.controller.on_frame(now_ms, deb.settled, deb.changed,
                                 deb.last if n == 1 else -1)

    def press(self, now_ms, button, long=False):
        """A button press: 'roll' or 'undo'; long=True for a long press (manual dice)."""
        self.controller.press(now_ms, button, long, self.debounce.busy > 0)
        self._redraw()

    def restore(self, game, roll=None, played=(), now_ms=0, frame=None):
        """Bring the board to a game in progress (the log resume,
        samsara.storage.logresume): the controller's restore (game, roll, played: see
        samsara.controller.Controller.restore), the debounce settled on `frame`
        (bytearray(8); None: the position the turn expects), the scene redrawn.
        ValueError when a sub-move does not replay under the rules."""
        c = self.controller
        c.restore(game, roll, played, now_ms)
        self.debounce.reset(now_ms, frame if frame is not None else c.turn.expected)
        c.on_frame(now_ms, self.debounce.settled)
        self._redraw()

    def set_dice(self, d1, d2):
        """Host-set dice: the values of the next roll.  ValueError unless 1..6."""
        self.controller.set_dice(d1, d2)

    def poll_event(self):
        """The oldest queued event dict, or None.  The main loop is its only caller."""
        return self.events.poll()

    def emit(self, ev):
        """Queue an event dict from outside the core (the recorder's log_full,
        log_error, resume, error) so that it takes the one path to every sink."""
        self.events.push(ev)

    def clear_events(self):
        """Forget every queued event (the events of a resumed game's replay)."""
        self.events.clear()

    def set_overlay(self, kind, now_ms=0, ms=2000):
        """Show overlay `kind` over the scene from the next tick: "led_test" lights the
        80 LEDs one after the other over `ms` ms (then ends by itself), "log_full"
        blinks the dice pips amber until clear_overlay("log_full").  Both pass the
        power limiter.  "hole" (the guided self-test) lights logical LED `ms` alone
        until clear_overlay("led_test").  ValueError for another kind."""
        if kind == "led_test":
            self._test_t0 = now_ms
            self._test_ms = ms if ms > 0 else 1
            self._test_i = -1
            self.overlay |= LED_TEST
        elif kind == "hole":   # the self-test: logical LED `ms` lit until cleared
            self._test_i = ms
            self._test_ms = -1
            self.overlay |= LED_TEST
            self.scene_version += 1
        elif kind == "log_full":
            if not self.overlay & LOG_FULL:
                self._hint_t = -1
                self._hint_on = 0
                self.overlay |= LOG_FULL
        else:
            raise ValueError("no overlay %s" % kind)

    def clear_overlay(self, kind):
        """Stop overlay `kind` ("led_test" or "log_full"); the scene shows again."""
        bit = LED_TEST if kind == "led_test" else LOG_FULL
        if self.overlay & bit:
            self.overlay &= ~bit
            self.scene_version += 1

    def game_so_far(self):
        """The running game as the recorder logs it late: (turns, dice, subs,
        match_game): the complete turns in turn notation, [d1, d2] of the turn being
        played or None before its roll, that turn's sub-moves so far (notation), the
        game's number in its match (0: a single game).  turns is the game's own
        TurnRecord (iterate it; no copy).  None when the game is over."""
        c = self.controller
        g = c.game
        if g is None or c.state in ENDED:
            return None
        dice = None
        subs = []
        if c.d1:
            dice = [c.d1, c.d2]
            subs = c.turn_notation().split(" ")[1:]
            if subs == ["Moksha"]:
                subs = []
        m = c.match
        return g.record, dice, subs, 0 if m is None else len(m.games)

    def limited_scene(self):
        """The scene with its overlay after the power limiter (a bytearray(240) owned by
        the board, rewritten only when the scene or the overlay changed)."""
        if self._limited_version != self.scene_version:
            out = self._limited
            ov = self.overlay
            if ov & LED_TEST and self._test_i >= 0:
                self.limiter.limit(out, out, draw_overlay(out, self.scene, LED_TEST,
                                                          self._test_i))
            elif ov & LOG_FULL and self._hint_on:
                self.limiter.limit(out, out, draw_overlay(out, self.scene, LOG_FULL, 1))
            else:
                self.limiter.limit(self.scene, out, self.scene_sum)
            self._limited_version = self.scene_version
        return self._limited

    def _step_overlay(self, now_ms):
        # One tick of the running overlay: a new frame only when it changes.
        if self.overlay & LED_TEST:
            if self._test_ms < 0:
                return   # the self-test's hole: held
            i = ticks_diff(now_ms, self._test_t0) * 80 // self._test_ms
            if i < 0:
                i = 0
            if i != self._test_i:
                if i >= 80:
                    self.overlay &= ~LED_TEST
                    self._test_ms = 0
                    i = -1
                self._test_i = i
                self.scene_version += 1
        elif self.overlay & LOG_FULL:
            t = self._hint_t
            if t < 0 or ticks_diff(now_ms, t) >= HINT_MS:
                self._hint_t = now_ms
                self._hint_on ^= 1
                self.scene_version += 1

    def next_due(self):
        """ms after the last tick until the board can change without a raw change: the
        debounce's next possible commit, or 0 when the turn completes at the next tick
        (both dice played, the board settled); -1 when nothing is pending.  Lets a
        virtual clock skip ticks in which nothing can change."""
        if self.controller.wait_settle and not self.debounce.busy:
            return 0
        g = self.controller.guide
        if g is not None and g.busy(self.controller):
            return 0
        return self.debounce.next_due()

    @property
    def state(self):
        """The controller's state name."""
        return self.controller.state

    def redraw(self):
        """Draw the scene from the controller's display model if it changed since the
        last drawing (with `lazy` set, tick() leaves this to the caller: the Pico's
        loop draws in the iteration that writes the LEDs, docs/performance.md)."""
        self._redraw()

    def _redraw(self):
        c = self.controller
        if c.version != self.drawn:
            self.drawn = c.version
            d = self._painter.draw(self.scene, c.view, self._full)
            if d < 0:
                self.scene_sum = sum(self.scene)
            else:
                self.scene_sum += d
            self._full = False
            self.scene_version += 1
