"""The app's server without a browser (docs/app.md): the JSON API and pages on a real
socket (127.0.0.1, a free port) with a library holding a whole game, a torn copy and
a file that is no game; the live model fed garbage; the board watcher against a board
that sends garbage, and one whose port another program holds.
"""
import json
import os
import time
import urllib.error
import urllib.request

import pytest

from samsara_host.app import library
from samsara_host.app.boardwatch import BoardWatch, banner_words
from samsara_host.app.livestate import LiveModel, die_colour
from samsara_host.app.playgame import PlayGame
from samsara_host.app.server import AppServer
from samsara_host import boardlink
from testports import free_port

NEAR_END = "o....o........o.o......o/.o...o....o..o..oo.o.... 5-5 B"


def play_to_end(logs, seed=2):
    """A game played in the page's engine to its end; returns its library id."""
    g = PlayGame(str(logs), opponent="human", seed=seed, position=NEAR_END)
    for _ in range(200):
        st = g.state()
        if st["over"]:
            break
        if not st["dice"] or st["state"] == "turn_complete":
            g.roll()
            continue
        g.click(st["movable"][0])
        t = [n for n, _c in g.state()["targets"]]
        goal = [n for n in t if n in ("GS", "GR")]
        g.click(goal[0] if goal else t[-1])
    g.close()
    assert st["over"] and st["saved"]
    return st["saved"]


@pytest.fixture
def served(tmp_path):
    logs = tmp_path / "logs"
    gid = play_to_end(logs)
    path = logs / (gid + ".log")
    data = path.read_bytes()
    (logs / "browser" / "game-0002.log").write_bytes(data[:len(data) - 7])   # torn
    (logs / "browser" / "game-0003.log").write_bytes(b"\xa5 this is no game log")
    srv = AppServer(str(logs))
    url = srv.start(free_port())
    yield url, logs, gid
    srv.stop()


def get(url, method="GET", body=None):
    req = urllib.request.Request(url, method=method,
                                 data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def serve_board(tmp_path, fb):
    """The app on fake board `fb`, started and connected (at most 10 s): (server, url)."""
    srv = AppServer(str(tmp_path / "logs"), watch=BoardWatch(fb.port, None))
    url = srv.start(free_port())
    try:
        end = time.monotonic() + 10
        while time.monotonic() < end and not json.loads(get(url + "api/live")[1])["connected"]:
            time.sleep(0.05)
    except BaseException:
        srv.stop()
        raise
    return srv, url


def test_library_lists_whole_torn_and_unreadable_games(served):
    url, _logs, gid = served
    code, text = get(url + "api/library")
    assert code == 200
    games = {g["id"]: g for g in json.loads(text)["games"]}
    assert set(games) == {gid, "browser/game-0002", "browser/game-0003"}
    whole, torn, bad = games[gid], games["browser/game-0002"], games["browser/game-0003"]
    assert whole["torn"] is None and whole["winner"] in ("A", "B") and whole["error"] is None
    assert torn["torn"] and torn["turns"] <= whole["turns"] and torn["error"] is None
    assert bad["error"]
    code, text = get(url + "api/game/browser/game-0002")
    g = json.loads(text)
    assert code == 200 and g["torn"] and len(g["steps"]) == torn["turns"] + 1
    assert g["steps"][0]["svg"].startswith("<svg")


def test_unknown_game_is_a_clean_404(served):
    url = served[0]
    for path in ("api/game/nosuch/game-0001", "api/game/browser/game-9999",
                 "api/game/..%2F..%2Fetc/game-0001"):
        code, text = get(url + path)
        assert code == 404 and "error" in json.loads(text)
    code, text = get(url + "replay/browser/game-9999")
    assert code == 404 and "There is no game browser/game-9999" in text
    code, text = get(url + "replay/%3Cscript%3E/game-0001")
    assert code == 404 and "&lt;script&gt;" in text and "<script>/game" not in text
    code, text = get(url + "no/such/page")
    assert code == 404 and "<html" in text


def test_rename_and_delete_with_confirmation(served):
    url, logs, gid = served
    code, text = get(url + "api/game/" + gid, "POST", {"players": ["Anna", "Ben"]})
    assert code == 200
    code, text = get(url + "api/library")
    g = [x for x in json.loads(text)["games"] if x["id"] == gid][0]
    assert g["players"] == ["Anna", "Ben"]
    code, text = get(url + "api/game/" + gid, "POST", {"players": ["", "Ben"]})
    assert code == 400 and "empty" in json.loads(text)["error"]
    code, text = get(url + "api/game/" + gid, "POST", {"players": "nope"})
    assert code == 400
    code, text = get(url + "api/game/" + gid, "POST", {"players": ["A" * 5000, "Ben"]})
    assert code == 400 and "at most 40" in json.loads(text)["error"]
    code, _text = get(url + "api/game/" + gid, "DELETE")
    assert code == 400 and (logs / (gid + ".log")).exists()
    code, _text = get(url + "api/game/" + gid + "?confirm=yes", "DELETE")
    assert code == 200 and not (logs / (gid + ".log")).exists()
    assert not (logs / (gid + ".log.tags")).exists()


def raw(url, method, data=b"", headers=None):
    """(status, JSON answer) of a request with exactly these bytes and headers."""
    req = urllib.request.Request(url, method=method, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read().decode())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read().decode())


