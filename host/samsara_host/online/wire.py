"""The messages of an online game on the broker (docs/online.md "Messages"): topics,
and sealing a message so that only holders of the code can read it and nobody else can
make one.

Topics (`GID`: the game's id from its code):

    samsara/v1/GID/host    retained: the host's side and name (sealed)
    samsara/v1/GID/A       what side A's bridge sends (sealed, QoS 1)
    samsara/v1/GID/B       what side B's bridge sends
    samsara/v1/GID/rec     retained: the record so far, for spectators (sealed)
    samsara/v1/live/GID    retained, plain JSON: a public game's board for the broadcast
                           page (only when the host allows it)

A sealed payload is one JSON object `{"v": 1, "s": SEQ, "n": NONCE, "c": DATA}`: `s` the
sender's message number (0 for control messages), `n` 12 random bytes and `c` the body
(a JSON object) encrypted and authenticated with AES-256-GCM under the game's key
(samsara_host.online.code.game_key); the topic and `s` are authenticated with it, so a
message moved to another topic or renumbered does not open.
"""
import base64
import json
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

ROOT = "samsara/v1"
MAX_PAYLOAD = 16384
"""The largest payload opened on a side's topic or the host's (bytes); larger ones are
dropped unread, with the reason (Unreadable "too long")."""
MAX_RECORD_PAYLOAD = 1 << 20
"""The largest payload opened on the record's topic (`rec`, bytes): the whole record
of a game, about 500 bytes a turn (each turn with both commits and reveals), so 1 MiB
holds some 2000 turns, far past the longest games the rules give (100-150 turns)."""


def max_payload(tpc):
    """The largest payload (bytes) opened on topic `tpc` (MAX_RECORD_PAYLOAD for a
    game's `rec`, MAX_PAYLOAD for the others)."""
    return MAX_RECORD_PAYLOAD if tpc.endswith("/rec") else MAX_PAYLOAD


def topic(game_id, what):
    """The topic of game `game_id` for `what` ("A", "B", "host", "rec")."""
    return "%s/%s/%s" % (ROOT, game_id, what)


def live_topic(game_id):
    """The public topic of a game shown on the broadcast page."""
    return "%s/live/%s" % (ROOT, game_id)


class Unreadable(ValueError):
    """A payload that does not open: str() starts with why ("garbled", "forged",
    "too long")."""


class Sealer:
    """Seals and opens the bodies of one game with its 32-byte key."""

    def __init__(self, key):
        self.aead = AESGCM(key)

    def seal(self, tpc, seq, body):
        """The payload (bytes) carrying dict `body` as message `seq` on topic `tpc`."""
        nonce = os.urandom(12)
        data = json.dumps(body, separators=(",", ":")).encode("utf-8")
        ct = self.aead.encrypt(nonce, data, ("%s|%d" % (tpc, seq)).encode("utf-8"))
        return json.dumps({"v": 1, "s": seq, "n": base64.b64encode(nonce).decode("ascii"),
                           "c": base64.b64encode(ct).decode("ascii")},
                          separators=(",", ":")).encode("ascii")

    def open(self, tpc, payload):
        """(seq, body dict) of a payload received on topic `tpc`.  Raises Unreadable
        for anything that is not a sealed message of this game on this topic."""
        seq, _nonce, body = self.open_nonce(tpc, payload)
        return seq, body

    def open_nonce(self, tpc, payload):
        """(seq, nonce bytes, body dict) of a payload received on topic `tpc`, as
        open(): the nonce tells a copy of a message (the same bytes, a replay) from
        the same message sealed again (a resend: a fresh nonce).  Raises Unreadable."""
        limit = max_payload(tpc)
        if len(payload) > limit:
            raise Unreadable("too long: %d bytes, at most %d are opened on this topic"
                             % (len(payload), limit))
        try:
            env = json.loads(payload)
            seq = env["s"]
            nonce = base64.b64decode(env["n"], validate=True)
            ct = base64.b64decode(env["c"], validate=True)
            ok = env.get("v") == 1 and isinstance(seq, int) and not isinstance(seq, bool) \
                and 0 <= seq < 1 << 31 and len(nonce) == 12
        except Exception:
            raise Unreadable("garbled: not a sealed message")
        if not ok:
            raise Unreadable("garbled: not a sealed message")
        try:
            data = self.aead.decrypt(nonce, ct, ("%s|%d" % (tpc, seq)).encode("utf-8"))
        except InvalidTag:
            raise Unreadable("forged: it does not open with the game's key")
        try:
            body = json.loads(data)
        except ValueError:
            raise Unreadable("garbled: the body is not JSON")
        if not isinstance(body, dict) or not isinstance(body.get("k"), str):
            raise Unreadable("garbled: the body has no kind")
        return seq, nonce, body
