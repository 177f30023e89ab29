"""The host's end of the USB link (docs/host-tool.md, docs/protocol.md): finding and
opening the board's serial port, and talking the line protocol over it (BoardClient:
one request and its reply at a time, the events that stream in between).

Every host command reaches the board through `open_port(url)`, which is
`serial.serial_for_url`: a device path (`/dev/ttyACM0`, `COM5`, a pseudo-terminal of
the virtual board), or a pyserial URL such as `socket://127.0.0.1:7000` or `loop://`
that tests use in place of a Pico.

The Raspberry Pi Pico running MicroPython shows up as a USB CDC serial port with
vendor:product 2E8A:0005 (Raspberry Pi, "MicroPython Board in FS mode").  A port with
that id is a candidate; `samsara ports --hello` confirms it by asking for `hello`.

Errors: BoardNotFound (no candidate port), PortBusy (another program holds the
port), PortMissing (no such device), PortError (anything else opening the port).
All are LinkError, whose text says what to do.
"""
import errno
import json
import os

import serial
import serial.tools.list_ports

PICO_VID = 0x2E8A
PICO_PID = 0x0005
BAUD = 115200  # ignored by USB CDC, kept for real UART adapters


class LinkError(Exception):
    """A problem reaching the board; str() is a sentence for the user."""


class BoardNotFound(LinkError):
    """No serial port looks like a Pico running MicroPython."""


class PortBusy(LinkError):
    """Another program (a terminal, Thonny, a second `samsara`) holds the port;
    `holder`: (pid, argv) of that program when the system tells (port_holder), else
    None."""

    holder = None


class PortMissing(LinkError):
    """The named port does not exist (unplugged, or a typo)."""


class PortError(LinkError):
    """The port exists but could not be opened (permissions, driver)."""


class PortInfo:
    """One serial port as the host sees it.

    device: the path or name to open; vid, pid: USB ids or None; serial_number,
    description: from the USB descriptors (may be None / 'n/a'); is_pico: vid:pid is
    2E8A:0005.
    """

    def __init__(self, device, vid=None, pid=None, serial_number=None, description=""):
        self.device = device
        self.vid = vid
        self.pid = pid
        self.serial_number = serial_number
        self.description = "" if description in (None, "n/a") else description
        self.is_pico = vid == PICO_VID and pid == PICO_PID

    def usb_id(self):
        """'2E8A:0005' or '' for a port without USB ids."""
        if self.vid is None or self.pid is None:
            return ""
        return "%04X:%04X" % (self.vid, self.pid)

    def __repr__(self):
        return "PortInfo(%r, %s)" % (self.device, self.usb_id() or "no usb id")


def list_ports(comports=None):
    """All serial ports, Pico candidates first.  `comports`: a list of pyserial
    ListPortInfo-like objects (for tests); default the machine's ports."""
    if comports is None:
        comports = serial.tools.list_ports.comports()
    out = [PortInfo(p.device, getattr(p, "vid", None), getattr(p, "pid", None),
                    getattr(p, "serial_number", None), getattr(p, "description", ""))
           for p in comports]
    out.sort(key=lambda p: (not p.is_pico, p.device))
    return out


def virtual_boards():
    """The virtual boards running here (samsara_host.virtual_board.running_boards):
    [{"port", "folder", "board"}], [] when none (or the platform has none)."""
    try:
        from samsara_host.virtual_board import running_boards
        return running_boards()
    except (ImportError, OSError):
        return []


def find_board(comports=None, virtual=None):
    """The port of the one board: a Pico among the serial ports or a running virtual
    board (virtual: that list, default virtual_boards()).

    Raises BoardNotFound when there is none, LinkError when there are several (name
    one with --port).
    """
    picos = [p.device for p in list_ports(comports) if p.is_pico]
    if virtual is None:
        virtual = virtual_boards() if comports is None else []
    found = picos + [v["port"] for v in virtual]
    if not found:
        raise BoardNotFound(
            "no board found: no serial port with the Pico's USB id 2E8A:0005 and no "
            "virtual board running. "
            "Plug the board in with a data cable (not a charge-only one), check that it "
            "runs MicroPython (`samsara doctor`), start `samsara virtual-board`, or name "
            "the port with --port.")
    if len(found) > 1:
        raise LinkError("%d boards found (%s): choose one with --port"
                        % (len(found), ", ".join(found)))
    return found[0]


def _is_url(port):
    return "://" in port


