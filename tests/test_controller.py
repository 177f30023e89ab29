"""The controller driven through a Board with frame scripts on a virtual clock: every
state and every situation of issue 3 §2 (docs/controller.md)."""

import pytest

from boardscript import Script, mark_colour
from samsara import scene as sc
from samsara import states
from samsara.rng import Fixed
from samsara.rules.position import Position
from samsara.frame import from_position

START = "oooooo................../oooooo.................. 0-0 A"
# Goal example of docs/rules.md §7: S22 enters GS with a 3, reinserted on S7.
GOAL3 = "ooooo.................../oooooo...............o.. 0-0 A"
# Found by search: with 6-6 only 6:S17-S23 is playable and then nothing: Moksha.
# With 6-4 the move 4:S17-S21 is legal but leaves the 6 unplayable.
TIGHT = "...o.....o.....o.....ooo/...o.....o.....oo....o.o 0-0 A"


def started(d1=5, d2=3, position=None, **cfg):
    b = Script(position=position, **cfg)
    b.roll(d1, d2)
    assert b.state == states.MOVING
    b.clear()
    return b


# ---------------------------------------------------------------- waiting / roll

def test_new_game_waits_for_the_roll_with_turn_indicator():
    b = Script()
    assert b.state == states.WAITING
    assert b.position() == START
    assert b.board.scene[78 * 3] > 0 and b.board.scene[79 * 3] == 0   # A's turn LED
    assert not b.lit()


def test_roll_event_dice_display_and_moving():
    b = Script()
    b.roll(5, 3)
    assert b.state == states.MOVING
    ev = b.of("roll")[-1]
    assert ev["dice"] == [5, 3] and ev["player"] == "A" and ev["source"] == "host"
    assert b.board.controller.remaining_dice() == [5, 3]
    s = b.board.scene
    # die 1 shows five pips in the die-5 colour, die 2 three pips in the die-3 colour
    lit1 = [k for k in range(7) if s[(64 + k) * 3:(64 + k) * 3 + 3] != b"\0\0\0"]
    lit2 = [k for k in range(7) if s[(71 + k) * 3:(71 + k) * 3 + 3] != b"\0\0\0"]
    assert len(lit1) == 5 and len(lit2) == 3
    assert tuple(s[(64 + 3) * 3:(64 + 3) * 3 + 3]) == b.die_colour(5)


def test_electronic_dice_use_the_injected_random_source():
    b = Script(rng=Fixed([2, 6]))
    b.press("roll")
    assert b.of("roll")[-1]["dice"] == [2, 6]
    assert b.of("roll")[-1]["source"] == "electronic"


def test_host_dice_source_rejects_a_roll_without_dice():
    b = Script(dice="host")
    b.press("roll")
    assert b.state == states.WAITING
    assert "no dice set" in b.rejects()[-1]


def test_manual_dice_entry_short_steps_long_moves_on_and_confirms():
    b = Script(dice="manual")
    b.press("roll")                       # entry starts: die 1 shows 1
    assert b.board.controller.dice.entry == 1
    for _ in range(3):
        b.press("roll")                   # 1 -> 4
    b.press("roll", long=True)            # to die 2
    assert b.board.controller.dice.entry == 2
    b.press("roll")                       # die 2: 1 -> 2
    assert b.state == states.WAITING and not b.of("roll")
    b.press("roll", long=True)            # confirm
    ev = b.of("roll")[-1]
    assert ev["dice"] == [4, 2] and ev["source"] == "manual"
    assert b.state == states.MOVING


def test_manual_entry_undo_steps_back():
    b = Script(dice="manual")
    b.press("roll")
    b.press("roll", long=True)
    b.press("undo")
    assert b.board.controller.dice.entry == 1
    b.press("undo")
    assert b.board.controller.dice.entry == 0
    assert not b.rejects()


def test_set_dice_rejects_bad_values():
    b = Script()
    with pytest.raises(ValueError):
        b.board.set_dice(0, 3)
    with pytest.raises(ValueError):
        b.board.set_dice(3, 7)


# ---------------------------------------------------------------- lifting and targets

