"""The host link's rarely used commands (docs/protocol.md): hello, new_game, led_test,
sensors, calibrate, hint and the log transfer (logs, log_get, log_ack, log_del).  Its one job is to keep their
code off the Pico's heap while a game runs: samsara.link.hostlink imports this module
on the first such command and the main loop drops it again at the next quiet moment
(mainloop.ON_DEMAND_MODULES, docs/performance.md).

Each command is a function NAME(link, args) -> reply fields (dict), with `link` the
samsara.link.hostlink.HostLink that received it; errors raise hostlink.CmdError or
gamelog.LogError like the link's own commands.
"""

from samsara.link import protocol as P
from samsara.link.hostlink import CmdError
from samsara.storage import gamelog
from samsara import version
from samsara.frame import to_hex, names


def hello(link, a):
    """`hello`: protocol version, firmware version, hash and kind (image, bundle,
    source: docs/protocol.md "Versions"), board id, command names."""
    return {"proto": P.PROTO, "fw": version.VERSION, "hash": version.HASH,
            "kind": version.KIND, "board": link.board_id, "name": "samsara", "cmds": list(P.COMMAND_NAMES)}


def _hook(link, name):
    fn = getattr(link.hooks, name, None) if link.hooks is not None else None
    if fn is None:
        raise CmdError(P.E_NOT_SUPPORTED, "this board has no %s" % name.replace("_", " "))
    return fn


def sensors(link, a):
    """`sensors`: the raw scan and the settled frame as hex, the occupied names
    (the link's hooks; not_supported without them)."""
    raw, settled = _hook(link, "sensors")()
    return {"raw": None if raw is None else to_hex(raw),
            "settled": None if settled is None else to_hex(settled),
            "on": names(settled) if settled is not None else []}


def calibrate(link, a):
    """`calibrate`: one step of the Hall calibration (the link's hooks)."""
    out = _hook(link, "calibrate")(a["step"])
    d = {"step": a["step"]}
    if out:
        for k in out:
            d[k] = out[k]
    return d


def _need_log(link):
    if link.recorder is None:
        raise CmdError(P.E_NOT_SUPPORTED, "this board keeps no game logs")
    link.recorder.flush()   # the events still waiting for a quiet moment first
    return link.recorder.log


def logs(link, a):
    """`logs`: one page of the stored game logs (after game `after`) and the space."""
    log = _need_log(link)
    out = []
    more = False
    after = a["after"]
    for gid, size, st, crc in log.list():
        if gid <= after:
            continue
        if len(out) == P.LOGS_PER_PAGE:
            more = True
            break
        out.append({"game": gid, "size": size, "state": st,
                    "crc": P.crc_hex(crc) if crc >= 0 else None})
    s = link._log_space()
    return {"logs": out, "more": more, "free": s["free"], "need": s["need"],
            "full": s["full"], "unpulled": s["unpulled"]}


def log_get(link, a):
    """`log_get`: up to `n` bytes of game `game`'s log from `offset`, base64, with
    their CRC-16; bad_args past the end."""
    log = _need_log(link)
    gid = a["game"]
    size, st, _crc = log.info(gid)
    off = a["offset"]
    if off > size:
        raise CmdError(P.E_BAD_ARGS, "offset: beyond the end (%d bytes)" % size)
    data = log.read(gid, off, a["n"])
    return {"game": gid, "offset": off, "size": size, "data": P.b64encode(data),
            "crc": P.crc_hex(P.crc16(data)), "eof": off + len(data) >= size}


def log_ack(link, a):
    """`log_ack`: mark game `game` pulled when its CRC and size match."""
    log = _need_log(link)
    st = log.mark_pulled(a["game"], int(a["crc"], 16), a["size"])
    link.recorder.after_pull()
    return {"game": a["game"], "state": st}


def log_del(link, a):
    """`log_del`: delete game `game`'s log (unpulled ones only with `force`)."""
    log = _need_log(link)
    log.delete(a["game"], a["force"])
    link.recorder.after_pull()
    return {"game": a["game"]}


def hint(link, a):
    """`hint`: ask for the engine's turn for the player's roll (samsara.vsplay.hint).
    It thinks in slices: the reply says it was asked, the `hint` event follows once
    the turn is chosen; `state` with the `reject` reason when no hint is possible."""
    link._want = "reject"
    link._got = None
    try:
        link._core().press(link.now, "hint")
    finally:
        link._want = None
    got = link._got
    link._got = None
    if got is not None:
        raise CmdError(P.E_STATE, got.get("reason") or "no hint now")
    return {}


def new_game(link, a):
    """`new_game`: a new game (its log reserved); its game number (CmdError(log_full)
    when the log holds only unpulled games)."""
    try:
        vs = a["vs_board"]
        gid = link._core().new_game(a["position"], a["match"],
                                    0 if a["starter"] == "A" else 1,
                                    None if vs is None else "AB".index(vs))
    except gamelog.LogFull:
        raise CmdError(P.E_LOG_FULL, "flash holds only unpulled games: pull them first")
    return {"game": gid}


def led_test(link, a):
    """`led_test`: the LED test overlay for `ms` ms."""
    link._core().led_test(link.now, a["ms"])
    return {"ms": a["ms"]}

