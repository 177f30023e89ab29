"""`samsara game new|roll|undo|hint|status` drive the board's game from the terminal,
against a virtual board found without --port (`samsara ports` lists running virtual
boards); the board player's level; moves in a player's words."""
import json
import time

import pytest

from boardcore.link import commands as C
from boardcore.link.protocol import ProtocolError
from samsara.rules import engine
from samsara_host import boardlink, cli, game_cmd, movewords
from samsara_host.virtual_board import VirtualBoard, find_micropython, running_boards

try:
    find_micropython()
    HAVE_UPY = True
except FileNotFoundError:
    HAVE_UPY = False


# ---- the level and the command table (no board) --------------------------------------

def test_lower_levels_choose_other_turns_and_level_3_is_the_engine():
    """Along a self-play game of the engine, level 3 is its choice every turn; levels 2
    and 1 choose other (legal, complete) turns, level 1 more often."""
    import random
    from samsara.rules.game import Game
    g = Game()
    rng = random.Random(3)
    differ = {1: 0, 2: 0}
    for _ in range(40):
        if g.over():
            break
        q = g.pos
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        best = engine.choose(q.r, q.s, q.a, q.b, q.mover, d1, d2, seed=1)
        assert engine.choose(q.r, q.s, q.a, q.b, q.mover, d1, d2, seed=1, level=3) == best
        for lv in (1, 2):
            got = engine.choose(q.r, q.s, q.a, q.b, q.mover, d1, d2, seed=1, level=lv)
            differ[lv] += got[0] != best[0]
        g.apply(d1, d2, best[0], best[1])
    assert differ[1] > differ[2] > 0, differ


def test_new_game_takes_a_level_1_to_3_and_says_so_when_wrong():
    name, _rid, args = C.parse_command(b'{"cmd": "new_game", "vs_board": "B", "level": 1}')
    assert args["level"] == 1 and args["vs_board"] == "B"
    assert C.parse_command(b'{"cmd": "new_game"}')[2]["level"] == 3
    for bad in (b'0', b'4', b'"2"', b'true'):
        with pytest.raises(ProtocolError) as e:
            C.parse_command(b'{"cmd": "new_game", "level": ' + bad + b'}')
        assert "level must be 1, 2 or 3" in str(e.value.msg if hasattr(e.value, "msg")
                                                 else e.value)


def test_moves_in_words_and_as_arrows():
    assert movewords.sub_move_words("3:R11-R14") == "move the marble from R11 to R14"
    assert "into the goal space (GS), then put it back in on S7" in \
        movewords.sub_move_words("3:S22-GS*S7")
    assert movewords.arrows("53 5:R1-S18 3:R2-S17") == [["R1", "S18", 5], ["R2", "S17", 3]]
    assert movewords.turn_words("53 Moksha") == "no complete turn (Moksha)"
    st = {"state": "moving", "mover": "B", "dice": [5, 3], "remaining": [5, 3],
          "vs_board": "B", "board_move": "5:R1-S18"}
    assert movewords.headline(st) == \
        "The board plays 5:R1-S18: move the marble from R1 to S18"
    # the board's status names the next player as the mover once a turn is complete
    st = {"state": "turn_complete", "mover": "B", "dice": [], "vs_board": None}
    assert movewords.headline(st, ["Anna", "Ben"]) == \
        "Anna finished the turn: Ben, roll the dice"
    assert movewords.headline(dict(st, mover="A"), ["Anna", "Ben"]) == \
        "Ben finished the turn: Anna, roll the dice"
    assert movewords.headline(dict(st, mover="A"), None) == \
        "Player B finished the turn: Player A, roll the dice"
    assert movewords.headline(dict(st, vs_board="B"), ["Anna", ""]) == \
        "Anna finished the turn: the board rolls next"
    assert movewords.headline(dict(st, mover="A", vs_board="B"), ["Anna", ""]) == \
        "The board finished the turn: Anna, roll the dice"
    for state in movewords.STATE_WORDS:
        words = movewords.headline(dict(st, state=state))
        assert state not in words and "_" not in words


