"""`make train` (tools/make_train.py, tools/train_host.py; docs/engine.md "Training the
host evaluation") on a tiny run: the four stages, a run stopped and started again gives the
weights of a run that never stopped, a checkpoint of other options is refused, and the
player's features of the network's input (neteval.extras) say what they claim."""
import numpy as np
import pytest

from samsara.rules import engine as dev
from samsara.rules.position import Position
from samsara_host.engine import neteval
from tools import make_train, train_host

TINY = ["--base-games", "3", "--features-games", "7", "--games", "10", "--faster-games", "9",
        "--hidden", "4", "--eval-every", "2", "--eval-games", "2", "--log-every", "2"]


def arrays(path):
    with np.load(str(path)) as z:
        return {k: z[k].copy() for k in ("w1", "b1", "w2", "wl", "b2")}


def same(p, q):
    a, b = arrays(p), arrays(q)
    return all(np.array_equal(a[k], b[k]) for k in a)


def test_a_stopped_run_goes_on_to_the_same_weights(tmp_path, capsys):
    whole = tmp_path / "whole"
    assert make_train.main(["--dir", str(whole)] + TINY) == 0
    out = capsys.readouterr().out
    assert all("stage %d" % k in out for k in (1, 2, 3, 4))
    assert "games 4 vs device (1 ply, 2 games of seed 3)" in out
    assert "games 8 vs device (1 ply, 2 games of seed 3)" in out
    assert "loss" in out
    # Stopped in stage 1, at its end, in stage 2, at its end, in stage 3, at its end, in
    # stage 4, then to the end.
    parts = tmp_path / "parts"
    for n in (2, 1, 2, 2, 1, 2, 1, 9):
        assert make_train.main(["--dir", str(parts), "--stop-after", str(n)] + TINY) == 0
    out = capsys.readouterr().out
    assert "resuming from" in out and "stopped after game 2" in out
    assert "stopped after game 8" in out
    for name in ("base-final.npz", "features-final.npz", "weights.npz", "faster-final.npz",
                 "features.games-6.npz", "fast.games-8.npz", "faster.games-8.npz"):
        assert same(whole / name, parts / name), name
    net = neteval.load(str(whole / "weights.npz"))
    assert net.inputs == neteval.N_FEATURES and net.w1.shape[1] == 4
    meta = neteval.load_meta(str(whole / "weights.npz"))
    assert meta["seed"] == 1 and meta["games"] == 10 and meta["first"] == 7
    assert meta["options"]["alpha"] == make_train.FAST_ALPHA
    assert meta["options"]["lin"] == make_train.FAST_LIN and "commit" in meta
    feat = neteval.load_meta(str(whole / "features-final.npz"))
    assert feat["games"] == 7 and feat["first"] == 3 and feat["options"]["widen"] is True
    assert feat["options"]["alpha"] == make_train.ALPHA
    faster = neteval.load_meta(str(whole / "faster-final.npz"))
    assert faster["games"] == 9 and faster["first"] == 7
    assert faster["options"]["alpha"] == make_train.FASTER_ALPHA
    assert faster["options"]["lin"] == make_train.FASTER_LIN
    # Each stage starts from the one before (stages 3 and 4 both from stage 2), and
    # training moved the weights.
    assert meta["options"]["init_sha"] == neteval.weights_sha(whole / "features-final.npz")
    assert faster["options"]["init_sha"] == meta["options"]["init_sha"]
    assert feat["options"]["init_sha"] == neteval.weights_sha(whole / "base-final.npz")
    base = neteval.load(str(whole / "base-final.npz")).widened()
    features = neteval.load(str(whole / "features-final.npz"))
    assert not np.array_equal(base.wl, features.wl)
    assert not np.array_equal(features.w1, net.w1)
    assert not np.array_equal(neteval.load(str(whole / "faster-final.npz")).w1, net.w1)


def test_stages_out_of_order_are_refused(tmp_path, capsys):
    with pytest.raises(SystemExit):
        make_train.main(["--dir", str(tmp_path), "--base-games", "5", "--features-games",
                         "5", "--games", "9"])
    assert "--base-games < --features-games < --games" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        make_train.main(["--dir", str(tmp_path), "--base-games", "2", "--features-games",
                         "5", "--games", "9", "--faster-games", "5"])
    assert "--faster-games" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


