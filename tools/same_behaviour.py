"""Check that a refactor kept the board's behaviour: the same sensor traces give the same
events, turns, results and LED scenes, the same seeded games record the same traces, and
the firmware's own loop (main.py on the fake hardware, with the game log and the USB
link) streams the same event lines.

    python -m tools.same_behaviour --check [FILE]     # against the recorded behaviour
    python -m tools.same_behaviour --record [FILE]    # record the tree's behaviour
    python -m tools.same_behaviour REV                # against an earlier commit

FILE defaults to tests/golden/behaviour.json.gz (`make test` checks it:
tests/test_same_behaviour.py).  What is compared, per item:

    record s<seed> n<noise>  `samsara trace record` of a seeded simulated game (seeds 1-8,
                             noise 0 and 2): the SHA-256 of the trace's lines
    replay <trace>           `samsara trace replay --json` of every trace in tests/traces/
                             and of the recorded ones, plus every event of the replay
    loop s<seed> <build>     main.py's loop on the fake hardware (tests/fakes/simgame.py
                             under the `micropython` Unix port): every line it prints

Intended differences are normalised before comparing, and named in INTENDED.  Exit code
0 when everything agrees, 1 otherwise (the differing items are listed, with the first
differing event).
"""
import argparse
import glob
import gzip
import hashlib
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = os.path.join(ROOT, "tests", "golden", "behaviour.json.gz")
SEEDS = range(1, 9)
NOISE = (0, 2)
LOOP_GAMES = ((1, "digital"), (2, "digital"), (3, "digital"), (4, "analog"))

INTENDED = [
    # (what, function of an item's value): applied to the recorded and the new value alike
]
"""Known, intended differences from the recorded behaviour, each normalised away before
comparing (none yet)."""


def _host_path(tree):
    return os.pathsep.join(os.path.join(tree, d) for d in ("host", "firmware", "hardware"))


def _run_items(tree):
    """Every item of the module docstring for the tree at `tree`: {name: value}.  The
    Python items run in a child process with the tree's own modules first on the path."""
    code = r"""
import glob, hashlib, json, os, sys, tempfile
from samsara_host.sim.table import Table
from samsara_host.trace import load, replay
from samsara_host import trace as T
out = {}
tmp = tempfile.mkdtemp(prefix="same-behaviour-")
traces = sorted(glob.glob(os.path.join(sys.argv[1], "tests", "traces", "*.jsonl")))
for seed in %r:
    for noise in %r:
        tb = Table(seed=seed, noise=noise)
        tb.run()
        f = os.path.join(tmp, "s%%d-n%%d.jsonl" %% (seed, noise))
        T.save(f, tb.trace())
        with open(f, "rb") as fh:
            out["record s%%d n%%d" %% (seed, noise)] = hashlib.sha256(fh.read()).hexdigest()
        traces.append(f)
for t in traces:
    rp = replay(load(t))
    out["replay " + os.path.basename(t)] = {"result": rp.result(),
                                            "events": [[ms, e] for ms, e in rp.events]}
print(json.dumps(out))
""" % (list(SEEDS), list(NOISE))
    env = dict(os.environ, PYTHONPATH=_host_path(tree))
    r = subprocess.run([sys.executable, "-c", code, tree], capture_output=True, text=True,
                       env=env, cwd=tree)
    if r.returncode != 0:
        raise RuntimeError("the traces of %s failed:\n%s" % (tree, r.stderr[-3000:]))
    items = json.loads(r.stdout)
    upy = os.path.join(ROOT, ".venv", "bin", "micropython")
    for seed, build in LOOP_GAMES:
        env = dict(os.environ, MICROPYPATH=":".join(
            os.path.join(tree, d) for d in ("firmware", "tests/fakes", "host")))
        # in a fresh folder: the game log and the calibration file start empty
        r = subprocess.run([upy, os.path.join(tree, "tests", "fakes", "simgame.py"), str(seed),
                            build, "link"], capture_output=True, text=True, env=env,
                           cwd=tempfile.mkdtemp(prefix="same-behaviour-loop-"))
        items["loop s%d %s" % (seed, build)] = {"exit": r.returncode,
                                                "lines": _lines(r.stdout)}
    return items


def _lines(text):
    """The printed lines, JSON lines as objects (key order is not behaviour)."""
    out = []
    for line in text.splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            out.append(line)
    return out


def _normal(name, value):
    for _what, fn in INTENDED:
        value = fn(name, value)
    return value


def _first_difference(a, b):
    """Words for where two item values first differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                return "%s: %s" % (k, _first_difference(a.get(k), b.get(k)))
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return "[%d] %s != %s" % (i, json.dumps(x)[:200], json.dumps(y)[:200])
        return "lengths %d != %d" % (len(a), len(b))
    return "%s != %s" % (json.dumps(a)[:200], json.dumps(b)[:200])


def compare(old, new):
    """(compared, [difference lines]) of two {item: value} maps."""
    diffs = []
    for name in sorted(set(old) | set(new)):
        if name not in new:
            diffs.append("missing now: %s" % name)
        elif name not in old:
            diffs.append("new item: %s" % name)
        else:
            a, b = _normal(name, old[name]), _normal(name, new[name])
            if a != b:
                diffs.append("differs: %s (%s)" % (name, _first_difference(a, b)))
    return len(set(old) | set(new)), diffs


def main(argv=None):
    ap = argparse.ArgumentParser(prog="same_behaviour", description=__doc__.split("\n\n")[0])
    ap.add_argument("rev", nargs="?", help="an earlier commit to compare with")
    ap.add_argument("--record", nargs="?", const=GOLDEN, metavar="FILE",
                    help="record this tree's behaviour (default %s)" % os.path.relpath(GOLDEN, ROOT))
    ap.add_argument("--check", nargs="?", const=GOLDEN, metavar="FILE",
                    help="compare this tree with the recorded behaviour")
    a = ap.parse_args(argv)
    if a.record:
        items = _run_items(ROOT)
        with gzip.open(a.record, "wt") as f:
            json.dump(items, f, sort_keys=True, separators=(",", ":"))
        print("recorded %d items in %s" % (len(items), a.record))
        return 0
    if a.check:
        with gzip.open(a.check, "rt") as f:
            old = json.load(f)
    elif a.rev:
        tmp = tempfile.mkdtemp(prefix="same-behaviour-")
        tree = os.path.join(tmp, "old")
        subprocess.run(["git", "worktree", "add", "-q", "--detach", tree, a.rev], cwd=ROOT,
                       check=True)
        try:
            old = _run_items(tree)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", tree], cwd=ROOT)
    else:
        ap.error("give REV, --check or --record")
    n, diffs = compare(old, _run_items(ROOT))
    for line in diffs:
        print(line)
    print("%d compared, %d differ" % (n, len(diffs)))
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
