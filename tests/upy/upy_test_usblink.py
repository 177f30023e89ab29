"""The host link and the game recorder (docs/protocol.md, docs/gamelog.md) on a real
Board with a fake stream, on the firmware's one event path (mainloop.Loop, without
drivers).  Runs
under MicroPython and CPython; the allocation test needs MicroPython's heap_lock."""

import json

from boardcore.link import protocol as P
from boardcore.storage import gamelog as G
from samsara.core import Board
from samsara.config import Config
from memfs import MemFs
from samsara.frame import from_position
from board.linkhooks import LinkHooks
from boardcore.link.commands import COMMAND_NAMES, FLIGHT_COMMANDS
from boardcore.storage import logrecord as LR
from samsara.states import WAITING
from linkkit import FakeStream, CleanPlayer, services


def _link(fs=None, hw=None, **kw):
    board = Board(Config(dice="host", settle_place_ms=30))
    st = FakeStream()
    log = G.GameLog(fs if fs is not None else MemFs(), **kw)
    hooks = LinkHooks(hw, board) if hw is not None else None
    link = services(st, board, log, hooks, "test-1", 2, boot_ms=0)
    return link, st, board


def _ask(link, st, line, now=[1000]):
    st.feed(line)
    out = []
    for _ in range(40):
        now[0] += 2
        link.poll(now[0])
    for obj in st.lines():
        if "re" in obj:
            out.append(obj)
    return out


def test_boot_announces_and_starts_a_logged_game():
    link, st, board = _link()
    for t in range(20):
        link.poll(1 + t)
    lines = st.lines()
    assert lines[0]["ev"] == "boot" and lines[0]["proto"] == P.PROTO
    assert lines[0]["board"] == "test-1"
    assert [x for x in lines if x.get("ev") == "game_start"]
    assert link.recorder.log.run_gid == 1


def test_hello_status_position():
    link, st, board = _link()
    r = _ask(link, st, b'{"cmd": "hello", "id": 7}\n')
    assert len(r) == 1 and r[0]["ok"] and r[0]["id"] == 7 and r[0]["proto"] == P.PROTO
    # every command but the flight recorder's (this link has none)
    assert link.flight is None
    assert r[0]["cmds"] == [n for n in COMMAND_NAMES if n not in FLIGHT_COMMANDS]
    assert "status" in r[0]["cmds"] and "logs" in r[0]["cmds"]
    r = _ask(link, st, b'{"cmd":"status"}\r\n')[0]
    assert r["state"] == WAITING and r["mover"] == "A" and r["score"] == "0-0"
    assert r["game"] == 1 and r["log"]["need"] == link.recorder.log.need
    r = _ask(link, st, b'{"cmd":"position","id":"p"}\n')[0]
    assert r["position"] == "oooooo................../oooooo.................. 0-0 A"
    assert r["id"] == "p" and r["turns"] == 0


def test_dice_roll_undo_new_game():
    link, st, board = _link()
    r = _ask(link, st, b'{"cmd":"undo"}\n')[0]
    assert not r["ok"] and r["error"] == "state"
    r = _ask(link, st, b'{"cmd":"set_dice","dice":[5,3]}\n')[0]
    assert r["ok"] and r["dice"] == [5, 3]
    st.feed(b'{"cmd":"roll"}\n')
    for t in range(5):
        link.poll(2000 + t)
    lines = st.lines()
    names = [x.get("ev") or x.get("re") for x in lines]
    assert names.index("roll") < len(names) - 1  # the event comes before the reply
    rep = [x for x in lines if x.get("re") == "roll"][0]
    assert rep["ok"] and rep["dice"] == [5, 3]
    r = _ask(link, st, b'{"cmd":"roll"}\n')[0]
    assert not r["ok"] and r["error"] == "state"
    r = _ask(link, st, b'{"cmd":"new_game","starter":"B"}\n')[0]
    assert r["ok"] and r["game"] == 2
    assert link.recorder.log.list()[0][2] == "done"     # the abandoned game was closed
    assert board.controller.position().mover == 1
    r = _ask(link, st, b'{"cmd":"new_game","position":"ooo"}\n')[0]
    assert r["error"] == "bad_args"


