"""Firmware measurements on a MicroPython VM, for tools/bench_firmware.py.

    micropython tests/fakes/fwprobe.py heap [SEED] [nolink]   (MICROPYPATH=firmware:tests/fakes)
    micropython tests/fakes/fwprobe.py time [SEED] [link]
    node tools/upy32/run.mjs --path firmware --path tests/fakes tests/fakes/fwprobe.py heap

heap: the live heap of the firmware while a complete simulated game runs (main.py with
      the game log and USB link seams live, the log in the VM's file system).  The fake
      hardware, the scripted players and this probe are imported and built first; what
      is allocated beyond that after gc.collect() is the firmware's (its modules' code
      and data, the board core, the drivers' buffers, the log).  Sampled after every
      board event.  Prints `heap <name> <bytes>` lines.
time: wall time of main.Loop.once() per iteration, in us, over a complete game, split
      into idle iterations and iterations with a board event or a scene change; and
      the pieces of an idle iteration.  The bit-level 74HC165 model is far slower than
      the RP2040's SPI block, so here the scanner reads through FastSPI (the chain's
      bytes straight from the marbles, cached) on an unconnected load pin: the driver's
      own Python work stays in the figure.  "link": with main.py's game log and USB
      link seams live (as on the Pico).  Prints `time <name> <value>` lines.

Only builtins, gc, time and micropython: runs on the Unix port and the WebAssembly port.
"""

import gc
import sys

import bench      # noqa: F401  (fakes first: their heap is the baseline)
import chips      # noqa: F401
import rig        # noqa: F401
import player     # noqa: F401

gc.collect()
BASE = gc.mem_alloc()

import main       # noqa: E402  (the firmware: main.py, board/, samsara/, board_config)
import simgame    # noqa: E402

try:
    from time import ticks_us, ticks_diff
except ImportError:  # CPython
    import time as _t

    def ticks_us():
        return int(_t.perf_counter() * 1000000)

    def ticks_diff(a, b):
        return a - b


def _heap(seed, link=True):
    peak = [0, ""]

    def sample(name):
        gc.collect()
        live = gc.mem_alloc() - BASE
        if live > peak[0]:
            peak[0] = live
            peak[1] = name
        return live

    print("heap imports %d" % sample("imports"))
    res = simgame.boot(seed=seed, link=link, keep_events=False)
    strip = res.rig.strip
    strip.keep = False            # the fake strip's recording is not firmware heap
    del strip.frames[:-1]
    print("heap after_boot %d" % sample("boot"))
    saved = main.handle_event

    def on_event(ev, now):
        saved(ev, now)
        sample(ev.get("ev", "?"))

    main.handle_event = on_event
    try:
        res.players = player.ScriptedPlayers(res.board, res.rig.world, res.rig.clock,
                                             res.cfg.PIN_BTN_ROLL, seed)
        res.loop.run(simgame.MAX_TICKS,
                     lambda b: b.controller.state in ("game_over", "moksha"))
    finally:
        main.handle_event = saved
        res.restore()
    print("heap peak_live %d" % peak[0])
    print("heap peak_at %s" % peak[1])
    print("heap turns %d" % res.players.turns)


def _percentile(hist, total, q, width=1):
    want = total * q // 100
    n = 0
    for k in range(len(hist)):
        n += hist[k]
        if n >= want and n:
            return k * width
    return (len(hist) - 1) * width


class FastSPI:
    """Stands in for the SPI block: readinto() gives the chain's bytes as the 74HC165
    chain would shift them out, computed from the marbles only when they moved."""

    def __init__(self, r):
        self.r = r
        self.n = r.cfg.SR_CHIPS
        self.cache = bytearray(self.n)
        self.version = -1

    def readinto(self, buf, write=0):
        w = self.r.world
        if w.version != self.version:
            self.version = w.version
            for c in range(self.n):
                self.cache[c] = self.r._inputs(c)
        cache = self.cache
        for c in range(self.n):
            buf[c] = cache[c]


