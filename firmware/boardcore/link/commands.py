"""The host commands (docs/protocol.md "Commands"): the command table and the parser of
a host line.  Its one job is the board's side of a command line: the table (each
command's name, handler and arguments) that the parser, the dispatcher
(boardcore.link.hostlink), `hello`'s list and docs/protocol.md all follow, and turning a
line into (name, id, args) or the ProtocolError whose text says what is wrong.

Each handler is a function NAME(link, args) -> reply fields (dict): the board's own
in one of the boardcore.link.cmd_* modules, by subject: cmd_board (the board and its
drivers), cmd_logs (the game logs), cmd_flight (the flight recorder and the sensor
health); a game's commands (a handler of None in the table: status, position, roll,
...) are the game module's, given to the link as ((name, handler), ...)
(samsara.commands.HANDLERS for Samsara's; a game without them answers not_supported).  `link` is the boardcore.link.hostlink.HostLink that took the line; a handler
raises protocol.CmdError when the command fails.

Argument kinds: bool, dice ([d1, d2], 1..6), side ("A"/"B"), text (at most 80
characters), step (a calibration step), level (1..3, the board player's strength), ms (100..10000), game (0..2^30-1), after
(-1..2^30-1), offset (0..2^30-1), chunk (1..CHUNK), crc (4 hex digits).

Runs unchanged on MicroPython and CPython.
"""

import json

from boardcore.link import cmd_board, cmd_flight, cmd_logs
from boardcore.link.argwords import CAL_STEPS, takes
from boardcore.link.protocol import (ProtocolError, MAX_IN, MAX_SMALL, CHUNK, E_BINARY,
                                   E_TOO_LONG, E_TWO, E_NOT_OBJECT, E_NO_CMD, E_UNKNOWN,
                                   E_BAD_ARGS, E_BAD_ID, E_BAD_JSON, is_dice, is_id)

REQUIRED = "<required>"
"""The default of an argument that must be given (a constant string, so the argument
tables are constants: frozen into the image they live in flash)."""

COMMANDS = (
    # (name, handler, ((argument, kind, default), ...)), in documentation order
    ("hello", cmd_board.hello, ()),
    ("status", None, ()),
    ("position", None, ()),
    ("roll", None, ()),
    ("set_dice", None, (("dice", "dice", REQUIRED), ("joint", "bool", False))),
    ("new_game", None, (("match", "bool", False), ("starter", "side", "A"),
                       ("position", "text", None), ("vs_board", "side", None),
                       ("level", "level", 3),
                       ("far", "side", None), ("online", "text", None),
                       ("name_a", "text", None), ("name_b", "text", None))),
    ("undo", None, ()),
    ("hint", None, ()),
    ("far_turn", None, (("turn", "text", REQUIRED),)),
    ("led_test", cmd_board.led_test, (("ms", "ms", 2000),)),
    ("sensors", cmd_board.sensors, ()),
    ("calibrate", cmd_board.calibrate, (("step", "step", REQUIRED),)),
    ("logs", cmd_logs.logs, (("after", "after", -1),)),
    ("log_get", cmd_logs.log_get, (("game", "game", REQUIRED), ("offset", "offset", 0),
                                   ("n", "chunk", CHUNK))),
    ("log_ack", cmd_logs.log_ack, (("game", "game", REQUIRED), ("crc", "crc", REQUIRED),
                                   ("size", "offset", REQUIRED))),
    ("log_del", cmd_logs.log_del, (("game", "game", REQUIRED), ("force", "bool", False))),
    ("flight", cmd_flight.flight, (("copy", "after", -1), ("offset", "offset", 0),
                                   ("n", "chunk", CHUNK))),
    ("flight_list", cmd_flight.flight_list, ()),
    ("flight_save", cmd_flight.flight_save, ()),
    ("health", cmd_flight.health, (("after", "after", -1),)),
    ("self_test", cmd_flight.self_test, (("step", "text", REQUIRED), ("pos", "text", None))),
)
"""The command table: docs/protocol.md "Commands" lists the same commands in this order
(tests/test_command_table.py holds them equal)."""

COMMAND_NAMES = tuple(c[0] for c in COMMANDS)
"""Command names in documentation order (what `hello` lists)."""

FLIGHT_COMMANDS = ("flight", "flight_list", "flight_save", "health", "self_test")
"""The commands of the flight recorder and the sensor health (cmd_flight): a board
without a flight recorder answers them not_supported, and its `hello` leaves them out."""


def command(name):
    """(handler, arguments) of command `name` (COMMANDS), or None for an unknown name; the
    handler is None for a game's command (the game module's)."""
    for c in COMMANDS:
        if c[0] == name:
            return c[1], c[2]
    return None


def command_spec(name):
    """The arguments of command `name` as {argument: (kind, default)} (a default of
    REQUIRED: the key must be given), None for an unknown command."""
    c = command(name)
    if c is None:
        return None
    return dict((a, (k, d)) for a, k, d in c[1])


# ---- the errors of a line -----------------------------------------------------------

