"""Whole online games between two virtual boards over a real Mosquitto (docs/online.md):
each board's hand plays its own side and carries out the far player's turns as its
board lights them; two bridges join the boards through the broker; a spectator
follows.  Meanwhile a bridge is killed and started again, the broker is restarted, and
a stranger publishes garbage, forged and replayed messages on the game's topics.  Both
boards end with the same record, tagged with both names and the game's id, every roll
joint, and nothing forged reaches a board."""
import json
import os
import signal
import time

import paho.mqtt.client as paho
import pytest

from brokerhelp import needs_mosquitto
from samsara_host.online import wire
from samsara_host.online.code import game_key
from samsara_host.online.relay import Relay

import onlinekit as K
from testports import free_port

GAME_S = 240


_mosquitto = needs_mosquitto


class Stranger:
    """Someone else on the broker: listens to the game's topics, publishes garbage,
    messages sealed with another key, and replays of what it heard."""

    def __init__(self, port, gid):
        self.gid = gid
        self.heard = []
        c = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="stranger")
        c.on_message = lambda _c, _u, m: self.heard.append((m.topic, bytes(m.payload)))
        c.on_connect = lambda cl, *_a: cl.subscribe(wire.topic(gid, "+"), qos=1)
        c.connect("127.0.0.1", port)
        c.loop_start()
        self.c = c

    def attack(self):
        """Publish the three kinds of bad message on both sides' topics; returns how
        many were sent."""
        n = 0
        other = wire.Sealer(game_key(self.gid, "00000000"))
        for side in "AB":
            t = wire.topic(self.gid, side)
            for payload in (b"\x00\xffgarbage", b'{"v": 1, "s": 3, "n": "AAAA", "c": "x"}',
                            other.seal(t, 99, {"k": "turn", "turn": 99, "player": side,
                                               "dice": [6, 6], "move": "66 Moksha"}),
                            other.seal(t, 0, {"k": "hello", "rx": 1, "id": "x"})):
                self.c.publish(t, payload, qos=1)
                n += 1
        for t, payload in [h for h in self.heard if h[0].endswith(("/A", "/B"))][:6]:
            self.c.publish(t, payload, qos=1)          # replays of real messages
            n += 1
        return n

    def stop(self):
        self.c.loop_stop()
        self.c.disconnect()


def _turn_of(line):
    # "sent turn 12: ..." -> 12
    return int(line.split()[2].rstrip(":"))


def test_a_whole_online_game_survives_a_bridge_restart_a_broker_restart_and_a_stranger(
        tmp_path):
    _mosquitto()
    tmp = str(tmp_path)
    with Relay(port=free_port(), folder=os.path.join(tmp, "relay")) as relay, \
            K.OnlineGame(tmp, relay.url(), 11) as g:
        ha, gid = g.host, g.gid
        assert ha.wait_line("code: ", 20) == "code: %s" % g.code
        watcher = g.watch()
        jb = g.join()
        stranger = g.add(Stranger(relay.port, gid))

        # a few turns in, Ben's bridge dies and comes back
        while _turn_of(ha.wait_line("sent turn", 60)) < 3:
            pass
        jb.stop(signal.SIGKILL)
        time.sleep(1.0)
        jb2 = g.join(tag="-again")
        resumed = jb2.wait_line("resuming game %s as B" % gid, 30)
        # the stranger strikes once the new bridge has heard a turn of Anna's that its
        # file did not hold, so it is subscribed (a message published before that
        # reaches no one: nothing to drop)
        first_new = int(resumed.split()[-1])
        while int(jb2.wait_line("turn ", 90).split()[1]) < first_new:
            pass
        sent = stranger.attack()
        # a few turns on, the broker restarts
        while _turn_of(ha.wait_line("sent turn", 90)) < 7:
            pass
        relay.stop(remove=False)
        time.sleep(1.0)
        relay.start()
        stranger.attack()

        assert ha.wait(GAME_S) == 0, ha.stderr()[-3000:]
        assert jb2.wait(60) == 0, jb2.stderr()[-3000:]
        assert watcher.wait(30) == 0
        end_a = [ln for ln in ha.lines if ln.startswith("played: ")]
        end_b = [ln for ln in jb2.lines if ln.startswith("played: ")]
        assert end_a and end_a == end_b and end_a[0].endswith("turns, game over")

        ra, rb = g.record("A"), g.record("B")
        assert ra is not None and rb is not None
        assert ra.turns == rb.turns and len(ra.turns) == int(end_a[0].split()[1])
        for r, far in ((ra, "B"), (rb, "A")):
            assert (r.tags["PlayerA"], r.tags["PlayerB"]) == ("Anna", "Ben")
            assert r.tags["Online"] == gid and r.tags["Far"] == far
            assert r.tags["Result"] != "*"
        # the spectator saw every turn, in order, with joint dice
        rows = [json.loads(ln) for ln in watcher.lines if ln.startswith("{")]
        turns = [r for r in rows if "turn" in r]
        assert [t["move"] for t in turns] == ra.turns
        assert all(t["joint"] for t in turns)
        assert rows[-1].get("game_over") is True
        # every bad message was dropped with a line in a bridge's log
        drops = (ha.stderr() + jb2.stderr()).count("dropped: ")
        assert sent and drops >= sent
        for word in ("forged", "garbled", "replayed"):
            assert word in ha.stderr() + jb2.stderr()


