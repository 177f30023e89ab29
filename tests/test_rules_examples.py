"""The worked examples of docs/rules.md §7 and the rulebook's situations."""
import pytest

from samsara.rules.position import Position, START
from rules_helpers import moves_of, turns_of

START_TEXT = "oooooo................../oooooo.................. 0-0 A"


def test_start_position_string():
    # The documented start (docs/rules.md §5) is the engine's one definition.
    from samsara.rules import position
    assert START.format() == START_TEXT == position.START_TEXT
    assert Position.parse(START_TEXT) == START


def test_start_die_5_all_twelve():
    assert moves_of(START_TEXT, 5) == set(
        "R1-S18 R2-R7 R3-R8 R4-R9 R5-R10 R6-R11 S1-R18 S2-S7 S3-S8 S4-S9 S5-S10 S6-S11".split())


def test_start_die_3_all_twelve():
    assert moves_of(START_TEXT, 3) == set(
        "R1-S16 R2-S17 R3-S18 R4-R7 R5-R8 R6-R9 S1-R16 S2-R17 S3-R18 S4-S7 S5-S8 S6-S9".split())


def test_connecting_line_r11_to_r14():
    # R11 + 3 counts R12, R13 (across the connecting line), R14.
    assert "R11-R14" in moves_of("ooooo.....o............./oooooo.................. 0-0 A", 3)


def test_goal_and_reinsertion_s22():
    pos = "ooooo.................../oooooo...............o.. 0-0 A"
    assert "S22-GS*S7" in moves_of(pos, 3)
    # With a 4 the marble on S22 would pass the goal.
    assert not any(m.startswith("S22-") for m in moves_of(pos, 4))
    turns = turns_of(pos, 3, 1)
    # After the goal A's score is 1 and the marble stands on S7.
    assert any(res.endswith(" 1-0 B") and res.split("/")[1][6] == "o" for res in turns)


def test_lane_change_at_start_into_goal_r12_s24():
    pos = "ooooo......o............/ooooo..................o 0-0 A"
    m = moves_of(pos, 1)
    assert {"R12-GS*S6", "R12-R13", "S24-GS*S6", "S24-R13"} <= m


def test_reinsertion_skips_half_free_double_space():
    # S3 is free but its partner R15 is occupied, so the marble goes to S4.
    pos = "oooo..oo......o........./oo...........o.o.....o.. 0-0 A"
    assert "S22-GS*S4" in moves_of(pos, 3)


def test_rulebook_lane_change_at_end():
    # Fig. 3: landing on an occupied field moves the marble to the free partner half.
    # Start position, R1 with a 5 reaches R6 (occupied): it lands on S18.
    assert "R1-S18" in moves_of(START_TEXT, 5)
    assert "R1-R6" not in moves_of(START_TEXT, 5)


def test_rulebook_both_halves_occupied_blocks():
    # R1 + 1 = R2 occupied; partner S14 occupied too: R1 cannot play a 1 plainly.
    pos = "oooooo................../ooooo........o.......... 0-0 A"
    p = Position.parse(pos)
    assert p.occupied(1) and p.occupied(24 + 13)
    assert "R1-R2" not in moves_of(p, 1) and "R1-S14" not in moves_of(p, 1)


def test_both_dice_may_move_the_same_marble():
    turns = turns_of(START_TEXT, 5, 3)
    # R6 moves 5 to R11, then 3 from R11 to R14 across the connecting line.
    assert any(n in ("53 5:R6-R11 3:R11-R14", "53 3:R6-R9 5:R9-R14") for n in turns.values())


def test_doubles_are_two_sub_moves():
    for note in turns_of(START_TEXT, 4, 4).values():
        assert len(note.split()) == 3


def test_turn_results_flip_the_mover():
    for res in turns_of(START_TEXT, 6, 2):
        assert res.endswith(" B")


@pytest.mark.parametrize("d1,d2", [(1, 2), (6, 6), (5, 3)])
def test_turn_notation_writes_larger_die_first(d1, d2):
    for note in turns_of(START_TEXT, d1, d2).values():
        assert note.split()[0] == "%d%d" % (max(d1, d2), min(d1, d2))
