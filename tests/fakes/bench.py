"""The test bench behind the fake `machine`, `neopixel` and `rp2` modules.

A bench is a set of *nets* (one per GPIO number) plus a virtual clock.  Fake `Pin`
objects drive and read nets; chip models (fakes/chips.py) listen to nets and drive
them, so a driver talks to a model of the real chip through the same calls it makes
on a Pico.  Nothing here is a mock: an unknown method or attribute is an
AttributeError, a wrong argument a TypeError or ValueError, as on the device.

    import bench
    bench.reset()                    # fresh nets and clock (call at the start of a test)
    bench.net(16).reader = fn        # a model drives GPIO16 (fn() -> 0/1)
    bench.net(18).listeners.append(fn)   # fn(level) on every change of GPIO18
    bench.net(26).analog = fn        # fn() -> 12-bit level seen by ADC(26)
    bench.net(22).stream = fn        # fn(bytes) receives machine.bitstream() data
    bench.clock.sleep_ms(5)          # advance virtual time, run due actions

Works under CPython and the MicroPython Unix port.
"""


class WatchdogReset(Exception):
    """The fake watchdog expired: a real RP2040 would have reset here."""


class MachineReset(Exception):
    """machine.reset() was called."""


class Net:
    """One electrical node (a GPIO).  `level` is what an output pin drives (None:
    nobody), `reader` a model's output, `analog` a model's analog level (12-bit),
    `listeners` callables told every change of the driven level, `stream` a callable
    receiving bitstream data."""

    def __init__(self, name):
        self.name = name
        self.level = None
        self.reader = None
        self.analog = None
        self.listeners = []
        self.stream = None
        self.pull = 0  # 1 pull-up, 2 pull-down (set by an input Pin)

    def drive(self, v):
        old = self.level
        self.level = v
        if old != v:
            for fn in self.listeners:
                fn(v)

    def read(self):
        if self.reader is not None:
            return self.reader()
        if self.level is not None:
            return self.level
        if self.pull == 1:
            return 1
        return 0  # floating or pulled down


class Clock:
    """Virtual milliseconds.  `at(t_ms, fn)` schedules fn(now_ms); sleep_ms(ms) runs
    every due action in time order (actions may schedule more).  `ticks_ms()` wraps
    like MicroPython's (period 2**30)."""

    def __init__(self, start_ms=0):
        self.now = start_ms
        self._due = []   # list of [t, seq, fn]
        self._seq = 0
        self.watchdog = None  # fake WDT to check on every advance
        self.every = []       # fn(now) called on every advance (e.g. players)

    def ticks_ms(self):
        return self.now & 0x3FFFFFFF

    def ticks_us(self):
        return (self.now * 1000) & 0x3FFFFFFF

    def ticks_diff(self, a, b):
        return ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000

    def at(self, t_ms, fn):
        self._seq += 1
        self._due.append([t_ms, self._seq, fn])

    def sleep_ms(self, ms):
        end = self.now + (ms if ms > 0 else 0)
        while True:
            best = None
            for item in self._due:
                if item[0] <= end and (best is None or (item[0], item[1]) < (best[0], best[1])):
                    best = item
            if best is None:
                break
            self._due.remove(best)
            if best[0] > self.now:
                self.now = best[0]
            best[2](self.now)
        self.now = end
        for fn in self.every:
            fn(self.now)
        if self.watchdog is not None:
            self.watchdog.check(self.now)


nets = {}
clock = Clock()
bootsel = [0]      # rp2.bootsel_button() level
resets = []        # reasons of machine.reset() calls
timers = []        # every machine.Timer made (fire() runs its callback)


def net(pin_id):
    """The net of GPIO `pin_id` (created on first use)."""
    n = nets.get(pin_id)
    if n is None:
        n = Net(pin_id)
        nets[pin_id] = n
    return n


def reset():
    """Forget every net and restart the clock at 0."""
    global clock
    nets.clear()
    clock = Clock()
    bootsel[0] = 0
    del resets[:]
    del timers[:]
    return clock


class Lcg:
    """Deterministic pseudo-random numbers, the same on every VM.  Every intermediate
    value stays below 2**30, so drawing allocates nothing even on a 32-bit VM (the
    chip models draw noise inside the drivers' allocation-free scans): two 16-bit
    generators (ZX81's x*75+74 mod 65537 and x*171 mod 30269, Wichmann-Hill) combined."""

    def __init__(self, seed=1):
        self.x = seed % 65537 or 1
        self.y = (seed // 65537 + seed * 7) % 30269 or 1

    def next(self):
        self.x = (self.x * 75 + 74) % 65537
        self.y = (self.y * 171) % 30269
        return (self.x ^ (self.y << 1)) & 0xFFFF

    def below(self, n):
        return self.next() % n

    def noise(self, amp):
        """Roughly bell-shaped integer noise in -amp..amp (sum of two uniforms)."""
        if amp <= 0:
            return 0
        return self.below(amp + 1) + self.below(amp + 1) - amp
