"""The Schaska board core (schaska.core, schaska.controller; docs/schaska.md "On the
board"): a turn read from the sensed fields (enter, move over occupied fields, home by
a lift), the lifted figure's landing lit, wrong changes shown and not taken, half time,
the game's end, and an idle scan that allocates nothing.  Builtins only (MicroPython and
CPython; tests/test_schaska_board.py runs the same functions under pytest)."""
from schaska.core import SchaskaBoard
from schaska.controller import (PLAY, OVER, FIGURE, MOVABLE, ENTER, ORIGIN, TARGET,
                                MISSING, EXTRA, TURN_A, TURN_B, WIN, NONE)
from schaska.places import TURN_LED, field_pos
from schaska.rules.layout import DEFAULT
from schaska.rules.state import State
from gamehands import Hands, schaska_act
from heaputil import assert_no_alloc

LAYOUT = (1, 2, -1, 3, 2, -2, 8, 1)   # 8 fields


def board_at(layout=LAYOUT, state=None):
    b = SchaskaBoard(layout)
    b.new_game(0, layout, state)
    h = Hands(b)
    h.events()
    return b, h


def names(evs):
    return [e["ev"] for e in evs]


def st(n, a_fields, b_fields, a_home=0, b_home=0, mover=0):
    cells = bytearray(n + 2)
    for f in a_fields:
        cells[f] = 1
    for f in b_fields:
        cells[f] = 2
    return State(n, cells, (7 - len(a_fields) - a_home, 7 - len(b_fields) - b_home),
                 (a_home, b_home), mover)


def test_the_board_starts_with_a_game_start_naming_layout_and_state():
    b = SchaskaBoard()
    h = Hands(b)
    assert h.events() == []               # built: no game of its own started yet
    b.new_game(0)
    evs = h.events()
    assert names(evs) == ["game_start"]
    assert evs[0]["layout"] == list(DEFAULT) and evs[0]["game"] == "schaska"
    assert evs[0]["start"]["A"] == {"start": 7, "fields": [], "home": 0}
    m = b.controller.view.marks
    assert m[field_pos(1)] == ENTER and m[TURN_LED[0]] == TURN_A and m[TURN_LED[1]] == NONE


def test_a_figure_put_on_the_first_field_enters():
    b, h = board_at()
    evs = schaska_act(h, 8, (0, 1))
    assert names(evs) == ["turn"]
    assert evs[0]["turn"] == 1 and evs[0]["player"] == "A"
    assert evs[0]["move"] == {"from": "start", "to": 1}
    assert evs[0]["after"]["A"]["fields"] == [1] and evs[0]["after"]["turn"] == "B"
    evs = schaska_act(h, 8, (9, 8))
    assert evs[0]["move"] == {"from": "start", "to": 8} and evs[0]["player"] == "B"
    assert b.controller.view.marks[TURN_LED[0]] == TURN_A


def test_a_lifted_figure_shows_its_landing_and_put_back_nothing_happens():
    # A on 2 (+2): fields 3 and 4 are empty, so it lands on 4
    b, h = board_at(state=st(8, [2], [8]))
    m = b.controller.view.marks
    assert m[field_pos(2)] == MOVABLE
    h.put(field_pos(2), False)
    h.settle()
    assert m[field_pos(2)] == ORIGIN and m[field_pos(4)] == TARGET
    assert b.lifted()
    h.put(field_pos(2), True)
    h.settle()
    assert h.events() == [] and not b.lifted() and m[field_pos(2)] == MOVABLE


def test_a_move_counts_only_empty_fields():
    # A on 2 (+2) with B on 3: 3 is jumped, A lands on 5
    b, h = board_at(state=st(8, [2], [3]))
    h.put(field_pos(2), False)
    h.settle()
    assert b.controller.view.marks[field_pos(5)] == TARGET
    h.put(field_pos(5), True)
    h.settle()
    evs = h.events()
    assert evs[0]["move"] == {"from": 2, "to": 5}


