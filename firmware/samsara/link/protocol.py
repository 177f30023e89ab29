"""The USB line protocol shared by the board and the host (docs/protocol.md).

One JSON object per line, LF-terminated, UTF-8.  Host lines are commands
``{"cmd": NAME, "id": ID, ...args}``; board lines are replies ``{"re": NAME, "ok": ...}``
or events ``{"ev": NAME, ...}``.  Input is parsed with ``json.loads`` only: nothing
received is ever evaluated as code.

Runs unchanged on MicroPython (rp2, Unix, WebAssembly) and CPython.  Integers stay
below 2**16 (CRC-16), so nothing here allocates a big integer on the Pico.

The command table COMMANDS (what the host may send) and, of the event table (what the
board streams, samsara_host.hostproto.event_table), what the board needs: NOT_LOGGED
and END_EVENTS.  Board side: ``parse_command(line)`` -> ``(name, req_id, args)`` or
raises ProtocolError(code, msg, name); ``reply``, ``error_reply``, ``encode``.  Both
sides: ``crc16``, ``b64encode``/``b64decode``.  The host-only half (encoding commands,
decoding board lines, the event table) is samsara_host.hostproto: the board never
loads it (docs/performance.md).
"""

import json
from array import array

try:
    import binascii
except ImportError:  # pragma: no cover - every supported port has binascii
    import ubinascii as binascii

try:
    from micropython import const
except ImportError:  # CPython
    def const(__x):
        return __x

PROTO = 1
"""Protocol version: bumped on any change an old peer would misread (docs/protocol.md)."""

MAX_IN = 256
"""Longest host line in bytes, LF excluded."""
MAX_OUT = 512
"""Longest board line in bytes, LF included."""
CHUNK = 192
"""Largest log chunk in bytes (256 characters of base64)."""
LOGS_PER_PAGE = 6
"""Entries of one `logs` reply (the next page: "after" the last game listed)."""
_MAX_ID_STR = const(16)
"""Longest string request id."""

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

# Argument kinds: (kind, default).  A default of REQUIRED means the key must be given.
REQUIRED = object()
_CAL_STEPS = ("start", "empty", "occupied", "save", "cancel")

COMMANDS = {
    "hello": {},
    "status": {},
    "position": {},
    "roll": {},
    "set_dice": {"dice": ("dice", REQUIRED)},
    "new_game": {"match": ("bool", False), "starter": ("side", "A"), "position": ("text", None),
                 "vs_board": ("side", None)},
    "undo": {},
    "hint": {},
    "led_test": {"ms": ("ms", 2000)},
    "sensors": {},
    "calibrate": {"step": ("step", REQUIRED)},
    "logs": {"after": ("after", -1)},
    "log_get": {"game": ("game", REQUIRED), "offset": ("offset", 0), "n": ("chunk", CHUNK)},
    "log_ack": {"game": ("game", REQUIRED), "crc": ("crc", REQUIRED), "size": ("offset", REQUIRED)},
    "log_del": {"game": ("game", REQUIRED), "force": ("bool", False)},
    "flight": {"copy": ("after", -1), "offset": ("offset", 0), "n": ("chunk", CHUNK)},
    "flight_list": {},
    "flight_save": {},
    "health": {"after": ("after", -1)},
    "self_test": {"step": ("text", REQUIRED), "pos": ("text", None)},
}
"""The command table: name -> {argument: (kind, default)} (docs/protocol.md "Commands")."""

COMMAND_NAMES = ("hello", "status", "position", "roll", "set_dice", "new_game", "undo",
                 "hint", "led_test", "sensors", "calibrate", "logs", "log_get", "log_ack", "log_del",
                 "flight", "flight_list", "flight_save", "health", "self_test")
"""Command names in documentation order (what `hello` lists)."""

NOT_LOGGED = ("lift", "place", "reject", "turn_complete", "boot", "resume", "log_full",
              "log_error", "error", "dropped", "flight_saved", "board_move")
"""Events that stream to the host but are not written to the log: not needed to
rebuild or read a game (turn_complete is followed by its turn record), and a fidgeting
player could make lift/place/reject unbounded.  An event not here is logged.  Follows
the event table (samsara_host.hostproto.event_table: the events without the L flag;
tests/test_event_path.py holds them equal)."""

END_EVENTS = ("game_over",)
"""Events that end a game (the recorder closes the game's log on them; the event
table's E flag)."""


_MAX_SMALL = 1 << 30


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


# ---- CRC-16/CCITT-FALSE with a 256-entry table of small ints -------------------------
# The table is an array of 16-bit values: 512 bytes of heap on the Pico, where a tuple
# of 256 ints takes 1 KB.

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


# ---- line checks ---------------------------------------------------------------------

def check_text(line, n=-1, scanned=False):
    """Raise ProtocolError(binary) unless line[:n] (bytes-like) is printable UTF-8 text:
    no control bytes other than TAB and CR, no DEL, valid UTF-8.  Returns the str.
    scanned: the caller already checked the control bytes (the board's reader does it
    while looking for the line end), only UTF-8 is left to check."""
    if n < 0:
        n = len(line)
    i = n if scanned else 0
    while i < n:
        c = line[i]
        if (c < 0x20 and c != 9 and c != 13) or c == 0x7F:
            raise ProtocolError(E_BINARY, "control byte 0x%02x in line" % c)
        i += 1
    try:
        return bytes(line[:n]).decode("utf-8")
    except Exception:
        raise ProtocolError(E_BINARY, "line is not UTF-8 text")


