"""Fit the host engine's calibration map (host/samsara_host/engine/calibration.json,
docs/engine.md "Calibration") from self-play.

Plays games 0..N-1 of `samsara engine calibrate`'s dice for seed S (the host engine on
both sides, samsara_host.engine.calibration.play_game), takes every judged turn's raw
ply-2 win probability and the game's outcome for its mover, and fits an isotonic
(non-decreasing) map from the raw probability to the observed rate by pool adjacent
violators (each block's rate with Laplace's +1 / +2, so the map never says 0 or 1).  The map is stored as knots of a piecewise-linear function: (0, y0), the
mean raw value and the outcome rate of each pooled block, (1, y1); the ends take the
first and last block's rate.  Blocks with fewer than --min-block turns are pooled with
their neighbours first, so that no knot rests on a handful of turns.

Then it plays --check-games games of --check-seed (games the fit has not seen) and
prints their ECE and Brier score with the raw values and with the map, and the raw
values' ECE (with a bootstrap interval over games) and Brier score over the games of
both seeds.  The map records the evaluation it was fitted for (`evaluation`:
neteval.shipped_shas, the hash of each shipped network).  With --write the map is
written only when it lowers both on those games; otherwise the file is left as it is
when it was fitted for the same evaluation (a map fitted on too few games follows their
noise), and written as no map (`method` "none", the identity: the raw values are
shown, with this run's figures) when it was fitted for another one or is missing; the
run says which.

Usage: python -m tools.fit_calibration --games N --seed S [--check-games M]
       [--check-seed T] [--min-block K] [--data DIR] [--jobs J] [--write] [--out FILE]
--data DIR keeps the games played as JSON lines, one file per seed and evaluation
(calibrate-seedS-E.jsonl, E 12 hex digits of the networks' hashes), one line per game
as it ends (read back for the same seed and evaluation: a stopped run goes on, a second
fit costs no play; new weights play new games).  --jobs J plays the games on J worker processes (the same games for any J).
Without --write the map is printed, not written.  `make calibrate` runs it.
"""
import argparse
import hashlib
import json
import os
import sys
import time

import numpy as np

from samsara_host.engine import calibration, hostengine, neteval


def pool_adjacent_violators(x, y, min_block=1):
    """Isotonic regression of outcomes y (0..1) on predictions x (arrays of equal
    length): a list of blocks (mean x, rate, count), in order of x, whose rate never
    decreases; each block holds at least `min_block` points (the last may be pooled
    into its neighbour to get there).  The rate is Laplace's (sum y + 1) / (count + 2),
    so no block says 0 or 1 for sure from a finite sample."""
    order = np.argsort(x, kind="stable")
    blocks = []        # [sum x, sum y, count]
    for i in order:
        blocks.append([float(x[i]), float(y[i]), 1])
        while len(blocks) > 1 and (
                blocks[-2][1] * blocks[-1][2] >= blocks[-1][1] * blocks[-2][2]
                or blocks[-2][2] < min_block):
            sx, sy, c = blocks.pop()
            blocks[-1][0] += sx
            blocks[-1][1] += sy
            blocks[-1][2] += c
    if len(blocks) > 1 and blocks[-1][2] < min_block:
        sx, sy, c = blocks.pop()
        blocks[-1][0] += sx
        blocks[-1][1] += sy
        blocks[-1][2] += c
    return [(sx / c, (sy + 1.0) / (c + 2.0), c) for sx, sy, c in blocks]


def knots(blocks):
    """The map's knots (x list, y list) from pooled blocks: (0, first rate), each
    block's (mean x, rate), (1, last rate); x strictly increasing."""
    xs = [0.0]
    ys = [round(blocks[0][1], 6)]
    for mx, my, _c in blocks:
        if 0.0 < mx < 1.0 and mx > xs[-1]:
            xs.append(round(mx, 6))
            ys.append(round(max(my, ys[-1]), 6))
    xs.append(1.0)
    ys.append(round(max(blocks[-1][1], ys[-1]), 6))
    return xs, ys


