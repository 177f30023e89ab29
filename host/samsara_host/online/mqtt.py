"""The MQTT connection of a bridge or a spectator (docs/online.md "The broker"): the
broker's URL and one paho-mqtt client that keeps reconnecting.  Its one job is the
connection; what travels on it is samsara_host.online.wire's and .peer's.

paho-mqtt (the Eclipse Foundation's client, pinned in requirements.txt) keeps the
connection: it reconnects by itself after a broker restart or a network outage
(reconnect_delay_set), and calls `on_connect` each time, where the caller subscribes
again and says hello, so nothing depends on the broker remembering a session.

A broker is `mqtt://[USER[:PASSWORD]@]HOST[:PORT]` (port 1883) or, with TLS,
`mqtts://[USER[:PASSWORD]@]HOST[:PORT]` (port 8883), the server's certificate checked
against the system's certificate authorities or a CA file (`--ca FILE`).  A user
without a password in the URL takes it from $SAMSARA_BROKER_PASSWORD (so that it is
not on the command line).  The connection speaks MQTT 5, whose message expiry lets the
retained messages of a game go from the broker by themselves (docs/online.md
"Retained messages").
"""
import os
import queue
import secrets
import socket
import ssl
import threading
import time
import urllib.parse

import paho.mqtt.client as paho
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

DEFAULT_PORT = 1883
TLS_PORT = 8883
PASSWORD_ENV = "SAMSARA_BROKER_PASSWORD"
"""The environment variable a broker's password is taken from when the URL names a
user without one."""


class BrokerError(ValueError):
    """A broker URL that is not mqtt[s]://[USER[:PASSWORD]@]HOST[:PORT], or a CA file
    that cannot be read; str() says so."""


class Broker:
    """Where and how to reach an MQTT broker: host, port, user and password (None: no
    login), tls (True for mqtts://) and ca_file (a PEM file of the certificate
    authorities that signed the broker's certificate; None: the system's)."""

    def __init__(self, host, port=DEFAULT_PORT, user=None, password=None, tls=False,
                 ca_file=None):
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.tls = tls
        self.ca_file = ca_file

    def url(self):
        """The URL without the password (for lines a player or a log shows)."""
        who = "%s@" % urllib.parse.quote(self.user, safe="") if self.user else ""
        host = "[%s]" % self.host if ":" in self.host else self.host
        return "%s://%s%s:%d" % ("mqtts" if self.tls else "mqtt", who, host, self.port)

    def configure(self, client):
        """Give paho client `client` the login and the TLS settings (before connect)."""
        if self.user:
            client.username_pw_set(self.user, self.password)
        if self.tls:
            client.tls_set(ca_certs=self.ca_file, cert_reqs=ssl.CERT_REQUIRED,
                           tls_version=ssl.PROTOCOL_TLS_CLIENT)

    def __repr__(self):
        return "Broker(%s)" % self.url()


def parse_broker(url, ca_file=None, environ=None):
    """The Broker of `mqtt://[USER[:PASSWORD]@]HOST[:PORT]`, `mqtts://...` (or
    `HOST[:PORT]`); ca_file: the CA file for mqtts:// (None: the system's).  A user
    without a password takes $SAMSARA_BROKER_PASSWORD.  Raises BrokerError."""
    if not isinstance(url, str) or not url.strip():
        raise BrokerError("a broker is mqtt://HOST:PORT, e.g. mqtt://localhost:1883")
    text = url.strip()
    if "://" not in text:
        text = "mqtt://" + text
    u = urllib.parse.urlsplit(text)
    if u.scheme not in ("mqtt", "mqtts") or not u.hostname or u.path not in ("", "/") \
            or u.query or u.fragment:
        raise BrokerError("a broker is mqtt://HOST:PORT or mqtts://HOST:PORT, with "
                          "USER:PASSWORD@ before HOST for a login (e.g. "
                          "mqtt://localhost:1883), not %r" % _hide(url))
    tls = u.scheme == "mqtts"
    try:
        port = u.port or (TLS_PORT if tls else DEFAULT_PORT)
    except ValueError:
        raise BrokerError("the broker's port in %r is not a port number 1..65535"
                          % _hide(url))
    user = urllib.parse.unquote(u.username) if u.username else None
    password = urllib.parse.unquote(u.password) if u.password is not None else None
    if u.username is not None and not user:
        raise BrokerError("the broker's URL %r has a password but no user" % _hide(url))
    if user and password is None:
        password = (os.environ if environ is None else environ).get(PASSWORD_ENV)
    if ca_file is not None:
        if not tls:
            raise BrokerError("a CA file (--ca) is for a broker with TLS: mqtts://HOST:PORT")
        try:
            with open(ca_file, "rb") as f:
                head = f.read(4096)
        except OSError as e:
            raise BrokerError("the CA file %s cannot be read: %s" % (ca_file, e.strerror or e))
        if b"-----BEGIN CERTIFICATE-----" not in head:
            raise BrokerError("the CA file %s holds no PEM certificate" % ca_file)
    return Broker(u.hostname, port, user, password, tls, ca_file)


