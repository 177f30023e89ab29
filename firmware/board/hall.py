"""Analog sensor scanner: Hall sensors through CD74HC4067 multiplexers into the ADC.

Wiring (hardware/pins.csv): the four select lines S0..S3 are shared by every mux, each
mux has its own active-low enable /E, and the COM pins of all muxes meet on one ADC
input; only the enabled mux drives it.  `mux_chan[p]` says where position p is wired:
mux * 16 + channel, or 0xFF for none.

Scan order: channels in Gray-code order (one select line changes per step), and for
each channel every mux in turn (/E low, one ADC read, /E high).  So a full scan is
16 * n_mux reads, 16 select writes and 2 * 16 * n_mux enable writes.
`steps_per_scan` (1..16) spreads a full scan over several calls: each scan() reads
that many channel steps and updates only those sensors; the frame keeps the others.

Levels are 12-bit ADC counts (read_u16() >> 4, 0..4095).  Each sensor has a
calibration (see HallCalibration): an empty level, and an occupied level when one was
measured.  A sensor's state has hysteresis: with d = the reading's distance from the
empty level towards the occupied level, an empty sensor turns occupied when d > on_d,
an occupied one turns empty when d < off_d.

A scan allocates nothing (small ints, preallocated bytearrays and arrays).
"""

try:
    from micropython import const
except ImportError:  # CPython with the fakes
    def const(__x):
        return __x

from array import array

_NONE = const(0xFF)
_N_POSITIONS = const(64)
_FORMAT = "samsara-hallcal 1"

# Sign codes of a sensor's direction: occupied reads higher, lower, or unknown (either).
SIGN_EITHER = const(0)
SIGN_UP = const(1)
SIGN_DOWN = const(2)


class CalibrationError(ValueError):
    """A calibration file that is missing, torn or not in the documented format."""


