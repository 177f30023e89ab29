"""Scenes: logical LED layout, colours of marks, dice pips and turn LEDs (docs/leds.md)."""
import os
import re


from boardscript import Script, mark_colour
from samsara import scene as sc


def led(scene, i):
    return tuple(scene[3 * i:3 * i + 3])


def documented_pips():
    """{value: set of pip numbers} from the "pips lit" table of docs/leds.md."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "docs", "leds.md"), encoding="utf-8") as f:
        text = f.read()
    table = {}
    for m in re.finditer(r"^\| ([1-6]) \| ([0-6](?:, [0-6])*) \|$", text, re.M):
        table[int(m.group(1))] = {int(k) for k in m.group(2).split(", ")}
    return table


def test_pip_patterns_are_the_documented_table():
    doc = documented_pips()
    assert sorted(doc) == [1, 2, 3, 4, 5, 6]
    assert sc.PIPS[0] == 0                     # no value: a dark die
    for v in range(1, 7):
        lit = {k for k in range(7) if (sc.PIPS[v] >> k) & 1}
        assert lit == doc[v], "value %d lights pips %s, docs/leds.md says %s" % (
            v, sorted(lit), sorted(doc[v]))
        assert len(lit) == v
    assert sc.PIPS[1] == 1 << 3          # the centre pip


def test_the_hardware_readme_draws_the_same_pip_numbers():
    # hardware/README.md and docs/leds.md number the pips alike (0 1 / 2 3 4 / 5 6).
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "hardware", "README.md"), encoding="utf-8") as f:
        hw = f.read()
    assert re.search(r"0 \. 1\n\s*2 3 4\n\s*5 \. 6", hw)


def test_every_die_value_has_its_own_target_colour_distinct_from_the_guides():
    cols = [mark_colour(d) for d in range(1, 7)]
    assert len(set(cols)) == 6
    guides = {mark_colour(m) for m in (sc.ORIGIN, sc.WRONG, sc.MISSING, sc.EXTRA,
                                       sc.SCORE, sc.NOMOVE, sc.GOAL)}
    assert not guides & set(cols)
    assert mark_colour(sc.MISSING) != mark_colour(sc.EXTRA)


def test_scene_of_a_lift_in_the_board():
    b = Script()
    b.roll(6, 1)
    b.lift("R1")
    s = b.board.scene
    assert led(s, 6) == mark_colour(6)                 # R7 is R1 + 6
    assert led(s, 1) == (0, 0, 0)                      # R2 is occupied: R1+1 -> S14
    assert led(s, 24 + 13) == mark_colour(1)           # S14
    assert led(s, 0) == mark_colour(sc.ORIGIN)
    # dice: die 1 shows six pips in the die-6 colour, die 2 the centre pip in die-1
    for k in range(7):
        want6 = mark_colour(6) if (sc.PIPS[6] >> k) & 1 else (0, 0, 0)
        assert led(s, sc.DIE1_LED + k) == want6
    assert led(s, sc.DIE2_LED + 3) == mark_colour(1)
    assert led(s, sc.TURN_A_LED) == sc.TURN_COLOUR and led(s, sc.TURN_B_LED) == (0, 0, 0)


def test_scene_version_changes_only_with_the_scene():
    b = Script()
    v = b.board.scene_version
    b.wait(100)
    assert b.board.scene_version == v
    b.roll(5, 3)
    assert b.board.scene_version > v


def test_whole_scene_is_within_the_default_budget_in_a_busy_state():
    from boardcore.power import estimate_ma
    b = Script()
    b.roll(5, 3)
    b.raw_set("R5", False)
    b.raw_set("R6", False)
    b.wait(20)
    assert estimate_ma(b.board.scene) <= b.cfg.budget_ma
    assert b.board.limited_scene() == b.board.scene


def test_colour_names():
    assert sc.colour_name(*mark_colour(sc.WRONG)) == "red"
    assert sc.colour_name(*mark_colour(3)) == "die3"
    assert sc.colour_name(1, 2, 3) == "010203"


def test_the_tracked_channel_sum_follows_every_redraw():
    b = Script(position="ooooo.................../oooooo...............o.. 0-0 A")

    def check():
        assert b.board.scene_sum == sum(b.board.scene)

    check()
    b.roll(3, 2)
    check()
    for step in (("lift", "S22"), ("place", "GS"), ("lift", "A0"), ("place", "A1"),
                 ("lift", "R1"), ("place", "R9"), ("lift", "R9"), ("place", "R1"),
                 ("lift", "GS"), ("place", "S7"), ("lift", "R1"), ("place", "R3")):
        getattr(b, step[0])(step[1])
        check()
    b.press("undo")
    check()


def test_event_notation_matches_the_notation_module():
    # Events name sub-moves and holes with samsara.rules.notation / samsara.rules.geometry's own
    # text (one definition), also for a goal with its reinsertion.
    from samsara.rules.notation import format_sub_move
    b = Script(position="ooooo.................../oooooo...............o.. 0-0 A")
    b.roll(3, 1)
    b.move("S22", "GS")
    b.move("GS", "S7")
    b.move("A0", "A1")
    b.move("R5", "R6")
    played = b.board.controller.turn.played
    assert [e["move"] for e in b.of("sub")] == [format_sub_move(m) for m in played] \
        == ["3:S22-GS*S7", "1:R5-R6"]
    assert b.of("goal")[-1]["goal"] == "GS" and b.of("goal")[-1]["ins"] == "S7"
    assert b.of("reinsert")[-1]["pos"] == "S7"
    assert [e["pos"] for e in b.of("lift")][:2] == ["S22", "GS"]
