"""Device benchmark body: runs ON the board (a Pico or the emulated Pico) at its REPL.

Not part of the firmware bundle.  The host (`samsara bench --port PORT`,
host/samsara_host/bench_cmd.py) stops main.py's loop with Ctrl-C (mpremote's raw REPL,
no soft reset), prepends the parameters below and runs this text there:
    CORPUS = [(r, s, a, b, mover, d1, d2, origin), ...]  rules cases (tools/bench_rules.py)
    IDLE_S = 60      seconds of idle loop for the collection count (device time)
    CYCLES = 10      lift/placement cycles per measuring pass (2 lifts, 2 placements each)
It prints one line per figure, `BENCH <name> <int> ...` (microseconds unless the name
says otherwise), and finally `BENCH done 0`.

How it drives the board: the board is built again with mainloop's own boot() (no
watchdog, no LED sweep) and a game log of its own ("benchlog", removed at the end, so a
real board's logs are untouched).  Idle iterations scan the real sensors.  Lifts and
placements are fed to the board core: a small fake scanner (Feed) gives Loop.once() and
Board.tick() a frame in which R1 is lifted, S15 filled, ... (start position, A to move,
dice 2 2: 2:R1-S15 2:R5-R7), so the same cycle runs on a real board with nobody at it.
The real scan is timed on its own (scan_us) and is part of every parts figure.

The pieces timed are the few names in PIECES / parts() below (mainloop.Loop.once
and its Services): when the loop changes, re-point them there; everything else only paces and counts.
Collections are counted without a counter in the VM: 256 bytes of garbage are left on
the heap; a jump of gc.mem_free() by more than 128 bytes means a collection freed it
(then new garbage is left).  This also catches the call frames MicroPython puts on the
heap and frees on return (they bring collections closer but keep nothing).
gc.mem_free() walks the whole heap (milliseconds on the Pico), so it is read only after
an iteration longer than SUSPECT_US (a collection takes 12-18 ms with the firmware
loaded) and every 100th iteration (for the lowest free heap); two collections within
100 short iterations would count as one.
"""
import gc
import time
from array import array

from samsara.rules import moves as rules
from samsara.frame import from_position, position_index, put

ticks_us = time.ticks_us
ticks_ms = time.ticks_ms
ticks_diff = time.ticks_diff

try:
    CORPUS
except NameError:
    CORPUS = []
try:
    IDLE_S
except NameError:
    IDLE_S = 60
try:
    CYCLES
except NameError:
    CYCLES = 10

# The firmware's loop is mainloop's, its boot mainboot's (main.py is the thin entry);
# LOG_DIR is read by mainboot.open_services at boot.
import mainboot as _BOOT


BENCH_LOG = "benchlog"
SUSPECT_US = 8000  # an iteration this long may hold a collection (one takes 12-18 ms)


def _rmtree(d):
    import os
    try:
        names = os.listdir(d)
    except OSError:
        return
    for n in names:
        p = d + "/" + n
        try:
            os.remove(p)
        except OSError:
            _rmtree(p)
    try:
        os.rmdir(d)
    except OSError:
        pass


def out(name, *vals):
    print("BENCH", name, " ".join(str(v) for v in vals))


