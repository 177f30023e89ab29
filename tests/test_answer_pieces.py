"""The pieces the Pico's loop splits an answering tick into (docs/performance.md
"Fifth round"): position names from a table, the turn's completion held while the
loop holds events (Pacing.hold), the lift's targets computed at the scan that first
sees it (Controller.foresee, Pacing.foresee_lifts) and Controller.in_hand (a goal's marble or
scoring piece in the air).  Each must leave every event and reading as it was."""

import pytest

from boardscript import Script
from samsara import states
from samsara.rules.geometry import position_name, position_index, NAMES
from samsara.rules.notation import format_sub_move, format_turn

GOAL3 = "ooooo.................../oooooo...............o.. 0-0 A"   # docs/rules.md §7


def _old_name(p):
    # position_name as it was built before the table (docs/rules.md §6)
    if p < 24:
        return "R%d" % (p + 1)
    if p < 48:
        return "S%d" % (p - 23)
    if p == 48:
        return "GS"
    if p == 49:
        return "GR"
    if p < 57:
        return "A%s" % ("C" if p == 56 else p - 50)
    return "B%s" % ("C" if p == 63 else p - 57)


def test_position_names_from_the_table_are_the_names():
    assert len(NAMES) == 64
    for p in range(64):
        assert position_name(p) == _old_name(p)
        assert position_index(position_name(p)) == p
    for bad in (-1, 64, 100):
        with pytest.raises(ValueError):
            position_name(bad)


def test_sub_move_notation_in_one_format():
    assert format_sub_move((5, 0, 41, -1, 0, 0, 0, 0)) == "5:R1-S18"
    assert format_sub_move((3, 45, 48, 30, 0, 0, 1, 0)) == "3:S22-GS*S7"
    assert format_sub_move((6, 18, 49, 0, 0, 0, 0, 2)) == "6:R19-GR*R1"
    assert format_turn(3, 5, [(5, 0, 41, -1), (3, 1, 4, -1)]) == "53 5:R1-S18 3:R2-R5"


def _last_die_placed():
    # dice 3 and 1 on GOAL3: R5-R6 (the 1) then S4-S7 (the 3): the turn's last die
    b = Script(position=GOAL3)
    b.roll(3, 1)
    b.move("R5", "R6")
    b.raw_set("S4", False)
    b.wait(20)
    b.raw_set("S7", True)
    b.wait(150)
    b.clear()
    return b


def test_hold_leaves_the_turn_complete_for_a_later_tick():
    b = _last_die_placed()
    board = b.board
    board.pacing.hold = True
    b.wait(12)                                   # the placement commits, held
    assert [e["ev"] for e in b.of("sub")] and not b.of("turn_complete")
    assert board.controller.wait_settle and b.state == states.MOVING
    b.wait(40)
    assert not b.of("turn_complete")             # still held
    board.pacing.hold = False
    b.wait(b.cfg.scan_ms)
    tc = b.of("turn_complete")
    assert len(tc) == 1 and tc[0]["turn"] == "31 1:R5-R6 3:S4-S7"
    assert b.state == states.TURN_COMPLETE


def test_foresee_computes_the_lifted_marbles_targets_before_the_commit():
    plain = Script(position=GOAL3)
    plain.roll(3, 1)
    plain.lift("S22")
    b = Script(position=GOAL3)
    b.board.pacing.defer(True)
    b.roll(3, 1)
    b.raw_set("S22", False)
    b.wait(b.cfg.scan_ms)                        # seen, not yet settled
    t = b.board.controller.turn
    assert not b.of("lift") and t.memo[0] is not None and t.memo[0][0] == position_index("S22")
    assert b.board.foresaw                       # the loop leaves the rest of its iteration
    got = t.memo[1]
    b.board.foresaw = False
    # the marble back and up again (a bounce): its targets are kept, nothing worked out
    b.raw_set("S22", True)
    b.wait(b.cfg.scan_ms)
    b.raw_set("S22", False)
    b.wait(b.cfg.scan_ms)
    assert t.memo[1] is got and not b.board.foresaw
    b.wait(b.cfg.settle_lift_ms + b.cfg.scan_ms)
    b.board.redraw()
    assert b.of("lift") and t.memo[1] is got      # the commit only looked them up
    assert b.targets() == plain.targets() and b.targets()
    assert [e["ev"] for e in b.events] == [e["ev"] for e in plain.events]


