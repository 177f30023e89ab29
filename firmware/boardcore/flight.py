"""The flight recorder: a fixed RAM ring of the board's raw input and the sensor
health (docs/traces.md "Flight recorder", docs/debounce.md "Sensor health").  Its one
job is to record: the raw (undebounced) sensor changes the scan sees, the button
presses and the host's requests, at every roll a turn mark with the dice and the
position the turn starts from, and per position the bounces, strays and time in
repairs, and the self-test's watch.  Reading and saving the ring is
boardcore.flightsave; converting it the host's samsara_host.flightpull.

Entries (little-endian dt = ms since the previous entry, 0..65535):

    code dt_lo dt_hi                    3 bytes
        code 0x00..0x7F  raw change: bits 0-5 the position index, bit 6 the new level
        code 0x80..0x83  a press: roll, undo, long roll, long undo
        code 0x84        a hint asked by the host (the `hint` command)
        code 0xFE        a time gap of dt ms (nothing happened)
    0xF0 dt_lo dt_hi dice src r0 r1 r2 s0 s1 s2 ab frame*8      20 bytes: a roll
        dice  d1 << 4 | d2;  src  dice source (0 electronic, 1 manual, 2 host) |
        mover << 2;  r, s  the two 24-bit lane masks (low byte first);  ab  score of
        A << 4 | score of B;  frame  the settled frame at the roll (docs/frames.md)
    0xFF  pad: the rest of the buffer is unused, the next entry is at offset 0

The oldest entries are overwritten whole; a `game_start` empties the ring.  Writing an
entry allocates nothing: it is one call of boardcore.flight_viper.changes (viper machine
code on the Pico; boardcore.flight_py's bytecode gives the same bytes elsewhere), which
also counts the sensor health of every raw change (docs/debounce.md "Sensor health").

Everything it writes is one bytearray, Flight.mem (little-endian):

    0-1 head (next write)   2-3 tail (oldest entry)   4 empty (0/1)   5 the code of a
    single entry to write (a press, a turn mark; else 0)   6-7 size of the ring
    8-11 time of the newest entry (ms)   12-19, 20-27 the addresses of the debounce's
    raw and settled frames (boardcore.flight_viper.bind; low 32 bits first)
    28 + 2p    bounces of position p: raw changes that came back before the debounce
               committed them (reed chatter, a rocking marble, a slide over the hole)
    156 + 2p   strays of p: raw changes while no marble may move (waiting for the
               roll, turn complete): a knock, a flickering or failing sensor
               (both u16, stopping at 65535)
    284...     the ring (Flight.buf is a memoryview of it)

The recorder reads the board only through its public queries (samsara.core.Board):
frames() (the debounce's raw and settled frames, bound once), place_index(name) (the
position of a hole named in a `repair` event, the game's naming), still() (no marble may
move: a raw change then is a stray), game_position() (the position a roll is for, for
its turn mark), raw_age(p, now) and config.  It is a sink of the main loop's events and the
loop's hook for raw changes and inputs.
"""

from array import array

from boardcore.ticks import ticks_diff

try:
    from micropython import const
except ImportError:  # CPython
    def const(__x):
        return __x

try:
    from boardcore.flight_viper import changes as _changes, bind as _bind
except (ImportError, SyntaxError, NameError, AttributeError):
    # CPython (no `micropython`), or a VM without the viper emitter
    from boardcore.flight_py import changes as _changes, bind as _bind

RING_BYTES = const(768)
"""Bytes of the ring (docs/performance.md "Flight recorder"): two turns of the seeded
simulated games take 154 bytes (median, noise 1) and at most 454 (noise 3, rough
players, 10 seeds); 768 keeps the two longest whole with a margin of 1.7."""
MARK = const(0xF0)
MARK_BYTES = const(20)
GAP = const(0xFE)
PAD = const(0xFF)
PRESS = const(0x80)
HINT = const(0x84)
WHY_REPAIR = const(1)
WHY_REJECTS = const(2)
WHY_COMMAND = const(3)
REPAIR_SAVE_MS = 5000
"""A repair longer than this saves the ring (at the next quiet moment)."""
_RING = const(284)


