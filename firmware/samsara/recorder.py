"""The game recorder: the log policy (docs/gamelog.md "The service").  Its one job is
to decide what of the board's events goes into the game log and when a game's log
starts and ends: a sink of the main loop's one event path, beside the host link.

    rec = Recorder(GameLog(fs), board, board_id)
    rec.boot(now_ms, frame)          # once: log scan, resume the unfinished game
    rec.start_game(position, match, starter, vs)   # before board.new_game (mainloop.Inputs)
    rec.on_event(ev)                 # every board event, from the main loop
    rec.flush()                      # with rec.defer: write the waiting events now
    rec.flush(piece=True)            # ... the end of a game in a flush of its own
    rec.after_pull()                 # a host pulled or deleted a log: room again?
    if rec.busy: rec.step()          # background work (the resumed file's CRC)

What is logged follows the event table of boardcore.link.protocol (NOT_LOGGED, END_EVENTS);
the records are boardcore.storage.logrecord's, the files boardcore.storage.gamelog's.  The
recorder never reads or writes the controller: the board's public members (emit,
clear_events, set_overlay, clear_overlay, game_so_far, config) are all it touches.

With `defer` set (the Pico's main loop does), on_event only keeps the event and the
loop calls flush() at a quiet moment, so a flash write (a page program, a 45 ms sector
erase with interrupts off) never delays the answer to a placement
(docs/performance.md "Log writes at quiet moments").  Everything that reads or starts
a log (boot, start_game, after_pull, close, the link's logs commands through flush())
writes the waiting events first, so the records and their order are the same; space()
only reads.  Its own events (log_full,
log_error, error, resume) go into the board's queue with board.emit, so they reach the
host through the same path as every other event, after the event that caused them.
"""

from boardcore.storage import gamelog
from boardcore.link.protocol import END_EVENTS, NOT_LOGGED

from samsara.rules.position import START_TEXT as START  # the header's default "start"

_PIECE = 4
"""Records at most per flush(piece) of a game's last turn (each E record of a goal, a
reinsertion, a score passes about 350 B through the Pico's heap)."""


