"""A virtual board's folder stays locked against any death of its launcher (`kill -9`
of `samsara virtual-board` too): its firmware process holds the lock as well, and ends
by itself once no launcher is left, so a second board on the folder is refused while
the first still writes there and accepted once it is gone."""
import os
import signal
import subprocess
import sys
import time

import pytest

from samsara_host.virtual_board import (FolderError, VirtualBoard, _held, find_micropython,
                                        running_boards)

try:
    find_micropython()
    HAVE_UPY = True
except FileNotFoundError:
    HAVE_UPY = False

SAMSARA = os.path.join(os.path.dirname(sys.executable), "samsara")


def _children(pid):
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True,
                         text=True).stdout
    return [int(x) for x in out.split()]


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (not reaped yet by its new parent) is gone for our purpose
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not HAVE_UPY, reason="micropython Unix port not installed")
def test_kill_9_of_the_launcher_keeps_the_folder_locked_until_the_board_ends(tmp_path):
    folder = str(tmp_path / "vb")
    p = subprocess.Popen([SAMSARA, "virtual-board", folder], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    board_pid = None
    try:
        assert p.stdout.readline().startswith("port: ")
        for _ in range(100):
            kids = _children(p.pid)
            if kids:
                board_pid = kids[0]
                break
            time.sleep(0.05)
        assert board_pid is not None
        assert [b["folder"] for b in running_boards()] == [folder]
        p.kill()                      # kill -9: no clean-up in the launcher at all
        p.wait(10)
        if _alive(board_pid):
            # the orphan still runs: the folder is still its own
            assert _held(folder)
            with pytest.raises(FolderError, match="another virtual board runs in"):
                VirtualBoard(folder=folder)
        deadline = time.monotonic() + 20
        while _alive(board_pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(board_pid), "the board's process outlived its launcher"
        assert not _held(folder)
        assert running_boards() == []  # the stale entry is dropped
        VirtualBoard(folder=folder).stop()   # and the folder is free again
    finally:
        if p.poll() is None:
            p.kill()
            p.wait(10)
        if board_pid is not None and _alive(board_pid):
            os.kill(board_pid, signal.SIGKILL)
