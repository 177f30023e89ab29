"""`samsara doctor`: each failure it must name, with what to do.

The board is a pty fake speaking the protocol (tests/fakeboard.py), a port that
answers nothing, a fake MicroPython REPL (tests/fakempy.py), and the real `micropython`
Unix port behind a pseudo-terminal (tests/ptyrelay.py).
"""
import os
import shutil
import sys

import pytest
import serial

from fakeboard import FakeBoard
from fakempy import FakeMicroPython
from samsara_host import boardlink, doctor_cmd as dr

UPY = os.path.join(os.path.dirname(sys.executable), "micropython")


class Port:
    """A pyserial ListPortInfo-like record."""

    def __init__(self, device, vid=None, pid=None, description=""):
        self.device = device
        self.vid = vid
        self.pid = pid
        self.serial_number = None
        self.description = description


def problem(findings):
    fails = [f for f in findings if f.level == dr.FAIL]
    assert fails, findings
    return fails[-1]


def test_no_board_found_names_other_ports_and_what_to_do():
    f = problem(dr.diagnose(comports=[Port("/dev/ttyUSB0", 0x10C4, 0xEA60)]))
    assert "no board found" in f.what and "/dev/ttyUSB0 (10C4:EA60)" in f.what
    assert "data cable" in f.todo and "RPI-RP2" in f.todo and "--port" in f.todo


def test_two_boards_ask_for_a_port():
    f = problem(dr.diagnose(comports=[Port("/dev/ttyACM0", 0x2E8A, 5),
                                      Port("/dev/ttyACM1", 0x2E8A, 5)]))
    assert "2 boards" in f.what and "--port" in f.todo


def test_missing_port():
    f = problem(dr.diagnose("/dev/samsara-no-such-port"))
    assert "does not exist" in f.todo


def test_busy_port(tmp_path):
    board = FakeBoard(str(tmp_path))
    holder = serial.serial_for_url(board.port, exclusive=True)  # another program has it
    try:
        f = problem(dr.diagnose(board.port))
        assert "busy" in f.what
        if os.path.exists("/proc/locks"):
            # the holder named from the system's lock list: this test's own process
            assert "(process %d) holds it" % os.getpid() in f.todo, f.todo
            assert "close it and try again" in f.todo
        else:
            # the usual holders; the app is the likeliest once a newcomer started it
            assert "another program" in f.todo
            assert "`samsara app`" in f.todo and "live page" in f.todo
    finally:
        holder.close()
        board.unplug()


def test_a_healthy_board(tmp_path):
    board = FakeBoard(str(tmp_path))
    try:
        found = dr.diagnose(board.port)
    finally:
        board.unplug()
    assert all(f.level == dr.OK for f in found), found
    assert "fake-1" in found[1].what
    lines = []
    assert dr.report(found, lines.append) == 0 and lines[-1].startswith("All good")


def test_full_log_says_pull(tmp_path):
    board = FakeBoard(str(tmp_path))
    board.cmd_status = lambda args: ({"state": "idle", "log": {"full": True}, "loop": {}}, [])
    try:
        f = problem(dr.diagnose(board.port))
    finally:
        board.unplug()
    assert "log is full" in f.what and "samsara logs pull" in f.todo


def test_a_board_in_repair_is_not_all_good(tmp_path):
    # status says `repair`: the doctor names it and what to do, never "All good" (exit 1)
    board = FakeBoard(str(tmp_path))
    healthy = board.cmd_status

    def in_repair(args):
        st, ev = healthy(args)
        return dict(st, state="repair"), ev
    board.cmd_status = in_repair
    try:
        found = dr.diagnose(board.port)
    finally:
        board.unplug()
    f = problem(found)
    assert "in repair" in f.what and board.position in f.what
    assert "LEDs" in f.todo and "white" in f.todo and "red" in f.todo
    assert "samsara monitor" in f.todo
    lines = []
    assert dr.report(found, lines.append) == 1
    assert not any(line.startswith("All good") for line in lines)


def test_protocol_mismatch_says_which_side_to_update(tmp_path):
    board = FakeBoard(str(tmp_path))
    old = board.cmd_hello
    board.cmd_hello = lambda args: (dict(old(args)[0], proto=0), [])
    try:
        f = problem(dr.diagnose(board.port))
    finally:
        board.unplug()
    assert "samsara flash" in f.todo


# -- no answer to hello: the REPL steps on a fake transport ---------------------------

def _silent_port(tmp_path):
    """A port where nothing answers hello (the fake board with hello removed)."""
    board = FakeBoard(str(tmp_path))
    board.handle = lambda line: []
    return board


