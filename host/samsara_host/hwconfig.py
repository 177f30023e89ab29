"""The board's hardware configuration: one source of truth in ``hardware/``.

Three tables describe a board (hardware/README.md explains every column):

- ``hardware/pins.csv``: which RP2040 GPIO does what, and through which of its
  functions (SIO, PIO, SPI0 RX, ADC0, ...);
- ``hardware/positions.csv``: for each of the 64 sensor positions (docs/rules.md §6)
  its 74HC165 input (chip, bit), its multiplexer input (mux, channel), its LED index
  and the hole's centre in mm; plus the 16 LEDs of the dice display and turn indicator;
- ``hardware/settings.csv``: sensor build, power source and the LED current budget.

`load()` reads and validates them (`HardwareConfigError` names the file, line and
row at fault) and `generate()` turns them into ``firmware/board_config.py``, a plain
MicroPython module.  ``python tools/gen_config.py`` regenerates that file.

The power figures below are the arithmetic of hardware/power.md; a test keeps the two
in step.
"""
import csv
import io
import math
import os

# ---------------------------------------------------------------------------
# Positions and LEDs (docs/rules.md §6; the index order is the frame bit order)

POSITION_NAMES = tuple(
    ["R%d" % i for i in range(1, 25)]
    + ["S%d" % i for i in range(1, 25)]
    + ["GS", "GR"]
    + ["A%d" % i for i in range(6)] + ["AC"]
    + ["B%d" % i for i in range(6)] + ["BC"]
)
N_POSITIONS = len(POSITION_NAMES)  # 64
DIE_PIPS = 7
DICE_LED_NAMES = tuple("D%d.%d" % (d, j) for d in (1, 2) for j in range(DIE_PIPS))
TURN_LED_NAMES = ("TA", "TB")
LED_ONLY_NAMES = DICE_LED_NAMES + TURN_LED_NAMES
LED_COUNT = N_POSITIONS + len(LED_ONLY_NAMES)  # 80

SR_CHIPS = 8        # 74HC165, inputs A..H = bits 0..7
SR_BITS = 8
MUX_COUNT = 4       # CD74HC4067
MUX_CHANNELS = 16

BOARD_W_MM = 390.0
BOARD_H_MM = 180.0
MIN_HOLE_PITCH_MM = 18.0   # 16 mm marbles and 2 mm of wood between two hollows

# Pip numbering of one die, as seen by player A (hardware/README.md):
#   0 . 1
#   2 3 4
#   5 . 6
DIE_FACES_PIPS = ((), (3,), (0, 6), (0, 3, 6), (0, 1, 5, 6), (0, 1, 3, 5, 6),
                  (0, 1, 2, 4, 5, 6))


def position_kind(name):
    if name[0] in "RS":
        return "track"
    if name in ("GS", "GR"):
        return "goal"
    return "score"


# ---------------------------------------------------------------------------
# Power model (hardware/power.md shows the same arithmetic)

USB_SUPPLY_MA = 500
PICO_MA = 50                 # RP2040 + regulator under MicroPython with USB, with headroom
LED_IDLE_MA = 1              # WS2812B, each, all channels off
LED_FULL_WHITE_MA = 60       # WS2812B, each, 20 mA per colour channel
MARGIN_FRACTION = 0.10       # of the supply
BUDGET_STEP_MA = 10          # budgets are rounded down to this
SENSOR_LOADS_MA = {
    # 8 x 74HC165 (static + clocking), 64 closed reeds on 10 k pull-ups to 3.3 V
    # (the worst case: every input active), 74AHCT125 level shifter.
    "digital": (("74HC165 x 8", 3.0), ("pull-ups, 64 x 0.33 mA", 21.1), ("74AHCT125", 2.0)),
    # 64 x DRV5053 at their datasheet maximum, 4 x CD74HC4067, 74AHCT125.
    "analog": (("DRV5053 x 64", 230.4), ("CD74HC4067 x 4", 1.0), ("74AHCT125", 2.0)),
}


