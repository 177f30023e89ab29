"""Game records and `samsara logs list | pull | export | show` through the command line
(against the pty fake board), plus the monitor's model and the deploy of a small
bundle onto the real `micropython` REPL with real mpremote."""
import json
import os
import sys

import pytest

from fakeboard import FakeBoard
from loghelp import game_log
from samsara_host import cli, monitor_cmd
from samsara_host.record import GameRecord, RecordError, from_log, load
from samsara.rules.position import Position, START_TEXT

UPY = os.path.join(os.path.dirname(sys.executable), "micropython")


@pytest.fixture(scope="module")
def logged():
    data, game = game_log(3, {"board": "fake-1", "date": "2026.11.29",
                              "players": ["Ada", "Bo"]})
    return data, game


def test_record_from_log_matches_the_game(logged):
    data, game = logged
    rec = from_log(data)
    assert rec.turns == list(game.record)
    assert rec.final == game.pos and rec.result == game.result
    t = rec.tags
    assert (t["Board"], t["Date"], t["PlayerA"], t["PlayerB"], t["Game"]) == \
        ("fake-1", "2026.11.29", "Ada", "Bo", "1")
    assert t["Result"] == "AB"[game.result[0]] and t["Termination"] == "centre"


def test_a_log_whose_verdict_disagrees_with_the_replay_is_refused():
    data, game = game_log(3, end={"how": "end", "winner": "A", "score": "6-0"})
    with pytest.raises(RecordError, match="end record says winner A, score 6-0"):
        from_log(data)


def test_text_and_json_forms_round_trip(logged):
    rec = from_log(logged[0])
    text = rec.to_text()
    assert text.startswith('[Event "Samsara game"]\n[Date "2026.11.29"]')
    assert "\n  1. A " in text and text.rstrip().endswith(rec.summary())
    again = GameRecord.parse_text(text)
    assert again.to_text() == text
    j = GameRecord.from_json(json.dumps(rec.to_json()))
    assert j.turns == rec.turns and j.final == rec.final


@pytest.mark.parametrize("text,msg", [
    ("hello\n", "line 1: not a tag"),
    ('[Event "x"]\n\n  2. A 53 5:R1-S18 3:R2-S17\n', "turn 2 where turn 1"),
    ('[Event "x"]\n  1. B 53 5:R1-S18 3:R2-S17\n', "A's turn"),
    ('  1. A 53 5:R1-S19 3:R2-S17\n', "line 1: 53 5:R1-S19"),
    ('[Position "ooo/..."]\n', "Position tag"),
    ('[OpponentGoal "maybe"]\n  1. A 53 5:R1-S18 3:R2-S17\n', "unknown OpponentGoal"),
    ("", "not a Samsara game record"),
])
def test_bad_text_records_are_refused_with_the_line(text, msg):
    with pytest.raises(RecordError, match=msg.replace("(", r"\(").replace("'", "'")):
        GameRecord.parse_text(text)


def test_load_tells_formats_apart_and_refuses_garbage(tmp_path, logged):
    data = logged[0]
    (tmp_path / "g.log").write_bytes(data)
    (tmp_path / "torn.log").write_bytes(data[:777])
    (tmp_path / "junk.bin").write_bytes(bytes(range(1, 200)) * 3)
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "x.json").write_text('{"format": "other"}')
    assert load(str(tmp_path / "g.log")).turns == list(logged[1].record)
    assert load(str(tmp_path / "g.log")).torn is None
    # a torn log gives its valid records and says it is torn (issue 10 §1)
    torn = load(str(tmp_path / "torn.log"))
    assert "torn record" in torn.torn
    assert torn.turns == list(logged[1].record)[:len(torn.turns)]
    for name, msg in [("junk.bin", "neither a game log"),
                      ("empty.txt", "is empty"), ("x.json", "not a samsara-record"),
                      ("missing.log", "cannot read")]:
        with pytest.raises(RecordError, match=msg):
            load(str(tmp_path / name))