def test_other_pages_cannot_drive_the_app(served):
    # A page of another site (its Origin), a text/plain or form post (a cross-site
    # "simple request"): refused, nothing changed.  The app's own origin with JSON works.
    url, logs, gid = served
    base = url.rstrip("/")
    evil = {"Origin": "http://evil.example", "Content-Type": "application/json"}
    names = json.dumps({"players": ["Eve", "Mallory"]}).encode()

    def players():
        games = json.loads(get(url + "api/library")[1])["games"]
        return [x for x in games if x["id"] == gid][0]["players"]

    before = players()
    code, out = raw(url + "api/game/" + gid, "POST", names, evil)
    assert code == 403 and "evil.example" in out["error"]
    code, out = raw(url + "api/game/" + gid + "?confirm=yes", "DELETE", None, evil)
    assert code == 403 and (logs / (gid + ".log")).exists()
    code, out = raw(url + "api/board/deploy", "POST", b'{"confirm":"yes"}',
                    {"Origin": "http://evil.example", "Content-Type": "text/plain"})
    assert code == 403
    assert json.loads(get(url + "api/board/deploy")[1])["state"] == "none"
    for ctype in ("text/plain", "application/x-www-form-urlencoded", None):
        headers = {"Content-Type": ctype} if ctype else {}
        code, out = raw(url + "api/game/" + gid, "POST", names, headers)
        assert code == 415 and "application/json" in out["error"], (ctype, out)
    code, out = raw(url + "api/board/deploy", "POST", b"confirm=yes",
                    {"Content-Type": "application/x-www-form-urlencoded"})
    assert code == 415
    code, out = raw(url + "api/library/pull", "POST", b"",
                    {"Content-Type": "application/x-www-form-urlencoded"})
    assert code == 415
    assert players() == before
    for origin in (base, base.replace("127.0.0.1", "localhost")):
        code, out = raw(url + "api/game/" + gid, "POST",
                        json.dumps({"players": ["Anna", origin[-5:]]}).encode(),
                        {"Origin": origin, "Content-Type": "application/json; charset=utf-8"})
        assert code == 200, out
        assert players() == ["Anna", origin[-5:]]
    code, out = raw(url + "api/play/new", "POST", b"{}",
                    {"Origin": base, "Content-Type": "application/json"})
    assert code == 200 and out["id"]
    code, out = raw(url + "api/play/%s/roll" % out["id"], "POST", None, {"Origin": base})
    assert code == 200                                   # no body, no type: fine


def wait_analysis(url, gid, timeout=180.0):
    end = time.monotonic() + timeout
    while True:
        code, text = get(url + "api/game/%s/analysis" % gid)
        a = json.loads(text)
        if code != 200 or a["state"] != "running" or time.monotonic() > end:
            return code, a
        assert a["turns"] >= 1 and a["elapsed_s"] >= 0
        time.sleep(0.2)


