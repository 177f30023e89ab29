"""Device heap probe of a roll's host lines and of a turn's end: runs ON the board (the
emulated Pico) at its REPL through `python -m tools.profile_device --script
tools/upy_heap_lines.py`.  Not in the bundle.

For each step it prints
    HEAP <step> alloc=<bytes allocated, garbage included> kept=<bytes still used after
         a collection> low=<free bytes right after the step, before any collection>
measured with the automatic collections off (gc.disable()), after a collection and the
on-demand modules dropped (as at the loop's quiet moment).  The steps are the ones the
rig's played games meet at a roll (`set_dice`, `roll`, `position` lines, each after a
quiet moment, so each loads the command module again) and a turn's end.  Used for
docs/performance.md "Sixth round".
"""
import gc

import mainloop as _NS
from samsara.frame import from_position, position_index, put

# (tools/upy_devkit.py, sent before this text: board, hw, clock, services, loop, feed,
# bench_end)
link = services.link
link.loop = None            # no waiting for calm(): the probe collects itself
period = loop.period
loop._scan = feed.scan
now = 100000
rid = 0


def quiet():
    # what the loop's quiet moment does: the on-demand modules dropped, a collection
    _NS.drop_modules(_NS.ON_DEMAND_MODULES)
    gc.collect()


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
    def go():
        global rid
        rid += 1
        b = (text % rid).encode()
        link.rx[0:len(b)] = b
        link._line(len(b))
        link.tx_len = 0          # the reply is not written out (no host reads it)
    return go


def ticks(n):
    def go():
        global now
        for _ in range(n):
            now += period
            loop.once(now)
    return go


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


try:
    for cyc in range(2):
        board.new_game(now_ms=now)
        f = from_position(board.controller.game.pos)
        for i in range(8):
            feed.f[i] = f[i]
        ticks(3)()
        loop.dirty = False
        loop.unwritten = False
        services.recorder.flush()
        quiet()
        print("HEAP floor free=%d" % gc.mem_free())
        measure("import commands", lambda: __import__("samsara.link.commands"))
        measure("set_dice line", line('{"cmd": "set_dice", "id": %d, "dice": [2, 2]}'))
        measure("roll line", line('{"cmd": "roll", "id": %d}'))
        measure("position line", line('{"cmd": "position", "id": %d}'))
        measure("status line", line('{"cmd": "status", "id": %d}'))
        measure("position line (loaded)", line('{"cmd": "position", "id": %d}'), drop=False)
        measure("sub-move R1-S15", settle("R1", "S15"))
        measure("sub-move R5-R7 + complete", settle("R5", "R7"))
        measure("ticks to quiet write", ticks(70))
        measure("set_dice line", line('{"cmd": "set_dice", "id": %d, "dice": [3, 1]}'))
        measure("roll line (commit+roll)", line('{"cmd": "roll", "id": %d}'))
        measure("events out", ticks(6), drop=False)
        quiet()
    # the game's end: a goal making A's score 6 (tools/upy_profile_moves.py "final")
    FINAL = (("R5", "R6"), ("S22", "GS"), ("GS", "S7"), ("A5", "AC"))

    def final_game():
        global now
        board.new_game(position="ooooo.................../oooooo...............o.. 5-0 A",
                       now_ms=now)
        f = from_position(board.controller.game.pos)
        for i in range(8):
            feed.f[i] = f[i]
        board.set_dice(1, 3)
        board.press(now, "roll")
        ticks(8)()

    final_game()
    for a, b in FINAL:
        measure("final: %s-%s" % (a, b), settle(a, b))
    print("HEAP state", board.controller.state)
    ticks(70)()       # (a loop's quiet moment: the end recorded on the Pico, its lines out)
    print("HEAP state", board.controller.state, "pending", len(services.recorder.pending))
    measure("end write (flush)", services.recorder.flush)
    measure("import logrecord", lambda: __import__("samsara.storage.logrecord"))
    measure("import logends", lambda: __import__("samsara.storage.logends"))
    measure("status line", line('{"cmd": "status", "id": %d}'))
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
