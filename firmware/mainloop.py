"""The board firmware's scan loop (docs/firmware.md "The loop"): the one reader of the
board core's events and the one writer of the LEDs.  The boot that builds it is
mainboot's (main.py calls mainboot.main()).

    loop = Loop(board, hw, clock, services)   # services: Services or None
    loop.run()                                # one iteration every scan period

One iteration (Loop.once): scan -> Board.tick -> (on the Pico the answer first) the
buttons -> the LEDs when the scene changed -> the events to every sink, the host link's
service -> quiet-time work -> watchdog.  An iteration with no sensor change allocates
nothing (tests/upy/upy_test_main.py proves it under heap_lock).

The one event path: the loop takes every event off the board's queue (Loop.drain, the
only place that does, with the bookkeeping of what waits for the game log) and hands
it to each sink in turn: the game recorder, the host link, the flight recorder.  A
host command runs in the link's poll; its requests reach the board through Inputs (the
loop's door to the board, which notes each input in the flight recorder), and the
loop passes the command's events on before the link sends the reply.

Under the micropython Unix port with the fakes of tests/fakes on MICROPYPATH
mainboot.main() runs a complete simulated game (docs/firmware.md "Running main.py
with fakes").
"""

import gc
import sys
import time

from boardcore import flightsave
from boardcore.ticks import ticks_diff

try:
    from micropython import const
except ImportError:  # CPython
    def const(__x):
        return __x

_UPY = sys.implementation.name == "micropython"
QUIET_MS = 300         # no raw sensor change this long (and all settled): the loop collects
                       # (no collection within 300 ms of a lift or a placement) ...
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
_WRITE_US = const(2900) # ... the LED write alone (80 LEDs, 2.4 ms on the wire) and the
                        # iteration's tail: with no marble in the air, a write that would
                        # start later than _END_US - _WRITE_US waits for the next iteration
                        # (a goal's scene takes 1.6 ms to draw)
_SINKS_US = const(1600) # the sinks piece: the USB service and the recorder, plus
_EVENT_US = const(1200) # ... each queued event (its JSON line)
GC_THRESHOLD = 32768    # bytes allocated between automatic collections (gc.threshold,
                        # set at boot and at each quiet collection; call frames freed on
                        # return count too).  A collection of the image's heap takes
                        # 11-14 ms, three scan periods, so none may fall between a
                        # change and its answer: the quiet moment after each placement
                        # collects the garbage (2-3 KB kept), and this bar stays far above
                        # what a lift and a placement with their answers pass through
                        # the allocator (docs/performance.md: 12 KB gave 91 overruns
                        # near a lift or placement in seed 1's game, 32 KB gave 8).
THINK_GC = 8192        # gc.threshold while the board's engine thinks: its slices' garbage
                       # has no quiet moment to go in (the loop does no quiet-time work
                       # then), so the automatic collections bound it tighter
BUDGET = sys.platform == "rp2"   # elsewhere (the fakes, the virtual board) every piece
                                 # runs in its own iteration, as recorded


class Services:
    """What the loop serves besides the board: the game recorder
    (samsara.recorder.Recorder or None), the flight recorder (boardcore.flight.
    Flight or None) and what the host link is built from: its stream
    (boardcore.link.hostlink.StdioStream or a test's), the drivers' hooks
    (board.linkhooks.LinkHooks or None) and the board id.  The Loop builds the link
    from these and the board (its game's host commands: HOST_COMMANDS); mainboot.
    open_services makes them for Samsara's board, gameboard.boot for the other games'."""

    def __init__(self, recorder=None, flight=None, stream=None, hooks=None, board_id=""):
        self.recorder = recorder
        self.flight = flight
        self.stream = stream
        self.hooks = hooks
        self.board_id = board_id


