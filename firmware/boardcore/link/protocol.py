"""The USB line protocol shared by the board and the host (docs/protocol.md): its
constants and error codes, the event table, CRC-16, base64 and the shape of a line.

One JSON object per line, LF-terminated, UTF-8.  Host lines are commands
``{"cmd": NAME, "id": ID, ...args}`` (their table and parser: boardcore.link.commands);
board lines are replies ``{"re": NAME, "ok": ...}`` or events ``{"ev": NAME, ...}``.
Input is parsed with ``json.loads`` only: nothing received is ever evaluated as code.

The event table (EVENTS: every event line the board sends, with its fields and whether
the game log takes it or it ends a game) is the one definition the board's recorder
(NOT_LOGGED, END_EVENTS), the host's monitor (samsara_host.hostproto) and
docs/protocol.md follow.

Runs unchanged on MicroPython (rp2, Unix, WebAssembly) and CPython.  Integers stay
below 2**16 (CRC-16), so nothing here allocates a big integer on the Pico.
"""

import json
from array import array

try:
    from micropython import const
except ImportError:  # CPython
    def const(__x):
        return __x

try:
    import binascii
except ImportError:  # pragma: no cover - every supported port has binascii
    import ubinascii as binascii

PROTO = 1
"""Protocol version: bumped on any change an old peer would misread (docs/protocol.md)."""

MAX_IN = 256
"""Longest host line in bytes, LF excluded."""
MAX_OUT = 512
"""Longest board line in bytes, LF included."""
CHUNK = 192
"""Largest log chunk in bytes (256 characters of base64)."""
MAX_ID_STR = 16
"""Longest string request id (a number id is 0 .. MAX_SMALL - 1)."""
MAX_SMALL = 1 << 30
"""A small int's bound on the Pico: a number id, game number or offset is below it."""
LOGS_PER_PAGE = 6
"""Entries of one `logs` reply (the next page: "after" the last game listed)."""

# Error codes (docs/protocol.md "Error codes").
E_BAD_JSON = "bad_json"
E_BINARY = "binary"
E_TOO_LONG = "line_too_long"
E_TWO = "two_commands"
E_NOT_OBJECT = "not_object"
E_NO_CMD = "no_cmd"
E_UNKNOWN = "unknown_cmd"
E_BAD_ARGS = "bad_args"
E_BAD_ID = "bad_id"
E_STATE = "state"
E_LOG_FULL = "log_full"
E_NOT_FOUND = "not_found"
E_BUSY = "busy"
E_NOT_SUPPORTED = "not_supported"
E_INTERNAL = "internal"

LOGGED = const(1)
"""Flag of EVENTS: the event is written to the game log (docs/gamelog.md)."""
ENDS = const(2)
"""Flag of EVENTS: the event ends a game (the recorder closes its log)."""

EVENTS = (
    # (name, fields, flags): flags LOGGED (the log takes it) | ENDS (it ends a game).
    # Board core events (docs/controller.md) carry "t" (ms); the link's and the
    # recorder's do not.  A literal of constants: frozen into the firmware image it
    # lives in flash, not on the heap.
    ("game_start", ("t", "position", "match", "game", "vs", "level", "far"), LOGGED),
    ("lift", ("t", "pos"), 0),
    ("place", ("t", "pos"), 0),
    ("reject", ("t", "what", "reason"), 0),
    ("roll", ("t", "dice", "player", "source"), LOGGED),
    ("moksha", ("t", "roll", "player"), LOGGED),
    ("sub", ("t", "move", "player"), LOGGED),
    ("undo", ("t", "move", "how"), LOGGED),
    ("goal", ("t", "goal", "player", "score", "ins"), LOGGED),
    ("reinsert", ("t", "pos"), LOGGED),
    ("score", ("t", "player", "score"), LOGGED),
    ("turn_complete", ("t", "turn", "player"), 0),
    ("turn", ("t", "turn", "player", "position"), LOGGED),
    ("final_turn", ("t", "player"), LOGGED),
    ("repair", ("t", "reason", "missing", "extra"), LOGGED),
    ("repair_end", ("t",), LOGGED),
    ("game_over", ("t", "winner", "how", "score", "points"), LOGGED | ENDS),
    ("match_over", ("t", "totals", "winner"), LOGGED),
    ("boot", ("proto", "fw", "hash", "kind", "board"), 0),
    ("resume", ("game", "records", "turns", "dropped"), 0),
    ("log_full", ("unpulled", "free", "need"), 0),
    ("log_error", ("msg",), 0),
    ("error", ("msg",), 0),
    ("dropped", ("lines",), 0),
    ("flight_saved", ("copy", "why"), 0),
    ("hint", ("t", "turn", "player"), LOGGED),
    ("board_move", ("t", "move", "player"), 0),
)
"""The event table: (name, fields, flags) of every event line the board sends
(docs/protocol.md "Events"), flags LOGGED | ENDS.  A field may be missing from one
event (game_start's "game" is there in a match only); a line cut to fit MAX_OUT is
{"ev": name, "cut": true}."""

