"""The Samas board's game controller (docs/samas.md "On the board"): settled sensor
frames and the two Ready buttons turned into rounds of the rules (samas.rules), events
and the display model the scene is drawn from.

A round on the board:

  CHOOSE  Each player puts 0..3 stones into the stone holes of the tray behind the
          screen, or one joker into the joker hole, and presses Ready.  The board reads
          the tray at the press: stones and the joker together, more stones than the
          player holds, or a joker not held are refused (a `reject` event naming why;
          the choice itself is never named).  A change to a Ready player's tray takes
          the Ready back (`unready`).  The trays stay dark while the choices are secret.
          When both are Ready and the Sama-stones stand where they belong, the board
          reveals: the round is played under the rules (reveal, then the run-out) and
          its `round` event carries both choices and the state after.
  MOVE    The board lights both choices (each occupied tray hole), the hollow a moving
          Sama-stone leaves (dim) and the hollow it must go to (green); a stone on a
          hollow where none belongs is red, a hollow missing its stone white.  When the
          hollows hold the Sama-stones where the rules put them and both trays are
          empty (the revealed stones leave play), the round is over: the next CHOOSE,
          or the game's end.
  OVER    The winner's hollow and Ready LED are gold (both on a draw).  A long press
          of either Ready starts a new game.

The hollows sense whether a hollow holds a Sama-stone, not whose: the two stones on one
hollow read as one.  The board compares the hollows with the set of hollows the rules'
state puts a stone on, so a move off a shared hollow shows only where the stone lands.

Events are small dicts {"ev": NAME, "t": now_ms, ...}, pushed on the board's event
queue (boardcore.events.EventQueue): game_start (start: the state object), ready and
unready (p), reject (p, why), round (round, play, after: as the JSON lines of
docs/samas.md), cleared (round: its stones moved and trays emptied, the next round
may be chosen), game_over (result, how, final).  No event tells what lies in a tray
before the reveal.
"""

from samas.rules.game import Game
from samas.rules.rounds import SELECTIONS, JOKER, legal_selections
from samas.rules.state import START, PLAYERS
from samas.places import HOLLOW0, TRAY, TRAY_STONE_HOLES, JOKER_HOLE, READY_LED

CHOOSE = "choose"
MOVE = "move"
OVER = "over"

# Mark codes of the display model (one byte per LED, 80 LEDs).
NONE = 0
STONE = 1       # a Sama-stone where it belongs
ORIGIN = 2      # the hollow a moving Sama-stone leaves
TARGET = 3      # the hollow a moving Sama-stone must go to
MISSING = 4     # a Sama-stone belongs here
EXTRA = 5       # nothing belongs here
CHOICE = 6      # a revealed stone or joker in a tray: to be taken out
READY = 7       # the player's Ready LED: the choice is locked
WIN = 8         # the winner's hollow and Ready LED
N_MARKS = 9

N_LEDS = 80

NOT_A_CHOICE = -1   # tray_choice: stones and the joker together


class Refused(Exception):
    """A request the board cannot carry out now (its `reject` event is queued)."""


class View:
    """The display model: marks (bytearray(80): a mark code per LED) and lifted (always
    0: no piece of Samas waits in the air with targets; the scan loop reads it)."""

    def __init__(self):
        self.marks = bytearray(N_LEDS)
        self.lifted = 0


def tray_choice(frame, side):
    """The choice in player `side`'s tray (0 = A, 1 = B) in `frame` (bytearray(8)): the
    selection index (0..3 stones, samas.rules.rounds.JOKER) or NOT_A_CHOICE when the
    joker hole and a stone hole are both occupied."""
    n = 0
    p = TRAY[side]
    for i in range(TRAY_STONE_HOLES):
        n += (frame[(p + i) >> 3] >> ((p + i) & 7)) & 1
    j = JOKER_HOLE[side]
    if (frame[j >> 3] >> (j & 7)) & 1:
        return JOKER if n == 0 else NOT_A_CHOICE
    return n


def tray_mask(frame, side):
    """The occupied holes of player side's tray as a 4-bit mask (bit i: stone hole i + 1,
    bit 3: the joker hole)."""
    m = 0
    p = TRAY[side]
    for i in range(TRAY_STONE_HOLES):
        m |= ((frame[(p + i) >> 3] >> ((p + i) & 7)) & 1) << i
    j = JOKER_HOLE[side]
    return m | (((frame[j >> 3] >> (j & 7)) & 1) << 3)