def stats(name, xs):
    """median, p99 and max of a list of ints."""
    xs.sort()
    n = len(xs)
    if not n:
        out(name, -1, -1, -1, 0)
        return
    out(name, xs[n // 2], xs[min(n - 1, (n * 99) // 100)], xs[-1], n)


# ------------------------------------------------------------------ the board

_BOOT.LOG_DIR = BENCH_LOG
_rmtree(BENCH_LOG)
loop = _BOOT.boot(watchdog_ms=0, selftest=False)
board = loop.board
hw = loop.hw
clock = loop.clock
real_scan = loop._scan
period = loop.period


class Feed:
    """A scanner that copies a frame the benchmark sets (lifts and placements)."""

    def __init__(self):
        self.f = bytearray(8)

    def scan(self, buf):
        f = self.f
        for i in range(8):
            buf[i] = f[i]


feed = Feed()
scratch = bytearray(8)

# ------------------------------------------------------------------ the pieces
# PIECES: what one iteration does, called directly (mirrors mainloop.Loop.once).


def parts(now, frame, t):
    """One iteration in pieces; t (array of 5 ints) gets the us of: scan, board.tick
    (debounce + controller), buttons, LED write, events + USB (sinks)."""
    t0 = ticks_us()
    real_scan(scratch)                       # the real sensors (their cost)
    t1 = ticks_us()
    board.tick(now, frame)                   # fed frame: debounce + controller + redraw
    t2 = ticks_us()
    b = hw.buttons.poll(now)
    if b is not None:
        board.press(now, b[0], b[1])
    t3 = ticks_us()
    if board.scene_version != loop.shown:
        loop.shown = board.scene_version
        hw.leds.show(board.limited_scene())
    t4 = ticks_us()
    got = 1 if loop.serve(now) else 0
    hw.watchdog.feed()
    t5 = ticks_us()
    t[0] = ticks_diff(t1, t0)
    t[1] = ticks_diff(t2, t1)
    t[2] = ticks_diff(t3, t2)
    t[3] = ticks_diff(t4, t3)
    t[4] = ticks_diff(t5, t4)
    return got


def whole(now):
    """One iteration as the firmware runs it: Loop.once(now)."""
    return loop.once(now)


# ------------------------------------------------------------------ rules


def bench_rules():
    for mode in ("clean", "natural"):
        mok = []
        tgt = []
        for c in CORPUS:
            if mode == "clean":
                gc.collect()
            t0 = ticks_us()
            rules.has_complete_turn(c[0], c[1], c[2], c[3], c[4], c[5], c[6])
            t1 = ticks_us()
            if mode == "clean":
                gc.collect()
            t2 = ticks_us()
            rules.completable_sub_moves(c[0], c[1], c[2], c[3], c[4], (c[5], c[6]), c[7])
            t3 = ticks_us()
            mok.append(ticks_diff(t1, t0))
            tgt.append(ticks_diff(t3, t2))
        stats("moksha_" + mode, mok)
        stats("targets_" + mode, tgt)


# ------------------------------------------------------------------ idle


def bench_idle(seconds):
    """Idle iterations on the loop's period for `seconds` of device time: Loop.once
    times (50 us buckets), collections, the lowest free heap."""
    hist = array("H", bytes(2 * 1000))
    worst = 0
    n = 0
    collections = 0
    gc.collect()
    low = gc.mem_free()
    garbage = bytearray(256)
    garbage = None
    last = gc.mem_free()
    start = ticks_ms()
    due = start
    while ticks_diff(ticks_ms(), start) < seconds * 1000:
        now = ticks_ms()
        t0 = ticks_us()
        whole(now)
        d = ticks_diff(ticks_us(), t0)
        n += 1
        if d > worst:
            worst = d
        k = d // 50
        hist[k if k < 999 else 999] += 1
        if d > SUSPECT_US or n % 100 == 0:
            free = gc.mem_free()
            if free > last + 128:
                collections += 1
                garbage = bytearray(256)
                garbage = None
                free = gc.mem_free()
            if free < low:
                low = free
            last = free
        due += period
        wait = ticks_diff(due, ticks_ms())
        if wait > 0:
            time.sleep_ms(wait)
        elif wait < -period:
            due = ticks_ms()
    med = p99 = -1
    acc = 0
    for k in range(1000):
        acc += hist[k]
        if med < 0 and 2 * acc >= n:
            med = k * 50 + 25
        if acc * 100 >= n * 99:
            p99 = k * 50 + 25
            break
    out("idle_once", med, p99, worst, n)
    out("collections_per_min", (collections * 60000) // (seconds * 1000), collections, seconds)
    out("idle_free_min_bytes", low)


def bench_idle_parts(count):
    t = array("i", [0, 0, 0, 0, 0])
    cols = ([], [], [], [], [])
    due = ticks_ms()
    for _ in range(count):
        now = ticks_ms()
        real_scan(feed.f)  # the frame the board sees is the real one at idle
        parts(now, feed.f, t)
        for i in range(5):
            cols[i].append(t[i])
        due += period
        wait = ticks_diff(due, ticks_ms())
        if wait > 0:
            time.sleep_ms(wait)
    for i, name in enumerate(("scan", "tick", "buttons", "leds", "sinks")):
        stats("idle_" + name, cols[i])


# ------------------------------------------------------------------ lift / place

MOVES = (("R1", "S15"), ("R5", "R7"))   # start position, A to move, dice 2 2


def new_game(now):
    board.new_game(now_ms=now)
    pos = board.controller.game.pos
    f = from_position(pos)
    for i in range(8):
        feed.f[i] = f[i]
    board.set_dice(2, 2)
    board.press(now, "roll")


def step_until_event(now, fn, limit=100):
    """Iterate on the period until an iteration emits an event; returns (us, now)."""
    for _ in range(limit):
        now += period
        t0 = ticks_us()
        got = fn(now)
        d = ticks_diff(ticks_us(), t0)
        if got:
            return d, now
    raise RuntimeError("no event after %d iterations" % limit)


def bench_moves(cycles):
    lifts = []
    places = []
    low = gc.mem_free()
    now = ticks_ms()
    # pass 1: Loop.once as a whole, fed through the Feed scanner
    loop._scan = feed.scan
    try:
        for _ in range(cycles):
            new_game(now)
            for _k in range(3):
                now += period
                whole(now)
            for a, b in MOVES:
                put(feed.f, position_index(a), 0)
                d, now = step_until_event(now, whole)
                lifts.append(d)
                put(feed.f, position_index(b), 1)
                d, now = step_until_event(now, whole)
                places.append(d)
                m = gc.mem_free()
                if m < low:
                    low = m
            for _k in range(40):      # the turn completes once settled
                now += period
                whole(now)
    finally:
        loop._scan = real_scan
    stats("lift_once", lifts)
    stats("place_once", places)
    # pass 2: the same in pieces
    t = array("i", [0, 0, 0, 0, 0])
    cols = {"lift": ([], [], [], [], []), "place": ([], [], [], [], [])}

    def piece(now):
        return parts(now, feed.f, t)

    for _ in range(cycles):
        new_game(now)
        for _k in range(3):
            now += period
            piece(now)
        for a, b in MOVES:
            for kind, name, on in (("lift", a, 0), ("place", b, 1)):
                put(feed.f, position_index(name), on)
                _d, now = step_until_event(now, piece)
                c = cols[kind]
                for i in range(5):
                    c[i].append(t[i])
        for _k in range(40):
            now += period
            piece(now)
    for kind in ("lift", "place"):
        for i, name in enumerate(("scan", "tick", "buttons", "leds", "sinks")):
            stats(kind + "_" + name, cols[kind][i])
    out("moves_free_min_bytes", low)


def bench_flight(count):
    """The flight recorder (issue 13): heap of a ring + health counters and of the
    modules' code (boardcore.flight and its viper write path boardcore.flight_viper, or the
    bytecode one where the VM has no viper), the us of recording one raw change
    (Flight.changes, the health count included), and the idle iteration with and
    without the recorder's hook."""
    import sys
    fl = loop.flight
    if fl is None:
        out("flight_change", -1, -1, -1, 0)
        return
    from boardcore.flight import Flight
    gc.collect()
    f0 = gc.mem_free()
    x = Flight(board)
    gc.collect()
    out("flight_object_heap_bytes", f0 - gc.mem_free())
    x = None
    names = [n for n in ("boardcore.flight_viper", "boardcore.flight_py", "boardcore.flight")
             if n in sys.modules]
    mods = [sys.modules.pop(n) for n in names]
    for name in names:
        gc.collect()
        f0 = gc.mem_free()
        __import__(name)
        gc.collect()
        out("flight_code_heap_bytes_" + name.split(".")[1], f0 - gc.mem_free())
    for name, m in zip(names, mods):
        sys.modules[name] = m
    raw = bytearray(board.debounce.raw)
    deb_raw = board.debounce.raw
    now = ticks_ms()
    xs = []
    for _ in range(count):
        raw[5] ^= 0x01                      # one far position toggles (R/S on byte 5)
        t0 = ticks_us()
        fl.changes(now, raw)
        xs.append(ticks_diff(ticks_us(), t0))
        deb_raw[5] = raw[5]                 # as the tick would take it
        now += 4
    stats("flight_change", xs)
    raw[5] ^= 0x81                          # two bits of one byte
    t0 = ticks_us()
    fl.changes(now, raw)
    out("flight_change_two_bits", ticks_diff(ticks_us(), t0))
    deb_raw[5] = raw[5]
    for label, f in (("idle_with_flight", fl), ("idle_without_flight", None)):
        loop.flight = f
        xs = []
        for _ in range(count):
            now = ticks_ms()
            t0 = ticks_us()
            loop.once(now)
            xs.append(ticks_diff(ticks_us(), t0))
            time.sleep_ms(period)
        stats(label, xs)
    loop.flight = fl


def main():
    gc.collect()
    out("free_at_start_bytes", gc.mem_free())
    bench_flight(200)
    bench_rules()
    gc.collect()
    bench_idle_parts(400)
    gc.collect()
    bench_idle(IDLE_S)
    # last: lifts and placements run on a virtual clock ahead of ticks_ms()
    bench_moves(CYCLES)
    t0 = ticks_us()
    gc.collect()
    out("gc_collect", ticks_diff(ticks_us(), t0))
    out("free_after_collect_bytes", gc.mem_free())


try:
    main()
finally:
    if loop.recorder is not None:
        loop.recorder.close()
    _BOOT.LOG_DIR = "logs"
    _rmtree(BENCH_LOG)
    out("done", 0)
