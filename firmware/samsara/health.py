"""Sensor health per hole since boot (docs/debounce.md "Sensor health").  Its one job is
to count, in small preallocated arrays, what each of the 64 positions did:

    bounces[p]    raw changes that came back before the debounce committed them (reed
                  chatter, a rocking marble, a slide over the hole)
    strays[p]     raw changes while no marble may move (waiting for the roll, turn
                  complete): a knock, a flickering or failing sensor
    repair_ms[p]  ms spent in repairs that named p (missing or extra)

and, during the guided self-test, what the lit hole and the others saw.  Fed by the
flight recorder (samsara.flight) on every raw change and by the board's repair events;
read by samsara.link.flightcmds (`health`, `self_test`).  Counting allocates nothing.
"""

from array import array

from samsara.debounce import ticks_diff
from samsara.states import WAITING, TURN_COMPLETE

_MAX = 0xFFFF


class Health:
    """The counters of one board (module docstring).  board: samsara.core.Board.
    watch: the position the self-test lights (-1: none); w_on, w_off: its on / off
    changes (chatter within the lift settle left out); w_other: bytearray(8) of the
    other positions that changed meanwhile."""

    def __init__(self, board):
        self.deb = board.debounce
        self.ctl = board.controller
        self.bounces = array("H", bytes(128))
        self.strays = array("H", bytes(128))
        self.repair_ms = [0] * 64
        self.rep = bytearray(8)   # positions named by the running repair
        self.t_rep = -1
        self.watch = -1
        self.w_on = 0
        self.w_off = 0
        self.w_other = bytearray(8)

    def change(self, now, p, on):
        """Position p's raw value became `on` (0/1) at `now` (ms), seen before the
        board's tick of that scan."""
        deb = self.deb
        if ((deb.settled[p >> 3] >> (p & 7)) & 1) == on and self.bounces[p] < _MAX:
            self.bounces[p] += 1       # back to the settled value: never committed
        st = self.ctl.state
        if (st == WAITING or st == TURN_COMPLETE) and self.strays[p] < _MAX:
            self.strays[p] += 1
        if self.watch >= 0:
            self._watch(now, p, on)

    def _watch(self, now, p, on):
        if ticks_diff(now, self.deb.t_raw[p]) < self.deb.settle_lift:
            return                     # chatter of the change before
        if p != self.watch:
            self.w_other[p >> 3] |= 1 << (p & 7)
        elif on:
            self.w_on += 1
        else:
            self.w_off += 1

    def start_watch(self, p):
        """The self-test lights position p: count what happens from now on."""
        self.watch = p
        self.w_on = 0
        self.w_off = 0
        i = 0
        while i < 8:
            self.w_other[i] = 0
            i += 1

    def repair(self, ev):
        """A `repair` or `repair_end` event: the time of a repair goes to every
        position it named (missing or extra)."""
        from samsara.rules.geometry import position_index
        t = ev["t"]
        self._close(t)
        if ev["ev"] == "repair":
            for n in ev.get("missing", ()):
                p = position_index(n)
                self.rep[p >> 3] |= 1 << (p & 7)
            for n in ev.get("extra", ()):
                p = position_index(n)
                self.rep[p >> 3] |= 1 << (p & 7)
            self.t_rep = t

    def _close(self, t):
        if self.t_rep < 0:
            return
        dt = ticks_diff(t, self.t_rep)
        p = 0
        while p < 64:
            if (self.rep[p >> 3] >> (p & 7)) & 1:
                v = self.repair_ms[p] + dt
                self.repair_ms[p] = v if v < 0x3FFFFFFF else 0x3FFFFFFF
            p += 1
        i = 0
        while i < 8:
            self.rep[i] = 0
            i += 1
        self.t_rep = -1

    def repair_now(self, p, now):
        """ms of position p in repairs so far, the running one counted up to `now`."""
        v = self.repair_ms[p]
        if self.t_rep >= 0 and (self.rep[p >> 3] >> (p & 7)) & 1:
            v += ticks_diff(now, self.t_rep)
        return v
