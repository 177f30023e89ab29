"""The Play page's Samas and Schaska games through the app's JSON API on a real socket
(docs/app.md "Play"): a whole game of each, picked as `samsara rules play`'s self-play
picks for a seed, ends in exactly the JSON lines that command prints (the same rules
modules), kept in a folder of its own and numbered apart; a secret choice stays secret
until both have chosen; what the rules forbid is refused in words and changes nothing."""
import json
import random
import urllib.error
import urllib.request

import pytest

from samsara_host import samas_lines, schaska_lines
from samsara_host.app.server import AppServer
from schaska.rules.layout import DEFAULT, parse_layout
from testports import free_port


@pytest.fixture
def served(tmp_path):
    logs = tmp_path / "logs"
    srv = AppServer(str(logs))
    url = srv.start(free_port())
    yield url, logs
    srv.stop()


def call(url, body=None, method=None):
    req = urllib.request.Request(url, method=method or ("POST" if body is not None else "GET"),
                                 data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def _kept(logs, saved):
    return (logs / (saved + ".jsonl")).read_text()


def _lines_text(lines):
    return "".join(json.dumps(x, separators=(",", ":")) + "\n" for x in lines)


def play_samas(url, seed):
    """A whole Samas game through the API, each round A's and then B's choice picked as
    samas_lines.self_play(seed) picks them; returns the last state."""
    code, s = call(url + "api/play/new", {"game": "samas"})
    assert code == 200 and s["game"] == "samas" and s["round"] == 1, s
    pid = s["id"]
    rng = random.Random(seed)
    while not s["over"]:
        a = rng.choice(s["legal"]["A"])
        b = rng.choice(s["legal"]["B"])
        last = s["last"]
        _c, s = call(url + "api/play/%s/choose" % pid, {"player": "A", "choice": a})
        # A's choice is secret: said as made, never what it is
        assert s["chosen"] == {"A": True, "B": False} and s["legal"]["A"] == []
        assert s["last"] == last and "problem" not in s
        _c, g = call(url + "api/play/" + pid)
        assert '"%s"' % a not in json.dumps(g["chosen"]) and g["last"] == last
        _c, s = call(url + "api/play/%s/choose" % pid, {"player": "B", "choice": b})
        assert "problem" not in s, s
        assert (s["last"]["A"], s["last"]["B"]) == (a, b)
        assert s["record"][-1][1:3] == [a, b]
    return s


@pytest.mark.parametrize("seed", [3, 8])
def test_a_samas_game_in_the_page_is_rules_plays_game_and_kept(served, seed):
    url, logs = served
    s = play_samas(url, seed)
    game, lines = samas_lines.self_play(seed)
    assert s["result"] == game.result and s["position"] == lines[-1]["final"]
    assert s["over"].startswith("Game over: ") and len(s["record"]) == game.rounds
    assert s["saved"] == "browser-samas/game-0001"
    assert _kept(logs, s["saved"]) == _lines_text(lines)
    # a finished game takes no more choices
    _c, s2 = call(url + "api/play/%s/choose" % s["id"], {"player": "A", "choice": "0"})
    assert "game is over" in s2["problem"] and s2["record"] == s["record"]


@pytest.mark.parametrize("seed, layout", [(2, None), (6, "+2,-1,8,+3,+1,-2,+1,+2,-3,+1")])
def test_a_schaska_game_in_the_page_is_rules_plays_game_and_kept(served, seed, layout):
    url, logs = served
    body = {"game": "schaska", "names": ["Anna", "Ben"]}
    if layout:
        body["layout"] = layout
    code, s = call(url + "api/play/new", body)
    assert code == 200 and s["game"] == "schaska", s
    lay = parse_layout(layout) if layout else DEFAULT
    assert s["layout"] == list(lay) and s["names"] == ["Anna", "Ben"]
    rng = random.Random(seed)
    while not s["over"]:
        pick = s["legal"][rng.randrange(len(s["legal"]))]
        who = s["names"]["AB".index(s["mover"])]
        assert pick["words"].startswith(who + " ")
        _c, s = call(url + "api/play/%s/act" % s["id"], {"move": pick["move"]})
        assert "problem" not in s, s
        assert s["last"]["from"] == pick["move"]["from"] and s["last"]["to"] == pick["move"]["to"]
    game, lines = schaska_lines.self_play(seed, lay)
    assert (s["result"], s["by"]) == (game.result, game.by) and s["turns"] == game.turns
    assert s["position"] == lines[-1]["final"] and s["legal"] == []
    assert s["saved"] == "browser-schaska/game-0001"
    assert _kept(logs, s["saved"]) == _lines_text(lines)


def test_games_of_each_kind_are_numbered_apart(served):
    url, logs = served
    first = play_samas(url, 1)["saved"]
    second = play_samas(url, 2)["saved"]
    assert (first, second) == ("browser-samas/game-0001", "browser-samas/game-0002")
    assert not (logs / "browser").exists()          # the Samsara games' folder untouched
    assert sorted(p.name for p in (logs / "browser-samas").iterdir()) == [
        "game-0001.jsonl", "game-0002.jsonl"]
    _c, lib = call(url + "api/library")               # the library lists Samsara logs only
    assert not any("browser-samas" in json.dumps(g) for g in lib.get("games", []))


def test_what_the_rules_forbid_is_refused_in_words_and_changes_nothing(served):
    url, _logs = served
    _c, s = call(url + "api/play/new", {"game": "samas"})
    pid = s["id"]
    for body, piece in [({"player": "A", "choice": "4"}, "a selection is one of"),
                        ({"player": "C", "choice": "1"}, "the player is A or B"),
                        ({"player": "A", "choice": None}, "a selection is one of")]:
        _c, got = call(url + "api/play/%s/choose" % pid, body)
        assert piece in got["problem"] and got["chosen"] == {"A": False, "B": False}
    call(url + "api/play/%s/choose" % pid, {"player": "A", "choice": "3"})
    _c, got = call(url + "api/play/%s/choose" % pid, {"player": "A", "choice": "2"})
    assert "already chosen" in got["problem"]
    code, got = call(url + "api/play/%s/roll" % pid, {})
    assert code == 404 and "no such action in samas" in got["error"]
    # Schaska: a move not offered, and a layout that is not one
    _c, s = call(url + "api/play/new", {"game": "schaska"})
    _c, got = call(url + "api/play/%s/act" % s["id"], {"move": {"from": 3, "to": 5}})
    assert "pick one of the offered moves" in got["problem"] and got["turns"] == 0
    code, got = call(url + "api/play/new", {"game": "schaska", "layout": "+1,+2,+4,8,1,1,1,1"})
    assert code == 400 and "field 3" in got["error"]
    # a layout typed with commas, spaces or both is the same layout; an empty field is not
    for text in ("+1, +2, -1, +3, +2, -2, 8, +1", "+1 +2 -1 +3 +2 -2 8 +1",
                 " +1 ,+2,-1 , +3,+2,-2,8,+1 "):
        code, got = call(url + "api/play/new", {"game": "schaska", "layout": text})
        assert code == 200 and got["layout"] == [1, 2, -1, 3, 2, -2, 8, 1], (text, got)
    code, got = call(url + "api/play/new", {"game": "schaska", "layout": "+1,,+2,-1,8,+3,+1,-2"})
    assert code == 400 and "field 2" in got["error"]
    code, got = call(url + "api/play/new", {"game": "go"})
    assert code == 400 and "samsara, samas, schaska" in got["error"]
    _c, d = call(url + "api/schaska/layout")
    assert parse_layout(d["default"]) == DEFAULT
