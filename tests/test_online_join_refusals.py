"""Joining or watching a game that cannot be joined or watched says what is wrong and
what to do, and stops (docs/online.md "When a game cannot be joined"): a wrong secret,
a game id nobody announced (after saying at once what it waits for), a game already
over on the broker, a game file of a game that ended, and a third player with the code
of a game that has its two.  No broker: the bridge's and the spectator's connection
is a queue the test fills."""
import queue

import pytest

from samsara_host.online import bridge as br
from samsara_host.online import peer as pr
from samsara_host.online import wire
from samsara_host.online.code import game_key, parse_code
from samsara_host.online.watch import WatchError, watch

CODE = "7K3M-Q9XD-4FJT"
WRONG = "7K3M-Q9XD-4FJV"        # the same game id, another secret


class FakeBroker:
    def url(self):
        return "mqtt://club.example:1883"


class FakeConn:
    """A connection whose inbox the test fills; what is published is kept."""

    def __init__(self, msgs=()):
        self.inbox = queue.Queue()
        for m in msgs:
            self.inbox.put(m)
        self.broker = FakeBroker()
        self.published = []
        self.refused = None
        self.trouble = None

    def publish(self, topic, payload, retain=False, expire_s=None):
        self.published.append((topic, payload, retain))

    def stop(self):
        pass


class Clock:
    """Five seconds pass at each look."""

    def __init__(self):
        self.t = 0.0

    def __call__(self):
        self.t += 5.0
        return self.t


def sealer(code=CODE):
    gid, secret = parse_code(code)
    return gid, wire.Sealer(game_key(gid, secret))


def announcement(code=CODE, side="A", name="Anna", **more):
    gid, s = sealer(code)
    t = wire.topic(gid, "host")
    return t, s.seal(t, 0, dict({"k": "host", "side": side, "name": name}, **more))


def joiner(tmp_path, msgs, code=CODE):
    said = []
    conn = FakeConn(msgs)
    b = br.Bridge(None, lambda subs: conn, code, name="Ben", folder=str(tmp_path),
                  say=said.append, log=said.append, clock=Clock())
    return b, said, conn


def test_a_wrong_secret_says_so_at_once(tmp_path):
    b, said, _ = joiner(tmp_path, [announcement()], code=WRONG)
    with pytest.raises(br.BridgeError) as e:
        b._start_peer(br.WAIT_HOST_S)
    assert "secret" in str(e.value) and "wrong" in str(e.value)
    assert said[0].startswith("waiting for game 7K3M to be announced on "
                              "mqtt://club.example:1883")


def test_an_unknown_game_says_what_it_waits_for_then_gives_up(tmp_path):
    b, said, _ = joiner(tmp_path, [])
    with pytest.raises(br.BridgeError) as e:
        b._start_peer(br.WAIT_HOST_S)
    assert said == ["waiting for game 7K3M to be announced on mqtt://club.example:1883 "
                    "(at most 30 s)"]
    assert "no game 7K3M was announced" in str(e.value) and "code" in str(e.value)


def test_a_game_already_over_cannot_be_joined(tmp_path):
    gid, s = sealer()
    t = wire.topic(gid, "rec")
    rec = s.seal(t, 0, {"k": "rec", "names": {"A": "Anna", "B": "Ben"},
                        "turns": [{"turn": 1}] * 32, "over": True})
    b, said, _ = joiner(tmp_path, [(t, rec)])
    with pytest.raises(br.BridgeError) as e:
        b._start_peer(br.WAIT_HOST_S)
    assert "is over (32 turns)" in str(e.value) and "watch" in str(e.value)


def test_the_file_of_an_ended_game_does_not_resume(tmp_path):
    gid, _s = sealer()
    st = pr.new_state(gid, "B", "Ben")
    st["ended"] = True
    pr.save_state(str(tmp_path / ("game-%s.json" % gid)), st)
    b, said, _ = joiner(tmp_path, [announcement()])
    with pytest.raises(br.BridgeError) as e:
        b._start_peer(br.WAIT_HOST_S)
    assert "is over" in str(e.value) and "samsara online host" in str(e.value)
    assert not any(x.startswith("resuming") for x in said)



def test_the_file_of_a_game_over_in_its_record_does_not_resume():
    # (a file kept before the game's end was marked in it: the record is over and the
    # board carried out every far turn)
    import random
    import tempfile
    from test_online_peer import Bus, _play
    for _ in range(20):
        bus = Bus("7K3M")
        bus.sealer = sealer()[1]
        for pe in bus.sides.values():
            pe.sealer = bus.sealer
        _play(bus, 300, random.Random(4))
        st = bus.sides["B"].st
        if st["turns"][-1]["player"] == "B":      # nothing left for B's board
            break
    assert bus.sides["B"].game.over() and "ended" not in st
    with tempfile.TemporaryDirectory() as d:
        pr.save_state(d + "/game-7K3M.json", st)
        b, said, _ = joiner(d, [])
        with pytest.raises(br.BridgeError) as e:
            b._start_peer(br.WAIT_HOST_S)
    assert "is over (%d turns" % len(st["turns"]) in str(e.value)


def _watch(msgs, code=CODE):
    logged, shown = [], []
    conn = FakeConn(msgs)
    with pytest.raises(WatchError) as e:
        watch(code, lambda subs: conn, out=shown.append, clock=Clock(), log=logged.append)
    return str(e.value), logged, shown


def test_a_spectator_of_an_unknown_game_says_so_and_stops():
    why, logged, shown = _watch([])
    assert logged == ["waiting for game 7K3M to be announced on mqtt://club.example:1883 "
                      "(at most 60 s)"]
    assert why.startswith("no game 7K3M on mqtt://club.example:1883 within 60 s") \
        and not shown


