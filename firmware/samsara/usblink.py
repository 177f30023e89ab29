"""The board side of the USB link (docs/protocol.md) and the game log service
(docs/gamelog.md): one object main.py polls every loop iteration.

    link = UsbLink(stream, board, log, hooks, board_id="e6614103e7...", period_ms=5)
    link.boot(now_ms)        # once: log scan, resume the unfinished game or start one
    link.poll(now_ms)        # every iteration: events -> log + USB, then host input

`stream` is a small byte-stream adapter: StdioStream (USB serial on the Pico, stdin and
stdout of the `micropython` Unix port behind a pseudo-terminal) or a test double with
the same two members:

    read_into(buf, start, maxn) -> bytes read now (0 when none; never blocks)
    write(buf, start, n)        -> bytes taken now (0 when the port cannot take any)

Input is gathered into one preallocated buffer of protocol.MAX_IN bytes and parsed
only with json.loads.  Output goes through one preallocated ring of protocol.TX_RING
bytes, at most protocol.TX_PER_POLL bytes a poll, so a host that does not read never
blocks the scan loop.  A poll with nothing received and nothing to send allocates
nothing.  Byte 0x03 raises KeyboardInterrupt (the REPL hand-over; the stream stops
reading right after it so the bytes behind it reach the REPL); 0x01, 0x02 and 0x04 (REPL
controls) are dropped with the partial line before them.

hooks: an object with optional methods led_test(now_ms, ms), sensors() -> (raw
bytearray(8), settled bytearray(8)), calibrate(step) -> dict, hint(name) (an LED
scene hint such as "log_full"); a missing method answers not_supported.
"""

import sys

from samsara import protocol as P
from samsara import gamelog
from samsara import version

_MAX_EVENTS_PER_POLL = 16


class CmdError(Exception):
    """A command failed: code (protocol error code) and msg."""

    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code
        self.msg = msg


class StdioStream:
    """The port as MicroPython sees it: sys.stdin / sys.stdout (USB CDC on the Pico,
    the pseudo-terminal of the virtual board), polled with select.poll so that
    nothing blocks.  Also works on CPython (tests)."""

    def __init__(self, inp=None, out=None):
        import select
        inp = inp or sys.stdin
        out = out or sys.stdout
        self._in = getattr(inp, "buffer", inp)
        self._out = getattr(out, "buffer", out)
        self._pin = select.poll()
        self._pin.register(inp, select.POLLIN)
        self._pout = select.poll()
        self._pout.register(out, select.POLLOUT)
        self._IN = select.POLLIN
        self._OUT = select.POLLOUT
        self._one = bytearray(1)
        self._ipoll = hasattr(self._pin, "ipoll")

    def _ready(self, p, mask):
        if self._ipoll:
            for _o, ev in p.ipoll(0):  # allocation-free on MicroPython
                return ev & mask
            return 0
        for _o, ev in p.poll(0):
            return ev & mask
        return 0

    def read_into(self, buf, start, maxn):
        n = 0
        one = self._one
        while n < maxn and self._ready(self._pin, self._IN):
            k = self._in.readinto(one)  # pyright: ignore[reportAttributeAccessIssue]  (a byte stream: .buffer on CPython)
            if not k:
                break
            buf[start + n] = one[0]
            n += 1
            if one[0] == 0x03:
                # Stop right at a Ctrl-C: what follows (mpremote's Ctrl-A) is the REPL's.
                break
        return n

    def write(self, buf, start, n):
        if not self._ready(self._pout, self._OUT):
            return 0
        k = self._out.write(memoryview(buf)[start:start + n])  # pyright: ignore[reportCallIssue, reportArgumentType]
        if k is None:
            k = n
        if hasattr(self._out, "flush"):
            try:
                self._out.flush()
            except Exception:
                pass
        return k


def _frame_hex(fr):
    if fr is None:
        return None
    return "".join(["%02x" % b for b in fr])


def _frame_names(fr):
    from samsara.geometry import position_name
    out = []
    for p in range(64):
        if (fr[p >> 3] >> (p & 7)) & 1:
            out.append(position_name(p))
    return out


