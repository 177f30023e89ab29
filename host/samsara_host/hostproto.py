"""The host's half of the USB line protocol (docs/protocol.md): encoding commands,
decoding board lines and the event table.  The board never loads this module (its half,
samsara.link.protocol, stays small on the Pico's heap: docs/performance.md).

``encode_command(name, req_id, args)`` -> bytes of one host line; ``decode_line(line)``
-> dict or None; ``event_table()`` -> ((name, fields, flags), ...) with flags LOGGED |
ENDS; ``event_spec(name)``; ``is_event``/``is_reply``.
"""

import json

from samsara.link import protocol as P

LOGGED = 1
"""Flag of event_table(): the event is written to the game log (docs/gamelog.md)."""
ENDS = 2
"""Flag of event_table(): the event ends a game (the recorder closes its log)."""

_EVENTS = (
    # name fields... flags (L: logged, E: ends a game, -: neither).  Board core events
    # (docs/controller.md) carry "t" (ms); the link's and the recorder's do not.  One
    "game_start t position match game vs L\n"
    "lift t pos -\n"
    "place t pos -\n"
    "reject t what reason -\n"
    "roll t dice player source L\n"
    "moksha t roll player L\n"
    "sub t move player L\n"
    "undo t move how L\n"
    "goal t goal player score ins L\n"
    "reinsert t pos L\n"
    "score t player score L\n"
    "turn_complete t turn player -\n"
    "turn t turn player position L\n"
    "final_turn t player L\n"
    "repair t reason missing extra L\n"
    "repair_end t L\n"
    "game_over t winner how score points LE\n"
    "match_over t totals winner L\n"
    "boot proto fw hash kind board -\n"
    "resume game records turns dropped -\n"
    "log_full unpulled free need -\n"
    "log_error msg -\n"
    "error msg -\n"
    "dropped lines -\n"
    "flight_saved copy why -\n"
    "hint t turn player L\n"
    "board_move t move player -")


def event_table():
    """The event table: a tuple of (name, fields, flags) of every event line the board
    sends (docs/protocol.md "Events"), flags LOGGED | ENDS.  A field may be missing
    from one event (game_start's "game" is there in a match only); a line cut to fit
    MAX_OUT is {"ev": name, "cut": true}.  The host's monitor and the docs follow from
    it; the board's samsara.link.protocol.NOT_LOGGED and END_EVENTS are its L and E
    columns (tests/test_event_path.py holds them equal).  Built on each call."""
    out = []
    for line in _EVENTS.split("\n"):
        w = line.split(" ")
        fl = w[-1]
        out.append((w[0], tuple(w[1:-1]),
                    (LOGGED if "L" in fl else 0) | (ENDS if "E" in fl else 0)))
    return tuple(out)


def event_spec(name):
    """(fields, flags) of event `name` from event_table(), or None for a name not in
    it."""
    for e in event_table():
        if e[0] == name:
            return e[1], e[2]
    return None


def encode_command(name, req_id=None, args=None):
    """The bytes of one host line for command `name` with optional id and arguments.
    Raises ValueError for an unknown command (the table is the contract)."""
    if name not in P.COMMAND_NAMES:
        raise ValueError("unknown command %r" % (name,))
    d = {"cmd": name}
    if req_id is not None:
        d["id"] = req_id
    if args:
        for k in args:
            d[k] = args[k]
    return P.encode(d)


def decode_line(line):
    """A board line (bytes or str) -> dict, or None for a line that is not a JSON
    object (a banner, a traceback, a partial line)."""
    if isinstance(line, (bytes, bytearray)):
        try:
            line = bytes(line).decode("utf-8")
        except Exception:
            return None
    line = line.strip()
    if not line.startswith("{"):
        return None
    try:
        obj = json.loads(line)
    except Exception:
        return None
    if not isinstance(obj, dict):
        return None
    return obj


def is_event(obj):
    """True for an event line dict."""
    return "ev" in obj


def is_reply(obj):
    """True for a reply line dict."""
    return "re" in obj
