"""The hardware tables (hardware/*.csv), their checks and the generated firmware config."""
import os
import re
import runpy
import subprocess
import sys

import pytest

from samsara_hw import codegen, csvcheck, gpio, names, power, wiring
from samsara_hw.csvcheck import HardwareConfigError

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
HW = os.path.join(ROOT, "hardware")


def _text(name):
    with open(os.path.join(HW, name), newline="", encoding="utf-8") as f:
        return f.read()


PINS = _text("pins.csv")
POSITIONS = _text("positions.csv")
SETTINGS = _text("settings.csv")


def edit_row(text, first_field, column, value):
    """`text` with the cell `column` of the row whose first field is `first_field` set."""
    lines = text.splitlines(keepends=True)
    header = lines[0].rstrip("\r\n").split(",")
    col = header.index(column)
    for i, line in enumerate(lines[1:], start=1):
        cells = line.rstrip("\r\n").split(",")
        if cells[0] == first_field:
            cells[col] = str(value)
            lines[i] = ",".join(cells) + "\n"
            return "".join(lines)
    raise AssertionError("no row %s" % first_field)


def drop_row(text, first_field):
    lines = text.splitlines(keepends=True)
    kept = [l for l in lines if l.split(",", 1)[0] != first_field]
    assert len(kept) == len(lines) - 1
    return "".join(kept)


def reject(pins=PINS, positions=POSITIONS, settings=SETTINGS):
    with pytest.raises(HardwareConfigError) as e:
        csvcheck.from_texts(pins, positions, settings)
    return str(e.value)


# --- the real tables ---------------------------------------------------------------

def test_real_tables_load():
    cfg = csvcheck.load(HW)
    assert [p.name for p in cfg.positions] == list(names.POSITION_NAMES)
    assert [p.index for p in cfg.positions] == list(range(64))
    leds = [p.led for p in cfg.positions] + [p.led for p in cfg.led_only.values()]
    assert sorted(leds) == list(range(80))
    assert cfg.spi_id() == 0


def test_committed_board_config_equals_fresh_generation():
    fresh = codegen.generate(csvcheck.load(HW))
    with open(codegen.board_config_path(ROOT), encoding="utf-8") as f:
        committed = f.read()
    assert committed == fresh, "firmware/board_config.py is stale: run `python tools/gen_config.py`"


def test_gen_config_check_mode_passes():
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "gen_config.py"), "--check"],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr


def test_board_config_is_consistent():
    bc = runpy.run_path(codegen.board_config_path(ROOT))
    assert bc["N_POSITIONS"] == 64 and bc["LED_COUNT"] == 80
    cfg = csvcheck.load(HW)
    # The tables are bytes literals (small on the Pico's heap), 0xFF marking unused entries.
    for name in ("POS_SR_INPUT", "POS_MUX_INPUT", "SR_POS", "MUX_POS", "POS_LED", "LED_CHAIN_OF",
                 "LED_DIE1", "LED_DIE2", "DIE_FACES", "LED_TURN"):
        assert isinstance(bc[name], bytes), name
    for p in range(64):
        chip, bit = cfg.positions[p].sr
        mux, chan = cfg.positions[p].mux
        assert bc["POS_SR_INPUT"][p] == chip * 8 + bit
        assert bc["POS_MUX_INPUT"][p] == mux * 16 + chan
        assert bc["SR_POS"][chip * 8 + bit] == p
        assert bc["MUX_POS"][mux * 16 + chan] == p
    assert len(bc["SR_POS"]) == 64 and len(bc["MUX_POS"]) == 64
    all_leds = list(bc["POS_LED"]) + list(bc["LED_DIE1"]) + list(bc["LED_DIE2"]) + list(bc["LED_TURN"])
    assert sorted(all_leds) == list(range(80))
    # Logical LED order of docs/core-api.md: positions, die 1, die 2, turn A, turn B.
    assert list(bc["LED_CHAIN_OF"]) == all_leds
    assert [bin(m).count("1") for m in bc["DIE_FACES"]] == [0, 1, 2, 3, 4, 5, 6]
    # The pips of a face are the scene's one table (docs/leds.md), not a second copy.
    from samsara.scene import PIPS
    assert tuple(bc["DIE_FACES"]) == PIPS
    # The firmware constants name the same pins as the table.
    assert bc["PIN_LED_DATA"] == csvcheck.load(HW).pin("LED_DATA")
    # Only plain data: MicroPython needs nothing from CPython here.
    with open(codegen.board_config_path(ROOT), encoding="utf-8") as f:
        assert "import" not in f.read()


