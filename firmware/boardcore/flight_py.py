"""The flight recorder's write path (boardcore.flight) in plain Python, for the VMs
without the viper emitter (CPython with the fakes, the WebAssembly port).  Its one job
is to give byte for byte what boardcore.flight_viper.changes gives (tests/upy/
upy_test_flight.py compares the two); the Pico loads the viper one and never this.
"""

from boardcore.ticks import ticks_diff

_MARK = 0xF0
_GAP = 0xFE
_PAD = 0xFF
_MAX_DT = 0xFFFF
_RING = 284


def bind(fl):
    """boardcore.flight_viper.bind: nothing to keep here (changes reads fl.old, fl.sett)."""


def changes(fl, now, raw):
    """boardcore.flight_viper.changes in bytecode (same arguments, result and bytes)."""
    m = fl.mem
    one = m[5]
    if one:
        m[5] = 0
        return _put(m, now, one, 20 if one == _MARK else 3)
    old = fl.old
    stray = fl.still()
    h = 0
    for i in range(8):
        x = raw[i] ^ old[i]
        rv = raw[i]
        p = i << 3
        while x:
            if x & 1:
                h = _put(m, now, p | (rv & 1) << 6, 3)
                if ((fl.sett[i] >> (p & 7)) & 1) == rv & 1:
                    _bump(m, 28 + 2 * p)       # a bounce
                if stray:
                    _bump(m, 156 + 2 * p)      # a stray
            x >>= 1
            rv >>= 1
            p += 1
    return h


def _bump(m, o):
    v = m[o] | m[o + 1] << 8
    if v < _MAX_DT:
        v += 1
        m[o] = v & 0xFF
        m[o + 1] = v >> 8


def _get(m, o):
    return m[o] | m[o + 1] << 8


def _set(m, o, v):
    m[o] = v & 0xFF
    m[o + 1] = v >> 8


def _put(m, now, code, n):
    # an entry of n bytes starting code, dt (gap entries first); returns its offset
    t = m[8] | m[9] << 8 | m[10] << 16 | m[11] << 24
    dt = ticks_diff(now, t)
    if dt < 0:
        dt = 0
    while dt > _MAX_DT:
        _put3(m, _GAP, _MAX_DT, 3)
        dt -= _MAX_DT
    m[8] = now & 0xFF
    m[9] = (now >> 8) & 0xFF
    m[10] = (now >> 16) & 0xFF
    m[11] = now >> 24
    return _put3(m, code, dt, n)


def _put3(m, code, dt, n):
    h = _room(m, n)
    m[_RING + h] = code
    m[_RING + h + 1] = dt & 0xFF
    m[_RING + h + 2] = dt >> 8
    _set(m, 0, h + n)
    return h


def _room(m, n):
    # n bytes free at the head (wrapping with a pad, dropping the oldest entries)
    size = _get(m, 6)
    h = _get(m, 0)
    if h + n > size:
        while not m[4] and _get(m, 2) >= h:
            _drop(m, size)
        if h < size:
            m[_RING + h] = _PAD
        h = 0
        _set(m, 0, 0)
    while not m[4] and h <= _get(m, 2) < h + n:
        _drop(m, size)
    m[4] = 0
    return h


def _drop(m, size):
    # forget the oldest entry
    head = _get(m, 0)
    t = _get(m, 2)
    t += 20 if m[_RING + t] == _MARK else 3
    if t != head and (t >= size or m[_RING + t] == _PAD):
        t = 0
    if t == head:
        m[4] = 1
    _set(m, 2, t)
