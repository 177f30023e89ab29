"""Watchdog: machine.WDT behind the small interface of its simulated twin.

Once started, the RP2040 watchdog cannot be stopped and resets the chip unless fed
within timeout_ms (at most 8388 ms on the RP2040).  main.py starts it only after
boot and self-test and feeds it once per loop iteration.

When the loop ends for the REPL (a Ctrl-C from the host, docs/protocol.md), nothing
would feed it any more and the Pico would reset under `mpremote`.  So the loop hands
feeding to a machine.Timer interrupt (`feed_in_background`), and `boot.py` does the
same after every soft reset, when MicroPython does not run main.py (mpremote's raw
REPL): the watchdog keeps running but only a hard lock-up resets the board.  Starting
the loop's Watchdog stops any background feeding, so a hung loop still resets.

NoWatchdog is the twin for development (the simulated board, tests).
"""

_background = None  # the machine.Timer feeding the watchdog outside the loop, if any


def stop_background():
    """Stop the background feeding started by feed_in_background or boot.py."""
    global _background
    if _background is not None:
        _background.deinit()
        _background = None


def feed_in_background(wdt, period_ms):
    """Feed machine.WDT `wdt` every period_ms from a periodic machine.Timer interrupt
    (the callback allocates nothing).  Returns the Timer."""
    global _background
    from machine import Timer
    stop_background()
    feed = wdt.feed

    def _tick(_timer):
        feed()

    _background = Timer(-1, mode=Timer.PERIODIC, period=period_ms, callback=_tick)
    return _background


def keep_alive(timeout_ms=8388, period_ms=1000):
    """For boot.py: (re)arm the watchdog with its longest timeout and feed it from a
    timer, so a soft reset into mpremote's raw REPL (main.py not run) never ends in a
    watchdog reset.  The loop's Watchdog takes over when main.py starts."""
    from machine import WDT
    wdt = WDT(timeout=timeout_ms)
    feed_in_background(wdt, period_ms)
    return wdt


class Watchdog:
    """machine.WDT(timeout=timeout_ms); feed() every loop iteration.

    Raises ValueError for a timeout outside 1..8388 ms.
    """

    def __init__(self, timeout_ms=2000):
        from machine import WDT
        if not 1 <= timeout_ms <= 8388:
            raise ValueError("RP2040 watchdog timeout must be 1..8388 ms")
        stop_background()
        self.timeout_ms = timeout_ms
        self._wdt = WDT(timeout=timeout_ms)

    def feed(self):
        self._wdt.feed()

    def feed_in_background(self):
        """Hand feeding to a timer interrupt (every timeout/4 ms) when the loop stops
        for the REPL."""
        return feed_in_background(self._wdt, max(1, self.timeout_ms // 4))


class NoWatchdog:
    """Same interface, does nothing."""

    timeout_ms = 0

    def feed(self):
        pass

    def feed_in_background(self):
        return None
