"""The start of a game's log file (docs/gamelog.md): reserving a new game (rotating
out pulled games), its number and its header record.  Its one job is that moment;
samsara.storage.gamelog's methods call into it, so its code is on the Pico's heap only
while a game starts (the main loop drops it again at its next quiet moment,
mainloop.ON_DEMAND_MODULES).  The end of a game is gamelog's own (GameLog.end_game).

Runs on MicroPython and CPython; integers stay below 2**30.
"""

from samsara.link.protocol import crc16
from samsara.storage.logwrite import MAX_PAYLOAD, FMT, T_HEADER, encode_record, _dumps
from samsara.storage.gamelog import LogError, LogFull, _gname, _RUNNING


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
