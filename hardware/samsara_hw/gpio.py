"""The RP2040's GPIO function table (RP2040 datasheet, "Function select") and the
board's pin functions (the `function` column of hardware/pins.csv)."""

PICO_HEADER_GPIOS = tuple(range(23)) + (26, 27, 28)
PICO_INTERNAL_GPIOS = {23: "the SMPS power-save control", 24: "VBUS sense",
                       25: "the on-board LED", 29: "the VSYS/3 divider"}


def gpio_capabilities(gpio):
    """The set of function names the RP2040 offers on `gpio` (0..29)."""
    caps = {"SIO", "PIO", "PIO0", "PIO1", "PWM",
            "PWM%d %s" % ((gpio >> 1) & 7, "AB"[gpio & 1])}
    caps.add("SPI%d %s" % ((gpio >> 3) & 1, ("RX", "CSn", "SCK", "TX")[gpio & 3]))
    caps.add("UART%d %s" % ((((gpio >> 2) + 1) >> 1) & 1, ("TX", "RX", "CTS", "RTS")[gpio & 3]))
    caps.add("I2C%d %s" % ((gpio >> 1) & 1, ("SDA", "SCL")[gpio & 1]))
    if 26 <= gpio <= 29:
        caps.add("ADC%d" % (gpio - 26))
    return caps


ALL_CAPABILITIES = set()
for _g in range(30):
    ALL_CAPABILITIES |= gpio_capabilities(_g)


def capability_kind(cap):
    """'SPI0 RX' -> 'SPI RX', 'ADC2' -> 'ADC', 'PIO1' -> 'PIO', 'PWM3 A' -> 'PWM'."""
    head, _, tail = cap.partition(" ")
    base = head.rstrip("0123456789")
    if base in ("SPI", "UART", "I2C"):
        return base + " " + tail
    return base


def where_capability(cap):
    """"GPIO" and the GPIO numbers that offer function `cap`, e.g. 'GPIO16,20'."""
    gpios = [g for g in range(30) if cap in gpio_capabilities(g)]
    return "GPIO" + ",".join(str(g) for g in gpios)


# function -> (build, allowed capability kinds, meaning)
PIN_FUNCTIONS = {
    "SR_DATA": ("digital", ("SPI RX", "PIO", "SIO"), "74HC165 chain serial data in (QH of chip 0)"),
    "SR_CLK": ("digital", ("SPI SCK", "PIO", "SIO"), "74HC165 chain clock"),
    "SR_LOAD": ("digital", ("SIO", "PIO"), "74HC165 SH/LD (parallel load, active low)"),
    "SR_MOSI": ("digital", ("SPI TX",), "SPI TX pin claimed by machine.SPI, not connected"),
    "LED_DATA": ("both", ("PIO",), "WS2812 chain data"),
    "BTN_ROLL": ("both", ("SIO",), "roll button"),
    "BTN_UNDO": ("both", ("SIO",), "undo button"),
    "MUX_ADC": ("analog", ("ADC",), "common output of the multiplexers"),
}
for _i in range(4):
    PIN_FUNCTIONS["MUX_S%d" % _i] = ("analog", ("SIO",), "multiplexer select bit %d" % _i)
for _i in range(4):
    PIN_FUNCTIONS["MUX_EN%d" % _i] = ("analog", ("SIO",), "enable (active low) of mux %d" % _i)
OPTIONAL_FUNCTIONS = ("SR_MOSI",)
PIN_BUILDS = ("digital", "analog", "both")
