"""Game logs on flash: the store of one append-only file per game, torn last records
dropped at boot, unique game numbers, reservation and rotation (docs/gamelog.md).  Its
one job is the files: the boot scan of the folder, a game's start, records appended,
its end, and the host's side of the store (list, info, read, replay, mark_pulled,
delete).  The bytes of a record are boardcore.storage.logrecord's (its writing side
boardcore.storage.logwrite), what is logged and when a game starts and ends is
samsara.recorder's.

Hardware-free: all file access goes through a file-system adapter
(boardcore.storage.osfs: the Pico's flash, a folder, memory, or a power-cutting wrapper).
Runs on MicroPython and CPython; integers stay below 2**30.

File names: ``g<game>.run`` while the game runs, ``g<game>_<crc>.end`` once it ended,
``g<game>_<crc>.pul`` once a host pulled it (crc: CRC-16 of the whole file, 4 hex
digits); ``id0``/``id1`` hold the next game number; ``*.tmp`` are scratch files.
"""

from boardcore.link.protocol import crc16
from boardcore.storage.logwrite import (OVERHEAD, MAX_PAYLOAD, T_MAX, FMT, T_HEADER, T_ROLL,
                                      T_TURN, T_END, event_record, encode_record, dumps)
from boardcore.storage.logrecord import record_at, Replay

try:
    from micropython import const
except ImportError:  # CPython
    def const(__x):
        return __x

_TURN_BUDGET = const(448)
"""Bytes all records between two rolls may take (docs/gamelog.md "Reservation")."""
MAX_TURNS = 400
"""Turns a game's reservation covers (random play: median 68, longest of 400 games 152)."""
_CAPACITY = const(768 * 1024)
"""Default bytes of flash the logs may use on the Pico."""
_CRC_STEP = const(16)
"""Bytes of the running file's CRC computed per loop iteration after a boot."""
TAIL_CHECK = 1024
"""The boot scan checks record CRCs in this many bytes at the end of a running game."""

_T_RESERVE = OVERHEAD + T_MAX
_HDR_RESERVE = OVERHEAD + MAX_PAYLOAD
_END_RESERVE = OVERHEAD + MAX_PAYLOAD


