"""Reading and checking the hardware tables: pins.csv, positions.csv, settings.csv.

`load()` reads and validates them into a `HardwareConfig`; every error is a
`HardwareConfigError` naming the file, line and row at fault (hardware/README.md lists
the checks).  This is the only parser of the tables: the host's picture layout
(samsara_host.layout) reads positions.csv through `parse_positions` too.
"""
import csv
import io
import math
import os

from samsara_hw.gpio import (ALL_CAPABILITIES, OPTIONAL_FUNCTIONS, PICO_INTERNAL_GPIOS,
                             PIN_FUNCTIONS, capability_kind, gpio_capabilities,
                             where_capability)
from samsara_hw.names import (BOARD_H_MM, BOARD_W_MM, LED_COUNT, LED_ONLY_NAMES,
                              MIN_HOLE_PITCH_MM, MUX_CHANNELS, MUX_COUNT, POSITION_NAMES,
                              SR_BITS, SR_CHIPS, position_kind)
from samsara_hw.power import (DEFAULT_LED_BUDGET_MA, LED_FULL_WHITE_MA,
                              led_budget_limit_ma)

BUILDS = ("digital", "analog")
POWER_SOURCES = ("usb", "external")


class HardwareConfigError(ValueError):
    """A hardware table is incomplete or asks the RP2040 for something it cannot do."""


# ---------------------------------------------------------------------------
# Records

class Pin:
    """One row of pins.csv: `function` on GPIO `gpio` through `capability`."""
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
        """GPIO number of pin function `function` (e.g. 'LED_DATA')."""
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
                                      % (where, gpio, cap, cap, where_capability(cap)))
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
    """{key: value} from the text of settings.csv, defaults for missing keys; the LED
    budget is checked against the power model (samsara_hw.power)."""
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
    """The folder of the tables: `root`/hardware, by default the folder that holds
    this package (hardware/)."""
    if root is None:
        return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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
