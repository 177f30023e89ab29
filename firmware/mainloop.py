"""The board firmware's scan loop and the seams of its events (docs/firmware.md);
main.py (the thin entry point MicroPython runs) calls main() here.  The boot is in
mainboot (imported by boot() and dropped again when it is done).  Compiled to .mpy like
the rest of the bundle.

main(): BOOTSEL held -> safe mode (back to the REPL before anything else runs);
otherwise boot() (mainboot.boot: drivers, board core, self-test, recorder and host
link, a resumed or new game, the watchdog), then run().

Loop (run()), one iteration every scan period (Config.scan_ms: mainboot.SCAN_MS, 4 ms
on the Pico):
  scan -> Board.tick -> buttons -> LEDs if the scene changed -> events -> USB ->
  watchdog feed -> wait for the next period.  An iteration with no sensor change
  allocates nothing (tests/upy/upy_test_main.py proves it under heap_lock).

Seams for the game log and the USB line protocol (docs/gamelog.md, docs/protocol.md;
the boot's seams open_services and resume_from_log are in mainboot):
  start_services(board, recorder, link, hw)  the Services of this boot
  handle_event(ev, now_ms)          every board event: to each sink (recorder, link)
  usb_service(now_ms, board, hw)    non-blocking: read waiting input, act, reply

The loop is the only reader of the board's event queue and the only writer of the LEDs
(the LED test and the log-full hint are overlays the board core draws).

Under the micropython Unix port with the fakes of tests/fakes on MICROPYPATH main.py
runs a complete simulated game (docs/firmware.md "Running main.py with fakes").
"""

import gc
import sys
import time

from board import hw as hwmod
from samsara.debounce import ticks_diff
from samsara.states import TURN_COMPLETE, WAITING, ENDED, GOAL_PENDING

try:
    from micropython import const
except ImportError:  # CPython
    def const(__x):
        return __x

_UPY = sys.implementation.name == "micropython"
QUIET_MS = 300         # no raw sensor change this long (and all settled): the loop collects
                       # (issue 9: not within 300 ms of a lift/place) ...
_QUIET_MARGIN = const(5)  # ... counted from the scan that saw the change, in whole ms:
                          # a few ms more, so that it never starts at 299.9 ms
WRITE_MS = 2000        # ... and writes the game log's waiting records: at once when the
                       # turn is complete (or before the roll), else after this long
_PIECE_BY_US = const(2700)  # on the Pico (BUDGET): the LED piece (redraw + write, 3-4 ms)
                            # and the sinks piece (events + USB, 1-3 ms) start only this
                            # soon into an iteration, else in the next one, so that no
                            # iteration near a lift or placement passes 7.5 ms
_END_US = const(6900)   # ... but the answer (the LEDs with a marble in the air, else the
                        # events: the acceptance line) may start later, while it still
                        # ends this soon into the iteration (the overrun bar: 7.5 ms
                        # between two scans), by these estimates of its cost:
_LED_US = const(3800)   # the LED piece (redraw 0.3-1 ms, WS2812 write 2.6 ms)
_SINKS_US = const(1600) # the sinks piece: the USB service and the recorder, plus
_EVENT_US = const(1200) # ... each queued event (its JSON line)
GC_THRESHOLD = 12288    # bytes allocated between automatic collections (gc.threshold,
                        # set at boot and at each quiet collection).  The quiet moment
                        # after each placement collects the garbage (2-3 KB); a lift
                        # and a placement with their answers pass 7-9 KB through the
                        # allocator (call frames over 11 words, freed on return: they
                        # count here, not in the garbage), so at 8 KB the game's last
                        # placement met an automatic collection (docs/performance.md
                        # "Sixth round").  The board's engine sets 8 KB while it thinks
                        # (samsara.vsplay: its garbage has no quiet moment to go in).
BUDGET = sys.platform == "rp2"   # elsewhere (the fakes, the virtual board) every piece
                                 # runs in its own iteration, as recorded
