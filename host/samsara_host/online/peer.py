"""One side's part of an online game (docs/online.md "Messages", "Fair dice"): its
numbered messages, the joint dice and the agreed record.  Its one job is the game
between the two bridges, with no board and no network in it: the bridge
(samsara_host.online.bridge) and the load test's simulated bridges
(samsara_host.online.load) drive it, and give it a `publish(topic, payload, retain)`.

Numbered messages (body kinds, `s` 1, 2, 3, ... per sender):

    commit  {"turn": K, "h": sha256(R) hex}    before either side reveals R for turn K
    reveal  {"turn": K, "r": R hex}            once the other side's commit of K is in
    turn    {"turn": K, "player", "dice", "move", "ts"}   the sender's turn K played
    done    {"turn": K}                        the sender's board carried out turn K

Control messages (`s` 0, never numbered): `hello` {"name", "side", "rx", "ask", "id",
"pid"} and `sync` {"rx", "ask", "id", "pid"}: `rx` is the number of the next message the
sender expects; the other side sends again every message from there.  A control message
seen before (its `id`) is a replay.  `pid` is the sender's player id (random, kept in
its file): the first one heard from the other side is that side's player for the whole
game (`far_id`); a control message with another one is a third player with the code,
dropped with one line and changing nothing.

A numbered message is taken only as the next one expected: a higher number is out of
order (a `sync` asks for the gap), dropped with one line in the log; a lower one is
dropped too, with one line when it is a copy of a message this side had (the same
nonce: a replay), and quietly when it is the other side's own resend (sealed again, a
fresh nonce: the answer to a `hello` or `sync`, normal at every (re)connection).  The
nonces of the messages taken are kept in the state (`rx_nonces`), so a replay is
known after a restart too.  Nothing that does not open with the game's key gets this far
(samsara_host.online.wire).

Fair dice: for turn K each side draws 32 random bytes R, sends their SHA-256 (commit),
and reveals R only after the other side's commit of K is in and turn K-1 is in the
record; the dice are the first two bytes below 252 of
SHA-256("samsara-dice|GID|K|" + R_A + R_B), each taken mod 6 plus 1.  Neither side can
choose them, and neither knows them before the turn before is sent.  The record keeps
both commits and reveals of every turn, so anyone with the code can check them.
"""
import hashlib
import json
import os
import secrets
import time

from samsara.rules.game import Game
from samsara_host.gametags import TagError, check_text
from samsara_host.online import NAME_MAX, wire

SIDES = "AB"


def other(side):
    """The other side's letter."""
    return "B" if side == "A" else "A"


def joint_dice(game_id, k, r_a, r_b):
    """The dice (d1, d2) of turn k from both sides' revealed bytes (hex texts)
    (module docstring "Fair dice")."""
    h = hashlib.sha256(("samsara-dice|%s|%d|" % (game_id, k)).encode("ascii") +
                       bytes.fromhex(r_a) + bytes.fromhex(r_b)).digest()
    out = []
    while len(out) < 2:
        for b in h:
            if b < 252:
                out.append(b % 6 + 1)
                if len(out) == 2:
                    break
        h = hashlib.sha256(h).digest()
    return out[0], out[1]


def new_state(game_id, side, name):
    """The saved state of a fresh game for side `side` ("A"/"B") named `name`."""
    return {"v": 1, "game": game_id, "side": side, "names": {side: name},
            "me": secrets.token_hex(8), "far_id": None,
            "out": [], "rx": 1, "nonces": {}, "commits": {"A": {}, "B": {}},
            "reveals": {"A": {}, "B": {}}, "turns": [], "done": 0, "board_game": None}


def _is_hex(v, n):
    if not isinstance(v, str) or len(v) != n:
        return False
    try:
        bytes.fromhex(v)
    except ValueError:
        return False
    return True


def far_name(text):
    """The far player's name from its `hello`, as this side's own names are checked
    (gametags.check_text: no control or format characters, no lone surrogate), cut to
    NAME_MAX characters; "" for a name that is not one (the board's log takes no such
    text)."""
    try:
        return check_text(text[:NAME_MAX], "the far player's name", NAME_MAX)
    except TagError:
        return ""


