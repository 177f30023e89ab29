"""The online game's messages without a broker (samsara_host.online: code, wire, peer):
codes read as typed, sealed messages open only with the game's key on their own
topic, the joint dice follow from both commits and reveals, and a side takes each
numbered message once, in order: garbage, forgeries, replays and messages out of
order are dropped with one log line and change nothing."""
import random

import pytest

from samsara_host.online import peer as pr
from samsara_host.online import wire
from samsara_host.online.code import CodeError, game_key, new_code, parse_code


def test_a_code_reads_as_typed_and_a_bad_one_says_why():
    code = new_code(random.Random(4))
    gid, secret = parse_code(code)
    assert len(gid) == 4 and len(secret) == 8 and code == "%s-%s-%s" % (gid, secret[:4],
                                                                       secret[4:])
    assert parse_code(code.lower().replace("-", " ")) == (gid, secret)
    assert parse_code("oi1l-0000-0000") == ("0111", "00000000")
    for bad, words in (("7K3M-Q9XD", "12 characters"), ("7K3M-Q9XD-4FJU", "U"),
                       ("", "12 characters")):
        with pytest.raises(CodeError) as e:
            parse_code(bad)
        assert words in str(e.value)


def test_a_sealed_message_opens_only_with_its_key_on_its_topic():
    key = game_key("AB12", "SECRET00", rounds=10)
    s = wire.Sealer(key)
    t = wire.topic("AB12", "A")
    p = s.seal(t, 5, {"k": "turn", "turn": 3})
    assert s.open(t, p) == (5, {"k": "turn", "turn": 3})
    cases = [(wire.topic("AB12", "B"), p, "forged"),                  # moved to B's topic
             (t, p.replace(b'"s":5', b'"s":6'), "forged"),           # renumbered
             (t, wire.Sealer(game_key("AB12", "SECRET01", rounds=10)).seal(t, 5, {"k": "x"}),
              "forged"),                                              # another key
             (t, b"\x00garbage", "garbled"), (t, b"{}", "garbled"), (t, b"x" * 20000, "too long")]
    for tpc, payload, word in cases:
        with pytest.raises(wire.Unreadable) as e:
            s.open(tpc, payload)
        assert str(e.value).startswith(word)


def test_the_dice_are_the_same_for_both_and_spread_evenly():
    seen = {}
    for k in range(1, 3001):
        ra, rb = ("%064x" % (k * 7919)), ("%064x" % (k * 104729))
        d = pr.joint_dice("AB12", k, ra, rb)
        assert d == pr.joint_dice("AB12", k, ra, rb)
        assert all(1 <= x <= 6 for x in d)
        seen[d[0]] = seen.get(d[0], 0) + 1
    assert len(seen) == 6 and min(seen.values()) > 400


class Bus:
    """Both sides on one in-memory broker: what one publishes reaches the other."""

    def __init__(self, gid="AB12"):
        self.sealer = wire.Sealer(game_key(gid, "SECRET00", rounds=10))
        self.sent = []
        self.logs = {"A": [], "B": []}
        self.sides = {}
        for side in "AB":
            self.sides[side] = pr.Peer(self.sealer, pr.new_state(gid, side, "n" + side),
                                       self._pub, self.logs[side].append)

    def _pub(self, topic, payload, retain):
        self.sent.append((topic, payload))

    def deliver(self):
        while self.sent:
            t, p = self.sent.pop(0)
            for pe in self.sides.values():
                pe.handle(t, p)

    def settle(self):
        for _ in range(10):
            for pe in self.sides.values():
                pe.step()
            self.deliver()


def _play(bus, n, rng):
    for _ in range(n):
        bus.settle()
        a = bus.sides["A"]
        mover = bus.sides[a.mover()]
        k = mover.next_turn()
        d = mover.dice(k)
        assert d is not None and d == bus.sides[pr.other(mover.side)].dice(k)
        legal = mover.game.legal_turns(*d)
        note = rng.choice(legal)[0] if legal else "%d%d Moksha" % (max(d), min(d))
        assert mover.near_turn(k, note) is None
        bus.deliver()
        if a.game.over():
            break


def test_two_sides_agree_turn_by_turn_and_each_turn_keeps_its_joint_proof():
    bus = Bus()
    _play(bus, 12, random.Random(2))
    a, b = bus.sides["A"], bus.sides["B"]
    assert a.st["turns"] == b.st["turns"] and len(a.st["turns"]) == 12
    for t in a.st["turns"]:
        (ca, ra), (cb, rb) = t["joint"]["A"], t["joint"]["B"]
        assert sorted(pr.joint_dice("AB12", t["turn"], ra, rb)) == sorted(t["dice"])
    assert not bus.logs["A"] and not bus.logs["B"]
    # a side may not play out of turn, nor a turn its dice do not allow
    assert a.near_turn(a.next_turn() + 1, "53 Moksha") is not None


