"""Game log: records, checks, torn tails, game numbers, rotation, reservation
(docs/gamelog.md).  Runs under MicroPython and CPython (tests/upy/run.py, pytest)."""

from boardcore.storage import gamelog as G
from boardcore.storage import logrecord as LR
from memfs import MemFs, CutFs, PowerCut
from boardcore.link.protocol import crc16


class Lcg:
    """A tiny seeded random source (MicroPython has no random.Random)."""

    def __init__(self, seed):
        self.x = seed & 0x3FFFFFFF

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x3FFFFFFF
        return (self.x >> 8) % n


def _events(n, rng):
    out = []
    for i in range(n):
        k = rng.below(5)
        if k == 0:
            out.append({"ev": "roll", "dice": [1 + rng.below(6), 1 + rng.below(6)]})
        elif k == 1:
            out.append({"ev": "sub", "move": "5:R%d-S18" % (1 + rng.below(12))})
        elif k == 2:
            out.append({"ev": "turn", "turn": "53 5:R1-S18 3:R2-S17"})
        elif k == 3:
            out.append({"ev": "goal", "goal": "GS", "player": "A", "score": "1-0", "ins": "S7"})
        else:
            out.append({"ev": "undo", "move": "3:R2-S17"})
    return out


def test_crc16_check_value():
    assert crc16(b"123456789") == 0x29B1
    assert crc16(b"") == 0xFFFF
    # continuing equals one pass
    assert crc16(b"6789", crc16(b"12345")) == 0x29B1


def test_record_round_trip_every_type():
    evs = [{"ev": "roll", "dice": [6, 1]}, {"ev": "sub", "move": "3:S22-GS*S7", "t": 5},
           {"ev": "undo", "move": "3:S22-GS*S7"}, {"ev": "undo"},
           {"ev": "turn", "turn": "61 6:R1-R7 1:R2-R3", "position": "x" * 58},
           {"ev": "goal", "goal": "GR", "player": "B"}]
    data = bytearray()
    for e in evs:
        data.extend(LR.event_record(e))
    recs, good = LR.parse_records(data)
    assert good == len(data)
    back = [LR.record_event(t, p) for t, p in recs]
    assert back[0] == {"ev": "roll", "dice": [6, 1]}
    assert back[1] == {"ev": "sub", "move": "3:S22-GS*S7"}
    assert back[2] == {"ev": "undo", "move": "3:S22-GS*S7"}
    assert back[3] == {"ev": "undo"}
    assert back[4] == {"ev": "turn", "turn": "61 6:R1-R7 1:R2-R3"}
    assert back[5] == {"ev": "goal", "goal": "GR", "player": "B"}


def test_not_logged_and_oversized_events():
    assert LR.event_record({"ev": "lift", "pos": "R1"}) is None
    assert LR.event_record({"ev": "reject", "reason": "x"}) is None
    big = LR.event_record({"ev": "repair", "reason": "y" * 500})
    t, p = LR.parse_records(big)[0][0]
    assert LR.record_event(t, p) == {"ev": "repair", "cut": True}
    assert len(big) <= LR.OVERHEAD + LR.E_MAX


def test_torn_last_record_at_every_byte():
    rng = Lcg(7)
    data = bytearray()
    for e in _events(12, rng):
        data.extend(LR.event_record(e))
    last = LR.event_record({"ev": "sub", "move": "6:S20-GS*S12"})
    for cut in range(len(last)):
        torn = data + last[:cut]
        recs, good = LR.parse_records(torn)
        assert good == len(data)
        assert len(recs) == 12
    # a flipped bit in the last record is caught by its CRC
    for i in range(len(last)):
        bad = bytearray(last)
        bad[i] ^= 0x10
        recs, good = LR.parse_records(data + bad)
        assert good == len(data)


def _store(fs, **kw):
    log = G.GameLog(fs, **kw)
    log.boot()
    return log


