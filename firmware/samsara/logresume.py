"""Resume an unfinished game from its log (docs/gamelog.md "Resume").

The boot scan (samsara.gamelog.GameLog.boot) gives a Replay of the unfinished game:
its header (start position, match, starter), its complete turns, and the roll and
accepted sub-moves of the turn in progress.  `resume_board` brings a
samsara.board.Board to exactly that state: the game's record and position, the match's
first game when this is the second game of a match, and the turn in progress with its
dice and sub-moves.  The board's own events raised on the way are the caller's to
drop (they are already in the log).
"""

from samsara.game import Game
from samsara.notation import read_sub_move
from samsara.position import Position

START = "oooooo................../oooooo.................. 0-0 A"


def _starter(h):
    s = h.get("starter", "A")
    return 1 if s == "B" or s == 1 else 0


def resume_board(board, rp, prev=None, now_ms=0, frame=None):
    """Rebuild `board` (samsara.board.Board) from Replay `rp`.

    prev: the Replay of the match's first game when rp is the second game of a match
    (header match_game 2), else None.  frame: the board's settled frame now (the
    scanner's), or None to take the position the log says.  Returns the
    samsara.game.Game being played.  Raises ValueError (notation errors) when the log
    does not replay under the rules.
    """
    if hasattr(board, "resume"):
        return board.resume(rp, prev, now_ms, frame)
    h = rp.header or {}
    st = rp.state()
    c = board.controller
    match = bool(h.get("match"))
    if match:
        if h.get("match_game", 1) == 2:
            first = prev.header if prev is not None and prev.header else {}
            board.new_game(match=True, starter=_starter(first), now_ms=now_ms)
            if prev is not None:
                for t in prev.state()["turns"]:
                    c.game.play_notation(t)
            c.game = c.match.next_game()
        else:
            board.new_game(match=True, starter=_starter(h), now_ms=now_ms)
    else:
        start = Position.parse(h.get("start", START))
        board.new_game(position=start, now_ms=now_ms)
    g = c.game
    for t in st["turns"]:
        g.play_notation(t)
    c._start_game()
    if g.over():
        c._game_over()
    elif st["roll"] is not None:
        d1, d2 = st["roll"]
        c.set_dice(d1, d2)
        c.press(now_ms, "roll")
        played = []
        for text in st["subs"]:
            if not c.rem:
                break
            r, s, a, b = c._prefix(len(played))
            m = read_sub_move(r, s, a, b, c.mover, tuple(c._rem_after(len(played))), text, c.og)
            played.append(m)
            c._set_played(list(played))
        if played:
            c.state = "moving"
            c.wait_settle = not c.rem
    c._set_expected()
    c._show()
    board.debounce.reset(now_ms, frame if frame is not None else c.expected)
    c.on_frame(now_ms, board.debounce.settled)
    board._redraw()
    return g
