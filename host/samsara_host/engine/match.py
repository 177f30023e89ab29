"""Engine matches: N single games between two players, the first player alternating,
the dice of game i drawn from (seed, i) so that the result is the same for any number
of worker processes (docs/engine.md "Matches").

Players (`PLAYERS`): `random` and `greedy` (the simulator's strategies,
samsara_host.sim.player), `device` (samsara.rules.engine; `device1`, `device2` at the
board player's lower levels) and `host`
(samsara_host.engine.hostengine).  A player is a function

    decide(r, s, a, b, mover, d1, d2, og, mode, starter, pick) -> (moves, key) or None

with `pick(n)` the simulator's seeded tie-break (used by random and greedy only).
"""
import math
import random
import time

from samsara.rules import engine as dev
from samsara.rules import moves as rules
from samsara.rules.game import Game
from samsara.rules.moves import M_R, M_S, M_A, M_B
from samsara_host.engine import hostengine
from samsara_host.sim import player as simplayer

MAX_TURNS = 1000
"""A game still running after this many turns is stopped and counted a draw."""

ENGINE_SEED = 1
"""The tie-break seed of the device and host engines in a match."""


def _sim(strategy):
    def decide(r, s, a, b, mover, d1, d2, og, mode, starter, pick):
        moves = strategy(r, s, a, b, mover, d1, d2, og, pick)
        if moves is None:
            return None
        m = moves[-1]
        return (moves, (m[M_R], m[M_S], m[M_A], m[M_B]))
    return decide


def engine_player(choose):
    """A match player (module docstring) from an engine's choose(r, s, a, b, mover, d1,
    d2, og, seed, mode, starter) -> (moves, key, value) or None; the tie-break seed is
    ENGINE_SEED."""
    def decide(r, s, a, b, mover, d1, d2, og, mode, starter, pick):
        res = choose(r, s, a, b, mover, d1, d2, og, ENGINE_SEED, mode, starter)
        if res is None:
            return None
        return (res[0], res[1])
    return decide


def _device_level(level):
    # the device engine at a lower level (samsara.rules.engine.LEVEL_SPREAD)
    def choose(r, s, a, b, mover, d1, d2, og, seed, mode, starter):
        return dev.choose(r, s, a, b, mover, d1, d2, og, seed, mode, starter, level)
    return engine_player(choose)


PLAYERS = {
    "random": _sim(simplayer.choose_random),
    "greedy": _sim(simplayer.choose_greedy),
    "device": engine_player(dev.choose),
    "device1": _device_level(1),
    "device2": _device_level(2),
    "host": engine_player(hostengine.choose),
}
"""Player name -> decide function (module docstring): device1 and device2 are the
device engine at the board player's levels 1 and 2 (`device` is level 3)."""


def play_on(game, players, dice, pick, og=rules.OWNER_SCORES):
    """Play Game `game` on to its end, or until it has MAX_TURNS turns: each turn two
    dice drawn from `dice` (a random.Random: d1, then d2, 1..6), the turn chosen by
    players[mover] (a match player, module docstring; mover 0 = A, 1 = B) in single
    mode, None (no turn: Moksha) applied as an empty turn.  Returns `game`, its result
    in game.result (None when stopped at MAX_TURNS)."""
    while not game.over() and len(game.record) < MAX_TURNS:
        d1 = dice.randint(1, 6)
        d2 = dice.randint(1, 6)
        p = game.pos
        res = players[p.mover](p.r, p.s, p.a, p.b, p.mover, d1, d2, og, dev.MODE_SINGLE,
                               0, pick)
        if res is None:
            game.apply(d1, d2, [], None)
        else:
            game.apply(d1, d2, list(res[0]), res[1])
    return game


