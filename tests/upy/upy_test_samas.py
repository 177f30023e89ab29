"""The Samas rules under MicroPython and CPython: one test per sentence of the rules
(docs/samas.md "The rules", each test named after its rule), plus the decisions that
docs/samas.md adds and the state object.  Builtins only (runs on the Unix and
WebAssembly ports; tests/test_samas_rules.py runs the same functions under pytest)."""
from samas.rules.state import State, StateError, START, HOLLOWS, STONES, JOKERS
from samas.rules.rounds import (SELECTIONS, JOKER, selection, compare, legal_selections,
                                play_round, reveal, run_out, result, SelectionError,
                                IllegalSelectionError)
from samas.rules.game import Game, ROUND_LIMIT


def st(ha, sa, ja, hb, sb, jb):
    return State((ha, hb), (sa, sb), (ja, jb))


def raises(exc, fn, *args):
    try:
        fn(*args)
    except exc:
        return True
    raise AssertionError("expected %s" % exc.__name__)


def rnd(state, a, b):
    """play_round with selection texts."""
    return play_round(state, selection(a), selection(b))


# -- "a track of 9 hollows, 1..9 from A's baseline; A's Sama-stone starts on 2 and moves
#    up, B's on 8 and moves down"

def test_the_track_has_9_hollows_numbered_from_as_baseline():
    assert HOLLOWS == 9
    for h in range(1, 10):
        st(h, 5, 2, 5 if h != 1 else 6, 5, 2)
    raises(StateError, st, 0, 5, 2, 5, 5, 2)
    raises(StateError, st, 5, 5, 2, 10, 5, 2)


def test_as_sama_stone_starts_on_2_and_moves_up():
    assert START.hole[0] == 2
    assert rnd(START, "1", "0").hole == (3, 8)


def test_bs_sama_stone_starts_on_8_and_moves_down():
    assert START.hole[1] == 8
    assert rnd(START, "0", "1").hole == (2, 7)


# -- "the two stones move independently and may share or pass a hollow"

def test_the_stones_move_independently_and_may_share_or_pass_a_hollow():
    s = st(5, 10, 2, 6, 10, 2)
    s = rnd(s, "2", "1")
    assert s.hole == (6, 6)            # shared
    s = rnd(s, "3", "0")
    assert s.hole == (7, 6)            # passed; B's stone stayed where it was
    s = rnd(s, "0", "1")
    assert s.hole == (7, 5)            # B moves on alone
    assert result(s) is None


# -- "Each player holds 13 stones and 2 jokers."

def test_each_player_holds_13_stones_and_2_jokers():
    assert STONES == 13 and JOKERS == 2
    assert START.stones == (13, 13) and START.jokers == (2, 2)
    raises(StateError, st, 2, 14, 2, 8, 13, 2)
    raises(StateError, st, 2, 13, 3, 8, 13, 2)
    raises(StateError, st, 2, -1, 2, 8, 13, 2)


# -- "A round: each secretly chooses 0, 1, 2 or 3 stones (no more than held) or one
#    joker (if held); both are revealed at once."

def test_a_choice_is_0_to_3_stones_no_more_than_held_or_one_joker_if_held():
    assert [SELECTIONS[i] for i in legal_selections(START, 0)] == ["0", "1", "2", "3", "J"]
    s = st(4, 2, 0, 6, 0, 1)
    assert [SELECTIONS[i] for i in legal_selections(s, 0)] == ["0", "1", "2"]
    assert [SELECTIONS[i] for i in legal_selections(s, 1)] == ["0", "J"]
    raises(IllegalSelectionError, rnd, s, "3", "0")
    raises(IllegalSelectionError, rnd, s, "J", "0")
    raises(IllegalSelectionError, rnd, s, "0", "1")
    raises(SelectionError, selection, "4")
    raises(SelectionError, selection, "j")


def test_both_choices_are_revealed_at_once():
    # a round takes both choices together: the same choice of A wins, ties or loses
    # by B's choice alone
    assert rnd(START, "2", "1").hole == (3, 8)
    assert rnd(START, "2", "2").hole == (2, 8)
    assert rnd(START, "2", "3").hole == (2, 7)


# -- "Equal choices (same count, or both jokers): nobody moves."

def test_equal_choices_same_count_or_both_jokers_move_nobody():
    for sel in SELECTIONS:
        assert compare(selection(sel), selection(sel)) == 0
        assert rnd(START, sel, sel).hole == START.hole, sel


# -- "A joker beats 1-3 stones and loses to 0 stones."

