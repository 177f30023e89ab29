"""Train the host engine's evaluation network (host/samsara_host/engine/neteval.py) by
temporal differences from self-play, in the manner of TD-Gammon (docs/engine.md
"Host engine", "Training the host evaluation").

The network plays both sides of seeded single games at 1 ply (each turn, the complete
turn whose resulting position it values highest for the mover; a turn that wins or
loses the game at once is valued 1 or 0).  After every turn the weights move by
TD(lambda): the value of the position from A's side is pulled towards the value of
the next one, and the last towards the result (1 A won, 0 B won, 0.5 Moksha), with
eligibility traces decaying by lambda.  The dice of game i come from
random.Random("samsara-train:SEED:i") and the first weights from numpy's generator
seeded with SEED, so the same arguments give the same weights.

Every --eval-every games the network at 1 ply plays --eval-games games against the
device engine (the dice of `samsara engine match`, seed 1) and the win rate is printed.

Usage: python -m tools.train_host [--games N] [--seed S] [--hidden H] [--alpha A]
       [--alpha-end E] [--lam L] [--eval-every K] [--eval-games M] [--init FILE --first I] [--out FILE]
(--games is the index after the last game, so `--init W --first 6000 --games 12000`
from the weights W of a `--games 6000` run gives the weights of `--games 12000`;
with --alpha-end the learning rate decays geometrically from --alpha at game --first
to --alpha-end at game --games - 1.)
The shipped weights: see docs/engine.md "Training the host evaluation".
"""
import argparse
import random
import sys
import time

from samsara.rules import moves as rules
from samsara_host.engine import match      # first: sets numpy's BLAS to one thread
from samsara_host.engine import neteval

import numpy as np  # noqa: E402


class Trainer:
    """TD(lambda) on a neteval.Net: `game(dice_rng)` plays one self-play game and
    updates the weights after every turn."""

    def __init__(self, net, alpha, lam, lin=1.0):
        self.net = net
        self.lin = lin
        self.alpha = alpha
        self.lam = lam

    def _grad(self, x):
        # Value and gradient of the network's output for one input row x.
        net = self.net
        h = 1.0 / (1.0 + np.exp(-(x @ net.w1 + net.b1)))
        v = 1.0 / (1.0 + np.exp(-(h @ net.w2 + x @ net.wl + net.b2)))
        dv = v * (1.0 - v)
        dh = dv * net.w2 * h * (1.0 - h)
        return v, (np.outer(x, dh), dh, dv * h, dv * x, dv)

    def _step(self, d, e):
        # Move the weights by d times the eligibility traces e.
        net = self.net
        net.w1 += d * e[0]
        net.b1 += d * e[1]
        net.w2 += d * e[2]
        net.wl += self.lin * d * e[3]
        net.b2 += d * e[4]

    def game(self, dice):
        """One self-play game with dice from random.Random `dice`; returns the number
        of turns played."""
        net = self.net
        lam = self.lam
        alpha = self.alpha
        r, s, a, b, mover = rules_start()
        e = None
        u_prev = None
        turns = 0
        z = None
        while turns < match.MAX_TURNS:
            d1 = dice.randint(1, 6)
            d2 = dice.randint(1, 6)
            turns += 1
            tl = rules.complete_turns(r, s, a, b, mover, d1, d2)
            if not tl:
                z = 0.5
                break
            keys = [k for _m, k in tl]
            best_i, best_v, end = pick(keys, mover, a, b, net)
            if end is not None:
                z = end
                break
            k = keys[best_i]
            x = neteval.features([k[0]], [k[1]], [k[2]], [k[3]], mover)[0]
            v, g = self._grad(x)
            sign = 1.0 if mover == 0 else -1.0
            u = v if mover == 0 else 1.0 - v
            if u_prev is not None:
                d = alpha * (u - u_prev)
                self._step(d, e)
            if e is None:
                e = [sign * gi for gi in g]
            else:
                e = [lam * ei + sign * gi for ei, gi in zip(e, g)]
            u_prev = u
            r, s, a, b = k
            mover = 1 - mover
        if z is None:
            z = 0.5
        if u_prev is not None:
            d = alpha * (z - u_prev)
            self._step(d, e)
        return turns


