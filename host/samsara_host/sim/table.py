"""A simulated game: two simulated players at the simulated board (docs/simulator.md).

`Table` owns one `samsara.core.Board` (the firmware core, unchanged), a `Driver` that
feeds it on the scan grid of a virtual clock, a `Physical` signal model and the two
players' script.  The players look at the board as people do (the dice shown after the
roll, the state of the turn) and act through their hands only: every input the board
gets is a raw sensor change, a dice line (host-set dice, so a seeded game is the same
game at every noise level) or a button press.  Everything the board gets is recorded as
a trace (docs/traces.md), which replays to the same game.

Two random sources keep a seeded game the same game at every noise level:
`rng_game` (dice and the strategies' choices, drawn the same way whatever happens on
the board) and `rng_noise` (timing and every physical mishap).

A player's turn:
1. think, then the dice line and a roll press (again a little later when the board
   rejects it, e.g. while a marble still rocks);
2. choose a complete turn with the strategy (samsara_host.sim.player, the one
   player core) from the board's position and dice;
3. for each sub-move: maybe a mishap first (lift a marble and put it back, the wrong
   hole held WRONG_HOLD_MS, a neighbour knocked out or bumped into a nearby hole, two
   marbles lifted at once, a resting marble rocking), then the move itself (lift,
   hover, place, or a slide over the empty holes of its row); a goal is the marble into
   the goal hole, then in either order the scoring piece one field inward and the
   marble from the goal to its reinsertion field;
4. wait until the board shows the sub-move accepted (the controller's position equals
   the planned one); re-plan the rest when the board read a different die;
5. after the last sub-move, wait for the board to complete the turn.
A player that waits in vain (SIM_TIMEOUT_MS) raises SimError with the board's state:
in tests that is a failure of the board, never something the players work around.
"""
import random

from samsara.rules import moves as rules
from samsara.core import Board
from samsara.config import Config
from samsara.rules.geometry import GS, GR
from samsara.rules.notation import format_sub_move
from samsara.rules.position import Position, START
from samsara.rules.moves import M_DIE, M_FROM, M_TO, M_R, M_S, M_A, M_B
from samsara_host.sim.readable import readings, reads_as_move
from samsara.states import WAITING, MOVING, GOAL_PENDING, TURN_COMPLETE, REPAIR, GAME_OVER, \
    MOKSHA, ENDED

from samsara_host.layout import neighbours
from samsara_host.sim import physical as ph
from samsara_host.sim.driver import Driver, frame_of
from samsara_host.sim.player import goal_steps, random_pick, strategy
from samsara_host.trace import Trace, start_occupancy

SIM_TIMEOUT_MS = 6000.0
POLL_MS = 10.0
MAX_TURNS = 600


class SimError(RuntimeError):
    """The simulated players could not go on: the board did not accept what they did."""