def test_a_joker_beats_1_to_3_stones():
    for n in ("1", "2", "3"):
        assert rnd(START, "J", n).hole == (3, 8)
        assert rnd(START, n, "J").hole == (2, 7)


def test_a_joker_loses_to_0_stones():
    assert rnd(START, "J", "0").hole == (2, 7)
    assert rnd(START, "0", "J").hole == (3, 8)


# -- "Otherwise more stones win."

def test_otherwise_more_stones_win():
    for a in range(4):
        for b in range(4):
            if a != b:
                s = rnd(START, str(a), str(b))
                assert s.hole == ((3, 8) if a > b else (2, 7)), (a, b)


# -- "The winner's Sama-stone moves one hollow toward the other side; all revealed
#    stones leave play."

def test_the_winners_sama_stone_moves_one_hollow_toward_the_other_side():
    s = st(4, 9, 2, 3, 9, 2)
    assert rnd(s, "3", "2").hole == (5, 3)
    assert rnd(s, "2", "3").hole == (4, 2)


def test_all_revealed_stones_leave_play():
    s = rnd(START, "3", "J")
    assert s.stones == (10, 13) and s.jokers == (2, 1)
    s = rnd(s, "2", "2")                # equal: nobody moves, both still leave play
    assert s.stones == (8, 11) and s.jokers == (2, 1)
    s = rnd(s, "J", "J")
    assert s.stones == (8, 11) and s.jokers == (1, 0)
    s = rnd(s, "0", "1")
    assert s.stones == (8, 10)


# -- "The game ends at once when a Sama-stone reaches the far end (A on 9, B on 1):
#    that player wins."

def test_reaching_the_far_end_ends_the_game_at_once_and_wins():
    s = rnd(st(8, 5, 1, 4, 5, 1), "1", "0")
    assert s.hole == (9, 4) and result(s) == "A"
    assert legal_selections(s, 0) == [] and legal_selections(s, 1) == []
    raises(IllegalSelectionError, rnd, s, "0", "0")
    s = rnd(st(5, 5, 1, 2, 5, 1), "J", "0")
    assert s.hole == (5, 1) and result(s) == "B"
    # at once: the far end wins even when the round also left the loser with nothing
    # (no run-out is played)
    s = rnd(st(8, 3, 0, 6, 1, 0), "1", "0")
    assert s.hole == (9, 6) and result(s) == "A"
    # A wins to 9 with its last stone: B's 3 stones would run B's stone out to 1 too,
    # but the game is already over
    s = rnd(st(8, 1, 0, 2, 3, 1), "1", "0")
    assert s.hole == (9, 2) and result(s) == "A"


# -- "After a round in which a player has no stones and no jokers left, the other
#    player's stone moves one hollow per stone (not joker) that other player still holds,
#    up to the far end, and the game ends;"

def test_after_a_player_has_nothing_left_the_other_moves_one_hollow_per_stone_held():
    s = rnd(st(3, 1, 0, 6, 5, 2), "1", "2")  # B wins to 5; A holds nothing; B holds 3
    assert s.hole == (3, 2) and s.stones == (0, 3)
    assert result(s) == "B"


def test_the_run_out_counts_stones_not_jokers():
    s = rnd(st(3, 0, 1, 7, 2, 2), "J", "J")  # A spent its last joker; B: 2 stones, 1 joker
    assert s.hole == (3, 5)
    s = rnd(st(3, 0, 1, 7, 0, 2), "J", "0")   # B holds jokers only: B does not move
    assert s.hole == (3, 6)


def test_the_run_out_stops_at_the_far_end():
    s = rnd(st(3, 1, 0, 4, 12, 2), "1", "0")   # A wins to 4 and holds nothing; B 12 stones
    assert s.hole == (4, 1) and result(s) == "B"
    s = rnd(st(4, 12, 2, 3, 1, 0), "0", "1")   # B wins to 2 and holds nothing; A 12 stones
    assert s.hole == (9, 2) and result(s) == "A"


def test_the_game_ends_after_a_player_has_nothing_left():
    s = rnd(st(5, 1, 0, 5, 1, 0), "1", "0")    # A wins to 6 and holds nothing; B: 1 stone
    assert s.hole == (6, 4)
    assert result(s) is not None
    assert legal_selections(s, 1) == []
    g = Game(st(5, 1, 0, 5, 1, 0))
    g.play(1, 0)
    assert g.over() and g.how == "run-out"


# -- "if neither reached the far end, the one closer to it wins, equal distance is a draw."

