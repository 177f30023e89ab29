"""The live page's hands on the app's own Samas and Schaska virtual board, in headless
Chromium: `samsara app --game G --virtual --idle` starts a board that nobody plays, and
two players at one screen play it by clicks only, as with their hands at the board.
Samas: each looks behind the screen, puts stones or the joker into the tray, presses
Ready; the page tells neither tray in its headline, the board reveals, the Sama-stone
is moved hollow to hollow and the trays emptied, round after round (a stone put on a
wrong hollow is named to put right).  Schaska: figures entered, lifted and put down,
turn after turn (a figure lifted shows where it goes), the players named by the app's
--names and then on the page.  Without a browser these tests
skip, except under CI=true, where they fail."""
import pytest

from appbrowser import AppProcess, click, each, js, wait_for
from test_app_board_control import fits
from test_app_cmd import HAVE_UPY
from schaska.rules.game import Game
from schaska.rules.layout import DEFAULT

pytestmark = pytest.mark.skipif(not HAVE_UPY, reason="micropython Unix port not installed")

LIVE = "window.samsaraLive"


def _live(browser, cond, what, timeout=40.0):
    return wait_for(lambda: js(browser, "%s && (%s) && %s" % (LIVE, cond, LIVE)), what,
                    timeout=timeout)


def _place(browser, attr, value):
    # the page's hand: a click on what is drawn on top at that place (a stone over its
    # hole), as a finger would; waited for while the board is drawn without its hands
    # (the app's link to the board lost for a moment under load and taken up again)
    from selenium.common.exceptions import StaleElementReferenceException
    for _ in range(20):
        el = wait_for(lambda: browser.execute_script(
            "const els = Array.from(document.querySelectorAll(arguments[0]))"
            ".filter(e => getComputedStyle(e).pointerEvents !== 'none');"
            "return els.length ? els[els.length - 1] : null;",
            '#board [%s="%s"]' % (attr, value)), "something drawn at %s=%s" % (attr, value))
        try:
            el.click()
            return
        except StaleElementReferenceException:
            continue            # drawn again between finding and clicking: find again
    raise AssertionError("the page kept drawing %s=%s again" % (attr, value))


def _text(browser, element_id):
    return browser.find_element("id", element_id).text


def _ready(browser, side):
    # A's or B's Ready, pressed again while the board refuses it (the tray not settled
    # yet: a hand at the board presses again too).  A refusal stays in the snapshot
    # until the board's next word, so a press taken after one may show as ready only
    # once the button is already off: ready counts as well as the button coming on (a
    # press too many is harmless: pressed again, Ready stays).
    for _ in range(100):
        wait_for(lambda: browser.find_element("id", "ready" + side).is_enabled()
                 or js(browser, "%s.moving || %s.ready.%s" % (LIVE, LIVE, side)),
                 "%s's Ready button" % side)
        if js(browser, "%s.moving || %s.ready.%s" % (LIVE, LIVE, side)):
            return
        click(browser, "ready" + side)
        s = _live(browser, "samsaraLive.ready.%s || samsaraLive.moving || "
                           "samsaraLive.refused" % side, "%s's Ready taken" % side)
        if s["ready"][side] or s["moving"]:
            return
    raise AssertionError("the board never took %s's Ready: %s" % (side, s["refused"]))


def _choose(browser, side, holes):
    # the player looks behind the screen, puts the stones (or the joker) in the tray
    # and presses Ready.  The screens are waited for: while the app's link to the board
    # is lost for a moment under load (and taken up again), the board is drawn without
    # its trays.
    _screen_up(browser, side)
    click(browser, "look" + side)
    assert side not in _screens(browser)
    for k in holes:
        _place(browser, "data-place", side + k)
    want = sorted(holes)
    _live(browser, "JSON.stringify(samsaraLive.sensed.trays.%s.slice().sort()) === '%s'"
          % (side, str(want).replace("'", '"').replace(" ", "")), "%s's tray" % side)
    # the other player's tray stays behind its screen, and no headline tells a tray
    other = "B" if side == "A" else "A"
    _screen_up(browser, other)
    _ready(browser, side)
    wait_for(lambda: side in _screens(browser) or js(browser, "%s.moving" % LIVE),
             "%s's screen back up" % side)        # Ready put the screen back up


