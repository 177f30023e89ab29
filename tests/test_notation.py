"""Position string and move notation: round trips and the errors for bad input
(docs/rules.md §5)."""
import pytest

from samsara.rules import moves as rules
from samsara.rules.geometry import position_index, position_name
from samsara.rules.notation import (AmbiguousMoveError, IllegalMoveError, NotationError,
                              format_sub_move, parse_sub_move, read_sub_move, read_turn)
from samsara.rules.position import Position, PositionError, START

START_TEXT = "oooooo................../oooooo.................. 0-0 A"


@pytest.mark.parametrize("text,needle", [
    ("oooooo................./oooooo.................. 0-0 A", "R lane has 23 fields"),
    ("oooooo................../oooooo.................x 0-0 A", "bad character 'x' at S24"),
    ("ooooo.................../oooooo.................. 0-0 A", "marble count is 11"),
    ("oooooo................../oooooo.................. 7-0 A", "each one digit 0..6"),
    ("oooooo................../oooooo.................. 0-0 C", "unknown mover"),
    ("oooooo................../oooooo..................  0-0 A", "3 parts"),
    ("oooooo..................oooooo.................. 0-0 A", "separated by '/'"),
    ("oooooo................../oooooo.................. 0:0 A", "scores must be"),
    ("oooooo................../oooooo.................. 00-0 A", "each one digit 0..6"),
    ("oooooo................../oooooo.................. \uff11-0 A", "each one digit 0..6"),
    ("oooooo................../oooooo.................. -0 A", "scores must be"),
    ("", "3 parts"),
])
def test_bad_position_strings_name_the_problem(text, needle):
    with pytest.raises(PositionError) as e:
        Position.parse(text)
    assert needle in str(e.value)


def test_position_round_trip_and_values():
    p = Position.parse("o.o.oo................../ooooo.......o.o........ 3-5 B".replace(
        "ooooo.......o.o........", "ooooo.o.....o.o........."))
    assert Position.parse(p.format()) == p
    assert (p.a, p.b, p.mover) == (3, 5, 1)
    with pytest.raises(PositionError):
        Position(0x3F, 0x1F)  # 11 marbles


def test_position_names_round_trip():
    for i in range(64):
        assert position_index(position_name(i)) == i
    for bad in ["R0", "R25", "S01", "A6", "G", "X1", "", "RR", "B7"]:
        with pytest.raises(ValueError):
            position_index(bad)


@pytest.mark.parametrize("text", ["5:R1-S18", "3:S22-GS*S7", "1:R12-R13", "6:R20-R2"])
def test_sub_move_parse_format_round_trip(text):
    die, frm, to, ins = parse_sub_move(text)
    assert format_sub_move((die, frm, to, ins)) == text


@pytest.mark.parametrize("text", ["7:R1-S18", "5R1-S18", "R1", "5:R1-S18-S19", "5:X1-R2",
                                  "5:GS-R1", "5:R1-A3", "5:R1-R2*S7", "3:S22-GS*GR", ""])
def test_bad_sub_move_notation(text):
    with pytest.raises(NotationError):
        parse_sub_move(text)


def test_read_sub_move_illegal_and_ambiguous():
    p = START
    m = read_sub_move(p.r, p.s, p.a, p.b, p.mover, (5, 3), "5:R1-S18")
    assert m[0] == 5 and m[2] == 24 + 17
    with pytest.raises(IllegalMoveError):
        read_sub_move(p.r, p.s, p.a, p.b, p.mover, (5, 3), "5:R1-R6")   # occupied
    with pytest.raises(IllegalMoveError):
        read_sub_move(p.r, p.s, p.a, p.b, p.mover, (5, 3), "4:R1-S17")  # no die 4
    # Without the die: R2 -> S17 is a 3 (R5 occupied -> partner S17), unique.
    assert read_sub_move(p.r, p.s, p.a, p.b, p.mover, (5, 3), "R2-S17")[0] == 3


def test_die_less_turn_reads_the_dice_from_the_fields():
    # From/to fix the number of fields, so the die may be left out: R6-R7 is a 1
    # and R7-R9 a 2.
    p = START
    d, moves, key = read_turn(p.r, p.s, p.a, p.b, p.mover, "21 R6-R7 R7-R9")
    assert [m[0] for m in moves] == [1, 2]
    with pytest.raises(IllegalMoveError) as e:
        read_turn(p.r, p.s, p.a, p.b, p.mover, "21 1:R6-R7")
    assert "incomplete" in str(e.value)


def test_landing_field_alone_and_ambiguity():
    # Start, roll 53: with the 5 only R1 lands on S18 (R6 occupied -> partner S18),
    # with the 3 only R3 does (R6 occupied -> S18).  '5:S18' is unique; 'S18' without
    # a die is refused as notation; with doubles 33 R3 lands on S18 -- but so does
    # no other marble, while '3:R7' fits R4 only.
    p = START
    m = read_sub_move(p.r, p.s, p.a, p.b, p.mover, (5, 3), "5:S18")
    assert position_name(m[1]) == "R1"
    with pytest.raises(NotationError):
        parse_sub_move("S18")
    # Two marbles landing on the same field with the same die: R1 (partner S13
    # occupied) + 2 counting from S13 -> S15 free, and S13 + 2 -> S15 plainly.
    pos = Position.parse("oooooo................../ooooo.......o........... 0-0 A")
    with pytest.raises(AmbiguousMoveError) as e:
        read_sub_move(pos.r, pos.s, pos.a, pos.b, pos.mover, (2, 1), "2:S15")
    assert "2:R1-S15" in str(e.value) and "2:S13-S15" in str(e.value)
    # in a whole turn too
    with pytest.raises(AmbiguousMoveError):
        read_turn(pos.r, pos.s, pos.a, pos.b, pos.mover, "21 2:S15 1:R6-R7")


def test_turn_notation_errors():
    p = START
    for bad, err in [("5 5:R1-S18", NotationError), ("35 3:R1-S16 5:R2-R7", NotationError),
                     ("53", NotationError), ("53 5:R1-S18 3:R2-S17 3:R3-S18", IllegalMoveError),
                     ("53 5:R1-R6 3:R2-S17", IllegalMoveError), ("53 Moksha", IllegalMoveError),
                     ("53 5:R1-S18 5:R2-R7", IllegalMoveError), ("ab", NotationError)]:
        with pytest.raises(err):
            read_turn(p.r, p.s, p.a, p.b, p.mover, bad)


def test_moksha_turn_notation():
    pos = Position.parse(".o.....o.....o.....o.o.o/.o.....o.....o.....oo..o 0-0 A")
    d, moves, key = read_turn(pos.r, pos.s, pos.a, pos.b, pos.mover, "66 Moksha")
    assert moves == [] and key == (pos.r, pos.s, 0, 0)
