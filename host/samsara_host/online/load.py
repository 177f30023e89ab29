"""Many online games at once on one broker: `samsara online load --games N --broker URL`
(docs/online.md "How many games a broker carries", docs/performance.md).  Its one job
is to play N simultaneous games between simulated bridges (no boards, no firmware:
each side is a samsara_host.online.peer.Peer that plays a random legal turn after a
pause) and measure what the network part does: turns sent, the latency of each turn
from the sender's publish to the receiver taking it, lost and duplicated turns.

Every simulated bridge has its own MQTT connection (paho-mqtt), as a real bridge has;
the connections of one process share one event loop (paho's external loop on a
selector), and the games are spread over `procs` processes.  Each side seals and opens
every message as a real bridge does (AES-GCM), and the dice are drawn jointly turn by
turn.  A game stops after `turns` turns (or at its end, when that comes first).

    res = run_load("mqtt://localhost:1883", games=500, turns=10)
    print("\\n".join(res.lines())); res.ok()
"""
import heapq
import multiprocessing
import os
import random
import selectors
import time

import paho.mqtt.client as paho

from samsara_host.online import peer as pr
from samsara_host.online import wire
from samsara_host.online.code import game_key, new_code, parse_code

THINK_S = (1.0, 3.0)
"""A simulated player's pause before its turn, s (uniform in this range)."""
START_S = 5.0
"""The games start spread over this many seconds (as players do), s."""
KEY_ROUNDS = 1000
"""PBKDF2 rounds for the simulated games' keys (the real 20000 would take the load
test a minute of key making; the messages are sealed the same way)."""


class Side:
    """One simulated bridge: a Peer on its own MQTT client."""

    def __init__(self, run, gid, sealer, side, seed):
        self.run = run
        self.side = side
        self.rng = random.Random(seed)
        self.due = None
        self.applied = {}      # turn number -> times the far turn was taken
        self.sent = 0
        self.c = paho.Client(paho.CallbackAPIVersion.VERSION2,
                             client_id="load-%s-%s-%d" % (gid, side, os.getpid()),
                             protocol=paho.MQTTv311, clean_session=True)
        self.c.max_queued_messages_set(0)
        run.broker.configure(self.c)
        self.peer = pr.Peer(sealer, pr.new_state(gid, side, "sim-" + side), self._publish,
                            clock=time.time)
        self.peer.on_turn = self._on_turn
        c = self.c
        c.on_socket_open = run.sock_open
        c.on_socket_close = run.sock_close
        c.on_socket_register_write = run.sock_want_write
        c.on_socket_unregister_write = run.sock_no_write
        c.on_connect = self._on_connect
        c.on_message = self._on_message
        self.topic_far = wire.topic(gid, self.peer.far)
        self.connected = False
        self.live = False          # the game started (Run.go spreads the starts)

    def _publish(self, topic, payload, retain):
        self.c.publish(topic, payload, qos=1, retain=retain)
        self.run.messages += 1

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        if reason_code.is_failure:
            return
        client.subscribe(self.topic_far, qos=1)
        self.connected = True
        self.run.connected += 1

    def _on_message(self, client, userdata, msg):
        if self.peer.handle(msg.topic, bytes(msg.payload)):
            self.poke()

    def _on_turn(self, t, latency):
        n = t["turn"]
        self.applied[n] = self.applied.get(n, 0) + 1
        if latency is not None:
            self.run.latencies.append(latency)

    def done(self):
        return self.peer.game.over() or len(self.peer.st["turns"]) >= self.run.turns

    def poke(self):
        """Commit and reveal when due; schedule this side's turn once its dice are in."""
        if self.done() or not self.live:
            return
        pe = self.peer
        pe.step()
        k = pe.next_turn()
        if self.due is None and pe.mover() == self.side and pe.dice(k) is not None:
            self.due = time.monotonic() + self.rng.uniform(*self.run.think)
            heapq.heappush(self.run.timers, (self.due, id(self), self))

    def play(self):
        """This side's turn: a random legal turn for the joint dice (or the game's
        start: its first commit)."""
        self.due = None
        if not self.live:
            self.live = True
            self.poke()
            return
        pe = self.peer
        k = pe.next_turn()
        d1, d2 = pe.dice(k)
        legal = pe.game.legal_turns(d1, d2)
        if legal:
            note = self.rng.choice(legal)[0]
        else:
            note = "%d%d Moksha" % (max(d1, d2), min(d1, d2))
        why = pe.near_turn(k, note)
        if why is None:
            self.sent += 1
        self.poke()


