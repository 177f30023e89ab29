"""The Samas rules (docs/samas.md): the per-rule tests of tests/upy/upy_test_samas.py
under pytest, and property tests (hypothesis) over games of random legal choices:
stones and jokers are never created or lost, the joker/stones comparison is
antisymmetric, a game always ends."""
import os
import sys

import pytest
from hypothesis import given, settings, strategies as st

HERE = os.path.dirname(os.path.abspath(__file__))
if os.path.join(HERE, "upy") not in sys.path:
    sys.path.insert(0, os.path.join(HERE, "upy"))

import upy_test_samas as per_rule  # noqa: E402
from samas.rules.game import Game, ROUND_LIMIT  # noqa: E402
from samas.rules.rounds import (JOKER, compare, legal_selections, play_round,  # noqa: E402
                                result)
from samas.rules.state import FAR_END, START, State  # noqa: E402

RULES = sorted(n for n in dir(per_rule) if n.startswith("test_"))


@pytest.mark.parametrize("name", RULES)
def test_rule(name):
    getattr(per_rule, name)()


states = st.builds(lambda ha, hb, sa, sb, ja, jb: State((ha, hb), (sa, sb), (ja, jb)),
                   st.integers(1, 8), st.integers(2, 9), st.integers(0, 13),
                   st.integers(0, 13), st.integers(0, 2), st.integers(0, 2))
"""States with both Sama-stones short of their far ends (any stones and jokers)."""
selections = st.integers(0, JOKER)


@given(selections, selections)
def test_the_joker_stones_comparison_is_antisymmetric(x, y):
    assert compare(x, y) == -compare(y, x)
    assert (compare(x, y) == 0) == (x == y)


@given(selections, selections, selections)
def test_the_comparison_is_the_table_of_the_rules(x, y, z):
    # more stones win; a joker beats 1-3 and loses to 0 (so it is not transitive:
    # 0 < 1 < J < 0)
    if x != JOKER and y != JOKER:
        assert compare(x, y) == (x > y) - (x < y)
    if x == JOKER and y != JOKER:
        assert compare(x, y) == (1 if y else -1)
    assert compare(0, 1) == -1 and compare(1, JOKER) == -1 and compare(JOKER, 0) == -1


def _spent(sel):
    return (0, 1) if sel == JOKER else (sel, 0)


@settings(max_examples=200, deadline=None)
@given(states, st.data())
def test_stones_and_jokers_are_never_created_or_lost(s, data):
    if result(s) is not None:
        assert legal_selections(s, 0) == [] == legal_selections(s, 1)
        return
    a = data.draw(st.sampled_from(legal_selections(s, 0)))
    b = data.draw(st.sampled_from(legal_selections(s, 1)))
    t = play_round(s, a, b)
    for p, sel in ((0, a), (1, b)):
        stones, jokers = _spent(sel)
        assert t.stones[p] == s.stones[p] - stones >= 0
        assert t.jokers[p] == s.jokers[p] - jokers >= 0
        # a Sama-stone moves only toward its far end, never past it
        assert 0 <= t.distance(p) <= s.distance(p)
    assert State.from_obj(t.to_obj()) == t


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 99), st.integers(0, 99)), max_size=120))
def test_a_game_always_ends(picks):
    # choices taken from the list while it lasts, then the first legal one (0: a game
    # of nothing but 0s, which only the round limit ends)
    g = Game()
    held = [15, 15]
    i = 0
    while not g.over():
        la = legal_selections(g.state, 0)
        lb = legal_selections(g.state, 1)
        pa, pb = picks[i] if i < len(picks) else (0, 0)
        i += 1
        a, b = la[pa % len(la)], lb[pb % len(lb)]
        g.play(a, b)
        for p, sel in ((0, a), (1, b)):
            if sel:
                held[p] -= 1 if sel == JOKER else sel
        assert held == [g.state.stones[p] + g.state.jokers[p] for p in (0, 1)]
        assert g.rounds <= ROUND_LIMIT
    assert g.result in ("A", "B", "draw")
    assert g.how in ("far end", "run-out", "limit")
    if g.how == "far end":
        assert g.state.hole[0] == FAR_END[0] or g.state.hole[1] == FAR_END[1]
    if g.how != "limit":
        assert result(g.state) == g.result


@settings(max_examples=100, deadline=None)
@given(st.randoms(use_true_random=False))
def test_a_game_that_spends_something_every_round_ends_within_30_rounds(rng):
    # 13 stones and 2 jokers each: a round in which at least one selection is not 0
    # spends at least one of the 30
    g = Game(START)
    while not g.over():
        la = legal_selections(g.state, 0)
        lb = legal_selections(g.state, 1)
        a = rng.choice(la)
        b = rng.choice(lb if a else lb[1:])     # (B holds something: the game runs)
        g.play(a, b)
    assert g.rounds <= 30 and g.how != "limit"
