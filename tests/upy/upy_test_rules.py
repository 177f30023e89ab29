"""The rules engine under MicroPython: every rule of docs/rules.md, a subset of the
CPython tests written with builtins only (runs on the Unix and WebAssembly ports)."""
from samsara.rules import moves as rules
from samsara.rules.geometry import position_name
from samsara.rules.position import Position, PositionError, START
from samsara.rules.notation import (read_turn, format_turn, parse_sub_move, NotationError,
                              IllegalMoveError, AmbiguousMoveError)
from samsara.rules.game import Game, Match, TurnRecord, side_counts

START_TEXT = "oooooo................../oooooo.................. 0-0 A"
MOKSHA_66 = ".o.....o.....o.....o.o.o/.o.....o.....o.....oo..o 0-0 A"


def moves(text, d, og=0):
    p = Position.parse(text)
    out = []
    for m in rules.gen_sub_moves(p.r, p.s, p.a, p.b, p.mover, d, og):
        t = position_name(m[1]) + "-" + position_name(m[2])
        if m[3] >= 0:
            t += "*" + position_name(m[3])
        out.append(t)
    out.sort()
    return out


def raises(exc, fn, *args):
    try:
        fn(*args)
    except exc:
        return True
    raise AssertionError("expected %s" % exc.__name__)


def test_position_string():
    assert START.format() == START_TEXT
    assert Position.parse(START_TEXT) == START
    raises(PositionError, Position.parse, "oooooo" + "." * 18 + "/" + "o" * 5 + "." * 19 + " 0-0 A")
    raises(PositionError, Position.parse, START_TEXT[:-1] + "C")
    raises(PositionError, Position.parse, START_TEXT.replace("0-0", "0-9"))


def test_worked_examples():
    assert moves(START_TEXT, 5) == sorted(
        "R1-S18 R2-R7 R3-R8 R4-R9 R5-R10 R6-R11 S1-R18 S2-S7 S3-S8 S4-S9 S5-S10 S6-S11".split())
    assert moves(START_TEXT, 3) == sorted(
        "R1-S16 R2-S17 R3-S18 R4-R7 R5-R8 R6-R9 S1-R16 S2-R17 S3-R18 S4-S7 S5-S8 S6-S9".split())
    assert "R11-R14" in moves("ooooo.....o............./oooooo.................. 0-0 A", 3)
    g = "ooooo.................../oooooo...............o.. 0-0 A"
    assert "S22-GS*S7" in moves(g, 3)
    assert [m for m in moves(g, 4) if m.startswith("S22")] == []
    m1 = moves("ooooo......o............/ooooo..................o 0-0 A", 1)
    for m in ("R12-GS*S6", "R12-R13", "S24-GS*S6", "S24-R13"):
        assert m in m1
    assert "S22-GS*S4" in moves("oooo..oo......o........./oo...........o.o.....o.. 0-0 A", 3)


def test_lane_changes():
    assert "R20-R2" in moves("o.o.o..............o..../oo.....o.....o..ooo...o. 0-0 A", 6)
    assert "S23-R14" in moves("ooooo.....o............./ooooo.................o. 0-0 A", 3)
    assert "R23-GR*R4" in moves(".oo...................o./oooooooo....o........... 0-0 B", 2)


def test_opponent_goal_option():
    pos = "ooooo................o../oooooo.................. 0-0 A"
    assert "R22-GR*R6" in moves(pos, 3, 0)
    assert "R22-GR*R6" not in moves(pos, 3, 1)
    assert rules.option_code("forbidden") == 1
    raises(ValueError, rules.option_code, "nope")


def test_moksha():
    assert rules.turn_results(MOKSHA_66, 6, 6) == (True, [])
    assert rules.turn_results(".o.....o.....o.....o.o.o/.o.....o.....oo....o...o 0-0 A", 6, 6) == (True, [])
    assert not rules.turn_results(MOKSHA_66, 2, 6)[0]


