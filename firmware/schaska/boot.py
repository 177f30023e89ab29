"""The Schaska board's boot (docs/schaska.md "On the board"): Samsara's drivers
(board.hw, from board_config: the same electronics), the Schaska board core
(schaska.core.SchaskaBoard), its game log (schaska.logbook) and the host link, then Samsara's
scan loop (mainloop.Loop) runs it.  The virtual board boots it with `--game schaska`.

    loop = boot()          # drivers, board, log, link, a new game; returns the loop
    loop.run()

The link serves the commands that are not Samsara's own game (hello, the logs
commands, led_test); an unfinished game's log is closed as abandoned at boot, and a new
game starts.  The track is the layout in LAYOUT_FILE on the file system (copied there
with `mpremote fs cp layout.txt :`), else the default.
"""

import gc
import sys

import board_config
import mainloop
from board import hw as hwmod
from board.linkhooks import LinkHooks, board_id
from samsara.link.hostlink import StdioStream
from samsara.storage.osfs import OsFs
from gameboard.core import Settings
from schaska.core import SchaskaBoard
from schaska.rules.layout import DEFAULT, LayoutError, parse_layout
from schaska.logbook import Logbook, open_log

_PICO = sys.platform == "rp2"
SCAN_MS = 4 if _PICO else 5   # the scan period (ms): mainboot's, 4 ms on the Pico
SETTLE_LIFT_MS = 3 if _PICO else 4   # a lift's settle: mainboot's PICO_SETTLE_LIFT_MS
WATCHDOG_MS = 2000      # reset when the loop stalls this long (mainboot.WATCHDOG_MS)
LOG_DIR = "logs"
LAYOUT_FILE = "layout.txt"   # the track the players laid out, in its text form
                             # ("+1,+2,-1,8,..."), beside main.py on the file system


def read_layout(path=LAYOUT_FILE):
    """The layout in the file at `path` (its text form, schaska.rules.layout), or
    DEFAULT when there is no such file.  Raises LayoutError for a file that holds no
    layout (naming the bad field)."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return DEFAULT
    return parse_layout(text.strip())


def read_frame(hw, clock, scans=3):
    """The positions that read occupied in every one of `scans` scans, 2 ms apart
    (bytearray(8))."""
    frame = bytearray(8)
    both = bytearray(b"\xff" * 8)
    for _ in range(scans):
        hw.scanner.scan(frame)
        for k in range(8):
            both[k] &= frame[k]
        clock.sleep_ms(2)
    return both


def open_services(board, hw):
    """The game log in LOG_DIR, the link's stream and hooks, the board id, as
    mainloop.Services; a failure leaves the board playing without them (None)."""
    try:
        bid = board_id(hw)
        book = Logbook(open_log(OsFs(LOG_DIR)), board, bid)
        book.boot()
        book.defer = True   # records are written at quiet moments (mainloop.Loop._quiet)
        return mainloop.Services(book, None, StdioStream(), LinkHooks(hw, board), bid)
    except Exception as e:  # the board plays on without log or link rather than not at all
        print("game log / USB link failed to start: %r" % (e,))
        return None


def boot(cfg=board_config, clock=None, cal_path="hallcal.txt", watch=None, settings=None,
         layout=DEFAULT):
    """Build drivers, board, services and the loop, start a game on `layout` (a checked
    layout tuple; its log starts with its game_start event).  watch: a callable given
    every event after the sinks.  Returns the mainloop.Loop."""
    if clock is None:
        clock = mainloop.SystemClock()
    hw = hwmod.build(cfg, cal_path)
    if settings is None:
        settings = Settings(scan_ms=SCAN_MS, settle_lift_ms=SETTLE_LIFT_MS,
                            budget_ma=cfg.LED_BUDGET_MA)
    board = SchaskaBoard(layout, settings)
    frame = read_frame(hw, clock)
    now = clock.ticks_ms()
    loop = mainloop.Loop(board, hw, clock, open_services(board, hw), watch=watch)
    loop.start(now)
    board.new_game(now, layout, frame=frame)
    gc.collect()
    try:
        gc.threshold(mainloop.GC_THRESHOLD)
    except AttributeError:  # CPython's gc has no threshold()
        pass
    loop.start_watchdog(WATCHDOG_MS)
    return loop


def main(layout=None):
    """Boot and run the loop on `layout` (None: read_layout's, the default when the file
    system holds none or a bad one; main.py of a Schaska bundle, the virtual board's
    `--game schaska`): safe mode (BOOTSEL held) first, as mainboot.main.  A Ctrl-C
    hands the port to the REPL with the watchdog fed in the background."""
    if hwmod.safe_mode_requested():
        print("safe mode: BOOTSEL held, main loop not started")
        return None
    if layout is None:
        try:
            layout = read_layout()
        except LayoutError as e:
            print("%s: %s; the default layout is used" % (LAYOUT_FILE, e))
            layout = DEFAULT
    loop = boot(layout=layout)
    try:
        return loop.run()
    except KeyboardInterrupt:
        loop.hw.watchdog.feed_in_background()
        loop.close()
        raise
