"""The LED power limiter: integer scaling into the budget (docs/leds.md "Power budget")."""

import random

import pytest

from boardcore.power import PowerLimiter, estimate_ma
from samsara.config import DEFAULT_BUDGET_MA


def test_full_white_pixel_is_60_ma_and_channels_are_proportional():
    px = bytearray([255, 255, 255])
    assert estimate_ma(px) == 60
    assert estimate_ma(bytearray([255, 0, 0])) == 20
    assert estimate_ma(bytearray([0, 0, 0])) == 0


def test_all_white_scene_is_scaled_into_the_budget():
    scene = bytearray([255] * 240)
    assert estimate_ma(scene) == 80 * 60
    out = bytearray(240)
    lim = PowerLimiter(250)
    total = lim.limit(scene, out)
    assert total == 255 * 240
    assert estimate_ma(out) <= 250
    assert estimate_ma(out) >= 240            # not scaled more than needed
    assert len(set(out)) == 1                  # every channel scaled alike


def test_scene_within_budget_is_unchanged():
    scene = bytearray(240)
    for i in range(0, 60, 3):
        scene[i] = 80
    out = bytearray(240)
    PowerLimiter(250).limit(scene, out)
    assert out == scene


def test_ratios_between_channels_are_kept():
    scene = bytearray([200, 100, 50] * 80)
    out = bytearray(240)
    PowerLimiter(100).limit(scene, out)
    assert estimate_ma(out) <= 100
    r, g, b = out[0], out[1], out[2]
    assert abs(r - 2 * g) <= 1 and abs(g - 2 * b) <= 1


def test_random_scenes_never_exceed_the_budget():
    rnd = random.Random(1)
    for budget in (0, 1, 60, 250, 1000):
        lim = PowerLimiter(budget)
        for _ in range(50):
            scene = bytearray(rnd.randrange(256) for _ in range(240))
            out = bytearray(240)
            lim.limit(scene, out)
            # the exact estimate (sum * 20 / 255) stays within the budget
            assert sum(out) * 20 <= budget * 255
            assert all(o <= s for o, s in zip(out, scene))


def test_default_budget_is_the_one_of_hardware_power_md():
    import os
    import re
    here = os.path.dirname(os.path.abspath(__file__))
    text = open(os.path.join(here, "..", "hardware", "power.md")).read()
    m = re.search(r"Default LED budget: (\d+) mA", text)
    assert m and int(m.group(1)) == DEFAULT_BUDGET_MA


def test_bad_budget():
    with pytest.raises(ValueError):
        PowerLimiter(-1)


def test_board_limited_scene_follows_the_scene():
    from samsara.core import Board
    from samsara.config import Config
    b = Board(Config(budget_ma=1))
    s1 = b.limited_scene()
    assert sum(s1) * 20 <= 255
    b.scene[0] = 255
    b.scene_sum = -1             # written by hand: the limiter recounts
    b.scene_version += 1
    s2 = b.limited_scene()
    assert sum(s2) * 20 <= 255
