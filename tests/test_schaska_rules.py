"""The Schaska rules (docs/schaska.md): the per-rule tests of
tests/upy/upy_test_schaska.py under pytest, and property tests (hypothesis) over games of
random legal actions on random layouts: figures are never created or lost, a field
never holds two, every action is one figure's step along its way, a game always ends;
the default layout is the one docs/schaska.md shows."""
import os
import sys

import pytest
from hypothesis import given, settings, strategies as st

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if os.path.join(HERE, "upy") not in sys.path:
    sys.path.insert(0, os.path.join(HERE, "upy"))

import upy_test_schaska as per_rule  # noqa: E402
from schaska.rules.actions import (apply, legal_actions, progress, result,  # noqa: E402
                                   totals)
from schaska.rules.game import Game, TURN_LIMIT  # noqa: E402
from schaska.rules.layout import (DEFAULT, MAX_FIELDS, MIN_FIELDS, VALUES,  # noqa: E402
                                  format_layout, parse_layout)
from schaska.rules.state import FIGURES, State  # noqa: E402

RULES = sorted(n for n in dir(per_rule) if n.startswith("test_"))


@pytest.mark.parametrize("name", RULES)
def test_rule(name):
    getattr(per_rule, name)()


layouts = st.lists(st.sampled_from(VALUES), min_size=MIN_FIELDS, max_size=MAX_FIELDS).map(tuple)


def _count(s, p):
    return s.start[p] + len(s.fields(p)) + s.home[p]


@settings(max_examples=150, deadline=None)
@given(layouts, st.lists(st.integers(0, 999), max_size=TURN_LIMIT + 10))
def test_figures_are_never_created_or_lost_and_a_game_always_ends(layout, picks):
    g = Game(layout)
    n = len(layout)
    i = 0
    while not g.over():
        before = g.state
        actions = g.legal()
        assert actions, "a running game has an action for the player to move"
        a = actions[picks[i] % len(actions)] if i < len(picks) else actions[0]
        i += 1
        after = g.play(a)
        p = before.mover
        for q in (0, 1):
            assert _count(after, q) == FIGURES
        # one figure of the mover changed place; the other player's stayed
        assert after.fields(1 - p) == before.fields(1 - p)
        assert after.start[1 - p] == before.start[1 - p] and after.home[1 - p] == before.home[1 - p]
        frm, to = a
        assert frm != to and 0 <= frm <= n + 1 and 0 <= to <= n + 1
        assert after.mover == 1 - p
        assert State.from_obj(after.to_obj(), n) == after
        assert g.turns <= TURN_LIMIT
    assert g.result in ("A", "B", "draw") and g.by in ("home", "block", "limit")
    if g.by == "home":
        assert FIGURES in g.state.home
    else:
        ta, tb = totals(g.state)
        assert g.result == ("draw" if ta == tb else ("A" if ta > tb else "B"))
    if g.by == "limit":
        assert g.turns == TURN_LIMIT and result(layout, g.state) is None
    if g.by == "block":
        assert legal_actions(layout, g.state) == []


@settings(max_examples=150, deadline=None)
@given(layouts, st.randoms(use_true_random=False), st.integers(0, 60))
def test_every_legal_action_follows_the_counting_rule(layout, rng, plies):
    # a second, slower reading of the move rule: walk the track field by field
    g = Game(layout)
    for _ in range(plies):
        if g.over():
            return
        g.play(rng.choice(g.legal()))
    s = g.state
    n = len(layout)
    p = s.mover
    for frm, to in legal_actions(layout, s):
        if not 1 <= frm <= n:
            assert to == (1 if p == 0 else n)
            continue
        v = layout[frm - 1]
        fwd = (1 if p == 0 else -1) * (1 if v > 0 else -1)
        k = abs(v)
        path = []
        f = frm + fwd
        while 1 <= f <= n and len(path) < k:
            if s.cells[f] == 0:
                path.append(f)
            f += fwd
        want = path[-1] if len(path) == k else f
        assert to == want, (frm, to, want)
        if 1 <= to <= n:
            assert s.cells[to] == 0
        # half time: never the leader past the middle while figures wait at the start
        if s.start[p]:
            lead = max(s.fields(p), key=lambda x: progress(n, p, x))
            assert not (frm == lead and 2 * progress(n, p, lead) > n)
    for a in legal_actions(layout, s):
        apply(layout, s, a)


def test_the_default_layout_is_the_one_docs_schaska_md_shows():
    text = open(os.path.join(ROOT, "docs", "schaska.md"), encoding="utf-8").read()
    assert "`%s`" % format_layout(DEFAULT) in text
    assert parse_layout(format_layout(DEFAULT)) == DEFAULT
