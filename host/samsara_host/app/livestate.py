"""What the live page shows (docs/app.md "Live"): the board's event stream folded
into a picture and words.  Its one job is turning events and `position`/`status`
replies into a snapshot dict for the page.

`LiveModel` extends the monitor's model (samsara_host.monitor_cmd.Model: position,
dice, state, record) with what a person at the table needs: the lifted marble and its
targets in the dice colours (the same sub-moves the board lights:
samsara.rules.moves.completable_sub_moves with the dice still to play), a wrong
placement in red, the repair guidance in words, goals and reinsertion, Moksha and the
end of the game.  `snapshot()` is a JSON-able dict with the board drawn as SVG
(samsara_host.svg.render, the picture `logs export` makes).
"""
from samsara.rules import moves as rules
from samsara.rules.geometry import position_index, position_name
from samsara.rules.moves import M_DIE, M_TO
from samsara.scene import COLOURS

from samsara_host import svg
from samsara_host.live import score_words
from samsara_host.monitor_cmd import Model
from samsara_host import movewords

SCREEN_GAIN = 3
"""The board's LED colours run dim; on the screen they are this much brighter."""

ORIGIN_COLOUR = "#ffffff"
WRONG_COLOUR = "#ff2020"
MISSING_COLOUR = "#ffffff"
EXTRA_COLOUR = "#ff2020"

COLOUR_WORDS = ("", "blue", "cyan", "green", "yellow", "orange", "magenta")
"""The colour of each die value's targets, in words (samsara.scene.COLOURS 1..6)."""


def die_colour(d):
    """'#rrggbb' of the targets of a die of value d (1..6), as the board lights them,
    brightened for the screen."""
    i = 3 * d
    return "#%02x%02x%02x" % tuple(min(255, COLOURS[i + k] * SCREEN_GAIN) for k in range(3))


def _names(seq):
    out = []
    for n in seq or ():
        if isinstance(n, str):
            try:
                position_index(n)
                out.append(n)
            except ValueError:
                pass
    return out


class Drawn:
    """What svg.render draws as a position: the marbles in their holes (r, s lane
    masks: a lifted marble is in none, so the count may be short of 12) and the
    scores a, b.  Not a rules Position: it is never played on."""

    def __init__(self, r, s, a, b, mover=0):
        self.r, self.s, self.a, self.b, self.mover = r, s, a, b, mover

    def occupied(self, p):
        """True when track field p (0..47) holds a marble."""
        return bool((self.r >> p) & 1) if p < 24 else bool((self.s >> (p - 24)) & 1)


