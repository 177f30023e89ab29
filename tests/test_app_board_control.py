"""The app as the board's remote control and a window onto it, in headless Chromium at
1280 and at 360 px (a phone): New game against the board draws and names the board's
move, Roll / Hint / Undo do what the board's buttons do, a dead virtual board is said
as one and restarted, every page fits the narrow screen with thumb-sized buttons, and
the Play page and the library speak a player's words.  Without a browser these tests
skip, except under CI=true, where they fail."""
import os
import re
import signal
import subprocess
import time

import pytest

from appbrowser import AppProcess, click, each, js, wait_for
from loghelp import game_log

THUMB_PX = 40
"""The least height of a button or field a thumb hits (CSS gives 44 px)."""


def fits(drv, width):
    """Nothing on the page is wider than the screen, and every visible button, link
    button, field and menu is at least THUMB_PX high; returns the offenders."""
    assert js(drv, "window.innerWidth") <= width
    wide = js(drv, "Array.from(document.querySelectorAll('body *')).filter(e => "
                   "e.getBoundingClientRect().right > window.innerWidth + 1 && "
                   "getComputedStyle(e).position !== 'fixed').map(e => e.tagName + '#' + "
                   "e.id + ' ' + Math.round(e.getBoundingClientRect().right))")
    small = js(drv, "Array.from(document.querySelectorAll('button, a.button, select, "
                    "input, nav a')).filter(e => e.offsetParent && "
                    "e.getBoundingClientRect().height < %d).map(e => e.tagName + '#' + "
                    "e.id + ' ' + Math.round(e.getBoundingClientRect().height))" % THUMB_PX)
    return js(drv, "document.documentElement.scrollWidth") <= width, wide, small


def _board_child(app):
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(app.proc.pid)],
                         capture_output=True, text=True).stdout
    pids = [int(x) for x in out.split()]
    assert pids, "the app started no virtual board"
    return pids[0]