class Inputs:
    """The loop's door to the board: every input from the buttons and from the host
    goes through here, so the flight recorder notes it (boardcore.flight: presses and
    hints) and a new game starts its log.  The host link's commands call it (the
    game's: samsara.commands); the loop's buttons too (press).  Requests return what
    the board's request returns and raise the game controller's Refused when refused
    (samsara.controller.Refused)."""

    def __init__(self, loop):
        self.loop = loop
        self.board = loop.board

    def _note(self, now_ms, what, long=False):
        fl = self.loop.flight
        if fl is not None:
            fl.press(now_ms, what, long)

    def press(self, now_ms, button, long=False):
        """A button press, noted, then the board's (its press(): Samsara's a roll, an
        undo, a hint, or the gesture that starts a game against the board, which starts
        through new_game here so that its log starts; another game's its own meaning).
        A refused request is the board's `reject` event."""
        self._note(now_ms, button, long)
        self.board.press(now_ms, button, long, self._vs_game)

    def _vs_game(self, now_ms, vs):
        # The long-press gesture's game against the board (vs: its side, None for a
        # normal game), through new_game so that its log starts.
        try:
            self.new_game(now_ms, vs=vs)
        except Exception as e:  # the log is full: the recorder announced it
            self.board.emit({"ev": "error", "msg": str(e)[:80]})

    def roll(self, now_ms):
        """The host's roll: the dice, or None.  Raises Refused."""
        self._note(now_ms, "roll")
        return self.board.roll(now_ms)

    def undo(self, now_ms):
        """The host's undo: the sub-move taken back, or None.  Raises Refused."""
        self._note(now_ms, "undo")
        return self.board.undo(now_ms)

    def hint(self, now_ms):
        """The host's hint (noted as a hint, not as a press).  Raises Refused."""
        self._note(now_ms, "hint")
        return self.board.hint(now_ms)

    def set_dice(self, d1, d2, joint=False):
        """Host-set dice of the next roll (ValueError unless 1..6; joint: an online
        game's joint dice)."""
        self.board.set_dice(d1, d2, joint)

    def far_turn(self, now_ms, text):
        """The far player's turn from the host (an online game): its notation.  Raises
        Refused.  (Not a press: the flight recorder keeps no note of it.)"""
        return self.board.controller.far_turn(now_ms, text)

    def new_game(self, now_ms, position=None, match=False, starter=0, vs=None, level=3,
                 far=False, tags=None):
        """A new game on the board and its log.  A complete turn of the game before is
        recorded first and its record reaches the log before that game's log ends (as
        abandoned when unfinished).  position: a position string or None (the start);
        vs: the side the board plays (0/1) or None; level: its strength 1..3 (3 the
        engine's best, samsara.rules.engine.LEVEL_BEST); far: vs is a far player's (an
        online game); tags: {key: text} for the log's header (an online game's "online"
        and "players").  Returns the game number (None
        without a recorder).  Raises boardcore.storage.gamelog.LogFull (announced) when
        the log cannot take the game, samsara.rules.position.PositionError."""
        board = self.board
        loop = self.loop
        board.controller.close_turn(now_ms)
        loop.drain(now_ms)          # the old game's last events into its log first
        gid = None
        rec = loop.recorder
        if rec is not None:
            gid = rec.start_game(position, match, starter, vs, far, tags, level)
        board.new_game(position=position, match=match, starter=starter, now_ms=now_ms,
                       vs=vs, level=level, far=far)
        return gid


class SystemClock:
    """The Pico's clock: ticks_ms() wraps at 2**30, sleep_ms() blocks.  The tests pass
    a virtual clock with the same two methods (tests/fakes/bench.py Clock)."""

    def __init__(self):
        # getattr: the stubs type ticks_ms() as an opaque _TicksMs, while the board
        # core (like MicroPython itself) works with the small int it really is.
        self.ticks_ms = getattr(time, "ticks_ms")
        self.sleep_ms = getattr(time, "sleep_ms")


class Stats:
    """Counters of the loop (ints only; no allocation while counting)."""

    def __init__(self):
        self.ticks = 0        # iterations
        self.overruns = 0     # iterations that ended after the next period began
        self.led_writes = 0   # scenes written to the chain
        self.events = 0       # events handed to the sinks
        self.presses = 0      # button events given to the board
        self.quiet = 0        # quiet-time work done (log writes, a collection)


