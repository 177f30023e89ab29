"""The game log's file-system adapter over a real folder: the Pico's flash (littlefs
through MicroPython's `os`) or a folder of the host (docs/gamelog.md "Adapters").

The log store (boardcore.storage.gamelog) touches files only through an adapter, so the same
code runs on the Pico's flash, on a folder of the host (the simulation, the virtual
board, tests) and in memory (tests/fakes/memfs.py: MemFs, and CutFs that cuts the
power at a chosen byte; test-only, outside the firmware bundle).  Every adapter works
on one flat folder and has these members:

    listdir()                -> list of file names (no order promised)
    size(name)               -> size in bytes, or -1 when the file does not exist
    read(name, offset, n)    -> bytes (fewer at the end of the file)
    open_append(name)        -> a handle with write(data) -> n, sync(), close();
                                data is durable once sync() returned
    write_file(name, data)   -> create or replace a small file, durable on return
    remove(name)             -> delete (no error when missing)
    rename(old, new)         -> atomic; replaces `new` when it exists
    free()                   -> bytes the device can still take (a large number
                                when unknown)
    block                    -> allocation unit in bytes (4096 on the Pico's littlefs)
"""

try:
    import os
except ImportError:  # pragma: no cover
    import uos as os

BLOCK = 4096
"""The Pico's littlefs block size in bytes; the log counts space in whole blocks."""


def _join(root, name):
    if not root:
        return name
    if root.endswith("/"):
        return root + name
    return root + "/" + name


class OsFs:
    """A folder through MicroPython's or CPython's `os`: the Pico's flash (e.g.
    OsFs("/logs")) or a folder on the host.  Creates the folder when missing."""

    def __init__(self, root, block=BLOCK):
        self.root = root
        self.block = block
        try:
            os.mkdir(root)
        except OSError:
            pass

    def listdir(self):
        return os.listdir(self.root)

    def size(self, name):
        try:
            return os.stat(_join(self.root, name))[6]
        except OSError:
            return -1

    def read(self, name, offset, n):
        f = open(_join(self.root, name), "rb")
        try:
            if offset:
                f.seek(offset)
            return f.read(n)
        finally:
            f.close()

    def open_append(self, name):
        return _OsHandle(open(_join(self.root, name), "ab"))

    def write_file(self, name, data):
        f = open(_join(self.root, name), "wb")
        try:
            f.write(data)
            f.flush()
            _fsync(f)
        finally:
            f.close()

    def remove(self, name):
        try:
            os.remove(_join(self.root, name))
        except OSError:
            pass

    def rename(self, old, new):
        # os.replace where it exists (CPython on every OS); MicroPython's rename already
        # replaces on littlefs and on the Unix port.
        getattr(os, "replace", os.rename)(_join(self.root, old), _join(self.root, new))

    def free(self):
        try:
            st = os.statvfs(self.root)
            return st[0] * st[4]
        except Exception:
            return 1 << 29


def _fsync(f):
    # CPython: flush reaches the OS; fsync reaches the disk.  MicroPython: flush() is
    # littlefs' file sync, there is no os.fsync.
    fs = getattr(os, "fsync", None)
    if fs is not None:
        try:
            fs(f.fileno())
        except Exception:
            pass


class _OsHandle:
    def __init__(self, f):
        self.f = f

    def write(self, data):
        return self.f.write(data)

    def sync(self):
        self.f.flush()

    def close(self):
        self.f.close()
