"""The live page's hands on the app's own Samas and Schaska virtual board
(app/gamehands.py, POST /api/live/hand): a click turns into what a hand does at the
board (a sensor line of the virtual board's feed, or a button), the board checks it as
it checks a person's hands, and the page gets what the sensors read (each tray for its
player's screen, never in the headline) and what is to put right.  A round of Samas
and turns of Schaska are played through the API to a reveal, a move and a refusal."""
import time

import pytest

from apphttp import get_json as _get, post_json as _post
from polling import until

from samas.places import place_index
from samsara.rules.geometry import position_name
from samsara_host.app import gamehands
from samsara_host.app.boardwatch import BoardWatch
from samsara_host.app.control import BadRequest
from samsara_host.app.livegames import GameLiveModel
from samsara_host.app.server import AppServer
from samsara_host.virtual_board import VirtualBoard
from schaska.rules.actions import start_of
from schaska.rules.game import Game
from schaska.rules.layout import DEFAULT
from test_app_cmd import HAVE_UPY
from testports import free_port


def _pos(name):
    return position_name(place_index(name))


# -- a click in feed lines -------------------------------------------------------------

def test_a_click_on_a_samas_place_puts_a_piece_there_or_lifts_it():
    sensed = {place_index("H2"), place_index("H8"), place_index("A1")}
    assert gamehands.hand_lines("samas", {"place": "A2"}, sensed) == (
        [{"pos": _pos("A2"), "on": True}], "")
    assert gamehands.hand_lines("samas", {"place": "A1"}, sensed) == (
        [{"pos": _pos("A1"), "on": False}], "")
    assert gamehands.hand_lines("samas", {"place": "H8"}, sensed)[0] == [
        {"pos": _pos("H8"), "on": False}]
    assert gamehands.hand_lines("samas", {"place": "BJ"}, sensed)[0] == [
        {"pos": _pos("BJ"), "on": True}]
    # A's Ready is the driver's "roll" button, B's its "undo"; a long press too
    assert gamehands.hand_lines("samas", {"button": "A"}, sensed)[0] == [
        {"button": "roll", "long": False}]
    assert gamehands.hand_lines("schaska", {"button": "B", "long": True}, set())[0] == [
        {"button": "undo", "long": True}]


def test_a_click_on_the_hollow_both_sama_stones_share_lifts_one_and_no_sensor_changes():
    sensed = {place_index("H5")}
    lines, words = gamehands.hand_lines("samas", {"place": "H5"}, sensed, {"A": 5, "B": 5})
    assert lines == [] and words.startswith("Both Sama-stones stand on hollow 5")
    # the next click puts it down: the sensor of the empty hollow goes on
    assert gamehands.hand_lines("samas", {"place": "H6"}, sensed, {"A": 5, "B": 5})[0] == [
        {"pos": _pos("H6"), "on": True}]
    # a hollow holding one stone is lifted as any other
    assert gamehands.hand_lines("samas", {"place": "H5"}, {place_index("H5"),
                                place_index("H6")}, {"A": 5, "B": 5})[0] == [
        {"pos": _pos("H5"), "on": False}]


def test_a_sama_stone_in_the_hand_is_put_on_the_hollow_where_the_other_stands():
    # a revealed round: A goes from 6 to 7, where B stands (the hollows before the move)
    standing, memory = {"A": 6, "B": 7}, {}
    sensed = {place_index("H6"), place_index("H7")}
    assert gamehands.hand_lines("samas", {"place": "H6"}, sensed, standing, memory)[0] == [
        {"pos": _pos("H6"), "on": False}]
    sensed = {place_index("H7")}
    # A's stone in the hand onto hollow 7: B's is not lifted, the sensor stays on
    lines, words = gamehands.hand_lines("samas", {"place": "H7"}, sensed, standing, memory)
    assert lines == [] and words.startswith(
        "The Sama-stone in your hand is put on hollow 7: both Sama-stones stand there")
    # a click again lifts one of the two (nothing sensed changes), the next puts it down
    lines, words = gamehands.hand_lines("samas", {"place": "H7"}, sensed, standing, memory)
    assert lines == [] and words.startswith("Both Sama-stones stand on hollow 7: one is in")
    lines, words = gamehands.hand_lines("samas", {"place": "H7"}, sensed, standing, memory)
    assert lines == [] and words.startswith("The Sama-stone in your hand is put on hollow 7")
    assert gamehands.hand_lines("samas", {"place": "H5"}, sensed, standing, memory)[0] == [
        {"pos": _pos("H5"), "on": True}]


