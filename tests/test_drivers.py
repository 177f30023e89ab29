"""Run the driver tests of tests/upy/upy_test_drivers.py under CPython too.

The same functions run under the MicroPython Unix port in `make test-upy`; here
pytest reports each one.  The fake hardware modules (tests/fakes) shadow nothing
CPython has: `machine`, `neopixel`, `rp2` exist only there.
"""
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for p in (os.path.join(ROOT, "firmware"), os.path.join(HERE, "fakes"), os.path.join(HERE, "upy")):
    if p not in sys.path:
        sys.path.insert(0, p)

import upy_test_drivers as drivers  # noqa: E402

TESTS = sorted(n for n in dir(drivers) if n.startswith("test_"))


@pytest.mark.parametrize("name", TESTS)
def test_driver(name):
    getattr(drivers, name)()
