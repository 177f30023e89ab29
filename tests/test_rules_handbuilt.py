"""Hand-built positions for every rule branch, with the expected results worked out by
hand in each test's comment (docs/rules.md §1-§4)."""
import pytest

from samsara.rules import moves as rules
from samsara.rules.game import Game, Match, GameOverError, side_counts
from samsara.rules.position import Position
from rules_helpers import moves_of, turns_of

# Four full double spaces six fields apart ({R2,S14}, {R8,S20}, {R14,S2}, {R20,S8})
# plus R22, R24, S21, S24 which a 6 carries past their goals.
MOKSHA_66 = ".o.....o.....o.....o.o.o/.o.....o.....o.....oo..o 0-0 A"


def test_moksha_double_six():
    # Every marble of a full double space reaches the next full double space with a 6
    # (e.g. R2 -> R8 occupied, partner S20 occupied) or, changing lanes at the start,
    # lands on a full one too (R2 from S14 -> S20, partner R8 occupied); R20 and S20
    # overshoot plainly; R22, R24, S21, S24 overshoot and their partners S10, S12, R9,
    # R12 are empty, so they cannot change lanes.  No sub-move at all: Moksha.
    p = Position.parse(MOKSHA_66)
    assert moves_of(p, 6) == set()
    assert not rules.has_complete_turn(p.r, p.s, p.a, p.b, p.mover, 6, 6)
    assert rules.turn_results(MOKSHA_66, 6, 6) == (True, [])
    g = Game(p)
    assert g.moksha_roll(6, 6)
    # Other rolls are not Moksha here: R22 + 2 = R24 occupied -> S12.
    assert rules.has_complete_turn(p.r, p.s, p.a, p.b, p.mover, 2, 6)


def test_moksha_when_only_one_die_is_playable():
    # As MOKSHA_66 but the marble of S21 stands on S15: S15 + 6 = S21 (free) is the only
    # sub-move of a 6; afterwards S21 + 6 passes the goal and the rest is blocked as
    # before, so the second 6 cannot be played: Moksha (docs/rules.md §3 Decision).
    pos = ".o.....o.....o.....o.o.o/.o.....o.....oo....o...o 0-0 A"
    assert moves_of(pos, 6) == {"S15-S21"}
    assert rules.turn_results(pos, 6, 6) == (True, [])
    g = Game(Position.parse(pos))
    note = g.apply(6, 6, [], None)
    assert note == "66 Moksha"
    assert g.result == (None, "moksha", (4, 4))


def test_opponent_goal_owner_scores_and_forbidden():
    # A to move; R22 + 3 reaches GR, B's goal.  owner_scores: B scores (0 -> 1) and the
    # marble is reinserted on R1..R12: R1..R5 are occupied, R6 is free with partner S18
    # free -> R6.  forbidden: the sub-move is illegal; R22 has no other 3.
    pos = "ooooo................o../oooooo.................. 0-0 A"
    assert "R22-GR*R6" in moves_of(pos, 3)
    assert "R22-GR*R6" not in moves_of(pos, 3, rules.FORBIDDEN)
    assert not any(m.startswith("R22-") for m in moves_of(pos, 3, rules.FORBIDDEN))
    moksha, results = rules.turn_results(pos, 3, 1)
    assert any(r.endswith(" 0-1 B") for r in results)
    moksha, results = rules.turn_results(pos, 3, 1, "forbidden")
    assert not any(r.endswith(" 0-1 B") for r in results)
    # The mover's own goal is never forbidden: B to move may enter GR.
    pos_b = pos[:-1] + "B"
    assert "R22-GR*R6" in moves_of(pos_b, 3, rules.FORBIDDEN)


def test_reinsertion_into_gr_skips_half_free_double_space():
    # B to move, R23 + 2 reaches GR.  Reinsertion scans R1..R12: R1 is free but its
    # partner S13 is occupied -> skip; R2, R3 occupied; R4 free, partner S16 free -> R4.
    pos = ".oo...................o./oooooooo....o........... 0-0 B"
    p = Position.parse(pos)
    assert p.occupied(24 + 12) and not p.occupied(0)
    assert "R23-GR*R4" in moves_of(pos, 2)