class Loop:
    """The scan loop of one board: once() is one iteration, run() repeats it on the
    fixed period.  Everything once() needs is made here, in __init__: the host link
    (boardcore.link.hostlink.HostLink, from `services`), the door to the board (Inputs)
    and the sinks of the events (the recorder, the link, the flight recorder, then
    `watch`: a callable given every event, for tests and tools).

    board: a game's board core (samsara.core.Board, gameboard.core.GameBoard: the
    queries and requests of docs/core-api.md "What the scan loop asks of a board"); hw:
    the drivers (board.hw.Hardware); clock: ticks_ms, sleep_ms; services: Services or
    None (no log, no link)."""

    def __init__(self, board, hw, clock, services=None, stats=None, watch=None):
        self.board = board
        self.hw = hw
        self.clock = clock
        self.stats = stats if stats is not None else Stats()
        self.period = board.config.scan_ms
        self.frame = bytearray(8)
        self.shown = -1
        self.garbage = False  # events or host lines since the last quiet collection
        self.held = False     # events and USB held over to the next iteration (BUDGET)
        self.unwritten = False  # events since the last log write (quiet time)
        self.think_gc = False   # THINK_GC is the collection threshold (the engine thinks)
        us = getattr(time, "ticks_us", None)
        self._us = us if BUDGET and us is not None else _zero
        board.pacing.defer(self._us is not _zero)   # the Pico paces its answers
        self._scan = hw.scanner.scan
        self._poll = hw.buttons.poll
        self._leds = hw.leds
        self._feed = hw.watchdog.feed
        self.inputs = Inputs(self)
        s = services
        self.recorder = s.recorder if s is not None else None
        self.flight = s.flight if s is not None else None
        self.link = None
        sinks = []
        if self.recorder is not None:
            sinks.append(self.recorder.on_event)
        if s is not None and s.stream is not None:
            from boardcore.link.hostlink import HostLink
            self.link = HostLink(s.stream, board, self.inputs, self.recorder, self.flight,
                                 s.hooks, s.board_id, self.period)
            sinks.append(self.link.on_event)
        if self.flight is not None:
            sinks.append(self.flight.on_event)
        if watch is not None:
            sinks.append(watch)
        self.sinks = tuple(sinks)   # bound methods made once, not per event

    def start(self, now_ms):
        """The loop begins: the link's boot line."""
        if self.link is not None:
            self.link.boot(now_ms)

    def start_watchdog(self, timeout_ms):
        """Start the drivers' watchdog (board.hw.Hardware.start_watchdog: it cannot be
        stopped again) and feed it from every iteration."""
        self.hw.start_watchdog(timeout_ms)
        self._feed = self.hw.watchdog.feed

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
        board.pacing.hold = self.held
        self._scan(self.frame)
        if self.flight is not None and self.frame != board.debounce.raw:
            self.flight.changes(now, self.frame)   # raw changes to the flight recorder
        board.tick(now, self.frame)
        if board.foresaw:
            # this scan worked out a lifted marble's targets (Pacing.foresee_lifts, 3-6
            # ms): the rest waits for the next iteration, so that the lift's commit and
            # its LEDs come one piece sooner
            board.foresaw = False
            t0 = False
        else:
            if BUDGET:   # on the Pico the answer first, the buttons after it
                t0 = self._answer(now, t0)
            b = self._poll(now)
            if b is not None:
                self._press(now, b)
            if not BUDGET:
                t0 = self._answer(now, t0)
            if (self.garbage or self.unwritten) and not self.held and \
                    not board.debounce.busy and not board.events.count:
                # (a press's events, on the Pico: sent first)
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
            got = self.serve(now)
            done = True
        if self._stale() and ticks_diff(self._us(), t0) < \
                (_END_US - _LED_US if up else _PIECE_BY_US):
            self._show(t0, up)
        if not done:
            if ticks_diff(self._us(), t0) < _PIECE_BY_US:
                got = self.serve(now)
            else:
                self.held = True
        return got

    def _stale(self):
        # The LEDs do not show the board's scene (or, lazy, the scene is not drawn).
        board = self.board
        return board.scene_version != self.shown or \
            (board.pacing.lazy_redraw and board.controller.version != board.drawn)

    def serve(self, now):
        """The sinks piece of an iteration: every queued event to every sink, then the
        link's service (a host command run, its events passed on, its reply).  True
        when events went out."""
        self.held = False
        got = self.drain(now)
        link = self.link
        if link is not None and link.poll(now):
            self.garbage = True
            if self.drain(now):
                got = True
            link.answer()
        return got

    def drain(self, now):
        """Every queued board event to every sink, in order: the one place events are
        taken off the board's queue.  Returns the number of events."""
        # Kept small: its call frame stays off the heap when there is no event.
        ev = self.board.poll_event()
        if ev is None:
            return 0
        return self._pass_on(ev)

    def _pass_on(self, ev):
        # `ev` and every event queued after it to every sink, in order.
        self.garbage = True
        self.unwritten = True
        board = self.board
        sinks = self.sinks
        n = 0
        while ev is not None:
            for sink in sinks:
                sink(ev)
            n += 1
            ev = board.poll_event()
        self.stats.events += n
        return n

    def _quiet(self, now):
        # Planned work that would stall an answer if done at once, one piece per
        # iteration (a flash write, then a collection) so that a button press is not
        # missed.  Never within QUIET_MS of a raw sensor change, never while a marble is
        # in the air (it is about to be placed).  The game log's waiting records only
        # once the turn is complete or not yet rolled (a sector erase stalls 45 ms with
        # interrupts off: nobody waits for an answer then; a collection first, the
        # write in the next iteration), else after WRITE_MS of stillness; a collection
        # at each quiet moment, so the automatic ones rarely fall on a lift or a
        # placement.  Nor while the board's engine thinks (its decision time counts
        # from the roll).
        board = self.board
        if board.thinking():
            if _UPY and not self.think_gc:
                self.think_gc = True
                gc.threshold(THINK_GC)
            return
        quiet = board.quiet_ms(now)
        if quiet < QUIET_MS + _QUIET_MARGIN or board.lifted():
            return
        if quiet < WRITE_MS and board.mid_move():
            return      # a piece is in the air in the middle of a move (a goal's)
        if self.unwritten:
            if quiet >= WRITE_MS or board.at_rest():
                if self.garbage and _UPY:
                    # the turn's garbage collected first, the write in the next
                    # iteration: the lowest free heap is not the two piled up
                    self.stats.quiet += 1
                    self.garbage = False
                    self._collect()
                    return
                if board.pacing.end_due:
                    # the game's last turn recorded and the game over (deferred by
                    # Controller.on_settled on the Pico), after that collection; its
                    # events go out, then a collection and the write as for any turn
                    self.stats.quiet += 1
                    board.controller.commit_due_now(now)
                    return
                self.unwritten = False
                rec = self.recorder
                if rec is not None and rec.flush(True):
                    # (a game's end waits for the next one, after a collection)
                    self.unwritten = len(rec.pending) > 0
                    self.stats.quiet += 1
                    self.drain(now)
                    self.garbage = True      # the collection in the next iteration
                    return
        fl = self.flight
        if fl is not None and fl.due and self.recorder is not None:
            self.stats.quiet += 1
            n, why = flightsave.save(fl, self.recorder.log.fs, now)
            board.emit({"ev": "flight_saved", "copy": n, "why": why})
            self.garbage = True      # the collection in the next iteration
            return
        if self.garbage:
            self.stats.quiet += 1
            self.garbage = False
            if _UPY:
                self._collect()

    def _collect(self):
        # The quiet moment's collection (MicroPython): the garbage collected, the
        # automatic collections' threshold set back to GC_THRESHOLD.
        self.think_gc = False
        gc.collect()
        gc.threshold(GC_THRESHOLD)

    def _press(self, now, b):
        self.inputs.press(now, b[0], b[1])
        self.stats.presses += 1

    def _show(self, t0, up):
        # The LED piece: the scene drawn (lazy) and written.  On the Pico, with no
        # marble in the air, a write the drawing made late goes in the next iteration.
        board = self.board
        if board.pacing.lazy_redraw:
            board.redraw()
            if not up and ticks_diff(self._us(), t0) > _END_US - _WRITE_US:
                return
        if board.scene_version != self.shown:
            self.shown = board.scene_version
            self._leds.show(board.limited_scene())
            self.stats.led_writes += 1

    def close(self):
        """The loop stops (Ctrl-C into the REPL, a restart): the records still waiting
        for a quiet moment are written."""
        rec = self.recorder
        if rec is not None:
            rec.flush()

    def run(self, max_ticks=-1, until=None):
        """Iterate every `period` ms: max_ticks iterations (-1: forever) or until
        `until(board)` is true (checked after iterations that produced an event).
        When a pending sensor change's settle time (boardcore.debounce) ends before the
        next period, the next scan comes at that end instead.  A late iteration counts
        as an overrun; far behind, the schedule restarts
        from now instead of hurrying to catch up.  Returns the Stats."""
        ticks_ms = self.clock.ticks_ms
        sleep_ms = self.clock.sleep_ms
        period = self.period
        stats = self.stats
        deb = self.board.debounce
        due = ticks_ms()
        n = 0
        while n != max_ticks:
            now = ticks_ms()
            got = self.once(now)
            n += 1
            if got and until is not None and until(self.board):
                break
            due = (due + period) & 0x3FFFFFFF
            t = ticks_ms()
            wait = ticks_diff(due, t)
            if deb.busy:
                # a settle time ends before the next scan: scan at its end (a
                # placement is answered at settle_place after the scan that saw it,
                # not up to a period later), or at once when it ended while this
                # iteration ran; the schedule goes on from there
                d = ticks_diff(deb.due, t)
                if d < wait:
                    if d > 0:
                        wait = d
                        due = deb.due
                    else:
                        wait = 0
                        due = t
            if wait > 0:
                sleep_ms(wait)
            elif wait < 0:
                stats.overruns += 1
                if wait < -period:
                    due = ticks_ms()
        return stats


def _zero():
    return 0

