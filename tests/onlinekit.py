"""The parts of an online game for the tests (docs/online.md): a Mosquitto of their own
on a free local port, virtual boards played one side each (`samsara virtual-board DIR
--play SEED --side A|B`), bridges (`samsara online host|join`) and a spectator
(`samsara online watch --json`), each its own process so that a test can kill and
start it again; and the boards' game records read from their log folders."""
import glob
import os
import queue
import signal
import subprocess
import sys
import threading
import time

from samsara_host.online.code import new_code, parse_code
from samsara_host.record import from_log

HOST = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "host")


def samsara(*args):
    """The command line of `samsara ARGS` with this checkout's Python."""
    return [sys.executable, "-m", "samsara_host.cli"] + list(args)


class Proc:
    """One `samsara` process whose stdout lines are read into `lines` (and a queue),
    its stderr into `err_path`."""

    def __init__(self, args, err_path, env=None):
        self.args = args
        self.err_path = err_path
        self.lines = []
        self.q = queue.Queue()
        e = dict(os.environ)
        e["PYTHONPATH"] = HOST + os.pathsep + e.get("PYTHONPATH", "")
        e["PYTHONUNBUFFERED"] = "1"
        if env:
            e.update(env)
        self.err = open(err_path, "ab")
        self.p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=self.err,
                                  stdin=subprocess.DEVNULL, env=e, start_new_session=True)
        self.t = threading.Thread(target=self._read, daemon=True)
        self.t.start()

    def _read(self):
        for raw in self.p.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self.lines.append(line)
            self.q.put(line)

    def wait_line(self, starts, timeout):
        """The first line (from now on) starting with `starts`; AssertionError after
        `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, "no line %r from %s within %.0f s; stderr: %s" % (
                starts, self.args[3:5], timeout, self.stderr()[-2000:])
            try:
                line = self.q.get(timeout=min(left, 0.5))
            except queue.Empty:
                continue
            if line.startswith(starts):
                return line

    def stderr(self):
        self.err.flush()
        with open(self.err_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def alive(self):
        return self.p.poll() is None

    def wait(self, timeout):
        """The exit code; AssertionError when it runs past `timeout` seconds."""
        try:
            return self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError("%s still runs after %.0f s; stderr: %s"
                                 % (self.args[3:5], timeout, self.stderr()[-3000:]))

    def stop(self, sig=signal.SIGTERM):
        """End the process (and its children: the virtual board's micropython)."""
        if self.p.poll() is None:
            try:
                os.killpg(self.p.pid, sig)
            except ProcessLookupError:
                pass
            try:
                self.p.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.p.pid, signal.SIGKILL)
                self.p.wait(5)
        self.t.join(2)
        self.err.close()


def vboard(folder, seed, side, tmp):
    """A virtual board in `folder` whose hand plays `side`; returns (Proc, port)."""
    p = Proc(samsara("virtual-board", folder, "--play", str(seed), "--side", side),
             os.path.join(tmp, "vboard-%s.err" % side))
    port = p.wait_line("port: ", 30)[len("port: "):]
    p.wait_line("Ctrl-C stops it", 30)
    return p, port


def bridge(role, broker, port, name, statedir, tmp, code=None, side=None, tag=""):
    """`samsara online host|join`; returns the Proc (for the host, after its code line)."""
    if role == "host":
        args = ["online", "host", "--side", side, "--broker", broker]
        if code:
            args += ["--code", code]
    else:
        args = ["online", "join", code, "--broker", broker]
    args += ["--name", name, "--port", port, "--dir", statedir]
    return Proc(samsara(*args), os.path.join(tmp, "bridge-%s%s.err" % (name, tag)))


def board_record(folder):
    """The GameRecord of the newest online game in a virtual board's log folder."""
    best = None
    paths = glob.glob(os.path.join(folder, "logs", "g*.end")) + \
        glob.glob(os.path.join(folder, "logs", "g*.run"))
    for path in sorted(paths):
        with open(path, "rb") as f:
            data = f.read()
        try:
            rec = from_log(data, allow_torn=True)
        except Exception:
            continue
        if "Online" in rec.tags:
            best = rec
    return best


class OnlineGame:
    """A whole online game's processes on `broker` (an mqtt:// URL): two virtual boards
    in `tmp` (boardA, whose hand plays side A with seed `seed`, and boardB, side B with
    `seed + 1`) and Anna's bridge hosting side A with a new code (`host`); Ben's bridge
    joins with `join()`, a spectator with `watch()`.  Attributes: code, gid, host,
    port_a, port_b (the boards' ports), procs (every Proc started, `add` for more).
    A `with` block stops them all when it ends, the last started first."""

    def __init__(self, tmp, broker, seed):
        self.tmp, self.broker, self.seed = tmp, broker, seed
        self.procs = []
        self.code = new_code()
        self.gid = parse_code(self.code)[0]
        self.host = self.port_a = self.port_b = None

    def __enter__(self):
        try:
            va, self.port_a = vboard(os.path.join(self.tmp, "boardA"), self.seed, "A", self.tmp)
            self.add(va)
            vb, self.port_b = vboard(os.path.join(self.tmp, "boardB"), self.seed + 1, "B",
                                     self.tmp)
            self.add(vb)
            self.host = self.add(bridge("host", self.broker, self.port_a, "Anna",
                                        os.path.join(self.tmp, "stA"), self.tmp,
                                        code=self.code, side="A"))
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc):
        self.stop()

    def add(self, proc):
        """Stop `proc` (a Proc) with the others; returns it."""
        self.procs.append(proc)
        return proc

    def join(self, tag=""):
        """Ben's bridge joining side B (`samsara online join CODE`), its stderr in
        bridge-Ben<tag>.err; the Proc."""
        return self.add(bridge("join", self.broker, self.port_b, "Ben",
                               os.path.join(self.tmp, "stB"), self.tmp, code=self.code,
                               tag=tag))

    def watch(self):
        """A spectator (`samsara online watch CODE --json`); the Proc."""
        return self.add(Proc(samsara("online", "watch", self.code, "--broker", self.broker,
                                     "--json"), os.path.join(self.tmp, "watch.err")))

    def record(self, side):
        """The GameRecord of board `side` ("A" or "B"), as `board_record`."""
        return board_record(os.path.join(self.tmp, "board" + side))

    def stop(self):
        """Stop every process started, the last first."""
        for p in reversed(self.procs):
            p.stop()
