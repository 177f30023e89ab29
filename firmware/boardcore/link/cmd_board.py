"""The host commands of the board itself (docs/protocol.md "Commands"): hello,
led_test, sensors and calibrate.  Its one job is those commands; the drivers' side of
sensors and calibrate are the link's hooks (board.linkhooks: the core imports no
hardware module).

Each is NAME(link, args) -> reply fields, `link` the boardcore.link.hostlink.HostLink
that took the line (boardcore.link.commands has the table).
"""

from boardcore import version
from boardcore.frame import to_hex, names
from boardcore.link.protocol import CmdError, PROTO, E_NOT_SUPPORTED


def hello(link, a):
    """`hello`: protocol version, firmware version, hash and kind (image, bundle,
    source: docs/protocol.md "Versions"), board id, command names; on another game's
    board (samas, schaska) also "game", its name."""
    out = {"proto": PROTO, "fw": version.VERSION, "hash": version.HASH,
           "kind": version.KIND, "board": link.board_id, "name": "samsara",
           "cmds": link.command_names()}
    if link.game is not None:
        out["game"] = link.game
    return out


def _hook(link, name):
    fn = getattr(link.hooks, name, None) if link.hooks is not None else None
    if fn is None:
        raise CmdError(E_NOT_SUPPORTED, "this board has no %s" % name.replace("_", " "))
    return fn


def sensors(link, a):
    """`sensors`: the raw scan and the settled frame as hex, the occupied names
    (the link's hooks; not_supported without them)."""
    raw, settled = _hook(link, "sensors")()
    return {"raw": None if raw is None else to_hex(raw),
            "settled": None if settled is None else to_hex(settled),
            "on": names(settled, link.board.place_name) if settled is not None else []}


def calibrate(link, a):
    """`calibrate`: one step of the Hall calibration (the link's hooks)."""
    out = _hook(link, "calibrate")(a["step"])
    d = {"step": a["step"]}
    if out:
        for k in out:
            d[k] = out[k]
    return d


def led_test(link, a):
    """`led_test`: the LED test overlay for `ms` ms."""
    link.board.set_overlay("led_test", link.now, a["ms"])
    return {"ms": a["ms"]}
