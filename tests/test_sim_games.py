"""Seeded simulated games recorded with noise replay to the same turns and final
positions as their noise-free recordings (issue 3 §7): 20 here, 200 under
`make soak` (pytest -m soak).

For each seed: the game is played noise-free on the simulated board; then the same
seed is played with physical noise (chatter, rocking, slides, wrong holes, knocks,
bumps, double lifts) and its trace is written as text, read back and replayed through
a fresh Board.  Everything must agree: the noisy game's turns and final position are
those of the clean game, and its replay gives the same again.
"""
import pytest

from samsara import states
from samsara_host.sim.table import Table
from samsara_host import trace as tr

PAIRS = (("greedy", "greedy"), ("random", "greedy"), ("greedy", "random"),
         ("random", "random"))


def _check(seed):
    players = PAIRS[seed % len(PAIRS)]
    noise = 1 + seed % 3
    clean = Table(seed=seed, noise=0, players=players).run()
    noisy = Table(seed=seed, noise=noise, players=players).run()
    text = tr.dumps(noisy.trace())
    rp = tr.replay(tr.parse(text)).result()
    assert clean.controller.state in (states.GAME_OVER, states.MOKSHA)
    assert noisy.turns() == clean.turns()
    assert noisy.final_position() == clean.final_position()
    assert rp["turns"] == clean.turns()
    assert rp["final_position"] == clean.final_position()
    assert rp["state"] == clean.controller.state
    assert rp["result"] is not None
    # The clean recording never needed a correction; the noisy one really was rough.
    assert not [e for _t, e in clean.driver.events if e["ev"] in ("reject", "repair")]
    return noisy.stats


def test_twenty_seeded_noisy_games_replay_like_their_clean_recordings():
    total = {}
    for seed in range(20):
        st = _check(seed)
        for k, v in st.as_dict().items():
            total[k] = total.get(k, 0) + v
    # The noise really happened (so the equality above means something).
    for k in ("slides", "wrong", "back", "knocks", "bumps", "double", "rocks", "goals"):
        assert total[k] > 0, (k, total)


@pytest.mark.soak
@pytest.mark.parametrize("block", range(10))
def test_soak_two_hundred_seeded_noisy_games(block):
    for seed in range(100 + 20 * block, 120 + 20 * block):
        _check(seed)
