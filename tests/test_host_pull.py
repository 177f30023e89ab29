"""`logs pull` over a pseudo-terminal: chunks, CRC checks, and a cable pulled out in the
middle of a transfer (tests/fakeboard.py gives that fine control)."""
import os

import pytest

from fakeboard import FakeBoard
from loghelp import game_log
from boardcore.link import protocol
from samsara_host import boardlink, logpull


@pytest.fixture
def board(tmp_path):
    logs = {3: game_log(3)[0], 4: game_log(4, finish=False)[0]}
    b = FakeBoard(str(tmp_path), logs, states={3: "done", 4: "running"})
    yield b
    b.unplug()


def test_pull_verifies_and_acks(board, tmp_path):
    state = boardlink.State(board.port)
    dest = str(tmp_path / "out" / "game-0003.log")
    seen = []
    out = logpull.pull_log(state.client, 3, dest, progress=lambda d, s: seen.append((d, s)))
    state.close()
    assert open(dest, "rb").read() == board.logs[3]
    assert not os.path.exists(dest + ".part")
    assert out["crc"] == protocol.crc_hex(protocol.crc16(board.logs[3]))
    size = len(board.logs[3])
    assert board.acks == [{"game": 3, "crc": out["crc"], "size": size}]
    assert seen[-1] == (size, size) and len(seen) == (size + 191) // 192
    assert out["records"] > 100
    assert board.states[3] == "pulled"


def test_running_game_is_pulled_but_not_acked(board, tmp_path):
    state = boardlink.State(board.port)
    dest = str(tmp_path / "g4.log")
    logpull.pull_log(state.client, 4, dest)
    state.close()
    assert open(dest, "rb").read() == board.logs[4]
    assert board.acks == []


def test_damaged_chunks_are_asked_again(board, tmp_path):
    board.damage_chunks = 3
    state = boardlink.State(board.port)
    dest = str(tmp_path / "g3.log")
    logpull.pull_log(state.client, 3, dest)
    state.close()
    assert open(dest, "rb").read() == board.logs[3]


def test_unknown_game_is_a_clear_error(board, tmp_path):
    state = boardlink.State(board.port)
    with pytest.raises(logpull.PullError, match="no log of game 9"):
        logpull.pull_log(state.client, 9, str(tmp_path / "g9.log"))
    state.close()


def test_unplugged_mid_transfer_resumes_after_replug(board, tmp_path):
    board.unplug_after_gets = 4  # the cable goes out while the 4th chunk is on its way
    dest = str(tmp_path / "g3.log")
    state = boardlink.State(board.port)
    cuts = []

    def replug(err, have):
        cuts.append(have)
        board.plug()

    out = logpull.pull_with_reconnect(state, 3, dest, on_disconnect=replug, wait=5)
    state.close()
    assert cuts == [3 * 192]
    assert out["reconnects"] == 1 and out["resumed_at"] == 3 * 192
    assert open(dest, "rb").read() == board.logs[3]
    assert board.acks and board.acks[0]["size"] == len(board.logs[3])
    # the chunks before the cut were not asked for again
    offsets = [int(l.split(b'"offset": ')[1].split(b",")[0].rstrip(b"}"))
               for l in board.lines if b"log_get" in l]
    assert offsets.count(0) == 1


def test_board_that_never_comes_back(board, tmp_path):
    board.unplug_after_gets = 2
    state = boardlink.State(board.port)
    t = [0.0]

    def sleep(s):
        t[0] += s

    with pytest.raises(logpull.PullError, match="resume at byte 192"):
        logpull.pull_with_reconnect(state, 3, str(tmp_path / "g.log"), wait=2,
                                    sleep=sleep, clock=lambda: t[0])
    state.close()
    assert os.path.getsize(str(tmp_path / "g.log.part")) == 192


def test_stale_part_file_longer_than_the_log_restarts(board, tmp_path):
    dest = str(tmp_path / "g3.log")
    with open(dest + ".part", "wb") as f:
        f.write(b"x" * 9000)
    state = boardlink.State(board.port)
    logpull.pull_log(state.client, 3, dest)
    state.close()
    assert open(dest, "rb").read() == board.logs[3]


def test_a_damaged_copy_is_refused_and_deleted(tmp_path):
    data = bytearray(game_log(3)[0])
    data[700] ^= 0xFF  # the board's own file is damaged: listing CRC matches, records do not
    b = FakeBoard(str(tmp_path), {3: bytes(data)})
    try:
        state = boardlink.State(b.port)
        with pytest.raises(logpull.PullError, match="does not verify"):
            logpull.pull_log(state.client, 3, str(tmp_path / "g3.log"))
        state.close()
        assert not os.path.exists(str(tmp_path / "g3.log.part"))
        assert b.acks == []
    finally:
        b.unplug()


