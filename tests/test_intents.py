"""samsara.intents: what a button press means now (docs/controller.md "Buttons",
docs/protocol.md "Buttons"), as the table in its docstring says: roll is a roll; a
short undo an undo; a long undo before a game's first roll the gesture that starts a
game against the board (B, then A, then a normal game again), during the player's own
turn a hint, otherwise an undo; the host's hint a hint."""
import pytest

from samsara import intents
from samsara.config import Config
from samsara.core import Board
from samsara.intents import HINT, ROLL, UNDO, VS_GAME, of_press


def _board():
    return Board(Config(dice="host"))


def test_roll_and_a_short_undo_are_what_they_say():
    c = _board().controller
    assert of_press(c, "roll") == (ROLL, 0) and of_press(c, "roll", True) == (ROLL, 0)
    assert of_press(c, "undo") == (UNDO, 0)
    assert of_press(c, "hint") == (HINT, 0)


def test_a_long_undo_before_the_first_roll_cycles_the_game_against_the_board():
    b = _board()
    c = b.controller
    assert of_press(c, "undo", True) == (VS_GAME, 1)       # the board plays B
    b.new_game(vs=1)
    assert of_press(c, "undo", True) == (VS_GAME, 0)       # then A
    b.new_game(vs=0)
    assert of_press(c, "undo", True) == (VS_GAME, -1)      # then a normal game
    b.press(0, "undo", True)
    assert c.player is None


def test_a_long_undo_during_the_players_own_turn_is_a_hint_else_an_undo():
    b = _board()
    c = b.controller
    b.set_dice(5, 3)
    b.press(10, "roll")
    assert of_press(c, "undo", True) == (HINT, 0)          # a normal game: the mover's own
    b2 = _board()
    b2.new_game(vs=0)                                      # the board plays A, to move
    b2.set_dice(5, 3)
    b2.press(10, "roll")
    assert b2.controller.turn.mover == 0
    assert of_press(b2.controller, "undo", True) == (UNDO, 0)   # the board's own turn


def test_an_unknown_button_is_refused():
    with pytest.raises(ValueError, match="unknown button"):
        of_press(_board().controller, "reset")


def test_the_gesture_after_a_games_end_keeps_the_boards_side():
    from samsara.states import GAME_OVER
    b = _board()
    b.new_game(vs=0)
    c = b.controller
    c.state = GAME_OVER
    assert intents.gesture_side(c) == 0