def test_a_click_on_a_schaska_field_lifts_its_figure_or_puts_one_there():
    assert gamehands.hand_lines("schaska", {"field": 1}, set())[0] == [
        {"pos": position_name(0), "on": True}]
    assert gamehands.hand_lines("schaska", {"field": "17"}, {16})[0] == [
        {"pos": position_name(16), "on": False}]


@pytest.mark.parametrize("game, body, words", [
    ("samas", {"place": "H10"}, "no place 'H10' on the Samas board"),
    ("samas", {"place": "H10"}, "a place is a hollow H1..H9 or a tray hole A1..A3, AJ"),
    ("samas", {"place": None}, 'a click on the Samas board names its place: {"place": P}, '
                               "P a hollow H1..H9 or a tray hole"),
    ("samas", {"field": 3}, "names its place"),
    ("samas", {"button": "C"}, "a button is A's or B's, not 'C'"),
    ("samas", {"button": "A", "long": "yes"}, '"long" (a long press) is true or false, '
                                              "not 'yes'"),
    ("schaska", {"button": "B", "long": 1}, "is true or false, not 1"),
    ("schaska", {"field": 0}, "a field of this Schaska board is 1..30, not 0"),
    ("schaska", {"field": 31}, "not 31"),
    ("schaska", {"field": True}, "not True"),
    ("schaska", {}, "not None"),
    ("samsara", {"place": "H1"}, "Samas or Schaska here, not 'samsara'"),
])
def test_a_click_that_is_no_place_of_the_board_is_refused_in_words(game, body, words):
    with pytest.raises(BadRequest) as e:
        gamehands.hand_lines(game, body, set())
    assert words in str(e.value)


def test_a_schaska_field_past_the_tracks_end_is_refused_in_words():
    # a track of 10 fields: field 11 is none of its fields, field 10 is
    with pytest.raises(BadRequest) as e:
        gamehands.hand_lines("schaska", {"field": 11}, set(), n_fields=10)
    assert str(e.value) == "a field of this Schaska board is 1..10, not 11"
    assert gamehands.hand_lines("schaska", {"field": 10}, set(), n_fields=10)[0] == [
        {"pos": position_name(9), "on": True}]


def test_the_sensors_are_given_as_hollows_trays_and_fields():
    sensed = {place_index(n) for n in ("H3", "H7", "A1", "A2", "BJ")}
    assert gamehands.sensed_view("samas", sensed) == {
        "hollows": [3, 7], "trays": {"A": ["1", "2"], "B": ["J"]}}
    assert gamehands.sensed_view("schaska", {0, 4, 16, 20}, 17) == {"fields": [1, 5, 17]}


# -- what the page is told ---------------------------------------------------------------

SAMAS_START = {"A": {"hole": 2, "stones": 13, "jokers": 2},
               "B": {"hole": 8, "stones": 13, "jokers": 2}}


def _samas_model():
    m = GameLiveModel("samas")
    m.event({"ev": "game_start", "game": "samas", "start": SAMAS_START})
    return m


def test_the_trays_are_the_pages_only_and_never_in_the_headline_or_the_words():
    m = _samas_model()
    m.sensed = {"hollows": [2, 8], "trays": {"A": ["1", "2", "3"], "B": ["J"]}}
    m.event({"ev": "ready", "p": "A"})
    s = m.snapshot()
    assert s["sensed"]["trays"] == {"A": ["1", "2", "3"], "B": ["J"]}
    told = " ".join([s["headline"], s["board_shows"], s["refused"]] + s["words"])
    assert "stone" not in told.replace("0 to 3 stones", "") and "joker" not in \
        told.replace("or a joker", ""), told
    assert s["board_shows"] == ""


