"""Test kit for the game log and the USB link (runs under MicroPython and CPython).

FakeStream: the byte-stream adapter of boardcore.link.hostlink with an input queue the test
fills and an output the test reads.  CleanPlayer: plays complete turns on a
samsara.core.Board by changing its sensor frame the way a careful person moves
marbles (lift, settle, place, settle; goals with the scoring piece and the
reinsertion), on a virtual clock.
"""

import json

from samsara.rules import moves as rules
from samsara import states
from samsara.rules.geometry import GS, GR, A_TRACK, B_TRACK
from samsara.frame import from_position, put


class FakeStream:
    """inp: bytes waiting to be read (feed()); out: bytearray of everything written.
    writable: False makes write() take nothing (a host that does not read)."""

    def __init__(self):
        self.inp = bytearray()
        self.out = bytearray()
        self.writable = True

    def feed(self, data):
        self.inp.extend(data)

    def read_into(self, buf, start, maxn):
        n = len(self.inp)
        if n > maxn:
            n = maxn
        if n:
            buf[start:start + n] = self.inp[:n]
            self.inp[:n] = b""
        return n

    def write(self, buf, start, n):
        if not self.writable:
            return 0
        self.out.extend(buf[start:start + n])
        return n

    def lines(self):
        """The complete lines written so far, decoded (dicts); clears them."""
        out = []
        while True:
            i = self.out.find(b"\n")
            if i < 0:
                break
            raw = bytes(self.out[:i])
            self.out[:i + 1] = b""
            out.append(json.loads(raw))
        return out


def piece_pos(player, score):
    """Sensor position of a scoring piece."""
    return (A_TRACK if player == 0 else B_TRACK) + score


class CleanPlayer:
    """Drives `board` through whole turns.  clock: current virtual ms; step_ms: tick
    spacing; `on_tick(now)`: called after every tick (the service poll)."""

    def __init__(self, board, now=0, step_ms=10, on_tick=None, frame=None):
        self.board = board
        self.now = now
        self.step_ms = step_ms
        self.on_tick = on_tick
        if frame is None:
            frame = from_position(board.controller.game.pos)
        self.frame = bytearray(frame)

    def tick(self, ms):
        end = self.now + ms
        while self.now < end:
            self.now += self.step_ms
            self.board.tick(self.now, self.frame)
            if self.on_tick is not None:
                self.on_tick(self.now)

    def settle(self):
        self.tick(self.board.config.settle_place_ms + 4 * self.step_ms)

    def set(self, p, on):
        put(self.frame, p, on)

    def sub_move(self, m, a_before, b_before):
        """Move marble m[1] to m[2] (and through a goal: scoring piece, reinsertion)."""
        frm, to, ins = m[1], m[2], m[3]
        self.set(frm, False)
        self.settle()
        self.set(to, True)
        self.settle()
        if to == GS or to == GR:
            owner = 0 if to == GS else 1
            old = a_before if owner == 0 else b_before
            new = m[6] if owner == 0 else m[7]
            if new != old:
                self.set(piece_pos(owner, old), False)
                self.set(piece_pos(owner, new), True)
                self.settle()
            self.set(to, False)
            self.set(ins, True)
            self.settle()

    def play_turn(self, rng_pick, d1, d2, partial=-1):
        """Roll (host-set d1, d2) and play a complete turn chosen by rng_pick(n) ->
        index.  partial >= 0 stops after that many sub-moves.  Returns the notation
        chosen or None (Moksha / game over)."""
        b = self.board
        c = b.controller
        b.set_dice(d1, d2)
        b.press(self.now, "roll")
        self.tick(self.step_ms)
        if c.state != states.MOVING:
            return None
        p = c.game.pos
        turns = rules.complete_turns(p.r, p.s, p.a, p.b, p.mover, d1, d2, c.turn.og)
        if not turns:
            return None
        moves, _key = turns[rng_pick(len(turns))]
        a, bb = p.a, p.b
        k = 0
        for m in moves:
            if partial >= 0 and k >= partial:
                return "partial"
            self.sub_move(m, a, bb)
            a, bb = m[6], m[7]
            k += 1
        self.settle()
        return True

    def step(self, pick, roll, partial_pick=None):
        """Advance the game by one natural action whatever the state: a new game after
        the end (via new_game_fn), the rest of an unfinished turn, a put-right board
        in repair or with a goal pending, else a (maybe partial) new turn.
        pick(n) -> index; roll() -> (d1, d2); partial_pick() -> -1 or a sub-move
        count.  Returns the state name it acted on."""
        b = self.board
        c = b.controller
        st = c.state
        if st in (states.REPAIR, states.GOAL_PENDING):
            self.frame[:] = c.turn.expected
            self.settle()
            if c.state == st and st == states.GOAL_PENDING:
                self.tick(200)
            return st
        if st == states.MOVING:
            p = c.position()
            rem = c.remaining_dice()
            if not rem:
                self.settle()
                return st
            subs = rules.completable_sub_moves(p.r, p.s, p.a, p.b, p.mover, tuple(rem), -1, c.turn.og)
            if not subs:
                self.frame[:] = c.turn.expected
                self.settle()
                return st
            self.sub_move(subs[pick(len(subs))], p.a, p.b)
            self.settle()
            return st
        if st in (states.WAITING, states.TURN_COMPLETE):
            d1, d2 = roll()
            self.play_turn(pick, d1, d2, partial=-1 if partial_pick is None else partial_pick())
            return st
        return st


