"""`make uf2`: the Samsara firmware image, built from MicroPython's own source with every
firmware module frozen into flash (docs/firmware.md "The firmware image"); `--game samas`
or `--game schaska` builds that game's image instead (its modules only: the board core
every game shares, the scan loop, the drivers, its own package; docs/samas.md,
docs/schaska.md "Its firmware").

    python -m tools.build_image [--game G] [--kit DIR] [--out DIR] [--jobs N] [--no-cache]

Steps, each printed as it runs:

1. **Kit.** MicroPython's source (v1.22.2, the rp2 port, pico-sdk, TinyUSB,
   micropython-lib) comes from the kit that `MICROPY_KIT` names (default
   `../shared/micropython-kit` beside the checkout); its `src/` is copied once into
   `build/micropython/` (the kit is read-only where it is shared, the build writes into
   its tree).
2. **mpy-cross** from that same source (`build/micropython/mpy-cross/build/mpy-cross`),
   so the compiler of the frozen code and of anything still compiled outside the image
   (`make firmware`'s bundle) cannot drift from the MicroPython the board runs.
3. **Frozen tree.** Every firmware module except `main.py` and `boot.py` is copied to
   `build/image/frozen/`, and `boardcore/version.py` is stamped with `HASH` = the image id
   (`image_id`: 12 hex digits of SHA-256 over the frozen files, the manifest, the kit's
   version and this script's build settings) and `KIND = "image"`; the image's `hello`
   names both, so `samsara flash` can check that a board runs the image it copied.
4. **Image.** The rp2 port's linker script with the parser in flash (`link_script`:
   the stock port keeps `parse.c` in RAM beside the VM and the collector; on the board
   nothing is compiled but at the REPL, and its 3.2 KB of RAM, with the collector's
   debug dumps, go to the heap), then
   the rp2 port's Makefile, board `RPI_PICO`, with `FROZEN_MANIFEST` =
   `build/image/manifest.py` (the stock image's frozen modules plus ours), in a build
   folder of its own. `SOURCE_DATE_EPOCH` is fixed (the kit's release day) and source
   paths are mapped away (`-ffile-prefix-map`), so the same checkout gives the same
   bytes wherever it is built.
5. **Output.** `build/firmware/samsara-<version>-rpi_pico.uf2` and beside it
   `build/firmware/fs/` (what the board's file system holds next to the image:
   `main.py` and `boot.py`); a game's in `build/firmware-<game>/`
   (`<game>-<version>-rpi_pico.uf2`, its `fs/` with the `main.py` that boots the game,
   tools/build_firmware.GAME_MAIN); a line with the image's size in flash, the flash left
   for the file system (and so for game logs), the image id and SHA-256 of the file.

A finished image is kept in a cache (`SAMSARA_IMAGE_CACHE`, default
`~/.cache/samsara/images`) under its image id: an unchanged checkout is not rebuilt,
also from a fresh clone.  `--no-cache` builds anyway.

Exit codes: 0 built (or taken from the cache), 1 the build failed (the tail of its
output is printed), 2 no kit, or no ARM toolchain (`arm-none-eabi-gcc`: Debian's
`gcc-arm-none-eabi` and `libnewlib-arm-none-eabi`; `.ci/run` installs them).
"""
import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "host"))
from samsara_host import fwstamp  # noqa: E402
# the checkout's root, so that `tools` imports as a package whether this runs as a
# script or a module (its folder itself on the path would shadow test helpers' names)
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)
from tools.build_firmware import NOT_SAMSARA, OTHER_GAMES, GAME_MAIN, game_sources  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "firmware")
BUILD = os.path.join(ROOT, "build")
TREE = os.path.join(BUILD, "micropython")       # the writable copy of the kit's src/
STAGE = os.path.join(BUILD, "image")            # frozen tree and manifest
OUT = os.path.join(BUILD, "firmware")           # the .uf2 and fs/
BOARD = "RPI_PICO"
PORT_BUILD = "build-samsara"                    # the rp2 build folder inside TREE/ports/rp2
ON_FS = ("main.py", "boot.py")
"""Firmware files the board's file system holds beside the image: MicroPython runs
/boot.py and /main.py from the file system only.  Both are one import away from frozen
code."""
MICROPY_VERSION = "v1.22.2"
SOURCE_DATE_EPOCH = "1706486400"                # 2024-01-29, the day v1.22.2 was released
NATIVE = ("samsara/rules/moves.py", "samsara/reading.py")
"""Frozen modules compiled to ARMv6-M machine code (`mpy-cross -X emit=native`, the kit's
own mpy-cross) instead of bytecode: the rules engine's sub-move generation, which a
lift's targets and a placement's reading run on the scan loop (docs/performance.md).
Its source is the same file the tests run; only the image holds it as machine code."""
BUILD_SETTINGS = "v5 file-prefix-map; frozen opt 0; parser in flash; native %s" % ",".join(NATIVE)
"""Changes whenever this script changes how an image is made (part of the image id)."""