def test_the_replay_reads_as_the_terminal_and_the_exports(served, capsys):
    # One game: `samsara analyze`, `logs export --analysis` and the replay page's
    # analysis give the same turn numbers, comments, losses, luck and units.
    import re
    from samsara_host import cli
    url, logs, gid = served
    path = str(logs / (gid + ".log"))
    code, a = wait_analysis(url, gid)
    assert code == 200 and a["state"] == "done"
    steps = json.loads(get(url + "api/game/" + gid)[1])["steps"]
    capsys.readouterr()
    assert cli.main(["analyze", path]) == 0
    terminal = capsys.readouterr().out.splitlines()
    assert cli.main(["logs", "export", path, "--analysis"]) == 0
    exported = capsys.readouterr().out
    turns = a["analysis"]["turns"]
    assert [s["n"] for s in steps[1:]] == [t["turn"] for t in turns]
    for t, comment, fig in zip(turns, a["comments"], a["figures"]):
        line = [x for x in terminal if re.match(r"\s*%d\. " % t["turn"], x)][0]
        assert line.rstrip().endswith(comment or "(no choice)"), (line, comment)
        if comment:
            assert ("%d. %s %s {%s}" % (t["turn"], t["player"], t["played"], comment)) \
                in exported
        for key in ("loss", "win"):
            assert fig[key] in comment          # '' or the very text of the comment
        assert re.fullmatch(r"[+-]\d+\.\d %", fig["luck"]), fig["luck"]
    for p in "AB":
        said = [x for x in terminal if x.startswith(p + ": ") or x.startswith(p + " (")][0]
        assert said.split(": ", 1)[1] == a["summaries"][p]
        assert '[Analysis%s "%s"]' % (p, a["summaries"][p]) in exported


def test_replay_analysis_computed_once_in_the_background(served):
    url, _logs, gid = served
    code, text = get(url + "api/game/" + gid)      # the replay does not wait for it
    steps = json.loads(text)["steps"]
    code, a = wait_analysis(url, gid)
    assert code == 200 and a["state"] == "done" and a["torn"] is None
    turns = a["analysis"]["turns"]
    assert len(turns) == len(steps) - 1 == len(a["comments"])
    for t, s in zip(turns, steps[1:]):
        assert t["played"] == s["notation"] and t["player"] == s["player"]
        assert t["flag"] in (None, "doubtful", "mistake", "blunder")
        assert t["best"] is None or t["best"].split()[0] == s["notation"].split()[0]
        assert t["win_prob"] is None or 0 <= t["win_prob"] <= 1
    assert set(a["analysis"]["luck"]) == {"A", "B"}
    code2, again = wait_analysis(url, gid)          # cached: the same answer at once
    assert again == a
    # A torn copy: analysed as far as it could be read, or a clear "no analysis".
    code, t = wait_analysis(url, "browser/game-0002")
    assert code == 200 and t["state"] in ("done", "none")
    if t["state"] == "done":
        assert t["torn"] and len(t["analysis"]["turns"]) <= len(turns)
    else:
        assert "torn" in t["reason"]
    code, b = wait_analysis(url, "browser/game-0003")
    assert code == 200 and b["state"] == "none" and "no analysis" in b["reason"]
    code, text = get(url + "api/game/browser/game-9999/analysis")
    assert code == 404 and "error" in json.loads(text)


def test_play_api_bad_input(served):
    url = served[0]
    code, text = get(url + "api/play/new", "POST", {"position": "garbage"})
    assert code == 400 and "position" in json.loads(text)["error"]
    code, text = get(url + "api/play/new", "POST", {"opponent": "engine", "seed": 5})
    st = json.loads(text)
    assert code == 200 and st["mover"] == "A" and st["opponent"] == "engine"
    code, text = get(url + "api/play/%s/click" % st["id"], "POST", {"hole": "Z99"})
    assert code == 400 and "no hole" in json.loads(text)["error"]
    for bad in (-1, 2 ** 40, True, "5"):
        code, text = get(url + "api/play/new", "POST", {"seed": bad})
        assert code == 400 and "seed" in json.loads(text)["error"], bad
    code, text = get(url + "api/play/%s/roll" % st["id"], "POST", {})
    st = json.loads(text)
    assert len(st["dice"]) == 2 and st["movable"]
    code, _ = get(url + "api/play/nosuch/roll", "POST", {})
    assert code == 404
    code, text = get(url + "api/library/pull", "POST", {})
    assert code == 409 and "No board" in json.loads(text)["error"]


def test_live_events_stream_and_no_board_banner(served):
    url = served[0]
    with urllib.request.urlopen(url + "api/live/events", timeout=10) as r:
        assert r.headers["Content-Type"].startswith("text/event-stream")
        line = r.readline().decode()
    snap = json.loads(line[len("data: "):])
    assert not snap["connected"] and "No board" in snap["banner"]
    assert snap["svg"].startswith("<svg")


