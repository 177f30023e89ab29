"""Resume an unfinished game from its log (docs/gamelog.md "Resume").

The boot scan (boardcore.storage.gamelog.GameLog.boot) gives a Replay of the unfinished game:
its header (start position, match, starter), its complete turns, and the roll and
accepted sub-moves of the turn in progress.  `resume_board` brings a
samsara.core.Board to exactly that state: the game's record and position, the match's
first game when this is the second game of a match, and the turn in progress with its
dice and sub-moves (through samsara.core.Board.restore); a game against the board (header `vs_board`)
goes on against the board.  The board's own
events raised on the way are the caller's to drop (they are already in the log).
`boot` is the recorder's boot (Recorder.boot: the log scan and the resume), here so that
its code leaves the heap with this module after the boot (mainloop.BOOT_ONLY_MODULES).
"""

from samsara.rules.position import Position, START_TEXT


def _starter(h):
    s = h.get("starter", "A")
    return 1 if s == "B" or s == 1 else 0


def resume_board(board, rp, prev=None, now_ms=0, frame=None):
    """Rebuild `board` (samsara.core.Board) from Replay `rp`.

    prev: the Replay of the match's first game when rp is the second game of a match
    (header match_game 2), else None.  frame: the board's settled frame now (the
    scanner's), or None to take the position the log says.  Returns the
    samsara.rules.game.Game being played.  Raises ValueError (notation errors) when the log
    does not replay under the rules.
    """
    h = rp.header or {}
    st = rp.state()
    c = board.controller
    vs = h.get("vs_board")          # a game against the board: the board's side again
    far = vs is None and h.get("far") in ("A", "B")   # an online game: the far side again
    if far:
        vs = h["far"]
    if vs not in ("A", "B"):
        vs = None
    level = h.get("level")          # the board's strength, as the game began
    if level not in (1, 2, 3):
        level = 3                   # (a log from before the header kept it)
    match = bool(h.get("match"))
    if match:
        if h.get("match_game", 1) == 2:
            first = prev.header if prev is not None and prev.header else {}
            board.new_game(match=True, starter=_starter(first), now_ms=now_ms, vs=vs,
                           level=level, far=far)
            if prev is not None:
                for t in prev.state()["turns"]:
                    c.game.play_notation(t)
            g = c.match.next_game()
        else:
            board.new_game(match=True, starter=_starter(h), now_ms=now_ms, vs=vs,
                           level=level, far=far)
            g = c.game
    else:
        start = Position.parse(h.get("start", START_TEXT))
        board.new_game(position=start, now_ms=now_ms, vs=vs, level=level, far=far)
        g = c.game
    for t in st["turns"]:
        g.play_notation(t)
    board.restore(g, st["roll"], st["subs"], now_ms, frame)
    return g


def boot(rec, now_ms, frame=None):
    """Recorder.boot (samsara.recorder) for the recorder `rec`: scan the log
    and resume its unfinished game into the board (its replayed events are dropped).
    frame: the settled frame the scanner sees now (None: the logged position).  Emits
    log_error (scan failed), error (resume failed) and resume.  Returns the resumed
    game's number or None."""
    rec.flush()
    log = rec.log
    rp = None
    try:
        rp = log.boot()
    except Exception as e:
        rec.board.emit({"ev": "log_error", "msg": "log scan failed: %s" % e})
    rec.busy = True
    if rp is None:
        return None
    board = rec.board
    try:
        prev = None
        h = rp.header or {}
        if h.get("match") and h.get("match_game") == 2 and h.get("prev") is not None:
            prev = log.replay(h["prev"])
        g = resume_board(board, rp, prev, now_ms, frame)
        board.clear_events()
        if g.over():
            log.end_game({"how": "end", "resumed": True})
    except Exception as e:
        board.clear_events()
        rec.board.emit({"ev": "error", "msg": "resume failed: %s" % str(e)[:80]})
    rec.board.emit({"ev": "resume", "game": rp.game, "records": rp.records,
               "turns": len(rp.turns), "dropped": rp.dropped})
    return rp.game