def test_a_sama_stone_off_its_hollow_is_what_to_put_right():
    m = _samas_model()
    m.sensed = {"hollows": [3, 8], "trays": {"A": [], "B": []}}
    assert m.snapshot()["board_shows"] == (
        "Put the board right: take a Sama-stone off hollow 3 (none belongs there); "
        "put a Sama-stone on hollow 2")
    # after a reveal the stone on its way is the headline's, not a fault
    after = {"A": {"hole": 2, "stones": 13, "jokers": 1},
             "B": {"hole": 7, "stones": 13, "jokers": 2}}
    m.event({"ev": "round", "round": 1, "play": {"A": "J", "B": "0"}, "after": after})
    assert m.standing() == {"A": 2, "B": 8}
    m.sensed = {"hollows": [2], "trays": {"A": ["J"], "B": []}}
    assert m.snapshot()["board_shows"] == ""
    m.sensed = {"hollows": [2, 7, 8], "trays": {"A": ["J"], "B": []}}
    assert m.snapshot()["board_shows"] == ""
    m.sensed = {"hollows": [2, 5], "trays": {"A": ["J"], "B": []}}
    assert "take a Sama-stone off hollow 5 (none" in m.snapshot()["board_shows"]
    m.sensed = {"hollows": [2, 4, 5], "trays": {"A": ["J"], "B": []}}
    assert "take a Sama-stone off hollows 4 and 5 (none" in m.snapshot()["board_shows"]
    m.event({"ev": "cleared", "round": 1})
    assert m.standing() == {"A": 2, "B": 7}


def test_a_ready_while_a_sama_stone_is_off_its_hollow_is_said_to_wait_for_it():
    # the board takes the Ready and reveals the round once the stones stand right
    # (samas.controller _try_reveal): the headline says so
    m = _samas_model()
    m.sensed = {"hollows": [8], "trays": {"A": ["1"], "B": ["2"]}}
    assert m.snapshot()["headline"].endswith(
        "The Sama-stones are not on hollows 2 and 8: a Ready waits for them, and the round "
        "is revealed once they stand there")
    m.event({"ev": "ready", "p": "A"})
    assert "a Ready waits for them" in m.snapshot()["headline"]
    m.event({"ev": "ready", "p": "B"})
    assert m.snapshot()["headline"] == (
        "Round 1: both players are ready; the reveal waits until the Sama-stones stand on "
        "hollows 2 and 8")
    m.sensed = {"hollows": [2, 8], "trays": {"A": ["1"], "B": ["2"]}}
    m.ready = {"A": True, "B": False}
    assert m.snapshot()["headline"] == (
        "Round 1: Player A is ready; Player B, choose behind your screen and press Ready")


def test_a_lifted_schaska_figure_is_named_with_where_it_goes():
    m = GameLiveModel("schaska")
    g = Game(DEFAULT)
    m.event({"ev": "game_start", "game": "schaska", "layout": list(DEFAULT),
             "start": g.state.to_obj()})
    a = (start_of(len(DEFAULT), 0), 1)
    assert a in g.legal()
    after = g.play(a)
    m.event({"ev": "turn", "turn": 1, "player": "A", "move": {"from": "start", "to": 1},
             "after": after.to_obj()})
    m.sensed = {"fields": [1]}
    assert m.snapshot()["board_shows"] == ""
    m.sensed = {"fields": [1, 5]}
    assert m.snapshot()["board_shows"] == (
        "Put the board right: take a figure off field 5 (none belongs there)")
    m.sensed = {"fields": [1, 6, 10, 12]}
    assert m.snapshot()["board_shows"] == (
        "Put the board right: take a figure off fields 6, 10 and 12 (none belongs there)")
    # B to move: B's figure is not on the track yet; A's figure lifted is named as A's
    m.sensed = {"fields": []}
    assert m.snapshot()["board_shows"] == (
        "Player A's figure from field 1 is lifted, and it is Player B's turn: put it back "
        "on field 1")


