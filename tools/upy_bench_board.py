"""Board-core benchmark body, run under MicroPython (Unix or WebAssembly port) and CPython.

Plays seeded games on a Board (electronic dice, a seeded choice among the completable
sub-moves) with physical timing on a virtual clock: scan every Config.scan_ms, a lift
held for a 300 ms hover, a placement, goals resolved piece first.  For every lift and
every placement it records
    virtual ms  from the scan that first sees the raw change to the tick that commits
                it (the lift's targets are in the scene / the placement is accepted)
    cpu us      the wall time of that committing tick (debounce, controller, scene and
                the power-limited scene for the LED driver)
and for every other tick its cpu time; with gc.mem_alloc the heap bytes each tick
allocates (garbage collector disabled around the tick).

Prints lines  <measure> <n> <median> <p99> <max>  and  heap <idle_max> <event_max>.
Usage: micropython tools/upy_bench_board.py [GAMES [REPEATS [time|heap]]]
"""
import gc
import sys

from samsara.core import Board
from samsara.config import Config
from samsara.rules import moves as rules
from samsara.rng import Lcg
from samsara.rules.geometry import GS, A_TRACK, B_TRACK
from samsara.rules.moves import M_A, M_B
from samsara.states import WAITING, MOVING, TURN_COMPLETE

try:
    from time import ticks_us, ticks_diff
except ImportError:
    import time

    def ticks_us():
        return int(time.perf_counter() * 1000000)

    def ticks_diff(a, b):
        return a - b

# "time" mode (default) measures cpu time only: counting the heap around every tick
# (gc.disable, gc.mem_alloc) slows the ticks themselves.  "heap" mode measures the heap.
MODE = sys.argv[3] if len(sys.argv) > 3 else "time"
HAVE_MEM = MODE == "heap" and hasattr(gc, "mem_alloc")


class Bench:
    def __init__(self, seed):
        self.cfg = Config(seed=seed)
        self.board = Board(self.cfg)
        self.board.new_game()
        self.raw = bytearray(self.board.debounce.settled)
        self.t = 0
        self.pick = Lcg(seed * 7 + 1)
        self.idle_hist = [0] * 1001   # idle tick cpu us histogram (1000: >= 1000)
        self.lift_ms = []
        self.lift_us = []
        self.place_ms = []
        self.place_us = []
        self.heap_idle = 0
        self.heap_event = 0
        self.events = 0

    def tick(self):
        b = self.board
        self.t += self.cfg.scan_ms
        if HAVE_MEM:
            gc.disable()
            m0 = gc.mem_alloc()
        t0 = ticks_us()
        n = b.debounce.busy
        v = b.scene_version
        b.tick(self.t, self.raw)
        b.limited_scene()
        t1 = ticks_us()
        changed = b.scene_version != v or b.debounce.busy != n or len(b.events)
        if HAVE_MEM:
            grown = gc.mem_alloc() - m0
            gc.enable()
            if changed:
                if grown > self.heap_event:
                    self.heap_event = grown
            elif grown > self.heap_idle:
                self.heap_idle = grown
        while b.poll_event() is not None:
            self.events += 1
        return ticks_diff(t1, t0), changed

    def wait(self, ms):
        end = self.t + ms
        while self.t + self.cfg.scan_ms <= end:
            us, changed = self.tick()
            if not changed:
                self.idle_hist[us if 0 <= us < 1000 else 1000] += 1

    def set(self, p, on):
        if on:
            self.raw[p >> 3] |= 1 << (p & 7)
        else:
            self.raw[p >> 3] &= ~(1 << (p & 7)) & 0xFF

    def until_commit(self, p, on, out_ms, out_us):
        # change p's raw bit, tick until the debounce commits it
        self.set(p, on)
        deb = self.board.debounce
        first = -1
        while True:
            before = (deb.settled[p >> 3] >> (p & 7)) & 1
            # a tidy heap, as on the board where main.py collects between events
            # (gc.threshold), not in the middle of a latency-critical tick
            gc.collect()
            us, changed = self.tick()
            if first < 0:
                first = self.t
            if ((deb.settled[p >> 3] >> (p & 7)) & 1) != before:
                out_ms.append(self.t - first)
                out_us.append(us)
                return

    def move(self, frm, to):
        self.until_commit(frm, False, self.lift_ms, self.lift_us)
        self.wait(300)
        self.until_commit(to, True, self.place_ms, self.place_us)
        self.wait(100)

    def play(self, max_turns):
        b = self.board
        c = b.controller
        turns = 0
        while turns < max_turns:
            b.press(self.t, "roll")
            while b.poll_event() is not None:
                pass
            if c.state != MOVING:
                return turns
            while c.state == MOVING and c.turn.rem:
                moves = rules.completable_sub_moves(c.turn.r, c.turn.s, c.turn.a, c.turn.b, c.turn.mover,
                                                    tuple(c.turn.rem), -1, c.turn.og)
                m = moves[self.pick.next24() % len(moves)]
                pa = c.turn.a
                pb = c.turn.b
                self.move(m[1], m[2])
                if m[3] >= 0:
                    if m[2] == GS:
                        old = A_TRACK + pa
                        new = A_TRACK + m[M_A]
                    else:
                        old = B_TRACK + pb
                        new = B_TRACK + m[M_B]
                    if old != new:
                        self.move(old, new)
                    self.move(m[2], m[3])
            self.wait(200)
            gc.collect()
            turns += 1
            if c.state not in (TURN_COMPLETE, WAITING):
                return turns
        return turns


def stats(name, xs):
    xs = sorted(xs)
    n = len(xs)
    if not n:
        print("%s 0 0 0 0" % name)
        return
    print("%s %d %d %d %d" % (name, n, xs[n // 2], xs[min(n - 1, (n * 99) // 100)], xs[-1]))


def hist_stats(name, hist):
    n = sum(hist)
    marks = [n // 2, min(n - 1, (n * 99) // 100), n - 1]
    out = []
    acc = 0
    i = 0
    for us in range(len(hist)):
        acc += hist[us]
        while i < 3 and acc > marks[i]:
            out.append(us)
            i += 1
    while len(out) < 3:
        out.append(0)
    print("%s %d %d %d %d" % (name, n, out[0], out[1], out[2]))


def elementwise_min(runs):
    out = list(runs[0])
    for r in runs[1:]:
        for i in range(min(len(out), len(r))):
            if r[i] < out[i]:
                out[i] = r[i]
    return out


def main():
    # The games are seeded, so every run replays the same events in the same order:
    # the per-event minimum over the runs removes the noise of a busy host.
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    keys = ("lift_ms", "lift_us", "place_ms", "place_us")
    runs = dict((k, []) for k in keys)
    hist = [0] * 1001
    heap_idle = 0
    heap_event = 0
    turns = 0
    for rep in range(reps):
        per = dict((k, []) for k in keys)
        turns = 0
        for g in range(games):
            bench = Bench(g + 1)
            turns += bench.play(40)
            for k in keys:
                per[k].extend(getattr(bench, k))
            if rep == reps - 1:
                for i in range(1001):
                    hist[i] += bench.idle_hist[i]
            heap_idle = max(heap_idle, bench.heap_idle)
            heap_event = max(heap_event, bench.heap_event)
            bench = None
            gc.collect()
        for k in keys:
            runs[k].append(per[k])
    print("turns %d" % turns)
    for k in keys:
        stats(k, elementwise_min(runs[k]))
    hist_stats("idle_us", hist)
    if HAVE_MEM:
        print("heap %d %d" % (heap_idle, heap_event))
    else:
        print("heap -1 -1")


main()
