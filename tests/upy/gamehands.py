"""Simulated hands at a Samas or Schaska board core (samas.core.SamasBoard,
schaska.core.SchaskaBoard): they change the raw sensor frame, let the board scan it
every 5 ms on a virtual clock, and press its buttons.  Builtins only (MicroPython and
CPython).

    hands = Hands(board)
    hands.put(pos, True)          # a stone or figure put on sensor position pos ...
    hands.settle()                # ... and the board scanning long enough to settle it
    hands.press("roll")
    hands.events()                # the events the board queued since the last call
"""
from samas.controller import choice_holes
from samas.places import TRAY, TRAY_STONE_HOLES, JOKER_HOLE, hollow_pos

SCAN_MS = 5
SETTLE_MS = 200      # longer than the place settle (150 ms)


class Hands:
    """Hands and a clock at `board`; the raw frame starts as the board's settled one."""

    def __init__(self, board, t=0):
        self.board = board
        self.t = t
        self.raw = bytearray(board.debounce.settled)

    def scan(self, ms=SCAN_MS):
        """The board scans the raw frame for `ms` ms (one tick per SCAN_MS)."""
        end = self.t + ms
        while self.t < end:
            self.t += SCAN_MS
            self.board.tick(self.t, self.raw)

    def put(self, pos, on):
        """Sensor position pos reads occupied (on) or empty from now on."""
        if on:
            self.raw[pos >> 3] |= 1 << (pos & 7)
        else:
            self.raw[pos >> 3] &= ~(1 << (pos & 7)) & 0xFF

    def settle(self):
        self.scan(SETTLE_MS)

    def press(self, button, long=False):
        self.board.press(self.t, button, long)
        self.scan()

    def events(self):
        out = []
        while True:
            ev = self.board.poll_event()
            if ev is None:
                return out
            out.append(ev)


def samas_choose(hands, side, sel):
    """Player side puts selection index sel (0..3 stones, 4 the joker) into the tray,
    one piece at a time."""
    m = choice_holes(sel)
    for i in range(4):
        if m >> i & 1:
            hands.put(TRAY[side] + i if i < TRAY_STONE_HOLES else JOKER_HOLE[side], True)
            hands.settle()


def samas_empty_tray(hands, side):
    for i in range(TRAY_STONE_HOLES):
        hands.put(TRAY[side] + i, False)
    hands.put(JOKER_HOLE[side], False)
    hands.settle()


def samas_move_stones(hands, before, after):
    """The Sama-stones moved by hand from `before`'s hollows to `after`'s (states):
    each moving stone lifted (a hollow that the other stone shares stays occupied),
    then put on its new hollow."""
    at = [before.hole[0], before.hole[1]]
    for p in (0, 1):
        a = at[p]
        b = after.hole[p]
        if a == b:
            continue
        if a != at[1 - p]:
            hands.put(hollow_pos(a), False)
            hands.settle()
        at[p] = b
        hands.put(hollow_pos(b), True)
        hands.settle()


def samas_round(hands, sa, sb):
    """One whole round at a Samas board: both choose and press Ready, the stones move
    as revealed, both trays emptied.  Returns the events of the round."""
    board = hands.board
    before = board.controller.game.state
    samas_choose(hands, 0, sa)
    samas_choose(hands, 1, sb)
    hands.press("roll")
    hands.press("undo")
    after = board.controller.game.state
    samas_move_stones(hands, before, after)
    samas_empty_tray(hands, 0)
    samas_empty_tray(hands, 1)
    return hands.events()


def schaska_act(hands, n, action):
    """The action (frm, to) of schaska.rules.actions made by hand on a track of n
    fields: the figure lifted off field frm, then put on field to (an entering figure
    only put, a figure walking off the track only lifted)."""
    frm, to = action
    if 1 <= frm <= n:
        hands.put(frm - 1, False)
        hands.settle()
    if 1 <= to <= n:
        hands.put(to - 1, True)
        hands.settle()
    return hands.events()