@pytest.mark.parametrize("width", [1280, 360])
def test_live_page_controls_the_board(browser, tmp_path, width):
    logs = tmp_path / "logs"
    (logs / "table-1").mkdir(parents=True)
    (logs / "table-1" / "game-0001.log").write_bytes(game_log(5)[0])
    app = AppProcess(["--virtual", "--idle"], logs)
    try:
        browser.set_window_size(width, 900)
        browser.get(app.url)
        wait_for(lambda: js(browser, "window.samsaraLive && samsaraLive.connected"),
                 "the board")
        # a game for two, the players named: roll, a hint drawn in green and named,
        # undo refused in words; a bad name is refused in words before the board hears it
        click(browser, "newgame")
        browser.execute_script("document.getElementById('opponent').value = ''")
        browser.find_element("id", "nameA").send_keys("x" * 39)
        browser.execute_script("document.getElementById('nameA').removeAttribute("
                               "'maxlength'); document.getElementById('nameA').value += "
                               "'yz'")
        click(browser, "start")
        wait_for(lambda: "at most 40 characters" in browser.find_element("id", "said").text,
                 "the name refused")
        browser.find_element("id", "nameA").clear()
        browser.find_element("id", "nameA").send_keys("Anna")
        browser.find_element("id", "nameB").send_keys("Ben")
        click(browser, "start")
        wait_for(lambda: js(browser, "samsaraLive.state == 'waiting' && "
                                     "!document.getElementById('roll').disabled && "
                                     "samsaraLive.names"), "Roll")
        assert browser.find_element("id", "nA").text == "Anna"
        assert browser.find_element("id", "nB").text == "Ben"
        assert browser.find_element("id", "guide").text.startswith("Anna to roll")
        assert js(browser, "document.getElementById('hint').disabled")
        click(browser, "roll")
        snap = wait_for(lambda: js(browser, "samsaraLive.dice.length == 2 && samsaraLive"),
                        "the roll")
        assert "Rolled %d and %d" % tuple(snap["dice"]) in browser.find_element(
            "id", "said").text
        assert len(browser.find_elements("css selector", "#dice svg.die")) == 2
        assert "rolled %d and %d" % tuple(snap["dice"]) in browser.find_element(
            "id", "guide").text
        wait_for(lambda: not js(browser, "document.getElementById('hint').disabled"), "Hint")
        click(browser, "hint")
        snap = wait_for(lambda: js(browser, "samsaraLive.hint && samsaraLive"), "the hint")
        assert browser.find_elements("css selector", "#board svg path.move.hint")
        says = browser.find_element("id", "boardsays").text
        assert says.startswith("Hint: ") and "move the marble from" in says
        assert "Hint for Anna" in browser.find_element("id", "guide").text

        # against the board: it plays A at level 1 and starts; its move drawn in blue
        click(browser, "newgame") if not js(browser, "document.getElementById("
                                                     "'newgame').open") else None
        browser.execute_script("document.getElementById('opponent').value = 'A';"
                               "document.getElementById('level').value = '1';"
                               "document.getElementById('nameA').value = '';"
                               "document.getElementById('nameB').value = ''")
        click(browser, "start")
        snap = wait_for(lambda: js(browser, "samsaraLive.board_move && samsaraLive"),
                        "the board's move")
        assert snap["vs_board"] == "A" and snap["level"] == 1
        # (the arrow's ends read in one script: the live board is drawn again on a scan)
        arrow = js(browser, "(function (a) { return [a.getAttribute('data-from'), "
                            "a.getAttribute('data-to')]; })(document.querySelector("
                            "'#board svg path.move.board'))")
        frm, to = snap["board_move"].split(":")[1].split("-")[:2]
        assert arrow[0] == frm
        assert to.startswith(arrow[1])
        guide = browser.find_element("id", "guide").text
        assert guide.startswith("The board plays %s: move the marble from %s" % (
            snap["board_move"], frm))
        assert browser.find_element("id", "nA").text == "The board"
        assert browser.find_element("id", "nB").text == "You"
        assert js(browser, "document.getElementById('roll').disabled")
        body = browser.find_element("tag name", "body").text
        for state in ("turn_complete", "moving", "goal_pending", "waiting"):
            assert state not in body, state
        browser.save_screenshot(str(tmp_path / ("live-%d.png" % width)))
        ok, wide, small = fits(browser, width)
        assert ok and not wide and not small, (wide, small)

        if width == 360:
            # every page at a phone's width: nothing wider than the screen, buttons
            # big enough for a thumb, the library's actions within reach
            for page in ("library", "play", "board", "replay/table-1/game-0001"):
                browser.get(app.url + page)
                time.sleep(0.3)
                wait_for(lambda: js(browser, "document.readyState == 'complete'"), page)
                if page == "library":
                    wait_for(lambda: browser.find_elements("css selector", "a.button"),
                             "the library's list")
                    for e in browser.find_elements("css selector",
                                                   "table.games button, table.games a"):
                        r = e.rect
                        assert r["x"] >= 0 and r["x"] + r["width"] <= width, e.text
                if page == "board":
                    wait_for(lambda: "room for" in browser.find_element(
                        "id", "facts").text, "the board's facts")
                    facts = browser.find_element("id", "facts").text
                    assert "bytes" not in facts and "moving" not in facts
                    # each value readable: as wide as the card, not a letter a line
                    narrow = js(browser, "Array.from(document.querySelectorAll("
                                         "'#facts dd')).filter(d => d.textContent.trim() "
                                         "&& d.getBoundingClientRect().width < 200)"
                                         ".map(d => d.textContent.slice(0, 30))")
                    assert not narrow, narrow
                if page.startswith("replay"):
                    wait_for(lambda: js(browser, "window.samsaraReplay"), "the replay")
                    links = browser.find_elements("css selector", "#record a")
                    assert links and links[1].get_attribute("href").endswith("#turn-2")
                    links[1].click()
                    assert js(browser, "samsaraReplay.turn") == 2
                    assert js(browser, "location.hash") == "#turn-2"
                    assert browser.find_elements("css selector", "#board svg path.move")
                ok, wide, small = fits(browser, width)
                browser.save_screenshot(str(tmp_path / ("%s-360.png" % page.split("/")[0])))
                assert ok and not wide and not small, (page, wide, small)
        else:
            # the board's move carried out by clicks on the app's own virtual board
            assert browser.find_element("id", "handsnote").is_displayed()
            first = snap["board_move"]
            for hole in (frm, to.split("*")[0]):
                wait_for(lambda: browser.find_elements(
                    "css selector", 'circle.hot[data-hole="%s"]' % hole), "hole " + hole)
                browser.execute_script(
                    "document.querySelector('circle.hot[data-hole=\"' + arguments[0] + "
                    "'\"]').dispatchEvent(new MouseEvent('click'))", hole)
                time.sleep(0.4)
            snap = wait_for(lambda: js(browser, "(samsaraLive.board_move != %r || "
                                                "samsaraLive.state != 'moving') && "
                                                "samsaraLive" % first), "the sub-move taken")
            assert [frm, to.split("*")[0], "move"] in snap["arrows"] \
                or snap["state"] != "moving", snap["arrows"]
            # "What happened" in words: the sub-move said, no notation
            said = wait_for(lambda: "moved a marble from %s" % frm in browser.find_element(
                "id", "words").text and browser.find_element("id", "words").text,
                "the sub-move in What happened")
            assert not re.search(r"\d:[RSG][A-Z]?\d*-", said), said
            # the app's virtual board dies: said at once as a virtual board's, restarted
            browser.get(app.url)
            wait_for(lambda: js(browser, "window.samsaraLive && samsaraLive.connected"),
                     "the board again")
            os.kill(_board_child(app), signal.SIGKILL)
            wait_for(lambda: js(browser, "samsaraLive.restartable"), "the restart offer",
                     timeout=10)
            banner = browser.find_element("id", "banner").text
            assert "The virtual board stopped" in banner and "unplug" not in banner
            click(browser, "restart")
            wait_for(lambda: js(browser, "samsaraLive.connected && !samsaraLive.banner"),
                     "the restarted board")
            assert js(browser, "samsaraLive.vs_board") == "A"   # its game goes on,
            assert js(browser, "samsaraLive.level") == 1        # at the level it began
    finally:
        app.stop()


