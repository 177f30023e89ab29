"""The Schaska board core (docs/schaska.md "On the board"): the per-behaviour tests of
tests/upy/upy_test_schaska_board.py under pytest, whole seeded games played through the
sensed fields whose events give the lines of `samsara rules play --game schaska` for
the same seed and layout, and the firmware's places against hardware/schaska/."""
import csv
import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for _p in (os.path.join(HERE, "upy"), os.path.join(ROOT, "firmware")):
    if _p not in sys.path:   # (the boot imports board_config, a top-level module)
        sys.path.insert(0, _p)

import upy_test_schaska_board as per_behaviour  # noqa: E402
from gamehands import Hands, schaska_act  # noqa: E402
from schaska import places  # noqa: E402
from schaska.core import SchaskaBoard  # noqa: E402
from schaska.rules.layout import DEFAULT, parse_layout  # noqa: E402
from samsara_host import schaska_lines  # noqa: E402

BEHAVIOURS = sorted(n for n in dir(per_behaviour) if n.startswith("test_"))


@pytest.mark.parametrize("name", BEHAVIOURS)
def test_behaviour(name):
    getattr(per_behaviour, name)()


def play_on_board(layout, game):
    """The actions of a finished rules Game replayed by hand at a new board; its
    events."""
    from schaska.rules.game import Game
    board = SchaskaBoard(layout)
    board.new_game(0, layout)
    hands = Hands(board)
    events = hands.events()
    replay = Game(layout)
    n = len(layout)
    for action in game.actions:
        events += schaska_act(hands, n, action)
        replay.play(action)
    return board, events


def self_play_actions(seed, layout):
    """rules play's game for seed and layout, with the actions it took (game.actions)."""
    import random
    rng = random.Random(seed)
    from schaska.rules.game import Game
    game = Game(layout)
    game.actions = []
    while not game.over():
        actions = game.legal()
        a = actions[rng.randrange(len(actions))]
        game.actions.append(a)
        game.play(a)
    return game


@pytest.mark.parametrize("seed,layout", [(s, DEFAULT) for s in range(1, 6)] +
                         [(7, parse_layout("+1,+2,-1,3,2,-2,8,1,+3,-3"))])
def test_a_seeded_game_on_the_board_gives_the_lines_of_rules_play(seed, layout):
    game, lines = schaska_lines.self_play(seed, layout)
    mine = self_play_actions(seed, layout)
    board, events = play_on_board(layout, mine)
    got = schaska_lines.board_lines(events)
    assert [json.dumps(x) for x in got] == [json.dumps(x) for x in lines]
    assert board.state == "over"
    assert [e["ev"] for e in events].count("reject") == 0


def test_board_lines_refuse_events_without_a_game_start():
    with pytest.raises(ValueError, match="game_start"):
        schaska_lines.board_lines([{"ev": "turn", "turn": 1}])


def test_the_places_match_hardware_schaska_positions():
    with open(os.path.join(ROOT, "hardware", "schaska", "positions.csv")) as f:
        rows = list(csv.DictReader(f))
    with open(os.path.join(ROOT, "hardware", "positions.csv")) as f:
        samsara = {r["name"]: r for r in csv.DictReader(f)}
    fields = [r for r in rows if r["kind"] == "field"]
    assert len(fields) == places.MAX_FIELDS
    for row in fields:
        f = int(row["name"][1:])
        assert row["name"] == "F%d" % f
        assert int(row["index"]) == places.field_pos(f)
        mine = samsara[row["samsara_position"]]
        assert int(mine["index"]) == int(row["index"])
        for col in ("sr_chip", "sr_bit", "mux", "mux_channel", "led"):
            assert row[col] == mine[col], (row["name"], col)
    turn = {r["name"]: r["samsara_position"] for r in rows if r["kind"] == "turn"}
    assert turn == {"TA": "TA", "TB": "TB"} and places.TURN_LED == (78, 79)


def test_the_boards_layout_comes_from_layout_txt_else_the_default(tmp_path):
    from schaska import boot
    from schaska.rules.layout import LayoutError
    assert boot.read_layout(str(tmp_path / "none.txt")) == DEFAULT
    p = tmp_path / "layout.txt"
    p.write_text("+1,+2,-1,3,2,-2,8,1\n")
    assert boot.read_layout(str(p)) == (1, 2, -1, 3, 2, -2, 8, 1)
    p.write_text("+1,+2,+9,3,2,-2,8,1")
    with pytest.raises(LayoutError, match="field 3"):
        boot.read_layout(str(p))
