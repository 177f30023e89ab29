"""`samsara app` as a command: what it leaves behind when stopped with Ctrl-C."""
import os
import signal
import subprocess
import sys

import pytest

from samsara_host.virtual_board import find_micropython

try:
    find_micropython()
    HAVE_UPY = True
except FileNotFoundError:
    HAVE_UPY = False

SAMSARA = os.path.join(os.path.dirname(sys.executable), "samsara")


@pytest.mark.skipif(not HAVE_UPY, reason="micropython Unix port not installed")
def test_ctrl_c_removes_the_virtual_boards_temporary_folder(tmp_path):
    # each `samsara app --virtual` used to leave a samsara-app-vb-* folder behind
    p = subprocess.Popen([SAMSARA, "app", "--virtual", "--idle", "--no-browser",
                          "--http-port", "0", "--logs", str(tmp_path / "lib")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    folder = None
    try:
        for _ in range(3):
            line = p.stdout.readline()
            if line.startswith("virtual board: "):
                folder = line.rsplit("(folder ", 1)[1].rstrip(")\n")
                break
        assert folder and os.path.isdir(folder), line + p.stderr.read()
    finally:
        p.send_signal(signal.SIGINT)
        try:
            _out, err = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            _out, err = p.communicate(timeout=5)
    assert p.returncode == 0, err
    assert "Traceback" not in err, err
    assert not os.path.exists(folder)


def test_a_second_ctrl_c_while_stopping_is_no_traceback(tmp_path, monkeypatch):
    # A second Ctrl-C landing while the handlers change made signal.signal raise
    # "OSError: Signal 2 ignored due to race condition" (seen with a double Ctrl-C).
    import webbrowser
    from samsara_host import cli
    from samsara_host.app import cmd

    def ctrl_c(_url):
        raise KeyboardInterrupt
    monkeypatch.setattr(webbrowser, "open", ctrl_c)
    real = signal.signal
    calls = []

    def racy(signum, handler):
        if handler is not getattr(cmd, "_interrupt"):
            calls.append(signum)
            if len(calls) == 2:
                raise OSError("Signal 2 ignored due to race condition")
        return real(signum, handler)
    monkeypatch.setattr(signal, "signal", racy)
    saved = {n: signal.getsignal(getattr(signal, n)) for n in ("SIGINT", "SIGTERM", "SIGHUP")}
    try:
        args = cli.build_parser().parse_args(
            ["app", "--no-board", "--http-port", "0", "--logs", str(tmp_path / "lib")])
        assert cmd.cmd_app(args) == 0
    finally:
        for n, h in saved.items():
            real(getattr(signal, n), h)
    assert len(calls) == 3


@pytest.mark.parametrize("argv, words", [
    (["--virtual", "--turns", "-2"], "1 or more"),
    (["--virtual", "--turns", "0"], "1 or more"),
    (["--virtual", "--idle", "--turns", "3"], "--turns is for --virtual without --idle"),
    (["--no-board", "--turns", "3"], "--turns is for --virtual without --idle"),
])
def test_bad_turns_are_refused(tmp_path, capsys, argv, words):
    # --turns -2 used to start the app and play "0 turns"; with --idle it was ignored
    from samsara_host import cli
    with pytest.raises(SystemExit) as e:
        rc = cli.main(["app", "--no-browser", "--http-port", "0",
                       "--logs", str(tmp_path / "lib")] + argv)
        raise SystemExit(rc)
    assert e.value.code == 2
    assert words in capsys.readouterr().err
    assert not os.path.exists(str(tmp_path / "lib"))
