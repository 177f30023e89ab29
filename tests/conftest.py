"""pytest set-up: the tests folder is importable (shared helpers), firmware and host
packages come from the editable install."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