def _screen_up(browser, side):
    # waits for `side`'s screen; when it does not come, the error says what the page
    # showed then (the snapshot's words and state, the guide, the screens drawn)
    try:
        wait_for(lambda: side in _screens(browser), "%s's screen" % side)
    except AssertionError as e:
        state = js(browser, "JSON.stringify({live: window.samsaraLive ? Object.fromEntries("
                   "['banner', 'busy', 'note', 'moving', 'steps', 'ready', 'refused'].map("
                   "k => [k, samsaraLive[k]])) : null, hands: !!(window.samsaraLive && "
                   "samsaraLive.hands), guide: document.getElementById('guide').textContent})")
        raise AssertionError("%s; the page then: %s, screens drawn: %s"
                             % (e, state, _screens(browser))) from None


def _screens(browser):
    # the sides whose tray is behind its screen now
    # (one script: the live board is drawn again as the game moves on)
    return sorted(each(browser, "#board g.screen", "e.getAttribute('data-side')"))


def _round(browser, k, a, b, moves):
    """Round k: A's and B's tray holes; moves: [(from, to)] of the Sama-stones after
    the reveal.  Returns the snapshot once the round is cleared."""
    s = _live(browser, "samsaraLive.steps === %d && !samsaraLive.moving" % (k - 1),
              "round %d to choose" % k)
    assert _text(browser, "guide").startswith("Round %d: each player puts" % k)
    _choose(browser, "A", a)
    guide = _text(browser, "guide")
    assert guide == ("Round %d: Player A is ready; Player B, choose behind your screen and "
                     "press Ready" % k), guide
    _choose(browser, "B", b)
    s = _live(browser, "samsaraLive.moving && samsaraLive.steps === %d" % k,
              "round %d revealed" % k)
    guide = _text(browser, "guide")
    assert guide.startswith("Round %d revealed: Player A chose " % k), guide
    # revealed: both trays shown to be emptied
    assert not browser.find_elements("css selector", "#board g.screen")
    for frm, to in moves:
        _place(browser, "data-place", "H%d" % frm)
        _place(browser, "data-place", "H%d" % to)
    for side, holes in (("A", a), ("B", b)):
        for h in holes:
            _place(browser, "data-place", side + h)
    return _live(browser, "!samsaraLive.moving && samsaraLive.steps === %d" % k,
                 "round %d cleared" % k)


def test_two_players_play_samas_rounds_by_clicks_on_the_apps_own_board(browser, tmp_path):
    app = AppProcess(["--game", "samas", "--virtual", "--idle"], tmp_path / "logs")
    try:
        browser.set_window_size(1280, 1000)
        browser.get(app.url)
        s = _live(browser, "samsaraLive.kind === 'samas' && samsaraLive.hands && "
                           "samsaraLive.sensed", "the app's own Samas board")
        assert browser.find_element("id", "ghands").is_displayed()
        assert "look behind your screen" in _text(browser, "ghandsnote")
        wait_for(lambda: _screens(browser) == ["A", "B"], "both screens")
        # one screen open at a time: a look behind B's closes A's
        click(browser, "lookA")
        wait_for(lambda: _screens(browser) == ["B"], "B's screen alone")
        click(browser, "lookB")
        wait_for(lambda: _screens(browser) == ["A"], "A's screen alone")
        click(browser, "lookB")
        wait_for(lambda: _screens(browser) == ["A", "B"], "both screens again")
        # round 1: A 2 stones, B a joker: B wins the reveal and moves 8 to 7
        s = _round(browser, 1, ["1", "2"], ["J"], [(8, 7)])
        assert s["record"][0][1].startswith("Player A chose 2 stones, Player B a joker: B wins")
        assert s["play"]["position"] == {"A": {"hole": 2, "stones": 11, "jokers": 2},
                                         "B": {"hole": 7, "stones": 13, "jokers": 1}}
        drawn = sorted(each(browser, "#board circle.sama", "[e.dataset.player, +e.dataset.hole]"))
        assert drawn == [["A", 2], ["B", 7]]
        # round 2: A 3 stones, B none: A wins and moves 2 to 3; the stone put on a wrong
        # hollow first is named to put right, then moved on
        _live(browser, "!samsaraLive.moving", "round 2")
        _choose(browser, "A", ["1", "2", "3"])
        _ready(browser, "B")                          # (B's tray empty: no stones)
        _live(browser, "samsaraLive.moving && samsaraLive.steps === 2", "round 2 revealed")
        assert "Player A chose 3 stones, Player B no stones: A wins" in _text(browser, "guide")
        _place(browser, "data-place", "H2")
        _place(browser, "data-place", "H5")
        wait_for(lambda: _text(browser, "gshows").startswith(
            "Put the board right: take a Sama-stone off hollow 5"), "the wrong hollow named")
        _place(browser, "data-place", "H5")
        _place(browser, "data-place", "H3")
        for h in ("1", "2", "3"):
            _place(browser, "data-place", "A" + h)
        s = _live(browser, "!samsaraLive.moving && samsaraLive.steps === 2", "round 2 cleared")
        assert s["play"]["position"]["A"] == {"hole": 3, "stones": 8, "jokers": 2}
        assert not browser.find_element("id", "gshows").is_displayed()
        # round 3: A a joker, B 1 stone: the joker wins, A moves 3 to 4
        s = _round(browser, 3, ["J"], ["1"], [(3, 4)])
        assert s["play"]["position"]["A"] == {"hole": 4, "stones": 8, "jokers": 1}
        assert [k for k, _w in s["record"]] == [1, 2, 3]
        assert len(browser.find_elements("css selector", "#record .turnline")) == 3
        # on a phone the hands fit too: nothing wider than the screen, buttons for a thumb
        browser.set_window_size(360, 900)
        wait_for(lambda: js(browser, "window.innerWidth <= 360"), "a phone's width")
        assert browser.find_element("id", "readyA").is_displayed()
        ok, wide, small = fits(browser, 360)
        assert ok and not wide and not small, (wide, small)
    finally:
        app.stop()


