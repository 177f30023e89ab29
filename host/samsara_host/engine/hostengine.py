"""The host engine: a 2-ply expectimax search over a pruned set of turns with an
evaluation trained by self-play (docs/engine.md "Host engine").

Values are the mover's probability of winning the single game (0..1), from
`neteval` (two small networks trained by TD(lambda), tools/train_host.py, the mean
of their logits).  A turn that ends the game is valued exactly: a win 1, a loss 0,
and in a match (docs/rules.md §4)
the device engine's `turn_value` scaled to 0.5 + value / (2 WIN), so more points are
worth a little more than 1 and the final turn is judged as on the device.

A decision (`rank`, `choose`):
  1. ply 1: every complete turn of the roll is valued by the network (one batch);
  2. ply 2: the best `width` of them (and any turns asked for by the caller, e.g. the
     turn played, for `samsara analyze`) are searched one ply deeper: for each of the
     opponent's 21 rolls (a double weighs 1/36, another roll 2/36) the opponent
     answers with its best turn by the network (a Moksha roll is a draw, 0.5), and
     the turn's value is one minus the opponent's weighted mean;
  3. the best 2-ply value wins; among equal values the better ply-1 rank, then the
     `complete_turns` order;
  3b. in play (`choose`, deep=True): a close choice, the best CLOSE_TOP turns at
     ply 2 that are within CLOSE of the best (`close_keys`, at least two), is settled
     at ply 3 (`deep_values` of those turns; the best there is played); the values
     stay the ply-2 ones (the number calibrated, docs/engine.md "Calibration");
  4. the values are then made the win probabilities the player is shown
     (`shown_value`: a ply-2 value of a single game goes through the calibration map
     fitted on self-play, `calibration.json` (shipped; without it the raw value); docs/engine.md
     "Calibration"); the map is monotone and applied after the order is fixed, so it
     never changes a choice.
The work is bounded by `width` x 21 rolls x the replies (no clock), so the choice is
the same under any load and in any process.
"""
import itertools
import json
import os

import numpy as np

from samsara.rules import engine as dev
from samsara.rules.moves import complete_turns
from samsara_host.engine import neteval
from samsara_host.engine.turngen import TurnKeys

WIDTH = 4
"""Turns searched at ply 2 per decision (the rest keep their ply-1 value)."""

ROLLS = tuple((x, y, 1 if x == y else 2) for x in range(1, 7) for y in range(x, 7))
"""The 21 distinct rolls with their weight out of 36."""

FAST_TURNS = True
"""The search's replies come from `turngen.TurnKeys` (the resulting keys only, the
one-die work shared by the 21 rolls); False: from `complete_turns`, as before.  The
keys and their order are the same either way (tests/test_turngen.py), so the values are
too; the switch is for that test and tools/bench_turngen.py."""

CLOSE = 0.01
"""A choice is close when the second best turn at ply 2 is within CLOSE (win
probability) of the best: `choose` settles it at ply 3 and `samsara analyze --deep`
judges it there (`close_keys`)."""

CLOSE_TOP = 2
"""The most turns of a close choice searched at ply 3: the best CLOSE_TOP at ply 2
that are within CLOSE of the best (`close_keys`)."""

_WEIGHTS = np.array([w for _x, _y, w in ROLLS], dtype=np.float64) / 36.0

CALIBRATION = os.path.join(os.path.dirname(os.path.abspath(__file__)), "calibration.json")
"""The shipped calibration map (tools/fit_calibration.py writes it): a JSON object with
`x` and `y`, the knots of a non-decreasing piecewise-linear map from the raw ply-2 win
probability to the calibrated one, how it was made (`method`, `games`, `seed`) and the
evaluation it was fitted for (`evaluation`: neteval.shipped_shas).  `method` "none"
(knots (0, 0) and (1, 1)) shows the raw values as they are: the fit found no map that
did better on held-out games."""

_MAP = None


def load_calibration(path=CALIBRATION):
    """The calibration map at `path`: a dict with numpy arrays `x` and `y` (the knots,
    x increasing from 0 to 1, y non-decreasing in 0..1) and the rest of the file's
    fields.  A missing file is the identity map (`method` "none").  Raises ValueError
    for knots that are not a map of [0, 1] onto [0, 1] in order."""
    if not os.path.exists(path):
        return {"method": "none", "x": np.array([0.0, 1.0]), "y": np.array([0.0, 1.0])}
    with open(path, encoding="utf-8") as f:
        m = json.load(f)
    x = np.asarray(m["x"], dtype=np.float64)
    y = np.asarray(m["y"], dtype=np.float64)
    if (len(x) < 2 or len(x) != len(y) or x[0] != 0.0 or x[-1] != 1.0
            or np.any(np.diff(x) <= 0) or np.any(np.diff(y) < 0)
            or y[0] < 0.0 or y[-1] > 1.0):
        raise ValueError("%s: the knots must run from x = 0 to 1, x increasing, y "
                         "non-decreasing in 0..1" % path)
    m["x"], m["y"] = x, y
    return m


