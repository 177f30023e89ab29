"""Game logs on flash: the store of one append-only file per game, torn last records
dropped at boot, unique game numbers, reservation and rotation (docs/gamelog.md).  Its
one job is the files; the bytes of a record are samsara.storage.logrecord's
(its writing side samsara.storage.logwrite), what is logged
and when a game starts and ends is samsara.storage.recorder's.

The boot scan of the folder and the host's side of the store (list, info, read,
replay, mark_pulled, delete) are samsara.storage.logdisk's, a game's start (start_game,
the rotation) samsara.storage.logstart's, both loaded on demand:
the methods here call into them, so their code is on the Pico's heap only while it
runs.

Hardware-free: all file access goes through a file-system adapter
(samsara.storage.osfs: the Pico's flash, a folder, memory, or a power-cutting wrapper).
Runs on MicroPython and CPython; integers stay below 2**30.

File names: ``g<game>.run`` while the game runs, ``g<game>_<crc>.end`` once it ended,
``g<game>_<crc>.pul`` once a host pulled it (crc: CRC-16 of the whole file, 4 hex
digits); ``id0``/``id1`` hold the next game number; ``*.tmp`` are scratch files.
"""

from samsara.link.protocol import crc16
from samsara.storage.logwrite import (OVERHEAD, MAX_PAYLOAD, T_MAX, T_ROLL, T_TURN, T_END,
                                      event_record, encode_record, _dumps)

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


class GameLog:
    """The log store over a file-system adapter `fs` (samsara.storage.osfs).

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

    # -- boot (samsara.storage.logdisk, loaded on demand) -------------------------------

    def boot(self):
        """Scan the folder: remove scratch files, drop a torn tail of the running game,
        finish a close cut short, read the game counter.  Returns the Replay of the
        unfinished game (its .game is the game number) or None."""
        from samsara.storage.logdisk import boot
        return boot(self)

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
        Returns True when there is room.  (samsara.storage.logstart, loaded for it.)"""
        from samsara.storage.logstart import rotate
        return rotate(self, need)

    # -- a game ------------------------------------------------------------------------

    def start_game(self, header=None, games=1):
        """Start the log of a new game: reserve its space (rotating out pulled games),
        take the next game number, write the header record.  header: a dict of facts
        about the game (start position, rule options, match...) of at most ~200 bytes
        as JSON.  games: how many games' reservations must fit now (2 for a match, so
        its second game always logs).  Returns the game number.  Raises LogFull, or
        LogError(state) while a game is running.
        (samsara.storage.logstart, loaded for it: a game starts rarely.)"""
        from samsara.storage.logstart import start_game
        return start_game(self, header, games)

    def _write(self, rec):
        # (a game runs: _h is the handle logstart.start_game opened)
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
        None when no game was running.  (Here, not loaded on demand as the start is:
        on the Pico the module's import would pass 1.8-2.7 KB through the heap at the
        game's end, its lowest point; docs/performance.md "Seventh round".)"""
        gid = self.run_gid
        if gid is None:
            return None
        d = {"how": "end"}
        if info:
            for k in info:
                d[k] = info[k]
        p = _dumps(d).encode()
        if len(p) > MAX_PAYLOAD:
            p = _dumps({"how": str(d.get("how"))[:32], "cut": True}).encode()
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

    # -- for the host (samsara.storage.logdisk, loaded on demand) ----------------------

    def list(self):
        """[(game, size, state, crc)] oldest first; the crc of the running game is the
        CRC of what it holds so far, -1 while still being computed after a boot."""
        from samsara.storage.logdisk import listing
        return listing(self)

    def info(self, gid):
        """(size, state, crc) of a game's log.  Raises LogError(not_found)."""
        from samsara.storage.logdisk import info
        return info(self, gid)

    def read(self, gid, offset, n):
        """Up to n bytes of a game's log from offset.  Raises LogError(not_found)."""
        from samsara.storage.logdisk import read
        return read(self, gid, offset, n)

    def replay(self, gid):
        """The Replay of a game's whole log (None when it has none)."""
        from samsara.storage.logdisk import replay
        return replay(self, gid)

    def mark_pulled(self, gid, crc, size):
        """A host has the log of a finished game and checked it (crc: the CRC-16 it
        computed, size its length): the game may now be rotated out.  Raises
        LogError(not_found | state | bad_args)."""
        from samsara.storage.logdisk import mark_pulled
        return mark_pulled(self, gid, crc, size)

    def delete(self, gid, force=False):
        """Delete a game's log.  Raises LogError(busy) for the running game,
        LogError(state) for a log not yet pulled unless force."""
        from samsara.storage.logdisk import delete
        delete(self, gid, force)