def test_listing_follows_the_pages(tmp_path):
    logs = {g: game_log(3)[0] for g in range(1, 15)}
    b = FakeBoard(str(tmp_path), logs)
    try:
        state = boardlink.State(b.port)
        listing = boardlink.list_logs(state.client)
        state.close()
    finally:
        b.unplug()
    assert [e["game"] for e in listing["logs"]] == list(range(1, 15))
    assert sum(1 for l in b.lines if b'"logs"' in l) == 3  # pages of 6


# ---- nothing lost, nothing confused (issue 10 §1) ----------------------------------

def _pull_into(board, dest):
    state = boardlink.State(board.port)
    try:
        return logpull.pull_log(state.client, 3, dest)
    finally:
        state.close()


def test_a_different_finished_game_under_the_same_name_is_kept(board, tmp_path):
    dest = str(tmp_path / "fake-1" / "game-0003.log")
    os.makedirs(os.path.dirname(dest))
    other = game_log(5)[0]            # another board's game 3, already acknowledged there
    with open(dest, "wb") as f:
        f.write(other)
    out = _pull_into(board, dest)
    assert open(dest, "rb").read() == other, "a finished copy was replaced"
    assert out["path"] != dest and out["kept"] == dest
    assert open(out["path"], "rb").read() == board.logs[3]
    assert os.path.basename(out["path"]) == "game-0003-2.log"
    assert board.acks and board.acks[0]["size"] == len(board.logs[3])
    # pulled again: the copy beside it is found, nothing new is written
    again = _pull_into(board, dest)
    assert again["path"] == out["path"]
    assert sorted(os.listdir(os.path.dirname(dest))) == ["game-0003-2.log", "game-0003.log"]


def test_the_same_game_pulled_again_stays_one_file(board, tmp_path):
    dest = str(tmp_path / "out" / "game-0003.log")
    _pull_into(board, dest)
    out = _pull_into(board, dest)
    assert out["path"] == dest and out.get("kept") is None
    assert os.listdir(str(tmp_path / "out")) == ["game-0003.log"]


def test_a_running_games_earlier_copy_grows_in_place(board, tmp_path):
    dest = str(tmp_path / "game-0003.log")
    early = game_log(3, finish=False)[0]
    assert board.logs[3].startswith(early)
    with open(dest, "wb") as f:
        f.write(early)
    out = _pull_into(board, dest)
    assert out["path"] == dest and open(dest, "rb").read() == board.logs[3]


def test_acknowledged_only_after_the_hosts_copy_verifies(board, tmp_path, monkeypatch):
    real = os.replace

    def torn_replace(src, dst):   # the disk keeps less than was written
        real(src, dst)
        with open(dst, "r+b") as f:
            f.truncate(500)

    monkeypatch.setattr(logpull.os, "replace", torn_replace)
    with pytest.raises(logpull.PullError, match="copy"):
        _pull_into(board, str(tmp_path / "game-0003.log"))
    assert board.acks == [] and board.states[3] == "done"


def test_list_names_a_pulled_copy_only_when_it_is_this_game(board, tmp_path, capsys):
    from samsara_host import cli
    dest = str(tmp_path / "logs")
    os.makedirs(os.path.join(dest, "fake-1"))
    with open(os.path.join(dest, "fake-1", "game-0003.log"), "wb") as f:
        f.write(game_log(5)[0])
    assert cli.main(["logs", "list", "--port", board.port, "--dest", dest]) == 0
    out = capsys.readouterr().out
    assert "game-0003.log" not in out.split("crc")[1].split("\n")[1], out
    assert cli.main(["logs", "pull", "3", "--port", board.port, "--dest", dest]) == 0
    out = capsys.readouterr().out
    assert "game-0003-2.log" in out and "different game" in out, out
    assert cli.main(["logs", "list", "--port", board.port, "--dest", dest]) == 0
    assert "game-0003-2.log" in capsys.readouterr().out


def test_a_board_gone_for_good_stops_the_pull_and_names_what_is_left(board, tmp_path,
                                                                       capsys):
    """The board unplugged mid-pull and not back within --wait: the pull says so once,
    in the tool's words (no 'went away (the board went away (...))'), names the games
    it did not get to, and does not try them on a port that is gone."""
    from samsara_host import cli
    board.unplug_after_gets = 2
    dest = str(tmp_path / "logs")
    assert cli.main(["logs", "pull", "--port", board.port, "--dest", dest,
                     "--wait", "0.5", "--no-ack"]) == 1
    out = capsys.readouterr()
    text = out.out + out.err
    assert "went away (the board went away" not in text, text
    assert "game 3: the board went away at byte 192" in text, text
    assert "resume at byte 192" in out.err
    assert "not pulled: game 4" in out.err and "does not exist" not in out.err, out.err
    assert "Traceback" not in text
    assert os.path.getsize(os.path.join(dest, "fake-1", "game-0003.log.part")) == 192
