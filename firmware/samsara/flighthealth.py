"""The rarely used part of the flight recorder's sensor health (docs/debounce.md
"Sensor health"): the time each position spent in repairs, the save trigger of a long
repair, the self-test's watch, and reading the counts.  Its one job is to keep this
code off the Pico's heap while a game runs: imported by samsara.flight at a repair event
and by samsara.link.flightcmds, dropped again at the next quiet moment
(mainloop.ON_DEMAND_MODULES).  What it adds to a Flight (the repairs' times, the
watch) it allocates at first use.
"""

from array import array

from samsara.debounce import ticks_diff

REPAIR_SAVE_MS = 5000
"""A repair longer than this saves the ring (at the next quiet moment)."""
WHY_REPAIR = 1


def u16(m, o):
    """The little-endian u16 at offset o of bytearray m (Flight.mem)."""
    return m[o] | m[o + 1] << 8


def counts(fl, p):
    """(bounces, strays) of position p counted by Flight `fl` (samsara.flight)."""
    m = fl.mem
    return u16(m, 28 + 2 * p), u16(m, 156 + 2 * p)


# -- the repairs (samsara.flight.Flight.on_event) -------------------------------------

def repair(fl, ev):
    """A `repair` or `repair_end` event of Flight `fl`: a repair longer than
    REPAIR_SAVE_MS asks for a save (fl.due); the time of a repair goes to every
    position it named (missing or extra): fl.rep_ms (array('i') of 64, ms, made at the
    first repair), fl.rep (bytearray(8): the running repair's positions), fl.t_rep
    (its start, or -1)."""
    from samsara.rules.geometry import position_index
    t = ev["t"]
    if getattr(fl, "rep_ms", None) is None:
        fl.rep_ms = array("i", bytes(256))
        fl.rep = bytearray(8)
        fl.t_rep = -1
        fl.t_repair = -1
    if ev["ev"] == "repair":
        if fl.t_repair < 0:
            fl.t_repair = t
    else:
        if fl.t_repair >= 0 and ticks_diff(t, fl.t_repair) > REPAIR_SAVE_MS \
                and not fl.due:
            fl.due = WHY_REPAIR
        fl.t_repair = -1
    _close(fl, t)
    if ev["ev"] == "repair":
        for n in ev.get("missing", ()):
            p = position_index(n)
            fl.rep[p >> 3] |= 1 << (p & 7)
        for n in ev.get("extra", ()):
            p = position_index(n)
            fl.rep[p >> 3] |= 1 << (p & 7)
        fl.t_rep = t


def _close(fl, t):
    if fl.t_rep < 0:
        return
    dt = ticks_diff(t, fl.t_rep)
    for p in range(64):
        if (fl.rep[p >> 3] >> (p & 7)) & 1:
            v = fl.rep_ms[p] + dt
            fl.rep_ms[p] = v if v < 0x3FFFFFFF else 0x3FFFFFFF
    for i in range(8):
        fl.rep[i] = 0
    fl.t_rep = -1


def repair_now(fl, p, now):
    """ms of position p in repairs so far, the running one counted up to `now`."""
    if getattr(fl, "rep_ms", None) is None:
        return 0
    v = fl.rep_ms[p]
    if fl.t_rep >= 0 and (fl.rep[p >> 3] >> (p & 7)) & 1:
        v += ticks_diff(now, fl.t_rep)
    return v


# -- the self-test's watch --------------------------------------------------------------

def start_watch(fl, p):
    """The self-test lights position p: from now on Flight `fl` counts what happens
    (fl.w = [p, on changes, off changes], chatter within the lift settle left out;
    fl.w_other: bytearray(8) of the other positions that changed).  Its `changes`
    becomes a watching one until stop_watch."""
    watching = getattr(fl, "w", None) is not None
    fl.w = [p, 0, 0]
    fl.w_other = bytearray(8)
    if not watching:
        rec = type(fl).changes

        def changes(now, raw):
            _watch(fl, now, raw)
            return rec(fl, now, raw)
        fl.changes = changes


def stop_watch(fl):
    """End the self-test's watch: Flight `fl` records as before."""
    if getattr(fl, "w", None) is not None:
        del fl.changes
        fl.changes = fl.changes      # bound once again (samsara.flight)
    fl.w = None


def _watch(fl, now, raw):
    deb = fl.deb
    old = deb.raw
    w = fl.w
    for p in range(64):
        i = p >> 3
        if not ((raw[i] ^ old[i]) >> (p & 7)) & 1:
            continue
        if ticks_diff(now, deb.t_raw[p]) < deb.settle_lift:
            continue                     # chatter of the change before
        if p != w[0]:
            fl.w_other[i] |= 1 << (p & 7)
        elif (raw[i] >> (p & 7)) & 1:
            w[1] += 1
        else:
            w[2] += 1
