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
    vb.listen(fn)                  # fn(event dict) for every event line the board
                                   # writes: a side channel that leaves the port free

Its board id (`hello`, the game logs' headers): the one given, else the one kept in
the folder's `board-id` file, else a new one ("virtual-" and 8 random hex digits)
written there, so the same folder keeps its id and two folders never share one.

Two pseudo-terminal pairs joined by a relay thread: the board's (its stdin/stdout,
raw mode) changes with every start; the host's stays, so a host keeps its port open
across a restart of the board, as with a Pico that resets.  `unplug()` / `plug()`
replace the host's pair (the cable pulled and plugged in again; the port path, a
symlink, stays the same).
"""
import json
import os
import re
import secrets
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


def _start_frame(game):
    # The sensors of a virtual board of `game` before any feed line (8 bytes), as its
    # firmware starts them (vboard/vboard_main.py _start_frame): the game's start set up.
    if game == "samas":
        from samas.controller import frame_of
        from samas.rules.state import START as SAMAS_START
        return frame_of(SAMAS_START)
    if game == "schaska":
        return bytearray(8)
    from samsara.frame import from_position
    from samsara.rules.position import START
    return from_position(START)


def find_micropython():
    """The `micropython` command: next to this Python (the project's venv), else on PATH."""
    cand = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.access(cand, os.X_OK):
        return cand
    found = shutil.which("micropython")
    if not found:
        raise FileNotFoundError("no `micropython` command: run `make venv`")
    return found


GAMES = ("samsara", "samas", "schaska")
"""The games a virtual board plays (`--game`): Samsara's board, or Samas's or Schaska's
on the same electronics (docs/samas.md, docs/schaska.md "On the board")."""

ID_FILE = "board-id"
"""The file in a virtual board's folder that keeps its board id."""

_ID_RE = re.compile(r"[A-Za-z0-9._-]{1,32}")


def check_board_id(text):
    """`text` if it is a valid board id (1-32 letters, digits, '.', '_', '-': it names
    the folder `logs pull` stores the logs in, and fits the log header), else
    ValueError saying so."""
    if not isinstance(text, str) or not _ID_RE.fullmatch(text):
        raise ValueError("a board id is 1-32 letters, digits, '.', '_' or '-', not %r"
                         % (text,))
    return text


def folder_board_id(folder, board_id=None):
    """The board id of the virtual board in `folder`: `board_id` when given (kept in
    the folder's ID_FILE from now on), else the one kept there, else a new unique one
    ("virtual-" + 8 random hex digits), written there.  ValueError for a bad id."""
    path = os.path.join(folder, ID_FILE)
    if board_id is None:
        try:
            with open(path) as f:
                return check_board_id(f.read().strip())
        except (OSError, ValueError):
            board_id = "virtual-" + secrets.token_hex(4)
    check_board_id(board_id)
    with open(path, "w") as f:
        f.write(board_id + "\n")
    return board_id


LOCK_FILE = ".lock"
"""The file in a virtual board's folder that its VirtualBoard holds locked (flock) from
creation to stop(): one board per folder, or two would share one port path and write
the same game logs."""


RUNNING_ENV = "SAMSARA_RUNTIME_DIR"
"""The environment variable naming the folder where running virtual boards are listed
(default: `samsara-<uid>` in the system's temporary folder)."""


def running_dir():
    """The folder listing the running virtual boards (one file a board: its folder)."""
    d = os.environ.get(RUNNING_ENV)
    if not d:
        uid = os.getuid() if hasattr(os, "getuid") else 0
        d = os.path.join(tempfile.gettempdir(), "samsara-%d" % uid)
    return os.path.join(d, "virtual-boards")


def _held(folder):
    # True while some process holds the folder's LOCK_FILE (a board runs there).
    import fcntl
    try:
        fd = os.open(os.path.join(folder, LOCK_FILE), os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


def running_boards():
    """The virtual boards running on this machine for this user: a list of
    {"port", "folder", "board"} dicts (the port path, the board's folder, its board
    id), sorted by port.  A listed board whose folder is no longer held (its launcher
    and board ended, however) is taken off the list."""
    d = running_dir()
    try:
        names = sorted(os.listdir(d))
    except OSError:
        return []
    out = []
    for name in names:
        path = os.path.join(d, name)
        try:
            with open(path) as f:
                entry = json.load(f)
            folder = entry["folder"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if not _held(folder) or not os.path.lexists(entry.get("port", "")):
            try:
                os.unlink(path)
            except OSError:
                pass
            continue
        out.append({"port": entry["port"], "folder": folder, "board": entry.get("board")})
    out.sort(key=lambda e: e["port"])
    return out


def _list_running(board):
    # Put `board` (a VirtualBoard) on running_boards' list; returns the entry's path.
    import hashlib
    d = running_dir()
    try:
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, hashlib.sha1(board.folder.encode()).hexdigest()[:16] + ".json")
        with open(path + ".tmp", "w") as f:
            json.dump({"port": board.port, "folder": board.folder, "board": board.board_id}, f)
        os.replace(path + ".tmp", path)
        return path
    except OSError:
        return None      # not listed: `--port` still finds it


class FolderError(Exception):
    """The folder cannot hold this virtual board: another one runs there, it is a file,
    or it cannot be made.  str() says which and what to do; `busy` is True for the
    first (the folder is right, but taken: `samsara virtual-board` exits 1), False for
    the others (the folder given is wrong: exit 2)."""

    def __init__(self, text, busy=False):
        Exception.__init__(self, text)
        self.busy = busy


def _claim(folder):
    """Make `folder` and lock its LOCK_FILE; returns the open lock file's descriptor.
    Raises FolderError."""
    import fcntl
    if os.path.lexists(folder) and not os.path.isdir(folder):
        raise FolderError("%s is a %s, not a folder: give a folder for the board" % (
            folder, "file" if os.path.exists(folder) else "link to nothing"))
    try:
        os.makedirs(folder, exist_ok=True)
        fd = os.open(os.path.join(folder, LOCK_FILE), os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise FolderError("cannot use the folder %s: %s" % (folder, e.strerror or e))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise FolderError("another virtual board runs in %s (its port: %s): use that one, "
                          "or stop it first, or give another folder"
                          % (folder, os.path.join(folder, "ttyVB0")), busy=True)
    return fd


class VirtualBoard:
    """One virtual board (module docstring).  folder: where its logs, feed and stderr
    live (default a new temporary directory, removed by stop() when it made it); the
    board holds it (LOCK_FILE) until stop().  board_id: the id `hello` reports (None:
    folder_board_id's).  settle: (lift_ms, place_ms) or None for the firmware's
    defaults.  dice: the dice source ("electronic", "host", "manual").  seed: the seed
    of the electronic dice (None: the firmware's default, 1).  game: one of GAMES (the
    board's firmware boots that game's board); layout: a Schaska layout tuple (None:
    the default).  players: Samas's or Schaska's players' names [A's, B's] ("" for one
    not given; None: none), in every game's log header (GameBoard.set_players; a
    Samsara game is named by `samsara game new --names`).  Raises ValueError for a bad
    board id, an unknown game, a layout or names for another game, FolderError for a
    folder another virtual board holds (or a file)."""

    def __init__(self, folder=None, board_id=None, settle=None, dice=None,
                 micropython=None, seed=None, game="samsara", layout=None, players=None):
        if game not in GAMES:
            raise ValueError("unknown game %r (one of %s)" % (game, ", ".join(GAMES)))
        if layout is not None and game != "schaska":
            raise ValueError("a layout is Schaska's (--game schaska)")
        if players is not None and game == "samsara":
            raise ValueError("a Samsara game's names are given with its new game "
                             "(samsara game new --names)")
        if players is not None and (len(players) != 2 or not any(players)):
            raise ValueError("the players' names are two, A's and B's, one at least given")
        self.game = game
        self.layout = layout
        self.players = list(players) if players is not None else None
        self._own = folder is None
        self.folder = os.path.abspath(folder or tempfile.mkdtemp(prefix="samsara-vboard-"))
        self._folder_lock = _claim(self.folder)
        try:
            self.board_id = folder_board_id(self.folder, board_id)
        except BaseException:
            self._release()
            raise
        self.settle = settle
        self.dice = dice
        self.seed = seed
        self._listeners = []
        self._line = bytearray()
        self._pending = bytearray()   # for the host's pair, not yet taken by a reader
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
        self._launcher_r = self._launcher_w = None
        self._listed = None      # the entry of running_boards' list, once started
        if not os.path.exists(self.feed_path):
            open(self.feed_path, "w").close()

    # -- the cable ----------------------------------------------------------------------

    def plug(self):
        """(Re)create the host's pseudo-terminal pair and point the port path at it."""
        hm, hs = ptyport.plug(self.port)
        os.set_blocking(hm, False)   # the relay never waits for a host that reads slowly
        with self._lock:
            self._hm, self._hs = hm, hs
            del self._pending[:]
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
        if self.seed is not None:
            env["SAMSARA_VBOARD_SEED"] = str(int(self.seed) & 0xFFFFFF)
        env["SAMSARA_VBOARD_GAME"] = self.game
        if self.layout is not None:
            from schaska.rules.layout import format_layout
            env["SAMSARA_VBOARD_LAYOUT"] = format_layout(self.layout)
        else:
            env.pop("SAMSARA_VBOARD_LAYOUT", None)
        if self.players is not None:
            # as UTF-8, not \u escapes: MicroPython reads an escaped pair of surrogates
            # (an emoji) as two lone ones, which no header could hold
            env["SAMSARA_VBOARD_PLAYERS"] = json.dumps(self.players, ensure_ascii=False)
        else:
            env.pop("SAMSARA_VBOARD_PLAYERS", None)
        if self._launcher_w is None:
            # the board's process watches this pipe and ends when no launcher holds it
            # (vdrivers.LauncherWatch); the write end stays here only (not inherited)
            self._launcher_r, self._launcher_w = os.pipe()
        env["SAMSARA_VBOARD_LAUNCHER_FD"] = str(self._launcher_r)
        self._booted.clear()
        del self._tail[:]
        err = open(os.path.join(self.folder, "stderr.log"), "ab")
        # the board's process holds the folder's lock as well: however its launcher
        # dies, no second board takes the folder while this one still writes there
        self.proc = subprocess.Popen(
            [self.micropython, "-i", os.path.join(VBOARD, "vboard_main.py")],
            stdin=bs, stdout=bs, stderr=err, cwd=self.folder, env=env,
            start_new_session=True, pass_fds=(self._folder_lock, self._launcher_r))
        os.close(bs)
        err.close()
        if self._listed is None:
            self._listed = _list_running(self)
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
        """Wait until the loop sent its boot event; raises TimeoutError (also at once
        when the board's process has stopped)."""
        deadline = time.monotonic() + timeout
        while not self._booted.wait(0.1):
            if time.monotonic() >= deadline or not self.alive():
                break
        if not self._booted.is_set():
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
        self._release()

    def _release(self):
        # The folder is free for another virtual board.
        listed, self._listed = getattr(self, "_listed", None), None
        if listed:
            try:
                os.unlink(listed)
            except OSError:
                pass
        for name in ("_launcher_r", "_launcher_w"):
            pfd = getattr(self, name, None)
            setattr(self, name, None)
            if pfd is not None:
                try:
                    os.close(pfd)
                except OSError:
                    pass
        fd, self._folder_lock = self._folder_lock, None
        if fd is not None:
            try:
                os.close(fd)   # closing drops the flock
            except OSError:
                pass

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

    def sensed(self):
        """The names of the positions whose sensors are on now, as the board reads them
        once it has taken in the feed: the game's start set up (the sensors before any
        feed line, vboard_main._start_frame) with every sensor line and frame line of
        the feed file applied in order (a half-written or bad line skipped, as the
        board does).  Button lines change nothing.  A set of position names ("R1",
        "GS", "A0", ...)."""
        from samsara.rules.geometry import position_index, position_name
        frame = bytearray(_start_frame(self.game))
        try:
            with open(self.feed_path) as f:
                lines = f.read().split("\n")[:-1]     # the last one: "" or unfinished
        except OSError:
            lines = []
        for line in lines:
            try:
                obj = json.loads(line)
                if "pos" in obj:
                    p = position_index(obj["pos"])
                    if obj.get("on"):
                        frame[p >> 3] |= 1 << (p & 7)
                    else:
                        frame[p >> 3] &= ~(1 << (p & 7)) & 0xFF
                elif "frame" in obj:
                    h = obj["frame"]
                    frame[:] = bytes(int(h[2 * i:2 * i + 2], 16) for i in range(8))
            except (ValueError, TypeError, KeyError, AttributeError, IndexError):
                pass
        return {position_name(p) for p in range(64) if frame[p >> 3] >> (p & 7) & 1}

    def output_tail(self):
        """The last few KB the board wrote (for messages when a test fails)."""
        return bytes(self._tail).decode("utf-8", "replace")

    def listen(self, fn):
        """Call fn(event) for every event line ({"ev": ...}) the board writes, from the
        relay thread: a side channel beside the port (the simulated players of
        `samsara virtual-board --play` watch the board through it), so the port stays
        free for the user's tools.  fn must return quickly."""
        self._listeners.append(fn)

    # -- relay --------------------------------------------------------------------------

    # What the board wrote and no host has read yet: at most this many bytes wait
    # (beyond the pseudo-terminal's own buffer); older ones are dropped, as a USB
    # serial port drops what nobody reads, so the board never waits for a reader.
    PENDING_MAX = 16384

    def _tap(self, data):
        # The side channel: whole lines of the board's output, decoded.
        if not self._listeners:
            return
        from samsara_host import hostproto
        self._line.extend(data)
        i = self._line.find(b"\n")
        while i >= 0:
            raw = bytes(self._line[:i])
            del self._line[:i + 1]
            obj = hostproto.decode_line(raw)
            if isinstance(obj, dict) and "ev" in obj:
                for fn in list(self._listeners):
                    try:
                        fn(obj)
                    except Exception:
                        pass  # a listener's bug never stops the relay
            i = self._line.find(b"\n")
        if len(self._line) > 65536:
            del self._line[:]

    def _to_host(self, hm):
        # Hand the pending output to the host's pair without ever blocking.
        if hm is None:
            del self._pending[:]
            return
        while self._pending:
            try:
                n = os.write(hm, self._pending[:4096])
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                del self._pending[:]
                break
            if not n:
                break
            del self._pending[:n]
        if len(self._pending) > self.PENDING_MAX:
            del self._pending[:len(self._pending) - self.PENDING_MAX]

    def _relay(self):
        while not self._stop.is_set():
            with self._lock:
                bm, hm = self._bm, self._hm
            fds = [fd for fd in (bm, hm) if fd is not None]
            if not fds:
                time.sleep(0.02)
                continue
            wfds = [hm] if (hm is not None and self._pending) else []
            try:
                r, w, _x = select.select(fds, wfds, [], 0.05)
            except (OSError, ValueError):
                time.sleep(0.01)
                continue
            if w:
                self._to_host(hm)
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
                    self._tap(data)
                    self._pending.extend(data)
                    self._to_host(hm)
                elif bm is not None:
                    try:
                        _write_all(bm, data)
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


def main(argv=None):
    """`python -m samsara_host.virtual_board [DIR] [--id ID] [--play SEED] [--turns N]`:
    samsara_host.vboard_cmd.main (the same as `samsara virtual-board`)."""
    from samsara_host import vboard_cmd
    return vboard_cmd.main(argv)


if __name__ == "__main__":
    sys.exit(main())
