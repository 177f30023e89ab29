"""The host link: the board side of the USB line stream (docs/protocol.md).  Its one
job is the line stream: framing the host's input, running its commands through the
command table (boardcore.link.commands), the replies, and the board's events out to the
host.  A sink of the main loop's one event path, beside the game recorder and the
flight recorder.

    link = HostLink(stream, board, inputs, recorder, flight, hooks, board_id="e661...",
                    period_ms=4)
    link.boot(now_ms)        # once: the boot line
    link.on_event(ev)        # every board event, from the main loop: to the host
    if link.poll(now_ms):    # every iteration: at most one host command, then output
        ...                  # the loop hands the command's events to every sink
        link.answer()        # and then the command's reply goes out

`stream` is a small byte-stream adapter: StdioStream (USB serial on the Pico, stdin and
stdout of the `micropython` Unix port behind a pseudo-terminal) or a test double with
the same two members:

    read_into(buf, start, maxn) -> bytes read now (0 when none; never blocks)
    write(buf, start, n)        -> bytes taken now (0 when the port cannot take any)

Input is gathered into one preallocated buffer of protocol.MAX_IN bytes and parsed
only with json.loads.  Output goes through one preallocated ring of _TX_RING
bytes, at most _TX_PER_POLL bytes a poll, so a host that does not read never
blocks the scan loop.  A poll with nothing received and nothing to send allocates
nothing.  Byte 0x03 raises KeyboardInterrupt (the REPL hand-over; the stream stops
reading right after it so the bytes behind it reach the REPL); 0x01, 0x02 and 0x04 (REPL
controls) are dropped with the partial line before them.

The link never takes events off the board's queue: the main loop does, and hands
each to its sinks.  Commands read the board through its public members and hand
requests to `inputs` (the main loop's door to the board: mainloop.Inputs, which notes
them in the flight recorder); their reply waits in the link until the loop has passed
the command's events on (answer(); a poll sends a reply still waiting first), so the
host sees the events before the reply.  A command never waits for the game log.
recorder: samsara.recorder.Recorder (the logs commands) or None; flight:
boardcore.flight.Flight or None; hooks: the drivers' side (board.linkhooks.LinkHooks):
sensors() -> (raw bytearray(8), settled bytearray(8)), calibrate(step) -> dict, hw; a
missing hook answers not_supported.  The game's commands (the table's entries without a
handler) are the board's HOST_COMMANDS, ((name, handler), ...) (Samsara's board:
samsara.commands.HANDLERS); a game's command the board's game does not have answers
not_supported.
"""

import io
import json
import sys

from boardcore.link import protocol as P
from boardcore.link.commands import COMMAND_NAMES, FLIGHT_COMMANDS, command, parse_command
from boardcore.storage import gamelog
from boardcore import version
from boardcore.ticks import ticks_diff

try:
    from micropython import const
except ImportError:  # CPython
    def const(__x):
        return __x

_RX_PER_POLL = const(128)
"""Bytes the board reads at most per loop iteration."""
_TX_PER_POLL = const(128)
"""Bytes the board writes at most per loop iteration."""
_TX_RING = const(1024)
"""Size of the board's output ring in bytes: two lines of protocol.MAX_OUT, or 8 loop
iterations (32 ms at the Pico's 4 ms period) of output at _TX_PER_POLL; a host that
reads keeps it nearly empty (a game's largest burst, its end with a `status` reply,
is about 700 bytes), one that does not makes the board drop event lines (counted, then
reported) rather than block; a reply always has its room (a command waits for it)."""


if sys.implementation.name == "micropython":
    # straight into the BytesIO: allocates nothing
    _dump_into = json.dump      # pyright: ignore[reportAssignmentType]
else:
    def _dump_into(obj, js):    # CPython's json.dump writes str, in many pieces
        js.write(json.dumps(obj).encode())


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