def test_a_spectator_with_a_wrong_secret_says_so_and_stops():
    why, logged, shown = _watch([announcement()], code=WRONG)
    assert "secret" in why and "wrong" in why and not shown
    assert any("forged" in x for x in logged)


def test_a_third_player_with_the_code_is_refused_before_it_sends_anything(tmp_path):
    b, said, conn = joiner(tmp_path, [announcement(guest_id="0123abcd", guest="Ben")])
    with pytest.raises(br.BridgeError) as e:
        b._start_peer(br.WAIT_HOST_S)
    assert "already has its two players (Anna as A, Ben as B)" in str(e.value)
    assert not conn.published and not (tmp_path / "game-7K3M.json").exists()


def test_the_host_announces_its_second_player_and_refuses_a_third():
    import random
    from test_online_peer import Bus, _play
    bus = Bus()
    a, b = bus.sides["A"], bus.sides["B"]
    a.hello()
    b.hello()
    bus.deliver()
    _play(bus, 6, random.Random(1))
    assert a.st["far_id"] == b.st["me"] and b.st["far_id"] == a.st["me"]
    before = (dict(a.st["names"]), a.st["rx"], list(a.st["turns"]))
    nb = len(bus.logs["B"])
    third = pr.Peer(bus.sealer, pr.new_state("AB12", "B", "Cleo"), bus._pub,
                    bus.logs["B"].append)
    third.hello()
    while bus.sent:                         # the third's hello reaches A (and B)
        t, p = bus.sent.pop(0)
        a.handle(t, p)
    assert "a third player (Cleo) tried to play B: refused" in bus.logs["A"][-1]
    assert (a.st["names"], a.st["rx"], a.st["turns"]) == before
    assert len(bus.logs["B"]) == nb          # nothing resent to B: no "replayed" burst
    _play(bus, 2, random.Random(2))          # the two go on
    assert a.st["turns"] == b.st["turns"] and len(a.st["turns"]) == 8


def test_a_wrong_secret_with_the_games_file_is_refused_before_connecting(tmp_path):
    # (the file of game 7K3M joined with the right code; the same id, another secret)
    b, said, conn = joiner(tmp_path, [announcement()])
    b._start_peer(br.WAIT_HOST_S)
    path = tmp_path / "game-7K3M.json"
    kept = path.read_bytes()
    assert pr.load_state(str(path))["code"] == CODE
    connected = []
    with pytest.raises(br.BridgeError) as e:
        br.Bridge(None, connected.append, WRONG, name="Ben", folder=str(tmp_path),
                  say=said.append, log=said.append, clock=Clock())
    assert "the secret (the last 8 characters) is wrong" in str(e.value)
    assert "ask the host to read the code again" in str(e.value)
    assert not connected and path.read_bytes() == kept
    assert not any(x.startswith("resuming") for x in said[2:])
    with pytest.raises(br.BridgeError) as e:           # the host's --code too
        br.Bridge(None, connected.append, WRONG, side="B", folder=str(tmp_path))
    assert "is wrong" in str(e.value) and not connected


def test_the_one_who_joins_logs_each_message_it_drops_on_any_topic_of_the_game(tmp_path):
    gid, _s = sealer()
    _g, stranger = sealer(WRONG)
    ta, tb, th = (wire.topic(gid, w) for w in ("A", "B", "host"))
    junk = [stranger.seal(ta, 3, {"k": "turn"}), b"\x00\xff\x10", b'{"v":2}']
    # while it waits for the host (a stranger's retained junk on the host's side's topic)
    b, said, conn = joiner(tmp_path, [(ta, p) for p in junk] + [announcement()])
    b._start_peer(br.WAIT_HOST_S)
    drops = [x for x in said if x.startswith("dropped: ")]
    assert len(drops) == 3 and all(x.endswith("(on %s)" % ta) for x in drops), said
    # in the game: on the host's side's topic, the announcement's and its own
    del said[:]
    for t in (ta, th, tb):
        for p in junk + [b"x" * 20000]:
            conn.inbox.put((t, p))
    conn.inbox.put((tb, b.sealer.seal(tb, 0, {"k": "hello"})))    # its own
    b._messages()
    drops = [x for x in said if x.startswith("dropped: ")]
    assert len(drops) == 12, said
    for t in (ta, th, tb):
        assert sum(x.endswith("(on %s)" % t) for x in drops) == 4
    long = [x for x in drops if "too long" in x]
    assert len(long) == 3 and all(x.count("samsara/v1/7K3M/") == 1 for x in long), long


def test_a_kept_game_the_board_left_says_how_to_start_a_new_one(tmp_path):
    gid, _s = sealer()
    st = pr.new_state(gid, "A", "Anna")
    st.update(code=CODE, role="host", board_game=5)
    st["names"]["B"] = "Ben"
    pr.save_state(str(tmp_path / ("game-%s.json" % gid)), st)
    assert br.kept_game(str(tmp_path), "A") == CODE and br.kept_game(str(tmp_path), "B") is None
    said = []
    b = br.Bridge(None, lambda subs: FakeConn(), CODE, side="A", folder=str(tmp_path),
                  say=said.append, log=said.append, clock=Clock())
    b._start_peer(br.WAIT_HOST_S)
    assert said[0] == "resuming game 7K3M as A at turn 1"
    b.bs = {"state": "moving", "game": 9, "mover": "A", "dice": [], "turn": "",
            "turns": 0, "record": [], "position": ""}
    with pytest.raises(br.BridgeError) as e:
        b.reconcile()
    assert "not in game 7K3M any more (its game is 9)" in str(e.value)
    assert "`samsara online host --new ...` starts a new game" in str(e.value)