def hollow_mask(frame):
    """The hollows holding a stone in `frame`, as a 9-bit mask (bit h - 1: hollow h)."""
    m = 0
    for h in range(9):
        q = HOLLOW0 + h
        m |= ((frame[q >> 3] >> (q & 7)) & 1) << h
    return m


def expected_hollows(state):
    """The hollows the rules' `state` puts a Sama-stone on, as a 9-bit mask."""
    return (1 << (state.hole[0] - 1)) | (1 << (state.hole[1] - 1))


def frame_of(state, trays=(0, 0)):
    """A frame (bytearray(8)) with the Sama-stones of `state` on their hollows and the
    tray holes of `trays` (A's and B's 4-bit masks, tray_mask) occupied: what the
    sensors read on a board set up so (tests, the simulated hands)."""
    f = bytearray(8)
    m = expected_hollows(state)
    for h in range(9):
        if m >> h & 1:
            q = HOLLOW0 + h
            f[q >> 3] |= 1 << (q & 7)
    for side in (0, 1):
        for i in range(4):
            if trays[side] >> i & 1:
                q = TRAY[side] + i if i < TRAY_STONE_HOLES else JOKER_HOLE[side]
                f[q >> 3] |= 1 << (q & 7)
    return f


def choice_holes(sel):
    """The tray mask (tray_mask) of selection index `sel`: that many stone holes from
    hole 1, or the joker hole."""
    return 8 if sel == JOKER else (1 << sel) - 1


