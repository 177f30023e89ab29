"""The virtual board's `machine` module: `bootloader()`, the one call of a Pico's
`machine` that the host makes through the REPL (`samsara flash` puts a running board
into BOOTSEL mode with it).  It shadows the Unix port's own `machine`, which the
virtual board does not use (its drivers are simulated: vdrivers.py).

A Pico's `machine.bootloader()` restarts into its ROM bootloader, which shows the
`RPI-RP2` drive.  The virtual board does the same where the environment variable
SAMSARA_VBOARD_BOOTSEL names a folder: it makes that folder the drive (INFO_UF2.TXT and
INDEX.HTM as the RP2040's bootloader writes them) and ends its process, as the Pico's
serial port goes away.  Without it, it raises OSError: a virtual board has no flash to
take an image.
"""

import os
import sys

INFO_UF2 = "UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n"
INDEX_HTM = ("<html><head><meta http-equiv=\"refresh\" content=\"0;URL='https://"
             "raspberrypi.com/device/RP2?version=E0C9125B0D9B'\"/></head>"
             "<body>Redirecting to <a href='https://raspberrypi.com/device/RP2?"
             "version=E0C9125B0D9B'>raspberrypi.com</a></body></html>\n")


def bootloader():
    """Become a BOOTSEL drive (SAMSARA_VBOARD_BOOTSEL) and end the process.  Raises
    OSError when no drive folder is set."""
    drive = os.getenv("SAMSARA_VBOARD_BOOTSEL")
    if not drive:
        raise OSError("a virtual board has no bootloader (set SAMSARA_VBOARD_BOOTSEL to "
                      "simulate one)")
    try:
        os.mkdir(drive)
    except OSError:
        pass
    for name, text in (("INFO_UF2.TXT", INFO_UF2), ("INDEX.HTM", INDEX_HTM)):
        with open(drive + "/" + name, "w") as f:
            f.write(text)
    sys.exit(0)
