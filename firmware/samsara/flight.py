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
entry allocates nothing: it is one call of samsara.flight_viper.changes (viper machine
code on the Pico; samsara.flight_py's bytecode gives the same bytes elsewhere), which
also counts the sensor health of every raw change (docs/debounce.md "Sensor health").

Everything it writes is one bytearray, Flight.mem (little-endian):

    0-1 head (next write)   2-3 tail (oldest entry)   4 empty (0/1)   5 the code of a
    single entry to write (a press, a turn mark; else 0)   6-7 size of the ring
    8-11 time of the newest entry (ms)   12-19, 20-27 the addresses of the debounce's
    raw and settled frames (samsara.flight_viper.bind; low 32 bits first)
    28 + 2p    bounces of position p: raw changes that came back before the debounce
               committed them (reed chatter, a rocking marble, a slide over the hole)
    156 + 2p   strays of p: raw changes while no marble may move (waiting for the
               roll, turn complete): a knock, a flickering or failing sensor
               (both u16, stopping at 65535)
    284...     the ring (Flight.buf is a memoryview of it)

The rarely used rest is loaded on demand: the time in repairs per hole, the save
trigger of a repair and the self-test's watch (samsara.flighthealth), reading and
saving the ring (samsara.link.flightcmds), so little of the recorder stays on the heap (docs/performance.md).
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(__x):
        return __x

try:
    from samsara.flight_viper import changes as _changes, bind as _bind
except (ImportError, SyntaxError, NameError, AttributeError):
    # CPython (no `micropython`), or a VM without the viper emitter
    from samsara.flight_py import changes as _changes, bind as _bind

RING_BYTES = const(768)
"""Bytes of the ring (docs/performance.md "Flight recorder"): two turns of the seeded
simulated games take 154 bytes (median, noise 1) and at most 454 (noise 3, rough
players, 10 seeds); 768 keeps the two longest whole with a margin of 1.7."""
MARK = const(0xF0)
MARK_BYTES = const(20)
GAP = const(0xFE)
PAD = const(0xFF)
PRESS = const(0x80)
WHY_REJECTS = const(2)
_RING = const(284)


class Flight:
    """The ring and the health counts of one board (module docstring).  board:
    samsara.core.Board (its debounce's raw frame is the previous scan; its controller
    gives the position at a roll and the state for the strays).  size: bytes of the
    ring (at most 65535).

    Members: mem (the module docstring's layout), buf (the ring: a memoryview of mem),
    due (a WHY_* (samsara.flighthealth, samsara.link.flightcmds) when the ring should be saved at the next
    quiet moment, else 0), snap (a snapshot being read by the host, or None), rejects
    (placements rejected in a row)."""

    def __init__(self, board, size=RING_BYTES):
        m = bytearray(_RING + size)
        m[4] = 1
        m[6] = size & 0xFF
        m[7] = size >> 8
        self.mem = m
        self.buf = memoryview(m)[_RING:]
        deb = board.debounce
        self.deb = deb
        self.old = deb.raw
        self.sett = deb.settled
        _bind(self)
        self.changes = self.changes   # bound once: the loop's call finds it at once
        self.ctl = board.controller
        self.config = board.config
        self.due = 0
        self.snap = None
        self.rejects = 0

    # the scan path: called by the main loop when the raw frame changed
    changes = _changes
    """changes(now, raw): record every bit of `raw` (bytearray(8)) that differs from
    the previous scan (the debounce's raw frame, before Board.tick) at `now` (ms), and
    count its health."""

    def press(self, now, what, long=False):
        """Record a press of "roll" or "undo" (long: a long press) at `now` (ms)."""
        self.mem[5] = PRESS | (0 if what == "roll" else 1) | (2 if long else 0)
        _changes(self, now, None)

    def on_event(self, ev):
        """A board event (a sink of the main loop, like the game recorder): game_start
        empties the ring; roll writes a turn mark; a second rejected placement in a
        row asks for a save (due); repairs go to samsara.flighthealth.repair (their
        time per hole, a save after a long one)."""
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
            from samsara.flighthealth import repair
            repair(self, ev)

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
        pos = self.ctl.game.pos
        b[h + 3] = d[0] << 4 | d[1]
        b[h + 4] = (1 if src == "manual" else 2 if src == "host" else 0) | pos.mover << 2
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
