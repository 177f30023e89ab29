"""How well the host engine's win probability matches outcomes (docs/engine.md
"Calibration"): the reliability table, ECE and Brier score of `samsara engine
calibrate`, the calibration map that the shown numbers go through, and the fit that
makes the map (tools/fit_calibration.py)."""
import json

import numpy as np
import pytest

from samsara.rules.position import Position
from samsara_host.cli import main
from samsara_host.engine import calibration, hostengine, neteval
from tools import fit_calibration

# A few tiny games: enough turns to fill several buckets, a few seconds of play.
GAMES = 2
SEED = 3


@pytest.fixture(scope="module")
def tiny():
    return calibration.run(GAMES, SEED)


def test_reliability_of_a_hand_made_table():
    # Two buckets, by hand: 0.15 twice (one win) -> predicted 0.15, observed 0.5;
    # 0.85 twice (two wins) -> 0.85, 1.0.  ECE = (2 x 0.35 + 2 x 0.15) / 4 = 0.25;
    # Brier = (0.15^2 + 0.85^2 + 0.15^2 + 0.15^2) / 4 = 0.1975.
    t = calibration.reliability([(0.15, 1.0), (0.15, 0.0), (0.85, 1.0), (0.85, 1.0)])
    assert t["turns"] == 4
    rows = t["buckets"]
    assert [r["count"] for r in rows] == [0, 2, 0, 0, 0, 0, 0, 0, 2, 0]
    assert rows[1]["predicted"] == pytest.approx(0.15) and rows[1]["observed"] == 0.5
    assert rows[8]["predicted"] == pytest.approx(0.85) and rows[8]["observed"] == 1.0
    assert rows[0]["predicted"] is None and rows[0]["observed"] is None
    assert t["ece"] == pytest.approx(0.25)
    assert t["brier"] == pytest.approx(0.1975)
    # bucket edges: 1.0 goes into the last bucket, 0.1 into the second
    assert calibration.bucket_of(1.0) == 9 and calibration.bucket_of(0.1) == 1
    assert calibration.bucket_of(0.0999) == 0
    assert calibration.reliability([])["ece"] is None


def test_tiny_run_table_adds_up(tiny):
    res = tiny
    assert res["games"] == GAMES and res["seed"] == SEED
    rows = res["buckets"]
    assert len(rows) == 10
    assert sum(r["count"] for r in rows) == res["turns"] > 20
    for k, r in enumerate(rows):
        assert r["lo"] == pytest.approx(k / 10) and r["hi"] == pytest.approx((k + 1) / 10)
        if r["count"]:
            assert r["lo"] <= r["predicted"] <= r["hi"]
            assert 0.0 <= r["observed"] <= 1.0
    # ece is the count-weighted gap of the buckets themselves
    gap = sum(r["count"] * abs(r["predicted"] - r["observed"]) for r in rows if r["count"])
    assert res["ece"] == pytest.approx(gap / res["turns"])
    assert 0.0 <= res["brier"] <= 1.0
    assert res["calibration"] == hostengine.calibration_name()


def test_the_games_are_the_same_for_the_same_seed(tiny):
    g = calibration.play_game(SEED, 0)
    assert g == calibration.play_game(SEED, 0)
    assert g["turns"] == len(g["judged"]) + g["exact"]
    # a game's end is exact and left out: the last turn of a won game is not judged
    assert g["exact"] >= 1


def test_two_worker_processes_give_the_same_table(tiny):
    # the games come from their index, not from the process that plays them, and the
    # progress still comes in game order
    seen = []
    res = calibration.run(GAMES, SEED, lambda done, games, data: seen.append(done), jobs=2)
    assert res == tiny
    assert seen == list(range(1, GAMES + 1))


def test_a_miscalibrated_probability_scores_worse(tiny):
    # The same turns, the probability pushed to the extremes (an over-confident
    # engine): its ECE and Brier score must be the larger ones.
    real = []
    bent = []
    for i in range(GAMES):
        g = calibration.play_game(SEED, i)
        for p, y in calibration.pairs(g):
            real.append((p, y))
            bent.append((0.97 if p >= 0.5 else 0.03, y))
    r = calibration.reliability(real)
    b = calibration.reliability(bent)
    assert r["ece"] == pytest.approx(tiny["ece"])
    assert b["ece"] > r["ece"] + 0.05
    assert b["brier"] > r["brier"]


