"""The emulated Pico (pico-rig) from the project: find it, play a game on it, serve it.

The rig lives outside the project: the environment variable PICO_RIG names its folder,
default ../shared/pico-rig relative to the project root.  Used by `make bench-device`
(tools/bench_device.py) and the rig tests (tests/test_rig.py).

    ROOT                             the project root
    find_rig() -> folder or None     (a folder holding run_game.sh)
    image_args() -> [--uf2 FILE, --fs-dir DIR]   the firmware image (make uf2), built first
    play(rig, seed, port, turns=None, extra=(), firmware="image") -> Game
                                     (blocks: whole game or N turns)
    Serve(rig, port, control=None, extra=(), firmware="image")  context manager: the
                                     board until stopped

`firmware="image"` boots the project's firmware image (tools/build_image.py, the code
frozen into flash, as a board ships); `"bundle"` the stock MicroPython 1.22 with the
`.mpy` bundle on its file system (tools/build_firmware.py, as `samsara deploy` leaves a
board), for comparing the two.
"""
import os
import signal
import socket
import subprocess
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))



def free_ports(n):
    """`n` distinct TCP ports on 127.0.0.1 that are free now (the system picks them, or
    ports_in_range when SAMSARA_TEST_PORTS is set), so that two runs of the rig tests
    on one machine never fight over a port."""
    if os.environ.get("SAMSARA_TEST_PORTS"):
        return ports_in_range(n)
    socks = []
    try:
        for _ in range(n):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


_GIVEN = set()
"""Ports ports_in_range handed out already in this run: never handed out twice."""


def ports_in_range(n):
    """`n` distinct TCP ports free now on 127.0.0.1 from the range the environment
    variable SAMSARA_TEST_PORTS gives ("LO-HI", e.g. "7100-7199": test runs sharing a
    computer keep to their own ports).  Raises RuntimeError when it is not set, is
    not LO-HI, or holds too few free ports."""
    span = os.environ.get("SAMSARA_TEST_PORTS", "")
    try:
        lo, hi = (int(x) for x in span.split("-"))
    except ValueError:
        raise RuntimeError("SAMSARA_TEST_PORTS is LO-HI, e.g. 7100-7199, not %r" % span)
    out = []
    for port in range(lo, hi + 1):
        if len(out) == n:
            break
        if port in _GIVEN:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        out.append(port)
    if len(out) < n:
        raise RuntimeError("SAMSARA_TEST_PORTS=%s: fewer than %d free ports" % (span, n))
    _GIVEN.update(out)
    return out


_IMAGE = []
_IMAGE_LOCK = threading.Lock()


def image_args():
    """["--uf2", FILE, "--fs-dir", DIR] of the firmware image, built (or taken from the
    image cache) once per process by tools/build_image.py (one thread at a time: the
    games of make bench-device start together).  Raises RuntimeError with the build's
    output when the image cannot be built."""
    with _IMAGE_LOCK:
        return _image_args()


def _image_args():
    if not _IMAGE:
        import sys
        r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "build_image.py")],
                           cwd=ROOT, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("the firmware image could not be built:\n" + r.stdout + r.stderr)
        out = os.path.join(ROOT, "build", "firmware")
        uf2 = [n for n in os.listdir(out) if n.endswith(".uf2")]
        _IMAGE[:] = ["--uf2", os.path.join(out, uf2[0]), "--fs-dir", os.path.join(out, "fs")]
    return list(_IMAGE)


def firmware_args(firmware):
    """run_game.sh's arguments for `firmware`: "image", "bundle", or None (the caller's
    `extra` names an image with --uf2/--fs-dir itself)."""
    if firmware == "image":
        return image_args()
    if firmware in ("bundle", None):
        return []
    raise ValueError("firmware is 'image' or 'bundle', not %r" % (firmware,))


def rig_dir():
    """The folder PICO_RIG names (default ../shared/pico-rig next to the project)."""
    d = os.environ.get("PICO_RIG") or os.path.join(ROOT, "..", "shared", "pico-rig")
    return os.path.abspath(d)


