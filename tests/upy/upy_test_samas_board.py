"""The Samas board core (samas.core, samas.controller; docs/samas.md "On the board"):
the trays read at Ready, the reveal only when both are Ready, both choices and the
winner's move lit, the Sama-stone's move and the emptied trays checked, the game's end,
and an idle scan that allocates nothing.  Builtins only (MicroPython and CPython;
tests/test_samas_board.py runs the same functions under pytest)."""
from samas.core import SamasBoard
from samas.controller import (tray_choice, frame_of, choice_holes, NOT_A_CHOICE, CHOOSE,
                              MOVE, OVER, NONE, STONE, ORIGIN, TARGET, EXTRA, MISSING,
                              CHOICE, READY, WIN)
from samas.places import TRAY, JOKER_HOLE, READY_LED, hollow_pos, place_name, place_index
from samas.rules.rounds import JOKER
from samas.rules.state import State, START
from gamehands import Hands, samas_choose, samas_empty_tray, samas_round, samas_move_stones
from heaputil import assert_no_alloc


def board_at(state=START):
    b = SamasBoard()
    b.new_game(0, state)
    h = Hands(b)
    h.events()
    return b, h


def names(evs):
    return [e["ev"] for e in evs]


def test_the_board_starts_with_a_game_start_naming_the_state():
    b = SamasBoard()
    h = Hands(b)
    assert h.events() == []               # built: no game of its own started yet
    b.new_game(0)
    evs = h.events()
    assert names(evs) == ["game_start"]
    assert evs[0]["game"] == "samas" and evs[0]["start"] == START.to_obj()
    assert b.state == CHOOSE
    m = b.controller.view.marks
    assert m[hollow_pos(2)] == STONE and m[hollow_pos(8)] == STONE
    assert m[hollow_pos(5)] == NONE


def test_place_names_round_trip_and_unknown_positions_are_refused():
    for p in range(17):
        assert place_index(place_name(p)) == p
    assert place_name(12) == "AJ" and place_name(13) == "B1"
    for bad in (-1, 17, 40):
        try:
            place_name(bad)
            raise AssertionError("no ValueError")
        except ValueError:
            pass


def test_a_tray_reads_as_its_stones_or_its_joker():
    for sel in range(5):
        f = frame_of(START, (choice_holes(sel), 0))
        assert tray_choice(f, 0) == sel
        assert tray_choice(f, 1) == 0
    f = frame_of(START, (0, choice_holes(JOKER) | 1))
    assert tray_choice(f, 1) == NOT_A_CHOICE


def test_ready_with_stones_and_the_joker_is_refused_without_naming_the_choice():
    b, h = board_at()
    h.put(TRAY[0], True)
    h.put(JOKER_HOLE[0], True)
    h.settle()
    h.press("roll")
    evs = h.events()
    assert names(evs) == ["reject"]
    assert evs[0]["p"] == "A" and evs[0]["why"] == "stones and the joker together"
    assert not b.controller.ready[0]


def test_ready_with_more_stones_than_held_is_refused():
    b, h = board_at(State((2, 8), (2, 13), (2, 2)))
    samas_choose(h, 0, 3)
    h.press("roll")
    evs = h.events()
    assert names(evs) == ["reject"] and evs[0]["why"] == "holds 2 stones"


def test_ready_with_more_stones_than_the_one_held_says_one_stone():
    b, h = board_at(State((2, 8), (1, 13), (2, 2)))
    samas_choose(h, 0, 2)
    h.press("roll")
    evs = h.events()
    assert names(evs) == ["reject"] and evs[0]["why"] == "holds 1 stone"


def test_ready_with_a_joker_not_held_is_refused():
    b, h = board_at(State((2, 8), (13, 13), (0, 2)))
    samas_choose(h, 0, JOKER)
    h.press("roll")
    assert [e["why"] for e in h.events()] == ["no joker left"]


