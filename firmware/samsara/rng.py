"""Random sources for the electronic dice (docs/controller.md "Dice").

Any object with a method die() returning 1..6 can be a random source (Config.rng).
Lcg is the default: a tiny seeded linear congruential generator on 24 bits, identical on
MicroPython and CPython, so a seeded game rolls the same dice on the Pico, in the
simulator and in trace replay.
"""


class Lcg:
    """x <- (x * 1103515245 + 12345) mod 2**24 (full period: the multiplier is 1 mod 4
    and the increment odd).  die() takes bits 21..23 and rejects 6 and 7, so each face
    has probability 1/6.  The product is a big integer on the Pico; it is built only at
    a roll, never in the scan loop."""

    def __init__(self, seed=1):
        self.x = seed & 0xFFFFFF

    def next24(self):
        """Next 24-bit state."""
        self.x = (self.x * 1103515245 + 12345) & 0xFFFFFF
        return self.x

    def die(self):
        """A die value 1..6."""
        while True:
            v = self.next24() >> 21
            if v < 6:
                return v + 1


class Fixed:
    """A random source that replays the given die values in a loop (tests, demos)."""

    def __init__(self, values):
        if not values:
            raise ValueError("Fixed needs at least one die value")
        for v in values:
            if not 1 <= v <= 6:
                raise ValueError("die values are 1..6, got %r" % (v,))
        self.values = list(values)
        self.i = 0

    def die(self):
        v = self.values[self.i % len(self.values)]
        self.i += 1
        return v
