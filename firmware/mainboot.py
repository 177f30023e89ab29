"""The board firmware's boot and entry (docs/firmware.md "Boot sequence"): drivers,
board core, self-test, the game recorder, the flight recorder and the host link, a
resumed or new game, the watchdog; then the scan loop (mainloop).  main.py calls
main().

Boot sequence (boot()):
  1. Drivers from board_config (board.hw.build): scanner, LEDs, buttons.
  2. Board core (samsara.core.Board) with Config from board_config (make_config).
  3. Self-test: LED sweep over all the LEDs; a few scans give the board's frame.
  4. open_services() (recorder, flight recorder, the host link's stream and hooks),
     the loop (mainloop.Loop: it builds the host link) and its boot line,
     resume_from_log(): an unfinished game from the game log; otherwise a new game
     from the start position.  The scanned frame is the debounce's settled state, so
     the core compares it with the position and shows a repair scene on a mismatch;
     the sensor check logs what is missing or extra.
  5. The watchdog starts (WATCHDOG_MS); from here a hang resets the Pico.
(BOOTSEL held -> safe mode is checked by main() before boot.)

Seams of the boot (tests and the virtual board replace them on this module):
  open_services(board, hw, now_ms) -> mainloop.Services or None
  resume_from_log(loop, now_ms, frame) -> position text of a resumed game, or None
  make_config(cfg, **kw)            the board core's Config
  LOG_DIR                           the game log's folder
"""

import gc
import sys

import board_config
import entry
import mainloop
from board import hw as hwmod
from board.linkhooks import LinkHooks, board_id
from samsara.config import Config
from samsara.core import Board
from boardcore.flight import Flight
from boardcore.link.hostlink import StdioStream
from samsara.scene import N_LEDS
from boardcore.storage.gamelog import GameLog
from boardcore.storage.osfs import OsFs
from samsara.recorder import Recorder

MAX_SCAN_MS = 5        # the loop period never exceeds this (docs/firmware.md)
PICO_SCAN_MS = 4       # the Pico's loop period: an idle iteration takes about 1.5 ms there
                       # (docs/performance.md), and 200 Hz needs a period below 5 ms; a
                       # 3 ms period measured worse (iterations with work overran it)
_PICO = sys.platform == "rp2"
SCAN_MS = PICO_SCAN_MS if _PICO else 5
                       # elsewhere (the fakes' simulated games, the virtual board) the
                       # period stays 5 ms, so their events stay as recorded (docs/debounce.md)
PICO_SETTLE_LIFT_MS = 3   # the Pico's lift settle: one scan period less 1 ms, so that a
                          # lift always commits at the scan after the one that saw it (a
                          # 4 ms settle at the 4 ms period waited for a second scan when
                          # the ms ticks of two scans were 3 apart); still above reed
                          # chatter (<= 2 ms, docs/debounce.md)
WATCHDOG_MS = 2000     # reset when the loop stalls this long
SWEEP_MS = 6           # LED sweep: ms per LED (80 LEDs: about half a second)
SANITY_SCANS = 3       # scans averaged by the sensor sanity check
LOG_DIR = "logs"       # game logs on flash (docs/gamelog.md), relative to the working dir


def make_config(cfg=board_config, **kw):
    """Config of the board core for this build: the LED budget from board_config, the
    scan period SCAN_MS (at most MAX_SCAN_MS) and on the Pico its lift settle
    (PICO_SETTLE_LIFT_MS); keywords override (tests, simulation)."""
    if "scan_ms" not in kw:
        kw["scan_ms"] = SCAN_MS
    if _PICO and "settle_lift_ms" not in kw:
        kw["settle_lift_ms"] = PICO_SETTLE_LIFT_MS
    if "budget_ma" not in kw:
        kw["budget_ma"] = cfg.LED_BUDGET_MA
    c = Config(**kw)
    if c.scan_ms > MAX_SCAN_MS:
        raise ValueError("scan period %d ms is above %d ms" % (c.scan_ms, MAX_SCAN_MS))
    return c


def led_sweep(hw, clock, ms_per_led=SWEEP_MS):
    """Light each of the N_LEDS logical LEDs in turn (dim white), then all off.  Shows
    a dead pixel or a break in the chain at a glance."""
    scene = bytearray(3 * N_LEDS)
    for i in range(N_LEDS):
        if i:
            scene[3 * i - 3] = 0
            scene[3 * i - 2] = 0
            scene[3 * i - 1] = 0
        scene[3 * i] = 40
        scene[3 * i + 1] = 40
        scene[3 * i + 2] = 40
        hw.leds.show(scene)
        clock.sleep_ms(ms_per_led)
    hw.leds.clear()


