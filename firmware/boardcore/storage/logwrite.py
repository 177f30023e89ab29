"""The writing side of the game log's record format (docs/gamelog.md "Records"): the
bytes of a record and the record of a board event.  Its one job is encoding.
boardcore.storage.logrecord (the whole format: these
names plus checking, parsing and replaying records, for the host and the boot scan)
imports everything here.

Runs on MicroPython and CPython; integers stay below 2**16.
"""

import json

from boardcore.link.protocol import crc16, NOT_LOGGED

try:
    from micropython import const
except ImportError:  # CPython
    def const(__x):
        return __x

SYNC = 0xA5
FMT = 1
"""Version of the record format, written in every header record."""
OVERHEAD = 5
"""Bytes of a record besides its payload: sync, len, type, 2 CRC bytes."""
MAX_PAYLOAD = 250
E_MAX = 120
"""Longest JSON payload of an E record; a longer event is logged as {"ev": name, "cut": true}."""
T_MAX = 40
"""Longest payload of a T record (the longest legal turn notation has 28 characters)."""
_S_MAX = const(16)
"""Longest payload of an S or U record (the longest sub-move has 12 characters)."""

T_HEADER = 0x48  # H
T_ROLL = 0x52    # R
_T_SUB = const(0x53)     # S
_T_UNDO = const(0x55)    # U
T_TURN = 0x54    # T
_T_EVENT = const(0x45)   # E
T_END = 0x5A     # Z


def dumps(obj):
    """Compact JSON text of obj (no spaces after separators where the port allows)."""
    try:
        return json.dumps(obj, separators=(",", ":"))
    except TypeError:  # MicroPython without the separators argument
        return json.dumps(obj)


def encode_record(rtype, payload):
    """One record: rtype an ASCII type code (int), payload bytes of at most
    MAX_PAYLOAD.  Raises ValueError for a longer payload."""
    n = len(payload)
    if n > MAX_PAYLOAD:
        raise ValueError("record payload of %d bytes" % n)
    rec = bytearray(n + OVERHEAD)
    rec[0] = SYNC
    rec[1] = n
    rec[2] = rtype
    rec[3:3 + n] = payload
    c = crc16(rec, 0xFFFF, 0, n + 3)
    rec[n + 3] = c >> 8
    rec[n + 4] = c & 0xFF
    return rec


def event_record(ev):
    """The record (bytearray) for a controller event dict, or None when the event is
    not logged (NOT_LOGGED).  Roll, sub, undo and turn events take compact typed
    records; anything else a compact JSON E record."""
    name = ev.get("ev")
    if name in NOT_LOGGED:
        return None
    if name == "roll":
        d = ev.get("dice")
        if isinstance(d, (list, tuple)) and len(d) == 2 and _die(d[0]) and _die(d[1]):
            return encode_record(T_ROLL, b"%d%d" % (d[0], d[1]))
    elif name == "sub":
        m = ev.get("move")
        if isinstance(m, str) and len(m) <= _S_MAX:
            return encode_record(_T_SUB, m.encode())
    elif name == "undo":
        m = ev.get("move", "")
        if isinstance(m, str) and len(m) <= _S_MAX:
            return encode_record(_T_UNDO, m.encode())
    elif name == "turn":
        t = ev.get("turn")
        if isinstance(t, str) and len(t) <= T_MAX:
            return encode_record(T_TURN, t.encode())
    p = dumps(ev).encode()
    if len(p) > E_MAX:
        p = dumps({"ev": str(name)[:32], "cut": True}).encode()
    return encode_record(_T_EVENT, p)


def _die(d):
    return isinstance(d, int) and 1 <= d <= 6
