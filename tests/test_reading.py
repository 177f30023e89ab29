"""samsara.reading: a settled frame read as moves (docs/controller.md "Reading the
board"), tested against the rules engine's own legal sub-moves: a frame showing one
legal sub-move reads as it, a marble on a non-target is a wrong placement with words
that name the targets, a changed scoring piece is a repair; the fast placement gives
the general reading's answer; the lit targets are exactly the legal landing fields."""
import random

import pytest

from samsara import reading as rd
from samsara.frame import from_position, put
from samsara.rules import moves as rules
from samsara.rules.geometry import GS, GR, position_index, position_name
from samsara.rules.position import Position
from samsara.turn import Turn

POSITIONS = [
    Position(),
    Position.parse("oooo.o...o....o........./.ooooo.................. 0-0 B"),
    Position.parse("ooooo.................../oooooo...............o.. 3-2 A"),
]


def _turn(pos, d1, d2):
    t = Turn(rules.OWNER_SCORES, pos)
    t.d1 = d1
    t.d2 = d2
    t.set_played([])
    t.set_expected()
    return t


def _after(pos, m):
    # the frame of `pos` after sub-move m (its marble moved; a goal's marble in the goal
    # hole and the scoring piece not yet moved, as right after the placement)
    f = from_position(pos)
    put(f, m[1], 0)
    put(f, m[2], 1)
    return f


@pytest.mark.parametrize("pos", POSITIONS)
@pytest.mark.parametrize("dice", [(5, 3), (1, 1), (6, 2)])
def test_a_frame_with_one_legal_sub_move_reads_as_that_sub_move(pos, dice):
    t = _turn(pos, *dice)
    for d in set(dice):
        for m in rules.gen_sub_moves(pos.r, pos.s, pos.a, pos.b, pos.mover, d):
            if m[2] in (GS, GR):
                continue
            res = rd.read(t, _after(pos, m))
            assert res[0] in (rd.MATCH, rd.AMBIGUOUS), (m, res)
            if res[0] == rd.MATCH:
                assert res[1] == 0 and res[2][-1][1:3] == m[1:3], (m, res)


@pytest.mark.parametrize("pos", POSITIONS)
def test_the_fast_placement_reads_as_the_general_reading(pos):
    t = _turn(pos, 4, 2)
    for d in (4, 2):
        for m in rules.gen_sub_moves(pos.r, pos.s, pos.a, pos.b, pos.mover, d):
            if m[2] > 47:
                continue
            f = _after(pos, m)
            fast = rd.place_fast(t, f, m[1], m[2])
            if fast is not None:
                assert fast == rd.read(t, f), m


@pytest.mark.parametrize("pos", POSITIONS)
def test_the_lit_targets_are_the_legal_landing_fields(pos):
    t = _turn(pos, 5, 3)
    occupied = [p for p in range(48) if (pos.r if p < 24 else pos.s) >> (p % 24) & 1]
    for o in occupied:
        tl, _back = rd.targets(t, o)
        want = set()
        for d in (5, 3):
            for m in rules.gen_sub_moves(pos.r, pos.s, pos.a, pos.b, pos.mover, d,
                                         rules.OWNER_SCORES, o):
                want.add((m[2], d))
        got = set(tl)
        # a target lit for a die is a legal landing field of that die from o
        assert got <= want, (position_name(o), got - want)
        assert {x for x, _d in got} == {x for x, _d in want} or not want, position_name(o)


def test_a_marble_on_a_non_target_is_a_wrong_placement_that_names_the_targets():
    pos = Position()
    t = _turn(pos, 5, 3)
    rng = random.Random(3)
    o = 0                                            # R1
    tl, _ = rd.targets(t, o)
    lit = {x for x, _d in tl}
    free = [p for p in range(48) if p not in lit and not (pos.r if p < 24 else pos.s) >> (p % 24) & 1]
    x = rng.choice(free)
    f = from_position(pos)
    put(f, o, 0)
    put(f, x, 1)
    res = rd.read(t, f)
    assert res[0] == rd.WRONG and res[1] == x, res
    assert position_name(x) in res[2] and "R1" in res[2] and "targets" in res[2], res[2]


def test_a_moved_scoring_piece_is_a_repair_that_names_it():
    pos = Position()
    t = _turn(pos, 5, 3)
    f = from_position(pos)
    put(f, position_index("A0"), 0)      # A's scoring piece moved on without a goal
    put(f, position_index("A1"), 1)
    res = rd.read(t, f)
    assert res[0] == rd.REPAIR and "scoring piece" in res[1], res
