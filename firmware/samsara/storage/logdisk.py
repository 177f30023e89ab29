"""The game log's rarely used file work, loaded on demand (mainloop.ON_DEMAND_MODULES)
so that its code is on the heap only while it runs: the boot scan of the log folder
(GameLog.boot) and the host's side of the store (GameLog.list, info, read, replay,
mark_pulled, delete; the recorder's late log of a game that ran unlogged, catch_up,
after a pull).  Its one job is that work; samsara.storage.gamelog keeps the
methods (thin calls into here) and the state, so callers see no difference.

Every function takes the GameLog `log` (catch_up: the Recorder `rec`) first.
"""

from samsara.link.protocol import crc16
from samsara.storage.logrecord import T_HEADER, T_ROLL, record_at, Replay
from samsara.storage.gamelog import (LogError, _gname, _finished, _RUNNING)
from samsara.rules.position import START_TEXT as START  # the header's default "start"

TAIL_CHECK = 1024
"""The boot scan checks record CRCs in this many bytes at the end of a running game."""


def _parse_name(name):
    """(gid, crc, state) of a game log file name, or None."""
    if len(name) < 6 or name[0] != "g":
        return None
    ext = name[-4:]
    body = name[1:-4]
    try:
        if ext == ".run":
            return (int(body), -1, "running")
        if ext == ".end" or ext == ".pul":
            g, c = body.split("_")
            return (int(g), int(c, 16), "done" if ext == ".end" else "pulled")
    except ValueError:
        return None
    return None


def boot(log):
    """Scan the folder: remove scratch files, drop a torn tail of the running game,
    finish a close cut short, read the game counter.  Returns the Replay of the
    unfinished game (its .game is the game number) or None."""
    fs = log.fs
    log.games = {}
    log.run_gid = None
    log.torn = 0
    runs = []
    top = 0
    for name in fs.listdir():
        if name.endswith(".tmp"):
            fs.remove(name)
            continue
        p = _parse_name(name)
        if p is None:
            continue
        gid, crc, state = p
        if not -1 <= crc <= 0xFFFF:
            continue  # not a name this log writes (its CRCs are 4 hex digits)
        if gid > top:
            top = gid
        if state == "running":
            runs.append(gid)
        else:
            log.games[gid] = _finished(fs.size(name), crc, state == "pulled")
    log.next_id = max(_read_counter(log), top + 1, 1)
    runs.sort()
    resume = None
    for gid in runs:
        rp = _scan_running(log, gid)
        if rp is None:
            continue
        if resume is not None:  # an older unfinished game (should not happen): close it
            _close_stale(log, resume)
        resume = rp
    if resume is not None:
        _open_running(log, resume)
    return resume


def _read_counter(log):
    best = 0
    for slot in ("id0", "id1"):
        try:
            if log.fs.size(slot) <= 0:
                continue
            raw = log.fs.read(slot, 0, 32)
            parts = raw.split(b" ")
            if len(parts) != 2 or crc16(parts[0]) != int(parts[1], 16):
                continue
            v = int(parts[0])
            if v > best:
                best = v
        except (ValueError, OSError):
            continue
    return best


def _scan_running(log, gid):
    """Parse g<gid>.run in pieces; drop a torn tail; returns a Replay with extra
    members game, size, win, windows, dropped, or None when nothing valid is left.

    Only a write cut short can damage the file, and only at its end (every
    earlier write was synced), so record CRCs are checked in the last TAIL_CHECK
    bytes; before that the walk checks sync byte, length and type.  This keeps the
    boot of a long game short on the Pico (docs/gamelog.md "Boot scan")."""
    fs = log.fs
    name = _gname(gid, 0, ".run")
    size = fs.size(name)
    tail = size - TAIL_CHECK
    rp = Replay()
    off = 0
    win = 0
    windows = 1
    buf = b""
    bstart = 0
    while off < size:
        i = off - bstart
        k = record_at(buf, i, len(buf), off >= tail)
        if k == 0:
            if bstart + len(buf) >= size:
                break  # the file ends inside this record: torn
            buf = fs.read(name, off, 1024)  # records are at most 255 bytes
            bstart = off
            if not buf:
                break
            continue
        if k < 0:
            break
        t = buf[i + 2]
        if rp.records == 0 and t != T_HEADER:
            break
        try:
            rp.feed(t, buf[i + 3:i + k - 2])
        except Exception:
            break  # a record with a valid check but a payload we cannot read
        if t == T_ROLL:
            win = 0
            windows += 1
        win += k
        if t == T_HEADER:
            win = 0
        off += k
    log.torn += size - off
    if rp.records == 0:
        fs.remove(name)
        return None
    if off < size:
        _truncate(log, name, off)
    rp.game = gid
    rp.size = off
    rp.win = win
    rp.windows = windows
    rp.dropped = size - off
    if rp.ended:
        # The end record was written but the rename was cut short: finish it.
        crc = _file_crc(log, name, off)
        fs.rename(name, _gname(gid, crc, ".end"))
        log.games[gid] = _finished(off, crc, False)
        return None
    return rp


def _file_crc(log, name, n, crc=0xFFFF, off=0):
    while off < n:
        chunk = log.fs.read(name, off, min(512, n - off))
        if not chunk:
            break
        crc = crc16(chunk, crc)
        off += len(chunk)
    return crc


