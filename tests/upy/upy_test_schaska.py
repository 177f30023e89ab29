"""The Schaska rules under MicroPython and CPython: one test per sentence of the rules
(docs/schaska.md "The rules", each test named after its rule), plus the decisions that
docs/schaska.md adds and the state object.  Builtins only (runs on the Unix and
WebAssembly ports; tests/test_schaska_rules.py runs the same functions under pytest)."""
from schaska.rules.layout import (DEFAULT, MIN_FIELDS, MAX_FIELDS, VALUES, LayoutError,
                                  check_layout, parse_layout, format_layout)
from schaska.rules.state import State, StateError, FIGURES
from schaska.rules.actions import (legal_actions, apply, result, totals, landing,
                                   frozen_leader, action_obj, IllegalActionError)
from schaska.rules.game import Game, TURN_LIMIT

FLAT = (1,) * 12
"""12 fields of +1."""


def S(a_start, a_fields, a_home, b_start, b_fields, b_home, turn="A", n=12):
    return State.from_obj({"A": {"start": a_start, "fields": a_fields, "home": a_home},
                           "B": {"start": b_start, "fields": b_fields, "home": b_home},
                           "turn": turn}, n)


def lay(n=12, **fields):
    """A layout of n fields of +1 with some fields set: lay(12, f3=-2)."""
    out = [1] * n
    for k in fields:
        out[int(k[1:]) - 1] = fields[k]
    return tuple(out)


def acts(layout, state):
    return [(action_obj(state, a)["from"], action_obj(state, a)["to"])
            for a in legal_actions(layout, state)]


def move(layout, state, frm):
    """The state after the mover's figure on field frm (or "start") moves."""
    for a in legal_actions(layout, state):
        if action_obj(state, a)["from"] == frm:
            return apply(layout, state, a)
    raise AssertionError("no action from %r" % (frm,))


def raises(exc, fn, *args):
    try:
        fn(*args)
    except exc:
        return True
    raise AssertionError("expected %s" % exc.__name__)


# -- "a track of N fields (N >= 8) between A's start (before field 1) and B's start
#    (after field N)"

def test_a_track_has_n_fields_at_least_8():
    assert MIN_FIELDS == 8
    assert len(check_layout((1,) * 8)) == 8
    assert len(check_layout((2,) * MAX_FIELDS)) == MAX_FIELDS
    raises(LayoutError, check_layout, (1,) * 7)
    raises(LayoutError, check_layout, (1,) * (MAX_FIELDS + 1))


def test_as_start_is_before_field_1_and_bs_start_after_field_n():
    s = S(7, [], 0, 7, [], 0)
    assert acts(FLAT, s) == [("start", 1)]
    s = move(FLAT, s, "start")
    assert acts(FLAT, s) == [("start", 12)]
    s = move(FLAT, s, "start")
    assert s.to_obj()["A"]["fields"] == [1] and s.to_obj()["B"]["fields"] == [12]


# -- "each field shows a value from the exchangeable parts: +k (green, forward k), -k
#    (red, backward k), or 8 (forward 8), k in 1..3."

def test_field_values_are_plus_k_minus_k_or_8_with_k_1_to_3():
    assert sorted(VALUES) == [-3, -2, -1, 1, 2, 3, 8]
    assert parse_layout("+1,2,-3,8,+2,-1,3,1") == (1, 2, -3, 8, 2, -1, 3, 1)
    for bad in ("4", "0", "-8", "9", "+", "x", "1.5"):
        raises(LayoutError, parse_layout, ",".join(["1"] * 7 + [bad]))
    raises(LayoutError, check_layout, (1,) * 7 + (True,))
    assert format_layout((1, -2, 8)) == "+1,-2,8"


def test_plus_k_moves_forward_k():
    for k in (1, 2, 3):
        s = S(6, [4], 0, 7, [], 0)
        assert move(lay(f4=k), s, 4).to_obj()["A"]["fields"] == [4 + k]


def test_minus_k_moves_backward_k():
    for k in (1, 2, 3):
        s = S(6, [6], 0, 7, [], 0)
        assert move(lay(f6=-k), s, 6).to_obj()["A"]["fields"] == [6 - k]


def test_8_moves_forward_8():
    s = S(6, [2], 0, 7, [], 0)
    assert move(lay(f2=8), s, 2).to_obj()["A"]["fields"] == [10]


# -- "Each player has 7 figures at the start."

