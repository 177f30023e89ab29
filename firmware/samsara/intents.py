"""What a button press means now (docs/controller.md "Buttons", docs/protocol.md
"Buttons"): the intent a press of roll or undo, short or long, carries in the board's
state.  Its one job is that mapping; the controller carries the intent out
(samsara.controller: roll, undo, hint; a game against the board starts through
samsara.core.Board.new_game, or on the Pico through mainloop.Inputs so its log starts).

    roll, short or long        ROLL (a long press steps manual dice entry)
    undo, short                UNDO
    undo, long                 VS_GAME before a game's first roll or after its end (the
                               gesture: gesture_side), HINT during the player's own turn
                               (Controller.hint_possible), else UNDO
    hint (the `hint` command)  HINT
"""

from samsara.states import WAITING, GAME_OVER, MOKSHA

ROLL = 1
UNDO = 2
HINT = 3
VS_GAME = 4


def of_press(c, button, long=False):
    """(intent, side) of a press of `button` ("roll", "undo" or "hint"; long: a long
    press) on controller `c`; side is the board's side of a VS_GAME (0/1, -1: a normal
    game), else 0.  ValueError for another button."""
    if button == "roll":
        return ROLL, 0
    if button == "undo":
        if long:
            side = gesture_side(c)
            if side is not None:
                return VS_GAME, side
            if c.hint_possible():
                return HINT, 0
        return UNDO, 0
    if button == "hint":
        return HINT, 0
    raise ValueError("unknown button %r (use roll or undo)" % (button,))


def gesture_side(c):
    """The game a long press of undo starts now on controller c (docs/protocol.md
    "Buttons"): before the game's first roll, the board plays B, then (pressed again)
    A, then a normal game again (-1); after the game's end, a new game with the board
    on the same side as before (B after a normal game).  None: no gesture now (the
    press is an undo or a hint)."""
    st = c.state
    if c.dice.entry:
        return None
    p = c.player
    cur = p.side if p is not None and p.side >= 0 else -1
    if st == GAME_OVER or st == MOKSHA:
        if c.match is not None and not c.match.over():
            return None
        return cur if cur >= 0 else 1
    if st == WAITING and not c.turn.d1 and len(c.game.record) == 0 and c.match is None:
        return 1 if cur < 0 else (0 if cur == 1 else -1)
    return None