def test_the_board_reveals_only_when_both_are_ready():
    b, h = board_at()
    samas_choose(h, 0, 2)
    samas_choose(h, 1, 1)
    h.press("roll")
    evs = h.events()
    assert names(evs) == ["ready"] and evs[0] == {"ev": "ready", "p": "A", "t": evs[0]["t"]}
    assert b.state == CHOOSE
    h.press("roll")                     # pressed again: still only A
    assert h.events() == []
    h.press("undo")
    evs = h.events()
    assert names(evs) == ["ready", "round"]
    assert evs[1]["round"] == 1 and evs[1]["play"] == {"A": "2", "B": "1"}
    assert evs[1]["after"] == State((3, 8), (11, 12), (2, 2)).to_obj()
    assert b.state == MOVE


def test_the_choices_stay_dark_until_the_reveal_and_ready_shows():
    b, h = board_at()
    samas_choose(h, 0, 3)
    samas_choose(h, 1, JOKER)
    m = b.controller.view.marks
    for p in range(9, 17):
        assert m[p] == NONE, p
    h.press("undo")
    assert m[READY_LED[1]] == READY and m[READY_LED[0]] == NONE


def test_a_tray_changed_after_ready_takes_the_ready_back():
    b, h = board_at()
    samas_choose(h, 0, 1)
    h.press("roll")
    h.events()
    h.put(TRAY[0] + 1, True)
    h.settle()
    assert names(h.events()) == ["unready"]
    samas_choose(h, 1, 0)
    h.press("undo")
    assert names(h.events()) == ["ready"]        # no reveal: A is not Ready
    h.press("roll")
    evs = h.events()
    assert names(evs) == ["ready", "round"] and evs[1]["play"] == {"A": "2", "B": "0"}


def test_the_reveal_lights_both_choices_and_the_winners_move():
    b, h = board_at()
    samas_choose(h, 0, 1)
    samas_choose(h, 1, JOKER)
    h.press("roll")
    h.press("undo")
    m = b.controller.view.marks
    assert m[TRAY[0]] == CHOICE and m[JOKER_HOLE[1]] == CHOICE
    assert m[TRAY[1]] == NONE                    # B's stone holes: empty
    assert m[hollow_pos(7)] == TARGET            # the joker beats 1 stone: B to 7
    assert m[hollow_pos(8)] == ORIGIN
    assert m[hollow_pos(2)] == STONE


def test_the_round_ends_only_with_the_stone_moved_and_the_trays_emptied():
    b, h = board_at()
    samas_choose(h, 0, 2)
    samas_choose(h, 1, 0)
    h.press("roll")
    h.press("undo")
    h.events()
    samas_empty_tray(h, 0)
    assert b.state == MOVE                       # A's stone not moved yet
    h.press("roll")
    assert [e["why"] for e in h.events()] == ["the round is not cleared yet"]
    samas_move_stones(h, START, b.controller.game.state)
    assert b.state == CHOOSE
    evs = h.events()
    assert names(evs) == ["cleared"] and evs[0]["round"] == 1


def test_a_stone_on_the_wrong_hollow_is_red_and_the_target_stays_lit():
    b, h = board_at()
    samas_choose(h, 0, 3)
    samas_choose(h, 1, 1)
    h.press("roll")
    h.press("undo")
    samas_empty_tray(h, 0)
    samas_empty_tray(h, 1)
    h.put(hollow_pos(2), False)
    h.put(hollow_pos(4), True)                   # A's stone one hollow too far
    h.settle()
    m = b.controller.view.marks
    assert m[hollow_pos(4)] == EXTRA and m[hollow_pos(3)] == TARGET
    assert b.state == MOVE
    h.put(hollow_pos(4), False)
    h.put(hollow_pos(3), True)
    h.settle()
    assert b.state == CHOOSE and m[hollow_pos(3)] == STONE


