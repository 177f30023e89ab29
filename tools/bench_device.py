"""`make bench-device`: the device figures on the emulated Pico (pico-rig), running the
firmware image (`make uf2`: the code frozen into flash, as a board ships; `--firmware
bundle` runs the `.mpy` bundle on stock MicroPython instead, for comparing).

0. The image: its size in flash and the file system left beside it; the boot of the
   image and of the bundle: reset -> first sensor scan, reset -> `hello` answered, and
   the log space a new game finds (`logs` `free`), side by side (tools/bench_boot.py).
1. Whole games: run_game.sh --play --seed N for seeds 1..5 (at most 2 at a time, each
   on its own port), then the table rows from each game's summary.json, scan.json and
   lifts.json.
2. The device micro benchmark (tools/upy_bench_device.py through `samsara bench`'s
   run_bench) on a served rig: rules engine, idle/lift/placement iterations with their
   parts, collections per idle minute, free heap.
3. With --vs-board: a whole game against the board (tools/bench_vsboard.py: the human
   side through the rig's control port, the board's by following its lights): the
   engine's decision times (roll -> first sub-move lit; p99 <= 2 s) and the lowest
   free heap in such a game, the engine thinking (>= 160 KB).
Prints the table (figure per seed, target, PASS/FAIL) and writes build/bench-device.json.

    python -m tools.bench_device [--seeds 1-5] [--jobs 2] [--port 7910]
        [--no-games] [--no-micro] [--idle-s 60] [--micro-port PORT] [--from DIR ...]
        [--micro-from JSON]
        [--json FILE] [--vs-board [--vs-port 7831] [--vs-seed 1]]
        [--firmware image|bundle] [--no-boot] [--boot-port 7940]
--from re-reads the outputs folders of earlier games (in seed order) instead of playing;
--micro-from takes the micro figures from an earlier run's JSON.
The rig is found through PICO_RIG (tools/rig.py).  Figures are device time; the
emulator has no flash wait states or XIP cache misses, so a real Pico is somewhat
slower (docs/performance.md "Device figures (emulated Pico)").
"""
import argparse
import json
import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor

from tools import rig as rigmod

GAP_MS = 7.5        # a latch gap longer than this is an overrun (1.5 scan periods)
NEAR_MS = 300.0     # ... near a lift or placement when it starts this soon after one
SETTLE_PLACE_MS = 150   # the firmware's default placement settle (samsara.config)
MARGIN_MS = 15          # what the answer may add to a settle: a real Pico, whose flash has
                        # wait states the emulator does not model, keeps its targets


def stat(text, key):
    """A figure from the rig's 'n=4 min 1.0 p50 3.2 ... max 3.8 ms' strings (None if n=0)."""
    if not isinstance(text, str):
        return None
    m = re.search(r"\b%s (-?[0-9.]+)" % key, text)
    return float(m.group(1)) if m else None


def overruns(latches, lifts):
    """(near, total, worst): latch gaps > GAP_MS, those starting within NEAR_MS after a
    lift or placement (lifts.json `t` of lifts and places), the longest gap in ms."""
    events = sorted([x["t"] for x in lifts.get("lifts", [])] + [x["t"] for x in lifts.get("places", [])])
    near = total = 0
    worst = 0.0
    k = 0
    for a, b in zip(latches, latches[1:]):
        gap = b - a
        worst = max(worst, gap)
        if gap <= GAP_MS:
            continue
        total += 1
        while k < len(events) and events[k] < a - NEAR_MS:
            k += 1
        if any(t <= a <= t + NEAR_MS for t in events[k:k + 8]):
            near += 1
    return near, total, worst


def boot_ms(out):
    """Rig time of the board's boot event (serial.log), when its loop starts; 0 if none."""
    with open(os.path.join(out, "serial.log")) as f:
        for line in f:
            t, _, text = line.partition("\t")
            if '"ev": "boot"' in text:
                return float(t)
    return 0.0