BOOT_ONLY_MODULES = ("mainboot", "samsara.storage.logresume", "samsara.rules.notation_read")
"""Modules only the boot needs (the boot itself; resuming a logged game: replaying its
notation); on MicroPython boot() drops them again, so their bytecode leaves the heap
while the game runs (docs/performance.md "Firmware")."""
ON_DEMAND_MODULES = ("samsara.link.commands", "samsara.link.cmderrors", "samsara.link.hostcmds",
                     "mainhooks", "samsara.misread", "samsara.link.flightcmds",
                     "samsara.flighthealth", "samsara.vsplay", "samsara.rules.engine",
                     "samsara.storage.logdisk", "samsara.storage.logrecord",
                     "samsara.storage.logstart")
"""Modules of host commands (the command table, its checks and the commands a game uses
all the time: each host line; hello, new_game, sensors, calibrate, the log transfer),
the drivers' hooks (the board id at boot), the explanations of a wrong placement or a
repair (samsara.misread) and the game log's boot scan, transfer and a game's start
(samsara.storage.logstart): imported on first use, dropped again by
boot() and at every quiet moment (Loop._quiet), so their code is on the heap only
while a host uses them (docs/performance.md).  The same for the board's player and the
engine (samsara.vsplay: a game against the board, a hint): a running Guide keeps
its module alive after the drop, and the module goes with it."""


# --------------------------------------------------------------------- seams


_services = None  # the Services of this boot (game recorder + host link), or None


class Services:
    """The sinks of the board's events and the narrow door the host link gets to the
    board core.  recorder: samsara.storage.recorder.Recorder or None; link:
    samsara.link.hostlink.HostLink or None (it gets this object as its `core`).

    The main loop is the only reader of the board's event queue: Loop.once and the
    commands below hand every event to handle_event, which gives it to each sink in
    turn (the recorder first, then the link).  Commands that act on the board (roll,
    undo, new game, set dice, the LED test) come in here from the link; the events they
    cause take the same path before the link sends its reply."""

    def __init__(self, board, recorder=None, link=None, hw=None):
        self.board = board
        self.recorder = recorder
        self.link = link
        self.hw = hw                # the drivers, for the link's hooks (sensors, calibrate)
        self.lines = 0              # the link's rx_lines at the last serve()
        sinks = []
        if recorder is not None:
            sinks.append(recorder.on_event)
        if link is not None:
            sinks.append(link.on_event)
            link.core = self
        self.sinks = tuple(sinks)   # bound methods made once, not per event
        self.flight = None          # samsara.flight.Flight (add_flight), or None

    def add_flight(self, flight):
        """Make `flight` (samsara.flight.Flight) the flight recorder: a sink of every
        event, told of raw changes and presses by the loop."""
        self.flight = flight
        self.sinks = self.sinks + (flight.on_event,)

    def dispatch(self, now_ms):
        """Every queued board event to every sink (through handle_event); returns how
        many."""
        board = self.board
        n = 0
        ev = board.poll_event()
        while ev is not None:
            handle_event(ev, now_ms)
            n += 1
            ev = board.poll_event()
        return n

    def serve(self, now_ms):
        """The once-per-iteration service: the recorder's background step when it has
        one, then the link's poll (input, one command, output).  Returns True when the
        link took a host line (its reply allocated: the loop collects at the next
        quiet moment)."""
        rec = self.recorder
        if rec is not None and rec.busy:
            rec.step()
        link = self.link
        if link is None:
            return False
        link.poll(now_ms)
        if link.rx_lines == self.lines:
            return False
        self.lines = link.rx_lines
        return True

    # -- the drivers' hooks of the link (mainhooks, loaded on demand) -------------------

    def sensors(self):
        """mainhooks.MainHooks.sensors: (raw scan now, settled frame)."""
        from mainhooks import MainHooks
        return MainHooks(self.hw, self.board).sensors()

    def calibrate(self, step):
        """mainhooks.MainHooks.calibrate: one step of the Hall calibration."""
        from mainhooks import MainHooks
        return MainHooks(self.hw, self.board).calibrate(step)

    # -- the door of the host link (samsara.link.hostlink module docstring) -------------

    def press(self, now_ms, what):
        """A button press from the host ("roll" / "undo"); its events are dispatched."""
        self.dispatch(now_ms)
        if self.flight is not None:
            self.flight.press(now_ms, what)
        try:
            self.board.press(now_ms, what)
        finally:
            self.dispatch(now_ms)

    def set_dice(self, d1, d2):
        """Host-set dice of the next roll (ValueError unless 1..6)."""
        self.board.set_dice(d1, d2)

    def led_test(self, now_ms, ms):
        """The LED test overlay for `ms` ms, from the next tick."""
        self.board.set_overlay("led_test", now_ms, ms)

    def new_game(self, position=None, match=False, starter=0, vs=None):
        """A new game on the board and its log (the recorder closes an unfinished one
        as abandoned).  position: a position string or None (the start); vs: the
        side the board plays (0/1, samsara.vsplay) or None.  Returns the
        game number (None without a recorder).  CmdError(bad_args) for a bad position;
        gamelog.LogFull (announced) when the log cannot take the game."""
        pos = None
        if position is not None:
            from samsara.rules.position import Position, PositionError
            from samsara.link.hostlink import CmdError
            from samsara.link.protocol import E_BAD_ARGS
            try:
                pos = Position.parse(position)
            except PositionError as e:
                raise CmdError(E_BAD_ARGS, "position: %s" % e)
        now = self.link.now if self.link is not None else 0
        self.dispatch(now)  # events of the old game belong to its log
        gid = None
        try:
            if self.recorder is not None:
                gid = self.recorder.start_game(position, match, starter, vs)
            if vs is not None and _UPY:
                # the log's start code and its garbage gone before the board's engine
                # is loaded (the lowest free heap of a game against the board)
                drop_modules(("samsara.storage.logstart",))
                gc.collect()
            self.board.new_game(position=pos, match=match, starter=starter, vs=vs)
        finally:
            self.dispatch(now)
        return gid


