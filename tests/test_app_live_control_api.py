"""The live page's controls through the app's API (no browser), on the app's own
virtual board (`samsara app --virtual`): after the board's turn in a game against it,
the page offers Roll to the person, and the headline names who played and who rolls;
names with characters outside the BMP reach the board's log."""
import json
import time
import urllib.error
import urllib.request

import pytest

from appbrowser import AppProcess
from samsara_host.virtual_board import find_micropython

try:
    find_micropython()
    HAVE_UPY = True
except FileNotFoundError:
    HAVE_UPY = False


def call(url, body=None):
    req = urllib.request.Request(url, method="GET" if body is None else "POST",
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            return r.status, json.loads(r.read().decode())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read().decode())


def live_until(url, ok, what, timeout=30.0):
    """The first /api/live snapshot for which ok(snapshot) holds."""
    end = time.monotonic() + timeout
    snap = None
    while time.monotonic() < end:
        _code, snap = call(url + "api/live")
        if ok(snap):
            return snap
        time.sleep(0.1)
    raise AssertionError("%s: not within %.0f s; last snapshot %r" % (
        what, timeout, {k: snap.get(k) for k in ("state", "mover", "board_move", "can",
                                                   "headline", "lifted")} if snap else None))


@pytest.mark.skipif(not HAVE_UPY, reason="micropython Unix port not installed")
def test_after_the_boards_turn_the_person_may_roll(tmp_path):
    app = AppProcess(["--virtual", "--idle"], tmp_path / "logs")
    try:
        url = app.url
        live_until(url, lambda s: s["connected"], "the board")
        code, r = call(url + "api/live/new", {"vs_board": "A", "level": 1,
                                               "names": ["", "Ben \U0001F600"]})
        assert code == 200, r
        # the board plays A and starts: its sub-moves carried out by the page's hand
        for _ in range(4):
            snap = live_until(url, lambda s: s["board_move"] or s["state"] == "turn_complete",
                              "the board's move")
            if snap["state"] == "turn_complete":
                break
            frm, to = snap["board_move"].split(":")[1].split("-")
            assert "*" not in to, "a goal in the first turn: %s" % snap["board_move"]
            assert call(url + "api/live/hand", {"hole": frm})[0] == 200
            live_until(url, lambda s: frm in s["lifted"], "the lift of " + frm)
            assert call(url + "api/live/hand", {"hole": to})[0] == 200
            live_until(url, lambda s, m=snap["board_move"]: s["board_move"] != m,
                       "the move " + snap["board_move"])
        snap = live_until(url, lambda s: s["state"] == "turn_complete", "the turn's end")
        assert snap["mover"] == "B" and snap["names"] == ["", "Ben \U0001F600"]
        assert snap["can"]["roll"] is True, snap["can"]
        assert snap["headline"] == ("The board finished the turn: Ben \U0001F600, "
                                    "roll the dice")
        code, r = call(url + "api/live/roll", {})
        assert code == 200, r
        snap = live_until(url, lambda s: s["state"] == "moving" and s["mover"] == "B",
                          "Ben's roll")
        assert snap["can"]["roll"] is False and len(snap["dice"]) == 2
    finally:
        app.stop()