def play(games, seed, data=None, jobs=1):
    """The play_game dicts of games 0..games-1 of `seed`, played on `jobs` worker
    processes.  With `data` (a JSON-lines
    file) each game is appended as it ends and the games already there for the same
    seed are read back, not played again, so a stopped run goes on where it stopped."""
    rows = []
    if data and os.path.exists(data):
        with open(data, encoding="utf-8") as f:
            rows = [json.loads(line) for line in f if line.strip()]
        rows = [g for g in rows if g["seed"] == seed][:games]
    out = open(data, "a", encoding="utf-8") if data else None
    t0 = time.time()
    try:
        for i, g in enumerate(calibration.played(games, seed, jobs, len(rows)), len(rows)):
            g["seed"] = seed
            g["judged"] = [list(j) for j in g["judged"]]
            rows.append(g)
            if out:
                out.write(json.dumps(g) + "\n")
                out.flush()
            if (i + 1) % 10 == 0 or i + 1 == games:
                print("fit_calibration: %d/%d games, %.0f s" % (i + 1, games, time.time() - t0),
                      file=sys.stderr, flush=True)
    finally:
        if out:
            out.close()
    return rows


def _data_file(folder, seed):
    # the JSON-lines file of seed `seed`'s games of the shipped evaluation in folder
    # `folder` (None: no file); its name carries the evaluation (`_evaluation_id`), so
    # games of other weights are never read back as these.
    if not folder:
        return None
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, "calibrate-seed%d-%s.jsonl" % (seed, _evaluation_id()))


def _evaluation_id():
    # 12 hex digits naming the shipped evaluation (a hash of neteval.shipped_shas)
    text = json.dumps(neteval.shipped_shas(), sort_keys=True).encode("utf-8")
    return hashlib.sha256(text).hexdigest()[:12]


def fit(rows, min_block):
    """The calibration map (dict for calibration.json, without the seed) of the ply-2
    turns of play_game dicts `rows`."""
    x = []
    y = []
    for g in rows:
        for mover, raw, depth in g["judged"]:
            if depth == 2:
                x.append(raw)
                y.append(calibration.outcome(g["winner"], mover))
    blocks = pool_adjacent_violators(np.array(x), np.array(y), min_block)
    xs, ys = knots(blocks)
    return {"method": "isotonic", "turns": len(x), "min_block": min_block,
            "x": xs, "y": ys}


def held_out(rows, m):
    """(raw, mapped): the reliability tables (calibration.reliability) of the judged
    turns of play_game dicts `rows`, with the raw values and through map `m` (its
    knots `x`, `y`, applied to ply-2 values as hostengine.shown_value does)."""
    raw = []
    mapped = []
    for g in rows:
        for mover, v, depth in g["judged"]:
            y = calibration.outcome(g["winner"], mover)
            raw.append((v, y))
            mapped.append((float(np.interp(v, m["x"], m["y"])) if depth == 2 else v, y))
    return calibration.reliability(raw), calibration.reliability(mapped)


def bucket_sums(rows, buckets=calibration.BUCKETS):
    """Per game, per reliability bucket, the sums of the raw predictions, of the
    outcomes and the count of judged turns: a numpy array (games x buckets x 3), so
    that any multiset of games (a bootstrap sample) is a sum over its first axis."""
    out = np.zeros((len(rows), buckets, 3))
    for n, g in enumerate(rows):
        for mover, v, _depth in g["judged"]:
            k = calibration.bucket_of(v, buckets)
            out[n, k, 0] += v
            out[n, k, 1] += calibration.outcome(g["winner"], mover)
            out[n, k, 2] += 1
    return out


def ece_of_sums(sums):
    """The expected calibration error (calibration.ece) of bucket sums (buckets x 3)."""
    return calibration.ece([{"predicted": sp / c, "observed": sy / c, "count": c}
                            for sp, sy, c in sums if c])