def find_rig():
    """The rig folder when it holds run_game.sh, else None."""
    d = rig_dir()
    return d if os.path.isfile(os.path.join(d, "run_game.sh")) else None


class Game:
    """One finished rig run: rc (run_game.sh's exit code: 0 ok, 3 host replay
    disagrees), log (its printed output), out (the outputs folder or None) and the
    JSON files of out read on demand (summary(), load(name))."""

    def __init__(self, rc, log, out):
        self.rc = rc
        self.log = log
        self.out = out

    def load(self, name):
        import json
        with open(os.path.join(self.out, name)) as f:
            return json.load(f)

    def summary(self):
        return self.load("summary.json")

    def replay_agrees(self):
        """check_replay.py's verdict line: same turns and same final scene."""
        for line in self.log.splitlines():
            if line.startswith("host replay of the recorded trace"):
                return "same turns: yes" in line and "host scene: yes" in line
        return False


def _outputs(log):
    for line in reversed(log.splitlines()):
        if line.startswith("outputs: "):
            return line[len("outputs: "):].strip()
    return None


def play(rig, seed, port, turns=None, extra=(), timeout=1800, firmware="image"):
    """run_game.sh --play --seed SEED --port PORT [--turns N] from the project root, on
    the firmware image (or the bundle: firmware_args); returns the Game when it ends."""
    cmd = [os.path.join(rig, "run_game.sh"), "--play", "--seed", str(seed),
           "--port", str(port), "--project", ROOT] + firmware_args(firmware)
    if turns:
        cmd += ["--turns", str(turns)]
    cmd += list(extra)
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    log = r.stdout + r.stderr
    return Game(r.returncode, log, _outputs(log))


class Serve:
    """run_game.sh in the background with `extra` (default --serve): the board's USB
    serial at socket://127.0.0.1:port, its control port at `control`.  Stopped (its
    process group) on exit; log() gives what it printed so far."""

    def __init__(self, rig, port, control=None, extra=None, logfile=None, firmware="image"):
        self.rig = rig
        self.port = port
        self.control = control
        self.extra = (["--serve"] if extra is None else list(extra)) + firmware_args(firmware)
        self.logfile = logfile
        self.proc = None

    def __enter__(self):
        import tempfile
        cmd = [os.path.join(self.rig, "run_game.sh")] + self.extra + [
            "--port", str(self.port), "--project", ROOT]
        if self.control:
            cmd += ["--control", str(self.control)]
        if self.logfile is None:
            fd, self.logfile = tempfile.mkstemp(prefix="rig-serve-", suffix=".log")
            os.close(fd)
        self._fh = open(self.logfile, "w")
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=self._fh, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        return self

    def wait_ready(self, timeout=180.0, boot_ms=3000):
        """Wait until the rig listens on the board's port (its log says `listening
        PORT`), then, with a control port, until the board's clock passed boot_ms
        (main.py's boot takes about 1.8 s of device time).  False on timeout."""
        t0 = time.time()
        want = "listening %d" % self.port
        while want not in self.log():
            if self.proc.poll() is not None or time.time() - t0 > timeout:
                return False
            time.sleep(0.3)
        if self.control:
            t = self.ctl({"query": "time"}).get("t_ms", 0)
            if t < boot_ms:
                self.ctl({"wait_ms": int(boot_ms - t)}, timeout=timeout)
        return True

    def ctl(self, msg, timeout=120.0):
        """Send one JSON line to the control port; returns its JSON reply."""
        import json
        s = socket.create_connection(("127.0.0.1", self.control), timeout=timeout)
        try:
            s.sendall((json.dumps(msg) + "\n").encode())
            buf = b""
            while not buf.endswith(b"\n"):
                chunk = s.recv(65536)
                if not chunk:
                    break
                buf += chunk
        finally:
            s.close()
        return json.loads(buf.decode().splitlines()[0])

    def log(self):
        with open(self.logfile) as f:
            return f.read()

    def __exit__(self, *exc):
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(20)
            except (OSError, subprocess.TimeoutExpired):
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
        self._fh.close()
        return False
