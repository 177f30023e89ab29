"""A Samas game for two players at one screen (docs/app.md "Play", docs/samas.md): each
player picks a choice in secret, and once both have picked the two are revealed at once
and the round is played by the rules module (samas.rules.game: no second copy of the
rules).  Its one job is one Samas game in the page.

    g = SamasPlay(games_dir, names=["Anna", "Ben"])
    g.choose("A", "2")         # A's secret choice: the page says only that A has chosen
    g.choose("B", "J")         # both chosen: revealed, the round played
    g.state()                  # the page's dict

A finished game is kept as its JSON lines (docs/samas.md "JSON lines", the lines of
`samsara rules play --game samas --json`) in `<games_dir>/browser-samas/game-NNNN.jsonl`,
numbered apart from every other game's folder.
"""
import threading

from samas.rules.game import Game
from samas.rules.rounds import IllegalSelectionError, SELECTIONS, legal_selections, selection
from samas.rules.state import PLAYERS, START

from samsara_host import samas_lines
from samsara_host.app.playgame import PlayError
from samsara_host.app.playsaved import keep_lines

FOLDER = "browser-samas"
"""The library folder of Samas games played in the page."""


class SamasPlay:
    """One Samas game (module docstring).  names: None or [A's, B's].  Thread-safe."""

    game_name = "samas"

    def __init__(self, games_dir, names=None):
        self.lock = threading.RLock()
        self.games_dir = games_dir
        self.names = names
        self.game = Game(START)
        self.lines = [samas_lines.start_line(START)]
        self.pending = [None, None]      # each player's secret choice (index) this round
        self.last = None                 # the last round: {"A", "B", "words"}
        self.saved = None

    def choose(self, player, choice):
        """Player "A" or "B" picks `choice` ("0".."3" or "J") in secret; once both have
        picked, the round is revealed and played.  Raises PlayError for an unknown
        player or choice, one the player may not make, a second pick in the same round,
        or a finished game."""
        with self.lock:
            if self.game.over():
                raise PlayError("the game is over: start a new one")
            if player not in PLAYERS:
                raise PlayError("the player is A or B, not %r" % (player,))
            p = PLAYERS.index(player)
            try:
                sel = selection(choice)
            except ValueError as e:
                raise PlayError(str(e))
            if self.pending[p] is not None:
                raise PlayError("%s has already chosen this round" % self._who(p))
            if sel not in legal_selections(self.game.state, p):
                raise PlayError("%s may not choose %s (holds %d stones, %d jokers)" % (
                    self._who(p), choice, self.game.state.stones[p], self.game.state.jokers[p]))
            self.pending[p] = sel
            if None in self.pending:
                return
            before = self.game.state.to_obj()
            try:
                after = self.game.play(self.pending[0], self.pending[1])
            except IllegalSelectionError as e:       # not reached: both were checked
                self.pending = [None, None]
                raise PlayError(str(e))
            line = samas_lines.round_line(self.game.rounds, self.pending[0], self.pending[1],
                                          after)
            self.lines.append(line)
            self.last = {"A": line["play"]["A"], "B": line["play"]["B"],
                         "words": samas_lines.round_words(before, line["play"], line["after"])}
            self.pending = [None, None]
            if self.game.over():
                self.lines.append(samas_lines.result_line(self.game))
                self.saved = keep_lines(self.games_dir, FOLDER, self.lines)

    def _who(self, p):
        return self.names[p] if self.names else "Player " + PLAYERS[p]

    def close(self):
        """Nothing to free (the game lives in memory)."""

    def state(self):
        """The page's dict: game ("samas"), names, position (the state object), round
        (the round being chosen, from 1), chosen {"A": bool, "B": bool} (never the
        choice itself), legal {"A": [SEL...], "B": [...]} (what each may still pick;
        empty once picked), last (the last round revealed: {"A", "B", "words"}, or
        None), record [[k, A's SEL, B's SEL, words]], over (words, "" while running),
        result ("A", "B", "draw" or None), saved (the kept file's name, or None)."""
        with self.lock:
            g = self.game
            legal = {}
            for p in (0, 1):
                legal[PLAYERS[p]] = [] if self.pending[p] is not None else [
                    SELECTIONS[i] for i in legal_selections(g.state, p)]
            record = []
            prev = self.lines[0]["start"]
            for line in self.lines[1:]:
                if "round" not in line:
                    break
                record.append([line["round"], line["play"]["A"], line["play"]["B"],
                               samas_lines.round_words(prev, line["play"], line["after"])])
                prev = line["after"]
            over = ""
            if g.over():
                how = {"far end": "a Sama-stone reached its far end",
                       "run-out": "a player ran out of stones and jokers",
                       "limit": "the round limit"}.get(g.how, g.how)
                over = ("Game over: a draw (%s)." % how if g.result == "draw" else
                        "Game over: %s wins (%s)!" % (self._who(PLAYERS.index(g.result)), how))
            return {
                "game": "samas", "names": [self._who(0), self._who(1)],
                "position": g.state.to_obj(), "round": g.rounds + (0 if g.over() else 1),
                "chosen": {PLAYERS[p]: self.pending[p] is not None for p in (0, 1)},
                "legal": legal, "last": self.last, "record": record, "over": over,
                "result": g.result, "saved": self.saved,
            }
