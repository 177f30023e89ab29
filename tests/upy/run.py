"""Run the MicroPython-compatible tests (modules named upy_test_*.py) under any VM.

Each module defines functions named test_*; a failing assert or an exception fails
the test.  Prints one line per failure and the closing line 'upy: N passed, N failed'.
Exits 1 when any test failed.  Works on the micropython Unix port, the WebAssembly
port and CPython alike (it uses only builtins, os and sys).

Usage: MICROPYPATH=firmware:tests/upy micropython tests/upy/run.py [module ...]
"""
import sys

try:
    import os
    _names = os.listdir(__file__.rsplit("/", 1)[0] if "/" in __file__ else ".")
except Exception:  # no os.listdir: pass the module names as arguments
    _names = []

try:
    from micropython import heap_lock as _lock, heap_unlock as _unlock
except ImportError:  # CPython
    _lock = None


def _unlock_heap():
    # A test that stopped under micropython.heap_lock() may leave the heap locked,
    # which would fail the report (it allocates) and the tests after it.
    if _lock is not None:
        _lock()
        while _unlock():  # returns the remaining lock depth
            pass


def _modules(argv):
    if len(argv) > 1:
        return argv[1:]
    mods = [n[:-3] for n in _names if n.startswith("upy_test_") and n.endswith(".py")]
    mods.sort()
    return mods


def run(mod_names):
    passed = 0
    failed = 0
    for name in mod_names:
        mod = __import__(name)
        tests = [k for k in dir(mod) if k.startswith("test_")]
        tests.sort()
        for t in tests:
            try:
                getattr(mod, t)()
                _unlock_heap()
                passed += 1
            except Exception as e:  # report and go on
                _unlock_heap()
                failed += 1
                print("FAIL %s.%s: %s %s" % (name, t, type(e).__name__, e))
                if hasattr(sys, "print_exception"):
                    sys.print_exception(e)
    bits = 64 if sys.maxsize > 2 ** 32 else 32
    print("upy (%s %s, %d-bit): %d passed, %d failed" % (
        sys.implementation.name, sys.platform, bits, passed, failed))
    return failed


if __name__ == "__main__":
    sys.exit(1 if run(_modules(sys.argv)) else 0)
