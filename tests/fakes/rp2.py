"""Fake `rp2` module: the parts of the rp2 port this project uses.

bootsel_button() reads bench.bootsel[0] (1 = held).  PIO state machines are not
modelled: the drivers read the 74HC165 chain over machine.SPI (firmware/board/sr165.py);
a PIO driver would bring its own model here (or run under rp2040-pio-emulator).
"""

import bench


def bootsel_button():
    return bench.bootsel[0]