def _calibration():
    global _MAP
    if _MAP is None:
        _MAP = load_calibration()
    return _MAP


def calibration_name():
    """One line naming the calibration map in use, e.g. 'isotonic, 300 games of seed 11'
    or 'none'."""
    m = _calibration()
    if m.get("method", "none") == "none":
        return "none"
    return "%s, %d games of seed %d" % (m["method"], m["games"], m["seed"])


def shown_value(raw, depth, mode=dev.MODE_SINGLE):
    """The win probability shown for a turn whose value `rank` computed as `raw` at
    search depth `depth` (0 exact, 1, 2 or 3): a ply-2 or ply-3 value of a single game
    through the calibration map (linear between its knots), any other value unchanged (an exact
    game end is already right; ply-1 values and a match's values are not what the map
    was fitted on)."""
    if depth < 2 or mode != dev.MODE_SINGLE:
        return raw
    m = _calibration()
    return float(np.interp(raw, m["x"], m["y"]))


def _terminal(k, me, a, b, mode, starter):
    # The exact value (mover's win probability scale) of a turn that ends the game,
    # or None.  a, b: the scores before the turn.
    my0, op0 = (a, b) if me == 0 else (b, a)
    my, op = (k[2], k[3]) if me == 0 else (k[3], k[2])
    if (my == 6 and my0 < 6) or (op == 6 and op0 < 6) or (mode == dev.MODE_MATCH and op0 == 6):
        tv = dev.turn_value(k[0], k[1], k[2], k[3], me, a, b, mode, starter)
        return 0.5 + tv / (2.0 * dev.WIN)
    return None


def values(keys, me, a, b, mode=dev.MODE_SINGLE, starter=0, net=None):
    """Ply-1 values (numpy array) for `me` of the resulting positions `keys` (list of
    (r, s, a, b)) of `me`'s turns from scores (a, b): exact for game ends, else the
    network's win probability."""
    return _exact_or_net(keys, me, [(a, b)] * len(keys), mode, starter, net)


def _exact_or_net(keys, me, scores, mode, starter, net):
    # values() with each key's own scores before the turn (scores[i] = (a, b)): game
    # ends exactly (_terminal), the rest in one network call.
    out = np.empty(len(keys))
    rest = []
    for i, k in enumerate(keys):
        a, b = scores[i]
        t = _terminal(k, me, a, b, mode, starter)
        if t is None:
            rest.append(i)
        else:
            out[i] = t
    if rest:
        out[rest] = neteval.evaluate([keys[i] for i in rest], me, net)
    return out


def _single_values(keys, me, net=None):
    # values() of a single game for positions reached from scores below 6 (the
    # opponent's replies: a reply is only searched while the game runs), vectorised:
    # a score of 6 is the game's end (`me` reaching it wins, the other loses).  Each
    # distinct position is valued once (a quarter to a third of the replies of a
    # search are repeats: two rolls reach the same position).
    arr = np.fromiter(itertools.chain.from_iterable(keys), dtype=np.int64,
                      count=4 * len(keys)).reshape(-1, 4)
    code = arr[:, 0] | (arr[:, 1] << 24) | (arr[:, 2] << 48) | (arr[:, 3] << 52)
    _u, first, back = np.unique(code, return_index=True, return_inverse=True)
    arr = arr[first]
    my = arr[:, 2] if me == 0 else arr[:, 3]
    op = arr[:, 3] if me == 0 else arr[:, 2]
    net = net or neteval.shipped()
    x = neteval.features(arr[:, 0], arr[:, 1], arr[:, 2], arr[:, 3], me, net.inputs)
    v = net.value(x)
    v = np.where(op == 6, 0.0, v)
    return np.where(my == 6, 1.0, v)[back]


