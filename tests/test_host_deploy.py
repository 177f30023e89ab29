"""`samsara deploy` against a fake MicroPython transport that checks every command
sent to the board and keeps a file system whose hashes deploy must verify.

The fake subclasses mpremote's Transport, so mpremote's own fs_writefile (the code it
really sends to a board) runs against it; only the byte-level raw REPL is replaced.
"""
import ast
import hashlib
import re

import pytest
from mpremote.transport import Transport, TransportError, TransportExecError

from samsara_host import deploy_cmd as d

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

    def __init__(self, impl=PICO_122, raw_repl=True, corrupt=(), files=None):
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
        assert command == d.CMD_RESET, "unexpected no-follow command %r" % command
        self.resets += 1
        self.in_raw_repl = False

    def close(self):
        self.closed = True

    def exec(self, command, data_consumer=None):
        assert self.in_raw_repl, "exec outside the raw REPL"
        self.commands.append(command)
        if command == d.CMD_IMPLEMENTATION:
            return (self.impl + "\r\n").encode()
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
        raise AssertionError("deploy sent an unknown command to the board: %r" % command)


FILES = [("main.py", b"import samsara.app\n" * 40),
         ("lib/samsara/rules.mpy", bytes(range(256)) * 7),
         ("lib/samsara/game.mpy", b"\x4d\x06" + b"x" * 1500),
         ("lib/board/pico.mpy", b"\x00\x01\x02'\"\\" * 100)]


def test_deploy_writes_verifies_and_resets():
    board = FakeMicroPython()
    events = []
    report = d.deploy_files(board, FILES, lambda *e: events.append(e))
    assert {p: data for p, data in FILES} == board.files
    assert board.dirs == {"lib", "lib/samsara", "lib/board"}
    assert report["written"] == [p for p, _ in FILES]
    assert report["implementation"][1] == (1, 22, 0)
    assert board.resets == 1 and board.commands[-1] == d.CMD_RESET
    # every file is hashed on the board after it is written
    for path, _data in FILES:
        i = board.commands.index("f=open(%r,'wb')\nw=f.write" % path)
        assert d.CMD_SHA256 % path in board.commands[i:]
    total = sum(len(x) for _p, x in FILES)
    assert events[0] == ("start", "", 0, total)
    assert events[-1][2] == total
    done = [e[2] for e in events]
    assert done == sorted(done)


def test_unchanged_files_are_skipped_unless_forced():
    board = FakeMicroPython(files={p: data for p, data in FILES[:2]})
    report = d.deploy_files(board, FILES, reset=False)
    assert report["skipped"] == [FILES[0][0], FILES[1][0]]
    assert report["written"] == [FILES[2][0], FILES[3][0]]
    assert board.resets == 0 and not board.in_raw_repl
    board.in_raw_repl = False
    report = d.deploy_files(board, FILES, force=True, reset=False)
    assert len(report["written"]) == len(FILES)


def test_damaged_copy_is_caught_by_the_hash():
    board = FakeMicroPython(corrupt={"lib/samsara/game.mpy"})
    with pytest.raises(d.HashMismatch, match="lib/samsara/game.mpy"):
        d.deploy_files(board, FILES)
    assert board.resets == 0


@pytest.mark.parametrize("impl,err,text", [
    ("(name='micropython', version=(1, 19, 1), _machine='Raspberry Pi Pico with RP2040')",
     d.OldMicroPython, "1.19.1"),
    ("(name='circuitpython', version=(9, 0, 0), _machine='Raspberry Pi Pico')",
     d.NoMicroPython, "circuitpython"),
    ("Traceback: something else", d.NoMicroPython, "sys.implementation"),
])
def test_wrong_or_old_micropython_is_refused_before_writing(impl, err, text):
    board = FakeMicroPython(impl=impl)
    with pytest.raises(err, match=re.escape(text)):
        d.deploy_files(board, FILES)
    assert board.files == {} and board.commands == [d.CMD_IMPLEMENTATION]


def test_no_raw_repl_means_no_micropython():
    with pytest.raises(d.NoMicroPython, match="BOOTSEL"):
        d.deploy_files(FakeMicroPython(raw_repl=False), FILES)


def test_parse_implementation_of_the_unix_port():
    text = ("(name='micropython', version=(1, 29, 0, 'preview'), _machine='linux [GCC 14.2.1]"
            " version', _mpy=2822, _build='standard', _thread='unsafe')")
    assert d.parse_implementation(text) == ("micropython", (1, 29, 0),
                                            "linux [GCC 14.2.1] version")


def test_bundle_files_and_parent_dirs(tmp_path):
    (tmp_path / "lib" / "samsara").mkdir(parents=True)
    (tmp_path / "main.py").write_bytes(b"1")
    (tmp_path / "lib" / "samsara" / "a.mpy").write_bytes(b"2")
    files = d.bundle_files(str(tmp_path))
    assert files == [("lib/samsara/a.mpy", b"2"), ("main.py", b"1")]
    assert d.parent_dirs([p for p, _ in files]) == ["lib", "lib/samsara"]
    with pytest.raises(d.DeployError, match="no firmware bundle"):
        d.bundle_files(str(tmp_path / "missing"))
