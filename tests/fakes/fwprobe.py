"""Firmware measurements on a MicroPython VM, for tools/bench_firmware.py.

    micropython tests/fakes/fwprobe.py game [SEED] [nolink] [stored=N]
    micropython tests/fakes/fwprobe.py modules NAME...
    micropython tests/fakes/fwprobe.py time [SEED] [link]
        (MICROPYPATH=<bundle or firmware>:tests/fakes)
    node tools/upy32/heapstep.mjs --path build/firmware --path tests/fakes fwprobe game 1

game, modules: heap (see Probe).  Prints `heap stage <label> <bytes> <firmware modules
      loaded since the last stage>` lines, each followed by micropython.qstr_info()'s
      line (interned strings), and `heap <name> <value>` summary lines.
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

try:
    from time import ticks_us, ticks_diff
except ImportError:  # CPython
    import time as _t

    def ticks_us():
        return int(_t.perf_counter() * 1000000)

    def ticks_diff(a, b):
        return a - b

_FW_ROOTS = ("samsara", "board", "main", "mainloop", "mainboot", "board_config")
LATE_IMPORTS = ("board.sr165", "board_config", "samsara.config", "samsara.core")
"""Firmware modules main.boot() imports on the digital build (board.hw.build_scanner)
and those mainboot imports that stay loaded after it is dropped (the board core)."""
LINK_IMPORTS = ("boardcore.link.hostlink", "samsara.recorder", "boardcore.storage.gamelog",
                "boardcore.storage.logwrite", "boardcore.storage.osfs")
"""... and those the game recorder and host link add (main.open_services)."""


def _qstr_info():
    try:
        import micropython
        micropython.qstr_info()   # "qstr pool: n_pool=.., n_qstr=.., ..." on stdout
    except (ImportError, AttributeError):
        print("qstr pool: n_pool=0, n_qstr=0, n_str_data_bytes=0, n_total_bytes=0")
MAX_TICKS = 400000


def _fw_modules():
    out = []
    for name in sys.modules:
        if name.split(".")[0] in _FW_ROOTS:
            out.append(name)
    return out


class NullStream:
    """The USB port of the link, discarding its output (the probe's stdout stays
    readable) and never receiving input: the same buffers and code paths as the real
    StdioStream, minus its two select.poll objects."""

    def read_into(self, buf, start, maxn):
        return 0

    def write(self, buf, start, n):
        return n


class Probe:
    """Stepped heap measurement.  step() does one stage's work and returns the label of
    the measurement to take after it (None: finished); the driver then runs
    gc.collect() and hands gc.mem_alloc() to record().  On the WebAssembly port the
    driver (tools/upy32/heapstep.mjs) calls gc.collect() from a fresh top-level
    runPython() call: from inside a running script its conservative scan still sees
    stale pointers on the WebAssembly stack and frees nothing.

    modes: "modules NAME..." imports one firmware module per step (leaves first, so
    each delta is that module's own bytecode, constants, functions, classes and
    globals); "game SEED [nolink] [stored=N] [LOGDIR]" boots main.py stage by stage on
    the fakes and plays a complete game, one step per board event; stored=N puts N
    finished (pulled) games in the log folder first."""

    def __init__(self, argv):
        self.mode = argv[0] if argv else "game"
        self.args = argv[1:]
        self.stage = 0
        self.known = []
        self.peak = [0, "", 0]
        self.samples = 0
        self.link = "nolink" not in self.args
        self.seed = int(self.args[0]) if self.mode == "game" and self.args else 1
        self.logdir = "build/fwprobe_logs"
        self.stored = 0           # finished games already in the log ("stored=N")
        for a in self.args:
            if "/" in a:
                self.logdir = a
            elif a.startswith("stored="):
                self.stored = int(a[7:])
        self.s = None

    def record(self, label, alloc):
        if label == "game":
            self.samples += 1
            if alloc > self.peak[0]:
                st = self.s.board.controller.state
                self.peak = [alloc, st, self.samples]
            return
        now = _fw_modules()
        new = [m for m in now if m not in self.known]
        self.known = now
        print("heap stage %s %d %s" % (label, alloc, ",".join(sorted(new)) or "-"))
        _qstr_info()
        if label == "end":
            print("heap stage peak %d %s" % (self.peak[0], self.peak[1]))
            print("heap samples %d" % self.samples)
            print("heap turns %d" % self.s.players.turns)

    def step(self):
        self.stage += 1
        if self.mode == "modules":
            if self.stage == 1:
                return "base"
            k = self.stage - 2
            if k >= len(self.args):
                return None
            try:
                __import__(self.args[k])
            except SyntaxError:
                # board.ledcopy_viper on a VM without the viper emitter (the
                # WebAssembly port): board.leds uses its bytecode loop there
                pass
            return "mod:" + self.args[k]
        return self._game_step()

    def _clear_logs(self):
        import os
        for part in ("build", self.logdir):
            try:
                os.mkdir(part)
            except OSError:
                pass
        for name in os.listdir(self.logdir):
            os.remove(self.logdir + "/" + name)
        # Finished games already on the flash (pulled, as after a host's `pull`): the
        # log keeps one entry per game in memory (GameLog.games).
        data = b"x" * 3000
        for gid in range(1, self.stored + 1):
            f = open("%s/g%06d_%04x.pul" % (self.logdir, gid, gid), "wb")
            f.write(data)
            f.close()

    def _game_step(self):
        s = self.s
        st = self.stage
        if st == 1:
            # The fakes first: their modules are the baseline.  (player imports
            # samsara.rules.moves, which brings samsara.rules.geometry and samsara.rules.position.)
            import bench      # noqa: F401
            import chips      # noqa: F401
            import rig        # noqa: F401
            import player     # noqa: F401
            import machine    # noqa: F401
            import neopixel   # noqa: F401
            self.s = Result()
            return "base"
        if st == 2:
            # main.py with everything it imports, and the modules it imports later, at
            # boot, so that the stages below are runtime data only.
            import main  # noqa: F401  (main.py, mainloop, board/, samsara/, board_config)
            for name in LATE_IMPORTS + (LINK_IMPORTS if self.link else ()):
                __import__(name)
            return "imports"
        import mainloop as main
        import board_config as cfg
        mb = sys.modules.get("mainboot")   # from stage 6 to the end of stage 10
        import rig
        import player
        if st == 3:
            from samsara.frame import from_position
            from samsara.rules.position import Position
            s.rig = rig.Rig(cfg, seed=self.seed + 6)
            s.rig.strip.keep = False      # the fake strip's recording is not firmware heap
            s.rig.world.set_frame(from_position(Position()))
            s.clock = s.rig.clock
            return "fake_rig"
        if st == 4:
            # The machine objects board.hw.build makes, as the fakes model them: Python
            # objects here, static C objects (no heap) on the Pico.
            import machine
            Pin = machine.Pin
            s.fk = [machine.SPI(cfg.SR_SPI, baudrate=1000000, polarity=0, phase=0,
                                sck=Pin(cfg.PIN_SR_CLK), mosi=Pin(cfg.PIN_SR_MOSI),
                                miso=Pin(cfg.PIN_SR_DATA)),
                    Pin(cfg.PIN_SR_LOAD, Pin.OUT, value=1), Pin(cfg.PIN_LED_DATA, Pin.OUT),
                    Pin(cfg.PIN_BTN_ROLL, Pin.IN, Pin.PULL_UP),
                    Pin(cfg.PIN_BTN_UNDO, Pin.IN, Pin.PULL_UP)]
            return "fake_machine_objects"
        if st == 5:
            s.fk = None
            return "fake_machine_objects_dropped"
        if st == 6:
            # The boot's own module (frozen into the image on the Pico: its globals).
            import mainboot  # noqa: F401
            return "boot_module"
        if st == 7:
            s.hw = mb.hwmod.build(cfg, "build/fwprobe_hallcal.txt")
            return "drivers"
        if st == 8:
            s.board = mb.Board(mb.make_config(cfg, seed=self.seed))
            return "board_core"
        if st == 9:
            if self.link:
                self._clear_logs()
                mb.LOG_DIR = self.logdir
                from boardcore.link import hostlink
                hostlink.StdioStream = NullStream
            mb.led_sweep(s.hw, s.clock, 0)
            s.both, s.anyon = mb.read_frame(s.hw, s.clock)
            s.now = s.clock.ticks_ms()
            svc = mb.open_services(s.board, s.hw, s.now) if self.link else None
            s.loop = main.Loop(s.board, s.hw, s.clock, svc)
            s.loop.start(s.now)
            s.resumed = mb.resume_from_log(s.loop, s.now, s.both) if self.link else None
            return "link_and_log" if self.link else "no_link"
        if st == 10:
            if s.resumed is None:
                s.board.new_game(now_ms=s.now, frame=s.both)
            mb.sensor_check(s.board, s.both, s.anyon)
            threshold = main.GC_THRESHOLD
            mb = None
            s.both = s.anyon = None
            gc.collect()
            try:
                gc.threshold(threshold)
            except AttributeError:
                pass
            s.loop.start_watchdog(1000)
            return "new_game_and_loop"
        if st == 11:
            s.players = player.ScriptedPlayers(s.board, s.rig.world, s.clock,
                                               cfg.PIN_BTN_ROLL, self.seed)
            s.ticks = 0
            return "fake_players"
        from samsara.states import ENDED   # loaded with main (stage 2)
        if s.ticks < MAX_TICKS and s.board.controller.state not in ENDED:
            stats = s.loop.run(MAX_TICKS, _any)
            s.ticks = stats.ticks
            return "game"
        if st < 1 << 30:
            self.stage = 1 << 30
            return "end"
        return None


class Result:
    pass


def _any(board):
    return True


def run_steps(argv):
    """The Unix-port (and CPython) driver of a Probe: gc.collect() between steps."""
    p = Probe(argv)
    while True:
        label = p.step()
        if label is None:
            return p
        gc.collect()
        p.record(label, gc.mem_alloc())


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
    import player
    import simgame
    from samsara.states import ENDED
    # histograms first, while the heap is in one piece (the list they are built from
    # takes 40 KB on the 64-bit port)
    idle = array("H", [0] * 1000)     # histogram, 1 us bins
    busy = array("H", [0] * 5000)     # histogram, 10 us bins
    gc.collect()
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
        loop.run(simgame.MAX_TICKS, lambda b: b.controller.state in ENDED)
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
    what = argv[1] if len(argv) > 1 else "game"
    if what in ("game", "modules"):
        run_steps(argv[1:])
    else:
        seed = int(argv[2]) if len(argv) > 2 else 1
        _time(seed, "link" in argv[3:])
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv))
