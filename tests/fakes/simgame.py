"""Run firmware/main.py for a complete simulated game on the fake hardware.

    MICROPYPATH=firmware:tests/fakes:host micropython tests/fakes/simgame.py [SEED] [digital|analog] [link]

builds the fake board (rig.Rig: chip models on board_config's pins), puts the twelve
marbles and both scoring pieces in their start holes, boots main.py on the bench's
virtual clock (LED sweep, sensor check, watchdog) and runs its loop while two
scripted players (player.ScriptedPlayers) roll and move marbles until the game is
over ("link": with main.py's game log and USB link seams live, the link's event
lines on stdout).  The analog build is calibrated first with the guided calibrator, 14 pieces at a
time, and main.py loads that calibration file at boot.  Prints a summary; exit code 1
when the game did not finish cleanly.  play() is what the tests call.
"""

import sys

import bench
import board_config
import mainboot as mb  # the boot (its seams)
import player
import rig
from board import hw as hwmod
from samsara.frame import from_position
from samsara.rules.position import Position
from samsara.states import ENDED

MAX_TICKS = 400000      # 800 s of virtual time at 2 ms: far more than any game needs


def calibrate(r, cfg, path, log=None):
    """Run the guided Hall calibration on the rig's board; returns the steps taken."""
    sc, cal, status = hwmod.build_scanner(cfg, path)
    cal.rounds = 4
    cal.begin()
    r.world.set_frame(bytearray(8))
    cal.step()
    steps = 1
    while cal.state == "occupied":
        r.world.set_frame(bytearray(8))
        for p in cal.missing()[:14]:
            r.world.put(p)
        cal.step()
        steps += 1
    if cal.state != "ready":
        raise AssertionError("calibration ended in %s: %s" % (cal.state, cal.prompt()))
    cal.step()
    if log:
        log(cal.prompt())
    r.world.set_frame(bytearray(8))
    return steps


class Result:
    pass


_TMP = []


def tmp_path(name):
    """A scratch file path: in a private temporary folder removed at exit under
    CPython, in build/ under MicroPython (created when missing)."""
    try:
        import atexit
        import os
        import shutil
        import tempfile
    except ImportError:
        import os
        try:
            os.mkdir("build")
        except OSError:
            pass
        return "build/" + name
    if not _TMP:
        folder = tempfile.mkdtemp(prefix="samsara-simgame-")
        atexit.register(shutil.rmtree, folder, True)
        _TMP.append(folder)
    return os.path.join(_TMP[0], name)


def _lit(r, chain_indexes):
    """Which of these chain LEDs are lit in the strip's last frame (0/1 each)."""
    return tuple(1 if r.chain_rgb(i) != (0, 0, 0) else 0 for i in chain_indexes)


def _no_services(board, hw, now_ms):
    return None


def boot(seed=1, build="digital", cal_path=None, log=None, watchdog_ms=1000, start=None,
         link=False, frame=None, keep_events=True):
    """Build the rig and boot main.py on it (no players yet).  Returns a Result with
    rig, board, hw, loop (mainloop.Loop) and events (every board event, collected by
    the loop's `watch`; res.restore() puts mainboot's seams back).

    start: a position string to begin from instead of the start position (it goes in
    through mainboot.resume_from_log, the game log's seam).
    link: keep main.py's game log and USB link seams (the log in a scratch folder,
    the link on stdin/stdout); False replaces them by a collector, so only the
    drivers, main.py and the board core run."""
    if cal_path is None:
        cal_path = tmp_path("hallcal_sim.txt")
    cfg = rig.variant(board_config, SENSOR_BUILD=build)
    r = rig.Rig(cfg, seed=seed + 6)
    if build == "analog":
        calibrate(r, cfg, cal_path, log)
    pos = Position.parse(start) if start else Position()
    r.world.set_frame(frame if frame is not None else from_position(pos))
    res = Result()
    res.events = []
    res.saved = (mb.resume_from_log, mb.LOG_DIR, mb.open_services)

    res.dice_seen = []   # (dice rolled, lit pips of die 1 and 2, turn LEDs lit) per roll

    def collect(ev):
        if keep_events:
            res.events.append(ev)
            if ev.get("ev") == "roll":
                res.dice_seen.append((tuple(ev["dice"]), ev.get("player"),
                                      _lit(r, cfg.LED_DIE1), _lit(r, cfg.LED_DIE2),
                                      _lit(r, cfg.LED_TURN)))

    def resume(loop, now_ms, frame):
        loop.board.new_game(pos, now_ms=now_ms, frame=frame)
        return pos.format()

    def no_log(loop, now_ms, frame):
        return None

    def restore():
        (mb.resume_from_log, mb.LOG_DIR, mb.open_services) = res.saved

    res.restore = restore
    if link:
        mb.LOG_DIR = tmp_path("logs")
    else:
        mb.open_services = _no_services
        mb.resume_from_log = no_log
    if start:
        mb.resume_from_log = resume
    try:
        config = mb.make_config(cfg, seed=seed)
        loop = mb.boot(cfg, clock=r.clock, config=config, watchdog_ms=watchdog_ms,
                       cal_path=cal_path, log=log or (lambda *a: None), watch=collect)
    except Exception:
        restore()
        raise
    res.cfg = cfg
    res.rig = r
    res.board = loop.board
    res.hw = loop.hw
    res.loop = loop
    res.stats = loop.stats
    return res


def play(seed=1, build="digital", cal_path=None, log=None, max_ticks=MAX_TICKS,
         watchdog_ms=1000, start=None, link=False, split=False):
    """Boot and play one game to its end; returns the Result of boot() with players
    and virtual_ms added.  split: the game's last turn recorded at the loop's quiet
    moment, as on the Pico (boardcore.pacing.Pacing.defer_game_end)."""
    res = boot(seed, build, cal_path, log, watchdog_ms, start, link)
    res.board.pacing.defer_game_end = split
    try:
        res.players = player.ScriptedPlayers(res.board, res.rig.world, res.rig.clock,
                                             res.cfg.PIN_BTN_ROLL, seed)
        res.loop.run(max_ticks, lambda b: b.controller.state in ENDED)
        res.loop.run(50)   # 100 ms more: the final scene is shown, the players see the end
    finally:
        res.restore()
    res.virtual_ms = res.rig.clock.now
    return res


def summary(res):
    over = [e for e in res.events if e.get("ev") == "game_over"]
    turns = [e for e in res.events if e.get("ev") == "turn"]
    lines = [
        "game over: %s" % (over[0] if over else "NO"),
        "turns: %d (players played %d, %d sub-moves)" % (
            len(turns), res.players.turns, res.players.sub_moves),
        "loop: %d ticks, %d LED writes, %d events, %d presses, %d overruns" % (
            res.stats.ticks, res.stats.led_writes, res.stats.events, res.stats.presses,
            res.stats.overruns),
        "virtual time: %.1f s, strip frames: %d" % (res.virtual_ms / 1000.0,
                                                    len(res.rig.strip.frames)),
        "final position: %s" % res.board.controller.game.pos.format(),
    ]
    return lines


def _main(argv):
    seed = int(argv[1]) if len(argv) > 1 else 1
    build = argv[2] if len(argv) > 2 else "digital"
    link = "link" in argv[3:]
    res = play(seed, build, log=print, link=link)
    for line in summary(res):
        print(line)
    ok = any(e.get("ev") == "game_over" for e in res.events)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(_main(sys.argv))
