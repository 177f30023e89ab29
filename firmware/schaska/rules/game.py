"""A Schaska game: a layout, turns played from a state, the turn limit and how the game
ended (docs/schaska.md "The rules": the end; "Decisions").

Game.result is None while the game runs, then "A", "B" or "draw"; Game.by is "home" (all
of a player's figures home), "block" (the player to move has no action) or "limit"
(TURN_LIMIT turns played; scored like a block).
"""

from schaska.rules.state import State
from schaska.rules.actions import legal_actions, apply, result, scored, IllegalActionError

TURN_LIMIT = 400
"""Turns after which a game still running ends, scored like a block."""


class Game:
    """One Schaska game on `layout` (a checked layout tuple) from `state` (default: every
    figure at its start, A to move).

    Attributes: layout, state (the State now), turns (turns played), result and by
    (module docstring; None while the game runs), limit (default TURN_LIMIT).
    A state that is already over gives a game that is over.  Raises ValueError when the
    state's track and the layout differ in length.
    """

    def __init__(self, layout, state=None, limit=TURN_LIMIT):
        if state is None:
            state = State(len(layout))
        if state.n != len(layout):
            raise ValueError("the layout has %d fields, the state %d" % (len(layout), state.n))
        self.layout = layout
        self.state = state
        self.limit = limit
        self.turns = 0
        self.result = None
        self.by = None
        self._settle()

    def over(self):
        """True once the game has a result."""
        return self.result is not None

    def legal(self):
        """The legal actions now (actions.legal_actions), empty once the game is over."""
        if self.result is not None:
            return []
        return legal_actions(self.layout, self.state)

    def play(self, action):
        """Take `action` (a (frm, to) pair from legal()) for the player to move; returns
        the new state.  Raises IllegalActionError for any other action or when the game
        is over."""
        if self.result is not None:
            raise IllegalActionError("the game is over")
        self.state = apply(self.layout, self.state, action)
        self.turns += 1
        self._settle()
        return self.state

    def _settle(self):
        r = result(self.layout, self.state)
        if r is not None:
            self.result, self.by = r
        elif self.turns >= self.limit:
            self.result = scored(self.state)
            self.by = "limit"