def test_a_late_spectator_follows_a_game_whose_record_a_stranger_overwrote(tmp_path):
    """Mid-game a stranger publishes retained garbage and a forged record on the
    game's record topic, and a forged announcement: the players' bridges put theirs
    back (one line each), and a spectator who comes after that still gets the whole
    game, every turn with its joint dice."""
    _mosquitto()
    tmp = str(tmp_path)
    with Relay(port=free_port(), folder=os.path.join(tmp, "relay")) as relay, \
            K.OnlineGame(tmp, relay.url(), 41) as g:
        ha, gid = g.host, g.gid
        jb = g.join()
        while _turn_of(ha.wait_line("sent turn", 90)) < 5:
            pass
        stranger = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="stranger")
        stranger.connect("127.0.0.1", relay.port)
        stranger.loop_start()
        try:
            other = wire.Sealer(game_key(gid, "00000000"))
            rec, host = wire.topic(gid, "rec"), wire.topic(gid, "host")
            for t, payload in ((rec, b"\x00\xffgarbage"),
                               (host, other.seal(host, 0, {"k": "host", "side": "B",
                                                           "name": "Mallory"})),
                               (rec, other.seal(rec, 0, {"k": "rec", "names": {},
                                                         "turns": [], "over": True}))):
                stranger.publish(t, payload, qos=1, retain=True).wait_for_publish(10)
        finally:
            stranger.loop_stop()
            stranger.disconnect()
        watcher = g.watch()

        assert ha.wait(GAME_S) == 0, ha.stderr()[-3000:]
        assert jb.wait(60) == 0, jb.stderr()[-3000:]
        assert watcher.wait(30) == 0, watcher.stderr()[-3000:]
        ra = g.record("A")
        rows = [json.loads(ln) for ln in watcher.lines if ln.startswith("{")]
        turns = [r for r in rows if "turn" in r]
        assert ra is not None and [t["move"] for t in turns] == ra.turns
        assert all(t["joint"] for t in turns) and rows[-1].get("game_over") is True, \
            watcher.lines
        for p in (ha, jb):
            assert "record is published again" in p.stderr(), p.stderr()[-2000:]
        assert "announcement is published again" in ha.stderr()


def test_the_load_run_plays_many_games_at_once_and_counts_every_turn():
    _mosquitto()
    from samsara_host.online.load import run_load
    with Relay(port=free_port()) as relay:
        res = run_load(relay.url(), 30, turns=6, procs=2, think=(0.05, 0.2))
    assert res.ok(), res.lines()
    assert res.connected == 60 and 0 < res.sent <= 30 * 6     # (a Moksha ends a game early)
    assert len(res.latencies) == res.sent and res.lost == 0 and res.dup == 0
    text = "\n".join(res.lines())
    assert "p50" in text and "p99" in text and "lost turns: 0, duplicated turns: 0" in text


def test_online_commands_refuse_a_bad_code_broker_or_side_up_front():
    import subprocess
    for args, word in ((["online", "join", "7K3M", "--broker", "mqtt://localhost:1"], "CODE"),
                       (["online", "watch", "7K3M-Q9XD-4FJT", "--broker", "http://x"], "--broker"),
                       (["online", "host", "--side", "C", "--broker", "mqtt://h:1"], "--side"),
                       (["online", "load", "--games", "0", "--broker", "mqtt://h:1"], "--games")):
        r = subprocess.run(K.samsara(*args), capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, PYTHONPATH=K.HOST))
        assert r.returncode == 2 and word in r.stderr, (args, r.stderr)


