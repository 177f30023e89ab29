"""The flight recorder: a fixed RAM ring of the board's raw input (docs/traces.md
"Flight recorder").  Its one job is to write the ring: the raw (undebounced) sensor
changes the scan sees, the button presses and, at every roll, a turn mark with the
dice and the position the turn starts from.  Reading, saving and converting the ring
is samsara.link.flightcmds (loaded on demand) and the host's samsara_host.flightpull.

Entries (little-endian dt = ms since the previous entry, 0..65535):

    code dt_lo dt_hi                    3 bytes
        code 0x00..0x7F  raw change: bits 0-5 the position index, bit 6 the new level
        code 0x80..0x83  a press: roll, undo, long roll, long undo
        code 0xFE        a time gap of dt ms (nothing happened)
    0xF0 dt_lo dt_hi dice src r0 r1 r2 s0 s1 s2 ab frame*8      20 bytes: a roll
        dice  d1 << 4 | d2;  src  dice source (0 electronic, 1 manual, 2 host) |
        mover << 2;  r, s  the two 24-bit lane masks (low byte first);  ab  score of
        A << 4 | score of B;  frame  the settled frame at the roll (docs/frames.md)
    0xFF  pad: the rest of the buffer is unused, the next entry is at offset 0

The oldest entries are overwritten whole; a `game_start` empties the ring.  Writing an
entry allocates nothing, and the functions of the scan path keep their call frames
within 11 machine words (docs/toolchain-notes.md), so no frame goes to the heap.
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(__x):
        return __x

from samsara.debounce import ticks_diff

RING_BYTES = const(768)
"""Bytes of the ring (docs/performance.md "Flight recorder"): two turns of the seeded
simulated games take 154 bytes (median, noise 1) and at most 454 (noise 3, rough
players, 10 seeds); 768 keeps the two longest whole with a margin of 1.7."""
MARK = const(0xF0)
MARK_BYTES = const(20)
GAP = const(0xFE)
PAD = const(0xFF)
PRESS = const(0x80)
_MAX_DT = const(0xFFFF)
_SRC = {"electronic": 0, "manual": 1, "host": 2}
REPAIR_SAVE_MS = const(5000)
"""A repair longer than this saves the ring (at the next quiet moment)."""
WHY_REPAIR = const(1)
WHY_REJECTS = const(2)
WHY_COMMAND = const(3)


class Flight:
    """The ring of one board (module docstring).  board: samsara.core.Board (its
    debounce's raw frame is the previous scan; its controller gives the position at a
    roll); health: samsara.health.Health or None (told of every raw change).

    Members: buf (the ring), head (next write), tail (oldest entry), empty, t (time of
    the newest entry, ms), due (WHY_* when the ring should be saved at the next quiet
    moment, else 0), snap (a snapshot being read by the host, or None)."""

    def __init__(self, board, health=None, size=RING_BYTES):
        self.buf = bytearray(size)
        self.size = size
        self.deb = board.debounce
        self.ctl = board.controller
        self.config = board.config
        self.health = health
        self.cur = None
        self.head = 0
        self.tail = 0
        self.empty = True
        self.t = 0
        self.due = 0
        self.snap = None
        self.rejects = 0       # placements rejected in a row
        self.t_repair = -1     # time the running repair began, or -1

    # -- the scan path (called by the main loop when the raw frame changed) -------------

    def changes(self, now, raw):
        """Record every bit of `raw` (bytearray(8)) that differs from the previous
        scan (the debounce's raw frame, before Board.tick) at `now` (ms)."""
        old = self.deb.raw
        self.cur = raw
        i = 0
        while i < 8:
            x = raw[i] ^ old[i]
            if x:
                self._byte(now, i, x)
            i += 1

    def _byte(self, now, i, x):
        # the changed bits x of byte i; i becomes the position index, rv its level
        rv = self.cur[i]
        i <<= 3
        while x:
            if x & 1:
                self._put(now, i | (rv & 1) << 6)
                if self.health is not None:
                    self.health.change(now, i, rv & 1)
            x >>= 1
            rv >>= 1
            i += 1

    def press(self, now, what, long=False):
        """Record a press of "roll" or "undo" (long: a long press) at `now` (ms)."""
        self._put(now, PRESS | (0 if what == "roll" else 1) | (2 if long else 0))

    def _put(self, now, code):
        # a 3-byte entry: code, ms since the previous entry (gap entries first)
        dt = ticks_diff(now, self.t)
        if dt < 0:
            dt = 0
        while dt > _MAX_DT:
            self._put3(GAP, _MAX_DT)
            dt -= _MAX_DT
        self.t = now
        self._put3(code, dt)

    def _put3(self, code, dt):
        h = self._room(3)
        b = self.buf
        b[h] = code
        b[h + 1] = dt & 0xFF
        b[h + 2] = dt >> 8
        self.head = h + 3

    def _room(self, n):
        # Make n bytes free at the head (wrapping with a pad, dropping the oldest
        # entries); returns the offset to write at.
        h = self.head
        if h + n > self.size:
            while not self.empty and self.tail >= h:
                self._drop()
            if h < self.size:
                self.buf[h] = PAD
            h = 0
            self.head = 0
        while not self.empty and h <= self.tail < h + n:
            self._drop()
        self.empty = False
        return h

    def _drop(self):
        # forget the oldest entry
        t = self.tail
        t += MARK_BYTES if self.buf[t] == MARK else 3
        if t != self.head and (t >= self.size or self.buf[t] == PAD):
            t = 0
        if t == self.head:
            self.empty = True
        self.tail = t

    # -- events (a sink of the main loop, like the game recorder) -----------------------

    def on_event(self, ev):
        """A board event: game_start empties the ring; roll writes a turn mark; a
        repair longer than REPAIR_SAVE_MS or a second rejected placement in a row asks
        for a save (due); the health counters get the repairs."""
        k = ev["ev"]
        if k == "roll":
            self._mark(ev)
        elif k == "game_start":
            self.clear(ev["t"])
        elif k == "reject":
            if ev["what"] == "place":
                self.rejects += 1
                if self.rejects >= 2 and not self.due:
                    self.due = WHY_REJECTS
        elif k == "sub":
            self.rejects = 0
        elif k == "repair":
            if self.t_repair < 0:
                self.t_repair = ev["t"]
            if self.health is not None:
                self.health.repair(ev)
        elif k == "repair_end":
            if self.t_repair >= 0 and ticks_diff(ev["t"], self.t_repair) > REPAIR_SAVE_MS \
                    and not self.due:
                self.due = WHY_REPAIR
            self.t_repair = -1
            if self.health is not None:
                self.health.repair(ev)

    def clear(self, now=0):
        """Empty the ring (a new game)."""
        self.head = 0
        self.tail = 0
        self.empty = True
        self.t = now
        self.rejects = 0

    def _mark(self, ev):
        now = ev["t"]
        dt = ticks_diff(now, self.t)
        if dt < 0:
            dt = 0
        while dt > _MAX_DT:
            self._put3(GAP, _MAX_DT)
            dt -= _MAX_DT
        self.t = now
        h = self._room(MARK_BYTES)
        b = self.buf
        d = ev["dice"]
        c = self.ctl
        pos = c.game.pos
        b[h] = MARK
        b[h + 1] = dt & 0xFF
        b[h + 2] = dt >> 8
        b[h + 3] = d[0] << 4 | d[1]
        b[h + 4] = _SRC.get(ev.get("source"), 0) | pos.mover << 2
        i = 0
        while i < 3:
            b[h + 5 + i] = (pos.r >> (8 * i)) & 0xFF
            b[h + 8 + i] = (pos.s >> (8 * i)) & 0xFF
            i += 1
        b[h + 11] = pos.a << 4 | pos.b
        st = self.deb.settled
        i = 0
        while i < 8:
            b[h + 12 + i] = st[i]
            i += 1
        self.head = h + MARK_BYTES

    def entries(self):
        """The ring's entries oldest first as one bytes object (pads left out); for the
        commands that read or save the ring (allocates)."""
        if self.empty:
            return b""
        b = self.buf
        t = self.tail
        h = self.head
        if t < h:
            return bytes(b[t:h])
        end = self.size
        i = t
        while i < end and b[i] != PAD:   # find the pad of the wrap
            i += MARK_BYTES if b[i] == MARK else 3
        return bytes(b[t:i]) + bytes(b[0:h])
