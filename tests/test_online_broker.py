"""Brokers other than an open one on the same machine (docs/online.md "The broker"), and
what a game leaves on a broker (docs/online.md "Retained messages"): the broker's URL
with a login and TLS; a Mosquitto with a password file lets in only its users (the
bridges', the spectator's and the load run's connections); one with TLS and a
certificate signed by a CA the test makes is reached with that CA file and refused
without it; retained messages with an expiry go from the broker by themselves; an
abandoned game's retained messages carry their expiry; the broadcast list drops a
game once its board expired.  Without Mosquitto the broker tests skip, except under
CI=true, where they fail."""
import datetime
import ipaddress
import os
import subprocess
import time

import pytest

from polling import within as _until

import onlinekit as K
from testports import free_port

from brokerhelp import needs_mosquitto
from samsara_host.online import bridge, wire
from samsara_host.online.broadcast import LiveGames
from samsara_host.online.code import parse_code
from samsara_host.online.mqtt import BrokerError, Connection, parse_broker
from samsara_host.online.relay import Relay, RelayError


_needs = needs_mosquitto


def _samsara(*args, env=None, timeout=120):
    return subprocess.run(K.samsara(*args), capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL,
                          env=dict(os.environ, PYTHONPATH=K.HOST, **(env or {})))




def _exchange(broker, topic, seconds=10.0):
    """Publish a retained message with one connection and read it with another;
    returns the payload read (None when nothing came)."""
    a = Connection(broker, [], name="test-writer")
    a.start()
    try:
        assert a.connected.wait(seconds), a.refused
        a.publish(topic, b"hello", retain=True)
    finally:
        a.stop()
    b = Connection(broker, [topic], name="test-reader")
    b.start()
    try:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                t, payload = b.inbox.get(timeout=0.2)
            except Exception:
                continue
            if t == topic:
                return payload
        return None
    finally:
        b.stop()


def test_a_broker_url_takes_a_login_tls_and_a_ca_file(tmp_path):
    b = parse_broker("mqtt://localhost:1883")
    assert (b.host, b.port, b.user, b.password, b.tls) == ("localhost", 1883, None, None,
                                                           False)
    b = parse_broker("mqtts://anna:s3cr%3At%40x@broker.example.org")
    assert (b.host, b.port, b.user, b.password, b.tls) == ("broker.example.org", 8883,
                                                           "anna", "s3cr:t@x", True)
    assert b.url() == "mqtts://anna@broker.example.org:8883"     # no password shown
    b = parse_broker("mqtt://ben@h:1884", environ={"SAMSARA_BROKER_PASSWORD": "pw"})
    assert (b.user, b.password, b.port) == ("ben", "pw", 1884)
    ca = tmp_path / "ca.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
    assert parse_broker("mqtts://h", str(ca)).ca_file == str(ca)
    for url, ca_file, words in (("http://h:1", None, "mqtt://HOST:PORT"),
                                ("mqtt://h:1", str(ca), "TLS"),
                                ("mqtts://h:1", str(tmp_path / "none.pem"), "cannot be read"),
                                ("mqtts://h:1", str(tmp_path), "cannot be read"),
                                ("mqtt://anna:secret@h:99999", None, "port"),
                                ("mqtt://:secret@h:1", None, "no user")):
        with pytest.raises(BrokerError) as e:
            parse_broker(url, ca_file)
        assert words in str(e.value) and "secret" not in str(e.value), str(e.value)