def test_two_tabs_both_follow_the_board(tmp_path):
    # Two pages open on the live board (two tabs, or two people's phones): both streams
    # get every change; closing one leaves the other working.
    from fakeboard import FakeBoard
    from boardcore.link import protocol

    fb = FakeBoard(str(tmp_path))
    srv, url = serve_board(tmp_path, fb)
    try:
        one = urllib.request.urlopen(url + "api/live/events", timeout=10)
        two = urllib.request.urlopen(url + "api/live/events", timeout=10)

        def until(stream, want):
            while True:
                line = stream.readline().decode()
                if line.startswith("data: ") and want(json.loads(line[6:])):
                    return True

        assert until(one, lambda snap: snap["connected"])
        assert until(two, lambda snap: snap["connected"])
        os.write(fb.master, protocol.encode({"ev": "roll", "t": 5, "dice": [5, 3],
                                             "player": "A", "source": "electronic"}))
        assert until(one, lambda snap: "Player A rolls 5 3" in snap.get("words", []))
        one.close()
        assert until(two, lambda snap: "Player A rolls 5 3" in snap.get("words", []))
        os.write(fb.master, protocol.encode({"ev": "roll", "t": 9, "dice": [6, 6],
                                             "player": "B", "source": "electronic"}))
        assert until(two, lambda snap: "Player B rolls 6 6" in snap.get("words", []))
        two.close()
    finally:
        srv.stop()
        fb.unplug()


def test_live_model_ignores_garbage_events():
    m = LiveModel()
    for ev in ({"ev": "roll", "dice": "xx"}, {"ev": "lift", "pos": 5}, {"ev": "lift"},
               {"ev": "repair", "missing": [1, "Q9", None], "extra": "R1"},
               {"ev": "turn_complete", "turn": 7}, {"ev": "goal"}, {"ev": None},
               {"ev": "game_over", "winner": [1]}, {"ev": "place", "pos": {"a": 1}}):
        m.event(ev)
    m.status_reply({"remaining": "x", "mover": 3})
    m.position_reply({"position": "garbage", "record": 5, "turns": "x"})
    snap = m.snapshot()
    assert snap["svg"].startswith("<svg") and snap["missing"] == []


def test_lifted_marble_targets_in_dice_colours():
    m = LiveModel()
    m.status_reply({"remaining": [3, 1], "mover": "A", "dice": [3, 1], "state": "moving"})
    m.dice = [3, 1]
    m.event({"ev": "lift", "t": 1, "pos": "R1"})
    snap = m.snapshot()
    assert snap["lifted"] == ["R1"]
    # docs/cli.md's example: from the start, 1 takes R1 to S14 (and 3 to S16)
    assert {(n, d) for n, d, _c in snap["targets"]} == {("S14", 1), ("S16", 3)}
    assert {(d, c) for _n, d, c in snap["targets"]} == {(1, die_colour(1)), (3, die_colour(3))}
    assert die_colour(1) != die_colour(3)
    assert "R1" not in snap["occupied"]
    m.event({"ev": "place", "t": 2, "pos": "R9"})
    m.event({"ev": "reject", "t": 3, "what": "place", "reason": "no die reaches R9"})
    assert m.snapshot()["wrong"] == "R9" and "R9" in m.guidance()
    m.event({"ev": "repair", "t": 4, "reason": "the board differs", "missing": ["S3"],
             "extra": ["S9"]})
    g = m.guidance()
    assert g == ("Put the board right (the board differs): put a marble on S3; take "
                 "the marble off S9")