def test_relay_prints_an_address_the_other_player_can_use_and_says_a_port_in_use(
        tmp_path):
    """`samsara relay` on every address prints `broker: mqtt://ADDRESS:N` with this
    machine's address on its network (or its name), never a placeholder, and that
    localhost works on this machine; the broker takes a connection there.  On a port
    another program listens on it says so in one line and exits 1."""
    import socket
    import subprocess
    _mosquitto()
    env = dict(os.environ, PYTHONPATH=K.HOST)
    port = free_port()
    p = subprocess.Popen(K.samsara("relay", "--port", str(port), "--dir",
                                   str(tmp_path / "relay")),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                         start_new_session=True)
    try:
        first = p.stdout.readline().strip()
        second = p.stdout.readline().strip()
        host, _, n = first[len("broker: mqtt://"):].rpartition(":")
        assert first.startswith("broker: mqtt://") and int(n) == port, first
        assert host and host != "HOST" and host not in ("0.0.0.0", "localhost"), first
        assert host in (socket.gethostname(), ) or socket.inet_aton(host)
        assert "mqtt://localhost:%d works too" % port in second, second
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
    finally:
        os.killpg(p.pid, signal.SIGTERM)
        out, err = p.communicate(timeout=20)
    assert p.returncode == 0 and "Traceback" not in err, err
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        r = subprocess.run(K.samsara("relay", "--port", str(port)), capture_output=True,
                           text=True, timeout=60, env=env)
    assert r.returncode == 1 and r.stdout == "", (r.stdout, r.stderr)
    assert r.stderr.strip().splitlines() == [
        "samsara relay: port %d is in use: another program (a broker?) listens on it; "
        "stop it, or give another port with --port" % port], r.stderr


def test_the_online_page_shows_every_public_game_with_its_board(tmp_path):
    import urllib.request
    from samsara.rules.position import START_TEXT
    from samsara_host.app.server import AppServer
    from samsara_host.online.broadcast import LiveGames
    live = LiveGames()
    live.url = "mqtt://localhost:1883"
    live.handle("samsara/v1/live/K7Q2", json.dumps({
        "game": "K7Q2", "names": {"A": "Anna", "B": "Ben"}, "position": START_TEXT,
        "turns": 3, "over": False, "last": {"turn": 3, "player": "A",
                                           "move": "53 5:S5-S10 3:S10-S13"}}).encode())
    live.handle("samsara/v1/live/W8NG", json.dumps({
        "game": "W8NG", "names": {"A": "Cleo"}, "position": START_TEXT, "turns": 0,
        "over": False, "waiting": True, "last": None}).encode())
    live.handle("samsara/v1/live/BAD1", b'{"position": "not a position"}')
    live.handle("samsara/v1/live/BAD2", b"\xff garbage")
    srv = AppServer(str(tmp_path / "logs"), online=live)
    url = srv.start(free_port())
    try:
        with urllib.request.urlopen(url + "api/online", timeout=10) as r:
            data = json.loads(r.read())
        with urllib.request.urlopen(url + "online", timeout=10) as r:
            page = r.read().decode()
    finally:
        srv.stop()
    assert data["broker"] == "mqtt://localhost:1883"
    assert [g["game"] for g in data["games"]] == ["K7Q2", "W8NG"]
    w = data["games"][1]            # hosted, nobody joined yet: listed, said to wait
    assert w["waiting"] and "(waiting for a player)" in w["svg"] and "Cleo" in w["svg"]
    g = data["games"][0]
    assert not g["waiting"]
    assert g["names"] == {"A": "Anna", "B": "Ben"} and g["turns"] == 3
    assert g["svg"].startswith("<svg") and "Anna" in g["svg"] and "53 5:S5-S10" in g["svg"]
    assert "online.js" in page


def _board_turns(folder):
    rec = K.board_record(folder)
    return [] if rec is None else list(rec.turns)


