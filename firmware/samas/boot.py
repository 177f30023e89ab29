"""The Samas board's boot (docs/samas.md "On the board"): the shared game board boot
(gameboard.boot: Samsara's drivers, the host link and scan loop) with the Samas board
core (samas.core.SamasBoard) and its game log (samas.logbook).  The virtual board boots
it with `--game samas`.

    loop = boot()          # drivers, board, log, link, a new game; returns the loop
    loop.run()
"""

import board_config
import entry
from gameboard import boot as gameboot
from samas.core import SamasBoard
from samas.logbook import Logbook, open_log


def boot(cfg=board_config, clock=None, cal_path="hallcal.txt", watch=None, settings=None,
         players=None):
    """Build drivers, board, services and the loop, start a game (its log starts with
    its game_start event): gameboot.boot with the Samas board.  watch: a callable given
    every event after the sinks; players: the players' names [A's, B's] or None
    (GameBoard.set_players).  Returns the mainloop.Loop."""
    return gameboot.boot(SamasBoard, Logbook, open_log, cfg, clock, cal_path, watch,
                         settings, players)


def main():
    """Boot and run the loop (main.py of a Samas bundle, the virtual board's `--game
    samas`): entry.run, as mainboot.main."""
    return entry.run(boot)
