"""Settings of the board core (docs/core-api.md, docs/debounce.md, docs/leds.md).

One plain object; the Pico's main.py, the simulated board and trace replay build it
with keyword arguments and pass it to samsara.core.Board.  Unknown keywords raise
TypeError so that a misspelt setting fails loudly.
"""

from samsara.rules import moves as rules

DICE_SOURCES = ("electronic", "manual", "host")

# Default LED budget in mA: "Default LED budget: 290 mA" of hardware/power.md (500 mA
# of USB minus the Pico 50, sensors and level shifter 26.1, 80 idle WS2812 80 and a 10 %
# margin 50, rounded down; docs/leds.md "Power budget").  main.py passes the build's
# own value from board_config.LED_BUDGET_MA.
DEFAULT_BUDGET_MA = 290


class Config:
    """Board-core settings.

    scan_ms          scan period in ms: the tick period of main.py on the Pico, and so
                     also of the simulated board and trace replay (one default, 5 ms)
    settle_lift_ms   debounce settle of a lift (on -> off), ms
    settle_place_ms  debounce settle of a placement (off -> on), ms
    return_ms        a hole back on within this many ms of its lift settles as a lift
    dice             'electronic' (roll button, random source), 'manual' (enter
                     physical dice with the button) or 'host' (set_dice only)
    rng              object with a method die() returning 1..6 (electronic dice);
                     None: samsara.rng.Lcg(seed)
    seed             seed of the default random source
    opponent_goal    'owner_scores' or 'forbidden' (docs/rules.md §3)
    budget_ma        LED current budget of the power limiter, mA (above idle)
    event_capacity   length of the event queue (oldest dropped when full)
    """

    def __init__(self, scan_ms=5, settle_lift_ms=4, settle_place_ms=150, return_ms=30,
                 dice="electronic", rng=None, seed=1, opponent_goal="owner_scores",
                 budget_ma=DEFAULT_BUDGET_MA, event_capacity=64):
        if dice not in DICE_SOURCES:
            raise ValueError("unknown dice source %r (use electronic, manual or host)" % (dice,))
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
        self.dice = dice
        self.rng = rng
        self.seed = seed
        self.opponent_goal = opponent_goal
        self.og = rules.option_code(opponent_goal)
        self.budget_ma = budget_ma
        self.event_capacity = event_capacity
