"""The free heap of one whole game on the emulated Pico, sampled as densely as the rig
answers (every few device ms instead of `heap.json`'s 100 ms), with the board's lines
around each low point: where the heap row's lowest points come from
(docs/performance.md "Seventh round").

The rig serves the board (run_game.sh --serve, control port = port + 1).  A host
player plays both sides as the rig's own --play does (host-set seeded dice, a press of
the roll button, `position`, the greedy choice, each sub-move by hand: lift, 300 ms,
place, the board's answer, 250 ms) while a second thread asks the control port for the heap
(`{"query": "heap"}`) again and again.  Prints the game's lowest free heap, the lowest
point of each kind of moment (roll, placement, turn's end, game's end) and the lines
the board sent in the 400 ms before the lowest samples.

    python -m tools.heap_timeline [--seed 1] [--port 7940] [--turns N] [--json FILE]
"""
import argparse
import json
import random
import sys
import threading
import time

from tools import rig as rigmod
from tools.bench_vsboard import Link


THINK_MS = 250
"""The player's pause after the board's answer (the rig's own --think-ms)."""
ACCEPT = ("sub", "goal", "reinsert", "score", "reject", "repair")
"""The board's lines that answer a placement."""


class Sampler:
    """Asks the rig for the heap until stop(): samples [(t_ms, free bytes)]."""

    def __init__(self, srv):
        self.srv = srv
        self.samples = []
        self.alive = True
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while self.alive:
            try:
                r = self.srv.ctl({"query": "heap"}, timeout=30)
            except (OSError, ValueError, IndexError):   # (the rig stopping)
                time.sleep(0.05)
                continue
            if "free" in r and "t_ms" in r:
                self.samples.append((r["t_ms"], r["free"]))

    def stop(self):
        self.alive = False
        self.thread.join(5)


def play(srv, link, seed=1, turns=None, new_game=False, hands=None, log=print):
    """Both sides of one game through the sensors (the game the board starts at boot, as
    the rig's --play; new_game: a `new_game` line first); returns the number of turns and the
    game_over line (or None)."""
    from samsara.rules.position import Position, START_TEXT
    from samsara.rules.geometry import position_name
    from samsara_host.sim.player import LIFT, hand_actions, random_pick, strategy

    hands = [] if hands is None else hands    # (rig ms, lift|place, position)
    rng = random.Random("heap-timeline:%d" % seed)
    pick = random_pick(rng)
    choose = strategy("greedy")
    srv.ctl({"start": START_TEXT})
    srv.ctl({"wait_ms": 300})
    if new_game:
        assert link.cmd("new_game").get("ok")
    n = 0
    while turns is None or n < turns:
        d = [rng.randint(1, 6), rng.randint(1, 6)]
        assert link.cmd("set_dice", dice=d).get("ok")
        mark = link.mark()
        srv.ctl({"wait_ms": 50})
        srv.ctl({"button": "roll"})
        _i, ev = link.wait(lambda x: x.get("ev") in ("roll", "reject", "game_over", "moksha"),
                           mark, timeout=120)
        if ev["ev"] != "roll":
            with link.lock:
                over = any(x.get("ev") == "game_over" for x in link.lines)
            if ev["ev"] == "reject" and not over:
                srv.ctl({"wait_ms": 500})
                continue
            break
        pos = Position.parse(link.cmd("position")["position"])
        moves = choose(pos.r, pos.s, pos.a, pos.b, pos.mover, d[0], d[1], 0, pick)
        srv.ctl({"wait_ms": THINK_MS})
        for kind, p in hand_actions(moves, pos.a, pos.b):
            mark = link.mark()
            r = srv.ctl({"pos": position_name(p), "on": kind != LIFT})
            hands.append((r.get("t_ms", 0), kind, position_name(p)))
            if kind == LIFT:
                srv.ctl({"wait_ms": 300})
            else:   # as the rig's player: on 250 ms after the board took the placement
                link.wait(lambda x: x.get("ev") in ACCEPT, mark, timeout=120)
                srv.ctl({"wait_ms": THINK_MS})
        n += 1
        log("turn %d: %d%d, %d sub-moves" % (n, d[0], d[1], len(moves)))
        if not moves:
            srv.ctl({"wait_ms": 500})
        with link.lock:
            if any(x.get("ev") == "game_over" for x in link.lines):
                break
    try:
        _i, over = link.wait(lambda x: x.get("ev") == "game_over", 0, timeout=3)
    except RuntimeError:
        over = None
    srv.ctl({"wait_ms": 1500})      # the game's end written, its collection done
    return n, over