def test_refusals_and_the_end_of_a_game_in_a_players_words():
    moving = {"state": "moving", "mover": "A", "dice": [4, 5], "remaining": [5],
              "vs_board": None}
    assert movewords.refusal_words("roll", "roll before the turn is complete: die 5 "
                                   "still to play", moving) == \
        "You have already rolled: move your marbles (5 still to play)"
    for st in ("waiting", "turn_complete"):
        assert movewords.refusal_words("hint", "no hint now: only during your own turn",
                                       dict(moving, state=st, dice=[], remaining=[])) == \
            "Roll first: a hint needs the dice"
    assert movewords.refusal_words("hint", "x", dict(moving, vs_board="A")).startswith(
        "No hint during the board's turn")
    assert movewords.refusal_words("undo", "nothing to undo in this turn", moving) == \
        "The board says no: nothing to undo in this turn"
    over = {"state": "game_over", "winner": "B", "score": "4-6", "turns": 31,
            "vs_board": None}
    assert movewords.over_words(over, ["Ana", "Ben"]) == "Game over: Ben (B) won 6-4 in 31 turns"
    assert movewords.over_words(over) == "Game over: Player B won 6-4 in 31 turns"
    assert movewords.over_words(dict(over, vs_board="B"), ["Ana", ""]) == \
        "Game over: the board (B) won 6-4 in 31 turns"
    assert movewords.headline(dict(over, winner=None, how="centre", score="6-6")) == \
        "Game over: a draw at 6-6 after 31 turns: start a new game"
    # a goal in A's turn may score for B (a marble in the opponent's goal scores for the
    # goal's owner): the words name whose turn it is, not who scored
    goal = {"state": "goal_pending", "mover": "A", "dice": [3], "vs_board": "B"}
    words = movewords.headline(goal, ["Anna", ""])
    assert "Anna's turn" in words and "scored" not in words, words
    assert "board's turn" in movewords.headline(dict(goal, mover="B"), ["Anna", ""])
    # repair words: a new game's set-up, after a finished game, in the middle of one
    assert movewords.repair_words("the board changed before the roll", ["S6"], ["S11"],
                                  new_game=True) == \
        "Set up the start position for the new game: put a marble on S6; take the " \
        "marble off S11"
    assert movewords.repair_words("set up the board for the new game: the marbles on "
                                  "their start holes", [], ["R9", "S2"]).startswith(
        "Set up the board for the new game (the last one is over): take the marbles off")
    assert movewords.repair_words("the board changed before the roll", ["S6"], [],
                                  new_game=False) == \
        "Put the board right (the board changed before the roll): put a marble on S6"


def test_find_board_counts_virtual_boards_with_picos():
    v = [{"port": "/tmp/x/ttyVB0", "folder": "/tmp/x", "board": "virtual-1"}]
    assert boardlink.find_board([], virtual=v) == "/tmp/x/ttyVB0"
    with pytest.raises(boardlink.BoardNotFound, match="no virtual board running"):
        boardlink.find_board([], virtual=[])
    with pytest.raises(boardlink.LinkError, match="2 boards found"):
        boardlink.find_board([], virtual=v + [dict(v[0], port="/tmp/y/ttyVB0")])


# ---- against a virtual board -----------------------------------------------------------

def _json(capsys, argv):
    code = cli.main(argv)
    out = capsys.readouterr()
    return code, (json.loads(out.out) if code == 0 and out.out.strip() else None), out


@pytest.mark.skipif(not HAVE_UPY, reason="micropython Unix port not installed")
def test_game_against_the_board_from_the_terminal_without_a_port(tmp_path, capsys):
    vb = VirtualBoard(folder=str(tmp_path / "vb"), board_id="table-3")
    try:
        vb.start()
        vb.wait_ready(30)
        assert [b["port"] for b in running_boards()] == [vb.port]
        assert cli.main(["ports"]) == 0
        assert "virtual board table-3" in capsys.readouterr().out

        # a normal game: roll, hint, undo; every command finds the one board itself
        code, s, _ = _json(capsys, ["game", "new", "--json"])
        assert code == 0 and s["vs_board"] is None and s["turns"] == 0
        assert s["state"] == "waiting" and s["mover"] == "A"
        # a hint before the roll, a second roll: refused saying what to do instead
        assert cli.main(["game", "hint"]) == 1
        assert capsys.readouterr().err == \
            "samsara game hint: Roll first: a hint needs the dice.\n"
        code, s, _ = _json(capsys, ["game", "roll", "--json"])
        assert code == 0 and len(s["rolled"]) == 2 and s["state"] == "moving"
        assert sorted(s["dice"]) == sorted(s["rolled"])
        assert cli.main(["game", "roll"]) == 1
        assert capsys.readouterr().err == (
            "samsara game roll: You have already rolled: move your marbles (%s "
            "still to play).\n" % " and ".join(str(d) for d in s["remaining"]))
        code, h, _ = _json(capsys, ["game", "hint", "--json"])
        assert code == 0 and h["player"] == "A" and h["arrows"]
        assert h["words"].startswith(h["hint"].split()[1])
        assert cli.main(["game", "undo"]) == 1      # nothing played yet: refused, in words
        err = capsys.readouterr().err
        assert "the board says no" in err and "Traceback" not in err

        # against the board: it plays A at level 2, rolls and names its move
        code, s, _ = _json(capsys, ["game", "new", "--vs-board", "A", "--level", "2",
                                    "--json"])
        assert code == 0 and s["vs_board"] == "A" and s["level"] == 2
        for _ in range(50):
            code, s, _ = _json(capsys, ["game", "status", "--json"])
            if s["board_move"]:
                break
            time.sleep(0.1)
        assert s["state"] == "moving" and s["mover"] == "A" and len(s["dice"]) == 2
        assert set(s) >= {"state", "mover", "dice", "score", "turns", "vs_board"}
        assert s["board_move"] and s["headline"].startswith("The board plays ")
        assert cli.main(["game", "status"]) == 0
        words = capsys.readouterr().out
        assert "The board plays %s: move the marble from" % s["board_move"] in words
        assert "moving" not in words
        assert cli.main(["game", "hint"]) == 1      # not during the board's turn
        assert "No hint during the board's turn: carry out its move" in \
            capsys.readouterr().err

        # the power is cut and comes back: the game resumes at level 2
        vb.kill()
        vb.start()
        vb.wait_ready(30)
        code, s, _ = _json(capsys, ["game", "status", "--json"])
        assert code == 0 and s["vs_board"] == "A" and s["level"] == 2
        assert cli.main(["game", "status"]) == 0
        assert "it plays A (level 2)" in capsys.readouterr().out
    finally:
        vb.stop()
    assert running_boards() == []
    assert cli.main(["game", "status"]) == 1
    assert "no virtual board running" in capsys.readouterr().err


