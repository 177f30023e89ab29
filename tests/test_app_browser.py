"""The companion app in a real browser (docs/app.md): Debian's headless Chromium
driven by Selenium.  The live page follows a game on the virtual board turn by turn
(the marbles drawn after each turn against the position the rules engine gives for
the record), the library pulls and lists it, the replay steps through it, and a game
is played to its end by clicking in the play page.  Screenshots go to the test's tmp
folder.  Without a browser these tests skip, except under CI=true, where they fail.
"""

from appbrowser import AppProcess, drawn_marbles, js, marbles_of, wait_for
from samsara_host import svg
from samsara_host.record import GameRecord

TURNS = 3
NEAR_END = "o....o........o.o......o/.o...o....o..o..oo.o.... 5-5 B"


def test_live_library_replay_on_the_virtual_board(browser, tmp_path):
    holes = svg.hole_points()
    logs = tmp_path / "logs"
    app = AppProcess(["--virtual", "--seed", "2", "--pace", "0.25", "--turns", str(TURNS + 1)],
                     logs)
    try:
        browser.get(app.url)
        assert browser.title == "Samsara: live board"
        # Move by move: after each turn the drawn marbles are the record's position.
        for k in range(1, TURNS + 1):
            snap = wait_for(lambda: js(browser, "window.samsaraLive && samsaraLive.record.length"
                                                " >= %d && samsaraLive.lifted.length == 0 &&"
                                                " samsaraLive.state == 'turn_complete' &&"
                                                " samsaraLive" % k), "turn %d" % k)
            turns = [t for _n, t in snap["record"]]
            assert len(turns) == k
            rec = GameRecord(turns=turns)
            rec.replay()
            want = marbles_of(rec.steps[-1].position)
            drawn = drawn_marbles(browser, holes)
            # the page may already show the next roll's first lift: compare the snapshot
            # we read with the drawing only while no marble is in the air
            if js(browser, "samsaraLive.lifted.length") == 0 and \
                    js(browser, "samsaraLive.record.length") == k:
                assert drawn == want, "turn %d: drawn %s, the rules say %s" % (
                    k, sorted(drawn), sorted(want))
            assert snap["position"].split(" ")[0] == rec.steps[-1].position.format().split(" ")[0]
            text = browser.find_element("id", "record").text
            assert "%d. Player %s: %s" % (k, "AB"[(k - 1) % 2], turns[-1]) in text
        assert browser.find_element("id", "guide").text
        browser.save_screenshot(str(tmp_path / "live.png"))
        # Reload: the page comes back with the record.  One more turn: the board's log
        # holds a turn once the next roll commits it, so TURNS are in it then.
        browser.refresh()
        wait_for(lambda: js(browser, "window.samsaraLive && samsaraLive.record.length") ==
                 TURNS + 1, "the record after a reload")

        # Library: pull the (still running) game with one click and list it.
        browser.get(app.url + "library")
        pull = wait_for(lambda: browser.find_element("id", "pull").is_enabled() and
                        browser.find_element("id", "pull"), "the pull button")
        pull.click()
        wait_for(lambda: "Got 1 game" in browser.find_element("id", "pullmsg").text,
                 "the pull")
        rows = wait_for(lambda: browser.find_elements("css selector", "table.games tbody tr"),
                        "the game's row")
        assert len(rows) == 1
        assert "Game 0001" in rows[0].text or "Game 1" in rows[0].text
        assert "%d turns" % TURNS in rows[0].text
        browser.save_screenshot(str(tmp_path / "library.png"))

        # Replay: step with the buttons and the keys.
        rows[0].find_element("link text", "Replay").click()
        wait_for(lambda: js(browser, "window.samsaraReplay && samsaraReplay.turns") == TURNS,
                 "the replay")
        board = browser.find_element("tag name", "body")
        for k in range(1, TURNS + 1):
            if k % 2:
                browser.find_element("id", "next").click()
            else:
                board.send_keys("\ue014")   # the right arrow key
            wait_for(lambda: js(browser, "samsaraReplay.turn") == k, "replay turn %d" % k)
            rec = GameRecord(turns=turns[:k])
            rec.replay()
            assert drawn_marbles(browser, holes) == marbles_of(rec.steps[-1].position)
            assert browser.find_element("id", "caption").text.startswith("Turn %d:" % k)
        assert browser.find_element("id", "next").get_attribute("disabled")
        assert browser.find_elements("css selector", "#chart svg polyline")
        # The engine's analysis fills in beside the turn: the turn played, the best.
        wait_for(lambda: js(browser, "window.samsaraAnalysis") == "done", "the analysis",
                 timeout=180)
        words = browser.find_element("id", "analysis").text
        assert "Played: %s" % turns[TURNS - 1] in words
        assert "The engine's best" in words or "best turn too" in words
        assert "Luck of the roll" in words
        assert browser.find_elements("css selector", "#chart svg polyline.winprob")
        browser.save_screenshot(str(tmp_path / "replay.png"))
    finally:
        app.stop()


def test_play_a_game_to_the_end_by_clicking(browser, tmp_path):
    logs = tmp_path / "logs"
    app = AppProcess(["--no-board"], logs)
    try:
        browser.get(app.url)
        wait_for(lambda: "No board" in browser.find_element("id", "banner").text,
                 "the no-board banner")
        browser.get(app.url + "play?seed=2&position=" + NEAR_END.replace(" ", "%20"))
        browser.find_element("id", "new2").click()
        wait_for(lambda: js(browser, "window.samsaraPlay"), "the new game")
        for _ in range(80):
            st = js(browser, "samsaraPlay")
            if st["over"]:
                break
            if not browser.find_element("id", "roll").get_attribute("disabled"):
                browser.find_element("id", "roll").click()
            else:
                hole = st["movable"][0]
                browser.find_element("css selector", '[data-hole="%s"]' % hole).click()
                st = wait_for(lambda: js(browser, "samsaraPlay.lifted") and js(browser, "samsaraPlay"),
                              "the lifted marble")
                names = [n for n, _c in st["targets"]]
                goal = [n for n in names if n in ("GS", "GR")]
                browser.find_element("css selector", '[data-hole="%s"]'
                                     % (goal[0] if goal else names[-1])).click()
            wait_for(lambda: js(browser, "samsaraPlay") != st, "the page's answer")
            if _ == 2:
                browser.save_screenshot(str(tmp_path / "play.png"))
        st = js(browser, "samsaraPlay")
        assert st["over"].startswith("Game over")
        assert "saved" in browser.find_element("id", "guide").text
        # The finished game is in the library, like a pulled one.
        browser.get(app.url + "library")
        rows = wait_for(lambda: browser.find_elements("css selector", "table.games tbody tr"),
                        "the played game")
        assert "won" in rows[0].text
        path = logs / (st["saved"] + ".log")
        rec = GameRecord.__new__(GameRecord)
        from samsara_host import record
        rec = record.load(str(path))
        assert rec.result is not None and len(rec.turns) == len(st["record"])
        browser.get(app.url + "board")
        wait_for(lambda: "Connected" in browser.find_element("id", "facts").text, "board page")
        # No board: nothing to deploy to; the LED settings and where they are set.
        wait_for(lambda: "290 mA" in browser.find_element("id", "leds").text, "LED budget")
        assert "board_config" in browser.find_element("id", "ledwhere").text
        assert not browser.find_element("id", "deploy").is_enabled()
        browser.save_screenshot(str(tmp_path / "board.png"))
        browser.get(app.url + "replay/nosuch/game-0042")
        assert "no game nosuch/game-0042" in browser.find_element("id", "words").text
    finally:
        app.stop()
