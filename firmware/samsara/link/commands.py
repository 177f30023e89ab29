"""Taking a host command line (docs/protocol.md "Commands"): the command table
(command_spec), parse_command, and the commands roll and undo (status, position and
set_dice, the lines of every roll and of a game's start and end, are
samsara.link.hostlink's, which takes them without loading this module: HostLink._quick).  Its one job is the board's side of a command line: turning it into
(name, id, args) (a line it cannot take raises a ProtocolError, whose texts
samsara.link.cmderrors makes, loaded only for a bad line) and those commands.  The
board loads this module on demand (samsara.link.protocol.parse_command) and drops it
at its next quiet moment (mainloop.ON_DEMAND_MODULES), so its code is on the heap only
while a host line is being taken: one import per line, as each import leaves about
1.5 KB of garbage on the Pico (docs/performance.md "Fifth round").

Each command is a function NAME(link, args) -> reply fields (dict), with `link` the
samsara.link.hostlink.HostLink that received it (only its attributes are used);
errors raise protocol.CmdError.  The rarer commands are samsara.link.hostcmds.

Runs unchanged on MicroPython and CPython.
"""

import json

from samsara.link.protocol import MAX_IN, CHUNK, CmdError, E_STATE, MAX_SMALL, is_dice, is_id


# Argument kinds: (kind, default).  A default of REQUIRED means the key must be given.
REQUIRED = object()
_CAL_STEPS = ("start", "empty", "occupied", "save", "cancel")


def command_spec(name):
    """The arguments of command `name` as {argument: (kind, default)} (a default of
    REQUIRED: the key must be given), None for an unknown command (docs/protocol.md
    "Commands"; the names are protocol.COMMAND_NAMES).  Made per call, not kept as a
    table: the table's objects took 1.3 KB of the Pico's heap."""
    if name in ("hello", "status", "position", "roll", "undo", "hint", "sensors",
                "flight_list", "flight_save"):
        return {}
    if name == "set_dice":
        return {"dice": ("dice", REQUIRED)}
    if name == "new_game":
        return {"match": ("bool", False), "starter": ("side", "A"), "position": ("text", None),
                "vs_board": ("side", None)}
    if name == "led_test":
        return {"ms": ("ms", 2000)}
    if name == "calibrate":
        return {"step": ("step", REQUIRED)}
    if name == "logs":
        return {"after": ("after", -1)}
    if name == "log_get":
        return {"game": ("game", REQUIRED), "offset": ("offset", 0), "n": ("chunk", CHUNK)}
    if name == "log_ack":
        return {"game": ("game", REQUIRED), "crc": ("crc", REQUIRED),
                "size": ("offset", REQUIRED)}
    if name == "log_del":
        return {"game": ("game", REQUIRED), "force": ("bool", False)}
    if name == "flight":
        return {"copy": ("after", -1), "offset": ("offset", 0), "n": ("chunk", CHUNK)}
    if name == "health":
        return {"after": ("after", -1)}
    if name == "self_test":
        return {"step": ("text", REQUIRED), "pos": ("text", None)}
    return None


def _error(what, name=None, rid=None, key=None, v=None):
    # The ProtocolError of a line the board cannot take (samsara.link.cmderrors).
    from samsara.link.cmderrors import error
    return error(what, name, rid, key, v)


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
            raise _error("ctrl", v=c)
        i += 1
    try:
        return bytes(line[:n]).decode("utf-8")
    except Exception:
        raise _error("utf8")


def _check_id(obj, name):
    if "id" not in obj:
        return None
    rid = obj["id"]
    if isinstance(rid, bool):
        raise _error("idbool", name)
    if is_id(rid):
        return rid
    raise _error("id", name)


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
    elif kind == "step":
        ok = v in _CAL_STEPS
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
        raise _error("arg", name, rid, key, (kind, v))
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
        raise _error("long")
    text = check_text(line, n, scanned)
    try:
        obj = json.loads(text)
    except Exception:
        raise _error("json", v=text)
    if not isinstance(obj, dict):
        raise _error("object")
    name = obj.get("cmd")
    if not isinstance(name, str):
        raise _error("nocmd")
    spec = command_spec(name)
    if spec is None:
        rid = _check_id(obj, name[:16])
        raise _error("unknown", name[:16], rid)
    rid = _check_id(obj, name)
    args = {}
    for key in obj:
        if key == "cmd" or key == "id":
            continue
        if key not in spec:
            raise _error("argkey", name, rid, key)
    for key in spec:
        kind, default = spec[key]
        if key in obj:
            args[key] = _check_arg(name, key, kind, obj[key], rid)
        elif default is REQUIRED:
            raise _error("required", name, rid, key)
        else:
            args[key] = default
    return name, rid, args


# ---- the commands of a game ---------------------------------------------------------

def _press(link, what):
    # The core presses and dispatches the events through every sink, this link's
    # on_event included, which keeps the first `what` event (or reject) for the reply.
    core = link._core()
    link._want = what
    link._got = None
    link._why = None
    try:
        core.press(link.now, what)
    finally:
        link._want = None
    got = link._got
    link._got = None
    if got is None:
        raise CmdError(E_STATE, link._why or ("%s not possible now" % what))
    return got


def roll(link, a):
    """`roll`: the roll button from the host; its dice (CmdError(state) when not possible)."""
    ev = _press(link, "roll")
    return {"dice": ev.get("dice")}


def undo(link, a):
    """`undo`: the undo button from the host; the undone sub-move when there was one."""
    ev = _press(link, "undo")
    out = {}
    if "move" in ev:
        out["move"] = ev["move"]
    return out