def test_a_figure_walking_home_is_taken_by_its_lift_alone():
    # A on 7 (8): forward past field 8, home (none at the start: no half time)
    b, h = board_at(state=st(8, [3, 7], [1], a_home=5))
    h.put(field_pos(7), False)
    h.settle()
    evs = h.events()
    assert names(evs) == ["turn"] and evs[0]["move"] == {"from": 7, "to": "home"}
    assert evs[0]["after"]["A"]["home"] == 6


def test_the_opponents_figure_lifted_is_missing_and_nothing_is_taken():
    b, h = board_at(state=st(8, [2], [5]))
    h.put(field_pos(5), False)
    h.settle()
    assert h.events() == [] and b.controller.view.marks[field_pos(5)] == MISSING
    assert not b.lifted()


def test_a_figure_put_where_it_does_not_land_is_red():
    b, h = board_at(state=st(8, [2], [8]))
    h.put(field_pos(2), False)
    h.settle()
    h.put(field_pos(3), True)
    h.settle()
    m = b.controller.view.marks
    assert h.events() == [] and m[field_pos(3)] == EXTRA and m[field_pos(2)] == MISSING
    h.put(field_pos(3), False)
    h.put(field_pos(4), True)
    h.settle()
    assert names(h.events()) == ["turn"]


def test_half_time_keeps_the_leader_from_moving_while_figures_wait_at_the_start():
    # A's leader on 5 (progress 5 > 8/2), figures at the start: it may not move
    b, h = board_at(state=st(8, [2, 5], [8]))
    m = b.controller.view.marks
    assert m[field_pos(5)] == FIGURE and m[field_pos(2)] == MOVABLE
    h.put(field_pos(5), False)
    h.settle()
    assert not b.lifted() and m[field_pos(5)] == MISSING and h.events() == []


def test_the_last_figure_home_ends_the_game_gold_for_the_winner():
    b, h = board_at(state=st(8, [7], [1, 2], a_home=6))
    evs = schaska_act(h, 8, (7, 9))
    assert names(evs) == ["turn", "game_over"]
    assert evs[1]["result"] == "A" and evs[1]["by"] == "home"
    assert b.state == OVER
    m = b.controller.view.marks
    assert m[TURN_LED[0]] == WIN and m[TURN_LED[1]] == NONE
    assert m[field_pos(1)] == FIGURE
    h.press("roll", True)
    assert names(h.events()) == ["game_start"] and b.state == PLAY
    # the new game reads the board as it is: B's figures still on 1 and 2
    assert m[field_pos(1)] == EXTRA and m[field_pos(2)] == EXTRA
    h.put(field_pos(1), False)
    h.put(field_pos(2), False)
    h.settle()
    assert m[field_pos(1)] == ENTER and h.events() == []


def test_a_press_during_a_turn_is_a_reject():
    b, h = board_at()
    h.press("undo")
    evs = h.events()
    assert names(evs) == ["reject"]


def test_a_layout_longer_than_the_board_is_refused():
    b = SchaskaBoard(LAYOUT)
    try:
        b.new_game(0, (1,) * 31)
        raise AssertionError("no ValueError")
    except ValueError:
        pass


def test_b_moves_toward_field_1_and_its_turn_led_shows():
    b, h = board_at(state=st(8, [1], [7], mover=1))
    m = b.controller.view.marks
    assert m[TURN_LED[1]] == TURN_B
    # B on 7 (8, forward): toward field 1, past it home
    evs = schaska_act(h, 8, (7, 0))
    assert evs[0]["move"] == {"from": 7, "to": "home"} and evs[0]["player"] == "B"


def test_an_idle_scan_allocates_nothing():
    b, h = board_at(state=st(8, [2], [8]))
    h.scan(50)
    b.limited_scene()
    t = h.t + 5
    assert_no_alloc(b.tick, t, h.raw)
    assert_no_alloc(b.tick, t + 5, h.raw)
    assert_no_alloc(b.limited_scene)
