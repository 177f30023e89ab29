"""Asymmetric per-position deferred debounce of sensor frames (docs/debounce.md).

A pure step function of (now_ms, raw frame): the caller passes the time, nothing here
reads a clock.  Each of the 64 positions commits a change of its raw value only after
the raw value has held still for that direction's settle time ("defer" debounce, per
position, as QMK's sym_defer_pk but with one settle time per direction):

    lift  (on -> off)  settle_lift_ms   short, so the targets light fast; longer than
                                        reed chatter (<= 2 ms of 0.1-0.5 ms toggles)
    place (off -> on)  settle_place_ms  longer than a slide's dwell over a hole (<= 110
                                        ms), so a marble slid across empty holes never
                                        commits an intermediate hole
    quick return       settle_lift_ms   a hole that comes back on within return_ms of
                                        its lift being committed settles as fast as a
                                        lift: a rocking marble (1-20 ms toggles) reads
                                        as "lifted, then put back where it came from"
                                        for a few ms instead of lighting its targets
                                        for a whole placement settle

Times are integer milliseconds compared wrap-safe on the MicroPython ticks period
(2**30), so `time.ticks_ms()` can be passed directly; larger values are masked.

Frames are bytearray(8) (samsara.frame).  After step():
    settled   the debounced frame (read it, do not write it)
    changed   the bits that changed in this step (`last`: one of them)
    busy      number of positions whose raw value differs from the settled one
    due       with busy: the time (ms, ticks) at which the first of them can commit
              if the raw frame stays (the loop scans then: mainloop.Loop.run)
A step in which nothing changes allocates nothing (all state is preallocated and every
integer stays below 2**30).
"""

from boardcore.ticks import ticks_diff

try:
    from micropython import const
except ImportError:  # CPython
    def const(__x):
        return __x

TICKS_PERIOD = const(0x40000000)
_TICKS_MASK = const(0x3FFFFFFF)
_TICKS_HALF = const(0x20000000)

_SETTLE_LIFT_MS = const(4)
_SETTLE_PLACE_MS = const(150)
_RETURN_MS = const(30)
_STILL_MS = const(1000)   # how long ago a reset puts the last raw change (ms)