def test_names_are_the_rules_engines_and_the_scenes():
    from samsara import scene
    from samsara.rules.geometry import position_index
    assert len(names.POSITION_NAMES) == 64
    for p, n in enumerate(names.POSITION_NAMES):
        assert position_index(n) == p and names.led_name(p) == n
    # Logical LEDs 64..79 in samsara.scene's order (docs/leds.md).
    for k in range(7):
        assert names.led_name(scene.DIE1_LED + k) == "D1.%d" % k
        assert names.led_name(scene.DIE2_LED + k) == "D2.%d" % k
    assert names.led_name(scene.TURN_A_LED) == "TA" and names.led_name(scene.TURN_B_LED) == "TB"
    assert names.LED_COUNT == scene.N_LEDS


def test_layout_follows_rules_md():
    cfg = csvcheck.load(HW)
    xy = {p.name: (p.x_mm, p.y_mm) for p in cfg.positions}
    # Bottom side: R1..R12 inner row moving right to left, S13..S24 outer row below it.
    for i in range(1, 12):
        assert xy["R%d" % i][0] > xy["R%d" % (i + 1)][0]
        assert xy["S%d" % i][0] < xy["S%d" % (i + 1)][0]
    for i in range(1, 13):
        # A double space: R i with S i+12, S i with R i+12, one above the other.
        assert xy["R%d" % i][0] == xy["S%d" % (i + 12)][0]
        assert xy["S%d" % (i + 12)][1] < xy["R%d" % i][1] < 90
        assert xy["S%d" % i][0] == xy["R%d" % (i + 12)][0]
        assert 90 < xy["S%d" % i][1] < xy["R%d" % (i + 12)][1]
    assert xy["GS"][0] < xy["S24"][0] and xy["GR"][0] > xy["R24"][0]
    # Scoring tracks run inwards to the shared centre double field.
    assert xy["A0"][0] < xy["A5"][0] < xy["AC"][0] < xy["BC"][0] < xy["B5"][0] < xy["B0"][0]
    # The board is point-symmetric with R and S (and A and B) swapped.
    swap = {"R": "S", "S": "R"}
    for name, (x, y) in xy.items():
        if name[0] in "RS":
            other = swap[name[0]] + name[1:]
        else:
            other = {"GS": "GR", "GR": "GS"}.get(name) or {"A": "B", "B": "A"}[name[0]] + name[1:]
        assert xy[other] == (390 - x, 180 - y), name


# --- broken tables are rejected with a message naming the row ------------------------

def test_missing_position_is_rejected():
    msg = reject(positions=drop_row(POSITIONS, "R7"))
    assert "R7" in msg and "missing" in msg


def test_duplicate_led_is_rejected():
    r1_led = next(p.led for p in csvcheck.load(HW).positions if p.name == "R1")
    msg = reject(positions=edit_row(POSITIONS, "R2", "led", r1_led))
    assert "(R2)" in msg and "LED index %d is already used by R1" % r1_led in msg


def test_duplicate_sensor_input_is_rejected():
    msg = reject(positions=edit_row(POSITIONS, "R2", "sr_bit", 0))
    assert "(R2)" in msg and "chip 1 bit 0 is already used by R1" in msg
    msg = reject(positions=edit_row(POSITIONS, "S6", "mux_channel", 0))
    assert "(S6)" in msg and "mux 3 channel 0 is already used by S5" in msg