class Flight:
    """The ring and the health counts of one board (module docstring).  board:
    samsara.core.Board (read through its public queries only).  size: bytes of the
    ring (at most 65535).

    Members: mem (the module docstring's layout), buf (the ring: a memoryview of mem),
    due (a WHY_* when the ring should be saved at the next quiet moment, else 0), snap
    (a snapshot being read by the host, or None), rejects (placements rejected in a
    row), rep_ms (array('i') of 64: ms in repairs per position), w (the self-test's
    watch: [position, on changes, off changes], or None), w_other (bytearray(8): the
    other positions that changed while watching)."""

    def __init__(self, board, size=RING_BYTES):
        m = bytearray(_RING + size)
        m[4] = 1
        m[6] = size & 0xFF
        m[7] = size >> 8
        self.mem = m
        self.buf = memoryview(m)[_RING:]
        self.board = board
        self.old, self.sett = board.frames()
        self.still = board.still
        self.place_index = board.place_index
        _bind(self)
        self.changes = self.changes   # bound once: the loop's call finds it at once
        self.config = board.config
        self.due = 0
        self.snap = None
        self.rejects = 0
        self.rep_ms = array("i", bytes(256))
        self.rep = bytearray(8)       # the running repair's positions
        self.t_rep = -1               # ... since then (ms), -1: none
        self.t_repair = -1            # the running repair's start (ms), -1: none
        self.w = None
        self.w_other = bytearray(8)

    # the scan path: called by the main loop when the raw frame changed
    changes = _changes
    """changes(now, raw): record every bit of `raw` (bytearray(8)) that differs from
    the previous scan (the debounce's raw frame, before Board.tick) at `now` (ms), and
    count its health."""

    def press(self, now, what, long=False):
        """Record a press of "roll" or "undo" (long: a long press), or the host's "hint",
        at `now` (ms)."""
        if what == "hint":
            self.mem[5] = HINT
        else:
            self.mem[5] = PRESS | (0 if what == "roll" else 1) | (2 if long else 0)
        _changes(self, now, None)

    def on_event(self, ev):
        """A board event (a sink of the main loop, like the game recorder): game_start
        empties the ring; roll writes a turn mark; a second rejected placement in a
        row asks for a save (due); repairs count their time per hole (a long one asks
        for a save)."""
        k = ev["ev"]
        if k == "roll":
            self._mark(ev)
        elif k == "game_start":
            self.clear(ev["t"])
        elif k == "sub":
            self.rejects = 0
        elif k == "reject":
            if ev["what"] == "place":
                self.rejects += 1
                if self.rejects >= 2 and not self.due:
                    self.due = WHY_REJECTS
        elif k == "repair" or k == "repair_end":
            self._repair(ev)

    def clear(self, now=0):
        """Empty the ring (a new game)."""
        m = self.mem
        i = 0
        while i < 4:
            m[i] = 0
            m[8 + i] = (now >> (8 * i)) & 0xFF
            i += 1
        m[4] = 1
        self.rejects = 0

    def _mark(self, ev):
        # the turn mark of a roll event
        self.mem[5] = MARK
        h = _changes(self, ev["t"], None)
        b = self.buf
        d = ev["dice"]
        src = ev.get("source")
        pos = self.board.game_position()
        b[h + 3] = d[0] << 4 | d[1]
        b[h + 4] = (1 if src == "manual" else 2 if src == "host" else 0) | pos.mover << 2
        i = 0
        while i < 3:
            b[h + 5 + i] = (pos.r >> (8 * i)) & 0xFF
            b[h + 8 + i] = (pos.s >> (8 * i)) & 0xFF
            i += 1
        b[h + 11] = pos.a << 4 | pos.b
        st = self.sett
        i = 0
        while i < 8:
            b[h + 12 + i] = st[i]
            i += 1

    # -- the health counts ----------------------------------------------------------

    def counts(self, p):
        """(bounces, strays) of position p."""
        m = self.mem
        return u16(m, 28 + 2 * p), u16(m, 156 + 2 * p)

    def _repair(self, ev):
        # A `repair` or `repair_end` event: a repair longer than REPAIR_SAVE_MS asks for
        # a save (due); the time of a repair goes to every position it named.
        t = ev["t"]
        if ev["ev"] == "repair":
            if self.t_repair < 0:
                self.t_repair = t
        else:
            if self.t_repair >= 0 and ticks_diff(t, self.t_repair) > REPAIR_SAVE_MS \
                    and not self.due:
                self.due = WHY_REPAIR
            self.t_repair = -1
        self._close_repair(t)
        if ev["ev"] == "repair":
            place_index = self.place_index
            for n in ev.get("missing", ()):
                p = place_index(n)
                self.rep[p >> 3] |= 1 << (p & 7)
            for n in ev.get("extra", ()):
                p = place_index(n)
                self.rep[p >> 3] |= 1 << (p & 7)
            self.t_rep = t

    def _close_repair(self, t):
        if self.t_rep < 0:
            return
        dt = ticks_diff(t, self.t_rep)
        for p in range(64):
            if (self.rep[p >> 3] >> (p & 7)) & 1:
                v = self.rep_ms[p] + dt
                self.rep_ms[p] = v if v < 0x3FFFFFFF else 0x3FFFFFFF
        for i in range(8):
            self.rep[i] = 0
        self.t_rep = -1

    def repair_now(self, p, now):
        """ms of position p in repairs so far, the running one counted up to `now`."""
        v = self.rep_ms[p]
        if self.t_rep >= 0 and (self.rep[p >> 3] >> (p & 7)) & 1:
            v += ticks_diff(now, self.t_rep)
        return v

    # -- the self-test's watch ------------------------------------------------------

    def start_watch(self, p):
        """The self-test lights position p: from now on the recorder counts what happens
        there (w = [p, on changes, off changes], chatter within the lift settle left
        out; w_other: the other positions that changed).  `changes` watches too until
        stop_watch."""
        watching = self.w is not None
        self.w = [p, 0, 0]
        self.w_other = bytearray(8)
        if not watching:
            def changes(now, raw):
                self._watch(now, raw)
                return _changes(self, now, raw)
            self.changes = changes

    def stop_watch(self):
        """End the self-test's watch: the recorder records as before."""
        if self.w is not None:
            del self.changes
            self.changes = self.changes      # bound once again
        self.w = None

    def _watch(self, now, raw):
        old = self.old
        w = self.w
        board = self.board
        for p in range(64):
            i = p >> 3
            if not ((raw[i] ^ old[i]) >> (p & 7)) & 1:
                continue
            if board.raw_age(p, now) < self.config.settle_lift_ms:
                continue                     # chatter of the change before
            if p != w[0]:
                self.w_other[i] |= 1 << (p & 7)
            elif (raw[i] >> (p & 7)) & 1:
                w[1] += 1
            else:
                w[2] += 1


def u16(m, o):
    """The little-endian u16 at offset o of bytearray m (Flight.mem)."""
    return m[o] | m[o + 1] << 8
