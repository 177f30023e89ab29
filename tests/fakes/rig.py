"""The whole fake Samsara board on the bench, wired as board_config says.

    rig = Rig(cfg)            # bench.reset(), chip models on cfg's pins
    rig.world                 # chips.World: the marbles (the sensors read it)
    rig.chain / rig.field     # the 74HC165 chain (digital build) / Hall sensors (analog)
    rig.strip                 # chips.PixelStrip on the LED data pin
    rig.clock                 # bench.Clock (virtual ms)

`variant(cfg, **changes)` copies a board_config module into a plain object with some
names changed (e.g. SENSOR_BUILD='analog' for the Hall build).
Works under CPython and the MicroPython Unix port.
"""

import bench
import chips


class _Cfg:
    pass


def variant(cfg, **changes):
    out = _Cfg()
    for name in dir(cfg):
        if not name.startswith("_"):
            setattr(out, name, getattr(cfg, name))
    for name in changes:
        setattr(out, name, changes[name])
    return out


class Rig:
    def __init__(self, cfg, seed=7, noise=12):
        self.cfg = cfg
        self.clock = bench.reset()
        self.world = chips.World()
        self.chain = None
        self.field = None
        if cfg.SENSOR_BUILD == "digital":
            self.chain = chips.HC165Chain(cfg.SR_CHIPS, cfg.PIN_SR_CLK, cfg.PIN_SR_LOAD,
                                          cfg.PIN_SR_DATA, self._inputs)
            self._sr_pos = cfg.SR_POS
            self._low = 1 if cfg.SR_ACTIVE_LOW else 0
        else:
            table = bytearray(cfg.POS_MUX_INPUT)   # position -> mux * 16 + channel
            self.field = chips.HallField(self.world, table, seed=seed, noise=noise)
            self.field.attach(cfg.PIN_MUX_SELECT, cfg.PIN_MUX_ENABLE, cfg.PIN_MUX_ADC)
        self.strip = chips.PixelStrip(cfg.PIN_LED_DATA, cfg.LED_COUNT)

    def _inputs(self, c):
        # One chip's D7..D0: a marble closes its switch (reads 0 when active low).
        v = 0
        base = c * 8
        pos = self._sr_pos
        world = self.world
        for b in range(8):
            p = pos[base + b]
            if p != 0xFF and world.get(p):   # 0xFF: an unused input
                v |= 1 << b
        if self._low:
            v ^= 0xFF
        return v

    def chain_rgb(self, chain_index, frame=-1):
        return self.strip.rgb(chain_index, frame)