def _hide(url):
    # The URL with its password, if any, as ***.
    u = urllib.parse.urlsplit(url if "://" in url else "mqtt://" + url)
    if u.password is None:
        return url
    return url.replace(":%s@" % u.password, ":***@", 1)


def expiry(seconds):
    """The MQTT 5 properties of a message the broker drops `seconds` after it was
    published (retained ones too), or None for no expiry."""
    if seconds is None:
        return None
    p = Properties(PacketTypes.PUBLISH)
    p.MessageExpiryInterval = int(seconds)
    return p


def failure_words(broker, e):
    """(fatal, words) for exception `e` raised while connecting to `broker`: what
    failed and what to do.  fatal: True when trying again cannot help (a TLS
    certificate that is not trusted, a port that does not speak TLS), so the bridge or
    the spectator stops with the words; False for a broker not reachable now (not
    running, the network gone), tried again every 1-2 s."""
    where = "%s:%d" % (broker.host, broker.port)
    if isinstance(e, ssl.SSLCertVerificationError):
        return True, ("the broker %s's TLS certificate is not trusted (%s): give the "
                      "certificate of the authority that signed it with --ca FILE, or "
                      "check the host name in --broker" % (
                          broker.url(), getattr(e, "verify_message", None) or e))
    if isinstance(e, (ssl.SSLEOFError, ssl.SSLZeroReturnError)) or (
            broker.tls and isinstance(e, (ConnectionResetError, BrokenPipeError))):
        return False, ("the broker at %s closed the connection during the TLS handshake "
                       "(%s): is %s its TLS port? (mqtt:// for a broker without TLS); "
                       "trying again" % (where, e, broker.port))
    if isinstance(e, ssl.SSLError):
        reason = getattr(e, "reason", None) or str(e)
        return True, ("TLS with the broker at %s failed (%s): %s is not a TLS port, or "
                      "the broker's TLS set-up does not match: use mqtt:// for a broker "
                      "without TLS, or its TLS port (often 8883) with mqtts://"
                      % (where, reason, broker.port))
    if isinstance(e, ConnectionRefusedError):
        return False, ("nothing listens at %s (connection refused): is the broker running "
                       "and the port right? trying again" % where)
    if isinstance(e, socket.gaierror):
        return False, ("no computer named %s is known (%s): check the host in --broker; "
                       "trying again" % (broker.host, e.strerror or e))
    return False, "cannot reach the broker at %s: %s; trying again" % (
        where, getattr(e, "strerror", None) or e)


class _Client(paho.Client):
    """paho's Client that keeps why its last connection attempt failed (paho's
    network thread only retries; `on_failure(exception)` is told first)."""

    on_failure = None

    def reconnect(self):
        try:
            return paho.Client.reconnect(self)
        except OSError as e:
            if self.on_failure is not None:
                self.on_failure(e)
            raise


