"""Mosquitto with the project's configuration: `samsara relay` and the tests' broker
(docs/online.md "The broker").  Its one job is to write the configuration, start the
`mosquitto` program (Debian's package `mosquitto`) on a port, wait until it listens,
and stop it.

The configuration: one listener (anonymous clients allowed: the games are sealed with
their codes, samsara_host.online.wire; or, with Relay(users=..., tls=...), only the
users of a password file, over TLS with a certificate: the tests of such brokers),
persistence on (retained messages survive a restart: the host's announcement, the
records for spectators, the broadcast page's boards), saved every 5 s and at a clean
stop, enough queue for 500 games at once.
"""
import getpass
import os
import random
import shutil
import signal
import socket
import subprocess
import tempfile
import time

CONFIG = """\
# samsara relay: Mosquitto for online games (docs/online.md "The broker")
listener {port} {bind}
{access}
persistence true
persistence_location {folder}/
autosave_interval 5
max_queued_messages 10000
max_inflight_messages 0
max_keepalive 120
log_dest file {folder}/mosquitto.log
log_type error
log_type warning
log_type notice
connection_messages false
user {user}
"""


class RelayError(Exception):
    """Mosquitto is missing or did not start; str() says what to do."""


def find_mosquitto():
    """The path of the mosquitto program.  Raises RelayError when it is not installed."""
    for p in (shutil.which("mosquitto"), "/usr/sbin/mosquitto"):
        if p and os.access(p, os.X_OK):
            return p
    raise RelayError("mosquitto is not installed: apt-get install mosquitto (or point "
                     "--broker at another MQTT broker)")


PORTS_ENV = "SAMSARA_TEST_PORTS"
"""LO-HI: the ports a broker started without a port may take (a machine whose test and
benchmark runs share the ports out, as the tests' own servers do); unset: any."""


def free_port(host="127.0.0.1"):
    """A TCP port the system has free now (for a broker the tests or `make bench`
    start): from $SAMSARA_TEST_PORTS when it is set.  Raises RelayError when that
    range has none free or is not LO-HI."""
    text = os.environ.get(PORTS_ENV, "")
    if not text:
        with socket.socket() as s:
            s.bind((host, 0))
            return s.getsockname()[1]
    lo, _, hi = text.partition("-")
    try:
        lo, hi = int(lo), int(hi or lo)
    except ValueError:
        raise RelayError("%s is LO-HI, not %r" % (PORTS_ENV, text))
    ports = list(range(lo, hi + 1))
    random.shuffle(ports)
    for port in ports:
        with socket.socket() as s:
            try:
                s.bind((host, port))
            except OSError:
                continue
            return port
    raise RelayError("no free port in %s=%s" % (PORTS_ENV, text))


def port_taken(port, bind="0.0.0.0"):
    """Why TCP port `port` cannot be listened on at address `bind` now (another program
    listens on it: "address already in use"; a port below 1024 without the right:
    "permission denied"), or None when it is free."""
    with socket.socket(socket.AF_INET6 if ":" in bind else socket.AF_INET) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)   # as mosquitto does
        try:
            s.bind((bind, port))
        except OSError as e:
            return (e.strerror or str(e)).lower()
    return None


def lan_address():
    """(address, name) of this machine for another machine on its network: the IPv4
    address of the interface its default route leaves by (None without a network:
    nothing is sent to find it) and its host name."""
    addr = None
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))          # (a documentation address: no packet)
            addr = s.getsockname()[0]
    except OSError:
        pass
    if addr and addr.startswith("127."):
        addr = None
    return addr, socket.gethostname()


