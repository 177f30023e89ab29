"""The virtual board process (issue 5 §4): firmware/main.py with simulated drivers under
the `micropython` command behind a pseudo-terminal, spoken to through pyserial exactly
like a Pico; killed at random moments while a game is played over the protocol and
restarted on the same folder; the REPL hand-over with mpremote and the restart."""
import os
import random
import subprocess
import sys
import time

import pytest
import serial

from boardcore.storage import gamelog as G
from samsara import states
from boardcore.storage import logrecord as LR
from boardcore.link import protocol as P
from samsara.rules import moves as rules
from samsara.frame import from_position, to_hex as _hex
from samsara.rules.geometry import position_index, position_name, GS, GR
from samsara.rules.position import Position
from samsara_host.boardlink import BoardClient, BoardError
from samsara_host.sim.player import goal_steps
from samsara_host.virtual_board import VirtualBoard, find_micropython

KILLS = int(os.environ.get("SAMSARA_VBOARD_KILLS", "10"))
SETTLE = (8, 30)          # fast settle times for the virtual board (ms)
WAIT = 0.09               # s between feed changes: the settle time plus a few scans
PAUSE = 0.45              # s a person pauses after a turn: past mainloop.QUIET_MS


def _client(vb):
    return BoardClient(serial.Serial(vb.port, timeout=0.05))


class Player:
    """Plays over the protocol and the feed file, one natural action per step()."""

    def __init__(self, vb, client, rng):
        self.vb = vb
        self.c = client
        self.rng = rng

    def req(self, name, **kw):
        return self.c.request(name, timeout=3.0, **kw)

    def put_right(self):
        pos = Position.parse(self.req("position")["position"])
        self.vb.feed({"frame": _hex(from_position(pos))})
        time.sleep(WAIT)

    def step(self):
        st = self.req("status")
        state = st["state"]
        if state in (states.GAME_OVER, states.MOKSHA):
            try:
                self.req("new_game")
            except BoardError as e:
                assert e.code == "log_full"
            self.put_right()
        elif state in (states.WAITING, states.TURN_COMPLETE):
            if state == states.TURN_COMPLETE:
                # a person looks at the board before rolling: the quiet moment in which
                # the board writes the turn's records (no command writes them)
                time.sleep(PAUSE)
            self.req("set_dice", dice=[self.rng.randint(1, 6), self.rng.randint(1, 6)])
            try:
                self.req("roll")
            except BoardError:
                self.put_right()   # not settled yet / a marble in the air
        elif state == states.MOVING and st["remaining"]:
            p = Position.parse(self.req("position")["position"])
            subs = rules.completable_sub_moves(p.r, p.s, p.a, p.b, p.mover,
                                               tuple(st["remaining"]), -1, rules.OWNER_SCORES)
            if not subs:
                self.put_right()
                return
            m = subs[self.rng.randrange(len(subs))]
            self.vb.feed({"pos": position_name(m[1]), "on": False})
            time.sleep(WAIT)
            self.vb.feed({"pos": position_name(m[2]), "on": True})
            time.sleep(WAIT)
            if m[2] in (GS, GR):
                lines = []
                for frm, to in goal_steps(m, p.a, p.b):
                    lines += [{"pos": position_name(frm), "on": False},
                              {"pos": position_name(to), "on": True}]
                self.vb.feed(*lines)
                time.sleep(WAIT)
        else:
            self.put_right()


def _finished(client):
    out = {}
    after = -1
    while True:
        page = client.request("logs", timeout=3.0, after=after)
        for e in page["logs"]:
            if e["state"] != "running":
                out[e["game"]] = (e["size"], e["crc"])
        if not page["more"] or not page["logs"]:
            return out, page
        after = page["logs"][-1]["game"]


def _pull(client, game):
    data = bytearray()
    while True:
        r = client.request("log_get", timeout=3.0, game=game, offset=len(data))
        chunk = P.b64decode(r["data"])
        assert P.crc_hex(P.crc16(chunk)) == r["crc"]
        data.extend(chunk)
        if r["eof"]:
            return bytes(data)


@pytest.fixture
def vboard(tmp_path):
    vb = VirtualBoard(folder=str(tmp_path / "vb"), board_id="vtest", settle=SETTLE,
                      dice="host")
    vb.start()
    vb.wait_ready(30)
    yield vb
    vb.stop()


def test_hello_and_boot_over_a_serial_port(vboard):
    cl = _client(vboard)
    r = cl.request("hello", timeout=3.0)
    assert r["proto"] == P.PROTO and r["board"] == "vtest" and r["name"] == "samsara"
    st = cl.request("status", timeout=3.0)
    assert st["state"] == states.WAITING and st["game"] == 1
    assert st["loop"]["period_ms"] <= 5
    s = cl.request("sensors", timeout=3.0)
    assert s["raw"] == s["settled"] and len(s["on"]) == 14   # 12 marbles + 2 pieces
    cl.request("led_test", timeout=3.0, ms=200)
    with pytest.raises(BoardError) as e:
        cl.request("calibrate", timeout=3.0, step="start")
    assert e.value.code == "not_supported"
    cl.close()