def _truncate(log, name, n):
    """Keep the first n bytes of a file: copy them to a scratch file, then rename it
    over the original (atomic), so a cut leaves either the old or the new file."""
    fs = log.fs
    tmp = name[:-4] + ".tmp"
    fs.remove(tmp)
    h = fs.open_append(tmp)
    try:
        off = 0
        while off < n:
            chunk = fs.read(name, off, min(1024, n - off))
            if not chunk:
                break
            h.write(chunk)
            off += len(chunk)
        h.sync()
    finally:
        h.close()
    fs.rename(tmp, name)


def _close_stale(log, rp):
    _open_running(log, rp)
    log.end_game({"how": "abandoned"})


def _open_running(log, rp):
    log.run_gid = rp.game
    log._size = rp.size
    log._crc = None          # computed in the background: crc_step()
    log._crc_part = 0xFFFF
    log._crc_off = 0
    log._win = rp.win
    log._windows = rp.windows
    log.dropped = 0
    log._h = log.fs.open_append(_gname(rp.game, 0, ".run"))
    log.games[rp.game] = _RUNNING


def listing(log):
    """[(game, size, state, crc)] oldest first; the crc of the running game is the
    CRC of what it holds so far, -1 while still being computed after a boot."""
    out = []
    for gid in sorted(log.games):
        size, st, crc = _entry(log, gid)
        out.append((gid, size, st, crc))
    return out


def _entry(log, gid):
    # (size, state, crc) of a game in log.games; the running game's crc is what
    # its file holds so far, -1 while unknown
    e = log.games[gid]
    if e == _RUNNING:
        return log._size, "running", -1 if log._crc is None else log._crc
    return e >> 17, "pulled" if e & 1 else "done", (e >> 1) & 0xFFFF


def _name(log, gid):
    e = log.games.get(gid)
    if e is None:
        raise LogError("not_found", "no log of game %d" % gid)
    if e == _RUNNING:
        return _gname(gid, 0, ".run")
    return _gname(gid, (e >> 1) & 0xFFFF, ".pul" if e & 1 else ".end")


def info(log, gid):
    """(size, state, crc) of a game's log.  Raises LogError(not_found)."""
    _name(log, gid)
    return _entry(log, gid)


def read(log, gid, offset, n):
    """Up to n bytes of a game's log from offset.  Raises LogError(not_found)."""
    name = _name(log, gid)
    size = _entry(log, gid)[0]
    if offset >= size:
        return b""
    if offset + n > size:
        n = size - offset
    return log.fs.read(name, offset, n)


def replay(log, gid):
    """The Replay of a game's whole log (None when it has none)."""
    try:
        name = _name(log, gid)
    except LogError:
        return None
    size = _entry(log, gid)[0]
    rp = Replay()
    off = 0
    while off < size:
        buf = log.fs.read(name, off, 1024)
        i = 0
        while True:
            k = record_at(buf, i, len(buf))
            if k <= 0:
                break
            rp.feed(buf[i + 2], buf[i + 3:i + k - 2])
            i += k
        if i == 0:
            break
        off += i
    return rp


def mark_pulled(log, gid, crc, size):
    """A host has the log of a finished game and checked it (crc: the CRC-16 it
    computed, size its length): the game may now be rotated out.  Raises
    LogError(not_found | state | bad_args)."""
    name = _name(log, gid)
    fsize, st, fcrc = _entry(log, gid)
    if st == "running":
        raise LogError("state", "game %d is still running" % gid)
    if crc != fcrc or size != fsize:
        raise LogError("bad_args", "crc or size differ from the board's log: pull again")
    if st == "done":
        log.fs.rename(name, _gname(gid, fcrc, ".pul"))
        log.games[gid] = _finished(fsize, fcrc, True)
    return "pulled"


def delete(log, gid, force=False):
    """Delete a game's log.  Raises LogError(busy) for the running game,
    LogError(state) for a log not yet pulled unless force."""
    name = _name(log, gid)
    st = _entry(log, gid)[1]
    if st == "running":
        raise LogError("busy", "game %d is being played" % gid)
    if st == "done" and not force:
        raise LogError("state", "game %d was not pulled yet (force to delete)" % gid)
    log.fs.remove(name)
    del log.games[gid]


def catch_up(rec):
    """Recorder.after_pull's work for a game that runs unlogged (the log was full at
    its start): once there is room, its log is written from the board's memory."""
    # A game that started while the log was full runs unlogged; once a host has
    # pulled (and room is free again) its log is written from the board's memory:
    # a header with its start and one turn record per complete turn.
    log = rec.log
    if log.run_gid is not None:
        return
    so_far = rec.board.game_so_far()
    if so_far is None or log.space()["full"]:
        return
    turns, dice, subs, match_game = so_far
    h = rec.header(rec._start or START, match_game > 0, None, None, match_game or 1,
                   rec.last_gid, match_game > 0)
    h["late"] = len(turns)
    try:
        log.start_game(h)
        for t in turns:
            log.log_event({"ev": "turn", "turn": t})
        if dice is not None:
            log.log_event({"ev": "roll", "dice": dice})
            for m in subs:
                log.log_event({"ev": "sub", "move": m})
    except Exception as e:
        rec._emit({"ev": "log_error", "msg": str(e)[:80]})
        return
    rec.unlogged = False
    rec._clear_full()
