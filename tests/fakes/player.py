"""A scripted player pair for simulated games on the fake hardware.

The player moves marbles in a chips.World (which the sensor chip models read) and
presses the roll button by pulling its net low, on the bench's virtual clock, so the
firmware sees exactly what real hands would make the sensors and buttons report.
It reads the board core's state (a person would read the LEDs) to know when to roll
and which dice were rolled; choosing the turn and spelling it as hand actions is the
one simulated player's (samsara_host.sim.player: strategy `scores`, greedy on the score
difference, ties broken by a seeded LCG; `hand_actions`):

    lift the marble, place it on the landing field;
    a goal: place it in the goal hole, take it out and put it on the reinsertion
    field, move the owner's scoring piece one field in.

Every action is GAP_MS after the previous one (longer than the core's settle time).
Works under CPython and the MicroPython Unix port (host/ on MICROPYPATH for the
player core).
"""

import bench
from samsara_host.sim.player import choose_scores, hand_actions, lcg_pick

GAP_MS = 220        # between two hand actions
PRESS_MS = 80       # roll button held down
STUCK_MS = 5000     # the board did not move on after this long: the test fails


class PlayerError(AssertionError):
    """The board did something a correct board would not (stuck, repair, ...)."""


class ScriptedPlayers:
    """Both players of one game.  board: samsara.core.Board; world: chips.World;
    clock: bench.Clock; roll_pin: GPIO of the roll button (pressed = net low)."""

    def __init__(self, board, world, clock, roll_pin, seed=1, gap_ms=GAP_MS):
        # The state names are imported here, with the board already built, so that the
        # fakes' heap baseline (tests/fakes/fwprobe.py) holds no board-core module.
        global WAITING, MOVING, TURN_COMPLETE, REPAIR, GAME_OVER, MOKSHA
        from samsara.states import WAITING, MOVING, TURN_COMPLETE, REPAIR, GAME_OVER, MOKSHA
        self.board = board
        self.world = world
        self.clock = clock
        self.roll_net = bench.net(roll_pin)
        self.rng = bench.Lcg(seed)
        self.pick = lcg_pick(self.rng)
        self.gap = gap_ms
        self.queue = []          # pending hand actions: (kind, position)
        self.next_t = 0
        self.last_progress = 0
        self.last_key = None
        self.turns = 0           # complete turns played by the players
        self.sub_moves = 0
        self.rolls = 0
        self.done = False
        self.planned_for = None  # (roll count) of the turn whose moves are queued
        clock.every.append(self.step)

    # -- hands ---------------------------------------------------------------------

    def _do(self, kind, p, now):
        if kind == "lift":
            self.world.lift(p)
        elif kind == "place":
            self.world.place(p)
        elif kind == "press":
            self.roll_net.reader = _low
        elif kind == "release":
            self.roll_net.reader = None

    def _queue_turn(self, moves, a, b):
        self.queue.extend(hand_actions(moves, a, b))
        self.sub_moves += len(moves)

    def _choose(self, c):
        return choose_scores(c.turn.r, c.turn.s, c.turn.a, c.turn.b, c.turn.mover, c.turn.d1, c.turn.d2, self.board.config.og,
                             self.pick)

    # -- the clock calls this after every advance ----------------------------------

    def step(self, now):
        if self.done or now < self.next_t:
            return
        if self.queue:
            kind, p = self.queue.pop(0)
            self._do(kind, p, now)
            self.next_t = now + (PRESS_MS if kind == "press" else self.gap)
            self.last_progress = now
            return
        c = self.board.controller
        st = c.state
        key = (st, self.rolls, len(c.turn.played))
        if key != self.last_key:
            self.last_key = key
            self.last_progress = now
        elif now - self.last_progress > STUCK_MS:
            raise PlayerError("board stuck in state %s (%s)" % (st, c.view.reason))
        if st == GAME_OVER or st == MOKSHA:
            if self.planned_for == self.rolls:
                self.turns += 1
                self.planned_for = None
            self.done = True
        elif st == REPAIR:
            raise PlayerError("board asks for repair: %s" % c.view.reason)
        elif st == WAITING or st == TURN_COMPLETE:
            if st == TURN_COMPLETE and self.planned_for == self.rolls:
                self.turns += 1
                self.planned_for = None
            self.queue.append(("press", -1))
            self.queue.append(("release", -1))
            self.rolls += 1
        elif st == MOVING and self.planned_for != self.rolls and not c.turn.played:
            moves = self._choose(c)
            if moves is None:
                raise PlayerError("no complete turn but the board did not call Moksha")
            self.planned_for = self.rolls
            self._queue_turn(moves, c.turn.a, c.turn.b)



def _low():
    return 0
