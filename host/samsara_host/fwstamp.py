"""What names a build of the firmware: the version stamp of `boardcore/version.py`, the
hash of a bundle, and what a UF2 image file says of itself (docs/firmware.md "The
firmware image", docs/protocol.md "Versions").

One definition for the three builders: `tools/build_image.py` (`make uf2`, the image),
`tools/build_firmware.py` (`make firmware`, the bundle) and `samsara deploy` (the
bundle it copies), and for the host's checks (`samsara flash`, `deploy`, `doctor`).

    stamp(text, digest, kind) -> text     version.py with HASH, KIND and TAG set
    bundle_hash(files) -> 12 hex digits   files: [(path with '/', bytes)]
    uf2_blocks(data) -> [(addr, payload, family or None)]
    image_facts(path) -> dict             size, flash range, family, version, image id
"""
import hashlib
import re
import struct

VERSION_MPY = "boardcore/version.mpy"
"""The bundle's version module: it carries the bundle's hash, so it is left out of it."""

KINDS = ("image", "bundle", "source")
"""How the code reached the board: frozen into the image, a bundle of `.mpy` files on
the file system, or the sources themselves (the virtual board)."""

FLASH_BASE = 0x10000000          # where the RP2040 maps its flash (XIP)
FLASH_BYTES = 2 * 1024 * 1024    # the Pico's W25Q16JV
FS_BYTES = 1408 * 1024           # the rp2 port's file system on a Pico (RPI_PICO)
FS_START = FLASH_BYTES - FS_BYTES
"""Flash offset where the file system (and so every game log) begins: an image must
end before it (640 KB)."""
RP2040_FAMILY = 0xE48BFF56       # UF2 family id of the RP2040

_UF2_MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)
_TAG = re.compile(rb"samsara-image ([0-9][0-9A-Za-z.+-]*) ([0-9a-f]{12})\b")


def stamp(text, digest, kind):
    """`text` (the source of boardcore/version.py) with `HASH = digest`, `KIND = kind`
    and `TAG = "samsara-image <VERSION> <digest>"`.  Raises ValueError when a line to
    stamp is missing or `kind` is not one of KINDS."""
    if kind not in KINDS:
        raise ValueError("kind must be one of %s, not %r" % (", ".join(KINDS), kind))
    m = re.search(r'(?m)^VERSION = "([^"]+)"$', text)
    if not m:
        raise ValueError("firmware/boardcore/version.py has no `VERSION = \"...\"` line")
    for key, value in (("HASH", digest), ("KIND", kind),
                       ("TAG", "samsara-image %s %s" % (m.group(1), digest))):
        text, n = re.subn(r'(?m)^%s = .*$' % key, '%s = "%s"' % (key, value), text)
        if n != 1:
            raise ValueError("firmware/boardcore/version.py needs one `%s = ...` line to stamp"
                             % key)
    return text


def bundle_hash(files):
    """12 hex digits naming a bundle: SHA-256 over each file's path and SHA-256, sorted
    by path, boardcore/version.mpy (which carries this hash) left out.  `files`:
    (relative path with '/', bytes) pairs."""
    h = hashlib.sha256()
    for path, data in sorted(files):
        if path != VERSION_MPY:
            h.update(path.encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()[:12]


def uf2_blocks(data):
    """The blocks of a UF2 file as (target address, payload bytes, family id or None).
    Each 512-byte block starts with the magic words 0x0A324655 0x9E5D5157 and ends with
    0x0AB16F30 (the UF2 specification).  Raises ValueError when `data` is not a whole
    UF2 file (a cut copy, another kind of file)."""
    if not data:
        raise ValueError("not a UF2 image: the file is empty")
    if len(data) % 512:
        raise ValueError("not a whole UF2 image: %d bytes is not a whole number of "
                         "512-byte blocks (a cut copy?)" % len(data))
    out = []
    total = None
    for off in range(0, len(data), 512):
        m0, m1, flags, addr, size, _no, n, fam = struct.unpack_from("<8I", data, off)
        (m2,) = struct.unpack_from("<I", data, off + 508)
        if (m0, m1, m2) != _UF2_MAGIC:
            raise ValueError("not a UF2 image: block %d has no UF2 magic" % (off // 512))
        if size > 476:
            raise ValueError("not a UF2 image: block %d says %d payload bytes"
                             % (off // 512, size))
        total = n if total is None else total
        out.append((addr, bytes(data[off + 32:off + 32 + size]),
                    fam if flags & 0x2000 else None))
    if total != len(out):
        raise ValueError("not a whole UF2 image: %d of its %d blocks (a cut copy?)"
                         % (len(out), total))
    return out


def image_facts(path):
    """What the UF2 image at `path` says of itself: `bytes` (flash it programs),
    `start`/`end` (flash offsets of its first and after its last byte), `family` (UF2
    family id, None when mixed or absent), `version` and `image_id` (from the TAG
    stamped in its frozen version module; None in an image without one, such as stock
    MicroPython), `sha256` (of the file).  Raises ValueError for a file that is not a
    whole UF2 image, OSError when it cannot be read."""
    with open(path, "rb") as f:
        data = f.read()
    blocks = uf2_blocks(data)
    lo = min(a for a, _p, _f in blocks)
    hi = max(a + len(p) for a, p, _f in blocks)
    if lo < FLASH_BASE or hi > FLASH_BASE + FLASH_BYTES:
        raise ValueError("not a Pico image: it writes outside the Pico's 2 MB of flash "
                         "(0x%08x..0x%08x)" % (lo, hi))
    fams = set(f for _a, _p, f in blocks)
    flat = bytearray(hi - lo)
    for a, p, _f in blocks:
        flat[a - lo:a - lo + len(p)] = p
    m = _TAG.search(bytes(flat))
    return {"bytes": sum(len(p) for _a, p, _f in blocks), "start": lo - FLASH_BASE,
            "end": hi - FLASH_BASE, "family": fams.pop() if len(fams) == 1 else None,
            "version": m.group(1).decode() if m else None,
            "image_id": m.group(2).decode() if m else None,
            "sha256": hashlib.sha256(data).hexdigest()}