def roll_keys(key, mover, og=0):
    """The resulting keys of each of the 21 `ROLLS` from position `key` (r, s, a, b)
    with `mover` to roll: a list of 21 lists of (r, s, a, b) in `complete_turns`
    order, [] for a Moksha roll (docs/rules.md §3)."""
    if FAST_TURNS:
        tk = TurnKeys(key, mover, og)
        return [tk.keys(x, y) for x, y, _w in ROLLS]
    r, s, a, b = key
    return [[t[1] for t in complete_turns(r, s, a, b, mover, x, y, og)]
            for x, y, _w in ROLLS]


def reply_values(keys, opp, og=0, mode=dev.MODE_SINGLE, starter=0, net=None):
    """For each position in `keys` (list of (r, s, a, b), `opp` to roll): the value for
    the player who just moved, one minus the opponent's mean best ply-1 value over the
    21 rolls (a Moksha roll counts 0.5).  Returns a numpy array."""
    segs = []
    allk = []
    for k in keys:
        _r, _s, a, b = k
        for tk in roll_keys(k, opp, og):
            segs.append((len(allk), len(tk), a, b))
            allk.extend(tk)
    # One network call for every reply of every candidate.
    if mode == dev.MODE_SINGLE and allk:
        vals = _single_values(allk, opp, net)
    else:
        scores = [(a, b) for _st, n, a, b in segs for _i in range(n)]
        vals = _exact_or_net(allk, opp, scores, mode, starter, net)
    best = np.array([vals[st:st + n].max() if n else 0.5 for st, n, _a, _b in segs])
    best = best.reshape(len(keys), len(ROLLS))
    return 1.0 - best @ _WEIGHTS


def deep_values(keys, me, og=0, mode=dev.MODE_SINGLE, starter=0, net=None):
    """Ply-3 values (numpy array) for `me`, who has just moved, of positions `keys`
    (list of (r, s, a, b), the opponent to roll): for each of the opponent's 21 rolls
    its best reply by the network (ply 1; a Moksha roll 0.5, a reply that ends the game
    exactly), then `me`'s mean best ply-1 value over my 21 rolls after that reply
    (`reply_values` from the reply), weighted 1/36 and 2/36.  About 441 complete-turn
    generations per key (0.35 s of one core a key in the position timed): spent on close choices only
    (`close_keys`: `choose` in play, `samsara analyze --deep`)."""
    opp = 1 - me
    out = np.empty(len(keys))
    for n, k in enumerate(keys):
        _r, _s, a, b = k
        per_roll = []           # per opponent roll: a value for me, or a position to search
        later = []
        rolls = roll_keys(k, opp, og)
        # the opponent's turns of all 21 rolls valued in one call
        flat = list(itertools.chain.from_iterable(rolls))
        vals = values(flat, opp, a, b, mode, starter, net) if flat else None
        st = 0
        for tk in rolls:
            if not tk:
                per_roll.append(0.5)
                continue
            v = vals[st:st + len(tk)]
            st += len(tk)
            j = int(np.argmax(v))
            q = tk[j]
            if _terminal(q, opp, a, b, mode, starter) is not None:
                per_roll.append(1.0 - float(v[j]))
            else:
                per_roll.append(None)
                later.append(q)
        if later:
            # my mean best value after each reply = 1 - the opponent's reply value
            deep = 1.0 - reply_values(later, me, og, mode, starter, net)
            it = iter(deep)
            per_roll = [float(next(it)) if v is None else v for v in per_roll]
        out[n] = float(np.dot(per_roll, _WEIGHTS))
    return out


def settle_close(keys, mover, og=0, mode=dev.MODE_SINGLE, starter=0, net=None):
    """A close choice (`close_keys`: resulting keys (r, s, a, b), best at ply 2 first)
    settled at ply 3 for `mover`, who has just moved: (j, v3) with v3 the keys'
    `deep_values` (numpy array, win probability) and j the index of the best, the first
    of equal values (the better at ply 2)."""
    v3 = deep_values(keys, mover, og, mode, starter, net)
    return int(np.argmax(v3)), v3


def check_close(close, top):
    """Raise ValueError unless `close` (win probability) is at least 0 and `top` (turns)
    at least 2: a close choice is two turns or more within `close` of the best."""
    if top < 2 or close < 0:
        raise ValueError("--top must be at least 2 (a close choice is two turns or more) "
                         "and --close at least 0, not %r and %r" % (top, close))


