"""Play against the board and the hint (samsara.boardplayer): whole games on
the simulated board (the board's side played by following its lights), the board's
insistence on its own turn, the hint (lit, not forced, logged), the USB command and
log header, and old logs still read."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "upy"))

from linkkit import FakeStream, services  # noqa: E402
from fakes.memfs import MemFs  # noqa: E402
from loghelp import game_log  # noqa: E402

from samsara import scene as sc  # noqa: E402
from samsara.config import Config  # noqa: E402
from samsara.core import Board  # noqa: E402
from samsara.frame import from_position  # noqa: E402
from samsara.rules import engine  # noqa: E402
from samsara.rules import moves as rules  # noqa: E402
from samsara.rules.notation import format_turn, format_sub_move  # noqa: E402
from samsara.states import MOVING, ENDED, WAITING  # noqa: E402
from boardcore.storage import logrecord  # noqa: E402
from boardcore.storage.gamelog import GameLog  # noqa: E402
from samsara.intents import gesture_side  # noqa: E402

from samsara_host.record import from_log  # noqa: E402
from samsara_host.sim.vsgame import VsGame  # noqa: E402


def _evs(g, name):
    return [e for _t, e in g.events if e["ev"] == name]


def test_a_game_against_the_board_runs_to_the_end_on_either_side():
    for side, seed in ((1, 1), (0, 2)):
        g = VsGame(seed=seed, board_side=side).run()
        assert g.c.state in ENDED
        assert g.result is not None
        assert _evs(g, "game_start")[-1]["vs"] == "AB"[side]
        # every turn of the board is the engine's choice for its roll
        starts = [e for e in _evs(g, "turn") if e["player"] == "AB"[side]]
        assert starts and len(g.decisions_ms) >= len(starts) - 1
        moves = _evs(g, "board_move")
        assert moves and all(m["player"] == "AB"[side] for m in moves)
        assert not [e for e in _evs(g, "reject") if e["what"] == "place"]


def test_the_board_plays_the_engine_turn_it_lit():
    g = VsGame(seed=4, board_side=1)
    c = g.c
    g.human_turn()
    g.wait(lambda: c.player.lit is not None, "the lights")
    t = c.turn
    p = t.base
    want = engine.choose(p.r, p.s, p.a, p.b, p.mover, t.d1, t.d2, t.og, 1)[0]
    assert c.player.plan == want
    m = c.player.lit
    assert m == want[0]
    # origin (blinking) and target in the die's colour are marked; the first event says it
    assert c.view.marks[m[2]] == m[0]
    assert c.view.marks[m[1]] in (sc.ORIGIN, 0)
    assert _evs(g, "board_move")[-1]["move"] == format_sub_move(m)


def test_the_board_rejects_a_wrong_execution_of_its_turn_then_takes_the_right_one():
    g = VsGame(seed=4, board_side=1)
    c = g.c
    g.human_turn()
    g.wait(lambda: c.player.lit is not None, "the lights")
    m = c.player.lit
    t = c.turn
    # another legal landing of the same die, or another marble's legal sub-move
    others = [x for x in rules.gen_sub_moves(t.r, t.s, t.a, t.b, t.mover, m[0], t.og)
              if x[2] != m[2] and x[2] < 48]
    assert others
    o = others[0]
    g.hand(o[1], o[2])
    g.advance(300)
    rej = [e for e in _evs(g, "reject") if e["what"] == "place"]
    assert rej and rej[-1]["reason"] == "the board plays %s" % format_sub_move(m)
    assert c.turn.played == [] and c.view.wrong == o[2]
    assert c.view.marks[o[2]] == sc.WRONG
    # put right: back to its hole, then the board's own sub-move is accepted
    g.hand(o[2], o[1])
    g.advance(300)
    assert c.view.wrong == -1
    g.hand(m[1], m[2])
    g.advance(300)
    assert c.turn.played and c.turn.played[0][:4] == m[:4]


def test_hint_lights_the_engine_turn_without_forcing_it_and_is_logged():
    board = Board(Config(dice="host"))
    st = FakeStream()
    svc = services(st, board, GameLog(MemFs()), boot_ms=0)
    frame = from_position(board.controller.game.pos)
    now = [0]

    def run(ms):
        end = now[0] + ms
        while now[0] < end:
            now[0] += 5
            board.tick(now[0], frame)
            svc.poll(now[0])

    run(20)
    st.feed(b'{"cmd":"set_dice","dice":[5,3]}\n')
    run(20)
    st.feed(b'{"cmd":"hint","id":1}\n')
    run(20)
    out = st.lines()
    r = [x for x in out if x.get("re") == "hint"][0]
    assert r["ok"] is False and r["error"] == "state"     # no roll yet: no hint
    st.feed(b'{"cmd":"roll"}\n')
    run(20)
    st.feed(b'{"cmd":"hint","id":2}\n')
    run(2000)
    out = st.lines()
    assert [x for x in out if x.get("re") == "hint"][0]["ok"] is True
    hints = [x for x in out if x.get("ev") == "hint"]
    c = board.controller
    p = c.turn.base
    want = engine.choose(p.r, p.s, p.a, p.b, p.mover, 5, 3, 0, 1)[0]
    assert hints and hints[0]["turn"] == format_turn(5, 3, want) and hints[0]["player"] == "A"
    m = want[0]
    assert c.player.lit == m and c.view.marks[m[2]] == m[0]
    # not forced: another sub-move is accepted and the hint goes out
    t = c.turn
    o = [x for x in rules.gen_sub_moves(t.r, t.s, t.a, t.b, t.mover, 5, 0)
         if x[1] != m[1] and x[2] < 48 and rules.any_sub_move(x[4], x[5], x[6], x[7], 0, 3, 0)][0]
    frame[o[1] >> 3] &= ~(1 << (o[1] & 7)) & 0xFF
    run(50)
    frame[o[2] >> 3] |= 1 << (o[2] & 7)
    run(400)
    assert c.state == MOVING and c.turn.played == [o]
    assert c.player is None
    # the hint is in the game's log
    svc.recorder.flush()
    log = svc.recorder.log
    gid = log.run_gid
    data = log.read(gid, 0, log.info(gid)[0])
    recs, _n = logrecord.parse_records(data)
    evs = [logrecord.record_event(t, p) for t, p in recs]
    assert [e for e in evs if e.get("ev") == "hint"][0]["turn"] == hints[0]["turn"]


def test_new_game_command_vs_board_writes_the_side_into_the_header():
    board = Board(Config(dice="host"))
    st = FakeStream()
    svc = services(st, board, GameLog(MemFs()), boot_ms=0)
    for t in range(5):
        svc.poll(t)
    st.feed(b'{"cmd":"new_game","vs_board":"A","id":7}\n')
    for t in range(5, 20):
        svc.poll(t)
    out = st.lines()
    r = [x for x in out if x.get("re") == "new_game"][0]
    assert r["ok"] and r["id"] == 7
    gs = [x for x in out if x.get("ev") == "game_start"]
    assert gs[-1]["vs"] == "A"
    assert board.controller.player.side == 0
    log = svc.recorder.log
    data = log.read(r["game"], 0, log.info(r["game"])[0])
    rec = from_log(data, allow_torn=True)
    assert rec.tags["VsBoard"] == "A" and rec.tags["PlayerA"] == "board"
    # and a bad side is refused
    st.feed(b'{"cmd":"new_game","vs_board":"C"}\n')
    for t in range(20, 30):
        svc.poll(t)
    assert [x for x in st.lines() if x.get("re") == "new_game"][0]["error"] == "bad_args"


def test_old_logs_without_vs_board_read_as_before():
    data, game = game_log(3)
    rec = from_log(data)
    assert "VsBoard" not in rec.tags and rec.tags["PlayerA"] == "?"
    data2, _g = game_log(3, header={"position": None, "vs_board": "B"})
    rec2 = from_log(data2)
    assert rec2.tags["VsBoard"] == "B" and rec2.tags["PlayerB"] == "board"
    assert rec2.turns == rec.turns
    assert "Level" not in rec2.tags                 # a log from before the level was kept


def test_the_boards_level_is_a_tag_of_the_record_and_its_exports():
    data, _g = game_log(3, header={"position": None, "vs_board": "B", "level": 2})
    rec = from_log(data)
    assert rec.tags["VsBoard"] == "B" and rec.tags["Level"] == "2"
    text = rec.to_text()
    assert '[VsBoard "B"]\n[Level "2"]' in text
    assert from_log(data).to_json()["tags"]["Level"] == "2"
    from samsara_host import export
    page = export.html(rec, export.pictures(rec, only=0))
    assert "<dt>Against the board</dt><dd>it played B at level 2</dd>" in page
    # a game of two players has no level
    data2, _g = game_log(3, header={"position": None, "level": 2})
    assert "Level" not in from_log(data2).tags


def test_the_gesture_cycles_before_the_first_roll_and_restarts_after_the_end():
    board = Board(Config(dice="host"))
    c = board.controller
    assert gesture_side(c) == 1
    board.new_game(vs=1)
    assert gesture_side(c) == 0
    board.new_game(vs=0)
    assert gesture_side(c) == -1
    board.set_dice(5, 3)
    board.press(10, "roll")
    assert gesture_side(c) is None           # a long undo is a hint or an undo now
    assert c.state == WAITING or c.turn.d1


def test_gesture_through_the_main_loop_starts_a_logged_game_against_the_board():
    board = Board(Config(dice="host"))
    st = FakeStream()
    svc = services(st, board, GameLog(MemFs()), boot_ms=0)
    svc.inputs.press(5, "undo", True)       # a long press of undo before the first roll
    for t in range(6, 30):
        svc.poll(t)
    assert board.controller.player.side == 1
    assert [x for x in st.lines() if x.get("ev") == "game_start"][-1]["vs"] == "B"
    log = svc.recorder.log
    data = log.read(log.run_gid, 0, log.info(log.run_gid)[0])
    rtype, payload = logrecord.parse_records(data)[0][0]
    assert rtype == logrecord.T_HEADER
    assert logrecord.record_event(rtype, payload)["vs_board"] == "B"


def test_the_board_player_asks_the_engine_for_its_fast_evaluation():
    # The board thinks on a Pico: its player switches the engine's fast evaluation on
    # (the same values: tests/test_engine.py) when it is made, not in its first decision.
    from samsara.rules import engine
    from samsara.boardplayer import BoardPlayer
    was = engine.use_fast(False)
    try:
        BoardPlayer(None)                   # a hint's adviser only: nothing yet
        assert engine.use_fast(False) is False
        BoardPlayer(1)
        assert engine.use_fast(False) is True
    finally:
        engine.use_fast(was)


def test_a_game_against_the_board_resumes_against_the_board():
    from boardcore.storage.logrecord import Replay
    from samsara.logresume import resume_board
    from samsara.rules.position import START_TEXT
    rp = Replay()
    rp.header = {"start": START_TEXT, "match": False, "vs_board": "B"}
    board = Board(Config())
    resume_board(board, rp)
    assert board.controller.player is not None and board.controller.player.side == 1
    rp.header = {"start": START_TEXT, "match": False}
    resume_board(board, rp)
    assert board.controller.player is None


def test_the_boards_level_is_in_the_header_and_a_resumed_game_keeps_it():
    # new_game with level 2: the header and game_start say so; resuming from that
    # log plays at level 2 again (not the default 3); a log without it resumes at 3.
    from boardcore.storage.logrecord import Replay, record_event
    from samsara.logresume import resume_board
    from samsara.rules.position import START_TEXT
    board = Board(Config(dice="host"))
    st = FakeStream()
    svc = services(st, board, GameLog(MemFs()), boot_ms=0)
    for t in range(5):
        svc.poll(t)
    st.feed(b'{"cmd":"new_game","vs_board":"B","level":2,"id":3}\n')
    for t in range(5, 20):
        svc.poll(t)
    out = st.lines()
    r = [x for x in out if x.get("re") == "new_game"][0]
    assert r["ok"]
    assert [x for x in out if x.get("ev") == "game_start"][-1]["level"] == 2
    log = svc.recorder.log
    data = log.read(r["game"], 0, log.info(r["game"])[0])
    rtype, payload = logrecord.parse_records(data)[0][0]
    header = record_event(rtype, payload)
    assert header["vs_board"] == "B" and header["level"] == 2
    rp = Replay()
    rp.header = header
    again = Board(Config(dice="host"))
    resume_board(again, rp)
    assert again.controller.player.side == 1 and again.controller.player.level == 2
    rp.header = {"start": START_TEXT, "match": False, "vs_board": "B"}
    resume_board(again, rp)
    assert again.controller.player.level == engine.LEVEL_BEST


def test_a_game_the_gesture_starts_logs_the_level_it_plays_at():
    board = Board(Config(dice="host"))
    st = FakeStream()
    svc = services(st, board, GameLog(MemFs()), boot_ms=0)
    svc.inputs.press(5, "undo", True)
    for t in range(6, 30):
        svc.poll(t)
    log = svc.recorder.log
    data = log.read(log.run_gid, 0, log.info(log.run_gid)[0])
    rtype, payload = logrecord.parse_records(data)[0][0]
    h = logrecord.record_event(rtype, payload)
    assert h["level"] == board.controller.player.level == engine.LEVEL_BEST
