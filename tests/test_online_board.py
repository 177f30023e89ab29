"""An online game on the board core (docs/online.md): two simulated boards, each with a
far player (new_game far=...), joined by what a bridge would do: the same joint dice
set on both, each near turn given to the other board with far_turn.  The far turn is
lit and insisted on, rolls need the joint dice, a sent turn cannot be undone, and both
boards end with the same record."""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "upy"))

from linkkit import FakeStream, services  # noqa: E402
from fakes.memfs import MemFs  # noqa: E402

from samsara.config import Config  # noqa: E402
from samsara.controller import Refused  # noqa: E402
from samsara.core import Board  # noqa: E402
from samsara.rules import moves as rules  # noqa: E402
from samsara.rules.notation import format_sub_move  # noqa: E402
from samsara.rules.position import START  # noqa: E402
from samsara.states import MOVING, TURN_COMPLETE, ENDED  # noqa: E402
from boardcore.storage import logrecord  # noqa: E402
from boardcore.storage.gamelog import GameLog  # noqa: E402

from samsara_host.sim.player import choose_greedy, hand_actions, hand_moves, random_pick  # noqa: E402
from samsara_host.sim.vsgame import STEP_MS as STEP, HandAtBoard  # noqa: E402


class Side(HandAtBoard):
    """One board of the pair: its near side `side` (0/1), the far side the other."""

    def __init__(self, side):
        self.side = side
        board = Board(Config(dice="electronic"))
        board.new_game(START, vs=1 - side, far=True)
        HandAtBoard.__init__(self, board, START)
        self.sent = 0          # near turns handed over so far

    def events(self, name):
        return [e for _t, e in self.driver.events if e["ev"] == name]


def _wait(sides, cond, what, limit_ms=20000):
    t = 0
    while not cond():
        assert t < limit_ms, "waiting for %s" % what
        for s in sides:
            s.advance(STEP)
        t += STEP


def _play_pair(seed):
    """Play a whole online game between two simulated boards; returns both sides."""
    rng = random.Random("online:%d" % seed)
    pick = random_pick(rng)
    a, b = Side(0), Side(1)
    both = (a, b)
    k = 0
    while a.c.state not in ENDED:
        k += 1
        assert k < 400
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        for s in both:                   # the joint dice of turn k, on both boards
            s.board.set_dice(d1, d2, True)
        mover = a.c.game.pos.mover if a.c.state != TURN_COMPLETE else 1 - a.c.turn.mover
        near, far = both[mover], both[1 - mover]
        # the far board rolls for its far player by itself; the near player presses roll
        near.driver.push_button(near.now + 1, "roll")
        _wait(both, lambda: all(s.c.turn.d1 and s.c.turn.mover == mover and
                                s.c.state in (MOVING,) + ENDED for s in both), "the rolls")
        if near.c.state in ENDED:        # Moksha: both boards ended on the same roll
            break
        t = near.c.turn
        p = t.base
        moves = choose_greedy(p.r, p.s, p.a, p.b, p.mover, t.d1, t.d2, t.og, pick)
        acts = hand_actions(moves, p.a, p.b)
        i = 0
        while i < len(acts):
            near.hand(acts[i][1], acts[i + 1][1])
            i += 2
        _wait(both, lambda: near.c.state == TURN_COMPLETE or near.c.state in ENDED,
              "the near turn complete")
        note = near.c.turn_notation() if near.c.state == TURN_COMPLETE else \
            near.c.game.record.tail(1)[0]
        # the bridge hands the turn over: the far board lights it, its player follows
        assert far.c.far_turn(far.now, note)
        while far.c.state == MOVING:
            _wait(both, lambda: far.c.state != MOVING or (
                far.c.player.lit is not None and not far.c.view.lifted), "the lights")
            if far.c.state != MOVING:
                break
            m = far.c.player.lit
            n = len(far.c.turn.played)
            for frm, to in hand_moves(m, far.c.turn.a, far.c.turn.b):
                far.hand(frm, to)
            _wait(both, lambda: len(far.c.turn.played) > n or far.c.state != MOVING,
                  "the far sub-move accepted")
        _wait(both, lambda: far.c.state in (TURN_COMPLETE,) + ENDED, "the far turn done")
    _wait(both, lambda: all(s.c.state in ENDED for s in both), "both ends")
    return a, b


def test_two_boards_play_a_whole_online_game_to_the_same_record():
    a, b = _play_pair(3)
    assert list(a.c.game.record) == list(b.c.game.record)
    assert len(a.c.game.record) > 10
    assert a.events("game_over")[-1]["score"] == b.events("game_over")[-1]["score"]
    for s in (a, b):
        assert s.events("game_start")[-1]["far"] == "AB"[1 - s.side]
        rolls = s.events("roll")
        assert rolls and all(r["source"] == "joint" for r in rolls)
        # every far sub-move was lit with board_move for the far player
        far_moves = [e for e in s.events("board_move")]
        assert far_moves and all(e["player"] == "AB"[1 - s.side] for e in far_moves)
        assert not [e for e in s.events("reject") if e["what"] == "place"]