def test_game_lifecycle_and_names():
    fs = MemFs()
    log = _store(fs)
    g1 = log.start_game({"start": "s"})
    assert g1 == 1 and log.run_gid == 1
    assert log.log_event({"ev": "roll", "dice": [5, 3]})
    assert not log.log_event({"ev": "lift", "pos": "R1"})
    log.end_game({"winner": "A"})
    names = fs.listdir()
    assert "g000001.run" not in names
    size, st, crc = log.info(1)
    assert st == "done" and ("g000001_%04x.end" % crc) in names
    data = log.read(1, 0, 10000)
    assert len(data) == size and crc16(data) == crc
    ok, msg, rp = LR.verify(data)
    assert ok, msg
    assert rp.ended and rp.end["winner"] == "A" and rp.header["start"] == "s"


def test_boot_drops_torn_tail_and_resumes_at_every_cut():
    # A finished game, then a running one whose last append is cut at every byte.
    base = MemFs()
    log = _store(base)
    log.start_game()
    for e in _events(30, Lcg(3)):
        log.log_event(e)
    log.end_game()
    finished = dict((n, bytes(base.files[n])) for n in base.listdir() if n.endswith(".end"))
    log.start_game({"start": "x"})
    evs = _events(20, Lcg(5))
    for e in evs:
        log.log_event(e)
    log.close()
    snapshot = dict((n, bytearray(base.files[n])) for n in base.files)
    ref = _store(base).replay(2).state()
    extra = {"ev": "sub", "move": "4:R9-R13"}
    rec = LR.event_record(extra)
    for cut in range(len(rec) + 1):
        fs = MemFs()
        for n in snapshot:
            fs.files[n] = bytearray(snapshot[n])
        cfs = CutFs(fs, cut)
        lg = G.GameLog(cfs)
        lg.boot()
        try:
            lg.log_event(extra)
            assert cut == len(rec)
        except PowerCut:
            pass
        lg2 = G.GameLog(fs)
        rp = lg2.boot()
        assert rp is not None and rp.game == 2
        st = rp.state()
        if cut == len(rec):
            assert st["subs"] == ref["subs"] + ["4:R9-R13"] or st["roll"] is None
        else:
            assert st == ref
            assert lg2.torn == cut
        for n in finished:
            assert bytes(fs.files[n]) == finished[n]
        # the repaired file verifies and takes further records
        assert lg2.log_event({"ev": "roll", "dice": [2, 2]})
        ok, msg, _rp = LR.verify(bytes(fs.files["g000002.run"]))
        assert ok, msg


def test_cut_during_repair_and_close_is_safe():
    base = MemFs()
    log = _store(base)
    log.start_game()
    for e in _events(15, Lcg(11)):
        log.log_event(e)
    log.close()
    base.files["g000001.run"].extend(b"\xa5\x20T12")   # a torn record
    snap = dict((n, bytearray(base.files[n])) for n in base.files)
    good = len(snap["g000001.run"]) - 5
    for budget in range(0, good + 4, 7):
        fs = MemFs()
        for n in snap:
            fs.files[n] = bytearray(snap[n])
        try:
            G.GameLog(CutFs(fs, budget)).boot()
        except PowerCut:
            pass
        lg = G.GameLog(fs)
        rp = lg.boot()
        assert rp is not None and rp.records == 16, (budget, rp and rp.records)
        assert not [n for n in fs.listdir() if n.endswith(".tmp")]
    # the end record written but the rename cut: boot finishes the close
    fs = MemFs()
    for n in snap:
        fs.files[n] = bytearray(snap[n])
    lg = G.GameLog(fs)
    lg.boot()
    cfs = CutFs(fs, 200)
    lg.fs = cfs
    lg._h = cfs.open_append("g000001.run")
    try:
        lg.end_game({"winner": "B"})
    except PowerCut:
        pass
    lg = G.GameLog(fs)
    assert lg.boot() is None
    assert lg.list()[0][2] == "done"