def _time(seed, link=False):
    from array import array
    import machine
    res = simgame.boot(seed=seed, keep_events=False, link=link)
    res.hw.scanner._spi = FastSPI(res.rig)
    res.hw.scanner._load = machine.Pin(2, machine.Pin.OUT, value=1)  # nothing listens
    loop = res.loop
    clock = res.rig.clock
    frame = bytearray(8)
    scan = res.hw.scanner.scan
    # the scanner (driver + FastSPI) alone: idle scans
    n = 300
    t0 = ticks_us()
    for _ in range(n):
        scan(frame)
    scan_us = ticks_diff(ticks_us(), t0) / n
    # pieces of an idle iteration
    board = res.board
    buttons = res.hw.buttons
    t0 = ticks_us()
    for _ in range(n):
        clock.now += 2
        board.tick(clock.now, frame)
    tick_us = ticks_diff(ticks_us(), t0) / n
    t0 = ticks_us()
    for _ in range(n):
        buttons.poll(clock.now)
    poll_us = ticks_diff(ticks_us(), t0) / n
    loop.once(clock.ticks_ms())
    best = 1 << 30
    for _ in range(5):            # tight idle iterations; the best of 5 runs of 200
        t0 = ticks_us()
        for _ in range(200):
            clock.now += 2
            loop.once(clock.now)
        dt = ticks_diff(ticks_us(), t0)
        if dt < best:
            best = dt
    once_idle_us = best / 200
    scene = board.limited_scene()
    t0 = ticks_us()
    for _ in range(50):
        res.hw.leds.show(scene)
    show_us = ticks_diff(ticks_us(), t0) / 50
    # a whole game, every iteration timed
    idle = array("H", [0] * 1000)     # histogram, 1 us bins
    busy = array("H", [0] * 5000)     # histogram, 10 us bins
    counts = [0, 0, 0]
    worst = [0, ""]
    shown = [board.scene_version]
    base = loop.once

    def timed(now):
        t = ticks_us()
        got = base(now)
        dt = ticks_diff(ticks_us(), t)
        st = board.controller.state
        if got or board.scene_version != shown[0]:
            shown[0] = board.scene_version
            k = dt // 10
            busy[k if k < 4999 else 4999] += 1
            counts[1] += 1
            if dt > worst[0]:
                worst[0] = dt
                worst[1] = st
        else:
            idle[dt if dt < 999 else 999] += 1
            counts[0] += 1
        return got

    loop.once = timed
    res.players = player.ScriptedPlayers(board, res.rig.world, clock, res.cfg.PIN_BTN_ROLL, seed)
    try:
        loop.run(simgame.MAX_TICKS, lambda b: b.controller.state in ("game_over", "moksha"))
    finally:
        res.restore()
    print("time scan_us %.1f" % scan_us)
    print("time board_tick_idle_us %.1f" % tick_us)
    print("time buttons_poll_us %.1f" % poll_us)
    print("time led_show_us %.1f" % show_us)
    print("time once_idle_us %.1f" % once_idle_us)
    print("time idle_iterations %d" % counts[0])
    print("time idle_median_us %d" % _percentile(idle, counts[0], 50))
    print("time idle_p90_us %d" % _percentile(idle, counts[0], 90))
    print("time idle_p99_us %d" % _percentile(idle, counts[0], 99))
    print("time busy_iterations %d" % counts[1])
    print("time busy_median_us %d" % _percentile(busy, counts[1], 50, 10))
    print("time busy_p90_us %d" % _percentile(busy, counts[1], 90, 10))
    print("time busy_p99_us %d" % _percentile(busy, counts[1], 99, 10))
    print("time busy_max_us %d" % worst[0])
    print("time busy_max_state %s" % worst[1])
    print("time scan_ms %d" % board.config.scan_ms)


def _main(argv):
    what = argv[1] if len(argv) > 1 else "heap"
    seed = int(argv[2]) if len(argv) > 2 else 1
    if what == "heap":
        _heap(seed, "nolink" not in argv[3:])
    else:
        _time(seed, "link" in argv[3:])
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv))
