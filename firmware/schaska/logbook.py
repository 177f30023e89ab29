"""The Schaska board's game log records (docs/schaska.md "The game log"): the shared
game log policy (gameboard.logbook.Logbook: the scan loop's sink over Samsara's store
and record format, pulled by the host with the same commands) with what a Schaska
game's header, turns and end hold.

What a Schaska game's log holds:

    H  {"fmt": 1, "game": N, "rules": "schaska", "layout": [v1, ...], "board": ID}
                                                 ("start": S too when the game does not
                                                 start with every figure at its start
                                                 and A to move: 30 fields and a start
                                                 would pass a record's 250 bytes)
    E  {"ev": "move", "a": [frm, to]}            one per turn: the action, as track
                                                 positions 0..n+1 (schaska.rules.actions)
    Z  {"how": "end", "result": "A"|"B"|"draw", "by": "home"|"block"|"limit"}

"rules" names the game (a Samsara log's header has none).  The states after each turn
are not logged: the host replays the actions under the rules from S
(samsara_host.games_log).  A game left unfinished (a power cut) is closed as abandoned
at the next boot.
"""

from gameboard import logbook
from schaska.rules.actions import home_of, start_of
from schaska.rules.state import FIGURES

BUDGET = 16384
"""Bytes a game's records may take (GameLog's turn_budget, one window for the whole
game): TURN_LIMIT turns of at most 33 bytes each fit."""


def _position(n, p, obj):
    # A move object's end ("start", "home" or a field) as a track position 0..n+1.
    if obj == "start":
        return start_of(n, p)
    if obj == "home":
        return home_of(n, p)
    return obj


class Logbook(logbook.Logbook):
    """The log policy over `log` (boardcore.storage.gamelog.GameLog, made with open_log)
    for a Schaska `board` (schaska.core.SchaskaBoard); board_id: written into each
    header as "board".  The members the scan loop and the logs commands use, and the
    deferred writing with `defer`, are gameboard.logbook.Logbook's."""

    def __init__(self, log, board, board_id=""):
        logbook.Logbook.__init__(self, log, board, board_id)
        self._n = 0     # the running game's track length (fields)

    def header(self, ev):
        """{"rules": "schaska", "layout": [v1, ...]} of a game_start event, with its
        "start" when the game does not start as the rules' start."""
        self._n = len(ev["layout"])
        h = {"rules": "schaska", "layout": ev["layout"]}
        st = ev["start"]
        if st["A"]["start"] != FIGURES or st["B"]["start"] != FIGURES or \
                st["turn"] != "A":
            h["start"] = st      # (the board's games start as the rules' start)
        return h

    def entry(self, ev):
        """A turn event as {"ev": "move", "a": [from, to]} (track positions 0..n+1);
        None for another event."""
        if ev.get("ev") != "turn":
            return None
        p = 0 if ev["player"] == "A" else 1
        m = ev["move"]
        return {"ev": "move", "a": [_position(self._n, p, m["from"]),
                                    _position(self._n, p, m["to"])]}

    def ending(self, ev):
        """{"result", "by"} of a game_over event."""
        return {"result": ev["result"], "by": ev["by"]}


def open_log(fs):
    """The GameLog of a Schaska board on file-system adapter `fs`."""
    return logbook.open_log(fs, BUDGET)
