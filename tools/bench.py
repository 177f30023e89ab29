"""`make bench`: run every benchmark module tools/bench_*.py in name order.

Each module has main() that prints its figures (the same figures docs/performance.md
quotes).  Usage: python -m tools.bench [NAME ...] to run only some, e.g. `rules`.
"""
import importlib
import os
import sys
import time


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    names = sorted(n[6:-3] for n in os.listdir(here) if n.startswith("bench_") and n.endswith(".py")
                   and n != "bench_device.py")  # the rig: `make bench-device`
    if len(argv) > 1:
        names = [n for n in names if n in argv[1:]]
    for name in names:
        print("=" * 72)
        print("benchmark: %s" % name)
        print("=" * 72, flush=True)
        t0 = time.time()
        importlib.import_module("tools.bench_" + name).main()
        print("(%s took %.1f s)\n" % (name, time.time() - t0), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
