"""firmware/main.py on the fake hardware (tests/fakes): complete simulated games with
both sensor builds, an idle loop iteration under heap_lock, boot with a misplaced
marble, safe mode, the watchdog.

Runs under the MicroPython Unix port (make test-upy), under CPython
(tests/test_main_sim.py) and on the 32-bit WebAssembly port (tools/upy32/run.mjs, where
the heap_lock test is the Pico-like proof; the digital game starts late there).
"""

import bench
import mainboot
import mainloop as main
import simgame
from samsara.frame import from_position
from samsara.rules.position import Position
from samsara.states import WAITING, REPAIR, ENDED

# A late position: A needs two goals, marbles close to both goals.
LATE = "oooooo................../..................oooooo 4-5 A"


def _check_game(res):
    evs = res.events
    over = [e for e in evs if e["ev"] == "game_over"]
    assert len(over) == 1, over
    turns = [e for e in evs if e["ev"] == "turn"]
    assert len(turns) == res.players.turns, (len(turns), res.players.turns)
    assert not [e for e in evs if e["ev"] == "repair"], "the board asked for a repair"
    c = res.board.controller
    assert c.state in ENDED
    # the marbles on the (fake) board are where the board core thinks they are
    assert res.rig.world.frame == from_position(c.game.pos)
    # the last frame on the LED chain is the board's limited scene, mapped
    scene = res.board.limited_scene()
    chain = res.cfg.LED_CHAIN_OF
    for i in range(80):
        want = (scene[3 * i], scene[3 * i + 1], scene[3 * i + 2])
        assert res.rig.chain_rgb(chain[i]) == want, (i, want)
    assert res.stats.led_writes == len(res.rig.strip.frames) - 81   # 80 sweep + clear
    # the dice display and the turn indicator on the chain showed every roll
    assert len(res.dice_seen) == len([e for e in evs if e["ev"] == "roll"]) > 0
    for dice, who, pips1, pips2, turn in res.dice_seen:
        assert (sum(pips1), sum(pips2)) == dice, (dice, pips1, pips2)
        assert turn[0 if who == "A" else 1] == 1, (who, turn)
    # the watchdog was fed every iteration (the fake WDT raises when it is not)
    assert res.hw.watchdog._wdt.feeds == res.stats.ticks


def test_complete_game_digital_build():
    # The WebAssembly VM is about 8x slower: there the game starts late.
    import sys
    if sys.platform == "webassembly":
        res = simgame.play(seed=1, start=LATE)
    else:
        res = simgame.play(seed=1)
        assert res.players.turns >= 10 and res.players.sub_moves >= 20
    _check_game(res)


def test_complete_game_analog_build_from_a_late_position():
    res = simgame.play(seed=2, build="analog", start=LATE)
    _check_game(res)
    assert res.hw.cal_status == "loaded"


def test_the_games_end_at_the_loops_quiet_moment_as_on_the_pico():
    # Pacing.defer_game_end (the Pico): the last turn's record and game_over come at the
    # loop's quiet moment (QUIET_MS after the last change), not in the placement's
    # ticks; the game ends as it does without it.
    res = simgame.play(seed=2, start=LATE, split=True)
    _check_game(res)
    evs = res.events
    k = [i for i, e in enumerate(evs) if e["ev"] == "game_over"][0]
    assert [e["ev"] for e in evs[k - 2:k + 1]] == ["turn_complete", "turn", "game_over"]
    # the last placement's raw change: its place event's settle earlier
    last = [e["t"] for e in evs[:k] if e["ev"] == "place"][-1] - res.board.config.settle_place_ms
    assert main.QUIET_MS <= evs[k]["t"] - last < 2000, (last, evs[k]["t"])
    plain = simgame.play(seed=2, start=LATE)
    # (the scripted player, seeing the turn complete, may press roll before the quiet
    # moment: the press records the game's end first, then its roll is refused as
    # after any game's end)
    assert [e["ev"] for e in plain.events] == [e["ev"] for e in evs[:k + 1]]
    assert [e["ev"] for e in evs[k + 1:]] in ([], ["reject"])


def test_idle_iteration_allocates_nothing():
    res = simgame.boot(seed=3)
    try:
        loop = res.loop
        clock = res.rig.clock
        for _ in range(100):          # settle
            clock.now += 2
            loop.once(clock.ticks_ms())
        try:
            import micropython
        except ImportError:
            return                     # CPython: nothing to prove
        ticks = loop.stats.ticks
        micropython.heap_lock()
        try:
            for _ in range(200):
                clock.now += 2
                loop.once(clock.ticks_ms())
        finally:
            micropython.heap_unlock()
        assert loop.stats.ticks == ticks + 200
    finally:
        res.restore()


def test_idle_iteration_causes_no_collection():
    # heap_lock hides call frames MicroPython puts on the heap (larger than 11 words)
    # and frees on return: they count towards the next collection all the same.  Leave
    # known garbage on the heap, run idle iterations with a low collection threshold and
    # check that the garbage was not collected (docs/performance.md "Idle loop").  The
    # fakes' SPI is Python code (C on the Pico), so a builtin stands in for the scan.
    import gc
    if not hasattr(gc, "threshold"):
        return                         # CPython: nothing to prove
    res = simgame.boot(seed=3)
    try:
        loop = res.loop
        clock = res.rig.clock
        for _ in range(300):          # settle, and the quiet-time work after boot done
            clock.now += 2
            loop.once(clock.ticks_ms())
        assert not loop.garbage
        real = loop._scan
        loop._scan = len
        gc.collect()
        gc.threshold(512)
        try:
            g = bytearray(4000)
            g = None
            free0 = gc.mem_free()
            for _ in range(300):
                clock.now += 2
                loop.once(clock.ticks_ms())
            free1 = gc.mem_free()
        finally:
            gc.threshold(-1)
            loop._scan = real
        assert free1 <= free0 + 2000, ("idle iterations made the VM collect", free0, free1)
    finally:
        res.restore()


