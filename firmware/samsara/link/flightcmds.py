"""The host commands of the flight recorder and the sensor health (docs/protocol.md):
flight, flight_list, flight_save, health, self_test, and saving the ring to flash.
Its one job is to keep this rarely used code off the Pico's heap while a game runs:
imported by samsara.link.hostcmds and by the main loop's quiet moment when a save is
due, dropped again at the next quiet moment (mainloop.ON_DEMAND_MODULES).

A snapshot (what `flight` serves and what a saved copy holds) is a 16-byte header and
the ring's entries oldest first (samsara.flight):

    0-1  b"FL"     2  version (1)     3  why (0 live, 1 long repair, 2 two rejected
    placements in a row, 3 flight_save)     4  opponent_goal code (samsara.rules.moves)
    5  dice source (0 electronic, 1 manual, 2 host)     6  scan_ms     7  settle_lift_ms
    8-9  settle_place_ms     10  return_ms     11-14  ms from the newest entry to the
    snapshot     15  0

Saved copies are files ``fl<n>.bin`` (n: 0001..9999) beside the game logs (the log
store ignores them); the newest KEEP are kept.
"""

from samsara.link import protocol as P
from samsara.link.hostlink import CmdError
from samsara.debounce import ticks_diff
from samsara.flighthealth import u16, counts, repair_now, start_watch, stop_watch

KEEP = 4
"""Saved copies kept on flash (the oldest goes first)."""
HEALTH_PAGE = 10
"""Holes per `health` reply (a line is at most 512 bytes)."""
WHY_COMMAND = 3     # samsara.flighthealth WHY_REPAIR 1, samsara.flight WHY_REJECTS 2
_DICE = {"electronic": 0, "manual": 1, "host": 2}
_MARK = 0xF0
_PAD = 0xFF


def _flight(link):
    core = link.core
    fl = getattr(core, "flight", None) if core is not None else None
    if fl is None:
        raise CmdError(P.E_NOT_SUPPORTED, "this board has no flight recorder")
    return fl


def snapshot(fl, now, why=0):
    """The snapshot of Flight `fl` at `now` (ms) as bytes (module docstring)."""
    cfg = fl.config
    m = fl.mem
    age = ticks_diff(now, m[8] | m[9] << 8 | m[10] << 16 | m[11] << 24)
    if age < 0:
        age = 0
    h = bytearray(16)
    h[0] = 0x46
    h[1] = 0x4C
    h[2] = 1
    h[3] = why
    h[4] = cfg.og
    h[5] = _DICE.get(cfg.dice, 0)
    h[6] = cfg.scan_ms
    h[7] = cfg.settle_lift_ms
    h[8] = cfg.settle_place_ms & 0xFF
    h[9] = cfg.settle_place_ms >> 8
    h[10] = cfg.return_ms
    for i in range(4):
        h[11 + i] = (age >> (8 * i)) & 0xFF
    return bytes(h) + entries(fl)


def entries(fl):
    """The entries of Flight `fl`'s ring oldest first as one bytes object (pads left
    out)."""
    m = fl.mem
    if m[4]:
        return b""
    head = u16(m, 0)
    tail = u16(m, 2)
    size = u16(m, 6)
    b = fl.buf
    if tail < head:
        return bytes(b[tail:head])
    i = tail
    while i < size and b[i] != _PAD:   # find the pad of the wrap
        i += 20 if b[i] == _MARK else 3
    return bytes(b[tail:i]) + bytes(b[0:head])


def _fs(svc):
    rec = svc.recorder
    if rec is None:
        raise CmdError(P.E_NOT_SUPPORTED, "this board keeps no game logs")
    return rec.log.fs


def _copies(fs):
    out = []
    for name in fs.listdir():
        if name[:2] == "fl" and name[-4:] == ".bin":
            try:
                out.append(int(name[2:-4]))
            except ValueError:
                pass
    out.sort()
    return out


def save(svc, now, why=0):
    """Write the ring of Services `svc` to flash as the next copy (why: the flight's
    due reason unless given); the oldest copies beyond KEEP go.  Returns the copy's
    number; clears the flight's `due`."""
    fl = svc.flight
    why = why or fl.due or WHY_COMMAND
    fl.due = 0
    fs = _fs(svc)
    have = _copies(fs)
    n = (have[-1] + 1) if have else 1
    if n > 9999:
        n = 1
    fs.write_file("fl%04d.bin" % n, snapshot(fl, now, why))
    have.append(n)
    while len(have) > KEEP:
        fs.remove("fl%04d.bin" % have.pop(0))
    svc.board.emit({"ev": "flight_saved", "copy": n, "why": why})
    return n