def test_each_player_has_7_figures_at_the_start():
    assert FIGURES == 7
    s = Game(DEFAULT).state
    assert s.start == (7, 7) and s.home == (0, 0) and s.fields(0) == [] == s.fields(1)
    raises(StateError, S, 6, [], 0, 7, [], 0)
    raises(StateError, S, 7, [3], 0, 7, [], 0)


# -- "A moves toward N, B toward 1."

def test_a_moves_toward_n_and_b_toward_1():
    layout = lay(f5=2, f8=2)
    s = S(6, [5], 0, 6, [8], 0, "A")
    assert move(layout, s, 5).to_obj()["A"]["fields"] == [7]
    s = S(6, [5], 0, 6, [8], 0, "B")
    assert move(layout, s, 8).to_obj()["B"]["fields"] == [6]
    layout = lay(f5=-2, f8=-2)                         # backward is the other way
    s = S(6, [5], 0, 6, [8], 0, "B")
    assert move(layout, s, 8).to_obj()["B"]["fields"] == [10]


# -- "A turn is one action: enter a figure from the start onto the player's first field
#    (A: 1, B: N) if that field is empty, or move one of the player's figures by the
#    value of the field it stands on, counting only empty fields (occupied fields are
#    jumped and not counted)."

def test_a_turn_is_one_action_and_passes_the_turn():
    s = S(5, [1, 4], 0, 6, [9], 0, "A")
    for a in legal_actions(FLAT, s):
        t = apply(FLAT, s, a)
        assert t.mover == 1
        moved = [f for f in range(1, 13) if s.cells[f] != t.cells[f]]
        assert len(moved) <= 2 and t.fields(1) == s.fields(1)


def test_enter_puts_a_figure_from_the_start_on_the_first_field():
    s = move(FLAT, S(7, [], 0, 7, [], 0, "A"), "start")
    assert s.start == (6, 7) and s.fields(0) == [1]
    s = move(FLAT, S(7, [], 0, 7, [], 0, "B"), "start")
    assert s.start == (7, 6) and s.fields(1) == [12]


def test_no_entering_while_the_first_field_is_occupied():
    assert ("start", 1) not in acts(FLAT, S(6, [1], 0, 7, [], 0, "A"))     # own figure
    assert ("start", 1) not in acts(FLAT, S(7, [], 0, 6, [1], 0, "A"))     # the other's
    assert ("start", 12) not in acts(FLAT, S(6, [12], 0, 7, [], 0, "B"))


def test_no_entering_without_a_figure_at_the_start():
    s = S(0, [3], 6, 7, [], 0, "A")
    assert acts(FLAT, s) == [(3, 4)]


def test_a_figure_moves_by_the_value_of_the_field_it_stands_on():
    layout = lay(f2=3, f3=-1)
    s = S(5, [2, 3], 0, 7, [], 0)
    assert acts(layout, s) == [("start", 1), (2, 6), (3, 1)]     # (3 is jumped from 2)


def test_occupied_fields_are_jumped_and_not_counted():
    # forward +2 from 3 over A's own 4 and B's 5: lands on 7 (6, 7 counted)
    s = S(5, [3, 4], 0, 6, [5], 0)
    assert move(lay(f3=2), s, 3).fields(0) == [4, 7]
    # backward -2 from 8 over 7 and 6: lands on 4 (5 counted, 4 counted)
    s = S(0, [8, 6], 5, 6, [7], 0)
    assert move(lay(f8=-2), s, 8).fields(0) == [4, 6]
    # the same for B, moving toward 1
    s = S(6, [9], 0, 5, [11, 10], 0, "B")
    assert move(lay(f11=2), s, 11).fields(1) == [7, 10]
    assert landing(lay(f11=2), s, 11) == 7


# -- "Forward past the last field brings the figure home (the opposite start; excess
#    wasted);"

def test_forward_past_the_last_field_brings_the_figure_home_excess_wasted():
    s = S(0, [11], 6, 7, [], 0)
    t = move(lay(f11=3), s, 11)                      # 12 counted, then off: home
    assert t.home == (7, 0) and t.fields(0) == [] and action_obj(s, (11, 13))["to"] == "home"
    s = S(0, [10], 6, 5, [11, 12], 0)                # 11 and 12 jumped: home with +1
    assert move(lay(f10=1), s, 10).home == (7, 0)
    s = S(7, [], 0, 0, [2, 5], 5, "B")
    t = move(lay(f2=8), s, 2)
    assert t.home == (0, 6) and t.fields(1) == [5]
    s = S(0, [3, 12], 5, 7, [], 0)                   # exactly past the last field
    assert move(lay(f12=1), s, 12).home == (6, 0)