def test_foresee_ignores_what_is_no_lift_of_the_turns_marble():
    b = Script(position=GOAL3)
    b.board.pacing.defer(True)
    b.raw_set("S22", False)                      # before the roll: waiting
    b.wait(b.cfg.scan_ms)
    assert b.board.controller.turn.memo[0] is None
    b.raw_set("S22", True)
    b.wait(200)
    b.roll(3, 1)
    b.raw_set("R10", True)                       # a placement, not a lift
    b.wait(b.cfg.scan_ms)
    assert b.board.controller.turn.memo[0] is None and not b.board.foresaw


def test_in_hand_follows_the_goals_marble_and_scoring_piece():
    b = Script(position=GOAL3)
    b.roll(3, 1)
    c = b.board.controller
    assert not c.in_hand()
    b.lift("S22")
    assert c.in_hand()                           # a lifted marble
    b.place("GS")
    assert b.state == states.GOAL_PENDING and not c.in_hand()
    b.lift("GS")
    assert c.in_hand()                           # the goal's marble in the air
    b.place("S7")
    assert b.of("reinsert") and not c.in_hand()
    b.lift("A0")
    assert c.in_hand()                           # the scoring piece in the air
    b.place("A1")
    assert b.of("score") and not c.in_hand()


FINAL5 = "ooooo.................../oooooo...............o.. 5-0 A"   # GOAL3 with A at 5


def _final_goal(split):
    # dice 1 and 3 on FINAL5: R5-R6, S22-GS (the goal), GS-S7, A5-AC: the score of 6
    # ends the game with the turn's completion
    b = Script(position=FINAL5)
    b.board.pacing.defer_game_end = split
    b.roll(1, 3)
    b.move("R5", "R6")
    b.move("S22", "GS")
    b.move("GS", "S7")
    b.lift("A5")
    b.place("AC")
    b.wait(50)
    return b


def _shape(events):
    return [{k: v for k, v in e.items() if k != "t"} for e in events]


def test_split_leaves_the_games_last_turn_for_later():
    """On the Pico (Pacing.defer_game_end) the last turn's record and the game's end wait for
    the loop's quiet moment (mainloop.Loop._quiet; without a loop, as here, Board.tick
    records them 2 s after the turn's completion): the same events in the same order."""
    plain = _final_goal(False)
    b = _final_goal(True)
    c = b.board.controller
    assert b.board.pacing.end_due and b.state == states.TURN_COMPLETE and not b.of("turn")
    assert b.position() == c.position().format() and b.position().endswith(" 6-0 B")
    b.wait(2000)
    assert _shape(b.events) == _shape(plain.events)
    assert [e["ev"] for e in b.events][-3:] == ["turn_complete", "turn", "game_over"]
    tc, turn = b.of("turn_complete")[0], b.of("turn")[0]
    assert 2000 <= turn["t"] - tc["t"] < 2000 + b.cfg.scan_ms
    assert plain.of("turn")[0]["t"] == plain.of("turn_complete")[0]["t"]
    assert b.state == plain.state == states.GAME_OVER
    assert not b.board.pacing.end_due


def test_split_commit_comes_before_a_press():
    b = _final_goal(True)
    c = b.board.controller
    assert b.board.pacing.end_due and not b.of("game_over")
    b.press("undo")                     # a press first records the game's end
    assert not b.board.pacing.end_due and b.of("game_over") and b.state == states.GAME_OVER
    plain = _final_goal(False)
    plain.press("undo")
    assert _shape(b.events) == _shape(plain.events)


def test_split_commit_comes_before_a_settled_change():
    b = _final_goal(True)
    c = b.board.controller
    assert b.board.pacing.end_due
    b.lift("R6")                        # a marble taken off before the end was recorded
    assert b.of("game_over") and b.state == states.GAME_OVER and not b.board.pacing.end_due
    ev = [e["ev"] for e in b.events]
    assert ev.index("game_over") < len(ev) - 1 and ev[ev.index("game_over") - 1] == "turn"
