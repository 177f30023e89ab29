"""The host engine's evaluation: a small neural network, trained by temporal
differences from self-play (tools/train_host.py, docs/engine.md "Host engine"), that
gives the probability of winning the single game for the player who has just moved.

Inputs (`features`, 88 numbers per position, seen from the side of `me`, the player
who has just moved, the opponent to roll next; "my lane" is the lane that ends in my
goal: S for A, R for B, so the board looks the same to both players):
  - 24 bits: my lane's fields 1..24 occupied;
  - 24 bits: the opponent's lane's fields 1..24 occupied;
  - 24 bits: double spaces with both halves occupied (bit t: field t+1 of my lane and
    its partner, field (t+12) mod 24 + 1 of the opponent's lane);
  - 6 + 6: my score and the opponent's score, one-hot 0..5;
  - 2: the device engine's scoring chances (`engine.chance`, / 36) of my lane and of
    the opponent's lane (the opponent rolls next);
  - 2: the same two chances when the player concerned is one goal from the centre.
The player's features (`N_FEATURES` - `N_BASE` = 57 more, `extras`; what a Samsara
player looks at, each scaled to about 0..1), for each lane (mine, then the opponent's):
  - the chance of at least one goal in the lane owner's next roll and of two goals
    (over the 36 rolls, from the marbles within 12 fields of the goal, counted as
    `engine.chance` counts them);
  - the marbles within reach of the goal: within 6 fields (/ 6) and within 12 (/ 6);
  - the marbles on the lane's first half, fields 1..12 (/ 6), and the pips the lane's
    marbles still have to go to the goal (/ 150): the race;
  - the blocked double spaces (both halves full: nothing lands there) in front of the
    goal, fields 13..24 (/ 6), and the longest run of blocked spaces along the lane
    (/ 6, at most 6): a wall;
then the threats: the opponent's chance of at least one goal when at 5 (it wins on its
next roll), of two goals when at 4, mine likewise for the roll after; all blocked
double spaces (/ 12); and the race to the centre, the pair of scores one-hot (6 x 6).
A network whose first layer has `N_BASE` rows reads only the first `N_BASE` inputs
(the weights made before the player's features), one with `N_FEATURES` rows all.
Network: N inputs -> H hidden units (sigmoid) -> 1 output (sigmoid), plus a linear
path from the inputs to the output that starts as the device engine's evaluation
(`device_weights`: that evaluation is linear in these inputs).  Four networks ship
beside this module (`load`), the four stages of `make train`: weights-base.npz
(`N_BASE` inputs), weights-features.npz (`N_FEATURES`, trained on from the first),
weights.npz and weights-faster.npz (`N_FEATURES`, each trained on from the second with
a faster hidden layer, at two rates); the shipped evaluation (`shipped`) is the sigmoid
of the mean of their logits (`Ensemble`).  Positions are evaluated in batches
(numpy arrays of lane masks and scores), so a search pays the Python overhead once
per roll, not once per position.
"""
import hashlib
import json
import os

import numpy as np

from samsara.rules import engine as dev

N_BASE = 88
"""Inputs of the lanes, double spaces, scores and device chances (module docstring)."""

N_FEATURES = N_BASE + 57
"""Inputs with the player's features (`extras`)."""

N_INPUTS = N_FEATURES
"""Inputs of a new network (module docstring)."""

WEIGHTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "weights.npz")
"""The first shipped network (written by tools/train_host.py --out): the network with
the player's features trained on with a faster hidden layer, `make train`'s stage 3."""

FASTER_WEIGHTS = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                              "weights-faster.npz")
"""The second shipped network: the network with the player's features trained on with a
hidden layer faster still (twice stage 3's rate), `make train`'s stage 4."""

FEATURES_WEIGHTS = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "weights-features.npz")
"""The third shipped network: the network with the player's features that stages 3 and
4 started from (`make train`'s stage 2)."""

BASE_WEIGHTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "weights-base.npz")
"""The fourth shipped network: the 88-input base network (`make train`'s stage 1).  The
shipped evaluation is the mean of the four networks' logits (`Ensemble`, `shipped`)."""

_SHIFTS = np.arange(24, dtype=np.int64)
_CHANCE = None


def _chance_table():
    global _CHANCE
    if _CHANCE is None:
        _CHANCE = np.frombuffer(bytes(dev.use_table()), dtype=np.uint8).astype(np.float64) / 36.0
    return _CHANCE


_TABLES = None