def test_the_home_may_hold_figures_of_the_other_player():
    # B's start (A's home) still holds B's figures: A comes home all the same
    s = S(0, [3, 12], 5, 7, [], 0)
    t = move(FLAT, s, 12)
    assert t.home == (6, 0) and t.start == (0, 7)


# -- "backward past the player's own first field puts it back at its start."

def test_backward_past_the_first_field_puts_the_figure_back_at_its_start():
    s = S(5, [2, 1], 0, 7, [], 0)
    t = move(lay(f2=-2), s, 2)                        # 1 jumped, then off: start
    assert t.start == (6, 7) and t.fields(0) == [1]
    assert action_obj(s, (2, 0))["to"] == "start"
    s = S(7, [], 0, 6, [11], 0, "B")
    t = move(lay(f11=-2), s, 11)
    assert t.start == (7, 7) and t.fields(1) == []


# -- "Half time: while a player still has figures at the start, that player's leading
#    figure (the one furthest along) may not move once it stands past the middle
#    (progress > N/2, progress being the field number for A and N+1-field for B)."

def test_half_time_the_leading_figure_past_the_middle_may_not_move_while_figures_wait():
    s = S(5, [3, 7], 0, 7, [], 0)                     # 7 > 12/2
    assert frozen_leader(s, 0) == 7
    assert acts(FLAT, s) == [("start", 1), (3, 4)]
    s = S(6, [10], 0, 5, [6, 2], 0, "B")              # B's 6: progress 7 > 6; 2 is ahead
    assert frozen_leader(s, 1) == 2
    assert acts(FLAT, s) == [("start", 12), (6, 5)]


def test_half_time_at_the_middle_itself_the_leader_may_move():
    s = S(5, [3, 6], 0, 7, [], 0)                     # progress 6 == 12/2: not past
    assert frozen_leader(s, 0) == 0
    assert (6, 7) in acts(FLAT, s)
    odd = (1,) * 9                                     # N = 9: past the middle is 5 and up
    assert frozen_leader(S(6, [4], 0, 7, [], 0, n=9), 0) == 0
    assert frozen_leader(S(6, [5], 0, 7, [], 0, n=9), 0) == 5
    assert frozen_leader(S(7, [], 0, 6, [5], 0, "B", n=9), 1) == 5   # progress 5
    assert frozen_leader(S(7, [], 0, 6, [6], 0, "B", n=9), 1) == 0   # progress 4
    assert len(acts(odd, S(6, [4], 0, 7, [], 0, n=9))) == 2


def test_half_time_ends_when_no_figure_waits_at_the_start():
    s = S(0, [3, 7], 5, 7, [], 0)
    assert frozen_leader(s, 0) == 0
    assert acts(FLAT, s) == [(3, 4), (7, 8)]


def test_half_time_holds_the_leading_figure_only():
    s = S(4, [2, 8, 9], 0, 7, [], 0)                  # 8 is past the middle too, but not leading
    assert acts(FLAT, s) == [("start", 1), (2, 3), (8, 10)]


def test_half_time_leader_is_held_even_with_the_first_field_blocked():
    s = S(5, [7], 1, 6, [1], 0)                        # A cannot enter, its leader is held
    assert acts(FLAT, s) == []


# -- "A player who has an action must take one."

def test_a_player_who_has_an_action_must_take_one():
    s = S(6, [5], 0, 7, [], 0)
    assert legal_actions(FLAT, s) and result(FLAT, s) is None
    raises(IllegalActionError, apply, FLAT, s, (5, 5))     # no pass
    raises(IllegalActionError, apply, FLAT, s, (0, 0))
    raises(IllegalActionError, apply, FLAT, s, (5, 7))     # not the field's value
    g = Game(FLAT, s)
    raises(IllegalActionError, g.play, (6, 7))             # no figure there


# -- "A player with no action ends the game (block): the larger total progress wins
#    (start 0, a field its progress, home N+1), equal is a draw."

def test_a_player_with_no_action_ends_the_game_by_block():
    s = S(5, [7], 1, 6, [1], 0)                        # A to move, no action
    assert result(FLAT, s) is not None and result(FLAT, s)[1] == "block"
    g = Game(FLAT, S(5, [7], 1, 0, [2], 6, "B"))
    g.play((2, 1))                                     # B blocks A's first field
    assert g.over() and g.by == "block" and g.turns == 1 and g.result == "B"


