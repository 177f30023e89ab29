"""The broadcast page's data: every public live game on a broker (docs/online.md
"Messages": `samsara/v1/live/GGGG`, retained, published by a host's bridge with
`--public`).  Its one job is to keep the latest board of each such game, checked
(a position that does not parse, or fields of the wrong kind, are left out), for the
app's Online page (samsara_host.app.server: /online, /api/online).
"""
import json
import threading
import time

from samsara.rules.position import Position
from samsara_host.online import NAME_MAX, wire

FILTER = wire.ROOT + "/live/+"
"""The topic filter of every public game's board."""
MAX_GAMES = 2000


class LiveGames:
    """The public games seen on a broker: handle(topic, payload) from any thread,
    games() for the page."""

    def __init__(self, clock=time.monotonic):
        self.lock = threading.Lock()
        self.by_id = {}
        self.clock = clock

    def handle(self, topic, payload, expire_s=None):
        """One retained or live message of FILTER; an empty payload removes the game.
        expire_s: the message's expiry left (MQTT 5): the game leaves the list then,
        as the broker drops it (docs/online.md "Retained messages")."""
        if topic is None or not topic.startswith(wire.ROOT + "/live/"):
            return
        gid = topic.rsplit("/", 1)[-1][:8]
        if not payload:
            with self.lock:
                self.by_id.pop(gid, None)
            return
        try:
            body = json.loads(payload)
            pos = Position.parse(body["position"]).format()
            names = body.get("names") or {}
            game = {"game": gid, "position": pos,
                    "names": {s: str(names.get(s, ""))[:NAME_MAX] for s in ("A", "B")},
                    "turns": int(body.get("turns", 0)), "over": bool(body.get("over")),
                    "waiting": bool(body.get("waiting")),
                    "last": None,
                    "until": None if expire_s is None else self.clock() + expire_s}
            last = body.get("last")
            if isinstance(last, dict) and isinstance(last.get("move"), str):
                game["last"] = {"turn": int(last.get("turn", 0)), "player":
                                str(last.get("player", ""))[:1], "move": last["move"][:80]}
        except Exception:
            return
        with self.lock:
            if gid in self.by_id or len(self.by_id) < MAX_GAMES:
                self.by_id[gid] = game

    def games(self):
        """The games, live ones first then by id: a list of dicts (game, position,
        names {A, B}, turns, over, waiting (hosted, the other player not joined
        yet), last)."""
        now = self.clock()
        with self.lock:
            for gid in [g for g, v in self.by_id.items() if v["until"] is not None and
                        v["until"] <= now]:
                del self.by_id[gid]
            out = [dict(g) for g in self.by_id.values()]
        for g in out:
            g.pop("until")
        out.sort(key=lambda g: (g["over"], g["game"]))
        return out


def follow(broker):
    """(LiveGames, Connection) following the public games of `broker` (a
    samsara_host.online.mqtt.Broker): the connection runs on its own thread until
    stop(); the LiveGames' `url` is the broker's (no password) and its `conn` the
    Connection (its `refused` and `trouble` say why no game comes)."""
    from samsara_host.online.mqtt import Connection
    live = LiveGames()
    live.url = broker.url()
    conn = Connection(broker, [FILTER], name="samsara-app",
                      on_message=lambda c, u, m: live.handle(
                          m.topic, bytes(m.payload),
                          getattr(m.properties, "MessageExpiryInterval", None)))
    conn.start()
    live.conn = conn
    return live, conn
