"""The live page's move list behind its links: the running game's log read off the
board (samsara_host.runninglog) fills the turns before the board's last ten, and
every turn is drawn as the replay draws it (samsara_host.app.liveturns) at the
position the rules engine gives; the players' names from the log header."""
import base64
import re

import pytest

from loghelp import game_log
from samsara.rules.position import START_TEXT
from samsara_host import movewords, runninglog
from samsara_host.app.livestate import LiveModel
from samsara_host.app.liveturns import NoTurn, turn_view
from samsara_host.record import from_log


class LogClient:
    """A board's `log_get` over one game's log bytes, in CHUNK-sized answers (the
    firmware's reply fields)."""

    CHUNK = 192

    def __init__(self, game, data):
        self.game, self.data, self.asked = game, data, 0

    def request(self, name, **kw):
        assert name == "log_get" and kw["game"] == self.game
        self.asked += 1
        off = kw["offset"]
        part = self.data[off:off + self.CHUNK]
        return {"game": self.game, "offset": off, "size": len(self.data),
                "data": base64.b64encode(part).decode(), "eof": off + len(part) >=
                len(self.data)}


def test_the_running_log_gives_its_header_names_and_every_turn():
    data, game = game_log(6, header={"position": None, "players": ["Anna", ""]},
                          finish=False)
    c = LogClient(7, data)
    h, turns = runninglog.game_turns(c, 7)
    assert turns == list(game.record) and len(turns) > 10
    assert c.asked == -(-len(data) // LogClient.CHUNK)        # every chunk, once
    assert runninglog.header_names(h) == ["Anna", ""]
    assert runninglog.game_header(LogClient(7, data), 7) == h
    assert runninglog.header_names({"players": ["", ""]}) is None
    # a torn last record (a running game cut mid-write): the turns before it
    h2, turns2 = runninglog.game_turns(LogClient(7, data[:-3]), 7)
    assert h2 == h and turns2 == turns[:len(turns2)] and len(turns2) >= len(turns) - 1


def test_every_turn_of_the_live_list_is_drawn_even_before_the_boards_last_ten():
    data, game = game_log(6, finish=False)
    turns = list(game.record)
    m = LiveModel()
    m.connected = True
    m.game = 3
    m.options_from({"start": START_TEXT, "og": 0})
    # the board's position reply holds its last 10 committed turns only
    m.position_reply({"position": game.pos.format(), "record": turns[-10:],
                      "turns": len(turns)})
    snap = m.snapshot()
    assert snap["record"][0][0] == len(turns) - 9
    with pytest.raises(NoTurn) as e:
        turn_view(snap, len(turns))
    assert "not known here" in str(e.value)
    # the earlier turns from the game's log on the board
    _h, logged = runninglog.game_turns(LogClient(3, data), 3)
    m.earlier_turns(logged)
    m.names = ["Anna", "Ben"]
    snap = m.snapshot()
    assert [t for _n, t in snap["record"]] == turns
    rec = from_log(data, allow_torn=True)
    for n in (1, 2, len(turns) - 10, len(turns)):
        v = turn_view(snap, n)
        step = rec.steps[n - 1]
        assert v["notation"] == step.notation and v["player"] == "AB"[step.player]
        assert v["name"] == ("Anna", "Ben")[step.player]
        assert v["caption"].startswith("Turn %d: %s (%s) rolled" % (
            n, "AB"[step.player], v["name"]))
        titles = [x.split("<title>")[1].split("</title>")[0]
                  for x in v["svg"].split('<path class="move"')[1:]]
        assert titles == ["%s to %s" % (f, t) for f, t, _d in movewords.arrows(step.notation)]
        # the picture is the position after the turn (the browser tests compare its
        # marbles); its notes give the score and the record line
        assert ("score: A %d, B %d" % (step.position.a, step.position.b)) in v["svg"]
        assert "record: %d. %s %s" % (n, "AB"[step.player], step.notation) in v["svg"]
    for bad in (0, len(turns) + 1, "2"):
        with pytest.raises(NoTurn):
            turn_view(snap, bad)


def test_the_live_words_call_the_players_by_their_names():
    m = LiveModel()
    m.connected = True
    m.names = ["Anna", "Ben"]
    m.status_reply({"state": "waiting", "mover": "A", "remaining": [], "vs_board": None})
    assert m.headline().startswith("Anna to roll")
    m.event({"ev": "roll", "t": 1, "dice": [5, 3], "player": "A", "source": "host"})
    assert m.words[-1] == "Anna rolls 5 3"
    m.event({"ev": "game_over", "t": 2, "winner": "B", "how": "centre", "score": "5-6",
             "points": "0-2"})
    assert m.snapshot()["over"].startswith("Game over: Ben wins!")
    assert m.snapshot()["names"] == ["Anna", "Ben"]


NOTATION = re.compile(r"\d:[RSG][A-Z]?\d*-|\b\d\d [1-6]:")
"""Turn or sub-move notation (docs/rules.md section 5) in a line meant for players."""


def test_what_happened_reads_in_words_without_notation_or_state_names():
    m = LiveModel()
    m.connected = True
    evs = [{"ev": "game_start", "t": 0, "vs": "B", "level": 2},
           {"ev": "roll", "t": 1, "dice": [5, 3], "player": "A", "source": "board"},
           {"ev": "hint", "t": 2, "turn": "53 5:R1-S18 3:R2-S17", "player": "A"},
           {"ev": "sub", "t": 3, "move": "5:R1-S18", "player": "A"},
           {"ev": "undo", "t": 4, "move": "5:R1-S18", "how": "button", "player": "A"},
           {"ev": "sub", "t": 5, "move": "3:S22-GS*S7", "player": "A"},
           {"ev": "goal", "t": 6, "goal": "GS", "player": "A", "score": "1-0", "ins": "S7"},
           {"ev": "turn_complete", "t": 7, "turn": "53 5:R1-S18 3:R2-S17", "player": "A"},
           {"ev": "roll", "t": 8, "dice": [6, 2], "player": "B", "source": "board"},
           {"ev": "board_move", "t": 9, "move": "6:S1-S7", "player": "B"},
           {"ev": "moksha", "t": 10, "roll": "62", "player": "B"},
           {"ev": "game_over", "t": 11, "winner": "A", "how": "centre", "score": "6-2",
            "points": "4-0"}]
    for ev in evs:
        m.event(ev)
    words = m.words
    assert len(words) >= 10
    for w in words:
        assert not NOTATION.search(w), w
        assert "_" not in w, w                     # no state or event names
    assert "Player A rolls 5 3" in words           # (the page draws "rolls 5 3" as dice)
    assert "Player A moved a marble from R1 to S18 (the 5)" in words
    assert "Player A finished the turn: R1 to S18, R2 to S17" in words
    assert any(w.startswith("The board plays: move the marble from S1 to S7") for w in words)
    assert words[-1] == "Game over: Player A wins (Player A 6, the board 2)"
    assert m.snapshot()["over"].startswith("Game over: Player A wins!")
    # names learned later (the library's tags) name the earlier lines and the end too
    m.names = ["Anna", "Ben"]
    assert "Anna rolls 5 3" in m.words and "Player A rolls 5 3" not in m.words
    assert m.snapshot()["over"].startswith("Game over: Anna wins!")
    # the goal's line and the end score by the names
    assert "Goal in the goal space (GS): Anna scores (Anna 1, the board 0); the marble " \
        "goes back in on S7" in m.words, m.words
    assert m.words[-1] == "Game over: Anna wins (Anna 6, the board 2)"
    # a new game without names: the last game's lines keep theirs; its set-up repair
    # says what to set up, the holes named
    m.event({"ev": "game_start", "t": 12, "match": False})
    m.names = None
    m.event({"ev": "repair", "t": 13, "reason": "the board changed before the roll",
             "missing": ["R1"], "extra": ["R7", "GS"]})
    assert "Anna moved a marble from R1 to S18 (the 5)" in m.words
    assert not [w for w in m.words if "Player A" in w], m.words
    assert m.words[-1] == ("Set up the start position for the new game: put a marble on "
                           "R1; take the marbles off R7, GS")
    # with names and the board as B, the board is "the board", never its letter
    m2 = LiveModel()
    m2.names = ["Anna", ""]
    m2.event({"ev": "game_start", "t": 0, "vs": "B", "level": 1})
    m2.event({"ev": "game_over", "t": 1, "winner": "B", "how": "centre", "score": "2-6",
              "points": "0-4"})
    assert m2.words[-1] == "Game over: the board wins (Anna 2, the board 6)"
    assert m2.snapshot()["over"].startswith("Game over: The board wins!")


def test_repair_draws_what_the_sensors_see_and_keeps_the_names_of_the_holes_to_fix():
    m = LiveModel()
    m.connected = True
    m.status_reply({"state": "repair", "mover": "A", "remaining": [], "vs_board": None})
    m.event({"ev": "repair", "t": 4, "reason": "the board differs", "missing": ["S3"],
             "extra": ["S9"]})
    snap = m.snapshot()
    assert "S3" not in snap["occupied"] and "S9" in snap["occupied"]   # as the sensors see
    svg_text = snap["svg"]
    for name in ("S3", "S9"):
        label = svg_text.index('paint-order="stroke">%s</text>' % name)
        # the ring marking the hole is drawn first, the hole's name over it
        rings = [i for i in range(len(svg_text)) if svg_text.startswith(
            '<circle', i) and 'stroke-width="2.6"' in svg_text[i:i + 160]]
        assert rings and max(rings) < label
    assert "Put the board right" in m.guidance() and "repair" not in m.guidance()


def test_repair_marks_follow_the_sensors_until_the_board_is_right():
    # The board sends its marks once (the `repair` event), then only lift and place:
    # every change is folded in, so every marble the sensors see where none belongs is
    # drawn and named, and a marble put back is no longer missing.
    m = LiveModel()
    m.connected = True
    m.status_reply({"state": "repair", "mover": "A", "remaining": [], "vs_board": None})
    m.event({"ev": "repair", "t": 4, "reason": "the board changed before the roll",
             "missing": ["S6"], "extra": ["S11"]})
    for t, (ev, pos) in enumerate((("place", "S6"), ("place", "S10"), ("lift", "S10"),
                                   ("place", "S15"), ("lift", "R3")), start=5):
        m.event({"ev": ev, "t": t, "pos": pos})
    snap = m.snapshot()
    assert snap["missing"] == ["R3"] and snap["extra"] == ["S11", "S15"]
    assert snap["lifted"] == []
    assert {"S6", "S11", "S15"} <= set(snap["occupied"])
    assert "R3" not in snap["occupied"] and "S10" not in snap["occupied"]
    m.event({"ev": "repair_end", "t": 10})
    assert m.snapshot()["extra"] == []


def test_roll_is_offered_only_with_no_marble_in_the_air():
    # The board refuses a roll while a marble is lifted ("put the marble back first"):
    # the live page's Roll is not offered then, and comes back once it is put back.
    m = LiveModel()
    m.connected = True
    m.status_reply({"state": "waiting", "mover": "A", "remaining": [], "vs_board": None})
    assert m.can()["roll"]
    m.event({"ev": "lift", "t": 5, "pos": "R3"})
    assert m.snapshot()["lifted"] == ["R3"]
    assert not m.can()["roll"]
    m.event({"ev": "place", "t": 6, "pos": "R3"})
    assert m.can()["roll"]


def test_the_end_of_a_game_against_the_board_names_the_score_by_the_players():
    m = LiveModel()
    m.connected = True
    m.status_reply({"state": "moving", "mover": "B", "remaining": [3], "vs_board": "B"})
    m.names = ["Anna", ""]
    m.event({"ev": "game_over", "t": 9, "winner": "B", "how": "centre", "score": "2-6"})
    words = m.over_words()
    assert words.startswith("Game over: The board wins!"), words
    assert "Anna 2" in words and "the board 6" in words, words
