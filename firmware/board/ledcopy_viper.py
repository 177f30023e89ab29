"""The LED driver's copy loop compiled by MicroPython's viper emitter (machine code,
about ten times faster than bytecode for byte loops on the Pico).

Shipped as source (tools/build_firmware.py AS_SOURCE): a .mpy with viper code loads
only on the MicroPython version that compiled it, source compiles on any 1.22+.
board/leds.py imports this inside try/except and falls back to the bytecode loop where
the VM has no viper emitter (the WebAssembly port) or no `micropython` module
(CPython with the fakes).
"""
import micropython


@micropython.viper
def copy(scene, buf, dst, ro: int, go: int, bo: int):
    """Copy the 80 logical RGB pixels of `scene` (bytearray(240)) into `buf` (the
    NeoPixel buffer) at the byte offsets of `dst` (array('H') of 80, 0xFFFF: not
    fitted), in the chain's colour order (channel offsets ro, go, bo)."""
    s = ptr8(scene)
    b = ptr8(buf)
    d = ptr16(dst)
    i = 0
    k = 0
    while i < 80:
        j = d[i]
        if j != 0xFFFF:
            b[j + ro] = s[k]
            b[j + go] = s[k + 1]
            b[j + bo] = s[k + 2]
        k += 3
        i += 1
