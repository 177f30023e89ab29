"""TCP ports for the servers the tests start (a Mosquitto, the app's web server,
chromedriver): one the system has free now, or, when $SAMSARA_TEST_PORTS is LO-HI
(a machine whose runs share the ports out), a free one from that range."""
import itertools
import os
import socket

_next = itertools.count()


def _range():
    text = os.environ.get("SAMSARA_TEST_PORTS", "")
    if not text:
        return None
    lo, _, hi = text.partition("-")
    lo, hi = int(lo), int(hi or lo)
    if not 0 < lo <= hi < 65536:
        raise ValueError("SAMSARA_TEST_PORTS is LO-HI, not %r" % text)
    return lo, hi


def _free(port):
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port(taken=()):
    """A TCP port on 127.0.0.1 nobody listens on now (module docstring), not one of
    `taken`.  Raises OSError when the range has none free."""
    r = _range()
    if r is None:
        while True:
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                port = s.getsockname()[1]
            if port not in taken:
                return port
    lo, hi = r
    n = hi - lo + 1
    start = (os.getpid() * 7 + next(_next)) % n   # runs side by side start apart
    for i in range(n):
        port = lo + (start + i) % n
        if port not in taken and _free(port):
            return port
    raise OSError("no free port in SAMSARA_TEST_PORTS=%d-%d" % (lo, hi))


def free_ports(n):
    """`n` distinct ports of free_port."""
    out = []
    for _ in range(n):
        out.append(free_port(out))
    return out