def test_start_change_and_end_change_in_one_sub_move():
    # R20 + 6 passes the goal plainly.  Its partner S8 is occupied, so it may count
    # from S8: S9..S14; S14 is occupied, so it takes S14's partner R2 (free): the
    # marble goes from R20 to R2 in one sub-move, both lane changes at once.
    pos = "o.o.o..............o..../oo.....o.....o..ooo...o. 0-0 A"
    p = Position.parse(pos)
    assert p.occupied(24 + 7) and p.occupied(24 + 13) and not p.occupied(1)
    assert "R20-R2" in moves_of(pos, 6)
    assert {m for m in moves_of(pos, 6) if m.startswith("R20-")} == {"R20-R2"}


def test_start_and_end_change_same_result_counted_once():
    # R1 with partner S13 occupied, die 2: plain R1 -> R3 (free); via S13 -> S15
    # occupied -> partner R3.  Same resulting position: listed once.
    pos = "o...ooo................./ooooo.o.....o.o......... 0-0 A"
    p = Position.parse(pos)
    assert p.occupied(24 + 12) and p.occupied(24 + 14) and not p.occupied(2)
    ms = rules.gen_sub_moves(p.r, p.s, p.a, p.b, 0, 2, 0, 0)
    assert [(m[1], m[2]) for m in ms] == [(0, 2)]


def test_lane_change_at_start_across_connecting_line():
    # S23 + 3 passes GS plainly.  Its partner R11 is occupied, so it may count from
    # R11: R12, then R13 across the connecting line, then R14 -> free: S23-R14.
    pos = "ooooo.....o............./ooooo.................o. 0-0 A"
    assert "S23-R14" in moves_of(pos, 3)


def test_sixth_goal_with_first_die_ends_turn():
    # A has 5; S22 + 3 enters GS (6).  The turn ends at once: '63 3:S22-GS*S7' with
    # no second sub-move, and no turn plays the goal and then the 6.
    pos = "ooooo.................../oooooo...............o.. 5-2 A"
    turns = turns_of(pos, 6, 3)
    # A goal on the first die is never followed by a second sub-move.
    assert not any(len(n.split()) == 3 and "GS" in n.split()[1] for n in turns.values())
    # The goal-only turn leaves everything else in place: R1..R5, S1..S7, 6-2.  (The
    # same position is also reached by '6:S1-S7 3:S22-GS*S1'; either notation is kept.)
    assert "ooooo.................../ooooooo................. 6-2 B" in turns
    g = Game(Position.parse(pos))
    g.play_notation("63 3:S22-GS*S7")
    assert g.result == (0, "centre", (4, 0))


def test_sixth_goal_with_first_die_is_complete_even_if_second_unplayable():
    # MOKSHA_66 with A at 5 and the marble of R24 moved to S19: S19 + 6 = GS (field 25)
    # is the only 6, reinserted on S1 (free, partner R13 free); it brings A from 5 to
    # 6, so the turn is complete after one die, not Moksha.
    pos = ".o.....o.....o.....o.o../.o.....o.....o....ooo..o 5-0 A"
    assert moves_of(pos, 6) == {"S19-GS*S1"}
    moksha, results = rules.turn_results(pos, 6, 6)
    assert not moksha and len(results) == 1 and results[0].endswith(" 6-0 B")


def test_goal_for_player_already_at_six():
    # B already at 6 (A plays the final turn of a match).  R22 + 3 enters GR: B stays
    # at 6 and the turn goes on: both dice are played.
    pos = "ooooo................o../oooooo.................. 3-6 A"
    turns = turns_of(pos, 3, 1)
    gr = [n for n in turns.values() if "GR" in n]
    assert gr and all(len(n.split()) == 3 for n in gr)
    assert all(r.endswith(" 3-6 B") for r, n in turns.items() if "GR" in n)


# ---- competition rules (docs/rules.md §4) ------------------------------------------

A_SCORES = "ooooo.................../oooooo...............o.. 5-3 A"


