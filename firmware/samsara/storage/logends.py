"""The start and the end of a game's log file (docs/gamelog.md): reserving a new
game (rotating out pulled games), its number and header, and closing it with its end
record.  Its one job is those two moments; samsara.storage.gamelog's methods call into
it, so its code is on the Pico's heap only while a game starts or ends (the main loop
drops it again at its next quiet moment, mainloop.ON_DEMAND_MODULES).

Runs on MicroPython and CPython; integers stay below 2**30.
"""

from samsara.link.protocol import crc16
from samsara.storage.logwrite import (MAX_PAYLOAD, FMT, T_HEADER, T_END, encode_record,
                                      _dumps)
from samsara.storage.gamelog import (LogError, LogFull, _gname, _finished, _RUNNING)


def start_game(log, header=None, games=1):
    """GameLog.start_game of `log` (a samsara.storage.gamelog.GameLog): start the log of a new game: reserve its space (rotating out pulled games),
    take the next game number, write the header record.  header: a dict of facts
    about the game (start position, rule options, match...) of at most ~200 bytes
    as JSON.  games: how many games' reservations must fit now (2 for a match, so
    its second game always logs).  Returns the game number.  Raises LogFull, or
    LogError(state) while a game is running."""
    if log.run_gid is not None:
        raise LogError("state", "a game is running; end it first")
    if not rotate(log, games * log.need):
        raise LogFull(log.space())
    gid = log.next_id
    _write_counter(log, gid + 1)   # durable before the game exists: numbers never repeat
    log.next_id = gid + 1
    h = {"fmt": FMT, "game": gid}
    if header:
        for k in header:
            h[k] = header[k]
    payload = _dumps(h).encode()
    if len(payload) > MAX_PAYLOAD:
        payload = _dumps({"fmt": FMT, "game": gid, "cut": True}).encode()
    rec = encode_record(T_HEADER, payload)
    log.run_gid = gid
    log._size = 0
    log.games[gid] = _RUNNING
    log._crc = 0xFFFF
    log._win = 0
    log._windows = 1
    log.dropped = 0
    log._h = log.fs.open_append(_gname(gid, 0, ".run"))
    log._write(rec)
    log._win = 0
    return gid


def end_game(log, info=None):
    """GameLog.end_game of `log`: write the end record (info: a dict such as {"how": "end", "result": ...} or
    {"how": "abandoned"}) and close the game's file.  Returns the game number or
    None when no game was running."""
    gid = log.run_gid
    if gid is None:
        return None
    d = {"how": "end"}
    if info:
        for k in info:
            d[k] = info[k]
    p = _dumps(d).encode()
    if len(p) > MAX_PAYLOAD:
        p = _dumps({"how": str(d.get("how"))[:32], "cut": True}).encode()
    log._write(encode_record(T_END, p))
    log._h.close()
    log._h = None
    while log._crc is None:
        log.crc_step(4096)
    crc = log._crc
    log.fs.rename(_gname(gid, 0, ".run"), _gname(gid, crc, ".end"))
    log.games[gid] = _finished(log._size, crc, False)
    log.run_gid = None
    return gid


def rotate(log, need):
    """GameLog._rotate of `log`: delete pulled games, oldest first, until `need` bytes can be reserved.
    Returns True when there is room."""
    while log.room() < need:
        old = -1
        for gid in log.games:
            e = log.games[gid]
            if e != _RUNNING and e & 1 and (old < 0 or gid < old):
                old = gid
        if old < 0:
            return False
        e = log.games.pop(old)
        log.fs.remove(_gname(old, (e >> 1) & 0xFFFF, ".pul"))
    return True


def _write_counter(log, value):
    raw = b"%d" % value
    log.fs.write_file("id%d" % (value & 1), raw + b" %04x" % crc16(raw))
