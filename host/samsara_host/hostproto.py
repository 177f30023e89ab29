"""The host's half of the USB line protocol (docs/protocol.md): encoding commands and
decoding board lines; the event table and the command table are the board's own
(boardcore.link.protocol.EVENTS, boardcore.link.commands.COMMANDS), shared by both ends.

``encode_command(name, req_id, args)`` -> bytes of one host line; ``decode_line(line)``
-> dict or None; ``event_table()`` -> ((name, fields, flags), ...) with flags LOGGED |
ENDS; ``event_spec(name)``; ``is_event``/``is_reply``.
"""

import json

from boardcore.link import protocol as P

LOGGED = P.LOGGED
"""Flag of event_table(): the event is written to the game log (docs/gamelog.md)."""
ENDS = P.ENDS
"""Flag of event_table(): the event ends a game (the recorder closes its log)."""


def event_table():
    """The event table (boardcore.link.protocol.EVENTS, its one definition): a tuple of
    (name, fields, flags) of every event line the board sends (docs/protocol.md
    "Events"), flags LOGGED | ENDS."""
    return P.EVENTS


def event_spec(name):
    """(fields, flags) of event `name` from event_table(), or None for a name not in
    it."""
    for e in P.EVENTS:
        if e[0] == name:
            return e[1], e[2]
    return None


def encode_command(name, req_id=None, args=None):
    """The bytes of one host line for command `name` with optional id and arguments:
    JSON as UTF-8 (non-ASCII characters unescaped) plus LF.  Raises ValueError
    for an unknown command (the table is the contract), UnicodeEncodeError for text
    holding a lone surrogate."""
    from boardcore.link.commands import COMMAND_NAMES
    if name not in COMMAND_NAMES:
        raise ValueError("unknown command %r" % (name,))
    d = {"cmd": name}
    if req_id is not None:
        d["id"] = req_id
    if args:
        for k in args:
            d[k] = args[k]
    # UTF-8 itself, not \u escapes: the board's JSON reader (MicroPython) turns each
    # half of a surrogate pair (a character outside the BMP, e.g. an emoji in a name)
    # into bytes that are not UTF-8, and refuses such text (docs/protocol.md).
    return (json.dumps(d, ensure_ascii=False) + "\n").encode("utf-8")


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
