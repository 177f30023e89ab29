"""The Schaska board's game log (docs/schaska.md "The game log"): a sink of the scan
loop's one event path, as Samsara's recorder is, over the same store
(samsara.storage.gamelog: one append-only file per game, the same record format, pulled
by the host with the same commands).

What a Schaska game's log holds:

    H  {"fmt": 1, "game": N, "rules": "schaska", "layout": [v1, ...], "board": ID}
                                                 ("start": S too when the game does not
                                                 start with every figure at its start
                                                 and A to move: 30 fields and a start
                                                 would pass a record's 250 bytes)
    E  {"ev": "move", "a": [frm, to]}            one per turn: the action, as track
                                                 positions 0..n+1 (schaska.rules.actions)
    Z  {"how": "end", "result": "A"|"B"|"draw", "by": "home"|"block"|"limit"}

"rules" names the game (a Samsara log's header has none).  The states after each turn
are not logged: the host replays the actions under the rules from S
(samsara_host.games_log).  A game left unfinished (a power cut) is closed as abandoned
at the next boot.
"""

from samsara.storage import gamelog
from schaska.rules.actions import home_of, start_of
from schaska.rules.state import FIGURES

BUDGET = 16384
"""Bytes a game's records may take (GameLog's turn_budget, one window for the whole
game): TURN_LIMIT turns of at most 33 bytes each fit."""


def _position(n, p, obj):
    # A move object's end ("start", "home" or a field) as a track position 0..n+1.
    if obj == "start":
        return start_of(n, p)
    if obj == "home":
        return home_of(n, p)
    return obj


FLUSH_PIECE = 16
"""Records at most per flush(piece=True)."""

_KEPT = ("game_start", "round", "turn", "game_over")
"""The events a game's log takes something of (every other event is not kept)."""


class Logbook:
    """The log policy over `log` (samsara.storage.gamelog.GameLog, made with
    max_turns=0 and turn_budget=BUDGET) for a Schaska `board` (schaska.core.
    SchaskaBoard); board_id: written into each header as "board".  The same members as
    samas.logbook.Logbook (the scan loop's and the logs commands'), and the same
    deferred writing with `defer`."""

    def __init__(self, log, board, board_id=""):
        self.log = log
        self.board = board
        self.board_id = board_id
        self.pending = []
        self.defer = False
        self.busy = False
        self.last_gid = None
        self._n = 0

    def boot(self):
        """Scan the log; an unfinished game (a power cut) is closed as abandoned."""
        if self.log.boot() is not None:
            self.log.end_game({"how": "abandoned"})

    def on_event(self, ev):
        """One board event (from the scan loop): game_start starts a game's log (an
        unfinished one closed as abandoned first), turn is written as its action,
        game_over ends the log.  A failure becomes a log_error event."""
        name = ev.get("ev")
        if self.defer and name in _KEPT and (self.pending or (
                self.log.run_gid is not None and name != "game_start")):
            self.pending.append(ev)     # written at the loop's quiet moment (flush)
            return
        self._record(ev)

    def _record(self, ev):
        name = ev.get("ev")
        log = self.log
        try:
            if name == "game_start":
                if log.run_gid is not None:
                    log.end_game({"how": "abandoned"})
                self._n = len(ev["layout"])
                h = {"rules": "schaska", "layout": ev["layout"]}
                st = ev["start"]
                if st["A"]["start"] != FIGURES or st["B"]["start"] != FIGURES or \
                        st["turn"] != "A":
                    h["start"] = st      # (the board's games start as the rules' start)
                if self.board_id:
                    h["board"] = self.board_id
                log.start_game(h)
            elif log.run_gid is None:
                return
            elif name == "turn":
                p = 0 if ev["player"] == "A" else 1
                m = ev["move"]
                a = [_position(self._n, p, m["from"]),
                     _position(self._n, p, m["to"])]
                log.log_event({"ev": "move", "a": a})
            elif name == "game_over":
                self.last_gid = log.end_game({"result": ev["result"], "by": ev["by"]})
        except Exception as e:
            self.board.emit({"ev": "log_error", "msg": str(e)[:80]})

    def flush(self, piece=False):
        """Write the events waiting since the last flush (defer), in order; piece: at
        most FLUSH_PIECE of them (the loop's quiet moment).  Returns how many were
        written."""
        p = self.pending
        if not p:
            return 0
        n = len(p)
        if piece and n > FLUSH_PIECE:
            n = FLUSH_PIECE
        self.pending = p[n:]
        log = self.log
        log.lazy = True          # one sync for the batch
        try:
            for i in range(n):
                self._record(p[i])
        finally:
            log.lazy = False
            try:
                log.sync()
            except Exception as e:
                self.board.emit({"ev": "log_error", "msg": str(e)[:80]})
        return n

    def after_pull(self):
        """A host marked a log pulled or deleted one: nothing to catch up."""

    def space(self):
        """{"free", "need", "full", "unpulled"} of the store (GameLog.space)."""
        s = self.log.space()
        return {"free": s["free"], "need": s["need"], "full": s["full"],
                "unpulled": s["unpulled"]}

    def step(self):
        """No background work."""
        self.busy = False

    def close(self):
        """Write what waits and close the running game's file (the loop stops)."""
        self.flush()
        self.log.close()


def open_log(fs):
    """The GameLog of a Schaska board on file-system adapter `fs`."""
    return gamelog.GameLog(fs, max_turns=0, turn_budget=BUDGET)