def test_shown_values_are_the_calibrated_raw_ones_and_the_order_stays():
    p = Position.parse("ooooo.................../oooooo...............o.. 0-0 A")
    shown = hostengine.rank(p.r, p.s, p.a, p.b, p.mover, 5, 2)
    raw = hostengine.rank(p.r, p.s, p.a, p.b, p.mover, 5, 2, calibrated=False)
    assert [t[1] for t in shown] == [t[1] for t in raw]
    for (_m, _k, v, d), (_m2, _k2, rv, d2) in zip(shown, raw):
        assert d == d2
        assert v == hostengine.shown_value(rv, d)
        if d != 2:
            assert v == rv
    assert hostengine.choose(p.r, p.s, p.a, p.b, p.mover, 5, 2)[2] == shown[0][2]


def test_a_map_file_is_what_the_shown_values_go_through(tmp_path, monkeypatch):
    # The shipped map (docs/engine.md "Calibration": fitted on seed 1, kept only when
    # better on the held-out seed 2) is what a ply-2 value goes through; without one
    # (no file, or a file that says "none"), the raw value.
    shipped = hostengine.load_calibration()
    if shipped["method"] != "none":
        assert hostengine.calibration_name() == "isotonic, %d games of seed %d" % (
            shipped["games"], shipped["seed"])
        assert shipped["check"]["mapped"]["ece"] < shipped["check"]["raw"]["ece"]
        assert hostengine.shown_value(0.3, 2) == pytest.approx(
            float(np.interp(0.3, shipped["x"], shipped["y"])))
        assert hostengine.shown_value(0.3, 2) != 0.3 and hostengine.shown_value(1.0, 0) == 1.0
    else:
        assert hostengine.calibration_name() == "none"
        assert hostengine.shown_value(0.3, 2) == 0.3
        assert shipped["check"]["raw"]["ece"] <= 0.03 and shipped["all"]["ece"] <= 0.03
    path = tmp_path / "map.json"
    path.write_text(json.dumps({"method": "isotonic", "games": 9, "seed": 4,
                                "x": [0, 0.5, 1], "y": [0.1, 0.5, 0.8]}))
    monkeypatch.setattr(hostengine, "_MAP", hostengine.load_calibration(str(path)))
    assert hostengine.calibration_name() == "isotonic, 9 games of seed 4"
    # linear between the knots, only for ply-2 values of a single game
    assert hostengine.shown_value(0.25, 2) == pytest.approx(0.3)
    assert hostengine.shown_value(0.75, 2) == pytest.approx(0.65)
    assert hostengine.shown_value(1.0, 0) == 1.0
    assert hostengine.shown_value(0.25, 1) == 0.25
    assert hostengine.shown_value(0.25, 2, hostengine.dev.MODE_MATCH) == 0.25
    p = Position.parse("ooooo.................../oooooo...............o.. 0-0 A")
    raw = hostengine.rank(p.r, p.s, p.a, p.b, p.mover, 5, 2, calibrated=False)
    shown = hostengine.rank(p.r, p.s, p.a, p.b, p.mover, 5, 2)
    assert shown[0][2] == pytest.approx(0.1 + 0.8 * raw[0][2] if raw[0][2] <= 0.5
                                        else 0.5 + 0.6 * (raw[0][2] - 0.5))
    from samsara_host.rules_cmd import best_turn
    assert best_turn(p, 5, 2, "host")[2] == shown[0][2]


def test_a_bad_or_missing_map_file(tmp_path):
    missing = hostengine.load_calibration(str(tmp_path / "none.json"))
    assert missing["method"] == "none"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"method": "isotonic", "x": [0, 0.5, 1], "y": [0.2, 0.1, 0.9]}))
    with pytest.raises(ValueError, match="non-decreasing"):
        hostengine.load_calibration(str(bad))


def test_pool_adjacent_violators_by_hand():
    # x 0.1 .. 0.4 with outcomes 0 1 0 1: the middle pair violates the order and is
    # pooled; the rates are Laplace's (sum + 1) / (count + 2).
    blocks = fit_calibration.pool_adjacent_violators(
        np.array([0.4, 0.1, 0.3, 0.2]), np.array([1.0, 0.0, 0.0, 1.0]))
    assert [(round(x, 6), round(y, 6), c) for x, y, c in blocks] == [
        (0.1, round(1 / 3, 6), 1), (0.25, 0.5, 2), (0.4, round(2 / 3, 6), 1)]
    # at least two points a block: everything pools to one block here
    two = fit_calibration.pool_adjacent_violators(
        np.array([0.1, 0.2, 0.3]), np.array([1.0, 0.0, 1.0]), min_block=2)
    assert [c for _x, _y, c in two] == [3]
    xs, ys = fit_calibration.knots(blocks)
    assert xs[0] == 0.0 and xs[-1] == 1.0 and ys == sorted(ys)


