"""What the live page shows of a Samas or Schaska board (docs/app.md "Live board: Samas
and Schaska"): the board's events (samas.controller, schaska.controller: game_start,
ready, unready, reject, round, cleared, turn, game_over) and its running game's log
(read at connect, games_log.jsonl_lines) folded into the game's JSON lines, and those
into the page's snapshot: the game drawn by the Play page's drawings (static/gamesvg.js,
from `play`: the same fields as the Play page's state), the headline in a player's
words, what happened, and the rounds or turns so far.  Its one job is that fold; the
port is BoardWatch's.

    m = GameLiveModel("samas")
    m.from_lines(lines)            # the running game's JSON lines (its log on the board)
    m.event({"ev": "round", ...})  # every event the board sends
    m.snapshot()                   # the page's fields for this game

Events with bad fields are ignored, never raised.
"""
from samsara_host import samas_lines, schaska_lines

GAMES = ("samas", "schaska")
"""The games this model follows (Samsara's board is LiveModel's)."""

CHOICE_WORDS = {"0": "no stones", "1": "1 stone", "2": "2 stones", "3": "3 stones",
                "J": "a joker"}
"""A Samas choice in words (the Play page's words, lower case)."""

SAMAS_HOW = {"far end": "a Sama-stone reached its far end",
             "run-out": "a player ran out of stones and jokers",
             "limit": "the round limit"}
SCHASKA_BY = {"home": "all figures home", "block": "a player could not move",
              "limit": "the turn limit"}


def samas_how(final):
    """How a Samas game whose end line carries no "how" (a log's lines, `rules play`'s)
    ended, from its final state S: "far end" (a Sama-stone on its far end: A on 9, B on
    1), "run-out" (a player without stones and jokers), else "" (not known)."""
    if not isinstance(final, dict):
        return ""
    try:
        if final["A"]["hole"] == 9 or final["B"]["hole"] == 1:
            return "far end"
        if any(final[p]["stones"] == 0 and final[p]["jokers"] == 0 for p in "AB"):
            return "run-out"
    except (KeyError, TypeError):
        pass
    return ""


AGAIN = {"the tray is not settled yet": ": press Ready again"}
"""What a player does about a refusal of the board, said after its words."""


TOLD = 12
"""How many of the last events "What happened" keeps."""


def _names(players):
    # [A's, B's] of a "players" field, or None (none given, or not two texts)
    if not isinstance(players, (list, tuple)) or len(players) != 2:
        return None
    out = [p if isinstance(p, str) and p not in ("?",) else "" for p in players]
    return out if any(out) else None


def _fix_words(extra, missing, place, piece):
    # the pieces to put right, in words ("" when none): "field 5", "fields 5 and 9",
    # "fields 5, 9 and 12"
    def where(xs):
        xs = [str(x) for x in xs]
        return "%s%s %s" % (place, "" if len(xs) == 1 else "s",
                            xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + " and " + xs[-1])
    parts = ["take %s off %s (none belongs there)" % (piece, where(extra))] if extra else []
    if missing:
        parts.append("put %s on %s" % (piece, where(missing)))
    return ("Put the board right: " + "; ".join(parts)) if parts else ""


def game_words(game):
    """The game's name as a player writes it ("Samsara", "Samas", "Schaska")."""
    return {"samsara": "Samsara", "samas": "Samas", "schaska": "Schaska"}.get(game, game)


