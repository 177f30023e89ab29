"""Launch the virtual board: the firmware's main loop with simulated drivers under the
`micropython` command, behind a pseudo-terminal that pyserial and mpremote open like a
Pico's USB serial port (docs/virtual-board.md).

    vb = VirtualBoard()            # its folder: a new temporary directory
    port = vb.start()              # the port path (a symlink to /dev/pts/N)
    vb.wait_ready()                # until the loop announced itself ({"ev": "boot"})
    vb.feed({"pos": "R1", "on": False})   # move marbles (vdrivers.py feed lines)
    vb.kill()                      # a power cut: SIGKILL, the logs stay in vb.folder
    vb.start()                     # power back: same folder, same port path
    vb.stop()                      # process and pseudo-terminals gone

Two pseudo-terminal pairs joined by a relay thread: the board's (its stdin/stdout,
raw mode) changes with every start; the host's stays, so a host keeps its port open
across a restart of the board, as with a Pico that resets.  `unplug()` / `plug()`
replace the host's pair (the cable pulled and plugged in again; the port path, a
symlink, stays the same).
"""
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tty

from samsara_host import ptyport

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
FIRMWARE = os.path.join(REPO, "firmware")
VBOARD = os.path.join(HERE, "vboard")


def find_micropython():
    """The `micropython` command: next to this Python (the project's venv), else on PATH."""
    cand = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.access(cand, os.X_OK):
        return cand
    found = shutil.which("micropython")
    if not found:
        raise FileNotFoundError("no `micropython` command: run `make venv`")
    return found