def test_hooks_missing_answer_not_supported():
    link, st, board = _link()
    r = _ask(link, st, b'{"cmd":"sensors"}\n')[0]
    assert r["error"] == "not_supported", r
    r = _ask(link, st, b'{"cmd":"led_test"}\n')[0]   # an overlay of the board core now
    assert r["ok"] and board.overlay
    r = _ask(link, st, b'{"cmd":"calibrate","step":"start"}\n')[0]
    assert r["error"] == "not_supported"


def test_line_errors():
    link, st, board = _link()
    cases = [
        (b'{"cmd":"roll"\n', "bad_json"),
        (b'{"cmd":"hello"}{"cmd":"status"}\n', "two_commands"),
        (b'[1,2]\n', "not_object"),
        (b'{"x":1}\n', "no_cmd"),
        (b'{"cmd":"fly"}\n', "unknown_cmd"),
        (b'{"cmd":"hello","x":1}\n', "bad_args"),
        (b'{"cmd":"hello","id":[1]}\n', "bad_id"),
        (b'\x00\xff\xfe garbage\n', "binary"),
        (b'{"cmd":"hello","pad":"\xc3\x28"}\n', "binary"),
        (b'__import__("os").system("x")\n', "bad_json"),
    ]
    for line, code in cases:
        r = _ask(link, st, line)
        assert len(r) == 1 and r[0]["error"] == code, (line, r)
    r = _ask(link, st, b"x" * 700 + b"\n")
    assert len(r) == 1 and r[0]["error"] == "line_too_long"
    r = _ask(link, st, b'{"cmd":"hello","id":1}\n')
    assert r[0]["ok"]  # and the link still works


def test_repl_controls():
    link, st, board = _link()
    # 0x04 / 0x02 drop the partial line: the command after them is intact
    r = _ask(link, st, b'junk\r\x02{"cmd":"hello","id":2}\n')
    assert len(r) == 1 and r[0]["ok"] and r[0]["id"] == 2
    r = _ask(link, st, b'{"cmd":"hel\x04{"cmd":"hello","id":3}\n')
    assert len(r) == 1 and r[0]["id"] == 3
    st.feed(b'{"cmd":"hello"}\n\x03')
    stopped = False
    try:
        for t in range(10):
            link.poll(5000 + t)
    except KeyboardInterrupt:
        stopped = True
    assert stopped


def test_one_command_per_poll_and_nothing_lost():
    link, st, board = _link()
    st.feed(b''.join([b'{"cmd":"hello","id":%d}\n' % i for i in range(8)]))
    link.poll(10)
    assert link.link.rx_lines == 1
    for t in range(40):
        link.poll(20 + t)
    got = [x for x in st.lines() if "re" in x]
    assert [x["id"] for x in got] == list(range(8))


def test_host_not_reading_never_blocks_and_counts_drops():
    # A host that does not read: the board keeps running, its own lines (events) are
    # dropped and counted, the host's commands wait in the input and are all answered
    # once it reads again (a reply is never dropped).
    link, st, board = _link()
    st.writable = False
    for i in range(20):
        st.feed(b'{"cmd":"hello","id":%d}\n' % i)
    for i in range(200):
        link.link.send({"ev": "error", "msg": "x" * 40})
        link.poll(i)
    assert link.link.tx_dropped > 0
    st.writable = True
    for i in range(400):
        link.poll(1000 + i)
    lines = st.lines()
    dropped = [x for x in lines if x.get("ev") == "dropped"]
    assert dropped and dropped[0]["lines"] > 0
    assert [x["id"] for x in lines if "re" in x] == list(range(20))


