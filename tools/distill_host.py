"""Teach the host evaluation its own ply-2 search (docs/engine.md "Training toward the
ply-2 search"): the network is fitted to the values the 2-ply expectimax gives with it,
so that one ply of the new network sees about what two plies of the old one saw, and
the shipped 2-ply search about what three would (search-bootstrapped training, as
TD-Leaf and KnightCap did it with a deeper teacher than the position itself).

1. **Positions.** Seeded games of the network at 1 ply against the device engine (the
   network A in even games, B in odd ones; 10 % of its turns one of its ply-1 best
   `TOP` picked at random, for variety); at every turn of either side, the `TOP` best
   turns of the roll by the network (the ones the ply-2 search compares) are kept,
   each labelled by `hostengine.reply_values`: its ply-2 value for the player who has
   just moved.  The dice of game i come from random.Random("samsara-distill:SEED:i"),
   the random picks from "samsara-distill-pick:SEED:i", so the same arguments give
   the same positions.  They are written to --data every --save-every games; a
   stopped run goes on from it.
2. **Fit.** From the same weights, Adam on the cross-entropy between the network's
   value and the ply-2 label, mini-batches of 256 in an order drawn from numpy's
   generator seeded with --fit-seed; the last tenth of the positions is held out and
   its mean squared error printed after every epoch (it only measures).

Usage: python -m tools.distill_host --init WEIGHTS --games N [--seed S] --data FILE
       [--epochs E] [--lr LR] [--fit-seed F] [--max-turns T] [--stop-after N] --out FILE
"""
import argparse
import os
import random
import signal
import sys
import time

from samsara.rules import engine as dev
from samsara.rules.moves import complete_turns
from samsara_host.engine import match  # noqa: F401  (first: numpy's BLAS on one thread)
from samsara_host.engine import hostengine, neteval

import numpy as np  # noqa: E402

from tools.train_host import StopAsked  # noqa: E402

TOP = 4
"""Turns kept and labelled per roll: the network's ply-1 best, as the search's width."""

RANDOM_TURNS = 0.1
"""Share of the network's own turns picked at random among its `TOP` best."""

MAX_TURNS = 400
"""A game of the position generator stops after this many turns."""

_KEYS = ("r", "s", "a", "b", "me", "y", "v1")


def game_positions(net, seed, index, max_turns=MAX_TURNS):
    """The labelled positions of generator game `index` (module docstring, step 1):
    a dict of lists `r`, `s`, `a`, `b` (the position after the turn), `me` (who has
    just moved), `y` (the ply-2 value for `me`) and `v1` (the network's ply-1 value);
    the game stops at its end or after `max_turns` turns."""
    out = {k: [] for k in _KEYS}
    dice = random.Random("samsara-distill:%d:%d" % (seed, index))
    rnd = random.Random("samsara-distill-pick:%d:%d" % (seed, index))
    net_side = index % 2
    r, s, a, b, mover = 0x3F, 0x3F, 0, 0, 0
    for _t in range(max_turns):
        d1, d2 = dice.randint(1, 6), dice.randint(1, 6)
        tl = complete_turns(r, s, a, b, mover, d1, d2)
        if not tl:
            mover = 1 - mover
            continue
        keys = [k for _m, k in tl]
        v1 = hostengine.values(keys, mover, a, b, net=net)
        order = sorted(range(len(keys)), key=lambda i: (-v1[i], i))
        cand = [i for i in order[:TOP]
                if hostengine._terminal(keys[i], mover, a, b, dev.MODE_SINGLE, 0) is None]
        if cand:
            y = hostengine.reply_values([keys[i] for i in cand], 1 - mover, net=net)
            for i, yy in zip(cand, y):
                k = keys[i]
                for name, val in zip(_KEYS, (k[0], k[1], k[2], k[3], mover, yy, v1[i])):
                    out[name].append(val)
        if mover == net_side:
            j = order[0] if rnd.random() > RANDOM_TURNS else rnd.choice(order[:TOP])
            k = keys[j]
        else:
            k = dev.choose(r, s, a, b, mover, d1, d2, 0, 1)[1]
        r, s, a, b = k
        if a >= 6 or b >= 6:
            break
        mover = 1 - mover
    return out


def load_data(path):
    """(arrays, next game) of a --data file: a dict of numpy arrays (`_KEYS`) and the
    index of the first game not in it."""
    with np.load(path) as z:
        return {k: z[k] for k in _KEYS}, int(z["next"])


def save_data(path, data, nxt, seed):
    """Write the positions `data` (dict of lists or arrays) and the next game index to
    `path` atomically."""
    tmp = path + ".tmp.npz"
    np.savez(tmp, next=np.array(nxt), seed=np.array(seed),
             **{k: np.asarray(data[k]) for k in _KEYS})
    os.replace(tmp, path)


