"""The Schaska board's game controller (docs/schaska.md "On the board"): settled sensor
frames turned into turns of the rules (schaska.rules), events and the display model the
scene is drawn from.

The fields are sensed, the start areas are not (schaska.places).  In a turn the board
compares the fields that hold a figure with what each legal action of the player to
move would leave:

  - the same as before: nothing has happened; the mover's movable figures and, when
    entering is legal, the first field glow in the mover's colour;
  - what one legal action leaves: that action is taken (a `turn` event, as the JSON
    lines of docs/schaska.md).  An entering figure appears on the first field; a figure
    that walks home or back to its start is simply taken off the track, and its lift
    alone is the whole action;
  - one of the mover's movable figures lifted: its landing field is green, its own
    field dim white (put back, nothing happened);
  - anything else: a figure on a field where none belongs is red, a field missing its
    figure white, until the board is put right.

Each figure has one move (the value of its field decides it), so no two actions leave
the same fields.  The game ends as the rules end it (all figures home, a block, the
turn limit): the winner's turn LED and figures are gold (both on a draw).  The buttons
take no part in a turn; a long press of either starts a new game once it is over.

Events ({"ev": NAME, "t": now_ms, ...}): game_start (game, layout, start), turn (turn,
player, move, after), game_over (result, by, final), reject (why).
"""

from schaska.rules.game import Game
from schaska.rules.actions import action_obj, start_of
from schaska.rules.layout import DEFAULT
from schaska.rules.state import PLAYERS
from schaska.places import MAX_FIELDS, TURN_LED

PLAY = "play"
OVER = "over"

# Mark codes of the display model (one byte per LED, 80 LEDs).
NONE = 0
FIGURE = 1      # a figure where it belongs
MOVABLE = 2     # a figure of the mover that may move
ENTER = 3       # the mover's first field, where a figure may enter
ORIGIN = 4      # the field of the lifted figure
TARGET = 5      # where the lifted figure lands
MISSING = 6     # a figure belongs here
EXTRA = 7       # no figure belongs here
TURN_A = 8      # A's turn LED
TURN_B = 9      # B's turn LED
WIN = 10        # the winner's turn LED and figures
N_MARKS = 11

N_LEDS = 80


class Refused(Exception):
    """A request the board cannot carry out now (its `reject` event is queued)."""


class View:
    """The display model: marks (bytearray(80): a mark code per LED) and lifted (the
    field of the mover's lifted figure, 0 when none)."""

    def __init__(self):
        self.marks = bytearray(N_LEDS)
        self.lifted = 0


def field_mask(frame, n):
    """The fields 1..n holding a figure in `frame` (bytearray(8)), as a mask (bit f - 1:
    field f; n <= 30, so a small int on the Pico)."""
    m = 0
    for q in range(n):
        m |= ((frame[q >> 3] >> (q & 7)) & 1) << q
    return m


def state_mask(state):
    """The fields the rules' `state` puts a figure on, as a mask (bit f - 1: field f)."""
    m = 0
    c = state.cells
    for f in range(1, state.n + 1):
        if c[f]:
            m |= 1 << (f - 1)
    return m


def after_mask(mask, n, action):
    """The field mask after `action` ((frm, to), schaska.rules.actions) from `mask`."""
    frm, to = action
    if 1 <= frm <= n:
        mask &= ~(1 << (frm - 1))
    if 1 <= to <= n:
        mask |= 1 << (to - 1)
    return mask


def frame_of(mask):
    """A frame (bytearray(8)) with the fields of field mask `mask` occupied: what the
    sensors read (tests, the simulated hands)."""
    f = bytearray(8)
    q = 0
    while mask:
        if mask & 1:
            f[q >> 3] |= 1 << (q & 7)
        mask >>= 1
        q += 1
    return f


