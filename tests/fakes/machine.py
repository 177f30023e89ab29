"""Fake `machine` module for tests: Pin, SPI, ADC, WDT, bitstream on the RP2040's rules.

Small real classes on the nets of fakes/bench.py, so chip models see exactly the pin
changes and clock edges a driver makes.  Only the members the Pico's `machine` has
(and this project uses) exist; a misspelt call fails with AttributeError, a bad
argument with TypeError/ValueError, a pin that cannot do a function (SPI on a wrong
GPIO, ADC off GPIO26..29) with ValueError, as on the device.
"""

import bench

_N_GPIO = 30  # RP2040: GPIO0..29


def _check_gpio(pin_id):
    if isinstance(pin_id, str):
        if pin_id == "LED":
            return 25
        if pin_id.startswith("GP") and pin_id[2:].isdigit():
            pin_id = int(pin_id[2:])
        else:
            raise ValueError("unknown named pin %r" % (pin_id,))
    if not isinstance(pin_id, int) or not 0 <= pin_id < _N_GPIO:
        raise ValueError("invalid pin")
    return pin_id


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, *, value=None, alt=-1):
        self._id = _check_gpio(id)
        self._net = bench.net(self._id)
        self._mode = Pin.IN
        self._out = 0
        self.init(mode, pull, value=value, alt=alt)

    def init(self, mode=-1, pull=-1, *, value=None, alt=-1):
        if mode not in (-1, Pin.IN, Pin.OUT, Pin.OPEN_DRAIN, Pin.ALT):
            raise ValueError("invalid pin mode %r" % (mode,))
        if pull not in (-1, None, 0, Pin.PULL_UP, Pin.PULL_DOWN):
            raise ValueError("invalid pull %r" % (pull,))
        if value is not None:
            self._out = 1 if value else 0
        if mode != -1:
            self._mode = mode
        if pull != -1:
            self._net.pull = pull or 0
        if self._mode == Pin.OUT:
            self._net.drive(self._out)

    def value(self, x=None):
        if x is None:
            if self._mode == Pin.OUT:
                return self._out
            return self._net.read()
        self._out = 1 if x else 0
        if self._mode == Pin.OUT:
            self._net.drive(self._out)
        return None

    def __call__(self, x=None):
        return self.value(x)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def high(self):
        self.value(1)

    def low(self):
        self.value(0)

    def toggle(self):
        self.value(1 - self._out)

    def __repr__(self):
        return "Pin(GPIO%d, mode=%s)" % (self._id, ("IN", "OUT", "OPEN_DRAIN", "ALT")[self._mode])


def _pin_id(p):
    if isinstance(p, Pin):
        return p._id
    return _check_gpio(p)


# RP2040 function select: which GPIOs each SPI block can use.
_SPI_PINS = {
    0: {"sck": (2, 6, 18, 22), "mosi": (3, 7, 19, 23), "miso": (0, 4, 16, 20)},
    1: {"sck": (10, 14, 26), "mosi": (11, 15, 27), "miso": (8, 12, 24, 28)},
}
_SPI_DEFAULT = {0: (18, 19, 16), 1: (10, 11, 8)}


class SPI:
    """Bit-level SPI master: every bit drives the SCK net (edges reach the listeners)
    and samples the MISO net at the edge the mode says (CPOL/CPHA)."""

    MSB = 0
    LSB = 1

    def __init__(self, id, baudrate=1000000, *, polarity=0, phase=0, bits=8, firstbit=0,
                 sck=None, mosi=None, miso=None):
        if id not in (0, 1):
            raise ValueError("SPI(%r) doesn't exist" % (id,))
        self._id = id
        d = _SPI_DEFAULT[id]
        self._sck = d[0]
        self._mosi = d[1]
        self._miso = d[2]
        self.init(baudrate, polarity=polarity, phase=phase, bits=bits, firstbit=firstbit,
                  sck=sck, mosi=mosi, miso=miso)

    def init(self, baudrate=1000000, *, polarity=0, phase=0, bits=8, firstbit=0,
             sck=None, mosi=None, miso=None):
        allowed = _SPI_PINS.get(self._id)
        for name, p in (("sck", sck), ("mosi", mosi), ("miso", miso)):
            if p is None:
                continue
            g = _pin_id(p)
            if allowed is not None and g not in allowed[name]:
                raise ValueError("bad %s pin" % name.upper())
            setattr(self, "_" + name, g)
        if bits != 8:
            raise ValueError("only 8-bit transfers are modelled")
        if polarity not in (0, 1) or phase not in (0, 1) or firstbit not in (0, 1):
            raise ValueError("bad polarity/phase/firstbit")
        if not 0 < baudrate <= 62500000:
            raise ValueError("bad baudrate")
        self.baudrate = baudrate
        self._cpol = polarity
        self._cpha = phase
        self._lsb = firstbit
        self._clk = bench.net(self._sck)
        self._sdo = bench.net(self._mosi)
        self._sdi = bench.net(self._miso)
        self._clk.drive(polarity)
        self.bytes_moved = 0

    def deinit(self):
        pass

    def _byte(self, out):
        clk = self._clk
        cpol = self._cpol
        got = 0
        for i in range(8):
            bit = i if self._lsb else 7 - i
            self._sdo.drive((out >> bit) & 1)
            if self._cpha == 0:
                v = self._sdi.read()      # sample on the leading edge
                clk.drive(1 - cpol)
                clk.drive(cpol)
            else:
                clk.drive(1 - cpol)
                v = self._sdi.read()      # sample on the trailing edge
                clk.drive(cpol)
            got |= (v & 1) << bit
        self.bytes_moved += 1
        return got

    def readinto(self, buf, write=0x00):
        for k in range(len(buf)):
            buf[k] = self._byte(write)

    def read(self, nbytes, write=0x00):
        b = bytearray(nbytes)
        self.readinto(b, write)
        return bytes(b)

    def write(self, buf):
        for k in range(len(buf)):
            self._byte(buf[k])

    def write_readinto(self, write_buf, read_buf):
        if len(write_buf) != len(read_buf):
            raise ValueError("buffers must be the same length")
        for k in range(len(write_buf)):
            read_buf[k] = self._byte(write_buf[k])


