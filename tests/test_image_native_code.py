"""The modules the image freezes as machine code (tools/build_image.NATIVE): staged
apart from the bytecode tree, frozen by the manifest's freeze_mpy line, compiled by the
kit's mpy-cross with the Cortex-M0+ native emitter (docs/firmware.md "Machine code for
the hot paths").  The rig games (tests/test_rig_games.py, tests/test_rig.py) boot the
image and check that the host's replay of every game agrees with what the board read."""
import os
import shutil

import pytest

from tools import build_image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
ARCH_ARMV6M = 4     # MicroPython's MP_NATIVE_ARCH_ARMV6M, in a .mpy header's byte 2 >> 2


def test_the_native_modules_are_firmware_modules_of_the_image():
    frozen = build_image.frozen_sources(FIRMWARE)
    assert build_image.NATIVE
    for rel in build_image.NATIVE:
        assert rel in frozen, rel


def test_the_native_modules_leave_the_bytecode_tree_for_the_manifests_freeze_mpy(tmp_path):
    stage = str(tmp_path / "image")
    build_image.stage(FIRMWARE, stage)
    manifest = open(os.path.join(stage, "manifest.py")).read()
    for rel in build_image.NATIVE:
        assert not os.path.exists(os.path.join(stage, "frozen", *rel.split("/")))
        assert os.path.isfile(os.path.join(stage, "native-src", *rel.split("/")))
        assert repr(rel[:-3] + ".mpy") in manifest
    assert 'freeze_mpy("%s"' % os.path.join(stage, "native") in manifest
    # every other frozen module is still in the bytecode tree
    for rel in build_image.frozen_sources(FIRMWARE):
        if rel not in build_image.NATIVE:
            assert os.path.isfile(os.path.join(stage, "frozen", *rel.split("/"))), rel


def test_the_image_id_changes_with_a_native_modules_source(tmp_path):
    src = tmp_path / "firmware"
    shutil.copytree(FIRMWARE, str(src), ignore=shutil.ignore_patterns("__pycache__"))
    first = build_image.stage(str(src), str(tmp_path / "a"))
    rel = build_image.NATIVE[0]
    with open(os.path.join(str(src), *rel.split("/")), "a") as f:
        f.write("\n# changed\n")
    assert build_image.stage(str(src), str(tmp_path / "b")) != first


@pytest.mark.skipif(not os.path.isfile(build_image.mpy_cross_path()),
                    reason="the kit's mpy-cross is not built here yet (make mpy-cross)")
def test_the_native_modules_compile_to_armv6m_machine_code(tmp_path):
    stage = str(tmp_path / "image")
    build_image.stage(FIRMWARE, stage)
    build_image.compile_native(build_image.mpy_cross_path(), str(tmp_path / "log"), stage)
    for rel in build_image.NATIVE:
        with open(os.path.join(stage, "native", *rel[:-3].split("/")) + ".mpy", "rb") as f:
            head = f.read(4)
        assert head[0:1] == b"M"
        assert head[2] >> 2 == ARCH_ARMV6M, (rel, head)
