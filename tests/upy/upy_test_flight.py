"""The flight recorder's scan path (boardcore.flight) on MicroPython: recording raw
changes allocates nothing (heap_lock) and puts no call frame on the heap (no collection
with a low threshold), across a wrap of the ring; the viper write path
(boardcore.flight_viper) and the bytecode one (boardcore.flight_py) give the same bytes."""

from heaputil import assert_no_alloc
from samsara.core import Board
from boardcore.flight import Flight


def _setup():
    board = Board()
    fl = Flight(board, size=256)
    raw = bytearray(board.debounce.raw)
    return board, fl, raw


def _run(board, fl, raw, t0, n):
    # n scans, each toggling two bits (a bounce on 7 and a stray on 20), as the loop
    # does it: the hook before the tick
    t = t0
    k = 0
    while k < n:
        t += 4
        raw[0] ^= 0x80
        raw[2] ^= 0x10
        fl.changes(t, raw)
        board.tick(t, raw)
        k += 1
    return t


def test_recording_changes_allocates_nothing():
    board, fl, raw = _setup()
    t = _run(board, fl, raw, 0, 200)   # wrapped the ring many times already
    fl.press(t, "roll")
    t = assert_no_alloc(_run, board, fl, raw, t, 300)
    assert_no_alloc(fl.press, t, "undo", True)
    assert fl.counts(7)[0] > 100 and fl.counts(20)[1] > 100


def test_recording_changes_causes_no_collection():
    import gc
    if not hasattr(gc, "threshold"):
        return                         # CPython: nothing to prove
    board, fl, raw = _setup()
    t = _run(board, fl, raw, 0, 100)
    fl_ = fl.changes   # noqa: F841 (bound method made outside the measured part)
    gc.collect()
    gc.threshold(256)
    try:
        g = bytearray(4000)
        g = None
        free0 = gc.mem_free()
        k = 0
        while k < 300:
            t += 4
            raw[0] ^= 0x80
            raw[2] ^= 0x10
            fl.changes(t, raw)
            k += 1
        free1 = gc.mem_free()
    finally:
        gc.threshold(-1)
    assert free1 <= free0 + 2000, ("recording made the VM collect", free0, free1)


class _Rng:
    # a small LCG (the Unix port's random has no Random class)
    def __init__(self, seed):
        self.x = seed * 7919 + 12345

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 4) % n


def _feed(changes, seed, size):
    # 3000 random writes (raw changes, presses, turn marks, long gaps, a wrapping
    # clock) through `changes`; returns the ring, its state and the health counts
    rng = _Rng(seed)
    board = Board()
    fl = Flight(board, size=size)
    deb = board.debounce
    raw = bytearray(8)
    steps = (0, 1, 5, 200, 70000, 300000)
    t = 0x3FFF0000
    k = 0
    while k < 3000:
        t = (t + steps[rng.below(6)]) & 0x3FFFFFFF
        r = rng.below(100)
        if r < 5:
            fl.mem[5] = 0xF0
            h = changes(fl, t, None)
            fl.buf[h + 3] = k & 0xFF           # the mark's body, as Flight._mark
        elif r < 15:
            fl.mem[5] = 0x80 | rng.below(4)
            changes(fl, t, None)
        else:
            n = 1 + rng.below(3)
            while n:
                raw[rng.below(8)] ^= 1 << rng.below(8)
                n -= 1
            changes(fl, t, raw)
            if rng.below(2):
                deb.raw[:] = raw
            if rng.below(10) == 0:
                deb.settled[rng.below(8)] ^= 1 << rng.below(8)
            if rng.below(20) == 0:
                board.controller.state = ("waiting", "turn_complete", "moving")[rng.below(3)]
        k += 1
    return bytes(fl.mem[0:12]) + bytes(fl.mem[28:])


def test_viper_and_bytecode_write_the_same_bytes():
    from samsara.states import WAITING, TURN_COMPLETE
    assert (WAITING, TURN_COMPLETE) == ("waiting", "turn_complete")   # in flight_viper
    try:
        from boardcore.flight_viper import changes as viper
    except (ImportError, SyntaxError, NameError, AttributeError):
        return                         # no viper emitter here (WebAssembly port)
    from boardcore.flight_py import changes as pure
    for seed in range(3):
        for size in (97, 256, 768):
            a = _feed(viper, seed, size)
            b = _feed(pure, seed, size)
            assert a == b, ("viper and bytecode differ", seed, size)
            assert a[12:268] != bytes(256), "no health counted"