def _tables():
    # Per 12-bit mask u: the chance of >= 1 goal and of 2 goals in one roll (u as in
    # engine.chance: bit k = a marble 12 - k fields before the goal), the marbles
    # within 6 fields, the popcount, the pips to the goal of the lane's first half
    # (bit i = field i + 1, 24 - i pips) and second half (bit k: 12 - k pips).
    global _TABLES
    if _TABLES is None:
        u = np.arange(4096, dtype=np.int64)

        def bit(d):
            return (u >> (12 - d)) & 1 if d <= 12 else np.zeros_like(u)
        one = np.zeros(4096)
        two = np.zeros(4096)
        for x in range(1, 7):
            for y in range(1, 7):
                one += bit(x) | bit(y) | bit(x + y)
                if x != y:
                    two += bit(x) & bit(y)
        pop = np.zeros(4096)
        lo = np.zeros(4096)
        hi = np.zeros(4096)
        for k in range(12):
            bk = (u >> k) & 1
            pop += bk
            lo += bk * (24 - k)
            hi += bk * (12 - k)
        near = pop[u >> 6]
        _TABLES = (one / 36.0, two / 36.0, near, pop, lo, hi)
    return _TABLES


def _run(m):
    # The longest run of consecutive set bits of 24-bit masks m (no wrap), at most 6.
    n = np.zeros(m.shape)
    for _k in range(6):
        n += m != 0
        m = m & (m >> 1)
    return n


def extras(mine, theirs, my, op):
    """The player's features (n x (N_FEATURES - N_BASE), module docstring) of n
    positions: mine, theirs the 24-bit masks of my lane and the opponent's (int64
    arrays), my, op the scores clamped to 0..5."""
    one, two, near, pop, lo, hi = _tables()
    n = mine.shape[0]
    x = np.empty((n, N_FEATURES - N_BASE))
    both = mine & (((theirs >> 12) | (theirs << 12)) & 0xFFFFFF)   # my lane's order
    both_o = ((both >> 12) | (both << 12)) & 0xFFFFFF                # the opponent's
    col = 0
    for lane, bl in ((mine, both), (theirs, both_o)):
        u = lane >> 12
        f = lane & 0xFFF
        x[:, col] = one[u]
        x[:, col + 1] = two[u]
        x[:, col + 2] = near[u] / 6.0
        x[:, col + 3] = pop[u] / 6.0
        x[:, col + 4] = pop[f] / 6.0
        x[:, col + 5] = (lo[f] + hi[u]) / 150.0
        x[:, col + 6] = pop[bl >> 12] / 6.0
        x[:, col + 7] = _run(bl) / 6.0
        col += 8
    um = mine >> 12
    ut = theirs >> 12
    x[:, col] = one[ut] * (op == 5)
    x[:, col + 1] = two[ut] * (op == 4)
    x[:, col + 2] = one[um] * (my == 5)
    x[:, col + 3] = two[um] * (my == 4)
    x[:, col + 4] = (pop[both & 0xFFF] + pop[both >> 12]) / 12.0
    col += 5
    x[:, col:] = 0.0
    x[np.arange(n), col + 6 * my + op] = 1.0
    return x


def features(r, s, a, b, me, inputs=N_INPUTS):
    """Input matrix (n x inputs, float64) of n positions for players `me`.

    r, s: int arrays (or sequences) of 24-bit lane masks; a, b: scores 0..6 (a 6 is
    clamped to 5: game ends are judged by the search, not here); me: 0 (A) or 1 (B),
    one int for all rows or an array, the player who has just moved.  inputs:
    `N_BASE` (the first 88 only) or `N_FEATURES` (module docstring); anything else
    raises ValueError."""
    if inputs not in (N_BASE, N_FEATURES):
        raise ValueError("a network takes %d or %d inputs, not %r" % (N_BASE, N_FEATURES, inputs))
    r = np.asarray(r, dtype=np.int64)
    s = np.asarray(s, dtype=np.int64)
    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    me = np.broadcast_to(np.asarray(me, dtype=np.int64), r.shape)
    isb = me == 1
    mine = np.where(isb, r, s)
    theirs = np.where(isb, s, r)
    my = np.minimum(np.where(isb, b, a), 5)
    op = np.minimum(np.where(isb, a, b), 5)
    n = r.shape[0]
    x = np.zeros((n, N_BASE))
    mb = (mine[:, None] >> _SHIFTS) & 1
    tb = (theirs[:, None] >> _SHIFTS) & 1
    x[:, 0:24] = mb
    x[:, 24:48] = tb
    x[:, 48:72] = mb * np.roll(tb, -12, axis=1)
    rows = np.arange(n)
    x[rows, 72 + my] = 1.0
    x[rows, 78 + op] = 1.0
    ch = _chance_table()
    cm = ch[mine >> 12]
    ct = ch[theirs >> 12]
    x[:, 84] = cm
    x[:, 85] = ct
    x[:, 86] = cm * (my >= 5)
    x[:, 87] = ct * (op >= 5)
    if inputs == N_BASE:
        return x
    return np.concatenate((x, extras(mine, theirs, my, op)), axis=1)