def _two_objects(text):
    """True when the text starts with a complete JSON object followed by another object
    (``{...}{...}``, ``{...} {...}``, ``{...};{...}``): used only to tell
    `two_commands` from `bad_json` after json.loads failed."""
    t = text.strip()
    if not t.startswith("{"):
        return False
    depth = 0
    in_str = False
    esc = False
    i = 0
    n = len(t)
    while i < n:
        ch = t[i]
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch == "{" or ch == "[":
            depth += 1
        elif ch == "}" or ch == "]":
            depth -= 1
            if depth == 0:
                rest = t[i + 1:].strip()
                while rest and rest[0] in ",;":
                    rest = rest[1:].strip()
                return rest.startswith("{")
        i += 1
    return False


def _check_id(obj, name):
    if "id" not in obj:
        return None
    rid = obj["id"]
    if isinstance(rid, bool):
        raise ProtocolError(E_BAD_ID, "id must be an integer or a short string", name)
    if isinstance(rid, int):
        if 0 <= rid < _MAX_SMALL:
            return rid
    elif isinstance(rid, str):
        if len(rid) <= _MAX_ID_STR:
            return rid
    raise ProtocolError(E_BAD_ID, "id must be an integer 0..2^30 or a string of at most 16 characters", name)


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _check_arg(name, key, kind, v, rid):
    def bad(what):
        return ProtocolError(E_BAD_ARGS, "%s: %s" % (key, what), name, rid)
    if kind == "bool":
        if not isinstance(v, bool):
            raise bad("must be true or false")
        return v
    if kind == "dice":
        if not isinstance(v, list) or len(v) != 2:
            raise bad("must be a list of two dice")
        for d in v:
            if not _is_int(d) or d < 1 or d > 6:
                raise bad("each die must be 1..6")
        return v
    if kind == "side":
        if v != "A" and v != "B":
            raise bad("must be \"A\" or \"B\"")
        return v
    if kind == "text":
        if not isinstance(v, str) or len(v) > 80:
            raise bad("must be a string of at most 80 characters")
        return v
    if kind == "step":
        if v not in _CAL_STEPS:
            raise bad("must be one of " + ", ".join(_CAL_STEPS))
        return v
    if kind == "ms":
        if not _is_int(v) or v < 100 or v > 10000:
            raise bad("must be an integer 100..10000")
        return v
    if kind == "game":
        if not _is_int(v) or v < 0 or v >= _MAX_SMALL:
            raise bad("must be a game number")
        return v
    if kind == "after":
        if not _is_int(v) or v < -1 or v >= _MAX_SMALL:
            raise bad("must be a game number or -1")
        return v
    if kind == "offset":
        if not _is_int(v) or v < 0 or v >= _MAX_SMALL:
            raise bad("must be an integer >= 0")
        return v
    if kind == "chunk":
        if not _is_int(v) or v < 1 or v > CHUNK:
            raise bad("must be an integer 1..%d" % CHUNK)
        return v
    if kind == "crc":
        if not isinstance(v, str) or len(v) != 4:
            raise bad("must be 4 hex digits")
        try:
            int(v, 16)
        except ValueError:
            raise bad("must be 4 hex digits")
        return v.lower()
    raise bad("unknown kind")  # pragma: no cover - table error


def parse_command(line, n=-1, scanned=False):
    """Parse one host line (bytes-like, without its LF; only line[:n] when n >= 0).

    scanned: control bytes were already ruled out by the caller (check_text).
    Returns (name, req_id, args): args a dict with every argument of the command,
    defaults filled in.  Raises ProtocolError with the error code of
    docs/protocol.md for binary garbage, bad JSON, two values on one line, a
    non-object, a missing or unknown command, a bad id or bad arguments.
    """
    if n < 0:
        n = len(line)
    if n > MAX_IN:
        raise ProtocolError(E_TOO_LONG, "line longer than %d bytes" % MAX_IN)
    text = check_text(line, n, scanned)
    try:
        obj = json.loads(text)
    except Exception:
        if _two_objects(text):
            raise ProtocolError(E_TWO, "one command per line")
        raise ProtocolError(E_BAD_JSON, "syntax error in JSON")
    if not isinstance(obj, dict):
        raise ProtocolError(E_NOT_OBJECT, "a command is a JSON object")
    name = obj.get("cmd")
    if not isinstance(name, str):
        raise ProtocolError(E_NO_CMD, "missing \"cmd\"")
    spec = COMMANDS.get(name)
    if spec is None:
        rid = _check_id(obj, name[:16])
        raise ProtocolError(E_UNKNOWN, "unknown command", name[:16], rid)
    rid = _check_id(obj, name)
    args = {}
    for key in obj:
        if key == "cmd" or key == "id":
            continue
        if key not in spec:
            raise ProtocolError(E_BAD_ARGS, "unknown argument %s" % key[:16], name, rid)
    for key in spec:
        kind, default = spec[key]
        if key in obj:
            args[key] = _check_arg(name, key, kind, obj[key], rid)
        elif default is REQUIRED:
            raise ProtocolError(E_BAD_ARGS, "%s is required" % key, name, rid)
        else:
            args[key] = default
    return name, rid, args


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
