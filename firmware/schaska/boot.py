"""The Schaska board's boot (docs/schaska.md "On the board"): the shared game board boot
(gameboard.boot: Samsara's drivers, the host link and scan loop) with the Schaska board
core (schaska.core.SchaskaBoard) on the players' layout and its game log
(schaska.logbook).  The virtual board boots it with `--game schaska`.

    loop = boot()          # drivers, board, log, link, a new game; returns the loop
    loop.run()

The track is the layout in LAYOUT_FILE on the file system (copied there with
`mpremote fs cp layout.txt :`), else the default.
"""

import board_config
import entry
from gameboard import boot as gameboot
from schaska.core import SchaskaBoard
from schaska.rules.layout import DEFAULT, LayoutError, parse_layout
from schaska.logbook import Logbook, open_log

LAYOUT_FILE = "layout.txt"   # the track the players laid out, in its text form
                             # ("+1,+2,-1,8,..."), beside main.py on the file system


def read_layout(path=LAYOUT_FILE):
    """The layout in the file at `path` (its text form, schaska.rules.layout), or
    DEFAULT when there is no such file.  Raises LayoutError for a file that holds no
    layout (naming the bad field)."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return DEFAULT
    return parse_layout(text.strip())


def boot(cfg=board_config, clock=None, cal_path="hallcal.txt", watch=None, settings=None,
         layout=DEFAULT, players=None):
    """Build drivers, board, services and the loop, start a game on `layout` (a checked
    layout tuple; its log starts with its game_start event): gameboot.boot with the
    Schaska board.  watch: a callable given every event after the sinks; players: the
    players' names [A's, B's] or None (GameBoard.set_players).  Returns the
    mainloop.Loop."""
    def make_board(s):
        return SchaskaBoard(layout, s)
    return gameboot.boot(make_board, Logbook, open_log, cfg, clock, cal_path, watch,
                         settings, players, layout=layout)


def main(layout=None):
    """Boot and run the loop on `layout` (None: read_layout's, the default when the file
    system holds none or a bad one; main.py of a Schaska bundle, the virtual board's
    `--game schaska`): entry.run, as mainboot.main."""
    if layout is None:
        try:
            layout = read_layout()
        except LayoutError as e:
            print("%s: %s; the default layout is used" % (LAYOUT_FILE, e))
            layout = DEFAULT
    return entry.run(lambda: boot(layout=layout))
