"""The host commands of the flight recorder and the sensor health (docs/protocol.md
"Commands", docs/traces.md "Flight recorder", docs/debounce.md "Sensor health"):
flight, flight_list, flight_save, health and self_test.  Its one job is those
commands over the link's flight recorder (boardcore.flight) and its snapshots and saved
copies (boardcore.flightsave).

Each is NAME(link, args) -> reply fields, `link` the boardcore.link.hostlink.HostLink
that took the line (boardcore.link.commands has the table).
"""

from boardcore import flightsave
from boardcore.flight import WHY_COMMAND
from boardcore.frame import names
from boardcore.link.argwords import TEST_STEPS, takes
from boardcore.link.protocol import (CmdError, E_NOT_SUPPORTED, E_NOT_FOUND, E_BAD_ARGS,
                                   E_STATE, b64encode, crc16, crc_hex)

HEALTH_PAGE = 10
"""Holes per `health` reply (a line is at most 512 bytes)."""


def _flight(link):
    fl = link.flight
    if fl is None:
        raise CmdError(E_NOT_SUPPORTED, "this board has no flight recorder")
    return fl


def _fs(link):
    rec = link.recorder
    if rec is None:
        raise CmdError(E_NOT_SUPPORTED, "this board keeps no game logs")
    return rec.log.fs


def save(link, why=0):
    """The flight recorder's ring to flash as the next saved copy (its `flight_saved`
    event queued); returns the copy's number."""
    n, why = flightsave.save(_flight(link), _fs(link), link.now, why)
    link.board.emit({"ev": "flight_saved", "copy": n, "why": why})
    return n


def flight(link, a):
    """`flight`: a chunk of the live ring's snapshot (copy -1; taken at offset 0) or of
    saved copy `copy`, base64 with its CRC-16, like log_get."""
    fl = _flight(link)
    off = a["offset"]
    copy = a["copy"]
    if copy < 0:
        if off == 0 or fl.snap is None:
            fl.snap = flightsave.snapshot(fl, link.now)
        data = fl.snap
    else:
        fs = _fs(link)
        name = flightsave.copy_name(copy)
        size = fs.size(name)
        if size < 0:
            raise CmdError(E_NOT_FOUND, "no saved flight copy %d" % copy)
        data = fs.read(name, 0, size)
    size = len(data)
    if off > size:
        raise CmdError(E_BAD_ARGS, "offset: beyond the end (%d bytes)" % size)
    chunk = data[off:off + a["n"]]
    eof = off + len(chunk) >= size
    if eof and copy < 0:
        fl.snap = None
    return {"copy": copy, "offset": off, "size": size, "data": b64encode(chunk),
            "crc": crc_hex(crc16(chunk)), "eof": eof}


def flight_list(link, a):
    """`flight_list`: the saved copies, oldest first: copy, size, why."""
    _flight(link)
    fs = _fs(link)
    out = []
    for n in flightsave.copies(fs):
        name = flightsave.copy_name(n)
        head = fs.read(name, 0, 4)
        out.append({"copy": n, "size": fs.size(name),
                    "why": head[3] if len(head) == 4 else 0})
    return {"copies": out}


def flight_save(link, a):
    """`flight_save`: the live ring to flash now; `copy` (its number)."""
    return {"copy": save(link, WHY_COMMAND)}


def _margins(hw):
    # The Hall build's margin of every position's last reading to the threshold it
    # would cross next (ADC counts; None on a reed-switch board).
    sc = getattr(hw, "scanner", None) if hw is not None else None
    level = getattr(sc, "level", None)
    cal = getattr(sc, "cal", None)
    if level is None or cal is None:
        return None
    fr = getattr(sc, "_frame", None)
    out = [None] * 64
    for p in range(64):
        if not sc.wired[p]:
            continue
        d = level[p] - cal.center[p]
        sg = cal.sign[p]
        if sg == 2 or (sg == 0 and d < 0):
            d = -d
        on = fr is not None and (fr[p >> 3] >> (p & 7)) & 1
        out[p] = d - cal.off_d[p] if on else cal.on_d[p] - d
    return out


def health(link, a):
    """`health`: one page of the holes with a count or a margin (after hole index
    `after`): `holes` [[name, bounces, strays, repair_ms, margin]], `more`, `uptime_ms`,
    `settle` [lift, place] (ms)."""
    fl = _flight(link)
    hw = link.hooks.hw if link.hooks is not None else None
    marg = _margins(hw)
    out = []
    more = False
    now = link.now
    place_name = link.board.place_name
    for p in range(a["after"] + 1, 64):
        b, s = fl.counts(p)
        r = fl.repair_now(p, now)
        m = marg[p] if marg is not None else None
        if not (b or s or r or m is not None):
            continue
        if len(out) == HEALTH_PAGE:
            more = True
            break
        out.append([place_name(p), b, s, r, m])
    cfg = fl.config
    return {"holes": out, "more": more, "uptime_ms": link.uptime_ms(),
            "settle": [cfg.settle_lift_ms, cfg.settle_place_ms]}


def _bad(key, v):
    # The text of a bad or missing argument of self_test.
    if v is None:
        return "%s is required with step hole: %s" % (key, takes("self_test", key))
    return "%s must be %s, not \"%s\"" % (key, takes("self_test", key), v[:16])


def self_test(link, a):
    """`self_test`: step "hole" (with `pos`) lights that hole alone and watches it;
    "result" says what it saw so far (`pos`, `on`, `off`: its changes, `other`: the
    other positions that changed); "stop" ends the test."""
    fl = _flight(link)
    board = link.board
    step = a["step"]
    if step not in TEST_STEPS:
        raise CmdError(E_BAD_ARGS, _bad("step", step))
    if step == "hole":
        try:
            p = board.place_index(a["pos"] or "")
        except ValueError:
            raise CmdError(E_BAD_ARGS, _bad("pos", a["pos"]))
        fl.start_watch(p)
        board.set_overlay("hole", link.now, p)
    elif step == "stop":
        fl.stop_watch()
        board.clear_overlay("led_test")
        return {"step": step}
    w = fl.w
    if w is None:
        raise CmdError(E_STATE, "no hole lit: send step hole first")
    return {"step": step, "pos": board.place_name(w[0]), "on": w[1], "off": w[2],
            "other": names(fl.w_other, board.place_name)}
