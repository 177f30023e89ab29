"""tools/match_evaluation.py: a match of the host engine with chosen weight files is the
`samsara engine match host` match when the files are the shipped ones."""
import json

from samsara_host.engine import match, neteval
from tools import match_evaluation


def test_the_shipped_files_play_the_shipped_engine(capsys):
    files = neteval.shipped_files()
    assert len(files) == 4
    weights = ["--weights"] + files
    argv = weights + ["--games", "2", "--seed", "3", "--opponent", "device"]
    assert match_evaluation.main(argv) == 0
    res = json.loads(capsys.readouterr().out)
    ref = match.run_match("host", "device", 2, 3)
    assert res["a_win_rate"] == ref["a_win_rate"]
    assert len(res["won"]) == 2 and sum(res["won"]) == ref["a_wins"] + ref["draws"] / 2.0
    assert res["ply"] == 2 and res["weights"] == files
    # equal weights in the mean are the plain mean: the same games
    assert match_evaluation.main(argv + ["--mean-weights", "2", "2", "2", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["won"] == res["won"]
    # --first: a stopped run goes on with the same games
    assert match_evaluation.main(weights + ["--first", "1", "--games", "1", "--seed", "3"]) == 0
    assert json.loads(capsys.readouterr().out)["won"] == res["won"][1:]


def test_bad_weights_are_refused(tmp_path, capsys):
    bad = tmp_path / "w.npz"
    bad.write_bytes(b"not a weights file")
    assert match_evaluation.main(["--weights", str(bad), "--games", "1"]) == 2
    assert "cannot read the weights" in capsys.readouterr().err
    assert match_evaluation.main(["--weights", neteval.WEIGHTS, "--games", "0"]) == 2
    assert match_evaluation.main(["--weights", neteval.WEIGHTS, "--top", "1"]) == 2
    assert "--top must be at least 2" in capsys.readouterr().err
    assert match_evaluation.main(["--weights", neteval.WEIGHTS, "--close", "-0.1"]) == 2
    assert "--close at least 0" in capsys.readouterr().err
    two = ["--weights", neteval.WEIGHTS, neteval.BASE_WEIGHTS, "--games", "1"]
    assert match_evaluation.main(two + ["--mean-weights", "1"]) == 2
    assert "one positive number a network" in capsys.readouterr().err
    assert match_evaluation.main(two + ["--mean-weights", "1", "0"]) == 2


def test_close_choices_are_settled_at_ply_3_unless_asked_not_to(monkeypatch, capsys):
    # every close choice of a game goes to hostengine.deep_values with the two best turns
    from samsara_host.engine import hostengine
    calls = []
    real = hostengine.deep_values

    def spy(keys, me, *args, **kw):
        calls.append(len(keys))
        return real(keys, me, *args, **kw)
    monkeypatch.setattr(hostengine, "deep_values", spy)
    argv = ["--weights", neteval.WEIGHTS, "--games", "1", "--seed", "3"]
    assert match_evaluation.main(argv) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["deep"] is True and calls and set(calls) == {2}
    # a wider band, up to three turns
    calls.clear()
    assert match_evaluation.main(argv + ["--close", "0.05", "--top", "3"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert (res["close"], res["top"]) == (0.05, 3) and 3 in calls and set(calls) <= {2, 3}
    for off in (["--ply", "1"], ["--no-deep"]):
        calls.clear()
        assert match_evaluation.main(argv + off) == 0
        assert json.loads(capsys.readouterr().out)["deep"] is False and calls == []
