"""The game controller: the state machine that turns settled frames and requests (the
buttons, the host) into accepted moves and events (docs/controller.md has the states,
the diagram and every event).

The controller never reads a clock or a pin: each call gets now_ms and the settled frame
from samsara.core.Board.  Its parts, one job each:

    turn    samsara.turn.Turn: the roll, the accepted sub-moves and what follows from
            them (dice left, position, expected frame, a goal in progress)
    read    samsara.reading: a settled frame read as moves (a pure function)
    dice    samsara.dice_entry.DiceEntry: where the next roll's dice come from
    view    samsara.display.View: the display model drawn by samsara.scene
    player  samsara.boardplayer.BoardPlayer: the board's side in a game against it, or
            a hint (None otherwise); it advises, the controller acts
    pacing  boardcore.pacing.Pacing: what is left for later on the Pico

Every change of state is a method here: the frame side (on_frame, on_settled, commit,
game_over) and the requests (roll, undo, hint, next_game, new_game, restore).  A
request that is not possible now emits a `reject` event and raises Refused, so a host
command's reply comes from the call that carried it out.  Only a settled change
triggers the frame side; a tick without one costs a few compares.  Two fast paths
(one more marble lifted, the one marble in the air placed as a sub-move) skip the
general reading for the commonest changes with the same result;
`Controller.fast_paths = False` sends every frame through the general reading
(tests/test_fast_paths.py proves both agree).
"""

from samsara import reading as rd
from samsara.rules.game import Game, Match
from samsara.rules.geometry import GS, GR, position_name
from samsara.rules.notation import format_turn, format_roll, format_sub_move, read_sub_move, \
    read_turn
from samsara.rules.position import Position
from samsara.rules.moves import M_DIE, M_FROM, M_TO, M_INS, M_A, M_B
from samsara.rules.engine import LEVEL_BEST
from samsara.boardplayer import BoardPlayer, P_ROLL, P_MOVE, P_HINT, P_NOHINT, P_DONE, \
    P_BLINK
from samsara.dice_entry import DiceEntry
from samsara.display import View
from boardcore.pacing import Pacing
from samsara.turn import Turn, PLAYER
from samsara.states import WAITING, MOVING, GOAL_PENDING, TURN_COMPLETE, REPAIR, \
    GAME_OVER, MOKSHA

MAX_LIFTED = rd.MAX_LIFTED


class Refused(Exception):
    """A request (roll, undo, hint) that is not possible now: `what` (the request) and
    `reason` (the words shown and sent in the `reject` event)."""

    def __init__(self, what, reason):
        super().__init__(reason)
        self.what = what
        self.reason = reason


