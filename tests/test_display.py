"""samsara.display.View: the display model the scene is drawn from (docs/leds.md,
docs/controller.md "States"), rebuilt by View.show from the controller: a lifted
marble's legal landing fields marked with their die and its origin, a repair's
missing and extra holes, the winner's scoring piece after the game, and the board
player's lit sub-move (samsara.boardplayer.to_light)."""
from samsara import reading as rd
from samsara import scene as sc
from samsara.config import Config
from samsara.core import Board
from samsara.frame import from_position, put
from samsara.rules.geometry import position_index
from samsara.states import REPAIR, GAME_OVER


def _board():
    return Board(Config(dice="host", settle_lift_ms=0, settle_place_ms=0))


def _frame(b, changes):
    f = from_position(b.controller.position())
    for name, on in changes:
        put(f, position_index(name), on)
    return f


def test_a_lifted_marble_shows_its_targets_in_their_dice_and_its_origin():
    b = _board()
    b.set_dice(5, 3)
    b.press(0, "roll")
    b.tick(10, _frame(b, [("R1", 0)]))
    b.tick(20, _frame(b, [("R1", 0)]))
    v = b.controller.view
    o = position_index("R1")
    tl, _back = rd.targets(b.controller.turn, o)
    assert tl and sorted(v.targets) == sorted(tl)
    for p, d in tl:
        assert v.marks[p] == d
    assert v.marks[o] == sc.ORIGIN
    assert sorted(v.marked) == sorted([p for p, _d in tl] + [o])


def test_a_repair_marks_the_missing_and_the_extra_holes():
    b = _board()
    f = _frame(b, [("R2", 0), ("R20", 1)])     # before the roll: the board changed
    b.tick(10, f)
    b.tick(20, f)
    c = b.controller
    assert c.state == REPAIR
    assert c.view.missing == ["R2"] and c.view.extra == ["R20"]
    assert c.view.marks[position_index("R2")] == sc.MISSING
    assert c.view.marks[position_index("R20")] == sc.EXTRA


def test_the_winners_scoring_piece_is_marked_after_the_game():
    from samsara.rules.position import Position
    b = _board()
    b.new_game(Position.parse("ooooo.................../oooooo.......o.......... 6-2 A"))
    c = b.controller
    c.winner = 0
    c.state = GAME_OVER
    c.view.show(c)
    assert c.view.marks[position_index("AC")] == sc.WIN


def test_the_board_players_lit_sub_move_shows_target_and_origin():
    b = Board(Config(dice="host"))
    b.new_game(vs=0)                            # the board plays A, to move
    b.set_dice(5, 3)
    t = 0
    while b.controller.player.lit is None and t < 200000:
        t += 5
        b.tick(t, from_position(b.controller.position()))
        if b.controller.state == REPAIR:
            break
    p = b.controller.player
    m = p.lit
    assert m is not None
    v = b.controller.view
    assert v.marks[m[2]] == m[0] and v.marks[m[1]] == sc.ORIGIN and p.blink == m[1]
