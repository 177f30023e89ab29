"""`samsara virtual-board` (issue 10 §3): the first line names the port, --help helps,
the board's id is its own, and --play SEED has two greedy players play a seeded game
through the board's sensors, buttons and dice only, while the user's tools use the
port (here `samsara logs pull --port`)."""
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from samsara.rng import Lcg
from samsara.rules.game import Game
from samsara_host import cli, record
from samsara_host.sim.player import choose_greedy, random_pick
from samsara_host.virtual_board import VirtualBoard, find_micropython

try:
    find_micropython()
    HAVE_UPY = True
except FileNotFoundError:
    HAVE_UPY = False

SAMSARA = os.path.join(os.path.dirname(sys.executable), "samsara")


def test_module_help_prints_help_and_makes_no_folder(tmp_path):
    r = subprocess.run([sys.executable, "-m", "samsara_host.virtual_board", "--help"],
                       capture_output=True, text=True, timeout=60, cwd=str(tmp_path))
    assert r.returncode == 0 and "usage:" in r.stdout and "--play" in r.stdout
    assert os.listdir(str(tmp_path)) == []
    r = subprocess.run([SAMSARA, "virtual-board", "--help"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0 and "--turns" in r.stdout


def test_virtual_board_ids_are_unique_and_kept_in_the_folder(tmp_path):
    def made(folder, board_id=None):
        vb = VirtualBoard(folder=str(tmp_path / folder), board_id=board_id)
        vb.stop()  # the folder is free again for the next board
        return vb

    a = made("a")
    b = made("b")
    assert a.board_id != b.board_id and a.board_id.startswith("virtual-")
    assert made("a").board_id == a.board_id
    assert made("c", "table-2").board_id == "table-2"
    assert made("c").board_id == "table-2"
    with pytest.raises(ValueError, match="board id"):
        VirtualBoard(folder=str(tmp_path / "d"), board_id="no spaces/slashes")
    assert made("d").board_id.startswith("virtual-")  # a refused id leaves it free


def test_one_virtual_board_per_folder(tmp_path):
    """A second board in a running board's folder would take its port path and write
    into the same game logs: refused, naming the running board's port."""
    from samsara_host.virtual_board import FolderError
    first = VirtualBoard(folder=str(tmp_path / "vb"), board_id="first-1")
    try:
        with pytest.raises(FolderError, match="another virtual board runs in"):
            VirtualBoard(folder=str(tmp_path / "vb"), board_id="second-2")
        assert open(str(tmp_path / "vb" / "board-id")).read().strip() == "first-1"
        r = subprocess.run([SAMSARA, "virtual-board", str(tmp_path / "vb")],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 1 and "Traceback" not in r.stderr
        assert "another virtual board runs in" in r.stderr and "ttyVB0" in r.stderr
    finally:
        first.stop()
    VirtualBoard(folder=str(tmp_path / "vb")).stop()  # free once the first stopped
    (tmp_path / "file").write_text("x")
    r = subprocess.run([SAMSARA, "virtual-board", str(tmp_path / "file")],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "is a file, not a folder" in r.stderr, r.stderr


def _expected_turns(seed, n):
    """The game two greedy players play with the board's dice seeded with `seed`."""
    dice = Lcg(seed)
    pick = random_pick(random.Random(seed))
    game = Game()
    for _ in range(n):
        d1, d2 = dice.die(), dice.die()
        p = game.pos
        moves = choose_greedy(p.r, p.s, p.a, p.b, p.mover, d1, d2, game.og, pick)
        from samsara.rules import moves as rules
        key = [k for mv, k in rules.complete_turns(p.r, p.s, p.a, p.b, p.mover, d1, d2,
                                                   game.og) if mv == moves][0]
        game.apply(d1, d2, moves, key)
    return list(game.record)


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


@pytest.mark.skipif(not HAVE_UPY, reason="micropython Unix port not installed")
def test_play_two_turns_then_pull_the_log_through_the_free_port(tmp_path, capsys):
    folder = str(tmp_path / "vb")
    p = subprocess.Popen([SAMSARA, "virtual-board", folder, "--id", "table-7",
                          "--play", "7", "--turns", "2"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = p.stdout.readline()
        assert first.startswith("port: "), first + p.stderr.read()
        port = first[len("port: "):].strip()
        lines = _lines_until(p, "played:", 90)
        assert lines[-1] == "played: 2 turns", lines
        import serial
        serial.serial_for_url(port).close()        # a value pyserial accepts
        dest = str(tmp_path / "logs")
        assert cli.main(["logs", "pull", "--port", port, "--dest", dest]) == 0
        out = capsys.readouterr().out
        assert "still running" in out, out         # the game stays open after N turns
        path = os.path.join(dest, "table-7", "game-0001.log")
        rec = record.load(path)
        assert rec.tags["Board"] == "table-7"
        # the log holds the first turn (a turn is recorded once the next roll
        # confirms it) and the second turn's roll and sub-moves
        want = _expected_turns(7, 2)
        assert rec.turns == want[:1]
        st = rec.log_state
        assert sorted(st["roll"], reverse=True) == [int(want[1][0]), int(want[1][1])]
        assert " ".join(st["subs"]) == want[1][3:]
        assert p.poll() is None, "it keeps running after the play"
    finally:
        p.send_signal(signal.SIGINT)
        try:
            p.wait(20)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(5)
    assert p.returncode == 0
    assert os.path.isdir(os.path.join(folder, "logs"))
    # again in the same folder: the board resumes the game (one turn logged), which
    # --play refuses instead of rolling into it (the resume line may come after boot)
    p = subprocess.Popen([SAMSARA, "virtual-board", folder, "--play", "7", "--turns", "2"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = _lines_until(p, "play stopped:", 60)
        assert lines[-1] == ("play stopped: the board resumed game 1 with 1 turn: --play "
                             "needs a fresh game (start the board in a new folder)"), lines
    finally:
        p.send_signal(signal.SIGINT)
        p.wait(20)


@pytest.mark.skipif(not HAVE_UPY, reason="micropython Unix port not installed")
def test_it_says_so_when_the_board_process_dies(tmp_path):
    p = subprocess.Popen([sys.executable, "-m", "samsara_host.virtual_board",
                          str(tmp_path / "vb")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().startswith("port: ")
        deadline = time.monotonic() + 20
        kids = []
        while not kids and time.monotonic() < deadline:
            with open("/proc/%d/task/%d/children" % (p.pid, p.pid)) as f:
                kids = [int(x) for x in f.read().split()]
            time.sleep(0.1)
        os.kill(kids[0], signal.SIGKILL)
        assert p.wait(20) == 1
        assert "board's process stopped" in p.stderr.read()
    finally:
        if p.poll() is None:
            p.kill()
            p.wait(5)
