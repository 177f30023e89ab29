"""A game's log read off the board without pulling it (docs/protocol.md "log_get",
docs/gamelog.md): its header (start position, rule option, the side and level of the
board, the players' names) and its committed turns.  Its one job is reading; nothing
is written, acknowledged or stored, so the running game can be read as it grows.

    h = game_header(client, game)          # dict or None
    h, turns = game_turns(client, game)    # every committed turn, in order
    names = header_names(h)                # ["Anna", ""] or None

client: a samsara_host.hostproto client (boardlink.State.client).
"""
import base64
import json

from samsara_host import boardlink

HEADER_BYTES = 512
"""How much of a log's start game_header reads at most (the header is its first
record, a few hundred bytes)."""

MAX_LOG_BYTES = 64 * 1024
"""The most game_turns reads of one log (a game's log is a few kB; a longer one is
not a game's)."""


def read_log(client, game, limit, enough=None):
    """The first bytes of game `game`'s log, chunk by chunk with log_get, until its
    end, `limit` bytes, or enough(data) says so.  Raises boardlink.LinkError (a lost
    connection, a refusal: no such game)."""
    data = b""
    while len(data) < limit:
        r = client.request("log_get", game=game, offset=len(data))
        chunk = base64.b64decode(r.get("data") or "")
        data += chunk
        if r.get("eof") or not chunk or (enough is not None and enough(data)):
            break
    return data


def _header_of(recs):
    if not recs or recs[0][0] != ord("H"):
        return None
    try:
        h = json.loads(recs[0][1].decode("utf-8"))
    except ValueError:
        return None
    return h if isinstance(h, dict) else None


def game_header(client, game):
    """The header record (a dict: og, match, start, vs_board, level, players, ...) of
    game `game`'s log on the board, or None when it cannot be read (no such log, a
    damaged start).  A lost connection raises boardlink.Disconnected / NoReply."""
    from boardcore.storage.logrecord import parse_records
    try:
        data = read_log(client, game, HEADER_BYTES, lambda d: bool(parse_records(d)[0]))
        recs, _n = parse_records(data)
    except (boardlink.Disconnected, boardlink.NoReply):
        raise
    except (boardlink.LinkError, ValueError, TypeError):
        return None
    return _header_of(recs)


def game_turns(client, game):
    """(header or None, [turn notation]) of game `game`'s log on the board: its
    committed turns in order, up to a torn or damaged record (a running game's log
    ends in the middle of a turn).  ([], None) parts when it cannot be read; a lost
    connection raises boardlink.Disconnected / NoReply."""
    from boardcore.storage.logrecord import parse_records, verify
    try:
        data = read_log(client, game, MAX_LOG_BYTES)
        _ok, _msg, rp = verify(data)
    except (boardlink.Disconnected, boardlink.NoReply):
        raise
    except (boardlink.LinkError, ValueError, TypeError):
        return None, []
    turns = [str(t) for t in (rp.turns or ())]
    return _header_of(parse_records(data)[0]), turns


def header_names(header):
    """The players' names a log's header holds: [A's, B's] ("" for one not known), or
    None when it names nobody."""
    if not isinstance(header, dict):
        return None
    players = header.get("players")
    if isinstance(players, list) and len(players) == 2:
        names = [p.strip() if isinstance(p, str) else "" for p in players]
    else:
        names = [str(header.get(k) or "").strip() for k in ("player_a", "player_b")]
    return names if any(names) else None
