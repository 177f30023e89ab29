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
device engine (the dice of `samsara engine match` seed --eval-seed, 3 by default: not
a seed the strength table is measured on) and the win rate is printed, the weights of
that moment kept as <checkpoint>.games-N.npz and the best so far as <checkpoint>.best.npz.
Every --log-every games a line says the games played, the mean squared TD error per
turn (the loss) and the speed.

Resuming: with --checkpoint FILE the run writes its state (the weights after the last
game and the index of the next, the options, the measurements) to FILE every
--checkpoint-every games, at every measurement and when stopped by SIGINT / SIGTERM
(after the game being played) or --stop-after; started again with the same options it
goes on from FILE and writes the same weights as a run that never stopped (a game's
only state is the weights; its dice come from its index).  A checkpoint made with
other options is refused.

Usage: python -m tools.train_host [--games N] [--seed S] [--hidden H] [--inputs 88|145]
       [--alpha A] [--alpha-end E] [--lam L] [--lin R] [--eval-every K] [--eval-games M]
       [--eval-seed S] [--init FILE [--widen] [--grow H] --first I] [--checkpoint FILE]
       [--stop-after N] [--out FILE]
(--games is the index after the last game, so `--init W --first 6000 --games 12000`
from the weights W of a `--games 6000` run gives the weights of `--games 12000`;
with --alpha-end the learning rate decays geometrically from --alpha at game --first
to --alpha-end at game --games - 1; --widen gives weights of the 88 base inputs the
player's features (neteval.N_FEATURES), with zero weights, before training; --grow H
gives them H hidden units, the new ones with zero output weight.)
`make train` runs both stages of the shipped weights: docs/engine.md "Training the host
evaluation".
"""
import argparse
import json
import os
import random
import signal
import subprocess
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
        self.sq = 0.0       # sum of squared TD errors since the last `take_loss`
        self.n = 0          # their count

    def take_loss(self):
        """Mean squared TD error per update since the last call (0 if none)."""
        v = self.sq / self.n if self.n else 0.0
        self.sq, self.n = 0.0, 0
        return v

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
            best_i, best_v, end, xs = pick(keys, mover, a, b, net, True)
            if end is not None:
                z = end
                break
            k = keys[best_i]
            v, g = self._grad(xs[best_i])
            sign = 1.0 if mover == 0 else -1.0
            u = v if mover == 0 else 1.0 - v
            if u_prev is not None:
                self.sq += (u - u_prev) ** 2
                self.n += 1
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
            self.sq += (z - u_prev) ** 2
            self.n += 1
            d = alpha * (z - u_prev)
            self._step(d, e)
        return turns


def rules_start():
    """The start position's parts (r, s, a, b, mover): R1-R6 and S1-S6, 0-0, A."""
    return (0x3F, 0x3F, 0, 0, 0)


def pick(keys, mover, a, b, net, inputs=False):
    """The 1-ply choice among resulting positions `keys` (list of (r, s, a, b)) for
    `mover` from scores (a, b): (index, value, end) with end the game's result for A
    (1.0 / 0.0) when the chosen turn ends the game, else None.  The first of equal
    values wins.  inputs: also return the network's input matrix of the keys (None
    when a turn wins at once), as a fourth item."""
    my0 = a if mover == 0 else b
    op0 = b if mover == 0 else a
    for i, k in enumerate(keys):
        my = k[2] if mover == 0 else k[3]
        if my == 6 and my0 < 6:
            return (i, 1.0, (1.0 if mover == 0 else 0.0)) + ((None,) if inputs else ())
    arr = np.array(keys, dtype=np.int64).reshape(-1, 4)
    xs = neteval.features(arr[:, 0], arr[:, 1], arr[:, 2], arr[:, 3], mover, net.inputs)
    vals = net.value(xs)
    for i, k in enumerate(keys):
        op = k[3] if mover == 0 else k[2]
        if op == 6 and op0 < 6:
            vals[i] = -1.0
    i = int(np.argmax(vals))
    if vals[i] < 0:
        out = (i, 0.0, (0.0 if mover == 0 else 1.0))
    else:
        out = (i, float(vals[i]), None)
    return out + ((xs,) if inputs else ())


