"""Samsara's board-core settings (docs/core-api.md, docs/debounce.md, docs/leds.md):
the settings of every game's board core (boardcore.settings.Settings) and Samsara's own
(the dice source, the opponent's-goal option).

One plain object; the Pico's main.py, the simulated board and trace replay build it
with keyword arguments and pass it to samsara.core.Board.  Unknown keywords raise
TypeError so that a misspelt setting fails loudly.
"""

from boardcore.settings import Settings, DEFAULT_BUDGET_MA
from samsara.rules import moves as rules

DICE_SOURCES = ("electronic", "manual", "host")


class Config(Settings):
    """Board-core settings: boardcore.settings.Settings's (scan_ms, settle_lift_ms,
    settle_place_ms, return_ms, budget_ma, event_capacity) and Samsara's:

    dice             'electronic' (roll button, random source), 'manual' (enter
                     physical dice with the button) or 'host' (set_dice only)
    rng              object with a method die() returning 1..6 (electronic dice);
                     None: samsara.rng.Lcg(seed)
    seed             seed of the default random source
    opponent_goal    'owner_scores' or 'forbidden' (docs/rules.md §3)

    ValueError for an unknown dice source or opponent_goal, and as Settings.
    """

    def __init__(self, scan_ms=5, settle_lift_ms=4, settle_place_ms=150, return_ms=30,
                 dice="electronic", rng=None, seed=1, opponent_goal="owner_scores",
                 budget_ma=DEFAULT_BUDGET_MA, event_capacity=64):
        if dice not in DICE_SOURCES:
            raise ValueError("unknown dice source %r (use electronic, manual or host)" % (dice,))
        Settings.__init__(self, scan_ms, settle_lift_ms, settle_place_ms, return_ms,
                          budget_ma, event_capacity)
        self.dice = dice
        self.rng = rng
        self.seed = seed
        self.opponent_goal = opponent_goal
        self.og = rules.option_code(opponent_goal)
