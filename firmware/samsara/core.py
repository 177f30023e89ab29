"""The board core: debounce + controller + scene + power limiter + event queue in one
object, driven the same way by the Pico's main.py, the simulated board and trace replay
(docs/core-api.md).

    board = Board(Config())
    board.new_game()                       # the board is taken as settled in the start
    board.tick(now_ms, raw_frame)          # every scan period (Config.scan_ms)
    board.press(now_ms, "roll")            # buttons: "roll" / "undo", long=True
    board.roll(now_ms)                     # requests: roll, undo, hint (Refused: no)
    board.limited_scene()                  # bytearray(240) for the LED driver
    ev = board.poll_event()                # event dicts, None when empty
    board.set_overlay("led_test", now_ms, 2000)   # overlays drawn over the scene

The board is the only writer of the LED scene: overlays (the LED test, the log-full
hint) are drawn here over the controller's scene and pass the power limiter with it.
Its event queue has one reader, the main loop (docs/firmware.md "Loop").
A tick in which no raw bit changes and no settle time expires allocates nothing
(with or without an overlay running).
"""

from boardcore.debounce import Debounce
from boardcore.events import EventQueue
from boardcore.pacing import Pacing
from boardcore.power import PowerLimiter
from boardcore.ticks import ticks_diff
from samsara import intents
from samsara.commands import HANDLERS
from samsara.config import Config
from samsara.controller import Controller, Refused
from samsara.frame import from_position
from samsara.rules.geometry import position_name, position_index
from samsara.states import ENDED, GOAL_PENDING, TURN_COMPLETE, WAITING
from samsara.scene import Painter, draw_overlay, SCENE_BYTES, N_LEDS, LED_TEST, LOG_FULL, \
    HINT_MS


