"""The host's fast turn generator (samsara_host.engine.turngen) gives exactly the keys
of the firmware rules engine's complete_turns, in the same order (docs/rules.md §3), and
the host engine's search gives bit-for-bit the same results with it
(docs/engine.md "Host engine")."""
from hypothesis import given, settings, strategies as st

from samsara.rules import moves as rules
from samsara_host.engine import hostengine
from samsara_host.engine.turngen import TurnKeys, all_die_results, turn_keys
from tools.bench_engine import corpus

ALL_ROLLS = [(x, y) for x in range(1, 7) for y in range(1, 7)]
OPTIONS = (rules.OWNER_SCORES, rules.FORBIDDEN)


def masks(fields):
    """Lane masks (r, s) of marbles on position indexes 0..47 (0..23 R1..R24, 24..47
    S1..S24)."""
    r = s = 0
    for p in fields:
        if p < 24:
            r |= 1 << p
        else:
            s |= 1 << (p - 24)
    return r, s


def old_keys(r, s, a, b, mover, d1, d2, og):
    return [k for _m, k in rules.complete_turns(r, s, a, b, mover, d1, d2, og)]


def assert_same(r, s, a, b, mover, og):
    # Every one of the 36 ordered rolls, through one TurnKeys (shared memo) and the
    # one-roll function, against complete_turns: the same list, so the same order.
    tk = TurnKeys((r, s, a, b), mover, og)
    for d1, d2 in ALL_ROLLS:
        want = old_keys(r, s, a, b, mover, d1, d2, og)
        assert tk.keys(d1, d2) == want, (r, s, a, b, mover, d1, d2, og)
        assert turn_keys(r, s, a, b, mover, d1, d2, og) == want
    outs = all_die_results(r, s, a, b, mover, og)
    for d in range(1, 7):
        subs = rules.gen_sub_moves(r, s, a, b, mover, d, og)
        want = [(m[rules.M_R], m[rules.M_S], m[rules.M_A], m[rules.M_B]) for m in subs]
        assert list(outs[d - 1]) == want


@settings(max_examples=200, deadline=None)
@given(st.sets(st.integers(0, 47), min_size=12, max_size=12),
       st.integers(0, 6), st.integers(0, 6), st.integers(0, 1), st.sampled_from(OPTIONS))
def test_any_placement_of_twelve_marbles(fields, a, b, mover, og):
    r, s = masks(fields)
    assert_same(r, s, a, b, mover, og)


@settings(max_examples=60, deadline=None)
@given(st.sets(st.integers(0, 11), min_size=0, max_size=12),
       st.integers(0, 47), st.integers(4, 5), st.integers(4, 5), st.integers(0, 1))
def test_crowded_double_spaces_near_the_goals(pairs, extra, a, b, mover):
    # Marbles on both halves of double spaces (R i+13 with S i+1), the rest made up to
    # 12 near the goals, scores about to end the game.
    fields = set()
    for i in pairs:
        if len(fields) < 11:
            fields.update((i + 12, 24 + i))
    for p in [extra] + list(range(47, 0, -1)):
        if len(fields) == 12:
            break
        fields.add(p)
    r, s = masks(fields)
    for og in OPTIONS:
        assert_same(r, s, a, b, mover, og)


def test_hand_made_edges():
    cases = [
        range(12, 24),                          # R13..R24: all round, near GR
        range(36, 48),                          # S13..S24: all angular, near GS
        list(range(18, 24)) + list(range(42, 48)),   # both lanes' last six fields
        list(range(0, 6)) + list(range(36, 42)),     # full double spaces R1-6 / S13-18
        list(range(0, 11)) + [23],              # reinsertion on R must skip R1..R11
        list(range(24, 35)) + [47],             # the same on S
        list(range(12, 23)) + [47],             # partners of S1..S11 full
        [0, 1, 2, 3, 4, 5, 24, 25, 26, 27, 28, 29],
    ]
    for fields in cases:
        r, s = masks(fields)
        assert bin(r).count("1") + bin(s).count("1") == 12
        for a, b in ((0, 0), (5, 5), (5, 0), (0, 5), (6, 5), (3, 6)):
            for mover in (0, 1):
                for og in OPTIONS:
                    assert_same(r, s, a, b, mover, og)


def test_positions_of_real_games():
    for r, s, a, b, mover, _d1, _d2 in corpus(100, 3):
        for og in OPTIONS:
            assert_same(r, s, a, b, mover, og)
            assert_same(r, s, a, b, 1 - mover, og)


def both(monkeypatch, f):
    # f() with the old generator (complete_turns) and with turngen.
    monkeypatch.setattr(hostengine, "FAST_TURNS", False)
    old = f()
    monkeypatch.setattr(hostengine, "FAST_TURNS", True)
    return old, f()


def test_rank_is_the_same_bit_for_bit(monkeypatch):
    seen = 0
    for n, (r, s, a, b, mover, d1, d2) in enumerate(corpus(40, 5)):
        if n % 3:
            continue
        og = n % 2
        old, new = both(monkeypatch,
                        lambda: hostengine.rank(r, s, a, b, mover, d1, d2, og))
        assert len(old) == len(new)
        for (m0, k0, v0, p0), (m1, k1, v1, p1) in zip(old, new):
            assert (m0, k0, p0) == (m1, k1, p1)
            assert v0.hex() == v1.hex()
        seen += len(new) > 0
    assert seen >= 10


def test_reply_and_deep_values_are_the_same_bit_for_bit(monkeypatch):
    keys = [(r, s, a, b) for r, s, a, b, _m, _x, _y in corpus(60, 9)][20::20]
    for og in OPTIONS:
        old, new = both(monkeypatch, lambda: hostengine.reply_values(keys, 1, og))
        assert old.tobytes() == new.tobytes()
    old, new = both(monkeypatch, lambda: hostengine.deep_values(keys[:2], 0, 0))
    assert old.tobytes() == new.tobytes()