class GameLiveModel:
    """A Samas or Schaska board's game for the live page (module docstring).
    game: "samas" or "schaska" (ValueError otherwise).  Attributes: lines (the game's
    JSON lines so far, as `rules play --json` writes them), ready {"A", "B"} (Samas:
    the player pressed Ready this round), moving (Samas: a round revealed, its stones
    not yet moved and the trays not emptied), told (what happened, in words, newest
    last), refused (the board's last refusal in words, "" when none since)."""

    def __init__(self, game):
        if game not in GAMES:
            raise ValueError("the live page follows Samas or Schaska here, not %r" % (game,))
        self.game = game
        self.lines = []
        self.ready = {"A": False, "B": False}
        self.moving = False
        self.told = []
        self.refused = ""
        self.log_game = None    # the number of the board's log the lines were read from
        self.names = None       # [A's, B's] ("" unknown) or None: the players' names
        self.sensed = None      # the app's own virtual board: what its sensors read
                                # (gamehands.sensed_view), None for another board
        self.hand = {}          # the page's hand on it: what the sensors do not show
                                # (gamehands.hand_lines memory)

    # -- folding -------------------------------------------------------------------
    def from_lines(self, lines, log_game=None):
        """Take the running game's JSON lines (games_log.jsonl_lines of its log on the
        board; log_game: that log's game number) when they hold more of the game than
        the events seen so far, or another game.  Lines of the other game are
        ignored."""
        if not lines or lines[0].get("game") != self.game:
            return
        other = log_game is not None and log_game != self.log_game
        if other:
            self.log_game = log_game
        if (other or not self.lines or self._key(lines[0]) != self._key(self.lines[0])
                or len(lines) > len(self.lines)):
            self.lines = [dict(x) for x in lines]
            self.ready = {"A": False, "B": False}
            self.moving = False
            self.names = _names(lines[0].get("players"))

    @staticmethod
    def _key(start):
        return (start.get("start"), start.get("layout"))

    def event(self, ev):
        """Fold one event of the board."""
        try:
            self._event(ev)
        except (TypeError, ValueError, KeyError, AttributeError, IndexError):
            pass

    def _event(self, ev):
        name = ev.get("ev")
        if name == "game_start" and ev.get("game") == self.game:
            self.lines = [{"game": "samas", "start": ev["start"]} if self.game == "samas"
                          else {"game": "schaska", "layout": list(ev["layout"]),
                                "start": ev["start"]}]
            self.ready = {"A": False, "B": False}
            self.moving = False
            self.refused = ""
            self.names = _names(ev.get("players"))
            if self.names:
                self.lines[0]["players"] = list(self.names)
            self._tell("A new game of %s has started%s" % (
                game_words(self.game), " (%s)" % self._pair() if self.names else ""))
        elif not self.lines:
            return          # (nothing to fold into before the game is known)
        elif name in ("ready", "unready") and ev.get("p") in ("A", "B"):
            self.ready[ev["p"]] = name == "ready"
            self.refused = ""
            self._tell("%s is ready" % self.who(ev["p"]) if name == "ready" else
                       "%s changed the tray: Ready is taken back" % self.who(ev["p"]))
        elif name == "reject":
            why = str(ev.get("why") or "refused")
            why += AGAIN.get(why, "")
            p = ev.get("p")
            self.refused = ("%s's Ready was refused: %s" % (self.who(p), why)
                            if p in ("A", "B") else "The board refused: %s" % why)
            self._tell(self.refused)
        elif name == "round" and self.game == "samas":
            k = int(ev["round"])
            if k == self.steps() + 1 and not self.over_line():
                line = {"round": k, "play": dict(ev["play"]), "after": ev["after"]}
                self.lines.append(line)
                self._tell("Round %d: %s" % (k, self.round_words(len(self.lines) - 1)))
            self.ready = {"A": False, "B": False}
            self.moving = True
            self.refused = ""
        elif name == "cleared":
            self.moving = False
            self.refused = ""
        elif name == "turn" and self.game == "schaska":
            k = int(ev["turn"])
            if k == self.steps() + 1 and not self.over_line():
                self.lines.append({"turn": k, "player": ev["player"], "move": dict(ev["move"]),
                                   "after": ev["after"]})
                self._tell("Turn %d: %s" % (k, self.move_words(self.lines[-1])))
            self.refused = ""
        elif name == "game_over":
            if not self.over_line():
                end = {"result": ev["result"], "final": ev["final"]}
                if self.game == "schaska":
                    end = {"result": ev["result"], "by": ev["by"], "final": ev["final"]}
                else:
                    end["how"] = ev.get("how")
                self.lines.append(end)
            self.moving = False
            self.ready = {"A": False, "B": False}
            self._tell(self.over_words())

    def _tell(self, words):
        if self.told and self.told[-1] == words:
            return      # (a Ready pressed again while the tray settles: said once)
        self.told.append(words)
        del self.told[:-TOLD]

    # -- reading the lines -----------------------------------------------------------
    def steps(self):
        """Rounds (Samas) or turns (Schaska) played so far."""
        key = "round" if self.game == "samas" else "turn"
        return sum(1 for x in self.lines if key in x)

    def over_line(self):
        """The game's result line, or None while it runs."""
        return self.lines[-1] if self.lines and "result" in self.lines[-1] else None

    def state(self):
        """The state object now (the last line's "after", or the start's)."""
        if not self.lines:
            return None
        last = self.lines[-1]
        for key in ("final", "after", "start"):
            if key in last:
                return last[key]
        return None

    def standing(self):
        """Samas: the hollows the Sama-stones stand on at the board now, {"A": h, "B":
        h}: before a revealed round's move is carried out, the hollows before it;
        None before the game is known (and for Schaska)."""
        if self.game != "samas" or not self.lines:
            return None
        s = self.state()
        if self.moving and len(self.lines) > 1 and "round" in self.lines[-1]:
            before = self.lines[-2]
            s = before.get("after", before.get("start"))
        return {"A": s["A"]["hole"], "B": s["B"]["hole"]}

    def board_shows(self):
        """What the board shows of the pieces the sensors read (the app's own virtual
        board, `sensed` set) where the game does not want them, in a player's words
        (its red and white LEDs, "Put the board right: ...": docs/samas.md,
        docs/schaska.md "On the board"), or "": Samas's hollows against where the
        Sama-stones stand (a revealed round's move is the headline's); Schaska's
        fields against the game, a lifted figure named as its player's, with where it
        goes (or why it may not move now)."""
        if self.sensed is None or not self.lines or self.over_line():
            return ""
        s = self.state()
        if self.game == "samas":
            on = set(self.sensed.get("hollows") or ())
            want = {s["A"]["hole"], s["B"]["hole"]}
            allowed = set(want)
            if self.moving:
                stand = self.standing()
                allowed |= {stand["A"], stand["B"]}
            extra = sorted(on - allowed)
            missing = [] if self.moving else sorted(want - on)
            return _fix_words(extra, missing, "hollow", "a Sama-stone")
        on = set(self.sensed.get("fields") or ())
        want = set(s["A"]["fields"]) | set(s["B"]["fields"])
        extra, missing = sorted(on - want), sorted(want - on)
        if not extra and len(missing) == 1:
            f = missing[0]
            mover = s["turn"]
            owner = "A" if f in s["A"]["fields"] else "B"
            if owner != mover:
                return ("%s's figure from field %d is lifted, and it is %s's turn: put it "
                        "back on field %d" % (self.who(owner), f, self.who(mover), f))
            to = self._schaska_move(f)
            who = self.who(mover)
            if to is None:
                from schaska.rules.actions import frozen_leader
                st = self._schaska_now()[0]
                why = ("stays at half time while figures wait at the start"
                       if frozen_leader(st, st.mover) == f else "may not move now")
                return ("%s holds the figure from field %d, which %s: put it back on "
                        "field %d" % (who, f, why, f))
            return "%s holds the figure from field %d: put it %s" % (
                who, f, self._to_words(to, mover))
        return _fix_words(extra, missing, "field", "a figure")

    def _schaska_now(self):
        # (State, legal actions, layout) of the Schaska game now
        from schaska.rules.actions import legal_actions
        from schaska.rules.state import State
        layout = tuple(self.lines[0]["layout"])
        st = State.from_obj(self.state(), len(layout))
        return st, legal_actions(layout, st), layout

    def _schaska_move(self, f):
        # where the mover's figure on field f goes (None: it may not move now)
        for frm, to in self._schaska_now()[1]:
            if frm == f:
                return to
        return None

    def _to_words(self, to, mover):
        # where a move lands, in words: "on field t", "home", "back to its start"
        n = len(self.lines[0]["layout"])
        if 1 <= to <= n:
            return "on field %d" % to
        from schaska.rules.actions import home_of
        return "home" if to == home_of(n, "AB".index(mover)) else "back to its start"

    def who(self, side):
        """What to call player `side` ("A"/"B"): the player's name when known, else
        "Player A"."""
        if self.names and side in ("A", "B") and self.names["AB".index(side)]:
            return self.names["AB".index(side)]
        return "Player " + side

    def _pair(self):
        return "%s (A) and %s (B)" % (self.who("A"), self.who("B"))

    def name(self, names):
        """Set the players' names ([A's, B's], "" for one not given, or None) from
        elsewhere than the board's game (the library's tags of the same game)."""
        self.names = _names(names)

    def round_words(self, i):
        """Round line i (index in lines) in words: both choices and what they did."""
        line = self.lines[i]
        before = self.lines[i - 1].get("after", self.lines[i - 1].get("start"))
        play = line["play"]
        return "%s chose %s, %s %s: %s" % (
            self.who("A"), CHOICE_WORDS.get(play["A"], play["A"]), self.who("B"),
            CHOICE_WORDS.get(play["B"], play["B"]),
            samas_lines.round_words(before, play, line["after"],
                                    self.who if self.names else None))

    def move_words(self, line):
        """A Schaska turn line in words ("Player A moves 3 to 5")."""
        return schaska_lines.move_words(self.who(line["player"]), line["move"])

    def over_words(self):
        """The end in words, the winner named ("" while the game runs)."""
        end = self.over_line()
        if end is None:
            return ""
        n = self.steps()
        unit = ("round" if self.game == "samas" else "turn") + ("" if n == 1 else "s")
        if self.game == "samas":
            how = SAMAS_HOW.get(end.get("how") or samas_how(end.get("final")),
                                end.get("how") or "")
        else:
            how = SCHASKA_BY.get(end.get("by"), end.get("by") or "")
        how = " (%s)" % how if how else ""
        if end["result"] == "draw":
            return "Game over: a draw after %d %s%s" % (n, unit, how)
        return "Game over: %s wins after %d %s%s" % (self.who(end["result"]), n, unit, how)

    def headline(self):
        """Whose turn it is and what to do, in a player's words: Samas's round (and,
        on the app's own virtual board, that a Ready waits for the Sama-stones off
        their hollows); Schaska's legal actions now (schaska.rules.actions), and why
        there are not more (the first field taken, half time)."""
        if not self.lines:
            return "Waiting for the board's game ..."
        if self.over_line():
            return self.over_words() + ": a long press of either button starts a new game"
        s = self.state()
        if self.game == "samas":
            k = self.steps()
            if self.moving and k:
                last = self.lines[-1]
                before = self.lines[-2].get("after", self.lines[-2].get("start"))
                moves = ["%s's Sama-stone from %d to %d" % (self.who(p), before[p]["hole"],
                                                            last["after"][p]["hole"])
                         for p in ("A", "B") if before[p]["hole"] != last["after"][p]["hole"]]
                todo = ("move " + " and ".join(moves) + ", then take" if moves else "take")
                return "Round %d revealed: %s. Now %s the revealed stones out of both trays" % (
                    k, self.round_words(len(self.lines) - 1), todo)
            waiting = [p for p in ("A", "B") if not self.ready[p]]
            holes = sorted({s["A"]["hole"], s["B"]["hole"]})
            stand = ("hollow %d" % holes[0] if len(holes) == 1
                     else "hollows %d and %d" % tuple(holes))
            if not waiting:
                return ("Round %d: both players are ready; the reveal waits until the "
                        "Sama-stones stand on %s" % (k + 1, stand))
            if len(waiting) == 2:
                head = ("Round %d: each player puts 0 to 3 stones or a joker into the tray "
                        "behind the screen and presses Ready" % (k + 1))
            else:
                head = ("Round %d: %s is ready; %s, choose behind your screen and press "
                        "Ready" % (k + 1, self.who("AB"[1 - "AB".index(waiting[0])]),
                                   self.who(waiting[0])))
            if self.sensed is not None and sorted(self.sensed.get("hollows") or ()) != holes:
                head += (". The Sama-stones are not on %s: a Ready waits for them, and the "
                         "round is revealed once they stand there" % stand)
            return head
        return self._schaska_headline()

    def _schaska_headline(self):
        # whose turn and only what is legal now (schaska.rules.actions.legal_actions),
        # with why a figure may not: the first field taken, half time's leader
        from schaska.rules.actions import frozen_leader
        st, legal, layout = self._schaska_now()
        n = len(layout)
        mover = "AB"[st.mover]
        who = self.who(mover)
        first = 1 if mover == "A" else n
        can = []
        moves = ["field %d %s" % (f, self._to_words(to, mover).replace("on field ", "to "))
                 for f, to in legal if 1 <= f <= n]
        if any(not 1 <= f <= n for f, _to in legal):
            can.append("put a figure from the start on field %d" % first)
        if moves:
            can.append("move a figure by its field's value (occupied fields are jumped): "
                       + ", ".join(moves))
        why = []
        if st.start[st.mover] and st.cells[first]:
            why.append("field %d is taken, so no figure comes in from the start" % first)
        held = frozen_leader(st, st.mover)
        if held:
            why.append("half time: the leading figure stays while figures wait at the start "
                       "(field %d)" % held)
        head = ("%s to move: %s" % (who, "; or ".join(can)) if can
                else "%s has no move" % who)
        return head + "".join(". " + w[0].upper() + w[1:] for w in why)

    def record(self):
        """[[k, words]]: every round or turn so far."""
        out = []
        for i, line in enumerate(self.lines):
            if "round" in line:
                out.append([line["round"], self.round_words(i)])
            elif "turn" in line:
                out.append([line["turn"], self.move_words(line)])
        return out

    def play_view(self):
        """The fields the Play page's drawings take (static/gamesvg.js samasSVG,
        schaskaSVG): game, position, names, and for Schaska layout, last (the last
        move's fields) and totals (each player's progress); None before the game is
        known."""
        s = self.state()
        if s is None:
            return None
        out = {"game": self.game, "position": s, "names": [self.who("A"), self.who("B")]}
        if self.game == "schaska":
            from schaska.rules.actions import totals
            from schaska.rules.state import State
            layout = self.lines[0]["layout"]
            out["layout"] = layout
            last = [x for x in self.lines if "turn" in x]
            out["last"] = dict(last[-1]["move"], player=last[-1]["player"]) if last else None
            out["totals"] = list(totals(State.from_obj(s, len(layout))))
        return out

    def snapshot(self):
        """The page's fields for this game: kind (the game), play (play_view), headline
        and guidance (the same sentence), refused, words (what happened, newest last),
        record [[k, words]], over (the end in words, "" while it runs), result ("A",
        "B", "draw" or None), ready (Samas), moving (Samas: a revealed round to carry
        out), steps, names ([A's, B's] or None), standing (Samas: the hollows the
        Sama-stones stand on now), and
        on the app's own virtual board sensed (what its sensors read, sensed_view)
        and board_shows (what is to put right, board_shows)."""
        end = self.over_line()
        head = self.headline()
        return {"kind": self.game, "play": self.play_view(), "headline": head,
                "guidance": head, "refused": self.refused, "words": list(self.told),
                "record": self.record(), "over": self.over_words(),
                "result": end["result"] if end else None, "ready": dict(self.ready),
                "moving": self.moving, "steps": self.steps(),
                "names": list(self.names) if self.names else None,
                "standing": self.standing(), "sensed": self.sensed,
                "board_shows": self.board_shows()}
