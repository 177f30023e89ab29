"""The errors of host command lines (docs/protocol.md "Error codes"): the
ProtocolError, with its text, of a line samsara.link.commands cannot take.  Its one
job is those texts; commands loads it only for a bad line and the board drops it
again at its next quiet moment (mainloop.ON_DEMAND_MODULES).

Runs unchanged on MicroPython and CPython.
"""

from samsara.link.protocol import (ProtocolError, MAX_IN, CHUNK, E_BINARY, E_TOO_LONG,
                                   E_TWO, E_NOT_OBJECT, E_NO_CMD, E_UNKNOWN, E_BAD_ARGS,
                                   E_BAD_ID, E_BAD_JSON)


def error(what, name=None, rid=None, key=None, v=None):
    """The ProtocolError for `what` (samsara.link.commands: "long", "ctrl" (v: the
    byte), "utf8", "json" (v: the text), "object", "nocmd", "unknown", "idbool", "id",
    "argkey", "required" (key), "arg" (key, v: (kind, value))) of command `name` with
    request id `rid`."""
    if what == "long":
        return ProtocolError(E_TOO_LONG, "line longer than %d bytes" % MAX_IN)
    if what == "ctrl":
        return ProtocolError(E_BINARY, "control byte 0x%02x in line" % v)
    if what == "utf8":
        return ProtocolError(E_BINARY, "line is not UTF-8 text")
    if what == "json":
        if _two_objects(v):
            return ProtocolError(E_TWO, "one command per line")
        return ProtocolError(E_BAD_JSON, "syntax error in JSON")
    if what == "object":
        return ProtocolError(E_NOT_OBJECT, "a command is a JSON object")
    if what == "nocmd":
        return ProtocolError(E_NO_CMD, "missing \"cmd\"")
    if what == "unknown":
        return ProtocolError(E_UNKNOWN, "unknown command", name, rid)
    if what == "idbool":
        return ProtocolError(E_BAD_ID, "id must be an integer or a short string", name)
    if what == "id":
        return ProtocolError(E_BAD_ID, "id must be an integer 0..2^30 or a string of at most 16 characters", name)
    if what == "argkey":
        return ProtocolError(E_BAD_ARGS, "unknown argument %s" % key[:16], name, rid)
    if what == "required":
        return ProtocolError(E_BAD_ARGS, "%s is required" % key, name, rid)
    return ProtocolError(E_BAD_ARGS, "%s: %s" % (key, _what(v[0], v[1])), name, rid)


def _what(kind, v):
    # What a bad argument of `kind` must be.
    if kind == "bool":
        return "must be true or false"
    if kind == "dice":
        if not isinstance(v, list) or len(v) != 2:
            return "must be a list of two dice"
        return "each die must be 1..6"
    if kind == "side":
        return "must be \"A\" or \"B\""
    if kind == "text":
        return "must be a string of at most 80 characters"
    if kind == "step":
        from samsara.link.commands import _CAL_STEPS
        return "must be one of " + ", ".join(_CAL_STEPS)
    if kind == "ms":
        return "must be an integer 100..10000"
    if kind == "game":
        return "must be a game number"
    if kind == "after":
        return "must be a game number or -1"
    if kind == "offset":
        return "must be an integer >= 0"
    if kind == "chunk":
        return "must be an integer 1..%d" % CHUNK
    if kind == "crc":
        return "must be 4 hex digits"
    return "unknown kind"  # pragma: no cover - table error


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


