"""pytest set-up: the tests folder is importable (shared helpers), firmware and host
packages come from the editable install."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

# A job started in the background by a non-interactive shell (`make test &`) has SIGINT
# ignored, and an ignored signal stays ignored in every program it starts: the tests that
# press Ctrl-C on `samsara` would then wait in vain.  A handler (not "ignore") is reset to
# the default in each child, as a terminal would have it.
import signal  # noqa: E402

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Running virtual boards are listed in a folder (samsara_host.virtual_board.running_dir)
# that `samsara ports` and every command without --port look into.  The tests' boards
# are listed in a folder of the session's own, and each test sees a folder of its own
# (boards started by a test's module-wide fixtures stay out of its sight): a command
# without --port finds only the boards the test itself started.
import itertools  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402

import pytest  # noqa: E402

_RUNNING = tempfile.mkdtemp(prefix="samsara-test-run-")
os.environ["SAMSARA_RUNTIME_DIR"] = _RUNNING
_n = itertools.count()


@pytest.fixture(autouse=True)
def _own_running_boards(monkeypatch):
    monkeypatch.setenv("SAMSARA_RUNTIME_DIR", os.path.join(_RUNNING, "t%d" % next(_n)))
    yield


def pytest_unconfigure(config):
    shutil.rmtree(_RUNNING, ignore_errors=True)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """A module's one headless Chromium (tests/appbrowser.py), quit after the module;
    skips without a browser (fails under CI=true)."""
    from appbrowser import browser_or_skip
    drv = browser_or_skip(tmp_path_factory.mktemp("chromium"))
    yield drv
    drv.quit()
