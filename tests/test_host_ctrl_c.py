"""Ctrl-C (SIGINT to the command's process) in `logs pull`, `demo` and `monitor`
prints one line that says what was kept (issue 10 §1); `deploy`'s is in
tests/test_host_deploy.py.  `monitor --seconds 0` stops without Ctrl-C."""
import os
import pty
import select
import signal
import subprocess
import sys
import time

from fakeboard import FakeBoard
from loghelp import game_log

SAMSARA = os.path.join(os.path.dirname(sys.executable), "samsara")


def _interrupt(cmd, after, **kw):
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         **kw)
    time.sleep(after)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    return p.returncode, out, err


def test_ctrl_c_in_logs_pull_keeps_the_part_file(tmp_path):
    board = FakeBoard(str(tmp_path), {1: game_log(3)[0]})
    slow = board.cmd_log_get

    def cmd_log_get(*a, **k):
        time.sleep(0.15)
        return slow(*a, **k)

    board.cmd_log_get = cmd_log_get
    dest = str(tmp_path / "logs")
    try:
        rc, out, err = _interrupt([SAMSARA, "logs", "pull", "--port", board.port,
                                   "--dest", dest], 3.0)
    finally:
        board.unplug()
    part = os.path.join(dest, "fake-1", "game-0001.log.part")
    assert rc == 130, (out, err)
    assert os.path.getsize(part) > 0
    lines = [l for l in err.splitlines() if l.strip()]
    assert len(lines) == 1 and part in lines[0] and "kept" in lines[0], err
    assert "Traceback" not in err
    assert board.acks == []


def test_ctrl_c_in_monitor_says_it_keeps_nothing(tmp_path):
    board = FakeBoard(str(tmp_path))
    try:
        rc, out, err = _interrupt([SAMSARA, "monitor", "--port", board.port, "--plain"], 3.0)
    finally:
        board.unplug()
    lines = [l for l in err.splitlines() if l.strip()]
    assert rc == 130 and len(lines) == 1 and "keeps nothing" in lines[0], err


def test_monitor_seconds_0_stops_once_the_state_is_shown_without_ctrl_c(tmp_path):
    # --seconds 0 was taken for "no --seconds": the monitor ran until Ctrl-C
    board = FakeBoard(str(tmp_path))
    try:
        t0 = time.monotonic()
        r = subprocess.run([SAMSARA, "monitor", "--port", board.port, "--plain",
                            "--seconds", "0"], capture_output=True, text=True, timeout=30)
    finally:
        board.unplug()
    assert r.returncode == 0, r.stderr
    assert "Samsara board fake-1" in r.stdout, r.stdout
    assert time.monotonic() - t0 < 20 and "Traceback" not in r.stderr


def test_ctrl_c_in_demo_keeps_the_partial_trace(tmp_path):
    master, slave = pty.openpty()     # a terminal: the live demo, not the fast one
    env = dict(os.environ, COLUMNS="100", LINES="40", TERM="xterm")
    out_dir = str(tmp_path / "demo")
    p = subprocess.Popen([SAMSARA, "demo", "--out", out_dir, "--duration", "60"],
                         stdin=slave, stdout=slave, stderr=slave, env=env)
    os.close(slave)
    buf = bytearray()
    deadline = time.monotonic() + 8
    while time.monotonic() < deadline:
        r, _w, _x = select.select([master], [], [], 0.1)
        if r:
            try:
                buf.extend(os.read(master, 65536))
            except OSError:
                break
    p.send_signal(signal.SIGINT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        r, _w, _x = select.select([master], [], [], 0.1)
        if r:
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            buf.extend(data)
        elif p.poll() is not None:
            break
    p.wait(10)
    os.close(master)
    text = buf.decode("utf-8", "replace")
    path = os.path.join(out_dir, "demo-seed10-partial.jsonl")
    assert p.returncode == 130, text[-2000:]
    assert "partial game's trace is kept" in text and os.path.exists(path), text[-2000:]
    assert "Traceback" not in text


def test_ctrl_c_in_a_commands_first_second_is_one_line():
    """Ctrl-C while the tool still loads its modules (the first moments of a command)
    is the same one line as later on, never a traceback."""
    for after in (0.15, 0.3, 0.6, 0.9):
        rc, out, err = _interrupt([SAMSARA, "engine", "match", "device", "greedy",
                                   "--games", "400"], after)
        lines = [l for l in err.splitlines() if l.strip()]
        assert rc == 130 and len(lines) == 1, (after, rc, err)
        assert "stopped (Ctrl-C)" in lines[0] and "Traceback" not in err
