"""`make train`: the shipped host evaluation (host/samsara_host/engine/weights.npz and
weights-base.npz) from its seed, in two stages of tools/train_host.py (docs/engine.md "Training the host
evaluation"):

  1. the base network: 88 inputs (lanes, double spaces, scores, the device engine's
     chances), 40 hidden units, from the device evaluation, TD(lambda) self-play games
     0 .. BASE_GAMES - 1 (the weights shipped before the player's features);
  2. the same network given the player's features (neteval.N_FEATURES inputs, the new
     ones starting at zero weight) and trained on, games BASE_GAMES .. GAMES - 1,
     measured against the device engine every EVAL_EVERY games (1 ply, EVAL_GAMES
     games of match seed 3).

Each stage keeps a checkpoint in DIR (base.npz, features.npz, and the measured
weights features.games-N.npz, features.best.npz): a stopped run (Ctrl-C, a kill, a
lost session) started again with the same options goes on where it stopped and writes
the same weights.  The shipped evaluation is both stages' networks together (the mean of
their logits, neteval.Ensemble): stage 1's DIR/base-final.npz is
host/samsara_host/engine/weights-base.npz and stage 2's final weights, DIR/weights.npz,
are host/samsara_host/engine/weights.npz; copy them (or other measured ones) there after
measuring them at ply 2.

Usage: python -m tools.make_train [--dir DIR] [--seed S] [--base-games N] [--games N]
       [--eval-every K] [--eval-games M] [--stop-after N]
"""
import argparse
import os
import sys

from tools import train_host

ALPHA = 0.03
"""Learning rate of both stages (the hidden layer; the linear path LIN times it)."""
LIN = 0.3
HIDDEN = 40


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", default=os.path.join("build", "train"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--base-games", type=int, default=24000)
    ap.add_argument("--games", type=int, default=40000,
                    help="index after the last game of stage 2 (default 40000: the "
                    "shipped weights)")
    ap.add_argument("--hidden", type=int, default=HIDDEN)
    ap.add_argument("--eval-every", type=int, default=4000)
    ap.add_argument("--eval-games", type=int, default=400)
    ap.add_argument("--log-every", type=int, default=1000)
    ap.add_argument("--stop-after", type=int, default=None,
                    help="stop after this many games of this invocation (both stages "
                    "together); the same command goes on")
    args = ap.parse_args(argv)
    if not 0 < args.base_games < args.games:
        ap.error("need 0 < --base-games < --games")
    os.makedirs(args.dir, exist_ok=True)
    rate = ["--seed", str(args.seed), "--alpha", str(ALPHA), "--lin", str(LIN),
            "--log-every", str(args.log_every)]
    base_ck = os.path.join(args.dir, "base.npz")
    base_out = os.path.join(args.dir, "base-final.npz")
    left = args.stop_after

    def stage(extra, ck):
        # Runs one stage; returns how many games it played, or None when stopped.
        before = _next(ck)
        cmd = rate + extra + ["--checkpoint", ck]
        if left is not None:
            cmd += ["--stop-after", str(left)]
        print("train: python -m tools.train_host " + " ".join(cmd), flush=True)
        rc = train_host.main(cmd)
        if rc:
            raise SystemExit(rc)
        return _next(ck) - before

    print("stage 1: the base network, games 0-%d" % (args.base_games - 1), flush=True)
    if not os.path.exists(base_out):
        played = stage(["--games", str(args.base_games), "--hidden", str(args.hidden),
                        "--inputs", "88", "--out", base_out],
                       base_ck)
        if left is not None:
            left -= played
        if not os.path.exists(base_out):
            return 0        # stopped
        if left is not None and left <= 0:
            return 0
    print("stage 2: the player's features, games %d-%d" % (args.base_games, args.games - 1),
          flush=True)
    stage(["--init", base_out, "--widen", "--first", str(args.base_games),
           "--games", str(args.games), "--eval-every", str(args.eval_every),
           "--eval-games", str(args.eval_games),
           "--out", os.path.join(args.dir, "weights.npz")],
          os.path.join(args.dir, "features.npz"))
    return 0


def _next(ck):
    # The next game index of checkpoint ck (0 when there is none yet).
    if not os.path.exists(ck):
        return 0
    return train_host.neteval.load_meta(ck).get("next", 0)


if __name__ == "__main__":
    sys.exit(main())
