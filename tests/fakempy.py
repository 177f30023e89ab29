"""A fake MicroPython board at the level of mpremote's Transport (tests of deploy and
doctor): a dict file system and a closed set of commands, so an unexpected command
fails the test.  It subclasses mpremote's Transport, so mpremote's own fs_writefile (the
code it really sends to a board) runs against it; only the byte-level raw REPL is
replaced."""
import ast
import hashlib
import re

from mpremote.transport import Transport, TransportError, TransportExecError

from samsara_host import deploy_cmd as d
from samsara_host import doctor_cmd

PICO_122 = ("(name='micropython', version=(1, 22, 0, ''), "
            "_machine='Raspberry Pi Pico with RP2040', _mpy=4870)")


def _pattern(template):
    return re.compile("^" + re.escape(template).replace("%r", "(.+?)") + "$", re.S)


class FakeMicroPython(Transport):
    """A board in the raw REPL: a dict file system and a closed set of commands.

    impl: what sys.implementation prints.  raw_repl: False for a port that is no
    MicroPython.  corrupt: paths whose writes get one byte flipped on the board.
    Every exec is logged in `commands`; an unknown command fails the test.
    """

    def __init__(self, impl=PICO_122, raw_repl=True, corrupt=(), files=None, loads=True,
                 loop_error=None, image=None):
        self.impl = impl
        self.raw_repl = raw_repl
        self.corrupt = set(corrupt)
        self.files = dict(files or {})
        self.dirs = set()
        self.commands = []
        self.in_raw_repl = False
        self.resets = 0
        self.closed = False
        self._open = None  # (path, bytearray) while mpremote writes a file
        self.loads = loads            # the firmware imports on this MicroPython
        self.loop_error = loop_error  # traceback text when main.run() fails at once
        self.restarts = 0
        self.image = image            # (kind, hash) frozen into the flash, or None

    # -- raw REPL --------------------------------------------------------------
    def enter_raw_repl(self, soft_reset=True, timeout_overall=10):
        assert soft_reset is False, "deploy must not soft-reset (the virtual board hangs)"
        if not self.raw_repl:
            raise TransportError("could not enter raw repl")
        self.in_raw_repl = True

    def exit_raw_repl(self):
        self.in_raw_repl = False

    def exec_raw_no_follow(self, command):
        assert self.in_raw_repl
        self.commands.append(command)
        if command == doctor_cmd.CMD_RESTART:
            self.restarts += 1
            return
        assert command == d.CMD_RESET, "unexpected no-follow command %r" % command
        self.resets += 1
        self.in_raw_repl = False

    def follow(self, timeout, data_consumer=None):
        assert self.restarts, "follow without a running command"
        if self.loop_error is None:
            raise TransportError("timeout waiting for first EOF reception")
        return b"", self.loop_error.encode()

    def close(self):
        self.closed = True

    def exec(self, command, data_consumer=None):
        assert self.in_raw_repl, "exec outside the raw REPL"
        self.commands.append(command)
        if command == d.CMD_IMPLEMENTATION:
            return (self.impl + "\r\n").encode()
        if command == d.CMD_IMAGE:
            return (("%s %s" % self.image) if self.image else "none").encode() + b"\r\n"
        if command == d.CMD_REMOVE_BUNDLE:
            gone = [p for p in self.files if p.split("/")[0] in d.BUNDLE_TOPS
                    or ("/" not in p and p.endswith(".mpy")) or p == d.MANIFEST]
            for p in gone:
                del self.files[p]
            return b"%d\r\n" % len(gone)
        m = _pattern(d.CMD_MKDIR).match(command)
        if m:
            path = ast.literal_eval(m.group(1))
            parent = path.rsplit("/", 1)[0] if "/" in path else ""
            assert parent == "" or parent in self.dirs, "mkdir %s before its parent" % path
            self.dirs.add(path)
            return b""
        m = _pattern(d.CMD_SHA256).match(command)
        if m:
            path = ast.literal_eval(m.group(1))
            if path not in self.files:
                return b"-\r\n"
            return (hashlib.sha256(self.files[path]).hexdigest() + "\r\n").encode()
        # mpremote's Transport.fs_writefile
        m = re.fullmatch(r"f=open\((.+),'wb'\)\nw=f.write", command)
        if m:
            path = ast.literal_eval(m.group(1))
            parent = path.rsplit("/", 1)[0] if "/" in path else ""
            if parent and parent not in self.dirs:
                raise TransportExecError(b"", "OSError: [Errno 2] ENOENT")
            self._open = (path, bytearray())
            return b""
        m = re.fullmatch(r"w\((b'.*'|b\".*\")\)", command, re.S)
        if m:
            assert self._open is not None
            self._open[1].extend(ast.literal_eval(m.group(1)))
            return b""
        if command == "f.close()":
            path, data = self._open
            if path in self.corrupt and data:
                data[len(data) // 2] ^= 0x01
            self.files[path] = bytes(data)
            self._open = None
            return b""
        if command == d.CMD_READ_MANIFEST:
            if d.MANIFEST not in self.files:
                return b"-\r\n"
            return self.files[d.MANIFEST] + b"\r\n"
        if command == d.CMD_REMOVE_MANIFEST:
            self.files.pop(d.MANIFEST, None)
            return b""
        if command == doctor_cmd.CMD_FILES:
            def there(n):
                return n in self.files or any(f.startswith(n + "/") for f in self.files)
            return "".join("%s\r\n" % (n if there(n) else "-" + n)
                           for n in ("main.py", "samsara")).encode()
        if command == doctor_cmd.CMD_IMPORT:
            if self.loads:
                return b"V 0.1.0 abc123\r\n"
            return b"E ValueError incompatible .mpy file\r\n"
        raise AssertionError("the host sent an unknown command to the board: %r" % command)
