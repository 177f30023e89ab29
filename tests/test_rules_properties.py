"""Property tests over positions reached by seeded random play (docs/rules.md §2-§3)."""
import random

from hypothesis import given, settings, strategies as st

from samsara.rules import moves as rules
from samsara.rules.geometry import GS, GR, partner, popcount24
from samsara.rules.notation import read_turn, format_turn
from samsara.rules.position import Position, START


def reached_position(seed, plies):
    """The position after `plies` random complete turns from the start (stops early at
    a game end or Moksha)."""
    rng = random.Random(seed)
    p = START
    for _ in range(plies):
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        turns = rules.complete_turns(p.r, p.s, p.a, p.b, p.mover, d1, d2)
        if not turns or p.a == 6 or p.b == 6:
            break
        _moves, k = turns[rng.randrange(len(turns))]
        p = Position(k[0], k[1], k[2], k[3], 1 - p.mover)
    return p


positions = st.builds(reached_position, st.integers(0, 10 ** 6), st.integers(0, 60))
dice = st.integers(1, 6)
options = st.sampled_from([rules.OWNER_SCORES, rules.FORBIDDEN])


@settings(max_examples=150, deadline=None)
@given(positions, dice, dice, options)
def test_turn_invariants(p, d1, d2, og):
    turns = rules.complete_turns(p.r, p.s, p.a, p.b, p.mover, d1, d2, og)
    keys = [k for _m, k in turns]
    assert len(keys) == len(set(keys)), "results must be distinct"
    assert (not turns) == (not rules.has_complete_turn(p.r, p.s, p.a, p.b, p.mover, d1, d2, og))
    for moves, (r, s, a, b) in turns:
        # always 12 marbles, scores never decrease and stay within 0..6
        assert popcount24(r) + popcount24(s) == 12
        assert p.a <= a <= 6 and p.b <= b <= 6
        # both dice used unless the first sub-move brought a score from 5 to 6
        if len(moves) == 1:
            assert rules.ends_turn(moves[0], p.a, p.b)
        else:
            assert sorted((moves[0][0], moves[1][0])) == sorted((d1, d2))
        # replay the notation: same result, and the result has the other player to move
        note = format_turn(d1, d2, moves)
        _dice, _moves, key = read_turn(p.r, p.s, p.a, p.b, p.mover, note, og)
        assert key == (r, s, a, b)
        nxt = Position(r, s, a, b, 1 - p.mover)
        assert nxt.mover != p.mover
        assert Position.parse(nxt.format()) == nxt


@settings(max_examples=150, deadline=None)
@given(positions, dice, options)
def test_sub_move_invariants(p, d, og):
    ms = rules.gen_sub_moves(p.r, p.s, p.a, p.b, p.mover, d, og)
    assert bool(ms) == rules.any_sub_move(p.r, p.s, p.a, p.b, p.mover, d, og)
    for m in ms:
        die, frm, to, ins, r, s, a, b = m
        assert die == d and p.occupied(frm)
        after = Position(r, s, a, b, p.mover)
        if to in (GS, GR):
            # goal: the owner's score rises (capped at 6), the marble is reinserted
            # on fields 1..12 of the goal's own lane on the first free double space.
            owner = 0 if to == GS else 1
            assert (a, b)[owner] == min(6, (p.a, p.b)[owner] + 1)
            assert (a, b)[1 - owner] == (p.a, p.b)[1 - owner]
            lane0 = 24 if to == GS else 0
            assert lane0 <= ins < lane0 + 12
            before = Position(p.r, p.s, p.a, p.b, p.mover)
            vacated = lambda q: q != frm and before.occupied(q)
            for k in range(lane0, ins):
                assert vacated(k) or vacated(partner(k)), "an earlier double space was free"
            assert not vacated(ins) and not vacated(partner(ins))
            assert after.occupied(ins)
            if og == rules.FORBIDDEN:
                assert owner == p.mover
        else:
            assert (a, b) == (p.a, p.b)
            assert ins == -1 and after.occupied(to) and not p.occupied(to)
        if frm != ins:
            assert not after.occupied(frm)


@settings(max_examples=100, deadline=None)
@given(positions, dice, dice)
def test_completable_sub_moves_never_lead_into_a_dead_end(p, d1, d2):
    for m in rules.completable_sub_moves(p.r, p.s, p.a, p.b, p.mover, (d1, d2)):
        other = d2 if m[0] == d1 else d1
        assert rules.ends_turn(m, p.a, p.b) or rules.gen_sub_moves(
            m[4], m[5], m[6], m[7], p.mover, other)
    # and every first sub-move of a complete turn is offered
    offered = {(m[0], m[1], m[2]) for m in
               rules.completable_sub_moves(p.r, p.s, p.a, p.b, p.mover, (d1, d2))}
    for moves, _k in rules.complete_turns(p.r, p.s, p.a, p.b, p.mover, d1, d2):
        assert (moves[0][0], moves[0][1], moves[0][2]) in offered


@settings(max_examples=60, deadline=None)
@given(positions, dice, dice, st.integers(0, 47))
def test_origin_filter_matches_full_generation(p, d1, d2, origin):
    full = [m for m in rules.completable_sub_moves(p.r, p.s, p.a, p.b, p.mover, (d1, d2))
            if m[1] == origin]
    only = rules.completable_sub_moves(p.r, p.s, p.a, p.b, p.mover, (d1, d2), origin)
    assert sorted(full) == sorted(only)


def _position_text(r, s, a, b, mover):
    # docs/rules.md §5 written out the plain way: the reference for format_position
    lanes = ["".join("o" if (m >> i) & 1 else "." for i in range(24)) for m in (r, s)]
    return "%s/%s %d-%d %s" % (lanes[0], lanes[1], a, b, "AB"[mover])


@settings(max_examples=300, deadline=None)
@given(st.integers(0, (1 << 24) - 1), st.integers(0, (1 << 24) - 1), st.integers(0, 6),
       st.integers(0, 6), st.integers(0, 1))
def test_position_text_is_the_rules_format_and_reads_back(r, s, a, b, mover):
    from samsara.rules.position import format_position
    text = format_position(r, s, a, b, mover)
    assert text == _position_text(r, s, a, b, mover)
    assert isinstance(text, str) and len(text) == 55


@settings(max_examples=100, deadline=None)
@given(positions)
def test_reached_positions_format_and_parse_back(p):
    assert Position.parse(p.format()) == p
