"""Run tests/upy/upy_test_main.py (firmware/main.py on the fake hardware, complete
simulated games) under CPython too; `make test-upy` runs the same functions under the
MicroPython Unix port."""
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for p in (os.path.join(ROOT, "firmware"), os.path.join(HERE, "fakes"), os.path.join(HERE, "upy")):
    if p not in sys.path:
        sys.path.insert(0, p)

import upy_test_main as sim  # noqa: E402

TESTS = sorted(n for n in dir(sim) if n.startswith("test_"))


@pytest.mark.parametrize("name", TESTS)
def test_main_sim(name):
    getattr(sim, name)()
