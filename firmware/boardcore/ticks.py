"""Wrap-safe tick arithmetic on MicroPython's ms clock (time.ticks_ms wraps at 2**30).
Its one job is ticks_diff in small ints only, the same on the Pico, the Unix port and
CPython: the board core, the drivers and the tests take their time as plain ints from
it (docs/debounce.md "Time")."""

try:
    from micropython import const
except ImportError:  # CPython
    def const(__x):
        return __x

_TICKS_HALF = const(0x20000000)     # 2**29: half the 2**30 ticks period


def ticks_diff(a, b):
    """a - b in ms on the 2**30 ticks period, in -2**29 .. 2**29 - 1 (as
    time.ticks_diff).  a, b: masked times 0 .. 2**30 - 1.  Never builds a big int."""
    d = a - b
    # TICKS_PERIOD (2**30) itself is a big int on a 32-bit VM: step by halves instead.
    if d >= _TICKS_HALF:
        d = d - _TICKS_HALF - _TICKS_HALF
    elif d < -_TICKS_HALF:
        d = d + _TICKS_HALF + _TICKS_HALF
    return d