# -- the command line ------------------------------------------------------------------

def test_logs_list_pull_export_through_the_cli(tmp_path, capsys, logged):
    board = FakeBoard(str(tmp_path), {1: logged[0]})
    dest = str(tmp_path / "pulled")
    try:
        assert cli.main(["logs", "list", "--port", board.port, "--dest", dest]) == 0
        out = capsys.readouterr().out
        assert "Board fake-1: 1 game log" in out and "done" in out
        assert cli.main(["logs", "pull", "--port", board.port, "--dest", dest]) == 0
        out = capsys.readouterr().out
        assert "verified" in out and "acknowledged" in out
        assert cli.main(["logs", "pull", "--port", board.port, "--dest", dest]) == 0
        assert "Nothing to pull" in capsys.readouterr().out
        assert cli.main(["logs", "pull", "7", "--port", board.port, "--dest", dest]) == 1
        assert "no log of game 7" in capsys.readouterr().err
    finally:
        board.unplug()
    path = os.path.join(dest, "fake-1", "game-0001.log")
    assert open(path, "rb").read() == logged[0]
    assert cli.main(["logs", "export", path]) == 0
    text = capsys.readouterr().out
    assert GameRecord.parse_text(text).turns == list(logged[1].record)
    out_json = str(tmp_path / "g.json")
    assert cli.main(["logs", "export", path, "--format", "json", "--out", out_json]) == 0
    assert json.load(open(out_json))["final"] == logged[1].pos.format()


def test_export_pictures(tmp_path, capsys, logged):
    path = str(tmp_path / "g.log")
    open(path, "wb").write(logged[0])
    n = len(logged[1].record)
    assert cli.main(["logs", "export", path, "--format", "svg", "--turns", "%d-%d"
                     % (n - 2, n)]) == 0
    folder = tmp_path / "g-svg"
    names = sorted(os.listdir(folder))
    assert names == ["turn-%03d.svg" % k for k in (n - 2, n - 1, n)]
    last = (folder / names[-1]).read_text()
    assert last.startswith("<svg") and logged[1].record.tail(1)[0] in last
    assert "wins at the centre" in last
    strip = str(tmp_path / "s.svg")
    assert cli.main(["logs", "export", path, "--format", "svg", "--strip", "--turns",
                     "0-3", "--out", strip]) == 0
    assert open(strip).read().count("<svg") == 5
    png = str(tmp_path / "s.png")
    assert cli.main(["logs", "export", path, "--format", "png", "--strip", "--turns",
                     "0-1", "--out", png]) == 0
    assert open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    assert cli.main(["logs", "export", path, "--format", "png", "--turns", "9-1"]) == 2
    assert "outside" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["json", "text", "svg", "png", "gif", "html"])