def test_game_numbers_unique_across_reboots_and_cuts():
    fs = MemFs()
    seen = []
    rng = Lcg(99)
    for round_ in range(60):
        cfs = CutFs(fs, rng.below(40))
        try:
            lg = G.GameLog(cfs)
            lg.boot()
            if lg.run_gid is not None:
                lg.end_game({"how": "abandoned"})
            gid = lg.start_game()
            seen.append(gid)
            lg.log_event({"ev": "roll", "dice": [1, 2]})
            lg.end_game()
        except PowerCut:
            pass
        # what exists on the medium never repeats a number
        lg = G.GameLog(fs)
        lg.boot()
        ids = [g[0] for g in lg.list()]
        assert len(ids) == len(set(ids))
    assert len(seen) == len(set(seen))
    lg = G.GameLog(fs)
    lg.boot()
    nxt = lg.start_game()
    assert nxt > max(seen)


def test_rotation_removes_only_pulled_games_oldest_first():
    fs = MemFs()
    lg = G.GameLog(fs, capacity=6 * 4096, max_turns=4, turn_budget=256)
    lg.boot()
    assert lg.need == 2 * 4096  # 255 + 5 * 256 + 255 bytes: one block, plus one of slack
    ids = []
    for i in range(6):
        try:
            gid = lg.start_game()
        except G.LogFull:
            break
        lg.log_event({"ev": "roll", "dice": [3, 4]})
        lg.end_game()
        ids.append(gid)
    # 6 blocks: 2 counters + games of 1 block each; a new one needs 2 free
    assert len(ids) == 3, ids
    sp = lg.space()
    assert sp["full"] and sp["unpulled"] == 3
    try:
        lg.start_game()
        assert False, "must refuse"
    except G.LogFull as e:
        assert e.space["full"]
    # pull the two newest: the oldest unpulled game must survive rotation
    for gid in ids[1:]:
        size, st, crc = lg.info(gid)
        lg.mark_pulled(gid, crc, size)
    assert not lg.space()["full"]
    g = lg.start_game()
    left = [x[0] for x in lg.list()]
    assert ids[0] in left          # unpulled: kept
    assert ids[1] not in left      # pulled and oldest: rotated out
    assert ids[2] in left          # pulled, but its space was not needed
    assert g in left


def test_mark_pulled_and_delete_rules():
    fs = MemFs()
    lg = _store(fs)
    g = lg.start_game()
    try:
        lg.delete(g)
        assert False
    except G.LogError as e:
        assert e.code == "busy"
    size, st, crc = lg.info(g)
    try:
        lg.mark_pulled(g, crc, size)
        assert False
    except G.LogError as e:
        assert e.code == "state"
    lg.end_game()
    size, st, crc = lg.info(g)
    try:
        lg.mark_pulled(g, crc ^ 1, size)
        assert False
    except G.LogError as e:
        assert e.code == "bad_args"
    try:
        lg.delete(g)
        assert False
    except G.LogError as e:
        assert e.code == "state"
    assert lg.mark_pulled(g, crc, size) == "pulled"
    lg2 = G.GameLog(fs)
    lg2.boot()
    assert lg2.info(g)[1] == "pulled"   # the mark survives a reboot
    lg2.delete(g)
    assert lg2.list() == []
    try:
        lg2.read(g, 0, 10)
        assert False
    except G.LogError as e:
        assert e.code == "not_found"


def _worst_turn(lg, rng):
    # The largest records a turn can bring, then as many extras as the budget takes.
    lg.log_event({"ev": "roll", "dice": [6, 6]})
    for i in range(40):
        lg.log_event({"ev": "repair", "reason": "z" * (60 + rng.below(200))})
        lg.log_event({"ev": "sub", "move": "6:S20-GS*S12"})
        lg.log_event({"ev": "undo", "move": "6:S20-GS*S12"})
    return lg.log_event({"ev": "turn", "turn": "66 6:S20-GS*S12 6:S19-GS*S11"})


