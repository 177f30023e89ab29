"""The board's flight recorder on the host: fetch a snapshot of the ring (live or a copy
saved on flash) and turn it into a sensor trace that replays from the roll of the
oldest turn still whole in the ring (docs/traces.md "Flight recorder").

    data = fetch(client)                 # the live ring (copy=-1) or fetch(client, 3)
    trace, info = to_trace(data, board="e66...")   # samsara_host.trace.Trace, counts

The snapshot's bytes are those of boardcore.flightsave (header) and boardcore.flight
(entries); this module is their one reader.
"""
from samsara.frame import to_hex
from boardcore.link import protocol as P
from samsara.rules import moves as rules
from samsara.rules.geometry import position_name
from samsara.rules.position import Position
from boardcore.flight import MARK, MARK_BYTES, GAP, PRESS, HINT

DICE = ("electronic", "manual", "host")
WHY = {0: "live", 1: "a repair longer than 5 s", 2: "two rejected placements in a row",
       3: "flight_save"}


class FlightError(ValueError):
    """A snapshot that is not in the documented format, or one without a whole turn."""


def fetch(client, copy=-1, timeout=3.0):
    """The snapshot bytes of the live ring (copy -1) or saved copy `copy`, pulled in
    chunks with `flight` (each chunk's CRC checked).  Raises boardlink errors,
    FlightError on a bad chunk."""
    out = bytearray()
    off = 0
    while True:
        r = client.request("flight", timeout=timeout, copy=copy, offset=off)
        data = P.b64decode(r["data"])
        if P.crc16(data) != int(r["crc"], 16):
            raise FlightError("chunk at %d: CRC mismatch" % off)
        out += data
        off += len(data)
        if r["eof"] or not data:
            return bytes(out)


def decode(data):
    """(header dict, entries) of a snapshot: header keys why, opponent_goal, dice,
    scan_ms, settle_ms ([lift, place, return]), age_ms; entries [(t, kind, value)] with
    t in ms from the first entry, kind "raw" (value (pos, on)), "press" ((button,
    long)), "mark" (dict dice, source, position, frame).  Raises FlightError."""
    if len(data) < 16 or data[:2] != b"FL" or data[2] != 1:
        raise FlightError("not a flight recorder snapshot (version 1)")
    try:
        og = rules.OPTION_NAMES[data[4]]
    except IndexError:
        raise FlightError("unknown rule option code %d" % data[4])
    head = {"why": WHY.get(data[3], str(data[3])), "opponent_goal": og,
            "dice": DICE[data[5]] if data[5] < 3 else "electronic",
            "scan_ms": data[6], "settle_ms": [data[7], data[8] | data[9] << 8, data[10]],
            "age_ms": int.from_bytes(data[11:15], "little")}
    out = []
    t = 0
    i = 16
    n = len(data)
    while i < n:
        code = data[i]
        size = MARK_BYTES if code == MARK else 3
        if i + size > n:
            raise FlightError("entry at byte %d cut short" % i)
        t += data[i + 1] | data[i + 2] << 8
        if code == GAP:
            pass
        elif code < PRESS:
            out.append((t, "raw", (code & 63, bool(code & 64))))
        elif code < PRESS + 4:
            out.append((t, "press", ("undo" if code & 1 else "roll", bool(code & 2))))
        elif code == HINT:
            out.append((t, "press", ("hint", False)))
        elif code == MARK:
            e = data[i:i + MARK_BYTES]
            r = e[5] | e[6] << 8 | e[7] << 16
            s = e[8] | e[9] << 8 | e[10] << 16
            pos = Position(r, s, e[11] >> 4, e[11] & 15, (e[4] >> 2) & 1)
            out.append((t, "mark", {"dice": [e[3] >> 4, e[3] & 15],
                                    "source": DICE[e[4] & 3] if e[4] & 3 < 3 else "?",
                                    "position": pos, "frame": bytes(e[12:20])}))
        else:
            raise FlightError("unknown entry code 0x%02x at byte %d" % (code, i))
        i += size
    return head, out


def to_trace(data, board=None):
    """The trace (samsara_host.trace.Trace) of a snapshot, from the roll of its oldest
    whole turn, and info {"changes", "span_ms", "turns", "why"}.  Raises FlightError
    when the ring holds no roll."""
    from samsara.frame import from_position
    from samsara_host.trace import Trace
    head, ents = decode(data)
    first = next((k for k, e in enumerate(ents) if e[1] == "mark"), None)
    if first is None:
        raise FlightError("the ring holds no roll yet: nothing to replay from")
    t0 = ents[first][0]
    mark = ents[first][2]
    j = first
    while j > 0 and ents[j - 1][0] == t0:   # the roll press and changes of its scan
        j -= 1
    pos = mark["position"]
    header = {"start": pos.format(), "opponent_goal": head["opponent_goal"],
              "dice_mode": head["dice"], "scan_ms": head["scan_ms"],
              "settle_ms": head["settle_ms"]}
    if bytes(from_position(pos)) != mark["frame"]:
        header["frame"] = to_hex(mark["frame"])
    if board:
        header["board"] = board
    lines = []
    changes = 0
    turns = 0
    k = j
    while k < len(ents):
        t, kind, v = ents[k]
        tm = float(t - t0)
        if kind == "raw":
            lines.append({"t_ms": tm, "pos": position_name(v[0]), "on": v[1]})
            changes += 1
        elif kind == "press":
            nxt = ents[k + 1] if k + 1 < len(ents) else None
            if v[0] == "roll" and nxt is not None and nxt[1] == "mark":
                lines.append({"t_ms": tm, "dice": nxt[2]["dice"]})
            line = {"t_ms": tm, "button": v[0]}
            if v[1]:
                line["long"] = True
            lines.append(line)
        else:
            turns += 1
            if k == first and (k == j or ents[k - 1][1] != "press"):
                # a roll without its press in the ring (a host roll recorded late)
                lines.append({"t_ms": tm, "dice": v["dice"]})
                lines.append({"t_ms": tm, "button": "roll"})
        k += 1
    span = (ents[-1][0] - t0) + head["age_ms"]
    return Trace(header, lines), {"changes": changes, "span_ms": span, "turns": turns,
                                  "why": head["why"]}