def test_a_network_that_stalls_then_goes_mid_game_resumes_the_same_game(tmp_path):
    """The fast version of the soak test below (`make test`): between the bridges and
    the broker a link that first stalls for 3 s (the data held, then delivered) and
    then goes for 6 s (every connection reset, new ones refused); both bridges say so
    in their logs, keep trying, and the game goes on at the same turn: both boards'
    records agree, no turn lost or sent twice."""
    from tcpcut import CuttableLink
    _mosquitto()
    tmp = str(tmp_path)
    with Relay(port=free_port(), folder=os.path.join(tmp, "relay")) as relay, \
            CuttableLink(free_port(taken=(relay.port,)), relay.port) as link, \
            K.OnlineGame(tmp, "mqtt://127.0.0.1:%d" % link.port, 21) as g:
        ha = g.host
        jb = g.join()
        sent = [_turn_of(ha.wait_line("sent turn", 90))]
        while sent[-1] < 3:
            sent.append(_turn_of(ha.wait_line("sent turn", 60)))
        link.pause()
        time.sleep(3)
        link.resume()
        link.cut()
        time.sleep(6)
        link.restore()
        at = sent[-1]
        while sent[-1] < at + 4:                     # two more of Anna's turns, so
            sent.append(_turn_of(ha.wait_line("sent turn", 60)))   # Ben's went through
        # each of Anna's turns sent once, in order, none skipped
        assert sent == list(range(1, sent[-1] + 1, 2)), sent
        for p in (ha, jb):
            assert "nothing listens at 127.0.0.1:%d" % link.port in p.stderr() or \
                "was lost" in p.stderr(), p.stderr()[-2000:]
        end = time.monotonic() + 30
        while True:
            ta = _board_turns(os.path.join(tmp, "boardA"))
            tb = _board_turns(os.path.join(tmp, "boardB"))
            n = min(len(ta), len(tb))
            if n >= at + 2 or time.monotonic() > end:
                break
            time.sleep(0.5)
        assert n >= at + 2 and ta[:n] == tb[:n], (ta, tb)
        assert link.accepted > 2                       # the bridges came back


@pytest.mark.soak
def test_a_network_gone_for_a_minute_resumes_the_same_game(tmp_path):
    """`make soak`: the broker unreachable for 60 s in the middle of a game (both
    bridges keep trying); the game goes on at the same turn and ends the same on both
    boards."""
    _mosquitto()
    tmp = str(tmp_path)
    with Relay(port=free_port(), folder=os.path.join(tmp, "relay")) as relay, \
            K.OnlineGame(tmp, relay.url(), 21) as g:
        ha = g.host
        jb = g.join()
        while _turn_of(ha.wait_line("sent turn", 90)) < 5:
            pass
        relay.stop(remove=False)
        time.sleep(60)
        relay.start()
        assert ha.wait(GAME_S) == 0, ha.stderr()[-3000:]
        assert jb.wait(60) == 0, jb.stderr()[-3000:]
        ra, rb = g.record("A"), g.record("B")
        assert ra is not None and ra.turns == rb.turns and ra.tags["Result"] != "*"


def test_a_resumed_bridge_logs_no_drops_and_sigterm_is_said_as_terminated(tmp_path):
    """A bridge killed mid-game and started again resumes with the other side sending
    it again what it missed: normal, so neither bridge's log says "dropped" (that
    is for messages a stranger sent); a bridge stopped with SIGTERM (a `kill`, a
    service manager) says so, not "Ctrl-C", keeps the game and exits 143."""
    _mosquitto()
    tmp = str(tmp_path)
    with Relay(port=free_port(), folder=os.path.join(tmp, "relay")) as relay, \
            K.OnlineGame(tmp, relay.url(), 31) as g:
        ha = g.host
        jb = g.join()
        while _turn_of(ha.wait_line("sent turn", 90)) < 3:
            pass
        jb.stop(signal.SIGKILL)
        jb2 = g.join(tag="-again")
        jb2.wait_line("resuming game %s as B" % g.gid, 30)
        while _turn_of(ha.wait_line("sent turn", 90)) < 7:
            pass
        for p in (ha, jb2):
            os.kill(p.p.pid, signal.SIGTERM)
        for p in (ha, jb2):
            assert p.wait(30) == 143, p.stderr()[-2000:]
            err = p.stderr()
            assert "stopped (terminated); the game is kept" in err, err[-2000:]
            assert "Ctrl-C" not in err and "dropped" not in err, err[-2000:]
