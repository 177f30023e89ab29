"""The Play page's Samas and Schaska games in headless Chromium at 1280 and at 360 px (a
phone): two players pick a game, play it to the end by clicking the page's buttons, and
the drawing shows the state the server holds (Sama-stones in their hollows, hands;
the track's values and figures); the result is said at the end.  The layout field takes
the parts laid out and refuses a bad one in words.  Without a browser these tests skip,
except under CI=true, where they fail."""
import random

import pytest

from appbrowser import AppProcess, click, js, wait_for
from test_app_board_control import fits
from schaska.rules.layout import DEFAULT, format_layout


def _new(browser, app, game, layout=None):
    browser.get(app.url + "play")
    wait_for(lambda: browser.find_element("id", "guide").text, "the page")
    browser.execute_script("var g = document.getElementById('game'); g.value = arguments[0]; "
                           "g.dispatchEvent(new Event('change'));", game)
    if game == "schaska":
        wait_for(lambda: js(browser, "document.getElementById('layout').value"),
                 "the default layout in the field")
        if layout is not None:
            f = browser.find_element("id", "layout")
            f.clear()
            f.send_keys(layout)
    assert not browser.find_element("id", "newE").is_displayed()   # no computer to play
    click(browser, "new2")
    return wait_for(lambda: js(browser, "window.samsaraPlay && samsaraPlay.game === '%s' && "
                                        "samsaraPlay" % game), "the %s game" % game)


def _drawn_samas(browser):
    return js(browser, "Array.from(document.querySelectorAll('#oboard circle.sama'))"
                       ".map(c => [c.dataset.player, +c.dataset.hole])")


@pytest.mark.parametrize("width", [1280, 360])
def test_two_players_play_samas_to_the_end_in_the_page(browser, tmp_path, width):
    app = AppProcess(["--no-board"], tmp_path / "logs")
    try:
        browser.set_window_size(width, 900)
        s = _new(browser, app, "samas")
        assert sorted(_drawn_samas(browser)) == [["A", 2], ["B", 8]]
        rng = random.Random(width)
        for _ in range(120):
            if s["over"]:
                break
            for p in "AB":
                c = rng.choice(s["legal"][p])
                before = js(browser, "JSON.stringify(samsaraPlay)")
                click(browser, "choose%s-%s" % (p, c))
                s = wait_for(lambda: js(browser, "JSON.stringify(samsaraPlay) !== %r && "
                                                 "samsaraPlay" % before), "the choice taken")
                if p == "A":
                    # A's pick is hidden: the page says only that A has chosen
                    assert browser.find_element("id", "chosenA").is_displayed()
                    assert not browser.find_elements("css selector", "#ocontrols button[id^=chooseA]")
            assert s["last"]["A"] and s["last"]["B"]      # both revealed at once
            assert "Revealed:" in browser.find_element("id", "reveal").text
            pos = s["position"]
            assert sorted(_drawn_samas(browser)) == sorted([["A", pos["A"]["hole"]],
                                                            ["B", pos["B"]["hole"]]])
            held = js(browser, "Array.from(document.querySelectorAll('#oboard circle.stone'))"
                               ".map(c => c.dataset.player).join('')")
            assert held.count("A") == pos["A"]["stones"] and held.count("B") == pos["B"]["stones"]
        assert s["over"] and s["result"] in ("A", "B", "draw")
        guide = browser.find_element("id", "oguide").text
        assert guide.startswith("Game over: ") and "browser-samas/game-0001" in guide
        assert len(browser.find_elements("css selector", "#orecord .turnline")) == len(s["record"])
        ok, wide, small = fits(browser, width)
        assert ok and not wide and not small, (wide, small)
        # the page opened again at the game's address shows it, the picker on Samas
        browser.execute_script("window.samsaraPlay = null")
        browser.refresh()
        again = wait_for(lambda: js(browser, "window.samsaraPlay"), "the game again")
        assert again["record"] == s["record"] and again["game"] == "samas"
        assert js(browser, "document.getElementById('game').value") == "samas"
        assert sorted(_drawn_samas(browser)) == sorted(
            [["A", s["position"]["A"]["hole"]], ["B", s["position"]["B"]["hole"]]])
    finally:
        app.stop()


@pytest.mark.parametrize("width", [1280, 360])
def test_two_players_play_schaska_on_their_layout_to_the_end(browser, tmp_path, width):
    app = AppProcess(["--no-board"], tmp_path / "logs")
    layout = "+2 -1 8 +3 +1 -2 +1 +2 -3 +1"           # spaces between parts are fine
    try:
        browser.set_window_size(width, 900)
        # a layout that is not one is refused in words, no game started
        browser.get(app.url + "play")
        _new_bad = "+1,+2,+5,8,1,1,1,1"
        browser.execute_script("var g = document.getElementById('game'); g.value = 'schaska';"
                               "g.dispatchEvent(new Event('change'));")
        wait_for(lambda: js(browser, "document.getElementById('layout').value") ==
                 format_layout(DEFAULT), "the default layout in the field")
        f = browser.find_element("id", "layout")
        f.clear()
        f.send_keys(_new_bad)
        click(browser, "new2")
        assert "field 3" in wait_for(lambda: browser.find_element("id", "newproblem").text,
                                     "the refusal")
        assert not js(browser, "window.samsaraPlay")
        s = _new(browser, app, "schaska", layout)
        assert browser.find_element("id", "newproblem").text == ""
        values = js(browser, "Array.from(document.querySelectorAll('#oboard g.field'))"
                             ".map(g => +g.dataset.value)")
        assert values == [2, -1, 8, 3, 1, -2, 1, 2, -3, 1]
        rng = random.Random(width)
        for _ in range(450):
            if s["over"]:
                break
            k = rng.randrange(len(s["legal"]))
            assert browser.find_element("id", "act-%d" % k).text == s["legal"][k]["words"]
            turns = s["turns"]
            click(browser, "act-%d" % k)
            s = wait_for(lambda: js(browser, "samsaraPlay.turns > %d && samsaraPlay" % turns),
                         "the move played")
            drawn = js(browser, "Array.from(document.querySelectorAll('#oboard circle.figure'))"
                                ".map(c => c.dataset.player + c.dataset.field)")
            want = ["A%d" % f for f in s["position"]["A"]["fields"]] + \
                   ["B%d" % f for f in s["position"]["B"]["fields"]]
            assert sorted(drawn) == sorted(want)
        assert s["over"] and s["by"] in ("home", "block", "limit")
        guide = browser.find_element("id", "oguide").text
        assert guide.startswith("Game over: ") and "browser-schaska/game-0001" in guide
        assert not browser.find_elements("css selector", "#ocontrols button")
        ok, wide, small = fits(browser, width)
        assert ok and not wide and not small, (wide, small)
    finally:
        app.stop()
