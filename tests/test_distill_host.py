"""Training toward the ply-2 search (tools/distill_host.py, docs/engine.md "Training
toward the ply-2 search") on a tiny run: the labels are the search's values, a stopped
run goes on to the same positions and weights, and the fit moves the network towards
its labels."""
import numpy as np

from samsara_host.engine import hostengine, neteval
from tools import distill_host


def test_the_labels_are_the_ply2_values_of_the_top_turns():
    net = neteval.load()
    got = distill_host.game_positions(net, 5, 0, max_turns=8)
    assert len(got["y"]) > 20
    n = 7
    key = (int(got["r"][n]), int(got["s"][n]), int(got["a"][n]), int(got["b"][n]))
    me = int(got["me"][n])
    want = hostengine.reply_values([key], 1 - me, net=net)[0]
    assert abs(got["y"][n] - want) < 1e-12
    assert all(0.0 <= y <= 1.0 for y in got["y"])


def test_a_stopped_run_goes_on_to_the_same_weights(tmp_path):
    def run(d, extra):
        return distill_host.main(["--games", "2", "--seed", "5", "--data", str(d / "data.npz"),
                                  "--epochs", "2", "--max-turns", "6", "--out", str(d / "w.npz")]
                                 + extra)
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    whole.mkdir()
    parts.mkdir()
    assert run(whole, []) == 0
    assert run(parts, ["--stop-after", "1"]) == 0
    assert not (parts / "w.npz").exists()
    assert distill_host.load_data(str(parts / "data.npz"))[1] == 1
    assert run(parts, []) == 0
    a, b = neteval.load(str(whole / "w.npz")), neteval.load(str(parts / "w.npz"))
    assert np.array_equal(a.w1, b.w1) and np.array_equal(a.wl, b.wl)
    meta = neteval.load_meta(str(whole / "w.npz"))
    assert meta["seed"] == 5 and meta["games"] == 2 and "commit" in meta


def test_the_fit_moves_the_network_towards_its_labels():
    rng = np.random.default_rng(3)
    net = neteval.load()
    fresh = neteval.Net(net.w1.copy(), net.b1.copy(), net.w2.copy(), net.wl.copy(), net.b2)
    lanes = [sum(1 << int(f) for f in rng.choice(24, 6, replace=False)) for _ in range(600)]
    sc = rng.integers(0, 6, (2, 300))
    x = neteval.features(lanes[:300], lanes[300:], sc[0], sc[1], 0, net.inputs)
    y = np.clip(fresh.value(x) + 0.05, 0, 1)
    before = distill_host.mse(fresh, x, y)
    distill_host.fit(fresh, x, y, 10, 0.0003, 0, log=None)
    assert distill_host.mse(fresh, x, y) < before / 2
    assert not np.array_equal(fresh.w1, net.w1) and np.array_equal(net.w1, neteval.load().w1)
