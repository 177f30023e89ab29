"""Samsara's firmware bundle and image hold Samsara's firmware only: the other games'
packages under firmware/ (tools/build_firmware.OTHER_GAMES: firmware/samas/,
firmware/schaska/) are left out of the bundle's sources, the image's frozen tree and the
firmware benchmark's import list, while the compile check still covers every file."""
import os

from tools import build_firmware, build_image, bench_firmware

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")


def _all_py():
    out = []
    for root, dirs, names in os.walk(FIRMWARE):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        out += [os.path.relpath(os.path.join(root, n), FIRMWARE).replace(os.sep, "/")
                for n in names if n.endswith(".py")]
    return sorted(out)


def test_the_other_games_are_under_firmware():
    for game in build_firmware.OTHER_GAMES:
        assert os.path.isfile(os.path.join(FIRMWARE, game, "rules", "game.py")), game


def test_the_bundle_and_the_image_leave_the_other_games_out_and_nothing_else():
    every = _all_py()
    others = [r for r in every if r.split("/")[0] in build_firmware.OTHER_GAMES]
    assert len(others) >= 9
    bundle = [r.replace(os.sep, "/") for r in build_firmware.sources(FIRMWARE)]
    assert bundle == [r for r in every if r not in others]
    frozen = build_image.frozen_sources(FIRMWARE)
    assert frozen == [r for r in every if r not in others and r not in build_image.ON_FS]


def test_the_benchmarks_import_list_leaves_the_other_games_out():
    order = bench_firmware.import_order(FIRMWARE)
    assert "samsara.rules.moves" in order
    assert not [m for m in order if m.split(".")[0] in build_firmware.OTHER_GAMES]
