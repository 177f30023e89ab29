"""The power model: how much LED current a supply leaves (hardware/power.md).

hardware/power.md shows the same arithmetic; tests/test_hwconfig.py keeps the two in
step.  Currents in mA.
"""
import math

from samsara_hw.names import LED_COUNT

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
