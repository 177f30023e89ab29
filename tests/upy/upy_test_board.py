"""The board core on the MicroPython VMs (Unix port: make test-upy; 32-bit WebAssembly
port: make test-wasm) and CPython: a tick without a sensor change allocates nothing, in
the waiting, moving, goal-pending, turn-complete and repair states, also while a change
is waiting for its settle time and across the wrap of the 2**30 ms ticks counter; and a
short game works the same as under CPython.
"""
from heaputil import assert_no_alloc, heap_growth

from samsara import states
from samsara.core import Board
from samsara.config import Config
from samsara.rules.geometry import position_index

GOAL3 = "ooooo.................../oooooo...............o.. 0-0 A"
TICKS_END = 0x3FFFFFFF  # last value of time.ticks_ms() on MicroPython


class Kit:
    """A Board with its raw frame and a virtual clock (a small boardscript)."""

    def __init__(self, position=None, t0=0):
        self.b = Board(Config())
        self.t = t0
        self.b.new_game(position=position, now_ms=t0)
        self.raw = bytearray(self.b.debounce.settled)
        self.drain()

    def drain(self):
        n = 0
        while self.b.poll_event() is not None:
            n += 1
        return n

    def step(self):
        self.t = (self.t + 2) & TICKS_END
        self.b.tick(self.t, self.raw)

    def wait(self, ms):
        for _ in range(ms // 2):
            self.step()
        self.drain()

    def set(self, name, on):
        p = position_index(name)
        if on:
            self.raw[p >> 3] |= 1 << (p & 7)
        else:
            self.raw[p >> 3] &= ~(1 << (p & 7)) & 0xFF

    def move(self, a, b):
        self.set(a, False)
        self.wait(20)
        self.set(b, True)
        self.wait(200)

    def roll(self, d1, d2):
        self.b.set_dice(d1, d2)
        self.b.press(self.t, "roll")
        self.drain()

    def state(self):
        return self.b.controller.state

    def quiet_ticks(self, n=20):
        """n ticks with no raw change, each under heap_lock."""
        b = self.b
        raw = self.raw
        for _ in range(n):
            self.t = (self.t + 2) & TICKS_END
            assert_no_alloc(b.tick, self.t, raw)
            assert_no_alloc(b.limited_scene)


def test_idle_tick_allocates_nothing_while_waiting():
    k = Kit()
    k.wait(10)
    assert k.state() == states.WAITING
    k.quiet_ticks()


def test_idle_tick_allocates_nothing_while_moving_with_a_marble_lifted():
    k = Kit()
    k.roll(5, 3)
    k.set("R1", False)
    k.wait(20)
    assert k.state() == states.MOVING and k.b.controller.view.targets
    k.quiet_ticks()


def test_tick_with_a_change_waiting_for_its_settle_allocates_nothing():
    k = Kit()
    k.roll(5, 3)
    k.set("R1", False)
    k.wait(20)
    k.set("S18", True)
    k.step()                       # the change is seen; the placement settles later
    assert k.b.debounce.busy == 1
    k.quiet_ticks(30)              # 60 ms: still below the place settle
    assert k.b.debounce.busy == 1


def test_idle_tick_allocates_nothing_while_goal_pending():
    k = Kit(GOAL3)
    k.roll(3, 2)
    k.move("S22", "GS")
    assert k.state() == states.GOAL_PENDING
    k.quiet_ticks()
    k.move("A0", "A1")
    assert k.state() == states.GOAL_PENDING
    k.quiet_ticks()


def test_idle_tick_allocates_nothing_in_repair():
    k = Kit()
    k.move("R1", "R9")
    assert k.state() == states.REPAIR
    k.quiet_ticks()


def test_idle_tick_allocates_nothing_in_turn_complete():
    k = Kit()
    k.roll(5, 3)
    k.move("R1", "S18")
    k.move("R2", "S17")
    assert k.state() == states.TURN_COMPLETE
    k.quiet_ticks()


def test_idle_ticks_across_the_wrap_of_the_ticks_counter():
    k = Kit(t0=TICKS_END - 100)
    k.roll(5, 3)
    k.set("R1", False)
    k.wait(20)
    k.set("S18", True)
    k.step()
    k.quiet_ticks(50)              # crosses 2**30 -> 0 while the placement settles
    assert k.t < 1000 and k.b.debounce.busy == 1
    k.wait(200)
    assert k.b.controller.turn_notation() == "53 5:R1-S18"


def test_event_ticks_allocate_little():
    k = Kit()
    k.roll(5, 3)
    k.wait(10)
    k.set("R1", False)
    for _ in range(2):
        k.step()
    grown = heap_growth(k.b.tick, k.t + 10, k.raw)    # the lift commits: targets lit
    k.t += 10
    if grown is None:                                  # CPython: heap_growth skips fn
        k.b.tick(k.t, k.raw)
    else:
        assert grown < 4096, grown
    assert k.b.controller.view.targets


def test_short_game_on_this_vm():
    k = Kit()
    k.roll(5, 3)
    k.move("R1", "S18")
    k.move("R2", "S17")
    assert k.state() == states.TURN_COMPLETE
    assert k.b.controller.position().format() == \
        "..oooo................../oooooo..........oo...... 0-0 B"
    k.roll(4, 2)
    assert list(k.b.controller.game.record) == ["53 5:R1-S18 3:R2-S17"]
    assert k.state() == states.MOVING and k.b.controller.turn.mover == 1


def test_goal_on_this_vm():
    k = Kit(GOAL3)
    k.roll(3, 2)
    k.move("S22", "GS")
    k.move("GS", "S7")
    k.move("A0", "A1")
    assert k.state() == states.MOVING
    assert k.b.controller.position().format() == \
        "ooooo.................../ooooooo................. 1-0 A"
