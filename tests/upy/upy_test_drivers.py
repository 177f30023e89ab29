"""Driver tests against chip models (tests/fakes): 74HC165 chain over SPI, CD74HC4067
muxes + ADC with noise, WS2812 strip recording frames, buttons, watchdog.

Runs under the MicroPython Unix port (tests/upy/run.py, MICROPYPATH=firmware:tests/upy:
tests/fakes) and under CPython (tests/test_drivers.py runs every test_* here).
No mocks: the fakes are small real classes, so a misspelt hardware call fails.
"""

import bench
import chips
import machine
import neopixel

from board.sr165 import ShiftRegisterScanner
from board.hall import HallScanner, HallCalibration, CalibrationError
from board.calibrate import HallCalibrator
from board.leds import LedChain
from board.buttons import Buttons
from board.watchdog import Watchdog, keep_alive
from boardcore.ticks import ticks_diff

# GPIOs as in hardware/pins.csv
SR_DATA, SR_LOAD, SR_CLK, SR_MOSI = 16, 17, 18, 19
LED_DATA = 22
BTN_ROLL, BTN_UNDO = 20, 21
MUX_SEL = (10, 11, 12, 13)
MUX_EN = (6, 7, 8, 9)
MUX_ADC = 26


def _perm_table(n, stride, width):
    """A scrambled position -> (chip*8+bit or mux*16+ch) table covering n positions."""
    t = bytearray(64)
    for p in range(64):
        t[p] = (p * stride) % width
    return t


CHIP_BIT = _perm_table(64, 37, 64)      # 37 is odd: a permutation of 0..63
MUX_CHAN = _perm_table(64, 13, 64)


def _digital_rig(chip_bit=CHIP_BIT, polarity=0, phase=0):
    bench.reset()
    world = chips.World()
    src = {}
    for p in range(64):
        src[chip_bit[p]] = p

    def inputs(c):
        # reed switch to ground with pull-up: marble -> 0 on the wire
        v = 0xFF
        for b in range(8):
            p = src.get(c * 8 + b)
            if p is not None and world.get(p):
                v &= ~(1 << b)
        return v & 0xFF

    chain = chips.HC165Chain(8, SR_CLK, SR_LOAD, SR_DATA, inputs)
    spi = machine.SPI(0, baudrate=4000000, polarity=polarity, phase=phase,
                      sck=machine.Pin(SR_CLK), mosi=machine.Pin(SR_MOSI),
                      miso=machine.Pin(SR_DATA))
    load = machine.Pin(SR_LOAD, machine.Pin.OUT, value=1)
    sc = ShiftRegisterScanner(spi, load, chip_bit)
    return world, chain, sc, spi


def _frame_of(positions):
    fr = bytearray(8)
    for p in positions:
        fr[p >> 3] |= 1 << (p & 7)
    return fr


def _tmp(name):
    """A scratch file path: the system temp folder under CPython, build/ under
    MicroPython (created when missing)."""
    try:
        import tempfile
        import os
        return os.path.join(tempfile.gettempdir(), "samsara_" + name)
    except ImportError:
        import os
        try:
            os.mkdir("build")
        except OSError:
            pass
        return "build/" + name


START = list(range(0, 6)) + list(range(24, 30)) + [50, 57]   # R1-6, S1-6, A0, B0


# --- 74HC165 chain ---------------------------------------------------------------


def test_sr165_reads_every_position_through_the_chain():
    world, chain, sc, spi = _digital_rig()
    buf = bytearray(8)
    sc.scan(buf)
    assert buf == bytearray(8), buf
    for p in range(64):
        world.set_frame(_frame_of([p]))
        sc.scan(buf)
        assert buf == _frame_of([p]), (p, buf)
    world.set_frame(_frame_of(START))
    sc.scan(buf)
    assert buf == _frame_of(START)
    # 64 clock edges per scan, one load per scan
    assert chain.loads == 66 and spi.bytes_moved == 66 * 8


def test_sr165_wrong_spi_mode_reads_wrong_bits():
    # Mode 1 samples after the chip has shifted: D7 of chip 0 is lost.
    world, chain, sc, spi = _digital_rig(phase=1)
    world.set_frame(_frame_of(START))
    buf = bytearray(8)
    sc.scan(buf)
    assert buf != _frame_of(START)


def test_sr165_unchanged_inputs_keep_frame_and_caller_buffer():
    world, chain, sc, spi = _digital_rig()
    world.set_frame(_frame_of(START))
    a = bytearray(8)
    b = bytearray(8)
    sc.scan(a)
    sc.scan(b)          # no change: the frame is copied, not rebuilt
    assert a == b == _frame_of(START)
    world.lift(0)
    sc.scan(a)
    assert a == _frame_of(START[1:])


