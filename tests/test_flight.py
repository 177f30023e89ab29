"""The flight recorder and the sensor health (issue 13): the ring keeps whole entries
and the newest ones; a pulled trace replays to what the virtual board did; the health
map names a flickering and a stuck sensor; the guided self-test finds a faulty hole."""
import json
import os
import random
import subprocess
import sys
import time

import pytest
import serial

from samsara.core import Board
from boardcore import flight as F
from samsara_host.flightpull import decode, to_trace
from samsara_host.trace import replay, parse, dumps, TraceError
from samsara_host.boardlink import BoardClient
from samsara_host import sensors_cmd

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def _snap(fl, now=0):
    from boardcore.flightsave import snapshot
    return snapshot(fl, now)


def _raw_change(fl, t, p, on):
    # one raw change of position p to `on` through the scan path
    old = fl.old
    raw = bytearray(old)
    bit = 1 << (p & 7)
    raw[p >> 3] = (raw[p >> 3] | bit) if on else (raw[p >> 3] & ~bit)
    old[p >> 3] = raw[p >> 3] ^ bit
    fl.changes(t, raw)


def test_ring_keeps_the_newest_whole_entries():
    rng = random.Random(5)
    board = Board()
    fl = F.Flight(board, size=97)
    written = []
    t = 0
    for k in range(3000):
        t += rng.choice((0, 1, 5, 200, 70000))
        if rng.random() < 0.1:
            board.controller.turn.d1 = 0
            fl._mark({"ev": "roll", "t": t, "dice": [3, 4], "source": "host"})
            written.append(("mark", t))
        else:
            p = rng.randrange(64)
            on = rng.randrange(2)
            _raw_change(fl, t, p, on)
            written.append(("raw", t, p, bool(on)))
        _head, ents = decode(_snap(fl, t))
        assert ents, k
        got = [(e[1],) + ((e[2][0], e[2][1]) if e[1] == "raw" else ()) for e in ents]
        want = [(w[0],) + tuple(w[2:]) for w in written[-len(got):]]
        assert got == want, k
        # the times between kept entries are exact
        span = ents[-1][0] - ents[0][0]
        assert span == t - written[-len(got)][1]
        assert len(_snap(fl, t)) - 16 <= 97


def test_trace_header_flight_keys_are_checked():
    ok = '{"start": "oooooo................../oooooo.................. 0-0 A", ' \
         '"dice_mode": "host", "scan_ms": 4, "settle_ms": [4, 150, 30], ' \
         '"frame": "0000000000000000", "board": "x"}\n'
    parse(ok)
    with pytest.raises(TraceError):
        parse('{"scan_ms": 0}\n')
    with pytest.raises(TraceError):
        parse('{"frame": "zz"}\n')
    with pytest.raises(TraceError):
        parse('{"dice_mode": "dice"}\n')


# -- the virtual board ---------------------------------------------------------------

def _vb(**kw):
    from samsara_host.virtual_board import VirtualBoard
    vb = VirtualBoard(dice="host", **kw)
    vb.start()
    vb.wait_ready(timeout=60)
    return vb


def _replayed_events(rp):
    keep = ("roll", "sub", "goal", "reinsert", "score", "turn", "reject", "repair",
            "repair_end", "undo", "moksha", "game_over", "turn_complete")
    return [(e["ev"], e.get("move") or e.get("turn") or e.get("reason") or e.get("dice"))
            for _t, e in rp.events if e["ev"] in keep]


