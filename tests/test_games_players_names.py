"""The players' names on a Samas or Schaska board: given to the board
(`samsara virtual-board --game G --names A B`, `samsara app --game G --virtual
--names`), carried by its game_start event into the game log's header; the live page
names them (and lets the players name themselves: the library's tags of the running
game), and so do the library, `logs tag` and `logs export --format jsonl` afterwards,
the library's tags over the header.  An unnamed game's lines stay `rules play`'s."""
import json
import os
import shutil
import subprocess
import sys
import time

import pytest

from apphttp import get_json as _get, post_json as _post
from polling import until

from samsara_host import games_log, gametags, samas_lines
from samsara_host.app import library
from samsara_host.app.boardwatch import BoardWatch
from samsara_host.app.livegames import GameLiveModel
from samsara_host.app.server import AppServer
from samsara_host.vboard_games_play import GamesPlay
from samsara_host.virtual_board import VirtualBoard
from test_app_cmd import HAVE_UPY
from testports import free_port

SAMSARA = os.path.join(os.path.dirname(sys.executable), "samsara")
START = {"A": {"hole": 2, "stones": 13, "jokers": 2},
         "B": {"hole": 8, "stones": 13, "jokers": 2}}


def _run(*args):
    return subprocess.run([SAMSARA] + list(args), capture_output=True, text=True,
                          timeout=60)


def test_the_live_page_says_the_names_of_the_game_start():
    m = GameLiveModel("samas")
    m.event({"ev": "game_start", "game": "samas", "start": START, "players": ["Ana", "Ben"]})
    m.event({"ev": "ready", "p": "B"})
    s = m.snapshot()
    assert s["names"] == ["Ana", "Ben"] and s["play"]["names"] == ["Ana", "Ben"]
    assert s["headline"] == ("Round 1: Ben is ready; Ana, choose behind your screen and "
                             "press Ready")
    assert s["words"] == ["A new game of Samas has started (Ana (A) and Ben (B))",
                          "Ben is ready"]
    m.event({"ev": "round", "round": 1, "play": {"A": "2", "B": "1"},
             "after": {"A": {"hole": 3, "stones": 11, "jokers": 2},
                       "B": {"hole": 8, "stones": 12, "jokers": 2}}})
    assert m.snapshot()["record"][0][1] == ("Ana chose 2 stones, Ben 1 stone: Ana wins the "
                                            "reveal and moves 2 to 3")
    # one name only: the other is "Player B"; a new game without names has none
    m.name(["Ana", ""])
    assert m.who("A") == "Ana" and m.who("B") == "Player B"
    m.event({"ev": "game_start", "game": "samas", "start": START})
    assert m.snapshot()["names"] is None and m.who("A") == "Player A"


def test_names_for_a_samsara_board_or_bad_names_are_refused_on_the_command_line(tmp_path):
    r = _run("virtual-board", str(tmp_path / "vb"), "--names", "Ana", "Ben")
    assert r.returncode == 2 and "--names is for --game samas or schaska" in r.stderr
    r = _run("virtual-board", str(tmp_path / "vb"), "--game", "samas", "--names", "a", "b",
             "c")
    assert r.returncode == 2 and "give one name or two" in r.stderr
    r = _run("app", "--game", "schaska", "--names", "Ana", "--no-browser", "--http-port", "0")
    assert r.returncode == 2 and "--names is for --virtual" in r.stderr
    with pytest.raises(ValueError):
        VirtualBoard(folder=str(tmp_path / "vb2"), game="samsara", players=["Ana", "Ben"])