def kit_dir():
    """The kit folder: MICROPY_KIT, default ../shared/micropython-kit beside the checkout."""
    d = os.environ.get("MICROPY_KIT") or os.path.join(ROOT, "..", "shared", "micropython-kit")
    return os.path.abspath(d)


def version():
    """The firmware version of boardcore/version.py (`VERSION = "x.y.z"`)."""
    with open(os.path.join(SRC, "boardcore", "version.py")) as f:
        m = re.search(r'(?m)^VERSION = "([^"]+)"', f.read())
    if not m:
        raise RuntimeError("firmware/boardcore/version.py has no VERSION line")
    return m.group(1)


def image_name(ver=None, game=None):
    """<game>-<version>-rpi_pico.uf2 (game None: samsara)"""
    return "%s-%s-rpi_pico.uf2" % (game or "samsara", ver or version())


def out_dir(game=None):
    """The default output folder: build/firmware (Samsara's), build/firmware-<game>."""
    return OUT if game is None else OUT + "-" + game


def stage_dir_of(game=None):
    """The staging folder: build/image (Samsara's), build/image-<game>."""
    return STAGE if game is None else STAGE + "-" + game


def native_of(game=None):
    """The modules frozen as machine code: NATIVE for Samsara's image, none for a game's."""
    return NATIVE if game is None else ()


def frozen_sources(src=SRC, game=None):
    """Relative paths (with '/') of the firmware modules frozen into the image: every .py
    under `src` except ON_FS and the other games' packages and what only they share
    (NOT_SAMSARA), sorted.  game: "samas" or "schaska" for that game's image: the modules
    its boot imports (tools/build_firmware.game_sources) except ON_FS.  ValueError for
    another game."""
    if game is not None:
        return sorted(r.replace(os.sep, "/") for r in game_sources(game, src)
                      if r.replace(os.sep, "/") not in ON_FS)
    found = []
    for root, dirs, names in os.walk(src):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not (
            d in NOT_SAMSARA and os.path.samefile(root, src)))
        for n in sorted(names):
            if n.endswith(".py"):
                rel = os.path.relpath(os.path.join(root, n), src).replace(os.sep, "/")
                if rel not in ON_FS:
                    found.append(rel)
    return sorted(found)


def manifest_text(frozen, native=None, game=None):
    """The MicroPython manifest (docs: "MicroPython manifest files") freezing the stock
    image's modules and every package and top-level module of the frozen tree
    `frozen` (an absolute folder).  Paths are made relative through `$(MPY_DIR)`-free
    absolute base paths only at build time; the text itself is what goes into the
    image id."""
    lines = ['# Generated by tools/build_image.py: the stock rp2 image plus the Samsara firmware.',
             'include("$(PORT_DIR)/boards/manifest.py")']
    for name in sorted(os.listdir(frozen)):
        full = os.path.join(frozen, name)
        if os.path.isdir(full):
            lines.append('package("%s", base_path="%s")' % (name, frozen))
        elif name.endswith(".py"):
            lines.append('module("%s", base_path="%s")' % (name, frozen))
    if native and native_of(game):
        mpys = tuple(rel[:-3] + ".mpy" for rel in native_of(game))
        lines.append('freeze_mpy("%s", %r)' % (native, mpys))
    return "\n".join(lines) + "\n"