def test_export_refuses_an_out_in_a_missing_folder_or_of_the_wrong_kind(
        tmp_path, capsys, logged, fmt):
    # Exit 2 (docs/cli.md "Exit codes": a mistake in what was given), one line naming
    # the command and the folder; no folder tree made, nothing written.
    path = str(tmp_path / "g.log")
    open(path, "wb").write(logged[0])
    out = str(tmp_path / "no" / "such" / ("x." + fmt))
    assert cli.main(["logs", "export", path, "--format", fmt, "--out", out]) == 2
    err = capsys.readouterr().err
    assert err.startswith("samsara logs export: ") and len(err.strip().splitlines()) == 1
    assert "no folder %s " % (tmp_path / "no" / "such") in err, err
    assert not (tmp_path / "no").exists()
    folder = tmp_path / "somedir"
    folder.mkdir()
    argv = ["logs", "export", path, "--format", fmt, "--out", str(folder)]
    if fmt in ("svg", "png"):
        argv += ["--strip"]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("samsara logs export: --out %s names a folder; give a file "
                          "name" % folder), err
    assert os.listdir(folder) == []
    if fmt in ("svg", "png"):     # one picture per turn: --out is a folder, not a file
        assert cli.main(["logs", "export", path, "--format", fmt, "--out", path]) == 2
        assert "is a file; give a folder" in capsys.readouterr().err


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("fmt", ["text", "gif"])
def test_export_that_cannot_write_says_so_naming_the_command(tmp_path, capsys, logged, fmt):
    # A write that fails (a full disk): exit 1 (docs/cli.md), one line naming the command.
    path = str(tmp_path / "g.log")
    open(path, "wb").write(logged[0])
    assert cli.main(["logs", "export", path, "--format", fmt, "--out", "/dev/full"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("samsara logs export: cannot write /dev/full: "), err
    assert len(err.strip().splitlines()) == 1


def test_show_prints_every_turn_when_not_a_terminal(tmp_path, capsys, logged):
    path = str(tmp_path / "g.log")
    open(path, "wb").write(logged[0])
    n = len(logged[1].record)
    assert cli.main(["logs", "show", path, "--turn", str(n - 1)]) == 0
    out = capsys.readouterr().out
    assert "[%d/%d]" % (n - 1, n) in out and "[%d/%d]" % (n, n) in out
    assert logged[1].record.tail(1)[0] in out and "wins at the centre" in out


def test_show_steps_with_keys(tmp_path, logged):
    from rich.console import Console
    from samsara_host import logs_cmd
    path = str(tmp_path / "g.log")
    open(path, "wb").write(logged[0])
    keys = iter("nnpGq")
    console = Console(record=True, width=100, force_terminal=False)

    class Args:
        file = path
        turn = 0
        all = False

    assert logs_cmd.cmd_show(Args, read_key=lambda: next(keys), console=console) == 0
    shown = [line for line in console.export_text().splitlines() if "/%d]" % len(
        list(logged[1].record)) in line]
    n = len(logged[1].record)
    assert [s.rsplit("[", 1)[1] for s in shown] == ["0/%d]" % n, "1/%d]" % n, "2/%d]" % n,
                                                    "1/%d]" % n, "%d/%d]" % (n, n)]


def test_show_refuses_garbage(tmp_path, capsys):
    p = tmp_path / "junk.txt"
    p.write_text("this is no game\n")
    assert cli.main(["logs", "show", str(p)]) == 2   # a file that is not a game: docs/cli.md "Exit codes"
    assert "line 1: not a tag" in capsys.readouterr().err


@pytest.mark.parametrize("deep", ['{"a": ' * 100000, '{"format": "samsara-record", "tags": '
                                  + "[" * 100000])
def test_export_of_deeply_nested_json_is_a_clean_error(tmp_path, capsys, deep):
    p = tmp_path / "deep.json"
    p.write_text(deep + "\n")
    assert cli.main(["logs", "export", str(p)]) == 2
    err = capsys.readouterr().err
    assert "nested too deeply" in err and len(err.strip().splitlines()) == 1


# -- monitor ---------------------------------------------------------------------------

def test_monitor_model_follows_events():
    m = monitor_cmd.Model()
    assert m.event({"ev": "roll", "dice": [5, 3]})
    assert not m.event({"ev": "lift", "pos": "R1"})
    assert m.lifted == [0]
    assert m.event({"ev": "sub", "move": "5:R1-S18"}) and m.lifted == []
    from samsara.rules.game import Game
    g = Game()
    g.play_notation("53 5:R1-S18 3:R2-S17")
    m.event({"ev": "turn", "turn": "53 5:R1-S18 3:R2-S17", "position": g.pos.format()})
    assert m.position == g.pos and m.dice == []
    assert m.note == "last turn: 53 5:R1-S18 3:R2-S17"
    m.event({"ev": "bogus"})
    assert len(m.last) == 5
    # a new game shows nothing of the last one's turn
    m.event({"ev": "game_start", "position": START_TEXT})
    assert m.note == "" and m.highlight == set() and m.position == Position()


def test_the_live_pages_note_is_not_the_monitors_last_turn():
    # The live page shows `note` over the board for a board whose game differs from
    # --game; the monitor's model (which the live model extends) keeps its last turn
    # in its own `note`: a turn must not come up as a note on the live page.
    from samsara_host.app.livestate import LiveModel
    m = LiveModel()
    m.connected = True
    m.event({"ev": "turn", "turn": "53 5:R1-S18 3:R2-S17"})
    assert m.snapshot()["note"] == ""


def test_monitor_plain_output(tmp_path):
    from rich.console import Console
    board = FakeBoard(str(tmp_path))
    board.events_on_hello = [{"ev": "roll", "dice": [6, 1]}]
    console = Console(record=True, width=100, force_terminal=False)

    class Args:
        port = board.port
        plain = True
        seconds = 0.5

    try:
        assert monitor_cmd.run(Args, console=console) == 0
    finally:
        board.unplug()
    text = console.export_text()
    assert "Samsara board fake-1" in text and '{"ev": "roll", "dice": [6, 1]}' in text
    assert "Ctrl-C" not in text  # not a terminal: no key to press


def test_monitor_without_board(capsys):
    class Args:
        port = "/dev/samsara-no-such-port"
        plain = True
        seconds = 0.2

    assert monitor_cmd.run(Args) == 1
    assert "does not exist" in capsys.readouterr().err


# -- deploy onto the real MicroPython REPL ----------------------------------------------

@pytest.mark.skipif(not os.path.exists(UPY), reason="micropython Unix port not installed")
def test_deploy_with_real_mpremote_onto_the_micropython_repl(tmp_path, capsys):
    from ptyrelay import PtyProcess
    bundle = tmp_path / "bundle"
    (bundle / "samsara").mkdir(parents=True)
    (bundle / "main.py").write_text("print('hi')\n" * 50)
    (bundle / "samsara" / "blob.bin").write_bytes(bytes(range(256)) * 5)
    flash = tmp_path / "flash"
    flash.mkdir()
    proc = PtyProcess([UPY], str(tmp_path), cwd=str(flash))
    try:
        args = ["deploy", "--port", proc.port, "--bundle", str(bundle), "--no-reset"]
        assert cli.main(args) == 0
        out = capsys.readouterr().out
        assert "2 written and verified" in out and "MicroPython 1." in out
        assert cli.main(args) == 0
        assert "0 written and verified (SHA-256), 2 unchanged" in capsys.readouterr().out
    finally:
        proc.close()
    assert (flash / "samsara" / "blob.bin").read_bytes() == bytes(range(256)) * 5
    assert (flash / "main.py").read_text() == "print('hi')\n" * 50


def test_deploy_without_board_or_bundle(tmp_path, capsys):
    assert cli.main(["deploy", "--port", "loop://", "--bundle", str(tmp_path)]) == 1
    assert "is empty" in capsys.readouterr().err
    (tmp_path / "main.py").write_text("x")
    assert cli.main(["deploy", "--port", "/dev/samsara-no-such-port", "--bundle",
                     str(tmp_path)]) == 1
    assert "does not exist" in capsys.readouterr().err


@pytest.mark.parametrize("change, piece", [
    ({"version": 99}, "version 99: this tool reads samsara-record version 1"),
    ({"tags": []}, "tags must be an object"),
    ({"tags": {"Event": {"a": 1}}}, "tag Event must be text"),
    ({"turns": {}}, "turns must be a list"),
])
def test_a_json_record_is_read_strictly(tmp_path, capsys, logged, change, piece):
    # (a version 99, tags as a list, turns as an object were taken; an Event object
    # was exported as [Event "{'a': 1}"])
    from samsara_host.record import from_log
    obj = from_log(logged[0]).to_json()
    obj.update(change)
    p = tmp_path / "g.json"
    p.write_text(json.dumps(obj))
    assert cli.main(["logs", "export", str(p)]) == 2
    assert piece in capsys.readouterr().err