def rules_start():
    """The start position's parts (r, s, a, b, mover): R1-R6 and S1-S6, 0-0, A."""
    return (0x3F, 0x3F, 0, 0, 0)


def pick(keys, mover, a, b, net):
    """The 1-ply choice among resulting positions `keys` (list of (r, s, a, b)) for
    `mover` from scores (a, b): (index, value, end) with end the game's result for A
    (1.0 / 0.0) when the chosen turn ends the game, else None.  The first of equal
    values wins."""
    my0 = a if mover == 0 else b
    op0 = b if mover == 0 else a
    for i, k in enumerate(keys):
        my = k[2] if mover == 0 else k[3]
        if my == 6 and my0 < 6:
            return i, 1.0, (1.0 if mover == 0 else 0.0)
    vals = neteval.evaluate(keys, mover, net)
    for i, k in enumerate(keys):
        op = k[3] if mover == 0 else k[2]
        if op == 6 and op0 < 6:
            vals[i] = -1.0
    i = int(np.argmax(vals))
    if vals[i] < 0:
        return i, 0.0, (0.0 if mover == 0 else 1.0)
    return i, float(vals[i]), None


def evaluate_vs_device(net, games):
    """Win rate (draws half) of the network at 1 ply against the device engine over
    `games` games of `samsara engine match` seed 1."""
    def decide(r, s, a, b, mover, d1, d2, og, mode, starter, pick_):
        tl = rules.complete_turns(r, s, a, b, mover, d1, d2, og)
        if not tl:
            return None
        i, _v, _end = pick([k for _m, k in tl], mover, a, b, net)
        return tl[i]
    match.PLAYERS["_train"] = decide
    res = [match.play_game("_train", "device", 1, i) for i in range(games)]
    del match.PLAYERS["_train"]
    return match.summarize("_train", "device", games, 1, 0, res)["a_win_rate"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hidden", type=int, default=40)
    ap.add_argument("--alpha", type=float, default=0.1)
    ap.add_argument("--alpha-end", type=float, default=None,
                    help="learning rate of the last game: --alpha decays geometrically "
                    "from game --first to it (default: constant --alpha)")
    ap.add_argument("--lam", type=float, default=0.7)
    ap.add_argument("--per-goal", type=float, default=1.9,
                    help="logit per goal of the device evaluation the network starts from")
    ap.add_argument("--bias", type=float, default=-0.15,
                    help="output bias the network starts from")
    ap.add_argument("--lin", type=float, default=1.0,
                    help="learning rate of the linear path, relative to --alpha")
    ap.add_argument("--eval-every", type=int, default=0)
    ap.add_argument("--eval-games", type=int, default=200)
    ap.add_argument("--init", help="start from these weights (with --first: go on with "
                    "a run that stopped after game --first - 1)")
    ap.add_argument("--first", type=int, default=0,
                    help="index of the first game (its dice seed); default 0")
    ap.add_argument("--out", help="write the weights here (.npz)")
    args = ap.parse_args(argv)
    if args.init:
        net = neteval.load(args.init)
    else:
        net = neteval.Net.start(args.hidden, np.random.default_rng(args.seed), args.per_goal,
                               args.bias)
    tr = Trainer(net, args.alpha, args.lam, args.lin)
    t0 = time.time()
    nturns = 0
    span = max(1, args.games - 1 - args.first)
    for i in range(args.first, args.games):
        if args.alpha_end is not None:
            tr.alpha = args.alpha * (args.alpha_end / args.alpha) ** ((i - args.first) / span)
        nturns += tr.game(random.Random("samsara-train:%d:%d" % (args.seed, i)))
        if args.eval_every and (i + 1) % args.eval_every == 0:
            w = evaluate_vs_device(net, args.eval_games)
            print("games %d turns/game %.1f vs device %.3f (%.0f s)"
                  % (i + 1, nturns / (i + 1 - args.first), w, time.time() - t0), flush=True)
            if args.out:
                net.save(args.out)
    if args.out:
        net.save(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
