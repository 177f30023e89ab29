"""tools/rollout_positions.py: paired rollouts of positions (docs/engine.md "Known
positions"): the same dice for each position, results for the side asked, bad input
refused."""
from samsara.rules.position import Position
from tools import rollout_positions

BLOCKED = "ooooo.................../oo.oo.......o.o....o.... 5-5 B"
OPEN = "oo.oo.................../oo.oo.....o...o.o..o.... 5-5 B"


def test_a_rollout_is_its_dice():
    p = Position.parse(OPEN)
    for name in ("host1", "device"):
        decide = rollout_positions.PLAYERS[name]
        a = [rollout_positions.play_out(p, decide, 1, i, 0) for i in range(6)]
        assert a == [rollout_positions.play_out(p, decide, 1, i, 0) for i in range(6)]
        assert set(a) <= {0.0, 0.5, 1.0}
        # B's results are A's turned round (no Moksha this close to the end)
        b = [rollout_positions.play_out(p, decide, 1, i, 1) for i in range(6)]
        assert [1 - x for x in a] == b


def test_the_same_position_twice_differs_in_no_game(capsys):
    assert rollout_positions.main(["--games", "20", "--player", "device", BLOCKED,
                                   BLOCKED]) == 0
    out = capsys.readouterr().out
    assert "20 games each, player device, seed 1, results for A" in out
    assert "0 games better, 0 worse, z = 0.0" in out
    lines = [ln for ln in out.splitlines() if ln.endswith(BLOCKED)]
    assert len(lines) == 2 and lines[0].split()[0] == lines[1].split()[0]


def test_the_summary_counts_the_games(capsys):
    # The printed means and the game-by-game counts are those of play_out on the same
    # dice, for the side asked (B here).
    decide = rollout_positions.PLAYERS["device"]
    res = [[rollout_positions.play_out(Position.parse(t), decide, 4, i, 1)
            for i in range(30)] for t in (BLOCKED, OPEN)]
    assert rollout_positions.main(["--games", "30", "--seed", "4", "--player", "device",
                                   "--side", "B", BLOCKED, OPEN]) == 0
    out = capsys.readouterr().out
    assert "results for B" in out
    for r, t in zip(res, (BLOCKED, OPEN)):
        assert "%.4f (" % (sum(r) / 30) in [ln[:8] for ln in out.splitlines()
                                            if ln.endswith(t)][0]
    better = sum(1 for x, y in zip(res[1], res[0]) if x > y)
    worse = sum(1 for x, y in zip(res[1], res[0]) if x < y)
    assert better + worse > 0
    assert "%d games better, %d worse" % (better, worse) in out


def test_bad_input_is_refused(capsys):
    assert rollout_positions.main(["nonsense", BLOCKED]) == 2
    assert "position needs 3 parts" in capsys.readouterr().err
    a_to_move = BLOCKED[:-1] + "A"
    assert rollout_positions.main([BLOCKED, a_to_move]) == 2
    assert "same player to move" in capsys.readouterr().err
    for argv in ([BLOCKED], ["--games", "0", BLOCKED, OPEN]):
        try:
            rollout_positions.main(argv)
        except SystemExit as e:
            assert e.code == 2
        else:
            raise AssertionError("accepted %r" % argv)