def led_budget_limit_ma(sensor_build, power_source="usb", external_supply_ma=0):
    """The largest LED budget (mA above idle, all 80 LEDs) the supply allows."""
    supply = USB_SUPPLY_MA if power_source == "usb" else external_supply_ma
    loads = PICO_MA + sum(ma for _what, ma in SENSOR_LOADS_MA[sensor_build])
    loads += LED_COUNT * LED_IDLE_MA
    left = supply - supply * MARGIN_FRACTION - loads
    if left <= 0:
        return 0
    return int(math.floor(left / BUDGET_STEP_MA)) * BUDGET_STEP_MA


DEFAULT_LED_BUDGET_MA = led_budget_limit_ma("digital", "usb")


# ---------------------------------------------------------------------------
# The RP2040's GPIO function table (RP2040 datasheet, "Function select")

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


def _where_capability(cap):
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
BUILDS = ("digital", "analog")
PIN_BUILDS = ("digital", "analog", "both")
POWER_SOURCES = ("usb", "external")


class HardwareConfigError(ValueError):
    """A hardware table is incomplete or asks the RP2040 for something it cannot do."""


# ---------------------------------------------------------------------------
# Records

class Pin:
    __slots__ = ("function", "gpio", "capability", "build", "notes", "line")

    def __init__(self, function, gpio, capability, build, notes, line):
        self.function = function
        self.gpio = gpio
        self.capability = capability
        self.build = build
        self.notes = notes
        self.line = line

    def __repr__(self):
        return "Pin(%s, GPIO%d, %s)" % (self.function, self.gpio, self.capability)


class Place:
    """One row of positions.csv: a sensor position, or a dice/turn LED (index None)."""
    __slots__ = ("name", "index", "sr", "mux", "led", "x_mm", "y_mm", "kind", "line")

    def __init__(self, name, index, sr, mux, led, x_mm, y_mm, kind, line):
        self.name = name
        self.index = index
        self.sr = sr          # (chip, bit) or None
        self.mux = mux        # (mux, channel) or None
        self.led = led
        self.x_mm = x_mm
        self.y_mm = y_mm
        self.kind = kind
        self.line = line

    def __repr__(self):
        return "Place(%s, led=%d)" % (self.name, self.led)


class HardwareConfig:
    """A validated configuration: pins, 64 positions in index order, the LED-only rows
    and the settings."""

    def __init__(self, pins, positions, led_only, settings):
        self.pins = pins              # {function: Pin}
        self.positions = positions    # [Place] * 64, position index order
        self.led_only = led_only      # {name: Place} for D1.0..D2.6, TA, TB
        self.settings = settings      # {key: str or int}

    def pin(self, function):
        return self.pins[function].gpio

    def spi_id(self):
        """SPI bus of the shift-register chain, or None when it is read by PIO/SIO."""
        cap = self.pins["SR_CLK"].capability
        return int(cap[3]) if cap.startswith("SPI") else None


# ---------------------------------------------------------------------------
# Parsing helpers

def _rows(text, fname, required):
    reader = csv.DictReader(io.StringIO(text))
    fields = [f.strip() for f in (reader.fieldnames or [])]
    missing = [c for c in required if c not in fields]
    if missing:
        raise HardwareConfigError("%s: missing column(s) %s" % (fname, ", ".join(missing)))
    out = []
    for n, row in enumerate(reader):
        row = {(k or "").strip(): (v or "").strip() for k, v in row.items() if k is not None}
        if not any(row.values()):
            continue
        out.append((n + 2, row))  # line 1 is the header
    return out


def _int(value, what, where, lo=None, hi=None, blank_ok=False):
    if value == "":
        if blank_ok:
            return None
        raise HardwareConfigError("%s: no %s" % (where, what))
    try:
        v = int(value)
    except ValueError:
        raise HardwareConfigError("%s: %s %r is not an integer" % (where, what, value)) from None
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise HardwareConfigError("%s: %s %d is outside %d..%d" % (where, what, v, lo, hi))
    return v


