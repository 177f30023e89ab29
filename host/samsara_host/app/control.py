"""The live page's remote control of the board (docs/app.md "Live": New game, Roll,
Undo, Hint).  Its one job is turning the page's POST /api/live/<action> bodies into
the board's game commands (docs/protocol.md "Commands": new_game, roll, undo, hint),
checked first, and the board's answer or refusal into a player's words.  The command
itself runs in the BoardWatch thread (its `game` job), the port's one holder.

Actions: "new" {"vs_board": null|"A"|"B", "level": 1..3, "starter": "A"|"B",
"match": bool, "names": [A's, B's] (optional; "" for one not given)}, "roll", "undo", "hint" (no body); and "hand" {"hole"} on the app's own
virtual board only: a hand lifts or places a marble there (hand_line), as a person at
a real board would (on a Samas or Schaska board: app/gamehands.py).
"""
from samsara_host import gametags
from samsara_host import movewords
from samsara_host.movewords import dice_words, sub_move_words

ACTIONS = {"new": "new_game", "roll": "roll", "undo": "undo", "hint": "hint"}


class BadRequest(ValueError):
    """A body the page should not have sent; str() says what is wrong."""


def request_of(action, body):
    """(command name, arguments) for live page action `action` with JSON body `body`
    (a dict).  Raises BadRequest for an unknown action or a bad value."""
    if action not in ACTIONS:
        raise BadRequest("no such action: %s (one of %s)" % (action, ", ".join(ACTIONS)))
    if action != "new":
        return ACTIONS[action], {}
    kw = {}
    vs = body.get("vs_board")
    if vs not in (None, "", "A", "B"):
        raise BadRequest("the board plays side A or B, not %r" % (vs,))
    if vs:
        kw["vs_board"] = vs
        level = body.get("level", 3)
        if isinstance(level, str) and level.isdigit():
            level = int(level)
        if level not in (1, 2, 3) or isinstance(level, bool):
            raise BadRequest("the board's level is 1, 2 or 3, not %r" % (level,))
        kw["level"] = level
    starter = body.get("starter", "A") or "A"
    if starter not in ("A", "B"):
        raise BadRequest("the starter is A or B, not %r" % (starter,))
    kw["starter"] = starter
    if body.get("match"):
        kw["match"] = True
    names = body.get("names")
    if names is not None:
        if not isinstance(names, list) or len(names) != 2:
            raise BadRequest("give the names as a list of two: A's and B's")
        for key, side, n in zip(("name_a", "name_b"), "AB", names):
            if n is None or n == "":
                continue                  # a name box left empty: no name
            # (a name of spaces only is refused, as `game new --names` refuses it)
            try:
                kw[key] = gametags.check_text(n, "player %s's name" % side)
            except gametags.TagError as e:
                raise BadRequest(str(e))
    return ACTIONS[action], kw


def other_game_words(game, action):
    """The refusal of the live page's `action` (new, roll, undo, hint, hand) on a board
    that plays `game` ("samas", "schaska"): those are Samsara's, and the game is played
    at the board."""
    from samsara_host.app.livegames import game_words
    how = ("each player's tray and Ready button" if game == "samas" else
           "its figures (a move needs no button)")
    if action == "hand":
        return ("The page's hands move only the app's own virtual board: this board plays "
                "%s; play it at the board, with %s." % (game_words(game), how))
    return ("%s is Samsara's: this board plays %s, played at the board with %s." % (
        {"new": "New game", "roll": "Roll", "undo": "Undo", "hint": "Hint"}.get(
            action, action), game_words(game), how))


def hand_line(snapshot, hole, sensed=None):
    """The feed line (samsara_host.vboard.vdrivers) of a hand's click on `hole` of the
    app's own virtual board: a marble or piece in the hole is lifted, an empty hole
    gets the marble in the hand.  sensed: the names of the holes whose sensors are on
    (VirtualBoard.sensed: every sensed hole, the goals GS and GR and the scoring
    tracks too), which decides; None: decided from the live snapshot (its lifted and
    occupied lists, which know neither goal).  Raises BadRequest for a name that is
    no hole."""
    from samsara.rules.geometry import position_index
    try:
        position_index(hole)
    except (TypeError, ValueError):
        raise BadRequest("no hole %r on the board" % (hole,))
    if sensed is not None:
        return {"pos": hole, "on": hole not in sensed}
    if hole in snapshot.get("lifted", ()):
        return {"pos": hole, "on": True}
    if hole in snapshot.get("occupied", ()):
        return {"pos": hole, "on": False}
    return {"pos": hole, "on": True}


def done_words(name, kw, reply):
    """What happened, in words, after the board carried out command `name`."""
    if name == "new_game":
        if kw.get("vs_board"):
            return "New game %s against the board: it plays %s at level %d, you play %s." % (
                reply.get("game"), kw["vs_board"], kw.get("level", 3),
                "B" if kw["vs_board"] == "A" else "A")
        starter = kw.get("starter", "A")
        return "New game %s for two players: %s rolls first." % (
            reply.get("game"), kw.get("name_" + starter.lower()) or starter)
    if name == "roll":
        return "Rolled %s." % dice_words(reply.get("dice"))
    if name == "undo":
        return "Took back %s: %s." % (reply.get("move"), sub_move_words(reply.get("move")))
    if name == "hint":
        return "The board thinks about a hint: it is drawn in green and lit on the board."
    return "Done."


def refusal_words(name, e, snapshot=None):
    """The board's refusal (boardlink.BoardError `e`) of command `name` in words: what
    to do instead (movewords.refusal_words, as `samsara game` says it), from the game
    as the live snapshot `snapshot` shows it."""
    if e.code == "log_full":
        return ("The board's memory holds only games not copied yet: copy them on the "
                "Games page (Pull from the board) first.")
    msg = str(e.msg or e.code or "")
    return movewords.refusal_words(name, msg, snapshot) + "."