def test_block_total_progress_start_0_field_its_progress_home_n_plus_1():
    s = S(5, [7], 1, 6, [1], 0)
    assert totals(s) == (7 + 13, 12)
    s = S(3, [2, 5], 2, 2, [12, 9], 3)
    assert totals(s) == (2 + 5 + 2 * 13, 1 + 4 + 3 * 13)


def test_block_the_larger_total_progress_wins():
    assert result(FLAT, S(5, [7], 1, 6, [1], 0)) == ("A", "block")     # 20 against 12
    s = S(6, [7], 0, 1, [1], 5)                                        # 7 against 12 + 65
    assert result(FLAT, s) == ("B", "block")


def test_block_equal_total_progress_is_a_draw():
    s = S(5, [7], 1, 5, [1, 5], 0)                                     # 7 + 13 against 12 + 8
    assert totals(s) == (20, 20) and acts(FLAT, s) == []
    assert result(FLAT, s) == ("draw", "block")


# -- "All 7 figures home wins at once."

def test_all_7_figures_home_wins_at_once():
    s = S(0, [12], 6, 0, [2, 3], 5)
    g = Game(FLAT, s)
    g.play((12, 13))
    assert g.over() and g.result == "A" and g.by == "home"
    assert legal_actions(FLAT, g.state) == []          # B does not get another turn
    assert result(FLAT, S(0, [], 7, 0, [2], 6, "B")) == ("A", "home")
    raises(StateError, S, 0, [], 7, 0, [], 7)


# -- "A game still running after 400 turns ends and is scored like a block."

def test_a_game_still_running_after_400_turns_ends_scored_like_a_block():
    assert TURN_LIMIT == 400
    # A's last figure shuttles 4 <-> 5, B's 8 <-> 7 (N = 8): a game without end
    layout = (1, 1, 1, 1, -1, 1, -1, 1)
    g = Game(layout, S(0, [4], 6, 0, [8], 6, n=8))
    for k in range(TURN_LIMIT - 1):
        g.play(g.legal()[0])
        assert not g.over(), k
    g.play(g.legal()[0])
    assert g.over() and g.by == "limit" and g.turns == 400
    assert g.result == "A"                             # 4 + 54 against 1 + 54
    raises(IllegalActionError, g.play, (4, 5))


# -- "The layout is set at the start"

def test_the_layout_is_set_at_the_start():
    g = Game(parse_layout("1,2,3,-1,8,2,1,1,-2"))
    assert g.layout == (1, 2, 3, -1, 8, 2, 1, 1, -2) and g.state.n == 9
    assert Game(DEFAULT).layout == DEFAULT and len(DEFAULT) == 16
    assert DEFAULT == tuple(reversed(DEFAULT))
    raises(ValueError, Game, DEFAULT, S(7, [], 0, 7, [], 0))    # 12 fields, not 16


# -- the state object

def test_the_state_object_round_trips():
    s = S(3, [5, 2], 2, 4, [12, 7, 9], 0, "B")
    obj = s.to_obj()
    assert obj == {"A": {"start": 3, "fields": [2, 5], "home": 2},
                   "B": {"start": 4, "fields": [7, 9, 12], "home": 0}, "turn": "B"}
    assert State.from_obj(obj, 12) == s


def test_a_bad_state_object_is_refused_with_its_reason():
    good = S(7, [], 0, 7, [], 0).to_obj()
    raises(StateError, State.from_obj, "x", 12)
    raises(StateError, State.from_obj, {"A": good["A"], "B": good["B"]}, 12)
    raises(StateError, State.from_obj, {"A": good["A"], "B": good["B"], "turn": "C"}, 12)
    raises(StateError, S, 6, [13], 0, 7, [], 0)
    raises(StateError, S, 6, [0], 0, 7, [], 0)
    raises(StateError, S, 6, [3], 0, 6, [3], 0)             # a field held twice
    raises(StateError, S, 5, [3, 3], 0, 7, [], 0)
    raises(StateError, S, 6, ["3"], 0, 7, [], 0)
    raises(StateError, S, 6, [3], False, 7, [], 0)
    bad = {"A": {"start": 7, "fields": [], "home": 0, "x": 0}, "B": good["B"], "turn": "A"}
    raises(StateError, State.from_obj, bad, 12)
