"""A small in-process board speaking docs/protocol.md over a pseudo-terminal, for host
tool tests that need fine control (unplugging mid-transfer, damaged chunks).

It parses with the firmware's own `boardcore.link.commands.parse_command`, so host lines are
held to the real grammar; it answers the commands the host tool uses.  The port name
is a symlink (like socat's `link=`) that `plug()` points at a fresh pseudo-terminal,
so a host that reopens the same name after `unplug()` finds the board again, as with
a Pico that comes back as the same /dev/ttyACM0.
"""
import os
import select
import threading

from boardcore.link import protocol
from boardcore.link.commands import COMMAND_NAMES, parse_command
from samsara.rules.position import START_TEXT
from samsara_host import ptyport


class FakeBoard:
    """logs: {game: bytes}; states: {game: "done"|"running"|"pulled"}.

    unplug_after_gets: after that many log_get replies the board unplugs itself
    (once).  damage_chunks: number of log_get replies sent with a wrong CRC.
    events_on_hello: event dicts sent right after the hello reply.
    Counters: gets (log_get replies sent), acks (list of log_ack args).
    """

    def __init__(self, folder, logs=None, board="fake-1", states=None):
        self.port = os.path.join(folder, "ttyFAKE0")
        self.board = board
        self.logs = dict(logs or {})
        self.states = dict(states or {g: "done" for g in self.logs})
        self.unplug_after_gets = None
        self.damage_chunks = 0
        self.events_on_hello = []
        self.position = START_TEXT
        self.gets = 0
        self.acks = []
        self.lines = []
        self._thread = None
        self._stop = threading.Event()
        self.master = self.slave = None
        self.plug()

    # -- the cable ---------------------------------------------------------------------
    def plug(self):
        self.master, self.slave = ptyport.plug(self.port)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, args=(self.master, self._stop),
                                        daemon=True)
        self._thread.start()

    def unplug(self, cable=None):
        """Pull the cable: `cable` is (thread, stop, master, slave) of one plug-in (the
        current one by default), so that a late unplug never pulls a newer cable."""
        thread, stop, master, slave = cable or (self._thread, self._stop, self.master,
                                                self.slave)
        stop.set()
        if thread is not threading.current_thread():
            thread.join(2)
        ptyport.unplug(self.port, (master, slave))

    close = unplug

    # -- serving -----------------------------------------------------------------------
    def _serve(self, fd, stop):
        buf = bytearray()
        while not stop.is_set():
            try:
                r, _w, _x = select.select([fd], [], [], 0.02)
                if not r:
                    continue
                data = os.read(fd, 1024)
            except OSError:
                return
            buf.extend(data)
            while b"\n" in buf:
                i = buf.index(b"\n")
                line = bytes(buf[:i]).rstrip(b"\r")
                del buf[:i + 1]
                self.lines.append(line)
                for out in self.handle(line):
                    if stop.is_set():
                        return
                    try:
                        os.write(fd, protocol.encode(out))
                    except OSError:
                        return
                if stop.is_set():
                    return

    def handle(self, line):
        """Board lines (dicts) answering one host line."""
        try:
            name, rid, args = parse_command(line)
        except protocol.ProtocolError as e:
            return [protocol.error_reply(e.name, e.req_id, e.code, e.msg)]
        fn = getattr(self, "cmd_" + name, None)
        if fn is None:
            return [protocol.error_reply(name, rid, protocol.E_NOT_SUPPORTED, "fake board")]
        try:
            fields, extra = fn(args)
        except LookupError as e:
            return [protocol.error_reply(name, rid, protocol.E_NOT_FOUND, str(e))]
        except ValueError as e:
            return [protocol.error_reply(name, rid, protocol.E_BAD_ARGS, str(e))]
        return [protocol.reply(name, rid, fields)] + extra

    def cmd_hello(self, args):
        return ({"proto": protocol.PROTO, "fw": "0.1.0", "hash": "fake", "board": self.board,
                 "name": "samsara", "cmds": list(COMMAND_NAMES)},
                list(self.events_on_hello))

    def cmd_status(self, args):
        return ({"state": "idle", "game": None, "mover": "A", "score": "0-0", "dice": [],
                 "log": {"free": 1 << 20, "need": 65536, "full": False}, "uptime_ms": 1,
                 "loop": {"period_ms": 5, "max_ms": 3, "overruns": 0}}, [])

    def cmd_position(self, args):
        return ({"position": self.position, "state": "idle", "record": []}, [])

    def cmd_logs(self, args):
        after = args.get("after", -1)
        out = [{"game": g, "size": len(d), "state": self.states[g],
                "crc": protocol.crc_hex(protocol.crc16(d))}
               for g, d in sorted(self.logs.items()) if g > after]
        page = out[:protocol.LOGS_PER_PAGE]
        unpulled = sum(1 for st in self.states.values() if st == "done")
        return ({"logs": page, "more": len(out) > len(page), "free": 1 << 20,
                 "need": 65536, "full": False, "unpulled": unpulled}, [])

    def cmd_log_get(self, args):
        g = args["game"]
        if g not in self.logs:
            raise LookupError("no log of game %d" % g)
        data = self.logs[g]
        off = args["offset"]
        if off > len(data):
            raise ValueError("offset: past the end")
        piece = data[off:off + args["n"]]
        crc = protocol.crc16(piece)
        if self.damage_chunks > 0:
            self.damage_chunks -= 1
            crc ^= 0x5A5A
        self.gets += 1
        if self.unplug_after_gets is not None and self.gets >= self.unplug_after_gets:
            self.unplug_after_gets = None
            cable = (self._thread, self._stop, self.master, self.slave)
            self._stop.set()
            threading.Thread(target=self.unplug, args=(cable,), daemon=True).start()
            return ({}, [])  # the reply never leaves: the cable is out
        return ({"game": g, "offset": off, "size": len(data),
                 "data": protocol.b64encode(piece), "crc": protocol.crc_hex(crc),
                 "eof": off + len(piece) >= len(data)}, [])

    def cmd_log_ack(self, args):
        g = args["game"]
        if g not in self.logs:
            raise LookupError("no log of game %d" % g)
        data = self.logs[g]
        if args["size"] != len(data) or args["crc"] != protocol.crc_hex(protocol.crc16(data)):
            raise ValueError("crc/size do not match the board's file")
        self.acks.append(args)
        self.states[g] = "pulled"
        return ({"game": g, "state": "pulled"}, [])