class SamasController:
    """The Samas game on the board (module docstring).  events: an event queue with
    push(ev).  Attributes: game (samas.rules.game.Game), state (CHOOSE, MOVE or OVER),
    ready ([A's, B's] bool), play (the last round's selection indexes, or None),
    moved_from (hollow mask of the stones the last round moved, before it), view (View),
    version (bumped whenever the view changes)."""

    def __init__(self, events):
        self.events = events
        self.view = View()
        self.version = 0
        self._frame = None      # the last settled frame read (on_frame)
        self.new_game()

    def new_game(self, now_ms=0, state=START, frame=None):
        """Start a game from `state` (a samas.rules.state.State, default the start).
        `frame`: the settled frame now (None: the last one read, or before any the
        board as the state wants it).  Emits game_start."""
        self.game = Game(state)
        self.state = CHOOSE
        self.ready = [False, False]
        self.play = None
        self.moved_from = 0
        self._trays = [0, 0]
        self._choice = [0, 0]
        self._hollows = expected_hollows(state)
        if frame is None:
            frame = self._frame
        self._emit(now_ms, {"ev": "game_start", "game": "samas", "start": state.to_obj()})
        if self.game.over():
            self._end(now_ms)
        if frame is not None:
            self.on_frame(now_ms, frame)
        else:
            self._show()

    # -- inputs -------------------------------------------------------------------

    def on_frame(self, now_ms, frame):
        """The settled frame changed (bytearray(8)): the trays and hollows are read."""
        self._frame = frame
        self._hollows = hollow_mask(frame)
        for side in (0, 1):
            t = tray_mask(frame, side)
            if t != self._trays[side]:
                self._trays[side] = t
                if self.state == CHOOSE and self.ready[side]:
                    self.ready[side] = False
                    self._emit(now_ms, {"ev": "unready", "p": PLAYERS[side]})
        self._choice = [tray_choice(frame, 0), tray_choice(frame, 1)]
        if self.state == CHOOSE:
            self._try_reveal(now_ms)
        elif self.state == MOVE:
            self._try_finish(now_ms)
        self._show()

    def press_ready(self, now_ms, side, long=False, settling=False):
        """Player `side` (0 = A, 1 = B) pressed Ready (long: a long press).  In CHOOSE
        the tray's choice is locked (a `ready` event), and the round is revealed when
        both are Ready; pressed again, Ready stays.  In OVER a long press starts a new
        game.  Raises Refused (after a `reject` event) when the tray holds no choice
        the player may make, while it is `settling` (a stone put in or taken out that
        the debounce has not committed yet), or outside CHOOSE."""
        if self.state == OVER:
            if long:
                self.new_game(now_ms)
                return
            self._refuse(now_ms, side, "the game is over")
        if self.state != CHOOSE:
            self._refuse(now_ms, side, "the round is not cleared yet")
        if settling:
            self._refuse(now_ms, side, "the tray is not settled yet")
        sel = self._choice[side]
        if sel == NOT_A_CHOICE:
            self._refuse(now_ms, side, "stones and the joker together")
        if sel not in legal_selections(self.game.state, side):
            st = self.game.state
            if sel == JOKER:
                self._refuse(now_ms, side, "no joker left")
            n = st.stones[side]
            self._refuse(now_ms, side, "holds %d stone%s" % (n, "" if n == 1 else "s"))
        if not self.ready[side]:
            self.ready[side] = True
            self._emit(now_ms, {"ev": "ready", "p": PLAYERS[side]})
        self._try_reveal(now_ms)
        self._show()

    # -- the round ----------------------------------------------------------------

    def _try_reveal(self, now_ms):
        if not (self.ready[0] and self.ready[1]):
            return
        if self._hollows != expected_hollows(self.game.state):
            return          # the Sama-stones first where they belong
        sa = self._choice[0]
        sb = self._choice[1]
        before = self.game.state
        after = self.game.play(sa, sb)
        self.play = (sa, sb)
        self.moved_from = 0
        for p in (0, 1):
            if after.hole[p] != before.hole[p]:
                self.moved_from |= 1 << (before.hole[p] - 1)
        self.ready = [False, False]
        self.state = MOVE
        self._emit(now_ms, {"ev": "round", "round": self.game.rounds,
                            "play": {"A": SELECTIONS[sa], "B": SELECTIONS[sb]},
                            "after": after.to_obj()})
        self._try_finish(now_ms)

    def _try_finish(self, now_ms):
        if self._trays[0] or self._trays[1]:
            return
        if self._hollows != expected_hollows(self.game.state):
            return
        self.moved_from = 0
        if self.game.over():
            self._end(now_ms)
        else:
            self.state = CHOOSE
            self._emit(now_ms, {"ev": "cleared", "round": self.game.rounds})

    def _end(self, now_ms):
        g = self.game
        self.state = OVER
        self._emit(now_ms, {"ev": "game_over", "result": g.result, "how": g.how,
                            "final": g.state.to_obj()})

    # -- events and the view --------------------------------------------------------

    def _emit(self, now_ms, ev):
        ev["t"] = now_ms
        self.events.push(ev)

    def _refuse(self, now_ms, side, why):
        self._emit(now_ms, {"ev": "reject", "p": PLAYERS[side], "why": why})
        raise Refused(why)

    def _show(self):
        m = self.view.marks
        for i in range(N_LEDS):
            m[i] = NONE
        want = expected_hollows(self.game.state)
        have = self._hollows
        for h in range(9):
            bit = 1 << h
            q = HOLLOW0 + h
            if want & bit:
                if have & bit:
                    m[q] = STONE
                else:
                    m[q] = TARGET if self.state == MOVE else MISSING
            elif have & bit:
                m[q] = ORIGIN if self.moved_from & bit and self.state == MOVE else EXTRA
        if self.state == MOVE:
            for side in (0, 1):
                t = self._trays[side]
                for i in range(4):
                    if t >> i & 1:
                        m[TRAY[side] + i if i < TRAY_STONE_HOLES else JOKER_HOLE[side]] = \
                            CHOICE
        elif self.state == OVER:
            r = self.game.result
            for side in (0, 1):
                if r == PLAYERS[side] or r == "draw":
                    m[HOLLOW0 + self.game.state.hole[side] - 1] = WIN
                    m[READY_LED[side]] = WIN
        else:
            for side in (0, 1):
                if self.ready[side]:
                    m[READY_LED[side]] = READY
        self.version += 1

    def expected(self):
        """The frame the board should read now with every piece where it belongs (the
        Sama-stones on their hollows, the trays empty), bytearray(8)."""
        return frame_of(self.game.state)

    def in_hand(self):
        """True while the board waits for a Sama-stone's move or the trays' emptying."""
        return self.state == MOVE

