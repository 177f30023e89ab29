"""`samsara rules play|legal --game samas|schaska` as a user runs it (the installed
console script): the JSON lines of docs/samas.md and docs/schaska.md, the legal answers
for state objects, and a clear error (exit 2) for what does not fit."""
import json
import os
import subprocess
import sys

import pytest

SAMSARA = os.path.join(os.path.dirname(sys.executable), "samsara")
SAMAS_START = {"A": {"hole": 2, "stones": 13, "jokers": 2}, "B": {"hole": 8, "stones": 13, "jokers": 2}}
SCHASKA_START = {"A": {"start": 7, "fields": [], "home": 0},
                 "B": {"start": 7, "fields": [], "home": 0}, "turn": "A"}


def run(*args, stdin=None):
    return subprocess.run([SAMSARA, *args], input=stdin, capture_output=True, text=True, timeout=60)


def lines_of(r):
    assert r.returncode == 0, r.stderr
    return [json.loads(x) for x in r.stdout.splitlines()]


def test_samas_play_json_lines_have_the_documented_keys_in_order():
    r = run("rules", "play", "--game", "samas", "--seed", "3", "--json")
    lines = lines_of(r)
    assert " " not in r.stdout                          # written as the docs write them
    assert list(lines[0]) == ["game", "start"] and lines[0] == {"game": "samas", "start": SAMAS_START}
    for k, line in enumerate(lines[1:-1], 1):
        assert list(line) == ["round", "play", "after"] and line["round"] == k
        assert list(line["play"]) == ["A", "B"]
        assert all(v in ("0", "1", "2", "3", "J") for v in line["play"].values())
        assert list(line["after"]) == ["A", "B"] and list(line["after"]["A"]) == ["hole", "stones", "jokers"]
    assert list(lines[-1]) == ["result", "final"] and lines[-1]["result"] in ("A", "B", "draw")
    assert lines[-1]["final"] == lines[-2]["after"]


def test_schaska_play_json_lines_have_the_documented_keys_in_order():
    r = run("rules", "play", "--game", "schaska", "--seed", "3", "--json")
    lines = lines_of(r)
    assert list(lines[0]) == ["game", "layout", "start"] and lines[0]["start"] == SCHASKA_START
    assert lines[0]["layout"] == [1, 2, -1, 3, 2, -2, 8, 1, 1, 8, -2, 2, 3, -1, 2, 1]
    for k, line in enumerate(lines[1:-1], 1):
        assert list(line) == ["turn", "player", "move", "after"] and line["turn"] == k
        assert list(line["move"]) == ["from", "to"]
        assert line["player"] == ("A" if k % 2 else "B")
        assert list(line["after"]) == ["A", "B", "turn"]
        assert list(line["after"]["B"]) == ["start", "fields", "home"]
    assert list(lines[-1]) == ["result", "by", "final"]
    assert lines[-1]["final"] == lines[-2]["after"]


def test_play_with_a_layout_uses_it_and_the_seed_decides_the_game():
    a = run("rules", "play", "--game", "schaska", "--seed", "2", "--layout",
            "+1,+2,+3,-1,8,+2,+1,-2,+1", "--json")
    assert lines_of(a)[0]["layout"] == [1, 2, 3, -1, 8, 2, 1, -2, 1]
    b = run("rules", "play", "--game", "schaska", "--seed", "2", "--layout",
            "1,2,3,-1,8,2,1,-2,1", "--json")
    c = run("rules", "play", "--game", "schaska", "--seed", "5", "--layout",
            "1,2,3,-1,8,2,1,-2,1", "--json")
    assert a.stdout == b.stdout != c.stdout


def test_play_without_json_is_one_text_line_per_round_or_turn():
    r = run("rules", "play", "--game", "samas", "--seed", "5")
    n = len(lines_of(run("rules", "play", "--game", "samas", "--seed", "5", "--json")))
    out = r.stdout.splitlines()
    assert out[0].startswith("Samas self-play, seed 5") and out[1].startswith("round 1: A ")
    assert len(out) == n and out[-1].startswith("result: ")
    r = run("rules", "play", "--game", "schaska", "--seed", "5")
    assert r.stdout.splitlines()[1].startswith("turn 1: A start-1 ")


def test_samsara_stays_the_default_and_its_record_is_unchanged():
    a = run("rules", "play", "--seed", "4")
    b = run("rules", "play", "--game", "samsara", "--seed", "4")
    assert a.returncode == 0 and a.stdout == b.stdout and a.stdout.startswith("[Event \"self-play\"]")


def test_legal_samas_answers_each_players_choices():
    r = run("rules", "legal", "--game", "samas", "--state", json.dumps(
        {"A": {"hole": 5, "stones": 2, "jokers": 0}, "B": {"hole": 4, "stones": 0, "jokers": 1}}))
    assert lines_of(r) == [{"legal": {"A": ["0", "1", "2"], "B": ["0", "J"]}, "result": None}]
    r = run("rules", "legal", "--game", "samas", "--state", json.dumps(
        {"A": {"hole": 9, "stones": 2, "jokers": 0}, "B": {"hole": 4, "stones": 0, "jokers": 1}}))
    assert lines_of(r) == [{"legal": {"A": [], "B": []}, "result": "A"}]