class Recorder:
    """The log policy over `log` (boardcore.storage.gamelog.GameLog) for `board`
    (samsara.core.Board).  board_id: the id `hello` reports (board.linkhooks.board_id),
    written into every game's header as "board" ("" writes none).  Attributes: log,
    log_full_sent (the log_full hint is shown), last_gid (the last game whose log was
    closed), unlogged (a game runs that the full log could not take), busy (step() has
    work), defer (events wait in `pending` for flush())."""

    def __init__(self, log, board, board_id=""):
        self.log = log
        self.board = board
        self.board_id = board_id
        self.og = getattr(getattr(board, "config", None), "opponent_goal", "owner_scores")
        self.log_full_sent = False
        self.last_gid = None
        self.unlogged = False
        self.busy = False
        self.defer = False
        self.pending = []        # events not yet written (defer)
        self._start = None       # start position of the unlogged game

    def _emit(self, ev):
        self.board.emit(ev)

    def header(self, start, match, starter=None, vs=None, match_game=1, prev=None,
               with_prev=False, far=False, tags=None, level=None):
        """The header of a game's log (docs/gamelog.md "Header"): start (position text),
        match (bool), starter (0/1, or None: the start position's mover), og, and in a
        match its game's number and, with_prev, the previous game's log (prev),
        vs_board ("A"/"B") and level (the board's strength 1..3, when given) in a game
        against the board (far: "far" instead, the far player's side in an online game,
        with `tags`' keys: "online", "players"), and the board that wrote it."""
        h = {"start": start, "match": bool(match)}
        if starter is not None:
            h["starter"] = "AB"[starter]
        h["og"] = self.og
        if match:
            h["match_game"] = match_game
            if with_prev:
                h["prev"] = prev
        if vs is not None:
            h["far" if far else "vs_board"] = vs if isinstance(vs, str) else "AB"[vs]
            if not far and isinstance(level, int):
                h["level"] = level
        if tags:
            for k in tags:
                h[k] = tags[k]
        if self.board_id:
            h["board"] = self.board_id
        return h

    # -- boot --------------------------------------------------------------------------

    def boot(self, now_ms, frame=None):
        """Scan the log and resume its unfinished game into the board (its replayed
        events are dropped).  frame: the settled frame the scanner sees now (None: the
        logged position).  Emits log_error (scan failed), error (resume failed) and
        resume.  Returns the resumed game's number or None.  (The work is
        samsara.logresume.boot's, loaded for the boot only.)"""
        from samsara.logresume import boot
        return boot(self, now_ms, frame)

    def step(self):
        """One small piece of background work per loop iteration: the CRC of a resumed
        game's file (GameLog.crc_step).  Clears busy when done or failed (log_error)."""
        try:
            self.busy = self.log.crc_step()
        except Exception as e:
            self.busy = False
            self._emit({"ev": "log_error", "msg": "reading the log: %s" % str(e)[:60]})

    def close(self):
        """Close the running game's file (the loop is restarted from the REPL)."""
        self.flush()
        self.log.close()

    # -- games -------------------------------------------------------------------------

    def start_game(self, position=None, match=False, starter=0, vs=None, far=False,
                   tags=None, level=None):
        """The log of a game the host starts (call it before board.new_game): an
        unfinished game's log is closed as abandoned, the new one reserved.
        position: the position text or None (the start); vs: the side the board plays
        (0/1, written as the header's "vs_board") or None; level: its strength 1..3
        (the header's "level"); far, tags: an online game (header()).  Returns the
        game number.
        Raises gamelog.LogFull after announcing it (log_full event, LED hint)."""
        self.flush()
        log = self.log
        if log.run_gid is not None:
            log.end_game({"how": "abandoned"})
        header = self.header(position or START, match, starter, vs, far=far, tags=tags,
                             level=level)
        try:
            # A match reserves both its games now, so its second game always logs.
            gid = log.start_game(header, 2 if match else 1)
        except gamelog.LogFull as e:
            self._announce_full(e.space)
            raise
        self._clear_full()
        return gid

    def space(self):
        """{"free", "need", "full", "unpulled"} of the log as the store has it now
        (GameLog.space: events still waiting for a quiet moment are not counted)."""
        s = self.log.space()
        return {"free": s["free"], "need": s["need"], "full": s["full"],
                "unpulled": s["unpulled"]}

    def after_pull(self):
        """A host marked a log pulled or deleted one: log the unlogged game from the
        board's memory, or take the log-full hint away when there is room again."""
        self.flush()
        if self.unlogged:
            self._catch_up()
        elif self.log_full_sent and not self.log.space()["full"]:
            self._clear_full()

    def _catch_up(self):
        # A game that started while the log was full runs unlogged; once a host has
        # pulled (and room is free again) its log is written from the board's memory:
        # a header with its start and one turn record per complete turn.
        log = self.log
        if log.run_gid is not None:
            return
        so_far = self.board.game_so_far()
        if so_far is None or log.space()["full"]:
            return
        turns, dice, subs, match_game = so_far
        h = self.header(self._start or START, match_game > 0, None, None, match_game or 1,
                        self.last_gid, match_game > 0)
        h["late"] = len(turns)
        try:
            log.start_game(h)
            for t in turns:
                log.log_event({"ev": "turn", "turn": t})
            if dice is not None:
                log.log_event({"ev": "roll", "dice": dice})
                for m in subs:
                    log.log_event({"ev": "sub", "move": m})
        except Exception as e:
            self._emit({"ev": "log_error", "msg": str(e)[:80]})
            return
        self.unlogged = False
        self._clear_full()

    def _clear_full(self):
        if self.log_full_sent:
            self.log_full_sent = False
            self.board.clear_overlay("log_full")

    def _announce_full(self, space):
        self._emit({"ev": "log_full", "unpulled": space["unpulled"], "free": space["free"],
                    "need": space["need"]})
        self.board.set_overlay("log_full")
        self.log_full_sent = True

    # -- the sink ----------------------------------------------------------------------

    def on_event(self, ev):
        """One board event (from the main loop): into the log when it belongs to a
        logged game (docs/gamelog.md); a game_start with no game logged starts one (the
        second game of a match, the game main.py starts at boot); an END_EVENTS event
        closes the game's log.  Failures become a log_error event.  With `defer` the
        event waits for flush() (an event the log does not take, NOT_LOGGED, is not
        kept)."""
        if self.defer and (self.pending or self.log.run_gid is not None):
            # (a game's first event, with nothing waiting, starts its log at once: its
            # file exists from the boot or the new_game on, not from a quiet moment)
            if ev.get("ev") not in NOT_LOGGED:
                # (an event the log does not take would be dropped by _record: not
                # kept, so a turn's lifts and placements leave the heap at once)
                self.pending.append(ev)
            return
        self._record(ev)

    def flush(self, piece=False):
        """Write the events waiting since the last flush (defer), in order.  Returns
        how many were written.  piece: stop before a game's end event (END_EVENTS)
        that has others before it, and write at most _PIECE of those others; the rest
        stays in `pending` for the next flush: the main loop's quiet moment collects
        the garbage of each piece of the last turn's records before the next, and
        before the end's records come onto the heap (docs/performance.md "Seventh
        round")."""
        p = self.pending
        if not p:
            return 0
        n = len(p)
        if piece:
            for i in range(1, n):
                if p[i].get("ev") in END_EVENTS:
                    n = i if i < _PIECE else _PIECE
                    break
        if n < len(p):
            self.pending = p[n:]
            p = p[:n]
        else:
            self.pending = []
        log = self.log
        log.lazy = True          # one sync for the batch: fewer page programs and erases
        try:
            for ev in p:
                self._record(ev)
        finally:
            log.lazy = False
            try:
                log.sync()
            except Exception as e:
                self._emit({"ev": "log_error", "msg": str(e)[:80]})
        return len(p)

    def _record(self, ev):
        log = self.log
        name = ev.get("ev")
        try:
            if log.run_gid is None:
                if name != "game_start":
                    return
                far = ev.get("far")
                h = self.header(ev.get("position", START), ev.get("match"), None,
                                far or ev.get("vs"), ev.get("game", 1), self.last_gid,
                                True, far is not None, None, ev.get("level"))
                try:
                    log.start_game(h)
                except gamelog.LogFull as e:
                    self.unlogged = True
                    self._start = h["start"]
                    self._announce_full(e.space)
                    return
            log.log_event(ev)
            if name in END_EVENTS:
                info = {"how": "end"}
                for k in ("winner", "how", "score", "points"):
                    if k in ev:
                        info[k if k != "how" else "end"] = ev[k]
                self.last_gid = log.end_game(info)
                s = log.space()
                if s["full"]:
                    self._announce_full(s)
        except Exception as e:
            self._emit({"ev": "log_error", "msg": str(e)[:80]})
