"""What the device scripts run by `python -m tools.profile_device` share (it sends this
text before the script's own, at the board's REPL): the board booted again with
mainboot's own boot() on a game log of its own (BENCH_LOG, removed again by
bench_end()), its Loop, and Feed, a fake scanner whose frame the script sets.  Not in
the image.

    board, hw, clock, loop   the booted board (no watchdog, no self-test); loop.link,
                             loop.recorder, loop.flight its services
    feed                               Feed(): feed.f is the frame every scan reads
    bench_end()                        closes the log and removes BENCH_LOG

and what the heap probes (tools/upy_heap_lines.py, tools/upy_turn_drift.py) share:

    probe_link()     the loop scans feed.f; returns the link
    quiet()          what the loop's quiet moment does: a collection
    host_line(text)  one host line ("ID" in it becomes the next request id) through
                     the link, its reply not written out (no host reads it)
    run_ticks(n)     n loop iterations on the virtual clock `now` (ms)
"""
import mainboot as _BOOT

try:
    BENCH_LOG
except NameError:
    BENCH_LOG = "devlog"


def _rmtree(d):
    import os
    try:
        names = os.listdir(d)
    except OSError:
        return
    for n in names:
        try:
            os.remove(d + "/" + n)
        except OSError:
            _rmtree(d + "/" + n)
    try:
        os.rmdir(d)
    except OSError:
        pass


class Feed:
    """A scanner whose frame is f (bytearray(8)), set by the script."""

    def __init__(self):
        self.f = bytearray(8)

    def scan(self, buf):
        f = self.f
        for i in range(8):
            buf[i] = f[i]


def bench_end():
    """Close the benchmark's game log and remove its folder (the board's own logs are
    untouched)."""
    if loop.recorder is not None:
        loop.recorder.close()
    _BOOT.LOG_DIR = "logs"
    _rmtree(BENCH_LOG)


_BOOT.LOG_DIR = BENCH_LOG
_rmtree(BENCH_LOG)
loop = _BOOT.boot(watchdog_ms=0, selftest=False)
board = loop.board
hw = loop.hw
clock = loop.clock
feed = Feed()
now = 100000      # the heap probes' virtual clock (ms)
rid = 0           # their last request id


def probe_link():
    """The heap probes' set-up (module docstring); returns the loop's link."""
    loop._scan = feed.scan
    return loop.link


def quiet():
    """The loop's quiet moment: a collection."""
    import gc
    gc.collect()


def host_line(text):
    """One host line through the link ("ID" becomes the next request id); the reply
    is not written out."""
    global rid
    rid += 1
    b = text.replace("ID", str(rid)).encode()
    link = loop.link
    link.rx[0:len(b)] = b
    link._line(len(b))
    link.reply = None
    link.tx_len = 0


def run_ticks(n):
    """n loop iterations, the virtual clock `now` advanced one period before each."""
    global now
    for _ in range(n):
        now += loop.period
        loop.once(now)
