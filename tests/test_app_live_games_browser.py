"""The live page of a Samas and of a Schaska board in headless Chromium at 1280 and at
360 px (a phone): `samsara app --game G --virtual --seed S` starts that game's virtual
board, whose simulated hands play the game of `samsara rules play --game G --seed S`;
the page draws that game's board (the Sama-stones in their hollows, each player's
stones; the track's values and figures) as the board's events describe it, with
Samsara's buttons hidden, follows it to the end and names the winner, the drawing and
the record equal to `rules play`'s lines, and nothing is wider than the screen.
Without a browser these tests skip, except under CI=true, where they fail."""
import json
import urllib.request

import pytest

from appbrowser import AppProcess, js, wait_for
from test_app_board_control import fits
from test_app_cmd import HAVE_UPY
from samsara_host import samas_lines, schaska_lines
from schaska.rules.layout import DEFAULT

pytestmark = pytest.mark.skipif(not HAVE_UPY, reason="micropython Unix port not installed")

LIVE = "window.samsaraLive"


def _live(browser, cond, what, timeout=60.0):
    return wait_for(lambda: js(browser, "%s && (%s) && %s" % (LIVE, cond, LIVE)), what,
                    timeout=timeout)


def _samsara_parts_hidden(browser):
    for el in ("roll", "undo", "hint", "dice", "newgame"):
        assert not browser.find_element("id", el).is_displayed(), el
    assert browser.find_element("id", "gamecard").is_displayed()


def _drawn_samas(browser):
    return sorted(js(browser, "Array.from(document.querySelectorAll('#board circle.sama'))"
                              ".map(c => [c.dataset.player, +c.dataset.hole])"))


def _drawn_figures(browser):
    return sorted(js(browser, "Array.from(document.querySelectorAll('#board circle.figure'))"
                              ".map(c => c.dataset.player + c.dataset.field)"))


@pytest.mark.parametrize("width", [1280, 360])
def test_live_page_follows_a_samas_board_to_its_end(browser, tmp_path, width):
    seed = 4
    game, lines = samas_lines.self_play(seed)
    app = AppProcess(["--game", "samas", "--virtual", "--seed", str(seed), "--pace", "0.2"],
                     tmp_path / "logs")
    try:
        browser.set_window_size(width, 900)
        browser.get(app.url)
        s = _live(browser, "samsaraLive.kind === 'samas' && samsaraLive.play", "a Samas board")
        _samsara_parts_hidden(browser)
        # during the game: each look at the page draws the Sama-stones where it says
        seen = set()
        while not s["over"]:
            k = s["steps"]
            pos = s["play"]["position"]
            drawn = _drawn_samas(browser)
            guide = browser.find_element("id", "guide").text
            if js(browser, "%s.steps === %d" % (LIVE, k)):   # (not redrawn meanwhile)
                # a player's words: the round to choose, or the one revealed to carry out
                assert guide.startswith(("Round %d: " % (k + 1), "Round %d revealed: " % k)), guide
                assert drawn == sorted([["A", pos["A"]["hole"]], ["B", pos["B"]["hole"]]])
                held = js(browser, "Array.from(document.querySelectorAll('#board "
                                   "circle.stone')).map(c => c.dataset.player).join('')")
                assert held.count("A") == pos["A"]["stones"]
                assert held.count("B") == pos["B"]["stones"]
                if k:
                    assert pos == lines[k]["after"]           # rules play's round k
            seen.add(k)
            s = _live(browser, "samsaraLive.steps !== %d || samsaraLive.over" % k,
                      "round %d played" % (k + 1))
        assert len(seen) > 1                   # the page followed the game, not just its end
        rounds = len(lines) - 2
        assert s["steps"] == rounds and s["result"] == lines[-1]["result"]
        assert s["play"]["position"] == lines[-1]["final"]
        winner = "Player %s wins" % game.result if game.result != "draw" else "a draw"
        guide = _live(browser, "document.getElementById('guide').textContent"
                               ".startsWith('Game over')", "the end in the headline")
        text = browser.find_element("id", "guide").text
        assert text.startswith("Game over: ") and winner in text, text
        assert "after %d rounds" % rounds in text
        assert guide
        assert len(browser.find_elements("css selector", "#record .turnline")) == rounds + 1
        assert _drawn_samas(browser) == sorted(
            [["A", lines[-1]["final"]["A"]["hole"]], ["B", lines[-1]["final"]["B"]["hole"]]])
        # the board page says what the board plays in the same words (no `status` there)
        with urllib.request.urlopen(app.url + "api/board", timeout=20) as r:
            board = json.load(r)
        assert board["status"] is None and board["playing"] == text, board
        ok, wide, small = fits(browser, width)
        assert ok and not wide and not small, (wide, small)
    finally:
        app.stop()


@pytest.mark.parametrize("width", [1280, 360])
def test_live_page_follows_a_schaska_board_to_its_end(browser, tmp_path, width):
    seed = 2
    game, lines = schaska_lines.self_play(seed, DEFAULT)
    app = AppProcess(["--game", "schaska", "--virtual", "--seed", str(seed), "--pace",
                      "0.02"], tmp_path / "logs")
    try:
        browser.set_window_size(width, 900)
        browser.get(app.url)
        s = _live(browser, "samsaraLive.kind === 'schaska' && samsaraLive.play",
                  "a Schaska board")
        _samsara_parts_hidden(browser)
        values = js(browser, "Array.from(document.querySelectorAll('#board g.field'))"
                             ".map(g => +g.dataset.value)")
        assert values == list(DEFAULT)
        seen = 0
        while not s["over"]:
            k = s["steps"]
            pos = s["play"]["position"]
            drawn = _drawn_figures(browser)
            guide = browser.find_element("id", "guide").text
            if js(browser, "%s.steps === %d" % (LIVE, k)):   # (not redrawn meanwhile)
                assert drawn == sorted(["A%d" % f for f in pos["A"]["fields"]] +
                                       ["B%d" % f for f in pos["B"]["fields"]])
                assert guide.startswith("Player %s to move: " % pos["turn"]), guide
                if k:
                    assert pos == lines[k]["after"]
                    seen += 1
            s = _live(browser, "samsaraLive.steps !== %d || samsaraLive.over" % k,
                      "turn %d played" % (k + 1))
        assert seen > 1
        turns = len(lines) - 2
        assert s["steps"] == turns and s["play"]["position"] == lines[-1]["final"]
        winner = "Player %s wins" % game.result if game.result != "draw" else "a draw"
        _live(browser, "document.getElementById('guide').textContent.startsWith('Game over')",
              "the end in the headline")
        text = browser.find_element("id", "guide").text
        assert winner in text and "after %d turns" % turns in text, text
        assert _drawn_figures(browser) == sorted(
            ["A%d" % f for f in lines[-1]["final"]["A"]["fields"]] +
            ["B%d" % f for f in lines[-1]["final"]["B"]["fields"]])
        ok, wide, small = fits(browser, width)
        assert ok and not wide and not small, (wide, small)
    finally:
        app.stop()
