"""The MQTT connection of a bridge or a spectator (docs/online.md "The broker"): the
broker's URL and one paho-mqtt client that keeps reconnecting.  Its one job is the
connection; what travels on it is samsara_host.online.wire's and .peer's.

paho-mqtt (the Eclipse Foundation's client, pinned in requirements.txt) keeps the
connection: it reconnects by itself after a broker restart or a network outage
(reconnect_delay_set), and calls `on_connect` each time, where the caller subscribes
again and says hello, so nothing depends on the broker remembering a session.
"""
import queue
import secrets
import threading
import urllib.parse

import paho.mqtt.client as paho

DEFAULT_PORT = 1883


class BrokerError(ValueError):
    """A broker URL that is not mqtt://HOST[:PORT]; str() says so."""


def parse_broker(url):
    """(host, port) of `mqtt://HOST[:PORT]` (or `HOST[:PORT]`).  Raises BrokerError."""
    if not isinstance(url, str) or not url.strip():
        raise BrokerError("a broker is mqtt://HOST:PORT, e.g. mqtt://localhost:1883")
    text = url.strip()
    if "://" not in text:
        text = "mqtt://" + text
    u = urllib.parse.urlsplit(text)
    if u.scheme != "mqtt" or not u.hostname or u.path not in ("", "/"):
        raise BrokerError("a broker is mqtt://HOST:PORT (e.g. mqtt://localhost:1883), "
                          "not %r" % url)
    try:
        port = u.port or DEFAULT_PORT
    except ValueError:
        raise BrokerError("the broker's port in %r is not a port number 1..65535" % url)
    return u.hostname, port


class Connection:
    """One MQTT client on its own network thread (paho's loop_start).

    host, port: the broker; subscriptions: topic filters subscribed at every
    (re)connection; on_connect(): called after each (re)connection and subscription;
    messages arrive in `inbox` (a queue of (topic, payload bytes)) unless on_message
    is given.  publish() works while disconnected too: paho sends QoS 1 messages once
    it is back."""

    def __init__(self, host, port, subscriptions, on_connect=None, on_message=None,
                 name="samsara"):
        self.host = host
        self.port = port
        self.subs = list(subscriptions)
        self.user_on_connect = on_connect
        self.inbox = queue.Queue()
        self.connected = threading.Event()
        self.connects = 0
        c = paho.Client(paho.CallbackAPIVersion.VERSION2,
                        client_id="%s-%s" % (name, secrets.token_hex(4)),
                        protocol=paho.MQTTv311, clean_session=True)
        c.reconnect_delay_set(min_delay=1, max_delay=2)
        c.max_queued_messages_set(0)
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_message = on_message or self._on_message
        self.client = c

    def start(self):
        """Connect in the background (returns at once; `connected` is set once in)."""
        self.client.connect_async(self.host, self.port, keepalive=10)
        self.client.loop_start()

    def stop(self):
        """Disconnect and stop the network thread."""
        try:
            self.client.disconnect()
        except Exception:
            pass
        self.client.loop_stop()

    def publish(self, topic, payload, retain=False):
        """Publish `payload` (bytes) at QoS 1."""
        self.client.publish(topic, payload, qos=1, retain=retain)

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        if reason_code.is_failure:
            return
        for t in self.subs:
            client.subscribe(t, qos=1)
        self.connects += 1
        self.connected.set()
        self.inbox.put((None, b""))     # (re)connected: the reader says hello again
        if self.user_on_connect is not None:
            self.user_on_connect()

    def _on_disconnect(self, client, userdata, flags, reason_code, properties):
        self.connected.clear()

    def _on_message(self, client, userdata, msg):
        self.inbox.put((msg.topic, bytes(msg.payload)))