def test_play_page_shows_the_computers_turn_and_takes_names(browser, tmp_path):
    logs = tmp_path / "logs"
    app = AppProcess(["--no-board"], logs)
    try:
        browser.set_window_size(1280, 900)
        browser.get(app.url + "play")
        wait_for(lambda: browser.find_element("id", "guide").text, "the page")
        # no game yet: nothing to press but the new game
        assert js(browser, "document.getElementById('roll').disabled")
        assert js(browser, "document.getElementById('undo').disabled")
        browser.find_element("id", "nameA").send_keys("Anna")
        click(browser, "newE")
        wait_for(lambda: js(browser, "window.samsaraPlay"), "the game")
        assert browser.find_element("id", "nA").text == "Anna"
        assert browser.find_element("id", "nB").text == "Computer"
        for _ in range(8):
            # roll, then play the first movable marble to its first target until the
            # computer has played
            s = js(browser, "samsaraPlay")
            if s["computer_turn"]:
                break
            if not s["dice"] or s["state"] == "turn_complete":
                # Roll comes on, unless the computer's turn comes first (it thinks
                # longer on a busy computer)
                wait_for(lambda: not js(browser, "document.getElementById('roll')"
                                                 ".disabled") or
                         js(browser, "samsaraPlay.computer_turn"), "Roll", timeout=90)
                if js(browser, "samsaraPlay.computer_turn"):
                    break
                click(browser, "roll")
                wait_for(lambda: js(browser, "samsaraPlay.dice.length"), "dice")
                continue
            if not s["movable"]:
                break
            browser.execute_script("act('click', {hole: arguments[0]})", s["movable"][0])
            t = wait_for(lambda: js(browser, "samsaraPlay.targets.length && "
                                             "samsaraPlay.targets"), "targets")
            browser.execute_script("act('click', {hole: arguments[0]})", t[0][0])
            time.sleep(0.2)
        s = wait_for(lambda: js(browser, "samsaraPlay.computer_turn && samsaraPlay"),
                     "the computer's turn")
        assert browser.find_elements("css selector", "#board svg path.move.board")
        assert browser.find_element("id", "computer").text.startswith(
            "The computer played %s" % s["computer_turn"])
        # its turn is in the record at once, named
        assert s["record"][-1][1] == s["computer_turn"]
        assert "Computer: %s" % s["computer_turn"] in browser.find_element(
            "id", "record").text
    finally:
        app.stop()