class Debounce:
    """Debounce state of 64 positions.

    settle_lift_ms, settle_place_ms, return_ms: see the module docstring (ms).
    Call reset() with the board's current frame, then step() every scan period.
    """

    def __init__(self, settle_lift_ms=_SETTLE_LIFT_MS, settle_place_ms=_SETTLE_PLACE_MS,
                 return_ms=_RETURN_MS):
        if settle_lift_ms < 0 or settle_place_ms < 0 or return_ms < 0:
            raise ValueError("settle times must be >= 0 ms")
        self.settle_lift = settle_lift_ms
        self.settle_place = settle_place_ms
        self.return_ms = return_ms
        self.raw = bytearray(8)       # last raw frame seen
        self.settled = bytearray(8)   # debounced frame
        self.changed = bytearray(8)   # bits committed by the last step
        self.t_raw = [0] * 64         # time of each position's last raw change
        self.t_lift = [0] * 64        # time each position's last lift was committed
        self.recent = bytearray(8)    # bit set: t_lift is valid for a quick return
        self.busy = 0
        self.now = 0
        self.due = 0
        self.n_last = 0
        self.last = -1                # a position committed by the last step
        self.pend_bytes = 0           # bit i: byte i has a pending position

    def reset(self, now_ms, frame):
        """Take `frame` as settled and raw at time now_ms (nothing pending; the last raw
        change counts as 1 s before now_ms: a reset is none)."""
        now = now_ms & _TICKS_MASK
        i = 0
        while i < 8:
            self.raw[i] = frame[i]
            self.settled[i] = frame[i]
            self.changed[i] = 0
            self.recent[i] = 0
            i += 1
        i = 0
        while i < 64:
            self.t_raw[i] = now
            self.t_lift[i] = now
            i += 1
        self.busy = 0
        self.now = now
        self.due = now
        # time of the last raw change (the loop's quiet moments): a reset is none, the
        # board counts as still since well before it, so quiet work may start at once
        self.t_change = (now - _STILL_MS) & _TICKS_MASK
        self.n_last = 0
        self.pend_bytes = 0

    def step(self, now_ms, raw):
        """Feed the raw frame scanned at now_ms (int ms).  Returns the number of
        positions whose settled value changed in this step (their bits are in
        `changed`).  Allocates nothing; the steady-state path keeps its call frame
        within 11 machine words, so MicroPython keeps it off the heap too."""
        now = now_ms & _TICKS_MASK
        self.now = now
        # Fast path of the steady state: the raw frame as last time (compared in C)
        # and nothing pending, or nothing that can settle before self.due.
        if raw == self.raw and (not self.busy or ticks_diff(now, self.due) < 0):
            if self.n_last:
                self.n_last = 0
                i = 0
                while i < 8:
                    self.changed[i] = 0
                    i += 1
            return 0
        return self._step(now, raw)

    def _step(self, now, raw):
        # A raw change or a settle time due: the full step (a large call frame).
        old_raw = self.raw
        st = self.settled
        chg = self.changed
        t_raw = self.t_raw
        t_lift = self.t_lift
        recent = self.recent
        lift = self.settle_lift
        place = self.settle_place
        ret = self.return_ms
        n = 0
        busy = 0
        wait = _TICKS_HALF
        if raw != old_raw:
            self.t_change = now
        was_pending = self.pend_bytes
        bytes_pending = 0
        i = 0
        while i < 8:
            rv = raw[i]
            x = rv ^ old_raw[i]
            if not x and not (was_pending >> i) & 1:
                # no raw change and nothing pending in this byte
                chg[i] = 0
                i += 1
                continue
            base = i << 3
            if x:
                old_raw[i] = rv
                b = 0
                while x:
                    if x & 1:
                        t_raw[base + b] = now
                    x >>= 1
                    b += 1
            pend = rv ^ st[i]
            ch = 0
            if pend:
                b = 0
                while pend:
                    if pend & 1:
                        p = base + b
                        if (rv >> b) & 1:
                            need = place
                            if (recent[i] >> b) & 1 and ticks_diff(t_raw[p], t_lift[p]) <= ret:
                                need = lift
                        else:
                            need = lift
                        dt = ticks_diff(now, t_raw[p])
                        if dt >= need:
                            ch |= 1 << b
                            n += 1
                            self.last = p
                            if (rv >> b) & 1:
                                recent[i] &= ~(1 << b) & 0xFF
                            else:
                                t_lift[p] = now
                                recent[i] |= 1 << b
                        else:
                            busy += 1
                            if need - dt < wait:
                                wait = need - dt
                    pend >>= 1
                    b += 1
                if ch:
                    st[i] ^= ch
                if rv ^ st[i]:
                    bytes_pending |= 1 << i
            chg[i] = ch
            i += 1
        self.pend_bytes = bytes_pending
        self.busy = busy
        self.n_last = n
        # earliest time a pending position can commit (if the raw frame stays), as
        # (now + wait) mod 2**30 without ever building an int above 2**30 - 1
        if not busy:
            self.due = now
        elif now > _TICKS_MASK - wait:
            self.due = now - (_TICKS_MASK - wait) - 1
        else:
            self.due = now + wait
        return n

    def next_due(self):
        """Milliseconds after the last step's time at which the next pending position
        can commit if the raw frame stays as it is, or -1 when nothing is pending.
        Lets a virtual clock skip ticks in which nothing can change."""
        if not self.busy:
            return -1
        best = -1
        p = 0
        while p < 64:
            i = p >> 3
            b = p & 7
            rv = (self.raw[i] >> b) & 1
            if rv != (self.settled[i] >> b) & 1:
                if rv:
                    need = self.settle_place
                    if (self.recent[i] >> b) & 1 and \
                            ticks_diff(self.t_raw[p], self.t_lift[p]) <= self.return_ms:
                        need = self.settle_lift
                else:
                    need = self.settle_lift
                due = need - ticks_diff(self.now, self.t_raw[p])
                if due < 0:
                    due = 0
                if best < 0 or due < best:
                    best = due
            p += 1
        return best
