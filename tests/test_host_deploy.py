"""`samsara deploy` against a fake MicroPython transport (tests/fakempy.py) that checks
every command sent to the board and keeps a file system whose hashes deploy must
verify."""
import re

import pytest

from fakempy import FakeMicroPython
from samsara_host import deploy_cmd as d

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


def test_bundle_hash_ignores_the_version_module():
    a = d.bundle_hash(FILES)
    assert len(a) == 12
    assert d.bundle_hash(FILES + [(d.VERSION_MPY, b"anything")]) == a
    assert d.bundle_hash(FILES[:-1] + [(FILES[-1][0], b"changed")]) != a


# -- the command: the port first, then the build, then progress once copying starts ----

class Args:
    port = None
    bundle = None
    no_build = False
    force = False
    no_reset = True
    remove = False


def _args(**kw):
    a = Args()
    a.__dict__.update(kw)
    return a


def test_an_unknown_port_url_is_a_clean_error(capsys):
    assert d.run(_args(port="bogus://x", no_build=True)) == 1
    err = capsys.readouterr().err
    assert "could not open bogus://x" in err and "Traceback" not in err
    from samsara_host import boardlink
    with pytest.raises(boardlink.PortError, match="could not open"):
        d.open_transport("bogus://x")


def test_the_port_is_checked_before_the_bundle_is_built(monkeypatch, capsys):
    def build(*_a, **_k):
        raise AssertionError("built the firmware for a port that does not exist")

    monkeypatch.setattr(d, "build_bundle", build)
    assert d.run(_args(port="/dev/samsara-no-such-port")) == 1
    captured = capsys.readouterr()
    assert "does not exist" in captured.err and "Building" not in captured.out


def test_no_progress_line_before_the_board_answers(monkeypatch, capsys, tmp_path):
    (tmp_path / "main.py").write_text("x = 1\n")
    monkeypatch.setattr(d, "open_transport", lambda port: FakeMicroPython(raw_repl=False))
    assert d.run(_args(port="loop://", bundle=str(tmp_path), no_build=True)) == 1
    captured = capsys.readouterr()
    assert "no raw REPL" in captured.err
    assert "copy" not in captured.out and "/6 bytes" not in captured.out
    # with a board that answers, the bar shows the copy
    board = FakeMicroPython()
    monkeypatch.setattr(d, "open_transport", lambda port: board)
    assert d.run(_args(port="loop://", bundle=str(tmp_path), no_build=True)) == 0
    out = capsys.readouterr().out
    assert "verified main.py" in out and "1 written and verified" in out


def test_deploy_says_it_runs_over_the_image_and_remove_takes_only_the_bundle_off(
        monkeypatch, capsys, tmp_path):
    bundle = [("main.py", b"from mainloop import main\n"), ("boot.py", b"pass\n"),
              ("mainloop.mpy", b"M" * 300), ("samsara/core.mpy", b"C" * 700),
              ("samsara/rules/moves.mpy", b"R" * 500), ("board/leds.mpy", b"L" * 200)]
    for path, data in bundle:
        (tmp_path / "b" / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "b" / path).write_bytes(data)
    board = FakeMicroPython(image=("image", "0123456789ab"),
                            files={"logs/g0001.log": b"a game", "hallcal.txt": b"cal"})
    monkeypatch.setattr(d, "open_transport", lambda port: board)
    assert d.run(_args(port="loop://", bundle=str(tmp_path / "b"), no_build=True)) == 0
    out = capsys.readouterr().out
    assert "over its firmware image 0123456789ab" in out
    assert "`samsara deploy --remove` returns it to the image" in out
    assert set(p for p, _d in bundle) <= set(board.files)
    assert d.run(_args(port="loop://", remove=True)) == 0
    out = capsys.readouterr().out
    assert "Removed 4 files of the development bundle (game logs untouched)" in out
    assert sorted(board.files) == ["boot.py", "hallcal.txt", "logs/g0001.log", "main.py"]
    assert board.commands[-1] == d.CMD_RESET
    # a board without an image (stock MicroPython) is told how to get one
    plain = FakeMicroPython()
    monkeypatch.setattr(d, "open_transport", lambda port: plain)
    assert d.run(_args(port="loop://", bundle=_bundle(tmp_path), no_build=True)) == 0
    assert "`samsara flash` puts one on" in capsys.readouterr().out


