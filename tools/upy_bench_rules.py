"""Rules benchmark body, run under MicroPython (Unix or WebAssembly port) and CPython.

Imports the corpus module `bench_corpus` (CORPUS: tuples r, s, a, b, mover, d1, d2,
origin) and prints one line per measure:
    <name> <median_us> <p99_us> <max_us> <max_heap_bytes>
Times come from time.ticks_us (MicroPython) or perf_counter (CPython).  Heap is the
bytes allocated by one call with the garbage collector disabled (gc.mem_alloc before
and after), the peak growth the call can cause; -1 on CPython.
"""
import gc
import sys

from samsara.rules import moves as rules
from bench_corpus import CORPUS

try:
    from time import ticks_us, ticks_diff
except ImportError:
    import time

    def ticks_us():
        return int(time.perf_counter() * 1000000)

    def ticks_diff(a, b):
        return a - b

HAVE_MEM = hasattr(gc, "mem_alloc")


def moksha(c):
    return rules.has_complete_turn(c[0], c[1], c[2], c[3], c[4], c[5], c[6])


def targets(c):
    return rules.completable_sub_moves(c[0], c[1], c[2], c[3], c[4], (c[5], c[6]), c[7])


def turns(c):
    return rules.complete_turns(c[0], c[1], c[2], c[3], c[4], c[5], c[6])


def measure(name, fn, corpus):
    times = []
    heap = 0
    for c in corpus:
        gc.collect()
        if HAVE_MEM:
            gc.disable()
            m0 = gc.mem_alloc()
        t0 = ticks_us()
        fn(c)
        t1 = ticks_us()
        if HAVE_MEM:
            grown = gc.mem_alloc() - m0
            gc.enable()
            if grown > heap:
                heap = grown
        times.append(ticks_diff(t1, t0))
    times.sort()
    n = len(times)
    print("%s %d %d %d %d" % (name, times[n // 2], times[min(n - 1, (n * 99) // 100)],
                              times[-1], heap if HAVE_MEM else -1))


def main():
    n = len(CORPUS)
    if len(sys.argv) > 1:
        n = min(n, int(sys.argv[1]))
    corpus = CORPUS[:n]
    measure("moksha", moksha, corpus)
    measure("targets", targets, corpus)
    measure("turns", turns, corpus)


main()
