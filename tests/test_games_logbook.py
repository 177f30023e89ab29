"""The Samas and Schaska game logs: tests/upy/upy_test_games_logbook.py under pytest."""
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
for sub in ("upy", "fakes"):
    if os.path.join(HERE, sub) not in sys.path:
        sys.path.insert(0, os.path.join(HERE, sub))

import upy_test_games_logbook as cases  # noqa: E402

CASES = sorted(n for n in dir(cases) if n.startswith("test_"))


@pytest.mark.parametrize("name", CASES)
def test_case(name):
    getattr(cases, name)()
