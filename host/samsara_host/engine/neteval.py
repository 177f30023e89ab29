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
Network: 88 inputs -> H hidden units (sigmoid) -> 1 output (sigmoid), plus a linear
path from the inputs to the output that starts as the device engine's evaluation
(`device_weights`: that evaluation is linear in these inputs).  The weights
ship in weights.npz beside this module (`load`).  Positions are evaluated in batches
(numpy arrays of lane masks and scores), so a search pays the Python overhead once
per roll, not once per position.
"""
import os

import numpy as np

from samsara.rules import engine as dev

N_INPUTS = 88
"""Number of inputs of the network (module docstring)."""

WEIGHTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "weights.npz")
"""The shipped weights (written by tools/train_host.py --out)."""

_SHIFTS = np.arange(24, dtype=np.int64)
_CHANCE = None


def _chance_table():
    global _CHANCE
    if _CHANCE is None:
        _CHANCE = np.frombuffer(bytes(dev.use_table()), dtype=np.uint8).astype(np.float64) / 36.0
    return _CHANCE


def features(r, s, a, b, me):
    """Input matrix (n x N_INPUTS, float64) of n positions for players `me`.

    r, s: int arrays (or sequences) of 24-bit lane masks; a, b: scores 0..6 (a 6 is
    clamped to 5: game ends are judged by the search, not here); me: 0 (A) or 1 (B),
    one int for all rows or an array, the player who has just moved."""
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
    x = np.zeros((n, N_INPUTS))
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
    return x


def device_weights(per_goal):
    """The device engine's evaluation (samsara.rules.engine.evaluate) as weights on
    `features`, scaled to `per_goal` per goal (1000 device units): for every
    non-final position, features(...) @ device_weights(1000) == engine.evaluate(...).
    The network starts from them (tools/train_host.py)."""
    w = np.zeros(N_INPUTS)
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

    @classmethod
    def start(cls, hidden, rng, per_goal=1.9, bias=-0.15):
        """The network training starts from: the device engine's evaluation on the
        linear path (`device_weights(per_goal)`) with output bias `bias`, small random
        hidden weights from numpy Generator `rng`, zero output weights (so it first
        plays like the device engine).  The defaults are the logistic fit of the
        outcomes of device-engine games on its evaluation (1.9 per goal; -0.15: the
        player who has just moved is behind by the opponent's roll)."""
        return cls(rng.normal(0, 0.1, (N_INPUTS, hidden)), np.zeros(hidden),
                   np.zeros(hidden), device_weights(per_goal), bias)

    def value(self, x):
        """Win probabilities (n floats) of the rows of input matrix x."""
        h = 1.0 / (1.0 + np.exp(-(x @ self.w1 + self.b1)))
        return 1.0 / (1.0 + np.exp(-(h @ self.w2 + x @ self.wl + self.b2)))

    def save(self, path):
        """Write the weights to an .npz file."""
        np.savez(path, w1=self.w1, b1=self.b1, w2=self.w2, wl=self.wl, b2=np.array(self.b2))


def load(path=WEIGHTS):
    """The Net stored at `path` (default: the shipped weights).  Raises OSError when the
    file is missing and KeyError when it lacks an array."""
    with np.load(path) as z:
        return Net(z["w1"], z["b1"], z["w2"], z["wl"], z["b2"])


_NET = None


def shipped():
    """The shipped network, loaded once per process."""
    global _NET
    if _NET is None:
        _NET = load()
    return _NET


def evaluate(keys, me, net=None):
    """Win probabilities for `me` (who has just moved) of positions `keys`, a list of
    (r, s, a, b) tuples; game ends are not judged here.  net: default the shipped one."""
    if net is None:
        net = shipped()
    arr = np.array(keys, dtype=np.int64).reshape(-1, 4)
    return net.value(features(arr[:, 0], arr[:, 1], arr[:, 2], arr[:, 3], me))
