"""The game log's record format, shared by the board and the host (docs/gamelog.md
"Records"): encoding, checking and parsing records, the record of an event and the
event of a record, and the replay of a game's records.  Its one job is the bytes of
a record; the store of log files on flash is boardcore.storage.gamelog.

Record (docs/gamelog.md has the byte diagram):

    0xA5 | len (1 byte, 0..250) | type (1 ASCII byte) | payload (len bytes) | CRC-16 (2 bytes, big-endian)

The CRC-16/CCITT-FALSE (boardcore.link.protocol.crc16) covers sync, len, type and payload.
Types: H header (JSON), R roll ("53"), S sub-move ("5:R1-S18"), U undo (sub-move or
empty), T turn ("53 5:R1-S18 3:R2-S17"), E any other logged event (compact JSON),
Z end of game (JSON).  Which events are logged at all is the event table of
boardcore.link.protocol (event_table(), NOT_LOGGED).

The encoding (constants, encode_record, event_record) is boardcore.storage.logwrite's,
imported here; checking, parsing and replaying are this module's own (the board's boot
scan and log transfer, boardcore.storage.gamelog, and the host use them).

Runs on MicroPython and CPython; integers stay below 2**16.
"""

import json

from boardcore.link.protocol import crc16
from boardcore.storage.logwrite import (SYNC, FMT, OVERHEAD, MAX_PAYLOAD, E_MAX, T_MAX,  # noqa: F401
                                      T_HEADER, T_ROLL, T_TURN, T_END, dumps,
                                      encode_record, event_record)

try:
    from micropython import const
except ImportError:  # CPython
    def const(__x):
        return __x

_T_SUB = const(0x53)     # S
_T_UNDO = const(0x55)    # U

_TYPES = b"HRSUTEZ"


def record_at(buf, i, end, check=True):
    """Check the record starting at buf[i] (buf bytes-like, valid up to `end`).
    Returns its total length, 0 when the buffer ends inside it (incomplete), or -1
    when the bytes are not a valid record (bad sync, length, type or CRC).  check
    False skips the CRC (the boot scan checks it only near the end of the file)."""
    if i + 3 > end:
        return 0
    if buf[i] != SYNC:
        return -1
    n = buf[i + 1]
    if n > MAX_PAYLOAD or buf[i + 2] not in _TYPES:
        return -1
    if i + n + OVERHEAD > end:
        return 0
    if not check:
        return n + OVERHEAD
    c = crc16(buf, 0xFFFF, i, i + n + 3)
    if buf[i + n + 3] != c >> 8 or buf[i + n + 4] != c & 0xFF:
        return -1
    return n + OVERHEAD


def parse_records(data):
    """All valid records of a log file's bytes, from the start up to the first bad or
    incomplete one.  Returns (records, good_len): records a list of (type, payload
    bytes), good_len the bytes they cover (len(data) when the file is intact)."""
    out = []
    i = 0
    end = len(data)
    while i < end:
        k = record_at(data, i, end)
        if k <= 0:
            break
        out.append((data[i + 2], bytes(data[i + 3:i + k - 2])))
        i += k
    return out, i


def record_event(rtype, payload):
    """The dict a record stands for (the inverse of event_record; headers give
    {"ev": "header", ...} and ends {"ev": "end", ...})."""
    if rtype == T_ROLL:
        return {"ev": "roll", "dice": [payload[0] - 48, payload[1] - 48]}
    if rtype == _T_SUB:
        return {"ev": "sub", "move": payload.decode()}
    if rtype == _T_UNDO:
        d = {"ev": "undo"}
        if payload:
            d["move"] = payload.decode()
        return d
    if rtype == T_TURN:
        return {"ev": "turn", "turn": payload.decode()}
    obj = json.loads(payload.decode())
    if rtype == T_HEADER:
        obj["ev"] = "header"
    elif rtype == T_END:
        obj["ev"] = "end"
    return obj


class Replay:
    """Rebuilds the state of a game from its records, one at a time (the boot scan and
    the host both use it).  After feeding: header (dict), turns (complete turns in turn
    notation, play order), roll ((d1, d2) of the turn being played or None), subs
    (its accepted sub-moves), turn_done (the last roll's turn is complete), ended,
    end (the Z record's dict), records, events (count of E records)."""

    def __init__(self):
        self.header = None
        self.turns = []
        self.roll = None
        self.subs = []
        self.turn_done = False
        self.ended = False
        self.end = None
        self.records = 0
        self.events = 0
        # set by GameLog's boot scan (file facts of the game being replayed)
        self.game = 0
        self.size = 0
        self.crc = 0
        self.win = 0
        self.windows = 0
        self.dropped = 0

    def feed(self, rtype, payload):
        self.records += 1
        if rtype == T_HEADER:
            self.header = json.loads(payload.decode())
        elif rtype == T_ROLL:
            self.roll = (payload[0] - 48, payload[1] - 48)
            self.subs = []
            self.turn_done = False
        elif rtype == _T_SUB:
            self.subs.append(payload.decode())
        elif rtype == _T_UNDO:
            if self.subs:
                self.subs.pop()
        elif rtype == T_TURN:
            # A turn record is written when the turn is committed (at the next roll or
            # at the game's end), so it is final.
            self.turns.append(payload.decode())
            self.turn_done = True
            self.subs = []
        elif rtype == T_END:
            self.ended = True
            self.end = json.loads(payload.decode())
        else:
            self.events += 1

    def state(self):
        """A summary dict: header, turns, roll (list or None), subs, ended."""
        return {"header": self.header, "turns": list(self.turns),
                "roll": None if (self.roll is None or self.turn_done) else [self.roll[0], self.roll[1]],
                "subs": list(self.subs), "ended": self.ended, "end": self.end,
                "records": self.records}


def verify(data):
    """Check a pulled log file: every record valid, a header first.  Returns
    (ok, msg, replay): ok False with a reason when the bytes are torn or corrupt."""
    recs, good = parse_records(data)
    r = Replay()
    if not recs or recs[0][0] != T_HEADER:
        return False, "no header record", r
    for t, p in recs:
        try:
            r.feed(t, p)
        except Exception as e:
            return False, "bad record payload: %s" % e, r
    if good != len(data):
        return False, "bad or torn record at byte %d" % good, r
    return True, "ok", r
