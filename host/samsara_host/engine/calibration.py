"""How far the host engine's win probability can be believed: self-play games of the
host engine against itself, each turn's predicted win probability beside the game's
outcome, a reliability table, the expected calibration error and the Brier score
(`samsara engine calibrate`, docs/engine.md "Calibration").

The number judged is the one the player is shown: the value of the host engine's
chosen turn, the mover's win probability after it (`samsara rules best --engine
host`'s third column, `samsara analyze`'s `win_prob` and the replay chart, all from
`hostengine.rank`), taken before the opponent's roll.  A turn whose value is exact (it
ends the game: a win 1, a loss 0) and a Moksha roll (the game ends in a draw) are
counted apart and left out of the table: they say nothing about the evaluation.

The games are played at ply 2 (`rank` without `deep`): in play the engine settles a
close choice at ply 3 (hostengine.CLOSE), which may pick the second of two turns within
0.01 of each other but shows the same kind of number, the chosen turn's ply-2 value;
plain games cost about half as much and keep the games measured before comparable.

Outcome of a turn for its mover: 1 the mover won the game, 0 lost it, 0.5 a draw
(Moksha, or a game stopped after match.MAX_TURNS turns).

Reliability table: 10 buckets of equal width on [0, 1] (bucket k holds predictions p
with k/10 <= p < (k+1)/10, the last one also p = 1); per bucket the mean prediction,
the mean outcome and the count.  ECE = sum over buckets of count / n x |predicted -
observed|; Brier score = the mean of (p - outcome)^2 over the n turns.

The dice of game i come from random.Random("samsara-calibrate:SEED:i"); the host
engine needs no other draw, so the same arguments give the same figures.
"""
import random

from samsara.rules.game import Game
from samsara_host.engine import hostengine
from samsara_host.engine.match import MAX_TURNS, in_order

BUCKETS = 10
"""Buckets of the reliability table (equal width on [0, 1])."""


def play_game(seed, index):
    """Game `index` of seed `seed`: the host engine on both sides from the start (A to
    move), a single game with the default rule options.  Returns a dict: `turns` (the
    turns played), `winner` (0 A, 1 B, None a draw), `moksha` (bool) and `judged`, a list of
    (mover, raw, depth) for every turn with an estimated value: `raw` the chosen turn's
    value before calibration (the mover's win probability, hostengine.rank with
    calibrated=False) and `depth` its search ply (1 or 2); `exact` counts the turns left
    out because their value was exact (a game end, a Moksha roll)."""
    dice = random.Random("samsara-calibrate:%d:%d" % (seed, index))
    game = Game()
    judged = []
    exact = 0
    while not game.over() and len(game.record) < MAX_TURNS:
        d1 = dice.randint(1, 6)
        d2 = dice.randint(1, 6)
        p = game.pos
        ranked = hostengine.rank(p.r, p.s, p.a, p.b, p.mover, d1, d2, calibrated=False)
        if not ranked:
            exact += 1
            game.apply(d1, d2, [], None)
            continue
        moves, key, raw, depth = ranked[0]
        if depth == 0:
            exact += 1
        else:
            judged.append((p.mover, raw, depth))
        game.apply(d1, d2, list(moves), key)
    winner = None
    moksha = False
    if game.result is not None:
        winner = game.result[0]
        moksha = game.result[1] == "moksha"
    return {"turns": len(game.record), "winner": winner, "moksha": moksha,
            "judged": judged, "exact": exact}


def outcome(winner, mover):
    """The outcome of a game for `mover` (0 A, 1 B): 1.0 won, 0.0 lost, 0.5 a draw
    (winner None)."""
    if winner is None:
        return 0.5
    return 1.0 if winner == mover else 0.0


def pairs(game, shown=True):
    """(prediction, outcome) for each judged turn of a play_game dict: the prediction
    is the shown (calibrated, hostengine.shown_value) win probability, or the raw one
    with shown=False."""
    out = []
    for mover, raw, depth in game["judged"]:
        p = hostengine.shown_value(raw, depth) if shown else raw
        out.append((p, outcome(game["winner"], mover)))
    return out


def bucket_of(p, buckets=BUCKETS):
    """The reliability bucket (0..buckets-1) of probability p; values outside [0, 1]
    go to the end buckets."""
    return min(buckets - 1, max(0, int(p * buckets)))


def reliability(data, buckets=BUCKETS):
    """The reliability table of (prediction, outcome) pairs `data`: a dict with
    `turns` (len(data)), `buckets` (a list of {lo, hi, predicted, observed, count},
    predicted and observed None for an empty bucket), `ece` and `brier` (None without
    data).  Module docstring for the definitions."""
    sums = [[0.0, 0.0, 0] for _ in range(buckets)]
    brier = 0.0
    for p, y in data:
        s = sums[bucket_of(p, buckets)]
        s[0] += p
        s[1] += y
        s[2] += 1
        brier += (p - y) ** 2
    n = len(data)
    rows = []
    for k, (sp, sy, c) in enumerate(sums):
        rows.append({"lo": k / float(buckets), "hi": (k + 1) / float(buckets),
                     "predicted": sp / c if c else None,
                     "observed": sy / c if c else None, "count": c})
    return {"turns": n, "buckets": rows, "ece": ece(rows) if n else None,
            "brier": brier / n if n else None}


def ece(rows):
    """The expected calibration error of reliability rows ({predicted, observed,
    count}): the count-weighted mean of |predicted - observed|."""
    n = sum(r["count"] for r in rows)
    return sum(r["count"] * abs(r["predicted"] - r["observed"])
               for r in rows if r["count"]) / float(n)


def _play_star(args):
    return play_game(*args)


def played(games, seed, jobs=1, first=0):
    """The play_game dicts of games first..games-1 of `seed`, yielded in game order as
    they end, played on `jobs` worker processes when jobs > 1 (each game's dice come
    from its index, so the games are the same for any jobs)."""
    return in_order(_play_star, [(seed, i) for i in range(first, games)], jobs)


def run(games, seed, progress=None, jobs=1):
    """Play games 0..games-1 of `seed` (play_game), on `jobs` worker processes (the
    same figures for any jobs), and return the
    `samsara engine calibrate --json` dict: `games`, `seed`, `turns` (the judged
    turns), `exact_turns` (left out), `draws`, the reliability table of the shown
    probability (`buckets`, `ece`, `brier`) and the same of the raw network value
    (`raw`: {`ece`, `brier`}).  progress(done, games, table so far) is called after
    every game, in game order."""
    results = []
    shown = []
    raw = []
    for i, g in enumerate(played(games, seed, jobs)):
        results.append(g)
        shown.extend(pairs(g))
        raw.extend(pairs(g, shown=False))
        if progress is not None:
            progress(i + 1, games, shown)
    table = reliability(shown)
    rt = reliability(raw)
    table.update({
        "games": games, "seed": seed,
        "exact_turns": sum(g["exact"] for g in results),
        "draws": sum(1 for g in results if g["winner"] is None),
        "raw": {"ece": rt["ece"], "brier": rt["brier"]},
        "calibration": hostengine.calibration_name(),
    })
    return table
