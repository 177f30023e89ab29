"""Watchdog: machine.WDT behind the small interface of its simulated twin.

Once started, the RP2040 watchdog cannot be stopped and resets the chip unless fed
within timeout_ms (at most 8388 ms on the RP2040).  main.py starts it only after
boot and self-test, and feeds it once per loop iteration.  NoWatchdog is the twin
for development (mpremote sessions, the simulated board).
"""


class Watchdog:
    """machine.WDT(timeout=timeout_ms); feed() every loop iteration."""

    def __init__(self, timeout_ms=2000):
        from machine import WDT
        if not 1 <= timeout_ms <= 8388:
            raise ValueError("RP2040 watchdog timeout must be 1..8388 ms")
        self.timeout_ms = timeout_ms
        self._wdt = WDT(timeout=timeout_ms)

    def feed(self):
        self._wdt.feed()


class NoWatchdog:
    """Same interface, does nothing."""

    timeout_ms = 0

    def feed(self):
        pass