class UsbLink:
    """The board's USB service and game-log keeper (module docstring).

    board: samsara.board.Board (or anything with the same members); log:
    samsara.gamelog.GameLog or None (no logging); hooks: see module docstring.
    period_ms: the loop's scan period, for the `status` loop figures.
    Counters: rx_lines, rx_errors, tx_dropped (lines), overruns.
    """

    def __init__(self, stream, board, log=None, hooks=None, board_id="", period_ms=5,
                 ms_diff=None):
        self.stream = stream
        self.board = board
        self.log = log
        self.hooks = hooks
        self.board_id = board_id
        self.period_ms = period_ms
        self._diff = ms_diff or _ticks_diff
        self.rx = bytearray(P.MAX_IN + 1)
        self.rx_n = 0
        self.rx_skip = False      # inside an over-long line: drop until LF
        self.rx_scan = 0          # rx[:rx_scan] was scanned: no LF, no 0x01-0x04
        self.rx_bad = 0           # 0x100 | the first control byte of this line, or 0
        self.tx = bytearray(P.TX_RING)
        self.tx_head = 0
        self.tx_len = 0
        self.tx_dropped = 0
        self.rx_lines = 0
        self.rx_errors = 0
        self.now = 0
        self.t0 = None
        self.last = None
        self.max_gap = 0
        self.overruns = 0
        self.log_full_sent = False
        self.last_gid = None      # the last game whose log was closed
        self.unlogged = False     # a game runs that the full log could not take
        self._crc_err = False
        self._unlogged_start = None

    # -- output ------------------------------------------------------------------------

    def send(self, obj):
        """Queue one line (a dict) for the host.  Lines longer than MAX_OUT are replaced
        by a short one; when the ring is full the line is dropped and counted."""
        try:
            line = P.encode(obj)
        except Exception:
            line = P.encode({"ev": "error", "msg": "unencodable line"})
        if len(line) > P.MAX_OUT:
            if "ev" in obj:
                line = P.encode({"ev": str(obj.get("ev"))[:32], "cut": True})
            else:
                line = P.encode(P.error_reply(obj.get("re"), obj.get("id"), P.E_INTERNAL,
                                              "reply longer than %d bytes" % P.MAX_OUT))
        if self.tx_dropped and self._room() >= len(line) + 40:
            n = self.tx_dropped
            self.tx_dropped = 0
            self._put(P.encode({"ev": "dropped", "lines": n}))
        if self._room() < len(line):
            self.tx_dropped += 1
            return False
        self._put(line)
        return True

    def _room(self):
        return P.TX_RING - self.tx_len

    def _put(self, line):
        ring = self.tx
        size = P.TX_RING
        i = (self.tx_head + self.tx_len) % size
        n = len(line)
        first = size - i
        if first >= n:
            ring[i:i + n] = line
        else:
            ring[i:size] = line[:first]
            ring[0:n - first] = line[first:]
        self.tx_len += n

    def _flush(self):
        n = self.tx_len
        if not n:
            return
        if n > P.TX_PER_POLL:
            n = P.TX_PER_POLL
        end = P.TX_RING - self.tx_head
        if n > end:
            n = end
        k = self.stream.write(self.tx, self.tx_head, n)
        if k:
            self.tx_head = (self.tx_head + k) % P.TX_RING
            self.tx_len -= k

    def pending_output(self):
        """Bytes queued for the host."""
        return self.tx_len

    # -- boot --------------------------------------------------------------------------

    def boot(self, now_ms, new_game=True, frame=None):
        """Start of the loop: announce it, scan the log, resume the unfinished game (its
        events replayed into the board) or, with new_game, start a new one when there is
        room.  frame: the settled frame the scanner sees now (None: the logged
        position).  Returns the resumed game's number or None."""
        self.now = now_ms
        self.t0 = now_ms
        self.last = None
        self._drain_quiet()  # what the board said before the loop is no game to log
        self.send({"ev": "boot", "proto": P.PROTO, "fw": version.VERSION,
                   "hash": version.HASH, "board": self.board_id})
        rp = None
        if self.log is not None:
            try:
                rp = self.log.boot()
            except Exception as e:
                self.send({"ev": "log_error", "msg": "log scan failed: %s" % e})
        if rp is not None:
            try:
                prev = None
                h = rp.header or {}
                if h.get("match") and h.get("match_game") == 2 and h.get("prev") is not None:
                    prev = self.log.replay(h["prev"])
                # Imported only to resume; main.py drops it again after boot
                # (BOOT_ONLY_MODULES).
                from samsara.logresume import resume_board
                g = resume_board(self.board, rp, prev, now_ms, frame)
                self._drain_quiet()
                if g.over():
                    self.log.end_game({"how": "end", "resumed": True})
            except Exception as e:
                self._drain_quiet()
                self.send({"ev": "error", "msg": "resume failed: %s" % str(e)[:80]})
            self.send({"ev": "resume", "game": rp.game, "records": rp.records,
                       "turns": len(rp.turns), "dropped": rp.dropped})
            return rp.game
        if new_game:
            try:
                self.start_game()
            except CmdError:
                pass  # log_full was announced
        return None

    def _drain_quiet(self):
        b = self.board
        while b.poll_event() is not None:
            pass

    # -- games -------------------------------------------------------------------------

    def start_game(self, position=None, match=False, starter=0):
        """Start a new game on the board and its log.  An unfinished game's log is
        closed as abandoned first.  position: a position string or None (the start).
        Returns the game number (None without a log).  Raises CmdError(log_full) after
        announcing it (event and LED hint), CmdError(bad_args) for a bad position."""
        pos = None
        if position is not None:
            from samsara.position import Position, PositionError
            try:
                pos = Position.parse(position)
            except PositionError as e:
                raise CmdError(P.E_BAD_ARGS, "position: %s" % e)
        gid = None
        if self.log is not None:
            self._pump()  # events of the old game belong to its log
            if self.log.run_gid is not None:
                self.log.end_game({"how": "abandoned"})
            header = {"start": position or _START, "match": bool(match),
                      "starter": "AB"[starter], "og": self._og()}
            if match:
                header["match_game"] = 1
            try:
                # A match reserves both its games now, so its second game always logs.
                gid = self.log.start_game(header, 2 if match else 1)
            except gamelog.LogFull as e:
                self._announce_full(e.space)
                raise CmdError(P.E_LOG_FULL, "flash holds only unpulled games: pull them first")
            self._clear_full()
        self.board.new_game(position=pos, match=match, starter=starter)
        self._pump()
        return gid

    def _clear_full(self):
        if self.log_full_sent:
            self.log_full_sent = False
            fn = getattr(self.hooks, "clear_hint", None) if self.hooks is not None else None
            if fn is not None:
                fn()

    def _og(self):
        return getattr(getattr(self.board, "config", None), "opponent_goal", "owner_scores")

    def _announce_full(self, space):
        self.send({"ev": "log_full", "unpulled": space["unpulled"], "free": space["free"],
                   "need": space["need"]})
        hint = getattr(self.hooks, "hint", None) if self.hooks is not None else None
        if hint is None:
            hint = getattr(self.board, "hint", None)
        if hint is not None:
            try:
                hint("log_full")
            except Exception:
                pass
        self.log_full_sent = True

    def _log_event(self, ev):
        log = self.log
        if log is None:
            return
        name = ev.get("ev")
        try:
            if log.run_gid is None:
                if name not in _START_EVENTS:
                    return
                # A game the board started itself (the second game of a match).
                h = {"start": ev.get("position", _START), "match": bool(ev.get("match")),
                     "og": self._og()}
                if ev.get("match"):
                    h["match_game"] = ev.get("game", 1)
                    h["prev"] = self.last_gid
                try:
                    log.start_game(h)
                except gamelog.LogFull as e:
                    self.unlogged = True
                    self._unlogged_start = h["start"]
                    self._announce_full(e.space)
                    return
            log.log_event(ev)
            if name in gamelog.END_EVENTS:
                info = {"how": "end"}
                for k in ("winner", "how", "score", "points"):
                    if k in ev:
                        info[k if k != "how" else "end"] = ev[k]
                self.last_gid = log.end_game(info)
                s = log.space()
                if s["full"]:
                    self._announce_full(s)
        except Exception as e:
            self.send({"ev": "log_error", "msg": str(e)[:80]})

    def handle_event(self, ev):
        """One board event: into the game log, then to the host (main.py's
        handle_event seam calls this for every event)."""
        self._log_event(ev)
        self.send(ev)

    def _catch_up(self):
        """A game that started while the log was full runs unlogged; once a host has
        pulled (and room is free again) its log is written from the board's memory:
        a header with its start and one turn record per complete turn."""
        log = self.log
        c = getattr(self.board, "controller", None)
        if log is None or log.run_gid is not None or c is None or c.game is None:
            return
        if c.state in ("game_over", "moksha") or log.space()["full"]:
            return
        g = c.game
        start = getattr(self, "_unlogged_start", None) or _START
        h = {"start": start, "match": c.match is not None, "og": self._og(),
             "late": len(g.record)}
        if c.match is not None:
            h["match_game"] = len(c.match.games)
            h["prev"] = self.last_gid
        try:
            log.start_game(h)
            for t in g.record:
                log.log_event({"ev": "turn", "turn": t})
            if c.d1:
                log.log_event({"ev": "roll", "dice": [c.d1, c.d2]})
                from samsara.notation import format_sub_move
                for m in c.played:
                    log.log_event({"ev": "sub", "move": format_sub_move(m)})
        except Exception as e:
            self.send({"ev": "log_error", "msg": str(e)[:80]})
            return
        self.unlogged = False
        self._clear_full()

    def _pump(self):
        """Move the board's events to the log and the host (bounded per call)."""
        b = self.board
        for _ in range(_MAX_EVENTS_PER_POLL):
            ev = b.poll_event()
            if ev is None:
                return
            self._log_event(ev)
            self.send(ev)

    # -- the loop ----------------------------------------------------------------------

    def poll(self, now_ms):
        """One loop iteration's service: events to log and host, at most one host
        command, at most TX_PER_POLL bytes written.  Raises KeyboardInterrupt on 0x03."""
        if self.last is not None:
            gap = self._diff(now_ms, self.last)
            if gap > self.max_gap:
                self.max_gap = gap
            if gap > 2 * self.period_ms:
                self.overruns += 1
        if self.t0 is None:
            self.t0 = now_ms
        self.last = now_ms
        self.now = now_ms
        self._pump()
        h = self.hooks
        if h is not None and getattr(h, "busy", False):
            h.poll(now_ms)
        log = self.log
        if log is not None and log._crc is None and not self._crc_err:
            try:
                log.crc_step()
            except Exception as e:
                self._crc_err = True
                self.send({"ev": "log_error", "msg": "reading the log: %s" % str(e)[:60]})
        self._read()
        if self.tx_dropped and self._room() >= 64:
            n = self.tx_dropped
            self.tx_dropped = 0
            self._put(P.encode({"ev": "dropped", "lines": n}))
        self._flush()

    def _read(self):
        rx = self.rx
        end = self.rx_n
        room = P.MAX_IN + 1 - end
        if room > P.RX_PER_POLL:
            room = P.RX_PER_POLL
        if room > 0:
            end += self.stream.read_into(rx, end, room)
        i = self.rx_scan
        if i >= end:
            self.rx_n = end
            return  # nothing new: the idle path, no allocation
        while i < end:
            c = rx[i]
            if c == 0x03:
                self.rx_n = 0
                self.rx_scan = 0
                raise KeyboardInterrupt
            if c == 0x04 or c == 0x01 or c == 0x02:
                # REPL controls (Ctrl-D, raw REPL on/off, as mpremote sends them around
                # an exec): drop the byte and the partial line before it.
                rest = end - i - 1
                if rest:
                    rx[0:rest] = rx[i + 1:end]
                end = rest
                i = 0
                self.rx_skip = False
                self.rx_bad = 0
                continue
            if c == 0x0A:
                rest = end - i - 1
                if not self.rx_skip:
                    n = i
                    if n and rx[n - 1] == 0x0D:
                        n -= 1
                    self._line(n)
                self.rx_skip = False
                self.rx_bad = 0
                if rest:
                    # Bytes after the LF wait for the next poll: one command per poll.
                    rx[0:rest] = rx[i + 1:end]
                self.rx_n = rest
                self.rx_scan = 0
                return
            if (c < 0x20 and c != 0x09 and c != 0x0D) or c == 0x7F:
                if not self.rx_bad:
                    self.rx_bad = c | 0x100  # the first control byte, for the message
            i += 1
        if end > P.MAX_IN:
            if not self.rx_skip:
                self.rx_errors += 1
                self.send(P.error_reply(None, None, P.E_TOO_LONG,
                                        "line longer than %d bytes" % P.MAX_IN))
            self.rx_skip = True
            self.rx_bad = 0
            end = 0
            i = 0
        self.rx_n = end
        self.rx_scan = i

    def _line(self, n):
        if n == 0:
            return  # empty lines are keep-alives
        self.rx_lines += 1
        if self.rx_bad:
            self.rx_errors += 1
            self.send(P.error_reply(None, None, P.E_BINARY,
                                    "control byte 0x%02x in line" % (self.rx_bad & 0xFF)))
            return
        try:
            name, rid, args = P.parse_command(memoryview(self.rx)[0:n], -1, True)
        except P.ProtocolError as e:
            self.rx_errors += 1
            self.send(P.error_reply(e.name, e.req_id, e.code, e.msg))
            return
        try:
            fields = getattr(self, "_c_" + name)(args)
        except CmdError as e:
            self.send(P.error_reply(name, rid, e.code, e.msg))
            return
        except gamelog.LogError as e:
            self.send(P.error_reply(name, rid, e.code, e.msg))
            return
        except Exception as e:  # keep the loop alive, tell the host
            self.send(P.error_reply(name, rid, P.E_INTERNAL, "%s: %s" % (type(e).__name__, str(e)[:80])))
            return
        self.send(P.reply(name, rid, fields))

    # -- commands ----------------------------------------------------------------------

    def _c_hello(self, a):
        return {"proto": P.PROTO, "fw": version.VERSION, "hash": version.HASH,
                "board": self.board_id, "name": "samsara", "cmds": list(P.COMMAND_NAMES)}

    def _log_space(self):
        if self.log is None:
            return {"free": 0, "need": 0, "full": False, "unpulled": 0}
        s = self.log.space()
        return {"free": s["free"], "need": s["need"], "full": s["full"], "unpulled": s["unpulled"]}

    def _c_status(self, a):
        b = self.board
        pos = b.controller.position()
        return {"state": b.controller.state,
                "game": None if self.log is None else self.log.run_gid,
                "mover": "AB"[pos.mover], "score": "%d-%d" % (pos.a, pos.b),
                "dice": _dice(b), "remaining": _remaining(b), "log": self._log_space(),
                "uptime_ms": self._diff(self.now, self.t0 if self.t0 is not None else self.now),
                "loop": {"period_ms": self.period_ms, "max_ms": self.max_gap,
                         "overruns": self.overruns}}

    def _c_position(self, a):
        b = self.board
        rec = _record(b)
        return {"position": b.controller.position().format(), "state": b.controller.state,
                "turns": len(rec), "record": rec[-10:]}

    def _press(self, what, want):
        b = self.board
        self._pump()
        b.press(self.now, what)
        got = None
        why = None
        for _ in range(_MAX_EVENTS_PER_POLL):
            ev = b.poll_event()
            if ev is None:
                break
            self._log_event(ev)
            self.send(ev)
            name = ev.get("ev")
            if name == want and got is None:
                got = ev
            elif name == "reject" and why is None:
                why = ev.get("reason")
        if got is None:
            raise CmdError(P.E_STATE, why or ("%s not possible now" % what))
        return got

    def _c_roll(self, a):
        ev = self._press("roll", "roll")
        return {"dice": ev.get("dice")}

    def _c_undo(self, a):
        ev = self._press("undo", "undo")
        out = {}
        if "move" in ev:
            out["move"] = ev["move"]
        return out

    def _c_set_dice(self, a):
        d = a["dice"]
        self.board.set_dice(d[0], d[1])
        return {"dice": d}

    def _c_new_game(self, a):
        gid = self.start_game(a["position"], a["match"], 0 if a["starter"] == "A" else 1)
        return {"game": gid}

    def _hook(self, name):
        fn = getattr(self.hooks, name, None) if self.hooks is not None else None
        if fn is None:
            raise CmdError(P.E_NOT_SUPPORTED, "this board has no %s" % name.replace("_", " "))
        return fn

    def _c_led_test(self, a):
        self._hook("led_test")(self.now, a["ms"])
        return {"ms": a["ms"]}

    def _c_sensors(self, a):
        raw, settled = self._hook("sensors")()
        return {"raw": _frame_hex(raw), "settled": _frame_hex(settled),
                "on": _frame_names(settled) if settled is not None else []}

    def _c_calibrate(self, a):
        out = self._hook("calibrate")(a["step"])
        d = {"step": a["step"]}
        if out:
            for k in out:
                d[k] = out[k]
        return d

    def _need_log(self):
        if self.log is None:
            raise CmdError(P.E_NOT_SUPPORTED, "this board keeps no game logs")
        return self.log

    def _c_logs(self, a):
        log = self._need_log()
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
        s = self._log_space()
        return {"logs": out, "more": more, "free": s["free"], "need": s["need"],
                "full": s["full"], "unpulled": s["unpulled"]}

    def _c_log_get(self, a):
        log = self._need_log()
        gid = a["game"]
        size, st, _crc = log.info(gid)
        off = a["offset"]
        if off > size:
            raise CmdError(P.E_BAD_ARGS, "offset: beyond the end (%d bytes)" % size)
        data = log.read(gid, off, a["n"])
        return {"game": gid, "offset": off, "size": size, "data": P.b64encode(data),
                "crc": P.crc_hex(P.crc16(data)), "eof": off + len(data) >= size}

    def _c_log_ack(self, a):
        log = self._need_log()
        st = log.mark_pulled(a["game"], int(a["crc"], 16), a["size"])
        if self.unlogged:
            self._catch_up()
        elif self.log_full_sent and not log.space()["full"]:
            self._clear_full()
        return {"game": a["game"], "state": st}

    def _c_log_del(self, a):
        log = self._need_log()
        log.delete(a["game"], a["force"])
        if self.unlogged:
            self._catch_up()
        elif self.log_full_sent and not log.space()["full"]:
            self._clear_full()
        return {"game": a["game"]}


