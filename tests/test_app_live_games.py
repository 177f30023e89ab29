"""`samsara app --game`: an unknown game and options that are not for the game are
refused; a board whose game differs from --game is said in words and followed; the
live model of a Samas or Schaska board (app/livegames.py) folds the board's events of a
seeded game into `rules play`'s lines, the record and the end in words."""
import os
import subprocess
import sys

import pytest

from apphttp import get_json as _get, post_json as _post
from polling import until as _until

from samsara_host import samas_lines, schaska_lines
from samsara_host.app.boardwatch import BoardWatch, board_game, mismatch_words
from samsara_host.app.livegames import GameLiveModel
from samsara_host.app.server import AppServer
from samsara_host.vboard_games_play import GamesPlay
from samsara_host.virtual_board import VirtualBoard
from schaska.rules.layout import DEFAULT, parse_layout
from test_app_cmd import HAVE_UPY
from testports import free_port

SAMSARA = os.path.join(os.path.dirname(sys.executable), "samsara")


def _app(*args):
    return subprocess.run([SAMSARA, "app", "--no-browser", "--http-port", "0"] + list(args),
                          capture_output=True, text=True, timeout=60)


def test_an_unknown_game_is_refused_with_the_games_named():
    r = _app("--game", "chess", "--virtual")
    assert r.returncode == 2
    assert "invalid choice: 'chess'" in r.stderr
    assert "'samsara', 'samas', 'schaska'" in r.stderr


def test_options_that_are_samsaras_are_refused_for_another_game(tmp_path):
    r = _app("--game", "samas", "--virtual", "--turns", "3", "--logs", str(tmp_path))
    assert r.returncode == 2 and "--turns is Samsara's" in r.stderr
    r = _app("--game", "schaska", "--no-board", "--logs", str(tmp_path))
    assert r.returncode == 2 and "not with --no-board" in r.stderr


def test_the_boards_game_comes_from_its_hello():
    assert board_game({"board": "x", "game": "samas"}) == "samas"
    assert board_game({"board": "x"}) == "samsara"      # Samsara's firmware names none
    assert board_game(None) == "samsara"


def _watch(expect, hello):
    w = BoardWatch(None, None)
    said = []
    w.expect_game = expect
    w.on_note = said.append
    w.model.hello = hello
    w._game_of_board()
    return w, said


def test_a_board_of_another_game_is_said_and_its_game_followed():
    w, said = _watch("samas", {"board": "table-2", "game": "schaska"})
    assert said == ["The board table-2 plays Schaska, not Samas as --game samas said: "
                    "the app follows the board's game."]
    assert w.model.other is not None and w.model.other.game == "schaska"
    snap = w.model.snapshot()
    assert snap["kind"] == "schaska" and snap["note"] == said[0]
    # a Samsara board when --game asked for Samas: Samsara's own live page
    w, said = _watch("samas", {"board": "table-1"})
    assert said and "plays Samsara, not Samas" in said[0]
    assert w.model.other is None and w.model.snapshot()["kind"] == "samsara"


def test_a_board_of_the_game_asked_for_says_nothing():
    w, said = _watch("schaska", {"board": "t", "game": "schaska"})
    assert said == [] and w.model.game_note == ""
    assert mismatch_words("samsara", "samsara") == ""
    assert mismatch_words(None, "samas") == ""


def _samas_events(seed):
    game, lines = samas_lines.self_play(seed)
    evs = [{"ev": "game_start", "game": "samas", "start": lines[0]["start"]}]
    for line in lines[1:-1]:
        evs += [{"ev": "ready", "p": "A"}, {"ev": "reject", "p": "B",
                                            "why": "the tray is not settled yet"},
                {"ev": "ready", "p": "B"},
                {"ev": "round", "round": line["round"], "play": line["play"],
                 "after": line["after"]}, {"ev": "cleared", "round": line["round"]}]
    evs[-1] = {"ev": "game_over", "result": game.result, "how": game.how,
               "final": lines[-1]["final"]}
    return game, lines, evs


def test_a_samas_boards_events_give_rules_plays_game_and_its_end_in_words():
    game, lines, evs = _samas_events(4)
    m = GameLiveModel("samas")
    assert m.snapshot()["headline"] == "Waiting for the board's game ..."
    m.event(evs[0])
    assert m.headline().startswith("Round 1: each player puts 0 to 3 stones")
    m.event(evs[1])
    assert m.headline() == ("Round 1: Player A is ready; Player B, choose behind your "
                            "screen and press Ready")
    m.event(evs[2])
    assert m.snapshot()["refused"] == ("Player B's Ready was refused: the tray is not "
                                       "settled yet: press Ready again")
    m.event(evs[3])
    m.event(evs[4])
    assert m.headline().startswith("Round 1 revealed: Player A chose 1 stone, Player B 2 "
                                   "stones: B wins the reveal and moves 8 to 7. Now move "
                                   "Player B's Sama-stone from 8 to 7")
    for ev in evs[5:]:
        m.event(ev)
        m.event(ev)                  # an event heard twice changes nothing
    body = [x for x in m.lines if "round" in x]
    assert body == lines[1:-1]
    assert m.state() == lines[-1]["final"]
    s = m.snapshot()
    assert s["result"] == game.result == "A"
    assert s["over"] == ("Game over: Player A wins after 12 rounds (a player ran out of "
                         "stones and jokers)")
    assert len(s["record"]) == 12 and s["record"][3][1] == (
        "Player A chose no stones, Player B no stones: nobody moves")
    assert s["play"]["position"] == lines[-1]["final"]
    # the same game read from its log (the app started late) is the same game
    late = GameLiveModel("samas")
    late.from_lines(lines[:5])
    assert late.steps() == 4 and late.state() == lines[4]["after"]
    late.event(evs[5 * 4 + 4])      # round 5's event goes on from there
    assert late.steps() == 5
    # the board's newest log another game (a new one begun while the app was away)
    late.from_lines(lines[:5], log_game=7)
    late.from_lines(lines[:1], log_game=8)
    assert late.steps() == 0 and late.state() == lines[0]["start"]


