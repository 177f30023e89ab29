"""Chip models for driver tests: they sit on the nets of fakes/bench.py and behave like
the parts on the Samsara board, so a driver is tested on what it makes the wires do.

    World          the physical board: which of the 64 holes hold a marble or piece
    HC165Chain     n daisy-chained 74HC165: parallel load while SH/LD is low, shift on
                   each rising CLK edge while SH/LD is high, QH of chip 0 on a net
    Mux4067        one CD74HC4067: channel = S3..S0 levels, drives COM only while /E low
    HallField      the sensors behind the muxes: per-sensor empty level, occupied level
                   (either direction), noise
    PixelStrip     a WS2812 chain: records every frame it receives (GRB bytes)

Works under CPython and the MicroPython Unix port.
"""

import bench


class World:
    """Occupancy of the 64 positions (a frame: byte p >> 3, bit p & 7)."""

    def __init__(self):
        self.frame = bytearray(8)
        self.version = 0  # bumped on every change (lets fast models cache)

    def get(self, p):
        return (self.frame[p >> 3] >> (p & 7)) & 1

    def put(self, p, on=1):
        self.version += 1
        if on:
            self.frame[p >> 3] |= 1 << (p & 7)
        else:
            self.frame[p >> 3] &= ~(1 << (p & 7)) & 0xFF

    def lift(self, p):
        if not self.get(p):
            raise AssertionError("no marble to lift at %d" % p)
        self.put(p, 0)

    def place(self, p):
        if self.get(p):
            raise AssertionError("hole %d already occupied" % p)
        self.put(p, 1)

    def set_frame(self, fr):
        self.version += 1
        for k in range(8):
            self.frame[k] = fr[k]

    def count(self):
        n = 0
        for p in range(64):
            n += self.get(p)
        return n


class HC165Chain:
    """`n` 74HC165 in a chain.  inputs(chip) -> byte of the chip's D7..D0 levels.
    Nets: clk (CLK of all), load (SH/LD of all), q (QH of chip 0).  SER of the last
    chip reads `ser` (tied low on the board).  Counts edges for the tests."""

    def __init__(self, n, clk, load, q, inputs, ser=0):
        self.n = n
        self.inputs = inputs
        self.reg = bytearray(n)
        self.ser = ser
        self.clk_level = 0
        self.rising = 0
        self.loads = 0
        self._load = bench.net(load)
        self._clk = bench.net(clk)
        bench.net(clk).listeners.append(self._on_clk)
        bench.net(load).listeners.append(self._on_load)
        bench.net(q).reader = self.qh

    def _latch(self):
        for c in range(self.n):
            self.reg[c] = self.inputs(c) & 0xFF

    def _on_load(self, level):
        if level == 0:
            self.loads += 1
            self._latch()

    def _loading(self):
        return self._load.level == 0

    def _on_clk(self, level):
        old = self.clk_level
        self.clk_level = level
        if not (old == 0 and level == 1):
            return
        self.rising += 1
        if self._loading():
            self._latch()  # parallel load overrides the clock
            return
        reg = self.reg
        for c in range(self.n):
            nxt = (reg[c + 1] >> 7) if c + 1 < self.n else self.ser
            reg[c] = ((reg[c] << 1) & 0xFF) | nxt

    def qh(self):
        if self._loading():
            self._latch()
        return self.reg[0] >> 7


class Mux4067:
    """One CD74HC4067.  sel: 4 net ids S0..S3; en: /E net id; com: COM net id;
    source(channel) -> 12-bit level at that input."""

    def __init__(self, index, sel, en, com, source):
        self.index = index
        self.sel = [bench.net(s) for s in sel]
        self.en = bench.net(en)
        self.source = source
        com_net = bench.net(com)
        muxes = getattr(com_net, "muxes", None)
        if muxes is None:
            muxes = []
            com_net.muxes = muxes
            com_net.analog = lambda: _com_level(com_net)
        muxes.append(self)

    def enabled(self):
        return self.en.read() == 0

    def channel(self):
        c = 0
        for b in range(4):
            c |= (self.sel[b].read() & 1) << b
        return c


def _com_level(com_net):
    # No list building here: the ADC read is on the drivers' allocation-free path.
    found = None
    for m in com_net.muxes:
        if m.enabled():
            if found is not None:
                raise RuntimeError("bus contention on COM: muxes %d and %d enabled together"
                                   % (found.index, m.index))
            found = m
    if found is None:
        floating = getattr(com_net, "rng", None)
        return 2048 + (floating.noise(600) if floating else 0)
    return found.source(found.channel())


class HallField:
    """Analog Hall sensors at every wired position.  mux_chan[p] = mux * 16 + ch.
    empty[p] ~ 2048 +- spread, occupied level = empty +- swing (sign per sensor),
    noise amplitude `noise` counts.  Call attach(...) to hang it behind the muxes."""

    def __init__(self, world, mux_chan, seed=7, spread=120, swing=700, noise=12):
        self.world = world
        self.rng = bench.Lcg(seed)
        self.noise = noise
        self.where = {}
        for p in range(64):
            if mux_chan[p] != 0xFF:
                self.where[mux_chan[p]] = p
        self.empty = [2048 + self.rng.noise(spread) for _ in range(64)]
        self.delta = []
        for p in range(64):
            s = swing - 150 + self.rng.below(300)
            self.delta.append(s if self.rng.below(2) else -s)

    def level(self, mux, ch):
        p = self.where.get(mux * 16 + ch)
        if p is None:
            return 2048 + self.rng.noise(self.noise)  # unconnected input
        v = self.empty[p] + (self.delta[p] if self.world.get(p) else 0)
        return v + self.rng.noise(self.noise)

    def attach(self, sel, ens, com):
        muxes = []
        for i in range(len(ens)):
            muxes.append(Mux4067(i, sel, ens[i], com, self._source(i)))
        bench.net(com).rng = self.rng
        return muxes

    def _source(self, i):
        return lambda ch: self.level(i, ch)


class PixelStrip:
    """A WS2812 chain of n pixels on net `pin`: records every frame (GRB bytes) in
    `frames`; with keep=False only the last one (heap measurements) and `count`."""

    def __init__(self, pin, n, keep=True):
        self.n = n
        self.frames = []
        self.keep = keep
        self.count = 0
        bench.net(pin).stream = self._receive

    def _receive(self, data):
        self.count += 1
        if self.keep or not self.frames:
            self.frames.append(bytes(data[:self.n * 3]))
            return
        last = self.frames[-1]
        if not isinstance(last, bytearray):
            last = bytearray(self.n * 3)
            self.frames[-1] = last
        m = min(len(data), self.n * 3)
        for i in range(m):
            last[i] = data[i]

    def rgb(self, i, frame=-1):
        """(r, g, b) of chain pixel i in frame `frame` (default: the last)."""
        f = self.frames[frame]
        return (f[i * 3 + 1], f[i * 3], f[i * 3 + 2])