class VirtualBoard:
    """One virtual board (module docstring).  folder: where its logs, feed and stderr
    live (default a new temporary directory, removed by stop() when it made it).
    board_id: the id `hello` reports.  settle: (lift_ms, place_ms) or None for the
    firmware's defaults.  dice: the dice source ("electronic", "host", "manual")."""

    def __init__(self, folder=None, board_id="virtual-1", settle=None, dice=None,
                 micropython=None):
        self._own = folder is None
        self.folder = folder or tempfile.mkdtemp(prefix="samsara-vboard-")
        os.makedirs(self.folder, exist_ok=True)
        self.board_id = board_id
        self.settle = settle
        self.dice = dice
        self.micropython = micropython or find_micropython()
        self.port = os.path.join(self.folder, "ttyVB0")
        self.feed_path = os.path.join(self.folder, "feed.jsonl")
        self.proc = None
        self._bm = None          # master of the board's pair
        self._hm = None          # master of the host's pair
        self._hs = None          # the host's slave, kept open so the pair never hangs up
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = None
        self._booted = threading.Event()
        self._tail = bytearray()
        self.starts = 0
        if not os.path.exists(self.feed_path):
            open(self.feed_path, "w").close()

    # -- the cable ----------------------------------------------------------------------

    def plug(self):
        """(Re)create the host's pseudo-terminal pair and point the port path at it."""
        hm, hs = ptyport.plug(self.port)
        with self._lock:
            self._hm, self._hs = hm, hs
        return self.port

    def unplug(self):
        """Pull the cable: the host's pair is closed (an open port gets an error)."""
        with self._lock:
            fds = (self._hm, self._hs)
            self._hm = self._hs = None
        ptyport.unplug(self.port, fds)

    # -- power --------------------------------------------------------------------------

    def start(self):
        """Start (or restart) the board's process; returns the port path."""
        if self.proc is not None and self.proc.poll() is None:
            return self.port
        if self._hm is None:
            self.plug()
        bm, bs = os.openpty()
        tty.setraw(bs)
        env = dict(os.environ)
        env["MICROPYPATH"] = FIRMWARE + ":" + VBOARD
        env["SAMSARA_BOARD_ID"] = self.board_id
        if self.settle:
            env["SAMSARA_VBOARD_SETTLE"] = "%d,%d" % tuple(self.settle)
        if self.dice:
            env["SAMSARA_VBOARD_DICE"] = self.dice
        self._booted.clear()
        del self._tail[:]
        err = open(os.path.join(self.folder, "stderr.log"), "ab")
        self.proc = subprocess.Popen(
            [self.micropython, "-i", os.path.join(VBOARD, "vboard_main.py")],
            stdin=bs, stdout=bs, stderr=err, cwd=self.folder, env=env,
            start_new_session=True)
        os.close(bs)
        err.close()
        with self._lock:
            old = self._bm
            self._bm = bm
        if old is not None:
            try:
                os.close(old)
            except OSError:
                pass
        self.starts += 1
        if self._thread is None or not self._thread.is_alive():
            self._stop.clear()
            self._thread = threading.Thread(target=self._relay, daemon=True)
            self._thread.start()
        return self.port

    def wait_ready(self, timeout=20.0):
        """Wait until the loop sent its boot event; raises TimeoutError."""
        if not self._booted.wait(timeout):
            raise TimeoutError("the virtual board did not boot within %.0f s (see %s)"
                               % (timeout, os.path.join(self.folder, "stderr.log")))

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def kill(self, sig=signal.SIGKILL):
        """Cut the power: kill the process at once (its logs stay in `folder`)."""
        if self.proc is not None:
            try:
                self.proc.send_signal(sig)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def stop(self):
        """Kill the board, stop the relay, close every pseudo-terminal; remove the
        folder when this object made it."""
        self.kill()
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2)
        with self._lock:
            fds = (self._bm, self._hm, self._hs)
            self._bm = self._hm = self._hs = None
        ptyport.unplug(self.port, fds)
        if self._own:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    # -- the physical board -------------------------------------------------------------

    def feed(self, *lines):
        """Append feed lines (dicts, vdrivers.py) for the board to pick up."""
        with open(self.feed_path, "a") as f:
            for obj in lines:
                f.write(json.dumps(obj) + "\n")
            f.flush()

    def output_tail(self):
        """The last few KB the board wrote (for messages when a test fails)."""
        return bytes(self._tail).decode("utf-8", "replace")

    # -- relay --------------------------------------------------------------------------

    def _relay(self):
        while not self._stop.is_set():
            with self._lock:
                bm, hm = self._bm, self._hm
            fds = [fd for fd in (bm, hm) if fd is not None]
            if not fds:
                time.sleep(0.02)
                continue
            try:
                r, _w, _x = select.select(fds, [], [], 0.05)
            except (OSError, ValueError):
                time.sleep(0.01)
                continue
            for fd in r:
                try:
                    data = os.read(fd, 4096)
                except OSError:
                    data = b""
                if not data:
                    if fd == bm:
                        # The board's side hung up (process gone): wait for a restart.
                        with self._lock:
                            if self._bm == bm:
                                self._bm = None
                        try:
                            os.close(bm)
                        except OSError:
                            pass
                    else:
                        time.sleep(0.01)
                    continue
                if fd == bm:
                    self._tail.extend(data)
                    if len(self._tail) > 8192:
                        del self._tail[:-8192]
                    if b'"boot"' in self._tail:
                        self._booted.set()
                    dst = hm
                else:
                    dst = bm
                if dst is not None:
                    try:
                        _write_all(dst, data)
                    except OSError:
                        pass


def _write_all(fd, data):
    view = memoryview(data)
    deadline = time.monotonic() + 1.0
    while view:
        try:
            n = os.write(fd, view)
        except BlockingIOError:
            n = 0
        if n:
            view = view[n:]
        elif time.monotonic() > deadline:
            return
        else:
            time.sleep(0.001)


def _interrupt(_signum, _frame):
    raise KeyboardInterrupt


def main(argv=None):
    """`python -m samsara_host.virtual_board [FOLDER]`: run a virtual board until
    Ctrl-C or SIGTERM (a service manager, `kill`), printing its port; either way the
    board's process is stopped and a temporary folder removed."""
    argv = sys.argv[1:] if argv is None else argv
    # SIGTERM (and a closed terminal's SIGHUP) end it like Ctrl-C, so the `micropython`
    # child, in a session of its own, is never left running.
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _interrupt)
    vb = None
    try:
        vb = VirtualBoard(folder=argv[0] if argv else None)
        port = vb.start()
        print("virtual board on %s (folder %s)" % (port, vb.folder), flush=True)
        signal.pause()
    except KeyboardInterrupt:
        pass
    finally:
        for name in ("SIGINT", "SIGTERM", "SIGHUP"):  # no second signal cuts the clean-up
            if hasattr(signal, name):
                signal.signal(getattr(signal, name), signal.SIG_IGN)
        if vb is not None:
            vb.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