def test_flight_pull_replays_the_virtual_board(tmp_path):
    import vbplayer
    from samsara.rules.game import Game
    vb = _vb()
    try:
        c = BoardClient(serial.Serial(vb.port, timeout=0.05))
        pl = vbplayer.Player(vb, c, seed=11)
        pl.new_game()
        g = Game()
        for _ in range(4):
            pl.turn(g)
        # a wrong placement and the board put right again
        c.request("set_dice", dice=[1, 2])
        c.request("roll")
        vbplayer.wait_event(c, ("roll",), seen=pl.events)
        position = c.request("position")["position"]
        c.close()
        out = tmp_path / "pulled.jsonl"
        r = subprocess.run([sys.executable, "-m", "samsara_host.cli", "trace", "pull",
                            "--port", vb.port, "--out", str(out), "--json"],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        info = json.loads(r.stdout)
        assert info["out"] == str(out) and info["turns"] >= 3 and info["changes"] >= 6
        assert info["span_ms"] > 0
        c = BoardClient(serial.Serial(vb.port, timeout=0.05))
        saved = c.request("flight_save")["copy"]
        c.close()
        r2 = subprocess.run([sys.executable, "-m", "samsara_host.cli", "trace", "pull",
                             "--port", vb.port, "--out", str(tmp_path / "saved.jsonl"),
                             "--saved", str(saved), "--json"],
                            capture_output=True, text=True, timeout=60)
        assert r2.returncode == 0, r2.stderr
    finally:
        vb.stop()
    from samsara_host.trace import load
    tr = load(str(out))
    assert tr.header["dice_mode"] == "host" and "start" in tr.header
    rp = replay(tr)
    res = rp.result()
    # the same final position, and the turns of the ring are the board's last turns
    assert res["final_position"] == position
    assert res["turns"] == list(g.record)[-len(res["turns"]):]
    assert len(res["turns"]) >= 2
    # the same events in the same order (times aside) from the pulled trace's first roll
    board_evs = [(e["ev"], e.get("move") or e.get("turn") or e.get("reason") or e.get("dice"))
                 for e in pl.events if e["ev"] in ("roll", "sub", "goal", "reinsert", "score",
                                                   "turn_complete")]
    mine = [x for x in _replayed_events(rp) if x[0] in ("roll", "sub", "goal", "reinsert",
                                                         "score", "turn_complete")]
    rolls = [k for k, e in enumerate(board_evs) if e[0] == "roll"]
    n = sum(1 for e in mine if e[0] == "roll")
    assert n == info["turns"]
    assert mine == board_evs[rolls[-n]:]
    assert load(str(tmp_path / "saved.jsonl")).lines == tr.lines


def test_health_map_names_a_flickering_and_a_stuck_sensor(tmp_path):
    vb = _vb()
    try:
        for _ in range(12):   # S14 flickers (an empty hole, nothing may move)
            vb.feed({"pos": "S14", "on": True})
            time.sleep(0.02)
            vb.feed({"pos": "S14", "on": False})
            time.sleep(0.02)
        vb.feed({"pos": "R20", "on": True})   # R20 sticks on: a repair
        time.sleep(5.6)
        svg = tmp_path / "map.svg"
        r = subprocess.run([sys.executable, "-m", "samsara_host.cli", "doctor", "--sensors",
                            "--port", vb.port, "--svg", str(svg)],
                           capture_output=True, text=True, timeout=60)
    finally:
        vb.stop()
    assert r.returncode == 1, r.stderr
    assert "suspicious (filled): R20, S14" in r.stdout
    assert "S14 bounced 12 times" in r.stdout
    assert "R20 was named in repairs for" in r.stdout
    assert "S14" in svg.read_text() and "R20 was named" in svg.read_text()


def test_self_test_finds_a_faulty_hole():
    vb = _vb()
    try:
        c = BoardClient(serial.Serial(vb.port, timeout=0.05))

        def hand(name):
            # R3's sensor is wired to R4; S9 double-reads; R7 never sees the marble
            if name == "R7":
                return
            seen = {"R3": "R4"}.get(name, name)
            for _ in range(2 if name == "S9" else 1):
                vb.feed({"pos": seen, "on": True})
                time.sleep(0.1)
                vb.feed({"pos": seen, "on": False})
                time.sleep(0.1)
        res = sensors_cmd.self_test(c, ["R1", "R3", "S9", "R7"], hand, timeout_s=2.0,
                                    quiet_s=0.3)
        c.close()
    finally:
        vb.stop()
    assert [(n, v) for n, v, _d in res] == [("R1", "ok"), ("R3", "neighbour"),
                                           ("S9", "twice"), ("R7", "not seen")]
    assert "R4 saw the marble" in res[1][2]


def test_a_host_hint_is_its_own_record_and_replays_as_a_hint(tmp_path):
    # The `hint` command is recorded as a hint (code 0x84), not as a press of undo: the
    # pulled trace says {"button": "hint"} and replays to the same `hint` event.
    import vbplayer
    vb = _vb()
    try:
        c = BoardClient(serial.Serial(vb.port, timeout=0.05))
        pl = vbplayer.Player(vb, c, seed=3)
        pl.new_game()
        c.request("set_dice", dice=[5, 3])
        c.request("roll")
        c.request("hint")
        hint = vbplayer.wait_event(c, ("hint",), timeout=60, seen=pl.events)
        c.close()
        out = tmp_path / "pulled.jsonl"
        r = subprocess.run([sys.executable, "-m", "samsara_host.cli", "trace", "pull",
                            "--port", vb.port, "--out", str(out), "--json"],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
    finally:
        vb.stop()
    from samsara_host.trace import load
    tr = load(str(out))
    buttons = [line["button"] for line in tr.lines if "button" in line]
    assert buttons == ["roll", "hint"], buttons
    rp = replay(tr)
    hints = [e for _t, e in rp.events if e["ev"] == "hint"]
    assert [e["turn"] for e in hints] == [hint["turn"]]
    assert not [e for _t, e in rp.events if e["ev"] in ("undo", "reject")]
