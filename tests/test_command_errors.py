"""Run tests/upy/upy_test_command_errors.py (the texts of the board's errors for a bad host
line, docs/protocol.md "Error codes") under CPython too; `make test-upy` and
`make test-wasm` run the same functions under MicroPython, so both give the same reply."""
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
for p in (os.path.join(HERE, "fakes"), os.path.join(HERE, "upy")):
    if p not in sys.path:
        sys.path.insert(0, p)

import upy_test_command_errors as texts  # noqa: E402

TESTS = sorted(n for n in dir(texts) if n.startswith("test_"))


@pytest.mark.parametrize("name", TESTS)
def test_command_errors(name):
    getattr(texts, name)()
