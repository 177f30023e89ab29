"""Test-only file systems for the game log: `MemFs` (files in memory) and `CutFs`
(cuts the power at a chosen byte).  They follow the adapter protocol of boardcore.storage.osfs
(docs/gamelog.md "Adapters") and live here, outside the firmware bundle.

`CutFs` wraps another adapter and cuts the power at a chosen byte: the write that
crosses it is torn (only its first bytes reach the medium) and every later call raises
PowerCut, until the test "reboots" by building a new store on the inner adapter.
Runs under CPython and MicroPython (tests/upy, tests/fakes on the path).
"""

from boardcore.storage.osfs import BLOCK


class MemFs:
    """Files in memory (a dict of bytearrays): the fast adapter for tests and
    benchmarks.  `capacity` bytes (None: unlimited) bounds free()."""

    def __init__(self, block=BLOCK, capacity=None):
        self.files = {}
        self.block = block
        self.capacity = capacity

    def listdir(self):
        return list(self.files)

    def size(self, name):
        f = self.files.get(name)
        return -1 if f is None else len(f)

    def read(self, name, offset, n):
        f = self.files.get(name)
        if f is None:
            raise OSError(2)
        return bytes(f[offset:offset + n])

    def open_append(self, name):
        if name not in self.files:
            self.files[name] = bytearray()
        return _MemHandle(self, name)

    def write_file(self, name, data):
        self.files[name] = bytearray(data)

    def remove(self, name):
        if name in self.files:
            del self.files[name]

    def rename(self, old, new):
        if old not in self.files:
            raise OSError(2)
        self.files[new] = self.files.pop(old)

    def used(self):
        """Bytes used counted in whole blocks (an empty file takes one block)."""
        b = self.block
        t = 0
        for f in self.files.values():
            t += ((len(f) + b - 1) // b or 1) * b
        return t

    def free(self):
        if self.capacity is None:
            return 1 << 29
        return self.capacity - self.used()


class _MemHandle:
    def __init__(self, fs, name):
        self.fs = fs
        self.name = name

    def write(self, data):
        self.fs.files[self.name].extend(data)
        return len(data)

    def sync(self):
        pass

    def close(self):
        pass


class PowerCut(Exception):
    """The simulated power went off (CutFs): nothing after it reached the medium."""


class CutFs:
    """Wraps an adapter and cuts the power after `budget` more bytes reach the medium.

    Each byte of written data costs one unit of budget; remove and rename cost one unit
    each and happen whole or not at all.  The write that exhausts the budget is torn:
    only the bytes that fit are written, then PowerCut is raised, and every later call
    raises PowerCut.  budget None means never cut.  `cut` is True once the power went.
    """

    def __init__(self, inner, budget=None):
        self.inner = inner
        self.block = inner.block
        self.budget = budget
        self.cut = False

    def _alive(self):
        if self.cut:
            raise PowerCut("power is off")

    def _spend(self, n):
        """Bytes of an n-byte operation that reach the medium before the cut."""
        self._alive()
        if self.budget is None:
            return n
        if n <= self.budget:
            self.budget -= n
            return n
        k = self.budget
        self.budget = 0
        self.cut = True
        return k

    def listdir(self):
        self._alive()
        return self.inner.listdir()

    def size(self, name):
        self._alive()
        return self.inner.size(name)

    def read(self, name, offset, n):
        self._alive()
        return self.inner.read(name, offset, n)

    def open_append(self, name):
        self._alive()
        return _CutHandle(self, self.inner.open_append(name))

    def write_file(self, name, data):
        k = self._spend(len(data))
        if k < len(data):
            self.inner.write_file(name, data[:k])  # a torn small file
            raise PowerCut("power cut while writing %s" % name)
        self.inner.write_file(name, data)

    def remove(self, name):
        if self._spend(1) < 1:
            raise PowerCut("power cut before remove")
        self.inner.remove(name)

    def rename(self, old, new):
        if self._spend(1) < 1:
            raise PowerCut("power cut before rename")
        self.inner.rename(old, new)

    def free(self):
        self._alive()
        return self.inner.free()


class _CutHandle:
    def __init__(self, fs, h):
        self.fs = fs
        self.h = h

    def write(self, data):
        k = self.fs._spend(len(data))
        if k:
            self.h.write(data[:k] if k < len(data) else data)
            self.h.sync()
        if k < len(data):
            raise PowerCut("power cut in a write")
        return k

    def sync(self):
        self.fs._alive()
        self.h.sync()

    def close(self):
        # Closing after the cut is allowed (it changes nothing on the medium).
        self.h.close()