def test_sr165_changed_bits_map_as_all_positions():
    # After the first scan only the changed inputs are remapped: every frame of a
    # sequence of lifts, placements and several changes at once reads as a fresh
    # scanner (which maps all 64 positions) reads it; also with an unwired position
    # and with two positions on one input (that table always maps all 64).
    shared = bytearray(CHIP_BIT)
    shared[9] = shared[10]
    unwired = bytearray(CHIP_BIT)
    unwired[5] = 0xFF
    for table in (CHIP_BIT, unwired, shared):
        world, chain, sc, spi = _digital_rig(chip_bit=table)
        buf = bytearray(8)
        occupied = set(START)
        seq = [(0, False), (24, False), (40, True), (5, True), (9, False), (10, True),
               (63, True), (57, False), (0, True), (7, True)]
        world.set_frame(_frame_of(sorted(occupied)))
        sc.scan(buf)
        for k in range(len(seq)):
            p, on = seq[k]
            if on:
                occupied.add(p)
            else:
                occupied.discard(p)
            if k % 3 == 2:
                continue          # two or three changes seen by one scan
            world.set_frame(_frame_of(sorted(occupied)))
            sc.scan(buf)
            fresh = ShiftRegisterScanner(spi, machine.Pin(SR_LOAD, machine.Pin.OUT),
                                         table)
            want = bytearray(8)
            fresh.scan(want)
            assert buf == want, (k, buf, want)


def test_sr165_rejects_bad_tables():
    bench.reset()
    spi = machine.SPI(0)
    load = machine.Pin(SR_LOAD, machine.Pin.OUT)
    for bad in (bytearray(63), bytearray([0] * 63 + [64])):
        try:
            ShiftRegisterScanner(spi, load, bad)
        except ValueError:
            continue
        raise AssertionError("accepted a bad table")


def test_sr165_unwired_position_reads_empty():
    t = bytearray(CHIP_BIT)
    t[5] = 0xFF
    world, chain, sc, spi = _digital_rig(chip_bit=t)
    world.set_frame(_frame_of([4, 5, 6]))
    buf = bytearray(8)
    sc.scan(buf)
    assert buf == _frame_of([4, 6])


# --- fakes reject what the hardware would reject ----------------------------------


def _raises(exc, fn, *args, **kw):
    try:
        fn(*args, **kw)
    except exc:
        return True
    raise AssertionError("%s not raised" % exc.__name__)


class _MisspeltScanner(ShiftRegisterScanner):
    def read_raw(self):
        self._load.value(0)
        self._load.value(1)
        self._spi.read_into(self._raw)   # misspelt: readinto
        return self._raw


def test_misspelt_hardware_call_fails():
    world, chain, sc, spi = _digital_rig()
    bad = _MisspeltScanner(spi, machine.Pin(SR_LOAD, machine.Pin.OUT), CHIP_BIT)
    _raises(AttributeError, bad.scan, bytearray(8))
    _raises(AttributeError, getattr, machine.Pin(2), "vaule")
    _raises(AttributeError, getattr, machine.ADC(26), "read_u61")
    _raises(AttributeError, getattr, machine, "SPl")


def test_fakes_enforce_rp2040_pin_functions():
    bench.reset()
    _raises(ValueError, machine.Pin, 30)
    _raises(ValueError, machine.SPI, 0, sck=machine.Pin(10))       # GPIO10 is SPI1
    _raises(ValueError, machine.SPI, 2)
    _raises(ValueError, machine.ADC, machine.Pin(22))              # no ADC on GPIO22
    _raises(ValueError, machine.WDT, timeout=9000)
    _raises(TypeError, machine.SPI, 0, baudrat=1000)              # misspelt keyword


# --- analog Hall sensors ------------------------------------------------------------


def _analog_rig(noise=12, steps=16, seed=7):
    bench.reset()
    world = chips.World()
    field = chips.HallField(world, MUX_CHAN, seed=seed, noise=noise)
    muxes = field.attach(MUX_SEL, MUX_EN, MUX_ADC)
    sel = [machine.Pin(g, machine.Pin.OUT, value=0) for g in MUX_SEL]
    ens = [machine.Pin(g, machine.Pin.OUT, value=1) for g in MUX_EN]
    adc = machine.ADC(machine.Pin(MUX_ADC))
    sc = HallScanner(adc, sel, ens, MUX_CHAN, steps_per_scan=steps)
    return world, field, sc, adc, muxes