def error(what, name=None, rid=None, key=None, v=None):
    """The ProtocolError for `what` ("long", "ctrl" (v: the byte), "utf8", "json" (v:
    the text), "object", "nocmd", "unknown", "idbool", "id", "argkey", "required" (key),
    "arg" (key, v: (kind, value))) of command `name` with request id `rid`.  A bad or
    missing argument's text names it and the values it takes (argwords.takes)."""
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
        return ProtocolError(E_BAD_ID, "id must be an integer 0..1073741823"
                             " or a string of at most 16 characters", name)
    if what == "argkey":
        keys = ", ".join(sorted(command_spec(name) or ()))   # (a MicroPython dict has no order)
        return ProtocolError(E_BAD_ARGS, "unknown argument %s: %s takes %s" % (
            key[:16], name, keys or "no arguments"), name, rid)
    if what == "required":
        return ProtocolError(E_BAD_ARGS, "%s is required: %s" % (key, takes(name, key)),
                             name, rid)
    return ProtocolError(E_BAD_ARGS, "%s must be %s" % (key, takes(name, key)), name, rid)


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


# ---- the checks -------------------------------------------------------------------

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
            raise error("ctrl", v=c)
        i += 1
    try:
        return bytes(line[:n]).decode("utf-8")
    except Exception:
        raise error("utf8")


def is_clean_text(v):
    """True when str `v` (a text argument) encodes to valid UTF-8: no surrogate
    U+D800..U+DFFF in it.  A host line may spell a character as \\uXXXX escapes: CPython's
    json.loads joins a surrogate pair into one character but keeps a lone surrogate
    (which does not encode); MicroPython's writes each surrogate as the three bytes
    ED A0..BF xx, which no UTF-8 reader takes (a name so written would leave a game log
    whose header does not decode).  _check_arg refuses such text, so it is never
    written (docs/protocol.md "Commands")."""
    try:
        b = bytes(v, "utf-8")
    except Exception:
        return False
    i = b.find(b"\xed")
    while i >= 0:
        if i + 1 < len(b) and 0xA0 <= b[i + 1] <= 0xBF:
            return False
        i = b.find(b"\xed", i + 1)
    return True


def _check_id(obj, name):
    if "id" not in obj:
        return None
    rid = obj["id"]
    if isinstance(rid, bool):
        raise error("idbool", name)
    if is_id(rid):
        return rid
    raise error("id", name)


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _check_arg(name, key, kind, v, rid):
    # The argument's value (a crc in lower case), or a bad_args ProtocolError raised.
    if kind == "bool":
        ok = isinstance(v, bool)
    elif kind == "dice":
        ok = is_dice(v)
    elif kind == "side":
        ok = v == "A" or v == "B"
    elif kind == "text":
        ok = isinstance(v, str) and len(v) <= 80
        if ok and not is_clean_text(v):
            raise ProtocolError(E_BAD_ARGS, "%s must be UTF-8 text: it holds a \\u escape of "
                                "a surrogate (\\ud800-\\udfff); send the character itself "
                                "as UTF-8" % key, name, rid)
    elif kind == "step":
        ok = v in CAL_STEPS
    elif kind == "level":
        ok = _is_int(v) and 1 <= v <= 3
    elif kind == "ms":
        ok = _is_int(v) and 100 <= v <= 10000
    elif kind == "game":
        ok = _is_int(v) and 0 <= v < MAX_SMALL
    elif kind == "after":
        ok = _is_int(v) and -1 <= v < MAX_SMALL
    elif kind == "offset":
        ok = _is_int(v) and 0 <= v < MAX_SMALL
    elif kind == "chunk":
        ok = _is_int(v) and 1 <= v <= CHUNK
    elif kind == "crc":
        ok = isinstance(v, str) and len(v) == 4
        if ok:
            try:
                int(v, 16)
            except ValueError:
                ok = False
        if ok:
            return v.lower()
    else:
        ok = False  # pragma: no cover - table error
    if not ok:
        raise error("arg", name, rid, key, (kind, v))
    return v


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
        raise error("long")
    text = check_text(line, n, scanned)
    try:
        obj = json.loads(text)
    except Exception:
        raise error("json", v=text)
    if not isinstance(obj, dict):
        raise error("object")
    name = obj.get("cmd")
    if not isinstance(name, str):
        raise error("nocmd")
    cmd = command(name)
    if cmd is None:
        rid = _check_id(obj, name[:16])
        raise error("unknown", name[:16], rid)
    rid = _check_id(obj, name)
    spec = cmd[1]
    args = {}
    for key in obj:
        if key == "cmd" or key == "id":
            continue
        known = False
        for a in spec:
            if a[0] == key:
                known = True
                break
        if not known:
            raise error("argkey", name, rid, key)
    for key, kind, default in spec:
        if key in obj:
            args[key] = _check_arg(name, key, kind, obj[key], rid)
        elif default == REQUIRED:
            raise error("required", name, rid, key)
        else:
            args[key] = default
    return name, rid, args