class Connection:
    """One MQTT client on its own network thread (paho's loop_start).

    broker: a Broker; subscriptions: topic filters subscribed at every
    (re)connection; on_connect(): called after each (re)connection and subscription;
    messages arrive in `inbox` (a queue of (topic, payload bytes)) unless on_message
    is given.  publish() works while disconnected too: paho sends QoS 1 messages once
    it is back.  `refused`: why trying again cannot help, in words (the broker
    refused the login, its TLS certificate is not trusted, the port speaks no TLS),
    or None; `trouble`: why the last attempt to connect failed while it is tried again
    (the broker not running, the network gone), or None once connected."""

    def __init__(self, broker, subscriptions, on_connect=None, on_message=None,
                 name="samsara"):
        self.broker = broker
        self.subs = list(subscriptions)
        self.user_on_connect = on_connect
        self.inbox = queue.Queue()
        self.connected = threading.Event()
        self.connects = 0
        self.refused = None
        self.trouble = None
        self._answered = False      # a CONNACK since the last connection attempt
        self._unsent = set()        # ids (mid) of messages the broker has not taken yet
        self._early = set()         # ids the broker took before publish() returned
        self._lock = threading.Lock()   # (never held while calling paho: its network
        #                                  thread holds its own lock in on_publish)
        c = _Client(paho.CallbackAPIVersion.VERSION2,
                        client_id="%s-%s" % (name, secrets.token_hex(4)),
                        protocol=paho.MQTTv5)
        broker.configure(c)
        c.reconnect_delay_set(min_delay=1, max_delay=2)
        c.max_queued_messages_set(0)
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_publish = self._on_publish
        c.on_message = on_message or self._on_message
        c.on_failure = self._on_failure
        self.client = c

    def start(self):
        """Connect in the background (returns at once; `connected` is set once in)."""
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=10,
                                  clean_start=True)
        self.client.loop_start()

    def stop(self, flush_s=3.0):
        """Disconnect and stop the network thread, after the messages published so far
        went out (at most flush_s seconds while connected: the last ones of a game,
        such as the clearing of its retained messages, are not lost)."""
        end = time.monotonic() + flush_s
        while self._unsent and self.connected.is_set() and time.monotonic() < end:
            time.sleep(0.02)
        try:
            self.client.disconnect()
        except Exception:
            pass
        self.client.loop_stop()

    def publish(self, topic, payload, retain=False, expire_s=None):
        """Publish `payload` (bytes) at QoS 1; expire_s: seconds after which the broker
        drops it (None: never)."""
        info = self.client.publish(topic, payload, qos=1, retain=retain,
                                   properties=expiry(expire_s))
        with self._lock:
            if info.mid in self._early:
                self._early.discard(info.mid)
            else:
                self._unsent.add(info.mid)

    def _on_failure(self, e):
        fatal, words = failure_words(self.broker, e)
        if fatal:
            self.refused = words
        else:
            self.trouble = words

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        self._answered = True
        if reason_code.is_failure:
            self.refused = "the broker %s refused the connection: %s: check the user " \
                           "and password in --broker" % (self.broker.url(),
                                                         reason_code.getName())
            return
        self.refused = None
        self.trouble = None
        for t in self.subs:
            client.subscribe(t, qos=1)
        self.connects += 1
        self.connected.set()
        self.inbox.put((None, b""))     # (re)connected: the reader says hello again
        if self.user_on_connect is not None:
            self.user_on_connect()

    def _on_publish(self, client, userdata, mid, reason_code, properties):
        with self._lock:
            if mid in self._unsent:
                self._unsent.discard(mid)
            else:
                self._early.add(mid)

    def _on_disconnect(self, client, userdata, flags, reason_code, properties):
        if not self._answered and not self.broker.tls and self.refused is None:
            self.trouble = ("the broker at %s:%d closed the connection without answering: "
                            "if it takes TLS, use mqtts:// (and --ca FILE); trying again"
                            % (self.broker.host, self.broker.port))
        elif self.connected.is_set():
            self.trouble = "the connection to the broker %s was lost; trying again" % (
                self.broker.url())
        self._answered = False
        self.connected.clear()

    def _on_message(self, client, userdata, msg):
        self.inbox.put((msg.topic, bytes(msg.payload)))
