"""Turn generator benchmark (docs/engine.md "Host engine", "Time"): the resulting keys
of all 21 rolls of positions of seeded games, from the firmware's complete_turns and
from the host's turngen.TurnKeys, and hostengine.reply_values (the ply-2 search of a
candidate turn, called with WIDTH positions at a time as in a decision) with either
generator; both variants back to back in this process, CPU time of this process.
Checks on the way that both give the same keys and the same values (a mismatch is an
error, exit status 1).

Usage: python -m tools.bench_turngen [--positions N] [--seed S] [--repeat R]
"""
import argparse
import sys
import time

from samsara.rules import moves as rules
from samsara_host.engine import hostengine  # first: numpy's BLAS on one thread
from samsara_host.engine.turngen import TurnKeys
from tools.bench_engine import corpus


def old_rolls(key, mover, og):
    r, s, a, b = key
    return [[k for _m, k in rules.complete_turns(r, s, a, b, mover, x, y, og)]
            for x, y, _w in hostengine.ROLLS]


def new_rolls(key, mover, og):
    tk = TurnKeys(key, mover, og)
    return [tk.keys(x, y) for x, y, _w in hostengine.ROLLS]


def timed(f):
    t0 = time.process_time()
    res = f()
    return time.process_time() - t0, res


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3,
                    help="rounds of both variants; the best round is printed")
    args = ap.parse_args(argv if argv is not None else [])
    pos = [((r, s, a, b), m) for r, s, a, b, m, _x, _y in corpus(args.positions, args.seed)]
    keys = [k for k, _m in pos]
    best = {}
    ok = True
    for _ in range(args.repeat):
        for name, gen in (("complete_turns", old_rolls), ("turngen", new_rolls)):
            t, res = timed(lambda: [gen(k, m, 0) for k, m in pos])
            n = sum(len(ks) for rolls in res for ks in rolls)
            if name in best and res != best[name][2]:
                ok = False
            best[name] = (min(t, best.get(name, (t,))[0]), n, res)
        for name, fast in (("reply_values complete_turns", False), ("reply_values turngen", True)):
            hostengine.FAST_TURNS = fast
            t, res = timed(lambda: b"".join(
                hostengine.reply_values(keys[i:i + hostengine.WIDTH], 1).tobytes()
                for i in range(0, len(keys), hostengine.WIDTH)))
            if name in best and res != best[name][2]:
                ok = False
            best[name] = (min(t, best.get(name, (t,))[0]), len(keys), res)
    hostengine.FAST_TURNS = True
    ok = ok and best["complete_turns"][2] == best["turngen"][2]
    ok = ok and best["reply_values complete_turns"][2] == best["reply_values turngen"][2]
    print("turn generators, CPU seconds of one core, best of %d (%d positions of seed %d, "
          "all 21 rolls each)" % (args.repeat, len(pos), args.seed))
    print("%-30s %10s %12s %14s %9s" % ("variant", "seconds", "keys", "positions/s",
                                        "speed-up"))
    print("-" * 80)
    for old, new in (("complete_turns", "turngen"),
                     ("reply_values complete_turns", "reply_values turngen")):
        for name in (old, new):
            t, n, _res = best[name]
            print("%-30s %10.3f %12s %14.0f %9s" % (
                name, t, n if "reply" not in name else "",
                len(pos) / t if t else 0.0,
                "%.1fx" % (best[old][0] / t) if name == new and t else ""))
    print("same keys and values: %s" % ("yes" if ok else "NO"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