def play_game(a_name, b_name, seed, index, og=rules.OWNER_SCORES):
    """Play game `index` of a match between players a_name and b_name (PLAYERS keys).

    Player a sits first (board side A, to move first) in even games, second in odd
    games.  Dice and the simulator players' picks come from random.Random seeded
    with (seed, index) strings.  Returns a dict: winner 'a', 'b' or None, moksha
    (bool), turns, and per side ('a', 'b') the decisions made and their CPU seconds.
    """
    if index % 2 == 0:
        seats = (a_name, b_name)
        names = ("a", "b")
    else:
        seats = (b_name, a_name)
        names = ("b", "a")
    dice = random.Random("samsara-dice:%d:%d" % (seed, index))
    picks = random.Random("samsara-pick:%d:%d" % (seed, index))
    decisions = {"a": 0, "b": 0}
    secs = {"a": 0.0, "b": 0.0}

    def timed(mover):
        # the seat's player, its decisions counted and timed for its side
        decide, side = PLAYERS[seats[mover]], names[mover]

        def run(*args):
            t0 = time.perf_counter()
            res = decide(*args)
            secs[side] += time.perf_counter() - t0
            decisions[side] += 1
            return res
        return run

    game = play_on(Game(og=og), (timed(0), timed(1)), dice,
                   simplayer.random_pick(picks), og)
    winner = None
    moksha = False
    if game.result is not None:
        if game.result[0] is not None:
            winner = names[game.result[0]]
        moksha = game.result[1] == "moksha"
    return {"winner": winner, "moksha": moksha, "turns": len(game.record),
            "decisions": decisions, "secs": secs}


def play_star(args):
    """play_game(*args): one game of a match from its argument tuple (for in_order)."""
    return play_game(*args)


def wilson(p, n, z=1.96):
    """Wilson score interval [low, high] of a proportion p over n trials (95 % for
    z = 1.96); [0, 1] for n = 0."""
    if n == 0:
        return [0.0, 1.0]
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return [max(0.0, centre - half), min(1.0, centre + half)]


def _ignore_sigint():
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_match(a_name, b_name, games, seed, jobs=1, og=rules.OWNER_SCORES):
    """Play `games` games (play_game 0..games-1) on `jobs` processes, merged in game
    order; returns the summary dict of `samsara engine match --json` (docs/engine.md).
    Raises ValueError for an unknown player name."""
    for n in (a_name, b_name):
        if n not in PLAYERS:
            raise ValueError("unknown player %r (use %s)" % (n, ", ".join(sorted(PLAYERS))))
    work = [(a_name, b_name, seed, i, og) for i in range(games)]
    results = list(in_order(play_star, work, jobs, chunksize=max(1, games // (jobs * 8))))
    return summarize(a_name, b_name, games, seed, og, results)


def in_order(func, work, jobs=1, chunksize=1):
    """func(item) for each item of the list `work`, yielded in the order of `work` as
    they are done, on `jobs` forked worker processes when jobs > 1 and there is more
    than one item (matches, calibration games: each game's dice come from its index,
    so the results are the same for any jobs).  The workers ignore Ctrl-C: the terminal
    sends it to the whole group, and only the parent answers it, with one line, not a
    traceback per worker."""
    if jobs <= 1 or len(work) <= 1:
        for w in work:
            yield func(w)
        return
    import multiprocessing
    with multiprocessing.get_context("fork").Pool(jobs, _ignore_sigint) as pool:
        for res in pool.imap(func, work, chunksize):
            yield res


def summarize(a_name, b_name, games, seed, og, results):
    """The summary dict of a match from its per-game results (play_game dicts in
    game order)."""
    a_wins = sum(1 for g in results if g["winner"] == "a")
    b_wins = sum(1 for g in results if g["winner"] == "b")
    draws = games - a_wins - b_wins
    moksha = sum(1 for g in results if g["moksha"])
    rate = (a_wins + draws / 2.0) / games if games else 0.0
    spd = {}
    for side in ("a", "b"):
        n = sum(g["decisions"][side] for g in results)
        t = sum(g["secs"][side] for g in results)
        spd[side] = (t / n) if n else 0.0
    return {
        "a": a_name, "b": b_name, "games": games, "seed": seed,
        "opponent_goal": rules.OPTION_NAMES[og],
        "a_wins": a_wins, "b_wins": b_wins, "draws": draws, "moksha_draws": moksha,
        "a_win_rate": rate, "a_win_rate_ci95": wilson(rate, games),
        "turns": sum(g["turns"] for g in results),
        "decisions": {"a": sum(g["decisions"]["a"] for g in results),
                      "b": sum(g["decisions"]["b"] for g in results)},
        "sec_per_decision": spd,
    }