def fit(net, x, y, epochs, lr, seed, batch=256, xv=None, yv=None, log=print):
    """Fit `net` (in place) to labels y (n) of input rows x (n x net.inputs) by Adam on
    the cross-entropy, `epochs` passes in orders drawn from numpy's generator `seed`;
    with held-out xv, yv the mean squared errors are logged after every epoch.
    Returns net."""
    rng = np.random.default_rng(seed)
    p = [net.w1.copy(), net.b1.copy(), net.w2.copy(), net.wl.copy(), np.array([net.b2])]
    m = [np.zeros_like(q) for q in p]
    v = [np.zeros_like(q) for q in p]
    t = 0
    for ep in range(epochs):
        idx = rng.permutation(len(y))
        for st in range(0, len(y), batch):
            j = idx[st:st + batch]
            xb, yb = x[j], y[j]
            h = 1.0 / (1.0 + np.exp(-(xb @ p[0] + p[1])))
            o = 1.0 / (1.0 + np.exp(-(h @ p[2] + xb @ p[3] + p[4][0])))
            dz = (o - yb) / len(j)
            dh = np.outer(dz, p[2]) * h * (1.0 - h)
            g = [xb.T @ dh, dh.sum(0), h.T @ dz, xb.T @ dz, np.array([dz.sum()])]
            t += 1
            for k in range(5):
                m[k] = 0.9 * m[k] + 0.1 * g[k]
                v[k] = 0.999 * v[k] + 0.001 * g[k] ** 2
                p[k] -= lr * (m[k] / (1 - 0.9 ** t)) / (np.sqrt(v[k] / (1 - 0.999 ** t)) + 1e-8)
        net.w1, net.b1, net.w2, net.wl, net.b2 = p[0], p[1], p[2], p[3], float(p[4][0])
        if xv is not None and log:
            log("epoch %d: mean squared error to the ply-2 values %.6f, held out %.6f"
                % (ep + 1, mse(net, x, y), mse(net, xv, yv)))
    return net


def mse(net, x, y):
    """Mean squared difference between net's values of rows x and labels y."""
    return float(np.mean((net.value(x) - y) ** 2))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--init", default=neteval.WEIGHTS,
                    help="the weights whose search teaches (default: the shipped ones)")
    ap.add_argument("--games", type=int, required=True,
                    help="generator games 0 .. N - 1")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--data", required=True,
                    help="the labelled positions (made, or gone on with, here)")
    ap.add_argument("--save-every", type=int, default=20)
    ap.add_argument("--max-turns", type=int, default=MAX_TURNS,
                    help="stop a generator game after this many turns (default %d)" % MAX_TURNS)
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--lr", type=float, default=0.001)
    ap.add_argument("--fit-seed", type=int, default=0)
    ap.add_argument("--stop-after", type=int, default=None,
                    help="stop (positions kept) after this many games of this invocation")
    ap.add_argument("--out", required=True, help="write the fitted weights here (.npz)")
    argv_used = list(sys.argv[1:] if argv is None else argv)
    args = ap.parse_args(argv)
    from tools.train_host import _commit
    net = neteval.load(args.init)
    if os.path.exists(args.data):
        data, nxt = load_data(args.data)
        data = {k: list(v) for k, v in data.items()}
        print("going on from %s at game %d (%d positions)" % (args.data, nxt, len(data["y"])),
              flush=True)
    else:
        data, nxt = {k: [] for k in _KEYS}, 0
    old = [signal.signal(sg, StopAsked.ask) for sg in (signal.SIGINT, signal.SIGTERM)]
    StopAsked.asked = False
    t0 = time.time()
    done = 0
    try:
        for i in range(nxt, args.games):
            for k, vals in game_positions(net, args.seed, i, args.max_turns).items():
                data[k].extend(vals)
            done += 1
            last = i + 1 == args.games
            stop = StopAsked.asked or (args.stop_after is not None and done >= args.stop_after)
            if (i + 1) % args.save_every == 0 or last or stop:
                save_data(args.data, data, i + 1, args.seed)
                print("games %d positions %d (%.0f s)" % (i + 1, len(data["y"]),
                                                          time.time() - t0), flush=True)
            if stop and not last:
                print("stopped after game %d; the same command goes on from %s"
                      % (i + 1, args.data), flush=True)
                return 0
    finally:
        for sg, h in zip((signal.SIGINT, signal.SIGTERM), old):
            signal.signal(sg, h)
    d = {k: np.asarray(v) for k, v in data.items()}
    x = neteval.features(d["r"], d["s"], d["a"], d["b"], d["me"], net.inputs)
    y = d["y"]
    nv = len(y) // 10
    xt, yt, xv, yv = x[:len(y) - nv], y[:len(y) - nv], x[len(y) - nv:], y[len(y) - nv:]
    print("%d positions (%d held out); the teacher's own ply-1 values: mean squared error "
          "%.6f, held out %.6f" % (len(y), nv, mse(net, xt, yt), mse(net, xv, yv)), flush=True)
    fit(net, xt, yt, args.epochs, args.lr, args.fit_seed, xv=xv, yv=yv,
        log=lambda s: print(s, flush=True))
    net.save(args.out, {"seed": args.seed, "games": args.games, "positions": int(len(y)),
                        "epochs": args.epochs, "lr": args.lr, "fit_seed": args.fit_seed,
                        "init_sha": neteval.weights_sha(args.init), "commit": _commit(),
                        "command": "python -m tools.distill_host " + " ".join(argv_used)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