def _far_turn_lit():
    """Board A with its far player B to move: A's own turn played, B's roll made."""
    s = Side(0)
    s.board.set_dice(5, 3, True)
    s.driver.push_button(s.now + 1, "roll")
    _wait((s,), lambda: s.c.state == MOVING, "the roll")
    t = s.c.turn
    p = t.base
    moves = choose_greedy(p.r, p.s, p.a, p.b, p.mover, t.d1, t.d2, t.og,
                          random_pick(random.Random(1)))
    acts = hand_actions(moves, p.a, p.b)
    for i in range(0, len(acts), 2):
        s.hand(acts[i][1], acts[i + 1][1])
    _wait((s,), lambda: s.c.state == TURN_COMPLETE, "turn complete")
    return s


def test_a_roll_waits_for_the_joint_dice_and_a_sent_turn_cannot_be_undone():
    s = Side(0)
    try:
        s.c.roll(0)
        raise AssertionError("rolled without the joint dice")
    except Refused as e:
        assert e.reason == "waiting for the joint dice"
    s = _far_turn_lit()
    try:
        s.c.undo(s.now)
        raise AssertionError("undid a turn that went to the far player")
    except Refused as e:
        assert e.reason == "the turn went to the far player"
    # the far player's roll is made by the board once the joint dice are there
    s.advance(200)
    assert s.c.state == TURN_COMPLETE
    s.board.set_dice(6, 2, True)
    _wait((s,), lambda: s.c.state == MOVING and s.c.turn.mover == 1, "the far roll")
    assert s.events("roll")[-1] == dict(s.events("roll")[-1], player="B", source="joint")


def test_the_far_turn_is_checked_lit_and_insisted_on():
    s = _far_turn_lit()
    s.board.set_dice(6, 2, True)
    _wait((s,), lambda: s.c.state == MOVING and s.c.turn.mover == 1, "the far roll")
    t = s.c.turn
    p = t.base
    turns = [mv for mv, _k in rules.complete_turns(p.r, p.s, p.a, p.b, p.mover, 6, 2, t.og)]
    want = turns[0]
    from samsara.rules.notation import format_turn
    # a wrong roll and a turn that does not replay are refused; nothing is lit
    for bad in ("53 5:R1-S18 3:R2-S20", "62 Moksha", "nonsense"):
        try:
            s.c.far_turn(s.now, bad)
            raise AssertionError("took %r" % bad)
        except Refused:
            pass
    assert s.c.player.plan is None
    note = format_turn(6, 2, want)
    assert s.c.far_turn(s.now, note) == note
    assert s.c.far_turn(s.now, note) == note          # the same again: nothing changes
    other = format_turn(6, 2, turns[1]) if len(turns) > 1 else None
    if other:
        try:
            s.c.far_turn(s.now, other)
            raise AssertionError("took a second turn")
        except Refused as e:
            assert e.reason == "another turn was given"
    _wait((s,), lambda: s.c.player.lit is not None, "the lights")
    s.advance(100)
    m = s.c.player.lit
    assert m == want[0]
    assert s.events("board_move")[-1]["move"] == format_sub_move(m)
    wrong = [x for x in rules.gen_sub_moves(t.r, t.s, t.a, t.b, t.mover, m[0], t.og)
             if x[2] != m[2] and x[2] < 48]
    o = wrong[0]
    s.hand(o[1], o[2])
    s.advance(300)
    rej = [e for e in s.events("reject") if e["what"] == "place"]
    assert rej and rej[-1]["reason"] == "the far player plays %s" % format_sub_move(m)


def test_new_game_far_over_usb_writes_the_far_side_names_and_id_into_the_header():
    board = Board(Config(dice="host"))
    st = FakeStream()
    svc = services(st, board, GameLog(MemFs()), boot_ms=0)
    for t in range(5):
        svc.poll(t)
    st.feed(b'{"cmd":"new_game","far":"B","online":"K7Q2M","name_a":"Anna",'
            b'"name_b":"Ben","id":3}\n')
    for t in range(5, 20):
        svc.poll(t)
    out = st.lines()
    r = [x for x in out if x.get("re") == "new_game"][0]
    assert r["ok"], r
    assert [x for x in out if x.get("ev") == "game_start"][-1]["far"] == "B"
    log = svc.recorder.log
    data = log.read(r["game"], 0, log.info(r["game"])[0])
    recs, _n = logrecord.parse_records(data)
    head = logrecord.record_event(*recs[0])
    assert head["far"] == "B" and head["online"] == "K7Q2M"
    assert head["players"] == ["Anna", "Ben"] and "vs_board" not in head
    from samsara_host.record import from_log
    rec = from_log(data, allow_torn=True)
    assert (rec.tags["PlayerA"], rec.tags["PlayerB"]) == ("Anna", "Ben")
    assert rec.tags["Online"] == "K7Q2M" and rec.tags["Far"] == "B"
    st.feed(b'{"cmd":"far_turn","turn":"53 5:R1-S18 3:R2-S20"}\n')
    st.feed(b'{"cmd":"new_game","far":"B","vs_board":"A"}\n')
    for t in range(20, 40):
        svc.poll(t)
    rs = [x for x in st.lines() if x.get("re") in ("far_turn", "new_game")]
    assert rs[0]["error"] == "state" and rs[0]["msg"] == "not the far player's turn now"
    assert rs[1]["error"] == "bad_args"
