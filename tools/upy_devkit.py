"""What the device scripts run by `python -m tools.profile_device` share (it sends this
text before the script's own, at the board's REPL): the board booted again with
mainloop's own boot() on a game log of its own (BENCH_LOG, removed again by
bench_end()), its Loop, and Feed, a fake scanner whose frame the script sets.  Not in
the bundle.

    board, hw, clock, services, loop   the booted board (no watchdog, no self-test)
    feed                               Feed(): feed.f is the frame every scan reads
    bench_end()                        closes the log and removes BENCH_LOG
"""
import mainloop as _NS
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
    if services is not None and services.recorder is not None:
        services.recorder.close()
    _BOOT.LOG_DIR = "logs"
    _rmtree(BENCH_LOG)


_BOOT.LOG_DIR = BENCH_LOG
_rmtree(BENCH_LOG)
board, hw, clock = _BOOT.boot(watchdog_ms=0, selftest=False)
services = _NS._services
loop = _NS.Loop(board, hw, clock)
feed = Feed()