def device_weights(per_goal, inputs=N_INPUTS):
    """The device engine's evaluation (samsara.rules.engine.evaluate) as weights on
    `features` (`inputs` of them; the player's features weigh 0), scaled to `per_goal`
    per goal (1000 device units): for every non-final position,
    features(...) @ device_weights(1000) == engine.evaluate(...).
    The network starts from them (tools/train_host.py)."""
    w = np.zeros(inputs)
    k = per_goal / float(dev.GOAL)
    for t in range(24):
        j = (t + 12) % 24          # my lane's field in double space t
        w[j] = 8 * (dev.MINE[t] - 128)
        w[24 + t] = 8 * (dev.THEIRS[t] - 128)
        w[48 + j] = 8 * ((dev.BOTH[t] - 128) - (dev.MINE[t] - 128) - (dev.THEIRS[t] - 128))
    for s in range(6):
        w[72 + s] = dev.GOAL * s
        w[78 + s] = -dev.GOAL * s
    w[84] = 36 * dev.W_OWN
    w[85] = -36 * dev.W_OPP
    w[87] = -36 * dev.W_OPP5
    return w * k


class Net:
    """The evaluation network: hidden layer w1 (N_INPUTS x H), b1 (H), output weights
    w2 (H), a linear path wl (N_INPUTS) from the inputs straight to the output, and
    the output bias b2 (a float).

    `value(x)` maps an input matrix (n x N_INPUTS) to n win probabilities in (0, 1):
    sigmoid(sigmoid(x w1 + b1) w2 + x wl + b2)."""

    def __init__(self, w1, b1, w2, wl, b2):
        self.w1 = np.asarray(w1, dtype=np.float64)
        self.b1 = np.asarray(b1, dtype=np.float64)
        self.w2 = np.asarray(w2, dtype=np.float64)
        self.wl = np.asarray(wl, dtype=np.float64)
        self.b2 = float(b2)
        if self.w1.ndim != 2 or self.w1.shape[0] not in (N_BASE, N_FEATURES):
            raise ValueError("w1 must have %d or %d rows, not shape %r"
                             % (N_BASE, N_FEATURES, self.w1.shape))

    @property
    def inputs(self):
        """Inputs the network reads (`N_BASE` or `N_FEATURES`): the width of its
        `features` matrix."""
        return self.w1.shape[0]

    def widened(self):
        """This network reading `N_FEATURES` inputs: the player's features start with
        zero weights (hidden and linear), so it gives the same values; a copy."""
        extra = N_FEATURES - self.inputs
        return Net(np.vstack((self.w1, np.zeros((extra, self.w1.shape[1])))), self.b1.copy(),
                   self.w2.copy(), np.concatenate((self.wl, np.zeros(extra))), self.b2)

    def grown(self, hidden, rng):
        """This network with `hidden` hidden units (at least its own): the new units
        get small random input weights (normal, sd 0.1, from numpy Generator `rng`),
        zero bias and zero output weight, so it gives the same values and training
        can put them to use; a copy.  Raises ValueError for fewer units than it has."""
        extra = hidden - self.w1.shape[1]
        if extra < 0:
            raise ValueError("cannot shrink %d hidden units to %d" % (self.w1.shape[1], hidden))
        return Net(np.hstack((self.w1, rng.normal(0, 0.1, (self.inputs, extra)))),
                   np.concatenate((self.b1, np.zeros(extra))),
                   np.concatenate((self.w2, np.zeros(extra))), self.wl.copy(), self.b2)

    @classmethod
    def start(cls, hidden, rng, per_goal=1.9, bias=-0.15, inputs=N_INPUTS):
        """The network training starts from: the device engine's evaluation on the
        linear path (`device_weights(per_goal)`) with output bias `bias`, small random
        hidden weights from numpy Generator `rng`, zero output weights (so it first
        plays like the device engine).  The defaults are the logistic fit of the
        outcomes of device-engine games on its evaluation (1.9 per goal; -0.15: the
        player who has just moved is behind by the opponent's roll).  inputs:
        `N_BASE` or `N_FEATURES`."""
        return cls(rng.normal(0, 0.1, (inputs, hidden)), np.zeros(hidden),
                   np.zeros(hidden), device_weights(per_goal, inputs), bias)

    def logit(self, x):
        """The output before its sigmoid (n floats) for the rows of input matrix x
        (n x `inputs`)."""
        h = 1.0 / (1.0 + np.exp(-(x @ self.w1 + self.b1)))
        return h @ self.w2 + x @ self.wl + self.b2

    def value(self, x):
        """Win probabilities (n floats) of the rows of input matrix x."""
        return 1.0 / (1.0 + np.exp(-self.logit(x)))

    def save(self, path, meta=None):
        """Write the weights to an .npz file; meta: a dict of how they were made
        (training seed, games, options, commit), stored as JSON text (`load_meta`)."""
        extra = {} if meta is None else {"meta": np.array(json.dumps(meta, sort_keys=True))}
        np.savez(path, w1=self.w1, b1=self.b1, w2=self.w2, wl=self.wl, b2=np.array(self.b2),
                 **extra)