def test_pull_a_log_through_the_link():
    link, st, board = _link()
    pl = CleanPlayer(board, now=100, on_tick=link.poll)
    for d in ((5, 3), (6, 2), (4, 4)):
        pl.play_turn(lambda n: 0, d[0], d[1])
    _ask(link, st, b'{"cmd":"new_game"}\n')
    logs = _ask(link, st, b'{"cmd":"logs"}\n')[0]["logs"]
    entry = logs[0]
    assert entry["state"] == "done" and logs[1]["state"] == "running"
    data = bytearray()
    while True:
        r = _ask(link, st, b'{"cmd":"log_get","game":%d,"offset":%d,"n":100}\n' % (entry["game"], len(data)))[0]
        chunk = P.b64decode(r["data"])
        assert P.crc_hex(P.crc16(chunk)) == r["crc"]
        data.extend(chunk)
        if r["eof"]:
            break
    assert len(data) == entry["size"] and P.crc_hex(P.crc16(data)) == entry["crc"]
    ok, msg, rp = LR.verify(data)
    assert ok, msg
    # every complete turn is in the record, whatever ends the game: the third turn,
    # complete but not yet confirmed by a roll, is recorded when the new game starts
    assert len(rp.turns) == 3 and rp.header.get("start")
    assert rp.end["how"] == "abandoned"
    r = _ask(link, st, b'{"cmd":"log_ack","game":1,"crc":"0000","size":1}\n')[0]
    assert r["error"] == "bad_args"
    r = _ask(link, st, ('{"cmd":"log_ack","game":1,"crc":"%s","size":%d}\n' % (entry["crc"], entry["size"])).encode())[0]
    assert r["ok"] and r["state"] == "pulled"
    r = _ask(link, st, b'{"cmd":"log_del","game":2}\n')[0]
    assert r["error"] == "busy"
    r = _ask(link, st, b'{"cmd":"log_del","game":1}\n')[0]
    assert r["ok"]
    r = _ask(link, st, b'{"cmd":"log_get","game":1}\n')[0]
    assert r["error"] == "not_found"


def test_log_full_is_announced_and_refuses_new_games_until_a_pull():
    fs = MemFs()
    link, st, board = _link(fs, capacity=6 * 4096, max_turns=4, turn_budget=256)
    for i in range(2):
        r = _ask(link, st, b'{"cmd":"new_game"}\n')[0]
        assert r["ok"], r
    r = _ask(link, st, b'{"cmd":"new_game"}\n')
    assert r[0]["error"] == "log_full"
    st2 = link.link.stream
    r = _ask(link, st, b'{"cmd":"status"}\n')[0]
    assert r["log"]["full"] and r["log"]["unpulled"] >= 2
    logs = _ask(link, st, b'{"cmd":"logs"}\n')[0]
    assert logs["full"]
    for e in logs["logs"]:
        if e["state"] == "done":
            _ask(link, st, ('{"cmd":"log_ack","game":%d,"crc":"%s","size":%d}\n'
                            % (e["game"], e["crc"], e["size"])).encode())
    r = _ask(link, st, b'{"cmd":"new_game"}\n')[0]
    assert r["ok"], r
    assert st2 is st


def test_idle_poll_allocates_nothing():
    try:
        import micropython
        lock = micropython.heap_lock
        unlock = micropython.heap_unlock
    except (ImportError, AttributeError):
        return  # CPython: nothing to prove
    link, st, board = _link()
    for t in range(20):
        link.poll(t)
    st.lines()
    lock()
    try:
        for t in range(20, 220):
            link.poll(t)
    finally:
        unlock()


def test_a_line_out_leaves_no_garbage_but_its_ring_slices():
    # issue 9: a line's JSON goes into one preallocated buffer, then into the ring; what
    # is left is at most two memoryview slices (16 bytes each on the Pico), where
    # protocol.encode left the line three times (the JSON, plus LF, as bytes).
    from heaputil import heap_growth
    rig, st, board = _link()
    link = rig.link
    ev = {"ev": "sub", "t": 123456, "move": "4:S12-GR*R1", "player": "B"}
    for i in range(30):          # the ring wraps: both slices are taken
        link.send(ev)
        link.poll(i)
    st.lines()
    grew = heap_growth(link.send, ev)
    if grew is not None:
        assert grew <= 64, grew
    else:
        link.send(ev)            # CPython: nothing to measure
    for i in range(100, 110):
        link.poll(i)
    assert st.lines() == [ev]


def _replies(link, st, t0, t1):
    # Poll the link every 4 ms from t0 to t1; the (re, id) of the replies it sent.
    for t in range(t0, t1, 4):
        link.poll(t)
    return [(o["re"], o["id"]) for o in st.lines() if "re" in o]


