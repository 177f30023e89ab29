"""The errors of host command lines (docs/protocol.md "Error codes"): the
ProtocolError, with its text, of a line samsara.link.commands cannot take.  Its one
job is those texts (a bad argument's text names the values it takes: takes(), which
samsara.link.flightcmds uses too); commands loads it only for a bad line and the board
drops it again at its next quiet moment (mainloop.ON_DEMAND_MODULES).

Runs unchanged on MicroPython and CPython.
"""

from samsara.link.protocol import (ProtocolError, MAX_IN, CHUNK, E_BINARY, E_TOO_LONG,
                                   E_TWO, E_NOT_OBJECT, E_NO_CMD, E_UNKNOWN, E_BAD_ARGS,
                                   E_BAD_ID, E_BAD_JSON)


def error(what, name=None, rid=None, key=None, v=None):
    """The ProtocolError for `what` (samsara.link.commands: "long", "ctrl" (v: the
    byte), "utf8", "json" (v: the text), "object", "nocmd", "unknown", "idbool", "id",
    "argkey", "required" (key), "arg" (key, v: (kind, value))) of command `name` with
    request id `rid`.  A bad or missing argument's text names it and the values it
    takes (takes())."""
    if what == "long":
        return ProtocolError(E_TOO_LONG, "line longer than %d bytes" % MAX_IN)
    if what == "ctrl":
        return ProtocolError(E_BINARY, "control byte 0x%02x in line" % v)
    if what == "utf8":
        return ProtocolError(E_BINARY, "line is not UTF-8 text")
    if what == "json":
        k = _ends(v)
        if k == _TWO:
            return ProtocolError(E_TWO, "one command per line")
        if k == _IN_STRING:
            return ProtocolError(E_BAD_JSON, "not valid JSON: the line ends inside a string")
        if k:
            return ProtocolError(E_BAD_JSON, "not valid JSON: the line ends with %d bracket%s "
                                 "still open" % (k, "" if k == 1 else "s"))
        return ProtocolError(E_BAD_JSON, "not valid JSON (a command is one JSON object, "
                             "e.g. {\"cmd\": \"status\"})")
    if what == "object":
        return ProtocolError(E_NOT_OBJECT, "a command is a JSON object")
    if what == "nocmd":
        return ProtocolError(E_NO_CMD, "missing \"cmd\"")
    if what == "unknown":
        return ProtocolError(E_UNKNOWN, "unknown command", name, rid)
    if what == "idbool":
        return ProtocolError(E_BAD_ID, "id must be an integer or a short string", name)
    if what == "id":
        return ProtocolError(E_BAD_ID, "id must be an integer 0.." + _BIG +
                             " or a string of at most 16 characters", name)
    if what == "argkey":
        from samsara.link.commands import command_spec
        keys = ", ".join(sorted(command_spec(name) or ()))   # (a MicroPython dict has no order)
        return ProtocolError(E_BAD_ARGS, "unknown argument %s: %s takes %s" % (
            key[:16], name, keys or "no arguments"), name, rid)
    if what == "required":
        return ProtocolError(E_BAD_ARGS, "%s is required: %s" % (key, takes(name, key)),
                             name, rid)
    return ProtocolError(E_BAD_ARGS, "%s must be %s" % (key, takes(name, key)), name, rid)


_BIG = "1073741823"     # 2^30 - 1: the largest game number, offset or integer id


def takes(name, key):
    """The values argument `key` of command `name` takes, as words (docs/protocol.md
    "Commands"): "a number of bytes 1..192"."""
    if key == "after":
        if name == "health":
            return "-1 (from the start) or a position index 0..63 (the last one listed)"
        return "-1 (from the start) or a game number 0.." + _BIG + " (the last one listed)"
    if key == "copy":
        return "-1 (the live ring) or a saved copy's number (flight_list)"
    if key == "game":
        return "a game number 0.." + _BIG + " (logs lists them)"
    if key == "offset":
        return "a byte offset 0.." + _BIG
    if key == "size":
        return "the log's size in bytes 0.." + _BIG
    if key == "n":
        return "a number of bytes 1..%d" % CHUNK
    if key == "crc":
        return "the log's CRC-16 as 4 hex digits (e.g. \"29b1\")"
    if key == "dice":
        return "a list of two dice [d1, d2], each 1..6"
    if key == "starter":
        return "\"A\" or \"B\" (the player who starts)"
    if key == "vs_board":
        return "\"A\" or \"B\" (the side the board plays)"
    if key == "position":
        return "a position string (docs/rules.md section 5) of at most 80 characters"
    if key == "ms":
        return "a number of milliseconds 100..10000"
    if key == "pos":
        return "a hole's name: R1..R24, S1..S24, A0..A5, AC, B0..B5, BC, GR or GS"
    if key == "step":
        if name == "self_test":
            return "\"hole\" (with pos), \"result\" or \"stop\""
        from samsara.link.commands import _CAL_STEPS
        return ", ".join(['"%s"' % s for s in _CAL_STEPS[:-1]]) + ' or "%s"' % _CAL_STEPS[-1]
    if key == "match" or key == "force":
        return "true or false"
    return "a value of docs/protocol.md \"Commands\""  # pragma: no cover - table error


_TWO = -2
_IN_STRING = -1


def _ends(text):
    """How a line that json.loads refused is wrong, from the text alone (MicroPython's
    json says only "syntax error", CPython's more; both parse any nesting a MAX_IN-byte
    line holds): _TWO when it starts with a complete object followed by another object
    (``{...}{...}``, ``{...} {...}``, ``{...};{...}``: two_commands), _IN_STRING when it
    ends inside a string, else the number of brackets left open at its end (0: some
    other mistake)."""
    t = text.strip()
    obj = t.startswith("{")
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
            if depth <= 0:
                rest = t[i + 1:].strip()
                while rest and rest[0] in ",;":
                    rest = rest[1:].strip()
                return _TWO if obj and depth == 0 and rest.startswith("{") else 0
        i += 1
    return _IN_STRING if in_str else depth