class Peer:
    """One side of one game (module docstring).  sealer: wire.Sealer of the game's key;
    state: new_state()'s dict (or one loaded from the side's file); publish(topic,
    payload bytes, retain): sends; log(text): one line for the bridge's log; save(state):
    called before anything that must survive a restart is sent (None: nothing kept);
    clock: seconds (time.time).  Attributes: st (the state), game (the record as a
    samsara.rules.game.Game), peer_rx (the other side's last `rx`), dropped (count of
    messages not taken), repeats (of them, the other side's own resends)."""

    SYNC_EVERY_S = 0.5

    def __init__(self, sealer, state, publish, log=None, save=None, clock=time.time):
        self.sealer = sealer
        self.st = state
        self.gid = state["game"]
        self.side = state["side"]
        self.far = other(self.side)
        self.publish = publish
        self.log = log or (lambda text: None)
        self.save_fn = save
        self.clock = clock
        self.peer_rx = 0
        self.dropped = 0
        self.repeats = 0            # of them, messages the other side sent again
        self.nonces = set()         # nonces (hex) of the other side's numbered messages
        self.seen = set()           # ids of control messages taken
        self.t_sync = -1e9
        self.on_turn = None         # on_turn(turn dict, latency s or None): a turn came in
        self.game = Game()
        for t in state["turns"]:
            self.game.play_notation(t["move"])

    # -- sending ------------------------------------------------------------------------

    def save(self):
        if self.save_fn is not None:
            self.save_fn(self.st)

    def _topic(self, side):
        return wire.topic(self.gid, side)

    def _send(self, body):
        out = self.st["out"]
        out.append(body)
        self.save()
        self._publish_seq(len(out))

    def _publish_seq(self, seq):
        self.publish(self._topic(self.side),
                     self.sealer.seal(self._topic(self.side), seq, self.st["out"][seq - 1]),
                     False)

    def control(self, body):
        """Send a control message (hello, sync): not numbered, with a fresh id."""
        body = dict(body, id=secrets.token_hex(8))
        if self.st.get("me"):
            body["pid"] = self.st["me"]
        self.publish(self._topic(self.side), self.sealer.seal(self._topic(self.side), 0, body),
                     False)

    def hello(self, ask=True):
        """Say who this side is and which message it expects next (at every
        (re)connection: the other side sends again what is missing)."""
        self.control({"k": "hello", "name": self.st["names"].get(self.side, ""),
                      "side": self.side, "rx": self.st["rx"], "ask": ask})

    def resend(self, rx):
        """Send again every numbered message from number rx on."""
        out = self.st["out"]
        for seq in range(max(1, rx), len(out) + 1):
            self._publish_seq(seq)

    def acked(self):
        """True when the other side said it has every numbered message sent so far."""
        return self.peer_rx > len(self.st["out"])

    # -- receiving ----------------------------------------------------------------------

    def _drop(self, why):
        self.dropped += 1
        self.log("dropped: %s" % why)

    def handle(self, tpc, payload):
        """A payload received on topic `tpc` of this game (the other side's topic).
        Returns True when the game moved on (a message taken)."""
        if tpc != self._topic(self.far):
            return False
        try:
            seq, nonce, body = self.sealer.open_nonce(tpc, payload)
        except wire.Unreadable as e:
            self._drop("%s (on %s)" % (e, tpc))
            return False
        if seq == 0:
            return self._control(body)
        rx = self.st["rx"]
        tag = nonce.hex()
        taken = self.st.setdefault("rx_nonces", [])
        if seq < rx:
            if tag in self.nonces or (seq <= len(taken) and taken[seq - 1] == tag):
                self._drop("replayed message %d from %s: a copy of one this side had "
                           "already (had up to %d)" % (seq, self.far, rx - 1))
            else:                # the other side sent it again (hello, sync): normal
                self.dropped += 1
                self.repeats += 1
            self.nonces.add(tag)
            return False
        self.nonces.add(tag)
        if seq > rx:
            # (only the other side can seal it: a message lost on the way, at a
            # (re)connection; one line each time the rest is asked for again)
            if self.ask_sync():
                self._drop("out of order: message %d from %s, expected %d: asked for "
                           "the rest again" % (seq, self.far, rx))
            else:
                self.dropped += 1
            return False
        self.st["rx"] = rx + 1
        if len(taken) < rx - 1:            # (a file kept before nonces were)
            taken.extend([None] * (rx - 1 - len(taken)))
        taken[rx - 1:] = [tag]
        why = self._take(body)
        if why:
            self._drop("message %d from %s: %s" % (seq, self.far, why))
        self.save()
        return True

    def ask_sync(self, force=False):
        """Ask the other side for what is missing (at most every SYNC_EVERY_S).
        Returns True when it asked now."""
        now = self.clock()
        if force or now - self.t_sync >= self.SYNC_EVERY_S:
            self.t_sync = now
            self.control({"k": "sync", "rx": self.st["rx"], "ask": True})
            return True
        return False

    def _control(self, body):
        i = body.get("id")
        if not isinstance(i, str) or i in self.seen:
            self._drop("replayed %s from %s" % (body.get("k"), self.far))
            return False
        self.seen.add(i)
        k = body["k"]
        rx = body.get("rx")
        if k not in ("hello", "sync") or not isinstance(rx, int) or isinstance(rx, bool):
            self._drop("a control message that is no hello or sync")
            return False
        pid = body.get("pid")
        if isinstance(pid, str) and pid:
            if self.st.get("far_id") is None:
                self.st["far_id"] = pid           # the other player, from now on
                self.save()
            elif pid != self.st["far_id"]:
                self._drop("a third player (%s) tried to play %s: refused, the game has "
                           "its two players" % (str(body.get("name", "?"))[:NAME_MAX],
                                                self.far))
                return False
        if k == "hello" and isinstance(body.get("name"), str):
            self.st["names"][self.far] = far_name(body["name"])
        self.peer_rx = max(self.peer_rx, rx)
        self.resend(rx)
        if body.get("ask"):
            if k == "hello":
                self.hello(ask=False)
            else:
                self.control({"k": "sync", "rx": self.st["rx"], "ask": False})
        return True

    def _take(self, body):
        # A numbered message of the other side, in order: its effect, or why not.
        k = body["k"]
        n = body.get("turn")
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            return "no turn number"
        key = str(n)
        st = self.st
        if k == "commit":
            if not _is_hex(body.get("h"), 64):
                return "a commit without its hash"
            if key in st["commits"][self.far]:
                return "a second commit of turn %d" % n
            st["commits"][self.far][key] = body["h"]
        elif k == "reveal":
            c = st["commits"][self.far].get(key)
            r = body.get("r")
            if c is None or not _is_hex(r, 64) or key not in st["commits"][self.side]:
                return "a reveal of turn %d before the commits" % n
            if hashlib.sha256(bytes.fromhex(r)).hexdigest() != c:
                return "the reveal of turn %d does not match its commit" % n
            st["reveals"][self.far][key] = r
        elif k == "turn":
            return self._take_turn(body, n)
        elif k == "done":
            st["done"] = max(st["done"], n)
        else:
            return "unknown kind %r" % k[:16]
        return None

    def _take_turn(self, body, n):
        turns = self.st["turns"]
        if n != len(turns) + 1:
            return "turn %d when turn %d is next" % (n, len(turns) + 1)
        if self.game.over():
            return "a turn after the game's end"
        if SIDES[self.game.pos.mover] != self.far or body.get("player") != self.far:
            return "turn %d is not %s's" % (n, self.far)
        dice = self.dice(n)
        move = body.get("move")
        if dice is None:
            return "turn %d before its joint dice" % n
        why = self._play(n, self.far, dice, move)
        if why:
            return why
        ts = body.get("ts")
        lat = self.clock() - ts if isinstance(ts, (int, float)) else None
        if self.on_turn is not None:
            self.on_turn(turns[-1], lat)
        return None

    def _play(self, n, player, dice, move):
        # Check `move` (turn notation) with `dice` against the record and add it.
        if not isinstance(move, str) or len(move) > 80:
            return "turn %d has no turn notation" % n
        parts = move.split()
        roll = "%d%d" % (max(dice), min(dice))
        if not parts or parts[0] != roll:
            return "turn %d is %r, the joint dice are %s" % (n, move, roll)
        try:
            note = self.game.play_notation(move)
        except Exception as e:
            return "turn %d %r: %s" % (n, move, e)
        key = str(n)
        st = self.st
        st["turns"].append({"turn": n, "player": player, "dice": list(dice), "move": note,
                            "score": "%d-%d" % (self.game.pos.a, self.game.pos.b),
                            "joint": {s: [st["commits"][s][key], st["reveals"][s][key]]
                                      for s in SIDES}})
        return None

    # -- the game -----------------------------------------------------------------------

    def next_turn(self):
        """The number of the turn being played (len(record) + 1)."""
        return len(self.st["turns"]) + 1

    def mover(self):
        """"A"/"B": whose turn is next, or None once the game is over."""
        return None if self.game.over() else SIDES[self.game.pos.mover]

    def dice(self, k):
        """The joint dice (d1, d2) of turn k, or None until both reveals are in."""
        key = str(k)
        ra = self.st["reveals"]["A"].get(key)
        rb = self.st["reveals"]["B"].get(key)
        if ra is None or rb is None:
            return None
        return joint_dice(self.gid, k, ra, rb)

    def step(self):
        """Send this side's commit and reveal of the next turn when due (module
        docstring "Fair dice")."""
        if self.game.over():
            return
        k = self.next_turn()
        key = str(k)
        st = self.st
        if key not in st["nonces"]:
            st["nonces"][key] = os.urandom(32).hex()
            st["commits"][self.side][key] = hashlib.sha256(
                bytes.fromhex(st["nonces"][key])).hexdigest()
            self._send({"k": "commit", "turn": k, "h": st["commits"][self.side][key]})
        if key in st["commits"][self.far] and key not in st["reveals"][self.side]:
            st["reveals"][self.side][key] = st["nonces"][key]
            self._send({"k": "reveal", "turn": k, "r": st["nonces"][key]})

    def near_turn(self, n, move):
        """This side played turn n (`move`, turn notation): checked against the record
        and the joint dice, added and sent.  Returns None, or why it was not taken (it
        is not this side's turn n, or not legal)."""
        if n != self.next_turn() or self.mover() != self.side:
            return "turn %d is not %s's next turn" % (n, self.side)
        dice = self.dice(n)
        if dice is None:
            return "turn %d before its joint dice" % n
        why = self._play(n, self.side, dice, move)
        if why:
            return why
        t = self.st["turns"][-1]
        self._send({"k": "turn", "turn": n, "player": self.side, "dice": t["dice"],
                    "move": t["move"], "ts": self.clock()})
        return None

    def carried_out(self, n):
        """This side's board carried out the far turn n: tell the other side."""
        if n > self.st.get("done_sent", 0):
            self.st["done_sent"] = n
            self._send({"k": "done", "turn": n})

    def record_body(self):
        """The record so far as the body of the retained `rec` message (spectators)."""
        return {"k": "rec", "names": self.st["names"], "turns": self.st["turns"],
                "over": self.game.over()}

    def record_message(self):
        """(topic, sealed payload) of the record so far (the retained `rec`)."""
        t = self._topic("rec")
        return t, self.sealer.seal(t, 0, self.record_body())

    def publish_record(self):
        """Publish the retained record for spectators (a record longer than a spectator
        opens, wire.MAX_RECORD_PAYLOAD, is still published, and said in the log)."""
        t, payload = self.record_message()
        if len(payload) > wire.max_payload(t):
            self.log("the record of %d turns is %d bytes, more than a spectator opens "
                     "(%d): a spectator who comes late will not see it"
                     % (len(self.st["turns"]), len(payload), wire.max_payload(t)))
        self.publish(t, payload, True)


def load_state(path):
    """A side's saved state (JSON), or None when the file does not exist."""
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def save_state(path, st):
    """Write a side's state to `path` whole (a new file renamed over the old)."""
    tmp = path + ".tmp"
    # (only its owner reads it: it holds the game's code and the secret bytes of the dice)
    with os.fdopen(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
        json.dump(st, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
