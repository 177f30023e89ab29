"""Digital sensor scanner: a chain of 74HC165 shift registers read over SPI.

Wiring (hardware/pins.csv): SH/LD of every chip on one output pin (`load`), CLK of
every chip on the SPI clock, QH of chip 0 on the SPI RX (MISO) pin, QH of chip k+1
into SER of chip k, CLK INH tied low.  Inputs are reed switches or Hall switches to
ground with pull-ups, so a marble reads 0 on the wire (`active_low`, the default).

One scan: pulse SH/LD low (the chips latch their eight parallel inputs), then clock
out n_chips bytes with `spi.readinto`.  The SPI must run in mode 0 (polarity 0,
phase 0), MSB first: the 74HC165 presents input D7 on QH right after the load and
shifts on each rising clock edge, which is also where mode 0 samples.  So byte c
of the read is chip c and bit b of that byte is input Db.

`chip_bit[p]` says where position p (0..63, docs/core-api.md) is wired: chip * 8 + bit,
or 0xFF for a position without a sensor.  The scanner keeps the last raw bytes; when
they did not change (one bytearray compare, done in C) and the caller passes the same
buffer as last time, scan() costs the SPI transfer and nothing else, and allocates
nothing.  Remapping (64 table look-ups) runs only when a raw byte changed.  The
caller must not write into the buffer it passes (main.py's loop does not).
"""

try:
    from micropython import const
except ImportError:  # CPython with the fakes
    def const(__x):
        return __x

_NONE = const(0xFF)
_N_POSITIONS = const(64)


class ShiftRegisterScanner:
    """Scanner for `n_chips` daisy-chained 74HC165 (8 inputs each).

    spi:      machine.SPI, mode 0, MSB first (the driver does not reconfigure it).
    load:     machine.Pin, output, to SH/LD of every chip (idles high).
    chip_bit: 64 bytes, position -> chip * 8 + bit (0xFF: no sensor at that position).
    n_chips:  chips in the chain (8 for 64 inputs).
    active_low: True when a marble pulls the input low (reed switch to ground).

    Raises ValueError when chip_bit is not 64 entries or names a chip beyond n_chips.
    Interface (same as the simulated scanner): `n_positions`, `scan(buf)`.
    """

    n_positions = _N_POSITIONS

    def __init__(self, spi, load, chip_bit, n_chips=8, active_low=True):
        if len(chip_bit) != _N_POSITIONS:
            raise ValueError("chip_bit needs 64 entries, got %d" % len(chip_bit))
        for cb in chip_bit:
            if cb != _NONE and (cb >> 3) >= n_chips:
                raise ValueError("chip_bit entry %d names chip %d of %d" % (cb, cb >> 3, n_chips))
        self._spi = spi
        self._load = load
        self._src = bytearray(chip_bit)
        # chip * 8 + bit -> position (0xFF: none), for the remap of changed bits only;
        # None when two positions share an input (then every change maps all 64)
        dst = bytearray(b"\xff" * (n_chips * 8))
        for p in range(_N_POSITIONS):
            cb = chip_bit[p]
            if cb != _NONE:
                if dst[cb] != _NONE:
                    dst = None
                    break
                dst[cb] = p
        self._dst = dst
        self._raw = bytearray(n_chips)
        self._last = bytearray(n_chips)
        self._frame = bytearray(8)
        self._invert = 0xFF if active_low else 0
        self._stale = True  # the first scan always maps
        self._out = None    # the caller's buffer that already holds _frame
        self.scans = 0      # scan() calls modulo 2**26 (diagnostics)
        load.value(1)

    def read_raw(self):
        """Latch and clock out the chain; returns the internal raw bytearray(n_chips)
        (byte c = chip c, bit b = input Db, as on the wire: not inverted)."""
        load = self._load
        load.value(0)  # SH/LD low: the chips load D0..D7 (>= 20 ns; a call takes us)
        load.value(1)  # SH/LD high: shift mode; QH shows D7 of chip 0
        self._spi.readinto(self._raw, 0)
        return self._raw

    def scan(self, buf):
        """Read every sensor into `buf` (bytearray(8), docs/frames.md: position p is
        byte p >> 3, bit p & 7, set = occupied).  Allocates nothing when no input
        changed since the last scan."""
        raw = self.read_raw()
        if raw != self._last or self._stale:   # bytearray compare: in C, no allocation
            self._map(raw)
        if buf is not self._out:         # a new frame or another buffer: copy
            fr = self._frame
            for k in range(8):
                buf[k] = fr[k]
            self._out = buf
        self.scans = (self.scans + 1) & 0x3FFFFFF  # stays a small int

    def _map(self, raw):
        # The inputs changed: map the chain's bits to positions (a large call frame,
        # kept off the steady-state path).  Only the changed bits (a lift or a
        # placement: one bit, about 0.2 ms on the Pico instead of 4.3 ms for all 64
        # positions, in the iteration that first sees it), unless the frame is stale.
        last = self._last
        fr = self._frame
        inv = self._invert
        dst = self._dst
        if not self._stale and dst is not None:
            for c in range(len(raw)):
                x = raw[c] ^ last[c]
                if x:
                    last[c] = raw[c]
                    on = raw[c] ^ inv
                    b = 0
                    while x:
                        if x & 1:
                            p = dst[(c << 3) + b]
                            if p != _NONE:
                                if (on >> b) & 1:
                                    fr[p >> 3] |= 1 << (p & 7)
                                else:
                                    fr[p >> 3] &= ~(1 << (p & 7)) & 0xFF
                        x >>= 1
                        b += 1
            self._out = None
            return
        self._stale = False
        src = self._src
        for c in range(len(raw)):
            last[c] = raw[c]
        for k in range(8):
            fr[k] = 0
        for p in range(_N_POSITIONS):
            cb = src[p]
            if cb != _NONE and ((last[cb >> 3] ^ inv) >> (cb & 7)) & 1:
                fr[p >> 3] |= 1 << (p & 7)
        self._out = None