def _at_rest(st):
    # Controller state `st` is one where nobody waits for an answer (the turn complete,
    # before the roll, the game over): the game log's waiting records are written then.
    return st == TURN_COMPLETE or st == WAITING or st in ENDED


def vs_gesture(board, now_ms):
    """A long press of undo before a game's first roll or after its end starts a game
    against the board (samsara.vsplay.gesture: the board plays B, a second long press
    A, a third a normal game; docs/protocol.md).  True when it did."""
    from samsara.vsplay import gesture
    return gesture(board, _services, now_ms)


def start_services(board, recorder=None, link=None, hw=None):
    """Services(board, recorder, link, hw) made the ones of this boot (handle_event and
    usb_service use them); the previous ones' log is closed.  Returns them."""
    global _services
    old = _services
    if old is not None and old.recorder is not None:
        old.recorder.close()  # the loop is restarted from the REPL
    _services = Services(board, recorder, link, hw)
    return _services


def handle_event(ev, now_ms):
    """Seam for every event dict the board emits (docs/core-api.md): hand it to each
    sink (the game recorder, the host link).  Called from the loop (and for the
    events of a host command), so it must return quickly."""
    svc = _services
    if svc is not None:
        for sink in svc.sinks:
            sink(ev)


def usb_service(now_ms, board, hw):
    """Seam for the USB line protocol: read whatever input is waiting without blocking,
    act on at most one complete line and write the replies (Services.serve); True when
    a host line was taken.  Called once per loop iteration; a call with nothing to do
    must allocate nothing.  A Ctrl-C
    (0x03) raises KeyboardInterrupt out of the loop: the REPL takes the port
    (docs/protocol.md)."""
    svc = _services
    if svc is not None:
        return svc.serve(now_ms)
    return False


# --------------------------------------------------------------------- clock


