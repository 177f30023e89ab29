"""The game controller: settled frames and button presses in, accepted moves, events and
a display model out (docs/controller.md has the states, the diagram and every event).

The controller never reads a clock or a pin: each call gets now_ms and the settled frame
from samsara.board.Board.  It keeps

    game        samsara.game.Game (the position before this turn, the record, result)
    d1, d2      this turn's roll (0 before the roll); `used` bit 0/1: die 1/2 played
    played      the sub-move tuples accepted this turn (samsara.rules), in order
    r, s, a, b  the position after them (lane masks, scores); mover = game.pos.mover
    expected    bytearray(8): the frame the board should show now (a marble still in
                the goal and a scoring piece not yet moved while a goal is pending)
    marks       bytearray(64): the mark code of each position (samsara.scene)

How a settled frame F is read while a turn is played (moving / turn complete): F is
"explained" as this turn's accepted sub-moves, perhaps cut back (undo, correction),
followed by 0, 1 or 2 new legal sub-moves, with at most two marbles in the air
(lifted, missing from F).  The reading that keeps most of the accepted sub-moves wins,
then the one with the fewest new sub-moves, then the one with the fewest marbles in
the air.  Two different readings at that rank wait for more input (ambiguous); no
reading at all is a wrong placement (one marble on a non-target) or a repair.
Only a settled change triggers this work; a tick without one costs a few compares.
"""

from samsara import rules
from samsara.frame import r_mask, s_mask, extra_mask, fill, pieces_mask, names
from samsara.game import Game, Match
from samsara.geometry import GS, GR, A_TRACK, B_TRACK, popcount24, position_name, position_index
from samsara.notation import format_turn, format_roll
from samsara.position import Position
from samsara.dice import Lcg
from samsara import scene as sc

WAITING = "waiting"
MOVING = "moving"
GOAL_PENDING = "goal_pending"
TURN_COMPLETE = "turn_complete"
REPAIR = "repair"
GAME_OVER = "game_over"
MOKSHA = "moksha"
STATES = (WAITING, MOVING, GOAL_PENDING, TURN_COMPLETE, REPAIR, GAME_OVER, MOKSHA)

PLAYER = ("A", "B")
NAMES = tuple([position_name(p) for p in range(64)])   # built once: events name holes


def _fmt(m):
    # Sub-move notation of m, as samsara.notation.format_sub_move, from the NAMES table
    # (string building is the slow part of an event on the Pico).
    if m[3] >= 0:
        return "%d:%s-%s*%s" % (m[0], NAMES[m[1]], NAMES[m[2]], NAMES[m[3]])
    return "%d:%s-%s" % (m[0], NAMES[m[1]], NAMES[m[2]])
MAX_LIFTED = 2        # marbles in the air at once before the board counts as disturbed


def _bits(r, s):
    # Track position indexes (0..47) of the set bits of lane masks r, s.
    out = []
    i = 0
    while r:
        if r & 1:
            out.append(i)
        r >>= 1
        i += 1
    i = 0
    while s:
        if s & 1:
            out.append(24 + i)
        s >>= 1
        i += 1
    return out


def _lane_bit(p):
    # (r bit, s bit) of track field p
    if p < 24:
        return (1 << p, 0)
    return (0, 1 << (p - 24))


def _same(m, n):
    return m[0] == n[0] and m[1] == n[1] and m[2] == n[2] and m[3] == n[3]


def _owner_piece(m, pa, pb):
    # (old, new) sensor positions of the scoring piece moved by goal sub-move m
    # (scores pa, pb before it); old == new when the score stays at 6.
    if m[2] == GS:
        return (A_TRACK + pa, A_TRACK + m[6])
    return (B_TRACK + pb, B_TRACK + m[7])