def test_a_broker_with_a_password_file_lets_in_only_its_users(tmp_path):
    _needs()
    with Relay(port=free_port(), folder=str(tmp_path / "relay"),
               users={"anna": "s3cr:t@x"}) as relay:
        url = "mqtt://anna:s3cr%%3At%%40x@127.0.0.1:%d" % relay.port
        assert _exchange(parse_broker(url), "samsara/test/login") == b"hello"
        for bad in ("mqtt://anna:wrong@127.0.0.1:%d", "mqtt://127.0.0.1:%d"):
            c = Connection(parse_broker(bad % relay.port), [], name="test-bad")
            c.start()
            try:
                assert _until(lambda: c.refused, 10), "no refusal for %s" % bad
                assert "refused" in c.refused and not c.connected.is_set()
            finally:
                c.stop()
        # the spectator says so and stops; the load run logs in, the password from the
        # environment (not on the command line)
        r = _samsara("online", "watch", "7K3M-Q9XD-4FJT", "--broker",
                     "mqtt://anna:wrong@127.0.0.1:%d" % relay.port, timeout=60)
        assert r.returncode == 1 and "refused" in r.stderr, r.stderr
        r = _samsara("online", "load", "--games", "2", "--turns", "2", "--procs", "1",
                     "--broker", "mqtt://anna@127.0.0.1:%d" % relay.port,
                     env={"SAMSARA_BROKER_PASSWORD": "s3cr:t@x"})
        assert r.returncode == 0 and "(4 connected)" in r.stdout, r.stdout + r.stderr