class Controller:
    """State machine of one board.  config: samsara.config.Config; events: a
    boardcore.events.EventQueue; pacing: boardcore.pacing.Pacing (default: nothing
    deferred).  See the module docstring and docs/controller.md.

    Public: state (a name of samsara.states), game, match, turn, view, dice, player,
    frame (the settled frame last read), wait_settle (True: call on_settled once the
    debounce is idle), version (bumped at every change of the display model),
    frame_matches (the settled frame is the accepted position minus the marbles in the
    air: the fast paths may read it), undo_shown (an undo took a sub-move back: the
    repair ends only on the expected frame), winner (0 A, 1 B, -1 draw, -2 none)."""

    fast_paths = True     # False: every settled frame goes through the general reading

    def __init__(self, config, events, pacing=None):
        self.cfg = config
        self.events = events
        self.pacing = pacing if pacing is not None else Pacing()
        self.dice = DiceEntry(config.dice, config.rng, config.seed)
        self.view = View()
        self.frame = bytearray(8)
        self.version = 0
        self.state = WAITING
        self.resume = WAITING
        self.repair_why = ""      # the reason of the current repair (view.reason also holds rejects)
        self.undo_shown = False
        self.game = Game(og=config.og)
        self.turn = Turn(config.og, self.game.pos)
        self.match = None
        self.winner = -2
        self.now = 0
        self.wait_settle = False
        self.frame_matches = False
        self.turn_note = ""
        self.player = None
        self.setting_up = False   # a new game after a finished one, not set up yet
        self._new_turn()
        self.new_game()

    # ------------------------------------------------------------------ setup

    def _new_turn(self):
        self.turn.reset(self.game.pos)
        v = self.view
        v.lifted = []
        v.targets = []
        v.wrong = -1
        self.turn_note = ""
        self.wait_settle = False
        self.pacing.end_due = False

    def new_game(self, position=None, match=False, starter=0, now_ms=0, vs=None,
                 level=LEVEL_BEST, far=False):
        """Start a single game (from `position`, a Position or position string, default
        the start with `starter` to move) or a match of two games (match=True; starter
        begins the first).  vs: 0/1, the side the board plays (samsara.boardplayer),
        None: none; level: its strength 1..LEVEL_BEST (samsara.rules.engine); far: vs is
        a far player's side instead (an online game: its turns come from the host,
        far_turn).  A complete turn of the game before is recorded first (close_turn).
        The board is expected in the game's position; state 'waiting'."""
        self.close_turn(now_ms)
        self.now = now_ms
        # after a finished game the board still shows its end: setting up is no mistake
        self.setting_up = self.state == GAME_OVER or self.state == MOKSHA
        self.player = BoardPlayer(vs, level, far) if vs is not None else None
        og = self.cfg.og
        if position is not None and not isinstance(position, Position):
            position = Position.parse(position)
        if match:
            self.match = Match(first=starter, og=og)
            if position is not None:
                # a match resumed or set up from a position (tests, tournaments)
                self.match.games[0] = Game(position, og=og, match=True, starter=starter)
            self.game = self.match.current()
        else:
            self.match = None
            self.game = Game(position, og=og, match=False,
                             starter=None if position is not None else starter)
        self.start_game()

    def close_turn(self, now_ms):
        """Record a complete turn that waits for the next roll (or a deferred game end):
        a game that stops here, for a new one, keeps every complete turn."""
        if self.pacing.end_due:
            self.commit_due_now(now_ms)
        elif self.state == TURN_COMPLETE:
            self.now = now_ms
            self.commit()

    def start_game(self):
        """Begin self.game from its position: no dice, state waiting, the
        `game_start` event."""
        self.winner = -2
        self.dice.host = None      # a new game: no host dice, no entry
        self.dice.entry = 0
        self._new_turn()
        self.state = WAITING
        self.resume = WAITING
        self.turn.set_expected()
        ev = {"ev": "game_start", "t": self.now, "position": self.game.pos.format(),
              "match": self.match is not None}
        if self.match is not None:
            ev["game"] = len(self.match.games)
        p = self.player
        if p is not None:
            p.reset()
            if p.side >= 0:
                ev["far" if p.far else "vs"] = PLAYER[p.side]
                if not p.far:
                    ev["level"] = p.level     # logged: a resumed game keeps its level
        self.emit(ev)
        self._show()

    def restore(self, game, roll=None, played=(), now_ms=0):
        """Bring the controller to a game in progress (the log resume,
        samsara.logresume): `game` (samsara.rules.game.Game with its record and
        position as logged; in a match, the match's current game) and, when roll is
        (d1, d2), that roll made and the sub-moves `played` (notation strings, in order)
        accepted.  The events raised on the way are the caller's to drop.  The board is
        expected in the resulting position: feed the settled frame next.  Raises
        ValueError when a sub-move does not replay under the rules."""
        self.now = now_ms
        self.game = game
        self.start_game()
        t = self.turn
        if game.over():
            self.game_over()
        elif roll is not None:
            self._roll(roll[0], roll[1], "host")
            for text in played:
                if not t.rem:
                    break
                t.push(read_sub_move(t.r, t.s, t.a, t.b, t.mover,
                                     tuple(t.rem_after(len(t.played))), text, t.og))
            if t.played:
                self.state = MOVING
                self.wait_settle = not t.rem
        t.set_expected()
        self._show()

    # ---------------------------------------------------------------- queries

    def position(self):
        """samsara.rules.position.Position after the accepted sub-moves; in
        'turn_complete' and later with the next player to move."""
        t = self.turn
        mover = t.mover
        if self.state == TURN_COMPLETE:
            mover = 1 - mover
        elif self.state in (GAME_OVER, MOKSHA):
            return self.game.pos
        return Position(t.r, t.s, t.a, t.b, mover)

    def in_hand(self):
        """True when a marble is lifted, or (a goal pending) the goal's marble or its
        scoring piece is off the board: it is about to be placed (the Pico's loop does
        no quiet-time work then).  Allocates nothing."""
        if self.view.lifted:
            return True
        ex = self.turn.expected
        f = self.frame
        i = 0
        while i < 8:
            if ex[i] & ~f[i]:
                return True
            i += 1
        return False

    def still(self):
        """True while no marble may move: waiting for the roll or the turn complete (a
        raw change then is a stray: the flight recorder counts it)."""
        st = self.state
        return st == WAITING or st == TURN_COMPLETE

    def thinking(self):
        """True while the board's engine thinks (a game against it, a hint)."""
        p = self.player
        return p is not None and p.think is not None

    def remaining_dice(self):
        """The dice still to play this turn, a list (empty before the roll or once the
        turn is complete)."""
        return list(self.turn.rem)

    def turn_notation(self):
        """Turn notation of this turn so far ('' before the roll)."""
        t = self.turn
        if not t.d1:
            return ""
        return format_turn(t.d1, t.d2, t.played)

    def lit_targets(self):
        """[(position name, die)] of the landing fields lit for the lifted marble(s)."""
        return [(position_name(p), d) for p, d in self.view.targets]

    # ------------------------------------------------------------- events etc.

    def emit(self, ev):
        """Queue event dict `ev` (docs/controller.md "Events")."""
        self.events.push(ev)

    def refuse(self, what, reason):
        """Refuse request `what` ("roll", "undo", "hint", "place"): the reason shown, a
        `reject` event.  Returns the Refused to raise."""
        self.view.reason = reason
        self.emit({"ev": "reject", "t": self.now, "what": what, "reason": reason})
        return Refused(what, reason)

    # ---------------------------------------------------------- frame intake

    def on_frame(self, now_ms, frame, changed=None, one=-1):
        """A settled change: `frame` is the debounced frame, `changed` the bits that
        changed (for the lift/place events), `one` the position when exactly one
        changed (-1: see `changed`).  Updates state, events and marks."""
        if self.pacing.end_due:
            self.commit_due_now(now_ms)
        self.now = now_ms
        f = self.frame
        f[:] = frame
        n = 0
        lift = -1
        put = -1
        if one >= 0:
            n = 1
            if (f[one >> 3] >> (one & 7)) & 1:
                put = one
                self.emit({"ev": "place", "t": now_ms, "pos": position_name(one)})
            else:
                lift = one
                self.emit({"ev": "lift", "t": now_ms, "pos": position_name(one)})
        elif changed is not None:
            i = 0
            while i < 8:
                x = changed[i]
                b = 0
                while x:
                    if x & 1:
                        p = (i << 3) + b
                        on = (f[i] >> b) & 1
                        n += 1
                        if on:
                            put = p
                        else:
                            lift = p
                        self.emit({"ev": "place" if on else "lift", "t": now_ms,
                                   "pos": position_name(p)})
                    x >>= 1
                    b += 1
                i += 1
        t = self.turn
        lifted = self.view.lifted
        if n != 1 or not self.fast_paths:
            self.evaluate()
        elif 0 <= lift < 48 and self.frame_matches and len(lifted) < MAX_LIFTED \
                and (self.state == MOVING or self.state == TURN_COMPLETE) \
                and (t.r if lift < 24 else t.s) >> (lift % 24) & 1:
            # Fast path (the commonest change, and the one whose targets must light
            # fast): one more marble of the accepted position in the air.  The general
            # reading would stop at its first step with the same result.
            lifted.append(lift)
            self.state = MOVING
            self.wait_settle = False
        else:
            res = None
            if 0 <= put <= GR and self.frame_matches and self.state == MOVING and \
                    len(lifted) == 1 and t.rem and t.goal < 0:
                # Fast path of the commonest placement: the marble in the air lands
                # as a sub-move (samsara.reading.place_fast).
                res = rd.place_fast(t, self.frame, lifted[0], put)
            if res is None:
                self.evaluate()
            else:
                self._apply(res)
        self._show()

    def foresee(self, raw):
        """A raw change the debounce has seen but not yet settled (Pacing.foresee_lifts,
        the scan before the commit): when a marble of the accepted position is off in
        `raw` (bytearray(8)) as the lift fast path would take it, its targets are
        computed now (samsara.reading.targets keeps them for the turn as it is), so
        that the lift's commit, a scan later, only looks them up and its targets light
        sooner.  Changes nothing else (a bounce that never commits costs only time).
        Returns True when targets were worked out now (not already kept)."""
        st = self.state
        if not self.frame_matches or (st != MOVING and st != TURN_COMPLETE) or \
                len(self.view.lifted) >= MAX_LIFTED:
            return False
        t = self.turn
        if not t.rem:
            return False
        f = self.frame
        i = 0
        while i < 6:
            x = f[i] & ~raw[i] & 0xFF
            if x:
                b = 0
                while not (x >> b) & 1:
                    b += 1
                p = (i << 3) + b
                if (t.r if p < 24 else t.s) >> (p % 24) & 1:
                    kept = t.memo[0]
                    rd.targets(t, p)
                    return t.memo[0] is not kept
                return False
            i += 1
        return False

    def evaluate(self):
        """Read the settled frame in the current state and apply the reading (or
        enter repair)."""
        self.frame_matches = False
        st = self.state
        if st == GAME_OVER or st == MOKSHA:
            return
        if st == REPAIR:
            self.evaluate_repair()
            return
        t = self.turn
        if st == WAITING:
            res = rd.read_waiting(t, self.frame)
            if res is None:
                self.enter_repair(self._waiting_reason())
            else:
                self.view.lifted = res
            return
        if st == GOAL_PENDING:
            res = rd.read_goal(t, self.frame)
            if res is None:
                self.enter_repair("finish the goal first: only the scoring piece and the "
                                  "marble in the goal may move")
            else:
                self._apply_goal(res)
            return
        # moving or turn complete
        res = rd.read(t, self.frame)
        if res[0] == rd.REPAIR:
            self.enter_repair(res[1])
        else:
            self._apply(res)

    def evaluate_repair(self):
        """In repair: back to the state before it (`repair_end`) once the frame reads
        again, else update the repair marks."""
        back = self.resume
        t = self.turn
        ok = None
        if self.undo_shown:
            ok = rd.near_expected(t, self.frame) or None
        elif back == WAITING:
            ok = rd.read_waiting(t, self.frame)
        elif back == GOAL_PENDING:
            ok = rd.read_goal(t, self.frame)
        else:
            ok = rd.read(t, self.frame)
            if ok[0] == rd.REPAIR:
                ok = None
        if ok is None:
            self.view.repair_marks(t.expected, self.frame)
            return
        self.undo_shown = False
        self.setting_up = False
        self.state = back
        self.emit({"ev": "repair_end", "t": self.now})
        self.evaluate()

    def enter_repair(self, reason):
        """Go to state repair with `reason` (text shown, in the `repair` event)."""
        if self.state != REPAIR:
            self.resume = self.state
        self.state = REPAIR
        self.wait_settle = False
        v = self.view
        v.lifted = []
        v.wrong = -1
        v.reason = reason
        self.repair_why = reason
        v.repair_marks(self.turn.expected, self.frame)
        self.emit({"ev": "repair", "t": self.now, "reason": reason,
                   "missing": v.missing, "extra": v.extra})

    def _waiting_reason(self):
        if self.state == WAITING and self.turn.d1 == 0:
            if self.setting_up:
                return "set up the board for the new game: the marbles on their start holes"
            return "the board changed before the roll"
        return "the board differs from the expected position"

    # -------------------------------------------------------------- applying

    def _apply(self, res):
        # A MATCH, AMBIGUOUS or WRONG reading (samsara.reading) of a moving board.
        kind = res[0]
        if kind == rd.MATCH and self.player is not None:
            res = self.player.insist(self, res)     # the board insists on its own turn
            kind = res[0]
        t = self.turn
        v = self.view
        prev_wrong = v.wrong
        v.wrong = -1
        self.frame_matches = kind == rd.MATCH
        if kind != rd.MATCH:
            # Marbles of the accepted position that are off the board: in the air.
            v.lifted = rd.in_air(t, self.frame)
            self.state = MOVING
            self.wait_settle = False
            if kind == rd.WRONG:
                x = res[1]
                if prev_wrong != x or v.reason != res[2]:
                    self.refuse("place", res[2])
                v.wrong = x
            return
        k = res[1]
        seq = res[2]
        prog = res[3]
        old = t.played
        n_old = len(old)
        if k == n_old:
            # Only new sub-moves (the fast placement's case): nothing to take back.
            if seq:
                t.drop_goal()
            for m in seq:
                t.push(m)
                self.emit({"ev": "sub", "t": self.now, "move": format_sub_move(m),
                           "player": PLAYER[t.mover]})
        else:
            added = list(seq)
            undo = []
            for m in old[k:]:
                hit = None
                for a in added:
                    if m[M_DIE] == a[M_DIE] and m[M_FROM] == a[M_FROM] and \
                            m[M_TO] == a[M_TO] and m[M_INS] == a[M_INS]:
                        hit = a
                        break
                if hit is None:
                    undo.append(m)
                else:
                    added.remove(hit)
            t.drop_goal()
            t.set_played(old[:k] + list(seq))
            for m in reversed(undo):
                self.emit({"ev": "undo", "t": self.now, "move": format_sub_move(m),
                           "how": "board"})
            for m in added:
                self.emit({"ev": "sub", "t": self.now, "move": format_sub_move(m),
                           "player": PLAYER[t.mover]})
        if prog is not None:
            self._begin_goal(prog)
            return
        v.lifted = rd.in_air(t, self.frame)
        t.set_expected()
        if self.state != TURN_COMPLETE or k != n_old or v.lifted:
            self.state = MOVING
        self.wait_settle = self.state == MOVING and not t.rem and not v.lifted

    def _begin_goal(self, prog):
        # The last accepted sub-move put a marble into a goal hole.
        t = self.turn
        m = t.played[-1]
        t.goal = m[M_TO]
        t.goal_events = 0
        self.emit({"ev": "goal", "t": self.now, "goal": position_name(m[M_TO]),
                   "player": PLAYER[0 if m[M_TO] == GS else 1],
                   "score": "%d-%d" % (m[M_A], m[M_B]), "ins": position_name(m[M_INS])})
        self.state = GOAL_PENDING
        self._apply_goal(prog)

    def _apply_goal(self, prog):
        # A goal step read (samsara.reading.read_goal): report what is newly done.
        ins_done, piece_done, lifted = prog
        t = self.turn
        m = t.played[-1]
        if ins_done and not t.goal_events & 1:
            t.goal_events |= 1
            self.emit({"ev": "reinsert", "t": self.now, "pos": position_name(m[M_INS])})
        if piece_done and not t.goal_events & 2:
            t.goal_events |= 2
            owner = 0 if m[M_TO] == GS else 1
            self.emit({"ev": "score", "t": self.now, "player": PLAYER[owner],
                       "score": m[M_A] if owner == 0 else m[M_B]})
        t.goal_step(ins_done, piece_done)
        self.view.lifted = []
        if ins_done and piece_done:
            t.goal = -1
            self.state = MOVING
            t.set_expected()
            self.wait_settle = not t.rem
            self.frame_matches = not lifted
            if lifted:
                # the goal is complete and a marble of the next sub-move is already
                # in the air: read the board as moving
                self.evaluate()
        else:
            self.state = GOAL_PENDING
            self.wait_settle = False
            t.set_expected()

    # ------------------------------------------------------------ settle / turn

    def on_settled(self, now_ms):
        """Called by the Board when wait_settle is set and the debounce has nothing
        pending: both dice played and the board settled completes the turn."""
        self.now = now_ms
        self.wait_settle = False
        t = self.turn
        v = self.view
        if self.state != MOVING or t.rem or v.lifted or v.wrong >= 0 or t.goal >= 0:
            return
        self.state = TURN_COMPLETE
        note = self.turn_notation()
        if note != self.turn_note:
            self.turn_note = note
            self.emit({"ev": "turn_complete", "t": now_ms, "turn": note,
                       "player": PLAYER[t.mover]})
        g = self.game.pos
        if (t.a == 6 and g.a < 6) or (t.b == 6 and g.b < 6) or self.game.final_turn:
            pc = self.pacing
            if pc.defer_game_end:
                # the turn's record and the game's end come at the loop's next quiet
                # moment (boardcore.pacing): not within 300 ms of the last placement
                pc.end_due = True
                pc.end_due_ms = now_ms
                return
            self.commit()
        self._show()

    def commit_due_now(self, now_ms):
        """The commit on_settled left for later (Pacing.defer_game_end): the game's
        last turn recorded, the game over.  Done at the loop's quiet moment, or first
        thing by a settled change or a request that comes before it."""
        self.now = now_ms
        self.commit()
        self._show()

    def commit(self):
        """Record the complete turn in the game (`turn` event); then the game's end, or
        the next player's wait."""
        self.pacing.end_due = False
        g = self.game
        t = self.turn
        # (turn_note: the notation on_settled made for turn_complete, if this turn's)
        note = g.apply(t.d1, t.d2, t.played, (t.r, t.s, t.a, t.b),
                       self.turn_note or None)
        self.emit({"ev": "turn", "t": self.now, "turn": note, "player": PLAYER[t.mover],
                   "position": g.pos.format()})
        if g.over():
            self.game_over()
            return
        self._new_turn()
        self.state = WAITING
        self.turn.set_expected()
        if g.final_turn:
            self.emit({"ev": "final_turn", "t": self.now, "player": PLAYER[g.pos.mover]})

    def game_over(self):
        """The game has a result: state game_over or moksha, the `game_over` event (and
        `match_over` at a match's end).  Nothing while the game has no result."""
        g = self.game
        res = g.result
        if res is None:
            return
        w, how, pts = res
        self.winner = -1 if w is None else w
        self.turn.rem = []
        self.state = MOKSHA if how == "moksha" else GAME_OVER
        self.emit({"ev": "game_over", "t": self.now,
                   "winner": None if w is None else PLAYER[w], "how": how,
                   "score": "%d-%d" % (g.pos.a, g.pos.b), "points": [pts[0], pts[1]]})
        if self.match is not None and self.match.over():
            ta, tb = self.match.totals()
            mw = self.match.winner()
            self.emit({"ev": "match_over", "t": self.now, "totals": [ta, tb],
                       "winner": None if mw is None else PLAYER[mw]})

    # ------------------------------------------------------------- requests

    def _request(self, now_ms):
        # Every request: the deferred game end first, the time taken.
        if self.pacing.end_due:
            self.commit_due_now(now_ms)
        self.now = now_ms

    def set_dice(self, d1, d2, joint=False):
        """Host-set dice: the values of the next roll (each 1..6; joint: drawn by both
        players of an online game, the roll's source "joint").  ValueError else."""
        self.dice.set_host(d1, d2, joint)

    def far(self):
        """The far player (samsara.boardplayer.BoardPlayer with far set) of an online
        game, or None."""
        p = self.player
        return p if p is not None and p.far else None

    def far_turn(self, now_ms, text):
        """The far player's turn in turn notation (docs/rules-engine.md), for the roll
        the board made for it: lit and insisted on as the board's own turn in a game
        against it (docs/online.md).  Giving the same turn again changes nothing.
        Returns the turn's notation.  Raises Refused (after its `reject`) outside an
        online game, outside the far player's rolled turn, for another roll, a turn
        that does not replay or one other than the turn already given."""
        self._request(now_ms)
        p = self.far()
        t = self.turn
        if p is None:
            raise self.refuse("far_turn", "not an online game")
        st = self.state
        if st == MOKSHA or st == GAME_OVER or st == WAITING or t.mover != p.side or \
                not t.d1:
            raise self.refuse("far_turn", "not the far player's turn now")
        b = t.base
        try:
            dice, moves, _after = read_turn(b.r, b.s, b.a, b.b, b.mover, text, t.og)
        except Exception as e:
            raise self.refuse("far_turn", str(e)[:60])
        if (dice[0] != t.d1 or dice[1] != t.d2) and (dice[0] != t.d2 or dice[1] != t.d1):
            raise self.refuse("far_turn", "the roll is %s" % format_roll(t.d1, t.d2))
        note = format_turn(t.d1, t.d2, moves)
        if p.plan is not None and p.base is t.base:
            if format_turn(t.d1, t.d2, p.plan) != note:
                raise self.refuse("far_turn", "another turn was given")
            return note
        if st != MOVING or t.played:
            raise self.refuse("far_turn", "not the far player's turn now")
        p.give(self, moves)
        self._show()
        return note

    def roll(self, now_ms, long=False, busy=False):
        """The roll button (long: a long press, which manual dice entry uses) or the
        host's `roll` (docs/controller.md "Dice").  busy: the debounce still has
        unsettled positions.  Returns (d1, d2) once rolled, None while manual entry
        goes on or when the roll started the next game of a match.  Raises Refused
        (after its `reject` event) when no roll is possible now."""
        self._request(now_ms)
        try:
            st = self.state
            if st == GAME_OVER or st == MOKSHA:
                if self.match is not None and not self.match.over():
                    self.next_game(now_ms)
                    return None
                raise self.refuse("roll", "the game is over: start a new game")
            why = self._roll_blocker(busy)
            if why is not None:
                raise self.refuse("roll", why)
            if self.dice.host is None and (self.dice.source == "host" or
                                           self.far() is not None):
                raise self.refuse("roll", "waiting for the joint dice" if self.far()
                                  else "no dice set by the host")
            got = self.dice.press(long)
            if got is None:
                return None
            self._roll(got[0], got[1], got[2])
            return (got[0], got[1])
        finally:
            self._show()

    def _roll_blocker(self, busy):
        # Why a roll is not allowed now, or None.
        st = self.state
        rem = self.turn.rem
        if st == REPAIR:
            return "repair the board first: " + self.repair_why
        if st == GOAL_PENDING:
            return "finish the goal first"
        if st == MOVING:
            if rem:
                return "roll before the turn is complete: %s still to play" % (
                    " and ".join(["die %d" % d for d in rem]))
            return "the board is not settled"
        if st not in (WAITING, TURN_COMPLETE):
            return "no roll in state %s" % st
        if busy:
            return "the board is not settled"
        if self.view.lifted:
            return "put the marble back on %s first" % position_name(self.view.lifted[0])
        return None

    def _roll(self, d1, d2, source):
        # Roll d1, d2 (source: 'host', 'manual' or 'electronic'): a complete turn is
        # recorded first; no complete turn with this roll is Moksha.
        self.setting_up = False
        if self.state == TURN_COMPLETE:
            self.commit()
            if self.state != WAITING:
                return
        t = self.turn
        t.d1 = d1
        t.d2 = d2
        t.set_played([])
        self.turn_note = ""
        self.emit({"ev": "roll", "t": self.now, "dice": [d1, d2],
                   "player": PLAYER[t.mover], "source": source})
        g = self.game
        if g.moksha_roll(d1, d2):
            self.emit({"ev": "moksha", "t": self.now, "roll": format_roll(d1, d2),
                       "player": PLAYER[t.mover]})
            g.apply(d1, d2, [], None)
            self.emit({"ev": "turn", "t": self.now, "turn": format_turn(d1, d2, []),
                       "player": PLAYER[t.mover], "position": g.pos.format()})
            self.game_over()
            return
        self.state = MOVING
        self.frame_matches = True     # a roll needs the settled board to be the position

    def next_game(self, now_ms):
        """The next game of a match after its first one ended (the roll button then)."""
        self.now = now_ms
        self.game = self.match.next_game()
        self.start_game()
        self.evaluate()

    def undo(self, now_ms):
        """The undo button: during manual dice entry one stage back (returns None), else
        the turn's last sub-move taken back (returns its notation; the board shows a
        repair until the marble is back).  Raises Refused when there is nothing to
        undo."""
        self._request(now_ms)
        try:
            if self.dice.undo():
                return None
            st = self.state
            t = self.turn
            if not t.played or (st not in (MOVING, TURN_COMPLETE, GOAL_PENDING) and not (
                    st == REPAIR and self.resume in (MOVING, GOAL_PENDING))):
                raise self.refuse("undo", "nothing to undo in this turn")
            if st == TURN_COMPLETE and self.far() is not None and \
                    t.mover != self.player.side:
                raise self.refuse("undo", "the turn went to the far player")
            m = t.played[-1]
            t.drop_goal()
            t.set_played(t.played[:-1])
            t.set_expected()
            note = format_sub_move(m)
            self.emit({"ev": "undo", "t": self.now, "move": note, "how": "button"})
            # The board still shows the undone sub-move: repair until it is put back.
            if self.state == REPAIR:
                self.resume = MOVING
            else:
                self.state = MOVING
            self.undo_shown = True
            self.enter_repair("undo: put the marble back on %s" % position_name(m[M_FROM]))
            self.evaluate_repair()
            return note
        finally:
            self._show()

    def hint_possible(self):
        """True when a hint can be asked now: the player's own turn is being played
        (a roll made, not the board's own side).  A long press of undo asks for one
        then, and is an undo otherwise (samsara.intents)."""
        t = self.turn
        p = self.player
        return bool(t.d1) and self.state == MOVING and not self.dice.entry and \
            (p is None or p.side != t.mover)

    def hint(self, now_ms):
        """A hint (a long press of undo, the `hint` command): the board's engine thinks
        about the player's roll and lights its turn without forcing it; the `hint`
        event follows once it is chosen (samsara.boardplayer).  Raises Refused when no
        hint is possible now."""
        self._request(now_ms)
        if not self.hint_possible():
            raise self.refuse("hint", "no hint now: only during your own turn")
        if not self.turn.rem:
            raise self.refuse("hint", "no hint: the turn is complete")
        p = self.player
        if p is None:
            p = BoardPlayer(None)
            self.player = p
        p.advise(self)
        self._show()

    # ----------------------------------------------------------- the player

    def step_player(self, now_ms, busy):
        """One scan's work of the board's player (Board.tick): act on what it advises
        (its roll, a sub-move lit with `board_move`, a hint decided with `hint`, the
        display).  busy: the debounce has unsettled positions.  Allocates nothing
        while the player has nothing to do."""
        p = self.player
        a = p.step(self, now_ms, busy)
        if not a:
            return
        self.now = now_ms
        if a == P_ROLL:
            try:
                self.roll(now_ms)
            except Refused:
                pass
            return
        if a == P_BLINK:
            self.view.blink(p.blink, p.on)
            self.version += 1
            return
        if a == P_MOVE:
            t = self.turn
            self.emit({"ev": "board_move", "t": now_ms, "move": format_sub_move(p.moving()),
                       "player": PLAYER[t.mover]})
        elif a == P_HINT:
            t = self.turn
            self.emit({"ev": "hint", "t": now_ms, "turn": format_turn(t.d1, t.d2, p.plan),
                       "player": PLAYER[t.mover]})
        elif a == P_NOHINT:
            self.refuse("hint", "no hint: this turn went another way; undo first")
        elif a == P_DONE:
            self.player = None
            return
        self._show()

    # ---------------------------------------------------------------- display

    def _show(self):
        # Rebuild the display model (samsara.display) from the state.
        self.view.show(self)
        self.version += 1
