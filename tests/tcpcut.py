"""A TCP relay between the tests' clients and a server on this machine whose network
can stall or go: `pause()` holds the data in both directions (a link that stalls: it
arrives late, none lost, as TCP delivers it), `cut()` resets every connection and
refuses new ones (the network gone: a cable pulled, a router restarted), `restore()`
lets connections in again."""
import select
import socket
import struct
import threading
import time


class CuttableLink:
    """127.0.0.1:`port` relayed to 127.0.0.1:`target` (module docstring)."""

    def __init__(self, port, target):
        self.port = port
        self.target = target
        self.lock = threading.Lock()
        self.socks = []
        self.paused = threading.Event()
        self.listener = None
        self.stopped = False
        self.accepted = 0

    def start(self):
        """Listen (again); returns self."""
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", self.port))
        s.listen(64)
        self.listener = s
        threading.Thread(target=self._accept, args=(s,), daemon=True).start()
        return self

    def _accept(self, lsock):
        while True:
            try:
                a, _addr = lsock.accept()
            except OSError:
                return                      # the listener was closed (cut, stop)
            try:
                b = socket.create_connection(("127.0.0.1", self.target), timeout=5)
            except OSError:
                a.close()
                continue
            with self.lock:
                self.socks += [a, b]
                self.accepted += 1
            threading.Thread(target=self._pump, args=(a, b), daemon=True).start()
            threading.Thread(target=self._pump, args=(b, a), daemon=True).start()

    def _pump(self, src, dst):
        try:
            while True:
                if self.paused.is_set():
                    time.sleep(0.02)        # held: nothing read, TCP keeps it for later
                    continue
                r, _w, _x = select.select([src], [], [], 0.1)
                if not r:
                    continue
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except (OSError, ValueError):
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def pause(self):
        self.paused.set()

    def resume(self):
        self.paused.clear()

    def cut(self):
        """Every connection reset (no orderly close), new ones refused until restore."""
        if self.listener is not None:
            self.listener.close()
            self.listener = None
        with self.lock:
            socks, self.socks = self.socks, []
        for s in socks:
            try:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                s.close()
            except OSError:
                pass

    def restore(self):
        self.start()

    def stop(self):
        """Let go of the held data and reset every connection (`cut`)."""
        self.resume()
        self.cut()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
