"""Pulling a game log from the board, chunk by chunk, surviving an unplugged cable
(docs/protocol.md "log_get", docs/host-tool.md "logs pull").

The bytes received so far live in `<dest>.part`; only chunks whose CRC-16 matched are
appended, in order, so the part file is always a prefix of the board's file.  A pull
that was cut (cable out, board reset, host killed) starts again at the part file's
length; a finished game's file never changes and a running game's only grows, so the
prefix stays valid.  At the end the whole file's CRC-16 is compared with the board's
listing and every record's own check is verified (boardcore.storage.logrecord) before the part
file becomes `<dest>`; the copy is read back and verified again before the board is
told `log_ack` (after which it may rotate the game out).

A pulled file is never replaced by a different game (two boards with the same id, a
board whose logs were wiped): `place` keeps the file there and writes the new game
beside it as `game-NNNN-2.log` (-3, ...); only an earlier copy of the same game (a
prefix of it, from while it was running) is replaced.
"""
import os
import time

from boardcore.link import protocol
from samsara_host import boardlink


class PullError(Exception):
    """A pull that cannot complete; str() says why and what to do."""


class BoardGone(PullError):
    """The board went away during a pull and did not come back in time: no other game
    can be pulled either."""


def local_name(board, game):
    """The file a pulled log is stored in, relative to the pull folder."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in str(board or "board"))
    return os.path.join(safe, "game-%04d.log" % game)


def candidates(dest, limit=100):
    """The names a game pulled to `dest` may have: dest, then dest with -2, -3, ...
    before its extension (`place`)."""
    stem, ext = os.path.splitext(dest)
    yield dest
    for k in range(2, limit):
        yield "%s-%d%s" % (stem, k, ext)


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def _ended(data):
    from boardcore.storage import logrecord
    _ok, _msg, rp = logrecord.verify(data)
    return bool(rp.ended)


def place(dest, data):
    """Where the pulled bytes `data` of a game go: (path, kept).  path is the first of
    `candidates(dest)` that is free, holds these very bytes, or holds an earlier copy
    of this game (a prefix of `data` without an end record); kept is dest when it
    holds a different game and stays as it is, else None.  Raises PullError when every
    name is taken."""
    for path in candidates(dest):
        old = _read(path)
        if old is None or old == data or (data.startswith(old) and not _ended(old)):
            return path, (dest if path != dest else None)
    raise PullError("%s and 98 names beside it hold other games: move them away and pull "
                    "again" % dest)


def find_copy(dest, size, crc):
    """The file among `candidates(dest)` that holds a game of `size` bytes and CRC-16
    `crc` (hex, as the board lists it), or None: the board's game is pulled there."""
    if not isinstance(size, int) or not crc:
        return None
    for path in candidates(dest):
        if not os.path.exists(path):
            return None
        try:
            if os.path.getsize(path) != size:
                continue
        except OSError:
            continue
        data = _read(path)
        if data is not None and protocol.crc_hex(protocol.crc16(data)) == crc:
            return path
    return None


def verify_log(data):
    """Check every record's own check sum (boardcore.storage.logrecord); returns the number of
    records.  Raises PullError for a damaged file."""
    from boardcore.storage import logrecord
    ok, msg, replay = logrecord.verify(data)
    if not ok:
        raise PullError("the pulled log does not verify: %s" % msg)
    return replay.records


