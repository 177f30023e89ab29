"""`samsara demo --game samas|schaska` as a user runs it (the installed console script):
the game it shows is the one `samsara rules play --game ... --json` prints for the same
seed (rounds or turns, the result line, the JSON lines file), the drawings put every
Sama-stone and figure under its hollow or field, and options that do not fit the game
are refused in one line."""
import json
import os
import re
import subprocess
import sys

import pytest
from rich.console import Console

from samsara_host import samas_view, schaska_view
from schaska.rules.layout import DEFAULT, format_layout, format_value

SAMSARA = os.path.join(os.path.dirname(sys.executable), "samsara")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULT_RE = re.compile(r"^result: (A wins|B wins|draw) (?:\(([a-z -]+)\)|by ([a-z]+)) "
                       r"after (\d+) (rounds|turns)$", re.M)


def run(*args):
    return subprocess.run([SAMSARA, *args], capture_output=True, text=True, timeout=120)


def rules_lines(*args):
    r = run("rules", "play", *args, "--json")
    assert r.returncode == 0, r.stderr
    return r.stdout, [json.loads(x) for x in r.stdout.splitlines()]


def _winner(words):
    return "draw" if words == "draw" else words[0]


@pytest.mark.parametrize("seed", [1, 4, 7])
def test_samas_demo_shows_the_rules_play_game_of_its_seed(tmp_path, seed):
    text, lines = rules_lines("--game", "samas", "--seed", str(seed))
    r = run("demo", "--game", "samas", "--fast", "--seed", str(seed), "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    got = RESULT_RE.findall(r.stdout)
    assert got, r.stdout
    who, how, _by, n, unit = got[-1]
    assert _winner(who) == lines[-1]["result"]
    assert unit == "rounds" and int(n) == len(lines) - 2
    assert how in ("far end", "run-out", "limit")
    said = run("rules", "play", "--game", "samas", "--seed", str(seed)).stdout
    assert said.splitlines()[-1] in r.stdout.splitlines()        # the same words
    # every round as the JSON lines have it, in order
    shown = re.findall(r"^  round (\d+): A ([0-3J]), B ([0-3J]):", r.stdout, re.M)
    assert shown == [(str(x["round"]), x["play"]["A"], x["play"]["B"]) for x in lines[1:-1]]
    # the file it writes is rules play's output, byte for byte
    assert (tmp_path / ("samas-seed%d.jsonl" % seed)).read_text() == text


@pytest.mark.parametrize("seed, layout", [(2, None), (5, None),
                                          (3, "+2,-1,8,+3,+1,-2,+1,+2,-3,+1")])
def test_schaska_demo_shows_the_rules_play_game_of_its_seed(tmp_path, seed, layout):
    extra = ["--layout", layout] if layout else []
    text, lines = rules_lines("--game", "schaska", "--seed", str(seed), *extra)
    r = run("demo", "--game", "schaska", "--fast", "--seed", str(seed), "--out", str(tmp_path),
            *extra)
    assert r.returncode == 0, r.stderr
    who, _how, by, n, unit = RESULT_RE.findall(r.stdout)[-1]
    assert (_winner(who), by) == (lines[-1]["result"], lines[-1]["by"])
    assert unit == "turns" and int(n) == len(lines) - 2
    said = run("rules", "play", "--game", "schaska", "--seed", str(seed), *extra).stdout
    assert said.splitlines()[-1] in r.stdout.splitlines()        # the same words
    assert "layout " + format_layout(lines[0]["layout"]) in r.stdout
    shown = re.findall(r"^  turn (\d+): ([AB]) ", r.stdout, re.M)
    assert shown == [(str(x["turn"]), x["player"]) for x in lines[1:-1]]
    assert (tmp_path / ("schaska-seed%d.jsonl" % seed)).read_text() == text


def _rows(panel, width=120):
    con = Console(record=True, width=width, color_system=None)
    con.print(panel)
    return con.export_text().splitlines()


@pytest.mark.parametrize("holes", [(2, 8), (5, 5), (1, 9), (9, 3)])
def test_samas_drawing_puts_each_sama_stone_under_its_hollow(holes):
    state = {"A": {"hole": holes[0], "stones": 4, "jokers": 1},
             "B": {"hole": holes[1], "stones": 0, "jokers": 2}}
    rows = _rows(samas_view.render(state, "t", {"A": "2", "B": "J"}, "note"))
    header = next(r for r in rows if re.search(r"1\s+2\s+3\s+4\s+5\s+6\s+7\s+8\s+9", r))
    track = next(r for r in rows if samas_view.SAMA in r)
    cols = [i for i, ch in enumerate(track) if ch == samas_view.SAMA]
    number_cols = [header.index(str(h)) for h in holes]
    assert len(cols) == 2
    for c in cols:                       # each stone within a hollow's cell
        assert min(abs(c - n) for n in number_cols) <= 1, (track, header)
    text = "\n".join(rows)
    assert " 4 stones" in text and " 0 stones" in text and "1 joker " in text
    assert "2 stones" in text and "joker" in text and "note" in text


def test_samas_drawing_keeps_the_choices_secret_until_revealed():
    state = {"A": {"hole": 3, "stones": 9, "jokers": 2}, "B": {"hole": 7, "stones": 9, "jokers": 2}}
    secret = "\n".join(_rows(samas_view.render(state, "t", None)))
    assert secret.count("chooses in secret") == 2
    shown = "\n".join(_rows(samas_view.render(state, "t", {"A": "0", "B": "3"})))
    assert "chooses in secret" not in shown and "no stones" in shown and "3 stones" in shown


def test_schaska_drawing_puts_values_and_figures_under_their_fields():
    state = {"A": {"start": 4, "fields": [1, 5, 16], "home": 0},
             "B": {"start": 3, "fields": [2, 9, 10], "home": 1}, "turn": "A"}
    rows = _rows(schaska_view.render(DEFAULT, state, "t", {"from": 3, "to": 5}))
    header = next(r for r in rows if "field " in r and " 16 " in r + " ")
    values = next(r for r in rows if "value " in r)
    figs = next(r for r in rows if schaska_view.FIGURE in r and "start" not in r)
    start = header.index("field ") + len("field ")
    for f in range(1, 17):
        cell = slice(start + (f - 1) * schaska_view.CELL, start + f * schaska_view.CELL)
        assert header[cell].strip() == str(f)
        assert values[cell].strip() == format_value(DEFAULT[f - 1])
        on = f in state["A"]["fields"] or f in state["B"]["fields"]
        assert (schaska_view.FIGURE in figs[cell]) == on, (f, figs)
    text = "\n".join(rows)
    assert "A start " + schaska_view.FIGURE * 4 in text
    assert "B home " + schaska_view.FIGURE * 1 in text


def test_schaska_drawing_wraps_a_long_track_into_rows():
    layout = tuple([1, 2, -1] * 10)
    state = {"A": {"start": 6, "fields": [30], "home": 0},
             "B": {"start": 7, "fields": [], "home": 0}, "turn": "B"}
    rows = _rows(schaska_view.render(layout, state, "t"), width=100)
    assert sum(1 for r in rows if "value " in r) == 2
    assert any(" 30 " in r for r in rows if "field " in r)


@pytest.mark.parametrize("args, piece", [
    (["--game", "samas", "--noise", "1"], "--noise is not for --game samas"),
    (["--game", "schaska", "--players", "greedy", "greedy"], "--players is not for --game schaska"),
    (["--game", "samas", "--layout", "1,2,3,1,2,3,1,2"], "--layout is not for --game samas"),
    (["--game", "schaska", "--layout", "1,2"], "a layout has 8..30 fields"),
    (["--game", "schaska", "--layout", "1,2,3,4,1,2,3,1"], "field 4"),
    (["--layout", "1,2,3,1,2,3,1,2"], "--layout is for --game schaska"),
])
def test_options_that_do_not_fit_the_game_are_refused_in_one_line(tmp_path, args, piece):
    r = run("demo", "--fast", "--out", str(tmp_path), *args)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and piece in r.stderr, r.stderr
    assert not os.listdir(str(tmp_path))


@pytest.mark.parametrize("game, want", [("samas", "samsara demo --game samas"),
                                        ("", "samsara demo")])
def test_make_demo_takes_the_game_from_GAME(game, want):
    # (a make of its own: not the flags or level of a `make test` this runs under)
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    r = subprocess.run(["make", "--no-print-directory", "-n", "demo"] +
                       (["GAME=" + game] if game else []),
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    last = [x.strip() for x in r.stdout.splitlines() if "samsara demo" in x][-1]
    assert last.endswith(want) and (game or "--game" not in last), r.stdout


def test_the_live_view_shows_each_round_secret_then_revealed(tmp_path):
    from argparse import Namespace
    from samsara_host import games_demo, samas_lines
    game, lines = samas_lines.self_play(4)
    steps = games_demo.samas_steps(lines)
    assert len(steps) == 1 + 2 * game.rounds
    for k, line in enumerate(lines[1:-1]):
        secret, shown = steps[1 + 2 * k], steps[2 + 2 * k]
        assert secret[1] is None and secret[0] == (lines[k]["after"] if k else lines[0]["start"])
        assert shown[1] == line["play"] and shown[0] == line["after"]
        assert shown[4].startswith("round %d: A %s, B %s: " % (
            line["round"], line["play"]["A"], line["play"]["B"]))
    # on a terminal: the live panel ends on the final board, then the result line
    con = Console(record=True, width=100, force_terminal=True, color_system="truecolor")
    args = Namespace(game="samas", seed=4, fast=False, duration=0.01, out=str(tmp_path))
    assert games_demo.run(args, con) == 0
    text = con.export_text()
    assert "Samas demo: seed 4, the end" in text
    assert text.rstrip().splitlines()[-2] == games_demo.result_words("samas", game)
