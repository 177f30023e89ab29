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