def read_frame(hw, clock, scans=SANITY_SCANS):
    """A frame of the positions that read occupied in every one of `scans` scans
    (2 ms apart), and a frame of those that read occupied in any of them."""
    frame = bytearray(8)
    both = bytearray(b"\xff" * 8)
    anyon = bytearray(8)
    for _ in range(scans):
        hw.scanner.scan(frame)
        for k in range(8):
            both[k] &= frame[k]
            anyon[k] |= frame[k]
        clock.sleep_ms(2)
    return both, anyon


def sensor_check(board, both, anyon):
    """Compare the scanned frames (read_frame) with the frame the board expects (the
    position's marbles and scoring pieces).  Returns (missing, extra): position
    indexes where a marble should be but is not, and where one is but should not be.
    A mismatch is not fatal: the board core shows the repair scene (missing white,
    extra red) until the board is put right."""
    want = board.controller.turn.expected
    missing = []
    extra = []
    for p in range(64):
        bit = 1 << (p & 7)
        w = want[p >> 3] & bit
        if w and not both[p >> 3] & bit:
            missing.append(p)
        elif not w and anyon[p >> 3] & bit:
            extra.append(p)
    return missing, extra


def open_services(board, hw, now_ms):
    """Seam for the game log, the flight recorder and the USB line protocol
    (docs/gamelog.md, docs/traces.md, docs/protocol.md): the game recorder over the
    log in LOG_DIR, the flight recorder, and what the host link is built from (the USB
    serial as stdin/stdout, the drivers' hooks, the board id).  Returns
    mainloop.Services; a failure leaves the board playing without them (None)."""
    try:
        bid = board_id(hw)
        rec = Recorder(GameLog(OsFs(LOG_DIR)), board, bid)
        rec.defer = True   # records are written at quiet moments (Loop._quiet)
        return mainloop.Services(rec, Flight(board), StdioStream(), LinkHooks(hw, board),
                                 bid)
    except Exception as e:  # the board plays on without log or link rather than not at all
        print("game log / USB link failed to start: %r" % (e,))
        return None


def resume_from_log(loop, now_ms, frame):
    """Seam for the game log: restore the unfinished game in the loop's board (the
    recorder's log scan and resume, with the turn so far) and return its position
    text, or None when there is none.  `frame` is what the sensors show now
    (bytearray(8))."""
    rec = loop.recorder
    if rec is None:
        return None
    try:
        if rec.boot(now_ms, frame) is not None:
            return loop.board.controller.position().format()
    except Exception as e:
        print("game log failed to resume: %r" % (e,))
    return None


def boot(cfg=board_config, clock=None, config=None, watchdog_ms=WATCHDOG_MS,
         selftest=True, cal_path="hallcal.txt", log=print, watch=None):
    """Build drivers and board core, self-test, the services and the loop, resume or
    start a game, start the watchdog.  watch: a callable given every event after the
    sinks (mainloop.Loop; tests and tools).  Returns the mainloop.Loop."""
    if clock is None:
        clock = mainloop.SystemClock()
    hw = hwmod.build(cfg, cal_path)
    if hw.calibrator is not None and hw.cal_status != "loaded":
        log("hall sensors: default thresholds (%s); run calibrate" % hw.cal_status)
    board = Board(config if config is not None else make_config(cfg))
    if selftest:
        led_sweep(hw, clock)
    both, anyon = read_frame(hw, clock)
    now = clock.ticks_ms()
    loop = mainloop.Loop(board, hw, clock, open_services(board, hw, now), watch=watch)
    loop.start(now)
    resumed = resume_from_log(loop, now, both)
    if resumed is None:
        board.new_game(now_ms=now, frame=both)
    missing, extra = sensor_check(board, both, anyon)
    if missing or extra:
        log("sensor check: %d missing, %d extra: repair scene shown" % (
            len(missing), len(extra)))
    else:
        log("sensor check: ok")
    if resumed is not None:
        log("resumed: %s" % resumed)
    gc.collect()
    try:
        gc.threshold(mainloop.GC_THRESHOLD)
    except AttributeError:  # CPython's gc has no threshold(); the fakes run there too
        pass
    loop.start_watchdog(watchdog_ms)
    return loop


def main():
    """Entry point on the Pico (and `micropython main.py` with the fakes): safe mode,
    the boot, the loop (entry.run, which says "safe mode" through this module's print).
    Returns the loop's Stats (a loop with a limit), or None in safe mode."""
    return entry.run(boot, print)