_START = "oooooo................../oooooo.................. 0-0 A"
_START_EVENTS = ("game_start",)


def _dice(board):
    c = board.controller
    d1 = getattr(c, "d1", 0)
    if d1:
        return [d1, c.d2]
    return []


def _remaining(board):
    fn = getattr(board.controller, "remaining_dice", None)
    return list(fn()) if fn is not None else []


def _record(board):
    c = getattr(board, "controller", None)
    for obj in (c, board):
        if obj is None:
            continue
        r = getattr(obj, "record", None)
        if r is not None and not callable(r):
            return list(r)
        g = getattr(obj, "game", None)
        if g is not None and hasattr(g, "record"):
            return list(g.record)
    return []


def _ticks_diff(a, b):
    """Signed a - b of two ms tick values that wrap at 2**30 (time.ticks_ms() on
    MicroPython), same result as time.ticks_diff; small ints only."""
    return ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000


class MainHooks:
    """The link's hooks over main.py's drivers (board.hw.Hardware: scanner, leds,
    calibrator) and the board core: a LED test that runs inside the loop, the
    "pull the logs" hint, raw and settled sensor frames, the guided Hall calibration."""

    HINT_MS = 500
    """Blink period of a hint, ms."""

    def __init__(self, hw, board, ms_diff=None):
        self.hw = hw
        self.board = board
        self.raw = bytearray(8)
        self.busy = False        # a LED test or a hint is running: poll() has work
        self._diff = ms_diff or _ticks_diff
        self._t0 = 0
        self._ms = 0
        self._i = -1
        self._scene = None
        self._hint = None
        self._hint_t = 0
        self._hint_on = False

    def led_test(self, now_ms, ms):
        """Light the 80 LEDs one after the other (white, dim) over `ms`, one chain
        write per LED, then give the LEDs back to the board's scene."""
        self._scene = bytearray(240)
        self._t0 = now_ms
        self._ms = ms
        self._i = -1
        self.busy = True

    def hint(self, name):
        """Show a hint on the dice display until clear_hint(): "log_full" blinks all
        14 dice pips amber ("pull the game logs") every HINT_MS."""
        self._hint = name
        self._hint_t = None
        self.busy = True

    def clear_hint(self):
        if self._hint is not None:
            self._hint = None
            self.busy = self._scene is not None
            self.hw.leds.show(self.board.limited_scene())

    def poll(self, now_ms):
        if self._scene is not None:
            self._test_step(now_ms)
        elif self._hint is not None:
            if self._hint_t is None or self._diff(now_ms, self._hint_t) >= self.HINT_MS:
                self._hint_t = now_ms
                self._hint_on = not self._hint_on
                sc = bytearray(self.board.limited_scene())
                if self._hint_on:
                    for led in range(64, 78):
                        sc[3 * led] = 60
                        sc[3 * led + 1] = 25
                        sc[3 * led + 2] = 0
                self.hw.leds.show(sc)
        else:
            self.busy = False

    def _test_step(self, now_ms):
        i = self._diff(now_ms, self._t0) * 80 // self._ms
        if i < 0:
            i = 0
        if i == self._i:
            return
        sc = self._scene
        if self._i >= 0:
            j = 3 * self._i
            sc[j] = sc[j + 1] = sc[j + 2] = 0
        if i >= 80:
            self._scene = None
            self.busy = self._hint is not None
            self.hw.leds.show(self.board.limited_scene())
            return
        j = 3 * i
        sc[j] = sc[j + 1] = sc[j + 2] = 40
        self._i = i
        self.hw.leds.show(sc)

    def sensors(self):
        self.hw.scanner.scan(self.raw)
        return self.raw, self.board.debounce.settled

    def calibrate(self, step):
        cal = getattr(self.hw, "calibrator", None)
        if cal is None:
            raise CmdError(P.E_NOT_SUPPORTED, "this board has reed switches: nothing to calibrate")
        if step == "start":
            cal.begin()
        elif step == "cancel":
            cal.abort()
        elif step == "save":
            # from "occupied" this keeps the sensors measured so far (the others use
            # the default thresholds); from "ready" every sensor was measured
            if cal.state not in ("occupied", "ready"):
                raise CmdError(P.E_STATE, "calibration is in state %s" % cal.state)
            cal.skip()
        else:
            if cal.state != step:
                raise CmdError(P.E_STATE, "calibration is in state %s" % cal.state)
            cal.step()
        out = {"state": cal.state, "todo": cal.prompt()}
        try:
            out["missing"] = len(cal.missing())
        except Exception:
            pass
        return out