def test_a_schaska_boards_events_give_rules_plays_game_and_its_end_in_words():
    game, lines = schaska_lines.self_play(2, DEFAULT)
    m = GameLiveModel("schaska")
    m.event({"ev": "game_start", "game": "schaska", "layout": list(DEFAULT),
             "start": lines[0]["start"]})
    assert m.headline().startswith("Player A to move: put a figure from the start on "
                                   "field 1")
    for line in lines[1:-1]:
        m.event(dict(line, ev="turn"))
    m.event({"ev": "reject", "why": "the buttons take no part in a turn"})
    assert m.snapshot()["refused"] == "The board refused: the buttons take no part in a turn"
    m.event({"ev": "game_over", "result": game.result, "by": game.by,
             "final": lines[-1]["final"]})
    assert m.lines == lines
    s = m.snapshot()
    assert s["over"] == "Game over: Player B wins after 84 turns (all figures home)"
    assert s["record"][0] == [1, "Player A enters on field 1"]
    assert s["play"]["layout"] == list(DEFAULT) and s["play"]["totals"] == [
        sum(lines[-1]["final"]["A"]["fields"]) + 17 * lines[-1]["final"]["A"]["home"],
        sum(17 - f for f in lines[-1]["final"]["B"]["fields"])
        + 17 * lines[-1]["final"]["B"]["home"]]


def test_events_with_bad_fields_are_ignored():
    m = GameLiveModel("schaska")
    m.event({"ev": "game_start", "game": "schaska", "layout": None, "start": {}})
    m.event({"ev": "turn", "turn": "x"})
    assert m.lines == [] and m.snapshot()["play"] is None
    try:
        GameLiveModel("samsara")
    except ValueError as e:
        assert "Samas or Schaska" in str(e)
    else:
        raise AssertionError("a Samsara board is LiveModel's")


@pytest.mark.skipif(not HAVE_UPY, reason="micropython Unix port not installed")
def test_an_app_that_starts_after_the_game_reads_it_from_the_boards_log(tmp_path):
    # A Schaska board on a layout of its own plays a whole game before the app looks:
    # the watch reads the board's newest log (not pulled) and shows the game to its end.
    layout = parse_layout("+2,-1,8,+3,+1,-2,+1,+2,-3,+1")
    game, lines = schaska_lines.self_play(3, layout)
    vb = VirtualBoard(folder=str(tmp_path / "vb"), game="schaska", layout=layout)
    play = GamesPlay(vb, 3)
    srv = None
    try:
        port = vb.start()
        vb.wait_ready(30)
        assert play.run()[1]
        watch = BoardWatch(port, None)
        watch.expect_game = "schaska"
        srv = AppServer(str(tmp_path / "lib"), watch)
        url = srv.start(free_port())
        s = _until(lambda: _get(url + "api/live"), lambda s: s.get("over"),
                   "the game's end on the live page")
        assert s["kind"] == "schaska" and s["connected"] and s["note"] == ""
        assert s["play"]["layout"] == list(layout)
        assert s["steps"] == len(lines) - 2 and s["result"] == game.result
        assert s["play"]["position"] == lines[-1]["final"]
        assert s["headline"].startswith("Game over: ")
        # the board page: no `status` on this board, what it plays in the same words
        board = _get(url + "api/board")
        assert board["status"] is None and board["playing"] == s["headline"]
        assert board["logs"]["games"] >= 1
        # Samsara's buttons and the page's hands (not the app's own board) are refused in
        # words, nothing sent
        for action, words in (("roll", "Roll is Samsara's: this board plays Schaska"),
                              ("new", "New game is Samsara's: this board plays Schaska"),
                              ("hand", "The page's hands move only the app's own virtual board")):
            code, body = _post(url + "api/live/" + action, {"hole": "R1"})
            assert code == 409 and body["error"].startswith(words), body
    finally:
        if srv is not None:
            srv.stop()
        vb.stop()








def test_a_layout_is_for_the_apps_own_schaska_board(tmp_path):
    r = _app("--game", "samas", "--virtual", "--layout", "+1,+2,+3,+1,+2,+3,+1,+2")
    assert r.returncode == 2 and "--layout is for --game schaska --virtual" in r.stderr
    r = _app("--game", "schaska", "--virtual", "--layout", "+1,+2,+5,8,1,1,1,1")
    assert r.returncode == 2 and "field 3" in r.stderr