def _append(path, data):
    with open(path, "ab") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def pull_log(client, game, dest, entry=None, progress=None, chunk=protocol.CHUNK,
             timeout=3.0, ack=True):
    """Pull game `game` into file `dest` through BoardClient `client`.

    entry: the game's dict from the `logs` listing (size, crc, state) or None to ask.
    progress: callable(done_bytes, size) or None.  ack: send `log_ack` for a finished
    game once the host's copy verified.  Returns {"path", "size", "crc", "records",
    "resumed_at", "discarded", "kept"}: path where the game is (`place`: dest, or a
    name beside it when dest holds a different game, then named by kept); discarded is
    the length of a damaged part file of an earlier pull that was thrown away (the
    whole log was then pulled again), else 0.
    Raises PullError; boardlink.Disconnected / NoReply pass through so the caller can
    reconnect and call again (the part file makes it resume).
    """
    if entry is None:
        listing = boardlink.list_logs(client, timeout)
        found = [e for e in listing.get("logs", []) if e.get("game") == game]
        if not found:
            raise PullError("the board has no log of game %d" % game)
        entry = found[0]
    part = dest + ".part"
    os.makedirs(os.path.dirname(os.path.abspath(dest)), exist_ok=True)
    discarded = 0
    while True:
        whole, resumed_at = _fetch(client, game, part, entry, progress, chunk, timeout)
        crc = protocol.crc_hex(protocol.crc16(whole))
        finished = entry.get("state") != "running"
        problem = None
        if finished and (entry.get("size") != len(whole) or entry.get("crc") != crc):
            problem = ("game %d: pulled %d bytes with CRC %s, the board lists %s bytes "
                       "with CRC %s; the partial copy was deleted, pull again"
                       % (game, len(whole), crc, entry.get("size"), entry.get("crc")))
        else:
            try:
                records = verify_log(whole)
            except PullError as e:
                problem = str(e)
        if problem is None:
            break
        os.remove(part)
        if resumed_at and not discarded:
            # The part file of an earlier pull was damaged (not a prefix of the
            # board's file): it is gone now; pull the whole log once more.
            discarded = resumed_at
            continue
        raise PullError(problem)
    path, kept = place(dest, whole)
    os.replace(part, path)
    _fsync_dir(path)
    # Only the copy on the host's disk counts: read it back before the board may let
    # the game go.
    back = _read(path)
    if back != whole:
        raise PullError("game %d: the copy written to %s reads back as %s bytes, not %d: "
                        "the board keeps the game; check the disk and pull again"
                        % (game, path, "no" if back is None else len(back), len(whole)))
    verify_log(back)
    if ack and finished:
        client.request("log_ack", timeout=timeout, game=game, crc=crc, size=len(whole))
    return {"path": path, "size": len(whole), "crc": crc, "records": records,
            "resumed_at": resumed_at, "discarded": discarded, "kept": kept}


def _fetch(client, game, part, entry, progress, chunk, timeout):
    # Append the board's chunks to `part` from its length on, to the end of the log;
    # returns (the part file's bytes, the offset the pull resumed at).
    offset = os.path.getsize(part) if os.path.exists(part) else 0
    expect_size = entry.get("size")
    if entry.get("state") != "running" and isinstance(expect_size, int) \
            and offset > expect_size:
        os.remove(part)  # not a prefix of this file (another board's game?): start over
        offset = 0
    resumed_at = offset
    bad = 0
    while True:
        try:
            r = client.request("log_get", timeout=timeout, game=game, offset=offset, n=chunk)
        except boardlink.BoardError as e:
            if e.code == "not_found":
                raise PullError("the board has no log of game %d" % game)
            if e.code == "bad_args" and offset:
                # The part file is longer than the board's log: it was not ours.
                os.remove(part)
                offset = resumed_at = 0
                continue
            raise PullError("log_get failed: %s" % e)
        try:
            data = protocol.b64decode(r.get("data", ""))
        except ValueError:
            data = None
        if (data is None or r.get("offset") != offset
                or protocol.crc_hex(protocol.crc16(data)) != r.get("crc")):
            bad += 1
            if bad > 5:
                raise PullError("chunk at byte %d keeps arriving damaged: check the cable"
                                % offset)
            continue
        bad = 0
        if data:
            _append(part, data)
            offset += len(data)
        size = r.get("size", offset)
        if progress:
            progress(offset, size)
        if r.get("eof"):
            break
        if not data:
            raise PullError("the board sent an empty chunk at byte %d before the end" % offset)
    with open(part, "rb") as f:
        return f.read(), resumed_at


def _fsync_dir(path):
    try:
        fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def pull_with_reconnect(state, game, dest, entry=None, progress=None, wait=30.0,
                        on_disconnect=None, sleep=time.sleep, clock=time.monotonic,
                        ack=True):
    """pull_log through boardlink.State `state`, reopening the port after the board
    went away (unplugged, virtual board restarted) for up to `wait` seconds each time.
    on_disconnect(error, offset): told about every disconnect.  Returns pull_log's
    dict (with "reconnects")."""
    reconnects = 0
    part = dest + ".part"
    while True:
        try:
            out = pull_log(state.client, game, dest, entry, progress, ack=ack)
            out["reconnects"] = reconnects
            return out
        except (boardlink.Disconnected, boardlink.NoReply) as e:
            state.close()
            have = os.path.getsize(part) if os.path.exists(part) else 0
            if on_disconnect:
                on_disconnect(e, have)
            reconnects += 1
            deadline = clock() + wait
            while True:
                try:
                    state.client.request("hello", timeout=1.5)
                    break
                except boardlink.LinkError:
                    state.close()
                    if clock() >= deadline:
                        raise BoardGone("the board did not come back within %.0f s; run "
                                        "the pull again to resume at byte %d" % (wait, have))
                    sleep(0.2)
