"""The firmware on the emulated Pico (pico-rig, found through PICO_RIG; tools/rig.py),
running the firmware image (`make uf2`: the code frozen into flash, as a board ships).

One short game (`--play --seed 3 --turns 2 --keep-serving`, about 20 s with the build),
then against the same running board: the smoke checks (boots without a traceback, a
lift lights its targets, a placement is accepted, the host replay of the recorded trace
agrees), `samsara logs pull` over socket:// (the log verifies) and `samsara deploy`
while the loop runs (the board resets and comes back running the bundle over its image;
`deploy --remove` returns it to the image, the game log kept).  tests/test_flash.py
boots the image `samsara flash` copied.  Whole games run only in
`make bench-device`.  The deploy runs against a second rig in `--serve` mode, the
one that reboots on machine.reset().  Without a rig these tests skip, except under CI=true, where a
missing rig fails.  Select them with `-m rig`.
"""
import json
import os
import shutil
import subprocess
import sys
import time

import pytest

import testports

from tools import rig as rigmod

pytestmark = pytest.mark.rig

# the board's USB serial (socket://127.0.0.1:PORT), its control port, and the pair of
# the second rig of the deploy test: free ports, so parallel runs never collide
PORT, CONTROL, PORT2, CONTROL2 = testports.free_ports(4)
SEED = 3


def _need_rig():
    rig = rigmod.find_rig()
    why = None
    if rig is None:
        why = "no emulated Pico at %s (set PICO_RIG to its folder)" % rigmod.rig_dir()
    elif shutil.which("node") is None:
        why = "the emulated Pico needs Node.js (node) on the PATH"
    if why is None:
        try:
            import littlefs  # noqa: F401  (the rig packs the Pico's file system with it)
        except ImportError:
            why = "littlefs-python is not installed (requirements.txt)"
    if why is not None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but the rig cannot run: " + why)
        pytest.skip(why)
    return rig


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    """The rig after a 2-turn game, still serving: (Serve, summary dict, out folder)."""
    rig = _need_rig()
    extra = ["--play", "--seed", str(SEED), "--turns", "2", "--keep-serving"]
    with rigmod.Serve(rig, PORT, control=CONTROL, extra=extra) as srv:
        t0 = time.time()
        summary = None
        while time.time() - t0 < 150:
            log = srv.log()
            i = log.find('\n{\n "mode"')
            if i >= 0 and '"out":' in log[i:]:
                end = log.find("\n}\n", i)
                if end > 0:
                    summary = json.loads(log[i + 1:end + 3])
                    break
            if srv.proc.poll() is not None:
                break
            time.sleep(0.5)
        if summary is None:
            pytest.fail("the rig game did not finish:\n" + srv.log()[-3000:])
        yield srv, summary, summary["out"]


def _samsara(*args, timeout=120):
    cmd = [sys.executable, "-c", "import sys; from samsara_host.cli import main; sys.exit(main())"]
    return subprocess.run(cmd + list(args), capture_output=True, text=True, timeout=timeout,
                          cwd=rigmod.ROOT)


def test_smoke_game_boots_lights_accepts_and_replays(board):
    srv, s, out = board
    assert s["turns"] == 2, srv.log()[-2000:]
    assert s["tracebacks"] == [], s["tracebacks"]
    assert s["watchdog_fired_ms"] == []
    assert s["errors_and_rejects"] == []
    assert s["lifts_without_target_led"] == []
    assert s["lift_to_target_led"].startswith("n=4 "), s["lift_to_target_led"]
    assert s["place_to_sub"].startswith("n=4 "), s["place_to_sub"]
    # the host replay of the trace the rig recorded gives the same turns and scene
    r = subprocess.run([sys.executable, os.path.join(srv.rig, "check_replay.py"), rigmod.ROOT, out],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "same turns: yes" in r.stdout and "host scene: yes" in r.stdout


def test_logs_pull_over_socket_verifies(board, tmp_path):
    r = _samsara("logs", "pull", "--port", "socket://127.0.0.1:%d" % PORT,
                 "--dest", str(tmp_path), "--no-ack")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "verified" in r.stdout, r.stdout
    assert os.listdir(str(tmp_path)), "nothing pulled"


def test_deploy_over_socket_while_the_loop_runs(board):
    # --serve (not --play): only there does the rig reboot on machine.reset()
    srv0, _s, _out = board
    port = PORT2
    with rigmod.Serve(srv0.rig, port, control=CONTROL2) as srv:
        assert srv.wait_ready(), srv.log()[-2000:]
        r = _samsara("deploy", "--port", "socket://127.0.0.1:%d" % port, timeout=600)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "verified" in r.stdout and "board reset" in r.stdout, r.stdout
        assert "over its firmware image" in r.stdout, r.stdout
        # the board rebooted from its flash and its loop answers again, running the bundle
        url = "socket://127.0.0.1:%d" % port
        hello = _hello_when_back(url)
        assert hello["kind"] == "bundle", hello
        st = _samsara("logs", "list", "--port", url, "--json", timeout=60)
        assert st.returncode == 0, st.stdout + st.stderr + srv.log()[-1500:]
        r = _samsara("deploy", "--port", url, "--remove", timeout=300)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "game logs untouched" in r.stdout, r.stdout
        hello = _hello_when_back(url)
        assert hello["kind"] == "image", hello
        assert _samsara("logs", "list", "--port", url, "--json", timeout=60).stdout == st.stdout
        assert "WATCHDOG" not in srv.log()


def _hello_when_back(url, timeout=90):
    """The board's hello reply once it answers again after a reset."""
    from samsara_host import boardlink
    t0 = time.time()
    while True:
        try:
            state = boardlink.State(url)
            try:
                return state.client.request("hello", timeout=3.0)
            finally:
                state.close()
        except boardlink.LinkError:
            if time.time() - t0 > timeout:
                raise
            time.sleep(2)


def test_flight_pull_replays_the_rig_game(board, tmp_path):
    # issue 13: the board's flight recorder, pulled over the USB serial, replays to the
    # rig game's turns and final position with the same events as the rig's own trace
    from samsara_host.trace import load, replay
    out = tmp_path / "flight.jsonl"
    r = _samsara("trace", "pull", "--port", "socket://127.0.0.1:%d" % PORT, "--out", str(out),
                 "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    info = json.loads(r.stdout)
    assert info["turns"] == 2 and info["changes"] >= 8, info
    pulled = replay(load(str(out)))
    rig = replay(load(os.path.join(board[2], "trace.jsonl")))
    assert pulled.result()["turns"] == rig.result()["turns"]
    assert pulled.result()["final_position"] == rig.result()["final_position"]

    def evs(rp):
        names = ("roll", "sub", "goal", "reinsert", "score", "turn_complete", "reject")
        out = [(e["ev"], e.get("move") or e.get("turn") or e.get("dice") or e.get("reason"))
               for _t, e in rp.events if e["ev"] in names]
        return out[[k for k, e in enumerate(out) if e[0] == "roll"][0]:]
    assert evs(pulled) == evs(rig)