def open_port(port, timeout=1.0, exclusive=True):
    """Open `port` (a device path or a pyserial URL) and return the serial object.

    timeout: read timeout in seconds.  exclusive: take an exclusive lock on POSIX
    devices so that a second program cannot interleave with us.
    Raises PortMissing, PortBusy or PortError with advice in the message.
    """
    kwargs = {"baudrate": BAUD, "timeout": timeout, "write_timeout": 5}
    if not _is_url(port):
        kwargs["exclusive"] = exclusive
    try:
        return serial.serial_for_url(port, **kwargs)
    except (serial.SerialException, OSError, ValueError) as e:
        raise classify_open_error(port, e)


def port_holder(port, locks="/proc/locks", proc="/proc"):
    """Who holds `port` (a device path): (pid, argv list) of the process whose lock
    on it (pyserial's exclusive open takes one) the system lists in `locks` (Linux's
    /proc/locks: `1: FLOCK ADVISORY WRITE PID MAJ:MIN:INODE 0 EOF`, major and minor
    in hex), or None when that cannot be told (another system, a URL, no lock)."""
    try:
        st = os.stat(port)
        want = "%02x:%02x:%d" % (os.major(st.st_dev),
                                 os.minor(st.st_dev), st.st_ino)
        with open(locks, encoding="ascii", errors="replace") as f:
            rows = [line.split() for line in f]
    except (OSError, ValueError, AttributeError):
        return None
    for row in rows:
        if len(row) < 6:
            continue
        _n, kind, _how, _mode, pid_text, dev_ino = row[:6]   # /proc/locks' columns
        if kind == "FLOCK" and dev_ino == want and pid_text.isdigit():
            pid = int(pid_text)
            try:
                with open(os.path.join(proc, str(pid), "cmdline"), "rb") as f:
                    argv = [a.decode("utf-8", "replace") for a in f.read().split(b"\0") if a]
            except OSError:
                argv = []
            return pid, argv
    return None


def holder_words(argv):
    """What to call the program of command line `argv` and what to do about it:
    (name, advice), e.g. ('`samsara app` (its page http://127.0.0.1:8765/)', ...)."""
    words = [os.path.basename(a) for a in argv]
    if "samsara" in words or any(a.endswith("samsara_host.cli") for a in argv):
        i = words.index("samsara") if "samsara" in words else 0
        sub = next((a for a in argv[i + 1:] if not a.startswith("-")), "")
        if sub == "app":
            http = 8765
            for k, a in enumerate(argv):
                if a == "--http-port" and k + 1 < len(argv) and argv[k + 1].isdigit():
                    http = int(argv[k + 1])
                elif a.startswith("--http-port=") and a.split("=", 1)[1].isdigit():
                    http = int(a.split("=", 1)[1])
            return ("`samsara app`", "use the app's live page (http://127.0.0.1:%d/): it has "
                    "the game's buttons; or stop the app (Ctrl-C where it runs) and try "
                    "again" % http)
        name = "`samsara %s`" % sub if sub else "`samsara`"
        return name, "wait until it ends, or stop it (Ctrl-C where it runs), and try again"
    prog = words[0] if words else "a program"
    if prog.startswith("python"):
        rest = [a for a in argv[1:] if not a.startswith("-") or a == "-m"]
        if rest[:1] == ["-m"] and len(rest) > 1:
            prog = "python -m %s" % rest[1]
        elif rest:
            prog = os.path.basename(rest[0])
    return prog, "close it and try again"


def busy_words(port, holder=None):
    """The PortBusy message for `port`: who holds it when port_holder told (its name,
    process id and what to do), else the usual holders."""
    if holder is not None:
        pid, argv = holder
        name, todo = holder_words(argv)
        return ("port %s is busy: %s (process %d) holds it: %s." % (port, name, pid, todo))
    return ("port %s is busy: another program holds it (`samsara app`, a serial terminal, "
            "Thonny, mpremote, or another `samsara monitor`). Close it and try again "
            "(while the app runs, its live page has the game's buttons)." % port)


