"""The live page in a repair, at a refusal and at the game's end, in headless Chromium
at 1280 and at 360 px: a repair draws every marble the sensors see where none should
be (and leaves out every missing one) with the holes' names readable over their
rings, and names the holes to fix in words that fit the case (a new game to set up, a
game to put right); a hint before the roll and a second roll are refused saying what
to do instead, as `samsara game` says it; a finished game's headline names the winner
(and `samsara game status` too, with `winner` in its JSON).  Without a browser the
browser tests skip, except under CI=true, where they fail."""
import json
import time

import pytest

from appbrowser import AppProcess, click, drawn_marbles, js, wait_for
from samsara.rules.geometry import position_index
from samsara.rules.position import Position
from samsara_host import cli, svg
from samsara_host.virtual_board import VirtualBoard, find_micropython

try:
    find_micropython()
    HAVE_UPY = True
except FileNotFoundError:
    HAVE_UPY = False

NEAR_END = "o....o........o.o......o/.o...o....o..o..oo.o.... 5-5 B"
"""A game one goal from its end (both players at 5)."""


def _hand(browser, hole, until, what):
    # a click on `hole` of the app's own virtual board (a hand lifts or places a
    # marble there), then wait until the live snapshot shows `until` (JavaScript)
    wait_for(lambda: browser.find_elements("css selector",
                                           'circle.hot[data-hole="%s"]' % hole),
             "hole " + hole)
    browser.execute_script(
        "document.querySelector('circle.hot[data-hole=\"' + arguments[0] + "
        "'\"]').dispatchEvent(new MouseEvent('click'))", hole)
    return wait_for(lambda: js(browser, "(%s) && samsaraLive" % until), what, timeout=15)


def _labels_over_marks(browser, names):
    # The holes whose name is hidden: each hole's name (text.label) must be painted
    # after (over) every circle drawn at that hole (its ring, its marble).
    return js(browser, """(function (names) {
        const all = Array.from(document.querySelectorAll('#board svg *'))
            .filter(e => !e.classList.contains('hot'));
        const hidden = [];
        for (const n of names) {
            const label = all.findIndex(e => e.tagName === 'text' &&
                e.classList.contains('label') && e.textContent === n);
            if (label < 0) { hidden.push(n + ' (no label)'); continue; }
            const x = parseFloat(all[label].getAttribute('x'));
            const after = all.slice(label + 1).filter(e => e.tagName === 'circle' &&
                Math.abs(parseFloat(e.getAttribute('cx')) - x) < 0.01);
            if (after.length) hidden.push(n);
        }
        return hidden;
    })(%s)""" % json.dumps(names))


