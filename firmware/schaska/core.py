"""The Schaska board core: the shared game board core (gameboard.core.GameBoard: the
debounce, scene painter, power limiter and event queue, and the scan loop's queries)
with the Schaska controller (schaska.controller), its colours and its buttons
(docs/schaska.md "On the board", docs/core-api.md):

    board = SchaskaBoard(layout)           # layout: schaska.rules.layout tuple
    board.tick(now_ms, raw_frame)          # every scan period: bytearray(8)
    board.press(now_ms, "roll", long=True) # a long press after the game: a new game
    board.limited_scene()                  # bytearray(240) for the LED driver
    ev = board.poll_event()                # event dicts, None when empty

A tick with no raw change allocates nothing.
"""

from gameboard.core import GameBoard
from schaska import places
from schaska.controller import SchaskaController, Refused, N_LEDS
from schaska.rules.layout import DEFAULT

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


class SchaskaBoard(GameBoard):
    """One Schaska board core (module docstring; gameboard.core.GameBoard) on `layout`
    (default: the default layout).  Attributes: config, debounce, controller
    (schaska.controller.SchaskaController), events, limiter, pacing (nothing deferred),
    scene (bytearray(240)), scene_version, drawn.  config: Settings (None: the
    defaults)."""

    GAME = "schaska"
    N_LEDS = N_LEDS
    COLOURS = COLOURS
    BUTTONS = BUTTONS
    REFUSED = Refused

    def __init__(self, layout=DEFAULT, config=None):
        GameBoard.__init__(self, SchaskaController, config)
        self.new_game(layout=layout)
        self.events.clear()     # a board just built has started no game of its own

    def new_game(self, now_ms=0, layout=DEFAULT, state=None, frame=None):
        """Start a game on `layout` from `state` (schaska.rules.state.State, None: the
        start).  The debounce takes `frame` (bytearray(8)) as settled, or when None the
        board as the state wants it.  ValueError as SchaskaController.new_game."""
        self.controller.new_game(now_ms, layout, state)
        self.start(now_ms, frame)

    def restart(self, now_ms):
        """A new game from the start on the same layout (GameBoard.restart), as a long
        press after the game's end starts it."""
        self.controller.new_game(now_ms, self.controller.game.layout)
        self.redraw()

    def on_press(self, now_ms, side, long):
        """A press of `side`'s button ("roll" or "undo"; long: a long press): a long
        press after the game starts a new one; any other press raises Refused (after a
        `reject` event)."""
        self.controller.press(now_ms, side, long)

    def lifted(self):
        """True while a figure of the mover is in the air (its landing field lit)."""
        return bool(self.controller.view.lifted)

    def in_hand(self):
        """True while a figure of the mover is in the air."""
        return bool(self.controller.view.lifted)

    def place_name(self, p):
        """The name of sensor position p: "F1".."F30", field p + 1 (schaska.places);
        ValueError for a position the Schaska board does not use."""
        return "F%d" % (places.field_pos(p + 1) + 1)

    def place_index(self, name):
        """The sensor position of a field's name ("F1".."F30"); ValueError for another
        name."""
        if name[:1] == "F" and name[1:].isdigit():
            return places.field_pos(int(name[1:]))
        raise ValueError("%r is not a field of the Schaska board (F1..F%d)"
                         % (name, places.MAX_FIELDS))