def test_one_name_or_two_for_game_new():
    assert game_cmd.names_of(["Anna", "Ben"]) == ["Anna", "Ben"]
    assert game_cmd.names_of(["Anna"]) == ["Anna", ""]
    assert game_cmd.names_of(["Anna"], vs_board="B") == ["Anna", ""]
    assert game_cmd.names_of(["Anna"], vs_board="A") == ["", "Anna"]
    for bad, word in ((["a", "b", "c"], "one name or two"), ([" "], "empty"),
                      (["x" * 41], "at most 40"), (["   ", "Bob"], "empty")):
        with pytest.raises(ValueError, match=word):
            game_cmd.names_of(bad)


def test_a_blank_name_is_refused_alike_in_the_terminal_and_the_app():
    # one rule (docs/host-tool.md "game"): a name of spaces only is refused, in the
    # terminal and in the app's name boxes; an app box left empty is no name
    from samsara_host.app import control
    with pytest.raises(ValueError, match="player A's name is empty"):
        game_cmd.names_of(["   ", "Bob"])
    with pytest.raises(control.BadRequest, match="player A's name is empty"):
        control.request_of("new", {"names": ["   ", "Bob"]})
    assert control.request_of("new", {"names": ["", "Bob"]})[1]["name_b"] == "Bob"
    assert "name_a" not in control.request_of("new", {"names": ["", "Bob"]})[1]


def test_terminal_words_name_the_roll_command_and_the_room_in_games():
    from samsara_host.logs_cmd import room_words
    st = {"state": "waiting", "mover": "A", "dice": []}
    assert movewords.headline(st, ["Anna", "Ben"]) == "Anna to roll: press the roll button"
    assert movewords.headline(st, ["Anna", "Ben"], terminal=True) == \
        "Anna to roll: press the roll button or run `samsara game roll`"
    st = {"state": "turn_complete", "mover": "B", "dice": [5, 3]}
    assert movewords.headline(st, ["Anna", "Ben"], terminal=True) == (
        "Anna finished the turn: Ben, roll the dice (the roll button or `samsara game "
        "roll`)")
    assert room_words(589824, 184320) == "Room for 3 more games."
    assert room_words(200000, 184320) == "Room for 1 more game."
    assert room_words(None, None) == "Room for more games: the board does not say how many."
    assert room_words(0, 184320, full=True).startswith("FULL: pull the logs")


def test_game_options_are_checked_before_the_port():
    with pytest.raises(SystemExit) as e:
        cli.main(["game", "new", "--vs-board", "A", "--level", "7"])
    assert e.value.code == 2
    assert cli.main(["game", "new", "--level", "2", "--port", "loop://"]) == 2