class SchaskaController:
    """The Schaska game on the board (module docstring).  events: an event queue with
    push(ev).  Attributes: game (schaska.rules.game.Game), state (PLAY or OVER), view
    (View), version (bumped whenever the view changes)."""

    def __init__(self, events):
        self.events = events
        self.view = View()
        self.version = 0
        self._frame = None      # the last settled frame read (on_frame)
        self.new_game()

    def new_game(self, now_ms=0, layout=DEFAULT, state=None, frame=None):
        """Start a game on `layout` (a checked layout tuple, schaska.rules.layout) from
        `state` (None: every figure at its start, A to move).  `frame`: the settled
        frame now (None: the last one read, or before any the board as the state wants
        it).  ValueError when the track
        is longer than the board's MAX_FIELDS or the state's track differs from the
        layout.  Emits game_start."""
        if len(layout) > MAX_FIELDS:
            raise ValueError("the board senses %d fields, the layout has %d"
                             % (MAX_FIELDS, len(layout)))
        self.game = Game(layout, state)
        self.state = PLAY
        self._have = state_mask(self.game.state)
        s = self.game.state
        self._emit(now_ms, {"ev": "game_start", "game": "schaska", "layout": list(layout),
                            "start": s.to_obj()})
        if self.game.over():
            self._end(now_ms)
        if frame is None:
            frame = self._frame
        if frame is not None:
            self.on_frame(now_ms, frame)
        else:
            self._show()

    def on_frame(self, now_ms, frame):
        """The settled frame changed (bytearray(8)): a legal action it shows is taken."""
        self._frame = frame
        g = self.game
        self._have = field_mask(frame, g.state.n)
        if self.state == PLAY:
            want = state_mask(g.state)
            if self._have != want:
                n = g.state.n
                for a in g.legal():
                    if after_mask(want, n, a) == self._have:
                        self._take(now_ms, a)
                        break
        self._show()

    def press(self, now_ms, side, long=False):
        """A button (side 0 or 1; long: a long press): a long press once the game is
        over starts a new game on the same layout.  Raises Refused (after a `reject`
        event) otherwise: the buttons take no part in a turn."""
        if self.state == OVER and long:
            self.new_game(now_ms, self.game.layout)
            return
        self._emit(now_ms, {"ev": "reject", "why": "the buttons take no part in a turn"})
        raise Refused("the buttons take no part in a turn")

    def _take(self, now_ms, action):
        g = self.game
        mover = g.state.mover
        move = action_obj(g.state, action)
        after = g.play(action)
        self._emit(now_ms, {"ev": "turn", "turn": g.turns, "player": PLAYERS[mover],
                            "move": move, "after": after.to_obj()})
        if g.over():
            self._end(now_ms)

    def _end(self, now_ms):
        g = self.game
        self.state = OVER
        self._emit(now_ms, {"ev": "game_over", "result": g.result, "by": g.by,
                            "final": g.state.to_obj()})

    def _emit(self, now_ms, ev):
        ev["t"] = now_ms
        self.events.push(ev)

    def _show(self):
        g = self.game
        s = g.state
        n = s.n
        m = self.view.marks
        for i in range(N_LEDS):
            m[i] = NONE
        want = state_mask(s)
        have = self._have
        lifted = 0
        moves = {}
        if self.state == PLAY:
            for a in g.legal():
                moves[a[0]] = a[1]
            gone = want & ~have
            if not have & ~want and gone and not gone & (gone - 1):
                f = 1
                while not gone >> (f - 1) & 1:
                    f += 1
                if f in moves and 1 <= moves[f] <= n:
                    lifted = f
        self.view.lifted = lifted
        for f in range(1, n + 1):
            bit = 1 << (f - 1)
            q = f - 1
            if f == lifted:
                m[q] = ORIGIN
            elif want & bit:
                if not have & bit:
                    m[q] = MISSING
                elif self.state == OVER:
                    r = g.result
                    o = s.cells[f] - 1
                    m[q] = WIN if r == "draw" or r == PLAYERS[o] else FIGURE
                else:
                    m[q] = MOVABLE if f in moves and not lifted else FIGURE
            elif have & bit:
                m[q] = EXTRA
        if lifted:
            t = moves[lifted]
            if not have >> (t - 1) & 1:
                m[t - 1] = TARGET
        elif self.state == PLAY and want == have:
            if start_of(n, s.mover) in moves:
                m[(1 if s.mover == 0 else n) - 1] = ENTER
        if self.state == OVER:
            for p in (0, 1):
                if g.result == "draw" or g.result == PLAYERS[p]:
                    m[TURN_LED[p]] = WIN
        else:
            m[TURN_LED[s.mover]] = TURN_A if s.mover == 0 else TURN_B
        self.version += 1

    def expected(self):
        """The frame the board should read now (the figures on their fields)."""
        return frame_of(state_mask(self.game.state))
