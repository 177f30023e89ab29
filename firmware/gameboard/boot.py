"""The boot of a game board other than Samsara's under Samsara's scan loop (docs/
architecture.md "firmware/gameboard/"): Samsara's drivers (board.hw, from board_config:
the same electronics), the game's board core (a gameboard.core.GameBoard), its game
log (a gameboard.logbook.Logbook) and the host link, then the scan loop (mainloop.Loop)
runs it.  A game's boot module names its board and logbook:

    loop = boot(SamasBoard, Logbook, open_log)   # drivers, board, log, link, a new game
    loop.run()

The link serves the commands that are not Samsara's own game (hello, the logs
commands, led_test); an unfinished game's log is closed as abandoned at boot, and a new
game starts.
"""

import gc
import sys

import board_config
import mainloop
from board import hw as hwmod
from board.linkhooks import LinkHooks, board_id
from boardcore.settings import Settings
from boardcore.link.hostlink import StdioStream
from boardcore.storage.osfs import OsFs

_PICO = sys.platform == "rp2"
SCAN_MS = 4 if _PICO else 5   # the scan period (ms): mainboot's, 4 ms on the Pico
SETTLE_LIFT_MS = 3 if _PICO else 4   # a lift's settle: mainboot's PICO_SETTLE_LIFT_MS
WATCHDOG_MS = 2000      # reset when the loop stalls this long (mainboot.WATCHDOG_MS)
LOG_DIR = "logs"


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


def open_services(board, hw, make_book, open_log):
    """The game log in LOG_DIR (make_book(open_log(fs), board, board_id): the game's
    Logbook over its GameLog), the link's stream and hooks, the board id, as
    mainloop.Services; a failure leaves the board playing without them (None)."""
    try:
        bid = board_id(hw)
        book = make_book(open_log(OsFs(LOG_DIR)), board, bid)
        book.boot()
        book.defer = True   # records are written at quiet moments (mainloop.Loop._quiet)
        return mainloop.Services(book, None, StdioStream(), LinkHooks(hw, board), bid)
    except Exception as e:  # the board plays on without log or link rather than not at all
        print("game log / USB link failed to start: %r" % (e,))
        return None


def boot(make_board, make_book, open_log, cfg=board_config, clock=None,
         cal_path="hallcal.txt", watch=None, settings=None, players=None, **start):
    """Build drivers, the board (make_board(settings): a GameBoard; settings None:
    Settings with SCAN_MS, SETTLE_LIFT_MS and cfg's LED budget), services (open_services
    with make_book and open_log) and the loop, start a game (board.new_game(now_ms,
    frame=the scanned frame, **start); its log starts with its game_start event), start
    the watchdog (WATCHDOG_MS).  watch: a callable given every event after the sinks.
    players: the players' names [A's, B's] or None (board.set_players; ValueError for
    bad names).  Returns the mainloop.Loop."""
    if clock is None:
        clock = mainloop.SystemClock()
    hw = hwmod.build(cfg, cal_path)
    if settings is None:
        settings = Settings(scan_ms=SCAN_MS, settle_lift_ms=SETTLE_LIFT_MS,
                            budget_ma=cfg.LED_BUDGET_MA)
    board = make_board(settings)
    board.set_players(players)
    frame = read_frame(hw, clock)
    now = clock.ticks_ms()
    loop = mainloop.Loop(board, hw, clock, open_services(board, hw, make_book, open_log),
                         watch=watch)
    loop.start(now)
    board.new_game(now, frame=frame, **start)
    gc.collect()
    try:
        gc.threshold(mainloop.GC_THRESHOLD)
    except AttributeError:  # CPython's gc has no threshold()
        pass
    loop.start_watchdog(WATCHDOG_MS)
    return loop
