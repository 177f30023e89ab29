"""The host engine and the game analysis (docs/engine.md "Host engine", "Game
analysis"): the host engine's choice is deterministic and its matches the same for any
--jobs; `samsara analyze` on a game logged from the simulated board has the documented
keys; a torn or bad log is a clear error; `logs export --analysis` writes the comments
and marks; `samsara demo` seats the engines."""
import json
import os
import subprocess
import sys

import pytest

from loghelp import write_log
from samsara.rules.game import Game
from samsara.rules.position import Position
from samsara_host import analysis
from samsara_host.engine import hostengine, neteval
from samsara_host.engine.match import run_match
from samsara_host.record import GameRecord, RecordError
from samsara_host.sim.table import Table

SAMSARA = os.path.join(os.path.dirname(sys.executable), "samsara")
GOAL_31 = "ooooo.................../oooooo...............o.. 0-0 A"


def run(*args):
    return subprocess.run([SAMSARA, *args], capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    """A game played on the simulated board (device engine against greedy), written
    through the firmware's log store as a board writes it."""
    table = Table(seed=4, noise=1, players=("device", "greedy")).run()
    game = Game()
    for note in table.turns():
        game.play_notation(note)
    data, _g = write_log(game, header={"position": None, "players": ["device", "greedy"]})
    path = tmp_path_factory.mktemp("an") / "game-0001.log"
    path.write_bytes(data)
    return str(path), data, game


def test_host_choice_is_deterministic_and_takes_a_goal():
    p = Position.parse(GOAL_31)
    one = hostengine.choose(p.r, p.s, p.a, p.b, p.mover, 3, 1)
    assert one == hostengine.choose(p.r, p.s, p.a, p.b, p.mover, 3, 1)
    assert one[1][2] == 1           # A scores with the 3
    assert 0.0 <= one[2] <= 1.0
    ranked = hostengine.rank(p.r, p.s, p.a, p.b, p.mover, 3, 1)
    assert ranked[0][:3] == one
    assert [d for *_x, d in ranked[:hostengine.WIDTH]] == [2] * hostengine.WIDTH


CLOSE_GOAL = ".o...o........ooo......./oo..........o..oo.o.o... 3-3 B"
"""A close choice with the shipped weights, roll `CLOSE_ROLL`: at ply 2 the turn that
scores B's fourth goal is valued a little above a quiet turn; at ply 3 the quiet turn
is better (by about 0.013 of win probability)."""

CLOSE_ROLL = (5, 4)


def test_a_close_choice_is_settled_at_ply_3_in_play(monkeypatch):
    p = Position.parse(CLOSE_GOAL)
    d1, d2 = CLOSE_ROLL
    plain = hostengine.rank(p.r, p.s, p.a, p.b, p.mover, d1, d2, calibrated=False)
    close = hostengine.close_keys(plain)
    assert close == [plain[0][1], plain[1][1]]
    assert plain[1][2] >= plain[0][2] - hostengine.CLOSE
    assert plain[0][1][3] == 4 and plain[1][1][3] == 3      # the first scores B's goal
    v3 = hostengine.deep_values(close, p.mover)
    assert v3[1] > v3[0]
    deep = hostengine.rank(p.r, p.s, p.a, p.b, p.mover, d1, d2, calibrated=False,
                           deep=True)
    assert deep[:2] == [plain[1], plain[0]] and deep[2:] == plain[2:]
    assert hostengine.choose(p.r, p.s, p.a, p.b, p.mover, d1, d2)[1] == plain[1][1]
    assert hostengine.choose(p.r, p.s, p.a, p.b, p.mover, d1, d2, deep=False)[1] == \
        plain[0][1]
    # a clear choice is not searched deeper
    calls = []
    monkeypatch.setattr(hostengine, "deep_values", lambda *a, **k: calls.append(a))
    g = Position.parse(GOAL_31)
    assert hostengine.close_keys(hostengine.rank(g.r, g.s, g.a, g.b, g.mover, 3, 1)) == []
    hostengine.choose(g.r, g.s, g.a, g.b, g.mover, 3, 1)
    assert calls == []


def test_close_keys_takes_the_best_turns_within_the_band_up_to_top():
    # (moves, key, value, depth) rows, best first, as rank gives them
    rows = [("m%d" % i, (i, 0, 0, 0), v, d)
            for i, (v, d) in enumerate(((0.60, 2), (0.595, 2), (0.58, 2), (0.57, 2),
                                        (0.59, 1)))]
    keys = [k for _m, k, _v, _d in rows]
    assert hostengine.close_keys(rows, close=0.01, top=2) == keys[:2]
    assert hostengine.close_keys(rows, close=0.01, top=3) == keys[:2]
    assert hostengine.close_keys(rows, close=0.025, top=3) == keys[:3]
    assert hostengine.close_keys(rows, close=0.025, top=2) == keys[:2]
    assert hostengine.close_keys(rows, close=0.05, top=4) == keys[:4]
    # the turn played joins when it is within the band, searched at ply 2
    assert hostengine.close_keys(rows, also=(keys[3],), close=0.03, top=2) == \
        [keys[0], keys[1], keys[3]]
    assert hostengine.close_keys(rows, also=(keys[3],), close=0.02, top=2) == keys[:2]
    assert hostengine.close_keys(rows, also=(keys[4],), close=0.05, top=2) == keys[:2]
    # not close: the second is too far, or only one turn was searched at ply 2
    assert hostengine.close_keys(rows, close=0.001, top=3) == []
    assert hostengine.close_keys([rows[0], rows[4]], close=0.05, top=3) == []
    assert hostengine.close_keys(rows[:1]) == []
    # the defaults are the module's
    assert hostengine.close_keys(rows) == hostengine.close_keys(
        rows, close=hostengine.CLOSE, top=hostengine.CLOSE_TOP)
    # a band that could never hold a choice is an error, not "never close"
    for close, top in ((0.01, 1), (0.01, 0), (-0.01, 2)):
        with pytest.raises(ValueError, match="--top must be at least 2"):
            hostengine.close_keys(rows, close=close, top=top)


def test_the_best_of_a_close_choice_at_ply_3_goes_first_and_the_rest_keep_their_order(
        monkeypatch):
    p = Position.parse(CLOSE_GOAL)
    d1, d2 = CLOSE_ROLL
    plain = hostengine.rank(p.r, p.s, p.a, p.b, p.mover, d1, d2, calibrated=False)
    monkeypatch.setattr(hostengine, "CLOSE", 1.0)
    monkeypatch.setattr(hostengine, "CLOSE_TOP", 3)
    seen = []

    def third_best(keys, *_a, **_k):
        seen.append(list(keys))
        return [0.5, 0.4, 0.6][:len(keys)]
    monkeypatch.setattr(hostengine, "deep_values", third_best)
    deep = hostengine.rank(p.r, p.s, p.a, p.b, p.mover, d1, d2, calibrated=False,
                           deep=True)
    assert seen == [[plain[0][1], plain[1][1], plain[2][1]]]
    assert deep == [plain[2], plain[0], plain[1]] + plain[3:]
    # a tie at ply 3 keeps the ply-2 order
    monkeypatch.setattr(hostengine, "deep_values", lambda keys, *_a, **_k: [0.5] * len(keys))
    assert hostengine.rank(p.r, p.s, p.a, p.b, p.mover, d1, d2, calibrated=False,
                           deep=True) == plain


def test_the_network_starts_as_the_device_evaluation():
    # The linear path of a fresh network is exactly engine.evaluate, scaled.
    from samsara.rules import engine as dev
    w = neteval.device_weights(1000)
    for text in (GOAL_31, "..ooo.................../oooooo.......o..o....o.. 2-3 B"):
        p = Position.parse(text)
        for me in (0, 1):
            x = neteval.features([p.r], [p.s], [p.a], [p.b], me)[0]
            assert abs(x @ w - dev.evaluate(p.r, p.s, p.a, p.b, me)) < 1e-6


def test_host_match_is_the_same_for_any_jobs():
    one = run_match("host", "device", 4, 3, jobs=1)
    two = run_match("host", "device", 4, 3, jobs=2)
    for res in (one, two):
        del res["sec_per_decision"]
    assert one == two
    assert one["a_wins"] + one["b_wins"] + one["draws"] == 4


def test_analyze_a_logged_game(logged):
    path, _data, game = logged
    res = analysis.analyze_log(path)
    assert len(res["turns"]) == len(game.record)
    assert set(res["luck"]) == {"A", "B"}
    for t, note in zip(res["turns"], game.record):
        assert {"turn", "player", "dice", "played", "best", "equity_loss", "flag",
                "win_prob", "luck"} <= set(t)
        assert t["played"] == note
        assert t["equity_loss"] >= 0
        assert t["flag"] in (None, "doubtful", "mistake", "blunder")
        assert t["flag"] == analysis.flag(t["equity_loss"])
        assert 0.0 <= t["win_prob"] <= 1.0
        if t["best"] == t["played"]:
            assert t["equity_loss"] == 0
    # A's win probability after the last turn follows the result.
    winner = game.result[0]
    assert res["turns"][-1]["win_prob"] == (1.0 if winner == 0 else 0.0)
    assert res["players"] == {"A": "device", "B": "greedy"}
    dev = analysis.analyze_log(path, engine="device")
    assert dev["units"] == "goals" and all(t["win_prob"] is None for t in dev["turns"])


def test_flags_follow_the_documented_thresholds():
    assert analysis.flag(0.0) is None
    assert analysis.flag(0.019) is None
    assert analysis.flag(0.02) == "doubtful"
    assert analysis.flag(0.04) == "mistake"
    assert analysis.flag(0.08) == "blunder"
    assert analysis.flag(0.2, "device") == "mistake"


def test_torn_and_bad_logs_are_clear_errors(logged, tmp_path):
    _path, data, _game = logged
    torn = tmp_path / "torn.log"
    torn.write_bytes(data[:len(data) // 2])
    with pytest.raises(RecordError, match="torn"):
        analysis.analyze_log(str(torn))
    junk = tmp_path / "junk.log"
    junk.write_text("hello\n")
    with pytest.raises(RecordError):
        analysis.analyze_log(str(junk))
    with pytest.raises(RecordError, match="cannot read"):
        analysis.analyze_log(str(tmp_path / "missing.log"))
    r = run("analyze", str(torn))
    assert r.returncode == 2 and "torn" in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    # a log torn before its first turn says there is nothing to analyse, not "0 turns"
    head = tmp_path / "head.log"
    head.write_bytes(data[:80])
    with pytest.raises(RecordError) as e:
        analysis.analyze_log(str(head))
    assert "0 good" not in str(e.value) and "before its first turn" in str(e.value)


def test_analyze_cli_text_and_json(logged):
    path, _data, game = logged
    r = run("analyze", path, "--json")
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)
    assert len(res["turns"]) == len(game.record)
    r = run("analyze", path)
    assert r.returncode == 0, r.stderr
    assert "Analysis by the host engine" in r.stdout
    assert "luck" in r.stdout.splitlines()[-1]


def test_summary_words_use_the_singular_for_one():
    from samsara_host.analyze_cmd import summary_line
    s = {"doubtful": 1, "mistake": 1, "blunder": 1, "equity_loss": 0.05}
    assert summary_line(s, 0.01) == ("1 doubtful, 1 mistake, 1 blunder, loss 5.0 %, "
                                     "luck +1.0 %")
    assert summary_line(s, 0.01, "goals").endswith("loss 0.05 goals, luck +0.01 goals")
    s.update(mistake=0, blunder=2)
    assert summary_line(s, -0.2).startswith("1 doubtful, 0 mistakes, 2 blunders, ")


def test_a_file_that_is_no_game_is_named_once(tmp_path):
    junk = tmp_path / "rand.bin"
    junk.write_bytes(b"\xff\xfe\x00 random bytes \x80\x81")
    for cmd in (["analyze"], ["logs", "export"], ["logs", "show"]):
        r = run(*(cmd + [str(junk)]))
        assert r.returncode == 2 and r.stderr.count("rand.bin") == 1, r.stderr
        assert "neither a game log" in r.stderr
        r = run(*(cmd + [str(tmp_path / "missing.log")]))
        assert r.returncode == 2 and r.stderr.count("missing.log") == 1, r.stderr
        assert "cannot read the file" in r.stderr


def test_export_analysis_comments_and_marks(logged, tmp_path):
    path, _data, game = logged
    r = run("logs", "export", path, "--analysis")
    assert r.returncode == 0, r.stderr
    text = r.stdout
    assert '[Analysis "host engine, loss in win probability"]' in text
    assert "[AnalysisA " in text and "[AnalysisB " in text
    res = analysis.analyze_log(path)
    for t in res["turns"]:
        if t["flag"]:
            assert "{%s -" % t["flag"] in text
    # The commented record reads back as the same game.
    rec = GameRecord.parse_text(text)
    assert rec.turns == list(game.record)
    out = tmp_path / "pics"
    r = run("logs", "export", path, "--analysis", "--format", "svg", "--out", str(out))
    assert r.returncode == 0, r.stderr
    flagged = [t["turn"] for t in res["turns"] if t["flag"]]
    for t in res["turns"]:
        svg = (out / ("turn-%03d.svg" % t["turn"])).read_text()
        assert ('class="mark" data-flag="%s"' % t["flag"] in svg) == bool(t["flag"])
    assert flagged, "a greedy player makes mistakes in the host engine's eyes"
    r = run("logs", "export", path, "--analysis", "--format", "json")
    assert json.loads(r.stdout)["analysis"]["turns"][0]["turn"] == 1


def test_demo_seats_the_engines(tmp_path):
    r = run("demo", "--fast", "--seed", "3", "--players", "device,host", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "A (device) vs B (host)" in r.stdout and "game over:" in r.stdout
    r = run("demo", "--fast", "--players", "device", "nobody")
    assert r.returncode == 2 and "unknown player" in r.stderr


def test_training_is_deterministic():
    # tools/train_host.py: the same seed and games give the same weights.
    import random as _random
    import numpy as np
    from tools.train_host import Trainer

    def train():
        net = neteval.Net.start(8, np.random.default_rng(3))
        tr = Trainer(net, 0.05, 0.7, 0.3)
        for i in range(2):
            tr.game(_random.Random("samsara-train:3:%d" % i))
        return net

    one, two = train(), train()
    assert np.array_equal(one.w1, two.w1) and np.array_equal(one.wl, two.wl)
    assert not np.array_equal(one.wl, neteval.device_weights(1.9))


def test_training_goes_on_from_saved_weights_and_decays_the_rate(tmp_path):
    # tools/train_host.py: stopping after game 1 and going on with --init/--first gives
    # the weights of one run; --alpha-end changes the rate, so the weights.
    import numpy as np
    from tools.train_host import main

    def w(name):
        with np.load(str(tmp_path / name)) as z:     # the weights, not how they were made
            return {k: z[k].copy() for k in ("w1", "b1", "w2", "wl", "b2")}

    base = ["--seed", "3", "--hidden", "8", "--alpha", "0.05", "--lin", "0.3"]
    main(base + ["--games", "2", "--out", str(tmp_path / "two.npz")])
    main(base + ["--games", "1", "--out", str(tmp_path / "one.npz")])
    main(base + ["--games", "2", "--init", str(tmp_path / "one.npz"), "--first", "1",
                 "--out", str(tmp_path / "more.npz")])
    main(base + ["--games", "2", "--alpha-end", "0.005", "--out", str(tmp_path / "decay.npz")])
    two, more, decay = w("two.npz"), w("more.npz"), w("decay.npz")
    assert all(np.array_equal(two[k], more[k]) for k in two)
    assert not np.array_equal(two["wl"], decay["wl"])


def test_losses_and_luck_read_as_the_app_writes_them():
    """The terminal, the exports and the app's replay write a loss and a luck alike:
    a share of the chance to win with one decimal and a spaced '%', goals for the
    device engine; the replay page takes the texts from the server
    (app/gameanalysis.texts) and computes no figure of its own."""
    import re
    from samsara_host.analysis import comment, figure
    t = {"best": "53 5:S6-S11 3:S11-S14", "played": "53 5:S2-S7 3:S4-R19",
         "equity_loss": 0.2474, "flag": "blunder", "win_prob": 0.33}
    assert comment(t) == "blunder -24.7 %: best 53 5:S6-S11 3:S11-S14; A 33 %"
    assert comment(dict(t, win_prob=None), "goals").startswith("blunder -0.25 goals")
    assert figure(0.451, sign=True) == "+45.1 %"
    js = open(os.path.join(os.path.dirname(__file__), "..", "host", "samsara_host", "app",
                           "static", "replay.js")).read()
    assert "function pct" not in js and "an.figures" in js and "an.summaries" in js
    from samsara_host.app.gameanalysis import texts
    res = {"units": "win probability", "turns": [dict(t, luck=-0.0125, player="A", turn=1)],
           "summary": {p: {"doubtful": 0, "mistake": 0, "blunder": 1, "equity_loss": 0.2474}
                       for p in "AB"}, "luck": {"A": 0.0125, "B": -0.0125}}
    got = texts(res)
    assert got["figures"] == [{"loss": "-24.7 %", "luck": "-1.2 %", "win": "A 33 %"}]
    assert got["comments"] == [comment(res["turns"][0])]
    assert got["summaries"]["A"].endswith("loss 24.7 %, luck +1.2 %")


def test_deep_analysis_searches_only_close_choices_at_ply_3(logged, monkeypatch):
    """analyze --deep: a turn whose best two ply-2 turns are within CLOSE is searched
    at ply 3 (hostengine.deep_values, two turns or three with the one played); the
    others are judged as without --deep."""
    from samsara_host.record import load
    rec = load(logged[0])
    rec.turns = rec.turns[:10]          # ten turns: the deep search is about 0.4 s a turn
    rec.steps = []
    plain = analysis.analyze_record(rec)
    asked = []
    real = hostengine.deep_values

    def spy(keys, *a, **k):
        asked.append(len(keys))
        v = real(keys, *a, **k)
        assert all(0.0 <= x <= 1.0 for x in v)
        return v
    monkeypatch.setattr(hostengine, "deep_values", spy)
    rec.steps = []
    deep = analysis.analyze_record(rec, deep=True)
    assert asked and all(n in (2, 3) for n in asked)
    assert len(deep["turns"]) == len(plain["turns"]) == 10
    changed = [a["turn"] for a, b in zip(deep["turns"], plain["turns"]) if a != b]
    assert len(changed) <= len(asked)
    assert set(deep) == set(plain)
