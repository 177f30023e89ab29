"""Average the weights of networks saved along one training run (stochastic weight
averaging, SWA: Izmailov et al. 2018): the mean of each array of the files, one network
of the same shape, written as a weight file (neteval.Net.save) whose meta names the
files averaged and their hashes (neteval.weights_sha).

Snapshots of one run share their hidden units (the run moves them a little at a time),
so their mean is a network between them; networks of different runs or shapes do not,
and files of different shapes are refused.  docs/engine.md "A wider hidden layer,
weight averaging and weights in the mean" says what averaged networks measured.

Usage: python -m tools.average_weights --out FILE WEIGHTS WEIGHTS [WEIGHTS ...]
"""
import argparse
import os
import sys

import numpy as np

from samsara_host.engine import neteval

ARRAYS = ("w1", "b1", "w2", "wl")
"""The arrays averaged (the output bias b2 too, as a number)."""


def average(nets):
    """The neteval.Net whose arrays are the means of those of `nets` (a list of Net of
    one shape: inputs x hidden).  Raises ValueError for fewer than two networks or
    networks of different shapes."""
    if len(nets) < 2:
        raise ValueError("averaging needs at least two networks")
    shape = nets[0].w1.shape
    for n in nets[1:]:
        if n.w1.shape != shape:
            raise ValueError("networks of different shapes (%s and %s inputs x hidden) "
                             "cannot be averaged" % (shape, n.w1.shape))
    arrays = [np.mean([getattr(n, k) for n in nets], axis=0) for k in ARRAYS]
    return neteval.Net(*arrays, float(np.mean([n.b2 for n in nets])))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="the averaged weights (.npz)")
    ap.add_argument("weights", nargs="+", help="weight files of one run (.npz)")
    args = ap.parse_args(argv)
    try:
        nets = [neteval.load(p) for p in args.weights]
        net = average(nets)
    except (OSError, KeyError, ValueError) as e:
        print("average_weights: %s" % e, file=sys.stderr)
        return 2
    meta = {"average_of": [os.path.basename(p) for p in args.weights],
            "average_of_sha": [neteval.weights_sha(p) for p in args.weights],
            "command": "python -m tools.average_weights --out %s %s"
                       % (os.path.basename(args.out),
                          " ".join(os.path.basename(p) for p in args.weights))}
    net.save(args.out, meta)
    print("average_weights: %d networks (%d inputs x %d hidden) -> %s"
          % (len(nets), net.w1.shape[0], net.w1.shape[1], args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