def bootstrap_ece(rows, samples=1000, seed=1):
    """(5 %, 95 %) of the raw ece over `samples` bootstrap samples of the games `rows`
    (games drawn with replacement, each keeping all its turns: the turns of one game
    share its outcome, so they are not independent)."""
    per_game = bucket_sums(rows)
    rng = np.random.default_rng(seed)
    n = len(rows)
    e = sorted(ece_of_sums(per_game[rng.integers(0, n, n)].sum(axis=0))
               for _ in range(samples))
    return e[int(0.05 * samples)], e[int(0.95 * samples) - 1]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--min-block", type=int, default=200,
                    help="fewest turns behind a knot (default 200)")
    ap.add_argument("--check-games", type=int, default=0,
                    help="games of --check-seed to judge the map on (default 0: none)")
    ap.add_argument("--check-seed", type=int, default=None,
                    help="seed of the check games (default --seed + 1)")
    ap.add_argument("--data", help="keep the games played in this folder (JSON lines)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--out", default=hostengine.CALIBRATION)
    ap.add_argument("--write", action="store_true", help="write the map to --out")
    args = ap.parse_args(argv)
    if args.games < 1 or args.min_block < 1 or args.jobs < 1:
        print("fit_calibration: --games, --min-block and --jobs must be at least 1",
              file=sys.stderr)
        return 2
    if args.check_seed is None:
        args.check_seed = args.seed + 1
    if args.check_games and args.check_seed == args.seed:
        print("fit_calibration: --check-seed must differ from --seed", file=sys.stderr)
        return 2
    rows = play(args.games, args.seed, _data_file(args.data, args.seed), args.jobs)
    m = fit(rows, args.min_block)
    m["games"] = args.games
    m["seed"] = args.seed
    m["command"] = ("python -m tools.fit_calibration --games %d --seed %d --min-block %d"
                    % (args.games, args.seed, args.min_block))
    m["evaluation"] = neteval.shipped_shas()
    better = True
    if args.check_games:
        check = play(args.check_games, args.check_seed, _data_file(args.data, args.check_seed),
                     args.jobs)
        raw, mapped = held_out(check, m)
        m["check"] = {"games": args.check_games, "seed": args.check_seed,
                      "turns": raw["turns"],
                      "raw": {"ece": round(raw["ece"], 4), "brier": round(raw["brier"], 4)},
                      "mapped": {"ece": round(mapped["ece"], 4),
                                 "brier": round(mapped["brier"], 4)}}
        print("fit_calibration: %d held-out games of seed %d, %d turns: ece %.4f -> %.4f, "
              "Brier %.4f -> %.4f (raw -> mapped)"
              % (args.check_games, args.check_seed, raw["turns"], raw["ece"], mapped["ece"],
                 raw["brier"], mapped["brier"]), file=sys.stderr)
        better = mapped["ece"] < raw["ece"] and mapped["brier"] < raw["brier"]
        # the raw values over every game of both seeds: the figure of docs/engine.md
        both = rows + check
        every = calibration.reliability(
            [pair for g in both for pair in calibration.pairs(g, shown=False)])
        lo, hi = bootstrap_ece(both)
        m["all"] = {"games": len(both), "seeds": [args.seed, args.check_seed],
                    "turns": every["turns"], "ece": round(every["ece"], 4),
                    "ece_bootstrap_5_95": [round(lo, 4), round(hi, 4)],
                    "brier": round(every["brier"], 4)}
        print("fit_calibration: all %d games of seeds %d and %d, %d turns, raw: ece %.4f "
              "(5-95 %% over games resampled: %.4f-%.4f), Brier %.4f"
              % (len(both), args.seed, args.check_seed, every["turns"], every["ece"], lo, hi,
                 every["brier"]), file=sys.stderr)
    name = os.path.basename(args.out)
    if args.write and better:
        _write(args.out, m)
        print("fit_calibration: %d knots from %d turns written to %s"
              % (len(m["x"]), m["turns"], name))
    elif args.write and _evaluation_of(args.out) == m["evaluation"]:
        print("fit_calibration: the map does not lower both ece and Brier on the held-out "
              "games: %s left as it was" % name)
    elif args.write:
        # The file in place was fitted for another evaluation (or is missing): its map
        # would bend values it was not fitted on, so the raw values are shown instead.
        _write(args.out, dict(m, method="none", x=[0.0, 1.0], y=[0.0, 1.0],
                              rejected={"knots": len(m["x"])}))
        print("fit_calibration: the map does not lower both ece and Brier on the held-out "
              "games, and %s was not fitted for this evaluation: written as no map (the "
              "raw values are shown)" % name)
    else:
        sys.stdout.write(_text(m))
    return 0


def _text(m):
    # calibration.json as the tool writes it: sorted keys, one per line
    return json.dumps(m, sort_keys=True, indent=1) + "\n"


def _write(path, m):
    with open(path, "w", encoding="utf-8") as f:
        f.write(_text(m))


def _evaluation_of(path):
    # the `evaluation` a map file was fitted for (neteval.shipped_shas), or None
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f).get("evaluation")
    except (OSError, ValueError, AttributeError):
        return None


if __name__ == "__main__":
    sys.exit(main())