def test_a_checkpoint_of_other_options_is_refused(tmp_path, capsys):
    ck = str(tmp_path / "ck.npz")
    opts = ["--seed", "3", "--hidden", "4", "--games", "2", "--checkpoint", ck]
    assert train_host.main(opts + ["--stop-after", "1"]) == 0
    assert train_host.main(opts + ["--alpha", "0.2"]) == 2
    assert "other options (alpha)" in capsys.readouterr().err


def test_widened_weights_give_the_same_values():
    net = neteval.Net.start(6, np.random.default_rng(5), inputs=neteval.N_BASE)
    keys = [(0x3F, 0x3F, 0, 0), (0x1C, 0x42103F, 2, 3), (0x800003, 0x7, 5, 4)]
    for me in (0, 1):
        assert np.allclose(neteval.evaluate(keys, me, net),
                           neteval.evaluate(keys, me, net.widened()), rtol=0, atol=1e-12)
    with pytest.raises(ValueError):
        neteval.features([0], [0], [0], [0], 0, inputs=100)


def test_grown_weights_give_the_same_values_and_train_their_new_units(tmp_path):
    net = neteval.Net.start(3, np.random.default_rng(5), inputs=neteval.N_FEATURES)
    grown = net.grown(7, np.random.default_rng(1))
    assert grown.w1.shape == (neteval.N_FEATURES, 7) and grown.w2.shape == (7,)
    keys = [(0x3F, 0x3F, 0, 0), (0x1C, 0x42103F, 2, 3), (0x800003, 0x7, 5, 4)]
    for me in (0, 1):
        assert np.allclose(neteval.evaluate(keys, me, net),
                           neteval.evaluate(keys, me, grown), rtol=0, atol=1e-12)
    with pytest.raises(ValueError):
        grown.grown(6, np.random.default_rng(1))
    init = str(tmp_path / "init.npz")
    net.save(init)
    out = str(tmp_path / "grown.npz")
    assert train_host.main(["--init", init, "--grow", "7", "--first", "0", "--games", "2",
                            "--log-every", "0", "--out", out]) == 0
    trained = neteval.load(out)
    assert trained.w1.shape[1] == 7 and np.any(trained.w2[3:] != 0)
    assert neteval.load_meta(out)["options"]["grow"] == 7


def test_grow_needs_init(capsys):
    with pytest.raises(SystemExit):
        train_host.main(["--grow", "7", "--games", "1"])
    assert "--grow need --init" in capsys.readouterr().err


def test_the_players_features_say_what_they_claim():
    # A (me) to have moved; A's goal lane S holds S14, S17, S22 (11, 8 and 3 fields from
    # GS) and S1..S6; R holds R3, R4, R5; R5's partner S17 is full: a blocked space.
    p = Position.parse("..ooo.................../oooooo.......o..o....o.. 2-3 B")
    x = neteval.features([p.r], [p.s], [p.a], [p.b], 0)[0]
    e = x[neteval.N_BASE:]
    # my lane: >= 1 goal exactly when a die or the sum is 3, 8 or 11
    hits = sum(1 for d1 in range(1, 7) for d2 in range(1, 7)
               if {d1, d2, d1 + d2} & {3, 8, 11})
    assert e[0] == pytest.approx(hits / 36)
    assert e[1] == pytest.approx(0.0)              # two goals need 3 and 8 on two dice: no
    assert e[2] == pytest.approx(1 / 6)            # within 6 fields: S22
    assert e[3] == pytest.approx(3 / 6)            # within 12: S14, S17, S22
    assert e[4] == pytest.approx(6 / 6)            # first half: S1..S6
    assert e[5] == pytest.approx((24 + 23 + 22 + 21 + 20 + 19 + 11 + 8 + 3) / 150)
    assert e[6] == pytest.approx(1 / 6)            # S17/R5 blocked, in front of GS
    assert e[7] == pytest.approx(1 / 6)            # a run of one
    # the opponent's lane R: nothing within 12 fields of GR
    assert e[8] == 0 and e[10] == 0 and e[11] == 0
    assert e[12] == pytest.approx(3 / 6)
    assert e[14] == 0                              # R5 is on R's first half
    assert e[15] == pytest.approx(1 / 6)
    assert list(e[16:20]) == [0, 0, 0, 0]          # nobody at 4 or 5
    assert e[20] == pytest.approx(1 / 12)
    pair = e[21:]
    assert pair.sum() == 1 and pair[6 * 2 + 3] == 1   # my 2, their 3
    # the chances agree with the device engine's expected goals (one + two goals)
    for u in (0, 0x801, 0xFFF, 0x5A5):
        t = neteval._tables()
        assert t[0][u] + t[1][u] == pytest.approx(dev._count(u) / 36)