def _float(value, what, where, lo, hi):
    try:
        v = float(value)
    except ValueError:
        raise HardwareConfigError("%s: %s %r is not a number" % (where, what, value)) from None
    if not lo <= v <= hi:
        raise HardwareConfigError("%s: %s %g is off the board (0..%g)" % (where, what, v, hi))
    return v


# ---------------------------------------------------------------------------
# pins.csv

def parse_pins(text, fname="pins.csv"):
    """{function: Pin} from the text of pins.csv, validated against the RP2040."""
    pins = {}
    by_gpio = {}
    for line, row in _rows(text, fname, ("function", "gpio", "capability")):
        func = row["function"]
        where = "%s line %d (%s)" % (fname, line, func or "?")
        if func not in PIN_FUNCTIONS:
            raise HardwareConfigError("%s: unknown function %r (known: %s)"
                                      % (where, func, ", ".join(sorted(PIN_FUNCTIONS))))
        build, kinds, _meaning = PIN_FUNCTIONS[func]
        gpio = _int(row["gpio"], "GPIO number", where, 0, 29)
        if gpio in PICO_INTERNAL_GPIOS:
            raise HardwareConfigError("%s: GPIO%d is not on the Pico's header (it drives %s)"
                                      % (where, gpio, PICO_INTERNAL_GPIOS[gpio]))
        cap = row["capability"]
        if cap not in ALL_CAPABILITIES:
            raise HardwareConfigError("%s: %r is not an RP2040 GPIO function" % (where, cap))
        kind = capability_kind(cap)
        if kind not in kinds:
            raise HardwareConfigError("%s: %s needs %s, not %s"
                                      % (where, func, " or ".join(kinds), cap))
        if cap not in gpio_capabilities(gpio):
            raise HardwareConfigError("%s: GPIO%d cannot do %s on the RP2040 (%s is on %s)"
                                      % (where, gpio, cap, cap, _where_capability(cap)))
        pin_build = row.get("build", "") or build
        if pin_build != build:
            raise HardwareConfigError("%s: build is %r, but %s belongs to the %s build"
                                      % (where, pin_build, func, build))
        if func in pins:
            raise HardwareConfigError("%s: %s is given twice (also line %d)"
                                      % (where, func, pins[func].line))
        if gpio in by_gpio:
            other = by_gpio[gpio]
            raise HardwareConfigError("%s: GPIO%d is already used by %s (line %d)"
                                      % (where, gpio, other.function, other.line))
        pin = Pin(func, gpio, cap, pin_build, row.get("notes", ""), line)
        pins[func] = pin
        by_gpio[gpio] = pin
    for func in PIN_FUNCTIONS:
        if func not in pins and func not in OPTIONAL_FUNCTIONS:
            raise HardwareConfigError("%s: no row for %s (%s)" % (fname, func, PIN_FUNCTIONS[func][2]))
    # The chain's SPI pins must belong to one SPI block, and machine.SPI claims TX too.
    spi = [pins[f] for f in ("SR_CLK", "SR_DATA", "SR_MOSI")
           if f in pins and pins[f].capability.startswith("SPI")]
    if spi:
        buses = {p.capability[:4] for p in spi}
        if len(buses) > 1 or not pins["SR_CLK"].capability.startswith("SPI"):
            p = spi[-1]
            raise HardwareConfigError("%s line %d (%s): SR_CLK, SR_DATA and SR_MOSI must use one SPI "
                                      "block (found %s)" % (fname, p.line, p.function,
                                                            ", ".join(q.capability for q in spi)))
        if "SR_MOSI" not in pins:
            raise HardwareConfigError("%s: the chain is read with %s, so add an SR_MOSI row for its "
                                      "TX pin (machine.SPI claims it)" % (fname, buses.pop()))
    return pins


# ---------------------------------------------------------------------------
# positions.csv

