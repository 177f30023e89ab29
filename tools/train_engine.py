"""Fit the device engine's evaluation weights (firmware/samsara/rules/engine.py) by
least squares on the outcomes of seeded self-play games (docs/engine.md "Training").

Positions are taken after every turn of games between two players (default: greedy
against greedy, 10 % random turns for variety); each is described by the features of
`features` (the same terms as engine.evaluate, from the side of the player who has
just moved) and labelled +1 / -1 / 0 by the game's result for that player.  A ridge
least-squares fit gives the weights; they are printed scaled to integers as the
tables and constants of engine.py (written between its TRAINED markers with --write).

Usage: python -m tools.train_engine [--games N] [--seed S] [--player P] [--write]
The shipped weights: python -m tools.train_engine --games 4000 --seed 1 --write
"""
import argparse
import random

from samsara.rules import engine as dev
from samsara.rules.geometry import rot12
from samsara.rules.game import Game
from samsara.rules.moves import M_R, M_S, M_A, M_B
from samsara_host.sim import player as simplayer


def _pop(m):
    return bin(m).count("1")


def features(r, s, a, b, me):
    """The evaluation's features of a position for `me`, who has just moved (the
    order of engine.evaluate): score difference; for each of the 24 double spaces,
    named by the index t of its half on the opponent's goal lane (its other half is
    field (t+12) mod 24 of the mover's goal lane), whether only the mover's half, only
    the opponent's half or both halves hold a marble (3 x 24); the mover's chance, the
    opponent's chance, the opponent's chance when at 5."""
    if me == 0:
        my, op, mine, theirs = a, b, s, r
    else:
        my, op, mine, theirs = b, a, r, s
    rm = rot12(mine)
    f = [my - op]
    f.extend(((rm >> t) & 1) & (1 - ((theirs >> t) & 1)) for t in range(24))
    f.extend(((theirs >> t) & 1) & (1 - ((rm >> t) & 1)) for t in range(24))
    f.extend(((theirs >> t) & 1) & ((rm >> t) & 1) for t in range(24))
    e_my = dev.chance(mine >> 12)
    e_op = dev.chance(theirs >> 12)
    f.append(e_my)
    f.append(e_op)
    f.append(e_op if op >= 5 else 0)
    return f


def samples(games, seed, player="greedy", eps=0.1):
    """(features, outcome) pairs from `games` seeded self-play games."""
    if player == "device":
        def choose(r, s, a, b, mover, d1, d2, og, pick):
            res = dev.choose(r, s, a, b, mover, d1, d2, og, pick(1 << 20))
            return None if res is None else res[0]
    else:
        choose = simplayer.strategy(player)
    xs = []
    ys = []
    for gi in range(games):
        rng = random.Random("train:%d:%d" % (seed, gi))
        pick = simplayer.random_pick(rng)
        g = Game()
        seen = []
        while not g.over() and len(g.record) < 1000:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            p = g.pos
            if rng.random() < eps:
                moves = simplayer.choose_random(p.r, p.s, p.a, p.b, p.mover, d1, d2, 0, pick)
            else:
                moves = choose(p.r, p.s, p.a, p.b, p.mover, d1, d2, 0, pick)
            if moves is None:
                g.apply(d1, d2, [], None)
                break
            m = moves[-1]
            g.apply(d1, d2, list(moves), (m[M_R], m[M_S], m[M_A], m[M_B]))
            if not g.over():
                q = g.pos
                seen.append((features(q.r, q.s, q.a, q.b, p.mover), p.mover))
        w = g.result[0] if g.result else None
        for f, me in seen:
            xs.append(f)
            ys.append(0.0 if w is None else (1.0 if w == me else -1.0))
    return xs, ys


def fit(xs, ys, ridge=1.0):
    """Ridge least squares: the weight vector (floats)."""
    import numpy as np
    x = np.array(xs, dtype=float)
    y = np.array(ys, dtype=float)
    n = x.shape[1]
    return np.linalg.solve(x.T @ x + ridge * np.eye(n), x.T @ y)


def trained_block(w):
    """The source lines between the TRAINED markers of engine.py for weights w."""
    scale = 1000.0 / w[0]    # one goal of score difference = 1000
    iw = [int(round(v * scale)) for v in w]

    def table(ws):
        return 'b"' + "".join("\\x%02x" % max(0, min(255, int(round(x / 8.0)) + 128)) for x in ws) + '"'
    return "\n".join([
        "W_OWN = const(%d)            # per unit of the mover's chance for the roll after (x36 = 1 goal)" % iw[73],
        "W_OPP = const(%d)           # per unit of the opponent's chance on its next roll" % -iw[74],
        "W_OPP5 = const(%d)          # added per unit when the opponent is one goal from the centre" % -iw[75],
        "# Worth of a double space t (t = 0..23: its half on the opponent's goal lane is",
        "# field t+1 there, its other half field (t+12) mod 24 + 1 of the mover's goal lane)",
        "# with only the mover's half occupied (MINE), only the opponent's (THEIRS), both",
        "# (BOTH); stored as weight / 8 + 128.",
        "MINE = " + table(iw[1:25]),
        "THEIRS = " + table(iw[25:49]),
        "BOTH = " + table(iw[49:73]),
    ])


def write_block(block, path="firmware/samsara/rules/engine.py"):
    """Replace the lines between the TRAINED markers of engine.py with `block`."""
    with open(path) as f:
        text = f.read()
    a = text.index("# BEGIN TRAINED")
    a = text.index("\n", a) + 1
    b = text.index("# END TRAINED")
    with open(path, "w") as f:
        f.write(text[:a] + block + "\n" + text[b:])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--player", default="greedy", help="greedy, random or device")
    ap.add_argument("--write", action="store_true", help="write the weights into engine.py")
    args = ap.parse_args()
    xs, ys = samples(args.games, args.seed, args.player)
    block = trained_block(fit(xs, ys))
    print("positions", len(xs))
    print(block)
    if args.write:
        write_block(block)


if __name__ == "__main__":
    main()
