"""Device heap probe of a roll's host lines and of a turn's end: runs ON the board (the
emulated Pico) at its REPL through `python -m tools.profile_device --script
tools/upy_heap_lines.py`.  Not in the bundle.

For each step it prints
    HEAP <step> alloc=<bytes allocated, garbage included> kept=<bytes still used after
         a collection> low=<free bytes right after the step, before any collection>
measured with the automatic collections off (gc.disable()), after a collection and the
on-demand modules dropped (as at the loop's quiet moment).  The steps are the ones the
rig's played games meet at a roll (`set_dice`, `roll`, `position` lines, each after a
quiet moment, so each loads the command module again) and a turn's end.  Then, tick by
tick with the automatic collections off (the loop's own quiet collections still run):

    HEAP end tick K: <free before> -> <free after> ...   a game's end, each quiet piece
    HEAP walk A-B lift|place+MS: ... <tick's ms> ...      turns at a hand's pace (lift,
                                                         300 ms, place, 400 ms): every
                                                         tick that moved the heap by
                                                         more than 256 B or took 7.5 ms
    HEAP roll press (commit, roll) alloc=...             a roll press with its commit

Used for docs/performance.md "Sixth round" and "Seventh round".
"""
import gc
import time

import mainloop as _NS
from samsara.frame import from_position, position_index, put

# (tools/upy_devkit.py, sent before this text: board, hw, clock, loop, feed,
# bench_end and the probe helpers)
probe_link()         # (tools/upy_devkit.py: quiet, host_line, run_ticks, now)
period = loop.period


def measure(label, fn, drop=True):
    if drop:
        quiet()
    else:
        gc.collect()
    f0 = gc.mem_free()
    a0 = gc.mem_alloc()
    gc.disable()
    try:
        fn()
    finally:
        a1 = gc.mem_alloc()
        f1 = gc.mem_free()
        gc.enable()
    gc.collect()
    f2 = gc.mem_free()
    print("HEAP %-28s alloc=%5d kept=%5d low=%6d free0=%6d" % (label, a1 - a0, f0 - f2, f1, f0))


def line(text):
    return lambda: host_line(text)


def ticks(n):
    return lambda: run_ticks(n)


def settle(a, b):
    # lift a, place b, and the ticks until the placement settled and went out
    def go():
        global now
        put(feed.f, position_index(a), 0)
        for _ in range(4):
            now += period
            loop.once(now)
        put(feed.f, position_index(b), 1)
        for _ in range(45):
            now += period
            loop.once(now)
    return go


LIFT_PLACE = ("lift", "place")


def set_up(position=None):
    # a new game (position text or the start), its frame what the scanner reads
    board.new_game(position=position, now_ms=now)
    f = from_position(board.controller.game.pos)
    for i in range(8):
        feed.f[i] = f[i]


def traced_tick(show, label, p1=0, p2=0, p3=0, p4=0):
    # One loop iteration; printed (label % p1.. as many as it takes: formatted only
    # then, and no *args tuple, so the probe's own garbage does not count in the heap
    # it measures) with its heap change, its time
    # and the quiet pieces it ran when it moved the free heap by more than `show`
    # bytes, ran a quiet piece or took over 7.5 ms.  Returns the free heap after it.
    global now
    f0 = gc.mem_free()
    n0 = len(loop.recorder.pending)
    q0 = loop.stats.quiet
    now += period
    u0 = time.ticks_us()
    loop.once(now)
    us = time.ticks_diff(time.ticks_us(), u0)
    f1 = gc.mem_free()
    dq = loop.stats.quiet - q0
    if abs(f1 - f0) > show or dq or us > 7500:
        print("HEAP %s: %6d -> %6d (%+5d) %5.1f ms pending %d->%d quiet %d state %s" % (
            label % (p1, p2, p3, p4)[:label.count("%")], f0, f1, f1 - f0, us / 1000, n0, len(loop.recorder.pending), dq,
            board.controller.state))
    return f1


