"""A Samas game: rounds played from a state, the round limit and how the game ended
(docs/samas.md "The rules": the end; "Decisions": round limit).

Game.result is None while the game runs, then "A", "B" or "draw"; Game.how says why it
ended: "far end" (a Sama-stone reached its far end), "run-out" (a player held nothing
after a round) or "limit" (ROUND_LIMIT rounds played, scored like a run-out: the player
closer to the far end wins, equal distance is a draw).
"""

from samas.rules.state import START
from samas.rules.rounds import reveal, run_out, result, IllegalSelectionError

ROUND_LIMIT = 100
"""Rounds after which a game still running ends (docs/samas.md "Decisions"): two
players who both keep revealing 0 would otherwise never finish."""


class Game:
    """One Samas game from `state` (default: the start).

    Attributes: state (the State now), rounds (rounds played), result and how (module
    docstring; None while the game runs), limit (the round limit, default ROUND_LIMIT).
    A state that is already over gives a game that is over.
    """

    def __init__(self, state=START, limit=ROUND_LIMIT):
        self.state = state
        self.limit = limit
        self.rounds = 0
        self.result = None
        self.how = None
        self._settle(state.distance(0) == 0 or state.distance(1) == 0)

    def over(self):
        """True once the game has a result."""
        return self.result is not None

    def play(self, sel_a, sel_b):
        """Play one round: A reveals selection `sel_a`, B `sel_b` (indexes 0..4 of
        rounds.SELECTIONS).  Returns the new state.  Raises IllegalSelectionError for a
        selection the player may not make, or when the game is over."""
        if self.result is not None:
            raise IllegalSelectionError("the game is over")
        s = reveal(self.state, sel_a, sel_b)
        far = s.distance(0) == 0 or s.distance(1) == 0
        self.state = run_out(s)
        self.rounds += 1
        self._settle(far)
        return self.state

    def _settle(self, far):
        s = self.state
        r = result(s)
        if r is not None:
            self.result = r
            self.how = "far end" if far else "run-out"
        elif self.rounds >= self.limit:
            da = s.distance(0)
            db = s.distance(1)
            self.result = "draw" if da == db else ("A" if da < db else "B")
            self.how = "limit"
