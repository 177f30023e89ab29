"""The tests' way to a real Mosquitto: skip where Debian's `mosquitto` is not installed,
except in CI (CI=true), where its absence is a failure (`.ci/run` installs it)."""
import os

import pytest

from samsara_host.online.relay import RelayError, find_mosquitto


def needs_mosquitto():
    """Skip the calling test when no mosquitto binary is found (pytest.skip with the
    relay's words); in CI raise RelayError instead."""
    try:
        find_mosquitto()
    except RelayError as e:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip(str(e))