class Run:
    """The games of one process and their event loop."""

    def __init__(self, broker, games, turns, think, seed, first=0):
        self.broker = broker
        self.turns = turns
        self.think = think
        self.sel = selectors.DefaultSelector()
        self.timers = []
        self.latencies = []
        self.messages = 0
        self.connected = 0
        self.started = False
        rng = random.Random(seed)
        self.sides = []
        for g in range(games):
            _gid, secret = parse_code(new_code(rng))
            gid = _game_id(first + g)       # one game a topic: ids counted, not drawn
            sealer = wire.Sealer(game_key(gid, secret, KEY_ROUNDS))
            a = Side(self, gid, sealer, "A", rng.random())
            b = Side(self, gid, sealer, "B", rng.random())
            self.sides += [a, b]

    # paho's external loop: its socket in our selector
    def sock_open(self, client, userdata, sock):
        self.sel.register(sock, selectors.EVENT_READ, client)

    def sock_close(self, client, userdata, sock):
        try:
            self.sel.unregister(sock)
        except (KeyError, ValueError):
            pass

    def sock_want_write(self, client, userdata, sock):
        self.sel.modify(sock, selectors.EVENT_READ | selectors.EVENT_WRITE, client)

    def sock_no_write(self, client, userdata, sock):
        try:
            self.sel.modify(sock, selectors.EVENT_READ, client)
        except (KeyError, ValueError):
            pass

    def _spin(self, timeout):
        for key, mask in self.sel.select(timeout):
            c = key.data
            if mask & selectors.EVENT_READ:
                c.loop_read()
            if mask & selectors.EVENT_WRITE:
                c.loop_write()

    def go(self, limit_s):
        """Connect every side, start the games, run until all are done or limit_s
        passes.  Returns (seconds the games took, games not done)."""
        for s in self.sides:
            s.c.connect(self.broker.host, self.broker.port, keepalive=120)
        t_misc = time.monotonic()
        deadline = time.monotonic() + 60
        while self.connected < len(self.sides) and time.monotonic() < deadline:
            self._spin(0.05)
        self.started = True
        t0 = time.monotonic()
        for i, s in enumerate(self.sides):
            s.peer.hello()            # first the hellos, then the games start, spread
            start = t0 + 0.5 + START_S * ((i // 2) / max(1, len(self.sides) // 2))
            s.due = start
            heapq.heappush(self.timers, (start, id(s), s))
        end = t0 + limit_s
        while time.monotonic() < end:
            now = time.monotonic()
            while self.timers and self.timers[0][0] <= now:
                _t, _i, s = heapq.heappop(self.timers)
                s.play()
            wait = 0.05 if not self.timers else max(0.0, min(0.05, self.timers[0][0] - now))
            self._spin(wait)
            if now - t_misc >= 1.0:
                t_misc = now
                for s in self.sides:
                    s.c.loop_misc()
                if all(s.done() for s in self.sides):
                    break
        took = time.monotonic() - t0
        # a second for the last messages, then the books
        t1 = time.monotonic()
        while time.monotonic() - t1 < 1.0:
            self._spin(0.05)
        for s in self.sides:
            s.c.disconnect()
        self._spin(0.1)
        return took, sum(1 for s in self.sides if not s.done())

    def books(self):
        """(turns sent, turns lost, turns duplicated, messages dropped)."""
        sent = lost = dup = dropped = 0
        by_game = {}
        for s in self.sides:
            by_game.setdefault(s.peer.gid, []).append(s)
            sent += s.sent
            dropped += s.peer.dropped
            dup += sum(v - 1 for v in s.applied.values() if v > 1)
        for a, b in by_game.values():
            for me, far in ((a, b), (b, a)):
                mine = set(t["turn"] for t in me.peer.st["turns"] if t["player"] == me.side)
                lost += len(mine - set(far.applied))
        return sent, lost, dup, dropped


def _game_id(n):
    # The n-th game's id: n in base 32 (code.ALPHABET), 4 digits.
    from samsara_host.online.code import ALPHABET
    return "".join(ALPHABET[(n >> (5 * i)) & 31] for i in (3, 2, 1, 0))


def _worker(args, q):
    try:
        q.put(_work(*args))
    except BaseException as e:          # the parent says what went wrong
        q.put({"error": "%s: %s" % (e.__class__.__name__, e)})


def _work(broker, games, turns, think, seed, limit_s, first):
    run = Run(broker, games, turns, think, seed, first)
    took, unfinished = run.go(limit_s)
    sent, lost, dup, dropped = run.books()
    return {"took": took, "unfinished": unfinished, "sent": sent, "lost": lost, "dup": dup,
            "dropped": dropped, "messages": run.messages, "latencies": run.latencies,
            "connected": run.connected, "sides": len(run.sides)}


class LoadResult:
    """The figures of a load run: games, turns sent, latencies (s), lost, duplicated,
    dropped messages, messages sent, seconds, games not done."""

    def __init__(self, games, procs, parts):
        self.games = games
        self.procs = procs
        self.sent = sum(p["sent"] for p in parts)
        self.lost = sum(p["lost"] for p in parts)
        self.dup = sum(p["dup"] for p in parts)
        self.dropped = sum(p["dropped"] for p in parts)
        self.messages = sum(p["messages"] for p in parts)
        self.unfinished = sum(p["unfinished"] for p in parts)
        self.connected = sum(p["connected"] for p in parts)
        self.sides = sum(p["sides"] for p in parts)
        self.took = max([p["took"] for p in parts] or [0.0])
        lat = sorted(x for p in parts for x in p["latencies"])
        self.latencies = lat

    def pct(self, q):
        """The q-quantile of the turn latencies in ms (nearest rank), or None."""
        lat = self.latencies
        if not lat:
            return None
        i = min(len(lat) - 1, max(0, int(round(q * len(lat) + 0.5)) - 1))
        return 1000.0 * lat[i]

    def ok(self):
        """True: every bridge connected, every turn arrived once, every game done."""
        return self.lost == 0 and self.dup == 0 and self.unfinished == 0 and \
            self.connected == self.sides and self.sent > 0

    def lines(self):
        """The figures as lines for the user (and `make bench`)."""
        p50, p99 = self.pct(0.50), self.pct(0.99)
        mx = 1000.0 * self.latencies[-1] if self.latencies else None
        out = ["games: %d at once, %d simulated bridges (%d connected) in %d processes"
               % (self.games, self.sides, self.connected, self.procs),
               "turns sent: %d in %.1f s (%.0f a second), messages sent: %d (%.0f a second)"
               % (self.sent, self.took, self.sent / max(self.took, 1e-9), self.messages,
                  self.messages / max(self.took, 1e-9))]
        if p50 is not None:
            out.append("turn latency, sender to receiver: p50 %.1f ms, p99 %.1f ms, "
                       "max %.1f ms (%d turns)" % (p50, p99, mx, len(self.latencies)))
        out.append("lost turns: %d, duplicated turns: %d, games not done: %d "
                   "(repeats dropped: %d)" % (self.lost, self.dup, self.unfinished,
                                              self.dropped))
        return out


def run_load(broker, games, turns=10, procs=2, think=THINK_S, seed=1, limit_s=None,
             say=None):
    """Play `games` simultaneous simulated games of `turns` turns on `broker` (a
    samsara_host.online.mqtt.Broker, or its URL) in `procs` processes; returns a
    LoadResult.  limit_s: stop waiting after this many seconds (default: enough for the
    turns at the slowest pace).  Raises BrokerError for a URL that is no broker."""
    from samsara_host.online.mqtt import parse_broker
    if isinstance(broker, str):
        broker = parse_broker(broker)
    procs = max(1, min(procs, games))
    if limit_s is None:
        limit_s = 30.0 + turns * (think[1] + 1.0)
    if say:
        say("playing %d games of %d turns on %s in %d processes ..."
            % (games, turns, broker.url(), procs))
    ctx = multiprocessing.get_context("fork")
    q = ctx.Queue()
    workers = []
    per = [games // procs + (1 if i < games % procs else 0) for i in range(procs)]
    for i, n in enumerate(per):
        w = ctx.Process(target=_worker, args=((broker, n, turns, think, seed * 1000 + i,
                                               limit_s, sum(per[:i])), q))
        w.start()
        workers.append(w)
    parts = []
    try:
        for _ in workers:
            parts.append(q.get(timeout=limit_s + 120))
    finally:
        for w in workers:
            w.join(10)
            if w.is_alive():
                w.terminate()
    errors = [p["error"] for p in parts if "error" in p]
    if errors:
        raise RuntimeError("a load process failed: %s" % errors[0])
    return LoadResult(games, procs, parts)