def test_legal_schaska_answers_the_moves_and_the_state_after_each():
    state = {"A": {"start": 6, "fields": [1], "home": 0},
             "B": {"start": 7, "fields": [], "home": 0}, "turn": "A"}
    r = run("rules", "legal", "--game", "schaska", "--state", json.dumps(state))
    (ans,) = lines_of(r)
    assert ans["result"] is None and ans["by"] is None
    # field 1 is A's own: no entering, the figure on it moves by its +1
    assert [a["move"] for a in ans["legal"]] == [{"from": 1, "to": 2}]
    assert ans["legal"][0]["after"] == {"A": {"start": 6, "fields": [2], "home": 0},
                                        "B": {"start": 7, "fields": [], "home": 0}, "turn": "B"}
    # the same state on another layout: field 1 says -1, back to the start
    # (a layout that begins with a red field is given with "=": argparse reads a word
    # beginning with "-" as an option)
    r = run("rules", "legal", "--game", "schaska", "--layout=-1,1,1,1,1,1,1,1",
            "--state", json.dumps(state))
    assert [a["move"] for a in lines_of(r)[0]["legal"]] == [{"from": 1, "to": "start"}]
    blocked = {"A": {"start": 5, "fields": [7], "home": 1},
               "B": {"start": 5, "fields": [1, 5], "home": 0}, "turn": "A"}
    r = run("rules", "legal", "--game", "schaska", "--layout", ",".join(["1"] * 12),
            "--state", json.dumps(blocked))
    assert lines_of(r) == [{"legal": [], "result": "draw", "by": "block"}]


def test_legal_batch_answers_every_state_of_a_played_game():
    # every round of a game was legal in the state before it
    lines = lines_of(run("rules", "play", "--game", "samas", "--seed", "7", "--json"))
    states = [lines[0]["start"]] + [x["after"] for x in lines[1:-1]]
    r = run("rules", "legal", "--game", "samas", "--batch",
            stdin="".join(json.dumps(s) + "\n" for s in states))
    answers = lines_of(r)
    assert len(answers) == len(states)
    for ans, line in zip(answers, lines[1:-1]):
        assert ans["result"] is None
        assert line["play"]["A"] in ans["legal"]["A"] and line["play"]["B"] in ans["legal"]["B"]
    assert answers[-1]["result"] == lines[-1]["result"]
    lines = lines_of(run("rules", "play", "--game", "schaska", "--seed", "7", "--json"))
    states = [lines[0]["start"]] + [x["after"] for x in lines[1:-1]]
    answers = lines_of(run("rules", "legal", "--game", "schaska", "--batch",
                           stdin="\n".join(json.dumps(s) for s in states) + "\n"))
    for ans, line in zip(answers, lines[1:-1]):
        assert {"move": line["move"], "after": line["after"]} in ans["legal"]
    assert answers[-1]["by"] == lines[-1]["by"] == "home"


def test_legal_batch_answers_a_bad_line_with_an_error_and_goes_on():
    r = run("rules", "legal", "--game", "samas", "--batch",
            stdin='not json\n{"A": 1}\n\n' + json.dumps(SAMAS_START) + "\n")
    out = lines_of(r)
    assert "bad JSON" in out[0]["error"] and "bad state" in out[1]["error"]
    assert out[2]["result"] is None and len(out) == 3


@pytest.mark.parametrize("args,words", [
    (("rules", "play", "--json"), "--json is for --game samas and schaska"),
    (("rules", "legal", "--state", "{}"), "--state is for --game samas and schaska"),
    (("rules", "legal", "--game", "samas", "--dice", "1", "2"), "--dice is for --game samsara"),
    (("rules", "play", "--game", "samas", "--opponent-goal", "forbidden"),
     "--opponent-goal is for --game samsara"),
    (("rules", "play", "--game", "samas", "--layout", "1,1,1,1,1,1,1,1"),
     "--layout is for --game schaska"),
    (("rules", "play", "--game", "schaska", "--layout", "1,1,1"), "8..30 fields, got 3"),
    (("rules", "play", "--game", "schaska", "--layout", "1,1,1,1,1,1,1,4"), "field 8: 4 is not a field value"),
    (("rules", "legal", "--game", "schaska", "--state", '{"A": 1}'), "bad state"),
    (("rules", "legal", "--game", "samas", "--state", "[1"), "bad JSON"),
    (("rules", "legal", "--game", "samas", "--state",
      '{"A": {"hole": 2, "stones": 14, "jokers": 2}, "B": {"hole": 8, "stones": 13, "jokers": 2}}'),
     "A's stones must be 0..13, got 14"),
    (("rules", "legal", "--game", "samas"), "give --state"),
    (("rules", "legal", "--game", "samas", "--batch", "--state", "{}"), "cannot be combined"),
    (("rules", "best", "--game", "samas", "--position", "x", "--dice", "1", "1"), "invalid choice"),
    (("rules", "play", "--game", "chess"), "invalid choice"),
])
def test_what_does_not_fit_the_game_is_a_one_line_error_and_exit_2(args, words):
    r = run(*args)
    assert r.returncode == 2 and words in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""