def test_killed_at_random_moments_resumes_and_loses_nothing(vboard):
    rng = random.Random(77)
    cl = _client(vboard)
    pl = Player(vboard, cl, rng)
    resumed = 0
    for k in range(KILLS):
        finished, _ = _finished(cl)
        game = cl.request("status", timeout=3.0)["game"]
        deadline = time.monotonic() + rng.uniform(0.4, 2.0)
        while time.monotonic() < deadline:
            pl.step()
        # Let it write for a random few ms more, then cut the power.
        vboard.feed({"pos": "R24", "on": bool(rng.random() < 0.5)})
        time.sleep(rng.uniform(0, 0.05))
        vboard.kill()
        cl.close()
        vboard.start()
        vboard.wait_ready(30)
        cl = _client(vboard)
        pl.c = cl
        evs = cl.poll_events(0.3)
        after, _ = _finished(cl)
        for g, v in finished.items():
            assert after.get(g) == v, "game %d changed or lost after kill %d" % (g, k)
        st = cl.request("status", timeout=3.0)
        if st["game"] == game:
            # the same game goes on (its boot/resume events went out before the host
            # reopened the port, as with a Pico that resets)
            resumed += 1
        assert evs is not None
        pl.put_right()
    assert resumed >= 1
    finished, page = _finished(cl)
    games = sorted(set(finished) | {cl.request("status", timeout=3.0)["game"]} - {None})
    turns = 0
    for g in games:
        ok, msg, rp = LR.verify(_pull(cl, g))
        assert ok, (g, msg)
        turns += len(rp.turns)
    print("virtual board: %d kills, %d resumed, %d games, %d turns logged"
          % (KILLS, resumed, len(games), turns))
    assert turns >= KILLS // 2
    cl.close()


