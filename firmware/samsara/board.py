"""The board core: debounce + controller + scene + power limiter + event queue in one
object, driven the same way by the Pico's main.py, the simulated board and trace replay
(docs/core-api.md).

    board = Board(Config())
    board.new_game()                       # the board is taken as settled in the start
    board.tick(now_ms, raw_frame)          # every scan period (Config.scan_ms)
    board.press(now_ms, "roll")            # buttons: "roll" / "undo", long=True
    board.limited_scene()                  # bytearray(240) for the LED driver
    ev = board.poll_event()                # event dicts, None when empty

A tick in which no raw bit changes and no settle time expires allocates nothing.
"""

from samsara.config import Config
from samsara.controller import Controller
from samsara.debounce import Debounce
from samsara.events import EventQueue
from samsara.frame import from_position
from samsara.power import PowerLimiter
from samsara.scene import Painter, SCENE_BYTES


class Board:
    """One board core.  Attributes: config, debounce (samsara.debounce.Debounce),
    controller (samsara.controller.Controller), events (samsara.events.EventQueue),
    limiter (samsara.power.PowerLimiter), scene (bytearray(240), logical LED order),
    scene_version (int, bumped whenever the scene changes), scene_sum (sum of the
    scene's channel values, kept up to date by the redraw; set it to -1 after writing
    the scene by hand)."""

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
        self._drawn = -1
        self._painter = Painter()
        self._full = True
        self.events.clear()
        self.new_game()

    def new_game(self, position=None, match=False, starter=0, now_ms=0, frame=None):
        """Start a single game (position: Position or position string, default the
        start with `starter` to move) or a two-game match (match=True).  starter: 0/'A'
        or 1/'B'.  The debounce takes `frame` (bytearray(8)) as the settled board, or
        when None the game's position (marbles and scoring pieces in place)."""
        if starter == "A":
            starter = 0
        elif starter == "B":
            starter = 1
        c = self.controller
        c.new_game(position, match, starter, now_ms)
        self._full = True
        if frame is None:
            frame = from_position(c.game.pos)
        self.debounce.reset(now_ms, frame)
        c.on_frame(now_ms, self.debounce.settled)
        self._redraw()

    def tick(self, now_ms, raw):
        """One scan: raw is the scanned bytearray(8) at now_ms (int ms, wrap-safe on
        2**30).  Debounces, feeds settled changes to the controller, redraws."""
        deb = self.debounce
        c = self.controller
        n = deb.step(now_ms, raw)
        if n:
            c.on_frame(now_ms, deb.settled, deb.changed, deb.last if n == 1 else -1)
        elif c.wait_settle and not deb.busy:
            # the turn completes in the first tick after its last change settled (not
            # in that change's own tick, which already carries its acceptance)
            c.on_settled(now_ms)
        if c.version != self._drawn:
            self._redraw()

    def press(self, now_ms, button, long=False):
        """A button press: 'roll' or 'undo'; long=True for a long press (manual dice)."""
        self.controller.press(now_ms, button, long, self.debounce.busy > 0)
        self._redraw()

    def set_dice(self, d1, d2):
        """Host-set dice: the values of the next roll.  ValueError unless 1..6."""
        self.controller.set_dice(d1, d2)

    def poll_event(self):
        """The oldest queued event dict, or None."""
        return self.events.poll()

    def limited_scene(self):
        """The scene after the power limiter (a bytearray(240) owned by the board,
        rewritten only when the scene changed)."""
        if self._limited_version != self.scene_version:
            self.limiter.limit(self.scene, self._limited, self.scene_sum)
            self._limited_version = self.scene_version
        return self._limited

    def next_due(self):
        """ms after the last tick until the board can change without a raw change: the
        debounce's next possible commit, or 0 when the turn completes at the next tick
        (both dice played, the board settled); -1 when nothing is pending.  Lets a
        virtual clock skip ticks in which nothing can change."""
        if self.controller.wait_settle and not self.debounce.busy:
            return 0
        return self.debounce.next_due()

    @property
    def state(self):
        """The controller's state name."""
        return self.controller.state

    def _redraw(self):
        c = self.controller
        if c.version != self._drawn:
            self._drawn = c.version
            d = self._painter.draw(self.scene, c.view, self._full)
            if d < 0:
                self.scene_sum = sum(self.scene)
            else:
                self.scene_sum += d
            self._full = False
            self.scene_version += 1
