"""End to end, no hardware: a simulated game played on the virtual board (the firmware
under the `micropython` command behind a pseudo-terminal), its log pulled with the host
tool, exported and compared with the game; the cable pulled out mid-pull and plugged in
again; monitor, doctor, ports and deploy against the same virtual board; bench on a
virtual board of its own."""
import json
import os
import threading

import pytest

from samsara_host import boardlink, cli, logpull, record
from samsara_host.virtual_board import VirtualBoard, find_micropython

try:
    find_micropython()
    HAVE_UPY = True
except FileNotFoundError:
    HAVE_UPY = False

pytestmark = pytest.mark.skipif(not HAVE_UPY, reason="micropython Unix port not installed")

SEED = 3


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """(VirtualBoard, board game number, mirror Game) after one seeded game."""
    from vbplayer import Player
    folder = str(tmp_path_factory.mktemp("vboard"))
    vb = VirtualBoard(folder=folder, board_id="virtual-1", settle=(5, 10), dice="host")
    vb.start()
    try:
        vb.wait_ready(30)
        state = boardlink.State(vb.port)
        state.hello()
        gid, game = Player(vb, state.client, seed=SEED).play()
        state.close()
    except BaseException:
        print(vb.output_tail())
        vb.stop()
        raise
    assert game.over()
    yield vb, gid, game
    vb.stop()


def test_pulled_log_is_the_game(played, tmp_path, capsys):
    vb, gid, game = played
    dest = str(tmp_path / "logs")
    assert cli.main(["logs", "pull", str(gid), "--port", vb.port, "--dest", dest]) == 0
    assert "acknowledged" in capsys.readouterr().out
    path = os.path.join(dest, "virtual-1", "game-%04d.log" % gid)
    rec = record.load(path)
    assert rec.turns == list(game.record)
    assert rec.final == game.pos and rec.result == game.result
    assert rec.tags["Board"] == "virtual-1" and rec.tags["Game"] == str(gid)

    # The board agrees: same record, and the log is marked pulled.
    state = boardlink.State(vb.port)
    try:
        pos = state.client.request("position")
        # The reply carries the last turns that fit in one line, and their count.
        assert pos["record"] and pos["record"] == list(game.record)[-len(pos["record"]):]
        assert pos["turns"] == len(game.record)
        assert pos["position"] == game.pos.format()
        logs = {e["game"]: e for e in state.client.request("logs")["logs"]}
    finally:
        state.close()
    assert logs[gid]["state"] == "pulled"

    # Exports: text and JSON read back to the same game; pictures of the last turns.
    assert cli.main(["logs", "export", path]) == 0
    text = capsys.readouterr().out
    assert record.GameRecord.parse_text(text).turns == list(game.record)
    assert '[Result "%s"]' % "AB"[game.result[0]] in text
    js = str(tmp_path / "g.json")
    assert cli.main(["logs", "export", path, "--format", "json", "--out", js]) == 0
    data = json.load(open(js))
    assert [t["turn"] for t in data["turns"]] == list(game.record)
    assert data["final"] == game.pos.format()
    strip = str(tmp_path / "end.svg")
    n = len(game.record)
    assert cli.main(["logs", "export", path, "--format", "svg", "--strip", "--turns",
                     "%d-%d" % (n - 2, n), "--out", strip]) == 0
    assert game.record.tail(1)[0] in open(strip).read()


def test_cable_pulled_mid_transfer_then_plugged_in(played, tmp_path):
    vb, gid, game = played
    dest = str(tmp_path / "g.log")
    state = boardlink.State(vb.port)
    cut = []

    def progress(done, size):
        if not cut and done >= 3 * 192:
            cut.append(done)
            vb.unplug()  # the cable goes out under the running pull
            threading.Timer(0.5, vb.plug).start()

    gone = []
    out = logpull.pull_with_reconnect(state, gid, dest, progress=progress, wait=10,
                                      on_disconnect=lambda e, have: gone.append(have),
                                      ack=False)
    state.close()
    assert cut and gone and out["reconnects"] >= 1
    assert out["resumed_at"] > 0  # it went on from the part file, not from byte 0
    rec = record.load(dest)
    assert rec.turns == list(game.record) and rec.final == game.pos


