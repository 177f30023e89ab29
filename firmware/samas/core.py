"""The Samas board core: the shared game board core (gameboard.core.GameBoard: the
debounce, scene painter, power limiter and event queue, and the scan loop's queries)
with the Samas controller (samas.controller), its colours and its Ready buttons
(docs/samas.md "On the board", docs/core-api.md):

    board = SamasBoard()
    board.tick(now_ms, raw_frame)          # every scan period: bytearray(8)
    board.press(now_ms, "roll")            # the driver's buttons: roll = A's Ready,
                                           # undo = B's Ready (also "ready_a", "ready_b")
    board.limited_scene()                  # bytearray(240) for the LED driver
    ev = board.poll_event()                # event dicts, None when empty

A tick with no raw change allocates nothing.
"""

from gameboard.core import GameBoard
from samas import places
from samas.controller import SamasController, Refused, N_LEDS, MOVE, tray_mask
from samas.rules.state import START

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


class SamasBoard(GameBoard):
    """One Samas board core (module docstring; gameboard.core.GameBoard).  Attributes:
    config, debounce, controller (samas.controller.SamasController), events, limiter,
    pacing (nothing deferred), scene (bytearray(240)), scene_version, drawn.  config:
    Settings (None: the defaults)."""

    GAME = "samas"
    N_LEDS = N_LEDS
    COLOURS = COLOURS
    BUTTONS = BUTTONS
    BUTTON_HELP = "roll or undo: A's and B's Ready"
    REFUSED = Refused

    def __init__(self, config=None):
        GameBoard.__init__(self, SamasController, config)
        self.new_game()
        self.events.clear()     # a board just built has started no game of its own

    def new_game(self, now_ms=0, state=START, frame=None):
        """Start a game from `state` (samas.rules.state.State).  The debounce takes
        `frame` (bytearray(8)) as settled, or when None the board as the state wants it
        (the Sama-stones on their hollows, the trays empty)."""
        self.controller.new_game(now_ms, state)
        self.start(now_ms, frame)

    def restart(self, now_ms):
        """A new game from the start (GameBoard.restart): the controller's, as a long
        Ready press after the game's end starts it."""
        self.controller.new_game(now_ms)
        self.redraw()

    def on_press(self, now_ms, side, long):
        """A press of `side`'s Ready ("roll"/"ready_a": A's, "undo"/"ready_b": B's; long:
        a long press).  A press while the player's tray is still settling (the raw scan
        and the debounced frame differ there) is refused, so the choice read is the one
        the player made.  Raises Refused (after a `reject` event) when refused."""
        deb = self.debounce
        settling = tray_mask(deb.raw, side) != tray_mask(deb.settled, side)
        self.controller.press_ready(now_ms, side, long, settling)

    def in_hand(self):
        """True while the board waits for the round's Sama-stone move and empty trays."""
        return self.controller.state == MOVE

    def place_name(self, p):
        """The name of sensor position p: "H1".."H9", "A1".."A3", "AJ", "B1".."B3", "BJ"
        (samas.places); ValueError for a position the Samas board does not use."""
        return places.place_name(p)

    def place_index(self, name):
        """The sensor position of a place's name (samas.places.place_index); ValueError
        for another name."""
        return places.place_index(name)
