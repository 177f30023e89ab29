"""Host engine benchmark (docs/engine.md "Host engine", "Game analysis"): the time of
one decision of `samsara rules best --engine host` (hostengine.choose, the 2-ply
search, a close choice settled at ply 3) over positions of seeded games, with the
number of close choices, and of `samsara analyze` of a whole game of about 40 turns,
without and with `--deep` (close choices at ply 3).  Prints the figures and the targets
(p99 <= 1 s per decision, <= 30 s for the analysis); CPU time of this process, so a
loaded machine inflates them less than wall time.

Usage: python -m tools.bench_engine [--decisions N] [--seed S] [--generator G]
       [--close C] [--top T]

--close C, --top T: time the decisions with another close choice (the best T turns
within C of the best searched at ply 3; the shipped hostengine.CLOSE and CLOSE_TOP by
default); `analyze --deep` is timed as shipped.  --top below 2, a negative --close and
--decisions below 1 are refused (exit status 2) before anything is timed.

--generator complete_turns: the search's replies from the firmware's complete_turns as
before turngen (hostengine.FAST_TURNS False), to measure the difference; the default
turngen.  tools/bench_turngen.py times the generators alone.
"""
import argparse
import random
import sys
import time

from samsara.rules import engine as dev
from samsara.rules import moves as rules
from samsara.rules.position import START
from samsara_host import analysis
from samsara_host.engine import hostengine, match  # noqa: F401 (one BLAS thread)
from samsara_host.record import GameRecord
from samsara.rules.notation import format_turn

DECISION_TARGET = 1.0
ANALYZE_TARGET = 30.0


def corpus(n, seed):
    """n (r, s, a, b, mover, d1, d2) from games of the device engine against itself
    with dice from random.Random(seed): every turn of the games, in order."""
    rng = random.Random(seed)
    out = []
    p = START
    r, s, a, b, mover = p.r, p.s, p.a, p.b, p.mover
    while len(out) < n:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        res = dev.choose(r, s, a, b, mover, d1, d2)
        out.append((r, s, a, b, mover, d1, d2))
        if res is None or 6 in res[1][2:]:
            r, s, a, b, mover = START.r, START.s, START.a, START.b, START.mover
            continue
        r, s, a, b = res[1]
        mover = 1 - mover
    return out


def game_record(seed, turns=40):
    """A GameRecord of a game of the host engine against the device engine with dice
    from random.Random(seed), cut at `turns` turns (or its end)."""
    rng = random.Random(seed)
    r, s, a, b, mover = START.r, START.s, START.a, START.b, START.mover
    notes = []
    while len(notes) < turns:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        choose = hostengine.choose if mover == 0 else dev.choose
        res = choose(r, s, a, b, mover, d1, d2)
        if res is None:
            notes.append("%d%d" % (d1, d2))
            break
        notes.append(format_turn(d1, d2, res[0]))
        r, s, a, b = res[1]
        if a == 6 or b == 6:
            break
        mover = 1 - mover
    return GameRecord({"PlayerA": "host", "PlayerB": "device"}, START, notes)


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--decisions", type=int, default=120)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--generator", choices=("turngen", "complete_turns"), default="turngen",
                    help="where the search's replies come from (default turngen)")
    ap.add_argument("--close", type=float, default=hostengine.CLOSE)
    ap.add_argument("--top", type=int, default=hostengine.CLOSE_TOP)
    args = ap.parse_args(argv if argv is not None else [])
    if args.decisions < 1:
        ap.error("--decisions must be at least 1")
    try:
        hostengine.check_close(args.close, args.top)
    except ValueError as e:
        ap.error(str(e))
    dev.use_table()
    hostengine.FAST_TURNS = args.generator == "turngen"
    ts = []
    close = []              # the decisions settled at ply 3 (a close choice)
    deep_values = hostengine.deep_values

    def counted(*args, **kw):
        close.append(1)
        return deep_values(*args, **kw)
    hostengine.deep_values = counted
    for r, s, a, b, mover, d1, d2 in corpus(args.decisions, args.seed):
        t0 = time.process_time()
        hostengine.choose(r, s, a, b, mover, d1, d2, close=args.close, top=args.top)
        ts.append(time.process_time() - t0)
    hostengine.deep_values = deep_values
    rec = game_record(args.seed)
    t0 = time.process_time()
    res = analysis.analyze_record(rec)
    t_an = time.process_time() - t0
    rec = game_record(args.seed)
    t0 = time.process_time()
    analysis.analyze_record(rec, deep=True)
    t_deep = time.process_time() - t0
    turns = len(res["turns"])
    print("host engine, CPU seconds of one core (seed %d, replies by %s, close choices: "
          "the best %d within %g)" % (args.seed, args.generator, args.top, args.close))
    print("%-52s %-22s %-10s %s" % ("figure", "value", "target", "result"))
    print("-" * 96)
    p99 = pct(ts, 0.99)
    print("%-52s %-22s %-10s %s" % ("rules best --engine host, %d decisions" % len(ts),
                                    "p50 %.3f s" % pct(ts, 0.5), "", ""))
    print("%-52s %-22s %-10s %s" % ("", "p99 %.3f s, max %.3f s" % (p99, max(ts)),
                                    "<= %.0f s" % DECISION_TARGET,
                                    "PASS" if p99 <= DECISION_TARGET else "FAIL"))
    print("%-52s %-22s %-10s %s" % ("  close choices settled at ply 3", "%d" % len(close),
                                    "", ""))
    for name, tt in (("analyze", t_an), ("analyze --deep", t_deep)):
        print("%-52s %-22s %-10s %s" % ("%s, a game of %d turns" % (name, turns),
                                        "%.1f s" % tt, "<= %.0f s" % ANALYZE_TARGET,
                                        "PASS" if tt <= ANALYZE_TARGET else "FAIL"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