def test_monitor_doctor_ports_see_the_virtual_board(played, capsys):
    vb, gid, game = played
    assert cli.main(["monitor", "--port", vb.port, "--plain", "--seconds", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "Samsara board virtual-1" in out and "The game is over" in out and "game_over" not in out
    assert cli.main(["doctor", "--port", vb.port]) == 0
    assert "All good" in capsys.readouterr().out
    assert cli.main(["ports", "--port", vb.port]) == 0
    assert "Samsara board virtual-1" in capsys.readouterr().out


def test_deploy_to_the_virtual_board_then_its_loop_answers_again(played, tmp_path, capsys):
    vb, gid, game = played
    bundle = tmp_path / "bundle"
    (bundle / "extra").mkdir(parents=True)
    (bundle / "extra" / "note.txt").write_text("deployed by the e2e test\n" * 20)
    assert cli.main(["deploy", "--port", vb.port, "--bundle", str(bundle)]) == 0
    out = capsys.readouterr().out
    assert "1 written and verified" in out and "board reset" in out
    # No promise that hello will show the bundle's hash: the virtual board runs the
    # source tree's firmware, and the line says so.
    assert "once the board runs the new files" not in out, out
    assert "Unix port (the virtual board)" in out and "source tree" in out, out
    assert open(os.path.join(vb.folder, "extra", "note.txt")).read().startswith("deployed")
    _answers_hello(vb, "virtual-1")


def _answers_hello(vb, board_id, within_s=15):
    """The virtual board `vb`, its loop restarted, answers hello as `board_id` within
    `within_s` (the restarted loop boots again first; its process must stay alive)."""
    import time
    state = boardlink.State(vb.port)
    try:
        deadline = time.monotonic() + within_s
        while True:
            try:
                assert state.hello(timeout=1.0)["board"] == board_id
                return
            except boardlink.NoReply:
                assert vb.alive(), vb.output_tail()
                assert time.monotonic() < deadline, vb.output_tail()
    finally:
        state.close()


def test_doctor_restarts_a_virtual_board_left_in_the_repl(played, tmp_path, capsys):
    """The virtual board's firmware lives on MICROPYPATH, not in its folder: the doctor
    must find it there, not report it missing and send the user to deploy."""
    vb, gid, game = played
    bundle = tmp_path / "bundle"
    (bundle / "extra").mkdir(parents=True)
    (bundle / "extra" / "note.txt").write_text("left in the REPL\n")
    assert cli.main(["deploy", "--port", vb.port, "--bundle", str(bundle),
                     "--no-reset"]) == 0
    capsys.readouterr()
    assert cli.main(["doctor", "--port", vb.port]) == 0, capsys.readouterr().out
    out = capsys.readouterr().out
    assert "firmware missing" not in out
    assert "sat in the REPL" in out and "All good" in out


def test_bench_on_the_virtual_board_leaves_it_running(tmp_path, capsys):
    """A soft reset (Ctrl-D) at the Unix port's REPL ends the virtual board's process:
    bench used to end with one, kill the board and still report success.  Now the
    board's loop is started again in place and the board answers `hello`."""
    vb = VirtualBoard(folder=str(tmp_path / "vb"), board_id="virtual-bench")
    vb.start()
    try:
        vb.wait_ready(30)
        assert cli.main(["bench", "--port", vb.port, "--idle-s", "1", "--cases", "1",
                         "--cycles", "1"]) == 0, vb.output_tail()
        cap = capsys.readouterr()
        assert "idle Loop.once()" in cap.out
        assert "its loop was started again in place" in cap.err, cap.err
        _answers_hello(vb, "virtual-bench")
        assert vb.alive(), vb.output_tail()
    finally:
        vb.stop()