def test_position_without_sensor_is_rejected():
    msg = reject(positions=edit_row(POSITIONS, "GS", "sr_chip", ""))
    assert "(GS)" in msg and "no 74HC165 input" in msg
    msg = reject(positions=edit_row(POSITIONS, "BC", "mux", ""))
    assert "(BC)" in msg and "no multiplexer input" in msg


def test_position_without_led_is_rejected():
    msg = reject(positions=edit_row(POSITIONS, "A3", "led", ""))
    assert "(A3)" in msg and "no LED index" in msg


def test_wrong_index_and_overlapping_holes_are_rejected():
    msg = reject(positions=edit_row(POSITIONS, "S3", "index", 5))
    assert "(S3)" in msg and "position 26" in msg
    msg = reject(positions=edit_row(POSITIONS, "A1", "x_mm", 60))
    assert "(A1)" in msg and "from A0" in msg


def test_duplicate_pin_is_rejected():
    msg = reject(pins=edit_row(PINS, "BTN_UNDO", "gpio", 20))
    assert "(BTN_UNDO)" in msg and "GPIO20 is already used by BTN_ROLL" in msg


def test_adc_function_on_gpio5_is_rejected():
    msg = reject(pins=edit_row(PINS, "MUX_ADC", "gpio", 5))
    assert "(MUX_ADC)" in msg and "GPIO5 cannot do ADC0" in msg and "GPIO26" in msg


def test_function_with_wrong_kind_of_capability_is_rejected():
    msg = reject(pins=edit_row(edit_row(PINS, "MUX_ADC", "gpio", 5), "MUX_ADC", "capability", "SIO"))
    assert "(MUX_ADC)" in msg and "needs ADC" in msg
    msg = reject(pins=edit_row(PINS, "LED_DATA", "capability", "SIO"))
    assert "(LED_DATA)" in msg and "needs PIO" in msg


def test_spi_pins_must_match_the_rp2040_table():
    # GPIO17 is SPI0 CSn, not SCK.
    pins = edit_row(edit_row(PINS, "SR_LOAD", "gpio", 15), "SR_CLK", "gpio", 17)
    msg = reject(pins=pins)
    assert "(SR_CLK)" in msg and "GPIO17 cannot do SPI0 SCK" in msg
    # SPI1 SCK on GPIO14 is fine for the RP2040, but the chain then mixes two SPI blocks.
    pins = edit_row(edit_row(edit_row(PINS, "MUX_S0", "gpio", 3), "SR_CLK", "gpio", 14),
                    "SR_CLK", "capability", "SPI1 SCK")
    pins = edit_row(pins, "MUX_S0", "gpio", 10)
    assert "one SPI block" in reject(pins=pins)


def test_pio_read_chain_needs_no_spi():
    pins = edit_row(edit_row(PINS, "SR_CLK", "capability", "PIO"), "SR_DATA", "capability", "PIO")
    pins = drop_row(pins, "SR_MOSI")
    cfg = csvcheck.from_texts(pins, POSITIONS, SETTINGS)
    assert cfg.spi_id() is None
    assert "SR_SPI = -1" in codegen.generate(cfg)


def test_internal_and_unknown_pins_are_rejected():
    msg = reject(pins=edit_row(PINS, "BTN_ROLL", "gpio", 25))
    assert "(BTN_ROLL)" in msg and "not on the Pico's header" in msg
    msg = reject(pins=edit_row(PINS, "BTN_ROLL", "function", "BTN_ROL"))
    assert "unknown function 'BTN_ROL'" in msg
    msg = reject(pins=drop_row(PINS, "BTN_UNDO"))
    assert "no row for BTN_UNDO" in msg


