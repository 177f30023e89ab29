"""`samsara virtual-board DIR --game samas|schaska --play SEED` (docs/virtual-board.md
"Samas and Schaska"): simulated hands play the seeded game of `samsara rules play` on the
game's board core under the real scan loop, through the sensors and the buttons only;
the board's USB port stays free, `logs list` names the game, `logs pull` takes its log,
and `logs export --format jsonl` of the pulled log gives the very lines of `rules play
--json` for the same seed (and layout)."""
import glob
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from samsara_host import cli, games_log, samas_lines, schaska_lines
from samsara_host.vboard_games_play import GamesPlay
from samsara_host.virtual_board import VirtualBoard, find_micropython
from schaska.rules.layout import parse_layout

try:
    find_micropython()
    HAVE_UPY = True
except FileNotFoundError:
    HAVE_UPY = False

pytestmark = pytest.mark.skipif(not HAVE_UPY, reason="micropython Unix port not installed")

SAMSARA = os.path.join(os.path.dirname(sys.executable), "samsara")


def _lines_until(p, want, timeout):
    got = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = p.stdout.readline()
        if not line:
            break
        got.append(line.rstrip("\n"))
        if want in line:
            return got
    raise AssertionError("no %r in %r" % (want, got))


def _rules_play(game, seed, layout=None):
    cmd = [SAMSARA, "rules", "play", "--game", game, "--seed", str(seed), "--json"]
    if layout:
        cmd += ["--layout", layout]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


@pytest.mark.parametrize("game,seed,layout,word", [
    ("samas", 3, None, "round"),
    ("schaska", 2, "+1,+2,-1,3,2,-2,8,1,1,-3", "turn"),
])
def test_play_a_whole_game_then_pull_and_export_it_as_rules_plays_lines(
        tmp_path, capsys, game, seed, layout, word):
    folder = str(tmp_path / "vb")
    cmd = [SAMSARA, "virtual-board", folder, "--id", "table-3", "--game", game,
           "--play", str(seed)]
    if layout:
        cmd += ["--layout", layout]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = p.stdout.readline()
        assert first.startswith("port: "), first + p.stderr.read()
        port = first[len("port: "):].strip()
        lines = _lines_until(p, "played:", 240)
        want = _rules_play(game, seed, layout)
        n = len(want) - 2
        assert lines[-1] == "played: %d %s%s, game over" % (n, word, "" if n == 1 else "s")
        assert cli.main(["logs", "list", "--port", port]) == 0
        out = capsys.readouterr().out
        assert out.startswith("Board table-3 (%s): 1 game log" % game), out
        dest = str(tmp_path / "pulled")
        assert cli.main(["logs", "pull", "--port", port, "--dest", dest]) == 0
        path = os.path.join(dest, "table-3", "game-0001.log")
        capsys.readouterr()
        assert cli.main(["logs", "export", path, "--format", "jsonl"]) == 0
        got = capsys.readouterr().out.splitlines()
        assert got == want
        # the game commands of Samsara are not this board's
        assert cli.main(["game", "roll", "--port", port]) != 0
        assert "plays no Samsara game" in capsys.readouterr().err
        # Samsara's monitor sends to the app; the doctor checks what this board has
        assert cli.main(["monitor", "--port", port, "--plain", "--seconds", "1"]) == 2
        err = capsys.readouterr().err
        assert "plays %s, not Samsara: `samsara app --game %s" % (game.capitalize(), game) \
            in err, err
        r = subprocess.run([SAMSARA, "doctor", "--port", port], capture_output=True,
                           text=True, timeout=120)
        assert "playing %s" % game.capitalize() in r.stdout, r.stdout + r.stderr
        assert "status failed" not in r.stdout and "game log:" in r.stdout, r.stdout
    finally:
        p.send_signal(signal.SIGINT)
        try:
            p.wait(20)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(5)
    assert p.returncode == 0