class SystemClock:
    """The Pico's clock: ticks_ms() wraps at 2**30, sleep_ms() blocks.  The tests pass
    a virtual clock with the same two methods (tests/fakes/bench.py Clock)."""

    def __init__(self):
        # getattr: the stubs type ticks_ms() as an opaque _TicksMs, while the board
        # core (like MicroPython itself) works with the small int it really is.
        self.ticks_ms = getattr(time, "ticks_ms")
        self.sleep_ms = getattr(time, "sleep_ms")


# --------------------------------------------------------------------- loop


class Stats:
    """Counters of the loop (ints only; no allocation while counting)."""

    def __init__(self):
        self.ticks = 0        # iterations
        self.overruns = 0     # iterations that ended after the next period began
        self.led_writes = 0   # scenes written to the chain
        self.events = 0       # events handed to handle_event
        self.presses = 0      # button events given to the board
        self.quiet = 0        # quiet-time work done (log writes, a collection)


class Loop:
    """The scan loop of one board: once() is one iteration, run() repeats it on the
    fixed period.  Everything once() needs is allocated here, in __init__."""

    def __init__(self, board, hw, clock, stats=None):
        self.board = board
        self.hw = hw
        self.clock = clock
        self.stats = stats if stats is not None else Stats()
        self.period = board.config.scan_ms
        self.frame = bytearray(8)
        self.shown = -1
        self.dirty = False    # events since the last quiet-time work
        self.held = False     # events and USB held over to the next iteration (BUDGET)
        self.unwritten = False  # events since the last log write (quiet time)
        us = getattr(time, "ticks_us", None)
        self._us = us if BUDGET and us is not None else _zero
        board.lazy = self._us is not _zero   # the redraw is part of the LED piece
        board.controller.split = board.lazy  # a game's end at the quiet moment (_quiet)
        self._scan = hw.scanner.scan
        self._poll = hw.buttons.poll
        self._leds = hw.leds
        self._feed = hw.watchdog.feed
        self.flight = _services.flight if _services is not None else None
        if BUDGET and _services is not None and _services.link is not None:
            _services.link.loop = self   # host lines wait for calm() (the Pico only)

    def once(self, now):
        """One iteration at time now (ms): scan, tick, buttons, LEDs on change, events,
        USB, watchdog.  Returns True when events went to their sinks.  On the Pico
        (BUDGET) an iteration whose tick took long leaves the LED write or the events
        and USB to the next one (events first there: the acceptance line before the
        LEDs); the order of the LED frames and of the lines stays the same."""
        # Few locals and short calls: the call frame stays within 11 machine words, so
        # MicroPython keeps it off the heap (an idle iteration allocates nothing at all).
        t0 = self._us()
        board = self.board
        board.hold = self.held
        self._scan(self.frame)
        if self.frame != board.debounce.raw and self.flight is not None:
            self.flight.changes(now, self.frame)   # raw changes to the flight recorder
        board.tick(now, self.frame)
        if BUDGET:   # on the Pico the answer first, the buttons after it
            t0 = self._answer(now, t0)
        b = self._poll(now)
        if b is not None:
            self._press(now, b)
        if not BUDGET:
            t0 = self._answer(now, t0)
        if (self.dirty or self.unwritten) and not self.held and not board.debounce.busy \
                and not board.events.count:   # (a press's events, on the Pico: sent first)
            self._quiet(now)
        self._feed()
        self.stats.ticks = (self.stats.ticks + 1) & 0x3FFFFFF
        return t0

    def _answer(self, now, t0):
        # The LED piece and the sinks piece of this iteration or of the last one (held
        # over), each only while the iteration is young (BUDGET).  With a marble in the
        # air the LEDs come first (its targets), else the events (an acceptance line
        # before the LEDs).  That first piece, the answer, starts whenever it still
        # ends by _END_US (so a lift's targets and a placement's line mostly go out in
        # the iteration that committed the change), else first thing in the next
        # iteration.  True when events went out.
        got = False
        done = False
        up = self.board.controller.view.lifted
        if (self.held or BUDGET) and not up and ticks_diff(self._us(), t0) < \
                (_END_US - _SINKS_US - _EVENT_US * self.board.events.count if BUDGET
                 else _PIECE_BY_US):
            got = self._sinks(now)
            done = True
        if self._stale() and ticks_diff(self._us(), t0) < \
                (_END_US - _LED_US if up else _PIECE_BY_US):
            self._show()
        if not done:
            if ticks_diff(self._us(), t0) < _PIECE_BY_US:
                got = self._sinks(now)
            else:
                self.held = True
        return got

    def _stale(self):
        # The LEDs do not show the board's scene (or, lazy, the scene is not drawn).
        board = self.board
        return board.scene_version != self.shown or \
            (board.lazy and board.controller.version != board.drawn)

    def _sinks(self, now):
        # Every queued event to every sink, then the USB service.  True with events.
        self.held = False
        ev = self.board.poll_event()
        if ev is not None:
            self._events(now, ev)
        if usb_service(now, self.board, self.hw):
            self.dirty = True
        return ev is not None

    def _quiet(self, now):
        # Planned work that would stall an answer if done at once, one piece per
        # iteration (a flash write, then a collection) so that a button press is not
        # missed.  Never within QUIET_MS of a raw sensor change, never while a marble is
        # in the air (it is about to be placed).  The game log's waiting records (their
        # events, log_full/log_error included, go out first) only once the turn is
        # complete or not yet rolled (a sector erase stalls 45 ms with interrupts off:
        # nobody waits for an answer then; a collection first, the write in the next
        # iteration), else after WRITE_MS of stillness; a
        # collection (the on-demand modules dropped first) at each quiet moment, so the
        # automatic ones rarely fall on a lift or a placement (docs/performance.md "Log
        # writes at quiet moments", "Third round").
        # Nor while the board's engine thinks (vsplay: its decision time counts from
        # the roll).
        board = self.board
        quiet = ticks_diff(now, board.debounce.t_change)
        c = board.controller
        if quiet < QUIET_MS + _QUIET_MARGIN or c.view.lifted or \
                (c.guide is not None and c.guide.think is not None):
            return
        st = board.controller.state
        if st == GOAL_PENDING and quiet < WRITE_MS and c.in_hand():
            return      # the goal's marble or scoring piece is in the air
        if self.unwritten:
            if quiet >= WRITE_MS or _at_rest(st):
                if self.dirty and _UPY:
                    # the turn's garbage collected first, the write in the next
                    # iteration: the lowest free heap is not the two piled up
                    self.stats.quiet += 1
                    self.dirty = False
                    _collect()
                    return
                if c.commit_due:
                    # the game's last turn recorded and the game over (left by
                    # Controller.on_settled on the Pico), after that collection; its
                    # events go out, then a collection and the write as for any turn
                    self.stats.quiet += 1
                    c.commit_due_now(now)
                    return
                self.unwritten = False
                svc = _services
                if svc is not None and svc.recorder is not None and svc.recorder.flush(True):
                    # (a game's end waits for the next one, after a collection)
                    self.unwritten = len(svc.recorder.pending) > 0
                    self.stats.quiet += 1
                    svc.dispatch(now)
                    self.dirty = True      # the collection in the next iteration
                    return
        svc = _services
        if svc is not None and svc.flight is not None and svc.flight.due:
            self.stats.quiet += 1
            from samsara.link.flightcmds import save
            save(svc, now)   # the ring to flash (a long repair, two rejects in a row)
            self.dirty = True      # the collection in the next iteration
            return
        if self.dirty:
            self.stats.quiet += 1
            self.dirty = False
            if _UPY:
                _collect()

    def calm(self):
        """True when the garbage of the last events and host lines is collected and no
        game-log write is due (_quiet): on the Pico a host line waits for it, at most
        hostlink._HOLD_MS, so that the command's work does not pile on that garbage
        (docs/performance.md "Fifth round")."""
        if self.dirty:
            return False
        if not self.unwritten:
            return True
        st = self.board.controller.state
        return not _at_rest(st)

    def _press(self, now, b):
        if self.flight is not None:
            self.flight.press(now, b[0], b[1])
        if b[1] and b[0] == "undo" and vs_gesture(self.board, now):
            return
        self.board.press(now, b[0], b[1])
        self.stats.presses += 1

    def _show(self):
        board = self.board
        if board.lazy:
            board.redraw()
        if board.scene_version != self.shown:
            self.shown = board.scene_version
            self._leds.show(board.limited_scene())
            self.stats.led_writes += 1

    def _events(self, now, ev):
        # Every queued event to every sink (handle_event), the first one given.
        board = self.board
        stats = self.stats
        self.dirty = True
        self.unwritten = True
        while ev is not None:
            handle_event(ev, now)
            stats.events += 1
            ev = board.poll_event()

    def run(self, max_ticks=-1, until=None):
        """Iterate every `period` ms: max_ticks iterations (-1: forever) or until
        `until(board)` is true (checked after iterations that produced an event).
        A late iteration counts as an overrun; far behind, the schedule restarts
        from now instead of hurrying to catch up.  Returns the Stats."""
        ticks_ms = self.clock.ticks_ms
        sleep_ms = self.clock.sleep_ms
        period = self.period
        stats = self.stats
        due = ticks_ms()
        n = 0
        while n != max_ticks:
            now = ticks_ms()
            got = self.once(now)
            n += 1
            if got and until is not None and until(self.board):
                break
            due = (due + period) & 0x3FFFFFFF
            wait = ticks_diff(due, ticks_ms())
            if wait > 0:
                sleep_ms(wait)
            elif wait < 0:
                stats.overruns += 1
                if wait < -period:
                    due = ticks_ms()
        return stats


