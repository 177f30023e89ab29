"""The commands of a game (docs/protocol.md "Commands"): status, position, roll, undo,
set_dice, new_game, led_test.  Its one job is to keep their code off the Pico's heap
between commands: samsara.link.hostlink imports this module for a command and the main
loop drops it again at the next quiet moment (mainloop.ON_DEMAND_MODULES,
docs/performance.md "Fifth round").

Each command is a function NAME(link, args) -> reply fields (dict), with `link` the
samsara.link.hostlink.HostLink that received it; errors raise hostlink.CmdError or
gamelog.LogError.
"""

from samsara.link import protocol as P
from samsara.link.hostlink import CmdError
from samsara.storage import gamelog


def status(link, a):
    """`status`: state, game number, mover, score, dice, the log's space, uptime and
    the loop figures (the game log's waiting records are written first)."""
    c = link.board.controller
    pos = c.position()
    rec = link.recorder
    if rec is not None:
        rec.flush()
    return {"state": c.state,
            "game": None if rec is None else rec.log.run_gid,
            "mover": "AB"[pos.mover], "score": "%d-%d" % (pos.a, pos.b),
            "dice": [c.d1, c.d2] if c.d1 else [], "remaining": list(c.remaining_dice()),
            "log": link._log_space(),
            "uptime_ms": link._diff(link.now, link.t0 if link.t0 is not None else link.now),
            "loop": {"period_ms": link.period_ms, "max_ms": link.max_gap,
                     "overruns": link.overruns}}


def position(link, a):
    """`position`: the position text, state, turns so far and the last 10 turns."""
    c = link.board.controller
    rec = c.game.record if c.game is not None else []   # (read only: no copy)
    return {"position": c.position().format(), "state": c.state,
            "turns": len(rec), "record": rec[-10:]}


def _press(link, what):
    # The core presses and dispatches the events through every sink, this link's
    # on_event included, which keeps the first `what` event (or reject) for the reply.
    core = link._core()
    link._want = what
    link._got = None
    link._why = None
    try:
        core.press(link.now, what)
    finally:
        link._want = None
    got = link._got
    link._got = None
    if got is None:
        raise CmdError(P.E_STATE, link._why or ("%s not possible now" % what))
    return got


def roll(link, a):
    """`roll`: the roll button from the host; its dice (CmdError(state) when not possible)."""
    ev = _press(link, "roll")
    return {"dice": ev.get("dice")}


def undo(link, a):
    """`undo`: the undo button from the host; the undone sub-move when there was one."""
    ev = _press(link, "undo")
    out = {}
    if "move" in ev:
        out["move"] = ev["move"]
    return out


def set_dice(link, a):
    """`set_dice`: the dice of the next roll."""
    d = a["dice"]
    link._core().set_dice(d[0], d[1])
    return {"dice": d}


def new_game(link, a):
    """`new_game`: a new game (its log reserved); its game number (CmdError(log_full)
    when the log holds only unpulled games)."""
    try:
        vs = a["vs_board"]
        gid = link._core().new_game(a["position"], a["match"],
                                    0 if a["starter"] == "A" else 1,
                                    None if vs is None else "AB".index(vs))
    except gamelog.LogFull:
        raise CmdError(P.E_LOG_FULL, "flash holds only unpulled games: pull them first")
    return {"game": gid}


def led_test(link, a):
    """`led_test`: the LED test overlay for `ms` ms."""
    link._core().led_test(link.now, a["ms"])
    return {"ms": a["ms"]}
