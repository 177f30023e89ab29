"""The Schaska board core: the shared debounce (samsara.debounce), the Schaska
controller (schaska.controller), a scene painter, the shared power limiter
(samsara.power) and event queue (samsara.events) in one object, driven as Samsara's
board core is (docs/schaska.md "On the board", docs/core-api.md):

    board = SchaskaBoard(layout)           # layout: schaska.rules.layout tuple
    board.tick(now_ms, raw_frame)          # every scan period: bytearray(8)
    board.press(now_ms, "roll", long=True) # a long press after the game: a new game
    board.limited_scene()                  # bytearray(240) for the LED driver
    ev = board.poll_event()                # event dicts, None when empty

It has the queries the scan loop (mainloop.Loop) reads of a board, so the same loop
runs it (as samas.core.SamasBoard).  A tick with no raw change allocates nothing.
"""

from samsara.debounce import Debounce
from samsara.events import EventQueue
from samsara.pacing import Pacing
from samsara.power import PowerLimiter
from samsara.ticks import ticks_diff
from schaska.controller import SchaskaController, Refused, N_LEDS, OVER
from schaska.rules.layout import DEFAULT

SCENE_BYTES = 3 * N_LEDS

# R, G, B of each mark code of schaska.controller (NONE, FIGURE, MOVABLE, ENTER,
# ORIGIN, TARGET, MISSING, EXTRA, TURN_A, TURN_B, WIN); moderate brightness.
COLOURS = bytes((
    0, 0, 0,        # NONE
    0, 0, 0,        # FIGURE: dark under a figure that cannot move
    16, 16, 16,     # MOVABLE: a faint white under a figure that may move
    16, 16, 16,     # ENTER: the first field, where a figure may enter
    24, 24, 24,     # ORIGIN: dim white
    0, 80, 0,       # TARGET: green
    72, 72, 72,     # MISSING: white
    96, 0, 0,       # EXTRA: red
    0, 0, 64,       # TURN_A: blue
    64, 0, 40,      # TURN_B: magenta
    80, 56, 0,      # WIN: gold
))

BUTTONS = {"roll": 0, "undo": 1}
"""Button name -> its side (the buttons only start a new game after one is over)."""


class Settings:
    """The Schaska board core's settings (the names of samsara.config.Config's, which may
    be passed instead): scan_ms, settle_lift_ms, settle_place_ms, return_ms (ms,
    docs/debounce.md), budget_ma (LED current budget, mA), event_capacity.  ValueError
    for a scan period or capacity below 1 or a negative budget."""

    def __init__(self, scan_ms=5, settle_lift_ms=4, settle_place_ms=150, return_ms=30,
                 budget_ma=290, event_capacity=64):
        if scan_ms <= 0 or event_capacity < 1 or budget_ma < 0:
            raise ValueError("scan_ms and event_capacity must be >= 1, budget_ma >= 0")
        self.scan_ms = scan_ms
        self.settle_lift_ms = settle_lift_ms
        self.settle_place_ms = settle_place_ms
        self.return_ms = return_ms
        self.budget_ma = budget_ma
        self.event_capacity = event_capacity


class SchaskaBoard:
    """One Schaska board core (module docstring) on `layout` (default: the default
    layout).  Attributes: config, debounce, controller (schaska.controller.
    SchaskaController), events, limiter, pacing (nothing deferred), scene
    (bytearray(240)), scene_version, drawn."""

    GAME = "schaska"
    own_presses = True

    def __init__(self, layout=DEFAULT, config=None):
        if config is None:
            config = Settings()
        self.config = config
        self.pacing = Pacing()
        self.events = EventQueue(config.event_capacity)
        self.debounce = Debounce(config.settle_lift_ms, config.settle_place_ms,
                                 config.return_ms)
        self.limiter = PowerLimiter(config.budget_ma)
        self.scene = bytearray(SCENE_BYTES)
        self._limited = bytearray(SCENE_BYTES)
        self._limited_version = -1
        self.scene_version = 0
        self.drawn = -1
        self.foresaw = False    # (the scan loop reads it: this board works out no lift's
                                # targets ahead of its commit)
        self.controller = SchaskaController(self.events)
        self.new_game(layout=layout)
        self.events.clear()     # a board just built has started no game of its own

    def new_game(self, now_ms=0, layout=DEFAULT, state=None, frame=None):
        """Start a game on `layout` from `state` (schaska.rules.state.State, None: the
        start).  The debounce takes `frame` (bytearray(8)) as settled, or when None the
        board as the state wants it.  ValueError as SchaskaController.new_game."""
        c = self.controller
        c.new_game(now_ms, layout, state)
        if frame is None:
            frame = c.expected()
        self.debounce.reset(now_ms, frame)
        c.on_frame(now_ms, self.debounce.settled)
        self.redraw()

    def tick(self, now_ms, raw):
        """One scan: raw is the scanned bytearray(8) at now_ms (int ms, wrap-safe on
        2**30).  Debounces, feeds a settled change to the controller, redraws."""
        if self.debounce.step(now_ms, raw):
            self.controller.on_frame(now_ms, self.debounce.settled)
        if self.controller.version != self.drawn:
            self.redraw()

    def press(self, now_ms, button, long=False):
        """A button press ("roll" or "undo"; long: a long press): a long press after the
        game starts a new one; any other press is a `reject` event.  ValueError for
        another button name."""
        if button not in BUTTONS:
            raise ValueError("unknown button %r (use roll or undo)" % (button,))
        try:
            self.controller.press(now_ms, BUTTONS[button], long)
        except Refused:
            pass
        finally:
            if self.controller.version != self.drawn:
                self.redraw()
    def poll_event(self):
        """The oldest queued event dict, or None.  The scan loop is its only caller."""
        return self.events.poll()

    def emit(self, ev):
        """Queue an event dict from outside the core (so it takes the one path)."""
        self.events.push(ev)

    def redraw(self):
        """Draw the scene from the controller's display model if it changed."""
        c = self.controller
        if c.version == self.drawn:
            return
        self.drawn = c.version
        marks = c.view.marks
        scene = self.scene
        for i in range(N_LEDS):
            k = 3 * marks[i]
            scene[3 * i] = COLOURS[k]
            scene[3 * i + 1] = COLOURS[k + 1]
            scene[3 * i + 2] = COLOURS[k + 2]
        self.scene_version += 1

    def limited_scene(self):
        """The scene after the power limiter (a bytearray(240) owned by the board)."""
        if self._limited_version != self.scene_version:
            self.limiter.limit(self.scene, self._limited)
            self._limited_version = self.scene_version
        return self._limited

    # -- the queries the scan loop reads -------------------------------------------

    @property
    def state(self):
        """The controller's state: "play" or "over"."""
        return self.controller.state

    def frames(self):
        """(raw, settled): the debounce's last raw scan and its settled frame."""
        return self.debounce.raw, self.debounce.settled

    def quiet_ms(self, now_ms):
        """ms since the last raw change of any position."""
        return ticks_diff(now_ms, self.debounce.t_change)

    def next_due(self):
        """ms after the last tick until the board can change without a raw change, -1
        when nothing is pending (lets a virtual clock skip idle ticks)."""
        return self.debounce.next_due()

    def lifted(self):
        """True while a figure of the mover is in the air (its landing field lit)."""
        return bool(self.controller.view.lifted)

    def in_hand(self):
        """True while a figure of the mover is in the air."""
        return bool(self.controller.view.lifted)

    def still(self):
        """True when nothing may move now: the game is over."""
        return self.controller.state == OVER

    def thinking(self):
        """False: the Schaska board plays no side."""
        return False