def evaluate_vs_device(net, games, seed=1):
    """Win rate (draws half) of the network at 1 ply against the device engine over
    `games` games of `samsara engine match` seed `seed`."""
    def decide(r, s, a, b, mover, d1, d2, og, mode, starter, pick_):
        tl = rules.complete_turns(r, s, a, b, mover, d1, d2, og)
        if not tl:
            return None
        i, _v, _end = pick([k for _m, k in tl], mover, a, b, net)
        return tl[i]
    match.PLAYERS["_train"] = decide
    res = [match.play_game("_train", "device", seed, i) for i in range(games)]
    del match.PLAYERS["_train"]
    return match.summarize("_train", "device", games, seed, 0, res)["a_win_rate"]


# The options that decide the weights (and --games when the rate decays towards it):
# a checkpoint made with others is refused.
_RUN_KEYS = ("seed", "hidden", "inputs", "alpha", "alpha_end", "lam", "per_goal", "bias",
             "lin", "first", "widen", "init_sha")


def _commit():
    # The commit of the training code (with "+changes" when the tree differs from it).
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        c = subprocess.run(["git", "-C", here, "rev-parse", "--short=12", "HEAD"],
                           capture_output=True, text=True, timeout=10).stdout.strip()
        d = subprocess.run(["git", "-C", here, "status", "--porcelain", "--", "host", "tools",
                            "firmware"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return (c or "unknown") + ("+changes" if d.strip() else "")


def save_checkpoint(path, net, state):
    """Write the weights and `state` (a JSON-able dict: next game, options,
    measurements) to `path` atomically (a stop while writing keeps the old file)."""
    tmp = path + ".tmp.npz"
    net.save(tmp, state)
    os.replace(tmp, path)


def load_checkpoint(path):
    """(net, state) of a checkpoint written by `save_checkpoint`."""
    return neteval.load(path), neteval.load_meta(path)


class StopAsked:
    """Set by SIGINT / SIGTERM (`ask` is the handler): the run stops after the game
    being played, its checkpoint kept (tools/train_host.py, tools/distill_host.py)."""
    asked = False

    @classmethod
    def ask(cls, _sig, _frame):
        cls.asked = True


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hidden", type=int, default=40)
    ap.add_argument("--inputs", type=int, default=neteval.N_INPUTS,
                    choices=(neteval.N_BASE, neteval.N_FEATURES),
                    help="inputs of a new network: %d (lanes, double spaces, scores, "
                    "chances) or %d (and the player's features)"
                    % (neteval.N_BASE, neteval.N_FEATURES))
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
    ap.add_argument("--eval-seed", type=int, default=3,
                    help="match seed of the strength measurements (default 3)")
    ap.add_argument("--log-every", type=int, default=1000,
                    help="a progress line (games, loss, speed) every this many games")
    ap.add_argument("--init", help="start from these weights (with --first: go on with "
                    "a run that stopped after game --first - 1)")
    ap.add_argument("--widen", action="store_true",
                    help="give the --init weights the player's features (zero weights)")
    ap.add_argument("--grow", type=int, default=None, metavar="H",
                    help="give the --init weights H hidden units (the new ones with zero "
                    "output weight: neteval.Net.grown, random weights from --seed)")
    ap.add_argument("--first", type=int, default=0,
                    help="index of the first game (its dice seed); default 0")
    ap.add_argument("--checkpoint", help="keep the run's state here and go on from it "
                    "when it exists")
    ap.add_argument("--checkpoint-every", type=int, default=500)
    ap.add_argument("--stop-after", type=int, default=None,
                    help="stop (checkpoint kept) after this many games of this invocation")
    ap.add_argument("--out", help="write the weights here (.npz) at the end")
    argv_used = list(sys.argv[1:] if argv is None else argv)
    args = ap.parse_args(argv)
    if (args.widen or args.grow is not None) and not args.init:
        ap.error("--widen and --grow need --init")
    opts = {k: getattr(args, k, None) for k in _RUN_KEYS if k != "init_sha"}
    if args.grow is not None:
        opts["grow"] = args.grow        # only when given: older checkpoints stay valid
    opts["init_sha"] = neteval.weights_sha(args.init) if args.init else None
    if args.init:
        opts["hidden"] = opts["inputs"] = None       # from the file
    if args.alpha_end is not None:
        opts["games"] = args.games
    state = None
    if args.checkpoint and os.path.exists(args.checkpoint):
        net, state = load_checkpoint(args.checkpoint)
        if state.get("options") != opts:
            diff = sorted(k for k in set(opts) | set(state.get("options", {}))
                          if opts.get(k) != state.get("options", {}).get(k))
            print("train_host: %s was made with other options (%s); remove it or give "
                  "the same options" % (args.checkpoint, ", ".join(diff)), file=sys.stderr)
            return 2
        print("resuming from %s at game %d" % (args.checkpoint, state["next"]), flush=True)
    elif args.init:
        net = neteval.load(args.init)
        if args.widen and net.inputs != neteval.N_FEATURES:
            net = net.widened()
        if args.grow is not None:
            net = net.grown(args.grow, np.random.default_rng(args.seed))
    else:
        net = neteval.Net.start(args.hidden, np.random.default_rng(args.seed), args.per_goal,
                               args.bias, args.inputs)
    if state is None:
        state = {"options": opts, "next": args.first, "turns": 0, "evals": [], "best": None,
                 "commit": _commit()}
    tr = Trainer(net, args.alpha, args.lam, args.lin)
    tr.sq, tr.n = state.get("loss", (0.0, 0))
    base = args.checkpoint[:-4] if args.checkpoint and args.checkpoint.endswith(".npz") \
        else args.checkpoint

    def meta(games):
        return {"seed": args.seed, "games": games, "first": args.first, "options": opts,
                "commit": state["commit"], "init": args.init,
                "command": "python -m tools.train_host " + " ".join(argv_used)}

    def checkpoint():
        if args.checkpoint:
            state["loss"] = [tr.sq, tr.n]
            save_checkpoint(args.checkpoint, net, state)

    old = [signal.signal(sg, StopAsked.ask) for sg in (signal.SIGINT, signal.SIGTERM)]
    StopAsked.asked = False
    t0 = time.time()
    done = 0
    span = max(1, args.games - 1 - args.first)
    try:
        for i in range(state["next"], args.games):
            if args.alpha_end is not None:
                tr.alpha = args.alpha * (args.alpha_end / args.alpha) ** ((i - args.first) / span)
            state["turns"] += tr.game(random.Random("samsara-train:%d:%d" % (args.seed, i)))
            state["next"] = i + 1
            done += 1
            g = i + 1
            if args.log_every and g % args.log_every == 0:
                print("games %d turns/game %.1f loss %.5f (%.1f games/s)"
                      % (g, state["turns"] / (g - args.first), tr.take_loss(),
                         done / max(1e-9, time.time() - t0)), flush=True)
            if args.eval_every and g % args.eval_every == 0:
                w = evaluate_vs_device(net, args.eval_games, args.eval_seed)
                state["evals"].append([g, w])
                line = "games %d vs device (1 ply, %d games of seed %d) %.3f" % (
                    g, args.eval_games, args.eval_seed, w)
                if base:
                    m = dict(meta(g), vs_device=w)
                    net.save("%s.games-%d.npz" % (base, g), m)
                    if state["best"] is None or w > state["best"][1]:
                        state["best"] = [g, w]
                        net.save(base + ".best.npz", m)
                        line += " best so far"
                print(line + " (%.0f s)" % (time.time() - t0), flush=True)
                checkpoint()
            elif args.checkpoint and g % args.checkpoint_every == 0:
                checkpoint()
            if StopAsked.asked or (args.stop_after is not None and done >= args.stop_after):
                if g < args.games:
                    checkpoint()
                    print("stopped after game %d; the same command goes on from %s"
                          % (g, args.checkpoint or "(no --checkpoint: nothing kept)"),
                          flush=True)
                    return 0
    finally:
        for sg, h in zip((signal.SIGINT, signal.SIGTERM), old):
            signal.signal(sg, h)
    checkpoint()
    if args.out:
        net.save(args.out, meta(args.games))
    if state["best"] is not None:
        print("best measured: games %d, %.3f" % tuple(state["best"]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