try:
    for cyc in range(2):
        set_up()
        ticks(3)()
        loop.dirty = False
        loop.unwritten = False
        loop.recorder.flush()
        quiet()
        print("HEAP floor free=%d" % gc.mem_free())
        measure("import commands", lambda: __import__("boardcore.link.commands"))
        measure("set_dice line", line('{"cmd": "set_dice", "id": ID, "dice": [2, 2]}'))
        measure("roll line", line('{"cmd": "roll", "id": ID}'))
        measure("position line", line('{"cmd": "position", "id": ID}'))
        measure("status line", line('{"cmd": "status", "id": ID}'))
        measure("position line (loaded)", line('{"cmd": "position", "id": ID}'), drop=False)
        measure("sub-move R1-S15", settle("R1", "S15"))
        measure("sub-move R5-R7 + complete", settle("R5", "R7"))
        measure("ticks to quiet write", ticks(70))
        measure("set_dice line", line('{"cmd": "set_dice", "id": ID, "dice": [3, 1]}'))
        measure("roll line (commit+roll)", line('{"cmd": "roll", "id": ID}'))
        measure("events out", ticks(6), drop=False)
        quiet()
    # the game's end: a goal making A's score 6 (tools/upy_profile_moves.py "final")
    FINAL = (("R5", "R6"), ("S22", "GS"), ("GS", "S7"), ("A5", "AC"))

    def final_game():
        set_up("ooooo.................../oooooo...............o.. 5-0 A")
        board.set_dice(1, 3)
        board.press(now, "roll")
        ticks(8)()

    final_game()
    for a, b in FINAL:
        measure("final: %s-%s" % (a, b), settle(a, b))
    print("HEAP state", board.controller.state)
    # The game's end tick by tick, the automatic collections off (the quiet moments'
    # own collections still run): free heap after each tick that changed it, with what
    # the loop did in it (the rig samples this every 100 ms: its lowest point is here).
    gc.collect()
    gc.disable()
    try:
        for k in range(90):
            traced_tick(0, "end tick %2d", k)
    finally:
        gc.enable()
    print("HEAP state", board.controller.state, "pending", len(loop.recorder.pending))
    measure("import logrecord", lambda: __import__("boardcore.storage.logrecord"))
    measure("status line", line('{"cmd": "status", "id": ID}'))
    # The final turn again at a hand's pace (lift, 300 ms, place, 400 ms), tick by tick
    # with the automatic collections off: each tick that moved the free heap by more
    # than 256 B, what the loop was doing, and the turn's lowest point.
    def walk(a, b, lift_ms=300, rest_ms=400):
        lo = gc.mem_free()
        for k, (pos, on, ms) in enumerate(((a, 0, lift_ms), (b, 1, rest_ms))):
            put(feed.f, position_index(pos), on)
            t0 = now
            while now - t0 < ms:
                f1 = traced_tick(256, "walk %s-%s %s+%3d ms", a, b, LIFT_PLACE[k],
                                 now + period - t0)
                if f1 < lo:
                    lo = f1
        return lo

    # The last turn of the rig's seed-1 game of tools/heap_timeline.py (its lowest
    # point came in the air of R22-GR): B to play 4:S13-R5 3:R22-GR*R1.
    set_up(".oo.........o......o.o../o..o........ooooo....... 4-5 B")
    ticks(100)()
    board.set_dice(3, 4)
    board.press(now, "roll")
    ticks(70)()
    gc.collect()
    gc.disable()
    try:
        low = gc.mem_free()
        for a, b in (("S13", "R5"), ("R22", "GR"), ("GR", "R1"), ("B5", "BC")):
            low = min(low, walk(a, b))
    finally:
        gc.enable()
    gc.collect()
    print("HEAP walk (rig's last turn) lowest %d, after %d, state %s" % (
        low, gc.mem_free(), board.controller.state))

    # A turn in the game's middle at a hand's pace: its quiet moment's log write.
    set_up()
    ticks(100)()
    for d, moves in (((3, 1), (("R3", "S16"), ("R4", "R7"))),
                     ((2, 5), (("R1", "R3"), ("R2", "S19"))),
                     ((4, 2), (("R3", "S17"), ("R5", "R9")))):
        board.set_dice(d[0], d[1])
        measure("roll press (commit, roll)", lambda: board.press(now, "roll"), drop=False)
        measure("its events out", ticks(3), drop=False)
        gc.collect()
        gc.disable()
        try:
            for a, b in moves:
                walk(a, b)
            for k in range(150):
                traced_tick(256, "walk turn's end +%3d ms", (k + 1) * period)
        finally:
            gc.enable()

    final_game()
    gc.collect()
    gc.disable()
    try:
        low = gc.mem_free()
        for a, b in FINAL:
            low = min(low, walk(a, b))
        for _ in range(300):
            now += period
            loop.once(now)
            low = min(low, gc.mem_free())
    finally:
        gc.enable()
    gc.collect()
    print("HEAP walk lowest %d, after %d, state %s" % (low, gc.mem_free(), board.controller.state))

    # How much the last step passes through the allocator, freed call frames included
    # (they count towards gc.threshold but not in mem_alloc): the smallest threshold
    # that lets it run without an automatic collection.
    for kb in (4, 6, 8, 10, 12, 14, 16, 20, 24):
        final_game()
        for a, b in FINAL[:3]:
            settle(a, b)()
        quiet()
        gc.threshold(kb * 1024)
        junk = bytearray(3000)
        junk = None
        a0 = gc.mem_alloc()
        settle(*FINAL[3])()
        a1 = gc.mem_alloc()
        gc.threshold(_NS.GC_THRESHOLD)
        print("HEAP threshold %2d KB: last step net %5d -> %s" % (
            kb, a1 - a0, "collected" if a1 - a0 < 1000 else "no collection"))
finally:
    bench_end()
    print("BENCH done 0")
