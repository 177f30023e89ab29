"""Paired rollouts: which of two or more positions is better for a side, played out to the
end many times with the same dice (docs/engine.md "Known positions": how a hand-checked
answer was checked against play, not only against a rule of thumb).

Each position (the position string of docs/rules.md, the same player to move in all) is
played to the game's end by `--player` for both sides, game i with the dice of
random.Random("samsara-rollout:SEED:i") for every position, so a difference between two
positions is not the dice's.  Printed: per position the mean result for `--side` (a win
1, a Moksha or a game stopped at match.MAX_TURNS 0.5, a loss 0) with its 95 % interval,
and for each position after the first, the games where it did better and worse than the
first on the same dice with the sign test's z.  Progress goes to stderr every 500 games.

The players: `host1` (the shipped host evaluation at ply 1: fast, and as strong as the
host engine's first ply), or any match player (`match.PLAYERS`: device, greedy, host
(ply 2, about 100 times slower), ...).

Usage: python -m tools.rollout_positions [--player P] [--games N] [--seed S]
       [--side A|B] POSITION POSITION [...]
"""
import argparse
import functools
import math
import random
import sys

from samsara.rules import moves as rules
from samsara.rules.game import Game
from samsara.rules.position import Position
from samsara_host.engine import hostengine, match
from samsara_host.sim import player as simplayer


PLAYERS = dict(match.PLAYERS, host1=match.engine_player(
    functools.partial(hostengine.choose, ply=1, deep=False)))
"""Player name -> match player: match.PLAYERS and host1, the host engine at ply 1."""


def play_out(position, decide, seed, index, side, og=rules.OWNER_SCORES):
    """One rollout: Position `position` played to the end by `decide` (a match player)
    for both sides with the dice of game `index` of `seed`.  Returns the result for
    `side` (0 = A, 1 = B): 1.0 a win, 0.0 a loss, 0.5 a Moksha or a game stopped after
    match.MAX_TURNS turns."""
    dice = random.Random("samsara-rollout:%d:%d" % (seed, index))
    pick = simplayer.random_pick(random.Random("samsara-rollout-pick:%d:%d" % (seed, index)))
    game = match.play_on(Game(position, og=og), (decide, decide), dice, pick, og)
    if game.result is None or game.result[0] is None:
        return 0.5
    return 1.0 if game.result[0] == side else 0.0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("positions", nargs="+", metavar="POSITION")
    ap.add_argument("--player", default="host1", choices=sorted(PLAYERS))
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--side", choices=("A", "B"), default=None,
                    help="whose result (default: the player who has just moved, i.e. "
                    "not the one to move)")
    args = ap.parse_args(argv)
    if len(args.positions) < 2:
        ap.error("give two positions or more to compare")
    if args.games < 1:
        ap.error("--games must be at least 1")
    try:
        pos = [Position.parse(t) for t in args.positions]
    except ValueError as e:
        print("rollout_positions: %s" % e, file=sys.stderr)
        return 2
    if len({p.mover for p in pos}) != 1:
        print("rollout_positions: the positions must have the same player to move",
              file=sys.stderr)
        return 2
    side = (1 - pos[0].mover) if args.side is None else "AB".index(args.side)
    decide = PLAYERS[args.player]
    res = [[] for _ in pos]
    for i in range(args.games):
        for j, p in enumerate(pos):
            res[j].append(play_out(p, decide, args.seed, i, side))
        if (i + 1) % 500 == 0:
            print("rollout_positions: %d/%d games" % (i + 1, args.games), file=sys.stderr,
                  flush=True)
    print("%d games each, player %s, seed %d, results for %s" % (
        args.games, args.player, args.seed, "AB"[side]))
    for j, t in enumerate(args.positions):
        m = sum(res[j]) / args.games
        lo, hi = match.wilson(m, args.games)
        line = "%.4f (%.4f-%.4f)  %s" % (m, lo, hi, t)
        if j:
            better = sum(1 for x, y in zip(res[j], res[0]) if x > y)
            worse = sum(1 for x, y in zip(res[j], res[0]) if x < y)
            z = (better - worse) / math.sqrt(better + worse) if better + worse else 0.0
            line += "\n    against the first: %d games better, %d worse, z = %.1f" % (
                better, worse, z)
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