@pytest.mark.parametrize("width", [1280, 360])
def test_live_move_list_links_every_turn_and_names_the_players(browser, tmp_path, width):
    # The virtual board plays a game by itself; the players' names tagged in the
    # library for this game replace "Player A"; every turn of the move list is a link
    # (#turn-N) that draws the board after it with its arrows, the link opens the page
    # at that turn, and "Back to the live board" returns to the game as it stands.
    from selenium.common.exceptions import StaleElementReferenceException
    from samsara_host import gametags, logpull, movewords, svg
    from samsara_host.record import GameRecord
    from appbrowser import drawn_marbles, marbles_of
    holes = svg.hole_points()
    logs = tmp_path / "logs"
    app = AppProcess(["--virtual", "--seed", "4", "--pace", "0.2", "--turns", "4"], logs)
    try:
        browser.set_window_size(width, 900)
        browser.get(app.url)
        snap = wait_for(lambda: js(browser, "window.samsaraLive && samsaraLive.connected && "
                                            "samsaraLive.game != null && samsaraLive"),
                        "the board's game")
        assert browser.find_element("id", "nA").text == "Player A"
        # names known from the library (a pull's --names, `logs tag`, the library page)
        path = str(logs / logpull.local_name(snap["hello"]["board"], snap["game"]))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        gametags.update(path, {"PlayerA": "Anna", "PlayerB": "Ben"})
        snap = wait_for(lambda: js(browser, "samsaraLive.record.length >= 3 && "
                                            "samsaraLive.names && samsaraLive"),
                        "three turns and the names", timeout=90)
        assert snap["names"] == ["Anna", "Ben"]
        assert browser.find_element("id", "nA").text == "Anna"
        assert browser.find_element("id", "nB").text == "Ben"
        text = browser.find_element("id", "record").text
        turns = [t for _n, t in snap["record"]]
        assert "1. Anna: %s" % turns[0] in text and "2. Ben: %s" % turns[1] in text
        body = browser.find_element("tag name", "body").text
        assert "Player A" not in body and "Player B" not in body
        # every turn has a link
        # (the list is drawn again when a turn arrives, so it is read in one script)
        hrefs = each(browser, "#record .turnline a", "e.getAttribute('href')")
        assert [h.split("#")[1] for h in hrefs][:3] == ["turn-1", "turn-2", "turn-3"]
        for _ in range(5):      # (the list is drawn again when a turn is added meanwhile)
            try:
                link = browser.find_element("css selector", '#record .turnline[data-n="2"] a')
                browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
                link.click()
                break
            except StaleElementReferenceException:
                time.sleep(0.2)
        view = wait_for(lambda: js(browser, "window.samsaraTurn && samsaraTurn.n == 2 && "
                                            "samsaraTurn.svg && samsaraTurn"), "turn 2")
        assert js(browser, "location.hash") == "#turn-2"
        assert view["notation"] == turns[1] and view["name"] == "Ben"
        assert browser.find_element("id", "turncaption").text.startswith("Turn 2: B (Ben) rolled")
        rec = GameRecord(turns=turns[:2])
        rec.replay()
        assert drawn_marbles(browser, holes) == marbles_of(rec.steps[1].position)
        titles = each(browser, "#board svg path.move title", "e.textContent")
        assert titles == ["%s to %s" % (f, t) for f, t, _d in movewords.arrows(turns[1])]
        assert "here" in js(browser, "document.querySelector("
                                     "'#record .turnline[data-n=\"2\"]').className")
        ok, wide, small = fits(browser, width)
        browser.save_screenshot(str(tmp_path / ("live-turn-%d.png" % width)))
        assert ok and not wide and not small, (wide, small)
        # the turn before, then back to the game as it stands
        click(browser, "turnprev")
        wait_for(lambda: js(browser, "window.samsaraTurn && samsaraTurn.n == 1"), "turn 1")
        assert js(browser, "location.hash") == "#turn-1"
        rec = GameRecord(turns=turns[:1])
        rec.replay()
        assert drawn_marbles(browser, holes) == marbles_of(rec.steps[0].position)
        click(browser, "backlive")
        wait_for(lambda: not js(browser, "window.samsaraTurn") and not browser.find_element(
            "id", "turnview").is_displayed(), "the live board")
        assert js(browser, "location.hash") == ""
        from samsara.rules.geometry import position_name
        track = {position_name(p) for p in range(48)}     # the marbles' fields

        def live_drawn():
            # the drawing is the live snapshot's (asked again while the game moves on)
            occ = set(js(browser, "samsaraLive.occupied")) & track
            return drawn_marbles(browser, holes) == occ
        wait_for(live_drawn, "the live board drawn again")
        # a turn's link opens the page at that turn
        browser.get(app.url + "#turn-3")
        view = wait_for(lambda: js(browser, "window.samsaraTurn && samsaraTurn.svg && "
                                            "samsaraTurn"), "turn 3 from its link")
        assert view["n"] == 3 and view["notation"] == turns[2]
        assert view["name"] == "Anna"
    finally:
        app.stop()