def reserve_bytes(max_turns=MAX_TURNS, turn_budget=_TURN_BUDGET, block=4096):
    """Worst-case flash a game's log takes, in bytes, rounded up to whole blocks plus
    one block of slack: header + (max_turns + 1) windows of turn_budget + end record
    (docs/gamelog.md "Reservation")."""
    n = _HDR_RESERVE + (max_turns + 1) * turn_budget + _END_RESERVE
    return ((n + block - 1) // block + 1) * block


class LogFull(Exception):
    """A new game cannot start: the flash holds only games no host has pulled.
    `space` is the dict of GameLog.space()."""

    def __init__(self, space):
        super().__init__("log full: pull the game logs first")
        self.space = space


class LogError(Exception):
    """A log operation failed: `code` is a protocol error code (not_found, busy,
    state, bad_args, internal)."""

    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code
        self.msg = msg


# ---- the store ----------------------------------------------------------------------

def _gname(gid, crc, ext):
    if ext == ".run":
        return "g%06d.run" % gid
    return "g%06d_%04x%s" % (gid, crc, ext)


_RUNNING = -1
"""GameLog.games value of the running game (its size is GameLog._size)."""


def _finished(size, crc, pulled):
    # GameLog.games value of a finished game: one int, size << 17 | crc << 1 | pulled.
    # On the Pico it stays a small int (no heap object) for logs below 8 KB (a typical
    # game takes 5-6 KB); a [state, size, crc] list took 32 bytes more per stored game
    # (about 4.5 KB with a full log of short games; docs/performance.md "Firmware").
    return (size << 17) | (crc << 1) | (1 if pulled else 0)


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


class GameLog:
    """The log store over a file-system adapter `fs` (boardcore.storage.osfs).

    capacity: bytes of flash the logs may use (counted in fs.block units);
    max_turns, turn_budget: the reservation (reserve_bytes).  Call boot() once before
    anything else; it returns the unfinished game to resume, if any.
    """

    def __init__(self, fs, capacity=_CAPACITY, max_turns=MAX_TURNS, turn_budget=_TURN_BUDGET):
        self.fs = fs
        self.block = fs.block
        self.capacity = capacity
        self.max_turns = max_turns
        self.turn_budget = turn_budget
        self.need = reserve_bytes(max_turns, turn_budget, fs.block)
        self.games = {}      # gid -> _RUNNING or _finished(size, crc, pulled)
        self.next_id = 1
        self.run_gid = None
        self._h = None
        self._size = 0
        self._crc = 0xFFFF   # CRC of the running game's file, None while unknown
        self._crc_part = 0xFFFF
        self._crc_off = 0
        self._win = 0        # bytes written in the current window (since the last roll)
        self._windows = 0    # windows so far (1 + rolls)
        self.dropped = 0     # records not written (budget) in the running game
        self.torn = 0        # bytes of torn records dropped at the last boot
        self.lazy = False    # records are written without a sync; sync() makes them durable

    # -- boot -------------------------------------------------------------------------

    def boot(self):
        """Scan the folder: remove scratch files, drop a torn tail of the running game,
        finish a close cut short, read the game counter.  Returns the Replay of the
        unfinished game (its .game is the game number) or None."""
        fs = self.fs
        self.games = {}
        self.run_gid = None
        self.torn = 0
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
                self.games[gid] = _finished(fs.size(name), crc, state == "pulled")
        self.next_id = max(self._read_counter(), top + 1, 1)
        runs.sort()
        resume = None
        for gid in runs:
            rp = self._scan_running(gid)
            if rp is None:
                continue
            if resume is not None:  # an older unfinished game (should not happen): close it
                self._close_stale(resume)
            resume = rp
        if resume is not None:
            self._open_running(resume)
        return resume

    def _read_counter(self):
        best = 0
        for slot in ("id0", "id1"):
            try:
                if self.fs.size(slot) <= 0:
                    continue
                raw = self.fs.read(slot, 0, 32)
                parts = raw.split(b" ")
                if len(parts) != 2 or crc16(parts[0]) != int(parts[1], 16):
                    continue
                v = int(parts[0])
                if v > best:
                    best = v
            except (ValueError, OSError):
                continue
        return best

    def _scan_running(self, gid):
        """Parse g<gid>.run in pieces; drop a torn tail; returns a Replay with extra
        members game, size, win, windows, dropped, or None when nothing valid is left.

        Only a write cut short can damage the file, and only at its end (every
        earlier write was synced), so record CRCs are checked in the last TAIL_CHECK
        bytes; before that the walk checks sync byte, length and type.  This keeps the
        boot of a long game short on the Pico (docs/gamelog.md "Boot scan")."""
        fs = self.fs
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
        self.torn += size - off
        if rp.records == 0:
            fs.remove(name)
            return None
        if off < size:
            self._truncate(name, off)
        rp.game = gid
        rp.size = off
        rp.win = win
        rp.windows = windows
        rp.dropped = size - off
        if rp.ended:
            # The end record was written but the rename was cut short: finish it.
            crc = self._file_crc(name, off)
            fs.rename(name, _gname(gid, crc, ".end"))
            self.games[gid] = _finished(off, crc, False)
            return None
        return rp

    def _file_crc(self, name, n, crc=0xFFFF, off=0):
        while off < n:
            chunk = self.fs.read(name, off, min(512, n - off))
            if not chunk:
                break
            crc = crc16(chunk, crc)
            off += len(chunk)
        return crc

    def _truncate(self, name, n):
        """Keep the first n bytes of a file: copy them to a scratch file, then rename it
        over the original (atomic), so a cut leaves either the old or the new file."""
        fs = self.fs
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

    def _close_stale(self, rp):
        self._open_running(rp)
        self.end_game({"how": "abandoned"})

    def _open_running(self, rp):
        self.run_gid = rp.game
        self._size = rp.size
        self._crc = None          # computed in the background: crc_step()
        self._crc_part = 0xFFFF
        self._crc_off = 0
        self._win = rp.win
        self._windows = rp.windows
        self.dropped = 0
        self._h = self.fs.open_append(_gname(rp.game, 0, ".run"))
        self.games[rp.game] = _RUNNING

    def crc_step(self, nbytes=_CRC_STEP):
        """Advance the CRC of the running game's file (unknown after a boot resumed it)
        by up to nbytes; the link calls this every loop iteration so that the whole
        file's CRC is known again a few seconds after boot without a long stall.
        Returns True while work is left."""
        if self._crc is not None or self.run_gid is None:
            return False
        name = _gname(self.run_gid, 0, ".run")
        n = self._size - self._crc_off
        if n > nbytes:
            n = nbytes
        if n > 0:
            chunk = self.fs.read(name, self._crc_off, n)
            self._crc_part = crc16(chunk, self._crc_part)
            self._crc_off += len(chunk)
        if self._crc_off >= self._size:
            self._crc = self._crc_part
            return False
        return True

    # -- space -------------------------------------------------------------------------

    def _blocks(self, n):
        b = self.block
        return ((n + b - 1) // b or 1) * b

    def used(self):
        """Bytes the logs take, in whole blocks, the running game counted at its full
        reservation (plus the two counter files)."""
        t = 2 * self.block
        for gid in self.games:
            e = self.games[gid]
            if e == _RUNNING:
                t += max(self._blocks(self._size), self.need)
            else:
                t += self._blocks(e >> 17)
        return t

    def room(self):
        """Bytes a new game could still reserve: the capacity left, and no more than
        the device's real free space allows."""
        r = self.capacity - self.used()
        f = self.fs.free()
        if self.run_gid is not None:
            # The running game's reservation not yet written is still free on the device.
            f -= self.need - self._blocks(self._size)
        return r if r < f else f

    def space(self):
        """{"free", "need", "full", "unpulled", "pulled"}: full is True when even after
        rotating out every pulled game a new game could not reserve its space."""
        pulled = 0
        rot = 0
        unpulled = 0
        for gid in self.games:
            e = self.games[gid]
            if e == _RUNNING:
                continue
            if e & 1:
                pulled += 1
                rot += self._blocks(e >> 17)
            else:
                unpulled += 1
        free = self.room()
        return {"free": free if free > 0 else 0, "need": self.need,
                "full": free + rot < self.need, "unpulled": unpulled, "pulled": pulled}

    def _rotate(self, need):
        """Delete pulled games, oldest first, until `need` bytes can be reserved.
        Returns True when there is room."""
        while self.room() < need:
            old = -1
            for gid in self.games:
                e = self.games[gid]
                if e != _RUNNING and e & 1 and (old < 0 or gid < old):
                    old = gid
            if old < 0:
                return False
            e = self.games.pop(old)
            self.fs.remove(_gname(old, (e >> 1) & 0xFFFF, ".pul"))
        return True

    # -- a game ------------------------------------------------------------------------

    def start_game(self, header=None, games=1):
        """Start the log of a new game: reserve its space (rotating out pulled games),
        take the next game number, write the header record.  header: a dict of facts
        about the game (start position, rule options, match...) of at most ~200 bytes
        as JSON.  games: how many games' reservations must fit now (2 for a match, so
        its second game always logs).  Returns the game number.  Raises LogFull, or
        LogError(state) while a game is running."""
        if self.run_gid is not None:
            raise LogError("state", "a game is running; end it first")
        if not self._rotate(games * self.need):
            raise LogFull(self.space())
        gid = self.next_id
        self._write_counter(gid + 1)   # durable before the game exists: numbers never repeat
        self.next_id = gid + 1
        h = {"fmt": FMT, "game": gid}
        if header:
            for k in header:
                h[k] = header[k]
        payload = dumps(h).encode()
        if len(payload) > MAX_PAYLOAD:
            payload = dumps({"fmt": FMT, "game": gid, "cut": True}).encode()
        rec = encode_record(T_HEADER, payload)
        self.run_gid = gid
        self._size = 0
        self.games[gid] = _RUNNING
        self._crc = 0xFFFF
        self._win = 0
        self._windows = 1
        self.dropped = 0
        self._h = self.fs.open_append(_gname(gid, 0, ".run"))
        self._write(rec)
        self._win = 0
        return gid

    def _write_counter(self, value):
        raw = b"%d" % value
        self.fs.write_file("id%d" % (value & 1), raw + b" %04x" % crc16(raw))

    def _write(self, rec):
        # (a game runs: _h is the handle start_game opened)
        n = len(rec)
        self._h.write(rec)   # pyright: ignore[reportAttributeAccessIssue]
        if not self.lazy:
            self._h.sync()   # pyright: ignore[reportAttributeAccessIssue]
        if self._crc is not None:
            self._crc = crc16(rec, self._crc)
        self._size += n
        self._win += n

    def _fits_total(self, n):
        """May the running game grow by n bytes beyond its reservation?"""
        if self._size + n + _END_RESERVE <= self.need - self.block:
            return True
        extra = self._blocks(self._size + n + _END_RESERVE) - self.need
        return extra <= 0 or self._rotate(extra)

    def log_event(self, ev):
        """Append the record of a controller event to the running game's log.  Returns
        True when written, False when not (not a logged event, no game running, or the
        turn's budget spent: see docs/gamelog.md).  Raises OSError only when the
        medium fails."""
        if self.run_gid is None:
            return False
        rec = event_record(ev)
        if rec is None:
            return False
        n = len(rec)
        t = rec[2]
        if t == T_ROLL:
            self._windows += 1
            self._win = 0
            ok = self._windows <= self.max_turns + 1 or self._fits_total(n)
        elif t == T_TURN:
            ok = self._win + n <= self.turn_budget
            if not ok:
                ok = self._fits_total(n)
        else:
            ok = self._win + n + _T_RESERVE <= self.turn_budget
        if ok and self._windows > self.max_turns + 1:
            ok = self._fits_total(n)
        if not ok:
            self.dropped += 1
            return False
        self._write(rec)
        return True

    def end_game(self, info=None):
        """Write the end record (info: a dict such as {"how": "end", "result": ...} or
        {"how": "abandoned"}) and close the game's file.  Returns the game number or
        None when no game was running."""
        gid = self.run_gid
        if gid is None:
            return None
        d = {"how": "end"}
        if info:
            for k in info:
                d[k] = info[k]
        p = dumps(d).encode()
        if len(p) > MAX_PAYLOAD:
            p = dumps({"how": str(d.get("how"))[:32], "cut": True}).encode()
        self._write(encode_record(T_END, p))
        self._h.close()   # pyright: ignore[reportAttributeAccessIssue]
        self._h = None
        while self._crc is None:
            self.crc_step(4096)
        crc = self._crc
        self.fs.rename(_gname(gid, 0, ".run"), _gname(gid, crc, ".end"))
        self.games[gid] = _finished(self._size, crc, False)
        self.run_gid = None
        return gid

    def sync(self):
        """Make the running game's records durable (after writes with `lazy` set)."""
        if self._h is not None:
            self._h.sync()

    def close(self):
        """Close the running game's file handle (the game stays unfinished)."""
        if self._h is not None:
            self._h.close()
            self._h = None

    # -- for the host ------------------------------------------------------------------

    def list(self):
        """[(game, size, state, crc)] oldest first; the crc of the running game is the
        CRC of what it holds so far, -1 while still being computed after a boot."""
        out = []
        for gid in sorted(self.games):
            size, st, crc = self._entry(gid)
            out.append((gid, size, st, crc))
        return out

    def _entry(self, gid):
        # (size, state, crc) of a game in games; the running game's crc is what
        # its file holds so far, -1 while unknown
        e = self.games[gid]
        if e == _RUNNING:
            return self._size, "running", -1 if self._crc is None else self._crc
        return e >> 17, "pulled" if e & 1 else "done", (e >> 1) & 0xFFFF

    def _name(self, gid):
        e = self.games.get(gid)
        if e is None:
            raise LogError("not_found", "no log of game %d" % gid)
        if e == _RUNNING:
            return _gname(gid, 0, ".run")
        return _gname(gid, (e >> 1) & 0xFFFF, ".pul" if e & 1 else ".end")

    def info(self, gid):
        """(size, state, crc) of a game's log.  Raises LogError(not_found)."""
        self._name(gid)
        return self._entry(gid)

    def read(self, gid, offset, n):
        """Up to n bytes of a game's log from offset.  Raises LogError(not_found)."""
        name = self._name(gid)
        size = self._entry(gid)[0]
        if offset >= size:
            return b""
        if offset + n > size:
            n = size - offset
        return self.fs.read(name, offset, n)

    def replay(self, gid):
        """The Replay of a game's whole log (None when it has none)."""
        try:
            name = self._name(gid)
        except LogError:
            return None
        size = self._entry(gid)[0]
        rp = Replay()
        off = 0
        while off < size:
            buf = self.fs.read(name, off, 1024)
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

    def mark_pulled(self, gid, crc, size):
        """A host has the log of a finished game and checked it (crc: the CRC-16 it
        computed, size its length): the game may now be rotated out.  Raises
        LogError(not_found | state | bad_args)."""
        name = self._name(gid)
        fsize, st, fcrc = self._entry(gid)
        if st == "running":
            raise LogError("state", "game %d is still running" % gid)
        if crc != fcrc or size != fsize:
            raise LogError("bad_args", "crc or size differ from the board's log: pull again")
        if st == "done":
            self.fs.rename(name, _gname(gid, fcrc, ".pul"))
            self.games[gid] = _finished(fsize, fcrc, True)
        return "pulled"

    def delete(self, gid, force=False):
        """Delete a game's log.  Raises LogError(busy) for the running game,
        LogError(state) for a log not yet pulled unless force."""
        name = self._name(gid)
        st = self._entry(gid)[1]
        if st == "running":
            raise LogError("busy", "game %d is being played" % gid)
        if st == "done" and not force:
            raise LogError("state", "game %d was not pulled yet (force to delete)" % gid)
        self.fs.remove(name)
        del self.games[gid]
