"""The flight recorder's scan path (samsara.flight, samsara.health) on MicroPython:
recording raw changes allocates nothing (heap_lock) and puts no call frame on the heap
(no collection with a low threshold), across a wrap of the ring."""

from heaputil import assert_no_alloc
from samsara.core import Board
from samsara.flight import Flight
from samsara.health import Health


def _setup():
    board = Board()
    fl = Flight(board, Health(board), size=256)
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
    assert fl.health.bounces[7] > 100 and fl.health.strays[20] > 100


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
