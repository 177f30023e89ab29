"""Simulated drivers of the virtual board (runs under the `micropython` Unix port).

The same members as board.hw.Hardware (docs/core-api.md "Drivers"): scanner, leds,
buttons, watchdog, calibrator, start_watchdog.  The "physical" board is a feed file
of JSON lines in the virtual board's folder that a test or the host side appends to:

    {"pos": "R5", "on": false}        a sensor changes (a marble lifted from R5)
    {"frame": "3f0000...."}           every sensor at once (16 hex digits, byte 0 first)
    {"button": "roll", "long": false} a button press ("roll" or "undo")

The marbles stay where they are when the process dies: at start the whole feed is read
again for the sensor lines (the physical board), while button lines written before the
start are not pressed again.  Read without blocking: a regular file at its end returns
nothing at once.
"""

import json
import os

from samsara.rules.geometry import position_index

LAUNCHER_EVERY = 128
"""Scans between two looks at the launcher (about half a second at 4 ms a scan)."""


class LauncherWatch:
    """The board's process ends when the program that launched it is gone, however it
    died (`kill -9` too): the launcher holds the write end of a pipe whose read end is
    the descriptor in SAMSARA_VBOARD_LAUNCHER_FD; once every write end is closed the
    read end reports a hang-up.  check() looks every LAUNCHER_EVERY calls and raises
    SystemExit then (the REPL that follows reads the dead terminal and ends too)."""

    def __init__(self):
        self.poll = None
        self.n = 0
        fd = os.getenv("SAMSARA_VBOARD_LAUNCHER_FD")
        if fd:
            import select
            self.poll = select.poll()
            self.poll.register(int(fd), select.POLLIN)

    def check(self):
        if self.poll is None:
            return
        self.n += 1
        if self.n < LAUNCHER_EVERY:
            return
        self.n = 0
        if self.poll.poll(0):
            print("samsara: the virtual board's launcher is gone; the board stops")
            raise SystemExit(0)


class FeedScanner:
    """scan(buf) copies the current frame after reading new feed lines."""

    n_positions = 64

    def __init__(self, path, start_frame):
        self.frame = bytearray(start_frame)
        self.presses = []
        self.part = ""
        self.f = None
        self.path = path
        self.launcher = LauncherWatch()
        try:
            self.f = open(path, "r")
        except OSError:
            self.f = None
        self._read(initial=True)

    def _apply(self, obj, initial):
        if "pos" in obj:
            p = position_index(obj["pos"])
            if obj.get("on"):
                self.frame[p >> 3] |= 1 << (p & 7)
            else:
                self.frame[p >> 3] &= ~(1 << (p & 7)) & 0xFF
        elif "frame" in obj:
            h = obj["frame"]
            for i in range(8):
                self.frame[i] = int(h[2 * i:2 * i + 2], 16)
        elif "button" in obj and not initial:
            self.presses.append((obj["button"], bool(obj.get("long", False))))

    def _read(self, initial=False):
        if self.f is None:
            try:
                self.f = open(self.path, "r")
            except OSError:
                return
        while True:
            line = self.f.readline()
            if not line:
                return
            if not line.endswith("\n"):
                self.part += line  # a line being written: finish it next time
                return
            line = self.part + line
            self.part = ""
            try:
                self._apply(json.loads(line), initial)
            except Exception:
                pass  # a bad feed line is the test's problem, never the board's

    def scan(self, buf):
        self.launcher.check()
        self._read()
        f = self.frame
        for i in range(8):
            buf[i] = f[i]


class FeedButtons:
    """poll(now_ms) -> None or (name, long) from the feed's button lines."""

    def __init__(self, scanner):
        self.sc = scanner

    def poll(self, now_ms):
        if self.sc.presses:
            return self.sc.presses.pop(0)
        return None


class VirtualLeds:
    """Keeps the last scene written (and how many writes)."""

    def __init__(self):
        self.scene = bytearray(240)
        self.writes = 0

    def show(self, scene):
        self.scene[:] = scene
        self.writes += 1

    def clear(self):
        for i in range(240):
            self.scene[i] = 0
        self.writes += 1


class NoWatchdog:
    """board.watchdog.NoWatchdog's interface (the loop feeds it every iteration and
    hands it to feed_in_background at the REPL hand-over); does nothing."""

    timeout_ms = 0

    def feed(self):
        pass

    def feed_in_background(self):
        return None


class VirtualHardware:
    """The drivers of the virtual board; `feed_path` is the feed file."""

    def __init__(self, feed_path, start_frame):
        self.scanner = FeedScanner(feed_path, start_frame)
        self.buttons = FeedButtons(self.scanner)
        self.leds = VirtualLeds()
        self.calibrator = None
        self.cal_status = "none"
        self.watchdog = NoWatchdog()

    def start_watchdog(self, timeout_ms):
        return self.watchdog
