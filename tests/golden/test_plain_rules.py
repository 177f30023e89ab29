"""Tests of the plain reference implementation itself, chiefly against every
worked example in docs/rules.md section 7."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import plain_rules as pr  # noqa: E402

START = pr.START_POSITION


def moves_for(position, die, opponent_goal=pr.OWNER_SCORES):
    """Sub-moves as 'from-to' strings (with '*reinsert' after a goal)."""
    found = []
    for move in pr.sub_moves(pr.parse_position(position), die, opponent_goal):
        found.append(move["text"].split(":", 1)[1])
    return found


def moves_from(position, die, origin, opponent_goal=pr.OWNER_SCORES):
    return sorted(m for m in moves_for(position, die, opponent_goal) if m.startswith(origin + "-"))


def board_of(position_text):
    return position_text.split(" ")[0]


# --- section 5: the position string ----------------------------------------


def test_start_position_roundtrip():
    pos = pr.parse_position(START)
    assert pr.format_position(pos) == START
    assert pr.marble_fields(pos) == ["R1", "R2", "R3", "R4", "R5", "R6", "S1", "S2", "S3", "S4", "S5", "S6"]
    assert pos["score"] == {"A": 0, "B": 0}
    assert pos["mover"] == "A"


@pytest.mark.parametrize(
    "text",
    [
        "oooooo................../oooooo.................. 0-0",  # no mover
        "oooooo................../oooooo.................. 0-0 C",  # bad mover
        "oooooo................../oooooo.................. 7-0 A",  # score > 6
        "oooooo................../oooooo.................. 0:0 A",  # bad separator
        "ooooooo................./oooooo.................. 0-0 A",  # 13 marbles
        "ooooo.................../oooooo.................. 0-0 A",  # 11 marbles
        "oooooo.................../ooooo.................. 0-0 A",  # lane lengths
        "oooooo..................|oooooo.................. 0-0 A",  # no slash
        "oooooo..........x......./oooooo.................. 0-0 A",  # bad char
        "oooooo................../oooooo..................  0-0 A",  # double space
    ],
)
def test_invalid_position_strings(text):
    with pytest.raises(ValueError):
        pr.parse_position(text)


def test_partner_fields():
    assert pr.partner_of("R1") == "S13"
    assert pr.partner_of("S13") == "R1"
    assert pr.partner_of("R12") == "S24"
    assert pr.partner_of("S1") == "R13"
    assert pr.partner_of("R24") == "S12"
    for name in pr.all_field_names():
        assert pr.partner_of(pr.partner_of(name)) == name


# --- section 7: worked examples ---------------------------------------------


def test_example_start_die_5():
    moves = moves_for(START, 5)
    expected = "R1-S18 R2-R7 R3-R8 R4-R9 R5-R10 R6-R11 S1-R18 S2-S7 S3-S8 S4-S9 S5-S10 S6-S11"
    assert sorted(moves) == sorted(expected.split())
    assert len(moves) == 12


def test_example_start_die_3():
    moves = moves_for(START, 3)
    expected = "R1-S16 R2-S17 R3-S18 R4-R7 R5-R8 R6-R9 S1-R16 S2-R17 S3-R18 S4-S7 S5-S8 S6-S9"
    assert sorted(moves) == sorted(expected.split())


def test_example_connecting_line_r11_to_r14():
    position = "ooooo.....o............./oooooo.................. 0-0 A"
    assert moves_from(position, 3, "R11") == ["R11-R14"]
    (move,) = [m for m in pr.sub_moves(pr.parse_position(position), 3) if m["from"] == "R11"]
    assert board_of(pr.format_position(move["position"])) == (
        "ooooo........o........../oooooo.................."
    )


def test_example_goal_gs_and_reinsertion_s7():
    position = "ooooo.................../oooooo...............o.. 0-0 A"
    assert moves_from(position, 3, "S22") == ["S22-GS*S7"]
    (move,) = [m for m in pr.sub_moves(pr.parse_position(position), 3) if m["from"] == "S22"]
    assert move["text"] == "3:S22-GS*S7"
    assert pr.format_position(move["position"]) == (
        "ooooo.................../ooooooo................. 1-0 A"
    )
    # With a 4 the marble on S22 cannot move (no overshoot).
    assert moves_from(position, 4, "S22") == []


def test_example_lane_change_at_start_into_goal():
    position = "ooooo......o............/ooooo..................o 0-0 A"
    assert moves_from(position, 1, "R12") == ["R12-GS*S6", "R12-R13"]
    assert moves_from(position, 1, "S24") == ["S24-GS*S6", "S24-R13"]


def test_example_reinsertion_skips_field_with_occupied_partner():
    position = "oooo..oo......o........./oo...........o.o.....o.. 0-0 A"
    assert moves_from(position, 3, "S22") == ["S22-GS*S4"]


def test_example_turn_notation_from_section_5():
    notations = pr.turn_notations(START, 5, 3)
    # 53 5:R1-S18 3:R2-S17: R1 and R2 leave, S17 and S18 are taken.
    pos = pr.parse_position(START)
    pos["board"]["R1"] = False
    pos["board"]["R2"] = False
    pos["board"]["S17"] = True
    pos["board"]["S18"] = True
    pos["mover"] = "B"
    key = pr.format_position(pos)
    assert notations[key] == "53 5:R1-S18 3:R2-S17"
    moksha, results = pr.complete_turns(START, 5, 3)
    assert not moksha and key in results


# --- further rules -----------------------------------------------------------


def test_goal_for_the_opponent_scores_for_owner_and_forbidden_option():
    # A to move; R23 can reach GR (B's goal) with a 2.
    position = "oooooo................o./ooooo................... 0-0 A"
    assert moves_from(position, 2, "R23") == ["R23-GR*R7"]
    (move,) = [m for m in pr.sub_moves(pr.parse_position(position), 2) if m["from"] == "R23"]
    assert move["position"]["score"] == {"A": 0, "B": 1}
    assert moves_from(position, 2, "R23", pr.FORBIDDEN) == []
    # A's own goal stays allowed under 'forbidden'.
    position = "oooooo................../ooooo................o.. 0-0 A"
    assert moves_from(position, 3, "S22", pr.FORBIDDEN) == ["S22-GS*S6"]
    # For B the roles swap.
    position = "oooooo................../ooooo................o.. 0-0 B"
    assert moves_from(position, 3, "S22", pr.FORBIDDEN) == []
    assert moves_from(position, 3, "S22") == ["S22-GS*S6"]


def test_landing_on_occupied_field_with_occupied_partner_is_illegal():
    # R1 with a 2 would land on R3 (occupied); partner S15 occupied too.
    position = "o.o....................o/oooooooo......o......... 0-0 A"
    pos = pr.parse_position(position)
    assert pos["board"]["R3"] and pos["board"]["S15"]
    assert moves_from(position, 2, "R1") == []


def test_no_lane_change_at_start_when_partner_is_free():
    position = "o......................o/oooooooooo.............. 0-0 A"
    assert not pr.parse_position(position)["board"]["S13"]
    assert moves_from(position, 1, "R1") == ["R1-R2"]


def test_lane_change_at_start_and_end_in_one_sub_move():
    # R1's partner S13 is occupied: start change to S13, S13+2 = S15 occupied,
    # partner R3 free -> lands on R3 (same as plain R1->R3), deduplicated.
    position = "o......................o/oooooooo....o.o......... 0-0 A"
    assert moves_from(position, 2, "R1") == ["R1-R3"]
    # S13+3 = S16 free: R1 may also end on S16.
    assert moves_from(position, 3, "R1") == ["R1-R4", "R1-S16"]


def test_score_is_capped_at_six_and_does_not_end_turn():
    # A already at 6 (e.g. final turn in a match): a goal in GS keeps 6.
    position = "oooooo................../ooooo................o.. 6-2 B"
    (move,) = [m for m in pr.sub_moves(pr.parse_position(position), 3) if m["from"] == "S22"]
    assert move["position"]["score"] == {"A": 6, "B": 2}
    assert not move["won"]
    moksha, results = pr.complete_turns(position, 3, 1)
    assert not moksha
    # Every result is a full two-die turn: at least one result scores 6-2 and
    # moved two marbles; none ended after one die.
    for result in results:
        assert result.endswith(" A")


def test_five_to_six_ends_the_turn_at_once():
    position = "oooooo................../ooooo................o.. 5-0 A"
    moksha, results = pr.complete_turns(position, 3, 6)
    assert not moksha
    # S22 enters GS with the 3 (reinserted on S6) and the 6 is not played:
    # this board differs from the input by that one sub-move only.
    assert "oooooo................../oooooo.................. 6-0 B" in results
    notations = pr.turn_notations(position, 3, 6)
    assert notations["oooooo................../oooooo.................. 6-0 B"] == "36 3:S22-GS*S6"
    # Playing the 6 first is still allowed; then the 3 wins.
    assert "ooooo......o............/oooooo.................. 6-0 B" in results


def test_five_to_six_for_the_opponent_also_ends_the_turn():
    position = "oooooo................o./ooooo................... 0-5 A"
    moksha, results = pr.complete_turns(position, 2, 4)
    assert "ooooooo................./ooooo................... 0-6 B" in results


# Twelve marbles filling the double spaces 2, 6, 10, 14, 18, 22 (R k with
# S k+12 and S k with R k+12): with a 4 every target double space is full.
BLOCKED_FOR_FOURS = ".o...o...o...o...o...o../.o...o...o...o...o...o.."


@pytest.mark.parametrize("mover", ["A", "B"])
@pytest.mark.parametrize("option", pr.OPPONENT_GOAL_OPTIONS)
def test_moksha_when_nothing_moves(mover, option):
    position = BLOCKED_FOR_FOURS + " 0-0 " + mover
    assert pr.sub_moves(pr.parse_position(position), 4, option) == []
    assert pr.complete_turns(position, 4, 4, option) == (True, [])
    # Any other roll moves something.
    assert pr.complete_turns(position, 4, 3, option)[0] is False


def test_one_die_playable_but_not_both_is_moksha():
    # Double spaces 2, 8, 14, 20 full; R22..R24 cannot move a 6 (no
    # overshoot); R15 can move its 6 to R21, after which nothing can move a 6.
    position = ".o.....o.....oo....o.ooo/.o.....o.....o.....o.... 3-5 B"
    singles = pr.sub_moves(pr.parse_position(position), 6)
    assert [m["text"] for m in singles] == ["6:R15-R21"]
    assert pr.sub_moves(singles[0]["position"], 6) == []
    assert pr.complete_turns(position, 6, 6) == (True, [])


def test_dedupe_by_resulting_position_and_sorted():
    moksha, results = pr.complete_turns(START, 2, 2)
    assert results == sorted(set(results))
    for result in results:
        assert result.endswith(" B")
        pr.parse_position(result)  # still 12 marbles


def test_roll_order_does_not_matter():
    one_six = set(pr.complete_turns(START, 1, 6)[1])
    six_one = set(pr.complete_turns(START, 6, 1)[1])
    assert one_six == six_one