def test_a_samas_log_exports_only_as_jsonl_and_a_samsara_log_not_as_jsonl(tmp_path, capsys):
    vb = VirtualBoard(folder=str(tmp_path / "vb"), game="samas")
    play = GamesPlay(vb, 8)
    pattern = os.path.join(str(tmp_path / "vb"), "logs", "g*.end")
    try:
        vb.start()
        vb.wait_ready(30)
        n, over = play.run()
        # the board writes the game's last records at its next quiet moment (2 s of
        # stillness), as Samsara's recorder does
        deadline = time.monotonic() + 30
        while not glob.glob(pattern) and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        vb.stop()
    assert over
    ended = glob.glob(pattern)
    assert len(ended) == 1
    data = open(ended[0], "rb").read()
    assert games_log.game_of(data) == "samas"
    _game, lines = samas_lines.self_play(8)
    assert games_log.jsonl_lines(data) == lines and n == len(lines) - 2
    assert cli.main(["logs", "export", ended[0], "--format", "text"]) == 2
    assert "a samas log exports as --format jsonl" in capsys.readouterr().err
    assert cli.main(["logs", "export", ended[0]]) == 0       # jsonl by default
    assert [json.loads(x) for x in capsys.readouterr().out.splitlines()] == lines
    # a Samsara log (a header without "rules") is no Samas or Schaska game
    from boardcore.storage.logwrite import encode_record, dumps, T_HEADER
    samsara_log = str(tmp_path / "samsara.log")
    with open(samsara_log, "wb") as f:
        f.write(encode_record(T_HEADER, dumps({"fmt": 1, "game": 1, "start": "x"}).encode()))
    assert games_log.game_of(open(samsara_log, "rb").read()) == "samsara"
    assert cli.main(["logs", "export", samsara_log, "--format", "jsonl"]) == 2
    assert "jsonl is for Samas and Schaska logs" in capsys.readouterr().err


def test_a_virtual_board_refuses_an_unknown_game_and_a_layout_for_samas(tmp_path):
    with pytest.raises(ValueError, match="unknown game"):
        VirtualBoard(folder=str(tmp_path / "a"), game="chess")
    with pytest.raises(ValueError, match="Schaska"):
        VirtualBoard(folder=str(tmp_path / "b"), game="samas",
                     layout=parse_layout("1,2,3,1,2,3,1,2"))
    r = subprocess.run([SAMSARA, "virtual-board", str(tmp_path / "c"), "--layout",
                        "1,2,3,1,2,3,1,2"], capture_output=True, text=True, timeout=30)
    assert r.returncode == 2 and "--layout is for --game schaska" in r.stderr


def test_a_schaska_log_replays_under_its_layout():
    # the logbook's records, built by hand: a move the rules do not allow is an error
    from boardcore.storage.logwrite import encode_record, dumps, T_HEADER, T_END
    layout = [1, 2, -1, 3, 2, -2, 8, 1]
    start = {"A": {"start": 7, "fields": [], "home": 0},
             "B": {"start": 7, "fields": [], "home": 0}, "turn": "A"}
    h = encode_record(T_HEADER, dumps({"fmt": 1, "game": 1, "rules": "schaska",
                                       "layout": layout, "start": start}).encode())
    good = encode_record(0x45, dumps({"ev": "move", "a": [0, 1]}).encode())
    bad = encode_record(0x45, dumps({"ev": "move", "a": [0, 5]}).encode())
    lines = games_log.jsonl_lines(bytes(h + good))
    assert lines[1]["move"] == {"from": "start", "to": 1} and len(lines) == 2
    with pytest.raises(games_log.LogError, match="may not play"):
        games_log.jsonl_lines(bytes(h + bad))
    end = encode_record(T_END, dumps({"how": "end", "result": "B", "by": "home"}).encode())
    with pytest.raises(games_log.LogError, match="not the rules'"):
        games_log.jsonl_lines(bytes(h + good + end))
