"""A process behind a pseudo-terminal, reachable by the host through a second one, with
a cable that can be pulled and plugged in again (tests of the host tool).

The process (e.g. the `micropython` Unix port) gets the slave of pair 1 as its stdin,
stdout and stderr; a relay thread copies bytes between the master of pair 1 and the
master of pair 2; the host opens the slave of pair 2 through the symlink `port` (like
socat's `link=`), so it sees a serial port as a Pico's USB would be.  `unplug()` closes
pair 2 (the host's port goes away; what the process writes meanwhile is dropped, as a
Pico's USB output is with no host); `plug()` opens a fresh pair 2 behind the same name.
"""
import os
import select
import subprocess
import threading
import tty

from samsara_host import ptyport


class PtyProcess:
    def __init__(self, argv, folder, cwd=None, env=None, name="ttyVB0"):
        self.port = os.path.join(folder, name)
        m1, s1 = os.openpty()
        tty.setraw(s1)
        self.proc = subprocess.Popen(argv, stdin=s1, stdout=s1, stderr=s1, cwd=cwd, env=env,
                                     start_new_session=True, close_fds=True)
        os.close(s1)
        self.m1 = m1
        self.m2 = self.s2 = None
        self._stop = None
        self._thread = None
        self.plug()

    def plug(self):
        self.m2, self.s2 = ptyport.plug(self.port)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._relay, args=(self.m2, self._stop),
                                        daemon=True)
        self._thread.start()

    def _relay(self, m2, stop):
        m1 = self.m1
        while not stop.is_set():
            try:
                r, _w, _x = select.select([m1, m2], [], [], 0.02)
                if m1 in r:
                    data = os.read(m1, 4096)
                    if not data:
                        return
                    if not stop.is_set():
                        os.write(m2, data)
                if m2 in r:
                    data = os.read(m2, 4096)
                    if data:
                        os.write(m1, data)
            except OSError:
                if stop.is_set():
                    return
                # The host closed its side (EIO on m2): keep draining the process.
                try:
                    r, _w, _x = select.select([m1], [], [], 0.02)
                    if r:
                        os.read(m1, 4096)
                except OSError:
                    return

    def unplug(self):
        if self._stop is None:
            return
        self._stop.set()
        self._thread.join(2)
        ptyport.unplug(self.port, (self.m2, self.s2))
        self._stop = None
        # While unplugged, drain what the process writes so it never blocks.
        self._drain_stop = threading.Event()
        self._drain = threading.Thread(target=self._drain_loop, args=(self._drain_stop,),
                                       daemon=True)
        self._drain.start()

    def _drain_loop(self, stop):
        while not stop.is_set():
            try:
                r, _w, _x = select.select([self.m1], [], [], 0.02)
                if r:
                    os.read(self.m1, 4096)
            except OSError:
                return

    def replug(self):
        self._drain_stop.set()
        self._drain.join(2)
        self.plug()

    def close(self):
        if self._stop is not None:
            self.unplug()
        if getattr(self, "_drain_stop", None):
            self._drain_stop.set()
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(5)
        try:
            os.close(self.m1)
        except OSError:
            pass