def _certificates(folder):
    """A CA and a server certificate for localhost / 127.0.0.1 signed by it (PEM files);
    returns (ca, cert, key) paths."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID
    now = datetime.datetime.now(datetime.timezone.utc)

    def name(cn):
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (x509.CertificateBuilder().subject_name(name("samsara test CA"))
          .issuer_name(name("samsara test CA")).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number())
          .not_valid_before(now - datetime.timedelta(hours=1))
          .not_valid_after(now + datetime.timedelta(days=1))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False,
                                       False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()),
                         critical=False)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder().subject_name(name("localhost"))
            .issuer_name(ca.subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([
                x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                critical=False)
            .add_extension(x509.ExtendedKeyUsage([x509.ExtendedKeyUsageOID.SERVER_AUTH]),
                           critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(
                ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
    paths = [os.path.join(folder, n) for n in ("ca.pem", "server.pem", "server.key")]
    with open(paths[0], "wb") as f:
        f.write(ca.public_bytes(serialization.Encoding.PEM))
    with open(paths[1], "wb") as f:
        f.write(cert.public_bytes(serialization.Encoding.PEM))
    with open(paths[2], "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM,
                                  serialization.PrivateFormat.TraditionalOpenSSL,
                                  serialization.NoEncryption()))
    return paths


def test_a_broker_with_tls_is_reached_with_its_ca_file_only(tmp_path):
    _needs()
    ca, cert, key = _certificates(str(tmp_path))
    with Relay(port=free_port(), folder=str(tmp_path / "relay"), tls=(cert, key)) as relay:
        url = "mqtts://127.0.0.1:%d" % relay.port
        assert relay.url().startswith("mqtts://")
        assert _exchange(parse_broker(url, ca), "samsara/test/tls") == b"hello"
        c = Connection(parse_broker(url), [], name="test-no-ca")   # the system's CAs
        c.start()
        try:
            assert not c.connected.wait(3.0)
        finally:
            c.stop()
        r = _samsara("online", "load", "--games", "2", "--turns", "2", "--procs", "1",
                     "--broker", url, "--ca", ca)
        assert r.returncode == 0 and "(4 connected)" in r.stdout, r.stdout + r.stderr


def test_a_failed_tls_or_connection_says_what_failed_and_what_to_do(tmp_path):
    # A TLS failure is not silent: a certificate not trusted or a port that speaks no
    # TLS stops with the reason and the remedy; a broker not reachable now is said and
    # tried again.
    _needs()
    ca, cert, key = _certificates(str(tmp_path))
    with Relay(port=free_port(), folder=str(tmp_path / "tls"), tls=(cert, key)) as tls, \
            Relay(port=free_port(taken=(tls.port,)), folder=str(tmp_path / "plain")) as plain:
        cases = (("mqtts://127.0.0.1:%d" % tls.port, "refused",
                  ("certificate is not trusted", "--ca FILE")),
                 ("mqtts://127.0.0.1:%d" % plain.port, "trouble",
                  ("is %d its TLS port?" % plain.port, "mqtt://")),
                 ("mqtt://127.0.0.1:%d" % tls.port, "trouble", ("use mqtts://",)))
        for url, kind, words in cases:
            c = Connection(parse_broker(url), [], name="test-tls")
            c.start()
            try:
                assert _until(lambda: getattr(c, kind), 10), "nothing said for %s" % url
                for w in words:
                    assert w in getattr(c, kind), (url, getattr(c, kind))
                assert not c.connected.is_set()
            finally:
                c.stop()
        # the spectator stops with the words (exit 1), not waiting in silence
        r = _samsara("online", "watch", "7K3M-Q9XD-4FJT", "--broker",
                     "mqtts://127.0.0.1:%d" % tls.port, timeout=60)
        assert r.returncode == 1 and "certificate is not trusted" in r.stderr, r.stderr
    # nothing listening: said, and tried again until it is there
    gone = free_port()
    c = Connection(parse_broker("mqtt://127.0.0.1:%d" % gone), [], name="test-gone")
    c.start()
    try:
        assert _until(lambda: c.trouble, 10)
        assert "nothing listens at 127.0.0.1:%d" % gone in c.trouble and not c.refused
        with Relay(port=gone, folder=str(tmp_path / "late")):
            assert c.connected.wait(15) and c.trouble is None
    finally:
        c.stop()


def test_retained_messages_with_an_expiry_go_from_the_broker(tmp_path):
    _needs()
    with Relay(port=free_port(), folder=str(tmp_path / "relay")) as relay:
        broker = parse_broker(relay.url())
        a = Connection(broker, [], name="test-writer")
        a.start()
        try:
            assert a.connected.wait(10)
            a.publish("samsara/test/short", b"gone soon", retain=True, expire_s=1)
            a.publish("samsara/test/kept", b"kept", retain=True)
        finally:
            a.stop()
        time.sleep(2.5)
        b = Connection(broker, ["samsara/test/#"], name="test-reader")
        b.start()
        got = {}
        try:
            _until(lambda: _drain(b, got) and "samsara/test/kept" in got, 10)
            time.sleep(0.5)
            _drain(b, got)
        finally:
            b.stop()
        assert got == {"samsara/test/kept": b"kept"}


def _drain(conn, into):
    while True:
        try:
            t, payload = conn.inbox.get_nowait()
        except Exception:
            return True
        if t is not None:
            into[t] = payload


def test_an_abandoned_games_retained_messages_expire(tmp_path):
    """A host that starts a game and goes away: its announcement is retained with the
    expiry of a game that is on (bridge.RETAIN_S), so the broker drops it in time."""
    _needs()
    tmp = str(tmp_path)
    with Relay(port=free_port(), folder=os.path.join(tmp, "relay")) as relay:
        vb, port = K.vboard(os.path.join(tmp, "board"), 5, "A", tmp)
        host = None
        try:
            host = K.bridge("host", relay.url(), port, "Anna", os.path.join(tmp, "st"), tmp,
                            side="A")
            code = host.wait_line("code: ", 30)[len("code: "):]
            gid, _s = parse_code(code)
            assert _retained_expiry(relay.port, gid, 30) is not None   # announced
        finally:
            if host is not None:
                host.stop()                                 # and gone for good
            vb.stop()
        left = _retained_expiry(relay.port, gid, 10)
    assert left is not None and bridge.RETAIN_S - 120 < left <= bridge.RETAIN_S


def _retained_expiry(port, gid, seconds):
    """The expiry left of game gid's retained `host` message (None: none came)."""
    import paho.mqtt.client as paho
    got = {}
    c = paho.Client(paho.CallbackAPIVersion.VERSION2, protocol=paho.MQTTv5)
    c.on_message = lambda _c, _u, m: got.setdefault(
        m.topic, getattr(m.properties, "MessageExpiryInterval", None))
    c.on_connect = lambda cl, *_a: cl.subscribe(wire.topic(gid, "host"), qos=1)
    c.connect("127.0.0.1", port)
    c.loop_start()
    try:
        _until(lambda: wire.topic(gid, "host") in got, seconds)
    finally:
        c.loop_stop()
        c.disconnect()
    return got.get(wire.topic(gid, "host"))