def game_figures(out):
    """The table's figures of one game from its outputs folder."""
    def load(name):
        with open(os.path.join(out, name)) as f:
            return json.load(f)
    s = load("summary.json")
    latches = load("scan.json")["latch_ms"]
    boot = boot_ms(out)
    latches = [t for t in latches if t >= boot]   # the loop's latches, not the boot's
    near, total, worst = overruns(latches, load("lifts.json"))
    place = [stat(s.get(k), "max") for k in ("place_to_sub", "place_to_reinsert", "place_to_score")]
    place = [p for p in place if p is not None]
    loop = (s.get("final_status") or {}).get("loop") or {}
    return {
        "out": out,
        "turns": s.get("turns"),
        "game_over": s.get("game_over"),
        "scan_p50_hz": stat(s["scan"]["per_second"], "p50"),
        "scan_min_hz": stat(s["scan"]["per_second"], "min"),
        "overruns_near": near,
        "overruns_total": total,
        "latch_gap_max_ms": round(worst, 1),
        "status_overruns": loop.get("overruns"),
        "status_max_ms": loop.get("max_ms"),
        "lift_to_target_led_p50_ms": stat(s.get("lift_to_target_led"), "p50"),
        "lift_to_target_led_max_ms": stat(s.get("lift_to_target_led"), "max"),
        "lifts_without_target_led": len(s.get("lifts_without_target_led") or []),
        "place_to_accept_p50_ms": stat(s.get("place_to_sub"), "p50"),
        "place_to_accept_max_ms": max(place) if place else None,
        "heap_free_min_kb": round(s["heap"]["free_min"] / 1024.0, 1),
        "flash": s.get("flash"),
        "watchdog_fired": len(s.get("watchdog_fired_ms") or []),
        "tracebacks": len(s.get("tracebacks") or []),
    }


def play_all(rig, seeds, port, jobs, firmware="image"):
    def one(i_seed):
        i, seed = i_seed
        g = rigmod.play(rig, seed, port + i, firmware=firmware)
        print("seed %d: rig exit %d, replay agrees: %s, %s" % (
            seed, g.rc, "yes" if g.replay_agrees() else "NO", g.out), flush=True)
        return g
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        return list(ex.map(one, enumerate(seeds)))


# (label, key, target text, test) for the game rows
GAME_ROWS = [
    ("scan rate p50 (Hz)", "scan_p50_hz", ">= 220", lambda v: v >= 220),
    ("overruns near lift/place", "overruns_near", "0", lambda v: v == 0),
    ("  latch gaps > 7.5 ms, all", "overruns_total", "(info)", None),
    ("  longest latch gap (ms)", "latch_gap_max_ms", "(info)", None),
    ("  status loop overruns", "status_overruns", "(info)", None),
    ("lift -> target LED max (ms)", "lift_to_target_led_max_ms", "<= 15", lambda v: v <= 15),
    ("placement -> accept max (ms)", "place_to_accept_max_ms", "<= %d" % (SETTLE_PLACE_MS + MARGIN_MS),
     lambda v: v <= SETTLE_PLACE_MS + MARGIN_MS),
    ("lowest free heap (KB)", "heap_free_min_kb", ">= 180", lambda v: v >= 180),
]


def fmt(v):
    if v is None:
        return "-"
    if isinstance(v, float):
        return "%.1f" % v
    return str(v)


def table(seeds, games, micro):
    """The issue's table as lines; returns (lines, all_pass)."""
    lines = []
    ok_all = True
    head = "%-30s" % "figure (device time)" + "".join("%9s" % ("seed %d" % s) for s in seeds)
    head += "  %-10s %s" % ("target", "result")
    lines.append(head)
    lines.append("-" * len(head))
    for label, key, target, test in (GAME_ROWS if games else []):
        vals = [g.get(key) if g else None for g in games]
        res = ""
        if test is not None:
            good = all(v is not None and test(v) for v in vals)
            res = "PASS" if good else "FAIL"
            ok_all = ok_all and good
        lines.append("%-30s" % label + "".join("%9s" % fmt(v) for v in vals) + "  %-10s %s" % (target, res))
    if micro:
        def us(name, i):
            v = micro.get(name)
            return v[i] / 1000.0 if v else None
        rows = [
            ("idle Loop.once() p99 (ms)", us("idle_once", 1), "<= 2.0", lambda v: v <= 2.0,
             "median %s, max %s" % (fmt(us("idle_once", 0)), fmt(us("idle_once", 2)))),
            ("Moksha decision max (ms)", us("moksha_natural", 2), "<= 50", lambda v: v <= 50,
             "after a collect: max %s" % fmt(us("moksha_clean", 2))),
        ]
        for label, v, target, test, note in rows:
            good = v is not None and test(v)
            ok_all = ok_all and good
            lines.append("%-30s %-*s  %-10s %s" % (label, 9 * len(seeds) - 1,
                                                  "device bench: %s (%s)" % (fmt(v), note),
                                                  target, "PASS" if good else "FAIL"))
    return lines, ok_all


def parse_seeds(text):
    if "-" in text:
        a, b = text.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(x) for x in text.split(",")]


