"""Rules-engine benchmark (issue 2 §7): Moksha decision, completable targets of one
lifted marble, all complete turns, over 1,000 (position, roll) pairs from seeded
self-play; under CPython, the `micropython` Unix port and (for heap) the 32-bit
WebAssembly port.  Prints a table and the Pico estimates (docs/performance.md).
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile

from samsara.rules import moves as rules
from samsara.rules.position import START, Position

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)
N = 1000
PICO_FACTOR_INT = 300   # toolchain.md: Pico vs Unix port, integer and bit loops
PICO_FACTOR_ALLOC = 140  # toolchain.md: code that builds tuples and sets


def make_corpus(n=N, seed=2024):
    """n tuples (r, s, a, b, mover, d1, d2, origin) from seeded self-play: positions
    along random games, a random roll, and a random occupied field as the lifted marble."""
    rng = random.Random(seed)
    out = []
    p = START
    while len(out) < n:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        occ = [i for i in range(48) if p.occupied(i)]
        out.append((p.r, p.s, p.a, p.b, p.mover, d1, d2, rng.choice(occ)))
        turns = rules.complete_turns(p.r, p.s, p.a, p.b, p.mover, d1, d2)
        if not turns:
            p = START
            continue
        _m, k = turns[rng.randrange(len(turns))]
        p = Position(k[0], k[1], k[2], k[3], 1 - p.mover)
        if p.a == 6 or p.b == 6:
            p = START
    return out


def write_corpus(folder, corpus):
    with open(os.path.join(folder, "bench_corpus.py"), "w") as f:
        f.write("CORPUS = [\n")
        for c in corpus:
            f.write("    (%s),\n" % ", ".join(str(x) for x in c))
        f.write("]\n")


def run_vm(cmd, env=None):
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    if r.returncode != 0:
        return None, (r.stderr or r.stdout).strip()[-400:]
    res = {}
    for line in r.stdout.splitlines():
        parts = line.split()
        if len(parts) == 5 and parts[0] in ("moksha", "targets", "turns"):
            res[parts[0]] = tuple(int(x) for x in parts[1:])
    return res, None


def main():
    corpus = make_corpus()
    tmp = tempfile.mkdtemp(prefix="samsara-bench-")
    try:
        write_corpus(tmp, corpus)
        shutil.copy(os.path.join(ROOT, "tools", "upy_bench_rules.py"), tmp)
        body = os.path.join(tmp, "upy_bench_rules.py")
        firmware = os.path.join(ROOT, "firmware")
        results = {}
        env = dict(os.environ, PYTHONPATH=tmp + os.pathsep + firmware)
        results["CPython"], err = run_vm([sys.executable, body], env)
        upy = os.path.join(BIN, "micropython")
        env = dict(os.environ, MICROPYPATH=tmp + ":" + firmware)
        results["micropython (Unix, 64-bit)"], err2 = run_vm([upy, "-X", "heapsize=4M", body], env)
        wasm = os.path.join(ROOT, "tools", "upy32", "run.mjs")
        if os.path.exists(wasm) and shutil.which("node"):
            results["micropython (WebAssembly, 32-bit)"], err3 = run_vm(
                ["node", wasm, "--path", firmware, "--path", tmp, body, "300"])
        else:
            err3 = "WebAssembly port not installed (make test-wasm installs it)"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("Corpus: %d (position, roll, lifted marble) tuples from seeded self-play" % len(corpus))
    print("%-34s %-8s %10s %10s %10s %12s" % ("VM", "measure", "median us", "p99 us", "max us",
                                             "max heap B"))
    for vm, res in results.items():
        if not res:
            print("%-34s (failed: %s)" % (vm, err or err2 or err3))
            continue
        for name in ("moksha", "targets", "turns"):
            med, p99, mx, heap = res[name]
            if "WebAssembly" in vm:
                # its ticks_us counts whole milliseconds: only the heap figure is kept
                print("%-34s %-8s %10s %10s %10s %12d" % (vm, name, "-", "-", "-", heap))
                continue
            print("%-34s %-8s %10d %10d %10d %12s" % (vm, name, med, p99, mx,
                                                      heap if heap >= 0 else "-"))
    if err3 and "micropython (WebAssembly, 32-bit)" not in results:
        print("32-bit heap: %s" % err3)
    unix = results.get("micropython (Unix, 64-bit)")
    if unix:
        print("\nPico estimates (Unix-port time x %d for bit loops, x %d for tuple-building code):"
              % (PICO_FACTOR_INT, PICO_FACTOR_ALLOC))
        for name, target in (("moksha", 50), ("targets", 10), ("turns", None)):
            med, p99, _mx, _h = unix[name]
            lo = p99 * PICO_FACTOR_ALLOC / 1000.0
            hi = p99 * PICO_FACTOR_INT / 1000.0
            verdict = "" if target is None else ("  target p99 %d ms: %s" % (
                target, "met" if hi <= target else ("met at x140 only" if lo <= target else "MISSED")))
            print("  %-8s p99 %.1f-%.1f ms (median %.1f-%.1f ms)%s" % (
                name, lo, hi, med * PICO_FACTOR_ALLOC / 1000.0, med * PICO_FACTOR_INT / 1000.0, verdict))
    return 0


if __name__ == "__main__":
    main()
