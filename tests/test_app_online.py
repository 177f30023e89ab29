"""The app's Online page hosts and joins an online game (docs/app.md "Online"), in
headless Chromium at 1280 and at 360 px: two apps, each connected to a virtual board
whose hand plays one side (`samsara virtual-board DIR --play SEED --side A|B`), a
Mosquitto of the test's own.  In the first app a player hosts (broker, side, name):
the page shows the code to read out; in the second the other player joins with that
code.  Both pages show the game's progress and the bridge's lines ("waiting for Ben to
carry out your turn"), the host's public game is on the broadcast list, and both
boards end with the same record, tagged with both names and the game's id.  At 360 px
the bridges are stopped mid-game from the pages and started again with the same code:
the game goes on at the same turn.  Without a browser or Mosquitto these tests skip,
except under CI=true, where they fail."""
import json
import os
import re
import time
import urllib.error
import urllib.request

import pytest

import onlinekit as K
from appbrowser import AppProcess, NoBrowser, chromium
from testports import free_port
from test_app_board_control import fits, js, wait_for

from brokerhelp import needs_mosquitto
from samsara_host.online.code import parse_code
from samsara_host.online.relay import Relay
from samsara_host.online import wire

CODE = re.compile(r"^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$")
GAME_S = 300


_needs = needs_mosquitto


@pytest.fixture(scope="module")
def browser_factory(tmp_path_factory):
    made = []

    def make(width):
        try:
            drv = chromium(tmp_path_factory.mktemp("chromium-online"), width=width)
        except NoBrowser as e:
            if os.environ.get("CI") == "true":
                pytest.fail("CI=true and %s" % e)
            pytest.skip(str(e))
        made.append(drv)
        return drv
    yield make
    for d in made:
        d.quit()


def _fill(drv, element_id, text):
    el = drv.find_element("id", element_id)
    el.clear()
    el.send_keys(text)


def _click(drv, element_id):
    drv.execute_script("document.getElementById(arguments[0]).scrollIntoView({block: "
                       "'center'})", element_id)
    drv.find_element("id", element_id).click()


def _text(drv, element_id):
    return js(drv, "document.getElementById(%r).textContent" % element_id)


def _state(drv):
    return js(drv, "document.getElementById('mine').dataset.state || ''")


def _turns(drv):
    m = re.search(r"(\d+) turns? played", _text(drv, "players"))
    return int(m.group(1)) if m else 0


def _retained(port, topics, wait_s=3.0):
    """{topic: (payload, expiry left or None)} of the retained messages on `topics`
    (an MQTT 5 client: the expiry comes with each message)."""
    import paho.mqtt.client as paho
    got = {}
    c = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="retained-reader",
                    protocol=paho.MQTTv5)

    def on_message(_c, _u, m):
        if m.retain:
            got[m.topic] = (bytes(m.payload),
                            getattr(m.properties, "MessageExpiryInterval", None))
    c.on_message = on_message
    c.on_connect = lambda cl, *_a: [cl.subscribe(t, qos=1) for t in topics]
    c.connect("127.0.0.1", port)
    c.loop_start()
    time.sleep(wait_s)
    c.loop_stop()
    c.disconnect()
    return got


@pytest.mark.parametrize("width", [1280, 360])
def test_host_and_join_an_online_game_from_the_app(browser_factory, tmp_path, width):
    _needs()
    tmp = str(tmp_path)
    relay = Relay(port=free_port(), folder=os.path.join(tmp, "relay"))
    broker = relay.start()
    try:
        gid = _play_from_the_pages(browser_factory, tmp_path, width, broker)
        if gid is None:
            return
        _same_records_and_retained_messages_cleared(tmp, gid, relay.port)
    finally:
        relay.stop()