def classify_open_error(port, e):
    """The LinkError for an exception raised while opening `port`."""
    code = getattr(e, "errno", None)
    text = str(e)
    if code == errno.ENOENT or "No such file" in text or "FileNotFoundError" in text:
        return PortMissing("port %s does not exist: is the board plugged in? "
                           "`samsara ports` lists the ports there are." % port)
    if (code in (errno.EBUSY, errno.EAGAIN, errno.EWOULDBLOCK)
            or "exclusively lock" in text or "busy" in text.lower()):
        holder = port_holder(port)
        busy = PortBusy(busy_words(port, holder))
        busy.holder = holder
        return busy
    if code == errno.EACCES or "Permission denied" in text:
        hint = ""
        if os.name == "posix":
            hint = " On Linux add yourself to the group that owns the port " \
                   "(often `dialout`: `sudo usermod -aG dialout $USER`, then log in again)."
        return PortError("no permission to open %s.%s" % (port, hint))
    if code == errno.ENOTTY or "Inappropriate ioctl" in text or (
            os.path.exists(port) and not os.path.isdir(port)
            and "Could not configure port" in text):
        return PortError("%s is no serial port (a plain file or another device): give the "
                         "board's port, `samsara ports` lists them" % port)
    if "Name or service not known" in text or "nodename nor servname" in text \
            or "getaddrinfo failed" in text:
        return PortMissing("no computer named %s is known here: check the host name "
                           "in %s" % (port.split("://", 1)[-1].rsplit(":", 1)[0], port))
    if code == errno.ECONNREFUSED or "refused" in text.lower():
        return PortMissing("nothing listens at %s: is the emulated Pico (or the network "
                           "bridge to the board) running?" % port)
    return PortError("could not open %s: %s" % (port, text))


def resolve_port(port=None, comports=None):
    """The port to use: `port` when given, else the one board found (find_board)."""
    if port:
        return port
    return find_board(comports)


# ---- the protocol client -------------------------------------------------------------

class Disconnected(LinkError):
    """The port went away while talking (board unplugged, virtual board stopped).
    `why`: the cause in the tool's words (serial_words)."""

    def __init__(self, why):
        LinkError.__init__(self, "the board went away (%s)" % why)
        self.why = why


try:
    import termios
    # pyserial's flush() calls tcdrain, which raises termios.error (not an OSError)
    # when the device is gone.
    _GONE = (serial.SerialException, OSError, termios.error)
except ImportError:  # Windows
    _GONE = (serial.SerialException, OSError)


def serial_words(e):
    """The tool's words for an exception pyserial (or the OS) raised on an open port:
    its own texts ("device reports readiness to read but returned no data ...",
    "[Errno 5] Input/output error") say nothing to a player."""
    text = str(e)
    low = text.lower()
    if "readiness to read but returned no data" in low or "disconnected" in low:
        return "the port closed: the board was unplugged or reset, or another program " \
               "took the port"
    code = getattr(e, "errno", None)
    if code in (errno.EIO, errno.ENXIO, errno.ENODEV) or "input/output error" in low:
        return "the port stopped working: the board was unplugged or reset"
    if code == errno.EBADF or "bad file descriptor" in low:
        return "the port was closed"
    return text or e.__class__.__name__


class NoReply(LinkError):
    """The board did not answer a command in time."""


def explain(e):
    """The one-line text of a LinkError `e` for the user: a board that does not answer
    (a hung loop, a REPL, no firmware) gets the pointer to `samsara doctor`."""
    if isinstance(e, NoReply):
        return "%s; `samsara doctor` finds out why" % e
    return str(e)


class BoardError(LinkError):
    """The board answered a command with ok false: `code` (docs/protocol.md error
    codes) and `msg`."""

    def __init__(self, name, code, msg):
        LinkError.__init__(self, "%s: %s (%s)" % (name, msg, code))
        self.name = name
        self.code = code
        self.msg = msg