NOT_LOGGED = tuple([e[0] for e in EVENTS if not e[2] & LOGGED])
"""Events that stream to the host but are not written to the log: not needed to
rebuild or read a game (turn_complete is followed by its turn record), and a fidgeting
player could make lift/place/reject unbounded."""

END_EVENTS = tuple([e[0] for e in EVENTS if e[2] & ENDS])
"""Events that end a game (the recorder closes the game's log on them)."""


class ProtocolError(ValueError):
    """A host line the board cannot take: `code` is an error code of docs/protocol.md,
    `msg` a short text, `name` the command name when known (else None), `req_id` the
    request id when it was readable (else None)."""

    def __init__(self, code, msg, name=None, req_id=None):
        super().__init__(msg)
        self.code = code
        self.msg = msg
        self.name = name
        self.req_id = req_id


def is_id(v):
    """True when v is a request id a command takes: an int (not a bool) 0..MAX_SMALL-1
    or a string of at most MAX_ID_STR characters."""
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return 0 <= v < MAX_SMALL
    return isinstance(v, str) and len(v) <= MAX_ID_STR


def is_dice(v):
    """True when v is dice as a command takes them (`set_dice`): a list of two ints
    (not bools) 1..6."""
    if not isinstance(v, list) or len(v) != 2:
        return False
    for d in v:
        if not isinstance(d, int) or isinstance(d, bool) or d < 1 or d > 6:
            return False
    return True


class CmdError(Exception):
    """A command failed: code (protocol error code) and msg (the board's command
    handlers, boardcore.link.cmd_*, raise it)."""

    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code
        self.msg = msg


# ---- CRC-16/CCITT-FALSE with a 256-entry table of small ints -------------------------

def _make_table():
    t = []
    for i in range(256):
        c = i << 8
        for _ in range(8):
            if c & 0x8000:
                c = ((c << 1) ^ 0x1021) & 0xFFFF
            else:
                c = (c << 1) & 0xFFFF
        t.append(c)
    return array("H", t)


_CRC_TABLE = _make_table()


def crc16(data, crc=0xFFFF, start=0, end=-1):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of data[start:end] (bytes-like),
    continuing from `crc`; end -1 means len(data).  crc16(b"123456789") == 0x29B1.
    Only small integers (below 2**16); allocates nothing for bytes/bytearray input."""
    t = _CRC_TABLE
    if end < 0:
        end = len(data)
    i = start
    while i < end:
        crc = ((crc << 8) & 0xFFFF) ^ t[((crc >> 8) ^ data[i]) & 0xFF]
        i += 1
    return crc


def crc_hex(crc):
    """A CRC-16 as 4 lowercase hex digits."""
    return "%04x" % crc


def b64encode(data):
    """Base64 text of bytes, no newline."""
    return binascii.b2a_base64(data).decode().rstrip("\n")


def b64decode(text):
    """Bytes of base64 text (str or bytes).  Raises ValueError on bad input."""
    if isinstance(text, str):
        text = text.encode()  # some ports' a2b_base64 take bytes only
    try:
        return binascii.a2b_base64(text)
    except Exception as e:  # binascii.Error is a ValueError on CPython only
        raise ValueError("bad base64: %s" % e)


# ---- building board lines ------------------------------------------------------------

def reply(name, req_id, fields=None):
    """The dict of a successful reply to `name`."""
    d = {"re": name, "ok": True}
    if req_id is not None:
        d["id"] = req_id
    if fields:
        for k in fields:
            d[k] = fields[k]
    return d


def error_reply(name, req_id, code, msg):
    """The dict of a failed reply (name None for line-level errors)."""
    d = {"re": name, "ok": False, "error": code, "msg": msg}
    if req_id is not None:
        d["id"] = req_id
    return d


def encode(obj):
    """One board or host line: compact JSON of obj plus LF, as bytes."""
    return (json.dumps(obj) + "\n").encode()
