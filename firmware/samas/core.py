"""The Samas board core: the shared debounce (samsara.debounce), the Samas controller
(samas.controller), a scene painter, the shared power limiter (samsara.power) and event
queue (samsara.events) in one object, driven as Samsara's board core is (docs/samas.md
"On the board", docs/core-api.md):

    board = SamasBoard()
    board.tick(now_ms, raw_frame)          # every scan period: bytearray(8)
    board.press(now_ms, "roll")            # the driver's buttons: roll = A's Ready,
                                           # undo = B's Ready (also "ready_a", "ready_b")
    board.limited_scene()                  # bytearray(240) for the LED driver
    ev = board.poll_event()                # event dicts, None when empty

It has the queries the scan loop (mainloop.Loop) reads of a board (frames, quiet_ms,
lifted, in_hand, thinking, still, state, scene_version, the pacing), so the same loop
runs it; `own_presses` tells the loop's door to hand button presses to press() as they
are.  A tick with no raw change allocates nothing.
"""

from samsara.debounce import Debounce
from samsara.events import EventQueue
from samsara.pacing import Pacing
from samsara.power import PowerLimiter
from samsara.ticks import ticks_diff
from samas.controller import SamasController, Refused, N_LEDS, MOVE, OVER, tray_mask
from samas.rules.state import START

SCENE_BYTES = 3 * N_LEDS

# R, G, B of each mark code of samas.controller (NONE, STONE, ORIGIN, TARGET, MISSING,
# EXTRA, CHOICE, READY, WIN); moderate brightness, as Samsara's scene.
COLOURS = bytes((
    0, 0, 0,        # NONE
    12, 12, 12,     # STONE: a faint white under a Sama-stone in place
    24, 24, 24,     # ORIGIN: dim white
    0, 80, 0,       # TARGET: green
    72, 72, 72,     # MISSING: white
    96, 0, 0,       # EXTRA: red
    56, 40, 0,      # CHOICE: amber
    0, 0, 64,       # READY: blue
    80, 56, 0,      # WIN: gold
))

BUTTONS = {"roll": 0, "ready_a": 0, "undo": 1, "ready_b": 1}
"""Button name -> the player whose Ready it is (samas.places.READY_BUTTON)."""


class Settings:
    """The Samas board core's settings (the names of samsara.config.Config's, which may
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


class SamasBoard:
    """One Samas board core (module docstring).  Attributes: config, debounce,
    controller (samas.controller.SamasController), events, limiter, pacing (nothing
    deferred), scene (bytearray(240)), scene_version, drawn."""

    GAME = "samas"
    own_presses = True

    def __init__(self, config=None):
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
        self.controller = SamasController(self.events)
        self.new_game()
        self.events.clear()     # a board just built has started no game of its own

    def new_game(self, now_ms=0, state=START, frame=None):
        """Start a game from `state` (samas.rules.state.State).  The debounce takes
        `frame` (bytearray(8)) as settled, or when None the board as the state wants it
        (the Sama-stones on their hollows, the trays empty)."""
        c = self.controller
        c.new_game(now_ms, state)
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
        """A button press: "roll"/"ready_a" (A's Ready) or "undo"/"ready_b" (B's);
        long: a long press.  A press while the player's tray is still settling (the
        raw scan and the debounced frame differ there) is refused, so the choice read
        is the one the player made.  A refused press is a `reject` event.  ValueError for
        another button name."""
        if button not in BUTTONS:
            raise ValueError("unknown button %r (use roll or undo: A's and B's Ready)"
                             % (button,))
        side = BUTTONS[button]
        deb = self.debounce
        settling = tray_mask(deb.raw, side) != tray_mask(deb.settled, side)
        try:
            self.controller.press_ready(now_ms, side, long, settling)
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
        """The controller's state: "choose", "move" or "over"."""
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
        """False: no Samas piece waits in the air with targets lit."""
        return False

    def in_hand(self):
        """True while the board waits for the round's Sama-stone move and empty trays."""
        return self.controller.state == MOVE

    def still(self):
        """True when nothing may move now: the game is over."""
        return self.controller.state == OVER

    def thinking(self):
        """False: the Samas board plays no side."""
        return False
