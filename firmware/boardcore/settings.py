"""The settings of any game's board core (docs/core-api.md, docs/debounce.md,
docs/leds.md): one plain object built with keyword arguments; an unknown keyword raises
TypeError so that a misspelt setting fails loudly.  A game adds its own (Samsara's:
samsara.config.Config, a subclass).
"""

DEFAULT_BUDGET_MA = 290
"""Default LED budget in mA: "Default LED budget: 290 mA" of hardware/power.md (500 mA of
USB minus the Pico 50, sensors and level shifter 26.1, 80 idle WS2812 80 and a 10 %
margin 50, rounded down; docs/leds.md "Power budget").  The boot passes the build's own
value from board_config.LED_BUDGET_MA."""


class Settings:
    """Board-core settings of every game.

    scan_ms          scan period in ms: the tick period of the scan loop on the Pico, and
                     so also of the simulated board and trace replay (one default, 5 ms)
    settle_lift_ms   debounce settle of a lift (on -> off), ms
    settle_place_ms  debounce settle of a placement (off -> on), ms
    return_ms        a hole back on within this many ms of its lift settles as a lift
    budget_ma        LED current budget of the power limiter, mA (above idle)
    event_capacity   length of the event queue (oldest dropped when full)

    ValueError for a scan period of 0 or less, a negative budget or a capacity below 1.
    """

    def __init__(self, scan_ms=5, settle_lift_ms=4, settle_place_ms=150, return_ms=30,
                 budget_ma=DEFAULT_BUDGET_MA, event_capacity=64):
        if scan_ms <= 0:
            raise ValueError("scan_ms must be > 0")
        if budget_ma < 0:
            raise ValueError("budget_ma must be >= 0")
        if event_capacity < 1:
            raise ValueError("event_capacity must be >= 1")
        self.scan_ms = scan_ms
        self.settle_lift_ms = settle_lift_ms
        self.settle_place_ms = settle_place_ms
        self.return_ms = return_ms
        self.budget_ma = budget_ma
        self.event_capacity = event_capacity
