"""Fake `neopixel` module: the same class as the rp2 port's neopixel (micropython-lib),
down to its buffer layout, ending in the fake machine.bitstream() so a pixel strip
model (fakes/chips.py PixelStrip) on the data pin receives every frame."""

from machine import bitstream


class NeoPixel:
    # G R B W: pixel tuple index -> byte offset in the pixel (WS2812 sends GRB)
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.pin.init(pin.OUT)
        if isinstance(timing, int):
            self.timing = (400, 850, 800, 450) if timing else (800, 1700, 1600, 900)
        else:
            self.timing = timing

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        offset = i * self.bpp
        for k in range(self.bpp):
            self.buf[offset + self.ORDER[k]] = v[k]

    def __getitem__(self, i):
        offset = i * self.bpp
        return tuple(self.buf[offset + self.ORDER[k]] for k in range(self.bpp))

    def fill(self, v):
        for i in range(self.n):
            self[i] = v

    def write(self):
        bitstream(self.pin, 0, self.timing, self.buf)