def test_boot_with_a_missing_marble_shows_the_repair_scene():
    logged = []
    res = simgame.boot(seed=4, log=logged.append)
    res.restore()
    assert res.board.controller.state == WAITING
    assert "sensor check: ok" in logged
    # again with R1 empty and a marble on R20
    fr = from_position(Position())
    fr[0] &= 0xFE
    fr[2] |= 0x08
    logged = []
    res = simgame.boot(seed=4, log=logged.append, frame=fr)
    try:
        board = res.board
        assert board.controller.state == REPAIR, board.controller.state
        assert logged[-1].startswith("sensor check: 1 missing, 1 extra"), logged
        res.loop.run(5)
        chain = res.cfg.LED_CHAIN_OF
        r1 = res.rig.chain_rgb(chain[0])
        r20 = res.rig.chain_rgb(chain[19])
        assert r1 != (0, 0, 0) and r20 != (0, 0, 0) and r1 != r20, (r1, r20)
        assert [e for e in res.events if e["ev"] == "repair"]
    finally:
        res.restore()


def test_safe_mode_when_bootsel_is_held():
    # main() returns to the REPL and says why (its line is caught here: the test
    # output stays clean, and the line must be there)
    said = []
    bench.reset()
    bench.bootsel[0] = 1
    mainboot.print = lambda *a: said.append(" ".join(str(x) for x in a))
    try:
        assert mainboot.main() is None
    finally:
        del mainboot.print
        bench.bootsel[0] = 0
    assert said == ["safe mode: BOOTSEL held, main loop not started"], said


def test_watchdog_resets_a_stalled_loop():
    res = simgame.boot(seed=5, watchdog_ms=500)
    try:
        res.loop.run(10)
        try:
            res.rig.clock.sleep_ms(600)
        except bench.WatchdogReset:
            return
        raise AssertionError("the watchdog did not fire")
    finally:
        res.restore()




def _settle_setup(res):
    # A booted game's loop after 25 iterations, a placement settle time that is no
    # multiple of the period (as 150 ms at the Pico's 4 ms), and the first empty hole of
    # the start position: (loop, config, debounce, settle ms, hole).
    loop = res.loop
    loop.run(25)
    cfg = res.board.config
    deb = res.board.debounce
    settle = (cfg.settle_place_ms // cfg.scan_ms) * cfg.scan_ms + cfg.scan_ms // 2
    deb.settle_place = settle
    start = from_position(Position())
    p = 0
    while (start[p >> 3] >> (p & 7)) & 1:
        p += 1
    return loop, cfg, deb, settle, p


def test_a_settle_time_that_ends_during_an_iteration_is_scanned_at_once():
    # An iteration that runs past the end of a pending settle time (on the Pico an
    # iteration takes 1.5-6 ms of a 4 ms period) is followed at once by the scan that
    # commits the change, not by a wait for the next period (mainloop.Loop.run).
    res = simgame.boot(seed=2)
    try:
        loop, cfg, deb, settle, p = _settle_setup(res)
        clock = res.rig.clock
        seen = []
        once = loop.once
        settled = deb.settled
        long_ms = cfg.scan_ms - 1      # an iteration this long, as a busy one on the Pico
        slow = []

        def timed(now):
            got = once(now)
            seen.append((now, (settled[p >> 3] >> (p & 7)) & 1))
            if deb.busy and not slow:
                left = clock.ticks_diff(deb.due, now)
                if 0 < left <= long_ms - 1:
                    # this iteration lasts past the settle time's end
                    slow.append(now)
                    clock.now += long_ms
            return got

        loop.once = timed
        world = res.rig.world
        t_put = clock.now + 1 + cfg.scan_ms // 2
        clock.at(t_put, lambda now: world.put(p))
        loop.run(settle // cfg.scan_ms + 10)
        assert slow, seen
        t_seen = [t for t, _ in seen if t >= t_put][0]
        committed = [t for t, on in seen if on]
        assert committed, seen
        # the scan right after the long iteration, at its end, commits the placement
        assert committed[0] == slow[0] + long_ms, (t_seen, slow, committed[0], seen[-12:])
        assert committed[0] - t_seen < settle + cfg.scan_ms // 2 + long_ms
    finally:
        res.restore()


def test_a_placement_is_scanned_when_its_settle_time_ends():
    # The loop scans every scan_ms, and once more at the end of a pending settle time
    # (mainloop.Loop.run): a marble put on a hole between two scans commits exactly
    # settle_place_ms after the scan that saw it, not up to a period later.
    res = simgame.boot(seed=2)
    try:
        loop, cfg, deb, settle, p = _settle_setup(res)
        seen = []           # (time of the iteration, the hole's settled bit after it)
        once = loop.once
        settled = deb.settled

        def timed(now):
            got = once(now)
            seen.append((now, (settled[p >> 3] >> (p & 7)) & 1))
            return got

        loop.once = timed
        world = res.rig.world
        t_put = res.rig.clock.now + 1 + cfg.scan_ms // 2   # between two scans
        res.rig.clock.at(t_put, lambda now: world.put(p))
        loop.run(settle // cfg.scan_ms + 10)
        t_seen = [t for t, _ in seen if t >= t_put][0]
        committed = [t for t, on in seen if on]
        assert committed, seen
        assert committed[0] == t_seen + settle, (t_put, t_seen, committed[0])
        # and the regular scans go on from there
        times = [t for t, _ in seen]
        i = times.index(committed[0])
        assert times[i + 1] - times[i] == cfg.scan_ms, times[i:i + 3]
    finally:
        res.restore()
