"""The Samas board's game log records (docs/samas.md "The game log"): the shared game
log policy (gameboard.logbook.Logbook: the scan loop's sink over Samsara's store and
record format, pulled by the host with the same commands) with what a Samas game's
header, rounds and end hold.

What a Samas game's log holds:

    H  {"fmt": 1, "game": N, "rules": "samas", "start": S, "board": ID}
    E  {"ev": "round", "p": "2J"}                 one per round: A's and B's selections
    Z  {"how": "end", "result": "A"|"B"|"draw", "by": "far end"|"run-out"|"limit"}

"rules" names the game (a Samsara log's header has none).  The states after each round
are not logged: the host replays the selections under the rules from S
(samsara_host.games_log), as it replays a Samsara game's turns.  A game left unfinished
(a power cut) is closed as abandoned at the next boot.
"""

from gameboard import logbook

BUDGET = 4096
"""Bytes a game's records may take (GameLog's turn_budget, one window for the whole
game): ROUND_LIMIT rounds of at most 31 bytes each fit."""


class Logbook(logbook.Logbook):
    """The log policy over `log` (boardcore.storage.gamelog.GameLog, made with open_log)
    for a Samas `board` (samas.core.SamasBoard).  board_id: written into each header
    as "board" ("" writes none).  The members the scan loop and the host link's logs
    commands use, and the deferred writing with `defer`, are gameboard.logbook.
    Logbook's."""

    def header(self, ev):
        """{"rules": "samas", "start": S} of a game_start event."""
        return {"rules": "samas", "start": ev["start"]}

    def entry(self, ev):
        """A round event as {"ev": "round", "p": A's and B's selections} (e.g. "2J");
        None for another event."""
        if ev.get("ev") != "round":
            return None
        p = ev["play"]
        return {"ev": "round", "p": p["A"] + p["B"]}

    def ending(self, ev):
        """{"result", "by"} of a game_over event (by: its "how")."""
        return {"result": ev["result"], "by": ev["how"]}


def open_log(fs):
    """The GameLog of a Samas board on file-system adapter `fs` (boardcore.storage.osfs)."""
    return logbook.open_log(fs, BUDGET)