def test_after_the_run_out_the_one_closer_to_the_far_end_wins():
    s = rnd(st(5, 1, 0, 5, 1, 0), "1", "0")    # A on 6 (3 to go), B on 4 (3 to go)
    assert result(s) == "draw"
    s = rnd(st(5, 2, 0, 5, 1, 0), "1", "0")    # both still hold a stone: the game goes on
    assert s.hole == (6, 5) and result(s) is None
    s = rnd(st(6, 1, 0, 5, 0, 1), "1", "J")    # joker beats 1: B to 4; A nothing, B nothing
    assert s.hole == (6, 4) and result(s) == "draw"
    s = rnd(st(7, 1, 0, 5, 0, 1), "1", "J")    # A on 7 (2 to go), B on 4 (3 to go)
    assert s.hole == (7, 4) and result(s) == "A"
    s = rnd(st(5, 1, 0, 3, 0, 1), "1", "J")    # A on 5 (4 to go), B on 2 (1 to go)
    assert result(s) == "B"


def test_after_the_run_out_equal_distance_is_a_draw():
    s = rnd(st(4, 0, 1, 6, 0, 1), "J", "J")    # both 3 to go, both hold nothing
    assert s.hole == (4, 6) and result(s) == "draw"


# -- decisions (docs/samas.md "Decisions")

def test_when_both_hold_nothing_after_a_round_nobody_runs_out_and_distance_decides():
    s = rnd(st(4, 2, 0, 7, 1, 0), "2", "1")    # A wins to 5; both hold nothing
    assert s.hole == (5, 7) and result(s) == "A"   # A 4 to go, B 6 to go


def test_a_game_still_running_after_the_round_limit_is_scored_by_distance():
    assert ROUND_LIMIT == 100
    g = Game(st(3, 13, 2, 8, 13, 2))
    for k in range(ROUND_LIMIT - 1):
        g.play(0, 0)
        assert not g.over(), k
    g.play(0, 0)
    assert g.over() and g.how == "limit" and g.rounds == 100
    assert g.result == "A"                      # A 6 to go, B 7 to go
    g = Game()
    for k in range(ROUND_LIMIT):
        g.play(0, 0)
    assert g.result == "draw" and g.how == "limit"


def test_a_game_that_reaches_the_far_end_says_so():
    g = Game(st(8, 5, 1, 4, 5, 1))
    g.play(1, 0)
    assert g.result == "A" and g.how == "far end" and g.rounds == 1
    raises(IllegalSelectionError, g.play, 0, 0)


def test_compare_is_antisymmetric():
    for x in range(5):
        for y in range(5):
            assert compare(x, y) == -compare(y, x)
    assert JOKER == 4 and SELECTIONS[JOKER] == "J"


def test_reveal_and_run_out_make_a_round():
    s = st(3, 1, 0, 6, 5, 2)
    mid = reveal(s, 1, 2)
    assert mid.hole == (3, 5) and mid.stones == (0, 3)
    assert run_out(mid).hole == (3, 2)
    assert run_out(START) is START


# -- the state object

def test_the_state_object_round_trips():
    obj = START.to_obj()
    assert obj == {"A": {"hole": 2, "stones": 13, "jokers": 2},
                   "B": {"hole": 8, "stones": 13, "jokers": 2}}
    assert State.from_obj(obj) == START
    s = st(4, 7, 1, 5, 0, 2)
    assert State.from_obj(s.to_obj()) == s


def test_a_bad_state_object_is_refused_with_its_reason():
    good = START.to_obj()
    raises(StateError, State.from_obj, [1, 2])
    raises(StateError, State.from_obj, {"A": good["A"]})
    bad = {"A": {"hole": 2, "stones": 13}, "B": good["B"]}
    raises(StateError, State.from_obj, bad)
    bad = {"A": {"hole": 2, "stones": 13, "jokers": 2, "x": 1}, "B": good["B"]}
    raises(StateError, State.from_obj, bad)
    bad = {"A": {"hole": "2", "stones": 13, "jokers": 2}, "B": good["B"]}
    raises(StateError, State.from_obj, bad)
    bad = {"A": {"hole": True, "stones": 13, "jokers": 2}, "B": good["B"]}
    raises(StateError, State.from_obj, bad)
    raises(StateError, st, 9, 1, 0, 1, 1, 0)   # both on their far ends
    try:
        State.from_obj({"A": {"hole": 12, "stones": 13, "jokers": 2}, "B": good["B"]})
    except StateError as e:
        assert "hole" in str(e) and "1..9" in str(e), str(e)