class HallCalibration:
    """Per-sensor levels and the thresholds derived from them.

    empty[p], occupied[p]: 12-bit levels (0..4095); occupied 0 = not measured.
    center[p], on_d[p], off_d[p], sign[p]: the derived thresholds (see module doc).

    Thresholds: with both levels known, delta = |occupied - empty|, the sensor turns
    occupied at 5/8 of delta and empty again below 3/8 (hysteresis band delta / 4).
    With only the empty level known (or nothing: default_center), either direction
    counts and the defaults default_on / default_off apply.

    File format (text, one record a line, written atomically via a temporary file):

        samsara-hallcal 1
        <p> <empty> <occupied>        64 lines, p = 0..63 in order
        end <checksum>                sum of all 192 numbers modulo 65536

    A file that fails any check is rejected whole (CalibrationError) and the
    defaults stay in force.
    """

    def __init__(self, default_center=2048, default_on=400, default_off=250):
        self.default_center = default_center
        self.default_on = default_on
        self.default_off = default_off
        self.empty = array("H", [0] * _N_POSITIONS)
        self.occupied = array("H", [0] * _N_POSITIONS)
        self.center = array("H", [default_center] * _N_POSITIONS)
        self.on_d = array("h", [default_on] * _N_POSITIONS)
        self.off_d = array("h", [default_off] * _N_POSITIONS)
        self.sign = bytearray(_N_POSITIONS)
        self.measured = False  # True once empty levels come from a measurement or file

    def set_levels(self, p, empty, occupied):
        """Set sensor p's levels (12-bit counts; occupied 0 = unknown) and derive its
        thresholds."""
        self.empty[p] = empty
        self.occupied[p] = occupied
        self.center[p] = empty if empty else self.default_center
        if occupied and empty:
            delta = occupied - empty
            self.sign[p] = SIGN_UP if delta > 0 else SIGN_DOWN
            if delta < 0:
                delta = -delta
            self.on_d[p] = (delta * 5) >> 3
            self.off_d[p] = (delta * 3) >> 3
        else:
            self.sign[p] = SIGN_EITHER
            self.on_d[p] = self.default_on
            self.off_d[p] = self.default_off

    def complete(self):
        """True when every position has both levels."""
        for p in range(_N_POSITIONS):
            if not (self.empty[p] and self.occupied[p]):
                return False
        return True

    def dumps(self):
        """The file text (see the class doc)."""
        lines = [_FORMAT]
        total = 0
        for p in range(_N_POSITIONS):
            e = self.empty[p]
            o = self.occupied[p]
            total += p + e + o
            lines.append("%d %d %d" % (p, e, o))
        lines.append("end %d" % (total & 0xFFFF))
        return "\n".join(lines) + "\n"

    def loads(self, text):
        """Read file text into this calibration.  Raises CalibrationError naming the
        first problem; on error nothing is changed."""
        lines = text.split("\n")
        if not lines or lines[0].strip() != _FORMAT:
            raise CalibrationError("not a %r file" % _FORMAT)
        if len(lines) < _N_POSITIONS + 2:
            raise CalibrationError("file has %d lines, needs %d" % (len(lines), _N_POSITIONS + 2))
        levels = []
        total = 0
        for p in range(_N_POSITIONS):
            parts = lines[1 + p].split()
            if len(parts) != 3:
                raise CalibrationError("line %d: need 3 numbers" % (p + 2))
            try:
                q, e, o = int(parts[0]), int(parts[1]), int(parts[2])
            except ValueError:
                raise CalibrationError("line %d: not a number" % (p + 2))
            if q != p or not (0 <= e <= 4095 and 0 <= o <= 4095):
                raise CalibrationError("line %d: bad record" % (p + 2))
            total += q + e + o
            levels.append((e, o))
        tail = lines[1 + _N_POSITIONS].split()
        if len(tail) != 2 or tail[0] != "end" or tail[1] != str(total & 0xFFFF):
            raise CalibrationError("checksum line missing or wrong (torn write?)")
        for p in range(_N_POSITIONS):
            e, o = levels[p]
            self.set_levels(p, e, o)
        self.measured = True

    def save(self, path):
        """Write the file atomically: `path + '.tmp'`, then rename over `path`."""
        import os
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            f.write(self.dumps())
        try:
            os.remove(path)  # MicroPython's rename does not replace on every port
        except OSError:
            pass
        os.rename(tmp, path)

    def load(self, path):
        """Read `path`.  Raises CalibrationError (also for a missing file)."""
        try:
            with open(path) as f:
                text = f.read()
        except OSError:
            raise CalibrationError("no calibration file %s" % path)
        self.loads(text)


