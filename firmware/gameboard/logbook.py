"""The game log policy that the other games' logbooks subclass (docs/gamelog.md
"Records", the Samas and Schaska boards): a sink of the scan loop's one event path, as
Samsara's recorder is, over the same store (boardcore.storage.gamelog: one append-only
file per game, the same record format, pulled by the host with the same commands).

What a game's log holds (the subclass gives the parts in <>):

    H  {"fmt": 1, "game": N, "rules": <game>, <header(ev)>, "board": ID,
        "players": [A, B]}                       ("players": when the board has names,
                                                 cut to keep the header one record)
    E  <entry(ev)>                               one per round or turn
    Z  {"how": "end", <ending(ev)>}              {"result": ..., "by": ...}

A game left unfinished (a power cut) is closed as abandoned at the next boot.
"""

from boardcore.storage import gamelog

FLUSH_PIECE = 16
"""Records at most per flush(piece=True)."""

_KEPT = ("game_start", "round", "turn", "game_over")
"""The events a game's log takes something of (every other event is not kept)."""


class Logbook:
    """The log policy over `log` (boardcore.storage.gamelog.GameLog, made with
    open_log) for a game's `board` (a gameboard.core.GameBoard).  board_id: written
    into each header as "board" ("" writes none).  The members the scan loop and the
    host link's logs commands use: log, on_event, flush, after_pull, space, pending
    (the events waiting for flush()), defer, busy, step, close, boot.  With `defer` set
    (the boot sets it, as Samsara's recorder's), a game's records wait in `pending`
    until the scan loop's quiet moment calls flush(), so a flash write (a 45 ms sector
    erase) never delays the answer to a move; a game's first record (its header) is
    written at once, and the logs commands flush first.

    A game's logbook defines header(ev) (the game_start event -> the header dict,
    "rules" first), entry(ev) (a round or turn event -> the record dict, or None for
    an event it does not log) and ending(ev) (the game_over event -> the end record's
    {"result", "by"}).  An exception in them becomes a log_error event."""

    def __init__(self, log, board, board_id=""):
        self.log = log
        self.board = board
        self.board_id = board_id
        self.pending = []
        self.defer = False
        self.busy = False
        self.last_gid = None

    def header(self, ev):
        """The header dict of the game that `ev` (a game_start event) starts."""
        raise NotImplementedError

    def entry(self, ev):
        """The record dict of a round or turn event `ev`, or None (not logged)."""
        raise NotImplementedError

    def ending(self, ev):
        """The end record's fields ({"result", "by"}) of game_over event `ev`."""
        raise NotImplementedError

    def boot(self):
        """Scan the log; an unfinished game (a power cut) is closed as abandoned."""
        if self.log.boot() is not None:
            self.log.end_game({"how": "abandoned"})

    def on_event(self, ev):
        """One board event (from the scan loop): game_start starts a game's log (an
        unfinished one closed as abandoned first), a round or turn is written as its
        entry, game_over ends the log.  A failure becomes a log_error event."""
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
                h = self.header(ev)
                if self.board_id:
                    h["board"] = self.board_id
                if ev.get("players"):
                    _fit_players(h, ev["players"])   # (GameBoard.set_players)
                log.start_game(h)
            elif log.run_gid is None:
                return
            elif name == "game_over":
                self.last_gid = log.end_game(self.ending(ev))
            else:
                rec = self.entry(ev)
                if rec is not None:
                    log.log_event(rec)
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


HEADER_ROOM = 32
"""Bytes a header needs beside the logbook's fields: the store's {"fmt":1,"game":N,."""


def _fit_players(h, players):
    """Put the players' names into header `h` as "players", each cut by its last
    characters (the longer first) as far as the header must be to stay one record
    (MAX_PAYLOAD bytes with HEADER_ROOM: a long Schaska track leaves less room), so a
    header is never cut and its game never lost."""
    a = players[0]
    b = players[1]
    while True:
        h["players"] = [a, b]
        if len(gamelog.dumps(h).encode()) + HEADER_ROOM <= gamelog.MAX_PAYLOAD:
            return
        if not a and not b:
            del h["players"]
            return
        if len(a) >= len(b):
            a = a[:-1]
        else:
            b = b[:-1]


def open_log(fs, budget):
    """The GameLog of a game's board on file-system adapter `fs` (boardcore.storage.osfs):
    no turn index (max_turns=0), one window of `budget` bytes for a game's records."""
    return gamelog.GameLog(fs, max_turns=0, turn_budget=budget)