POSITION_COLUMNS = ("name", "index", "sr_chip", "sr_bit", "mux", "mux_channel", "led",
                    "x_mm", "y_mm", "kind")


def parse_positions(text, fname="positions.csv"):
    """([Place] * 64 in index order, {name: Place} for the dice and turn LEDs)."""
    seen = {}
    by_sr = {}
    by_mux = {}
    by_led = {}
    for line, row in _rows(text, fname, POSITION_COLUMNS):
        name = row["name"]
        where = "%s line %d (%s)" % (fname, line, name or "?")
        if name in seen:
            raise HardwareConfigError("%s: %s is listed twice (also line %d)"
                                      % (where, name, seen[name].line))
        led = _int(row["led"], "LED index", where, 0, LED_COUNT - 1)
        x = _float(row["x_mm"], "x_mm", where, 0.0, BOARD_W_MM)
        y = _float(row["y_mm"], "y_mm", where, 0.0, BOARD_H_MM)
        kind = row["kind"]
        if name in POSITION_NAMES:
            want = POSITION_NAMES.index(name)
            index = _int(row["index"], "position index", where)
            if index != want:
                raise HardwareConfigError("%s: index is %d, but %s is position %d"
                                          % (where, index, name, want))
            chip = _int(row["sr_chip"], "74HC165 input (sr_chip)", where, 0, SR_CHIPS - 1)
            bit = _int(row["sr_bit"], "74HC165 input (sr_bit)", where, 0, SR_BITS - 1)
            mux = _int(row["mux"], "multiplexer input (mux)", where, 0, MUX_COUNT - 1)
            chan = _int(row["mux_channel"], "multiplexer input (mux_channel)", where, 0,
                        MUX_CHANNELS - 1)
            if kind != position_kind(name):
                raise HardwareConfigError("%s: kind is %r, expected %r" % (where, kind, position_kind(name)))
            sr, mx = (chip, bit), (mux, chan)
            if sr in by_sr:
                raise HardwareConfigError("%s: 74HC165 chip %d bit %d is already used by %s (line %d)"
                                          % (where, chip, bit, by_sr[sr].name, by_sr[sr].line))
            if mx in by_mux:
                raise HardwareConfigError("%s: mux %d channel %d is already used by %s (line %d)"
                                          % (where, mux, chan, by_mux[mx].name, by_mux[mx].line))
            place = Place(name, index, sr, mx, led, x, y, kind, line)
            by_sr[sr] = place
            by_mux[mx] = place
        elif name in LED_ONLY_NAMES:
            for col in ("index", "sr_chip", "sr_bit", "mux", "mux_channel"):
                if row[col] != "":
                    raise HardwareConfigError("%s: %s is an LED only; leave %s empty" % (where, name, col))
            want_kind = "dice" if name.startswith("D") else "turn"
            if kind != want_kind:
                raise HardwareConfigError("%s: kind is %r, expected %r" % (where, kind, want_kind))
            place = Place(name, None, None, None, led, x, y, kind, line)
        else:
            raise HardwareConfigError("%s: %r is neither a sensor position (docs/rules.md §6) nor a "
                                      "dice/turn LED (D1.0..D2.6, TA, TB)" % (where, name))
        if led in by_led:
            raise HardwareConfigError("%s: LED index %d is already used by %s (line %d)"
                                      % (where, led, by_led[led].name, by_led[led].line))
        by_led[led] = place
        seen[name] = place
    for name in POSITION_NAMES:
        if name not in seen:
            raise HardwareConfigError("%s: position %s (index %d) is missing: it needs a sensor "
                                      "input and an LED" % (fname, name, POSITION_NAMES.index(name)))
    for name in LED_ONLY_NAMES:
        if name not in seen:
            raise HardwareConfigError("%s: LED %s is missing" % (fname, name))
    # Every place has an LED and there are exactly LED_COUNT places, so the indexes
    # (unique, 0..79) cover the chain without gaps.
    holes = [seen[n] for n in POSITION_NAMES]
    for i, a in enumerate(holes):
        for b in holes[i + 1:]:
            d = math.hypot(a.x_mm - b.x_mm, a.y_mm - b.y_mm)
            if d < MIN_HOLE_PITCH_MM:
                raise HardwareConfigError("%s line %d (%s): hole centre is %.1f mm from %s (line %d); "
                                          "at least %g mm needed" % (fname, b.line, b.name, d, a.name,
                                                                     a.line, MIN_HOLE_PITCH_MM))
    return holes, {n: seen[n] for n in LED_ONLY_NAMES}