def _play_from_the_pages(browser_factory, tmp_path, width, broker):
    # The game hosted and joined from the pages; its id once over (None: stopped and
    # resumed at 360 px, not played to the end).
    tmp = str(tmp_path)
    procs, apps = [], []
    try:
        va, pa = K.vboard(os.path.join(tmp, "boardA"), 21, "A", tmp)
        procs.append(va)
        vb, pb = K.vboard(os.path.join(tmp, "boardB"), 22, "B", tmp)
        procs.append(vb)
        app_a = AppProcess(["--board", pa, "--broker", broker, "--online-dir",
                            os.path.join(tmp, "stA")], tmp_path / "logsA")
        apps.append(app_a)
        app_b = AppProcess(["--board", pb, "--broker", broker, "--online-dir",
                            os.path.join(tmp, "stB")], tmp_path / "logsB")
        apps.append(app_b)
        drv = browser_factory(width)

        # Anna hosts in the first app: the broker is the app's, the code is shown
        drv.get(app_a.url + "online")
        wait_for(lambda: js(drv, "document.getElementById('broker').value") == broker,
                 "the app's broker offered")
        _fill(drv, "myname", "Anna")
        drv.execute_script("document.getElementById('side').value = 'A'")
        _click(drv, "public")
        _click(drv, "host")
        code = wait_for(lambda: CODE.match(_text(drv, "code")) and _text(drv, "code"),
                        "the code to read out")
        gid, _secret = parse_code(code)
        wait_for(lambda: "waiting for the other player" in _text(drv, "waiting"),
                 "the host waiting for the other player")
        # a public game is on the broadcast list before anyone joins, said to wait
        wait_for(lambda: "waiting for a player to join" in js(
            drv, "(document.querySelector('#games .game[data-game=\"%s\"]') || "
                 "{textContent: ''}).textContent" % gid), "the hosted game listed", 30)
        host_tab = drv.current_window_handle

        # Ben joins in the second app with the code
        drv.switch_to.new_window("tab")
        join_tab = drv.current_window_handle
        drv.get(app_b.url + "online")
        _fill(drv, "myname", "Ben")
        _fill(drv, "joincode", code.lower())            # as typed: case does not matter
        _click(drv, "join")
        wait_for(lambda: "A Anna - B Ben" in _text(drv, "players"), "both names", 60)
        assert _text(drv, "code") == ""                  # only the host reads a code out
        assert gid in _text(drv, "mytitle") and "you play B" in _text(drv, "mytitle")
        wait_for(lambda: _turns(drv) >= 2, "two turns played", 120)
        ok, wide, small = fits(drv, width)
        assert ok and not wide and not small, (wide, small)
        assert js(drv, "document.querySelector('#myboard svg') !== null")
        # the live page of the same app: New game is off during the online game, with
        # the reason under it, and the server refuses it too
        drv.get(app_b.url)
        wait_for(lambda: ("An online game is on (game %s with Anna)" % gid)
                 in _text(drv, "newblocked"), "New game blocked with its reason")
        assert js(drv, "document.getElementById('start').disabled")
        req = urllib.request.Request(app_b.url + "api/live/new", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(req, timeout=10)
        assert refused.value.code == 409
        assert "Stop it on the Online page" in json.loads(refused.value.read())["error"]
        drv.get(app_b.url + "online")
        wait_for(lambda: "A Anna - B Ben" in _text(drv, "players"), "the game again", 30)
        _fill(drv, "myname", "Ben")                     # (the page was left: filled again)
        _fill(drv, "joincode", code.lower())

        drv.switch_to.window(host_tab)
        wait_for(lambda: "waiting for Ben to carry out your turn" in _text(drv, "lines"),
                 "the host told to wait for Ben", 60)
        assert "sent turn 1:" in _text(drv, "lines")
        # the public game is on the broadcast list of the same page
        wait_for(lambda: js(drv, "document.querySelector('#games .game[data-game=\"%s\"] "
                                 "svg') !== null" % gid), "the game on the broadcast list")
        ok, wide, small = fits(drv, width)
        assert ok and not wide and not small, (wide, small)

        if width == 360:
            # both stop their bridges mid-game, then go on with the same code
            at = _turns(drv)
            _click(drv, "stop")
            wait_for(lambda: _state(drv) == "stopped", "the host's bridge stopped")
            assert not js(drv, "document.getElementById('host').disabled")
            drv.switch_to.window(join_tab)
            _click(drv, "stop")
            wait_for(lambda: _state(drv) == "stopped", "the guest's bridge stopped")
            _click(drv, "join")
            wait_for(lambda: "resuming game %s as B" % gid in _text(drv, "lines"),
                     "the guest resuming", 30)
            drv.switch_to.window(host_tab)
            _fill(drv, "joincode", code)          # the host goes on with its code
            _click(drv, "host")
            wait_for(lambda: "resuming game %s as A" % gid in _text(drv, "lines"),
                     "the host resuming", 30)
            wait_for(lambda: _turns(drv) >= at + 2, "the game going on", 120)
            return None

        # the whole game to its end on both pages
        wait_for(lambda: _state(drv) == "over", "the game's end on the host's page", GAME_S)
        assert "game over" in _text(drv, "waiting")
        drv.switch_to.window(join_tab)
        wait_for(lambda: _state(drv) == "over", "the game's end on the guest's page", 60)
        assert "played: " in _text(drv, "lines")
    finally:
        for a in apps:
            a.stop()
        for p in procs:
            p.stop()
    return gid


def _same_records_and_retained_messages_cleared(tmp, gid, port):
    recs = [K.board_record(os.path.join(tmp, b)) for b in ("boardA", "boardB")]
    assert all(r is not None for r in recs)
    ra, rb = recs
    assert [s.notation for s in ra.steps] == [s.notation for s in rb.steps]
    for r in recs:
        assert r.tags.get("PlayerA") == "Anna" and r.tags.get("PlayerB") == "Ben"
        assert r.tags.get("Online") == gid
    # the ended game's retained messages (docs/online.md "Retained messages"): the
    # host's announcement cleared, the record and the board kept a short while only
    got = _retained(port, [wire.topic(gid, "+"), wire.live_topic(gid)])
    assert wire.topic(gid, "host") not in got
    payload, left = got[wire.topic(gid, "rec")]
    assert payload and left is not None and 0 < left <= 3600
    payload, left = got[wire.live_topic(gid)]
    assert json.loads(payload)["over"] is True and left is not None and 0 < left <= 300


def test_the_online_page_refuses_a_bad_start_in_words(tmp_path):
    """POST /api/online/start checks everything first (400 naming what is wrong) and
    refuses a game without a board or on a board the simulated players play (409)."""
    from samsara_host.app.server import AppServer
    from test_app_api import get
    srv = AppServer(str(tmp_path / "logs"))
    url = srv.start(free_port())
    try:
        good = {"role": "host", "broker": "mqtt://localhost:1883", "side": "A",
                "name": "Anna"}
        for change, status, words in (
                ({"role": "referee"}, 400, "host or join"),
                ({"broker": "http://x"}, 400, "the broker"),
                ({"broker": ""}, 400, "give the broker"),
                ({"broker": "mqtt://anna:secret@h:99999"}, 400, "port"),
                ({"side": "C"}, 400, "A or B"),
                ({"name": ""}, 400, "your name is empty"),
                ({"name": "x" * 25}, 400, "at most 24"),
                ({"name": "An\nna"}, 400, "control characters"),
                ({"role": "join"}, 400, "give the code"),
                ({"role": "join", "code": "7K3M"}, 400, "the code"),
                ({}, 409, "No board is connected")):
            status_got, text = get(url + "api/online/start", "POST", dict(good, **change))
            assert status_got == status and words in json.loads(text)["error"], (change, text)
            assert "secret" not in text
        status_got, text = get(url + "api/online/game")
        assert status_got == 200 and json.loads(text)["game"] is None
        srv.online_play.configure(refuse="played by two simulated players")
        status_got, text = get(url + "api/online/start", "POST", good)
        assert status_got == 409 and "simulated players" in text
        status_got, text = get(url + "api/online/stop", "POST", {})
        assert status_got == 200 and json.loads(text)["game"] is None
    finally:
        srv.stop()


@pytest.mark.parametrize("role", ["join", "host"])
def test_stop_ends_a_bridge_whose_broker_cannot_be_reached(browser_factory, tmp_path, role):
    """The broker's port has nothing listening: the page says so; Stop ends the
    bridge's attempt there and then (not when the bridge would give up by itself,
    after bridge.WAIT_HOST_S for a join) and says it stopped; Host and Join are on
    again."""
    unreachable = free_port()                   # (nothing listens on it)
    broker = "mqtt://127.0.0.1:%d" % unreachable
    app = AppProcess(["--virtual", "--idle", "--broker", broker, "--online-dir",
                      str(tmp_path / "st")], tmp_path / "logs")
    try:
        drv = browser_factory(1280)
        drv.get(app.url + "online")
        wait_for(lambda: js(drv, "document.getElementById('broker').value") == broker,
                 "the app's broker offered")
        _fill(drv, "myname", "Ben")
        if role == "join":
            _fill(drv, "joincode", "7K3M-Q9XD-4FJT")
        _click(drv, role)
        wait_for(lambda: "nothing listens at 127.0.0.1:%d" % unreachable
                 in _text(drv, "mine"), "the broker said not to be reachable", 30)
        assert _state(drv) in ("starting", "playing")
        _click(drv, "stop")
        wait_for(lambda: _state(drv) in ("stopped", "failed", "over"),
                 "the bridge's end", 60)
        assert _state(drv) == "stopped", _text(drv, "mine")
        assert "stopped" in _text(drv, "lines").lower()
        assert "within 30 s" not in _text(drv, "mine")
        assert "the broker could not be reached" in _text(drv, "waiting")
        if role == "join":
            assert "nothing was kept" in _text(drv, "waiting")
        assert not js(drv, "document.getElementById('%s').disabled" % role)
    finally:
        app.stop()