class SoftSPI(SPI):
    """Bit-banged SPI on any GPIOs (sck, mosi, miso required)."""

    def __init__(self, baudrate=500000, *, polarity=0, phase=0, bits=8, firstbit=0,
                 sck=None, mosi=None, miso=None):
        if sck is None or mosi is None or miso is None:
            raise ValueError("SoftSPI needs sck, mosi and miso")
        self._id = -1
        self._sck = _pin_id(sck)
        self._mosi = _pin_id(mosi)
        self._miso = _pin_id(miso)
        self.init(baudrate, polarity=polarity, phase=phase, bits=bits, firstbit=firstbit)


class ADC:
    """12-bit ADC on GPIO26..29 (channels 0..3, given as channel, GPIO number or Pin)
    or channel 4 (temperature).
    read_u16() scales the 12-bit level to 16 bits as the rp2 port does."""

    CORE_TEMP = 4

    def __init__(self, pin):
        if isinstance(pin, Pin):
            g = pin._id
        elif isinstance(pin, int) and 0 <= pin <= 4:
            g = 26 + pin          # ADC channel number
        elif isinstance(pin, int) and 26 <= pin <= 29:
            g = pin               # GPIO number (the rp2 port takes both)
        else:
            raise ValueError("invalid ADC pin")
        if not 26 <= g <= 30:
            raise ValueError("Pin doesn't have ADC capabilities")
        self._net = bench.net(g)
        self.reads = 0

    def read_u16(self):
        fn = self._net.analog
        v = fn() if fn is not None else 0
        if v < 0:
            v = 0
        elif v > 4095:
            v = 4095
        self.reads += 1
        return (v << 4) | (v >> 8)


class WDT:
    """Watchdog on the bench clock: bench.WatchdogReset when not fed in time."""

    def __init__(self, id=0, timeout=5000):
        if id != 0:
            raise ValueError("WDT(%r) doesn't exist" % (id,))
        if not 1 <= timeout <= 8388:
            raise ValueError("timeout exceeds the maximum")
        self.timeout = timeout
        self.fed = bench.clock.now
        self.feeds = 0
        bench.clock.watchdog = self

    def feed(self):
        self.fed = bench.clock.now
        self.feeds += 1

    def check(self, now):
        if now - self.fed > self.timeout:
            raise bench.WatchdogReset("watchdog not fed for %d ms" % (now - self.fed))


class Timer:
    """machine.Timer: a periodic or one-shot callback.  Nothing runs by itself on the
    bench: fire() calls the callback as the interrupt would."""

    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, id=-1, *, mode=PERIODIC, freq=-1, period=-1, callback=None):
        if callback is None or (period <= 0 and freq <= 0):
            raise ValueError("Timer needs a period (or freq) and a callback")
        if mode not in (Timer.ONE_SHOT, Timer.PERIODIC):
            raise ValueError("bad mode")
        self.mode = mode
        self.period = period
        self.callback = callback
        self.running = True
        bench.timers.append(self)

    def deinit(self):
        self.running = False

    def fire(self):
        if self.running:
            self.callback(self)
            if self.mode == Timer.ONE_SHOT:
                self.running = False


def bitstream(pin, encoding, timing, data):
    """Send `data` on `pin` (WS2812 timing, encoding 0) to the net's stream model."""
    if not isinstance(pin, Pin):
        raise TypeError("bitstream needs a Pin")
    if encoding != 0:
        raise ValueError("encoding must be 0")
    if len(timing) != 4:
        raise ValueError("timing needs 4 values (ns)")
    if pin._mode != Pin.OUT:
        raise ValueError("bitstream pin is not an output")
    fn = pin._net.stream
    if fn is not None:
        fn(bytes(data))


def reset():
    bench.resets.append("machine.reset")
    raise bench.MachineReset()


def freq(hz=None):
    if hz is None:
        return 125000000
    return None


def unique_id():
    return b"\xe6\x60\x58\x38\x83\x29\x2a\x2b"


def idle():
    pass