@pytest.mark.skipif(not HAVE_UPY, reason="micropython Unix port not installed")
def test_game_new_takes_the_players_names_and_status_says_them(tmp_path, capsys):
    # --names goes into the game's log header: `game status` calls the players by
    # name, and the pulled game's record has them; a bad name is refused before the port
    from samsara_host import boardlink
    from samsara_host.record import from_log
    vb = VirtualBoard(folder=str(tmp_path / "vb"), board_id="table-5")
    try:
        vb.start()
        vb.wait_ready(30)
        assert cli.main(["game", "new", "--names", "Anna", "Ben"]) == 0
        out = capsys.readouterr().out
        assert "started for Anna (A) and Ben (B)" in out and "Anna to roll" in out
        code, s, _ = _json(capsys, ["game", "status", "--json"])
        assert code == 0 and s["names"] == ["Anna", "Ben"]
        assert s["headline"] == ("Anna to roll: press the roll button or run "
                                 "`samsara game roll`")
        assert cli.main(["game", "status"]) == 0
        assert "Score: Anna (A) 0, Ben (B) 0." in capsys.readouterr().out
        # the hint names the player
        assert cli.main(["game", "roll"]) == 0
        capsys.readouterr()
        assert cli.main(["game", "hint"]) == 0
        assert capsys.readouterr().out.startswith("Hint for Anna: ")
        state = boardlink.State(vb.port)
        try:
            state.hello()
            from samsara_host.runninglog import read_log
            data = read_log(state.client, s["game"], 1 << 16)
        finally:
            state.close()
        rec = from_log(data, allow_torn=True)
        assert (rec.tags["PlayerA"], rec.tags["PlayerB"]) == ("Anna", "Ben")
        # against the board, the other player named: "the board" and the name
        code, s, out = _json(capsys, ["game", "new", "--vs-board", "B", "--names", "Cleo",
                                      "", "--json"])
        assert code == 2 and "player B's name is empty" in out.err
        code, s, _ = _json(capsys, ["game", "new", "--vs-board", "A", "--names", "Deep",
                                    "Dev", "--json"])
        assert code == 0 and s["names"] == ["Deep", "Dev"]
        assert cli.main(["game", "status"]) == 0
        assert "Score: the board (A) 0, Dev (B) 0." in capsys.readouterr().out
        # one name: against the board it is the person's side's
        code, s, _ = _json(capsys, ["game", "new", "--vs-board", "A", "--names", "Eve",
                                    "--json"])
        assert code == 0 and s["names"] == ["", "Eve"]
        assert cli.main(["game", "new", "--names", "Fay"]) == 0
        out = capsys.readouterr().out
        assert "started for Fay (A) and Player B (B)" in out and "Fay to roll" in out
    finally:
        vb.stop()
    assert cli.main(["game", "new", "--names", "Anna", "x" * 41]) == 2
    assert "at most 40 characters" in capsys.readouterr().err


@pytest.mark.skipif(not HAVE_UPY, reason="micropython Unix port not installed")
def test_a_name_outside_the_bmp_goes_through_new_game_status_and_logs_pull(tmp_path, capsys):
    # An emoji (U+1F600, a surrogate pair when escaped) in a name reaches the board as
    # UTF-8: the header keeps it, status says it and the pulled log verifies
    import glob
    from samsara_host.record import from_log
    vb = VirtualBoard(folder=str(tmp_path / "vb"), board_id="table-7")
    try:
        vb.start()
        vb.wait_ready(30)
        code, s, out = _json(capsys, ["game", "new", "--names", "Zoë", "Ben \U0001F600",
                                      "--json"])
        assert code == 0, out.err
        assert s["names"] == ["Zoë", "Ben \U0001F600"]
        code, s, _ = _json(capsys, ["game", "status", "--json"])
        assert code == 0 and s["names"] == ["Zoë", "Ben \U0001F600"]
        dest = str(tmp_path / "pulled")
        assert cli.main(["logs", "pull", "--dest", dest]) == 0, capsys.readouterr()
        capsys.readouterr()
        (path,) = glob.glob(dest + "/*/game-%04d.log" % s["game"])
        with open(path, "rb") as f:
            rec = from_log(f.read(), allow_torn=True)
        assert (rec.tags["PlayerA"], rec.tags["PlayerB"]) == ("Zoë", "Ben \U0001F600")
    finally:
        vb.stop()