class Ensemble:
    """Several networks valued as one: the win probability is the sigmoid of the mean of
    their logits (`Net.logit`), each network reading the first `net.inputs` columns of
    the input matrix, so a base network (`N_BASE`) and one with the player's features
    (`N_FEATURES`) share one `features` call.  `inputs` is the widest network's; `value`
    as `Net.value`.  weights: one positive number a network for a weighted mean of the
    logits (default: all equal, the plain mean).  Raises ValueError for no networks, or
    weights not one positive number a network."""

    def __init__(self, nets, weights=None):
        self.nets = list(nets)
        if not self.nets:
            raise ValueError("an ensemble needs at least one network")
        self.inputs = max(n.inputs for n in self.nets)
        # 1.0 each by default: 1.0 * logit is exact, so the plain mean rounds as before
        self.weights = [1.0] * len(self.nets) if weights is None else [float(w) for w in weights]
        if len(self.weights) != len(self.nets) or min(self.weights) <= 0:
            raise ValueError("an ensemble's weights: one positive number a network "
                             "(%d networks, weights %s)" % (len(self.nets), self.weights))

    def value(self, x):
        """Win probabilities (n floats) of the rows of input matrix x (n x `inputs`)."""
        z = sum(w * n.logit(x[:, :n.inputs]) for w, n in zip(self.weights, self.nets))
        return 1.0 / (1.0 + np.exp(-z / sum(self.weights)))


def load(path=WEIGHTS):
    """The Net stored at `path` (default: the shipped weights).  Raises OSError when the
    file is missing, KeyError when it lacks an array and ValueError when its first
    layer is neither `N_BASE` nor `N_FEATURES` wide."""
    with np.load(path) as z:
        return Net(z["w1"], z["b1"], z["w2"], z["wl"], z["b2"])


def weights_sha(path):
    """A short hash (16 hex digits) of the weights at `path`: their arrays, not how they
    were made, so a file whose meta alone changed keeps it.  Raises as `load`."""
    net = load(path)
    h = hashlib.sha256()
    for arr in (net.w1, net.b1, net.w2, net.wl, np.array(net.b2)):
        h.update(np.ascontiguousarray(arr, dtype=np.float64).tobytes())
    return h.hexdigest()[:16]


def load_meta(path=WEIGHTS):
    """How the weights at `path` were made (the dict `Net.save` stored: training seed,
    games, options, commit), or {} for weights saved without it."""
    with np.load(path) as z:
        if "meta" not in z.files:
            return {}
        return json.loads(str(z["meta"]))


_NET = None


def shipped():
    """The shipped evaluation, loaded once per process: the `Ensemble` of the four
    stages' networks (`shipped_files`); a missing file other than `WEIGHTS` is left
    out.  Raises OSError when `WEIGHTS` is missing."""
    global _NET
    if _NET is None:
        _NET = Ensemble([load(path) for path in shipped_files()])
    return _NET


def shipped_files():
    """The paths of the networks `shipped` values together, in order: `WEIGHTS`, then
    `FASTER_WEIGHTS`, `FEATURES_WEIGHTS` and `BASE_WEIGHTS` where they exist (the order
    the evaluation was measured in: the mean's rounding depends on it)."""
    return [WEIGHTS] + [p for p in (FASTER_WEIGHTS, FEATURES_WEIGHTS, BASE_WEIGHTS)
                        if os.path.exists(p)]


def shipped_shas():
    """Which evaluation `shipped` is: {file name: `weights_sha`} of `shipped_files`, the
    record a calibration map keeps of the evaluation it was fitted for."""
    return {os.path.basename(p): weights_sha(p) for p in shipped_files()}


def evaluate(keys, me, net=None):
    """Win probabilities for `me` (who has just moved) of positions `keys`, a list of
    (r, s, a, b) tuples; game ends are not judged here.  net: default the shipped one."""
    if net is None:
        net = shipped()
    arr = np.array(keys, dtype=np.int64).reshape(-1, 4)
    return net.value(features(arr[:, 0], arr[:, 1], arr[:, 2], arr[:, 3], me, net.inputs))
