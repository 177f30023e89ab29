"""A game and a match: turns applied to a position, game end, Moksha and points
(docs/rules.md §3 "Goals and scoring", "Moksha", and §4 competition rules).

Game.result is None while the game runs, then a tuple ``(winner, how, points)``:
winner 0 (A), 1 (B) or None (draw); how 'centre' or 'moksha'; points a pair
(points for A, points for B) under the competition rules (also filled in for a
single game, where they are informational).
"""

from samsara.rules.geometry import A_SIDE_R, A_SIDE_S, B_SIDE_R, B_SIDE_S, popcount24
from samsara.rules.position import Position
from samsara.rules import moves as rules
from samsara.rules.notation import format_turn, read_turn


class GameOverError(Exception):
    """A turn was offered to a game that has already ended."""


def side_counts(r, s):
    """Marbles on A's side (R1-R12 + S13-S24) and on B's side (S1-S12 + R13-R24)."""
    na = popcount24(r & A_SIDE_R) + popcount24(s & A_SIDE_S)
    nb = popcount24(r & B_SIDE_R) + popcount24(s & B_SIDE_S)
    return (na, nb)


class TurnRecord:
    """A game's turns in turn notation (docs/rules.md §5), in play order, kept in
    little memory: eight turns to a str, joined by "\n" (a turn's notation holds no
    newline).  A list of str spent 49 bytes of the Pico's heap per turn (a str's
    header and its data, each in 16-byte blocks, and the list's slot); eight turns in
    one str spend 25 (measured by tools/turn_drift.py on the emulated Pico).

    Sized (len) and iterable in play order; tail(k) is a list of the last k turns
    (tail(1)[0] the last one).  Not a list (no indexing: it would cost the bundle
    ~95 bytes): compare list(rec).  Iteration and tail allocate (the chunks are
    split); append makes one new str (the chunk grown by one turn).

    keep: 0 (all turns, the default) or K, set when the game log holds every turn
    (samsara.recorder.Recorder.trim, on the board): then only the last K
    chunks stay (8K-7 to 8K turns), the older ones become None as each new chunk
    starts, so a long game's record stops growing (docs/gamelog.md "The record in
    the board's memory").  len() still counts every turn and tail(k) works for k up
    to 8K-7; iterating a record that dropped chunks raises AttributeError."""

    keep = 0     # (a class attribute until set: no slot in each record's own map)

    def __init__(self):
        self.chunks = []
        self.n = 0

    def append(self, note):
        """Add turn notation `note` (a str without newline) at the end."""
        c = self.chunks
        if self.n & 7:
            c[-1] += "\n" + note
        else:
            c.append(note)
            if self.keep:
                for j in range(len(c) - self.keep):
                    c[j] = None
        self.n += 1

    def __len__(self):
        return self.n

    def __iter__(self):
        for c in self.chunks:
            for t in c.split("\n"):
                yield t

    def tail(self, k):
        """The last k turns (fewer when the game has fewer) as a list of str."""
        i = max(0, self.n - k)
        out = []
        for c in self.chunks[i >> 3:]:
            out.extend(c.split("\n"))
        return out[i & 7:]