def stage(src=SRC, stage_dir=STAGE, game=None):
    """Copy the frozen modules of `game`'s image (None: Samsara's) into
    `stage_dir`/frozen, stamp version.py, write the manifest; returns the image id (12
    hex digits; the game is part of it)."""
    frozen = os.path.join(stage_dir, "frozen")
    if os.path.isdir(stage_dir):
        shutil.rmtree(stage_dir)
    os.makedirs(frozen)
    h = hashlib.sha256()
    h.update(("%s image|%s|%s|%s\n" % (game or "samsara", MICROPY_VERSION, BOARD,
                                       BUILD_SETTINGS)).encode())
    native_rels = native_of(game)
    rels = frozen_sources(src, game)
    for rel in rels:
        with open(os.path.join(src, rel), "rb") as f:
            data = f.read()
        if rel != "boardcore/version.py":
            h.update(rel.encode() + b"\0" + hashlib.sha256(data).digest())
        if rel in native_rels:
            dst = os.path.join(stage_dir, "native-src", *rel.split("/"))
        else:
            dst = os.path.join(frozen, *rel.split("/"))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "wb") as f:
            f.write(data)
    with open(os.path.join(src, "boardcore", "version.py")) as f:
        vtext = f.read()
    h.update(b"version.py\0" + hashlib.sha256(vtext.encode()).digest())
    native = os.path.join(stage_dir, "native")
    manifest = manifest_text(frozen, native, game)
    # the manifest names the same packages wherever the checkout is: hash its shape
    h.update(manifest.replace(frozen, "FROZEN").replace(native, "NATIVE").encode())
    image_id = h.hexdigest()[:12]
    vtext = fwstamp.stamp(vtext, image_id, "image")
    with open(os.path.join(frozen, "boardcore", "version.py"), "w") as f:
        f.write(vtext)
    with open(os.path.join(stage_dir, "manifest.py"), "w") as f:
        f.write(manifest)
    return image_id


def say(msg):
    print(msg, flush=True)


def run(cmd, log, env=None, cwd=None):
    """Run `cmd`, its output appended to the file `log`; raises RuntimeError with the
    tail of the log when it fails."""
    with open(log, "a") as f:
        f.write("$ %s\n" % " ".join(cmd))
        f.flush()
        r = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env, cwd=cwd)
    if r.returncode != 0:
        with open(log) as f:
            tail = f.read().splitlines()[-25:]
        raise RuntimeError("%s failed (exit %d); the end of %s:\n%s"
                           % (cmd[0] if cmd[0] != "make" else "make " + cmd[2],
                              r.returncode, os.path.relpath(log, ROOT), "\n".join(tail)))


def copy_kit(kit):
    """The writable copy of the kit's src/ in TREE (copied again when the kit changed)."""
    stamp = os.path.join(TREE, ".kit")
    kit_id = "%s %s" % (kit, os.path.getmtime(os.path.join(kit, "src", "py", "mpconfig.h")))
    if os.path.isfile(stamp):
        with open(stamp) as f:
            if f.read() == kit_id:
                return False
    if os.path.isdir(TREE):
        shutil.rmtree(TREE)
    say("copying MicroPython's source from the kit (about 34 MB) ...")
    shutil.copytree(os.path.join(kit, "src"), TREE, symlinks=True)
    for root, dirs, names in os.walk(TREE):
        for n in dirs + names:
            p = os.path.join(root, n)
            if not os.path.islink(p):
                os.chmod(p, os.stat(p).st_mode | 0o200)
    with open(stamp, "w") as f:
        f.write(kit_id)
    return True


def build_env():
    """The environment of a reproducible build: the version named, the date fixed, the
    build folder's path kept out of the binary."""
    env = dict(os.environ)
    env["MICROPY_GIT_TAG"] = MICROPY_VERSION
    env["SOURCE_DATE_EPOCH"] = SOURCE_DATE_EPOCH
    env["LC_ALL"] = "C"
    env.pop("MAKEFLAGS", None)
    env.pop("MFLAGS", None)
    env.pop("MAKELEVEL", None)
    return env


def mpy_cross_path():
    return os.path.join(TREE, "mpy-cross", "build", "mpy-cross")


def build_mpy_cross(jobs, log):
    """mpy-cross from the kit's source; returns its path."""
    path = mpy_cross_path()
    if not os.path.isfile(path):
        say("building mpy-cross %s from the kit (about 40 s) ..." % MICROPY_VERSION)
        run(["make", "-C", os.path.join(TREE, "mpy-cross"), "-j%d" % jobs], log, env=build_env())
    return path