def main(argv=None):
    p = argparse.ArgumentParser(prog="bench_device", description=__doc__.split("\n")[0])
    p.add_argument("--seeds", default="1-5")
    p.add_argument("--jobs", type=int, default=2, help="games at a time (default 2)")
    p.add_argument("--port", type=int, default=7910, help="first TCP port (default 7910)")
    p.add_argument("--no-games", action="store_true")
    p.add_argument("--no-micro", action="store_true")
    p.add_argument("--idle-s", type=int, default=60)
    p.add_argument("--micro-port", type=int, default=None,
                   help="TCP port of the served rig for the micro benchmark (its control port is "
                        "the next one; default: --port + 13)")
    p.add_argument("--from", dest="dirs", nargs="*", help="outputs folders of earlier games")
    p.add_argument("--micro-from", metavar="FILE",
                   help="the micro figures of an earlier run's JSON instead of running it")
    p.add_argument("--json", default=os.path.join(rigmod.ROOT, "build", "bench-device.json"))
    p.add_argument("--vs-board", action="store_true",
                   help="also play a whole game against the board (tools/bench_vsboard.py)")
    p.add_argument("--vs-port", type=int, default=7831,
                   help="TCP port of the vs-board game's rig (control: +1; default 7831)")
    p.add_argument("--vs-seed", type=int, default=1)
    p.add_argument("--firmware", choices=("image", "bundle"), default="image",
                   help="what the emulated Pico runs (default: the firmware image)")
    p.add_argument("--no-boot", action="store_true",
                   help="skip the image facts and the boot of image and bundle")
    p.add_argument("--boot-port", type=int, default=7940,
                   help="TCP port of the boot measurements (control: +1; default 7940)")
    a = p.parse_args(argv)
    rig = rigmod.find_rig()
    if rig is None and not a.dirs:
        print("bench-device: no emulated Pico at %s (set PICO_RIG)" % rigmod.rig_dir())
        return 2
    seeds = parse_seeds(a.seeds)
    print("firmware: %s" % ("the image (make uf2)" if a.firmware == "image"
                            else "the .mpy bundle on stock MicroPython 1.22"), flush=True)
    boot = None
    if not a.no_boot and rig is not None and not a.dirs:
        from tools import bench_boot
        boot = bench_boot.measure(rig, a.boot_port)
        print("\n".join(bench_boot.report(boot)) + "\n", flush=True)
    games = []
    if a.dirs:
        games = [game_figures(d) for d in a.dirs]
        seeds = seeds[:len(games)] if len(seeds) >= len(games) else list(range(1, len(games) + 1))
    elif not a.no_games:
        played = play_all(rig, seeds, a.port, max(1, min(2, a.jobs)), a.firmware)
        for g in played:
            games.append(game_figures(g.out) if g.out and os.path.exists(
                os.path.join(g.out, "summary.json")) else None)
            if g.rc != 0 or not g.replay_agrees():
                print("warning: rig exit %d, replay agrees %s:\n%s" % (
                    g.rc, g.replay_agrees(), g.log[-1500:]))
    micro = None
    if a.micro_from:
        with open(a.micro_from) as f:
            micro = json.load(f)["micro"]
    elif not a.no_micro and rig is not None:
        from samsara_host.bench_cmd import report_lines, run_bench
        port = a.micro_port or a.port + 13   # 7923 (control 7924): clear of the games and
                                             # tests/test_rig.py
        with rigmod.Serve(rig, port, control=port + 1, firmware=a.firmware) as srv:
            if not srv.wait_ready():
                print("bench-device: the served rig did not come up:\n" + srv.log()[-1500:])
                return 1
            micro = run_bench("socket://127.0.0.1:%d" % port, idle_s=a.idle_s)
        print("\n".join(report_lines(micro)))
        print()
    if not games:
        games = [None] * len(seeds) if not a.no_games else []
        seeds = seeds if games else []
    lines, ok = table(seeds, games, micro)
    if boot is not None:
        ok = ok and boot["pass"]
    vs = None
    if a.vs_board and rig is not None:
        from tools import bench_vsboard
        vs = bench_vsboard.run(a.vs_seed, a.vs_port, 1, None, log=lambda *_: None,
                               firmware=a.firmware)
        vs.pop("summary", None)
        vs_lines = bench_vsboard.report(vs)
        lines += [""] + vs_lines
        ok = ok and all(line.endswith("PASS") for line in vs_lines[:2])
    print("\n".join(lines))
    for s, g in zip(seeds, games):
        if g:
            print("seed %d: %s turns, game over %s, flash %s, watchdog fired %d, tracebacks %d" % (
                s, g["turns"], json.dumps(g["game_over"]), json.dumps(g["flash"]),
                g["watchdog_fired"], g["tracebacks"]))
    os.makedirs(os.path.dirname(a.json), exist_ok=True)
    with open(a.json, "w") as f:
        json.dump({"firmware": a.firmware, "boot": boot, "seeds": seeds, "games": games,
                   "micro": micro, "vs_board": vs, "all_pass": ok}, f,
                  indent=1, sort_keys=True)
    shown = os.path.relpath(a.json, rigmod.ROOT)
    print("figures written to %s (all rows pass: %s)" % (a.json if shown.startswith("..") else shown, ok))
    return 0


if __name__ == "__main__":
    sys.exit(main())
