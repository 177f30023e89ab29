"""A Pico in BOOTSEL mode as the host sees it, for `samsara flash`'s tests: the RPI-RP2
drive (a folder with INFO_UF2.TXT and INDEX.HTM, as the RP2040's ROM bootloader shows
it) and a watcher that takes a whole UF2 image copied onto it the way the bootloader
does: the drive goes away and the board restarts (`on_image(path)` is called with a
copy of the image it took).  A cut copy (a UF2 that is not whole) is not taken: the
drive stays, as a Pico waits in its bootloader for the rest.

    drive = make_drive(folder)                      # RPI-RP2, Board-ID RPI-RP2
    make_drive(folder, board_id="SAMD21G18A-Feather-v0")   # another board's bootloader
    pico = BootselPico(drive, on_image=fn)          # a thread; pico.stop()
    uf2 = make_uf2(payload, addr=0x10000000)        # a small image of our own
"""
import os
import shutil
import struct
import threading
import time

INFO = "UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: %s\n"
INDEX = "<html><head><meta http-equiv=\"refresh\" content=\"0;URL='https://raspberrypi.com/device/RP2'\"/></head></html>\n"
RP2040_FAMILY = 0xE48BFF56


def make_drive(folder, board_id="RPI-RP2"):
    """Make `folder` a UF2 bootloader drive with `board_id`; returns the folder."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "INFO_UF2.TXT"), "w") as f:
        f.write(INFO % board_id)
    with open(os.path.join(folder, "INDEX.HTM"), "w") as f:
        f.write(INDEX)
    return folder


def make_uf2(payload, addr=0x10000000, family=RP2040_FAMILY):
    """A UF2 file (bytes) writing `payload` at `addr` in 256-byte blocks."""
    chunks = [payload[i:i + 256] for i in range(0, len(payload), 256)] or [b""]
    out = bytearray()
    for n, chunk in enumerate(chunks):
        block = struct.pack("<8I", 0x0A324655, 0x9E5D5157, 0x2000, addr + 256 * n, 256, n,
                            len(chunks), family)
        block += chunk.ljust(476, b"\0") + struct.pack("<I", 0x0AB16F30)
        out += block
    return bytes(out)


def whole_uf2(data):
    """True when `data` is a UF2 file with all the blocks its blocks announce."""
    if not data or len(data) % 512:
        return False
    n_blocks = struct.unpack_from("<I", data, 24)[0]
    return len(data) // 512 == n_blocks


class BootselPico(threading.Thread):
    """Watches `drive` for a .uf2 file; once one is whole and has not grown for
    `settle_s`, it takes it: copies it to `taken/` beside the drive, removes the drive
    (the Pico restarts) and calls on_image(copy).  `taken` lists the copies."""

    def __init__(self, drive, on_image=None, settle_s=0.3):
        threading.Thread.__init__(self, daemon=True)
        self.drive = drive
        self.on_image = on_image
        self.settle_s = settle_s
        self.taken = []
        self.errors = []
        self._halt = threading.Event()
        self.start()

    def run(self):
        seen = {}
        while not self._halt.is_set():
            try:
                names = [n for n in os.listdir(self.drive) if n.lower().endswith(".uf2")]
            except OSError:
                names = []
            for n in names:
                path = os.path.join(self.drive, n)
                try:
                    size = os.path.getsize(path)
                except OSError:
                    continue
                last = seen.get(n)
                now = time.monotonic()
                if last is None or last[0] != size:
                    seen[n] = (size, now)
                    continue
                if now - last[1] < self.settle_s:
                    continue
                with open(path, "rb") as f:
                    data = f.read()
                if not whole_uf2(data):
                    continue            # a cut copy: the bootloader waits for the rest
                keep = os.path.join(os.path.dirname(self.drive.rstrip("/")), "taken")
                os.makedirs(keep, exist_ok=True)
                copy = os.path.join(keep, "%d-%s" % (len(self.taken), n))
                with open(copy, "wb") as f:
                    f.write(data)
                self.taken.append(copy)
                shutil.rmtree(self.drive, ignore_errors=True)   # the Pico restarts
                seen.clear()
                if self.on_image:
                    try:
                        self.on_image(copy)
                    except Exception as e:      # reported by the test, not lost
                        self.errors.append(e)
            time.sleep(0.05)

    def stop(self):
        self._halt.set()
        self.join(5)
