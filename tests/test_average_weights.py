"""tools/average_weights.py: the mean of networks of one shape, refused for others."""
import numpy as np

from samsara_host.engine import neteval
from tools import average_weights


def test_the_average_is_the_mean_of_each_array(tmp_path, capsys):
    paths = []
    for seed in (1, 2, 3):
        net = neteval.Net.start(5, np.random.default_rng(seed), bias=-0.1 * seed,
                                inputs=neteval.N_FEATURES)
        net.w2 += seed
        p = tmp_path / ("w%d.npz" % seed)
        net.save(str(p))
        paths.append(str(p))
    out = str(tmp_path / "avg.npz")
    assert average_weights.main(["--out", out] + paths) == 0
    assert "3 networks (145 inputs x 5 hidden)" in capsys.readouterr().out
    avg = neteval.load(out)
    nets = [neteval.load(p) for p in paths]
    assert np.allclose(avg.w1, (nets[0].w1 + nets[1].w1 + nets[2].w1) / 3)
    assert np.allclose(avg.w2, nets[1].w2) and np.isclose(avg.b2, -0.2)
    meta = neteval.load_meta(out)
    assert meta["average_of"] == ["w1.npz", "w2.npz", "w3.npz"]
    assert meta["average_of_sha"][0] == neteval.weights_sha(paths[0])


def test_networks_of_other_shapes_are_refused(tmp_path, capsys):
    a, b = str(tmp_path / "a.npz"), str(tmp_path / "b.npz")
    neteval.Net.start(5, np.random.default_rng(1)).save(a)
    neteval.Net.start(6, np.random.default_rng(1)).save(b)
    out = tmp_path / "avg.npz"
    assert average_weights.main(["--out", str(out), a, b]) == 2
    assert "different shapes" in capsys.readouterr().err
    assert average_weights.main(["--out", str(out), a]) == 2
    assert "at least two" in capsys.readouterr().err
    assert average_weights.main(["--out", str(out), a, str(tmp_path / "none.npz")]) == 2
    assert not out.exists()
