"""The Samas and Schaska rules tests (tests/upy/upy_test_samas.py, upy_test_schaska.py)
under the real MicroPython VM (the Unix port, `micropython`), as `make test-upy` runs
them: the rules modules load and give the same answers there as under CPython."""
import os
import subprocess

import pytest

from samsara_host.virtual_board import find_micropython

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

try:
    UPY = find_micropython()
except FileNotFoundError:
    UPY = None


@pytest.mark.skipif(UPY is None, reason="micropython Unix port not installed (make venv)")
@pytest.mark.parametrize("module", ["upy_test_samas", "upy_test_schaska"])
def test_the_rules_tests_pass_under_micropython(module):
    env = dict(os.environ, MICROPYPATH="firmware:tests/upy")
    r = subprocess.run([UPY, "tests/upy/run.py", module], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    last = r.stdout.strip().splitlines()[-1]
    assert last.startswith("upy (micropython") and last.endswith(" 0 failed"), r.stdout
    passed = int(last.split(": ")[1].split(" passed")[0])
    assert passed >= 25, last
