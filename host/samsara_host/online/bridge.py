"""A board and the broker joined for one online game: `samsara online host|join`
(docs/online.md "What a bridge does").  Its one job is to keep the near board and the
agreed game (samsara_host.online.peer) in step, in both directions:

- the near player's turn, once complete on the board (`turn_complete`, or the board's
  record after a restart), goes to the other side;
- the far player's turn, once in, goes to the board with `far_turn` (lit and insisted
  on); when the board has carried it out, the other side hears `done`;
- the joint dice of the next roll go to the board with `set_dice` (`joint`): the near
  player's roll button and the board's roll for the far player both use them.

It works from what the board says now (`status`, `position`), not from a memory of
what it did: after a restart of the bridge, the board or the broker it simply looks
again and does what is still to do.  Its state (messages sent, the secret bytes of the
dice, the record) is kept in a file per game, written before anything leaves, so a
bridge killed at any moment resumes the same game at the same turn.
"""
import json
import os
import time

from samsara_host.boardlink import BoardError, LinkError, NoReply
from samsara_host.online import peer as pr
from samsara_host.online import NAME_MAX, wire
from samsara_host.online.code import game_key, parse_code
from samsara_host.online.watch import WRONG_CODE_S, wrong_code_words

REFRESH_S = 1.0
"""Longest time between two looks at the board (s)."""
RETAIN_S = 7 * 24 * 3600
"""While a game is on, its retained messages (`host`, `rec`) expire this long after
they were last published (s): a game left for a week goes from the broker by itself
(docs/online.md "Retained messages")."""
LIVE_S = 600
"""The broadcast page's board of a public game (`live`) expires this long after it was
last published (s); the host's bridge publishes it again every LIVE_EVERY_S, so only a
game whose host is gone drops off the page."""
LIVE_EVERY_S = 120
END_RECORD_S = 3600
"""At the game's end: the final record stays this long for a spectator who comes late
(s); the host's announcement is cleared at once."""
END_LIVE_S = 300
"""At the game's end: the final board stays on the broadcast page this long (s)."""
FINISH_WAIT_S = 10.0
"""How long the bridge waits at the game's end for the other side to confirm it has
every message (s)."""
WAIT_HOST_S = 30.0
"""How long `join` waits for the host's announcement of the game before it gives up
(s)."""
GUARD_MIN_S = 1.0
GUARD_MAX_S = 60.0
"""A retained message of the game that is not this side's (the record `rec`, and for
the host its announcement `host`) which does not open with the game's key, is empty,
or is older than this side's (a replay): the bridge publishes its own again (docs/
online.md "Retained messages"), at once the first time, then after GUARD_MIN_S,
doubling each time up to GUARD_MAX_S (back to GUARD_MIN_S after GUARD_MAX_S without
one), so that two parties who each take the other's for a stranger's (two games with
the same id on one broker) cannot keep the broker busy."""
EVENTS_THAT_MATTER = ("roll", "turn", "turn_complete", "game_start", "game_over",
                      "moksha", "resume", "boot", "repair_end", "sub", "reject")


def state_dir(folder=None):
    """The folder of the bridges' game files: `folder`, or $SAMSARA_ONLINE_DIR, or
    ~/.samsara/online (made when missing)."""
    d = folder or os.environ.get("SAMSARA_ONLINE_DIR") or os.path.join(
        os.path.expanduser("~"), ".samsara", "online")
    os.makedirs(d, exist_ok=True)
    return d


class BridgeError(Exception):
    """The bridge cannot go on (the board refused the game, no host on the broker);
    str() says what to do."""


