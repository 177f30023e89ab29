"""The virtual board: firmware/main.py with the simulated drivers of vdrivers.py, run
under the `micropython` Unix port behind a pseudo-terminal (docs/virtual-board.md).

Started by samsara_host.virtual_board as

    MICROPYPATH=<repo>/firmware:<this folder> micropython -i vboard_main.py

with the virtual board's folder as the working directory: the game logs live in
`logs/` there and the "physical" board is `feed.jsonl` (vdrivers.py).  `-i` gives the
REPL the port after a Ctrl-C, as on a Pico; `import main; main.main()` restarts the
loop (the patched drivers stay in place).  A Ctrl-C prints one line, no traceback.

Environment: SAMSARA_VBOARD_GAME (samsara, the default, samas or schaska: the game's
own boot, samas.boot or schaska.boot, on the same drivers and loop),
SAMSARA_VBOARD_LAYOUT (a Schaska layout's text), SAMSARA_VBOARD_PLAYERS (Samas and
Schaska: the players' names as a JSON list [A's, B's], in every game's log header),
SAMSARA_BOARD_ID (the board id of
`hello`), SAMSARA_VBOARD_SETTLE
("lift,place" settle times in ms, default the firmware's), SAMSARA_VBOARD_DICE
(dice source, default "electronic"), SAMSARA_VBOARD_SEED (the seed of the electronic
dice, samsara.rng.Lcg; default the firmware's, 1).
"""

import json
import os

import board.hw as hwmod
import vdrivers

_GAME = os.getenv("SAMSARA_VBOARD_GAME") or "samsara"


def _start_frame():
    # What the sensors read before the feed says otherwise: the game's start set up.
    if _GAME == "samas":
        from samas.controller import frame_of
        from samas.rules.state import START as SAMAS_START
        return frame_of(SAMAS_START)
    if _GAME == "schaska":
        return bytearray(8)          # every figure at its start: no field occupied
    from samsara.frame import from_position
    from samsara.rules.position import START
    return from_position(START)


def _build(cfg, cal_path="hallcal.txt"):
    return vdrivers.VirtualHardware("feed.jsonl", _start_frame())


def _no_safe_mode():
    return False


hwmod.build = _build
hwmod.safe_mode_requested = _no_safe_mode

import board_config  # noqa: E402

if _GAME != "samsara":
    # Another game's board (docs/virtual-board.md "Samas and Schaska"): its own boot
    # on the same drivers and scan loop; SAMSARA_VBOARD_LAYOUT: a Schaska layout.
    _settle = os.getenv("SAMSARA_VBOARD_SETTLE")
    from gameboard import boot as boardboot
    from boardcore.settings import Settings
    if _GAME == "samas":
        import samas.boot as gameboot
        _args = {}
    elif _GAME == "schaska":
        import schaska.boot as gameboot
        from schaska.rules.layout import parse_layout
        _text = os.getenv("SAMSARA_VBOARD_LAYOUT")
        _args = {"layout": parse_layout(_text) if _text else gameboot.read_layout()}
    else:
        raise SystemExit("samsara: unknown game %r (samsara, samas, schaska)" % _GAME)
    _kw = {"scan_ms": boardboot.SCAN_MS, "settle_lift_ms": boardboot.SETTLE_LIFT_MS,
           "budget_ma": board_config.LED_BUDGET_MA}
    if _settle:
        _kw["settle_lift_ms"] = int(_settle.split(",")[0])
        _kw["settle_place_ms"] = int(_settle.split(",")[1])
    _players = os.getenv("SAMSARA_VBOARD_PLAYERS")
    if _players:
        _args["players"] = json.loads(_players)
    _loop = gameboot.boot(settings=Settings(**_kw), **_args)
    try:
        _loop.run()
    except KeyboardInterrupt:
        _loop.close()
        print("samsara: the loop stopped (Ctrl-C)")
    raise SystemExit(0)

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