class BoardClient:
    """Commands and events over one open serial object (docs/protocol.md).

    `request(name, **args)` sends one command line with a fresh id and returns the
    reply dict (ok true); events that arrive meanwhile are queued in `events`
    (a bounded deque) for `poll_events`.  Lines that are no JSON object (a
    MicroPython banner, a traceback) are kept in `noise` (the last 50).
    Raises Disconnected, NoReply, BoardError.
    """

    def __init__(self, ser, clock=None):
        import collections
        import time
        self.ser = ser
        self.clock = clock or time.monotonic
        self.events = collections.deque(maxlen=2000)
        self.noise = collections.deque(maxlen=50)
        self._buf = bytearray()
        self._next_id = 1

    def close(self):
        try:
            self.ser.close()
        except Exception:
            pass

    def _read_some(self):
        try:
            n = self.ser.in_waiting
            data = self.ser.read(n if n > 0 else 1)
        except _GONE as e:
            raise Disconnected(serial_words(e))
        return data

    def read_line(self, timeout):
        """The next decoded line (dict) within `timeout` seconds, else None.
        Non-JSON lines go to `noise`."""
        from samsara_host import hostproto
        deadline = self.clock() + timeout
        while True:
            i = self._buf.find(b"\n")
            while i >= 0:
                raw = bytes(self._buf[:i])
                del self._buf[:i + 1]
                obj = hostproto.decode_line(raw)
                if obj is not None:
                    return obj
                text = raw.decode("utf-8", "replace").strip()
                if text:
                    self.noise.append(text)
                i = self._buf.find(b"\n")
            if len(self._buf) > 64 * 1024:  # a board that never sends LF: keep memory bounded
                self.noise.append(self._buf[:200].decode("utf-8", "replace"))
                del self._buf[:]
            if self.clock() >= deadline:
                return None
            data = self._read_some()
            if data:
                self._buf.extend(data)

    def send(self, name, args=None, req_id=None):
        """Write one command line; returns its id."""
        from samsara_host import hostproto
        if req_id is None:
            req_id = self._next_id
            self._next_id += 1
        line = hostproto.encode_command(name, req_id, args)
        try:
            self.ser.write(line)
            self.ser.flush()
        except _GONE as e:
            raise Disconnected(serial_words(e))
        return req_id

    def request(self, name, timeout=2.0, **args):
        """Send command `name` with `args` and wait for its reply (dict with ok true).
        Raises BoardError on ok false, NoReply after `timeout` seconds."""
        rid = self.send(name, args)
        deadline = self.clock() + timeout
        while True:
            left = deadline - self.clock()
            if left <= 0:
                raise NoReply("no answer to %r within %.1f s" % (name, timeout))
            obj = self.read_line(left)
            if obj is None:
                continue
            if "ev" in obj:
                self.events.append(obj)
                continue
            if "re" not in obj:
                # Not a board line: e.g. a MicroPython REPL echoing our command.
                self.noise.append(json.dumps(obj)[:200])
                continue
            if obj.get("re") is None and "id" not in obj and obj.get("ok") is False:
                # A line-level error (bad_json, binary, ...) carries no id; we send one
                # command at a time, so it answers ours.
                raise BoardError(name, obj.get("error", "?"), obj.get("msg", ""))
            if obj.get("id") != rid or obj.get("re", name) != name:
                # a late reply to an earlier request we gave up on, or one from before
                # we connected (a port that replays what the board printed, like the
                # emulated Pico's: its ids restart at 1 too)
                continue
            if not obj.get("ok"):
                raise BoardError(name, obj.get("error", "?"), obj.get("msg", ""))
            return obj

    def poll_events(self, timeout):
        """Events received within `timeout` seconds (at least those already queued)."""
        out = list(self.events)
        self.events.clear()
        if out:
            timeout = 0
        deadline = self.clock() + timeout
        while True:
            obj = self.read_line(max(0.0, deadline - self.clock()))
            if obj is not None and "ev" in obj:
                out.append(obj)
            if obj is None or self.clock() >= deadline:
                return out


def list_logs(client, timeout=2.0):
    """Every game log on the board, oldest first, following the `logs` pages
    (docs/protocol.md: at most LOGS_PER_PAGE entries a reply, `more` while others
    follow).  Returns the last page's reply with `logs` holding them all."""
    entries = []
    after = -1
    for _page in range(10000):
        args = {"after": after} if after >= 0 else {}
        r = client.request("logs", timeout=timeout, **args)
        page = r.get("logs") or []
        entries.extend(page)
        if not r.get("more") or not page:
            break
        after = page[-1]["game"]
    r = dict(r)
    r["logs"] = entries
    return r


def check_hello(reply):
    """Raise LinkError unless a hello reply is the Samsara firmware with our
    protocol version; returns the reply."""
    from boardcore.link import protocol
    if reply.get("name") != "samsara":
        raise LinkError("the board answered hello but is not a Samsara board: %r"
                        % reply.get("name"))
    if reply.get("proto") != protocol.PROTO:
        newer = isinstance(reply.get("proto"), int) and reply["proto"] > protocol.PROTO
        raise LinkError(
            "the board speaks protocol %s, this host tool %d: %s"
            % (reply.get("proto"), protocol.PROTO,
               "update the host tool (pip install -U samsara-board)" if newer
               else "update the board's firmware with `samsara flash`"))
    return reply


class State:
    """The connection a command uses, opened on first use (like mpremote's State).

    port: a device, a pyserial URL or None (auto-detect the Pico).  `client` opens the
    port and returns a BoardClient; `close()` releases it.
    """

    def __init__(self, port=None, timeout=0.05):
        self.port = port
        self.timeout = timeout
        self._client = None

    @property
    def client(self):
        if self._client is None:
            self.port = resolve_port(self.port)
            self._client = BoardClient(open_port(self.port, timeout=self.timeout))
        return self._client

    @property
    def connected(self):
        """True once the port is open (the client was made), without opening it."""
        return self._client is not None

    def hello(self, timeout=2.0):
        """hello, checked (check_hello)."""
        return check_hello(self.client.request("hello", timeout=timeout))

    def close(self):
        if self._client is not None:
            self._client.close()
            self._client = None
