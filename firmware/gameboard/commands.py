"""The host commands of the other games' boards (docs/protocol.md "Commands", docs/samas.md
and docs/schaska.md "On the board"): new_game, the one game command of the table they
answer (the rest of Samsara's game commands answer not_supported).  Its one job is that
command: the players' names for the header of the game's log (GameBoard.set_players)
and a new game from the start, as the long press after a game's end starts one.  The
board's HOST_COMMANDS hand it to the link (boardcore.link.hostlink).

Each is NAME(link, args) -> reply fields, `link` the boardcore.link.hostlink.HostLink
that took the line (boardcore.link.commands has the table and the arguments).
"""

from boardcore.link.protocol import CmdError, E_BAD_ARGS

_SAMSARA_ONLY = ("match", "position", "vs_board", "far", "online")
"""new_game's arguments that only Samsara's game has (a match, a position string, the
board as a player, an online game)."""


def new_game(link, a):
    """`new_game` on a Samas or Schaska board: a new game from the start (an unfinished
    game before it is closed as abandoned in its log), named by `name_a` and `name_b`
    (the header's "players"; none given: no names).  Replies {"players": [A's, B's] or
    None}; the game's log starts when its game_start event reaches the logbook.
    bad_args for an argument of Samsara's game (match, position, vs_board, far, online),
    a starter other than A, or a name the board refuses (GameBoard.set_players)."""
    board = link.board
    for key in _SAMSARA_ONLY:
        if a[key]:
            raise CmdError(E_BAD_ARGS, "%s: a %s game has none (it is Samsara's)"
                           % (key, board.GAME))
    if a["starter"] != "A":
        raise CmdError(E_BAD_ARGS, "starter: a %s game starts as its rules say" % board.GAME)
    names = None
    if a["name_a"] is not None or a["name_b"] is not None:
        names = [a["name_a"] or "", a["name_b"] or ""]
    try:
        board.set_players(names)
    except ValueError as e:
        raise CmdError(E_BAD_ARGS, str(e))
    board.restart(link.now)
    return {"players": board.players}


HANDLERS = (("new_game", new_game),)
"""The other games' host commands: ((name, handler), ...), the board's HOST_COMMANDS."""
