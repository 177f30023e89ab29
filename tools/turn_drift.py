"""How the board's free heap drifts over a whole game, turn by turn, on the emulated
Pico: the floor after each turn's quiet collection, the bytes a turn adds (a
least-squares line through the floors) and the bytes the game's record holds at the
end (docs/performance.md "Eighth round").

The game is the one tools/heap_timeline.py plays for the same --seed (its dice and
greedy choices, worked out here on the computer), given to tools/upy_turn_drift.py
at the board's REPL as lifts and placements.  Seed 1 plays 28 turns, seed 3 48 and
seed 46 55.

    python -m tools.turn_drift [--seed 1] [--port 7960]
"""
import argparse
import json
import random
import re
import sys

from tools import rig as rigmod
from tools.profile_device import run_on_rig


def game_steps(seed):
    """The heap-timeline game of `seed` as steps (tools/upy_turn_drift.py's SEQ)."""
    from samsara.rules.game import Game
    from samsara.rules.geometry import position_name
    from samsara.rules.notation import format_turn
    from samsara_host.sim.player import LIFT, hand_actions, random_pick, strategy
    rng = random.Random("heap-timeline:%d" % seed)
    pick = random_pick(rng)
    choose = strategy("greedy")
    game = Game()
    steps = []
    while not game.over():
        d = (rng.randint(1, 6), rng.randint(1, 6))
        p = game.pos
        moves = choose(p.r, p.s, p.a, p.b, p.mover, d[0], d[1], 0, pick)
        steps.append(("r", d[0], d[1]))
        for kind, pos in hand_actions(moves, p.a, p.b):
            steps.append(("l" if kind == LIFT else "p", position_name(pos)))
        steps.append(("t",))
        game.play_notation(format_turn(d[0], d[1], moves))
    return steps


def slope(points):
    """Least-squares slope of [(x, y)] (bytes per turn); 0.0 for fewer than 2 points."""
    n = len(points)
    if n < 2:
        return 0.0
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--port", type=int, default=7960)
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    a = p.parse_args(argv)
    rig = rigmod.find_rig()
    if rig is None:
        print("no emulated Pico at %s (set PICO_RIG)" % rigmod.rig_dir())
        return 2
    steps = game_steps(a.seed)
    turns = sum(1 for s in steps if s[0] == "t")
    print("seed %d: %d turns, %d steps" % (a.seed, turns, len(steps)), flush=True)
    text = []
    part = [""]

    def out(chunk):
        # whole lines only: the REPL's output comes in pieces that split lines
        text.append(chunk)
        lines = (part[0] + chunk).split("\n")
        part[0] = lines.pop()
        for ln in lines:
            if ln.startswith("DRIFT") or "Error" in ln or "Traceback" in ln:
                print(ln.rstrip(), flush=True)

    with open(rigmod.ROOT + "/tools/upy_turn_drift.py") as f:
        code = f.read()
    rc = run_on_rig(rig, "SEQ = %r\n" % (steps,), code, a.port, out)
    whole = "".join(text)
    floors = [(int(k), int(v)) for k, v in re.findall(r"DRIFT turn (\d+) free=(\d+)", whole)]
    held = re.search(r"DRIFT record of (\d+) turns holds (-?\d+) B", whole)
    if rc or not floors:
        print("the probe did not finish")
        return 1
    later = [pt for pt in floors if pt[0] >= 3]      # the first turns load modules
    res = {"seed": a.seed, "turns": turns, "floors": floors,
           "bytes_per_turn": round(-slope(later), 1),
           "record_bytes": int(held.group(2)) if held else None}
    print("floor after each turn's collection: turn 3 %d B, last %d B; drift %.1f B a turn "
          "(least squares from turn 3); the record holds %s B at the end"
          % (later[0][1] if later else 0, floors[-1][1], res["bytes_per_turn"],
             res["record_bytes"]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