def test_a_map_fitted_on_games_lowers_their_ece():
    # In-sample, the isotonic map of turns whose raw values are off (a raw value p wins
    # p ** 3 of the time) must fit them better than the raw values did (held-out
    # figures: docs/engine.md "Calibration").  Made-up games, not the engine's: two
    # real games share two outcomes, too few for the map to beat the raw values surely.
    rng = np.random.default_rng(5)
    rows = []
    for p in rng.random(400):
        rows.append({"winner": 0 if rng.random() < p ** 3 else 1, "judged": [(0, float(p), 2)]})
    m = fit_calibration.fit(rows, min_block=20)
    raw = []
    fitted = []
    for g in rows:
        for mover, v, depth in g["judged"]:
            y = calibration.outcome(g["winner"], mover)
            raw.append((v, y))
            fitted.append((float(np.interp(v, m["x"], m["y"])) if depth == 2 else v, y))
    assert calibration.reliability(fitted)["brier"] < calibration.reliability(raw)["brier"]
    assert calibration.reliability(fitted)["ece"] < calibration.reliability(raw)["ece"] / 2


def test_the_bootstrap_sums_give_the_tables_ece():
    # bucket sums per game add up to calibration.reliability's ece; resampling games that
    # are all alike gives that one ece at both ends
    rng = np.random.default_rng(7)
    rows = [{"winner": int(rng.integers(0, 2)),
             "judged": [(int(rng.integers(0, 2)), float(p), 2) for p in rng.random(30)]}
            for _ in range(40)]
    pairs = [(v, calibration.outcome(g["winner"], m)) for g in rows for m, v, _d in g["judged"]]
    whole = calibration.reliability(pairs)["ece"]
    sums = fit_calibration.bucket_sums(rows)
    assert sums.shape == (40, calibration.BUCKETS, 3) and sums[:, :, 2].sum() == 1200
    assert abs(fit_calibration.ece_of_sums(sums.sum(axis=0)) - whole) < 1e-12
    lo, hi = fit_calibration.bootstrap_ece(rows, samples=200)
    assert 0.0 <= lo < hi <= 1.0
    one = calibration.reliability(pairs[:30])["ece"]
    lo, hi = fit_calibration.bootstrap_ece([rows[0]] * 5, samples=50)
    assert abs(lo - one) < 1e-12 and abs(hi - one) < 1e-12


