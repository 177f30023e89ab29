"""A stranger's message in the place of a game's retained record or announcement
(docs/online.md "Retained messages"): the players' bridges publish theirs again (at
once, then no more often than bridge.GUARD_MIN_S, doubling), and a spectator or the one
who joins waits past it for the next one that opens.  No broker: the connections are
queues the test fills."""
import random

from samsara_host.online import bridge as br
from samsara_host.online import peer as pr
from samsara_host.online import wire
from samsara_host.online.code import game_key
from samsara_host.online.watch import watch

from test_online_join_refusals import CODE, FakeConn, announcement, sealer
from test_online_peer import Bus, _play


class StepClock:
    """A clock the test moves."""

    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def _host_bridge(tmp_path, clock):
    conn = FakeConn()
    said = []
    b = br.Bridge(None, lambda subs: conn, CODE, side="A", name="Anna",
                  folder=str(tmp_path), say=said.append, log=said.append, clock=clock)
    gid, s = sealer()
    b.peer = pr.Peer(s, pr.new_state(gid, "A", "Anna"), b._publish, b.log, b._save)
    b._announced = None
    return b, conn, said


def _published(conn, what):
    return [p for t, p, retain in conn.published if t.endswith("/" + what) and retain]


def test_a_bridge_puts_back_a_record_or_announcement_a_stranger_overwrote(tmp_path):
    clock = StepClock()
    b, conn, said = _host_bridge(tmp_path, clock)
    gid, s = sealer()
    rec = wire.topic(gid, "rec")
    stranger = wire.Sealer(game_key(gid, "00000000"))
    # its own record and announcement, and an authentic record, pass
    conn.inbox.put(b.peer.record_message())
    conn.inbox.put(announcement())
    b._messages()
    assert not _published(conn, "rec") and not _published(conn, "host") and not said
    # garbage, a forgery, an empty one: each one line; the record published again
    for bad in (b"garbage", stranger.seal(rec, 0, {"k": "rec", "turns": []}), b""):
        conn.inbox.put((rec, bad))
    conn.inbox.put(announcement(code="7K3M-Q9XD-4FJV"))      # another secret's
    b._messages()
    assert len(said) == 4 and all(x.startswith("dropped: ") for x in said), said
    assert "forged" in said[1] and "garbled" in said[0] and "cleared" in said[2]
    assert "record is published again" in said[0]
    assert "announcement is published again" in said[3]
    assert len(_published(conn, "rec")) == 1 and len(_published(conn, "host")) == 1
    t, payload = rec, _published(conn, "rec")[0]
    assert s.open(t, payload)[1]["k"] == "rec"
    # a stranger who goes on is answered no more often than GUARD_MIN_S, doubling
    times = []
    for _ in range(40):
        clock.t += 0.25
        conn.inbox.put((rec, b"garbage"))
        n = len(_published(conn, "rec"))
        b._messages()
        if len(_published(conn, "rec")) > n:
            times.append(clock.t)
    gaps = [round(y - x, 2) for x, y in zip(times, times[1:])]
    assert times and all(g >= br.GUARD_MIN_S for g in gaps) and gaps == sorted(gaps), gaps
    assert "published again in " in said[-1]


def test_an_older_record_is_put_back_quietly():
    bus = Bus("7K3M")
    bus.sealer = sealer()[1]
    for pe in bus.sides.values():
        pe.sealer = bus.sealer
    a = bus.sides["A"]
    _play(bus, 2, random.Random(9))
    old = a.record_message()
    _play(bus, 2, random.Random(10))
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        b, conn, said = _host_bridge(d, StepClock())
        b.peer = pr.Peer(bus.sealer, a.st, b._publish, b.log, b._save)
        conn.inbox.put(old)                       # a replay of an older record
        b._messages()
    assert not said and len(_published(conn, "rec")) == 1
    assert len(bus.sealer.open(*[(t, p) for t, p, r in conn.published
                                 if t.endswith("/rec")][0])[1]["turns"]) == 4


def test_a_spectator_waits_past_a_strangers_record_for_the_next_one_that_opens():
    bus = Bus("7K3M")
    bus.sealer = sealer()[1]
    for pe in bus.sides.values():
        pe.sealer = bus.sealer
    rng = random.Random(11)
    for _ in range(30):
        _play(bus, 300, rng)
        if bus.sides["A"].game.over():
            break
        bus = Bus("7K3M")
        bus.sealer = sealer()[1]
        for pe in bus.sides.values():
            pe.sealer = bus.sealer
    a = bus.sides["A"]
    assert a.game.over()
    gid, _s = sealer()
    rec = wire.topic(gid, "rec")
    forged = wire.Sealer(game_key(gid, "00000000")).seal(rec, 0, {"k": "rec", "turns": []})
    conn = FakeConn([(rec, forged), (rec, b"garbage"), a.record_message()])
    shown, logged = [], []
    assert watch(CODE, lambda subs: conn, out=shown.append, as_json=True, clock=StepClock(),
                 log=logged.append) is True
    import json
    rows = [json.loads(x) for x in shown]
    assert [r["turn"] for r in rows[:-1]] == list(range(1, len(a.st["turns"]) + 1))
    assert rows[-1]["game_over"] and all(r["joint"] for r in rows[:-1])
    assert sum(x.startswith("dropped: ") for x in logged) == 2
