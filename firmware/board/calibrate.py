"""Guided calibration of the analog Hall sensors (docs/firmware.md "Calibration").

A small state machine that the USB `calibrate` command, the host tool or a button
sequence drives one step at a time; every step returns quickly (one measurement of
`rounds` full scans, about 16 * 64 ADC reads: tens of ms on the Pico).

    cal = HallCalibrator(scanner, "hallcal.txt")
    cal.begin()          state "empty":    prompt "empty the board ..."
    cal.step()           measures the empty levels -> state "occupied"
    cal.step()           measures again; every sensor whose reading moved by at least
                         min_delta from its empty level gets that reading as its
                         occupied level.  Repeat with the marbles moved on until no
                         sensor is missing (12 marbles + 2 scoring pieces: about five
                         rounds).  prompt() names the holes still missing.
    cal.step()           when none is missing (state "ready"): saves the file, applies
                         it to the scanner -> state "done"
    cal.skip()           in "occupied": stop and keep the sensors measured so far
                         (the others use the default either-direction thresholds)
    cal.abort()          back to the calibration in force before begin()

`hole(p)` narrows the occupied step to one position ("put a marble in hole X"):
the next step() then measures that sensor only.

States: "idle", "empty", "occupied", "ready", "done", "failed".  `problems` lists
the positions that failed the empty check (reading further than max_spread from the
default center: a marble left on the board, or a broken sensor).
"""

from array import array

from board.hall import HallCalibration

_N = 64


def _name(p):
    # Kept local so the driver package needs no core module for its prompts.
    if p < 24:
        return "R%d" % (p + 1)
    if p < 48:
        return "S%d" % (p - 23)
    if p == 48:
        return "GS"
    if p == 49:
        return "GR"
    if p < 57:
        return "AC" if p == 56 else "A%d" % (p - 50)
    return "BC" if p == 63 else "B%d" % (p - 57)


class HallCalibrator:
    """Guided calibration of a HallScanner; see the module doc for the steps.

    scanner:    board.hall.HallScanner (its `cal` is replaced when done).
    path:       calibration file on flash (format: board.hall.HallCalibration).
    rounds:     full scans averaged per measurement.
    min_delta:  counts a reading must move from empty to count as occupied.
    max_spread: counts an empty reading may lie from the default center.
    """

    def __init__(self, scanner, path, rounds=16, min_delta=120, max_spread=1500):
        self.scanner = scanner
        self.path = path
        self.rounds = rounds
        self.min_delta = min_delta
        self.max_spread = max_spread
        self.state = "idle"
        self.problems = []
        self._new = None
        self._old = None
        self._only = -1
        self._sums = array("i", [0] * _N)

    def _measure(self):
        sums = self._sums
        for p in range(_N):
            sums[p] = 0
        self.scanner.sample(sums, self.rounds)
        r = self.rounds
        return [(sums[p] + r // 2) // r for p in range(_N)]

    def begin(self):
        """Start (or restart) a calibration: state "empty"."""
        self._old = self.scanner.cal
        old = self._old
        self._new = HallCalibration(old.default_center, old.default_on, old.default_off)
        self.problems = []
        self._only = -1
        self.state = "empty"
        return self.prompt()

    def hole(self, p):
        """Measure only position p at the next occupied step (-1: all again)."""
        self._only = p
        return self.prompt()

    def missing(self):
        """Positions without an occupied level yet (list of indexes)."""
        new = self._new
        wired = self.scanner.wired
        if new is None:
            return [p for p in range(_N) if wired[p]]
        return [p for p in range(_N) if wired[p] and not new.occupied[p]]

    def step(self):
        """Do the measurement the current state asks for; returns the new prompt."""
        new = self._new
        if self.state == "empty" and new is not None:
            levels = self._measure()
            self.problems = []
            wired = self.scanner.wired
            for p in range(_N):
                if not wired[p]:
                    continue
                e = levels[p]
                if e < 1:
                    e = 1  # 0 means "not measured" in the file
                if abs(e - new.default_center) > self.max_spread:
                    self.problems.append(p)
                new.set_levels(p, e, 0)
            if self.problems:
                self.state = "failed"
            else:
                new.measured = True
                self.state = "occupied"
        elif self.state == "occupied" and new is not None:
            levels = self._measure()
            wired = self.scanner.wired
            for p in range(_N):
                if not wired[p] or new.occupied[p] or (self._only >= 0 and p != self._only):
                    continue
                o = levels[p]
                if abs(o - new.empty[p]) >= self.min_delta:
                    new.set_levels(p, new.empty[p], o)
            self._only = -1
            if not self.missing():
                self.state = "ready"
        elif self.state == "ready":
            self._finish()
        return self.prompt()

    def skip(self):
        """Finish now with the sensors measured so far (from "occupied")."""
        if self.state in ("occupied", "ready"):
            self._finish()
        return self.prompt()

    def _finish(self):
        new = self._new
        if new is None:
            return
        new.save(self.path)
        self.scanner.cal = new
        self.state = "done"

    def abort(self):
        """Drop the new measurement; the previous calibration stays in force."""
        if self._old is not None:
            self.scanner.cal = self._old
        self._new = None
        self.state = "idle"
        return self.prompt()

    def prompt(self):
        """One line for the user: what to do next."""
        s = self.state
        if s == "empty":
            return "empty the board: remove every marble and both scoring pieces, then step"
        if s == "occupied":
            miss = self.missing()
            if self._only >= 0:
                return "put a marble in hole %s, then step" % _name(self._only)
            names = " ".join(_name(p) for p in miss[:14])
            more = " ..." if len(miss) > 14 else ""
            return "put marbles or pieces in holes still missing (%d): %s%s, then step" % (
                len(miss), names, more)
        if s == "ready":
            return "every sensor measured: step to save"
        if s == "done":
            return "calibration saved to %s" % self.path
        if s == "failed":
            return "empty check failed at %s: clear those holes and begin again" % " ".join(
                _name(p) for p in self.problems)
        return "idle: begin to calibrate"
