"""The test VM is what the heap tests assume, and heaputil works.

On a 32-bit MicroPython (the Pico, the WebAssembly port under make test-wasm) small ints
end at 2**30 - 1: the rules engine's 24-bit lane masks stay off the heap, an int above
2**31 does not.  The Unix port is 64-bit: there the second check is skipped (the test
returns early), so this file passes on both VMs and on CPython.
"""
import sys

from heaputil import assert_no_alloc, heap_growth, is_32bit, is_micropython

try:
    import micropython
except ImportError:
    micropython = None


def _lane_masks(r, s, n):
    # Rotate, combine and count 24-bit masks n times; every value stays below 2**24
    # (r * 5 + 1 below 2**27), so on any MicroPython all of it is small-int arithmetic.
    acc = 0
    for _ in range(n):
        r = ((r & 0xFFF) << 12) | (r >> 12)
        s = (s >> 1) | ((s & 1) << 23)
        both = r & s
        acc ^= (r | s) & ~both & 0xFFFFFF
        r = (r * 5 + 1) & 0xFFFFFF
    return acc


def _shift(x, n):
    return x << n


def _noop():
    return None


def _make_buffer(n):
    return bytearray(n)


def _shift_allocates(x, n):
    # True when x << n raised MemoryError under heap_lock (x, n arrive at run time,
    # so the compiler cannot fold the result into a constant).
    micropython.heap_lock()
    try:
        y = x << n
    except MemoryError:
        return True
    finally:
        micropython.heap_unlock()
    return y < 0  # False: it fitted in a small int


def test_word_size_matches_sys_maxsize():
    if is_32bit():
        assert sys.maxsize == (1 << 31) - 1
    else:
        assert sys.maxsize >= (1 << 62) - 1


def test_24_bit_mask_arithmetic_allocates_nothing():
    expected = _lane_masks(0xABCDEF, 0x123456, 500)
    assert assert_no_alloc(_lane_masks, 0xABCDEF, 0x123456, 500) == expected
    if heap_growth(_lane_masks, 0xABCDEF, 0x123456, 500) not in (None, 0):
        raise AssertionError("mask arithmetic grew the heap")


def test_int_above_2_31_allocates_on_a_32_bit_vm():
    if micropython is None or not is_32bit():
        return  # CPython or the 64-bit Unix port: ints this size are heap-free there
    assert assert_no_alloc(_shift, 1, 29) == 1 << 29          # largest small power of 2
    assert _shift_allocates(1, 31)                           # 2**31: a heap object
    assert _shift_allocates(1, 30)                           # so is 2**30 already
    assert heap_growth(_shift, 1, 31) > 0


def test_assert_no_alloc_reports_an_allocation_and_unlocks():
    if micropython is None:
        assert assert_no_alloc(_make_buffer, 4) == bytearray(4)  # CPython: a plain call
        return
    try:
        assert_no_alloc(_make_buffer, 64)
    except AssertionError as e:
        assert "_make_buffer" in str(e), str(e)
    else:
        raise AssertionError("assert_no_alloc missed an allocation")
    assert len(bytearray(100)) == 100                        # the heap is unlocked again
    assert assert_no_alloc(_noop) is None


def test_heap_growth_counts_bytes():
    grown = heap_growth(_make_buffer, 1000)
    if not is_micropython():
        assert grown is None
        return
    assert 1000 <= grown <= 1100, grown
    assert heap_growth(_noop) == 0