def make_service(board, hw=None, log_dir="logs", board_id=None, stream=None,
                 capacity=gamelog.CAPACITY, period_ms=None):
    """The link main.py uses: the USB serial (stdin/stdout) stream, the game log in
    folder `log_dir` of the flash (or of the virtual board's folder), hooks over the
    drivers `hw`.  board_id: default hw.unique_id() when it has one, else the
    environment variable SAMSARA_BOARD_ID, else machine.unique_id() in hex, else
    "pico"."""
    from samsara.osfs import OsFs
    if board_id is None:
        board_id = _board_id(hw)
    if stream is None:
        stream = StdioStream()
    log = gamelog.GameLog(OsFs(log_dir), capacity=capacity)
    hooks = MainHooks(hw, board) if hw is not None else None
    if period_ms is None:
        period_ms = board.config.scan_ms
    return UsbLink(stream, board, log, hooks, board_id, period_ms)


def _board_id(hw):
    fn = getattr(hw, "unique_id", None)
    if fn is not None:
        try:
            v = fn()
            if isinstance(v, (bytes, bytearray)):
                return "".join(["%02x" % b for b in v])
            return str(v)
        except Exception:
            pass
    try:
        import os
        v = os.getenv("SAMSARA_BOARD_ID")
        if v:
            return v
    except Exception:
        pass
    try:
        # On the Pico: the flash chip's unique id.  Looked up at boot only, never in
        # the loop; the core imports no hardware module at import time.
        v = __import__("machine").unique_id()
        return "".join(["%02x" % b for b in v])
    except Exception:
        pass
    return "pico"