def test_garbage_forgeries_replays_and_gaps_are_dropped_with_one_line_each():
    bus = Bus()
    heard = []
    orig = bus._pub

    def pub(topic, payload, retain):
        heard.append((topic, payload))
        orig(topic, payload, retain)
    for pe in bus.sides.values():
        pe.publish = pub
    _play(bus, 4, random.Random(3))
    a = bus.sides["A"]
    before = (list(a.st["turns"]), a.st["rx"])
    b_topic = wire.topic("AB12", "B")
    old = [p for t, p in heard if t == b_topic]
    bad = [b"garbage", wire.Sealer(game_key("AB12", "SECRET01", rounds=10)).seal(
        b_topic, a.st["rx"], {"k": "turn", "turn": 5, "player": "B", "dice": [6, 6],
                              "move": "66 Moksha"})] + old[:3]
    n0 = len(bus.logs["A"])
    for p in bad:
        assert a.handle(b_topic, p) is False
    lines = bus.logs["A"][n0:]
    assert len(lines) == len(bad)
    assert "garbled" in lines[0] and "forged" in lines[1]
    assert all("replayed" in ln for ln in lines[2:])
    assert (a.st["turns"], a.st["rx"]) == before
    # a message from the future is out of order: dropped, and a sync asks for the gap
    b = bus.sides["B"]
    nxt = bus.sealer.seal(b_topic, a.st["rx"] + 1, {"k": "done", "turn": 1})
    bus.sent.clear()
    assert a.handle(b_topic, nxt) is False
    assert "out of order" in bus.logs["A"][-1]
    assert bus.sent and bus.sealer.open(*bus.sent[-1])[1]["k"] == "sync"
    bus.deliver()                  # B answers with what A misses: nothing lost
    assert a.st["rx"] == len(b.st["out"]) + 1


def test_a_restarted_side_resumes_from_its_saved_state():
    bus = Bus()
    saved = {}
    a = bus.sides["A"]
    a.save_fn = lambda st: saved.update(st=__import__("json").loads(
        __import__("json").dumps(st)))
    _play(bus, 5, random.Random(5))
    a2 = pr.Peer(bus.sealer, saved["st"], bus._pub, bus.logs["A"].append)
    bus.sides["A"] = a2
    a2.hello()
    bus.deliver()
    assert a2.st["turns"] == bus.sides["B"].st["turns"]
    _play(bus, 3, random.Random(6))
    assert a2.st["turns"] == bus.sides["B"].st["turns"]
    assert len(a2.st["turns"]) == 8 or a2.game.over()


def test_a_late_spectator_of_a_long_game_gets_the_whole_record():
    from samsara_host.online.watch import Watcher
    rng = random.Random(3)
    for _ in range(50):                        # a whole game of 60 turns or more
        bus = Bus()                            # (the dice are drawn afresh each run)
        _play(bus, 300, rng)
        a = bus.sides["A"]
        n = len(a.st["turns"])
        if n >= 60:
            break
    assert n >= 60 and a.game.over()
    t, payload = a.record_message()
    assert len(payload) > wire.MAX_PAYLOAD     # more than a side's message may be
    shown, logged = [], []
    w = Watcher("AB12-SECR-ET00", shown.append, as_json=True, log=logged.append)
    w.sealer = bus.sealer                      # (the test's key: fewer rounds)
    w.handle(t, payload)
    rows = [__import__("json").loads(x) for x in shown]
    assert [r["turn"] for r in rows[:-1]] == list(range(1, n + 1)) and not logged
    assert all(r["joint"] for r in rows[:-1]) and rows[-1]["game_over"] and w.over()


def test_a_message_too_long_to_open_is_said_in_one_line():
    from samsara_host.online.watch import Watcher
    bus = Bus()
    shown, logged = [], []
    w = Watcher("AB12-SECR-ET00", shown.append, log=logged.append)
    w.sealer = bus.sealer
    t = wire.topic("AB12", "rec")
    w.handle(t, b"x" * (wire.MAX_RECORD_PAYLOAD + 1))
    w.handle(wire.topic("AB12", "A"), b"x" * (wire.MAX_PAYLOAD + 1))
    assert len(logged) == 2 and all("too long" in x for x in logged) and not shown


def test_a_sides_own_resend_is_dropped_quietly_and_a_copy_is_said_as_a_replay():
    # At every (re)connection a side says hello and the other sends again what it
    # has from there (sealed again: a fresh nonce): normal, not a line in the log.
    # A copy of a message (the same bytes, a stranger's replay) is one line, also
    # after the side was restarted from its file.
    import json
    bus = Bus()
    heard = []
    orig = bus._pub

    def pub(topic, payload, retain):
        heard.append((topic, payload))
        orig(topic, payload, retain)
    saved = {}
    for pe in bus.sides.values():
        pe.publish = pub
    a = bus.sides["A"]
    a.save_fn = lambda st: saved.update(st=json.loads(json.dumps(st)))
    _play(bus, 4, random.Random(7))
    b_topic = wire.topic("AB12", "B")
    n0 = len(bus.logs["A"])
    for _ in range(2):                 # B sends again what A had (a hello of A's that
        bus.sides["B"].resend(1)       # crossed B's last messages on the way)
        bus.deliver()
    assert bus.logs["A"][n0:] == [] and a.repeats > 0
    copies = [p for t, p in heard if t == b_topic][:2]
    a2 = pr.Peer(bus.sealer, saved["st"], bus._pub, bus.logs["A"].append)
    for side_a in (a, a2):
        n0 = len(bus.logs["A"])
        for p in copies:
            assert side_a.handle(b_topic, p) is False
        lines = bus.logs["A"][n0:]
        assert len(lines) == 2 and all("replayed message" in x for x in lines), lines
