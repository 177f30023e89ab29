"""A tiny frame-script helper for controller tests: a Board on a virtual clock.

    b = Script()                      # single game from the start, board settled
    b.roll(5, 3)                      # host-set dice + roll press
    b.lift("R1"); b.place("S18")      # raw changes, each followed by enough scans to settle
    b.raw_set("R7", True); b.wait(60) # raw change without waiting for the settle
    b.state, b.position(), b.mark("S18"), b.colour("S18"), b.rejects()

Every raw change is scanned at the board's scan period; nothing sleeps in wall time.
Runs under CPython (pytest) and MicroPython (tests/upy use the same file via a copy
of the path) as it only uses the firmware core.
"""

from samsara.core import Board
from samsara.config import Config
from samsara import frame as fr
from samsara.rules.geometry import position_index
from samsara import scene as sc


class Script:
    """A Board, its raw frame and a virtual clock in ms.

    position: position string or None; match, starter: see Board.new_game;
    other keywords go to samsara.config.Config.
    """

    def __init__(self, position=None, match=False, starter=0, **cfg):
        self.board = Board(Config(**cfg))
        self.cfg = self.board.config
        self.t = 0
        self.board.new_game(position=position, match=match, starter=starter, now_ms=0)
        self.raw = bytearray(self.board.debounce.settled)
        self.events = []
        self.drain()

    # -- time and raw input

    def wait(self, ms):
        """Scan every scan_ms for `ms` milliseconds with the raw frame unchanged."""
        end = self.t + ms
        step = self.cfg.scan_ms
        while self.t + step <= end:
            self.t += step
            self.board.tick(self.t, self.raw)
        self.t = end
        self.drain()

    def raw_set(self, name, on):
        """Change the raw sensor of `name` ('R1', 'GS', 'A0', ...) without scanning."""
        fr.put(self.raw, position_index(name), 1 if on else 0)

    def lift(self, name, settle=True):
        """Take the marble or piece out of `name`; wait until the lift has settled."""
        self.raw_set(name, False)
        self.wait(self.cfg.settle_lift_ms + 2 * self.cfg.scan_ms if settle else self.cfg.scan_ms)

    def place(self, name, settle=True):
        """Put a marble or piece into `name`; wait until the placement has settled."""
        self.raw_set(name, True)
        self.wait(self.cfg.settle_place_ms + 2 * self.cfg.scan_ms if settle else self.cfg.scan_ms)

    def move(self, src, dst):
        """lift(src) then place(dst)."""
        self.lift(src)
        self.place(dst)

    def slide(self, src, over, dst, dwell=80):
        """Slide a marble from src across the empty holes `over` (each on for `dwell`
        ms) into dst."""
        self.raw_set(src, False)
        self.wait(dwell)
        for h in over:
            self.raw_set(h, True)
            self.wait(dwell)
            self.raw_set(h, False)
        self.place(dst)

    # -- buttons

    def roll(self, d1=None, d2=None):
        """Press roll, with host-set dice when given."""
        if d1 is not None:
            self.board.set_dice(d1, d2)
        self.press("roll")

    def press(self, button, long=False):
        self.board.press(self.t, button, long)
        self.wait(self.cfg.scan_ms)

    # -- observations

    def drain(self):
        """Move queued events into self.events; return the new ones."""
        new = []
        while True:
            e = self.board.poll_event()
            if e is None:
                break
            new.append(e)
        self.events.extend(new)
        return new

    def of(self, kind):
        """Events of type `kind` so far."""
        return [e for e in self.events if e["ev"] == kind]

    def rejects(self):
        """Reasons of every rejection so far."""
        return [e["reason"] for e in self.events if e["ev"] == "reject"]

    def clear(self):
        self.events = []

    @property
    def state(self):
        return self.board.controller.state

    def position(self):
        return self.board.controller.position().format()

    def mark(self, name):
        """The mark code (samsara.scene) of a position."""
        return self.board.controller.view.marks[position_index(name)]

    def colour(self, name):
        """(r, g, b) of a position in the board's scene."""
        i = position_index(name) * 3
        s = self.board.scene
        return (s[i], s[i + 1], s[i + 2])

    def lit(self):
        """{name: mark} of every position with a mark."""
        from samsara.rules.geometry import position_name
        m = self.board.controller.view.marks
        return dict((position_name(p), m[p]) for p in range(64) if m[p])

    def targets(self):
        """Sorted [(name, die)] lit as targets."""
        return sorted(self.board.controller.lit_targets())

    def die_colour(self, d):
        return (sc.COLOURS[3 * d], sc.COLOURS[3 * d + 1], sc.COLOURS[3 * d + 2])


def mark_colour(mark):
    return (sc.COLOURS[3 * mark], sc.COLOURS[3 * mark + 1], sc.COLOURS[3 * mark + 2])
