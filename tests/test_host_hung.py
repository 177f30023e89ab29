"""A hung board (issue 10 §1): its process alive, its loop dead (the virtual board's
`micropython` stopped with SIGSTOP).  `monitor` says so within a few seconds and
`doctor` says to unplug it, never "flash MicroPython"."""
import os
import signal
import threading
import time

import pytest

from samsara_host import cli, doctor_cmd
from samsara_host.virtual_board import VirtualBoard, find_micropython

try:
    find_micropython()
    HAVE_UPY = True
except FileNotFoundError:
    HAVE_UPY = False

pytestmark = pytest.mark.skipif(not HAVE_UPY, reason="micropython Unix port not installed")


@pytest.fixture
def vb(tmp_path):
    vb = VirtualBoard(folder=str(tmp_path / "vb"), board_id="hung-1", settle=(5, 10))
    vb.start()
    vb.wait_ready(30)
    yield vb
    try:
        os.kill(vb.proc.pid, signal.SIGCONT)
    except OSError:
        pass
    vb.stop()


def test_monitor_reports_a_hung_board_within_a_few_seconds(vb, capsys):
    stopped = []

    def hang():
        stopped.append(time.monotonic())
        os.kill(vb.proc.pid, signal.SIGSTOP)

    threading.Timer(1.0, hang).start()
    t0 = time.monotonic()
    assert cli.main(["monitor", "--port", vb.port, "--plain", "--seconds", "6"]) == 0
    out = capsys.readouterr().out
    assert stopped and time.monotonic() - t0 < 12
    assert "does not answer" in out and "unplug it and plug it in again" in out, out


def test_doctor_says_unplug_a_hung_board(vb):
    os.kill(vb.proc.pid, signal.SIGSTOP)
    found = doctor_cmd.diagnose(vb.port, hello_timeout=1.0)
    fails = [f for f in found if f.level == doctor_cmd.FAIL]
    assert fails, found
    text = fails[-1].what + " " + fails[-1].todo
    assert "does not answer" in text and "unplug it and plug it in again" in text, text
    assert "MicroPython" not in fails[-1].todo, fails[-1].todo


@pytest.mark.parametrize("cmd", [["logs", "list"], ["logs", "pull"]])
def test_logs_on_a_hung_board_say_what_to_do(vb, tmp_path, capsys, cmd):
    os.kill(vb.proc.pid, signal.SIGSTOP)
    extra = ["--dest", str(tmp_path / "logs")] if cmd[1] == "pull" else []
    assert cli.main(cmd + ["--port", vb.port] + extra) == 1
    err = capsys.readouterr().err
    assert "no answer" in err and "samsara doctor" in err, err
