"""A second, deliberately plain reading of the Schaska rules (docs/schaska.md), written
apart from firmware/schaska: it referees a game given as its JSON lines, line by line,
keeping the track as a list of owners, and raises AssertionError at the first line that
breaks a rule.  Used on the golden games (tests/test_golden_games.py)."""


def _track(s, n):
    track = [None] * (n + 1)            # track[f] = "A", "B" or None for field f (1..n)
    for p in "AB":
        for f in s[p]["fields"]:
            assert track[f] is None
            track[f] = p
    return track


def _state(track, start, home, turn):
    n = len(track) - 1
    return {p: {"start": start[p], "fields": [f for f in range(1, n + 1) if track[f] == p],
                "home": home[p]} for p in "AB"} | {"turn": turn}


def _progress(p, f, n):
    return f if p == "A" else n + 1 - f


def _moves(layout, track, start, p):
    """Every legal move of player p as (from, to) in the lines' words."""
    n = len(layout)
    out = []
    first = 1 if p == "A" else n
    if start[p] > 0 and track[first] is None:
        out.append(("start", first))
    mine = [f for f in range(1, n + 1) if track[f] == p]
    held = None
    if start[p] > 0 and mine:
        lead = max(mine, key=lambda f: _progress(p, f, n))
        if _progress(p, lead, n) > n / 2:
            held = lead
    for f in mine:
        if f == held:
            continue
        v = layout[f - 1]
        forward = v > 0
        step = (1 if p == "A" else -1) * (1 if forward else -1)
        left = abs(v)
        g = f
        while left:
            g += step
            if g < 1 or g > n:
                break
            if track[g] is None:
                left -= 1
        if 1 <= g <= n:
            out.append((f, g))
        else:
            out.append((f, "home" if forward else "start"))
    return out


def _total(s, p, n):
    return sum(_progress(p, f, n) for f in s[p]["fields"]) + (n + 1) * s[p]["home"]


def referee(lines, turn_limit=400):
    """Check a Schaska game's lines (a list of dicts); returns the number of turns."""
    head = lines[0]
    assert head["game"] == "schaska"
    layout = head["layout"]
    n = len(layout)
    assert n >= 8 and all(v in (1, 2, 3, -1, -2, -3, 8) for v in layout)
    s = head["start"]
    assert s == {"A": {"start": 7, "fields": [], "home": 0},
                 "B": {"start": 7, "fields": [], "home": 0}, "turn": "A"}
    k = 0
    for line in lines[1:-1]:
        k += 1
        assert set(line) == {"turn", "player", "move", "after"} and line["turn"] == k
        p = s["turn"]
        assert line["player"] == p
        assert s["A"]["home"] < 7 and s["B"]["home"] < 7, "a turn after the end"
        track = _track(s, n)
        start = {q: s[q]["start"] for q in "AB"}
        home = {q: s[q]["home"] for q in "AB"}
        legal = _moves(layout, track, start, p)
        mv = (line["move"]["from"], line["move"]["to"])
        assert mv in legal, (k, mv, legal)
        if mv[0] == "start":
            start[p] -= 1
        else:
            track[mv[0]] = None
        if mv[1] == "home":
            home[p] += 1
        elif mv[1] == "start":
            start[p] += 1
        else:
            track[mv[1]] = p
        t = _state(track, start, home, "B" if p == "A" else "A")
        assert line["after"] == t, (k, line["after"], t)
        s = t
    last = lines[-1]
    assert set(last) == {"result", "by", "final"} and last["final"] == s
    track = _track(s, n)
    start = {q: s[q]["start"] for q in "AB"}
    ta, tb = _total(s, "A", n), _total(s, "B", n)
    scored = "draw" if ta == tb else ("A" if ta > tb else "B")
    if s["A"]["home"] == 7 or s["B"]["home"] == 7:
        assert last["by"] == "home" and last["result"] == ("A" if s["A"]["home"] == 7 else "B")
    elif not _moves(layout, track, start, s["turn"]):
        assert last["by"] == "block" and last["result"] == scored
    else:
        assert k == turn_limit and last["by"] == "limit" and last["result"] == scored
    return k
