"""The drivers' side of the host link (docs/protocol.md `sensors`, `calibrate`,
`hello`'s board id): the link's hooks over the drivers.  Its one job is to keep every
hardware call of the link out of the core package (firmware/samsara imports no
hardware module); it lives with the drivers.

    hooks = LinkHooks(hw, board)     # hw: board.hw.Hardware, board: samsara.core.Board
    hooks.sensors()                  # (raw bytearray(8) scanned now, settled frame)
    hooks.calibrate("start")         # the guided Hall calibration, one step
    board_id(hw)                     # "e6614103e7..." (hex of the flash chip's id)
"""

from boardcore.link import protocol as P
from boardcore.link.protocol import CmdError


class LinkHooks:
    """The host link's hooks over the drivers `hw` (scanner, calibrator) and the board
    core `board` (its settled frame)."""

    def __init__(self, hw, board):
        self.hw = hw
        self.board = board
        self.raw = bytearray(8)

    def sensors(self):
        """(raw, settled): a fresh scan (bytearray(8), owned by the hooks) and the
        board's settled frame."""
        self.hw.scanner.scan(self.raw)
        return self.raw, self.board.frames()[1]

    def calibrate(self, step):
        """One step of the guided calibration of analog Hall sensors (`calibrate`
        command): returns {"state", "todo", "missing"}.  CmdError(not_supported) on a
        reed-switch board, CmdError(state) for a step the calibration is not at."""
        cal = getattr(self.hw, "calibrator", None)
        if cal is None:
            raise CmdError(P.E_NOT_SUPPORTED, "this board has reed switches: nothing to calibrate")
        if step == "start":
            cal.begin()
        elif step == "cancel":
            cal.abort()
        elif step == "save":
            # from "occupied" this keeps the sensors measured so far (the others use
            # the default thresholds); from "ready" every sensor was measured
            if cal.state not in ("occupied", "ready"):
                raise CmdError(P.E_STATE, "calibration is in state %s" % cal.state)
            cal.skip()
        else:
            if cal.state != step:
                raise CmdError(P.E_STATE, "calibration is in state %s" % cal.state)
            cal.step()
        out = {"state": cal.state, "todo": cal.prompt()}
        try:
            out["missing"] = len(cal.missing())
        except Exception:
            pass
        return out


def board_id(hw=None):
    """The board's id for `hello` and the boot line: hw.unique_id() when the drivers
    have one, else the environment variable SAMSARA_BOARD_ID (the virtual board),
    else machine.unique_id() in hex (the Pico's flash chip), else "pico".  Called at
    boot only, never in the loop."""
    fn = getattr(hw, "unique_id", None)
    if fn is not None:
        try:
            v = fn()
            if isinstance(v, (bytes, bytearray)):
                return _hex(v)
            return str(v)
        except Exception:
            pass
    try:
        import os
        v = os.getenv("SAMSARA_BOARD_ID")
        if v:
            return v
    except Exception:
        pass
    try:
        import machine
        return _hex(machine.unique_id())
    except Exception:
        pass
    return "pico"


def _hex(v):
    # The id bytes as lower-case hex, two digits a byte.
    return "".join(["%02x" % b for b in v])
