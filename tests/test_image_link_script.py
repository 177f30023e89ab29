"""The firmware image's linker script (tools/build_image.link_script): the stock rp2
port copies the code of gc.c, vm.c and parse.c to RAM; ours keeps the VM and the
collector there but runs the parser (used only at the REPL on the board) and the
collector's debug dumps from flash, so that their RAM is heap (docs/performance.md)."""
import os
import re

import pytest

from tools import build_image

STOCK = os.path.join(build_image.kit_dir(), "src", "ports", "rp2", "memmap_mp.ld")


def _ram_rule(text):
    return [line for line in text.splitlines() if "EXCLUDE_FILE" in line and ".text*" in line]


@pytest.mark.skipif(not os.path.isfile(STOCK), reason="no MicroPython kit (MICROPY_KIT)")
def test_the_parser_and_the_collectors_dumps_leave_ram_and_nothing_else_changes():
    with open(STOCK) as f:
        stock = f.read()
    ours = build_image.link_script(stock)
    rule = _ram_rule(ours)
    assert len(rule) == 1 and "parse.c.obj" not in rule[0]
    assert "*gc.c.obj" in rule[0] and "*vm.c.obj" in rule[0]
    flash = ours.index("*gc.c.obj(.text.gc_dump_alloc_table")
    assert flash < ours.index(rule[0])                 # first match wins: in .text
    for name in ("gc_dump_alloc_table", "gc_dump_info", "gc_info"):
        assert ".text.%s" % name in ours
    # everything else as it was
    back = ours.replace(build_image.FLASH_FROM_RAM, "").replace(
        "*gc.c.obj *vm.c.obj) .text*)", build_image.STOCK_RAM_CODE)
    assert back == stock


def test_a_stock_script_that_reads_otherwise_is_refused():
    with pytest.raises(RuntimeError, match="memmap_mp.ld"):
        build_image.link_script("SECTIONS { .text : { *(.text*) } }")


@pytest.mark.skipif(not os.path.isfile(os.path.join(build_image.TREE, "ports", "rp2",
                                                     "build-samsara", "firmware.elf.map")),
                    reason="no image built here yet (make uf2)")
def test_the_built_image_runs_the_parser_from_flash():
    path = os.path.join(build_image.TREE, "ports", "rp2", "build-samsara", "firmware.elf.map")
    with open(path) as f:
        m = f.read()
    data = m[m.index("\n.data "):m.index("\n.bss")]
    assert not re.search(r"parse\.c\.obj", data)      # no parser code in RAM
    assert re.search(r"vm\.c\.obj", data)             # the VM still is
