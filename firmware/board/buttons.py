"""Buttons: roll and undo, debounced, with long-press detection.

Each button is a push button to ground with the internal pull-up (hardware/pins.csv),
so pressed reads 0 (`active_low`).  poll(now_ms) is called every loop iteration with
the loop's clock; it returns at most one event per call:

    ("roll", False)   short press, reported on release
    ("roll", True)    long press, reported once when the button has been held
                      long_ms; its release reports nothing
    None              nothing happened

A level change counts only after it has been stable for debounce_ms (wrap-safe
tick arithmetic).  The result tuples are built once in __init__: a poll allocates
nothing.
"""

from boardcore.ticks import ticks_diff


class Buttons:
    """Debounced buttons.  pins: machine.Pin inputs; names: their event names
    (default "roll", "undo"); times in ms.  Interface (same as the simulated
    buttons): poll(now_ms) -> None or (name, long)."""

    def __init__(self, pins, names=("roll", "undo"), active_low=True, debounce_ms=20,
                 long_ms=700):
        if len(pins) != len(names):
            raise ValueError("one name per button pin")
        n = len(pins)
        self._pins = tuple(pins)
        self._short = tuple((nm, False) for nm in names)
        self._long = tuple((nm, True) for nm in names)
        self._idle = 1 if active_low else 0   # pin level when not pressed
        self._raw = bytearray(n)              # last raw pressed state (0/1)
        self._state = bytearray(n)            # debounced pressed state
        self._longsent = bytearray(n)         # long press already reported
        self._since = [0] * n                 # time the raw state last changed
        self._down = [0] * n                  # time the debounced press began
        self._busy = 0                        # a button is down or not yet settled
        self.debounce_ms = debounce_ms
        self.long_ms = long_ms

    def poll(self, now_ms):
        """Sample every button once; returns the first event found, or None.  With
        every button released and settled it reads the pins in a small call frame
        (kept off MicroPython's heap: no allocation at all)."""
        if not self._busy:
            pins = self._pins
            idle = self._idle
            i = len(pins)
            while i:
                i -= 1
                if pins[i].value() != idle:
                    return self._poll(now_ms)
            return None
        return self._poll(now_ms)

    def _poll(self, now_ms):
        pins = self._pins
        idle = self._idle
        raw = self._raw
        state = self._state
        since = self._since
        ev = None
        for i in range(len(pins)):
            r = 1 if pins[i].value() != idle else 0
            if r != raw[i]:
                raw[i] = r
                since[i] = now_ms
            if r != state[i]:
                if ticks_diff(now_ms, since[i]) >= self.debounce_ms:
                    state[i] = r
                    if r:
                        self._down[i] = now_ms
                        self._longsent[i] = 0
                    elif not self._longsent[i] and ev is None:
                        ev = self._short[i]
            elif r and not self._longsent[i]:
                if ticks_diff(now_ms, self._down[i]) >= self.long_ms and ev is None:
                    self._longsent[i] = 1
                    ev = self._long[i]
        busy = 0
        for i in range(len(pins)):
            busy |= raw[i] | state[i]
        self._busy = busy
        return ev

    def pressed(self, i):
        """Debounced state of button i (True = held down)."""
        return bool(self._state[i])