@pytest.mark.parametrize("width", [1280, 360])
def test_repair_draws_every_marble_the_sensors_see_and_names_what_to_fix(browser, tmp_path,
                                                                        width):
    holes = svg.hole_points()
    app = AppProcess(["--virtual", "--idle"], tmp_path / "logs")
    try:
        browser.set_window_size(width, 900)
        browser.get(app.url)
        wait_for(lambda: js(browser, "window.samsaraLive && samsaraLive.connected && "
                                     "samsaraLive.state == 'waiting'"), "the board")
        start = set(js(browser, "samsaraLive.occupied"))
        # before the first roll of a new game: S6's marble moved to S11, then a hand
        # puts a marble on S6 and on S10, takes S10's off again, puts one on S15
        _hand(browser, "S6", "samsaraLive.lifted.indexOf('S6') >= 0", "S6 lifted")
        _hand(browser, "S11", "samsaraLive.state == 'repair'", "the repair")
        _hand(browser, "S6", "samsaraLive.missing.indexOf('S6') < 0", "S6 back")
        _hand(browser, "S10", "samsaraLive.extra.indexOf('S10') >= 0", "S10 seen")
        _hand(browser, "S10", "samsaraLive.extra.indexOf('S10') < 0", "S10 off")
        snap = _hand(browser, "S15", "samsaraLive.extra.indexOf('S15') >= 0", "S15 seen")
        assert snap["state"] == "repair"
        assert snap["missing"] == [] and snap["extra"] == ["S11", "S15"]
        track = {n for n in start if position_index(n) < 48}    # the marbles' holes
        drawn = drawn_marbles(browser, holes)
        assert drawn == track | {"S11", "S15"}, sorted(drawn)
        # each extra marble ringed red, its hole's name drawn over ring and marble
        assert snap["svg"].count('stroke="#ff2020"') == 2
        assert _labels_over_marks(browser, ["S11", "S15"]) == []
        guide = browser.find_element("id", "guide").text
        # a new game (no turn played yet): its start position to set up
        assert guide == ("Set up the start position for the new game: take the marbles "
                         "off S11, S15"), guide
        # put right: the game goes on; a hint before the roll and a second roll are
        # refused saying what to do instead
        _hand(browser, "S11", "samsaraLive.extra.indexOf('S11') < 0", "S11 off")
        _hand(browser, "S15", "samsaraLive.state == 'waiting'", "the board right again")
        browser.execute_script("act('hint')")
        wait_for(lambda: browser.find_element("id", "said").text ==
                 "Roll first: a hint needs the dice.", "the hint refused in words")
        click(browser, "roll")
        snap = wait_for(lambda: js(browser, "samsaraLive.state == 'moving' && "
                                            "samsaraLive.dice.length == 2 && samsaraLive"),
                        "the roll")
        browser.execute_script("act('roll')")
        wait_for(lambda: browser.find_element("id", "said").text.startswith(
            "You have already rolled: move your marbles ("), "the second roll refused")
        # in the middle of the game: a sub-move played (the first marble of the mover
        # that can move, to its first lit hole), then a marble put on R20 where none
        # belongs: a repair naming the hole, never "set up"
        played = None
        for hole in snap["occupied"]:
            if position_index(hole) >= 48:
                continue
            s = _hand(browser, hole, "samsaraLive.lifted.indexOf('%s') >= 0" % hole,
                      hole + " lifted")
            if s["targets"]:
                played = (hole, s["targets"][0][0])
                _hand(browser, played[1], "samsaraLive.lifted.length == 0 && "
                      "samsaraLive.occupied.indexOf('%s') >= 0" % played[1], "the sub-move")
                break
            _hand(browser, hole, "samsaraLive.lifted.length == 0", hole + " put back")
        assert played, "no marble of the mover can move"
        _hand(browser, "R20", "samsaraLive.state == 'repair'", "the repair")
        guide = browser.find_element("id", "guide").text
        assert guide.startswith("Put the board right (") and "set up" not in guide.lower()
        assert guide.endswith(": take the marble off R20"), guide
        assert "R20" in drawn_marbles(browser, holes)
        # a new game over this half-played board: set up its start position
        click(browser, "newgame") if not js(browser, "document.getElementById("
                                                     "'newgame').open") else None
        browser.execute_script("document.getElementById('opponent').value = ''")
        click(browser, "start")
        wait_for(lambda: js(browser, "samsaraLive.state == 'repair' && "
                                     "samsaraLive.dice.length == 0"), "the new game")
        guide = wait_for(lambda: browser.find_element("id", "guide").text.startswith(
            "Set up the start position for the new game: ") and browser.find_element(
            "id", "guide").text, "the set-up words")
        assert "put a marble on %s" % played[0] in guide, guide
        assert "R20" in guide and played[1] in guide
        assert "the last one is over" not in guide
        browser.save_screenshot(str(tmp_path / ("repair-%d.png" % width)))
    finally:
        app.stop()