def test_cli_calibrate_text_and_json(capsys, tiny):
    assert main(["engine", "calibrate", "--games", str(GAMES), "--seed", str(SEED),
                 "--json"]) == 0
    cap = capsys.readouterr()
    res = json.loads(cap.out)
    assert res == tiny
    assert "2/2 games" in cap.err
    assert main(["engine", "calibrate", "--games", "1", "--seed", str(SEED)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("host engine against host engine: 1 game, seed %d" % SEED)
    assert out[3].split() == ["bucket", "predicted", "observed", "count"]
    assert len([line for line in out if line[:3] in ("0.0", "0.1", "0.2", "0.3", "0.4",
                                                     "0.5", "0.6", "0.7", "0.8", "0.9")]) == 10
    assert out[-1].startswith("ece ")
    assert main(["engine", "calibrate", "--games", "0"]) == 2
    assert main(["engine", "calibrate", "--games", "1", "--jobs", "0"]) == 2
    assert "--jobs must be at least 1" in capsys.readouterr().err


def test_kept_games_go_on_with_two_workers(tmp_path, tiny):
    # one game kept, then the rest played on two processes: each game once, in order
    data = str(tmp_path / "games.jsonl")
    first = fit_calibration.play(1, SEED, data)
    rows = fit_calibration.play(GAMES, SEED, data, jobs=2)
    assert len(rows) == GAMES and rows[0] == first[0]
    assert sum(len(r["judged"]) for r in rows) == tiny["turns"]
    with open(data, encoding="utf-8") as f:
        assert [json.loads(line) for line in f] == rows


def test_the_fit_writes_a_map_only_when_held_out_games_agree(tmp_path, capsys):
    out = tmp_path / "map.json"
    argv = ["--games", str(GAMES), "--seed", str(SEED), "--check-games", "1",
            "--check-seed", "4", "--min-block", "5", "--data", str(tmp_path / "d"),
            "--write", "--out", str(out)]
    assert fit_calibration.main(argv) == 0
    err = capsys.readouterr().err
    line = [x for x in err.splitlines() if "held-out" in x][0]
    figs = [float(w) for w in line.replace(",", " ").split() if w[:2] in ("0.", "1.")]
    ece_raw, ece_map, brier_raw, brier_map = figs
    # no file before: the map when it helps the held-out game, else no map
    m = hostengine.load_calibration(str(out))
    assert (m["method"] == "isotonic") == (ece_map < ece_raw and brier_map < brier_raw)
    assert m["check"]["raw"]["ece"] == round(ece_raw, 4)
    both = [x for x in err.splitlines() if "all 3 games of seeds 3 and 4" in x]
    assert len(both) == 1, err
    # the games were kept: a second run plays nothing and says the same
    ev = fit_calibration._evaluation_id()
    assert sorted(p.name for p in (tmp_path / "d").iterdir()) == [
        "calibrate-seed3-%s.jsonl" % ev, "calibrate-seed4-%s.jsonl" % ev]
    assert fit_calibration.main(argv) == 0
    assert line in capsys.readouterr().err
    assert fit_calibration.main(["--games", "1", "--seed", "2", "--check-games", "1",
                                 "--check-seed", "2"]) == 2


def test_the_shipped_map_was_fitted_for_the_shipped_evaluation():
    # A map bends the raw values of the evaluation it was fitted for; after new weights
    # `make calibrate` fits it again (docs/engine.md "Calibration").  Fails when the
    # weights changed and the map did not.
    shipped = hostengine.load_calibration()
    assert shipped["evaluation"] == neteval.shipped_shas()
    assert shipped["all"]["games"] >= 2000


def _calibrated_games(path, seed, games):
    # play_game dicts whose raw values are right on average: each game's turns say
    # 0.5 for both movers, and A and B win in turn
    with open(path, "w", encoding="utf-8") as f:
        for i in range(games):
            judged = [[t % 2, 0.5, 2] for t in range(30)]
            f.write(json.dumps({"seed": seed, "winner": i % 2, "judged": judged}) + "\n")


def test_a_map_of_another_evaluation_is_replaced_by_none_when_the_fit_does_not_help(
        tmp_path, capsys):
    data = tmp_path / "d"
    data.mkdir()
    _calibrated_games(fit_calibration._data_file(str(data), 5), 5, 20)
    _calibrated_games(fit_calibration._data_file(str(data), 6), 6, 20)
    out = tmp_path / "map.json"
    argv = ["--games", "20", "--seed", "5", "--check-games", "20", "--check-seed", "6",
            "--min-block", "5", "--data", str(data), "--write", "--out", str(out)]
    # a map of other weights: the raw values are right, so no map is written
    out.write_text(json.dumps({"method": "isotonic", "games": 9, "seed": 4,
                               "evaluation": {"weights.npz": "0123456789abcdef"},
                               "x": [0, 0.5, 1], "y": [0.1, 0.5, 0.8]}))
    assert fit_calibration.main(argv) == 0
    assert "was not fitted for this evaluation: written as no map" in capsys.readouterr().out
    m = hostengine.load_calibration(str(out))
    assert m["method"] == "none" and list(m["x"]) == [0, 1] and list(m["y"]) == [0, 1]
    assert m["evaluation"] == neteval.shipped_shas() and m["check"]["raw"]["ece"] == 0
    # fitted again for the same evaluation: left as it was
    before = out.read_text()
    assert fit_calibration.main(argv) == 0
    assert "left as it was" in capsys.readouterr().out
    assert out.read_text() == before


def test_kept_games_are_named_by_their_evaluation(tmp_path, monkeypatch):
    # `make calibrate` after new weights must play new games, not read back the games
    # of the weights before (--data keeps them by seed and evaluation).
    before = fit_calibration._data_file(str(tmp_path), 1)
    monkeypatch.setattr(neteval, "shipped_shas", lambda: {"weights.npz": "0" * 16})
    after = fit_calibration._data_file(str(tmp_path), 1)
    assert before != after
    assert all("calibrate-seed1-" in p for p in (before, after))