STOCK_RAM_CODE = "*gc.c.obj *vm.c.obj *parse.c.obj) .text*)"
"""The stock rp2 linker script's list of the files whose code runs from RAM."""
FLASH_FROM_RAM = ("        /* Samsara's image (tools/build_image.py): the parser and the collector's\n"
                  "         * debug dumps run from flash: their RAM goes to the heap */\n"
                  "        *gc.c.obj(.text.gc_dump_alloc_table .text.gc_dump_info .text.gc_info)\n")


def link_script(stock):
    """The rp2 port's linker script (memmap_mp.ld) for our image, from the stock one's
    text: `parse.c` no longer among the files whose code is copied to RAM (MicroPython
    parses only at the REPL on the board), and the collector's debug dumps (gc_info,
    gc_dump_info, gc_dump_alloc_table) placed in flash ahead of the rule that keeps the
    rest of gc.c in RAM.  Raises RuntimeError when the stock script does not read as
    expected (another kit: look again before building)."""
    i = stock.find(STOCK_RAM_CODE)
    if i < 0 or stock.count(STOCK_RAM_CODE) != 1:
        raise RuntimeError("the kit's rp2 memmap_mp.ld has no single %r" % STOCK_RAM_CODE)
    line = stock.rfind("\n", 0, i) + 1
    ours = stock[:i] + "*gc.c.obj *vm.c.obj) .text*)" + stock[i + len(STOCK_RAM_CODE):]
    return ours[:line] + FLASH_FROM_RAM + ours[line:]


def write_link_script(kit):
    """TREE's memmap_mp.ld made from the kit's own (link_script), every build."""
    with open(os.path.join(kit, "src", "ports", "rp2", "memmap_mp.ld")) as f:
        text = link_script(f.read())
    with open(os.path.join(TREE, "ports", "rp2", "memmap_mp.ld"), "w") as f:
        f.write(text)


def compile_native(mpy_cross, log, stage_dir=STAGE, game=None):
    """The NATIVE modules staged by stage() compiled to machine code for the Cortex-M0+
    (`-march=armv6m -X emit=native`) into `stage_dir`/native, which the manifest
    freezes with freeze_mpy (none for a game's image).  Raises RuntimeError when mpy-cross
    fails."""
    for rel in native_of(game):
        src = os.path.join(stage_dir, "native-src", *rel.split("/"))
        dst = os.path.join(stage_dir, "native", *rel[:-3].split("/")) + ".mpy"
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        run([mpy_cross, "-march=armv6m", "-X", "emit=native", "-s", rel, "-o", dst, src], log)


def build_port(jobs, log, game=None):
    """The rp2 port with `game`'s manifest (None: Samsara's) in a build folder of its own;
    returns the path of its firmware.uf2."""
    port = os.path.join(TREE, "ports", "rp2")
    pbuild = PORT_BUILD if game is None else "build-" + game
    stage_dir = stage_dir_of(game)
    bdir = os.path.join(port, pbuild)
    if os.path.isdir(bdir):
        shutil.rmtree(bdir)      # cmake reads the manifest's file list once per folder
    prefix = "-ffile-prefix-map=%s=micropython -ffile-prefix-map=%s=image" % (TREE, stage_dir)
    env = build_env()
    env["CFLAGS"] = prefix       # cmake adds these to the toolchain's own flags
    env["ASMFLAGS"] = prefix
    say("building the rp2 image (board %s) with the firmware frozen in (about 2-3 min) ..." % BOARD)
    run(["make", "-C", port, "BOARD=%s" % BOARD, "BUILD=%s" % pbuild,
         "FROZEN_MANIFEST=%s" % os.path.join(stage_dir, "manifest.py"), "-j%d" % jobs],
        log, env=env)
    return os.path.join(bdir, "firmware.uf2")


def cache_dir():
    d = os.environ.get("SAMSARA_IMAGE_CACHE") or os.path.join(
        os.path.expanduser("~"), ".cache", "samsara", "images")
    return d


def write_fs(out, game=None):
    """`out`/fs/: main.py and boot.py as the board's file system holds them (a game's
    main.py boots the game: tools/build_firmware.GAME_MAIN)."""
    fs = os.path.join(out, "fs")
    if os.path.isdir(fs):
        shutil.rmtree(fs)
    os.makedirs(fs)
    for name in ON_FS:
        if game is not None and name == "main.py":
            with open(os.path.join(fs, name), "w") as f:
                f.write(GAME_MAIN % (game.capitalize(), game, game))
        else:
            shutil.copyfile(os.path.join(SRC, name), os.path.join(fs, name))
    return fs