@pytest.mark.skipif(not HAVE_UPY, reason="micropython Unix port not installed")
def test_a_named_games_log_names_its_players_in_the_library_and_its_export(tmp_path):
    seed = 3
    _game, lines = samas_lines.self_play(seed)
    vb = VirtualBoard(folder=str(tmp_path / "vb"), game="samas", players=["Ana", "Ben"])
    play = GamesPlay(vb, seed)
    logs = os.path.join(vb.folder, "logs")
    try:
        vb.start()
        vb.wait_ready(30)
        assert play.run()[1]
        # the end is written at the board's quiet moment: its log closed
        deadline = time.monotonic() + 20
        while not [n for n in os.listdir(logs) if n.endswith(".end")]:
            assert time.monotonic() < deadline, os.listdir(logs)
            time.sleep(0.05)
    finally:
        vb.stop()
    end = [n for n in os.listdir(logs) if n.endswith(".end")]
    assert len(end) == 1
    with open(os.path.join(logs, end[0]), "rb") as f:
        data = f.read()
    assert games_log.players_of(data) == ["Ana", "Ben"]
    got = games_log.jsonl_lines(data)
    assert got[0] == dict(lines[0], players=["Ana", "Ben"]) and got[1:] == lines[1:]
    # the library (as a pull stores it): the names, the result by the winner's name
    lib = tmp_path / "lib"
    (lib / vb.board_id).mkdir(parents=True)
    path = str(lib / vb.board_id / "game-0001.log")
    shutil.copy(os.path.join(logs, end[0]), path)
    entry = library.summary(str(lib), "%s/game-0001" % vb.board_id)
    winner = {"A": "Ana", "B": "Ben"}.get(lines[-1]["result"])
    assert entry["error"] is None and entry["players"] == ["Ana", "Ben"]
    assert entry["turns"] == len(lines) - 2 and entry["winner"] == lines[-1]["result"]
    assert entry["result"].startswith("%s wins after %d rounds" % (winner, len(lines) - 2)) \
        if winner else entry["result"].startswith("a draw")
    # ... and how it ended (the log's lines carry no "how": from the final state), its
    # kind: the Games page offers no Samsara replay for it
    final = lines[-1]["final"]
    far = final["A"]["hole"] == 9 or final["B"]["hole"] == 1
    assert entry["result"].endswith("(a Sama-stone reached its far end)" if far else
                                    "(a player ran out of stones and jokers)"), entry
    assert entry["kind"] == "samas"
    # Samsara's readers of a record say what the file is and what reads it
    for cmd in (("logs", "show", path), ("analyze", path)):
        r = _run(*cmd)
        assert r.returncode == 2 and "a Samas game's log, not Samsara's: `samsara logs " \
            "export FILE --format jsonl` reads it" in r.stderr, (cmd, r.stderr)
    # a rename (logs tag) is laid over the header's names: the library and the export
    r = _run("logs", "tag", path, "--names", "Anna", "Benno")
    assert r.returncode == 0, r.stderr
    assert 'PlayerA "Anna"' in r.stdout
    r = _run("logs", "export", path)
    assert r.returncode == 0, r.stderr
    first = json.loads(r.stdout.splitlines()[0])
    assert first["players"] == ["Anna", "Benno"] and first["start"] == lines[0]["start"]
    assert library.summary(str(lib), "%s/game-0001" % vb.board_id)["players"] == [
        "Anna", "Benno"]








@pytest.mark.skipif(not HAVE_UPY, reason="micropython Unix port not installed")
def test_players_named_on_the_board_and_on_the_live_page(tmp_path):
    vb = VirtualBoard(folder=str(tmp_path / "vb"), game="schaska", players=["Ana", "Ben"])
    srv = None
    try:
        port = vb.start()
        vb.wait_ready(30)
        watch = BoardWatch(port, None)
        watch.virtual = vb
        lib = tmp_path / "lib"
        srv = AppServer(str(lib), watch)
        url = srv.start(free_port())
        s = _until(url, lambda s: s.get("kind") == "schaska" and s["play"], "the board")
        assert s["names"] == ["Ana", "Ben"] and s["headline"].startswith("Ana to move")
        # the players name themselves on the live page: the library's tags of the game
        code, r = _post(url + "api/live/names", {"names": ["Anna", "Benno"]})
        assert code == 200 and r["tags"]["PlayerA"] == "Anna", r
        s = _until(url, lambda s: s["names"] == ["Anna", "Benno"], "the new names")
        assert s["headline"].startswith("Anna to move")
        tags = gametags.read(str(lib / vb.board_id / "game-0001.log"))
        assert tags["PlayerA"] == "Anna" and tags["PlayerB"] == "Benno"
        # a name is checked as everywhere else
        code, r = _post(url + "api/live/names", {"names": ["  ", "Ben"]})
        assert code == 400 and "player A's name" in r["error"], r
        code, r = _post(url + "api/live/names", {"names": ["Ana"]})
        assert code == 400 and r["error"] == "give both players' names"
        # a turn played by the page's hands is said with the name
        assert _post(url + "api/live/hand", {"field": 1})[0] == 200
        s = _until(url, lambda s: s["steps"] == 1, "the first turn")
        assert s["record"][0][1] == "Anna enters on field 1"
        assert s["headline"].startswith("Benno to move")
    finally:
        if srv is not None:
            srv.stop()
        vb.stop()