class Relay:
    """One Mosquitto process.  port: its TCP port (None: a free one); bind: the address
    it listens on; folder: its configuration, persistence file and log (None: a new
    temporary folder, removed by stop()); users: {name: password} of the only clients
    let in (None: anyone; the passwords are hashed into a password file with
    mosquitto_passwd); tls: (certificate file, key file) in PEM for a TLS listener
    (None: plain TCP)."""

    def __init__(self, port=None, bind="127.0.0.1", folder=None, users=None, tls=None):
        self.users = users
        self.tls = tls
        self.exe = find_mosquitto()
        self.bind = bind
        self.port = port or free_port(bind if bind != "0.0.0.0" else "127.0.0.1")
        if not 1 <= self.port <= 65535:
            raise RelayError("the port is 1..65535, not %d" % self.port)
        self._own = folder is None
        self.folder = os.path.abspath(folder or tempfile.mkdtemp(prefix="samsara-relay-"))
        os.makedirs(self.folder, exist_ok=True)
        self.conf = os.path.join(self.folder, "mosquitto.conf")
        self.proc = None

    def url(self):
        """mqtt://HOST:PORT of this broker (the host the clients use)."""
        host = "localhost" if self.bind in ("127.0.0.1", "0.0.0.0") else self.bind
        return "%s://%s:%d" % ("mqtts" if self.tls else "mqtt", host, self.port)

    def _access(self):
        # The configuration's lines of who may connect, and how.
        lines = []
        if self.users:
            path = os.path.join(self.folder, "passwords")
            open(path, "w").close()
            exe = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
            for name, password in self.users.items():
                r = subprocess.run([exe, "-b", path, name, password], capture_output=True,
                                   text=True, stdin=subprocess.DEVNULL)
                if r.returncode != 0:
                    raise RelayError("mosquitto_passwd failed: %s" % (r.stderr.strip() or
                                                                      r.returncode))
            lines += ["allow_anonymous false", "password_file %s" % path]
        else:
            lines.append("allow_anonymous true")
        if self.tls:
            lines += ["certfile %s" % os.path.abspath(self.tls[0]),
                      "keyfile %s" % os.path.abspath(self.tls[1])]
        return "\n".join(lines)

    def start(self, timeout=10.0):
        """Start (or start again) and wait until it takes connections.  Returns the
        URL.  Raises RelayError when its port is in use ("port N is in use: ..."), when
        mosquitto stops at once, or when it does not listen within `timeout` seconds."""
        why = port_taken(self.port, self.bind)
        if why:
            raise RelayError(self._in_use(why))
        with open(self.conf, "w") as f:
            # (user: mosquitto started as root would become the user `mosquitto`, who
            # cannot write this folder)
            f.write(CONFIG.format(port=self.port, bind=self.bind, folder=self.folder,
                                  user=getpass.getuser(), access=self._access()))
        self.proc = subprocess.Popen([self.exe, "-c", self.conf], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     start_new_session=True)
        deadline = time.monotonic() + timeout
        host = "127.0.0.1" if self.bind == "0.0.0.0" else self.bind
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode("utf-8", "replace").strip()
                if "address already in use" in (err + self._log_tail()).lower():
                    raise RelayError(self._in_use("address already in use"))
                raise RelayError("mosquitto stopped at once (exit code %s): %s"
                                 % (self.proc.returncode, err or "see %s" % self.log_path()))
            try:
                with socket.create_connection((host, self.port), timeout=0.2):
                    return self.url()
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RelayError("mosquitto did not listen on port %d within %.0f s"
                         % (self.port, timeout))

    def _in_use(self, why):
        return ("port %d is in use: another program (a broker?) listens on it; stop "
                "it, or give another port with --port" % self.port
                if "in use" in why else "port %d cannot be listened on: %s; give another "
                "port with --port (1024 or above)" % (self.port, why))

    def _log_tail(self):
        # The end of mosquitto's own log ("" when there is none yet).
        try:
            with open(self.log_path(), "rb") as f:
                f.seek(0, os.SEEK_END)
                f.seek(max(0, f.tell() - 2000))
                return f.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def log_path(self):
        return os.path.join(self.folder, "mosquitto.log")

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self, remove=True):
        """Stop it cleanly (SIGTERM: the persistence file is written).  remove: the
        folder goes too when this object made it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if self.proc is not None and self.proc.stderr is not None:
            self.proc.stderr.close()
        if remove and self._own:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