@pytest.mark.parametrize("fake,what,todo", [
    (FakeMicroPython(raw_repl=False), "neither the Samsara firmware nor a MicroPython",
     "BOOTSEL"),
    (FakeMicroPython(impl="(name='micropython', version=(1, 20, 0), _machine='Pico')"),
     "too old", "1.22 or later"),
    (FakeMicroPython(), "firmware missing", "samsara deploy"),
    (FakeMicroPython(files={"main.py": b"", "samsara/rules/moves.mpy": b""}, loads=False),
     "does not load", "deploy --force"),
    (FakeMicroPython(files={"main.py": b"", "samsara/rules/moves.mpy": b""},
                     loop_error="Traceback...\nOSError: [Errno 5] EIO"),
     "loop stops at once: OSError", "deploy --force"),
])
def test_repl_findings(tmp_path, fake, what, todo):
    board = _silent_port(tmp_path)
    if not fake.raw_repl:
        # a port that talks, but neither protocol nor REPL (a silent one hangs:
        # tests/test_host_hung.py)
        board.handle = lambda line: [{"garbage": 1}]
    try:
        found = dr.diagnose(board.port, transport_factory=lambda port: fake,
                            hello_timeout=0.3)
    finally:
        board.unplug()
    assert "does not answer hello" in found[0].what
    f = problem(found)
    assert what in f.what and todo in f.todo
    assert fake.closed


def test_board_in_the_repl_gets_its_loop_restarted(tmp_path):
    fake = FakeMicroPython(files={"main.py": b"", "samsara/rules/moves.mpy": b""})
    board = _silent_port(tmp_path)
    hello = board.cmd_hello

    def factory(port):
        board.handle = FakeBoard.handle.__get__(board)  # the loop answers once restarted
        board.cmd_hello = hello
        return fake

    try:
        found = dr.diagnose(board.port, transport_factory=factory, hello_timeout=0.3)
    finally:
        board.unplug()
    assert fake.restarts == 1
    assert found[-1].level == dr.OK and "restarted" in found[-1].what


@pytest.mark.skipif(not os.path.exists(UPY), reason="micropython Unix port not installed")
def test_real_micropython_without_firmware(tmp_path):
    from ptyrelay import PtyProcess
    cwd = tmp_path / "flash"
    cwd.mkdir()
    proc = PtyProcess([UPY], str(tmp_path), cwd=str(cwd))
    try:
        found = dr.diagnose(proc.port, hello_timeout=0.5)
    finally:
        proc.close()
    assert any(f.level == dr.OK and f.what.startswith("MicroPython 1.") for f in found)
    f = problem(found)
    assert "firmware missing" in f.what and "samsara deploy" in f.todo


@pytest.mark.parametrize("argv, words", [
    (["--self-test", "--holes", "R1,Z9"], "'Z9' is no hole of the board"),
    (["--self-test", "--holes", "R1,,R2"], "'' is no hole of the board"),
    (["--self-test", "--holes", "r1"], "'r1' is no hole of the board"),
    (["--self-test", "--holes", ""], "--holes is empty"),
    (["--sensors", "--self-test"], "give one of them"),
    (["--svg", "x.svg"], "--svg is for --sensors"),
    (["--sensors", "--holes", "R1"], "--holes is for --self-test"),
    (["--sensors", "--svg", "/nonexistent/x.svg"], "--svg: no folder /nonexistent"),
    (["--sensors", "--svg", "/"], "--svg / is a folder; name a file"),
    (["--sensors", "--svg", " "], "--svg is empty"),
    (["--svg", ""], "--svg is for --sensors"),
])
def test_bad_sensor_options_are_refused_before_the_port_opens(capsys, argv, words):
    # a bad hole name used to light the holes before it and wait 15 s at each,
    # and --self-test beside --sensors was silently dropped
    from samsara_host import cli
    args = cli.build_parser().parse_args(["doctor", "--port", "/dev/no-such-port"] + argv)
    assert dr.run(args) == 2
    err = capsys.readouterr().err
    assert words in err
    assert "does not exist" not in err


@pytest.mark.parametrize("mode", [["--sensors"], ["--self-test", "--holes", "R1"]])
def test_sensor_checks_without_a_board_say_so_on_stderr(capsys, mode):
    # the connection error of --sensors / --self-test went to stdout, where a script
    # reading the map or the results took it for output
    from samsara_host import cli
    args = cli.build_parser().parse_args(["doctor", "--port", "/dev/samsara-no-such-port"] + mode)
    assert dr.run(args) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("samsara doctor: ") and "does not exist" in err


@pytest.mark.parametrize("value", ["0", "-3", "nan", "inf", "-inf", "1e400", "x"])
def test_a_hole_timeout_that_is_no_time_is_refused(capsys, value):
    # -3 and 0 failed every hole at once, nan, inf and 1e400 waited at a hole forever
    from samsara_host import cli
    with pytest.raises(SystemExit) as e:
        cli.main(["doctor", "--port", "/dev/samsara-no-such-port", "--self-test",
                  "--holes", "R1", "--hole-timeout=" + value])
    err = capsys.readouterr().err
    assert e.value.code == 2, err
    assert "--hole-timeout" in err and "above 0" in err, err
    assert "does not exist" not in err