class HostLink:
    """The board's end of the USB line protocol (module docstring).

    board: a game's board core (samsara.core.Board, gameboard.core.GameBoard: read,
    its overlays set, its place_name/place_index); inputs: the main loop's
    door to the board (mainloop.Inputs) or None (a link that drives no board);
    recorder: samsara.recorder.Recorder or None (no logging); flight:
    boardcore.flight.Flight or None; hooks: see module docstring.  period_ms: the loop's
    scan period, for the `status` loop figures.  Counters: rx_lines, rx_errors,
    tx_dropped (lines), overruns.
    """

    def __init__(self, stream, board, inputs=None, recorder=None, flight=None, hooks=None,
                 board_id="", period_ms=5, ms_diff=None):
        self.stream = stream
        self.commands = getattr(board, "HOST_COMMANDS", ())   # the game's (handler)
        self.board = board
        self.inputs = inputs
        self.recorder = recorder
        self.flight = flight
        self.hooks = hooks
        self.board_id = board_id
        self.period_ms = period_ms
        self._diff = ms_diff or ticks_diff
        self.rx = bytearray(P.MAX_IN + 1)
        self.rx_n = 0
        self.rx_skip = False      # inside an over-long line: drop until LF
        self.rx_scan = 0          # rx[:rx_scan] was scanned: no LF, no 0x01-0x04
        self.rx_bad = 0           # 0x100 | the first control byte of this line, or 0
        self.tx = bytearray(_TX_RING)
        self._txv = memoryview(self.tx)
        # a line's JSON (send); getattr: the stubs type MicroPython's BytesIO without
        # its stream methods (seek, tell, readinto) and its initial-bytes argument
        self._js = getattr(io, "BytesIO")(bytearray(P.MAX_OUT))
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
        self.reply = None         # the reply of the command the last poll ran (answer())
        self.ran = False          # the last poll ran a command
        self.game = getattr(board, "GAME", None)   # another game's board (samas.core,
                                                   # schaska.core), or None: Samsara's

    # -- output ------------------------------------------------------------------------

    def send(self, obj):
        """Queue one line (a dict) for the host.  Lines longer than MAX_OUT are replaced
        by a short one; when the ring is full the line is dropped and counted.  The
        JSON is written into one preallocated buffer and copied into the ring: a line
        leaves no garbage behind."""
        try:
            n = self._dump(obj)
        except Exception:
            n = self._dump({"ev": "error", "msg": "unencodable line"})
        if n >= P.MAX_OUT:
            if "ev" in obj:
                n = self._dump({"ev": str(obj.get("ev"))[:32], "cut": True})
            else:
                n = self._dump(P.error_reply(obj.get("re"), obj.get("id"), P.E_INTERNAL,
                                             "reply longer than %d bytes" % P.MAX_OUT))
        if self.tx_dropped and self._room() >= n + 41:
            k = self.tx_dropped
            self.tx_dropped = 0
            self._put(P.encode({"ev": "dropped", "lines": k}))
        if self._room() <= n:
            self.tx_dropped += 1
            return False
        self._put_json(n)
        return True

    def _dump(self, obj):
        # obj's JSON (as protocol.encode writes it, without the LF) at the start of the
        # scratch buffer; returns its length.
        js = self._js
        js.seek(0)
        _dump_into(obj, js)
        return js.tell()

    def _put_json(self, n):
        # The scratch buffer's n bytes and an LF into the ring (it has the room).
        js = self._js
        js.seek(0)
        i = (self.tx_head + self.tx_len) % _TX_RING
        first = _TX_RING - i
        if first > n:
            first = n
        js.readinto(self._txv[i:i + first])
        if first < n:
            js.readinto(self._txv[0:n - first])
        self.tx[(i + n) % _TX_RING] = 10
        self.tx_len += n + 1

    def _room(self):
        return _TX_RING - self.tx_len

    def _put(self, line):
        ring = self.tx
        size = _TX_RING
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
        if n > _TX_PER_POLL:
            n = _TX_PER_POLL
        end = _TX_RING - self.tx_head
        if n > end:
            # the ring wraps inside what goes now: its end, then its start (a line
            # across the wrap leaves whole, not half now and half an iteration later)
            if self._write(end) < end:
                return
            n -= end
        self._write(n)

    def _write(self, n):
        # n bytes from the ring's head to the port; returns the bytes it took.
        k = self.stream.write(self.tx, self.tx_head, n)
        if k:
            self.tx_head = (self.tx_head + k) % _TX_RING
            self.tx_len -= k
        return k

    def pending_output(self):
        """Bytes queued for the host."""
        return self.tx_len

    # -- boot and the event sink -------------------------------------------------------

    def boot(self, now_ms):
        """Start of the loop: announce it with the boot line."""
        self.now = now_ms
        self.t0 = now_ms
        self.last = None
        self.send({"ev": "boot", "proto": P.PROTO, "fw": version.VERSION,
                   "hash": version.HASH, "kind": version.KIND, "board": self.board_id})

    def on_event(self, ev):
        """One board event (from the main loop): to the host."""
        self.send(ev)

    def answer(self):
        """Send the reply of the command the last poll ran (the main loop calls it once
        it has handed that command's events to every sink)."""
        r = self.reply
        if r is not None:
            self.reply = None
            self.send(r)
            self._flush()

    # -- what the commands read ----------------------------------------------------------

    def command_names(self):
        """The names of the commands this board answers, in documentation order
        (`hello`): the board's own (the flight recorder's only with one) and its
        game's."""
        return [n for n in COMMAND_NAMES if self.handler(n) is not None and not (
            self.flight is None and n in FLIGHT_COMMANDS)]

    def handler(self, name):
        """The handler of command `name` (a known command): the table's, else the game's
        (the board's HOST_COMMANDS), else None (the board's game has no such command)."""
        h = command(name)[0]
        if h is None:
            for n, fn in self.commands:
                if n == name:
                    return fn
        return h

    def log_space(self):
        """{"free", "need", "full", "unpulled"} of the game log (zeros without one)."""
        if self.recorder is None:
            return {"free": 0, "need": 0, "full": False, "unpulled": 0}
        return self.recorder.space()

    def uptime_ms(self):
        """ms since the link's boot."""
        return self._diff(self.now, self.t0 if self.t0 is not None else self.now)

    # -- the loop ----------------------------------------------------------------------

    def poll(self, now_ms):
        """One loop iteration's service: a reply still waiting sent, at most one host
        command run, at most _TX_PER_POLL bytes written.  Returns True when a command
        ran: its reply waits for answer().  A command waits in the input while the
        output ring has less than protocol.MAX_OUT bytes free, so its reply is never
        dropped.  Raises KeyboardInterrupt on 0x03."""
        if self.reply is not None:
            self.answer()
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
        self.ran = False
        self._read()
        if self.tx_dropped and self._room() >= 64:
            n = self.tx_dropped
            self.tx_dropped = 0
            self._put(P.encode({"ev": "dropped", "lines": n}))
        self._flush()
        return self.ran

    def _read(self):
        # Kept small (its call frame stays off the heap): the idle path ends here.
        end = self.rx_n
        room = P.MAX_IN + 1 - end
        if room > _RX_PER_POLL:
            room = _RX_PER_POLL
        if room > 0:
            end += self.stream.read_into(self.rx, end, room)
        if self.rx_scan >= end:
            self.rx_n = end
            return  # nothing new (the idle path, no allocation)
        self._scan_rx(end)

    def _scan_rx(self, end):
        rx = self.rx
        i = self.rx_scan
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
                if _TX_RING - self.tx_len < P.MAX_OUT:
                    break   # no room for a reply yet: the line waits
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
        if end > P.MAX_IN and i >= end:
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
            name, rid, args = parse_command(memoryview(self.rx)[0:n], -1, True)
        except P.ProtocolError as e:
            self.rx_errors += 1
            self.send(P.error_reply(e.name, e.req_id, e.code, e.msg))
            return
        self.reply = self._run(name, rid, args)
        self.ran = True

    def _run(self, name, rid, args):
        # One parsed command: its handler (the command table); the reply, or an error
        # reply.
        h = self.handler(name)
        if h is None:
            return P.error_reply(name, rid, P.E_NOT_SUPPORTED, "a %s board plays no "
                                 "Samsara game (no %s)" % (self.game or "game-less", name))
        try:
            fields = h(self, args)
        except P.CmdError as e:
            return P.error_reply(name, rid, e.code, e.msg)
        except gamelog.LogError as e:
            return P.error_reply(name, rid, e.code, e.msg)
        except Exception as e:  # keep the loop alive, tell the host
            return P.error_reply(name, rid, P.E_INTERNAL,
                                 "%s: %s" % (type(e).__name__, str(e)[:80]))
        return P.reply(name, rid, fields)
