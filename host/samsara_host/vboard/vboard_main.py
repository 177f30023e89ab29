"""The virtual board: firmware/main.py with the simulated drivers of vdrivers.py, run
under the `micropython` Unix port behind a pseudo-terminal (docs/virtual-board.md).

Started by samsara_host.virtual_board as

    MICROPYPATH=<repo>/firmware:<this folder> micropython -i vboard_main.py

with the virtual board's folder as the working directory: the game logs live in
`logs/` there and the "physical" board is `feed.jsonl` (vdrivers.py).  `-i` gives the
REPL the port after a Ctrl-C, as on a Pico; `import main; main.main()` restarts the
loop (the patched drivers stay in place).  A Ctrl-C prints one line, no traceback.

Environment: SAMSARA_BOARD_ID (the board id of `hello`), SAMSARA_VBOARD_SETTLE
("lift,place" settle times in ms, default the firmware's), SAMSARA_VBOARD_DICE
(dice source, default "electronic"), SAMSARA_VBOARD_SEED (the seed of the electronic
dice, samsara.rng.Lcg; default the firmware's, 1).
"""

import os

import board.hw as hwmod
import vdrivers
from samsara.frame import from_position
from samsara.rules.position import START


def _build(cfg, cal_path="hallcal.txt"):
    return vdrivers.VirtualHardware("feed.jsonl", from_position(START))


def _no_safe_mode():
    return False


hwmod.build = _build
hwmod.safe_mode_requested = _no_safe_mode

import board_config  # noqa: E402
import mainboot  # noqa: E402  (after the drivers are in place)

_extra = {}
_settle = os.getenv("SAMSARA_VBOARD_SETTLE")
if _settle:
    _lift, _place = _settle.split(",")
    _extra["settle_lift_ms"] = int(_lift)
    _extra["settle_place_ms"] = int(_place)
_dice = os.getenv("SAMSARA_VBOARD_DICE")
if _dice:
    _extra["dice"] = _dice
_seed = os.getenv("SAMSARA_VBOARD_SEED")
if _seed:
    _extra["seed"] = int(_seed)


_make_config = mainboot.make_config


def _extra_config(cfg=board_config, **kw):
    # mainboot.make_config with the settle times, dice and seed above in the board's
    # Config (a restart from the REPL, `import main; main.main()`, boots with them too).
    for k in _extra:
        if k not in kw:
            kw[k] = _extra[k]
    return _make_config(cfg, **kw)


mainboot.make_config = _extra_config

try:
    mainboot.main()
except KeyboardInterrupt:
    # Ctrl-C: mainboot.main has flushed the waiting log records; the REPL (-i) takes
    # the port with a one-line note instead of a traceback.
    print("samsara: the loop stopped (Ctrl-C); import main; main.main() restarts it")
