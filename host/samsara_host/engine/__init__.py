"""Engines on the computer: the host engine, the players a match seats and the match
runner behind `samsara engine match` and `samsara rules best` (docs/engine.md)."""

import os

# numpy's BLAS on one thread per process (set before numpy is first imported, which is
# through this package): the batches are small, a match runs one process per core, and
# one thread sums in one order, so values do not depend on the machine's load.
for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")
