"""A game against the board and the hint (samsara.boardplayer) on the MicroPython VMs and
CPython: the human's idle turn allocates nothing with the board's player attached
(heap_lock), the board rolls by itself, thinks in slices while the loop ticks and
lights the engine's own choice; a hint lights the engine's turn for the player's roll.
An online game's far player (far=True) waits for its turn from the host without
allocation and lights the turn it is given.
"""
from heaputil import assert_no_alloc

from samsara import states
from samsara import scene as sc
from samsara.core import Board
from samsara.config import Config
from samsara.rules import engine
from samsara.rules.geometry import position_index

TICKS_END = 0x3FFFFFFF


class Kit:
    """A Board in a game against the board (vs: the board's side), its raw frame and
    a virtual clock."""

    def __init__(self, vs=1, far=False):
        self.b = Board(Config())
        self.t = 0
        self.b.new_game(now_ms=0, vs=vs, far=far)
        self.raw = bytearray(self.b.debounce.settled)
        self.events = []
        self.drain()

    def drain(self):
        ev = self.b.poll_event()
        while ev is not None:
            self.events.append(ev)
            ev = self.b.poll_event()

    def step(self):
        self.t = (self.t + 5) & TICKS_END
        self.b.tick(self.t, self.raw)

    def wait(self, ms):
        for _ in range(ms // 5):
            self.step()
            self.drain()

    def set(self, p, on):
        if on:
            self.raw[p >> 3] |= 1 << (p & 7)
        else:
            self.raw[p >> 3] &= ~(1 << (p & 7)) & 0xFF

    def move(self, a, b):
        self.set(a, False)
        self.wait(20)
        self.set(b, True)
        self.wait(200)

    def quiet_ticks(self, n=20):
        b = self.b
        raw = self.raw
        for _ in range(n):
            self.t = (self.t + 5) & TICKS_END
            assert_no_alloc(b.tick, self.t, raw)
            assert_no_alloc(b.limited_scene)


def _human_turn(k):
    k.b.set_dice(5, 3)
    k.b.press(k.t, "roll")
    k.drain()
    k.move(position_index("R1"), position_index("S18"))
    k.move(position_index("R2"), position_index("S17"))


def test_the_human_turn_idles_without_allocation_with_the_board_player_attached():
    k = Kit(vs=1)
    k.wait(20)
    assert k.b.controller.player is not None and k.b.controller.player.side == 1
    k.quiet_ticks()                      # waiting for the human's roll
    k.b.set_dice(5, 3)
    k.b.press(k.t, "roll")
    k.drain()
    k.set(position_index("R1"), False)
    k.wait(20)
    assert k.b.state == states.MOVING
    k.quiet_ticks()                      # a marble of the human in the air


def test_the_board_rolls_thinks_in_slices_and_lights_the_engine_choice():
    k = Kit(vs=1)
    _human_turn(k)
    c = k.b.controller
    g = c.player
    n = 0
    while g.lit is None and n < 2000:
        k.wait(5)
        n += 1
    assert g.lit is not None and n > 3           # thought over several loop iterations
    t = c.turn
    assert t.mover == 1 and t.d1
    p = t.base
    want = engine.choose(p.r, p.s, p.a, p.b, 1, t.d1, t.d2, t.og, 1)
    assert g.plan == want[0]
    m = g.lit
    assert c.view.marks[m[2]] == m[0] and c.view.marks[m[1]] in (sc.ORIGIN, 0)
    assert [e for e in k.events if e["ev"] == "board_move"]
    # the loop idles without allocation between two blinks of the lit origin
    k.wait(10)
    k.quiet_ticks(20)


def test_a_hint_lights_the_engine_turn_for_the_player_roll():
    k = Kit(vs=1)
    k.b.set_dice(6, 1)
    k.b.press(k.t, "roll")
    k.b.press(k.t, "undo", True)        # a long press of undo: the hint
    k.wait(3000)
    c = k.b.controller
    hints = [e for e in k.events if e["ev"] == "hint"]
    assert len(hints) == 1 and hints[0]["player"] == "A"
    p = c.turn.base
    want = engine.choose(p.r, p.s, p.a, p.b, 0, 6, 1, 0, 1)[0]
    assert c.player.lit == want[0] and c.view.marks[want[0][2]] == want[0][0]
    assert c.turn.played == []          # not played for the player


def test_the_far_player_waits_for_its_turn_without_allocation_and_lights_it():
    k = Kit(vs=1, far=True)
    c = k.b.controller
    k.b.set_dice(5, 3, True)
    k.b.press(k.t, "roll")
    k.drain()
    k.move(position_index("R1"), position_index("S18"))
    k.move(position_index("R2"), position_index("S17"))
    k.b.set_dice(6, 2, True)          # the far player's joint dice: the board rolls them
    k.wait(100)
    assert c.state == states.MOVING and c.turn.mover == 1 and c.player.waits(c)
    k.quiet_ticks(20)                 # waiting for the far turn from the host
    from samsara.rules import moves as rules
    from samsara.rules.notation import format_turn
    p = c.turn.base
    mv = [m for m, _key in rules.complete_turns(p.r, p.s, p.a, p.b, 1, 6, 2, c.turn.og)][0]
    note = format_turn(6, 2, mv)
    assert c.far_turn(k.t, note) == note
    k.wait(20)
    assert c.player.lit is not None and c.player.lit[1] == mv[0][1]
    assert [e for e in k.events if e["ev"] == "board_move" and e["player"] == "B"]
    k.quiet_ticks(20)                 # the far turn lit, between two blinks