class Bridge:
    """One side's bridge (module docstring).  board: a samsara_host.boardlink.BoardClient
    of the near board; connect(subscriptions, on_message) -> a started
    samsara_host.online.mqtt.Connection-like object (inbox, publish, stop); code: the
    game's code; side: "A"/"B" for the host, None for the one who joins (it takes the
    other side of the host's); name: this player's name; folder: where the game's file
    is kept; public: (host) show the game on the broadcast page; say(text): a line for
    the player; log(text): a line for the bridge's log.  The board may be any object
    with BoardClient's request and poll_events (the app's: onlineplay.WatchedBoard).
    `progress` (replaced whole, so another thread may read it): where the game stands
    for a player: game, side, names, turns, over, score, position, last turn, mover,
    and `waiting`, what the player waits for in words (docs/online.md "What a bridge
    does")."""

    def __init__(self, board, connect, code, side=None, name="", folder=None,
                 public=False, say=print, log=None, clock=time.monotonic):
        self.board = board
        self.gid, secret = parse_code(code)
        self.sealer = wire.Sealer(game_key(self.gid, secret))
        self.host = side is not None
        self.side = side
        self.name = name or ("host" if self.host else "guest")
        self.public = public
        self.say = say
        self.log = log or say
        self.clock = clock
        self.code = "%s-%s-%s" % (self.gid, secret[:4], secret[4:])
        self.path = os.path.join(state_dir(folder), "game-%s.json" % self.gid)
        kept = pr.load_state(self.path)       # (checked before anything is sent)
        if kept is not None and kept.get("game") == self.gid and kept.get("code") and \
                parse_code(kept["code"])[1] != secret:
            raise BridgeError(kept_code_words(self.gid, self.path, self.host))
        self.conn = connect([wire.topic(self.gid, "+")])
        self.peer = None
        self.progress = {"game": self.gid, "side": side, "names": {}, "turns": 0,
                         "over": False, "waiting": "connecting to the broker",
                         "position": None, "last": None, "score": "0-0"}
        self.t_live = -1e9
        self.bs = None             # the board's state as last looked at
        self.dirty = True
        self.t_look = -1e9
        self.given = 0             # the far turn last given to the board
        self.dice_for = 0          # the roll whose joint dice the board was last given
        self.told_wait = 0
        self.told_roll = 0
        self.told_done = 0
        self.guard_due = set()     # the retained messages to publish again ("rec", "host")
        self.guard_next = -1e9     # not before this time (clock)
        self.guard_gap = GUARD_MIN_S
        self.guard_last = -1e9     # when the last one that was not ours came

    # -- the game's state -----------------------------------------------------------------

    def _save(self, st):
        pr.save_state(self.path, st)

    def _publish(self, topic, payload, retain):
        # The peer's messages: a retained one (the record) expires (RETAIN_S).
        self.conn.publish(topic, payload, retain, RETAIN_S if retain else None)

    def _host_message(self):
        # The announcement; once the other player is in, with its id and name (a third
        # who comes with the code is then refused before it sends anything).
        t = wire.topic(self.gid, "host")
        body = {"k": "host", "side": self.side, "name": self.name}
        st = self.peer.st if self.peer is not None else {}
        if st.get("far_id"):
            body["guest_id"] = st["far_id"]
            body["guest"] = st["names"].get(pr.other(self.side), "")
        self._announced = body.get("guest_id")
        self.conn.publish(t, self.sealer.seal(t, 0, body), True, RETAIN_S)

    def check_broker(self):
        """Raise BridgeError when the broker refused the connection (a wrong login, a
        TLS certificate not trusted); say once in the log why it cannot be reached now
        (it is tried again)."""
        self._refused()

    def _refused(self):
        # The broker refused the connection (a wrong login, a TLS certificate not
        # trusted): no use waiting.  A broker not reachable now is said once (in the
        # log and in `progress`) and tried again.
        if getattr(self.conn, "refused", None):
            raise BridgeError(self.conn.refused)
        trouble = getattr(self.conn, "trouble", None)
        if trouble != getattr(self, "_trouble_said", None):
            self._trouble_said = trouble
            if trouble:
                self.log(trouble)
                self.progress = dict(self.progress, waiting=trouble)

    def _start_peer(self, wait_s, stop=None):
        # False when stop() said to stop while the one who joins waited for the host
        st = pr.load_state(self.path)
        if st is not None and st.get("game") == self.gid:
            if self.host and st["side"] != self.side:
                raise BridgeError("this game's file says you play %s, not %s (%s)"
                                  % (st["side"], self.side, self.path))
            g = pr.Peer(self.sealer, st, lambda *a: None).game
            if ended(st, g):
                raise BridgeError(
                    "game %s is over (%d turns, %d-%d; its record is in %s): there is "
                    "nothing to go on with; start a new game with `samsara online host`"
                    % (self.gid, len(st["turns"]), g.pos.a, g.pos.b, self.path))
            self.side = st["side"]
            if not st.get("code"):         # (a file kept before the code was)
                st["code"] = self.code
                st.setdefault("role", "host" if self.host else "join")
                self._save(st)
            self.say("resuming game %s as %s at turn %d" % (self.gid, self.side,
                                                            len(st["turns"]) + 1))
        else:
            if not self.host:
                host_side = self._wait_host(wait_s, stop)
                if host_side is None:
                    return False
                self.side = pr.other(host_side)
            st = pr.new_state(self.gid, self.side, self.name)
            st["code"] = self.code
            st["role"] = "host" if self.host else "join"
            self._save(st)
        self.peer = pr.Peer(self.sealer, st, self._publish, self.log, self._save)
        if self.host:
            self._host_message()
        self.peer.hello()
        return True

    def _wait_host(self, wait_s, stop=None):
        # The host's side from its retained message (the one who joins takes the other);
        # None when stop() says to stop (checked at every look: the broker need not be
        # reachable).  A game already over (its final record, no announcement) ends
        # the wait at once; the game's announcement or record not opening with the code
        # (a wrong secret) once nothing of the game opened for WRONG_CODE_S after it (a
        # stranger's in their place is put back by the host's bridge at once).
        deadline = self.clock() + wait_s
        t = wire.topic(self.gid, "host")
        rec = wire.topic(self.gid, "rec")
        where = self._broker_words()
        self.say("waiting for game %s to be announced on %s (at most %.0f s)"
                 % (self.gid, where, wait_s))
        self.progress = dict(self.progress, waiting="looking for game %s on the broker"
                             % self.gid)
        t_wrong = None          # when the game's retained messages did not open
        while self.clock() < deadline:
            if stop is not None and stop():
                return None
            self._refused()
            if t_wrong is not None and self.clock() - t_wrong >= WRONG_CODE_S:
                raise BridgeError(wrong_code_words(self.gid, where, "the host"))
            try:
                tpc, payload = self.conn.inbox.get(timeout=0.2)
            except Exception:
                continue
            if tpc not in (t, rec) or not payload:
                if payload and tpc.startswith(wire.topic(self.gid, "")):
                    self._check_side_topic(tpc, payload)   # (a stranger's junk: said)
                continue
            try:
                _s, body = self.sealer.open(tpc, payload)
            except wire.Unreadable as e:
                # (a wrong secret, or a stranger's message in the place of the game's:
                # the host's bridge puts its own back at once, so wait a little)
                self.log("dropped: %s (on %s)" % (e, tpc))
                if str(e).startswith("forged") and t_wrong is None:
                    t_wrong = self.clock()
                continue
            t_wrong = None
            if tpc == rec:
                if body.get("over"):
                    raise BridgeError(
                        "game %s is over (%d turns): there is nothing to join; `samsara "
                        "online watch CODE` shows its record, `samsara online host` "
                        "starts a new game" % (self.gid, len(body.get("turns") or [])))
                continue
            if body.get("k") == "host" and body.get("guest_id"):
                host = str(body.get("name"))[:NAME_MAX]
                raise BridgeError(
                    "game %s already has its two players (%s as %s, %s as %s): nobody "
                    "else can join it; ask %s for a new game, or watch this one with "
                    "`samsara online watch CODE`" % (
                        self.gid, host, body.get("side"), str(body.get("guest"))[:NAME_MAX],
                        pr.other(body.get("side")), host))
            if body.get("k") == "host" and body.get("side") in ("A", "B"):
                self.say("joining %s's game %s as %s" % (str(body.get("name"))[:NAME_MAX],
                                                        self.gid, pr.other(body["side"])))
                return body["side"]
        up = getattr(self.conn, "connected", None)
        if up is not None and not up.is_set() and getattr(self.conn, "trouble", None):
            raise BridgeError("no connection to the broker within %.0f s: %s" % (
                wait_s, self.conn.trouble.replace("; trying again", "").replace(
                    "? trying again", "?")))
        raise BridgeError("no game %s was announced on %s within %.0f s: is the host's "
                          "bridge running on the same broker, and is the code right? "
                          "Run the same command again once it is" % (self.gid, where, wait_s))

    def _broker_words(self):
        # The broker as a player knows it (without a password).
        b = getattr(self.conn, "broker", None)
        return b.url() if b is not None and hasattr(b, "url") else "the broker"

    # -- the board ------------------------------------------------------------------------

    def _request(self, name, **args):
        return self.board.request(name, timeout=5.0, **args)

    def look(self):
        """Ask the board where it is: status and position."""
        s = self._request("status")
        p = self._request("position")
        # (status's mover is the next player's once a turn is complete: `player` is
        # the one whose roll `dice` is)
        player = s["mover"] if s["state"] != "turn_complete" else pr.other(s["mover"])
        self.bs = {"state": s["state"], "game": s.get("game"), "mover": player,
                   "dice": s.get("dice") or [], "turn": s.get("turn") or "",
                   "turns": p["turns"], "record": p.get("record") or [],
                   "position": p["position"]}
        self.t_look = self.clock()
        self.dirty = False

    def _ours(self):
        # The board plays this game (status's `game` is None once a game's log has
        # ended: the game over on the board is then this game's end)
        bg = self.peer.st["board_game"]
        if self.bs["game"] is None:
            return bg is not None and self.bs["state"] in ("game_over", "moksha")
        return self.bs["game"] == bg

    def _new_game(self):
        names = self.peer.st["names"]
        far = pr.other(self.side)
        r = self._request("new_game", far=far, online=self.gid,
                          name_a=names.get("A", "")[:NAME_MAX],
                          name_b=names.get("B", "")[:NAME_MAX])
        self.peer.st["board_game"] = r["game"]
        self._save(self.peer.st)
        self.say("game %s on the board: you play %s, %s plays %s"
                 % (self.gid, self.side, names.get(far, "?"), far))
        self.given = 0
        self.dice_for = 0
        self.dirty = True

    def reconcile(self):
        """Do what is still to do between the board and the game (module docstring)."""
        pe = self.peer
        st = pe.st
        bs = self.bs
        if not self._ours():
            if pe.st["names"].get(pe.far) is None:
                if self.public and self.host:
                    self._publish_live()     # listed while it waits for the other side
                return                   # the other side first: its name goes in the log
            if st["turns"] or st["board_game"] is not None:
                raise BridgeError("the board is not in game %s any more (its game is %s): "
                                  "the game cannot go on there; %s" % (
                                      self.gid, bs["game"],
                                      "`samsara online host --new ...` starts a new game"
                                      if self.host else "ask the host for a new game"))
            self._new_game()
            return
        nb = bs["turns"]
        turns = st["turns"]
        # 1. the near player's turns the board recorded but the game does not have yet
        rec = bs["record"]
        for i in range(len(turns), nb):
            j = i - (nb - len(rec))
            if j < 0:
                raise BridgeError("the board is %d turns ahead of the game" % (nb - len(turns)))
            self._near(i + 1, rec[j])
        # 2. a complete near turn not yet recorded on the board
        if bs["state"] == "turn_complete" and bs["mover"] == self.side and \
                len(turns) == nb and bs["turn"]:
            self._near(nb + 1, bs["turn"])
        # 3. the far turn to carry out
        if bs["state"] == "moving" and bs["mover"] == pe.far and bs["dice"] and \
                len(turns) > nb and self.given != nb + 1:
            move = turns[nb]["move"]
            try:
                self._request("far_turn", turn=move)
                self.given = nb + 1
                self.say("turn %d from %s: %s (lit on the board)"
                         % (nb + 1, st["names"].get(pe.far, pe.far), move))
            except BoardError as e:
                self.log("the board did not take turn %d (%s): %s" % (nb + 1, move, e))
        # 4. the far turns the board carried out
        for t in turns[:nb]:
            if t["player"] == pe.far:
                pe.carried_out(t["turn"])
        # 5. the joint dice of the next roll
        if bs["state"] not in ("game_over", "moksha"):
            k = nb + (1 if bs["dice"] else 0) + 1
            d = pe.dice(k)
            if d is not None and self.dice_for != k:
                self._request("set_dice", dice=[d[0], d[1]], joint=True)
                self.dice_for = k
                self.dirty = True
        if self.public and self.host:
            self._publish_live()

    def _near(self, n, move):
        pe = self.peer
        if n <= len(pe.st["turns"]):
            return
        why = pe.near_turn(n, move)
        if why:
            self.log("turn %d not sent: %s" % (n, why))
            return
        pe.publish_record()
        self.say("sent turn %d: %s" % (n, move))

    def _publish_live(self, expire_s=LIVE_S):
        # The broadcast page's board: when it changed, and at least every LIVE_EVERY_S.
        pe = self.peer
        g = pe.game
        body = {"game": self.gid, "names": pe.st["names"], "position": g.pos.format(),
                "turns": len(pe.st["turns"]), "over": g.over(),
                "waiting": pe.st["names"].get(pe.far) is None,
                "last": pe.st["turns"][-1] if pe.st["turns"] else None}
        data = json.dumps(body, separators=(",", ":")).encode("utf-8")
        if data != getattr(self, "_live_sent", None) or expire_s != LIVE_S or \
                self.clock() - self.t_live >= LIVE_EVERY_S:
            self._live_sent = data
            self.t_live = self.clock()
            self.conn.publish(wire.live_topic(self.gid), data, True, expire_s)

    def _clear_retained(self):
        """At the game's end (docs/online.md "Retained messages"): the host's
        announcement goes at once; the final record stays END_RECORD_S, the final board
        of a public game END_LIVE_S, then the broker drops them."""
        t, payload = self.peer.record_message()
        self.conn.publish(t, payload, True, END_RECORD_S)
        if self.host:
            self.conn.publish(wire.topic(self.gid, "host"), b"", True)
            if self.public:
                self._publish_live(END_LIVE_S)

    def _tell(self):
        # The player's lines: waiting for the far player to carry out the sent turn.
        pe = self.peer
        st = pe.st
        mine = [t["turn"] for t in st["turns"] if t["player"] == self.side]
        waiting = mine and mine[-1] > st["done"] and not pe.game.over()
        if waiting and self.told_wait < mine[-1]:
            self.told_wait = mine[-1]
            self.say("waiting for %s to carry out your turn" % st["names"].get(pe.far, pe.far))
        if st["done"] > self.told_done:
            self.told_done = st["done"]
        self.progress = self._progress(waiting)

    def _progress(self, waiting):
        # The game as a player sees it (Bridge.progress).
        pe = self.peer
        st = pe.st
        g = pe.game
        far = st["names"].get(pe.far)
        k = pe.next_turn()
        if g.over():
            w, how, _pts = g.result
            name = "" if w is None else st["names"].get("AB"[w]) or ""
            words = "game over: %s" % ("a draw" if w is None else "%s wins, %s" % (
                "%s (%s)" % (name, "AB"[w]) if name else "Player %s" % "AB"[w], how))
        elif far is None:
            words = "waiting for the other player to join with the code"
        elif waiting:
            words = "waiting for %s to carry out your turn" % far
        elif pe.mover() == self.side:
            d = pe.dice(k)
            words = "your turn %d: %s" % (k, "roll and move on the board" if d else
                                           "waiting for the joint dice")
        else:
            words = "waiting for %s to play turn %d" % (far, k)
        up = getattr(self.conn, "connected", None)
        trouble = getattr(self.conn, "trouble", None)
        if trouble and up is not None and not up.is_set() and not g.over():
            words = "%s (the game goes on once the broker is back)" % trouble
        return {"game": self.gid, "side": self.side, "names": dict(st["names"]),
                "turns": len(st["turns"]), "over": g.over(), "waiting": words,
                "position": g.pos.format(), "score": "%d-%d" % (g.pos.a, g.pos.b),
                "last": dict(st["turns"][-1]) if st["turns"] else None,
                "mover": pe.mover()}

    def finished(self):
        """True when the game is over on the board and in the agreed record."""
        return self.peer is not None and self.peer.game.over() and self.bs is not None \
            and self._ours() and self.bs["state"] in ("game_over", "moksha") and \
            self.bs["turns"] == len(self.peer.st["turns"])

    # -- the loop -------------------------------------------------------------------------

    def _messages(self):
        pe = self.peer
        moved = False
        while True:
            try:
                tpc, payload = self.conn.inbox.get_nowait()
            except Exception:
                break
            if tpc is None:               # (re)connected: say hello, ask for what is missing
                pe.hello()
                if self.host:
                    self._host_message()
                continue
            what = tpc.rsplit("/", 1)[-1]
            if what == "rec" or (what == "host" and self.host):
                self._check_retained(tpc, what, payload)
                continue
            if what == "host" or what == self.side:
                if payload:               # (empty: a retained announcement cleared)
                    self._check_side_topic(tpc, payload)
                continue
            if pe.handle(tpc, payload):
                moved = True
        if self.host and pe.st.get("far_id") and pe.st["far_id"] != getattr(
                self, "_announced", None):
            self._host_message()          # the other player is in: a third is refused
        self._guard()
        return moved

    # -- the retained messages ------------------------------------------------------------

    def _check_side_topic(self, tpc, payload):
        # A message on a topic of the game this side does not take messages from (its
        # own side's, where its own come back; for the one who joins, the host's
        # announcement; any while it waits for the host): one that does not open is
        # dropped with one line, as the other side's topic's are (peer.Peer.handle).
        try:
            self.sealer.open(tpc, payload)
        except wire.Unreadable as e:
            if self.peer is not None:
                self.peer.dropped += 1
            self.log("dropped: %s (on %s)" % (e, tpc))

    def _check_retained(self, tpc, what, payload):
        # A message on the record's topic (or, for the host, the announcement's): ours
        # or the other side's pass; one that does not open, an empty one (the retained
        # message cleared by someone else) or an older one (a replay) is put right by
        # publishing this side's again (GUARD_MIN_S).
        pe = self.peer
        why = None
        if not payload:
            why = "the retained %s was cleared by someone else (on %s)" % (
                "record" if what == "rec" else "announcement", tpc)
        else:
            try:
                _s, body = self.sealer.open(tpc, payload)
            except wire.Unreadable as e:
                why = "%s (on %s)" % (e, tpc)
            else:
                if body.get("k") != what:
                    why = "garbled: no %s (on %s)" % (what, tpc)
                elif what == "rec":
                    turns = body.get("turns")
                    if not isinstance(turns, list) or len(turns) < len(pe.st["turns"]):
                        self.guard_due.add(what)       # an older record: quietly
                elif body.get("guest_id") != getattr(self, "_announced", None):
                    self.guard_due.add(what)           # an older announcement
        if why is None:
            return
        pe.dropped += 1
        self.guard_due.add(what)
        now = self.clock()
        self.guard_last = now
        left = self.guard_next - now
        self.log("dropped: %s: this side's %s is published again%s" % (
            why, "record" if what == "rec" else "announcement",
            " in %.0f s" % left if left > 0.5 else ""))

    def _guard(self):
        # Publish again the retained messages found not to be ours (_check_retained),
        # as often as GUARD_MIN_S allows.
        now = self.clock()
        if now - self.guard_last > GUARD_MAX_S:
            self.guard_gap = GUARD_MIN_S
        if not self.guard_due or now < self.guard_next:
            return
        if "rec" in self.guard_due:
            if self.peer.game.over():
                t, payload = self.peer.record_message()
                self.conn.publish(t, payload, True, END_RECORD_S)
            else:
                self.peer.publish_record()
        if "host" in self.guard_due:
            self._host_message()
        self.guard_due = set()
        self.guard_next = now + self.guard_gap
        self.guard_gap = min(self.guard_gap * 2, GUARD_MAX_S)

    def run(self, wait_host_s=WAIT_HOST_S, stop=None):
        """Play the game to its end.  Returns the number of turns.  stop(): True to stop
        early (returns None; looked at while the one who joins waits for the host's
        announcement too, also when the broker cannot be reached).  Raises BridgeError,
        LinkError (the board went away)."""
        self._refused()
        if not self._start_peer(wait_host_s, stop):
            return None
        pe = self.peer
        t_end = None
        while True:
            if stop is not None and stop():
                return None
            self._refused()
            if self._messages():
                self.dirty = True
            pe.step()
            for ev in self.board.poll_events(0.03):
                if ev.get("ev") in EVENTS_THAT_MATTER:
                    self.dirty = True
                if ev.get("ev") == "reject" and ev.get("what") == "roll" and \
                        self.told_roll != pe.next_turn():
                    self.told_roll = pe.next_turn()     # (once a turn)
                    self.say("roll: %s" % ev.get("reason"))
            if self.dirty or self.clock() - self.t_look >= REFRESH_S:
                try:
                    self.look()
                    self.reconcile()
                except NoReply as e:
                    self.log("the board did not answer: %s" % e)
                    continue
            self._tell()
            if self.finished():
                if t_end is None:
                    t_end = self.clock()
                    pe.publish_record()
                if pe.acked() or self.clock() - t_end > FINISH_WAIT_S:
                    pe.st["ended"] = True       # (the same command again says so)
                    self._save(pe.st)
                    self._clear_retained()
                    return len(pe.st["turns"])
                pe.ask_sync()


