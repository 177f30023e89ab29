"""Feed a `samsara.core.Board` from timed inputs on a virtual clock, the way the Pico's
main loop feeds it from its scanner and buttons (docs/simulator.md, docs/traces.md).

The scan loop runs at the board's scan period: ticks happen at t = k * scan_ms.  An
input with time t (a raw sensor change, a dice line, a button press) belongs to the
first tick at or after t.  At that tick the driver

1. applies, in time order (equal times in arrival order), every raw change and dice
   line up to t to the raw frame / the board (`set_dice`), collecting the presses;
2. calls ``board.tick(t, frame)``;
3. calls ``board.press(t, name, long)`` for each collected press;
4. drains ``board.poll_event()`` into `events` as ``(t, event)``.

A tick "in which nothing can change" is skipped: the raw frame is unchanged since the
last tick, no input is due, and the board's debounce has nothing that could commit
(``board.next_due()`` says when the earliest pending position can commit; the
controller's only timed step, completing a turn once the board has settled, happens in
the tick after the debounce empties, which ``board.next_due()`` announces as 0).  Skipping such a tick therefore never changes the
outcome, which is what lets the live simulation, its recorded trace and the trace
replay agree tick for tick.

The trace this driver records (`record`) lists the inputs in the order they were
applied, as trace lines (docs/traces.md); a raw change that does not change the raw
frame (the bit already had that value) is dropped.
"""
import heapq

RAW = 0
DICE = 1
BUTTON = 2


def grid_at_or_after(t, scan_ms):
    """The first scan time k * scan_ms (k integer) at or after t (ms, 0.1 resolution)."""
    t10 = int(round(t * 10))
    s10 = int(round(scan_ms * 10))
    k = -(-t10 // s10)
    return k * scan_ms


def set_bit(frame, p, on):
    """Set (on true) or clear position p's bit in a frame; returns True when it changed."""
    i = p >> 3
    m = 1 << (p & 7)
    old = frame[i] & m
    if on:
        frame[i] |= m
    else:
        frame[i] &= ~m & 0xFF
    return bool(old) != bool(on)


def frame_of(occupied):
    """A bytearray(8) frame with the bits of the position indexes in `occupied` set."""
    f = bytearray(8)
    for p in occupied:
        set_bit(f, p, True)
    return f


class Driver:
    """Drives `board` with inputs queued by `push_*`.

    board: a samsara.core.Board after new_game; scan_ms: its scan period (ms); frame: the raw frame at time 0 (bytearray(8), the
    settled start).  record: a list that receives the applied inputs as trace lines, or
    None.  on_tick(driver, t): optional hook after every tick (for displays).
    """

    def __init__(self, board, scan_ms, frame, record=None, on_tick=None):
        self.board = board
        self.scan_ms = scan_ms
        self.frame = bytearray(frame)
        self.record = record
        self.on_tick = on_tick
        self.events = []        # (t_ms, event dict) in order
        self.ticks = 0          # ticks run
        self.now = -1.0         # time of the last tick, -1 before the first
        self._queue = []
        self._seq = 0

    # -- inputs ------------------------------------------------------------------

    def _push(self, t, kind, a, b):
        if t <= self.now:
            raise ValueError("input at %.1f ms is not after the last tick (%.1f ms)" % (t, self.now))
        heapq.heappush(self._queue, (t, self._seq, kind, a, b))
        self._seq += 1

    def push_raw(self, t, p, on):
        """Raw sensor change: position p (0..63) reads `on` from t (ms) on."""
        self._push(t, RAW, p, 1 if on else 0)

    def push_dice(self, t, d1, d2):
        """Host-set dice for the next roll, from t (ms)."""
        self._push(t, DICE, d1, d2)

    def push_button(self, t, name, long=False):
        """A press of `name` ('roll' or 'undo') at t (ms)."""
        self._push(t, BUTTON, name, bool(long))

    def pending(self):
        """Number of queued inputs not yet applied."""
        return len(self._queue)

    def next_input_time(self):
        """Time of the earliest queued input, or None."""
        return self._queue[0][0] if self._queue else None

    # -- the loop ------------------------------------------------------------------

    def next_tick(self):
        """Time of the next tick that can matter, or None when nothing is queued and
        the board is idle."""
        nt = self.next_input_time()
        if self.now < 0:
            return 0
        g = None
        due = self.board.next_due()
        if due >= 0:
            g = grid_at_or_after(self.now + max(due, self.scan_ms), self.scan_ms)
        if nt is not None:
            gi = grid_at_or_after(nt, self.scan_ms)
            if gi <= self.now:
                gi = self.now + self.scan_ms
            if g is None or gi < g:
                g = gi
        return g

    def tick_at(self, g):
        """Run the tick at scan time g (inputs up to g first).  Returns True when the
        raw frame changed or a press happened."""
        board = self.board
        presses = []
        changed = False
        q = self._queue
        while q and q[0][0] <= g:
            t, _seq, kind, a, b = heapq.heappop(q)
            if kind == RAW:
                if set_bit(self.frame, a, b):
                    changed = True
                    if self.record is not None:
                        self.record.append({"t_ms": t, "pos": _name(a), "on": bool(b)})
            elif kind == DICE:
                board.set_dice(a, b)
                if self.record is not None:
                    self.record.append({"t_ms": t, "dice": [a, b]})
            else:
                presses.append((a, b))
                if self.record is not None:
                    line = {"t_ms": t, "button": a}
                    if b:
                        line["long"] = True
                    self.record.append(line)
        board.tick(g, self.frame)
        for name, long in presses:
            board.press(g, name, long)
        self.now = g
        self.ticks += 1
        ev = board.poll_event()
        while ev is not None:
            self.events.append((g, ev))
            ev = board.poll_event()
        if self.on_tick is not None:
            self.on_tick(self, g)
        return changed or bool(presses)

    def advance(self, t_end):
        """Run every tick that can matter up to and including time t_end."""
        while True:
            g = self.next_tick()
            if g is None or g > t_end:
                return
            self.tick_at(g)

    def run_out(self, limit_ms=None):
        """Run until every input is applied and the board is idle (or `limit_ms`,
        when given, is passed).  Returns the time of the last tick."""
        while True:
            g = self.next_tick()
            if g is None or (limit_ms is not None and g > limit_ms):
                return self.now
            self.tick_at(g)


def _name(p):
    from samsara.rules.geometry import position_name
    return position_name(p)