def test_two_players_play_schaska_turns_by_clicks_on_the_apps_own_board(browser, tmp_path):
    app = AppProcess(["--game", "schaska", "--virtual", "--idle", "--names", "Ana", "Ben"],
                     tmp_path / "logs")
    try:
        browser.set_window_size(1280, 1000)
        browser.get(app.url)
        _live(browser, "samsaraLive.kind === 'schaska' && samsaraLive.hands && "
                       "samsaraLive.sensed", "the app's own Schaska board")
        assert browser.find_element("id", "ghands").is_displayed()
        assert not browser.find_element("id", "greadyrow").is_displayed()
        # the names the board was given (--names), then the players' own on the page
        assert _text(browser, "gnA") == "Ana (A)" and _text(browser, "gnB") == "Ben (B)"
        assert _text(browser, "guide").startswith("Ana to move")
        browser.find_element("css selector", "#gnames summary").click()
        browser.find_element("id", "gnameA").send_keys("Anna")
        browser.find_element("id", "gnameB").send_keys("Benno")
        click(browser, "gnamesave")
        wait_for(lambda: _text(browser, "gnA") == "Anna (A)", "the new name on the page")
        assert _text(browser, "gnamesaid") == "Named."
        assert _text(browser, "guide").startswith("Anna to move")
        n = len(DEFAULT)
        g = Game(DEFAULT)
        lifted_seen = False
        for k in range(1, 9):
            frm, to = g.legal()[0]
            if 1 <= frm <= n:
                _place(browser, "data-field", frm)
                if 1 <= to <= n:
                    # lifted: drawn dashed, and where it goes said
                    wait_for(lambda: browser.find_elements(
                        "css selector", '#board circle.figure.lifted[data-field="%d"]' % frm),
                        "the lifted figure on %d" % frm)
                    wait_for(lambda: _text(browser, "gshows").endswith(
                        "from field %d: put it on field %d" % (frm, to)), "where it goes")
                    lifted_seen = True
            if 1 <= to <= n:
                _place(browser, "data-field", to)
            g.play((frm, to))
            s = _live(browser, "samsaraLive.steps === %d" % k, "turn %d" % k)
            assert s["play"]["position"] == g.state.to_obj()
            drawn = sorted(each(browser, "#board circle.figure",
                                "e.dataset.player + e.dataset.field"))
            want = g.state.to_obj()
            assert drawn == sorted(["A%d" % f for f in want["A"]["fields"]] +
                                   ["B%d" % f for f in want["B"]["fields"]])
        assert lifted_seen
        assert _text(browser, "guide").startswith(
            "%s to move" % ("Anna", "Benno")[g.state.mover])
        assert _text(browser, "record").startswith("1. Anna enters on field 1")
        assert len(browser.find_elements("css selector", "#record .turnline")) == 8
    finally:
        app.stop()