def test_ctrl_c_hands_the_port_to_mpremote_and_the_loop_restarts(vboard):
    cl = _client(vboard)
    cl.request("hello", timeout=3.0)
    cl.close()
    mp = os.path.join(os.path.dirname(sys.executable), "mpremote")
    r = subprocess.run([mp, "connect", vboard.port, "resume", "exec",
                        "import os; print(sorted(os.listdir('logs')))"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "g000001.run" in r.stdout
    r = subprocess.run([mp, "connect", vboard.port, "resume", "exec", "--no-follow",
                        "import main; main.main()"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    cl = _client(vboard)
    deadline = time.monotonic() + 20
    while True:
        try:
            h = cl.request("hello", timeout=1.0)
            break
        except Exception:
            assert time.monotonic() < deadline
    assert h["board"] == "vtest"
    assert cl.request("status", timeout=3.0)["game"] == 1   # the same game, resumed
    cl.close()


def _log_events(vb):
    path = os.path.join(vb.folder, "logs", "g000001.run")
    with open(path, "rb") as f:
        return [LR.record_event(t, b) for t, b in LR.parse_records(f.read())[0]]


def test_ctrl_c_prints_no_traceback_and_writes_the_waiting_records(vboard):
    # A sub-move placed, then a marble lifted: its record waits for a quiet moment
    # (never while a marble is in the air); the Ctrl-C writes it (mainloop.main) and the
    # virtual drivers' NoWatchdog has feed_in_background like the firmware's.
    cl = _client(vboard)
    cl.request("set_dice", timeout=3.0, dice=[3, 1])
    cl.request("roll", timeout=3.0)
    st = cl.request("status", timeout=3.0)
    p = Position.parse(cl.request("position", timeout=3.0)["position"])
    subs = rules.completable_sub_moves(p.r, p.s, p.a, p.b, p.mover,
                                       tuple(st["remaining"]), -1, rules.OWNER_SCORES)
    m = [x for x in subs if x[0] == 3][0]
    m2 = [x for x in subs if x[0] == 1 and x[1] != m[1]][0]
    vboard.feed({"pos": position_name(m[1]), "on": False})
    time.sleep(WAIT)
    vboard.feed({"pos": position_name(m[2]), "on": True})
    time.sleep(WAIT)
    vboard.feed({"pos": position_name(m2[1]), "on": False})
    time.sleep(2 * WAIT)
    assert not [e for e in _log_events(vboard) if e["ev"] == "sub"]   # still waiting
    cl.close()
    ser = serial.Serial(vboard.port, timeout=0.1)
    ser.reset_input_buffer()
    ser.write(b"\x03")
    out = b""
    deadline = time.monotonic() + 20
    while b">>> " not in out and time.monotonic() < deadline:
        out += ser.read(4096)
    ser.close()
    text = out.decode("utf-8", "replace")
    assert ">>> " in text, text
    assert "Traceback" not in text and "Error" not in text, text
    subs_logged = [e["move"] for e in _log_events(vboard) if e["ev"] == "sub"]
    assert len(subs_logged) == 1, subs_logged


def test_idle_stdio_poll_allocates_nothing_on_micropython(tmp_path):
    """StdioStream (the Pico's and the virtual board's port) polls an idle port with no
    allocation, checked under heap_lock with stdin a pseudo-terminal."""
    import pty
    import tty
    script = tmp_path / "idle.py"
    script.write_text(
        "import micropython\n"
        "from boardcore.link.hostlink import StdioStream\n"
        "s = StdioStream()\n"
        "buf = bytearray(300)\n"
        "n = 0\n"
        "def run():\n"
        "    k = 0\n"
        "    for i in range(500):\n"
        "        k += s.read_into(buf, 0, 128)\n"
        "    return k\n"
        "run()\n"
        "micropython.heap_lock()\n"
        "n = run()\n"
        "micropython.heap_unlock()\n"
        "print('idle ok', n)\n")
    master, slave = os.openpty()
    tty.setraw(slave)
    fw = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware")
    r = subprocess.run([find_micropython(), str(script)], stdin=slave, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, env=dict(os.environ, MICROPYPATH=fw), timeout=60)
    os.close(master)
    os.close(slave)
    assert b"idle ok 0" in r.stdout, r.stdout


def _children(pid):
    path = "/proc/%d/task/%d/children" % (pid, pid)
    with open(path) as f:
        return [int(x) for x in f.read().split()]


def _running(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="needs Linux /proc")
def test_sigterm_stops_the_launcher_like_ctrl_c(tmp_path):
    """`python -m samsara_host.virtual_board` stopped with SIGTERM leaves neither its
    micropython child nor (without FOLDER) its temporary folder behind."""
    import shutil
    import signal
    env = dict(os.environ, TMPDIR=str(tmp_path))  # its temporary folder goes in here
    p = subprocess.Popen([sys.executable, "-m", "samsara_host.virtual_board"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    kids = []
    folder = None
    try:
        line = p.stdout.readline()
        assert line.startswith("port: "), line + p.stderr.read()
        line = p.stdout.readline()
        folder = line.rsplit("folder: ", 1)[1].rstrip("\n")
        assert os.path.isdir(folder) and folder.startswith(str(tmp_path))
        deadline = time.monotonic() + 10
        while not kids and time.monotonic() < deadline:
            kids = _children(p.pid)
            time.sleep(0.05)
        assert kids and all(_running(k) for k in kids)
        p.send_signal(signal.SIGTERM)
        assert p.wait(15) == 0
        deadline = time.monotonic() + 5
        while any(_running(k) for k in kids) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(_running(k) for k in kids), "micropython left running"
        assert not os.path.exists(folder), "temporary folder left behind"
    finally:
        for k in kids:  # never leave an orphan, even when the test fails
            if _running(k):
                os.kill(k, signal.SIGKILL)
        if p.poll() is None:
            p.kill()
            p.wait(5)
        if folder:
            shutil.rmtree(folder, ignore_errors=True)


def test_sensed_is_what_the_board_reads_from_the_feed(vboard):
    # VirtualBoard.sensed (the app's hand decides lift or place from it) replays the
    # feed file over the start set up: a goal, a scoring track field and a whole frame
    # too, a half-written line left for later; it names what the board's own sensors
    # report (the `sensors` command's settled `on` list).
    start = {position_name(p) for p in range(64)
             if from_position(Position())[p >> 3] >> (p & 7) & 1}
    assert vboard.sensed() == start
    vboard.feed({"pos": "R1", "on": False}, {"pos": "GS", "on": True},
                {"pos": "GR", "on": True}, {"pos": "A0", "on": False},
                {"pos": "A1", "on": True}, {"button": "roll"})
    want = (start - {"R1", "A0"}) | {"GS", "GR", "A1"}
    assert vboard.sensed() == want
    with open(vboard.feed_path, "a") as f:
        f.write('{"pos": "R2", "on": fal')          # being written: not read yet
    assert vboard.sensed() == want
    with open(vboard.feed_path, "a") as f:
        f.write('se}\n')
    want -= {"R2"}
    assert vboard.sensed() == want
    client = _client(vboard)
    try:
        deadline = time.monotonic() + 5
        while True:
            on = set(client.request("sensors")["on"])
            if on == want or time.monotonic() > deadline:
                break
            time.sleep(WAIT)
        assert on == want
        frame = bytearray(8)
        for p in (0, 24, position_index("A2"), position_index("B3")):
            frame[p >> 3] |= 1 << (p & 7)
        vboard.feed({"frame": _hex(frame)})
        assert vboard.sensed() == {"R1", "S1", "A2", "B3"}
    finally:
        client.close()