def test_sixth_goal_and_goal_at_six():
    moksha, res = rules.turn_results(".o.....o.....o.....o.o../.o.....o.....o....ooo..o 5-0 A", 6, 6)
    assert not moksha and len(res) == 1 and res[0].endswith(" 6-0 B")
    p = Position.parse("ooooo................o../oooooo.................. 3-6 A")
    for mv, k in rules.complete_turns(p.r, p.s, p.a, p.b, 0, 3, 1):
        assert len(mv) == 2 and k[3] == 6


def test_turn_notation_round_trip():
    p = START
    for mv, k in rules.complete_turns(p.r, p.s, p.a, p.b, p.mover, 5, 3):
        note = format_turn(5, 3, mv)
        assert read_turn(p.r, p.s, p.a, p.b, p.mover, note)[2] == k
    raises(NotationError, parse_sub_move, "9:R1-R2")
    raises(IllegalMoveError, read_turn, p.r, p.s, p.a, p.b, p.mover, "53 5:R1-R6 3:R2-S17")
    pos = Position.parse("oooooo................../ooooo.......o........... 0-0 A")
    raises(AmbiguousMoveError, read_turn, pos.r, pos.s, 0, 0, 0, "21 2:S15 1:R6-R7")


def test_completable_hints():
    p = Position.parse(".o.....o.....o.....o.o.o/.o.....o.....oo....o...o 0-0 A")
    # S15 can move a 6 but then the second 6 is unplayable: not offered.
    assert rules.gen_sub_moves(p.r, p.s, 0, 0, 0, 6)
    assert rules.completable_sub_moves(p.r, p.s, 0, 0, 0, (6, 6)) == []
    q = START
    for m in rules.completable_sub_moves(q.r, q.s, 0, 0, 0, (5, 3), 0):
        assert m[1] == 0


def test_match_scoring():
    g = Game(Position.parse("ooooo..................o/ooooo................o.. 5-5 A"), match=True, starter=0)
    g.play_notation("31 3:S22-GS*S6")
    assert g.final_turn
    g.play_notation("21 1:R24-GR*R6")
    assert side_counts(g.pos.r, g.pos.s) == (6, 6) and g.result == (None, "centre", (0, 0))
    g = Game(Position.parse("ooooo................o../oooooo.................. 2-5 A"), match=True, starter=0)
    g.play_notation("31 3:R22-GR*R6")
    assert g.result == (1, "centre", (0, 4))
    m = Match(0)
    m.current().apply(6, 6, [], None)
    m.next_game().apply(6, 6, [], None)
    assert m.totals() == (8, 8) and m.winner() is None


def test_turn_record():
    # Game.record on MicroPython: len, iteration (a generator), indexing, tail.
    rec = TurnRecord()
    want = []
    for i in range(19):
        t = "%d%d %d:R%d-S%d" % (1 + i % 6, 1 + i % 5, 1 + i % 6, i + 1, i + 2)
        rec.append(t)
        want.append(t)
        assert len(rec) == i + 1 and rec.tail(1) == [t]
    assert list(rec) == want and rec.tail(10) == want[-10:] and rec.tail(30) == want
    assert len(rec.chunks) == 3 and rec.tail(0) == []


def test_golden_subset():
    # The golden file made by the plain implementation in tests/golden/ (gzip, read
    # with the deflate module of MicroPython 1.21+): the first 100 entries, streamed,
    # when this VM can open it (the Unix port run from the project root).
    import json
    try:
        import deflate
        f = open("tests/golden/turns.jsonl.gz", "rb")
    except (ImportError, OSError):
        return
    d = deflate.DeflateIO(f, deflate.GZIP)
    n = 0
    while n < 100:
        line = d.readline()
        if not line:
            break
        e = json.loads(line)
        got = rules.turn_results(e["position"], e["dice"][0], e["dice"][1], e["opponent_goal"])
        assert got == (e["moksha"], e["results"]), e["position"]
        n += 1
    f.close()
    assert n == 100