class Game:
    """One game from `position` (default: the start with `starter` to move).

    og: rule option opponent_goal (rules.OWNER_SCORES or rules.FORBIDDEN).
    match: True for a game under the competition rules (final turn, side counts,
    points, Moksha 4-4); False for a single game (the first score of 6 wins).
    Attributes: pos (Position), record (a TurnRecord: turn notations in play order),
    final_turn (True while the starter's opponent plays the final turn), result.
    """

    def __init__(self, position=None, og=rules.OWNER_SCORES, match=False, starter=None):
        if position is None:
            position = Position(mover=0 if starter is None else starter)
        self.pos = position
        self.og = og
        self.match = match
        self.starter = position.mover if starter is None else starter
        self.final_turn = False
        self.result = None
        self.record = TurnRecord()

    def over(self):
        """True once the game has a result."""
        return self.result is not None

    def legal_turns(self, d1, d2):
        """Complete turns of the roll: a list of (turn notation, resulting Position with
        the other player to move), sorted by notation; empty means Moksha."""
        p = self.pos
        out = []
        for moves, k in rules.complete_turns(p.r, p.s, p.a, p.b, p.mover, d1, d2, self.og):
            out.append((format_turn(d1, d2, moves), Position(k[0], k[1], k[2], k[3], 1 - p.mover)))
        out.sort(key=lambda t: t[0])
        return out

    def play_notation(self, text):
        """Check turn notation against the rules and play it.  Returns the notation as
        recorded.  Raises NotationError, IllegalMoveError, AmbiguousMoveError, or
        GameOverError."""
        if self.result is not None:
            raise GameOverError("the game is over")
        p = self.pos
        dice, moves, key = read_turn(p.r, p.s, p.a, p.b, p.mover, text, self.og)
        return self.apply(dice[0], dice[1], moves, key)

    def apply(self, d1, d2, moves, key, note=None):
        """Record a checked turn: roll (d1, d2), sub-move tuples `moves` (empty for a
        Moksha roll) and the position parts `key` = (r, s, a, b) after it.  Flips the
        mover and settles the game end (docs/rules.md §3, §4).  note: the turn's
        notation when the caller has it already (format_turn of the same turn), else
        None.  Returns the notation."""
        if self.result is not None:
            raise GameOverError("the game is over")
        p = self.pos
        if note is None:
            note = format_turn(d1, d2, moves)
        self.record.append(note)
        player = p.mover
        if not moves:
            self.result = (None, "moksha", (4, 4))
            return note
        pa, pb = p.a, p.b
        r, s, a, b = key
        self.pos = Position(r, s, a, b, 1 - player)
        self._settle(player, pa, pb, r, s, a, b)
        return note

    def _settle(self, player, pa, pb, r, s, a, b):
        own_new = (a if player == 0 else b) == 6 and (pa if player == 0 else pb) < 6
        opp_new = (b if player == 0 else a) == 6 and (pb if player == 0 else pa) < 6
        opp_score = b if player == 0 else a
        own_score = a if player == 0 else b
        if self.final_turn:
            # The starter's opponent has played the final turn (docs/rules.md §4).
            if own_score == 6:
                na, nb = side_counts(r, s)
                if na == nb:
                    self.result = (None, "centre", (0, 0))
                elif na > nb:
                    self.result = (0, "centre", (na - nb, 0))
                else:
                    self.result = (1, "centre", (0, nb - na))
            else:
                self._win(self.starter, own_score)
            self.final_turn = False
            return
        if opp_new:
            self._win(1 - player, own_score)
        elif own_new:
            if self.match and player == self.starter:
                self.final_turn = True
            else:
                self._win(player, opp_score)

    def _win(self, winner, loser_score):
        pts = 6 - loser_score
        self.result = (winner, "centre", (pts, 0) if winner == 0 else (0, pts))

    def moksha_roll(self, d1, d2):
        """True when the roll has no complete turn (docs/rules.md §3 "Moksha")."""
        p = self.pos
        return not rules.has_complete_turn(p.r, p.s, p.a, p.b, p.mover, d1, d2, self.og)


class Match:
    """Two games under the competition rules (docs/rules.md §4); the starter of the
    first game is `first` (0 = A), the other player starts the second.

    games: the Game objects so far; totals(): (points A, points B);
    winner(): 0, 1 or None (draw) once both games are over.
    """

    def __init__(self, first=0, og=rules.OWNER_SCORES):
        self.first = first
        self.og = og
        self.games = [Game(og=og, match=True, starter=first)]

    def current(self):
        """The game being played (the last one)."""
        return self.games[-1]

    def next_game(self):
        """Start the second game once the first is over; returns it.
        Raises GameOverError when the match already has two games."""
        if len(self.games) >= 2:
            raise GameOverError("a match is two games")
        if not self.games[0].over():
            raise GameOverError("the first game is still running")
        g = Game(og=self.og, match=True, starter=1 - self.first)
        self.games.append(g)
        return g

    def over(self):
        """True when both games are over."""
        return len(self.games) == 2 and self.games[1].over()

    def totals(self):
        """Points so far: (A, B)."""
        ta = tb = 0
        for g in self.games:
            if g.result is not None:
                ta += g.result[2][0]
                tb += g.result[2][1]
        return (ta, tb)

    def winner(self):
        """0 or 1 for the player with the higher total, None for equal totals."""
        ta, tb = self.totals()
        if ta == tb:
            return None
        return 0 if ta > tb else 1
