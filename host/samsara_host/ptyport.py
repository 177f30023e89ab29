"""A raw pseudo-terminal pair behind a stable port name: the "USB cable" of the
virtual board and of the test boards.

The port name is a symbolic link to the pair's terminal side, replaced atomically on
every plug, so a host program keeps using one path across unplug/plug cycles exactly
as it would keep using a Pico's serial device.  Linux/POSIX only.
"""
import os
import tty


def plug(port):
    """Open a raw pty pair and point `port` (a path) at its terminal side.

    Returns (master, slave) file descriptors: the board side reads and writes
    `master`; a host opens `port`.
    """
    master, slave = os.openpty()
    tty.setraw(slave)
    tmp = port + ".new"
    if os.path.lexists(tmp):
        os.remove(tmp)
    os.symlink(os.ttyname(slave), tmp)
    os.replace(tmp, port)
    return master, slave


def unplug(port, fds):
    """Pull the cable: close the descriptors `fds` (None entries skipped; a host with
    the port open then gets an error) and remove the port link if it still points at
    this pair (a newer plug of the same port keeps its link)."""
    mine = None
    for fd in fds:
        if fd is not None:
            try:
                name = os.ttyname(fd)
                if not name.endswith("ptmx"):
                    mine = name
            except OSError:
                pass
    try:
        target = os.readlink(port)
    except OSError:
        target = None
    if target is not None and (mine is None or target == mine):
        os.remove(port)
    for fd in fds:
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass
