"""A spectator of an online game: `samsara online watch CODE` (docs/online.md
"Watching").  Its one job is to follow a game's messages with the code and print each
complete turn once, in order, checked: its notation replays under the rules and its
dice are the joint dice of both sides' commits and reveals.

It reads the retained record (`rec`, the turns so far, for a spectator who comes late)
and then the turns as the bridges send them.  A message that does not open with the
game's key (or is longer than wire.max_payload allows) is counted and left out with one
line in the log (stderr); a retained record or announcement in its place (a stranger's)
is waited past: the players' bridges publish theirs again at once, and the spectator
takes the next one that opens.
"""
import hashlib
import json
import sys
import time

from samsara.rules.game import Game
from samsara_host.online import peer as pr
from samsara_host.online import NAME_MAX, wire
from samsara_host.online.code import game_key, parse_code


def _log(text):
    print("samsara online: %s" % text, file=sys.stderr, flush=True)


class Watcher:
    """Follows game `code` (module docstring).  conn: a started Connection-like object
    (inbox) subscribed to the game's topics (Watcher.topics()); out(text): one line
    per turn; as_json: lines are JSON objects (turn, player, name, dice, move, score,
    joint) instead of words; log(text): one line for each message left out (default:
    stderr)."""

    def __init__(self, code, out=print, as_json=False, log=None):
        self.gid, secret = parse_code(code)
        self.sealer = wire.Sealer(game_key(self.gid, secret))
        self.out = out
        self.as_json = as_json
        self.log = log or _log
        self.turns = {}            # k -> turn dict (player, dice, move, joint?)
        self.proof = {"A": {}, "B": {}}   # side -> {k: [commit, reveal]}
        self.in_record = set()     # the turns an (authentic) record carried
        self.names = {}
        self.game = Game()
        self.shown = 0
        self.dropped = 0
        self.heard = False         # a message of the game opened
        self.wrong_code = False    # the game's own retained message did not open,
        #                            and nothing of the game did yet

    def topics(self):
        """The topic filters to subscribe."""
        return [wire.topic(self.gid, "+")]

    def handle(self, tpc, payload):
        """One message of the game's topics; prints what became complete."""
        what = tpc.rsplit("/", 1)[-1]
        if what not in ("A", "B", "rec", "host"):
            return
        try:
            seq, body = self.sealer.open(tpc, payload)
        except wire.Unreadable as e:
            self.dropped += 1
            self.log("dropped: %s (on %s)" % (e, tpc))
            if what in ("host", "rec") and not self.heard and str(e).startswith("forged"):
                self.wrong_code = True     # (unless something opens within WRONG_CODE_S)
            return
        self.heard = True
        self.wrong_code = False
        k = body.get("k")
        n = body.get("turn")
        if what == "host" and isinstance(body.get("name"), str) and body.get("side") in "AB":
            self.names.setdefault(body["side"], body["name"][:NAME_MAX])
        elif what == "rec" and isinstance(body.get("turns"), list):
            for s, nm in (body.get("names") or {}).items():
                if s in ("A", "B") and isinstance(nm, str):
                    self.names[s] = nm[:NAME_MAX]
            for t in body["turns"]:
                if isinstance(t, dict) and isinstance(t.get("turn"), int):
                    self.turns.setdefault(t["turn"], t)
                    self.in_record.add(t["turn"])
                    for s, pair in (t.get("joint") or {}).items():
                        have = self.proof[s].get(t["turn"]) if s in self.proof else None
                        if s in self.proof and isinstance(pair, list) and len(pair) == 2 \
                                and (have is None or None in have):
                            self.proof[s][t["turn"]] = list(pair)   # (what came live
                            #                                          was part of it)
        elif what in ("A", "B") and isinstance(n, int):
            if seq == 0 and k == "hello" and isinstance(body.get("name"), str):
                self.names[what] = body["name"][:NAME_MAX]
            elif k == "commit":
                self.proof[what].setdefault(n, [body.get("h"), None])
            elif k == "reveal" and n in self.proof[what]:
                self.proof[what][n][1] = body.get("r")
            elif k == "turn" and body.get("player") == what:
                self.turns.setdefault(n, {"turn": n, "player": what, "dice": body.get("dice"),
                                          "move": body.get("move")})
        elif what in ("A", "B") and k == "hello" and isinstance(body.get("name"), str):
            self.names[what] = body["name"][:NAME_MAX]
        self._show()

    def _joint(self, n, dice):
        # True when both sides' commit and reveal of turn n give these dice.
        try:
            ca, ra = self.proof["A"][n]
            cb, rb = self.proof["B"][n]
            ok = hashlib.sha256(bytes.fromhex(ra)).hexdigest() == ca and \
                hashlib.sha256(bytes.fromhex(rb)).hexdigest() == cb
            d = pr.joint_dice(self.gid, n, ra, rb)
            return ok and sorted(d) == sorted(dice)
        except Exception:
            return False

    def _show(self):
        while self.shown + 1 in self.turns and not self.game.over():
            n = self.shown + 1
            t = self.turns[n]
            if n not in self.in_record and not self._joint(n, t.get("dice") or []):
                break    # (a spectator who came mid-turn missed a commit or reveal:
                #          the mover's record, published right after the turn, has them)
            try:
                note = self.game.play_notation(t["move"])
            except Exception as e:
                self.turns.pop(n)
                self.out("turn %d does not replay (%s): left out" % (n, e))
                return
            self.shown = n
            g = self.game
            row = {"turn": n, "player": t["player"], "name": self.names.get(t["player"], ""),
                   "dice": t["dice"], "move": note, "score": "%d-%d" % (g.pos.a, g.pos.b),
                   "joint": self._joint(n, t["dice"] or [])}
            if self.as_json:
                self.out(json.dumps(row))
            else:
                self.out("turn %3d  %s %-10s %-34s score %s%s" % (
                    n, row["player"], row["name"][:10], note, row["score"],
                    "" if row["joint"] else "  (dice not shown joint)"))
            if g.over():
                w, how, pts = g.result
                name = "" if w is None else self.names.get("AB"[w], "")
                who = "a draw" if w is None else "%s (%s) wins" % (name, "AB"[w]) \
                    if name else "Player %s wins" % "AB"[w]
                self.out(json.dumps({"game_over": True, "winner": None if w is None else
                                     "AB"[w], "how": how, "score": row["score"]})
                         if self.as_json else "game over: %s, %s, %s" % (who, how,
                                                                        row["score"]))

    def over(self):
        return self.game.over()