def _schaska_at(a, b, turn="A"):
    # a Schaska game on the default layout, its state A's and B's (start, fields, home)
    m = GameLiveModel("schaska")
    start = {"A": dict(zip(("start", "fields", "home"), a)),
             "B": dict(zip(("start", "fields", "home"), b)), "turn": turn}
    m.event({"ev": "game_start", "game": "schaska", "layout": list(DEFAULT), "start": start})
    return m


def test_the_schaska_headline_offers_only_what_is_legal_now():
    # the first field holds A's own figure: no figure comes in from the start
    head = _schaska_at((5, [1, 4], 0), (7, [], 0)).headline()
    assert "from the start on field" not in head and "field 1 to " in head and \
        "field 4 to " in head and head.endswith(
            "Field 1 is taken, so no figure comes in from the start"), head
    # no figure at the start: nothing said of it
    head = _schaska_at((0, [2, 5], 5), (7, [], 0)).headline()
    assert head.startswith("Player A to move: move a figure") and "start" not in head, head
    # B's first field is 16 on the default layout
    head = _schaska_at((7, [], 0), (6, [12], 0), "B").headline()
    assert head.startswith("Player B to move: put a figure from the start on field 16; or "
                           "move a figure"), head
    # half time: A's leader on 10 (past the middle of 16) stays while figures wait
    m = _schaska_at((4, [3, 10], 1), (7, [], 0))
    head = m.headline()
    assert head.startswith("Player A to move: put a figure from the start on field 1; or "
                           "move a figure") and "field 10 " not in head, head
    assert head.endswith("Half time: the leading figure stays while figures wait at the "
                         "start (field 10)"), head
    m.sensed = {"fields": [3]}
    assert m.snapshot()["board_shows"] == (
        "Player A holds the figure from field 10, which stays at half time while figures "
        "wait at the start: put it back on field 10")


# -- through the API, on the app's own virtual board ----------------------------------------







class _App:
    """The app's server over its own virtual board of `game` (as `samsara app --game G
    --virtual --idle` runs it)."""

    def __init__(self, tmp_path, game):
        self.vb = VirtualBoard(folder=str(tmp_path / "vb"), game=game)
        self.srv = None
        port = self.vb.start()
        self.vb.wait_ready(30)
        watch = BoardWatch(port, None)
        watch.expect_game = game
        watch.virtual = self.vb
        self.srv = AppServer(str(tmp_path / "lib"), watch)
        self.url = self.srv.start(free_port())

    def hand(self, **body):
        code, r = _post(self.url + "api/live/hand", body)
        assert code == 200, r
        return r

    def stop(self):
        if self.srv is not None:
            self.srv.stop()
        self.vb.stop()


def _press_ready(app, side):
    # Ready, pressed again while the board refuses it (the tray not settled yet: a
    # hand at the board presses again too; or the last refusal still shown)
    deadline = time.monotonic() + 20
    while True:
        app.hand(button=side)
        s = _until(app.url, lambda s: s["ready"][side] or s["moving"] or s["refused"],
                   "%s's Ready" % side)
        if s["ready"][side] or s["moving"]:
            return s
        assert time.monotonic() < deadline, s
        time.sleep(0.05)