def test_reservation_holds_the_worst_case_game():
    fs = MemFs()
    lg = G.GameLog(fs, max_turns=30)
    lg.boot()
    lg.start_game({"start": "q" * 300})   # an oversized header is cut, never refused
    rng = Lcg(1)
    for e in range(30):
        lg.log_event({"ev": "repair", "reason": "before the first roll " * 3})
    for t in range(30):
        assert _worst_turn(lg, rng), "a turn record was dropped in turn %d" % t
    size = lg.info(lg.run_gid)[0]
    assert lg.dropped > 0
    lg.end_game({"how": "end", "note": "n" * 300})
    size = lg.info(1)[0]
    assert size <= lg.need - fs.block, (size, lg.need)
    ok, msg, rp = LR.verify(lg.read(1, 0, size))
    assert ok and len(rp.turns) == 30 and rp.ended


def test_a_game_longer_than_the_reservation_keeps_logging_while_room_lasts():
    fs = MemFs()
    lg = G.GameLog(fs, max_turns=3, capacity=40 * 4096)
    lg.boot()
    lg.start_game()
    for t in range(60):
        lg.log_event({"ev": "roll", "dice": [2, 1]})
        lg.log_event({"ev": "sub", "move": "2:R1-R3"})
        lg.log_event({"ev": "sub", "move": "1:R3-R4"})
        assert lg.log_event({"ev": "turn", "turn": "21 2:R1-R3 1:R3-R4"})
    lg.end_game()
    ok, msg, rp = LR.verify(lg.read(1, 0, 100000))
    assert ok and len(rp.turns) == 60


def test_running_crc_is_rebuilt_in_the_background_after_boot():
    fs = MemFs()
    lg = _store(fs)
    lg.start_game()
    for e in _events(200, Lcg(8)):
        lg.log_event(e)
    want = crc16(bytes(fs.files["g000001.run"]))
    assert lg.info(1)[2] == want
    lg.close()
    lg = G.GameLog(fs)
    lg.boot()
    assert lg.info(1)[2] == -1          # unknown right after the boot scan
    lg.log_event({"ev": "roll", "dice": [1, 1]})   # appends while it is computed
    steps = 0
    while lg.crc_step(32):
        steps += 1
    assert steps > 10
    assert lg.info(1)[2] == crc16(bytes(fs.files["g000001.run"]))
    lg.log_event({"ev": "roll", "dice": [2, 2]})
    assert lg.info(1)[2] == crc16(bytes(fs.files["g000001.run"]))
    # and end_game finishes it at once when asked before the background did
    lg.close()
    lg = G.GameLog(fs)
    lg.boot()
    lg.end_game()
    gid, size, st, crc = lg.list()[0]
    assert st == "done" and crc == crc16(bytes(fs.files[[n for n in fs.files if n.endswith(".end")][0]]))


def test_boot_checks_crcs_only_near_the_end():
    fs = MemFs()
    lg = _store(fs)
    lg.start_game()
    for e in _events(300, Lcg(9)):
        lg.log_event(e)
    lg.close()
    data = fs.files["g000001.run"]
    # a damaged payload byte far from the end is not looked at by the boot scan ...
    data[40] ^= 0x01
    lg = G.GameLog(fs)
    rp = lg.boot()
    assert rp is not None and lg.torn == 0
    # ... but the host's verify of a pulled log sees it
    ok, msg, _rp = LR.verify(bytes(data))
    assert not ok
    # a damaged byte in the last TAIL_CHECK bytes is a torn tail
    lg.close()
    data[40] ^= 0x01
    data[len(data) - 3] ^= 0x01
    lg = G.GameLog(fs)
    rp = lg.boot()
    assert lg.torn > 0