class Controller:
    """State machine of one board.  config: samsara.config.Config; events: an
    samsara.events.EventQueue.  See the module docstring and docs/controller.md."""

    def __init__(self, config, events):
        self.cfg = config
        self.og = config.og
        self.events = events
        self.rng = config.rng if config.rng is not None else Lcg(config.seed)
        self.expected = bytearray(8)
        self.frame = bytearray(8)
        self.marks = bytearray(64)
        self.marked = []          # positions with a mark now
        self.touched = []         # positions whose mark may have changed since drawn
        self.drawn_sig = None     # dice/turn part of the last scene (samsara.scene.draw)
        self.drawn_dice_sum = 0   # and its channel sum
        self._tkey = None         # _targets_of cache
        self._tval = ([], -1)
        self.version = 0
        self.state = WAITING
        self.resume = WAITING
        self.strict = False
        self.game = Game(og=self.og)
        self.match = None
        self.winner = -2          # game over: 0 A, 1 B, -1 draw
        self.now = 0
        self.host_dice = None
        self.entry = 0
        self.e1 = 1
        self.e2 = 1
        self.reason = ""
        self.wait_settle = False
        self.clean = False        # the frame is the accepted position minus `lifted`
        self.missing = []
        self.extra = []
        self._new_turn()
        self.new_game()

    # ------------------------------------------------------------------ setup

    def _new_turn(self):
        self.d1 = 0
        self.d2 = 0
        self.used = 0
        self.rem = []
        self.played = []
        self.ends = []
        self.floor = 0
        self.goal = -1          # goal hole of a pending goal
        self.ins = -1           # its reinsertion field, -1 once the marble is there
        self.piece_old = -1     # the scoring piece's field before the goal
        self.piece_new = -1     # its field after the goal, -1 once it stands there
        self.goal_events = 0    # bit 0: reinsert reported, bit 1: score reported
        self.lifted = []
        self.targets = []
        self.wrong = -1
        self.turn_note = ""
        self.wait_settle = False
        p = self.game.pos
        self.r = p.r
        self.s = p.s
        self.a = p.a
        self.b = p.b
        self.mover = p.mover

    def new_game(self, position=None, match=False, starter=0, now_ms=0):
        """Start a single game (from `position`, a Position, default the start with
        `starter` to move) or a match of two games (match=True; starter begins the
        first).  The board is expected in the game's position; state 'waiting'."""
        self.now = now_ms
        if position is not None and not isinstance(position, Position):
            position = Position.parse(position)
        if match:
            self.match = Match(first=starter, og=self.og)
            if position is not None:
                # a match resumed or set up from a position (tests, tournaments)
                self.match.games[0] = Game(position, og=self.og, match=True, starter=starter)
            self.game = self.match.current()
        else:
            self.match = None
            self.game = Game(position, og=self.og, match=False,
                             starter=None if position is not None else starter)
        self._start_game()

    def _start_game(self):
        self.winner = -2
        self.host_dice = None
        self.entry = 0
        self._new_turn()
        self.state = WAITING
        self.resume = WAITING
        self._set_expected()
        ev = {"ev": "game_start", "t": self.now, "position": self.game.pos.format(),
              "match": self.match is not None}
        if self.match is not None:
            ev["game"] = len(self.match.games)
        self._emit(ev)
        self._show()

    # ---------------------------------------------------------------- queries

    def position(self):
        """samsara.position.Position after the accepted sub-moves; in 'turn_complete'
        and later with the next player to move."""
        mover = self.mover
        if self.state == TURN_COMPLETE:
            mover = 1 - mover
        elif self.state in (GAME_OVER, MOKSHA):
            return self.game.pos
        return Position(self.r, self.s, self.a, self.b, mover)

    def remaining_dice(self):
        """The dice still to play this turn, a list (empty before the roll or once the
        turn is complete)."""
        return list(self.rem)

    def turn_notation(self):
        """Turn notation of this turn so far ('' before the roll)."""
        if not self.d1:
            return ""
        return format_turn(self.d1, self.d2, self.played)

    def lit_targets(self):
        """[(position name, die)] of the landing fields lit for the lifted marble(s)."""
        return [(position_name(p), d) for p, d in self.targets]

    # ------------------------------------------------------------- events etc.

    def _emit(self, ev):
        self.events.push(ev)

    def _reject(self, what, reason):
        self.reason = reason
        self._emit({"ev": "reject", "t": self.now, "what": what, "reason": reason})

    def _rem_after(self, k):
        left = [self.d1, self.d2] if self.d1 else []
        i = 0
        while i < k:
            left.remove(self.played[i][0])
            i += 1
        return left

    def _prefix(self, k):
        if k == 0:
            p = self.game.pos
            return (p.r, p.s, p.a, p.b)
        m = self.played[k - 1]
        return (m[4], m[5], m[6], m[7])

    def _set_played(self, played):
        # Recompute everything that follows from the accepted sub-moves.
        self.played = played
        g = self.game.pos
        a = g.a
        b = g.b
        ends = []
        floor = 0
        used = 0
        i = 0
        for m in played:
            ends.append(rules.ends_turn(m, a, b))
            a = m[6]
            b = m[7]
            if m[3] >= 0:
                floor = i + 1
            if m[0] == self.d1 and not used & 1:
                used |= 1
            else:
                used |= 2
            i += 1
        self.ends = ends
        self.floor = floor
        self.used = used
        self.rem = self._rem_after(len(played))
        if played and ends[-1]:
            self.rem = []
        r, s, a, b = self._prefix(len(played))
        self.r = r
        self.s = s
        self.a = a
        self.b = b

    def _set_expected(self):
        r = self.r
        s = self.s
        ex = pieces_mask(self.a, self.b)
        if self.goal >= 0:
            if self.ins >= 0:
                rb, sb = _lane_bit(self.ins)
                r &= ~rb
                s &= ~sb
                ex |= 1 << (self.goal - GS)
            if self.piece_new >= 0:
                ex &= ~(1 << (self.piece_new - GS))
                ex |= 1 << (self.piece_old - GS)
        fill(self.expected, r, s, ex)

    # ---------------------------------------------------------- frame intake

    def on_frame(self, now_ms, frame, changed=None, one=-1):
        """A settled change: `frame` is the debounced frame, `changed` the bits that
        changed (for the lift/place events), `one` the position when exactly one
        changed (-1: see `changed`).  Updates state, events and marks."""
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
                self._emit({"ev": "place", "t": now_ms, "pos": NAMES[one]})
            else:
                lift = one
                self._emit({"ev": "lift", "t": now_ms, "pos": NAMES[one]})
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
                        self._emit({"ev": "place" if on else "lift", "t": now_ms,
                                    "pos": NAMES[p]})
                    x >>= 1
                    b += 1
                i += 1
        if n == 1 and 0 <= lift < 48 and self.clean and len(self.lifted) < MAX_LIFTED \
                and (self.state == MOVING or self.state == TURN_COMPLETE) \
                and (self.r if lift < 24 else self.s) >> (lift % 24) & 1:
            # Fast path (the commonest change, and the one whose targets must light
            # fast): one more marble of the accepted position in the air.  The full
            # reading would stop at its first step with the same result.
            self.lifted.append(lift)
            self.state = MOVING
            self.wait_settle = False
        elif not (n == 1 and 0 <= put <= GR and self._place_fast(put)):
            self._evaluate()
        self._show()

    def _place_fast(self, x):
        # Fast path of the commonest placement: the one marble in the air lands on
        # track field or goal hole x as a completable sub-move of a die left.  The
        # full reading (_explain) would accept exactly this: with one marble gone and
        # one new hole, every candidate of its first step lands on x, and two dice
        # never reach the same field from the same marble (landing = start + die,
        # +-12).  Returns False (nothing changed) when the fast path does not apply.
        if not (self.clean and self.state == MOVING and len(self.lifted) == 1 and
                self.rem and self.goal < 0):
            return False
        o = self.lifted[0]
        f = self.frame
        fr = r_mask(f)
        fs = s_mask(f)
        a = self.a
        b = self.b
        fx = extra_mask(f)
        goal = x >= GS
        if fx != pieces_mask(a, b) | ((1 << (x - GS)) if goal else 0):
            return False
        xi = 24 if goal else x % 24
        rem = self.rem
        two = len(rem) == 2
        mover = self.mover
        og = self.og
        d = rem[0]
        for i in range(len(rem)):
            d = rem[i]
            if i == 1 and d == rem[0]:
                break
            if (xi - o % 24 - d) % 12:
                continue
            for m in rules.gen_sub_moves(self.r, self.s, a, b, mover, d, og, o):
                if m[2] != x:
                    continue
                if goal:
                    rb, sb = _lane_bit(m[3])     # the marble waits in the goal
                    if m[4] & ~rb != fr or m[5] & ~sb != fs:
                        continue
                elif m[4] != fr or m[5] != fs:
                    continue
                ends = rules.ends_turn(m, a, b)
                if two and not ends and not rules.any_sub_move(
                        m[4], m[5], m[6], m[7], mover, rem[1 - i], og):
                    return False     # a dead end: the full reading rejects it
                self.played.append(m)
                self.ends.append(ends)
                if self.d1 == d and not self.used & 1:
                    self.used |= 1
                else:
                    self.used |= 2
                rem.remove(d)
                if ends:
                    del rem[:]
                self.r = m[4]
                self.s = m[5]
                self.a = m[6]
                self.b = m[7]
                self.lifted = []
                self.wrong = -1
                self._emit({"ev": "sub", "t": self.now, "move": _fmt(m),
                            "player": PLAYER[mover]})
                if goal:
                    self.floor = len(self.played)
                    self.clean = False
                    old_p, new_p = _owner_piece(m, a, b)
                    self._begin_goal((False, old_p == new_p, 0))
                    return True
                self.clean = True
                self._set_expected()
                self.wait_settle = not rem
                return True
        return False

    def _evaluate(self):
        self.clean = False
        st = self.state
        if st == GAME_OVER or st == MOKSHA:
            return
        if st == REPAIR:
            self._evaluate_repair()
            return
        if st == WAITING:
            res = self._judge_waiting()
            if res is None:
                self._enter_repair(self._waiting_reason())
            else:
                self.lifted = res
            return
        if st == GOAL_PENDING:
            res = self._judge_goal(True)
            if res is None:
                self._enter_repair("finish the goal first: only the scoring piece and the "
                                   "marble in the goal may move")
            else:
                self._apply_goal(res)
            return
        # moving or turn complete
        res = self._explain()
        if res[0] == "repair":
            self._enter_repair(res[1])
        else:
            self._apply(res)

    def _evaluate_repair(self):
        back = self.resume
        ok = None
        if self.strict:
            fr = r_mask(self.frame)
            fs = s_mask(self.frame)
            e = self.expected
            if extra_mask(self.frame) == extra_mask(e):
                er = r_mask(e)
                es = s_mask(e)
                if not (fr & ~er) and not (fs & ~es) and \
                        popcount24(er & ~fr) + popcount24(es & ~fs) <= MAX_LIFTED:
                    ok = True
        elif back == WAITING:
            ok = self._judge_waiting()
        elif back == GOAL_PENDING:
            ok = self._judge_goal(True)
        else:
            ok = self._explain()
            if ok[0] == "repair":
                ok = None
        if ok is None:
            self._repair_marks()
            return
        self.strict = False
        self.state = back
        self._emit({"ev": "repair_end", "t": self.now})
        self._evaluate()

    def _enter_repair(self, reason):
        if self.state != REPAIR:
            self.resume = self.state
        self.state = REPAIR
        self.wait_settle = False
        self.lifted = []
        self.wrong = -1
        self.reason = reason
        self._repair_marks()
        self._emit({"ev": "repair", "t": self.now, "reason": reason,
                    "missing": self.missing, "extra": self.extra})

    def _repair_marks(self):
        e = self.expected
        f = self.frame
        miss = bytearray(8)
        extra = bytearray(8)
        i = 0
        while i < 8:
            miss[i] = e[i] & ~f[i] & 0xFF
            extra[i] = f[i] & ~e[i] & 0xFF
            i += 1
        self.missing = names(miss)
        self.extra = names(extra)

    # --------------------------------------------------------------- judging

    def _lifted_only(self, er, es, ex):
        # Lifted track holes when the frame is the expected (er, es, ex) minus at most
        # MAX_LIFTED marbles in the air, else None.
        f = self.frame
        fr = r_mask(f)
        fs = s_mask(f)
        if extra_mask(f) != ex or fr & ~er or fs & ~es:
            return None
        lr = er & ~fr
        ls = es & ~fs
        if popcount24(lr) + popcount24(ls) > MAX_LIFTED:
            return None
        return _bits(lr, ls)

    def _judge_waiting(self):
        e = self.expected
        return self._lifted_only(r_mask(e), s_mask(e), extra_mask(e))

    def _waiting_reason(self):
        if self.state == WAITING and self.d1 == 0:
            return "the board changed before the roll"
        return "the board differs from the expected position"

    def _fit(self, r, s, a, b, fr, fs, fx):
        # Marbles in the air when F (fr, fs, fx) is position (r, s, a, b) with some
        # marbles lifted; -1 when F has anything the position has not.
        if fx != pieces_mask(a, b) or fr & ~r or fs & ~s:
            return -1
        n = popcount24(r & ~fr) + popcount24(s & ~fs)
        return n if n <= MAX_LIFTED else -1

    def _fit_goal(self, m, pa, pb, fr, fs, fx, hand):
        # Goal sub-move m (scores pa, pb before it): F shows the marble in the goal
        # hole, in the air (only if hand) or on its reinsertion field, and the scoring
        # piece on its old field, in the air or on its new field.  Returns
        # (ins_done, piece_done, lifted) or None.  Every other hole must match, except
        # (only if hand) other marbles in the air once both steps are done: the goal
        # is then complete and the next sub-move may begin.
        r = m[4]
        s = m[5]
        ins = m[3]
        rb, sb = _lane_bit(ins)
        gbit = 1 << (m[2] - GS)
        old, new = _owner_piece(m, pa, pb)
        obit = 1 << (old - GS)
        nbit = 1 << (new - GS)
        if (fr & rb) or (fs & sb):
            ins_done = True
            if fx & gbit:
                return None
        else:
            ins_done = False
            r &= ~rb
            s &= ~sb
            if not (fx & gbit) and not hand:
                return None
        if fr & ~r or fs & ~s:
            return None
        lifted = popcount24(r & ~fr) + popcount24(s & ~fs)
        if lifted and not (hand and ins_done and lifted <= MAX_LIFTED):
            return None
        fx &= ~gbit
        other = pieces_mask(m[6], m[7]) & ~nbit
        if old == new:
            piece_done = True
            want = other | nbit
        else:
            piece = fx & (obit | nbit)
            if piece == nbit:
                piece_done = True
            elif piece == obit or piece == 0:
                piece_done = False
            else:
                return None
            want = other | piece
        if fx != want:
            return None
        if lifted and not piece_done:
            return None
        return (ins_done, piece_done, lifted)

    def _judge_goal(self, hand):
        m = self.played[-1]
        k = len(self.played) - 1
        pr, ps, pa, pb = self._prefix(k)
        f = self.frame
        return self._fit_goal(m, pa, pb, r_mask(f), s_mask(f), extra_mask(f), hand)

    def _explain(self):
        """Read the settled frame as this turn's sub-moves (module docstring).
        Returns ('match', k, seq, lifted, goal_progress), ('ambiguous',),
        ('wrong', hole, reason) or ('repair', reason)."""
        f = self.frame
        fr = r_mask(f)
        fs = s_mask(f)
        fx = extra_mask(f)
        mover = self.mover
        og = self.og
        n = len(self.played)
        k = n
        while k >= self.floor:
            pr, ps, pa, pb = self._prefix(k)
            if self._fit(pr, ps, pa, pb, fr, fs, fx) >= 0:
                return ("match", k, (), None)
            rem = self._rem_after(k) if k < n else self.rem
            if rem and not (k > 0 and self.ends[k - 1]):
                gone = _bits(pr & ~fr, ps & ~fs)
                if 0 < len(gone) <= 4:
                    found = self._one_more(pr, ps, pa, pb, rem, gone, fr, fs, fx)
                    if not found and len(rem) == 2:
                        found = self._two_more(pr, ps, pa, pb, rem, gone, fr, fs, fx)
                    if found:
                        return self._pick(k, found)
            k -= 1
        return self._misfit(fr, fs, fx)

    def _one_more(self, pr, ps, pa, pb, rem, gone, fr, fs, fx):
        found = []
        mover = self.mover
        og = self.og
        two = len(rem) == 2
        # One new marble on one track field x: a sub-move of d from lane index i lands
        # on index i + d (+-12 with lane changes), so skip the dice that cannot --
        # unless i + d reaches a goal (index 24 of either lane): then the new marble
        # is on the reinsertion field, anywhere in fields 1..12.
        xr = fr & ~pr
        xs = fs & ~ps
        x = -1
        if (xr and not xs and not (xr & (xr - 1))) or (xs and not xr and not (xs & (xs - 1))):
            x = _bits(xr, xs)[0] % 24
        for d in (rem[0],) if (not two or rem[0] == rem[1]) else (rem[0], rem[1]):
            other = rem[1] if d == rem[0] and two else rem[0]
            for o in gone:
                if x >= 0 and (x - o % 24 - d) % 12 and (o % 24 + d) % 12:
                    continue
                for m in rules.gen_sub_moves(pr, ps, pa, pb, mover, d, og, o):
                    # the cheap frame test first, the completable test only on a fit
                    c = self._candidate((m,), pa, pb, fr, fs, fx)
                    if c is None:
                        continue
                    if two and not (rules.ends_turn(m, pa, pb) or
                                    rules.any_sub_move(m[4], m[5], m[6], m[7], mover,
                                                       other, og)):
                        continue
                    found.append(c)
        return found

    def _two_more(self, pr, ps, pa, pb, rem, gone, fr, fs, fx):
        found = []
        mover = self.mover
        og = self.og
        # With one new track field x, both sub-moves move the same marble (each new
        # landing is occupied in F): it ends on its start + d + e (mod 12), or, when
        # that reaches a goal (start + d + e = 0 mod 12), on the reinsertion field.
        xr = fr & ~pr
        xs = fs & ~ps
        x = -1
        if (xr and not xs and not (xr & (xr - 1))) or (xs and not xr and not (xs & (xs - 1))):
            x = _bits(xr, xs)[0] % 24
        for d, e in ((rem[0], rem[1]),) if rem[0] == rem[1] else \
                ((rem[0], rem[1]), (rem[1], rem[0])):
            for o in gone:
                if x >= 0 and (x - o % 24 - d - e) % 12 and (o % 24 + d + e) % 12:
                    continue
                for m in rules.gen_sub_moves(pr, ps, pa, pb, mover, d, og, o):
                    if m[3] >= 0 or rules.ends_turn(m, pa, pb):
                        continue  # a goal is finished before anything else moves
                    gone2 = _bits(m[4] & ~fr, m[5] & ~fs)
                    if len(gone2) > 4:
                        continue
                    for o2 in gone2:
                        for m2 in rules.gen_sub_moves(m[4], m[5], m[6], m[7], mover, e,
                                                      og, o2):
                            c = self._candidate((m, m2), pa, pb, fr, fs, fx)
                            if c is not None:
                                found.append(c)
        return found

    def _candidate(self, seq, pa, pb, fr, fs, fx):
        # (lifted, seq, goal progress) when F is seq played with marbles in the air,
        # every new landing field occupied in F; else None.
        last = seq[-1]
        if len(seq) == 2:
            pa = seq[0][6]
            pb = seq[0][7]
        landing = []
        for m in seq:
            if m[2] < 48:
                landing.append(m[2])
        if len(seq) == 2 and seq[1][1] == seq[0][2] and seq[0][2] in landing:
            landing.remove(seq[0][2])
        if last[3] >= 0:
            prog = self._fit_goal(last, pa, pb, fr, fs, fx, False)
            if prog is None:
                return None
            lifted = 0
        else:
            prog = None
            lifted = self._fit(last[4], last[5], last[6], last[7], fr, fs, fx)
            if lifted < 0:
                return None
        for p in landing:
            rb, sb = _lane_bit(p)
            if not (fr & rb or fs & sb):
                return None
        return (lifted, seq, prog)

    def _pick(self, k, found):
        best = found[0][0]
        for c in found:
            if c[0] < best:
                best = c[0]
        keep = []
        keys = []
        for c in found:
            if c[0] == best:
                m = c[1][-1]
                key = (m[4], m[5], m[6], m[7])
                if key not in keys:
                    keys.append(key)
                    keep.append(c)
        if len(keep) > 1:
            return ("ambiguous",)
        c = keep[0]
        return ("match", k, c[1], c[2])

    def _misfit(self, fr, fs, fx):
        # Nothing explains F: a wrong placement of a lifted marble, or a repair.
        e = self.expected
        er = r_mask(e)
        es = s_mask(e)
        gone = _bits(er & ~fr, es & ~fs)
        extra = _bits(fr & ~er, fs & ~es)
        ex = extra_mask(e)
        if not extra and (fx & ex) == ex and (fx & ~ex) in (1, 2):
            # a marble in a goal hole that is not its target: a wrong placement too
            extra = [GS + (fx & ~ex) - 1]
            fx = ex
        if fx != ex:
            return ("repair", "a scoring piece or goal hole differs from the game: "
                    "missing %s, extra %s" % (self._names_x(extra_mask(e) & ~fx),
                                              self._names_x(fx & ~extra_mask(e))))
        if len(extra) == 1 and 1 <= len(gone) <= MAX_LIFTED:
            x = extra[0]
            reason = None
            for o in gone:
                why = self._why_not(o, x)
                if why is not None:
                    reason = why
                    break
            if reason is not None:
                return ("wrong", x, reason)
            if len(gone) == 1:
                return ("repair", "the marble on %s cannot move with %s" %
                        (position_name(gone[0]), self._dice_text()))
        if not extra and not gone:
            return ("repair", "the board differs from the expected position")
        return ("repair", "the board is not a step of a legal move: missing %s, extra %s" %
                (" ".join([position_name(p) for p in gone]) or "-",
                 " ".join([position_name(p) for p in extra]) or "-"))

    def _names_x(self, ex):
        out = []
        for i in range(16):
            if (ex >> i) & 1:
                out.append(position_name(48 + i))
        return " ".join(out) or "-"

    def _dice_text(self):
        if not self.rem:
            return "no die left"
        return " or ".join([str(d) for d in self.rem])

    def _targets_of(self, o):
        # [(to, die)] completable landings of the marble on o, and the back field or -1
        # (cached for the accepted position and dice: a wrong placement asks twice)
        key = (o, self.r, self.s, self.a, self.b, self.used, len(self.played), self.floor,
               self.mover)
        if self._tkey == key:
            tl, back = self._tval
            return tl, back
        out = []
        if self.rem:
            dice = tuple(self.rem)
            for m in rules.completable_sub_moves(self.r, self.s, self.a, self.b, self.mover,
                                                 dice, o, self.og):
                out.append((m[2], m[0]))
        back = -1
        n = len(self.played)
        if n > self.floor:
            m = self.played[-1]
            if m[2] == o:
                back = m[1]
        self._tkey = key
        self._tval = (out, back)
        return out, back

    def _why_not(self, o, x):
        # Reason text why the marble from o may not land on x, or None when the
        # marble from o has nowhere to go at all.
        tl, back = self._targets_of(o)
        if not tl and back < 0:
            return None
        src = position_name(o)
        dst = position_name(x)
        two = len(self.rem) == 2
        xi = 24 if x >= GS else x % 24
        for d in self.rem:
            if (xi - o % 24 - d) % 12:
                continue          # no sub-move of d from o reaches x
            for m in rules.gen_sub_moves(self.r, self.s, self.a, self.b, self.mover, d,
                                         self.og, o):
                if m[2] == x and two:
                    other = self.rem[1] if d == self.rem[0] else self.rem[0]
                    return "%s leaves die %d unplayable" % (_fmt(m), other)
        lst = " ".join(["%d:%s" % (d, position_name(t)) for t, d in tl])
        if back >= 0:
            lst = (lst + " " if lst else "") + "back:" + position_name(back)
        return "%s is not a target of the marble from %s (targets: %s)" % (dst, src, lst)

    # -------------------------------------------------------------- applying

    def _apply(self, res):
        kind = res[0]
        prev_wrong = self.wrong
        self.wrong = -1
        self.clean = kind == "match"
        if kind == "ambiguous":
            # Marbles of the accepted position that are off the board: in the air.
            f = self.frame
            self.lifted = _bits(self.r & ~r_mask(f), self.s & ~s_mask(f))
            self.state = MOVING
            self.wait_settle = False
            return
        if kind == "wrong":
            x = res[1]
            f = self.frame
            self.lifted = _bits(self.r & ~r_mask(f), self.s & ~s_mask(f))
            self.state = MOVING
            self.wait_settle = False
            if prev_wrong != x or self.reason != res[2]:
                self._reject("place", res[2])
            self.wrong = x
            return
        k = res[1]
        seq = res[2]
        prog = res[3]
        old = self.played
        if k != len(old) or seq:
            dropped = old[k:]
            added = list(seq)
            undo = []
            for m in dropped:
                hit = None
                for n in added:
                    if _same(m, n):
                        hit = n
                        break
                if hit is None:
                    undo.append(m)
                else:
                    added.remove(hit)
            new = old[:k] + list(seq)
            self.goal = -1
            self.ins = -1
            self.piece_new = -1
            self._set_played(new)
            for m in reversed(undo):
                self._emit({"ev": "undo", "t": self.now, "move": _fmt(m),
                            "how": "board"})
            for m in added:
                self._emit({"ev": "sub", "t": self.now, "move": _fmt(m),
                            "player": PLAYER[self.mover]})
        if prog is not None:
            self._begin_goal(prog)
            return
        f = self.frame
        self.lifted = _bits(self.r & ~r_mask(f), self.s & ~s_mask(f))
        self._set_expected()
        if self.state != TURN_COMPLETE or k != len(old) or self.lifted:
            self.state = MOVING
        self.wait_settle = self.state == MOVING and not self.rem and not self.lifted

    def _begin_goal(self, prog):
        # The last accepted sub-move put a marble into a goal hole.
        m = self.played[-1]
        pr, ps, pa, pb = self._prefix(len(self.played) - 1)
        old_p, new_p = _owner_piece(m, pa, pb)
        self.goal = m[2]
        self.ins = m[3]
        self.piece_old = old_p
        self.piece_new = new_p if new_p != old_p else -1
        self.goal_events = 0
        self._emit({"ev": "goal", "t": self.now, "goal": NAMES[m[2]],
                    "player": PLAYER[0 if m[2] == GS else 1],
                    "score": "%d-%d" % (m[6], m[7]), "ins": NAMES[m[3]]})
        self.state = GOAL_PENDING
        self._apply_goal(prog)

    def _apply_goal(self, prog):
        ins_done, piece_done, lifted = prog
        m = self.played[-1]
        if ins_done and not self.goal_events & 1:
            self.goal_events |= 1
            self._emit({"ev": "reinsert", "t": self.now, "pos": position_name(m[3])})
        if piece_done and not self.goal_events & 2:
            self.goal_events |= 2
            owner = 0 if m[2] == GS else 1
            self._emit({"ev": "score", "t": self.now, "player": PLAYER[owner],
                        "score": m[6] if owner == 0 else m[7]})
        self.ins = -1 if ins_done else m[3]
        pr, ps, pa, pb = self._prefix(len(self.played) - 1)
        old_p, new_p = _owner_piece(m, pa, pb)
        self.piece_old = old_p
        self.piece_new = -1 if piece_done else new_p
        self.lifted = []
        if ins_done and piece_done:
            self.goal = -1
            self.state = MOVING
            self._set_expected()
            self.wait_settle = not self.rem
            self.clean = not lifted
            if lifted:
                # the goal is complete and a marble of the next sub-move is already
                # in the air: read the board as moving
                self._evaluate()
        else:
            self.state = GOAL_PENDING
            self.wait_settle = False
            self._set_expected()

    # ------------------------------------------------------------ settle / turn

    def on_settled(self, now_ms):
        """Called by the Board when wait_settle is set and the debounce has nothing
        pending: both dice played and the board settled completes the turn."""
        self.now = now_ms
        self.wait_settle = False
        if self.state != MOVING or self.rem or self.lifted or self.wrong >= 0 \
                or self.goal >= 0:
            return
        self.state = TURN_COMPLETE
        note = self.turn_notation()
        if note != self.turn_note:
            self.turn_note = note
            self._emit({"ev": "turn_complete", "t": now_ms, "turn": note,
                        "player": PLAYER[self.mover]})
        g = self.game.pos
        a6 = (self.a == 6 and g.a < 6) or (self.b == 6 and g.b < 6)
        if a6 or self.game.final_turn:
            self._commit()
        self._show()

    def _commit(self):
        # Record the complete turn in the game; game end, or the next player's wait.
        g = self.game
        note = g.apply(self.d1, self.d2, self.played, (self.r, self.s, self.a, self.b))
        self._emit({"ev": "turn", "t": self.now, "turn": note, "player": PLAYER[self.mover],
                    "position": g.pos.format()})
        if g.over():
            self._game_over()
            return
        self._new_turn()
        self.state = WAITING
        self._set_expected()
        if g.final_turn:
            self._emit({"ev": "final_turn", "t": self.now, "player": PLAYER[g.pos.mover]})

    def _game_over(self):
        g = self.game
        res = g.result
        if res is None:
            return
        w, how, pts = res
        self.winner = -1 if w is None else w
        self.rem = []
        self.state = MOKSHA if how == "moksha" else GAME_OVER
        self._emit({"ev": "game_over", "t": self.now,
                    "winner": None if w is None else PLAYER[w], "how": how,
                    "score": "%d-%d" % (g.pos.a, g.pos.b), "points": [pts[0], pts[1]]})
        if self.match is not None and self.match.over():
            ta, tb = self.match.totals()
            mw = self.match.winner()
            self._emit({"ev": "match_over", "t": self.now, "totals": [ta, tb],
                        "winner": None if mw is None else PLAYER[mw]})

    # ---------------------------------------------------------------- buttons

    def set_dice(self, d1, d2):
        """Host-set dice: the values of the next roll (each 1..6).  ValueError else."""
        rules.check_die(d1)
        rules.check_die(d2)
        self.host_dice = (d1, d2)

    def press(self, now_ms, button, long=False, busy=False):
        """A button press: 'roll' or 'undo' (long: a long press).  busy: the debounce
        still has unsettled positions.  Rejections become events."""
        self.now = now_ms
        if button == "roll":
            self._press_roll(long, busy)
        elif button == "undo":
            self._press_undo()
        else:
            raise ValueError("unknown button %r (use roll or undo)" % (button,))
        self._show()

    def _roll_blocker(self, busy):
        st = self.state
        if st == REPAIR:
            return "repair the board first: " + self.reason
        if st == GOAL_PENDING:
            return "finish the goal first"
        if st == MOVING:
            if self.rem:
                return "roll before the turn is complete: %s still to play" % (
                    " and ".join(["die %d" % d for d in self.rem]))
            return "the board is not settled"
        if st not in (WAITING, TURN_COMPLETE):
            return "no roll in state %s" % st
        if busy:
            return "the board is not settled"
        if self.lifted:
            return "put the marble back on %s first" % position_name(self.lifted[0])
        return None

    def _press_roll(self, long, busy):
        st = self.state
        if st == GAME_OVER or st == MOKSHA:
            if self.match is not None and not self.match.over():
                self.game = self.match.next_game()
                self._start_game()
                self._evaluate()
                return
            self._reject("roll", "the game is over: start a new game")
            return
        why = self._roll_blocker(busy)
        if why is not None:
            self._reject("roll", why)
            return
        if self.host_dice is not None:
            d1, d2 = self.host_dice
            self.host_dice = None
            self.entry = 0
            self._roll(d1, d2, "host")
            return
        src = self.cfg.dice
        if src == "host":
            self._reject("roll", "no dice set by the host")
            return
        if src == "manual":
            if self.entry == 0:
                self.entry = 1
                self.e1 = 1
                self.e2 = 1
            elif not long:
                if self.entry == 1:
                    self.e1 = self.e1 % 6 + 1
                else:
                    self.e2 = self.e2 % 6 + 1
            elif self.entry == 1:
                self.entry = 2
            else:
                self.entry = 0
                self._roll(self.e1, self.e2, "manual")
            return
        self._roll(self.rng.die(), self.rng.die(), "electronic")

    def _roll(self, d1, d2, source):
        if self.state == TURN_COMPLETE:
            self._commit()
            if self.state != WAITING:
                return
        self.d1 = d1
        self.d2 = d2
        self.used = 0
        self.rem = [d1, d2]
        self.turn_note = ""
        self._emit({"ev": "roll", "t": self.now, "dice": [d1, d2],
                    "player": PLAYER[self.mover], "source": source})
        g = self.game
        if g.moksha_roll(d1, d2):
            self._emit({"ev": "moksha", "t": self.now, "roll": format_roll(d1, d2),
                        "player": PLAYER[self.mover]})
            g.apply(d1, d2, [], None)
            self._emit({"ev": "turn", "t": self.now, "turn": format_turn(d1, d2, []),
                        "player": PLAYER[self.mover], "position": g.pos.format()})
            self._game_over()
            return
        self.state = MOVING
        self.clean = True     # a roll needs the settled board to be the position

    def _press_undo(self):
        if self.entry:
            self.entry -= 1
            return
        st = self.state
        if st not in (MOVING, TURN_COMPLETE, GOAL_PENDING) and not (
                st == REPAIR and self.resume in (MOVING, GOAL_PENDING)):
            self._reject("undo", "nothing to undo in this turn")
            return
        if not self.played:
            self._reject("undo", "nothing to undo in this turn")
            return
        m = self.played[-1]
        self.goal = -1
        self.ins = -1
        self.piece_new = -1
        self._set_played(self.played[:-1])
        self._set_expected()
        self._emit({"ev": "undo", "t": self.now, "move": _fmt(m), "how": "button"})
        # The board still shows the undone sub-move: repair until it is put back.
        if self.state == REPAIR:
            self.resume = MOVING
        else:
            self.state = MOVING
        self.strict = True
        self._enter_repair("undo: put the marble back on %s" % position_name(m[1]))
        self._evaluate_repair()

    # ---------------------------------------------------------------- display

    def _show(self):
        """Rebuild the display model (marks, targets) from the state.  The positions
        whose mark may have changed since the last draw collect in `touched`, so the
        scene redraws only those (samsara.scene.draw)."""
        marks = self.marks
        old = self.marked
        for p in old:
            marks[p] = 0
        new = []
        self.targets = []
        st = self.state
        if st == REPAIR:
            self._repair_marks()
            for n in self.missing:
                _mark(marks, new, position_index(n), sc.MISSING)
            for n in self.extra:
                _mark(marks, new, position_index(n), sc.EXTRA)
        elif st == WAITING:
            for p in self.lifted:
                _mark(marks, new, p, sc.NOMOVE)
        elif st == GOAL_PENDING:
            if self.piece_new >= 0:
                _mark(marks, new, self.piece_new, sc.SCORE)
            if self.ins >= 0:
                _mark(marks, new, self.ins, sc.REINSERT)
                if (self.frame[self.goal >> 3] >> (self.goal & 7)) & 1:
                    _mark(marks, new, self.goal, sc.GOAL)
        elif st == MOVING or st == TURN_COMPLETE:
            for p in self.lifted:
                tl, back = self._targets_of(p)
                for t, d in tl:
                    if not marks[t]:
                        _mark(marks, new, t, d)
                        self.targets.append((t, d))
                if back >= 0:
                    _mark(marks, new, back, sc.BACK)
                _mark(marks, new, p, sc.ORIGIN if (tl or back >= 0) else sc.NOMOVE)
            if self.wrong >= 0:
                _mark(marks, new, self.wrong, sc.WRONG)
        elif st == GAME_OVER:
            if self.winner >= 0:
                g = self.game.pos
                _mark(marks, new, (A_TRACK + g.a) if self.winner == 0 else (B_TRACK + g.b),
                      sc.WIN)
        self.marked = new
        if len(self.touched) > 128:      # nobody draws: keep the list bounded
            self.touched = list(range(64))
        self.touched.extend(old)
        self.touched.extend(new)
        self.version += 1


def _mark(marks, marked, p, code):
    marks[p] = code
    marked.append(p)