@pytest.mark.skipif(not HAVE_UPY, reason="micropython Unix port not installed")
def test_a_samas_round_is_played_by_the_pages_hands(tmp_path):
    app = _App(tmp_path, "samas")
    try:
        s = _until(app.url, lambda s: s.get("kind") == "samas" and s["play"] and s["sensed"],
                   "the Samas board")
        assert s["hands"] and s["sensed"] == {"hollows": [2, 8], "trays": {"A": [], "B": []}}
        # a stone and the joker together: the board refuses A's Ready, in its words
        app.hand(place="A1")
        app.hand(place="AJ")
        s = _until(app.url, lambda s: s["sensed"]["trays"]["A"] == ["1", "J"], "A's tray")
        assert "stone" not in s["headline"].replace("0 to 3 stones", "")
        deadline = time.monotonic() + 20
        while True:
            app.hand(button="A")
            s = _until(app.url, lambda s: s["refused"], "A's refusal")
            if "stones and the joker together" in s["refused"]:
                break
            assert "not settled" in s["refused"] and time.monotonic() < deadline, s
        assert not s["ready"]["A"]
        # A chooses 2 stones, B 1: A wins the reveal and moves 2 to 3
        app.hand(place="AJ")
        app.hand(place="A2")
        app.hand(place="B1")
        _press_ready(app, "A")
        s = _until(app.url, lambda s: s["sensed"]["trays"]["B"] == ["1"], "B's tray")
        assert s["headline"] == ("Round 1: Player A is ready; Player B, choose behind your "
                                 "screen and press Ready")
        _press_ready(app, "B")
        s = _until(app.url, lambda s: s["moving"], "the reveal")
        assert s["headline"].startswith("Round 1 revealed: Player A chose 2 stones, Player B "
                                        "1 stone: A wins")
        assert s["play"]["position"]["A"]["hole"] == 3 and s["standing"] == {"A": 2, "B": 8}
        # the Sama-stone put on a wrong hollow first: the page says what to put right
        app.hand(place="H2")
        app.hand(place="H4")
        s = _until(app.url, lambda s: s["sensed"]["hollows"] == [4, 8], "the stone on 4")
        assert s["board_shows"] == ("Put the board right: take a Sama-stone off hollow 4 "
                                    "(none belongs there)") and s["moving"]
        app.hand(place="H4")
        app.hand(place="H3")
        for place in ("A1", "A2", "B1"):
            app.hand(place=place)
        s = _until(app.url, lambda s: not s["moving"] and s["steps"] == 1, "the round cleared")
        assert s["headline"].startswith("Round 2: each player puts")
        assert s["sensed"] == {"hollows": [3, 8], "trays": {"A": [], "B": []}}
        assert s["board_shows"] == "" and s["record"][0][0] == 1
        assert s["play"]["position"] == {"A": {"hole": 3, "stones": 11, "jokers": 2},
                                         "B": {"hole": 8, "stones": 12, "jokers": 2}}
        # a bad click is refused in words, nothing fed
        code, r = _post(app.url + "api/live/hand", {"place": "Z9"})
        assert code == 400 and r["error"].startswith("no place 'Z9'")
        # Samsara's buttons stay refused on this board
        code, r = _post(app.url + "api/live/roll", {})
        assert code == 409 and r["error"].startswith("Roll is Samsara's")
    finally:
        app.stop()


@pytest.mark.skipif(not HAVE_UPY, reason="micropython Unix port not installed")
def test_a_samas_ready_while_a_sama_stone_is_lifted_waits_for_it_and_the_page_says_so(
        tmp_path):
    app = _App(tmp_path, "samas")
    try:
        _until(app.url, lambda s: s.get("kind") == "samas" and s["play"] and s["sensed"],
               "the Samas board")
        app.hand(place="H2")
        s = _until(app.url, lambda s: s["sensed"]["hollows"] == [8], "A's stone lifted")
        assert s["headline"].endswith("The Sama-stones are not on hollows 2 and 8: a Ready "
                                      "waits for them, and the round is revealed once they "
                                      "stand there"), s["headline"]
        _press_ready(app, "A")
        s = _press_ready(app, "B")
        s = _until(app.url, lambda s: s["ready"]["A"] and s["ready"]["B"], "both ready")
        assert s["headline"] == ("Round 1: both players are ready; the reveal waits until "
                                 "the Sama-stones stand on hollows 2 and 8") and not s["moving"]
        app.hand(place="H2")
        # (no stones chosen: revealed, nobody moves, and cleared at once)
        s = _until(app.url, lambda s: s["steps"] == 1, "the reveal")
        assert s["record"][0] == [1, "Player A chose no stones, Player B no stones: nobody "
                                     "moves"]
    finally:
        app.stop()


