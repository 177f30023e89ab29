"""samsara.turn.Turn: the one place a turn's derived values come from (docs/controller.md
"Reading the board"): the dice used and left, the position after the accepted sub-moves,
the dice left after the first k, and the expected frame of a goal in progress (its
marble still in the goal, its scoring piece not yet moved)."""
from samsara.frame import from_position, get
from samsara.rules import moves as rules
from samsara.rules.geometry import GS, GR, A_TRACK, position_index
from samsara.rules.position import Position
from samsara.turn import Turn


def _turn(pos, d1, d2):
    t = Turn(rules.OWNER_SCORES, pos)
    t.d1 = d1
    t.d2 = d2
    t.set_played([])
    return t


def test_push_uses_a_die_and_moves_the_position():
    pos = Position()
    t = _turn(pos, 5, 3)
    assert t.rem == [5, 3] and t.used == 0
    m = rules.gen_sub_moves(pos.r, pos.s, pos.a, pos.b, pos.mover, 3)[0]
    t.push(m)
    assert t.rem == [5] and t.used == 2 and (t.r, t.s, t.a, t.b) == tuple(m[4:8])
    assert t.prefix(0) == (pos.r, pos.s, pos.a, pos.b) and t.prefix(1) == tuple(m[4:8])
    assert t.rem_after(0) == [5, 3] and t.rem_after(1) == [5]
    # set_played recomputes every derived value from the base
    t.set_played([])
    assert t.rem == [5, 3] and (t.r, t.s) == (pos.r, pos.s) and t.used == 0


def test_a_double_is_two_sub_moves_of_the_same_die():
    pos = Position()
    t = _turn(pos, 2, 2)
    m1 = rules.gen_sub_moves(pos.r, pos.s, pos.a, pos.b, pos.mover, 2)[0]
    t.push(m1)
    assert t.rem == [2] and t.used == 1
    m2 = rules.gen_sub_moves(t.r, t.s, t.a, t.b, t.mover, 2)[0]
    t.push(m2)
    assert t.rem == [] and t.used == 3


def test_the_expected_frame_of_a_goal_keeps_its_marble_in_the_goal():
    pos = Position.parse("ooooo.................../oooooo...............o.. 0-0 A")
    t = _turn(pos, 1, 3)
    goal = [m for m in rules.gen_sub_moves(pos.r, pos.s, pos.a, pos.b, pos.mover, 3)
            if m[2] == GS][0]
    t.push(goal)
    t.goal = goal[2]
    t.goal_step(False, False)        # neither the reinsertion nor the scoring piece yet
    t.set_expected()
    e = t.expected
    assert get(e, GS) and not get(e, goal[3])       # in the goal, not yet reinserted
    assert get(e, A_TRACK + 0) and not get(e, A_TRACK + 1)   # the piece not yet moved
    t.goal_step(True, True)          # both done: the position after the sub-move
    t.goal = -1
    t.set_expected()
    after = from_position(Position(goal[4], goal[5], goal[6], goal[7], 0))
    assert bytes(t.expected) == bytes(after)
    assert get(t.expected, goal[3]) and get(t.expected, position_index("A1"))