def test_the_broadcast_list_drops_a_game_once_its_board_expired():
    now = [100.0]
    live = LiveGames(clock=lambda: now[0])
    body = (b'{"game": "K7Q2", "names": {"A": "Anna", "B": "Ben"}, "position": '
            b'"oooooo................../oooooo.................. 0-0 A", "turns": 0}')
    live.handle("samsara/v1/live/K7Q2", body, expire_s=bridge.LIVE_S)
    live.handle("samsara/v1/live/AAAA", body.replace(b"K7Q2", b"AAAA"))   # no expiry
    assert [g["game"] for g in live.games()] == ["AAAA", "K7Q2"]
    now[0] += bridge.LIVE_S - 1
    assert [g["game"] for g in live.games()] == ["AAAA", "K7Q2"]
    now[0] += 2
    assert [g["game"] for g in live.games()] == ["AAAA"]
    live.handle("samsara/v1/live/AAAA", b"")                  # cleared on the broker
    assert live.games() == []


def test_the_broadcast_list_follows_the_broker_the_page_names(tmp_path):
    # The app without --broker: the Online page's list shows the public games of the
    # broker in its field (or of its game), and says why none come from a broker that
    # is not there.
    import json
    import urllib.error
    import urllib.request
    from samsara_host.app.server import AppServer
    _needs()

    def ask(url):
        try:
            with urllib.request.urlopen(url, timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    body = (b'{"game": "K7Q2", "names": {"A": "Anna", "B": ""}, "position": '
            b'"oooooo................../oooooo.................. 0-0 A", "turns": 0, '
            b'"over": false, "waiting": true}')
    with Relay(port=free_port(), folder=str(tmp_path / "relay")) as relay:
        w = Connection(parse_broker(relay.url()), [], name="test-host")
        w.start()
        assert w.connected.wait(10)
        w.publish(wire.live_topic("K7Q2"), body, retain=True, expire_s=60)
        srv = AppServer(str(tmp_path / "logs"))
        url = srv.start(free_port(taken=(relay.port,)))
        try:
            code, data = ask(url + "api/online")
            assert code == 200 and data["broker"] is None and data["games"] == []
            q = url + "api/online?broker=" + urllib.request.quote(relay.url(), safe="")
            assert _until(lambda: ask(q)[1]["games"], 10), ask(q)
            code, data = ask(q)
            assert data["broker"] == relay.url() and data["trouble"] is None
            assert [g["game"] for g in data["games"]] == ["K7Q2"]
            assert data["games"][0]["waiting"]
            code, data = ask(url + "api/online?broker=http%3A%2F%2Fx")
            assert code == 400 and "mqtt://HOST:PORT" in data["error"]
            gone = free_port(taken=(relay.port,))
            q2 = url + "api/online?broker=mqtt%%3A%%2F%%2F127.0.0.1%%3A%d" % gone
            assert _until(lambda: ask(q2)[1]["trouble"], 10)
            assert "nothing listens at 127.0.0.1:%d" % gone in ask(q2)[1]["trouble"]
        finally:
            srv.stop()
            w.publish(wire.live_topic("K7Q2"), b"", retain=True)
            w.stop()


@pytest.mark.parametrize("port", ["99999", "-5", "70000", "0"])
def test_relay_refuses_a_port_out_of_range_in_one_line_and_leaves_nothing(tmp_path, port):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    r = _samsara("relay", "--port=" + port, env={"TMPDIR": str(tmp)}, timeout=60)
    assert r.returncode == 2
    assert r.stderr == "samsara relay: --port is 1..65535\n" and r.stdout == ""
    assert list(tmp.iterdir()) == []
    with pytest.raises(RelayError, match="1..65535"):
        Relay(port=70000, folder=str(tmp_path / "never"))
    assert not (tmp_path / "never").exists()