def test_a_command_never_waits_for_the_game_log():
    # Records waiting for a quiet moment (the Pico's recorder defers its writes): a
    # status is answered in the loop iteration that takes it, the records still
    # waiting (the loop writes them at its next quiet moment, not the command).
    rig, st, board = _link()
    rig.poll(999)                 # the boot's events to the sinks
    rec = rig.recorder
    rec.defer = True
    st.lines()
    rec.pending.append({"ev": "roll", "t": 1, "player": "A", "dice": [1, 2]})
    st.feed(b'{"cmd": "status", "id": 5}\n')
    rig.poll(1000)                # the iteration that takes the line makes its reply
    assert rig.link.reply is None and rig.link.pending_output() > 0
    assert _replies(rig, st, 1004, 1040) == [("status", 5)]
    assert len(rec.pending) == 1


def test_a_commands_events_go_out_before_its_reply():
    # One event path: the host's roll is carried out by the board, the loop passes its
    # `roll` event to every sink, then the link sends the reply with the same dice.
    rig, st, board = _link()
    st.lines()
    st.feed(b'{"cmd": "set_dice", "dice": [5, 3], "id": 8}\n')
    _replies(rig, st, 1000, 1008)
    st.feed(b'{"cmd": "roll", "id": 9}\n')
    rig.poll(1010)
    lines = st.lines()
    kinds = [o.get("ev") or o.get("re") for o in lines]
    assert kinds.index("roll") < len(kinds) - 1 and lines[-1]["re"] == "roll", kinds
    ev = [o for o in lines if o.get("ev") == "roll"][0]
    assert lines[-1]["dice"] == ev["dice"] == [5, 3] and ev["source"] == "host"


def test_random_bytes_on_this_vm():
    """A smaller fuzz that runs on MicroPython itself (the hypothesis run is CPython)."""
    link, st, board = _link()
    x = 12345
    now = 10
    lfs = 0
    for i in range(300):
        n = (x >> 5) % 90
        chunk = bytearray()
        for k in range(n):
            x = (x * 1103515245 + 12345) & 0x3FFFFFFF
            b = (x >> 11) & 0xFF
            if b == 3 or b == 4:
                b = 10
            if b == 10:
                lfs += 1
            chunk.append(b)
        st.feed(chunk)
        now += 2
        link.poll(now)
    for k in range(3000):
        now += 2
        link.poll(now)
    replies = 0
    for obj in st.lines():
        if "re" in obj:
            replies += 1
    assert replies <= lfs
    r = _ask(link, st, b'\n{"cmd":"hello","id":99}\n')
    assert r and r[-1]["id"] == 99 and r[-1]["ok"]


class _Leds:
    def __init__(self):
        self.frames = []

    def show(self, scene):
        self.frames.append(bytes(scene))


class _Scanner:
    def scan(self, buf):
        for i in range(8):
            buf[i] = 0x11


class _Hw:
    def __init__(self):
        self.leds = _Leds()
        self.scanner = _Scanner()
        self.calibrator = None


def test_led_test_and_log_full_hint_are_overlays_of_the_board():
    hw = _Hw()
    link, st, board = _link(hw=hw)
    frame = from_position(board.controller.game.pos)
    shown = [board.scene_version]

    def run(t0, ms, step=1):
        # one loop iteration as main.Loop.once does it: tick, LEDs on change, sinks
        for t in range(0, ms, step):
            board.tick(t0 + t, frame)
            if board.scene_version != shown[0]:
                shown[0] = board.scene_version
                hw.leds.show(board.limited_scene())
            link.poll(t0 + t)

    st.feed(b'{"cmd":"led_test","ms":200}\n')
    run(link.link.now + 1, 300)
    r = [x for x in st.lines() if "re" in x][0]
    assert r["ok"] and r["ms"] == 200
    assert len(hw.leds.frames) == 81           # each LED once, one write each, then
    for k in range(80):                        # the board's scene again
        f = hw.leds.frames[k]
        assert f[3 * k:3 * k + 3] == b"\x28\x28\x28" and sum(f) == 120
    assert hw.leds.frames[-1] == bytes(board.limited_scene())   # the board's scene back
    assert not board.overlay
    r = _ask(link, st, b'{"cmd":"sensors"}\n')[0]
    assert r["raw"] == "11" * 8 and len(r["on"]) == 14
    r = _ask(link, st, b'{"cmd":"calibrate","step":"start"}\n')[0]
    assert r["error"] == "not_supported"
    n = len(hw.leds.frames)
    board.set_overlay("log_full")
    run(link.link.now + 1, 2000, 5)
    blinks = hw.leds.frames[n:]
    assert 3 <= len(blinks) <= 5
    assert blinks[0][3 * 64:3 * 78] == bytes([60, 25, 0]) * 14
    assert blinks[1] == bytes(board.limited_scene()) or blinks[1][3 * 64:3 * 78] != blinks[0][3 * 64:3 * 78]
    board.clear_overlay("log_full")
    run(link.link.now + 1, 10)
    assert hw.leds.frames[-1] == bytes(board.limited_scene())
    assert hw.leds.frames[-1][3 * 64:3 * 78] != bytes([60, 25, 0]) * 14