def _lane_row(p):
    # (lane, half) of a track field: the physical row it sits in.
    if p < 24:
        return (0, p // 12)
    return (1, (p - 24) // 12)


def slide_path(frm, to):
    """Holes a marble slid from `frm` to `to` crosses: the fields strictly between them
    when both are in the same row and `to` lies ahead (else [], the marble is lifted)."""
    if frm >= 48 or to >= 48 or _lane_row(frm) != _lane_row(to) or to <= frm:
        return []
    return list(range(frm + 1, to))


def _without(r, s, p):
    # Lane masks with track field p cleared.
    if p < 24:
        return (r & ~(1 << p), s)
    return (r, s & ~(1 << (p - 24)))


class Stats:
    """Counts of what the players did (for tests that the noise really happened)."""

    FIELDS = ("rolls", "roll_retries", "subs", "slides", "wrong", "back", "knocks",
              "bumps", "double", "rocks", "goals")

    def __init__(self):
        for f in self.FIELDS:
            setattr(self, f, 0)

    def as_dict(self):
        return dict((f, getattr(self, f)) for f in self.FIELDS)


class Table:
    """A seeded game between two simulated players on a simulated board.

    seed: int; noise: level 0..3 (physical.NoiseProfile); players: two strategy names
    (A's, B's); position: start Position or position string (default the rules'
    start, A to move); opponent_goal: rule option name; config: samsara.config.Config
    (default: the firmware defaults with this option).
    After run(): turns, final_position, result, trace, events (driver.events), stats.
    """

    def __init__(self, seed=1, noise=1, players=("greedy", "greedy"), position=None,
                 opponent_goal="owner_scores", config=None, max_turns=MAX_TURNS):
        if isinstance(position, str):
            position = Position.parse(position)
            if position.a == 6 or position.b == 6:
                raise ValueError("start position is already over: a score of 6 ends a "
                                 "single game")
        self.start = position if position is not None else START
        self.seed = seed
        self.noise = ph.NoiseProfile(noise)
        self.og_name = opponent_goal
        self.og = rules.option_code(opponent_goal)
        self.cfg = config if config is not None else Config(opponent_goal=opponent_goal)
        self.rng_game = random.Random(seed)
        self.rng_noise = random.Random("noise/%d/%d" % (seed, self.noise.level))
        self.players = [strategy(players[0]), strategy(players[1])]
        self._pick_turn = random_pick(self.rng_game)   # one draw per choice (player.py)
        self.player_names = tuple(players)
        self.max_turns = max_turns
        self.board = Board(self.cfg)
        self.board.new_game(self.start, now_ms=0)
        occ = start_occupancy(self.start)
        self.record = []
        self.driver = Driver(self.board, self.cfg.scan_ms, frame_of(occ), record=self.record)
        self.phys = ph.Physical(self.driver.push_raw, self.rng_noise, self.noise)
        self.phys.load(occ)
        self.stats = Stats()
        self.now = 0.0
        self.done = False
        self.error = None
        self._script = self._game()
        self._wake = 0.0

    # -- running -------------------------------------------------------------------

    def step_until(self, t):
        """Run the game up to virtual time t (ms): resume the players whenever they
        are due, tick the board.  Returns False once the game is over and settled."""
        while not self.done and self._wake <= t:
            self.driver.advance(self._wake)
            self.now = self._wake
            try:
                self._wake = max(next(self._script), self.now)
            except StopIteration:
                self.driver.run_out()
                self.now = max(self.now, self.driver.now)
                self.done = True
        if not self.done:
            self.driver.advance(t)
            self.now = t
        return not self.done

    @property
    def wake(self):
        """Virtual time (ms) at which the players act next."""
        return self._wake

    def run(self):
        """Play the whole game; returns self.  Raises SimError when stuck."""
        while self.step_until(self._wake):
            pass
        return self

    # -- results -------------------------------------------------------------------

    @property
    def controller(self):
        return self.board.controller

    def turns(self):
        """The complete turns in play order (a turn complete but not yet committed by
        the next roll included)."""
        return turns_of(self.driver.events, self.controller)

    def final_position(self):
        return self.controller.position().format()

    def trace(self):
        """The recorded trace (header: start position and rule option)."""
        return Trace({"start": self.start.format(), "opponent_goal": self.og_name},
                     self.record)

    # -- the players' script (a generator of wake times) --------------------------

    def _u(self, lo_hi):
        return ph.uniform(self.rng_noise, lo_hi)

    def _chance(self, p):
        return p > 0 and self.rng_noise.random() < p

    def _sleep(self, ms):
        t = self.now + ms
        while self.now < t:
            yield t

    def _wait(self, cond, what, timeout=SIM_TIMEOUT_MS):
        end = self.now + timeout
        while not cond():
            if self.now >= end:
                c = self.controller
                raise SimError("waited %.0f ms for %s at %.1f ms: state %s, turn %r, "
                               "reason %r, position %s" % (
                                   timeout, what, self.now, c.state, c.turn_notation(),
                                   c.view.reason, c.position().format()))
            yield self.now + POLL_MS

    def _at(self, t):
        # An action time strictly after the last tick (inputs belong to a later tick).
        return ph.rnd(max(t, self.driver.now + 0.1, self.now + 0.1))

    def _game(self):
        c = self.controller
        yield from self._sleep(self._u(ph.THINK_MS))
        nturns = 0
        while c.state not in ENDED and nturns < self.max_turns:
            nturns += 1
            yield from self._roll()
            if c.state in ENDED:
                break
            yield from self._turn()
        yield from self._sleep(500.0)

    def _roll(self):
        c = self.controller
        ev = self.driver.events
        d1 = self.rng_game.randint(1, 6)
        d2 = self.rng_game.randint(1, 6)
        t = self._at(self.now + self._u(ph.THINK_MS))
        self.driver.push_dice(t, d1, d2)
        while True:
            mark = len(ev)
            self.driver.push_button(t, "roll")
            self.stats.rolls += 1

            def answered():
                for _t, e in ev[mark:]:
                    if e["ev"] == "roll" or (e["ev"] == "reject" and e.get("what") == "roll"):
                        return True
                return False
            yield from self._wait(answered, "the roll")
            if any(e["ev"] == "roll" for _t, e in ev[mark:]):
                return
            self.stats.roll_retries += 1
            if self.stats.roll_retries > 50 * (1 + self.stats.rolls):
                raise SimError("the board keeps rejecting the roll: %s" % c.view.reason)
            t = self._at(self.now + self._u((200.0, 600.0)))

    def _turn(self):
        c = self.controller
        pos = c.position()
        d1, d2 = c.turn.d1, c.turn.d2
        plan = self.players[pos.mover](pos.r, pos.s, pos.a, pos.b, pos.mover, d1, d2,
                                       self.og, self._pick_turn)
        if plan is None:
            return  # Moksha: the board has ended the game
        plan = list(plan)
        k = 0
        while k < len(plan):
            m = plan[k]
            yield from self._sleep(self._u(ph.BETWEEN_MS))
            if m[M_TO] in (GS, GR):
                yield from self._goal(m)
            else:
                yield from self._sub_move(m)
            want = (m[M_R], m[M_S], m[M_A], m[M_B])

            def accepted(n=k + 1, want=want):
                if len(c.turn.played) != n or c.view.lifted or c.view.wrong >= 0 or c.state in (
                        REPAIR, GOAL_PENDING):
                    return False
                return (c.turn.r, c.turn.s, c.turn.a, c.turn.b) == want
            yield from self._wait(accepted, "sub-move %s" % format_sub_move(m))
            self.stats.subs += 1
            if c.state in ENDED:
                return
            got = c.turn.played[-1]
            if got[M_DIE] != m[M_DIE] and k + 1 < len(plan):
                # The board read the other die (same landing): play the rest with the
                # die it left.
                plan[k + 1:] = self._replan(plan[k + 1:], c.remaining_dice())
            k += 1
        yield from self._wait(lambda: c.state in (TURN_COMPLETE, GAME_OVER, MOKSHA,
                                                  WAITING),
                              "the turn to complete")

    def _replan(self, rest, rem):
        c = self.controller
        want = rest[-1][4:8]
        for m in rules.gen_sub_moves(c.turn.r, c.turn.s, c.turn.a, c.turn.b, c.turn.mover, rem[0], self.og):
            if tuple(m[4:8]) == tuple(want):
                return [m]
        raise SimError("cannot re-plan %s with dice %s" % (format_sub_move(rest[0]), rem))

    # -- one sub-move with its mishaps -----------------------------------------------

    def _occupied_near(self, p, exclude):
        return [q for q in neighbours(p) if self.phys.occ[q] and q not in exclude]

    def _empty_near(self, p, exclude):
        return [q for q in neighbours(p) if not self.phys.occ[q] and q not in exclude]

    def _pick(self, seq):
        return seq[int(self.rng_noise.random() * len(seq))] if seq else -1

    def _unreadable(self, frm, holes, planned=None, in_air=-1):
        # The holes of `holes` where a marble from `frm` would not read as a move,
        # before or after the planned sub-move, also while the marble on `in_air` (the
        # player's own, for a knock) is lifted: every reading the board could make
        # (samsara_host.sim.readable.readings / reads_as_move) must be avoided.
        c = self.controller
        ok = readings(c.turn, planned)
        bases = [(c.turn.r, c.turn.s)]
        if in_air >= 0:
            bases.append(_without(c.turn.r, c.turn.s, in_air))
        if planned is not None and planned[M_TO] < 48:
            bases.append((planned[M_R], planned[M_S]))
        out = []
        for w in holes:
            good = True
            for r, s in bases:
                r, s = _without(r, s, frm)
                if w < 24:
                    r |= 1 << w
                else:
                    s |= 1 << (w - 24)
                if reads_as_move(r, s, ok):
                    good = False
                    break
            if good:
                out.append(w)
        return out

    def _wrong_hole(self, m):
        # An empty hole near the target that no reading of the board could take as a
        # move (so the board must call it wrong), or -1.
        frm, to = m[M_FROM], m[M_TO]
        return self._pick(self._unreadable(frm, self._empty_near(to, (frm, to)), m))

    def _sub_move(self, m):
        phys = self.phys
        nz = self.noise
        frm, to = m[M_FROM], m[M_TO]
        t = self._at(self.now)
        if self._chance(nz.back):
            # Lift a marble and put it back where it came from (no move).
            self.stats.back += 1
            t = phys.move(t, frm, frm, slide=False)
            t = self._at(t + self._u(ph.BETWEEN_MS))
        t_lift = t
        path = slide_path(frm, to)
        w = self._wrong_hole(m) if self._chance(nz.wrong) else -1
        busy = set([frm, to, w] + path)
        if w >= 0:
            self.stats.wrong += 1
            t = phys.move(t, frm, w, slide=False)
            phys.move(t + self._u(ph.WRONG_HOLD_MS), w, to, slide=False)
        else:
            slide = bool(path) and self._chance(nz.slide)
            if slide:
                self.stats.slides += 1
            phys.move(t, frm, to, path, slide=slide)
        self._mishaps(t_lift, busy, m)
        yield from self._sleep(max(0.0, phys.quiet - self.now) + 1.0)

    def _mishaps(self, t_lift, busy, m):
        # A neighbour knocked out (or bumped into a nearby hole) or lifted along, a
        # resting marble rocking, all while the hand is busy with this sub-move.
        phys = self.phys
        nz = self.noise
        frm, to = m[M_FROM], m[M_TO]
        if self._chance(nz.knock):
            q = self._pick(self._occupied_near(self._pick([frm, to]), busy))
            if q >= 0:
                busy.add(q)
                self.stats.knocks += 1
                bump = -1
                if self._chance(nz.bump):
                    bump = self._pick(self._unreadable(q, self._empty_near(q, busy), m,
                                                       in_air=frm))
                    if bump >= 0:
                        self.stats.bumps += 1
                        busy.add(bump)
                phys.knock_out(self._at(t_lift + self._u((0.0, 200.0))), q, bump)
        if self._chance(nz.double):
            q = self._pick(self._occupied_near(frm, busy))
            if q >= 0:
                busy.add(q)
                self.stats.double += 1
                phys.move(self._at(t_lift + self._u((0.0, 60.0))), q, q, slide=False)
        if self._chance(nz.rest_rock):
            rest = [p for p in range(48) if phys.occ[p] and p not in busy]
            q = self._pick(rest)
            if q >= 0:
                self.stats.rocks += 1
                phys.rock_burst(self._at(t_lift + self._u((0.0, 800.0))), q)

    def _goal(self, m):
        """The goal procedure: the marble into the goal hole, then in either order the
        scoring piece one field inward and the marble from the goal to the
        reinsertion field."""
        phys = self.phys
        c = self.controller
        frm, goal = m[M_FROM], m[M_TO]
        steps = goal_steps(m, c.turn.a, c.turn.b)   # out of the goal, then the scoring piece
        t = self._at(self.now)
        phys.move(t, frm, goal, slide=False)
        self.stats.goals += 1
        # Like a person, go on once the board shows the goal (the scoring field and
        # the reinsertion field light up): a marble still rocking in the goal hole
        # has not been seen there yet.
        yield from self._sleep(max(0.0, phys.quiet - self.now) + 1.0)
        yield from self._wait(lambda: c.state == GOAL_PENDING or (
            c.state in (MOVING, TURN_COMPLETE, GAME_OVER) and c.turn.goal < 0 and
            len(c.turn.played) and c.turn.played[-1][2] == goal), "the goal to light up")
        if len(steps) == 2 and self.rng_noise.random() < 0.5:
            steps.reverse()
        t = self.now
        for a, b in steps:
            t = phys.move(self._at(t + self._u(ph.BETWEEN_MS)), a, b, slide=False)
        yield from self._sleep(max(0.0, phys.quiet - self.now) + 1.0)


def turns_of(events, controller):
    """Complete turns in play order from a driver's (t, event) list: the `turn` events,
    plus the turn the controller holds complete but not yet committed."""
    out = [e["turn"] for _t, e in events if e["ev"] == "turn"]
    if controller.state == TURN_COMPLETE:
        out.append(controller.turn_notation())
    return out