@pytest.mark.skipif(not HAVE_UPY, reason="micropython Unix port not installed")
def test_the_headline_after_a_complete_turn_names_who_played_and_who_rolls(tmp_path,
                                                                          capsys):
    # Anna (A) plays turn 1 on the board by hand: status says she finished, Ben rolls
    import sys
    sys.path.insert(0, __import__("os").path.dirname(__file__))
    from vbplayer import Player, frame_hex
    from samsara.rules.game import Game
    from samsara.rules.position import Position
    vb = VirtualBoard(folder=str(tmp_path / "vb"), board_id="table-8")
    try:
        vb.start()
        vb.wait_ready(30)
        state = boardlink.State(vb.port)
        try:
            state.hello()
            vb.feed({"frame": frame_hex(Position())})
            time.sleep(0.3)
            state.client.request("new_game", name_a="Anna", name_b="Ben")
            Player(vb, state.client, seed=3).turn(Game())
        finally:
            state.close()
        code, s, _ = _json(capsys, ["game", "status", "--json"])
        assert code == 0 and s["state"] == "turn_complete" and s["mover"] == "B"
        assert s["headline"] == ("Anna finished the turn: Ben, roll the dice (the roll "
                                 "button or `samsara game roll`)")
        assert cli.main(["game", "status"]) == 0
        assert "Anna finished the turn: Ben, roll the dice (the roll button or `samsara " \
            "game roll`)." in capsys.readouterr().out
    finally:
        vb.stop()


@pytest.mark.skipif(not HAVE_UPY, reason="micropython Unix port not installed")
def test_turns_so_far_count_the_turn_just_finished(tmp_path, capsys):
    # right after A's complete turn (before B's roll commits it) the status counts it
    import sys
    sys.path.insert(0, __import__("os").path.dirname(__file__))
    from vbplayer import Player, frame_hex
    from samsara.rules.game import Game
    from samsara.rules.position import Position
    vb = VirtualBoard(folder=str(tmp_path / "vb"), board_id="table-9")
    try:
        vb.start()
        vb.wait_ready(30)
        state = boardlink.State(vb.port)
        try:
            state.hello()
            vb.feed({"frame": frame_hex(Position())})
            time.sleep(0.3)
            state.client.request("new_game")
            played = Player(vb, state.client, seed=3).turn(Game())
            assert state.client.request("position")["turns"] == 0   # the board's count
        finally:
            state.close()
        code, s, _ = _json(capsys, ["game", "status", "--json"])
        assert code == 0 and s["state"] == "turn_complete"
        assert s["turns"] == 1 and s["record"] == [str(played)]
        assert cli.main(["game", "status"]) == 0
        out = capsys.readouterr().out
        assert "Turns so far: 1." in out and "Last turn: %s" % s["record"][-1] in out
    finally:
        vb.stop()


def _status_until(capsys, ok, timeout=10.0):
    # `game status --json` until ok(status) (the board's debounce takes a moment)
    deadline = time.monotonic() + timeout
    while True:
        code, s, out = _json(capsys, ["game", "status", "--json"])
        assert code == 0, out.err
        if ok(s) or time.monotonic() > deadline:
            return s
        time.sleep(0.1)


@pytest.mark.skipif(not HAVE_UPY, reason="micropython Unix port not installed")
def test_a_repair_names_the_holes_to_fix_in_new_and_status(tmp_path, capsys):
    # `game new` on a board whose marbles are not at the start: the words and the
    # JSON name the holes (missing, extra), the goal GS too, worked out from the
    # board's sensors; once put right, nothing is listed
    vb = VirtualBoard(folder=str(tmp_path / "vb"), board_id="table-8")
    try:
        vb.start()
        vb.wait_ready(30)
        vb.feed({"pos": "R1", "on": False}, {"pos": "R2", "on": False},
                {"pos": "R7", "on": True}, {"pos": "GS", "on": True})
        time.sleep(0.3)
        code, s, out = _json(capsys, ["game", "new", "--json"])
        assert code == 0, out.err
        assert s["state"] == "repair"
        assert s["missing"] == ["R1", "R2"] and s["extra"] == ["R7", "GS"]
        words = ("Set up the start position for the new game: put a marble on R1, R2; "
                 "take the marbles off R7, GS")
        assert s["headline"] == words
        assert cli.main(["game", "new"]) == 0
        assert capsys.readouterr().out.splitlines()[1] == words + "."
        assert cli.main(["game", "status"]) == 0
        out = capsys.readouterr().out
        assert out.startswith(words + ".\n") and "lit holes" not in out
        vb.feed({"pos": "R1", "on": True}, {"pos": "GS", "on": False})
        s = _status_until(capsys, lambda s: s["missing"] == ["R2"])
        assert s["missing"] == ["R2"] and s["extra"] == ["R7"]
        assert s["headline"].endswith(": put a marble on R2; take the marble off R7")
        vb.feed({"pos": "R2", "on": True}, {"pos": "R7", "on": False})
        s = _status_until(capsys, lambda s: s["state"] == "waiting")
        assert s["state"] == "waiting" and s["missing"] == [] and s["extra"] == []
    finally:
        vb.stop()
