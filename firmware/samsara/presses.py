"""What the roll and undo buttons do to a controller: when a roll is allowed, the roll
itself with its Moksha test, the next game of a match, and undo of the last sub-move
(docs/controller.md "Transitions in words", "Dice").

Functions of a samsara.controller.Controller `c`: they change its state and turn and
emit through it (c.emit, c.reject), and use its transitions (c.commit,
c.game_over, c.start_game, c.evaluate, c.enter_repair, c.evaluate_repair).
Rejections become `reject` events, never exceptions.
"""

from samsara.rules.geometry import position_name
from samsara.rules.notation import format_turn, format_roll, format_sub_move
from samsara.states import WAITING, MOVING, GOAL_PENDING, TURN_COMPLETE, REPAIR, \
    GAME_OVER, MOKSHA
from samsara.turn import PLAYER


def press(c, button, long, busy):
    """Button 'roll' or 'undo' pressed on controller c (long: a long press; busy: the
    debounce still has unsettled positions); 'hint' for the `hint` command.  A long
    undo during the player's own roll asks for a hint (samsara.vsplay.hint), else it
    is an undo.  ValueError for another button."""
    if button == "roll":
        _press_roll(c, long, busy)
    elif button == "undo" or button == "hint":
        if (long or button == "hint") and not c.dice.entry and c.turn.d1:
            from samsara.vsplay import hint
            if hint(c):
                return
        if button == "hint":
            c.reject("hint", "no hint now: only during your own turn")
            return
        _press_undo(c)
    else:
        raise ValueError("unknown button %r (use roll or undo)" % (button,))


def _roll_blocker(c, busy):
    # Why a roll is not allowed now, or None.
    st = c.state
    rem = c.turn.rem
    if st == REPAIR:
        return "repair the board first: " + c.repair_why
    if st == GOAL_PENDING:
        return "finish the goal first"
    if st == MOVING:
        if rem:
            return "roll before the turn is complete: %s still to play" % (
                " and ".join(["die %d" % d for d in rem]))
        return "the board is not settled"
    if st not in (WAITING, TURN_COMPLETE):
        return "no roll in state %s" % st
    if busy:
        return "the board is not settled"
    if c.view.lifted:
        return "put the marble back on %s first" % position_name(c.view.lifted[0])
    return None


def _press_roll(c, long, busy):
    st = c.state
    if st == GAME_OVER or st == MOKSHA:
        if c.match is not None and not c.match.over():
            c.game = c.match.next_game()
            c.start_game()
            c.evaluate()
            return
        c.reject("roll", "the game is over: start a new game")
        return
    why = _roll_blocker(c, busy)
    if why is not None:
        c.reject("roll", why)
        return
    if c.dice.host is None and c.dice.source == "host":
        c.reject("roll", "no dice set by the host")
        return
    got = c.dice.press(long)
    if got is not None:
        roll(c, got[0], got[1], got[2])


def roll(c, d1, d2, source):
    """Roll d1, d2 (source: 'host', 'manual' or 'electronic') on controller c: a
    complete turn is recorded first; no complete turn with this roll is Moksha."""
    if c.state == TURN_COMPLETE:
        c.commit()
        if c.state != WAITING:
            return
    t = c.turn
    t.d1 = d1
    t.d2 = d2
    t.set_played([])
    c.turn_note = ""
    c.emit({"ev": "roll", "t": c.now, "dice": [d1, d2],
            "player": PLAYER[t.mover], "source": source})
    g = c.game
    if g.moksha_roll(d1, d2):
        c.emit({"ev": "moksha", "t": c.now, "roll": format_roll(d1, d2),
                "player": PLAYER[t.mover]})
        g.apply(d1, d2, [], None)
        c.emit({"ev": "turn", "t": c.now, "turn": format_turn(d1, d2, []),
                "player": PLAYER[t.mover], "position": g.pos.format()})
        c.game_over()
        return
    c.state = MOVING
    c.clean = True     # a roll needs the settled board to be the position


def _press_undo(c):
    if c.dice.undo():
        return
    st = c.state
    t = c.turn
    if not t.played or (st not in (MOVING, TURN_COMPLETE, GOAL_PENDING) and not (
            st == REPAIR and c.resume in (MOVING, GOAL_PENDING))):
        c.reject("undo", "nothing to undo in this turn")
        return
    m = t.played[-1]
    t.drop_goal()
    t.set_played(t.played[:-1])
    t.set_expected()
    c.emit({"ev": "undo", "t": c.now, "move": format_sub_move(m), "how": "button"})
    # The board still shows the undone sub-move: repair until it is put back.
    if c.state == REPAIR:
        c.resume = MOVING
    else:
        c.state = MOVING
    c.strict = True
    c.enter_repair("undo: put the marble back on %s" % position_name(m[1]))
    c.evaluate_repair()