class HallScanner:
    """Scanner for `n_mux` CD74HC4067 (16 channels each) sharing select lines and an ADC.

    adc:      machine.ADC on the muxes' common COM line.
    select:   4 machine.Pin outputs, S0..S3.
    enables:  n_mux machine.Pin outputs, /E of each mux (active low).
    mux_chan: 64 bytes, position -> mux * 16 + channel (0xFF: no sensor).
    cal:      HallCalibration (thresholds are read live, so a new calibration applies
              at the next scan).
    steps_per_scan: channel steps per scan() call (16 = a full scan every call).

    Raises ValueError for a table entry beyond the muxes or a wrong number of pins.
    Interface (same as the simulated scanner): `n_positions`, `scan(buf)`; `level`
    holds the last 12-bit reading of every position (calibration, diagnostics).
    """

    n_positions = _N_POSITIONS

    def __init__(self, adc, select, enables, mux_chan, cal=None, steps_per_scan=16):
        if len(select) != 4:
            raise ValueError("need 4 select pins, got %d" % len(select))
        n_mux = len(enables)
        if len(mux_chan) != _N_POSITIONS:
            raise ValueError("mux_chan needs 64 entries, got %d" % len(mux_chan))
        pos = bytearray(b"\xff" * (16 * n_mux))
        wired = bytearray(_N_POSITIONS)
        for p in range(_N_POSITIONS):
            mc = mux_chan[p]
            if mc == _NONE:
                continue
            if (mc >> 4) >= n_mux:
                raise ValueError("position %d on mux %d of %d" % (p, mc >> 4, n_mux))
            pos[mc] = p
            wired[p] = 1
        if not 1 <= steps_per_scan <= 16:
            raise ValueError("steps_per_scan must be 1..16")
        self._adc = adc
        self._sel = tuple(select)
        self._en = tuple(enables)
        self._pos = pos
        self.wired = wired  # wired[p] = 1 when position p has a sensor
        self.cal = cal if cal is not None else HallCalibration()
        self.level = array("H", [0] * _N_POSITIONS)
        self._frame = bytearray(8)
        self._steps = steps_per_scan
        self._step = 0     # next Gray step 0..15
        self._code = 0     # channel the select lines currently show
        # Gray order: step k selects channel k ^ (k >> 1); _flip[k] is the select bit
        # that changes when going to step k (step 0 follows step 15: bit 3).
        self._gray = bytearray(16)
        self._flip = bytearray(16)
        for k in range(16):
            self._gray[k] = k ^ (k >> 1)
        for k in range(16):
            x = self._gray[k] ^ self._gray[k - 1]
            b = 0
            while x > 1:
                x >>= 1
                b += 1
            self._flip[k] = b
        for e in self._en:
            e.value(1)
        for b in range(4):
            self._sel[b].value(0)
        self._code = 0  # channel 0 = Gray step 0

    def _select(self, k):
        """Put the select lines on Gray step k, writing only the lines that change
        (one line when k follows the previous step, as in a scan)."""
        g = self._gray[k]
        x = g ^ self._code
        if x:
            sel = self._sel
            if x == 1 << self._flip[k]:
                b = self._flip[k]
                sel[b].value((g >> b) & 1)
            else:
                for b in range(4):
                    if (x >> b) & 1:
                        sel[b].value((g >> b) & 1)
            self._code = g

    def sample(self, sums, rounds):
        """Add `rounds` full scans of raw 12-bit levels into `sums` (array of 64
        ints, position order) for calibration.  Does not touch the frame."""
        adc = self._adc
        en = self._en
        pos = self._pos
        for _ in range(rounds):
            for k in range(16):
                self._select(k)
                base = self._gray[k]
                for m in range(len(en)):
                    p = pos[(m << 4) | base]
                    if p == _NONE:
                        continue
                    e = en[m]
                    e.value(0)
                    sums[p] += adc.read_u16() >> 4
                    e.value(1)

    def scan(self, buf):
        """Read `steps_per_scan` channel steps and write the frame into `buf`
        (bytearray(8), docs/frames.md).  Allocates nothing."""
        adc = self._adc
        en = self._en
        n_mux = len(en)
        pos = self._pos
        gray = self._gray
        level = self.level
        cal = self.cal
        center = cal.center
        on_d = cal.on_d
        off_d = cal.off_d
        sign = cal.sign
        fr = self._frame
        k = self._step
        for _ in range(self._steps):
            self._select(k)
            base = gray[k]
            for m in range(n_mux):
                p = pos[(m << 4) | base]
                if p == _NONE:
                    continue
                e = en[m]
                e.value(0)
                v = adc.read_u16() >> 4
                e.value(1)
                level[p] = v
                d = v - center[p]
                sg = sign[p]
                if sg == SIGN_DOWN or (sg == SIGN_EITHER and d < 0):
                    d = -d
                i = p >> 3
                bit = 1 << (p & 7)
                if fr[i] & bit:
                    if d < off_d[p]:
                        fr[i] &= ~bit
                elif d > on_d[p]:
                    fr[i] |= bit
            k = (k + 1) & 15
        self._step = k
        for i in range(8):
            buf[i] = fr[i]
