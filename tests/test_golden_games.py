"""The golden games of Samas and Schaska (tests/golden/games/, written by
tests/golden/make_golden_games.py): `samsara rules play --game G --seed N [--layout V,...]
--json` still prints each of them byte for byte, and a second, plain reading of each
game's rules (tests/golden/plain_samas.py, plain_schaska.py) referees every line of them
and catches a game with one line changed."""
import copy
import json
import os
import subprocess
import sys

import pytest

GOLDEN_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
if GOLDEN_DIR not in sys.path:
    sys.path.insert(0, GOLDEN_DIR)

import make_golden_games as golden  # noqa: E402

SAMSARA = os.path.join(os.path.dirname(sys.executable), "samsara")
NAMES = [name for name, _args, _how in golden.GAMES]


def _stored(name):
    with open(os.path.join(golden.GAMES_DIR, name), encoding="utf-8") as f:
        return f.read()


@pytest.mark.parametrize("name,args,how", golden.GAMES, ids=NAMES)
def test_rules_play_prints_the_golden_game(name, args, how):
    r = subprocess.run([SAMSARA, "rules", "play", *args, "--json"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout == _stored(name), "%s changed (%s): if the change is meant, run " \
        "python tests/golden/make_golden_games.py" % (name, how)


@pytest.mark.parametrize("name", NAMES)
def test_the_plain_reading_referees_the_golden_game(name):
    assert golden.referee(_stored(name)) > 5


def test_the_golden_games_end_in_every_way():
    ends = set()
    for name in NAMES:
        last = json.loads(_stored(name).splitlines()[-1])
        ends.add((name.split("-")[0], last["result"], last.get("by")))
    assert ("samas", "draw", None) in ends and ("samas", "A", None) in ends
    assert {by for game, _r, by in ends if game == "schaska"} == {"home", "block", "limit"}


def _mutations(lines):
    """Copies of a game's lines with one thing changed that breaks a rule."""
    out = []
    game = lines[0]["game"]
    for i in (1, len(lines) // 2, len(lines) - 2):
        line = lines[i]
        m = copy.deepcopy(lines)
        if game == "samas":
            m[i]["after"]["A"]["stones"] += 1                      # a stone created
            out.append(m)
            m = copy.deepcopy(lines)
            play = m[i]["play"]
            play["A"], play["B"] = play["B"], play["A"]              # the choices swapped
            if play["A"] != play["B"]:
                out.append(m)
        else:
            p = line["player"]
            m[i]["after"][p]["home"] += 1                            # a figure created
            out.append(m)
            m = copy.deepcopy(lines)
            m[i]["player"] = "B" if p == "A" else "A"                # out of turn
            out.append(m)
    m = copy.deepcopy(lines)
    m[-1]["result"] = {"A": "B", "B": "draw", "draw": "A"}[m[-1]["result"]]
    out.append(m)
    m = copy.deepcopy(lines)
    del m[-2]                                                       # a turn left out
    out.append(m)
    return out


@pytest.mark.parametrize("name", NAMES)
def test_the_plain_reading_catches_a_changed_line(name):
    lines = [json.loads(x) for x in _stored(name).splitlines()]
    referee = golden.plain_samas.referee if lines[0]["game"] == "samas" \
        else golden.plain_schaska.referee
    for m in _mutations(lines):
        with pytest.raises(AssertionError):
            referee(m)
