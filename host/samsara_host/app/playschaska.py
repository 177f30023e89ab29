"""A Schaska game for two players at one screen (docs/app.md "Play", docs/schaska.md) on
the layout the players laid out: the page offers the legal actions of the player to
move, as the rules module lists them (schaska.rules.game: no second copy of the rules),
and plays the one picked.  Its one job is one Schaska game in the page.

    g = SchaskaPlay(games_dir, layout="+1,+2,-1,...", names=None)   # None: the default
    g.act({"from": "start", "to": 1})      # a move object of state()["legal"]
    g.state()                              # the page's dict

A finished game is kept as its JSON lines (docs/schaska.md "JSON lines") in
`<games_dir>/browser-schaska/game-NNNN.jsonl`, numbered apart from every other game's
folder.
"""
import re
import threading

from schaska.rules.actions import action_obj
from schaska.rules.game import Game
from schaska.rules.layout import DEFAULT, LayoutError, format_layout, parse_layout
from schaska.rules.state import PLAYERS

from samsara_host import schaska_lines
from samsara_host.app.playgame import PlayError
from samsara_host.app.playsaved import keep_lines

FOLDER = "browser-schaska"
"""The library folder of Schaska games played in the page."""


def layout_of(text):
    """The layout tuple of the page's layout text: field values parted by commas,
    spaces or both ("+1,+2,-1,8", "+1 +2 -1 8", "+1, +2, -1, 8"); the default layout
    for None or "".  Raises PlayError naming the bad field."""
    if text is None or (isinstance(text, str) and not text.strip()):
        return DEFAULT
    if not isinstance(text, str):
        raise PlayError("the layout is a text of field values, e.g. %s" % format_layout(DEFAULT))
    try:
        return parse_layout(",".join(re.split(r"\s*,\s*|\s+", text.strip())))
    except LayoutError as e:
        raise PlayError("layout: %s" % e)


class SchaskaPlay:
    """One Schaska game (module docstring).  names: None or [A's, B's].  Thread-safe."""

    game_name = "schaska"

    def __init__(self, games_dir, layout=None, names=None):
        self.lock = threading.RLock()
        self.games_dir = games_dir
        self.names = names
        self.game = Game(layout_of(layout))
        self.lines = [schaska_lines.start_line(self.game.layout, self.game.state)]
        self.saved = None

    def act(self, move):
        """The player to move takes the action whose move object is `move` ({"from":
        "start" | f, "to": f | "home" | "start"}, one of state()["legal"]).  Raises
        PlayError for anything else or a finished game."""
        with self.lock:
            g = self.game
            if g.over():
                raise PlayError("the game is over: start a new one")
            if not isinstance(move, dict):
                raise PlayError("a move is {\"from\": ..., \"to\": ...}")
            want = {"from": move.get("from"), "to": move.get("to")}
            for a in g.legal():
                if action_obj(g.state, a) == want:
                    before = g.state
                    after = g.play(a)
                    self.lines.append(schaska_lines.turn_line(g.turns, before, a, after))
                    if g.over():
                        self.lines.append(schaska_lines.result_line(g))
                        self.saved = keep_lines(self.games_dir, FOLDER, self.lines)
                    return
            raise PlayError("%s cannot play %s-%s now: pick one of the offered moves" % (
                self._who(g.state.mover), want["from"], want["to"]))

    def _who(self, p):
        return self.names[p] if self.names else "Player " + PLAYERS[p]

    def close(self):
        """Nothing to free (the game lives in memory)."""

    def state(self):
        """The page's dict: game ("schaska"), names, layout [values], layout_text,
        position (the state object), mover ("A"/"B"), legal [{"move": M, "words"}]
        (the mover's actions in the rules' order), turns, record [[k, player, words]],
        last (the last move object with "player", or None), totals [A's, B's]
        progress, over (words), result, by, saved."""
        from schaska.rules.actions import totals
        with self.lock:
            g = self.game
            mover = PLAYERS[g.state.mover]
            legal = [{"move": m, "words": schaska_lines.move_words(self._who(g.state.mover), m)}
                     for m in (action_obj(g.state, a) for a in g.legal())]
            record = [[x["turn"], x["player"], schaska_lines.move_words(
                self._who(PLAYERS.index(x["player"])), x["move"])]
                for x in self.lines[1:] if "turn" in x]
            last = None
            if len(self.lines) > 1 and "turn" in self.lines[-1 if not g.over() else -2]:
                x = self.lines[-1 if not g.over() else -2]
                last = dict(x["move"], player=x["player"])
            over = ""
            if g.over():
                how = {"home": "all figures home", "block": "a player could not move",
                       "limit": "the turn limit"}.get(g.by, g.by)
                ta, tb = totals(g.state)
                over = ("Game over: a draw (%s; progress %d-%d)." % (how, ta, tb)
                        if g.result == "draw" else "Game over: %s wins (%s; progress %d-%d)!"
                        % (self._who(PLAYERS.index(g.result)), how, ta, tb))
            return {
                "game": "schaska", "names": [self._who(0), self._who(1)],
                "layout": list(g.layout), "layout_text": format_layout(g.layout),
                "position": g.state.to_obj(), "mover": mover, "legal": legal,
                "turns": g.turns, "record": record, "last": last,
                "totals": list(totals(g.state)), "over": over, "result": g.result,
                "by": g.by, "saved": self.saved,
            }
