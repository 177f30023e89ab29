"""The pacing of deferred work: when the board core leaves a piece of work for later so
that an answer goes out first (docs/performance.md "The answer within one iteration").
Its one job is to hold those decisions in one place.

On the Pico an answer to a change (a lifted marble's targets, a placement's acceptance
line) must go out in the scan iteration that commits the change, so the Pico's loop
(mainloop.Loop) paces the work: the scene is drawn where the LEDs are written, a lift's
targets are worked out before its commit, the game's end waits for a quiet moment, and
a turn does not complete while the loop still holds answers to send.  Everywhere else
(the simulator, the virtual board, trace replay) nothing is deferred and every flag is
off, so each change is answered in its own tick as recorded.

    lazy_redraw     Board.tick leaves the redraw to Board.redraw (the loop's LED piece)
    foresee_lifts   Board.tick works out a lift's targets at the scan that first sees it
                    (Controller.foresee), one scan before the debounce commits it
    defer_game_end  Controller.on_settled leaves a game's last turn (its record and the
                    game's end) for the loop's next quiet moment: end_due, end_due_ms
    hold            set by the loop while it holds events it has not sent yet: the
                    turn's completion waits (Board.tick), so its acceptance goes first
"""

END_WAIT_MS = 2000
"""A deferred game end is done after this long at the latest, quiet moment or not (a
flickering sensor may keep the board from ever being quiet)."""


class Pacing:
    """The deferred-work decisions of one board (module docstring).  deferred: True on
    the Pico (mainloop.BUDGET), False elsewhere."""

    def __init__(self, deferred=False):
        self.lazy_redraw = deferred
        self.foresee_lifts = deferred
        self.defer_game_end = deferred
        self.hold = False
        self.end_due = False          # a game's last turn waits to be recorded ...
        self.end_due_ms = 0           # ... since this time (ms)

    def defer(self, on):
        """Turn every deferral on (the Pico) or off."""
        self.lazy_redraw = on
        self.foresee_lifts = on
        self.defer_game_end = on

    def end_overdue(self, now_ms, diff):
        """True when a deferred game end has waited END_WAIT_MS (diff: ticks_diff)."""
        return self.end_due and diff(now_ms, self.end_due_ms) >= END_WAIT_MS