def wrong_code_words(gid, where, who):
    """What a spectator or the one who joins says when game `gid`'s retained messages on
    `where` do not open with the code (for WRONG_CODE_S): `who` to ask for the code."""
    return ("game %s is on %s, but its messages do not open with this code: the secret "
            "(the last 8 characters) is wrong (or someone else on the broker overwrote "
            "the game's messages and no player's bridge runs to put them back); ask %s "
            "to read the code again" % (gid, where, who))


class WatchError(Exception):
    """The spectator cannot follow the game: the broker refused it (a wrong login, a
    TLS certificate not trusted), the code's secret is wrong, or no game of that id
    was heard of within ANNOUNCE_S; str() says so and what to do."""


WRONG_CODE_S = 5.0
"""How long a spectator (and the one who joins, samsara_host.online.bridge) waits after
the game's retained announcement or record did not open with the code before it says
the secret is wrong (s): a stranger's message in their place is put right by the
players' bridges at once (bridge.GUARD_MIN_S), and the authentic one then opens."""

ANNOUNCE_S = 60.0
"""How long `watch` waits for a first message of the game (its announcement, its
record, a turn) before it gives up (s): a game not started yet, a wrong id, or a game
over for more than an hour (its record gone from the broker)."""


def watch(code, conn_factory, out=print, as_json=False, seconds=None, clock=time.monotonic,
          log=None, announce_s=ANNOUNCE_S):
    """Follow game `code` until it ends (True) or `seconds` pass (False).
    conn_factory(subscriptions) -> a started Connection; log(text): the lines about
    messages left out and what the spectator waits for (default stderr).  Raises
    WatchError when the broker refuses the connection, when the game's own retained
    messages do not open with the code (a wrong secret), or when nothing of the game
    came within `announce_s` seconds."""
    w = Watcher(code, out, as_json, log)
    conn = conn_factory(w.topics())
    said = None
    end = None if seconds is None else clock() + seconds
    b = getattr(conn, "broker", None)
    where = b.url() if b is not None and hasattr(b, "url") else "the broker"
    w.log("waiting for game %s to be announced on %s (at most %.0f s)"
          % (w.gid, where, announce_s))
    give_up = clock() + announce_s
    t_wrong = None
    try:
        while not w.over():
            if end is not None and clock() >= end:
                return False
            if getattr(conn, "refused", None):
                raise WatchError(conn.refused)
            if not w.wrong_code:
                t_wrong = None
            elif t_wrong is None:
                t_wrong = clock()
            elif clock() - t_wrong >= WRONG_CODE_S:
                raise WatchError(wrong_code_words(w.gid, where, "a player"))
            if not w.heard and clock() >= give_up:
                raise WatchError("no game %s on %s within %.0f s: not started yet, over "
                                 "for more than an hour, or the code is wrong; run the "
                                 "same command again once the host's bridge runs"
                                 % (w.gid, where, announce_s))
            trouble = getattr(conn, "trouble", None)
            if trouble and trouble != said:
                print("samsara online: %s" % trouble, file=sys.stderr, flush=True)
            said = trouble
            try:
                tpc, payload = conn.inbox.get(timeout=0.2)
            except Exception:
                continue
            if tpc is not None:
                w.handle(tpc, payload)
        return True
    finally:
        conn.stop()
