"""The game board core that the other games' boards subclass (docs/architecture.md
"firmware/gameboard/", docs/core-api.md): the shared debounce (boardcore.debounce), the
game's controller, a scene painter over the controller's marks, the shared power limiter
(boardcore.power) and event queue (boardcore.events) in one object, driven as Samsara's
board core is:

    board = SamasBoard()                   # a subclass of GameBoard
    board.tick(now_ms, raw_frame)          # every scan period: bytearray(8)
    board.press(now_ms, "roll")            # the driver's buttons (the game's BUTTONS)
    board.limited_scene()                  # bytearray(3 * N_LEDS) for the LED driver
    ev = board.poll_event()                # event dicts, None when empty

It has the queries the scan loop (mainloop.Loop) reads of a board (frames, quiet_ms,
lifted, in_hand, mid_move, at_rest, thinking, still, state, scene_version, foresaw,
the pacing) and what the host link reads (place_name, place_index, HOST_COMMANDS:
gameboard.commands, new_game with the players' names; none of Samsara's other game
commands), so the same loop and link serve every game.  A tick with
no raw change allocates nothing.

A game's board sets the class attributes GAME (its name), N_LEDS, COLOURS (R, G, B
bytes per mark code of its controller), BUTTONS (button name -> side), BUTTON_HELP (the
names a ValueError suggests), REFUSED (its controller's Refused), and defines
new_game() (ending in start()) and on_press(); lifted() and in_hand() where the game
has a piece in the air or a move to wait for; place_name() and place_index() for its
sensed places' names.
"""

from boardcore.debounce import Debounce
from boardcore.events import EventQueue
from boardcore.pacing import Pacing
from boardcore.power import PowerLimiter
from boardcore.settings import Settings
from boardcore.ticks import ticks_diff
from gameboard.commands import HANDLERS


MAX_NAME = 40
"""The longest player's name (characters), as the host's tags take it."""


