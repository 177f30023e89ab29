"""The host commands of the game logs (docs/protocol.md "Commands", docs/gamelog.md
"Transfer"): logs, log_get, log_ack and log_del.  Its one job is those commands over
the recorder's log store; each writes the events still waiting for a quiet moment
first, so the host reads every record there is.

Each is NAME(link, args) -> reply fields, `link` the boardcore.link.hostlink.HostLink
that took the line (boardcore.link.commands has the table); a store error
(boardcore.storage.gamelog.LogError) becomes its error code.
"""

from boardcore.link.protocol import (CmdError, E_NOT_SUPPORTED, E_BAD_ARGS, LOGS_PER_PAGE,
                                   b64encode, crc16, crc_hex)


def _log(link):
    rec = link.recorder
    if rec is None:
        raise CmdError(E_NOT_SUPPORTED, "this board keeps no game logs")
    rec.flush()   # the events still waiting for a quiet moment first
    return rec.log


def logs(link, a):
    """`logs`: one page of the stored game logs (after game `after`) and the space."""
    log = _log(link)
    out = []
    more = False
    after = a["after"]
    for gid, size, st, crc in log.list():
        if gid <= after:
            continue
        if len(out) == LOGS_PER_PAGE:
            more = True
            break
        out.append({"game": gid, "size": size, "state": st,
                    "crc": crc_hex(crc) if crc >= 0 else None})
    s = link.log_space()
    return {"logs": out, "more": more, "free": s["free"], "need": s["need"],
            "full": s["full"], "unpulled": s["unpulled"]}


def log_get(link, a):
    """`log_get`: up to `n` bytes of game `game`'s log from `offset`, base64, with
    their CRC-16; bad_args past the end."""
    log = _log(link)
    gid = a["game"]
    size, st, _crc = log.info(gid)
    off = a["offset"]
    if off > size:
        raise CmdError(E_BAD_ARGS, "offset: beyond the end (%d bytes)" % size)
    data = log.read(gid, off, a["n"])
    return {"game": gid, "offset": off, "size": size, "data": b64encode(data),
            "crc": crc_hex(crc16(data)), "eof": off + len(data) >= size}


def log_ack(link, a):
    """`log_ack`: mark game `game` pulled when its CRC and size match."""
    log = _log(link)
    st = log.mark_pulled(a["game"], int(a["crc"], 16), a["size"])
    link.recorder.after_pull()
    return {"game": a["game"], "state": st}


def log_del(link, a):
    """`log_del`: delete game `game`'s log (unpulled ones only with `force`)."""
    log = _log(link)
    log.delete(a["game"], a["force"])
    link.recorder.after_pull()
    return {"game": a["game"]}
