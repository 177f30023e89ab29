"""The flight recorder's write path (boardcore.flight) compiled by MicroPython's viper
emitter: one call writes every raw change of a scan (or one press / turn mark) into the
ring and counts the sensor health, in machine code (about 20 times faster than the
bytecode of boardcore.flight_py, which gives the same bytes where the VM has no viper).

Frozen into the firmware image as ARMv6-M machine code; in the development bundle it
ships as source (tools/build_firmware.py AS_SOURCE: a .mpy with viper code loads only
on the MicroPython version that compiled it).  boardcore.flight imports this inside
try/except and falls back to boardcore.flight_py.
"""
import micropython

_MARK = const(0xF0)
_GAP = const(0xFE)
_PAD = const(0xFF)
_MAX_DT = const(0xFFFF)
_HALF = const(0x20000000)
_RING = const(284)       # boardcore.flight: offset of the ring in Flight.mem


@micropython.viper
def bind(fl):
    """Keep the addresses of fl.old and fl.sett (the debounce's raw and settled
    frames: bytearray(8) that never grow, and MicroPython's collector does not move
    objects) in fl.mem, so changes() reads them without an attribute lookup."""
    s32 = ptr32(fl.mem)
    a = uint(ptr8(fl.old))
    s32[3] = a
    s32[4] = a >> 16 >> 16       # the high half on a 64-bit VM (0 on the Pico)
    a = uint(ptr8(fl.sett))
    s32[5] = a
    s32[6] = a >> 16 >> 16


@micropython.viper
def changes(fl, now: int, raw) -> int:
    """Flight.changes (boardcore.flight): the entries of every bit of `raw` that differs
    from the debounce's raw frame (fl.old, its address kept by bind) at `now` (ms), with the health counts; or,
    when fl.mem[5] holds an entry code >= 0x80 (a press, a turn mark), that one entry
    (raw unused).  Returns the ring offset of the last entry written.  The layout of
    fl.mem is boardcore.flight's."""
    m = ptr8(fl.mem)
    s = ptr16(uint(m))           # s[0] head, s[1] tail, s[3] size, s[14 + p] counts
    s32 = ptr32(uint(m))         # s32[2] time of the newest entry
    b = ptr8(uint(m) + _RING)    # the ring
    one = int(m[5])
    r = m
    o = m
    se = m
    stray = 0
    k = 8
    if one:
        m[5] = 0
    else:
        r = ptr8(raw)
        o = ptr8(uint(s32[3]) | uint(s32[4]) << 16 << 16)
        se = ptr8(uint(s32[5]) | uint(s32[6]) << 16 << 16)
        if fl.still():           # samsara.core.Board.still: no marble may move
            stray = 1
        k = 0
    size = int(s[3])
    x = 0
    p = 0
    h = 0
    while True:
        if one:
            code = one
            n = 20 if one == _MARK else 3
            one = 0
        else:
            while x == 0 and k < 8:      # the next byte with a change
                x = r[k] ^ o[k]
                p = k << 3
                k += 1
            if x == 0:
                break
            while (x & 1) == 0:
                x >>= 1
                p += 1
            code = p | ((r[p >> 3] >> (p & 7)) & 1) << 6
            n = 3
        d = now - int(s32[2])            # ticks_diff on the 2**30 period
        if d >= _HALF:
            d = d - _HALF - _HALF
        elif d < 0 - _HALF:
            d = d + _HALF + _HALF
        if d < 0:
            d = 0
        s32[2] = now
        while True:                      # gap entries first, then the entry
            if d > _MAX_DT:
                e = _GAP
                dd = _MAX_DT
                w = 3
                d -= _MAX_DT
            else:
                e = code
                dd = d
                w = n
                d = -1
            hh = int(s[0])
            if hh + w > size:            # wrap: drop what is beyond, pad the rest
                while m[4] == 0 and int(s[1]) >= hh:
                    t = int(s[1])
                    t += 20 if b[t] == _MARK else 3
                    if t != int(s[0]):
                        if t >= size:
                            t = 0
                        elif b[t] == _PAD:
                            t = 0
                    if t == int(s[0]):
                        m[4] = 1
                    s[1] = t
                if hh < size:
                    b[hh] = _PAD
                hh = 0
                s[0] = 0
            while m[4] == 0 and hh <= int(s[1]) and int(s[1]) < hh + w:
                t = int(s[1])                # drop the oldest entry
                t += 20 if b[t] == _MARK else 3
                if t != int(s[0]):
                    if t >= size:
                        t = 0
                    elif b[t] == _PAD:
                        t = 0
                if t == int(s[0]):
                    m[4] = 1
                s[1] = t
            m[4] = 0
            b[hh] = e
            b[hh + 1] = dd & 0xFF
            b[hh + 2] = dd >> 8
            s[0] = hh + w
            h = hh
            if d < 0:
                break
        if code < 0x80:                  # a raw change: the health counts
            q = code & 63
            if ((se[q >> 3] >> (q & 7)) & 1) == (code >> 6) and s[14 + q] < _MAX_DT:
                s[14 + q] += 1            # back to the settled value: a bounce
            if stray and s[78 + q] < _MAX_DT:
                s[78 + q] += 1           # nothing may move: a stray
            x >>= 1
            p += 1
    return h