def test_board_watch_survives_garbage_and_reports_a_busy_port(tmp_path):
    from fakeboard import FakeBoard
    from boardcore.link import protocol

    class Noisy(FakeBoard):
        def handle(self, line):
            out = FakeBoard.handle(self, line)
            return [{"ev": "lift", "pos": 99}, {"ev": "roll", "dice": None}] + out

    fb = Noisy(str(tmp_path))
    fb.plug()
    os.write(fb.master, b"\x00\xff garbage {not json\n" + b"x" * 3000 + b"\n")
    snaps = []
    w = BoardWatch(fb.port, snaps.append)
    w.start()
    try:
        end = time.monotonic() + 10
        while time.monotonic() < end and not (snaps and snaps[-1]["connected"]):
            time.sleep(0.05)
        assert snaps and snaps[-1]["connected"], snaps[-1:] and snaps[-1]["banner"]
        os.write(fb.master, protocol.encode({"ev": "lift", "t": 1, "pos": "R1"}) +
                 b"\xfe\xfe\n{\"ev\": 3}\n")
        time.sleep(0.5)
        assert w.is_alive()
    finally:
        w.stop()
    # Another program holds the port: the banner says so, and the app connects once
    # it lets go.
    holder = boardlink.open_port(fb.port)
    snaps = []
    w = BoardWatch(fb.port, snaps.append)
    w.start()
    try:
        end = time.monotonic() + 10
        while time.monotonic() < end and not snaps:
            time.sleep(0.05)
        banner = snaps and snaps[-1]["banner"]
        assert banner and "(process %d) holds the board's port" % os.getpid() in banner
        assert not snaps[-1]["connected"]
        holder.close()
        end = time.monotonic() + 10
        while time.monotonic() < end and not snaps[-1]["connected"]:
            time.sleep(0.05)
        assert snaps[-1]["connected"]
        # Unplugged: a banner; plugged in again: it resumes.
        fb.unplug()
        end = time.monotonic() + 10
        while time.monotonic() < end and snaps[-1]["connected"]:
            time.sleep(0.05)
        assert not snaps[-1]["connected"] and snaps[-1]["banner"]
        fb.plug()
        end = time.monotonic() + 15
        while time.monotonic() < end and not snaps[-1]["connected"]:
            time.sleep(0.05)
        assert snaps[-1]["connected"] and not snaps[-1]["banner"]
    finally:
        w.stop()
        fb.unplug()


def test_board_page_sensor_map_self_test_and_the_rule_from_the_game_log(tmp_path):
    from fakeboard import FakeBoard
    from boardcore.storage.logrecord import encode_record

    header = {"fmt": 1, "game": 5, "start": "x", "match": False, "starter": "A",
              "og": "forbidden"}
    log = bytes(encode_record(ord("H"), json.dumps(header).encode()))

    class Healthy(FakeBoard):
        def cmd_status(self, args):
            fields, extra = FakeBoard.cmd_status(self, args)
            fields.update(game=5, state="waiting")
            return fields, extra

        def cmd_health(self, args):
            return ({"holes": [["S14", 38, 0, 0, None]], "more": False,
                     "uptime_ms": 600000, "settle": [40, 40]}, [])

        def cmd_self_test(self, args):
            return ({"step": args["step"], "pos": "S1", "on": 1, "off": 1, "other": []}, [])

        def cmd_calibrate(self, args):
            return ({"step": args["step"], "state": "empty", "todo": "empty the board",
                     "missing": 64}, [])

    fb = Healthy(str(tmp_path), logs={5: log}, states={5: "running"})
    srv, url = serve_board(tmp_path, fb)
    try:
        live = json.loads(get(url + "api/live")[1])
        assert "may not land" in live["options"] and "board's game log" in live["options"]
        code, text = get(url + "api/board")
        assert code == 200 and json.loads(text)["options"] == live["options"]
        code, text = get(url + "api/board/sensors")
        r = json.loads(text)
        assert code == 200 and r["supported"] and r["svg"].lstrip().startswith("<")
        assert [h for h, _w in r["findings"]] == ["S14"]
        assert "bounced 38 times" in r["findings"][0][1]
        code, text = get(url + "api/board/self_test", "POST", {"hole": "S1"})
        assert code == 200 and json.loads(text)["verdict"] == "ok"
        code, text = get(url + "api/board/self_test", "POST", {"hole": "Z9"})
        assert code == 400 and "no hole" in json.loads(text)["error"]
        code, text = get(url + "api/board/calibrate", "POST", {"step": "start"})
        r = json.loads(text)
        assert code == 200 and r["supported"] and r["state"] == "empty" and r["missing"] == 64
        code, text = get(url + "api/board/calibrate", "POST", {"step": "bake"})
        assert code == 400 and "no calibration step" in json.loads(text)["error"]
    finally:
        srv.stop()
        fb.unplug()
    # Without a board: a clear 409.
    srv = AppServer(str(tmp_path / "logs"))
    url = srv.start(free_port())
    try:
        code, text = get(url + "api/board/sensors")
        assert code == 409 and "No board" in json.loads(text)["error"]
        snap = json.loads(get(url + "api/live")[1])
        assert "the default" in snap["options"]
    finally:
        srv.stop()