def _calibrate_from_field(sc, field):
    cal = HallCalibration()
    for p in range(64):
        cal.set_levels(p, field.empty[p], field.empty[p] + field.delta[p])
    sc.cal = cal


def test_hall_scan_reads_every_sensor_once_per_full_scan():
    world, field, sc, adc, muxes = _analog_rig()
    _calibrate_from_field(sc, field)
    buf = bytearray(8)
    sc.scan(buf)
    assert adc.reads == 64
    assert buf == bytearray(8)
    world.set_frame(_frame_of(START))
    sc.scan(buf)
    assert buf == _frame_of(START), buf
    for p in range(64):
        lv = sc.level[p]
        want = field.empty[p] + (field.delta[p] if world.get(p) else 0)
        assert abs(lv - want) <= 2 * field.noise + 1, (p, lv, want)


def test_hall_partial_scans_cover_everything_in_turn():
    world, field, sc, adc, muxes = _analog_rig(steps=4)
    _calibrate_from_field(sc, field)
    world.set_frame(_frame_of(START))
    buf = bytearray(8)
    sc.scan(buf)
    assert adc.reads == 16
    for _ in range(3):
        sc.scan(buf)
    assert buf == _frame_of(START)


def test_hall_hysteresis_holds_near_threshold():
    world, field, sc, adc, muxes = _analog_rig(noise=0)
    _calibrate_from_field(sc, field)
    buf = bytearray(8)
    p = 7
    e = field.empty[p]
    d = field.delta[p]
    # a reading just past half-way does not turn on (threshold 5/8)...
    field.empty[p] = e + (d * 9) // 16
    sc.scan(buf)
    assert not (buf[0] >> 7) & 1
    field.empty[p] = e + (d * 6) // 8
    sc.scan(buf)
    assert (buf[0] >> 7) & 1
    # ...and once on, it stays on down to 3/8
    field.empty[p] = e + (d * 7) // 16
    sc.scan(buf)
    assert (buf[0] >> 7) & 1
    field.empty[p] = e + d // 4
    sc.scan(buf)
    assert not (buf[0] >> 7) & 1


def test_hall_uncalibrated_defaults_see_either_direction():
    world, field, sc, adc, muxes = _analog_rig()
    world.set_frame(_frame_of(START))
    buf = bytearray(8)
    sc.scan(buf)
    assert buf == _frame_of(START)


def test_hall_never_enables_two_muxes():
    # The COM model raises on contention: a full scan proves one /E at a time.
    world, field, sc, adc, muxes = _analog_rig()
    buf = bytearray(8)
    for _ in range(3):
        sc.scan(buf)
    machine.Pin(MUX_EN[0], machine.Pin.OUT, value=0)
    machine.Pin(MUX_EN[1], machine.Pin.OUT, value=0)
    _raises(RuntimeError, adc.read_u16)