class NoHardware:
    """The drivers a mainloop.Loop needs, doing nothing: a board driven by a test
    (its frames fed to Board.tick by the test), no buttons, no LEDs, no watchdog."""

    def __init__(self):
        self.scanner = self
        self.buttons = self
        self.leds = self
        self.watchdog = self
        self.calibrator = None

    def scan(self, buf):
        pass

    def poll(self, now_ms):
        return None

    def show(self, scene):
        pass

    def clear(self):
        pass

    def feed(self):
        pass

    def start_watchdog(self, ms):
        pass


def services(stream, board, log, hooks=None, board_id="test-1", period_ms=2, boot_ms=None,
             frame=None, flight=None):
    """A mainloop.Loop over `board` with a game recorder on `log` (a GameLog, or None),
    the flight recorder `flight` (or None) and a host link on `stream`: the one event
    path of the firmware, without drivers (NoHardware).  boot_ms: also boot it then
    (the boot line, the log scan, resume or a new game).  Its poll(now) is what a loop
    iteration does for the sinks (Loop.serve)."""
    try:
        import mainloop as main
    except ImportError:  # CPython: the samsara package is installed, firmware/ is not on the path
        import sys
        import samsara
        sys.path.insert(0, samsara.__file__.rsplit("/", 2)[0])
        import mainloop as main
    from samsara.recorder import Recorder
    rec = Recorder(log, board) if log is not None else None
    loop = main.Loop(board, NoHardware(), None,
                     main.Services(rec, flight, stream, hooks, board_id))
    loop.period = period_ms
    loop.link.period_ms = period_ms
    rig = ServicesRig(loop)
    if boot_ms is not None:
        rig.boot(boot_ms, frame)
    return rig


class ServicesRig:
    """A mainloop.Loop's event path as the boot and Loop.once drive it: boot() (the
    boot line, the log scan and resume, a logged new game) and poll(now) (the events to
    every sink, then the link's service: Loop.serve).  loop, board, recorder, link,
    inputs, flight: the loop's."""

    def __init__(self, loop):
        self.loop = loop
        self.board = loop.board
        self.recorder = loop.recorder
        self.link = loop.link
        self.inputs = loop.inputs
        self.flight = loop.flight

    def boot(self, now_ms, frame=None, new_game=True):
        """Returns the resumed game's number or None."""
        loop = self.loop
        loop.board.clear_events()
        loop.start(now_ms)
        g = None
        if loop.recorder is not None:
            g = loop.recorder.boot(now_ms, frame)
        if g is None and new_game:
            from boardcore.storage.gamelog import LogFull
            try:
                loop.inputs.new_game(now_ms)
            except LogFull:
                pass  # log_full was announced
        return g

    def poll(self, now_ms):
        self.loop.serve(now_ms)