def test_calibration_on_a_reed_switch_board_says_there_is_nothing_to_calibrate():
    from samsara_host import boardlink
    from samsara_host.app.boardwatch import BoardWatch

    class Client:
        def __init__(self, code):
            self.code = code

        def request(self, name, **args):
            raise boardlink.BoardError(name, self.code, "no Hall sensors")

    class State:
        pass

    w = BoardWatch.__new__(BoardWatch)
    w.state = State()
    w.state.client = Client("not_supported")
    assert w._job_calibrate("start") == {"supported": False, "msg": "no Hall sensors"}
    w.state.client = Client("state")
    assert w._job_calibrate("save")["error"] == "no Hall sensors"


DEPLOY_FILES = [("main.py", b"import samsara.app\n" * 40),
                ("lib/samsara/rules.mpy", bytes(range(256)) * 7),
                ("lib/samsara/game.mpy", b"\x4d\x06" + b"x" * 1500),
                ("lib/board/pico.mpy", b"\x00\x01\x02'\"\\" * 100)]


def test_deploy_from_the_board_page_with_progress_refusal_and_a_cut_cable(tmp_path):
    import serial
    from fakeboard import FakeBoard
    from fakempy import FakeMicroPython
    from samsara_host import deploy_cmd

    bundle = tmp_path / "bundle"
    for path, data in DEPLOY_FILES:
        (bundle / path).parent.mkdir(parents=True, exist_ok=True)
        (bundle / path).write_bytes(data)

    class Flashable(FakeBoard):
        hash = "0ld0ld0ld0ld"

        def cmd_hello(self, args):
            fields, extra = FakeBoard.cmd_hello(self, args)
            fields["hash"] = self.hash
            return fields, extra

    fb = Flashable(str(tmp_path))

    class Pico(FakeMicroPython):
        """Slow to answer (so a second deploy meets the first), new hash on reset;
        cut_at: the file write (1-based) at which the cable goes."""
        cut_at = None

        def enter_raw_repl(self, soft_reset=True, timeout_overall=10):
            time.sleep(0.5)
            self.opens = 0
            FakeMicroPython.enter_raw_repl(self, soft_reset, timeout_overall)

        def exec(self, command, data_consumer=None):
            if command.startswith("f=open(") and command.endswith(",'wb')\nw=f.write") \
                    and deploy_cmd.MANIFEST not in command:
                self.opens += 1
                if self.opens == self.cut_at:
                    raise serial.SerialException("device reports readiness to read but "
                                                 "returned no data (device disconnected?)")
            return FakeMicroPython.exec(self, command, data_consumer)

        def exec_raw_no_follow(self, command):
            FakeMicroPython.exec_raw_no_follow(self, command)
            fb.hash = "4e3e4e3e4e3e"

    pico = Pico()
    watch = BoardWatch(fb.port, None, transport_factory=lambda port: pico)
    srv = AppServer(str(tmp_path / "logs"), watch=watch, bundle=str(bundle))
    url = srv.start(free_port())

    def live():
        return json.loads(get(url + "api/live")[1])

    def until_connected():
        end = time.monotonic() + 15
        while time.monotonic() < end and not live()["connected"]:
            time.sleep(0.05)
        return live()

    def run_deploy():
        code, text = get(url + "api/board/deploy", "POST", {"confirm": "yes"})
        assert code == 200 and json.loads(text)["running"], text
        banners = set()
        end = time.monotonic() + 30
        while time.monotonic() < end:
            job = json.loads(get(url + "api/board/deploy")[1])
            banners.add(live()["banner"])
            if not job["running"]:
                return job, banners
            time.sleep(0.05)
        raise AssertionError("the deploy did not end: %r" % job)

    try:
        assert until_connected()["hello"]["hash"] == "0ld0ld0ld0ld"
        code, text = get(url + "api/board/deploy", "POST", {})
        assert code == 400 and "confirm" in json.loads(text)["error"]
        code, text = get(url + "api/board")
        leds = json.loads(text)["leds"]
        assert leds["budget_ma"] == 290 and "board_config" in leds["where"]
        # A deploy: progress in order up to 100 %, a second one refused meanwhile.
        code, text = get(url + "api/board/deploy", "POST", {"confirm": "yes"})
        assert code == 200 and json.loads(text)["running"]
        code, text = get(url + "api/board/deploy", "POST", {"confirm": "yes"})
        assert code == 409 and "already running" in json.loads(text)["error"]
        watch_seen = set()
        end = time.monotonic() + 30
        while time.monotonic() < end:
            job = json.loads(get(url + "api/board/deploy")[1])
            watch_seen.add(live()["banner"])
            if not job["running"]:
                break
            time.sleep(0.05)
        assert job["state"] == "done", job
        assert any("Deploying firmware" in b for b in watch_seen), watch_seen
        evs = job["events"]
        assert evs[0]["event"] == "start" and evs[0]["percent"] == 0
        assert [e["percent"] for e in evs] == sorted(e["percent"] for e in evs)
        assert [e["done"] for e in evs] == sorted(e["done"] for e in evs)
        assert evs[-1] == {"event": "verified", "path": "main.py", "done": job["total"],
                           "total": job["total"], "percent": 100}
        assert [e["path"] for e in evs if e["event"] == "verified"] == \
            sorted(p for p, _d in DEPLOY_FILES)
        assert job["total"] == sum(len(d) for _p, d in DEPLOY_FILES)
        assert job["old_hash"] == "0ld0ld0ld0ld" and job["new_hash"] == "4e3e4e3e4e3e"
        assert "now runs bundle 4e3e4e3e4e3e" in job["message"]
        assert pico.resets == 1 and dict(DEPLOY_FILES).items() <= pico.files.items()
        snap = until_connected()
        assert snap["hello"]["hash"] == "4e3e4e3e4e3e" and not snap["banner"]
        # Again: nothing changed.
        job, _b = run_deploy()
        assert job["state"] == "done" and job["written"] == [], job
        assert "up to date" in job["message"] and job["percent"] == 100
        until_connected()
        # The cable goes mid-copy: the words say so, and the watch connects again.
        pico.files["lib/samsara/game.mpy"] = b"old"
        pico.files["lib/samsara/rules.mpy"] = b"old"
        pico.cut_at = 2
        job, _b = run_deploy()
        assert job["state"] == "failed", job
        assert "went away" in job["error"] and "2 of 4 files" in job["error"], job["error"]
        assert "readiness" not in job["error"]
        snap = until_connected()
        assert snap["connected"] and not snap["banner"]
        assert get(url + "api/board")[0] == 200
    finally:
        srv.stop()
        fb.unplug()
    # Without a board: a clear 409.
    srv = AppServer(str(tmp_path / "logs"))
    url = srv.start(free_port())
    try:
        code, text = get(url + "api/board/deploy", "POST", {"confirm": "yes"})
        assert code == 409 and "No board" in json.loads(text)["error"]
        assert json.loads(get(url + "api/board/deploy")[1])["state"] == "none"
    finally:
        srv.stop()