# -- a deploy cut short (issue 10 §1) ---------------------------------------------------

class _Cut(FakeMicroPython):
    """A board that goes away (or a user who presses Ctrl-C) at the n-th file write."""

    def __init__(self, at, exc, **kw):
        FakeMicroPython.__init__(self, **kw)
        self.at = at
        self.exc = exc
        self.opens = 0

    def exec(self, command, data_consumer=None):
        if command.startswith("f=open(") and command.endswith(",'wb')\nw=f.write") \
                and d.MANIFEST not in command:
            self.opens += 1
            if self.opens == self.at:
                raise self.exc
        return FakeMicroPython.exec(self, command, data_consumer)


def _bundle(tmp_path):
    for path, data in FILES:
        p = tmp_path / "bundle" / path
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    return str(tmp_path / "bundle")


def test_board_unplugged_mid_deploy_says_what_happened_in_our_words(monkeypatch, capsys,
                                                                     tmp_path):
    import serial
    board = _Cut(3, serial.SerialException(
        "device reports readiness to read but returned no data (device disconnected or "
        "multiple access on port?)"))
    monkeypatch.setattr(d, "open_transport", lambda port: board)
    assert d.run(_args(port="loop://", bundle=_bundle(tmp_path), no_build=True)) == 1
    err = capsys.readouterr().err.replace("\n", " ")
    assert "readiness" not in err and "Traceback" not in err, err
    assert "went away" in err and "2 of 4 files" in err, err
    assert "  while copying" not in err, err  # one space, no stray blank
    assert "left in the REPL" in err and "run `samsara deploy` again" in err, err


def test_ctrl_c_mid_deploy_says_what_was_kept(monkeypatch, capsys, tmp_path):
    board = _Cut(2, KeyboardInterrupt())
    monkeypatch.setattr(d, "open_transport", lambda port: board)
    assert d.run(_args(port="loop://", bundle=_bundle(tmp_path), no_build=True)) == 130
    err = capsys.readouterr().err.replace("\n", " ")
    assert "interrupted" in err and "1 of 4 files" in err and "samsara deploy" in err, err


def test_doctor_after_a_cut_deploy_reports_the_half_copied_firmware(tmp_path):
    from fakeboard import FakeBoard
    from samsara_host import doctor_cmd as dr
    fake = _Cut(3, OSError(5, "Input/output error"))
    with pytest.raises(OSError):
        d.deploy_files(fake, [("main.py", b"new main\n"), ("samsara/a.mpy", b"new a"),
                              ("samsara/b.mpy", b"new b")])
    fake.at = None
    fake.files["samsara/b.mpy"] = b"old b"        # the file not yet copied: the old one
    silent = FakeBoard(str(tmp_path))
    silent.handle = lambda line: []
    try:
        found = dr.diagnose(silent.port, transport_factory=lambda port: fake,
                            hello_timeout=0.3)
    finally:
        silent.unplug()
    fails = [f for f in found if f.level == dr.FAIL]
    assert fails, found
    assert "half-copied" in fails[-1].what and "hash" in fails[-1].what, fails[-1].what
    assert "samsara deploy" in fails[-1].todo
    assert dr.report(found, write=lambda s: None) == 1


def test_remove_knows_every_package_a_bundle_can_put_on_the_board():
    # `deploy --remove` takes off the folders of BUNDLE_TOPS: every package folder under
    # firmware/ (Samsara's bundle and the other games' bundles alike), so that none is
    # left to shadow the image's frozen modules.
    import os
    fw = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware")
    packages = sorted(n for n in os.listdir(fw)
                      if os.path.isfile(os.path.join(fw, n, "__init__.py")))
    assert "boardcore" in packages and "samsara" in packages
    assert sorted(d.BUNDLE_TOPS) == packages
    # the image's version is read past the file system: the package above it is popped
    assert "m.pop('boardcore',None)" in d.CMD_IMAGE and "'samsara'" not in d.CMD_IMAGE