@pytest.mark.skipif(not HAVE_UPY, reason="micropython Unix port not installed")
def test_a_finished_game_names_its_winner_in_status_and_the_app(browser, tmp_path, capsys):
    # A game from one goal before its end, played on a virtual board by a seeded
    # player, the players named: `game status` says who won, by how much and in how
    # many turns, its JSON has the winner; the app, started after the end (it saw no
    # game_over event), says the same in its headline.
    from vbplayer import Player, frame_hex
    from samsara.rules.game import Game
    from samsara.rules.position import Position
    from samsara_host import boardlink
    vb = VirtualBoard(folder=str(tmp_path / "vb"), board_id="table-4")
    app = None
    try:
        vb.start()
        vb.wait_ready(30)
        pos = Position.parse(NEAR_END)
        state = boardlink.State(vb.port)
        try:
            state.hello()
            vb.feed({"frame": frame_hex(pos)})
            time.sleep(0.3)
            state.client.request("new_game", position=pos.format(), name_a="Ana",
                                 name_b="Ben")
            game = Game(pos)
            player = Player(vb, state.client, seed=2)
            while not game.over() and len(game.record) < 200:
                player.turn(game)
        finally:
            state.close()
        winner, how, _pts = game.result
        assert winner is not None, "the seeded game ends in a draw: pick another seed"
        side = "AB"[winner]
        name = ("Ana", "Ben")[winner]
        score = "%d-%d" % ((game.pos.a, game.pos.b) if winner == 0 else
                           (game.pos.b, game.pos.a))
        n = len(game.record)
        assert cli.main(["game", "status", "--json"]) == 0
        s = json.loads(capsys.readouterr().out)
        assert s["winner"] == side and s["state"] == "game_over"
        words = "Game over: %s (%s) won %s in %d turn%s" % (name, side, score, n,
                                                            "" if n == 1 else "s")
        assert s["headline"] == words + ": start a new game"
        assert cli.main(["game", "status"]) == 0
        assert capsys.readouterr().out.startswith(words + ": start a new game.\n")
        # the app begins after the end: its headline names the winner as well
        app = AppProcess(["--board", vb.port], tmp_path / "logs")
        for width in (1280, 360):
            browser.set_window_size(width, 900)
            browser.get(app.url)
            wait_for(lambda: js(browser, "window.samsaraLive && samsaraLive.connected && "
                                         "samsaraLive.state == 'game_over'"), "the board")
            guide = wait_for(lambda: browser.find_element("id", "guide").text, "words")
            assert guide == words + ": start a new game", guide
            assert browser.find_element("id", "whose").text == words
    finally:
        if app is not None:
            app.stop()
        vb.stop()


def _goal_turn(position, d1, d2):
    # (notation, moves, goal): the first legal turn of `position` with dice d1, d2
    # that scores a goal, else the first legal turn (goal False); None when none is
    from samsara.rules.game import Game
    from samsara.rules.notation import read_turn
    p = Position.parse(position)
    game = Game(p)
    legal = game.legal_turns(d1, d2)
    first = None
    for t in legal:
        _dice, moves, _key = read_turn(p.r, p.s, p.a, p.b, p.mover, t[0], game.og)
        if first is None:
            first = (t[0], moves, False)
        if any((m[6], m[7]) != (p.a, p.b) for m in moves):
            return t[0], moves, True
    return first