def test_undo_and_hint_are_refused_while_the_far_player_of_an_online_game_plays(tmp_path):
    # The live page during an online game: while the board's roll is the far player's,
    # Undo (a sub-move of the far turn) and Hint are refused with the reason, and the
    # board never gets them; on the near player's own turn they go through.
    from fakeboard import FakeBoard

    class Counting(FakeBoard):
        asked = []

        def cmd_undo(self, args):
            self.asked.append("undo")
            return {}, []

        def cmd_hint(self, args):
            self.asked.append("hint")
            return {"sub": None}, []

    class Bridge:
        side = "A"
        progress = {"names": {"A": "Anna", "B": "Ben"}}
        bs = {"state": "moving", "mover": "B"}

    class Game:
        bridge = Bridge()
        code = "7K3M-Q9XD-4FJT"

        def running(self):
            return True

        def game_id(self):
            return "7K3M"

        def state(self):
            return {"role": "host", "code": self.code, "game": "7K3M", "state": "playing",
                    "lines": [], "progress": None}

    fb = Counting(str(tmp_path))
    srv, url = serve_board(tmp_path, fb)
    try:
        srv.online_play.game = Game()
        for action in ("undo", "hint"):
            code, text = get(url + "api/live/" + action, "POST", {})
            assert code == 409 and "It is Ben's turn in online game 7K3M" in text, text
        assert fb.asked == []
        code, text = get(url + "api/online/game")
        assert "Undo and Hint are off" in json.loads(text)["blocks_far"]
        Bridge.bs = {"state": "moving", "mover": "A"}          # Anna's own turn
        assert json.loads(get(url + "api/online/game")[1])["blocks_far"] is None
        code, text = get(url + "api/live/undo", "POST", {})
        assert code == 200 and fb.asked == ["undo"], text
    finally:
        srv.online_play.game = None
        srv.stop()
        fb.unplug()