@pytest.mark.skipif(not HAVE_UPY, reason="needs the micropython command")
def test_game_new_names_the_players_of_a_new_game_on_a_samas_board(tmp_path):
    # `samsara game new --names` on a Samas board: the board's new_game (gameboard.
    # commands) starts a new game from the start with the names in its log's header;
    # Samsara's own options are refused on the command line and on the wire.
    from samsara_host import boardlink
    vb = VirtualBoard(folder=str(tmp_path / "vb"), game="samas")
    logs = os.path.join(vb.folder, "logs")
    try:
        vb.start()
        vb.wait_ready(30)
        r = _run("game", "new", "--port", vb.port, "--names", "Anna", "Ben")
        assert r.returncode == 0, r.stderr
        assert r.stdout.strip() == ("New Samas game started for Anna (A) and Ben (B): "
                                    "play it at the board.")
        r = _run("game", "new", "--port", vb.port, "--vs-board", "B")
        assert r.returncode == 2 and "no game against the board" in r.stderr, r.stderr
        r = _run("game", "new", "--port", vb.port, "--json", "--names", "Cleo")
        assert r.returncode == 0 and json.loads(r.stdout)["players"] == ["Cleo", ""]
        state = boardlink.State(vb.port)
        try:
            state.hello()
            for bad in ({"position": "x"}, {"vs_board": "A"}, {"starter": "B"},
                        {"name_a": "A\tB"}):
                with pytest.raises(boardlink.BoardError) as e:
                    state.client.request("new_game", **bad)
                assert e.value.code == "bad_args", (bad, e.value)
            with pytest.raises(boardlink.BoardError) as e:
                state.client.request("status")
            assert e.value.code == "not_supported"
        finally:
            state.close()
        deadline = time.monotonic() + 30
        while True:
            heads = []
            for n in sorted(os.listdir(logs)):
                if not n.startswith("g"):
                    continue        # the store's own files (its counter)
                with open(os.path.join(logs, n), "rb") as f:
                    heads.append(games_log.players_of(f.read()))
            if heads[-2:] == [["Anna", "Ben"], ["Cleo", ""]]:
                break
            assert time.monotonic() < deadline, heads
            time.sleep(0.2)
    finally:
        vb.stop()


def _until(url, ok, what, timeout=30.0):
    # the live page's state (GET api/live) once ok(it)
    return until(lambda: _get(url + "api/live"), ok, what, timeout)


@pytest.mark.skipif(not HAVE_UPY, reason="needs the micropython command")
def test_names_beyond_the_basic_plane_reach_the_header_whole(tmp_path):
    # An emoji (outside the Basic Multilingual Plane) in a name given to a virtual
    # board: the game's log header holds it as written, and the log still reads.
    names = ["Zo\u00eb \U0001F642", "Ben"]
    vb = VirtualBoard(folder=str(tmp_path / "vb"), game="samas", players=names)
    logs = os.path.join(vb.folder, "logs")
    try:
        vb.start()
        vb.wait_ready(30)
        deadline = time.monotonic() + 30
        while True:
            runs = [n for n in os.listdir(logs) if n.startswith("g")]
            if runs:
                with open(os.path.join(logs, runs[0]), "rb") as f:
                    got = games_log.players_of(f.read())
                if got is not None:
                    break
            assert time.monotonic() < deadline, os.listdir(logs)
            time.sleep(0.2)
    finally:
        vb.stop()
    assert got == names