class LiveModel(Model):
    """The monitor's Model plus the page's extras (module docstring).  Bad field
    values in an event (a board sending garbage) are ignored, never raised."""

    def __init__(self):
        Model.__init__(self)
        self.remaining = []
        self.mover = None
        self.wrong = None       # a name: a marble placed where it may not go
        self.reject = ""        # the board's words for the last rejected placement
        self.missing = []
        self.extra = []
        self.repair = ""
        self.over = ""          # the end of the game in words
        self.moksha = False
        self.goal = ""          # the goal in progress (its event; goal_words says it)
        self.told = []          # the last events a player reads (words: in words)
        self.record_full = []   # the turn record, all turns seen (first ones may be
        self.first_turn = 1     # before the page started: first_turn is record_full[0]'s)
        self.pending_turn = None  # a completed turn the board has not committed yet
        self.banner = ""        # why there is no board (empty when connected)
        self.busy = ""          # what the app does with the board now (pull ...)
        self.og = None          # the game's rule option code from its log's header,
                                # None: the board did not say (the default is used)
        self.restartable = False  # the app's own virtual board stopped: it can restart it
        self.hands = False      # the app's own virtual board: the page moves its marbles
        self.vs_board = None    # "A"/"B": the side the board plays, None: two players
        self.level = None       # the board's strength 1..3 in a game against it
        self.board_move = None  # the board's next sub-move to carry out (notation)
        self.hint = None        # the hint's turn lit now (notation)
        self.turn_subs = []     # the sub-moves played so far in this turn (notation)
        self.names = None       # [A's, B's] names when known ("" for one not known)
        self.start = None       # the game's start position (text) from its log's header
        self.winner = None      # "A"/"B": the winner of a finished game (`status`)
        self.how = None         # how it ended ("centre", "moksha"; `status`)
        self.ended = None       # the finished game's number while its end is shown
        self.other = None       # a Samas or Schaska board's game (livegames.GameLiveModel),
                                # None on a Samsara board
        self.game_note = ""     # the app's --game differs from the board's: said here (not
                                # the monitor's `note`, its last turn)

    # -- folding -------------------------------------------------------------------
    def event(self, ev):
        """Fold one event; returns True when position/status should be asked (never
        on a Samas or Schaska board: its events go to `other`)."""
        if self.other is not None:
            self.other.event(ev)
            return False
        try:
            ask = Model.event(self, ev)
            self._event(ev)
        except (TypeError, ValueError, KeyError, AttributeError, IndexError):
            return False
        return ask

    def _event(self, ev):
        name = ev.get("ev")
        if name == "game_start":
            # the last game's lines keep the names they were said with and who played
            # which side (the new game's names come later, from its log's header)
            self.told = [dict(e, said_as=movewords.event_words(e, self.who))
                         if "said_as" not in e else e for e in self.told]
        if self.repair and name in ("lift", "place"):
            self._repair_change(ev.get("pos"), name == "place")
        elif name == "lift":
            self.wrong = None
            self.reject = ""
        elif name == "place":
            self.wrong = None
        elif name == "reject" and ev.get("what") in ("roll", "hint"):
            # said as the terminal says it: what to do instead, from the game as it is
            ev = dict(ev, said="Not taken: " + movewords.refusal_words(
                ev["what"], ev.get("reason"), self.status()))
        elif name == "reject" and ev.get("what") == "place":
            last = [e for e in self.last if e.get("ev") == "place"]
            self.wrong = last[-1].get("pos") if last else None
            self.reject = str(ev.get("reason", ""))
        elif name == "roll":
            self.turn_subs = []
            self.hint = None
            self.pending_turn = None
            self.goal = ""
            self.moksha = False
            self.reject = ""
        elif name == "goal":
            self.goal = dict(ev)
        elif name == "reinsert":
            self.goal = ""
        elif name == "repair":
            self.repair = str(ev.get("reason", ""))
            self.missing = _names(ev.get("missing"))
            self.extra = _names(ev.get("extra"))
            self.lifted = []        # (the board's own view holds no marble in the air)
        elif name == "repair_end":
            self.repair = ""
            self.missing = []
            self.extra = []
        elif name == "moksha":
            self.moksha = True
        elif name == "sub" and isinstance(ev.get("move"), str):
            self.turn_subs.append(ev["move"])
            if ev["move"] == self.board_move:
                self.board_move = None
        elif name == "undo" and self.turn_subs:
            self.turn_subs.pop()
        elif name == "board_move" and isinstance(ev.get("move"), str):
            self.board_move = ev["move"]
        elif name == "hint" and isinstance(ev.get("turn"), str):
            self.hint = ev["turn"]
        elif name == "turn_complete" and isinstance(ev.get("turn"), str):
            self.record_full.append(ev["turn"])
            self.pending_turn = ev["turn"]
            self.goal = ""
        elif name == "turn":
            self.pending_turn = None
        elif name == "game_over":
            w = ev.get("winner")
            if w is None:
                self.over = "Game over: a draw by %s (%s)" % (
                    ev.get("how"), score_words(ev.get("score", "")))
            else:
                self.over_side = w if w in ("A", "B") else None
                self.over_score = ev.get("score", "")
                self.over = "Game over: %s wins! (%s)" % (
                    self.over_side or w, score_words(self.over_score))
        elif name in ("game_start", "boot", "resume"):
            if name == "game_start":
                self.record_full = []
                self.first_turn = 1
                self.dice = []          # a new game: no roll, no turn yet
                self.turns = self.committed = 0
                vs = ev.get("vs")
                self.vs_board = vs if vs in ("A", "B") else None
            self.turn_subs = []
            self.board_move = None
            self.hint = None
            self.over = ""
            self.moksha = False
        if name == "repair":
            # a repair before any turn or roll of the game: its start position to set up
            ev = dict(ev, new_game=not self.record_full and not self.dice and not self.turns)
        if movewords.event_words(ev, self.who):
            self.told.append(dict(ev))
            del self.told[:-12]

    def _repair_change(self, pos, on):
        # In repair the board sends its marks once, with the `repair` event, and then
        # only the sensors' changes (lift, place): each change is folded into the marks,
        # so that they stay what the sensors see against the expected position.  A
        # marble put on a hole it was missing from is no longer missing, one put
        # elsewhere is extra; a marble taken off an extra hole is no longer extra, one
        # taken off elsewhere is missing (a scoring piece's field alike, as the board
        # marks it).
        names = _names([pos])
        if not names:
            return
        n = names[0]
        self.lifted = []
        if on:
            if n in self.missing:
                self.missing.remove(n)
            elif n not in self.extra:
                self.extra.append(n)
        else:
            if n in self.extra:
                self.extra.remove(n)
            elif n not in self.missing:
                self.missing.append(n)
        self.missing.sort(key=position_index)      # in the board's order
        self.extra.sort(key=position_index)

    @property
    def words(self):
        """The last events in a player's words, newest last (movewords.event_words),
        said with the names as known now: names learned later (the library's tags)
        name the earlier lines too."""
        return [w for w in (e.get("said_as") or movewords.event_words(e, self.who)
                            for e in self.told) if w]

    def over_words(self):
        """The end of the game in words ("" while it goes on), the winner called as
        known now (a name learned after the end names it too)."""
        side = getattr(self, "over_side", None)
        if not self.over and self.state == "game_over":
            # (no game_over event seen: the app began after the game's end)
            return movewords.over_words(self.status(), self.names)
        if not self.over or side is None or "wins!" not in self.over:
            return self.over
        who = self.who(side)
        rest = self.over.split("wins! ", 1)[1]
        if self.vs_board or (self.names and any(self.names)):
            # the score by the players' names too, as the goal words say it
            rest = "(%s)" % score_words(getattr(self, "over_score", ""),
                                        (self.who("A"), self.who("B")))
        return "Game over: %s wins! %s" % (who[:1].upper() + who[1:], rest)

    def goal_words(self):
        """The goal in progress in words: who scored, the score (by the players'
        names when known, as `who` calls them, else by side letters) and what to do.
        "" when no goal is in progress."""
        ev = self.goal
        if not ev:
            return ""
        known = self.vs_board or (self.names and any(self.names))
        return "Goal! %s scores (%s). Take the marble out of %s and put it on %s" % (
            self.who(ev.get("player")),
            score_words(ev.get("score", ""), (self.who("A"), self.who("B")) if known
                        else ("A", "B")),
            ev.get("goal"), ev.get("ins"))

    def who(self, side):
        """What to call player `side` ("A"/"B") in a sentence: "the board" when it
        plays that side, the player's name when known, else the letter."""
        return movewords.player_name(side, self.names, self.vs_board)

    def earlier_turns(self, turns):
        """Take the game's committed turns from its log ([notation], in order) for the
        ones before the first turn the board's record still holds."""
        need = self.first_turn - 1
        if need > 0 and isinstance(turns, list) and len(turns) >= need:
            self.record_full = [str(t) for t in turns[:need]] + self.record_full
            self.first_turn = 1

    def lifted_names(self):
        return [position_name(p) for p in self.lifted if 0 <= p < 64]

    def position_reply(self, r):
        Model.position_reply(self, r)
        rec, turns = r.get("record"), r.get("turns")
        if isinstance(rec, list) and isinstance(turns, int):
            # The board keeps its last 10 committed turns; turns seen before stay, and
            # a turn completed but not yet committed (no roll since) is added.
            first = max(1, turns - len(rec) + 1)
            keep = []
            if self.record_full and self.first_turn < first:
                keep = self.record_full[:first - self.first_turn]
                first = self.first_turn
            self.record_full = keep + [str(t) for t in rec]
            self.first_turn = first
            if self.pending_turn and self.state == "turn_complete":
                self.record_full.append(self.pending_turn)

    def status_reply(self, r):
        Model.status_reply(self, r)
        rem = r.get("remaining")
        self.remaining = [d for d in rem if isinstance(d, int) and 1 <= d <= 6] \
            if isinstance(rem, list) else []
        self.mover = r.get("mover") if r.get("mover") in ("A", "B") else None
        self.winner = r.get("winner") if r.get("winner") in ("A", "B") else None
        e = r.get("ended")
        self.ended = e if isinstance(e, int) and not isinstance(e, bool) else None
        self.how = r.get("how") if isinstance(r.get("how"), str) else None
        if "vs_board" in r:      # (a firmware from before these fields leaves them)
            self.vs_board = r.get("vs_board") if r.get("vs_board") in ("A", "B") else None
            lv = r.get("level")
            self.level = lv if isinstance(lv, int) and 1 <= lv <= 3 else None
            bm, h = r.get("board_move"), r.get("hint")
            self.board_move = bm if isinstance(bm, str) else None
            self.hint = h if isinstance(h, str) else None

    def options_from(self, header):
        """Take the rule option from a game log's header dict (or None: unknown)."""
        og = header.get("og") if isinstance(header, dict) else None
        start = header.get("start") if isinstance(header, dict) else None
        self.start = start if isinstance(start, str) else None
        try:
            self.og = rules.option_code(og)   # a name ("forbidden") or a code
        except (ValueError, TypeError):
            self.og = None

    def option_words(self):
        """The targets' rule option in words, and where it comes from."""
        og = rules.OWNER_SCORES if self.og is None else self.og
        what = ("a marble may land in the opponent's goal and scores for the goal's owner"
                if og == rules.OWNER_SCORES else
                "a marble may not land in the opponent's goal")
        return "%s (%s)" % (what, "from the board's game log" if self.og is not None
                            else "the default: the board does not say")

    # -- the picture ---------------------------------------------------------------
    def targets(self):
        """[(name, die)]: the fields the lifted marble may go to with the dice still to
        play (what the board lights), [] when no single marble is lifted."""
        if len(self.lifted) != 1 or not self.remaining:
            return []
        p = self.position
        o = self.lifted[0]
        if o >= 48:
            return []
        try:
            subs = rules.completable_sub_moves(p.r, p.s, p.a, p.b, p.mover,
                                               tuple(self.remaining), o,
                                               self.og or rules.OWNER_SCORES)
        except Exception:
            return []
        out = []
        for m in subs:
            t = (position_name(m[M_TO]), m[M_DIE])
            if t not in out:
                out.append(t)
        return out

    def scene(self):
        """{name: colour} of the rings drawn: lifted marble, targets, wrong, repair."""
        sc = {}
        for n in self.lifted_names():
            sc[n] = ORIGIN_COLOUR
        for n, d in self.targets():
            sc[n] = die_colour(d)
        for n in self.missing:
            sc[n] = MISSING_COLOUR
        for n in self.extra:
            sc[n] = EXTRA_COLOUR
        if self.wrong:
            sc[self.wrong] = WRONG_COLOUR
        return sc

    def drawn_position(self):
        """The position as it stands on the board, as the sensors see it: a lifted
        marble is in the hand; in repair a missing marble is not drawn and an extra
        one is (the rings mark them)."""
        p = self.position
        r, s = p.r, p.s
        gone = list(self.lifted)
        if self.repair:
            gone += [position_index(n) for n in self.missing]
            for n in self.extra:
                o = position_index(n)
                if o < 24:
                    r |= 1 << o
                elif o < 48:
                    s |= 1 << (o - 24)
        for o in gone:
            if o < 24:
                r &= ~(1 << o)
            elif o < 48:
                s &= ~(1 << (o - 24))
        return Drawn(r, s, p.a, p.b, p.mover)

    def guidance(self):
        """What to do now, in words for the people at the table."""
        who = self.who(self.mover or "AB"[self.position.mover])
        if self.over:
            return self.over_words()
        if self.repair:
            # a new game not begun (no turn played, no roll): its start position to set
            # up; in the middle of a game: the board to put right (movewords.repair_words)
            return movewords.repair_words(self.repair, self.missing, self.extra,
                                          new_game=not self.record_full and not self.dice
                                          and not self.turns)
        if self.moksha:
            return "Moksha: %s's roll has no complete turn" % who
        if self.wrong:
            return "That marble may not go to %s%s. Put it on a lit hole." % (
                self.wrong, " (%s)" % self.reject if self.reject else "")
        if self.lifted and self.lifted[0] >= 48:
            return "Move the scoring piece one field on, towards the centre"
        if self.goal:
            return self.goal_words()
        if self.lifted:
            t = self.targets()
            if not t:
                return "This marble cannot move now: put it back"
            dice = sorted(set(d for _n, d in t))
            return "%s may go to the lit holes: %s" % (
                ", ".join(self.lifted_names()),
                "; ".join("die %d: %s" % (d, COLOUR_WORDS[d]) for d in dice))
        return self.headline()

    def status(self):
        """The game as movewords.headline reads it (a `status` reply's fields)."""
        return {"state": self.state, "mover": self.mover or "AB"[self.position.mover],
                "dice": list(self.dice), "remaining": list(self.remaining),
                "vs_board": self.vs_board, "board_move": self.board_move,
                "winner": self.winner, "how": self.how, "turns": self.turns,
                "score": "%d-%d" % (self.position.a, self.position.b)}

    def headline(self):
        """Whose turn it is and what to do, in one sentence (movewords.headline)."""
        if self.over or self.state == "game_over":
            return self.over_words() + ": start a new game"
        if self.hint and self.state == "moving":
            return "Hint for %s: %s" % (self.who(self.mover or "AB"[self.position.mover]),
                                        movewords.turn_words(self.hint))
        return movewords.headline(self.status(), self.names)

    def arrows(self):
        """[[from, to, kind]]: the board's next sub-move ("board"), the hint's turn
        ("hint"), and the last moves played ("move": this turn's sub-moves so far, or
        the last complete turn's)."""
        out = []
        last = self.turn_subs or (movewords.turn_moves(self.record_full[-1])
                                  if self.record_full and not self.dice else [])
        for frm, to, _d in movewords.arrows(" ".join(last)):
            out.append([frm, to, "move"])
        if self.hint and self.state == "moving":
            for frm, to, _d in movewords.arrows(self.hint):
                out.append([frm, to, "hint"])
        if self.board_move and self.state == "moving":
            for frm, to, _d in movewords.arrows(self.board_move):
                out.append([frm, to, "board"])
        return out

    def snapshot(self):
        """The page's dict: connected, banner, busy, hello, state, mover, dice,
        remaining, score [a, b], position (text), occupied (names), lifted, targets
        [[name, die, colour]], wrong, missing, extra, guidance, words, record
        [[number, notation]], over, svg, options (the targets' rule option in
        words), vs_board, level, arrows, board_move, hint, board_words, hint_words,
        headline, can, restartable, hands, names ([A's, B's] or None), start (the
        game's start position from its log header, or None), og (its rule option code,
        or None); kind ("samsara").  On a Samas or Schaska board (`other`) the
        shell's fields (connected, banner, busy, hello, restartable, hands, note) and
        that game's (livegames.GameLiveModel.snapshot) instead."""
        if self.other is not None:
            return self.other_snapshot()
        pos = self.drawn_position()
        occ = [position_name(p) for p in svg.occupied_positions(pos)]
        scene = self.scene()
        dice = self.dice if len(self.dice) == 2 else None
        arrows = self.arrows()
        picture = svg.render(pos, scene, dice=dice, arrows=arrows)
        return {
            "connected": self.connected and not self.banner,
            "banner": self.banner, "busy": self.busy,
            "hello": {k: self.hello.get(k) for k in ("board", "fw", "hash", "proto")},
            "state": self.state, "game": self.game,
            "mover": self.mover or "AB"[self.position.mover],
            "dice": list(self.dice) if dice else [], "remaining": self.remaining,
            "score": [self.position.a, self.position.b],
            "position": self.position.format(), "occupied": occ,
            "lifted": self.lifted_names(),
            "targets": [[n, d, die_colour(d)] for n, d in self.targets()],
            "wrong": self.wrong, "missing": self.missing, "extra": self.extra,
            "guidance": self.guidance(), "words": list(self.words),
            "record": [[self.first_turn + i, t] for i, t in enumerate(self.record_full)],
            "over": self.over_words(), "svg": picture, "options": self.option_words(),
            "vs_board": self.vs_board, "level": self.level, "arrows": arrows,
            "board_move": self.board_move, "hint": self.hint,
            "board_words": ("The board plays %s: %s" % (
                self.board_move, movewords.sub_move_words(self.board_move))
                if self.board_move and self.state == "moving" else ""),
            "hint_words": (movewords.turn_words(self.hint)
                           if self.hint and self.state == "moving" else ""),
            "headline": self.headline(), "can": self.can(),
            "names": list(self.names) if self.names else None, "start": self.start,
            "og": self.og,
            "restartable": bool(self.restartable and self.banner),
            "hands": bool(self.hands), "kind": "samsara", "note": self.game_note,
        }

    def other_snapshot(self):
        """The snapshot of a Samas or Schaska board (snapshot)."""
        out = self.other.snapshot()
        out.update({
            "connected": self.connected and not self.banner,
            "banner": self.banner, "busy": self.busy,
            "hello": {k: self.hello.get(k) for k in ("board", "fw", "hash", "proto")},
            "restartable": bool(self.restartable and self.banner),
            "hands": bool(self.hands), "note": self.game_note, "can": {},
        })
        return out

    def can(self):
        """{"roll", "undo", "hint"}: which of the live page's buttons make sense now
        (the board still has the last word: a refusal is shown in its words)."""
        on = bool(self.connected and not self.banner and not self.over)
        st = self.state
        # the player to roll: the board's mover, in turn_complete too (its status then
        # names the next player, Controller.position)
        mover = self.mover or "AB"[self.position.mover]
        return {"roll": on and st in ("waiting", "turn_complete") and mover != self.vs_board
                and not self.lifted,        # (the board refuses a roll with a marble up)
                "undo": on and (bool(self.turn_subs) or st in ("turn_complete",
                                                              "goal_pending")),
                "hint": on and st == "moving" and bool(self.remaining)
                and mover != self.vs_board and not self.hint}
