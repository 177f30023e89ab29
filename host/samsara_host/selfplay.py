"""Seeded self-play on the rules engine: random complete turns, for demos, tests and
the benchmark corpus."""
import random

from samsara.rules.game import Game
from samsara.rules.moves import OWNER_SCORES


def play_game(seed, og=OWNER_SCORES, max_turns=2000, on_turn=None):
    """Play one complete single game with dice and choices from random.Random(seed).

    on_turn(game, d1, d2, position_before) is called before each turn.
    Returns the finished Game (or the game after max_turns turns).
    """
    rng = random.Random(seed)
    game = Game(og=og)
    while not game.over() and len(game.record) < max_turns:
        d1 = rng.randint(1, 6)
        d2 = rng.randint(1, 6)
        if on_turn:
            on_turn(game, d1, d2, game.pos)
        p = game.pos
        from samsara.rules import moves as rules
        turns = rules.complete_turns(p.r, p.s, p.a, p.b, p.mover, d1, d2, og)
        if not turns:
            game.apply(d1, d2, [], None)
            break
        moves, key = turns[rng.randrange(len(turns))]
        game.apply(d1, d2, list(moves), key)
    return game
