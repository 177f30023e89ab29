"""The flight recorder's ring as bytes: the snapshot the host reads and the copies saved
to flash (docs/traces.md "Flight recorder").  Its one job is the snapshot's format
and the saved copies' files; the ring itself is boardcore.flight's, the host's reading of
a snapshot samsara_host.flightpull.

A snapshot is a 16-byte header and the ring's entries oldest first:

    0-1  b"FL"     2  version (1)     3  why (0 live, 1 long repair, 2 two rejected
    placements in a row, 3 flight_save)     4  opponent_goal code (samsara.rules.moves)
    5  dice source (0 electronic, 1 manual, 2 host)     6  scan_ms     7  settle_lift_ms
    8-9  settle_place_ms     10  return_ms     11-14  ms from the newest entry to the
    snapshot     15  0

Saved copies are files ``fl<n>.bin`` (n: 0001..9999) beside the game logs (the log
store ignores them); the newest KEEP are kept.
"""

from boardcore.ticks import ticks_diff
from boardcore.flight import u16, MARK, PAD, WHY_COMMAND

KEEP = 4
"""Saved copies kept on flash (the oldest goes first)."""
_DICE = {"electronic": 0, "manual": 1, "host": 2}


def snapshot(fl, now, why=0):
    """The snapshot of Flight `fl` at `now` (ms) as bytes (module docstring)."""
    cfg = fl.config
    m = fl.mem
    age = ticks_diff(now, m[8] | m[9] << 8 | m[10] << 16 | m[11] << 24)
    if age < 0:
        age = 0
    h = bytearray(16)
    h[0] = 0x46
    h[1] = 0x4C
    h[2] = 1
    h[3] = why
    h[4] = cfg.og
    h[5] = _DICE.get(cfg.dice, 0)
    h[6] = cfg.scan_ms
    h[7] = cfg.settle_lift_ms
    h[8] = cfg.settle_place_ms & 0xFF
    h[9] = cfg.settle_place_ms >> 8
    h[10] = cfg.return_ms
    for i in range(4):
        h[11 + i] = (age >> (8 * i)) & 0xFF
    return bytes(h) + entries(fl)


def entries(fl):
    """The entries of Flight `fl`'s ring oldest first as one bytes object (pads left
    out)."""
    m = fl.mem
    if m[4]:
        return b""
    head = u16(m, 0)
    tail = u16(m, 2)
    size = u16(m, 6)
    b = fl.buf
    if tail < head:
        return bytes(b[tail:head])
    i = tail
    while i < size and b[i] != PAD:   # find the pad of the wrap
        i += 20 if b[i] == MARK else 3
    return bytes(b[tail:i]) + bytes(b[0:head])


def copies(fs):
    """The numbers of the saved copies on file system adapter `fs` (boardcore.storage.
    osfs), oldest first."""
    out = []
    for name in fs.listdir():
        if name[:2] == "fl" and name[-4:] == ".bin":
            try:
                out.append(int(name[2:-4]))
            except ValueError:
                pass
    out.sort()
    return out


def copy_name(n):
    """The file name of saved copy n."""
    return "fl%04d.bin" % n


def save(fl, fs, now, why=0):
    """Write the ring of Flight `fl` to `fs` as the next copy (why: the flight's due
    reason unless given, else WHY_COMMAND); the oldest copies beyond KEEP go.  Returns
    the copy's number; clears the flight's `due`.  The caller emits `flight_saved`."""
    why = why or fl.due or WHY_COMMAND
    fl.due = 0
    have = copies(fs)
    n = (have[-1] + 1) if have else 1
    if n > 9999:
        n = 1
    fs.write_file(copy_name(n), snapshot(fl, now, why))
    have.append(n)
    while len(have) > KEEP:
        fs.remove(copy_name(have.pop(0)))
    return n, why