@pytest.mark.skipif(not HAVE_UPY, reason="micropython Unix port not installed")
def test_schaska_turns_are_played_by_the_pages_hands(tmp_path):
    app = _App(tmp_path, "schaska")
    try:
        s = _until(app.url, lambda s: s.get("kind") == "schaska" and s["play"]
                   and s["sensed"] is not None, "the Schaska board")
        n = len(DEFAULT)
        g = Game(DEFAULT)
        assert s["sensed"] == {"fields": []}
        # a field past the track's end is refused in words, nothing fed
        code, r = _post(app.url + "api/live/hand", {"field": n + 1})
        assert code == 400 and r["error"] == (
            "a field of this Schaska board is 1..%d, not %d" % (n, n + 1))
        # a figure put where none may go: nothing taken, the page says to take it off
        app.hand(field=5)
        s = _until(app.url, lambda s: s["sensed"]["fields"] == [5], "a figure on 5")
        assert s["steps"] == 0 and s["board_shows"].startswith(
            "Put the board right: take a figure off field 5")
        app.hand(field=5)
        # six turns: each action of the rules' first legal ones, done by clicks
        for k in range(1, 7):
            frm, to = g.legal()[0]
            if 1 <= frm <= n:
                app.hand(field=frm)
                if 1 <= to <= n:
                    s = _until(app.url, lambda s: frm not in s["sensed"]["fields"], "lifted")
                    assert s["board_shows"].endswith(
                        "holds the figure from field %d: put it on field %d" % (frm, to))
            if 1 <= to <= n:
                app.hand(field=to)
            g.play((frm, to))
            s = _until(app.url, lambda s: s["steps"] == k, "turn %d" % k)
            assert s["play"]["position"] == g.state.to_obj() and s["board_shows"] == ""
        assert s["headline"].startswith("Player %s to move" % "AB"[g.state.mover])
    finally:
        app.stop()


@pytest.mark.skipif(not HAVE_UPY, reason="micropython Unix port not installed")
def test_after_the_end_the_pages_long_press_starts_a_new_game(tmp_path):
    # a whole Samas game played by the simulated hands, then the page's hand: a short
    # press is the board's refusal, a long press of a button starts the next game
    from samsara_host.vboard_games_play import GamesPlay
    vb = VirtualBoard(folder=str(tmp_path / "vb"), game="samas")
    play = GamesPlay(vb, 2)
    srv = None
    try:
        port = vb.start()
        vb.wait_ready(30)
        assert play.run()[1]
        watch = BoardWatch(port, None)
        watch.virtual = vb
        srv = AppServer(str(tmp_path / "lib"), watch)
        url = srv.start(free_port())
        s = _until(url, lambda s: s.get("over"), "the game's end")
        assert s["headline"].endswith("a long press of either button starts a new game")
        code, r = _post(url + "api/live/hand", {"button": "B"})
        assert code == 200
        s = _until(url, lambda s: s["refused"], "the refusal")
        assert s["refused"] == "Player B's Ready was refused: the game is over"
        code, r = _post(url + "api/live/hand", {"button": "B", "long": True})
        assert code == 200 and r["lines"] == [{"button": "undo", "long": True}]
        s = _until(url, lambda s: not s["over"] and s["steps"] == 0, "a new game")
        assert s["headline"].startswith("Round 1: each player puts")
        assert s["play"]["position"] == SAMAS_START
    finally:
        if srv is not None:
            srv.stop()
        vb.stop()


def _until(url, ok, what, timeout=30.0):
    # the live page's state (GET api/live) once ok(it)
    return until(lambda: _get(url + "api/live"), ok, what, timeout)