def close_keys(ranked, also=(), close=None, top=None):
    """The resulting keys of a close choice, to be searched at ply 3: the best `top`
    (default CLOSE_TOP) turns of `ranked` (a `rank` list, best first) searched at ply 2
    and within `close` (win probability, default CLOSE) of the best, when there are at
    least two, then any key of `also` (e.g. the turn played) searched at ply 2 and
    within `close` too; [] when the choice is not close.  Raises ValueError
    (`check_close`) for a top under 2 or a negative close."""
    close = CLOSE if close is None else close
    top = CLOSE_TOP if top is None else top
    check_close(close, top)
    if len(ranked) < 2 or ranked[0][3] != 2:
        return []
    best = ranked[0][2]
    keys = []
    for _m, k, v, d in ranked[:top]:
        if d != 2 or v < best - close:
            break
        keys.append(k)
    if len(keys) < 2:
        return []
    for _m, k, v, d in ranked[top:]:
        if k in also and d == 2 and v >= best - close and k not in keys:
            keys.append(k)
    return keys


def rank(r, s, a, b, mover, d1, d2, og=0, mode=dev.MODE_SINGLE, starter=0, width=WIDTH,
         ply=2, extra=(), net=None, calibrated=True, deep=False, close=None, top=None):
    """Every complete turn of roll (d1, d2) with its value, best first: a list of
    (moves, key, value, depth) with value the mover's win probability (0..1, a match's
    won game a little more) and depth the ply it was searched to (0 for a game end,
    1, or 2).  extra: resulting keys (r, s, a, b) to search at ply 2 besides the best
    `width`.  [] for Moksha.  Bounded by work: width + len(extra) turns at ply 2.
    calibrated: values as shown (`shown_value`); False gives the raw search values
    (the order is the same either way).  deep: a close choice (`close_keys`) is
    settled at ply 3: the turn of it with the highest `deep_values` value goes first
    (a tie goes to the better at ply 2), the others keep their order; the values and
    depths stay the ply-2 ones, so the first turns may then be out of value order
    (docs/engine.md "Time" gives what a close choice costs).  close, top: the close
    choice's band and most turns (`close_keys`; CLOSE and CLOSE_TOP by default)."""
    turns = complete_turns(r, s, a, b, mover, d1, d2, og)
    if not turns:
        return []
    keys = [k for _m, k in turns]
    v1 = values(keys, mover, a, b, mode, starter, net)
    order = sorted(range(len(turns)), key=lambda i: (-v1[i], i))
    depth = [1] * len(turns)
    val = [float(v) for v in v1]
    for i in range(len(turns)):
        if _terminal(keys[i], mover, a, b, mode, starter) is not None:
            depth[i] = 0
    if ply >= 2:
        want = set(order[:width])
        ex = set(extra)
        want.update(i for i in range(len(turns)) if keys[i] in ex)
        searched = [i for i in order if i in want and depth[i] != 0]
        if searched:
            v2 = reply_values([keys[i] for i in searched], 1 - mover, og, mode, starter, net)
            for i, v in zip(searched, v2):
                val[i] = float(v)
                depth[i] = 2
    pos = {i: n for n, i in enumerate(order)}
    # Deeper values first (a ply-1 value is not comparable with a ply-2 one), then
    # value, then the ply-1 rank.
    best = sorted(range(len(turns)),
                  key=lambda i: (0 if depth[i] != 1 or ply < 2 else 1, -val[i], pos[i]))
    out = [(turns[i][0], keys[i], val[i], depth[i]) for i in best]
    if deep and ply >= 2:
        keys = close_keys(out, close=close, top=top)
        if keys:
            j, _v3 = settle_close(keys, mover, og, mode, starter, net)
            if j:
                out.insert(0, out.pop(j))
    if calibrated:
        out = [(m, k, shown_value(v, d, mode), d) for m, k, v, d in out]
    return out


def choose(r, s, a, b, mover, d1, d2, og=0, seed=0, mode=dev.MODE_SINGLE, starter=0,
           width=WIDTH, ply=2, deep=True, close=None, top=None):
    """The host engine's turn for roll (d1, d2): (moves, key, value) like the device
    engine's `choose`, value the mover's win probability (0..1, the chosen turn's ply-2
    value as shown), or None for Moksha.  deep: a close choice is settled at ply 3
    (`rank`; close, top: its band and most turns, CLOSE and CLOSE_TOP by default).
    seed: accepted for the same signature; the host engine needs no tie-break draw
    (equal values go to the ply-1 rank, then complete_turns order)."""
    ranked = rank(r, s, a, b, mover, d1, d2, og, mode, starter, width, ply, deep=deep,
                  close=close, top=top)
    if not ranked:
        return None
    moves, key, value, _depth = ranked[0]
    return (moves, key, value)
