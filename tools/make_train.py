"""`make train`: the shipped host evaluation (host/samsara_host/engine/weights-base.npz,
weights-features.npz, weights.npz and weights-faster.npz) from its seed, in four stages
of tools/train_host.py (docs/engine.md "Training the host evaluation"):

  1. the base network: 88 inputs (lanes, double spaces, scores, the device engine's
     chances), 40 hidden units, from the device evaluation, TD(lambda) self-play games
     0 .. BASE_GAMES - 1;
  2. the same network given the player's features (neteval.N_FEATURES inputs, the new
     ones starting at zero weight) and trained on, games BASE_GAMES ..
     FEATURES_GAMES - 1;
  3. stage 2's network trained on with a hidden layer ten times faster (FAST_ALPHA;
     the linear path as fast as before), games FEATURES_GAMES .. GAMES - 1;
  4. stage 2's network trained on again, its hidden layer twenty times faster
     (FASTER_ALPHA; the linear path still as fast), games FEATURES_GAMES ..
     FASTER_GAMES - 1: stage 3's games with other rates.

Stages 2 to 4 are measured against the device engine every EVAL_EVERY games (1 ply,
EVAL_GAMES games of match seed 3).  Each stage keeps a checkpoint in DIR (base.npz,
features.npz, fast.npz, faster.npz, and the measured weights features.games-N.npz,
fast.games-N.npz, faster.games-N.npz and their .best.npz): a stopped run (Ctrl-C, a
kill, a lost session) started again with the same options goes on where it stopped
and writes the same weights.  Each stage's
final weights are DIR/base-final.npz, DIR/features-final.npz, DIR/weights.npz and
DIR/faster-final.npz; the shipped evaluation is all four together (the mean of their
logits, neteval.Ensemble): copy them to weights-base.npz, weights-features.npz,
weights.npz and weights-faster.npz beside neteval.py (or other measured ones) after
measuring them at ply 2.

Usage: python -m tools.make_train [--dir DIR] [--seed S] [--base-games N]
       [--features-games N] [--games N] [--faster-games N] [--eval-every K]
       [--eval-games M] [--stop-after N]
"""
import argparse
import os
import sys

from tools import train_host

ALPHA = 0.03
"""Learning rate of stages 1 and 2 (the hidden layer; the linear path LIN times it)."""
LIN = 0.3
FAST_ALPHA = 0.3
"""Learning rate of stage 3's hidden layer; its linear path FAST_LIN times it, the same
ALPHA * LIN as before."""
FAST_LIN = 0.03
FASTER_ALPHA = 0.6
"""Learning rate of stage 4's hidden layer, twice stage 3's; its linear path
FASTER_LIN times it, again the same ALPHA * LIN."""
FASTER_LIN = 0.015
HIDDEN = 40


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", default=os.path.join("build", "train"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--base-games", type=int, default=24000,
                    help="index after the last game of stage 1")
    ap.add_argument("--features-games", type=int, default=40000,
                    help="index after the last game of stage 2")
    ap.add_argument("--games", type=int, default=104000,
                    help="index after the last game of stage 3 (default 104000: the "
                    "shipped weights)")
    ap.add_argument("--faster-games", type=int, default=96000,
                    help="index after the last game of stage 4, which starts where "
                    "stage 3 does (default 96000: the shipped weights)")
    ap.add_argument("--hidden", type=int, default=HIDDEN)
    ap.add_argument("--eval-every", type=int, default=8000)
    ap.add_argument("--eval-games", type=int, default=400)
    ap.add_argument("--log-every", type=int, default=1000)
    ap.add_argument("--stop-after", type=int, default=None,
                    help="stop after this many games of this invocation (all stages "
                    "together); the same command goes on")
    args = ap.parse_args(argv)
    if not 0 < args.base_games < args.features_games < min(args.games,
                                                           args.faster_games):
        ap.error("need 0 < --base-games < --features-games < --games and "
                 "--faster-games")
    os.makedirs(args.dir, exist_ok=True)

    def path(name):
        return os.path.join(args.dir, name)

    evals = ["--eval-every", str(args.eval_every), "--eval-games", str(args.eval_games)]
    stages = [
        ("the base network", 0, args.base_games, "base",
         [ALPHA, LIN], ["--hidden", str(args.hidden), "--inputs", "88"], "base-final.npz"),
        ("the player's features", args.base_games, args.features_games, "features",
         [ALPHA, LIN], ["--init", path("base-final.npz"), "--widen"] + evals,
         "features-final.npz"),
        ("a faster hidden layer", args.features_games, args.games, "fast",
         [FAST_ALPHA, FAST_LIN], ["--init", path("features-final.npz")] + evals,
         "weights.npz"),
        ("a faster hidden layer still", args.features_games, args.faster_games, "faster",
         [FASTER_ALPHA, FASTER_LIN], ["--init", path("features-final.npz")] + evals,
         "faster-final.npz"),
    ]
    left = args.stop_after
    for k, (what, first, end, ck, rate, extra, out) in enumerate(stages):
        print("stage %d: %s, games %d-%d" % (k + 1, what, first, end - 1), flush=True)
        if os.path.exists(path(out)):
            continue
        if left is not None and left <= 0:
            return 0        # stopped at the stage's start
        before = _next(path(ck + ".npz"), first)
        cmd = ["--seed", str(args.seed), "--alpha", str(rate[0]), "--lin", str(rate[1]),
               "--log-every", str(args.log_every)] + extra
        if first:
            cmd += ["--first", str(first)]
        cmd += ["--games", str(end), "--out", path(out), "--checkpoint", path(ck + ".npz")]
        if left is not None:
            cmd += ["--stop-after", str(left)]
        print("train: python -m tools.train_host " + " ".join(cmd), flush=True)
        rc = train_host.main(cmd)
        if rc:
            return rc
        if left is not None:
            left -= _next(path(ck + ".npz"), first) - before
        if not os.path.exists(path(out)):
            return 0        # stopped inside the stage
    return 0


def _next(ck, first):
    # The next game index of checkpoint ck (`first`, the stage's first game, when there
    # is none yet).
    if not os.path.exists(ck):
        return first
    return train_host.neteval.load_meta(ck).get("next", first)


if __name__ == "__main__":
    sys.exit(main())