# ---------------------------------------------------------------------------
# settings.csv

DEFAULT_SETTINGS = {"sensor_build": "digital", "power_source": "usb",
                    "external_supply_ma": 0, "led_budget_ma": DEFAULT_LED_BUDGET_MA}


def parse_settings(text, fname="settings.csv"):
    settings = dict(DEFAULT_SETTINGS)
    lines = {}
    for line, row in _rows(text, fname, ("key", "value")):
        key, value = row["key"], row["value"]
        where = "%s line %d (%s)" % (fname, line, key)
        if key not in DEFAULT_SETTINGS:
            raise HardwareConfigError("%s: unknown setting (known: %s)"
                                      % (where, ", ".join(sorted(DEFAULT_SETTINGS))))
        if key in lines:
            raise HardwareConfigError("%s: given twice (also line %d)" % (where, lines[key]))
        lines[key] = line
        if key == "sensor_build" and value not in BUILDS:
            raise HardwareConfigError("%s: %r is not one of %s" % (where, value, ", ".join(BUILDS)))
        if key == "power_source" and value not in POWER_SOURCES:
            raise HardwareConfigError("%s: %r is not one of %s" % (where, value, ", ".join(POWER_SOURCES)))
        if key.endswith("_ma"):
            value = _int(value, "value", where, 0)
        settings[key] = value
    if settings["power_source"] == "external" and settings["external_supply_ma"] <= 0:
        raise HardwareConfigError("%s: power_source is external, so give external_supply_ma "
                                  "(the supply's rating in mA)" % fname)
    limit = led_budget_limit_ma(settings["sensor_build"], settings["power_source"],
                                settings["external_supply_ma"])
    budget = settings["led_budget_ma"]
    if budget > limit:
        if settings["power_source"] == "usb":
            how = "USB power allows for the %s build; use an external 5 V supply and set " \
                  "power_source to external (hardware/power.md)" % settings["sensor_build"]
        else:
            how = "a %d mA supply allows for the %s build (hardware/power.md)" % (
                settings["external_supply_ma"], settings["sensor_build"])
        raise HardwareConfigError("%s line %d (led_budget_ma): %d mA is more than the %d mA %s"
                                  % (fname, lines.get("led_budget_ma", 0), budget, limit, how))
    if budget < LED_FULL_WHITE_MA // 3:
        raise HardwareConfigError("%s line %d (led_budget_ma): %d mA cannot light even one LED colour"
                                  % (fname, lines.get("led_budget_ma", 0), budget))
    return settings


# ---------------------------------------------------------------------------
# Loading

def hardware_dir(root=None):
    if root is None:
        here = os.path.dirname(os.path.abspath(__file__))
        root = os.path.normpath(os.path.join(here, "..", ".."))
    return os.path.join(root, "hardware")


def from_texts(pins_text, positions_text, settings_text=None):
    """A validated HardwareConfig from the three tables' texts (settings optional)."""
    pins = parse_pins(pins_text)
    positions, led_only = parse_positions(positions_text)
    settings = parse_settings(settings_text) if settings_text is not None else dict(DEFAULT_SETTINGS)
    return HardwareConfig(pins, positions, led_only, settings)


def _read(path):
    with open(path, newline="", encoding="utf-8") as f:
        return f.read()