def test_overlays_pass_the_power_limiter():
    board = Board(Config(budget_ma=1))         # 12 channel units: everything dims
    board.set_overlay("led_test", 0, 800)
    board.tick(5, from_position(board.controller.game.pos))
    sc = board.limited_scene()
    assert 0 < sum(sc) <= board.limiter.max_sum and sum(sc[3:]) == 0
    board.clear_overlay("led_test")
    board.set_overlay("log_full")
    board.tick(10, from_position(board.controller.game.pos))
    assert sum(board.limited_scene()) <= board.limiter.max_sum


def test_idle_ticks_with_an_overlay_allocate_nothing():
    try:
        import micropython
    except ImportError:
        return
    board = Board(Config())
    frame = from_position(board.controller.game.pos)
    board.set_overlay("log_full")
    for t in range(10):
        board.tick(t, frame)
    micropython.heap_lock()
    try:
        for t in range(10, 1500, 5):    # blinks twice, no allocation
            board.tick(t, frame)
    finally:
        micropython.heap_unlock()
    assert board.overlay


class _Cal:
    """A calibrator with HallCalibrator's members, stepping through its states."""

    def __init__(self):
        self.state = "idle"
        self.calls = []

    def begin(self):
        self.calls.append("begin")
        self.state = "empty"

    def step(self):
        self.calls.append("step")
        self.state = {"empty": "occupied", "occupied": "ready"}.get(self.state, self.state)

    def skip(self):
        self.calls.append("skip")
        self.state = "done"

    def abort(self):
        self.calls.append("abort")
        self.state = "idle"

    def missing(self):
        return [] if self.state in ("ready", "done") else [1, 2]

    def prompt(self):
        return "do the " + self.state + " step"


def test_calibrate_steps_through_the_hall_calibrator():

    hw = _Hw()
    hw.calibrator = _Cal()
    link, st, board = _link(hw=hw)
    r = _ask(link, st, b'{"cmd":"calibrate","step":"occupied"}\n')[0]
    assert r["error"] == "state"
    r = _ask(link, st, b'{"cmd":"calibrate","step":"start"}\n')[0]
    assert r["ok"] and r["state"] == "empty" and r["todo"] == "do the empty step"
    r = _ask(link, st, b'{"cmd":"calibrate","step":"empty"}\n')[0]
    assert r["state"] == "occupied" and r["missing"] == 2
    r = _ask(link, st, b'{"cmd":"calibrate","step":"occupied"}\n')[0]
    assert r["state"] == "ready" and r["missing"] == 0
    r = _ask(link, st, b'{"cmd":"calibrate","step":"save"}\n')[0]
    assert r["state"] == "done"
    r = _ask(link, st, b'{"cmd":"calibrate","step":"cancel"}\n')[0]
    assert r["state"] == "idle"
    assert hw.calibrator.calls == ["begin", "step", "step", "skip", "abort"]


def _game_on_a_full_log():
    # a log with room for two games, both used; then the board starts a game by
    # itself (as main.py does at boot), which the full log cannot take
    link, st, board = _link(MemFs(), capacity=6 * 4096, max_turns=4, turn_budget=256)
    for i in range(2):
        assert _ask(link, st, b'{"cmd":"new_game"}\n')[0]["ok"]
    link.recorder.log.end_game()
    board.new_game(now_ms=link.link.now)
    for t in range(10):
        link.poll(link.link.now + 1)
    return link, st, board