def flight(link, a):
    """`flight`: a chunk of the live ring's snapshot (copy -1; taken at offset 0) or of
    saved copy `copy`, base64 with its CRC-16, like log_get."""
    fl = _flight(link)
    off = a["offset"]
    copy = a["copy"]
    if copy < 0:
        if off == 0 or fl.snap is None:
            fl.snap = snapshot(fl, link.now)
        data = fl.snap
    else:
        fs = _fs(link.core)
        name = "fl%04d.bin" % copy
        size = fs.size(name)
        if size < 0:
            raise CmdError(P.E_NOT_FOUND, "no saved flight copy %d" % copy)
        data = fs.read(name, 0, size)
    size = len(data)
    if off > size:
        raise CmdError(P.E_BAD_ARGS, "offset: beyond the end (%d bytes)" % size)
    chunk = data[off:off + a["n"]]
    eof = off + len(chunk) >= size
    if eof and copy < 0:
        fl.snap = None
    return {"copy": copy, "offset": off, "size": size, "data": P.b64encode(chunk),
            "crc": P.crc_hex(P.crc16(chunk)), "eof": eof}


def flight_list(link, a):
    """`flight_list`: the saved copies, oldest first: copy, size, why."""
    _flight(link)
    fs = _fs(link.core)
    out = []
    for n in _copies(fs):
        name = "fl%04d.bin" % n
        head = fs.read(name, 0, 4)
        out.append({"copy": n, "size": fs.size(name),
                    "why": head[3] if len(head) == 4 else 0})
    return {"copies": out}


def flight_save(link, a):
    """`flight_save`: the live ring to flash now; `copy` (its number)."""
    _flight(link)
    return {"copy": save(link.core, link.now, WHY_COMMAND)}


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
    from samsara.rules.geometry import position_name
    fl = _flight(link)
    marg = _margins(link.core.hw)
    out = []
    more = False
    now = link.now
    for p in range(a["after"] + 1, 64):
        b, s = counts(fl, p)
        r = repair_now(fl, p, now)
        m = marg[p] if marg is not None else None
        if not (b or s or r or m is not None):
            continue
        if len(out) == HEALTH_PAGE:
            more = True
            break
        out.append([position_name(p), b, s, r, m])
    cfg = fl.config
    return {"holes": out, "more": more,
            "uptime_ms": link._diff(now, link.t0 if link.t0 is not None else now),
            "settle": [cfg.settle_lift_ms, cfg.settle_place_ms]}


def _bad(key, v):
    # The text of a bad or missing argument of self_test (samsara.link.cmderrors).
    from samsara.link.cmderrors import takes
    if v is None:
        return "%s is required with step hole: %s" % (key, takes("self_test", key))
    return "%s must be %s, not \"%s\"" % (key, takes("self_test", key), v[:16])


def self_test(link, a):
    """`self_test`: step "hole" (with `pos`) lights that hole alone and watches it;
    "result" says what it saw so far (`pos`, `on`, `off`: its changes, `other`: the
    other positions that changed); "stop" ends the test."""
    from samsara.rules.geometry import position_index, position_name
    from samsara.frame import names
    fl = _flight(link)
    board = link.core.board
    step = a["step"]
    if step == "hole":
        try:
            p = position_index(a["pos"] or "")
        except ValueError:
            raise CmdError(P.E_BAD_ARGS, _bad("pos", a["pos"]))
        start_watch(fl, p)
        board.set_overlay("hole", link.now, p)
    elif step == "stop":
        stop_watch(fl)
        board.clear_overlay("led_test")
        return {"step": step}
    elif step != "result":
        raise CmdError(P.E_BAD_ARGS, _bad("step", step))
    w = getattr(fl, "w", None)
    if w is None:
        raise CmdError(P.E_STATE, "no hole lit: send step hole first")
    return {"step": step, "pos": position_name(w[0]), "on": w[1], "off": w[2],
            "other": names(fl.w_other)}