@pytest.mark.parametrize("pin,caps", [
    (0, {"SPI0 RX", "UART0 TX", "I2C0 SDA", "PWM0 A"}),
    (13, {"SPI1 CSn", "UART0 RX", "I2C0 SCL", "PWM6 B"}),
    (15, {"SPI1 TX", "UART0 RTS", "I2C1 SCL", "PWM7 B"}),
    (16, {"SPI0 RX", "UART0 TX", "I2C0 SDA", "PWM0 A"}),
    (21, {"SPI0 CSn", "UART1 RX", "I2C0 SCL", "PWM2 B"}),
    (26, {"SPI1 SCK", "UART1 CTS", "I2C1 SDA", "PWM5 A", "ADC0"}),
    (28, {"SPI1 RX", "UART0 TX", "I2C0 SDA", "PWM6 A", "ADC2"}),
])
def test_rp2040_function_table(pin, caps):
    have = gpio.gpio_capabilities(pin)
    assert caps <= have
    assert not any(c.startswith("ADC") for c in have) or pin >= 26


# --- settings and the power budget ----------------------------------------------------

def test_default_budget_matches_power_md():
    with open(os.path.join(HW, "power.md"), encoding="utf-8") as f:
        doc = f.read()
    m = re.search(r"Default LED budget: (\d+) mA", doc)
    assert m, "hardware/power.md must state 'Default LED budget: N mA'"
    assert int(m.group(1)) == power.DEFAULT_LED_BUDGET_MA
    assert csvcheck.load(HW).settings["led_budget_ma"] == power.DEFAULT_LED_BUDGET_MA
    analog = power.led_budget_limit_ma("analog", "usb")
    assert "%d mA" % analog in doc


def test_budget_above_usb_limit_is_rejected_until_external_supply():
    settings = edit_row(SETTINGS, "led_budget_ma", "value", 1500)
    msg = reject(settings=settings)
    assert "led_budget_ma" in msg and "external" in msg
    settings = edit_row(edit_row(settings, "power_source", "value", "external"),
                        "external_supply_ma", "value", 3000)
    cfg = csvcheck.from_texts(PINS, POSITIONS, settings)
    assert "LED_BUDGET_MA = 1500" in codegen.generate(cfg)
    analog = edit_row(SETTINGS, "sensor_build", "value", "analog")
    assert "analog build" in reject(settings=analog)


# --- wiring lists and bill of materials -----------------------------------------------

def test_wiring_lists_name_every_position_once_per_build():
    text = wiring.wiring_text(csvcheck.load(HW))
    chain = text.split("Digital build")[1].split("Analog build")[0]
    muxes = text.split("Analog build")[1].split("LED chain")[0]
    leds = text.split("LED chain")[1]
    for name in names.POSITION_NAMES:
        assert len(re.findall(r"=%s \(" % name, chain)) == 1, name
        assert len(re.findall(r"=%s \(" % name, muxes)) == 1, name
        assert len(re.findall(r":%s(\s|$)" % re.escape(name), leds)) == 1, name


def test_bom_lists_both_sensor_builds():
    import csv
    with open(os.path.join(HW, "bom.csv"), newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert set(rows[0]) >= {"part", "manufacturer_part_number", "quantity", "unit_price_eur",
                            "build", "purpose"}
    qty = {}
    for r in rows:
        assert r["build"] in ("both", "digital", "digital-reed", "digital-hall", "analog"), r
        assert int(r["quantity"]) > 0 and float(r["unit_price_eur"]) >= 0 and r["purpose"], r
        qty[r["manufacturer_part_number"]] = qty.get(r["manufacturer_part_number"], 0) + int(r["quantity"])
    assert qty["SC0915"] == 1
    assert qty["WS2812B-V5"] == names.LED_COUNT
    assert qty["SN74HC165N"] == names.SR_CHIPS
    assert qty["CD74HC4067E"] == names.MUX_COUNT
    for sensor in ("MDSR-7-10-15", "DRV5032FCDBZR", "DRV5053PAQDBZR"):
        assert qty[sensor] == len(names.POSITION_NAMES)