def test_the_reveal_waits_while_a_sama_stone_is_off_its_hollow():
    b, h = board_at()
    h.put(hollow_pos(8), False)
    h.settle()
    assert b.controller.view.marks[hollow_pos(8)] == MISSING
    samas_choose(h, 0, 1)
    samas_choose(h, 1, 2)
    h.press("roll")
    h.press("undo")
    assert names(h.events()) == ["ready", "ready"]
    h.put(hollow_pos(8), True)
    h.settle()
    evs = h.events()
    assert names(evs) == ["round"] and evs[0]["play"] == {"A": "1", "B": "2"}


def test_a_far_end_ends_the_game_after_the_move_and_a_long_press_starts_a_new_one():
    b, h = board_at(State((8, 5), (5, 5), (0, 0)))
    evs = samas_round(h, 1, 0)
    assert names(evs) == ["ready", "ready", "round", "game_over"]
    assert evs[3]["result"] == "A" and evs[3]["how"] == "far end"
    assert evs[3]["final"] == State((9, 5), (4, 5), (0, 0)).to_obj()
    assert b.state == OVER
    m = b.controller.view.marks
    assert m[hollow_pos(9)] == WIN and m[READY_LED[0]] == WIN and m[READY_LED[1]] == NONE
    h.press("roll")
    assert [e["why"] for e in h.events()] == ["the game is over"]
    h.press("roll", True)
    evs = h.events()
    assert names(evs) == ["game_start"] and b.state == CHOOSE
    # the new game reads the board as it is: A's stone still on 9, B's on 5
    assert m[hollow_pos(9)] == EXTRA and m[hollow_pos(2)] == MISSING
    assert m[hollow_pos(5)] == EXTRA and m[hollow_pos(8)] == MISSING
    samas_choose(h, 0, 1)
    samas_choose(h, 1, 0)
    h.press("roll")
    h.press("undo")
    assert names(h.events()) == ["ready", "ready"]     # no reveal: the stones first
    for p, on in ((9, False), (5, False), (2, True), (8, True)):
        h.put(hollow_pos(p), on)
    h.settle()
    assert names(h.events()) == ["round"]


def test_the_run_out_lights_the_far_hollow_the_stone_runs_to():
    # B gives its last stone; then B holds nothing and A runs one hollow per stone held
    b, h = board_at(State((3, 8), (3, 1), (0, 0)))
    samas_choose(h, 0, 0)
    samas_choose(h, 1, 1)
    h.press("roll")
    h.press("undo")
    evs = h.events()
    assert evs[-1]["after"] == State((6, 7), (3, 0), (0, 0)).to_obj()
    m = b.controller.view.marks
    assert m[hollow_pos(6)] == TARGET and m[hollow_pos(7)] == TARGET
    assert m[hollow_pos(3)] == ORIGIN and m[hollow_pos(8)] == ORIGIN
    samas_move_stones(h, State((3, 8), (3, 1), (0, 0)), State((6, 7), (3, 0), (0, 0)))
    samas_empty_tray(h, 1)
    evs = h.events()
    assert names(evs) == ["game_over"] and evs[0]["result"] == "A"
    assert evs[0]["how"] == "run-out"


def test_ready_while_the_tray_settles_is_refused_and_reads_once_settled():
    b, h = board_at()
    h.put(TRAY[0], True)
    h.scan(50)                                   # 50 ms: the place settle is 150 ms
    h.press("roll")
    evs = h.events()
    assert [e["why"] for e in evs] == ["the tray is not settled yet"]
    h.settle()
    h.press("roll")
    samas_choose(h, 1, 2)
    h.press("undo")
    evs = h.events()
    assert evs[-1]["play"] == {"A": "1", "B": "2"}


def test_an_unknown_button_is_a_value_error():
    b, h = board_at()
    try:
        b.press(0, "hint")
        raise AssertionError("no ValueError")
    except ValueError:
        pass


def test_an_idle_scan_allocates_nothing():
    b, h = board_at()
    samas_choose(h, 0, 2)
    h.scan(50)
    b.limited_scene()
    raw = h.raw
    t = h.t + 5
    assert_no_alloc(b.tick, t, raw)
    assert_no_alloc(b.tick, t + 5, raw)
    assert_no_alloc(b.limited_scene)
