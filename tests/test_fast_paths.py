"""The controller's fast paths give the same answer as its general reading
(docs/controller.md "Reading the board").

Every trace in tests/traces/ and the seeded simulated games of tests/test_sim_games.py
(noise-free and noisy) are played twice: with the fast paths on (the default) and with
`Controller.fast_paths = False`, which sends every settled frame through
samsara.reading.read (the fast paths: one more marble lifted, read inline, and a
placement read by samsara.reading.place_fast).  The event lists, times included, must
be the same JSON byte for byte, and so must the final position and state.
"""
import glob
import json
import os

import pytest

from samsara import reading
from samsara.controller import Controller
from samsara_host import trace as tr
from samsara_host.sim.table import Table

HERE = os.path.dirname(os.path.abspath(__file__))
TRACES = sorted(glob.glob(os.path.join(HERE, "traces", "*.jsonl")))
PAIRS = (("greedy", "greedy"), ("random", "greedy"), ("greedy", "random"),
         ("random", "random"))
SEEDS = range(20)


def _trace_run(path):
    rp = tr.replay(tr.load(path))
    c = rp.board.controller
    return (json.dumps(rp.events, sort_keys=True), c.position().format(), c.state)


def _game_run(seed, noise):
    t = Table(seed=seed, noise=noise, players=PAIRS[seed % len(PAIRS)]).run()
    c = t.controller
    return (json.dumps(t.driver.events, sort_keys=True), c.position().format(), c.state)


def _both(monkeypatch, run, *args):
    fast = run(*args)
    with monkeypatch.context() as m:
        m.setattr(Controller, "fast_paths", False)
        slow = run(*args)
    return fast, slow


@pytest.fixture
def fast_hits(monkeypatch):
    """Counts the placements the fast path accepted (so the comparison is not empty)."""
    hits = [0]
    place = reading.place_fast

    def counted(turn, frame, o, x):
        res = place(turn, frame, o, x)
        hits[0] += res is not None
        return res
    monkeypatch.setattr(reading, "place_fast", counted)
    return hits


def test_every_trace_gives_the_same_events_with_and_without_the_fast_paths(monkeypatch,
                                                                           fast_hits):
    assert len(TRACES) >= 30
    for path in TRACES:
        fast, slow = _both(monkeypatch, _trace_run, path)
        assert fast == slow, os.path.basename(path)
    assert fast_hits[0] > 0


@pytest.mark.parametrize("seed", SEEDS)
def test_seeded_games_give_the_same_events_with_and_without_the_fast_paths(monkeypatch,
                                                                           fast_hits,
                                                                           seed):
    for noise in (0, 1 + seed % 3):
        fast, slow = _both(monkeypatch, _game_run, seed, noise)
        assert fast == slow, (seed, noise)
    assert fast_hits[0] > 0
