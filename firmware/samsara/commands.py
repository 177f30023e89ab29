"""Samsara's host commands (docs/protocol.md "Commands"): status, position, roll,
set_dice, new_game, undo, hint and far_turn (an online game's far turn), the game's part
of the host link's command table (boardcore.link.commands: the arguments; HANDLERS
here: the handlers, given to the link by the boot).  Its one job is those commands:
each reads the board
(samsara.core.Board's public members) or hands a request to the board's inputs (the
door the main loop gives the link: mainloop.Inputs, with the flight recorder's note of
it), and its reply comes from the call that carried it out.  A request the board
refuses (samsara.controller.Refused) is a `state` error with the refusal's words.

Each is NAME(link, args) -> reply fields, `link` the boardcore.link.hostlink.HostLink
that took the line (boardcore.link.commands has the table).
"""

from boardcore.link.protocol import CmdError, E_STATE, E_NOT_SUPPORTED, E_BAD_ARGS, E_LOG_FULL
from boardcore.storage.gamelog import LogFull
from samsara.controller import Refused
from samsara.rules.notation import format_sub_move, format_turn
from samsara.rules.position import Position, PositionError
from samsara.states import ENDED


def _inputs(link):
    if link.inputs is None:
        raise CmdError(E_NOT_SUPPORTED, "this link drives no board")
    return link.inputs


def status(link, a):
    """`status`: state, game number, mover, score, dice, the turn so far, the side the
    board plays and its level (a game against the board), the board's next sub-move to
    carry out and the hint lit now (notation or None), the winner ("A"/"B", None while
    the game runs or for a draw), how the game ended ("centre", "moksha" or None) and
    the number of the game whose end the board shows (`ended`, its log closed),
    the log's space, uptime and the loop figures.  Never waits for the game log."""
    c = link.board.controller
    pos = c.position()
    rec = link.recorder
    p = c.player
    vs = p is not None and p.side >= 0 and not p.far
    return {"state": c.state,
            "game": None if rec is None else rec.log.run_gid,
            "mover": "AB"[pos.mover], "score": "%d-%d" % (pos.a, pos.b),
            "dice": [c.turn.d1, c.turn.d2] if c.turn.d1 else [],
            "remaining": c.remaining_dice(),
            "vs_board": "AB"[p.side] if vs else None,
            "far": "AB"[p.side] if p is not None and p.far else None,
            "level": p.level if vs else None,
            "board_move": _planned(c, p, True), "hint": _planned(c, p, False),
            "turn": c.turn_notation(),
            "winner": "AB"[c.winner] if c.winner >= 0 else None,
            "how": c.game.result[1] if c.game.result is not None else None,
            "ended": _ended(c, rec),
            "log": link.log_space(),
            "uptime_ms": link.uptime_ms(),
            "loop": {"period_ms": link.period_ms, "max_ms": link.max_gap,
                     "overruns": link.overruns}}


def _ended(c, rec):
    # The number of the game whose end the board shows (its log closed at the end, so
    # `game` is null by then); None while a game runs or when it was not logged.
    if rec is None or rec.unlogged or rec.log.run_gid is not None or \
            c.state not in ENDED:
        return None
    return rec.last_gid


def _planned(c, p, forced):
    # The board's sub-move to carry out next (forced: its own turn) or the hint's turn
    # lit now (not forced), in notation; None when there is none.
    if p is None or p.plan is None or p.forced != forced or not p._same_turn(c.turn):
        return None
    if not forced:
        t = c.turn
        return format_turn(t.d1, t.d2, p.plan)
    k = p.next_index(c.turn)
    if 0 <= k < len(p.plan):
        return format_sub_move(p.plan[k])
    return None


def position(link, a):
    """`position`: the position text, state, turns so far and the last 10 turns."""
    c = link.board.controller
    rec = c.game.record if c.game is not None else None
    return {"position": c.position().format(), "state": c.state,
            "turns": 0 if rec is None else len(rec),
            "record": [] if rec is None else rec.tail(10)}


def set_dice(link, a):
    """`set_dice`: the dice of the next roll."""
    d = a["dice"]
    _inputs(link).set_dice(d[0], d[1], a["joint"])
    return {"dice": d}


def roll(link, a):
    """`roll`: the roll button from the host; its dice (`state` when not possible)."""
    try:
        dice = _inputs(link).roll(link.now)
    except Refused as e:
        raise CmdError(E_STATE, e.reason)
    if dice is None:    # manual dice entry goes on, or a match's next game began
        raise CmdError(E_STATE, "roll not possible now")
    return {"dice": [dice[0], dice[1]]}


def undo(link, a):
    """`undo`: the undo button from the host; the undone sub-move when there was one."""
    try:
        move = _inputs(link).undo(link.now)
    except Refused as e:
        raise CmdError(E_STATE, e.reason)
    if move is None:    # a step back in manual dice entry: no sub-move undone
        raise CmdError(E_STATE, "undo not possible now")
    return {"move": move}


def hint(link, a):
    """`hint`: ask for the engine's turn for the player's roll (samsara.boardplayer).
    It thinks in slices: the reply says it was asked, the `hint` event follows once
    the turn is chosen; `state` with the refusal's words when no hint is possible."""
    try:
        _inputs(link).hint(link.now)
    except Refused as e:
        raise CmdError(E_STATE, e.reason)
    return {}


def far_turn(link, a):
    """`far_turn`: the far player's turn of an online game (turn notation for the roll
    the board made for it), lit and insisted on; `turn` (its notation as the board
    writes it).  `state` with the refusal's words when it is not the far player's
    rolled turn, the turn does not replay for that roll, or another was given."""
    try:
        note = _inputs(link).far_turn(link.now, a["turn"])
    except Refused as e:
        raise CmdError(E_STATE, e.reason)
    return {"turn": note}


def new_game(link, a):
    """`new_game`: a new game (its log reserved; a complete turn of the game before is
    recorded first; `level` the strength of the board's own turns with `vs_board`;
    `name_a`, `name_b` the players' names, for the header's "players");
    its game number (`log_full` when the log holds only unpulled
    games, `bad_args` for a bad position)."""
    pos = a["position"]
    if pos is not None:
        try:
            Position.parse(pos)
        except PositionError as e:
            raise CmdError(E_BAD_ARGS, "position: %s" % e)
    vs = a["vs_board"]
    far = a["far"]
    if far is not None:
        if vs is not None:
            raise CmdError(E_BAD_ARGS, "far: a game is against the board or a far "
                           "player, not both")
        vs = far
    tags = None
    if a["online"] is not None:
        tags = {"online": a["online"], "players": [a["name_a"] or "", a["name_b"] or ""]}
    elif a["name_a"] is not None or a["name_b"] is not None:
        tags = {"players": [a["name_a"] or "", a["name_b"] or ""]}   # the players' names
    try:
        gid = _inputs(link).new_game(link.now, pos, a["match"],
                                     0 if a["starter"] == "A" else 1,
                                     None if vs is None else "AB".index(vs),
                                     a["level"], far is not None, tags)
    except LogFull:
        raise CmdError(E_LOG_FULL, "flash holds only unpulled games: pull them first")
    return {"game": gid}


HANDLERS = (("status", status), ("position", position), ("roll", roll),
            ("set_dice", set_dice), ("new_game", new_game), ("undo", undo),
            ("hint", hint), ("far_turn", far_turn))
"""Samsara's game commands for the host link: ((name, handler), ...), the entries of
boardcore.link.commands.COMMANDS whose handler is the game's."""
