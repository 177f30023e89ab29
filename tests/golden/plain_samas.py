"""A second, deliberately plain reading of the Samas rules (docs/samas.md), written apart
from firmware/samas: it referees a game given as its JSON lines, line by line, and
raises AssertionError at the first line that breaks a rule.  Used on the golden games
(tests/test_golden_games.py)."""

BEATS = {("J", "1"), ("J", "2"), ("J", "3"), ("0", "J"),
         ("1", "0"), ("2", "0"), ("3", "0"), ("2", "1"), ("3", "1"), ("3", "2")}
"""(winner, loser) for every pair of different selections, written out by hand."""


def _copy(s):
    return {p: dict(s[p]) for p in "AB"}


def _to_go(s, p):
    return 9 - s["A"]["hole"] if p == "A" else s["B"]["hole"] - 1


def referee(lines, round_limit=100):
    """Check a Samas game's lines (a list of dicts); returns the number of rounds."""
    assert lines[0]["game"] == "samas"
    s = lines[0]["start"]
    assert s == {"A": {"hole": 2, "stones": 13, "jokers": 2},
                 "B": {"hole": 8, "stones": 13, "jokers": 2}}
    over = None
    k = 0
    for line in lines[1:-1]:
        k += 1
        assert over is None, "a round after the end"
        assert set(line) == {"round", "play", "after"} and line["round"] == k
        t = _copy(s)
        for p in "AB":
            sel = line["play"][p]
            if sel == "J":
                assert t[p]["jokers"] >= 1, (k, p, "joker not held")
                t[p]["jokers"] -= 1
            else:
                assert sel in ("0", "1", "2", "3") and int(sel) <= t[p]["stones"], (k, p, sel)
                t[p]["stones"] -= int(sel)
        a, b = line["play"]["A"], line["play"]["B"]
        if (a, b) in BEATS:
            t["A"]["hole"] += 1
        elif (b, a) in BEATS:
            t["B"]["hole"] -= 1
        else:
            assert a == b
        if t["A"]["hole"] == 9:
            over = "A"
        elif t["B"]["hole"] == 1:
            over = "B"
        else:
            for p, q in (("A", "B"), ("B", "A")):
                if t[p]["stones"] == 0 and t[p]["jokers"] == 0:
                    step = 1 if q == "A" else -1
                    for _ in range(t[q]["stones"]):
                        if _to_go(t, q) > 0:
                            t[q]["hole"] += step
            if any(t[p]["stones"] == 0 and t[p]["jokers"] == 0 for p in "AB"):
                over = _closer(t)
        if over is None and k == round_limit:
            over = _closer(t)
        assert line["after"] == t, (k, line["after"], t)
        s = t
    last = lines[-1]
    assert set(last) == {"result", "final"}
    assert over is not None, "the game had not ended"
    assert last["result"] == over and last["final"] == s
    return k


def _closer(s):
    a, b = _to_go(s, "A"), _to_go(s, "B")
    return "draw" if a == b else ("A" if a < b else "B")