def latch_gaps(srv):
    """[(t_ms, gap ms)] of the scan's latch gaps over 7.5 ms so far (the rig's
    scan.json, written by a summary query): a long loop iteration, such as a
    collection."""
    import os
    try:
        q = srv.ctl({"query": "summary"})
        out = os.path.dirname(q["summary"])
        with open(os.path.join(out, "scan.json")) as f:
            lat = json.load(f)["latch_ms"]
        t0 = 0.0      # the rig's times count from the board's boot line (serial.log)
        with open(os.path.join(out, "serial.log")) as f:
            for line in f:
                t, _, text = line.partition("\t")
                if '"ev": "boot"' in text:
                    t0 = float(t)
                    break
    except (OSError, KeyError, ValueError):
        return []
    return [(a - t0, b - a) for a, b in zip(lat, lat[1:]) if b - a > 7.5]


def board_offset(hands, lines):
    """Board clock minus rig time (ms): the board's `t` counts from its power-on, the
    rig's from its boot line.  The median, over the hand's lifts, of the board's lift
    line `t` less the lift's rig time and the lift's 4 ms settle; 0 when none match."""
    diffs = []
    k = 0
    lifts = [x for x in lines if x.get("ev") == "lift" and isinstance(x.get("t"), (int, float))]
    for t, kind, name in hands:
        if kind != "lift":
            continue
        while k < len(lifts) and lifts[k].get("pos") != name:
            k += 1
        if k < len(lifts):
            diffs.append(lifts[k]["t"] - t - 4)
            k += 1
    diffs.sort()
    return diffs[len(diffs) // 2] if diffs else 0


def lows(samples, lines, n=8, window=400.0, offset=0):
    """The n lowest samples, at least `window` ms apart, each with the board's lines
    (those with a "t", moved to the rig's time by `offset`) in the window before it."""
    out = []
    for t, free in sorted(samples, key=lambda s: s[1]):
        if all(abs(t - u) > window for u, _f, _l in out):
            near = [x for x in lines if isinstance(x.get("t"), (int, float))
                    and t - window <= x["t"] - offset <= t + 5]
            out.append((t, free, near))
        if len(out) >= n:
            break
    return sorted(out)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--port", type=int, default=7940)
    p.add_argument("--turns", type=int, default=None)
    p.add_argument("--lows", type=int, default=8)
    p.add_argument("--new-game", action="store_true", help="start with a new_game line")
    p.add_argument("--json", default=None, help="write the samples and lines here")
    a = p.parse_args(argv)
    rig = rigmod.find_rig()
    if rig is None:
        print("no emulated Pico at %s (set PICO_RIG)" % rigmod.rig_dir())
        return 2
    with rigmod.Serve(rig, a.port, control=a.port + 1) as srv:
        if not srv.wait_ready():
            print(srv.log()[-1500:])
            return 1
        link = Link(a.port)
        sampler = Sampler(srv)
        hands = []
        try:
            turns, over = play(srv, link, a.seed, a.turns, a.new_game, hands)
        finally:
            sampler.stop()
            link.close()
        gaps_long = latch_gaps(srv)
    s = sampler.samples
    if not s:
        print("no heap samples")
        return 1
    ts = [t for t, _f in s]
    gaps = sorted(b - x for x, b in zip(ts, ts[1:]))
    print("%d turns, %s" % (turns, json.dumps(over) if over else "no game_over"))
    print("%d heap samples, median gap %.1f ms, max gap %.1f ms" % (
        len(s), gaps[len(gaps) // 2] if gaps else 0, gaps[-1] if gaps else 0))
    off = board_offset(hands, link.lines)
    print("(times: the rig's ms from the board's boot line; a line's own t is the board's"
          " clock, %d ms ahead)" % off)
    print("free heap: min %d B (%.1f KB), max %d B" % (
        min(f for _t, f in s), min(f for _t, f in s) / 1024.0, max(f for _t, f in s)))
    for t, free, near in lows(s, link.lines, a.lows, offset=off):
        print("\n%9.1f ms  %d B (%.1f KB)" % (t, free, free / 1024.0))
        for x in near:
            print("    %9.1f  %s" % (x["t"] - off, json.dumps(x)[:120]))
        for h0, kind, name in hands:
            if t - 400 <= h0 <= t + 5:
                print("    %9.1f  (rig) %s %s" % (h0, kind, name))
        for g0, g in gaps_long:
            if t - 400 <= g0 <= t + 50:
                print("    %9.1f  latch gap %.1f ms" % (g0, g))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"samples": s, "lines": link.lines, "gaps": gaps_long, "hands": hands,
                       "board_offset_ms": off}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
