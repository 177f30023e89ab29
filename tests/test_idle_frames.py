"""The idle iteration's call frames stay off the heap on MicroPython: a call whose
state (locals and value stack) is larger than 11 machine words gets its frame from the
heap and frees it on return, which `micropython.heap_lock()` tests cannot see (the
frame falls back to the C stack under the lock; ../shared/docs/toolchain.md).  The
garbage probe tools/upy_frame_probe.py sees it: it leaves known garbage on the heap,
lowers gc.threshold, calls a piece many times and reports whether the VM collected.
Run here on the Unix port with the fakes (docs/performance.md "Idle loop")."""
import os
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UPY = os.path.join(os.path.dirname(sys.executable), "micropython")

# The pieces of the Pico's idle iteration (the fakes' Python scanner and SPI are C on
# the Pico: "Loop.once, builtin scan" is the whole iteration as the Pico runs it).
IDLE_PATH = [
    "Loop.once, builtin scan", "Board.tick", "Debounce.step", "buttons.poll",
    "board.poll_event", "Loop.serve", "Loop.drain", "Loop._answer",
    "pacing.end_overdue", "watchdog.feed", "HostLink.poll", "HostLink._read",
    "HostLink._flush", "stream.read_into",
]


def _probe():
    env = dict(os.environ, MICROPYPATH="firmware:tests/upy:tests/fakes:host")
    r = subprocess.run([UPY, "tools/upy_frame_probe.py"], cwd=REPO, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    out = {}
    for line in r.stdout.splitlines():
        if line.startswith("PROBE "):
            name, _, verdict = line[6:].rpartition(" ")
            out[name] = verdict
    return out


@pytest.mark.skipif(not os.access(UPY, os.X_OK), reason="no MicroPython Unix port in the venv (make venv)")
def test_no_piece_of_the_idle_iteration_puts_its_call_frame_on_the_heap():
    got = _probe()
    assert got.get("nothing") == "clean", got        # the probe itself leaves no garbage
    assert got.get("Loop.once") == "collected", got  # and sees a frame (the fakes' scan)
    dirty = [p for p in IDLE_PATH if got.get(p) != "clean"]
    assert not dirty, "call frames on the heap in the idle iteration: %s" % dirty