def load(hw_dir=None):
    """Load and validate hardware/pins.csv, positions.csv and settings.csv."""
    hw_dir = hw_dir or hardware_dir()
    settings_path = os.path.join(hw_dir, "settings.csv")
    return from_texts(_read(os.path.join(hw_dir, "pins.csv")),
                      _read(os.path.join(hw_dir, "positions.csv")),
                      _read(settings_path) if os.path.exists(settings_path) else None)


# ---------------------------------------------------------------------------
# firmware/board_config.py

GENERATOR_COMMAND = "python tools/gen_config.py"


def _bytes(items, per_line=8, indent="    ", comments=None):
    """A bytes literal of small numbers (0..255), `per_line` to a line, each line's
    numbers repeated in decimal in its comment.  On the Pico a 64-entry table as bytes
    is one object of about 80 bytes; as a tuple of ints it took 264 bytes, and a tuple
    of (chip, bit) pairs about 1.3 KB (docs/performance.md "Firmware")."""
    items = list(items)
    for v in items:
        if not 0 <= v <= 255:
            raise ValueError("table value %r does not fit a byte" % (v,))
    lines = []
    for i in range(0, len(items), per_line):
        part = items[i:i + per_line]
        note = " ".join("-" if v == NONE else str(v) for v in part)
        if comments:
            note = comments[i // per_line] + ": " + note
        lines.append(indent + 'b"' + "".join("\\x%02x" % v for v in part) + '"  # ' + note)
    return "(\n" + "\n".join(lines) + "\n)"


NONE = 0xFF
"""The tables' mark for "no position / no sensor / no LED" (the drivers' 0xFF)."""


def generate(cfg):
    """The text of firmware/board_config.py for configuration `cfg`."""
    pos = cfg.positions
    names8 = ["%s..%s" % (POSITION_NAMES[i], POSITION_NAMES[min(i + 7, N_POSITIONS - 1)])
              for i in range(0, N_POSITIONS, 8)]
    sr_pos = [NONE] * (SR_CHIPS * SR_BITS)
    mux_pos = [NONE] * (MUX_COUNT * MUX_CHANNELS)
    for p in pos:
        sr_pos[p.sr[0] * SR_BITS + p.sr[1]] = p.index
        mux_pos[p.mux[0] * MUX_CHANNELS + p.mux[1]] = p.index
    chips = ["chip %d" % c for c in range(SR_CHIPS)]
    muxes = ["mux %d, channels %d..%d" % (m, h, h + 7) for m in range(MUX_COUNT) for h in (0, 8)]
    spi = cfg.spi_id()
    adc = cfg.pins["MUX_ADC"].capability
    out = []
    w = out.append
    w("# Generated by `%s` from hardware/pins.csv, hardware/positions.csv" % GENERATOR_COMMAND)
    w("# and hardware/settings.csv. Do not edit: change the tables and run the command again")
    w("# (tests/test_hwconfig.py fails while this file is stale).")
    w('"""Board configuration: pins, sensor inputs and LED indexes of every position."""')
    w("")
    w("SENSOR_BUILD = %r  # 'digital' (74HC165 chain) or 'analog' (CD74HC4067 + ADC)" % cfg.settings["sensor_build"])
    w("POWER_SOURCE = %r" % cfg.settings["power_source"])
    w("LED_BUDGET_MA = %d  # power limiter: LED current above idle (hardware/power.md)" % cfg.settings["led_budget_ma"])
    w("LED_FULL_WHITE_MA = %d  # one WS2812B at 255,255,255" % LED_FULL_WHITE_MA)
    w("LED_IDLE_MA = %d  # one WS2812B, dark" % LED_IDLE_MA)
    w("")
    w("# GPIO numbers (hardware/pins.csv)")
    for func in PIN_FUNCTIONS:
        if func in cfg.pins:
            p = cfg.pins[func]
            w("PIN_%s = %d  # %s" % (func, p.gpio, p.capability))
    w("SR_SPI = %d  # SPI block of the 74HC165 chain; -1: read by PIO or bit-banging" % (-1 if spi is None else spi))
    w("PIN_MUX_SELECT = (%s)  # S0..S3, shared by all muxes" % ", ".join(str(cfg.pin("MUX_S%d" % i)) for i in range(4)))
    w("PIN_MUX_ENABLE = (%s)  # /E of mux 0..3, active low" % ", ".join(str(cfg.pin("MUX_EN%d" % i)) for i in range(4)))
    w("MUX_ADC_CHANNEL = %d  # %s" % (int(adc[3:]), adc))
    w("")
    w("N_POSITIONS = %d" % N_POSITIONS)
    w("SR_CHIPS = %d  # chip 0 is nearest the Pico: its QH is read first" % SR_CHIPS)
    w("SR_ACTIVE_LOW = True  # a closed reed or an active Hall switch reads 0")
    w("MUX_COUNT = %d" % MUX_COUNT)
    w("MUX_CHANNELS = %d" % MUX_CHANNELS)
    w("LED_COUNT = %d" % LED_COUNT)
    w("")
    w("# The tables are bytes: one small object each on the Pico's heap, not a tuple of")
    w("# ints (docs/performance.md \"Firmware\"); 0xFF (shown as -) marks an unused entry.")
    w("#")
    w("# Per position index p (docs/rules.md §6): its 74HC165 input chip * 8 + bit,")
    w("# bit 0..7 = input A..H (firmware/board/sr165.py)")
    w("POS_SR_INPUT = " + _bytes([p.sr[0] * SR_BITS + p.sr[1] for p in pos], comments=names8))
    w("# Per position index: its analog Hall sensor's mux * 16 + channel (board/hall.py)")
    w("POS_MUX_INPUT = " + _bytes([p.mux[0] * MUX_CHANNELS + p.mux[1] for p in pos], comments=names8))
    w("# Per chain input chip * 8 + bit: the position index")
    w("SR_POS = " + _bytes(sr_pos, comments=chips))
    w("# Per mux input mux * 16 + channel: the position index")
    w("MUX_POS = " + _bytes(mux_pos, comments=muxes))
    w("# Per position index: its LED's index in the WS2812 chain")
    w("POS_LED = " + _bytes([p.led for p in pos], comments=names8))
    w("")
    w("# Dice display: LED index of pip 0..6 of each die (pip numbers as seen by A:")
    w("# 0 top left, 1 top right, 2 middle left, 3 centre, 4 middle right,")
    w("# 5 bottom left, 6 bottom right)")
    for d in (1, 2):
        w("LED_DIE%d = %s" % (d, _bytes([cfg.led_only["D%d.%d" % (d, j)].led for j in range(DIE_PIPS)],
                                        per_line=DIE_PIPS, indent="")[2:-2]))
    w("# Pips lit for a face 0 (blank) .. 6, as bit masks over pip numbers")
    w("DIE_FACES = %s" % _bytes([sum(1 << j for j in f) for f in DIE_FACES_PIPS],
                                  per_line=len(DIE_FACES_PIPS), indent="")[2:-2])
    w("# Turn indicator: LED index for player A, player B")
    w("LED_TURN = %s" % _bytes([cfg.led_only["TA"].led, cfg.led_only["TB"].led], per_line=2,
                               indent="")[2:-2])
    w("")
    w("# Per logical LED (docs/core-api.md: 0..63 positions, 64..70 die 1 pips 0..6,")
    w("# 71..77 die 2 pips, 78 turn A, 79 turn B): its index in the WS2812 chain")
    logical = [p.led for p in pos] + [cfg.led_only[n].led for n in LED_ONLY_NAMES]
    w("LED_CHAIN_OF = " + _bytes(logical, comments=names8 + ["D1.0..D2.0", "D2.1..TB"]))
    return "\n".join(out) + "\n"


def board_config_path(root=None):
    if root is None:
        root = os.path.dirname(hardware_dir())
    return os.path.join(root, "firmware", "board_config.py")


# ---------------------------------------------------------------------------
# Wiring lists for the builder (docs/build-guide.md)

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