def test_match_starter_reaches_centre_other_plays_final_turn():
    g = Game(Position.parse(A_SCORES), match=True, starter=0)
    g.play_notation("31 3:S22-GS*S7")
    assert g.result is None and g.final_turn
    # B's final turn does not reach the centre: A wins with 6 - 3 = 3 points.
    note, res = [t for t in g.legal_turns(2, 1) if t[1].b == 3][0]
    g.play_notation(note)
    assert g.result == (0, "centre", (6 - g.pos.b, 0))
    assert g.pos.b == 3


def test_match_both_reach_centre_side_counts_decide():
    # A (starter, 5) scores S22 -> GS.  B (5) then puts R24 into GR with a 1: both at 6.
    pos = "ooooo..................o/ooooo................o.. 5-5 A"
    g = Game(Position.parse(pos), match=True, starter=0)
    g.play_notation("31 3:S22-GS*S6")
    assert g.final_turn
    g.play_notation("21 1:R24-GR*R6")
    assert g.pos.a == 6 and g.pos.b == 6
    # Marbles now: R1..R6 (A's side), S1..S6 (B's side): 6 - 6 -> draw, no points.
    assert side_counts(g.pos.r, g.pos.s) == (6, 6)
    assert g.result == (None, "centre", (0, 0))


def test_match_both_reach_centre_more_marbles_wins_difference():
    # As above but one of A's start marbles stands on R16 (B's side): after both goals
    # (reinsertions S6 and R5) A's side holds R1..R5 = 5, B's side S1..S6 + R16 = 7:
    # B wins by 2.
    pos = "oooo...........o.......o/ooooo................o.. 5-5 A"
    g = Game(Position.parse(pos), match=True, starter=0)
    g.play_notation("31 3:S22-GS*S6")
    g.play_notation("21 1:R24-GR*R5")
    assert side_counts(g.pos.r, g.pos.s) == (5, 7)
    assert g.result == (1, "centre", (0, 2))


def test_match_non_starter_reaches_centre_wins_at_once():
    # B started; A reaches the centre first: no final turn, A scores 6 - 3 = 3.
    g = Game(Position.parse(A_SCORES), match=True, starter=1)
    g.play_notation("31 3:S22-GS*S7")
    assert g.result == (0, "centre", (3, 0))
    with pytest.raises(GameOverError):
        g.play_notation("11 1:R1-S14 1:R2-S15")


def test_match_score_reaches_six_in_other_players_turn_ends_at_once():
    # A starts and moves R22 into GR: B (at 5) reaches 6 in A's turn: game over at
    # once, B wins with 6 - 2 = 4 points, no final turn.
    pos = "ooooo................o../oooooo.................. 2-5 A"
    g = Game(Position.parse(pos), match=True, starter=0)
    g.play_notation("31 3:R22-GR*R6")
    assert g.result == (1, "centre", (0, 4))
    assert list(g.record) == ["31 3:R22-GR*R6"]


def test_match_moksha_in_final_turn_scores_four_each():
    g = Game(Position.parse(A_SCORES), match=True, starter=0)
    g.play_notation("31 3:S22-GS*S7")
    assert g.final_turn
    g.apply(6, 6, [], None)
    assert g.result == (None, "moksha", (4, 4))


def test_match_totals_and_alternating_starter():
    m = Match(first=0)
    g1 = m.current()
    assert g1.starter == 0 and g1.pos.mover == 0
    g1.apply(6, 6, [], None)            # Moksha: 4-4
    g2 = m.next_game()
    assert g2.starter == 1 and g2.pos.mover == 1
    g2.pos = Position.parse(A_SCORES)   # hand-built position of the second game
    g2.play_notation("31 3:S22-GS*S7")  # A (not the starter) reaches 6: 3 points
    assert m.over()
    assert m.totals() == (7, 4)
    assert m.winner() == 0
    with pytest.raises(GameOverError):
        m.next_game()


def test_match_equal_totals_is_a_draw():
    m = Match(first=1)
    m.current().apply(6, 6, [], None)
    m.next_game().apply(6, 6, [], None)
    assert m.totals() == (8, 8) and m.winner() is None


def test_single_game_first_to_six_wins():
    g = Game(Position.parse(A_SCORES))
    g.play_notation("31 3:S22-GS*S7")
    assert g.result[0] == 0 and not g.final_turn