def test_lift_lights_completable_targets_in_die_colours_and_origin():
    b = started(5, 3)
    b.lift("R1")
    assert b.targets() == [("S16", 3), ("S18", 5)]
    assert b.colour("S18") == b.die_colour(5)
    assert b.colour("S16") == b.die_colour(3)
    assert b.mark("R1") == sc.ORIGIN
    assert b.colour("R1") == mark_colour(sc.ORIGIN)
    assert not b.of("sub")


def test_targets_light_within_the_lift_settle():
    b = started(5, 3)
    b.raw_set("R1", False)
    # the next scan sees the lift; it settles on the first scan at least the lift
    # settle later
    scan = b.cfg.scan_ms
    b.wait(scan + (b.cfg.settle_lift_ms + scan - 1) // scan * scan)
    assert b.targets()


def test_sub_move_accepted_then_second_die_then_turn_complete():
    b = started(5, 3)
    b.move("R1", "S18")
    assert [e["move"] for e in b.of("sub")] == ["5:R1-S18"]
    assert b.board.controller.remaining_dice() == [3]
    assert not b.lit()
    # the played die is dimmed
    s = b.board.scene
    assert s[(64 + 3) * 3 + 0] == b.die_colour(5)[0] >> 2
    b.move("R2", "S17")
    assert b.state == states.TURN_COMPLETE
    assert b.of("turn_complete")[-1]["turn"] == "53 5:R1-S18 3:R2-S17"
    assert b.position() == "..oooo................../oooooo..........oo...... 0-0 B"
    assert not b.of("turn")              # recorded at the next roll
    b.roll(4, 2)
    assert b.of("turn")[-1]["turn"] == "53 5:R1-S18 3:R2-S17"
    assert list(b.board.controller.game.record) == ["53 5:R1-S18 3:R2-S17"]
    assert b.board.scene[79 * 3] > 0 and b.board.scene[78 * 3] == 0   # B's turn


def test_placement_is_accepted_only_after_the_place_settle():
    b = started(5, 3)
    b.lift("R1")
    b.raw_set("S18", True)
    b.wait(b.cfg.settle_place_ms - 10)
    assert not b.of("sub")
    b.wait(10 + 2 * b.cfg.scan_ms)
    assert b.of("sub")


def test_roll_before_turn_complete_is_rejected():
    b = started(5, 3)
    b.move("R1", "S18")
    b.roll(2, 2)
    assert b.state == states.MOVING
    assert "die 3 still to play" in b.rejects()[-1]
    assert b.board.controller.remaining_dice() == [3]


def test_roll_while_the_board_is_unsettled_is_rejected():
    b = started(5, 3)
    b.move("R1", "S18")
    b.move("R2", "S17")
    assert b.state == states.TURN_COMPLETE
    b.raw_set("S17", False)
    b.wait(b.cfg.scan_ms)                    # scanned, not yet settled
    b.board.set_dice(1, 1)
    b.board.press(b.t, "roll")
    b.drain()
    assert "not settled" in b.rejects()[-1]


# ---------------------------------------------------------------- situations

def test_put_back_where_it_came_from_is_no_move():
    b = started(5, 3)
    b.lift("R1")
    b.place("R1")
    assert b.state == states.MOVING and not b.of("sub") and not b.rejects()
    assert not b.lit()
    assert b.position() == START


def test_slide_across_several_holes_commits_no_intermediate_hole():
    b = started(5, 3)
    # R6 slides over R7..R10 (empty) into R11: one sub-move 5:R6-R11
    b.slide("R6", ["R7", "R8", "R9", "R10"], "R11", dwell=110)
    assert [e["move"] for e in b.of("sub")] == ["5:R6-R11"]
    assert [e["pos"] for e in b.of("place")] == ["R11"]
    assert not b.rejects()


def test_two_marbles_lifted_at_once_light_both_target_sets():
    b = started(5, 3)
    b.raw_set("R5", False)
    b.raw_set("R6", False)
    b.wait(20)
    tg = b.targets()
    assert ("R11", 5) in tg and ("R9", 3) in tg      # R6's
    assert ("R10", 5) in tg and ("R8", 3) in tg      # R5's
    assert b.mark("R5") == sc.ORIGIN and b.mark("R6") == sc.ORIGIN
    b.place("R11")                                   # one of them lands 5 on
    b.place("R5")                                    # the other goes back
    assert [e["move"] for e in b.of("sub")] == ["5:R6-R11"]
    assert b.position() == "ooooo.....o............./oooooo.................. 0-0 A"


def test_two_lifted_one_placed_on_a_field_both_reach_waits_for_the_other():
    b = started(5, 4)
    b.raw_set("R1", False)
    b.raw_set("R2", False)
    b.wait(20)
    # S18 is R1+5 (R6 taken) and R2+4 (R6 taken): which marble went there?
    b.place("S18")
    assert not b.of("sub")
    b.place("R1")                                    # R2 was the one that moved
    assert [e["move"] for e in b.of("sub")] == ["4:R2-S18"]


def test_marble_knocked_out_and_put_back_is_nothing():
    b = started(5, 3)
    b.lift("R3")
    b.wait(900)
    b.place("R3")
    assert not b.of("sub") and not b.rejects() and b.state == states.MOVING
    assert b.position() == START


def test_marble_bumped_into_a_neighbouring_hole_is_a_wrong_placement_then_fixed():
    b = started(5, 3)
    b.move("R6", "R7")
    assert b.state == states.MOVING
    assert b.mark("R7") == sc.WRONG and b.colour("R7") == mark_colour(sc.WRONG)
    assert ("R11", 5) in b.targets() and ("R9", 3) in b.targets()
    assert "R7" in b.rejects()[-1] and "R6" in b.rejects()[-1]
    assert b.position() == START
    b.move("R7", "R6")
    assert not b.lit() and b.position() == START and not b.of("sub")


def test_wrong_placement_then_moved_to_a_target():
    b = started(5, 3)
    b.move("R1", "R7")
    assert b.mark("R7") == sc.WRONG
    assert b.targets() == [("S16", 3), ("S18", 5)]
    reason = b.rejects()[-1]
    assert "R7 is not a target of the marble from R1" in reason
    b.move("R7", "S18")
    assert [e["move"] for e in b.of("sub")] == ["5:R1-S18"]
    assert not b.lit()


def test_wrong_marble_moved_that_cannot_move_is_a_repair_naming_it():
    b = started(4, 4, position=GOAL3)
    b.lift("S22")
    assert b.mark("S22") == sc.NOMOVE and not b.targets()
    b.place("S23")
    assert b.state == states.REPAIR
    rep = b.of("repair")[-1]
    assert "S22 cannot move" in rep["reason"]
    assert rep["missing"] == ["S22"] and rep["extra"] == ["S23"]
    assert b.colour("S22") == mark_colour(sc.MISSING)
    assert b.colour("S23") == mark_colour(sc.EXTRA)
    b.move("S23", "S22")
    assert b.state == states.MOVING and b.of("repair_end")
    assert b.position() == GOAL3


def test_sub_move_that_makes_the_other_die_unplayable_is_rejected_and_never_lit():
    b = started(6, 4, position=TIGHT)
    b.lift("S17")
    assert b.targets() == [("S23", 6)]          # 4:S17-S21 is legal but a dead end
    b.place("S21")
    assert not b.of("sub")
    assert b.rejects()[-1] == "4:S17-S21 leaves die 6 unplayable"
    assert b.mark("S21") == sc.WRONG and b.targets() == [("S23", 6)]
    assert b.position() == TIGHT


def test_undo_by_moving_the_marble_back():
    b = started(5, 3)
    b.move("R1", "S18")
    b.lift("S18")
    assert b.mark("R1") == sc.BACK and ("S21", 3) in b.targets()
    b.place("R1")
    assert [e["move"] for e in b.of("undo")] == ["5:R1-S18"]
    assert b.of("undo")[-1]["how"] == "board"
    assert b.board.controller.remaining_dice() == [5, 3]
    assert b.position() == START


def test_undo_of_the_earlier_sub_move_keeps_the_later_one():
    b = started(5, 3)
    b.move("R1", "S18")
    b.move("R2", "S17")
    assert b.state == states.TURN_COMPLETE
    b.move("S18", "R1")                          # the first sub-move taken back
    assert [e["move"] for e in b.of("undo")] == ["5:R1-S18"]
    assert b.board.controller.turn_notation() == "53 3:R2-S17"
    assert b.board.controller.remaining_dice() == [5]
    assert b.state == states.MOVING


def test_last_sub_move_can_be_undone_in_turn_complete():
    b = started(5, 3)
    b.move("R1", "S18")
    b.move("R2", "S17")
    assert b.state == states.TURN_COMPLETE
    b.move("S17", "R2")
    assert b.state == states.MOVING
    assert b.board.controller.remaining_dice() == [3]
    # R3 + 3 = R6 is taken and so is its partner S18 (R1 went there): R3 cannot move
    b.lift("R3")
    assert b.mark("R3") == sc.NOMOVE and not b.targets()
    b.place("R7")
    assert b.state == states.REPAIR and "R3 cannot move with 3" in b.of("repair")[-1]["reason"]


def test_placed_then_moved_on_is_the_second_sub_move_when_legal():
    b = started(5, 3)
    b.move("R1", "S18")
    b.move("S18", "S21")
    assert [e["move"] for e in b.of("sub")] == ["5:R1-S18", "3:S18-S21"]
    assert b.state == states.TURN_COMPLETE


def test_placed_then_moved_on_is_a_correction_when_not_a_second_sub_move():
    b = started(5, 3)
    b.move("R6", "R11")
    b.move("R11", "R9")                          # back 2 fields: R6 + 3 instead
    assert [e["move"] for e in b.of("sub")] == ["5:R6-R11", "3:R6-R9"]
    assert [e["move"] for e in b.of("undo")] == ["5:R6-R11"]
    assert b.board.controller.remaining_dice() == [5]


def test_one_marble_through_both_dice_without_settling_in_between():
    b = started(5, 3)
    # R6 held on R9 for only 100 ms (below the place settle), then on to R14
    b.lift("R6")
    b.raw_set("R9", True)
    b.wait(100)
    b.raw_set("R9", False)
    b.place("R14")
    # both orders of the dice give the same position: either reading is the turn
    assert [e["move"] for e in b.of("sub")] in (["3:R6-R9", "5:R9-R14"],
                                                ["5:R6-R11", "3:R11-R14"])
    assert not b.of("place")[:-1] or b.of("place")[-1]["pos"] == "R14"
    assert b.state == states.TURN_COMPLETE
    assert b.position() == "ooooo........o........../oooooo.................. 0-0 B"


# ---------------------------------------------------------------- undo button

def test_undo_button_undoes_last_sub_move_and_asks_to_put_it_back():
    b = started(5, 3)
    b.move("R1", "S18")
    b.press("undo")
    assert b.of("undo")[-1] == dict(b.of("undo")[-1], move="5:R1-S18", how="button")
    assert b.state == states.REPAIR
    assert b.mark("R1") == sc.MISSING and b.mark("S18") == sc.EXTRA
    b.move("S18", "R1")
    assert b.state == states.MOVING and b.position() == START
    assert b.board.controller.remaining_dice() == [5, 3]


def test_undo_button_with_nothing_to_undo_is_rejected():
    b = Script()
    b.press("undo")
    assert "nothing to undo" in b.rejects()[-1]
    b.roll(5, 3)
    b.press("undo")
    assert "nothing to undo" in b.rejects()[-1]


# ---------------------------------------------------------------- goal

def goal_started(d2=2):
    b = started(3, d2, position=GOAL3)
    b.move("S22", "GS")
    assert b.state == states.GOAL_PENDING
    return b


def test_goal_lights_score_field_and_reinsertion_then_either_order():
    b = goal_started()
    g = b.of("goal")[-1]
    assert g["goal"] == "GS" and g["player"] == "A" and g["ins"] == "S7"
    assert b.of("sub")[-1]["move"] == "3:S22-GS*S7"
    assert b.mark("A1") == sc.SCORE and b.mark("S7") == sc.REINSERT
    assert b.mark("GS") == sc.GOAL
    # piece first
    b.move("A0", "A1")
    assert b.of("score")[-1]["score"] == 1
    assert b.state == states.GOAL_PENDING and b.mark("A1") == 0 and b.mark("S7") == sc.REINSERT
    b.move("GS", "S7")
    assert b.of("reinsert")[-1]["pos"] == "S7"
    assert b.state == states.MOVING
    assert b.board.controller.remaining_dice() == [2]
    assert b.position() == "ooooo.................../ooooooo................. 1-0 A"


def test_goal_reinsertion_first_then_score():
    b = goal_started()
    b.move("GS", "S7")
    assert b.state == states.GOAL_PENDING and b.mark("A1") == sc.SCORE
    b.move("A0", "A1")
    assert b.state == states.MOVING


def test_no_other_sub_move_while_goal_pending():
    b = goal_started()
    b.move("R1", "R9")
    assert b.state == states.REPAIR
    assert b.board.controller.turn_notation() == "32 3:S22-GS*S7"
    assert "finish the goal first" in b.of("repair")[-1]["reason"]
    b.move("R9", "R1")
    assert b.state == states.GOAL_PENDING


def test_score_is_authoritative_piece_off_its_field_is_a_repair():
    b = goal_started()
    b.move("A0", "A1")
    b.move("GS", "S7")
    assert b.state == states.MOVING
    b.move("A1", "A2")
    assert b.state == states.REPAIR
    assert b.mark("A1") == sc.MISSING and b.mark("A2") == sc.EXTRA
    b.move("A2", "A1")
    assert b.state == states.MOVING


def test_sixth_goal_ends_turn_and_game():
    pos = "ooooo.................../oooooo...............o.. 5-2 A"
    b = started(3, 4, position=pos)
    b.move("S22", "GS")
    assert b.state == states.GOAL_PENDING and b.mark("AC") == sc.SCORE
    b.move("A5", "AC")
    b.move("GS", "S7")
    assert b.state == states.GAME_OVER
    go = b.of("game_over")[-1]
    assert go["winner"] == "A" and go["how"] == "centre" and go["score"] == "6-2"
    assert b.of("turn")[-1]["turn"] == "43 3:S22-GS*S7"
    assert b.mark("AC") == sc.WIN
    b.roll(1, 1)
    assert "game is over" in b.rejects()[-1]


# ---------------------------------------------------------------- repair

def test_repair_before_the_roll_and_resume():
    b = Script()
    b.move("R1", "R9")
    assert b.state == states.REPAIR
    assert b.mark("R1") == sc.MISSING and b.mark("R9") == sc.EXTRA
    b.roll(5, 3)
    assert b.rejects()[-1] == "repair the board first: the board changed before the roll"
    # every later refusal names the repair's own reason once (the text grew by one
    # prefix a press, and took up other refusals' texts: the undo's below)
    b.press("undo")
    b.roll(5, 3)
    b.roll(5, 3)
    assert b.rejects()[-1] == "repair the board first: the board changed before the roll"
    b.move("R9", "R1")
    assert b.state == states.WAITING and b.of("repair_end")


def test_lifted_marble_before_the_roll_is_shown_and_blocks_the_roll():
    b = Script()
    b.lift("R1")
    assert b.state == states.WAITING and b.mark("R1") == sc.NOMOVE
    b.roll(5, 3)
    assert "R1" in b.rejects()[-1]
    b.place("R1")
    b.roll(5, 3)
    assert b.state == states.MOVING


def test_repair_mid_turn_resumes_exactly_where_it_was():
    b = started(5, 3)
    b.move("R1", "S18")
    b.raw_set("R2", False)
    b.raw_set("R3", False)
    b.raw_set("R4", False)                         # three marbles swept off
    b.wait(30)
    assert b.state == states.REPAIR
    assert set(b.of("repair")[-1]["missing"]) == {"R2", "R3", "R4"}
    for h in ("R2", "R3", "R4"):
        b.raw_set(h, True)
    b.wait(200)
    assert b.state == states.MOVING
    assert b.board.controller.turn_notation() == "53 5:R1-S18"
    assert b.board.controller.remaining_dice() == [3]


def test_illegal_position_is_never_accepted():
    b = started(5, 3)
    # two marbles moved at once to fields no pair of sub-moves reaches
    b.raw_set("R3", False)
    b.raw_set("R12", True)
    b.raw_set("R4", False)
    b.raw_set("R13", True)
    b.wait(200)
    assert b.state in (states.REPAIR, states.MOVING)
    assert not b.of("sub")
    assert b.position() == START


# ---------------------------------------------------------------- moksha, match

def test_moksha_after_the_roll_ends_the_game_in_a_draw():
    b = Script(position=TIGHT)
    b.roll(6, 6)
    assert b.state == states.MOKSHA
    assert b.of("moksha")[-1]["roll"] == "66"
    go = b.of("game_over")[-1]
    assert go["winner"] is None and go["how"] == "moksha"
    assert list(b.board.controller.game.record) == ["66 Moksha"]


def test_match_final_turn_then_second_game_with_the_other_starter():
    near = "ooooo.................../oooooo...............o.. 5-0 A"
    b = Script(position=near, match=True, starter=0)
    b.roll(3, 1)
    b.move("S22", "GS")
    b.move("A5", "AC")
    b.move("GS", "S7")
    assert b.of("final_turn")[-1]["player"] == "B"
    assert b.state == states.WAITING
    assert b.board.controller.game.pos.mover == 1
    b.roll(5, 3)
    b.move("S1", "R18")
    b.move("S2", "R17")
    assert b.state == states.GAME_OVER
    go = b.of("game_over")[-1]
    assert go["winner"] == "A" and go["points"] == [6, 0]
    # the second game: B starts; the board must be set up again (a repair)
    b.press("roll")
    assert b.board.controller.match.games[1].starter == 1
    assert b.state == states.REPAIR
    b.raw[:] = from_position(Position())
    b.wait(200)
    assert b.state == states.WAITING and b.of("repair_end")
    assert b.board.controller.turn.mover == 1
    b.roll(5, 3)
    b.move("S1", "R18")
    assert b.of("sub")[-1]["move"] == "5:S1-R18" and b.of("sub")[-1]["player"] == "B"


# ---------------------------------------------------------------- more goals

# R22 with a 3 enters GR (B's goal): under owner_scores it scores for B.
OPP_GOAL = "ooooo................o../oooooo.................. 0-0 A"


def test_goal_into_the_opponents_goal_moves_the_owners_piece():
    b = started(3, 2, position=OPP_GOAL)
    b.lift("R22")
    assert ("GR", 3) in b.targets()
    assert b.colour("GR") == b.die_colour(3)
    b.place("GR")
    g = b.of("goal")[-1]
    assert g["goal"] == "GR" and g["player"] == "B" and g["score"] == "0-1"
    assert b.mark("B1") == sc.SCORE and b.mark("A1") == 0
    b.move("B0", "B1")
    b.move("GR", g["ins"])
    assert b.state == states.MOVING
    assert b.position().endswith(" 0-1 A")


def test_opponent_goal_forbidden_is_never_lit_nor_accepted():
    b = started(3, 2, position=OPP_GOAL, opponent_goal="forbidden")
    b.lift("R22")
    assert ("GR", 3) not in b.targets()
    b.place("GR")
    assert b.state == states.MOVING and b.mark("GR") == sc.WRONG
    assert "GR is not a target of the marble from R22" in b.rejects()[-1]
    assert b.targets() == [("R24", 2)]
    assert not b.of("sub")
    b.move("GR", "R24")
    assert b.of("sub")[-1]["move"] == "2:R22-R24"


def test_goal_giving_the_opponent_six_ends_a_single_game_for_the_opponent():
    pos = "ooooo................o../oooooo.................. 2-5 A"
    b = started(3, 2, position=pos)
    b.move("R22", "GR")
    b.move("B5", "BC")
    b.move("GR", b.of("goal")[-1]["ins"])
    assert b.state == states.GAME_OVER
    assert b.of("game_over")[-1]["winner"] == "B"


def test_undo_button_takes_back_a_goal_and_asks_for_the_board_back():
    b = goal_started()
    b.move("A0", "A1")
    b.press("undo")
    assert b.of("undo")[-1]["move"] == "3:S22-GS*S7"
    assert b.state == states.REPAIR
    assert b.mark("S22") == sc.MISSING and b.mark("GS") == sc.EXTRA
    assert b.mark("A0") == sc.MISSING and b.mark("A1") == sc.EXTRA
    b.move("A1", "A0")
    b.move("GS", "S22")
    assert b.state == states.MOVING and b.position() == GOAL3
    assert b.board.controller.remaining_dice() == [3, 2]


def test_lift_and_place_events_name_every_hole_pieces_too():
    b = goal_started()
    b.move("A0", "A1")
    assert [e["pos"] for e in b.of("lift")][-1] == "A0"
    assert [e["pos"] for e in b.of("place")][-1] == "A1"


def test_rejections_come_with_the_time_of_the_tick():
    b = started(5, 3)
    b.move("R1", "R7")
    rej = b.of("reject")[-1]
    assert rej["what"] == "place" and rej["t"] == b.of("place")[-1]["t"]


def test_goal_completed_during_a_repair_with_the_next_marble_already_in_the_air():
    b = goal_started(d2=1)
    b.move("A0", "A1")
    b.lift("S1")                                 # a neighbour knocked out: repair
    assert b.state == states.REPAIR
    b.move("GS", "S7")                           # the reinsertion is done meanwhile
    b.lift("R5")                                 # the next sub-move begins
    b.place("S1")                                # the neighbour is back
    assert b.state == states.MOVING and b.of("repair_end")
    assert ("R6", 1) in b.targets()
    b.place("R6")
    assert b.state == states.TURN_COMPLETE
    assert b.of("turn_complete")[-1]["turn"] == "31 3:S22-GS*S7 1:R5-R6"


def test_next_due_announces_the_debounce_and_the_turn_completion():
    b = started(5, 3)
    assert b.board.next_due() == -1                 # nothing pending
    b.move("R1", "S18")
    b.lift("R2")
    b.raw_set("S17", True)
    b.board.tick(b.t + 2, b.raw)                    # seen, settles 150 ms later
    b.t += 2
    assert b.board.next_due() == b.cfg.settle_place_ms
    while b.state == states.MOVING and not b.board.controller.wait_settle:
        b.t += 2
        b.board.tick(b.t, b.raw)
    assert b.board.next_due() == 0                  # the turn completes next tick
    b.t += 2
    b.board.tick(b.t, b.raw)
    assert b.state == states.TURN_COMPLETE and b.board.next_due() == -1


def test_goal_through_both_dice_with_the_goal_hole_never_settled():
    # S22 goes 2 to S24 and 1 into GS within the placement settle, and the marble is
    # taken from the goal and put on its reinsertion field S7 at once: both sub-moves
    # read from the final frame, the goal waits only for the scoring piece.
    b = started(2, 1, position=GOAL3)
    b.lift("S22")
    b.raw_set("S24", True)
    b.wait(60)
    b.raw_set("S24", False)
    b.raw_set("GS", True)
    b.wait(60)
    b.raw_set("GS", False)
    b.place("S7")
    assert [e["move"] for e in b.of("sub")] == ["2:S22-S24", "1:S24-GS*S7"]
    assert b.state == states.GOAL_PENDING and b.mark("A1") == sc.SCORE
    assert b.of("reinsert")
    b.move("A0", "A1")
    assert b.state == states.TURN_COMPLETE


def test_a_new_game_after_a_finished_one_asks_to_set_up_the_board():
    """After a finished game the board still shows its end: the new game's repair
    asks to set it up, not 'the board changed'; a game that is not after a finished
    one still says the board changed."""
    from samsara.config import Config
    from samsara.core import Board
    from samsara.frame import from_position
    from samsara.rules.position import Position
    end = Position.parse("o....o........o.o......o/.o...o....o..o..oo.o.... 6-5 B")
    for before, words in ((states.GAME_OVER, "set up the board for the new game"),
                          (states.WAITING, "the board changed before the roll")):
        b = Board(Config())
        b.controller.state = before
        b.new_game(now_ms=100, frame=from_position(end))
        assert b.controller.state == states.REPAIR
        assert b.controller.view.reason.startswith(words)