def _ack_all(link, st):
    # a host pulled every log: log_ack for each (its crc and size from `logs`)
    for e in _ask(link, st, b'{"cmd":"logs"}\n')[0]["logs"]:
        _ask(link, st, ('{"cmd":"log_ack","game":%d,"crc":"%s","size":%d}\n'
                        % (e["game"], e["crc"], e["size"])).encode())


def test_a_game_started_while_full_is_logged_from_memory_after_a_pull():
    link, st, board = _game_on_a_full_log()
    evs = [x.get("ev") for x in st.lines()]
    assert "log_full" in evs and link.recorder.unlogged and link.recorder.log.run_gid is None
    pl = CleanPlayer(board, now=link.link.now + 10, on_tick=link.poll)
    pl.play_turn(lambda n: 0, 5, 3)
    pl.play_turn(lambda n: 0, 2, 1)        # commits the first turn
    pl.play_turn(lambda n: 0, 6, 4, partial=1)
    want = list(board.controller.game.record)
    assert len(want) == 2
    _ack_all(link, st)
    assert not link.recorder.unlogged and link.recorder.log.run_gid is not None
    gid = link.recorder.log.run_gid
    rp = link.recorder.log.replay(gid)
    assert rp.turns == want and rp.header["late"] == 2
    st_ = rp.state()
    assert st_["roll"] == [6, 4] and len(st_["subs"]) == 1


def _play_turns(link, board, n, seed=7):
    # n committed turns (fewer if the game ends) by a seeded clean player; returns the
    # turns' notations from the board's turn events
    pl = CleanPlayer(board, now=link.link.now + 10, on_tick=link.poll)
    x = [seed]

    def rnd(k):
        x[0] = (x[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return (x[0] >> 8) % k

    c = board.controller
    while len(c.game.record) < n and not c.game.over():
        pl.play_turn(rnd, 1 + rnd(6), 1 + rnd(6))
    return list(c.game.record)


def test_a_logged_game_keeps_every_turn_in_memory():
    # The whole record stays in the board's memory (docs/gamelog.md "The record in the
    # board's memory"): `position` shows the last 10 and the count, the log and the
    # record hold every turn.
    link, st, board = _link()
    assert _ask(link, st, b'{"cmd":"new_game"}\n')[0]["ok"]
    _play_turns(link, board, 30)
    rec = board.controller.game.record
    n = len(rec)
    assert n >= 26, n
    turns = [e["turn"] for e in st.lines() if e.get("ev") == "turn"]   # (read: gone)
    pos = _ask(link, st, b'{"cmd":"position"}\n')[0]
    assert len(turns) == n and pos["turns"] == n and list(rec) == turns
    assert pos["record"] == turns[-10:] == rec.tail(10)
    link.recorder.flush()
    assert link.recorder.log.replay(link.recorder.log.run_gid).turns == turns


def test_an_unlogged_game_keeps_every_turn_for_its_log_after_a_pull():
    # The log was full when the game started: the record is all there is, so it keeps
    # every turn, and a pull brings the whole game into the log.
    link, st, board = _game_on_a_full_log()
    assert link.recorder.unlogged
    want = _play_turns(link, board, 26)
    assert want is not None and len(want) >= 26
    _ack_all(link, st)
    assert not link.recorder.unlogged
    rp = link.recorder.log.replay(link.recorder.log.run_gid)
    assert rp.turns == want and rp.header["late"] == len(want)


def test_a_line_across_the_rings_end_goes_out_in_one_poll():
    # The output ring wraps: a line queued across its end leaves whole in one poll (its
    # tail used to wait for the next iteration, 4 ms on the Pico).
    link, st, board = _link()
    for t in range(40):
        link.poll(1000 + 2 * t)
    st.lines()
    hl = link.link
    assert hl.pending_output() == 0
    hl.tx_head = len(hl.tx) - 20          # an empty ring whose head is near its end
    hl.on_event({"move": "6:R2-R8", "t": 39809, "ev": "sub", "player": "A"})
    assert 20 < hl.pending_output() <= 128
    link.poll(1100)
    assert [x["ev"] for x in st.lines()] == ["sub"]
    assert hl.pending_output() == 0
