"""Heap checks for tests that run on MicroPython (Unix and WebAssembly ports) and CPython.

- assert_no_alloc(fn, *args): calls fn(*args) under micropython.heap_lock(), so any heap
  allocation raises MemoryError; turns that into an AssertionError naming fn.  Returns
  what fn returned.  The heap is always unlocked afterwards.  On CPython (no
  micropython module) it simply calls fn.
- heap_growth(fn, *args): bytes the MicroPython heap grew by while fn(*args) ran
  (gc.collect() first, automatic collection off during the call, gc.mem_alloc()
  before and after).  None on CPython.
- is_32bit(): True on a 32-bit VM (the Pico, the WebAssembly port), where small ints end
  at 2**30 - 1; the Unix port is 64-bit and keeps ints up to about 2**62 off the heap.

fn is called with up to 6 plain positional arguments: a call written fn(*args) would
itself allocate its argument array on MicroPython, so the helpers never do that.
Functions that allocate lazily on first use (caches, growing buffers) should be called
once before being checked.  Values the check depends on must reach fn at run time (as
arguments or from objects): the compiler folds constant expressions such as
(1 << 31) + 5 into a ready-made object while compiling, outside the lock.

A heap-free proof only holds on the 32-bit VM for ints between 2**30 and 2**62: run such
tests under tools/upy32/run.mjs as well (make test-wasm).
"""
import gc
import sys

try:
    import micropython
except ImportError:  # CPython
    micropython = None

_MAX_ARGS = 6


def is_micropython():
    return sys.implementation.name == "micropython"


def is_32bit():
    """True when the running VM has 32-bit words (sys.maxsize == 2**31 - 1)."""
    return sys.maxsize <= 0x7FFFFFFF


def _call(fn, args):
    # Fixed-arity calls: fn(*args) would allocate the argument array on MicroPython.
    n = len(args)
    if n == 0:
        return fn()
    if n == 1:
        return fn(args[0])
    if n == 2:
        return fn(args[0], args[1])
    if n == 3:
        return fn(args[0], args[1], args[2])
    if n == 4:
        return fn(args[0], args[1], args[2], args[3])
    if n == 5:
        return fn(args[0], args[1], args[2], args[3], args[4])
    if n == 6:
        return fn(args[0], args[1], args[2], args[3], args[4], args[5])
    raise TypeError("heaputil: at most %d arguments" % _MAX_ARGS)


def _name(fn):
    return getattr(fn, "__name__", None) or repr(fn)


def assert_no_alloc(fn, *args):
    """Call fn(*args) with the heap locked; AssertionError if it allocated.

    Returns fn's result.  Exceptions other than the lock's MemoryError pass through.
    """
    if len(args) > _MAX_ARGS:
        raise TypeError("heaputil: at most %d arguments" % _MAX_ARGS)
    if micropython is None or not hasattr(micropython, "heap_lock"):
        return _call(fn, args)
    allocated = False
    result = None
    micropython.heap_lock()
    try:
        result = _call(fn, args)
    except MemoryError:
        allocated = True
    finally:
        micropython.heap_unlock()
    if allocated:
        raise AssertionError("%s allocated on the heap (MemoryError under heap_lock)"
                             % _name(fn))
    return result


def heap_growth(fn, *args):
    """Bytes allocated on the MicroPython heap while fn(*args) ran; None on CPython.

    Counts everything fn allocated that is not freed by the time it returns (no
    collection runs during the call), rounded up to the heap's 16-byte blocks on
    32-bit builds (32 on 64-bit).
    """
    if len(args) > _MAX_ARGS:
        raise TypeError("heaputil: at most %d arguments" % _MAX_ARGS)
    if not hasattr(gc, "mem_alloc"):
        return None
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        _call(fn, args)
        after = gc.mem_alloc()
    finally:
        if was_enabled:
            gc.enable()
    return after - before
