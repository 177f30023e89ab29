"""The game logs of Samas and Schaska boards (samas.logbook, schaska.logbook): which game
a log file holds, and its JSON lines, the same as `samsara rules play --game ... --json`
gives for the same game (docs/samas.md, docs/schaska.md "The game log").  Its one job is
reading those logs: the records are replayed under the rules from the header's start, as
a Samsara log's turns are.

    game_of(data)       "samsara", "samas" or "schaska" (the header's "rules")
    jsonl_lines(data)   the game's JSON lines (dicts); LogError for what is wrong
    players_of(data)    the players' names of the header ([A's, B's]) or None

A game whose header names its players (GameBoard.set_players: `samsara virtual-board
--names`, `samsara app --virtual --names`) has them in its start line as "players":
[A's, B's]; an unnamed game's lines are `rules play`'s exactly.
"""
from boardcore.storage.logrecord import T_END, T_HEADER, parse_records, record_event
from samas.rules.game import Game as SamasGame
from samas.rules.rounds import IllegalSelectionError, selection
from samas.rules.state import State as SamasState, StateError as SamasStateError
from schaska.rules.actions import IllegalActionError
from schaska.rules.game import Game as SchaskaGame
from schaska.rules.layout import LayoutError, check_layout
from schaska.rules.state import State as SchaskaState, StateError as SchaskaStateError
from samsara_host import samas_lines, schaska_lines

GAMES = ("samas", "schaska")
"""The games whose logs this module reads (a log without "rules" is Samsara's)."""


class LogError(ValueError):
    """A log that is not a readable game of GAMES (str() says what is wrong)."""


def _records(data):
    recs, good = parse_records(data)
    if not recs or recs[0][0] != T_HEADER:
        raise LogError("no header record: not a game log")
    return recs, good


def game_of(data):
    """The game a log file's bytes hold: its header's "rules" ("samas", "schaska"), or
    "samsara" for a header without one.  Raises LogError when there is no header."""
    recs, _good = _records(data)
    return record_event(recs[0][0], recs[0][1]).get("rules", "samsara")


def other_game_of_file(path):
    """"samas" or "schaska" when the file at `path` is that game's log, else None (a
    Samsara log, a record exported as JSON or text, or no readable log at all: the
    record reader says what is wrong with it)."""
    try:
        with open(path, "rb") as f:
            game = game_of(f.read())
    except (OSError, LogError, ValueError):
        return None
    return game if game in GAMES else None


def players_of(data):
    """The players' names a log file's header holds ([A's, B's], "" for one not given;
    the board's GameBoard.set_players), or None.  Raises LogError when there is no
    header."""
    recs, _good = _records(data)
    return header_players(record_event(recs[0][0], recs[0][1]))


def header_players(header):
    """[A's, B's] of a header dict's "players", or None (none, or not two texts)."""
    p = header.get("players")
    if not isinstance(p, list) or len(p) != 2 or not all(isinstance(x, str) for x in p):
        return None
    return [p[0], p[1]] if p[0] or p[1] else None


def jsonl_lines(data):
    """The JSON lines (a list of dicts) of the Samas or Schaska game in a log file's
    bytes: the start line (with "players" when the header names them), a line per
    round or turn, and the result line when the game ended (an abandoned or torn game
    has none).  Raises LogError for a Samsara log, a
    bad header, a record the rules do not allow, or an end that is not the rules'."""
    recs, good = _records(data)
    header = record_event(recs[0][0], recs[0][1])
    game = header.get("rules", "samsara")
    if header.get("cut"):
        raise LogError("game %s: its header was cut (longer than a record): the game "
                       "cannot be read" % header.get("game"))
    if game not in GAMES:
        raise LogError("a %s log: --format jsonl is for Samas and Schaska logs" % game)
    try:
        lines = _samas(header, recs[1:]) if game == "samas" else _schaska(header, recs[1:])
    except (SamasStateError, SchaskaStateError, LayoutError, IllegalSelectionError,
            IllegalActionError, KeyError, TypeError, ValueError) as e:
        if isinstance(e, LogError):
            raise
        raise LogError("game %s: %s" % (header.get("game"), e))
    players = header_players(header)
    if players:
        lines[0]["players"] = players       # (a named game's start line only)
    return lines


def _end_of(recs):
    for t, p in recs:
        if t == T_END:
            return record_event(t, p)
    return None


def _check_end(end, game, key):
    if end is None or end.get("how") != "end":
        return False
    if end.get("result") != game.result or end.get("by") != getattr(game, key):
        raise LogError("the log's end (%s by %s) is not the rules' (%s by %s)" % (
            end.get("result"), end.get("by"), game.result, getattr(game, key)))
    return True


def _samas(header, recs):
    start = SamasState.from_obj(header["start"])
    game = SamasGame(start)
    lines = [samas_lines.start_line(start)]
    for t, p in recs:
        ev = record_event(t, p)
        if ev.get("ev") != "round":
            continue
        play = ev["p"]
        if not isinstance(play, str) or len(play) != 2:
            raise LogError("a round record's selections %r are not two" % (play,))
        sa = selection(play[0])
        sb = selection(play[1])
        after = game.play(sa, sb)
        lines.append(samas_lines.round_line(game.rounds, sa, sb, after))
    if _check_end(_end_of(recs), game, "how"):
        lines.append(samas_lines.result_line(game))
    return lines


def _schaska(header, recs):
    layout = check_layout(header["layout"])
    if "start" in header:
        start = SchaskaState.from_obj(header["start"], len(layout))
    else:
        start = SchaskaState(len(layout))      # every figure at its start, A to move
    game = SchaskaGame(layout, start)
    lines = [schaska_lines.start_line(layout, start)]
    for t, p in recs:
        ev = record_event(t, p)
        if ev.get("ev") != "move":
            continue
        a = ev["a"]
        action = (a[0], a[1])
        before = game.state
        after = game.play(action)
        lines.append(schaska_lines.turn_line(game.turns, before, action, after))
    if _check_end(_end_of(recs), game, "by"):
        lines.append(schaska_lines.result_line(game))
    return lines