def ended(st, game):
    """True when the game of saved state `st` (its record played as `game`, a
    samsara.rules.game.Game) has nothing left to go on with: marked ended, or over in
    its record with the board's last far turn carried out."""
    last = st["turns"][-1] if st["turns"] else None
    left = last is not None and last["player"] != st["side"] and \
        st.get("done_sent", 0) < last["turn"]      # the board's last far turn
    return bool(st.get("ended")) or (game.over() and not left)


def kept_code_words(gid, path, host):
    """What a bridge says when its code's secret is not the one game `gid` was kept
    with in `path` (the game is refused before anything is sent)."""
    return ("game %s is kept in %s with another code: the secret (the last 8 characters) "
            "is wrong; %s" % (gid, path, "give the code the game was hosted with to --code "
                              "(or leave --code out: the same --dir and --side resume "
                              "it)" if host else "ask the host to read the code again"))


def kept_game(folder, side):
    """The code of the unfinished game `samsara online host --side SIDE` hosted and
    kept in `folder` (the bridges' folder, state_dir), the most recent one's when there
    are several, or None (docs/online.md "Stopping and going on")."""
    from samsara.rules.game import Game
    d = state_dir(folder)
    found = []
    for n in os.listdir(d):
        if not (n.startswith("game-") and n.endswith(".json")):
            continue
        path = os.path.join(d, n)
        try:
            st = pr.load_state(path)
            if not isinstance(st, dict) or st.get("role") != "host" or \
                    st.get("side") != side or not st.get("code"):
                continue
            g = Game()
            for t in st["turns"]:
                g.play_notation(t["move"])
            if not ended(st, g):
                found.append((os.path.getmtime(path), st["code"]))
        except Exception:             # (not a game's file, or one with a broken record)
            continue
    return max(found)[1] if found else None


def open_board(port):
    """A BoardClient on `port` (None: the one Pico found), hello checked.  Raises
    LinkError."""
    from samsara_host.boardlink import BoardClient, check_hello, open_port, resolve_port
    c = BoardClient(open_port(resolve_port(port), timeout=0.05))
    try:
        check_hello(c.request("hello", timeout=5.0))
    except LinkError:
        c.close()
        raise
    return c
