"""Checking host command lines (docs/protocol.md "Commands"): the command table and
parse_command.  Its one job is turning a host line into (name, id, args) or a
ProtocolError.  The board loads it on demand (samsara.link.protocol.parse_command) and
drops it at its next quiet moment (mainloop.ON_DEMAND_MODULES), so its code is on the
heap only while a host line is being taken (docs/performance.md "Fifth round").

Runs unchanged on MicroPython and CPython.
"""

import json

from samsara.link.protocol import (ProtocolError, MAX_IN, CHUNK, E_BINARY, E_TOO_LONG,
                                   E_TWO, E_NOT_OBJECT, E_NO_CMD, E_UNKNOWN, E_BAD_ARGS,
                                   E_BAD_ID, E_BAD_JSON)

try:
    from micropython import const
except ImportError:  # CPython
    def const(__x):
        return __x

_MAX_ID_STR = const(16)
"""Longest string request id."""
_MAX_SMALL = 1 << 30

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
"""The command table: name -> {argument: (kind, default)} (docs/protocol.md "Commands");
the same names as samsara.link.protocol.COMMAND_NAMES."""


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


