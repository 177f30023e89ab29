"""A match of the host engine with an evaluation of your choice: one or more weight files
valued together (neteval.Ensemble, the mean of their logits), searched at ply 1 or 2,
against any match player (docs/engine.md "Strength": how the candidate evaluations
were compared before one was shipped).

The games are those of `samsara engine match host OPPONENT --games N --seed S` (the
same dice, seats and tie-breaks; samsara_host.engine.match), so two evaluations
measured on the same seed meet the same rolls, and with the shipped files at ply 2 the
result is that command's.  Prints one JSON line: the files, ply, opponent, seed, games,
`a_win_rate`, `a_win_rate_ci95`, the per-game winners (`won`: 1 a win of the host
engine, 0 a loss, 0.5 a draw, in game order, for sign tests between two evaluations)
and the wall time in seconds.

At ply 2 a close choice (the best `hostengine.CLOSE_TOP` turns within
`hostengine.CLOSE` of the best) is settled at ply 3, as the shipped engine plays (`hostengine.rank(deep=True)`, which `choose`
uses); --no-deep stops the search at ply 2, as the engine played before.  --close C
and --top T measure another close choice: the best T turns within C of the best
(`hostengine.close_keys`; the shipped CLOSE and CLOSE_TOP by default).

--mean-weights W [W ...] values the files by a weighted mean of their logits (one
positive number a file) instead of the plain mean.

Usage: python -m tools.match_evaluation --weights FILE [FILE ...] [--mean-weights W ...]
       [--ply 1|2] [--no-deep]
       [--close C] [--top T] [--opponent device] [--games N] [--first F] [--seed S]
       [--jobs J]
"""
import argparse
import json
import sys
import time

from samsara_host.engine import hostengine, match, neteval

PLAYER = "host-evaluation"
"""The name the chosen evaluation plays under in match.PLAYERS."""

PROGRESS_EVERY = 50
"""A progress line on stderr after every this many games."""

_NET = None
_PLY = 2
_DEEP = False
_CLOSE = hostengine.CLOSE
_TOP = hostengine.CLOSE_TOP


def _choose(r, s, a, b, mover, d1, d2, og, seed, mode, starter):
    ranked = hostengine.rank(r, s, a, b, mover, d1, d2, og, mode, starter, ply=_PLY, net=_NET,
                             deep=_DEEP, close=_CLOSE, top=_TOP)
    if not ranked:
        return None
    moves, key, value, _depth = ranked[0]
    return (moves, key, value)


def main(argv=None):
    global _NET, _PLY, _DEEP, _CLOSE, _TOP
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--weights", nargs="+", required=True,
                    help="weight files (.npz of neteval.Net), valued together")
    ap.add_argument("--mean-weights", type=float, nargs="+", default=None, metavar="W",
                    help="one positive number a weight file: a weighted mean of the "
                    "logits (neteval.Ensemble; default: the plain mean)")
    ap.add_argument("--ply", type=int, choices=(1, 2), default=2)
    ap.add_argument("--deep", action=argparse.BooleanOptionalAction, default=True,
                    help="settle a close choice (the best turns within --close of the "
                    "best at ply 2) at ply 3, as the shipped engine plays")
    ap.add_argument("--close", type=float, default=hostengine.CLOSE,
                    help="a choice is close when the turns are within this much win "
                    "probability of the best (default %(default)s)")
    ap.add_argument("--top", type=int, default=hostengine.CLOSE_TOP,
                    help="the most turns of a close choice searched at ply 3 "
                    "(default %(default)s)")
    ap.add_argument("--opponent", default="device", choices=sorted(match.PLAYERS))
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--first", type=int, default=0,
                    help="play games FIRST..FIRST+N-1 of the seed (a stopped run goes on)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    if args.games < 1 or args.jobs < 1 or args.first < 0:
        print("match_evaluation: --games and --jobs must be at least 1, --first at "
              "least 0", file=sys.stderr)
        return 2
    try:
        hostengine.check_close(args.close, args.top)
    except ValueError as e:
        print("match_evaluation: %s" % e, file=sys.stderr)
        return 2
    try:
        _NET = neteval.Ensemble([neteval.load(f) for f in args.weights], args.mean_weights)
    except (OSError, KeyError, ValueError) as e:
        print("match_evaluation: cannot read the weights: %s" % e, file=sys.stderr)
        return 2
    _PLY = args.ply
    _DEEP = args.deep and args.ply == 2
    _CLOSE, _TOP = args.close, args.top
    match.PLAYERS[PLAYER] = match.engine_player(_choose)
    work = [(PLAYER, args.opponent, args.seed, i)
            for i in range(args.first, args.first + args.games)]
    t0 = time.time()
    results = []
    for g in match.in_order(match.play_star, work, args.jobs):
        results.append(g)
        if len(results) % PROGRESS_EVERY == 0 and len(results) < args.games:
            won = sum(1 for x in results if x["winner"] == "a")
            print("match_evaluation: %d/%d games, %d won, %.0f s"
                  % (len(results), args.games, won, time.time() - t0),
                  file=sys.stderr, flush=True)
    res = match.summarize(PLAYER, args.opponent, args.games, args.seed, match.rules.OWNER_SCORES,
                          results)
    won = [1 if g["winner"] == "a" else 0 if g["winner"] == "b" else 0.5 for g in results]
    print(json.dumps({"weights": args.weights, "mean_weights": args.mean_weights,
                      "ply": args.ply, "deep": _DEEP,
                      "close": args.close, "top": args.top,
                      "opponent": args.opponent,
                      "seed": args.seed, "first": args.first, "games": args.games,
                      "a_win_rate": res["a_win_rate"],
                      "a_win_rate_ci95": res["a_win_rate_ci95"], "won": won,
                      "seconds": round(time.time() - t0)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