def _zero():
    return 0


def run(board, hw, clock, max_ticks=-1, until=None):
    """Loop(board, hw, clock).run(max_ticks, until): see Loop."""
    return Loop(board, hw, clock).run(max_ticks, until)


# --------------------------------------------------------------------- boot


def boot(*args, **kw):
    """mainboot.boot(*args, **kw): build drivers and board core, self-test, resume or
    start a game, start the watchdog; returns (board, hw, clock).  mainboot is
    imported for it and dropped again at its end (BOOT_ONLY_MODULES)."""
    import mainboot
    return mainboot.boot(*args, **kw)


def _collect():
    # The quiet moment's collection (MicroPython): the on-demand modules dropped, the
    # garbage collected, the automatic collections' threshold back at GC_THRESHOLD (the
    # board's engine lowers it while it thinks).
    drop_modules(ON_DEMAND_MODULES)
    gc.collect()
    gc.threshold(GC_THRESHOLD)


def drop_modules(names=BOOT_ONLY_MODULES):
    """Forget the modules `names` (sys.modules and the package attribute) so their code
    can be collected; a later import loads them again.  Only on MicroPython: on the
    host nothing needs the memory.  Returns how many were dropped."""
    import sys
    if sys.implementation.name != "micropython":
        return 0
    n = 0
    for name in names:
        if name in sys.modules:
            del sys.modules[name]
            i = name.rfind(".")
            parent = sys.modules.get(name[:i]) if i > 0 else None
            if parent is not None and hasattr(parent, name[i + 1:]):
                delattr(parent, name[i + 1:])
            n += 1
    return n


def main():
    """Entry point on the Pico (and `micropython main.py` with the fakes)."""
    if hwmod.safe_mode_requested():
        print("safe mode: BOOTSEL held, main loop not started")
        return None
    board, hw, clock = boot()
    try:
        return run(board, hw, clock)
    except KeyboardInterrupt:
        # Ctrl-C from the host: the REPL takes the port (docs/protocol.md).  The
        # watchdog cannot be stopped, so a timer keeps feeding it meanwhile.
        hw.watchdog.feed_in_background()
        svc = _services
        if svc is not None and svc.recorder is not None:
            svc.recorder.flush()   # the records still waiting for a quiet moment
        raise
