"""One turn of the live game drawn as the replay page draws it (docs/app.md "Live":
the move list's links).  Its one job is turning the live snapshot's record (every
turn from the game's first, samsara_host.app.livestate) into the picture of the
board after turn n, the turn's sub-moves as arrows and its roll on the dice
(samsara_host.export.pictures, the replay's and the exports' picture).

    view = turn_view(snapshot, n)   # {"n", "player", "notation", "caption", "svg"}
"""
from samsara.rules import moves as rules
from samsara.rules.position import Position, PositionError

from samsara_host import export, record


class NoTurn(LookupError):
    """The live game has no turn n that can be drawn; str() says why in words."""


def turn_view(snap, n):
    """The board after turn `n` (1..) of the live game in snapshot `snap` (its
    "record" [[number, notation]], "start" position text or None: the usual start,
    "og" rule option code or None, "names", "vs_board", "game"): {"n", "player" ("A"/"B"),
    "name" (what to call the player), "notation", "caption", "svg"}.  Raises NoTurn
    when there is no such turn, or the turns before it are not all known or do not
    replay under the rules."""
    rec = snap.get("record") or []
    if not isinstance(n, int) or n < 1 or not rec or n > rec[-1][0]:
        raise NoTurn("There is no turn %s in this game yet." % n)
    if rec[0][0] != 1:
        raise NoTurn("The turns before turn %d are not known here: pull the game and "
                     "replay it in the library." % rec[0][0])
    try:
        start = Position.parse(snap["start"]) if snap.get("start") else Position()
    except PositionError as e:
        raise NoTurn("The game's start cannot be read: %s" % e)
    og = snap.get("og")
    names = list(snap.get("names") or ["", ""])
    vs = snap.get("vs_board")
    if vs in ("A", "B") and not names["AB".index(vs)]:
        names["AB".index(vs)] = "board"
    tags = {"OpponentGoal": rules.OPTION_NAMES[og if og in (0, 1) else rules.OWNER_SCORES],
            "PlayerA": names[0] or "?", "PlayerB": names[1] or "?"}
    if snap.get("game") is not None:
        tags["Game"] = str(snap["game"])
    game = record.GameRecord(tags, start, [t for _k, t in rec[:n]])
    try:
        game.replay()
        (caption, picture), = export.pictures(game, legend=False, only=n)
    except (record.RecordError, ValueError) as e:
        raise NoTurn("Turn %d cannot be drawn: %s" % (n, e))
    step = game.steps[n - 1]
    side = "AB"[step.player]
    return {"n": n, "player": side, "name": names[step.player] or side,
            "notation": step.notation, "caption": caption, "svg": picture}