def test_calibration_file_roundtrip_and_torn_file():
    tmp = _tmp("hallcal_test.txt")
    cal = HallCalibration()
    for p in range(64):
        cal.set_levels(p, 2000 + p, 2600 + p if p % 2 else 1400 + p)
    cal.save(tmp)
    other = HallCalibration()
    other.load(tmp)
    assert list(other.empty) == list(cal.empty)
    assert list(other.occupied) == list(cal.occupied)
    assert list(other.on_d) == list(cal.on_d) and list(other.sign) == list(cal.sign)
    text = cal.dumps()
    torn = text[: len(text) // 2]
    fresh = HallCalibration()
    _raises(CalibrationError, fresh.loads, torn)
    _raises(CalibrationError, fresh.loads, text.replace("\n5 2005", "\n5 2006"))
    assert not fresh.measured and fresh.occupied[1] == 0
    _raises(CalibrationError, fresh.load, _tmp("no_such_hallcal.txt"))
    import os
    os.remove(tmp)


def test_guided_calibration_with_twelve_marbles():
    tmp = _tmp("hallcal_guided.txt")
    world, field, sc, adc, muxes = _analog_rig(noise=20)
    cal = HallCalibrator(sc, tmp, rounds=4)
    cal.begin()
    assert cal.state == "empty" and "empty the board" in cal.prompt()
    cal.step()
    assert cal.state == "occupied", cal.prompt()
    rounds = 0
    while cal.state == "occupied":
        miss = cal.missing()
        world.set_frame(bytearray(8))
        for p in miss[:14]:          # 12 marbles and 2 scoring pieces
            world.put(p)
        cal.step()
        rounds += 1
    assert rounds == 5, rounds
    assert cal.state == "ready"
    cal.step()
    assert cal.state == "done" and "saved" in cal.prompt()
    for p in range(64):
        assert abs(sc.cal.empty[p] - field.empty[p]) <= 20
        assert abs(sc.cal.occupied[p] - field.empty[p] - field.delta[p]) <= 20
    again = HallCalibration()
    again.load(tmp)
    assert list(again.occupied) == list(sc.cal.occupied)
    world.set_frame(_frame_of(START))
    buf = bytearray(8)
    sc.scan(buf)
    assert buf == _frame_of(START)
    import os
    os.remove(tmp)


def test_guided_calibration_single_hole_and_failures():
    tmp = _tmp("hallcal_single.txt")
    world, field, sc, adc, muxes = _analog_rig()
    before = sc.cal
    cal = HallCalibrator(sc, tmp, rounds=2)
    world.put(3)                        # a marble left on the board
    field.empty[3] = 3900 if field.delta[3] > 0 else 100
    cal.begin()
    cal.step()
    assert cal.state == "failed" and "R4" in cal.prompt()
    cal.abort()
    assert sc.cal is before and cal.state == "idle"
    world.lift(3)
    field.empty[3] = 2048
    cal.begin()
    cal.step()
    cal.hole(40)
    assert "S17" in cal.prompt()
    world.put(40)
    world.put(41)
    cal.step()
    miss = cal.missing()
    assert 40 not in miss and 41 in miss     # only the named hole was measured
    cal.skip()
    assert cal.state == "done" and sc.cal.occupied[40] and not sc.cal.occupied[41]
    import os
    os.remove(tmp)


# --- LEDs --------------------------------------------------------------------------


def _chain_table():
    t = bytearray(80)
    for i in range(80):
        t[i] = (i * 7 + 3) % 80
    return t


def test_leds_map_logical_order_to_chain_in_grb():
    bench.reset()
    strip = chips.PixelStrip(LED_DATA, 80)
    np = neopixel.NeoPixel(machine.Pin(LED_DATA), 80)
    t = _chain_table()
    leds = LedChain(np, t)
    scene = bytearray(240)
    for i in range(80):
        scene[3 * i] = i
        scene[3 * i + 1] = 100 + i
        scene[3 * i + 2] = 200 - i
    leds.show(scene)
    assert len(strip.frames) == 1
    for i in range(80):
        assert strip.rgb(t[i]) == (i, 100 + i, 200 - i), i
    raw = strip.frames[0]
    c = t[0]
    assert raw[3 * c] == 100 and raw[3 * c + 1] == 0     # green first on the wire
    leds.clear()
    assert strip.frames[-1] == bytes(240)


def test_leds_viper_copy_matches_the_bytecode_copy():
    # The viper loop (where the VM has the emitter) and the bytecode loop put every
    # logical pixel at its chain offset in the chain's colour order.
    import board.leds as leds
    from array import array
    scene = bytearray([(i * 7 + 3) & 0xFF for i in range(240)])
    dst = array("H", [(79 - i) * 3 for i in range(80)])
    dst[5] = 0xFFFF                       # a logical LED not fitted
    a = bytearray(240)
    b = bytearray(240)
    leds._copy(scene, a, dst, 1, 0, 2)    # GRB
    leds.copy_bytecode(scene, b, dst, 1, 0, 2)
    assert a == b
    assert a[79 * 3:79 * 3 + 3] == bytes([scene[1], scene[0], scene[2]])
    assert a[(79 - 5) * 3:(79 - 5) * 3 + 3] == b"\x00\x00\x00"


def test_leds_reject_bad_tables():
    bench.reset()
    np = neopixel.NeoPixel(machine.Pin(LED_DATA), 80)
    _raises(ValueError, LedChain, np, bytearray(79))
    t = _chain_table()
    t[5] = 80
    _raises(ValueError, LedChain, np, t)


# --- buttons -----------------------------------------------------------------------


def _buttons():
    bench.reset()
    roll = machine.Pin(BTN_ROLL, machine.Pin.IN, machine.Pin.PULL_UP)
    undo = machine.Pin(BTN_UNDO, machine.Pin.IN, machine.Pin.PULL_UP)
    return Buttons((roll, undo), debounce_ms=20, long_ms=700)


def _run(btn, events, t0, t1, step=5):
    t = t0
    while t < t1:
        ev = btn.poll(t)
        if ev is not None:
            events.append((t, ev))
        t += step
    return t


def _press(g, down):
    # a button to ground: pressed = the switch pulls the net low
    bench.net(g).reader = (lambda: 0) if down else None


def test_buttons_short_press_with_bounce():
    btn = _buttons()
    ev = []
    _run(btn, ev, 0, 100)
    for k in range(4):                    # contact bounce: 4 flips 5 ms apart
        _press(BTN_ROLL, k % 2 == 0)
        _run(btn, ev, 100 + 5 * k, 105 + 5 * k)
    _press(BTN_ROLL, True)
    _run(btn, ev, 120, 300)
    assert ev == []                       # reported on release
    _press(BTN_ROLL, False)
    _run(btn, ev, 300, 400)
    assert len(ev) == 1 and ev[0][1] == ("roll", False), ev
    assert 320 <= ev[0][0] <= 330


def test_buttons_long_press_reported_once_while_held():
    btn = _buttons()
    ev = []
    _press(BTN_UNDO, True)
    _run(btn, ev, 0, 2000)
    assert ev and ev[0][1] == ("undo", True) and len(ev) == 1, ev
    assert 715 <= ev[0][0] <= 730
    _press(BTN_UNDO, False)
    _run(btn, ev, 2000, 2200)
    assert len(ev) == 1


def test_buttons_short_glitch_is_ignored_and_ticks_wrap():
    btn = _buttons()
    ev = []
    t0 = (1 << 30) - 50                   # ticks_ms wraps at 2**30
    _press(BTN_ROLL, True)
    btn.poll(t0)
    _press(BTN_ROLL, False)
    _run(btn, ev, t0 + 10, t0 + 200)
    assert ev == []
    _press(BTN_ROLL, True)
    t = _run(btn, ev, (t0 + 200) & 0x3FFFFFFF, ((t0 + 300) & 0x3FFFFFFF))
    _press(BTN_ROLL, False)
    _run(btn, ev, t, t + 100)
    assert len(ev) == 1 and ev[0][1] == ("roll", False)
    assert ticks_diff(5, (1 << 30) - 5) == 10


# --- watchdog ----------------------------------------------------------------------


def test_watchdog_resets_when_not_fed():
    clock = bench.reset()
    wd = Watchdog(100)
    for _ in range(50):
        clock.sleep_ms(50)
        wd.feed()
    _raises(bench.WatchdogReset, clock.sleep_ms, 150)
    _raises(ValueError, Watchdog, 9000)


def _fire_timers_every(clock, ms, total):
    for _ in range(total // ms):
        clock.sleep_ms(ms)
        for t in bench.timers:
            t.fire()


def test_watchdog_handed_to_a_timer_for_the_repl():
    # After a Ctrl-C the loop stops feeding; a timer interrupt keeps the watchdog fed.
    clock = bench.reset()
    wd = Watchdog(200)
    timer = wd.feed_in_background()
    assert timer.period == 50 and timer.running
    _fire_timers_every(clock, 50, 2000)          # two seconds in the REPL: no reset
    # The loop starts again (main.main()): its Watchdog stops the timer feeding, so a
    # hung loop still resets the board.
    wd2 = Watchdog(200)
    assert not timer.running
    _raises(bench.WatchdogReset, _fire_timers_every, clock, 50, 400)


def test_boot_keep_alive_after_soft_reset():
    # boot.py arms the watchdog at its longest timeout and feeds it from a timer, so
    # mpremote's raw REPL (main.py not run) survives.
    clock = bench.reset()
    wdt = keep_alive()
    assert wdt.timeout == 8388 and len(bench.timers) == 1
    _fire_timers_every(clock, 1000, 20000)
    Watchdog(300)                                  # main.py's loop takes over
    assert not bench.timers[0].running


# --- no allocation on the hot paths (MicroPython only: heap_lock) -----------------


def _heap_locked(fn, n):
    try:
        import micropython
        lock = micropython.heap_lock
    except (ImportError, AttributeError):
        return False  # CPython: nothing to prove here
    fn()
    lock()
    try:
        for _ in range(n):
            fn()
    finally:
        micropython.heap_unlock()
    return True


def test_hot_paths_allocate_nothing():
    world, chain, sc, spi = _digital_rig()
    world.set_frame(_frame_of(START))
    buf = bytearray(8)
    _heap_locked(lambda: sc.scan(buf), 20)
    world, field, sc2, adc, muxes = _analog_rig()
    _calibrate_from_field(sc2, field)
    _heap_locked(lambda: sc2.scan(buf), 5)
    btn = _buttons()
    _heap_locked(lambda: btn.poll(1000), 20)
