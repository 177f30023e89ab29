"""The builder's wiring lists (docs/build-guide.md): what goes to which chip pin, and
the LED chain in order.  Printed by ``python tools/gen_config.py --wiring``."""
from samsara_hw.names import LED_COUNT, MUX_COUNT, SR_CHIPS

HC165_INPUT_PINS = (11, 12, 13, 14, 3, 4, 5, 6)  # inputs A..H = bits 0..7 (DIP-16)
HC4067_CHANNEL_PINS = (9, 8, 7, 6, 5, 4, 3, 2, 23, 22, 21, 20, 19, 18, 17, 16)  # I0..I15 (DIP-24)


def wiring_text(cfg):
    """Plain-text wiring lists from the tables: what goes to which chip pin, and the
    LED chain in order. Printed by `python tools/gen_config.py --wiring`."""
    out = []
    w = out.append
    w("Pico GPIOs (hardware/pins.csv)")
    for func, p in sorted(cfg.pins.items(), key=lambda kv: kv[1].gpio):
        w("  GP%-2d  %-9s %-9s %-7s %s" % (p.gpio, func, p.capability, p.build, p.notes))
    w("")
    w("Digital build: 74HC165 chain (chip 0's QH to the Pico; chip k+1's QH to chip k's SER)")
    for chip in range(SR_CHIPS):
        places = sorted((p for p in cfg.positions if p.sr[0] == chip), key=lambda p: p.sr[1])
        cells = ["%s=%s (pin %d)" % ("ABCDEFGH"[p.sr[1]], p.name, HC165_INPUT_PINS[p.sr[1]])
                 for p in places]
        w("  chip %d: %s" % (chip, ", ".join(cells)))
    w("")
    w("Analog build: CD74HC4067 channels (S0..S3 shared, one /E per mux, COM to the ADC pin)")
    for mux in range(MUX_COUNT):
        places = sorted((p for p in cfg.positions if p.mux[0] == mux), key=lambda p: p.mux[1])
        cells = ["I%d=%s (pin %d)" % (p.mux[1], p.name, HC4067_CHANNEL_PINS[p.mux[1]]) for p in places]
        w("  mux %d: %s" % (mux, ", ".join(cells)))
    w("")
    w("LED chain, from the level shifter onwards (index: what it lights)")
    every = {p.led: p for p in cfg.positions}
    every.update({p.led: p for p in cfg.led_only.values()})
    for i in range(0, LED_COUNT, 8):
        w(("  " + "  ".join("%2d:%-4s" % (j, every[j].name) for j in range(i, min(i + 8, LED_COUNT)))).rstrip())
    return "\n".join(out) + "\n"