def test_a_goal_is_played_by_clicks_on_the_apps_own_board(browser, tmp_path):
    # A game for two named players on the app's own virtual board, every marble moved
    # by clicks on the live board (no feed line written by the test): the first turn
    # that can score does, the marble is lifted out of the goal by a click on it and
    # put on its reinsertion field, the scoring piece moved on by clicks, and the
    # score counts the goal.  The goal's headline names the scorer and the score by
    # names.
    from samsara.rules.geometry import position_name
    from samsara_host.sim.player import hand_moves
    app = AppProcess(["--virtual", "--idle"], tmp_path / "logs")
    try:
        browser.set_window_size(1280, 900)
        browser.get(app.url)
        wait_for(lambda: js(browser, "window.samsaraLive && samsaraLive.connected && "
                                     "samsaraLive.state == 'waiting'"), "the board")
        click(browser, "newgame")
        browser.execute_script("document.getElementById('opponent').value = ''")
        # a name of spaces only is refused, as `samsara game new --names` refuses it
        browser.find_element("id", "nameA").send_keys("   ")
        click(browser, "start")
        wait_for(lambda: "player A's name is empty" in browser.find_element(
            "id", "said").text, "the blank name refused")
        browser.find_element("id", "nameA").clear()
        browser.find_element("id", "nameA").send_keys("Anna")
        browser.find_element("id", "nameB").send_keys("Ben")
        click(browser, "start")
        wait_for(lambda: js(browser, "samsaraLive.names && samsaraLive.state == 'waiting'"
                                     " && !document.getElementById('roll').disabled"),
                 "the new game")
        scored = None
        for turn in range(30):
            wait_for(lambda: not js(browser, "document.getElementById('roll').disabled"),
                     "Roll")
            click(browser, "roll")
            snap = wait_for(lambda: js(browser, "samsaraLive.dice.length == 2 && "
                                                "samsaraLive.state == 'moving' && "
                                                "samsaraLive"), "the roll")
            if turn == 0:
                # a hint: the words under the buttons while the board thinks go once
                # the hint is drawn and named
                wait_for(lambda: not js(browser, "document.getElementById('hint')"
                                                 ".disabled"), "Hint")
                click(browser, "hint")
                wait_for(lambda: js(browser, "samsaraLive.hint"), "the hint")
                wait_for(lambda: browser.find_element("id", "said").text == "",
                         "the board's thinking words gone")
                assert browser.find_element("id", "boardsays").text.startswith("Hint: ")
            picked = _goal_turn(snap["position"], *snap["dice"])
            assert picked, "no turn with %s: pick the first goal otherwise" % snap["dice"]
            _note, moves, goal = picked
            p = Position.parse(snap["position"])
            a, b = p.a, p.b
            for m in moves:
                steps = hand_moves(m, a, b)
                for i, (frm, to) in enumerate(steps):
                    frm, to = position_name(frm), position_name(to)
                    if i == 1:       # the marble in the goal: the headline says so
                        guide = browser.find_element("id", "guide").text
                        side = "AB"[p.mover]
                        name = ("Anna", "Ben")[p.mover]
                        score = "Anna %d, Ben %d" % (m[6], m[7])
                        assert guide == ("Goal! %s scores (%s). Take the marble out of "
                                         "%s and put it on %s" % (name, score, frm, to)), \
                            (guide, side)
                    _hand(browser, frm, "samsaraLive.lifted.indexOf('%s') >= 0" % frm,
                          frm + " lifted")
                    _hand(browser, to, "samsaraLive.lifted.length == 0", to + " placed")
                a, b = m[6], m[7]
                if (a, b) != (p.a, p.b):
                    scored = [a, b]
                    break
            if scored:
                break
        assert scored, "no goal in 30 turns"
        snap = wait_for(lambda: js(browser, "samsaraLive.score[0] + samsaraLive.score[1]"
                                            " == 1 && samsaraLive"), "the score")
        assert snap["score"] == scored
        assert snap["state"] != "repair", snap["guidance"]
        assert not snap["guidance"].startswith("Goal!"), snap["guidance"]
        # a marble put into GS where none belongs: the repair names it, and a click
        # on GS takes it off again
        _hand(browser, "GS", "samsaraLive.extra.indexOf('GS') >= 0", "GS seen")
        assert "take the marble off GS" in browser.find_element("id", "guide").text
        snap = _hand(browser, "GS", "samsaraLive.extra.indexOf('GS') < 0 && "
                     "samsaraLive.state != 'repair'", "GS off")
        assert snap["missing"] == [] and snap["extra"] == []
    finally:
        app.stop()
