"""The reported case of issue 10 §1: two virtual boards that both call themselves
`virtual-1`, a game pulled (and acknowledged) from each into the same folder; the
second pull must neither replace the first board's file nor call it its copy."""
import os

import pytest

from samsara_host import boardlink, cli, record
from samsara_host.virtual_board import VirtualBoard, find_micropython

try:
    find_micropython()
    HAVE_UPY = True
except FileNotFoundError:
    HAVE_UPY = False

pytestmark = pytest.mark.skipif(not HAVE_UPY, reason="micropython Unix port not installed")


def _one_finished_game(folder, turns, seed):
    """A virtual board called virtual-1 whose game 1 is finished (abandoned after
    `turns` turns, when game 2 starts).  Returns the running VirtualBoard."""
    from samsara.rules.game import Game
    from vbplayer import Player
    vb = VirtualBoard(folder=folder, board_id="virtual-1", settle=(5, 10), dice="host")
    vb.start()
    try:
        vb.wait_ready(30)
        state = boardlink.State(vb.port)
        pl = Player(vb, state.client, seed=seed)
        gid = pl.new_game()
        game = Game()
        for _ in range(turns):
            pl.turn(game)
        pl.new_game()
        state.close()
    except BaseException:
        print(vb.output_tail())
        vb.stop()
        raise
    return vb, gid, game


def test_two_boards_with_one_name_lose_no_game(tmp_path, capsys):
    dest = str(tmp_path / "samsara-logs")
    vb1, g1, game1 = _one_finished_game(str(tmp_path / "b1"), 1, seed=4)
    try:
        assert cli.main(["logs", "pull", str(g1), "--port", vb1.port, "--dest", dest]) == 0
        assert "acknowledged" in capsys.readouterr().out
    finally:
        vb1.stop()
    first = os.path.join(dest, "virtual-1", "game-%04d.log" % g1)
    kept = open(first, "rb").read()

    vb2, g2, game2 = _one_finished_game(str(tmp_path / "b2"), 3, seed=5)
    try:
        assert g2 == g1
        assert cli.main(["logs", "list", "--port", vb2.port, "--dest", dest]) == 0
        out = capsys.readouterr().out
        assert first not in out, "the first board's file called this board's copy"
        assert cli.main(["logs", "pull", str(g2), "--port", vb2.port, "--dest", dest]) == 0
        out = capsys.readouterr().out
        assert "different game" in out and "acknowledged" in out, out
        assert open(first, "rb").read() == kept, "the first board's game was replaced"
        second = os.path.join(dest, "virtual-1", "game-%04d-2.log" % g2)
        # (a turn's record is written when the next roll confirms it: the last turn
        # played before the abandon is undone by the marbles put back for game 2)
        rec1, rec2 = record.load(first), record.load(second)
        assert rec1.turns == list(game1.record)[:len(rec1.turns)]
        assert rec2.turns == list(game2.record)[:len(rec2.turns)] and len(rec2.turns) >= 2
        assert rec2.tags["Board"] == "virtual-1"
    finally:
        vb2.stop()