class GameBoard:
    """One game's board core (module docstring) over a controller built by
    `make_controller(events)` (events: the board's EventQueue; the controller has
    version, state, view.marks (bytearray(N_LEDS) of mark codes), new_game, on_frame
    and expected()).  config: Settings (None: the defaults).  Attributes: config,
    debounce, controller, events, limiter, pacing (nothing deferred), scene
    (bytearray(3 * N_LEDS)), scene_version, drawn.  The subclass starts its first game;
    a board just built has started no game of its own (its events are cleared)."""

    GAME = ""
    N_LEDS = 80
    COLOURS = b""
    BUTTONS = {}
    BUTTON_HELP = "roll or undo"
    REFUSED = Exception
    HOST_COMMANDS = HANDLERS
    players = None
    """The players' names, [A's, B's] ("" for one not given), or None: carried by every
    game_start event from now on (its "players"), and so into the game's log header
    (gameboard.logbook), until set_players changes them."""

    def __init__(self, make_controller, config=None):
        if config is None:
            config = Settings()
        self.config = config
        self.pacing = Pacing()
        self.events = EventQueue(config.event_capacity)
        self.debounce = Debounce(config.settle_lift_ms, config.settle_place_ms,
                                 config.return_ms)
        self.limiter = PowerLimiter(config.budget_ma)
        self.scene = bytearray(3 * self.N_LEDS)
        self._limited = bytearray(3 * self.N_LEDS)
        self._limited_version = -1
        self.scene_version = 0
        self.drawn = -1
        self.foresaw = False    # (the scan loop reads it: this board works out no lift's
                                # targets ahead of its commit)
        self.controller = make_controller(self.events)

    def start(self, now_ms, frame):
        """The end of a subclass's new_game, after its controller's new_game: the
        debounce takes `frame` (bytearray(8)) as settled, or when None the board as the
        controller expects it (controller.expected()); the controller reads it; the
        scene is drawn."""
        c = self.controller
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

    def press(self, now_ms, button, long=False, start=None):
        """A button press (one of BUTTONS; long: a long press), handed to on_press with
        the button's side.  A press the controller refuses (REFUSED) is its `reject`
        event.  ValueError for another button name.  (start: the scan loop's way to
        start a game against the board, Samsara's gesture; unused here.)"""
        if button not in self.BUTTONS:
            raise ValueError("unknown button %r (use %s)" % (button, self.BUTTON_HELP))
        try:
            self.on_press(now_ms, self.BUTTONS[button], long)
        except self.REFUSED:
            pass
        finally:
            if self.controller.version != self.drawn:
                self.redraw()

    def on_press(self, now_ms, side, long):
        """The game's answer to a press of `side`'s button (0: A, 1: B); raises REFUSED
        when refused.  A subclass defines it."""
        raise NotImplementedError

    def restart(self, now_ms):
        """A new game from the start, as the long press after a game's end starts one
        (the debounce keeps what the sensors read: the board shows what to put right).
        Emits game_start.  A subclass defines it."""
        raise NotImplementedError

    def set_players(self, names):
        """Name the players of the games this board starts from now on: names a list or
        tuple of two strings (A's, B's; "" for one not given, at most MAX_NAME
        characters each, no control characters) or None (no names).  ValueError
        otherwise; the names before stay."""
        if names is None:
            self.players = None
            return
        if not isinstance(names, (list, tuple)) or len(names) != 2:
            raise ValueError("the players' names are two: A's and B's")
        for n in names:
            if not isinstance(n, str) or len(n) > MAX_NAME:
                raise ValueError("a player's name is a text of at most %d characters"
                                 % MAX_NAME)
            for ch in n:
                if ord(ch) < 32 or ord(ch) == 127:
                    raise ValueError("a player's name has no control characters")
        self.players = [names[0], names[1]] if names[0] or names[1] else None

    def poll_event(self):
        """The oldest queued event dict, or None.  The scan loop is its only caller.  A
        game_start event gets the players' names ("players") when the board has them."""
        ev = self.events.poll()
        if ev is not None and self.players is not None and ev.get("ev") == "game_start":
            ev["players"] = list(self.players)
        return ev

    def emit(self, ev):
        """Queue an event dict from outside the core (so it takes the one path)."""
        self.events.push(ev)

    def redraw(self):
        """Draw the scene from the controller's display model if it changed: each LED
        the COLOURS of its mark code."""
        c = self.controller
        if c.version == self.drawn:
            return
        self.drawn = c.version
        marks = c.view.marks
        scene = self.scene
        colours = self.COLOURS
        for i in range(self.N_LEDS):
            k = 3 * marks[i]
            scene[3 * i] = colours[k]
            scene[3 * i + 1] = colours[k + 1]
            scene[3 * i + 2] = colours[k + 2]
        self.scene_version += 1

    def limited_scene(self):
        """The scene after the power limiter (a bytearray(3 * N_LEDS) owned by the
        board)."""
        if self._limited_version != self.scene_version:
            self.limiter.limit(self.scene, self._limited)
            self._limited_version = self.scene_version
        return self._limited

    # -- the queries the scan loop reads -------------------------------------------

    @property
    def state(self):
        """The controller's state (a str of the game's controller)."""
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
        """True while a piece waits in the air with targets lit; False here."""
        return False

    def in_hand(self):
        """True while the board waits for a move in hand; False here."""
        return False

    def mid_move(self):
        """True while a piece is in the air in the middle of a move the log write should
        wait for; False here."""
        return False

    def at_rest(self):
        """True when nobody waits for an answer (the log's waiting records are written
        at once); False here: they wait for the scan loop's WRITE_MS of stillness."""
        return False

    def place_name(self, p):
        """The name of sensor position p (0..63): "P0".."P63" here; a game's board
        names its places.  ValueError outside 0..63."""
        if not 0 <= p < 64:
            raise ValueError("position %r is not 0..63" % (p,))
        return "P%d" % p

    def place_index(self, name):
        """The sensor position of a place's name (place_name's inverse); ValueError for
        another name."""
        for p in range(64):
            if self.place_name(p) == name:
                return p
        raise ValueError("%r is not a place of this board" % (name,))

    def still(self):
        """True when nothing may move now: the game is over (the controller's state
        is "over")."""
        return self.controller.state == "over"

    def thinking(self):
        """False: a game board plays no side."""
        return False
