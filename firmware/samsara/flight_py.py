"""The flight recorder's write path (samsara.flight) in plain Python, for the VMs
without the viper emitter (CPython with the fakes, the WebAssembly port).  Its one job
is to give byte for byte what samsara.flight_viper.changes gives (tests/upy/
upy_test_flight.py compares the two); the Pico loads the viper one and never this.
"""

from samsara.debounce import ticks_diff
from samsara.states import WAITING, TURN_COMPLETE

_MARK = 0xF0
_GAP = 0xFE
_PAD = 0xFF
_MAX_DT = 0xFFFF


def changes(fl, now, raw):
    """samsara.flight_viper.changes in bytecode (same arguments, result and bytes)."""
    one = fl.st[5]
    if one:
        fl.st[5] = 0
        return _put(fl, now, one, 20 if one == _MARK else 3)
    old = fl.deb.raw
    st = fl.ctl.state
    stray = st == WAITING or st == TURN_COMPLETE
    h = 0
    for i in range(8):
        x = raw[i] ^ old[i]
        rv = raw[i]
        p = i << 3
        while x:
            if x & 1:
                h = _put(fl, now, p | (rv & 1) << 6, 3)
                _count(fl, p, rv & 1, stray)
            x >>= 1
            rv >>= 1
            p += 1
    return h


def _count(fl, p, on, stray):
    c = fl.cnt
    if ((fl.deb.settled[p >> 3] >> (p & 7)) & 1) == on and c[p] < _MAX_DT:
        c[p] += 1
    if stray and c[p + 64] < _MAX_DT:
        c[p + 64] += 1


def _put(fl, now, code, n):
    # an entry of n bytes starting code, dt (gap entries first); returns its offset
    s = fl.st
    dt = ticks_diff(now, s[3])
    if dt < 0:
        dt = 0
    while dt > _MAX_DT:
        _put3(fl, _GAP, _MAX_DT, 3)
        dt -= _MAX_DT
    s[3] = now
    return _put3(fl, code, dt, n)


def _put3(fl, code, dt, n):
    h = _room(fl, n)
    b = fl.buf
    b[h] = code
    b[h + 1] = dt & 0xFF
    b[h + 2] = dt >> 8
    fl.st[0] = h + n
    return h


def _room(fl, n):
    # n bytes free at the head (wrapping with a pad, dropping the oldest entries)
    s = fl.st
    size = s[4]
    h = s[0]
    if h + n > size:
        while not s[2] and s[1] >= h:
            _drop(fl)
        if h < size:
            fl.buf[h] = _PAD
        h = 0
        s[0] = 0
    while not s[2] and h <= s[1] < h + n:
        _drop(fl)
    s[2] = 0
    return h


def _drop(fl):
    # forget the oldest entry
    s = fl.st
    b = fl.buf
    t = s[1]
    t += 20 if b[t] == _MARK else 3
    if t != s[0] and (t >= s[4] or b[t] == _PAD):
        t = 0
    if t == s[0]:
        s[2] = 1
    s[1] = t