def test_a_threat_counts_only_at_five_or_four():
    # B (the opponent, to roll) has a marble on R24, one field before its goal GR.
    at5 = Position.parse("ooooo..................o/oooooo.................. 0-5 A")
    at3 = Position.parse("ooooo..................o/oooooo.................. 0-3 A")
    f5 = neteval.features([at5.r], [at5.s], [0], [5], 0)[0][neteval.N_BASE:]
    f3 = neteval.features([at3.r], [at3.s], [0], [3], 0)[0][neteval.N_BASE:]
    assert f5[16] == pytest.approx(11 / 36)        # any roll with a 1
    assert f3[16] == 0


def test_the_shipped_evaluation_is_the_four_networks_mean_logit():
    # neteval.shipped(): make train's four stages (the faster hidden layer, the one
    # faster still, the network with the player's features, the base network), the
    # sigmoid of the mean of their logits, each reading its own inputs.
    ens = neteval.shipped()
    assert isinstance(ens, neteval.Ensemble) and ens.inputs == neteval.N_FEATURES
    paths = [neteval.WEIGHTS, neteval.FASTER_WEIGHTS, neteval.FEATURES_WEIGHTS,
             neteval.BASE_WEIGHTS]
    assert neteval.shipped_files() == paths
    nets = [neteval.load(p) for p in paths]
    assert [n.inputs for n in ens.nets] == [neteval.N_FEATURES] * 3 + [neteval.N_BASE]
    keys = [(0x3F, 0x3F, 0, 0), (0x7E, 0x3F, 2, 3), (0x3F << 12 | 1, 0x1F, 5, 4)]
    x = neteval.features([k[0] for k in keys], [k[1] for k in keys], [k[2] for k in keys],
                         [k[3] for k in keys], 1)
    ps = [n.value(x[:, :n.inputs]) for n in nets]
    mean = sum(np.log(p / (1 - p)) for p in ps) / 4
    want = 1 / (1 + np.exp(-mean))
    assert np.allclose(neteval.evaluate(keys, 1), want, rtol=0, atol=1e-12)
    # The networks disagree, so the mean is none of them.
    assert not any(np.allclose(want, p, atol=1e-6) for p in ps)
    # The files say how they were made: each stage starts from the one before.
    meta = [neteval.load_meta(p) for p in paths]
    assert [m["games"] for m in meta] == [104000, 96000, 40000, 24000]
    assert [m["first"] for m in meta] == [40000, 40000, 24000, 0]
    assert meta[0]["options"]["init_sha"] == neteval.weights_sha(neteval.FEATURES_WEIGHTS)
    assert meta[1]["options"]["init_sha"] == neteval.weights_sha(neteval.FEATURES_WEIGHTS)
    assert meta[2]["options"]["init_sha"] == neteval.weights_sha(neteval.BASE_WEIGHTS)
    assert meta[0]["options"]["alpha"] == make_train.FAST_ALPHA
    assert meta[1]["options"]["alpha"] == make_train.FASTER_ALPHA
    assert meta[1]["options"]["lin"] == make_train.FASTER_LIN
    with pytest.raises(ValueError):
        neteval.Ensemble([])
    # A weighted mean: equal weights are the plain mean; others weigh each logit.
    assert np.allclose(neteval.Ensemble(nets, [2, 2, 2, 2]).value(x), want, rtol=0, atol=1e-12)
    logits = [np.log(p / (1 - p)) for p in ps]
    weighted = (3 * logits[0] + logits[1] + logits[2] + logits[3]) / 6
    assert np.allclose(neteval.Ensemble(nets, [3, 1, 1, 1]).value(x),
                       1 / (1 + np.exp(-weighted)), rtol=0, atol=1e-12)
    for bad in ([1, 1, 1], [1, 1, 1, 0], [1, 1, -1, 1]):
        with pytest.raises(ValueError):
            neteval.Ensemble(nets, bad)
