"""The Samas board core (docs/samas.md "On the board"): the per-behaviour tests of
tests/upy/upy_test_samas_board.py under pytest, whole seeded games played through the
sensors and the Ready buttons whose events give the lines of `samsara rules play --game
samas` for the same seed, and the firmware's places against hardware/samas/."""
import csv
import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if os.path.join(HERE, "upy") not in sys.path:
    sys.path.insert(0, os.path.join(HERE, "upy"))

import upy_test_samas_board as per_behaviour  # noqa: E402
from gamehands import Hands, samas_round  # noqa: E402
from samas import places  # noqa: E402
from samas.core import SamasBoard  # noqa: E402
from samas.rules.rounds import selection  # noqa: E402
from samsara_host import samas_lines  # noqa: E402

BEHAVIOURS = sorted(n for n in dir(per_behaviour) if n.startswith("test_"))


@pytest.mark.parametrize("name", BEHAVIOURS)
def test_behaviour(name):
    getattr(per_behaviour, name)()


def play_on_board(lines):
    """The rounds of a game's lines played by hand at a new board; its events."""
    board = SamasBoard()
    board.new_game(0)
    hands = Hands(board)
    events = hands.events()
    for line in lines:
        if "round" in line:
            events += samas_round(hands, selection(line["play"]["A"]),
                                  selection(line["play"]["B"]))
    return board, events


@pytest.mark.parametrize("seed", range(1, 9))
def test_a_seeded_game_on_the_board_gives_the_lines_of_rules_play(seed):
    game, lines = samas_lines.self_play(seed)
    board, events = play_on_board(lines)
    got = samas_lines.board_lines(events)
    assert [json.dumps(x) for x in got] == [json.dumps(x) for x in lines]
    assert board.state == "over"
    assert [e["ev"] for e in events].count("reject") == 0


def test_board_lines_refuse_events_without_a_game_start():
    with pytest.raises(ValueError, match="game_start"):
        samas_lines.board_lines([{"ev": "round", "round": 1, "play": {}, "after": {}}])


def _samsara_rows():
    with open(os.path.join(ROOT, "hardware", "positions.csv")) as f:
        return {r["name"]: r for r in csv.DictReader(f)}


def test_the_places_match_hardware_samas_positions():
    with open(os.path.join(ROOT, "hardware", "samas", "positions.csv")) as f:
        rows = list(csv.DictReader(f))
    samsara = _samsara_rows()
    sensed = [r for r in rows if r["kind"] != "ready"]
    assert len(sensed) == places.N_PLACES
    for row in sensed:
        p = int(row["index"])
        assert places.place_name(p) == row["name"]
        # the place takes the sensor input and LED of Samsara's position with its index
        mine = samsara[row["samsara_position"]]
        assert int(mine["index"]) == p
        for col in ("sr_chip", "sr_bit", "mux", "mux_channel", "led"):
            assert row[col] == mine[col], (row["name"], col)
    ready = {r["name"]: r for r in rows if r["kind"] == "ready"}
    assert ready["RA"]["samsara_position"] == "TA" and ready["RB"]["samsara_position"] == "TB"
    assert ready["RA"]["led"] == samsara["TA"]["led"]
    assert places.READY_LED == (78, 79)      # Samsara's logical turn LEDs (scene.TURN_*)
    with open(os.path.join(ROOT, "hardware", "samas", "pins.csv")) as f:
        pins = {r["function"]: r for r in csv.DictReader(f)}
    with open(os.path.join(ROOT, "hardware", "pins.csv")) as f:
        base = {r["function"]: r for r in csv.DictReader(f)}
    # the Ready buttons are Samsara's roll and undo buttons, on the same GPIOs
    assert pins["BTN_READY_A"]["gpio"] == base["BTN_ROLL"]["gpio"]
    assert pins["BTN_READY_B"]["gpio"] == base["BTN_UNDO"]["gpio"]
    assert places.READY_BUTTON == ("roll", "undo")