class Board:
    """One board core.  Attributes: config, debounce (boardcore.debounce.Debounce),
    controller (samsara.controller.Controller), events (boardcore.events.EventQueue),
    limiter (boardcore.power.PowerLimiter), pacing (boardcore.pacing.Pacing: what the
    Pico's loop defers; nothing by default), scene (bytearray(240), logical LED order),
    scene_version (int, bumped whenever the scene changes), scene_sum (sum of the
    scene's channel values, kept up to date by the redraw; set it to -1 after writing
    the scene by hand), drawn (the controller version the scene shows).  HOST_COMMANDS:
    the game's host commands (samsara.commands.HANDLERS, for the host link)."""

    GAME = None                         # Samsara's board: its `hello` names no game
    HOST_COMMANDS = HANDLERS

    def __init__(self, config=None, pacing=None):
        if config is None:
            config = Config()
        self.config = config
        self.pacing = pacing if pacing is not None else Pacing()
        self.events = EventQueue(config.event_capacity)
        self.debounce = Debounce(config.settle_lift_ms, config.settle_place_ms,
                                 config.return_ms)
        self.controller = Controller(config, self.events, self.pacing)
        self.limiter = PowerLimiter(config.budget_ma)
        self.scene = bytearray(SCENE_BYTES)
        self.scene_version = 0
        self.scene_sum = 0              # sum of the scene's channel values (kept by draw)
        self._limited = bytearray(SCENE_BYTES)
        self._limited_version = -1
        self.drawn = -1                 # controller.version the scene was drawn from
        self._painter = Painter()
        self._full = True
        self.overlay = 0                # LED_TEST | LOG_FULL bits of the overlays shown
        self.foresaw = False            # the last tick worked out a lift's targets
                                        # (Pacing.foresee_lifts; the loop clears it)
        self._test_t0 = 0
        self._test_ms = 0
        self._test_i = -1
        self._hint_t = -1               # -1: the blink starts at the next tick
        self._hint_on = 0
        self.events.clear()
        self.new_game()

    def new_game(self, position=None, match=False, starter=0, now_ms=0, frame=None,
                 vs=None, level=3, far=False):
        """Start a single game (position: Position or position string, default the
        start with `starter` to move) or a two-game match (match=True).  starter: 0/'A'
        or 1/'B'; vs: the side the board plays (0/1, 'A'/'B'; None: a normal game,
        samsara.boardplayer); level: the board's strength 1..3 (3 the engine's best,
        samsara.rules.engine.LEVEL_BEST); far: vs is the side of a far player instead
        (an online game, docs/online.md).  A complete turn of the game before is
        recorded first (Controller.close_turn).  The debounce takes `frame` (bytearray(8)) as the
        settled board, or when None the game's position (marbles and scoring pieces in
        place)."""
        if starter == "A":
            starter = 0
        elif starter == "B":
            starter = 1
        if vs == "A" or vs == "B":
            vs = "AB".index(vs)
        c = self.controller
        c.new_game(position, match, starter, now_ms, vs, level, far)
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
        pc = self.pacing
        if n:
            self._commit(now_ms, n)
        elif self.controller.wait_settle and not self.debounce.busy and not pc.hold:
            # the turn completes in the first tick after its last change settled (not
            # in that change's own tick, which already carries its acceptance), and on
            # the Pico not before that acceptance went out (hold)
            self.controller.on_settled(now_ms)
        elif pc.end_overdue(now_ms, ticks_diff):
            # the game's last turn, left for the loop's quiet moment: a board that
            # never gets quiet (a flickering sensor) records it after 2 s
            self.controller.commit_due_now(now_ms)
        elif pc.foresee_lifts and self.debounce.t_change == self.debounce.now and \
                self.debounce.busy:
            # a raw change seen: a lift's targets ahead of its commit
            self.foresaw = self.controller.foresee(raw)
        if self.controller.player is not None:
            self.controller.step_player(now_ms, self.debounce.busy > 0)
        if self.controller.version != self.drawn and not pc.lazy_redraw:
            self._redraw()
        if self.overlay:
            self._step_overlay(now_ms)

    def _commit(self, now_ms, n):
        deb = self.debounce
        self.controller.on_frame(now_ms, deb.settled, deb.changed,
                                 deb.last if n == 1 else -1)

    def press(self, now_ms, button, long=False, start=None):
        """A button press: 'roll' or 'undo' (long=True: a long press), as
        samsara.intents maps it: a roll, an undo, a hint, or a game against the board
        (the long-undo gesture: start(now_ms, vs) starts it, vs the board's side or None
        for a normal game; without `start` new_game does).  A refused request is a
        `reject` event.  Returns the intent (samsara.intents)."""
        kind, side = intents.of_press(self.controller, button, long)
        if kind == intents.VS_GAME:
            vs = side if side >= 0 else None
            if start is None:
                self.new_game(now_ms=now_ms, vs=vs)
            else:
                start(now_ms, vs)
            return kind
        try:
            self.act(now_ms, kind, long)
        except Refused:
            pass
        return kind

    def act(self, now_ms, kind, long=False):
        """Carry out request `kind` (samsara.intents ROLL, UNDO or HINT; long: a long
        press) and redraw.  Returns what the controller's request returns (roll: the
        dice or None; undo: the sub-move taken back or None; hint: None).  Raises
        samsara.controller.Refused (after its `reject` event) when not possible now."""
        c = self.controller
        try:
            if kind == intents.ROLL:
                return c.roll(now_ms, long, self.debounce.busy > 0)
            if kind == intents.UNDO:
                return c.undo(now_ms)
            return c.hint(now_ms)
        finally:
            self._redraw()

    def roll(self, now_ms):
        """The host's roll (act(ROLL)): the dice, or None (the next game of a match).
        Raises Refused."""
        return self.act(now_ms, intents.ROLL)

    def undo(self, now_ms):
        """The host's undo (act(UNDO)): the sub-move taken back.  Raises Refused."""
        return self.act(now_ms, intents.UNDO)

    def hint(self, now_ms):
        """The host's hint (act(HINT)).  Raises Refused."""
        return self.act(now_ms, intents.HINT)

    def restore(self, game, roll=None, played=(), now_ms=0, frame=None):
        """Bring the board to a game in progress (the log resume,
        samsara.logresume): the controller's restore (game, roll, played: see
        samsara.controller.Controller.restore), the debounce settled on `frame`
        (bytearray(8); None: the position the turn expects), the scene redrawn.
        ValueError when a sub-move does not replay under the rules."""
        c = self.controller
        c.restore(game, roll, played, now_ms)
        self.debounce.reset(now_ms, frame if frame is not None else c.turn.expected)
        c.on_frame(now_ms, self.debounce.settled)
        self._redraw()

    def set_dice(self, d1, d2, joint=False):
        """Host-set dice: the values of the next roll (joint: an online game's joint
        dice, docs/online.md).  ValueError unless 1..6."""
        self.controller.set_dice(d1, d2, joint)

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
        N_LEDS LEDs one after the other over `ms` ms (then ends by itself), "log_full"
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
        if c.turn.d1:
            dice = [c.turn.d1, c.turn.d2]
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
            i = ticks_diff(now_ms, self._test_t0) * N_LEDS // self._test_ms
            if i < 0:
                i = 0
            if i != self._test_i:
                if i >= N_LEDS:
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
        p = self.controller.player
        if p is not None and p.busy(self.controller):
            return 0
        return self.debounce.next_due()

    @property
    def state(self):
        """The controller's state name."""
        return self.controller.state

    # -- public queries (the sinks and the loop read the board through these) ----------

    def frames(self):
        """(raw, settled): the debounce's last raw scan and its settled frame, each
        bytearray(8) (docs/frames.md), owned by the board: read them, never write."""
        return self.debounce.raw, self.debounce.settled

    def raw_age(self, p, now_ms):
        """ms since the raw scan last changed position p."""
        return ticks_diff(now_ms, self.debounce.t_raw[p])

    def quiet_ms(self, now_ms):
        """ms since the last raw change of any position."""
        return ticks_diff(now_ms, self.debounce.t_change)

    def still(self):
        """True while no marble may move (waiting for the roll, the turn complete)."""
        return self.controller.still()

    def in_hand(self):
        """True while a marble or a goal's piece is off the board, about to be placed
        (Controller.in_hand)."""
        return self.controller.in_hand()

    def lifted(self):
        """True while a marble of the turn is in the air."""
        return bool(self.controller.view.lifted)

    def mid_move(self):
        """True while a goal's marble or scoring piece is in the air (the scan loop's
        log write waits for it to be placed)."""
        return self.controller.state == GOAL_PENDING and self.controller.in_hand()

    def at_rest(self):
        """True when nobody waits for an answer: the turn complete, before the roll, the
        game over (the scan loop writes the game log's waiting records then)."""
        st = self.controller.state
        return st == TURN_COMPLETE or st == WAITING or st in ENDED

    def place_name(self, p):
        """The name of sensor position p (0..63): "R1", "GS", "A0", ... (samsara.rules.
        geometry, docs/rules.md §6).  ValueError outside 0..63."""
        return position_name(p)

    def place_index(self, name):
        """The sensor position (0..63) of a hole's name (place_name's inverse).
        ValueError for another name."""
        return position_index(name)

    def thinking(self):
        """True while the board's engine thinks (Controller.thinking)."""
        return self.controller.thinking()

    def game_position(self):
        """The game's position after its last recorded turn (samsara.rules.position.
        Position): at a roll, the position the roll is for."""
        return self.controller.game.pos

    def redraw(self):
        """Draw the scene from the controller's display model if it changed since the
        last drawing (with Pacing.lazy_redraw, tick() leaves this to the caller: the
        Pico's loop draws in the iteration that writes the LEDs)."""
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
