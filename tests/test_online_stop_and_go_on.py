"""Stopping a bridge and going on (docs/online.md "Stopping and going on"): `samsara
online host` stopped with SIGTERM says the same command goes on, and it does (the same
--dir and --side resume the unfinished game kept there, its code shown again; `--new`
starts a new one); the code is shown only once the board answered and the broker took
the connection.  Real `samsara` processes, a virtual board and a Mosquitto of the
test's own; without Mosquitto these tests skip, except under CI=true."""
import os
import signal
import subprocess

import onlinekit as K
from polling import within as _until
from testports import free_port

from brokerhelp import needs_mosquitto
from samsara_host.online.code import parse_code
from samsara_host.online.relay import Relay


_mosquitto = needs_mosquitto




def _host(broker, port, statedir, tmp, tag, *more):
    return K.Proc(K.samsara("online", "host", "--side", "A", "--broker", broker,
                            "--name", "Anna", "--port", port, "--dir", statedir, *more),
                  os.path.join(tmp, "host-%s.err" % tag))


def _terminate(p):
    os.kill(p.p.pid, signal.SIGTERM)
    assert p.wait(30) == 143, p.stderr()[-2000:]
    return p.stderr()


def test_a_stopped_host_goes_on_with_the_same_command_and_new_starts_a_new_game(tmp_path):
    _mosquitto()
    tmp = str(tmp_path)
    relay = Relay(port=free_port(), folder=os.path.join(tmp, "relay"))
    broker = relay.start()
    st = os.path.join(tmp, "st")
    procs = []
    try:
        va, pa = K.vboard(os.path.join(tmp, "boardA"), 41, "A", tmp)
        procs.append(va)
        h1 = _host(broker, pa, st, tmp, "1")
        procs.append(h1)
        code = h1.wait_line("code: ", 30)[len("code: "):]
        gid, _s = parse_code(code)
        assert h1.lines[0] == "code: %s" % code
        path = os.path.join(st, "game-%s.json" % gid)
        assert _until(lambda: os.path.exists(path), 20)
        err = _terminate(h1)
        assert "stopped (terminated); the game is kept: run the same command again " \
            "to go on" in err, err[-2000:]
        h2 = _host(broker, pa, st, tmp, "2")
        procs.append(h2)
        assert h2.wait_line("code: ", 30) == "code: %s" % code
        h2.wait_line("resuming game %s as A at turn 1" % gid, 30)
        _terminate(h2)
        h3 = _host(broker, pa, st, tmp, "3", "--new")
        procs.append(h3)
        other = h3.wait_line("code: ", 30)[len("code: "):]
        assert parse_code(other)[0] != gid
        assert _until(lambda: os.path.exists(
            os.path.join(st, "game-%s.json" % parse_code(other)[0])), 20)
        err = _terminate(h3)
        assert "run the same command again without --new to go on" in err, err[-2000:]
        assert not any(x.startswith("resuming") for x in h3.lines)
    finally:
        for p in reversed(procs):
            p.stop()
        relay.stop()


def test_host_shows_no_code_before_the_board_answers(tmp_path):
    r = subprocess.run(K.samsara("online", "host", "--side", "A", "--broker",
                                 "mqtt://127.0.0.1:1", "--port", str(tmp_path / "none"),
                                 "--dir", str(tmp_path / "st")),
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
                       env=dict(os.environ, PYTHONPATH=K.HOST))
    assert r.returncode == 1 and r.stdout == "", (r.stdout, r.stderr)
    assert r.stderr.startswith("samsara online: ") and "Traceback" not in r.stderr


def test_host_shows_its_code_only_once_the_broker_answers(tmp_path):
    _mosquitto()
    tmp = str(tmp_path)
    port = free_port()
    broker = "mqtt://127.0.0.1:%d" % port
    procs = []
    relay = None
    try:
        va, pa = K.vboard(os.path.join(tmp, "boardA"), 42, "A", tmp)
        procs.append(va)
        h = _host(broker, pa, os.path.join(tmp, "st"), tmp, "1")
        procs.append(h)
        assert _until(lambda: "the code is shown once it answers" in h.stderr(), 30), \
            h.stderr()
        assert not h.lines and h.alive()
        relay = Relay(port=port, folder=os.path.join(tmp, "relay"))
        relay.start()
        assert h.wait_line("code: ", 60) == h.lines[0]
    finally:
        for p in reversed(procs):
            p.stop()
        if relay is not None:
            relay.stop()
