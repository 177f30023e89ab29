"""LED driver: the WS2812 chain through MicroPython's `neopixel` module.

The core's scene is in *logical* LED order (docs/core-api.md): 0..63 the positions,
64..70 die 1 pips, 71..77 die 2 pips, 78 turn indicator A, 79 turn indicator B;
3 bytes R, G, B each, already through the power limiter.  `chain_of[i]` is the chain
index of logical LED i (board_config, generated from hardware/positions.csv), so the
dice display and the turn indicator are simply LEDs 64..79 of the same chain.

show() copies the scene straight into the NeoPixel object's own buffer in the
chain's colour order (NeoPixel.ORDER, GRB for WS2812) and makes one write() call:
no tuples, no allocation.  The caller calls it only when the scene changed
(Board.scene_version).  The copy is the viper loop of board/ledcopy_viper.py where
the VM has the viper emitter (the Pico, the Unix port), else the same loop in
bytecode (copy_bytecode below; about 31 us on the Unix port, 4-9 ms on a Pico).
write() takes about 2.4 ms for 80 LEDs (24 bits at 800 kHz each, interrupts off).
"""

from array import array

try:
    from micropython import const
except ImportError:  # CPython with the fakes
    def const(__x):
        return __x

_N_LOGICAL = const(80)


def copy_bytecode(scene, buf, dst, ro, go, bo):
    """The copy of ledcopy_viper.copy in plain bytecode (same arguments)."""
    k = 0
    for i in range(_N_LOGICAL):
        j = dst[i]
        if j != 0xFFFF:
            buf[j + ro] = scene[k]
            buf[j + go] = scene[k + 1]
            buf[j + bo] = scene[k + 2]
        k += 3


try:
    from board.ledcopy_viper import copy as _copy
    VIPER = True
except (ImportError, SyntaxError, NameError, AttributeError):
    # CPython (no `micropython`), or a VM without the viper emitter
    _copy = copy_bytecode
    VIPER = False


class LedChain:
    """Drive `np` (neopixel.NeoPixel with n >= every chain index) from scenes.

    np:        neopixel.NeoPixel on the chain's data pin (bpp 3).
    chain_of:  80 bytes, logical LED -> chain index (0xFF: not fitted).

    Raises ValueError when the table is not 80 entries or points past the chain.
    Interface (same as the simulated LEDs): show(scene240); also clear().
    `writes` counts write() calls (modulo 2**26).
    """

    def __init__(self, np, chain_of):
        if len(chain_of) != _N_LOGICAL:
            raise ValueError("chain_of needs 80 entries, got %d" % len(chain_of))
        n = len(np)
        bpp = np.bpp
        if bpp != 3:
            raise ValueError("only 3-byte (RGB) pixels are supported")
        order = np.ORDER
        # _dst[i] = byte offset of logical LED i's pixel in np.buf (0xFFFF: none)
        self._dst = array("H", [0xFFFF] * _N_LOGICAL)
        for i in range(_N_LOGICAL):
            c = chain_of[i]
            if c == 0xFF:
                continue
            if c >= n:
                raise ValueError("logical LED %d on chain index %d of %d" % (i, c, n))
            self._dst[i] = c * 3
        self._r = order[0]
        self._g = order[1]
        self._b = order[2]
        self._np = np
        self.writes = 0

    def show(self, scene):
        """Write `scene` (bytearray(240), R, G, B per logical LED) to the chain."""
        _copy(scene, self._np.buf, self._dst, self._r, self._g, self._b)
        self._np.write()
        self.writes = (self.writes + 1) & 0x3FFFFFF

    def clear(self):
        """Every LED off."""
        buf = self._np.buf
        for j in range(len(buf)):
            buf[j] = 0
        self._np.write()
        self.writes = (self.writes + 1) & 0x3FFFFFF
