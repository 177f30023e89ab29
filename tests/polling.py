"""Waiting in tests for something another process does: `until` (a fetch's result as
wanted, else an AssertionError naming what was awaited) and `within` (a condition true
within some seconds, or False).  No timed assertion: the timeouts only bound a wait."""
import time


def until(fetch, ok, what, timeout=30.0, pause=0.05):
    """fetch() again every `pause` s until ok(its result); returns that result.  An
    AssertionError naming `what` and the last result after `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        got = fetch()
        if ok(got):
            return got
        assert time.monotonic() < deadline, "waited %.0f s for %s: %r" % (timeout, what, got)
        time.sleep(pause)


def within(cond, seconds, pause=0.05):
    """True as soon as cond() is true, False when it was not within `seconds` s."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(pause)
    return False