def describe(path, image_id):
    facts = fwstamp.image_facts(path)
    fs_start = fwstamp.FS_START
    lines = [
        "image %s" % os.path.relpath(path, ROOT),
        "  image id %s (what `hello` reports as hash), sha256 %s..." % (image_id, facts["sha256"][:16]),
        "  flash: image %.1f KB of the %d KB before the file system (%.1f KB free); "
        "file system %d KB for game logs and settings" % (
            facts["end"] / 1024.0, fs_start // 1024, (fs_start - facts["end"]) / 1024.0,
            fwstamp.FS_BYTES // 1024),
    ]
    return lines, facts


def main(argv=None):
    ap = argparse.ArgumentParser(prog="build_image", description=__doc__.split("\n\n")[0])
    ap.add_argument("--kit", help="MicroPython kit folder (default: MICROPY_KIT or ../shared/micropython-kit)")
    ap.add_argument("--game", choices=("samsara",) + OTHER_GAMES, default="samsara",
                    help="the game whose image to build (default samsara)")
    ap.add_argument("--out", help="output folder (default build/firmware, a game's "
                    "build/firmware-<game>)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--no-cache", action="store_true", help="build even when the cache has this image")
    ap.add_argument("--mpy-cross-only", action="store_true",
                    help="only build the kit's mpy-cross and print its path")
    ap.add_argument("--install", metavar="PATH",
                    help="with --mpy-cross-only: copy it to PATH (make: .venv/bin/mpy-cross)")
    a = ap.parse_args(argv)
    kit = os.path.abspath(a.kit) if a.kit else kit_dir()
    if not os.path.isfile(os.path.join(kit, "src", "py", "mpconfig.h")):
        print("no MicroPython kit at %s: set MICROPY_KIT to the folder holding src/ "
              "(docs/firmware.md \"The firmware image\")" % kit)
        return 2
    log = os.path.join(BUILD, "image-build.log")
    os.makedirs(BUILD, exist_ok=True)
    t0 = time.time()
    if a.mpy_cross_only:
        try:
            copy_kit(kit)
            path = build_mpy_cross(a.jobs, log)
        except RuntimeError as e:
            print(e)
            return 1
        if a.install:
            if os.path.lexists(a.install):
                os.remove(a.install)
            shutil.copy2(path, a.install)
            say("mpy-cross %s from the kit: %s" % (MICROPY_VERSION, a.install))
        else:
            print(path)
        return 0
    if shutil.which("arm-none-eabi-gcc") is None:
        print("no ARM toolchain (arm-none-eabi-gcc): apt-get install gcc-arm-none-eabi "
              "libnewlib-arm-none-eabi (docs/firmware.md \"The firmware image\")")
        return 2
    game = None if a.game == "samsara" else a.game
    a.out = a.out or out_dir(game)
    image_id = stage(SRC, stage_dir_of(game), game)
    name = image_name(game=game)
    os.makedirs(a.out, exist_ok=True)
    dst = os.path.join(a.out, name)
    for old in os.listdir(a.out):
        if old.endswith(".uf2") and old != name:
            os.remove(os.path.join(a.out, old))
    cached = os.path.join(cache_dir(), image_id + ".uf2")
    if not a.no_cache and os.path.isfile(cached):
        shutil.copyfile(cached, dst)
        say("image %s unchanged: taken from the cache" % image_id)
    else:
        if os.path.exists(log):
            os.remove(log)
        try:
            copy_kit(kit)
            compile_native(build_mpy_cross(a.jobs, log), log, stage_dir_of(game), game)
            write_link_script(kit)
            uf2 = build_port(a.jobs, log, game)
        except RuntimeError as e:
            print(e)
            return 1
        shutil.copyfile(uf2, dst)
        try:
            os.makedirs(cache_dir(), exist_ok=True)
            shutil.copyfile(uf2, cached + ".part")
            os.replace(cached + ".part", cached)
        except OSError:
            pass        # a cache that cannot be written only costs the next build's time
        say("built in %.0f s" % (time.time() - t0))
    write_fs(a.out, game)
    lines, facts = describe(dst, image_id)
    if facts["image_id"] != image_id:
        print("the image does not carry its id %s (found %s): the frozen version module "
              "is missing" % (image_id, facts["image_id"]))
        return 1
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
