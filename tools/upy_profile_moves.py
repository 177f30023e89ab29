"""Device profile of the lift and placement iterations, piece by piece: runs ON the
board (the emulated Pico) at its REPL, like tools/upy_bench_device.py (same boot, same
Feed scanner, same moves), through `python -m tools.profile_device`.  Not in the bundle.

Every piece named in WRAP is wrapped with a timer (ticks_us; about 30-60 us of overhead
per call on the Pico), then lift/placement cycles run through Loop.once on a virtual
clock; for each lift and placement iteration it prints one line
    PROF <kind> once=<us> <piece>=<us> ...   (the pieces' times in that iteration)
and then the medians.  Used to find where the answering iterations spend their time
(docs/performance.md "Third round").  SCENARIO (set by tools/profile_device.py
--scenario): "moves" (two sub-moves a cycle), "goal" (a sub-move, a goal with its
reinsertion and score, the turn's completion, the next roll) or "final" (the same goal
making the score 6: the game's end).
"""
import gc
import time

from samsara.frame import from_position, position_index, put

ticks_us = time.ticks_us
ticks_diff = time.ticks_diff

import mainloop as _NS

# (tools/upy_devkit.py, sent before this text: board, hw, clock, loop, feed,
# bench_end; its log folder is BENCH_LOG)
period = loop.period
acc = {}
order = []


def wrap(obj, name, label):
    f = getattr(obj, name)

    def w(*a):
        t0 = ticks_us()
        r = f(*a)
        d = ticks_diff(ticks_us(), t0)
        acc[label] = acc.get(label, 0) + d
        return r
    setattr(obj, name, w)
    order.append(label)


import samsara.display as _disp
import samsara.controller as _ctl
c = board.controller
wrap(loop, "_scan", "scan")
wrap(board.debounce, "step", "debounce")
wrap(board, "_commit", "commit")           # controller.on_frame (events, reading, view)
wrap(c.view, "show", "view")                # display model (targets of the marble)
wrap(_disp, "targets_of", "targets")
wrap(c, "emit", "emit")
wrap(board._painter, "draw", "paint")
wrap(board.limiter, "limit", "limit")
wrap(hw.leds, "show", "leds")
wrap(loop, "_pass_on", "events")
wrap(c, "on_settled", "settled")
wrap(c, "turn_notation", "notation")
wrap(c, "commit", "commit_turn")
import samsara.reading as _rd
wrap(_rd, "place_fast", "place_fast")
wrap(_rd, "read_goal", "read_goal")
wrap(_rd, "in_air", "in_air")
wrap(c, "_apply", "apply")
wrap(c, "_apply_goal", "apply_goal")
wrap(c.turn, "set_expected", "expected")
wrap(_ctl, "format_sub_move", "fmt_sub")
if loop.recorder is not None:
    wrap(loop.recorder, "on_event", "rec")
if loop.link is not None:
    wrap(loop.link, "on_event", "link_ev")
    wrap(loop.link, "poll", "link_poll")
wrap(loop, "serve", "serve")
loop.sinks = tuple(s for s in (loop.recorder.on_event, loop.link.on_event,
                               loop.flight.on_event))
wrap(loop, "_quiet", "quiet")
wrap(loop, "_poll", "buttons")


try:
    SCENARIO
except NameError:
    SCENARIO = "moves"
if SCENARIO == "final":
    # the goal scenario with A at 5: the score of 6 (A5-AC) ends the game (its last
    # placement: the turn's completion, the turn and game_over in the next ticks)
    START = "ooooo.................../oooooo...............o.. 5-0 A"
    DICE = (1, 3)
    MOVES = (("R5", "R6"), ("S22", "GS"), ("GS", "S7"), ("A5", "AC"))
elif SCENARIO == "goal":
    # tests/traces/goal_reinsert_first.jsonl's position; dice 1, 3: R5-R6, then S22-GS
    # (the goal), the marble out of GS onto S7, the scoring piece A0-A1 (the goal's
    # end, the turn's last die: the turn completes in the next ticks), then a roll.
    START = "ooooo.................../oooooo...............o.. 0-0 A"
    DICE = (1, 3)
    MOVES = (("R5", "R6"), ("S22", "GS"), ("GS", "S7"), ("A0", "A1"))
else:
    START = None
    DICE = (2, 2)
    MOVES = (("R1", "S15"), ("R5", "R7"))
LINE_US = 2300   # iterations printed: over this long (an idle one is about 1.8 ms here)
rows = {}


def new_game(now):
    board.new_game(position=START, now_ms=now)
    f = from_position(board.controller.game.pos)
    for i in range(8):
        feed.f[i] = f[i]
    board.set_dice(DICE[0], DICE[1])
    board.press(now, "roll")


def step_until_event(now, kind, n=60):
    """n iterations after a change; a line for every iteration over 1.5 ms."""
    first = True
    for i in range(n):
        now += period
        for k in acc:
            acc[k] = 0
        t0 = ticks_us()
        loop.once(now)
        d = ticks_diff(ticks_us(), t0)
        if d > LINE_US:
            if True:
                row = [d] + [acc.get(k, 0) for k in order]
                rows.setdefault(kind + ("" if first else "+"), []).append(row)
            first = False
            print("PROF", kind, "i=%d" % i, "once=%d" % d, " ".join("%s=%d" % (k, acc.get(k, 0)) for k in order if acc.get(k, 0)))
    return now


real_scan_inner = None
now = time.ticks_ms()
# the loop's scan wrapper calls Feed.scan
acc_scan = loop._scan
real = hw.scanner.scan


def fscan(buf):
    feed.scan(buf)
    real(bytearray(8)) if False else None


# point the wrapped scan at the feed (keep the wrapper's timing)
def _fs(buf):
    t0 = ticks_us()
    feed.scan(buf)
    acc["scan"] = acc.get("scan", 0) + ticks_diff(ticks_us(), t0)


loop._scan = _fs
try:
    for cyc in range(CYCLES):
        new_game(now)
        for _k in range(3):
            now += period
            loop.once(now)
        for a, b in MOVES:
            named = SCENARIO != "moves"
            if True:
                # the harness's own garbage (its timers' argument tuples, the lines):
                # no collection inside the steps, the pieces' own times only
                gc.collect()
                gc.disable()
            put(feed.f, position_index(a), 0)
            now = step_until_event(now, "lift" + (" " + a if named else ""))
            put(feed.f, position_index(b), 1)
            now = step_until_event(now, "place" + (" " + b if named else ""))
            gc.enable()
        now = step_until_event(now, "settle", 100)
        if SCENARIO == "goal":  # (after "final": the next cycle's new_game)
            board.set_dice(2, 5)
            board.press(now, "roll")
            now = step_until_event(now, "roll", 10)
        gc.collect()
    for kind in sorted(rows):
        r = rows[kind]
        cols = ["once"] + order
        med = []
        for i in range(len(cols)):
            xs = sorted(x[i] for x in r)
            med.append("%s=%d" % (cols[i], xs[len(xs) // 2]))
        print("MEDIAN", kind, " ".join(med))
finally:
    bench_end()
    print("BENCH done 0")
