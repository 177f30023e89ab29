"""`samsara flash [FILE]`: put the Samsara firmware image on a Pico, as a user does it
(docs/firmware.md "Flashing a board").

1. The image: FILE, default the checkout's `build/firmware/samsara-*-rpi_pico.uf2`
   (`make uf2`).  It must be a whole UF2 image for the RP2040 that ends before the
   file system (flash offset 640 KB), where the game logs live: an image that would
   write there is refused, so flashing never touches a log.
2. The board in BOOTSEL mode: the `RPI-RP2` drive its ROM bootloader shows (a folder
   with `INFO_UF2.TXT`, `Board-ID: RPI-RP2`, and `INDEX.HTM`), found among the mounted
   drives (`SAMSARA_MOUNT_ROOTS`, else /media/USER, /run/media/USER, /media, /mnt,
   /Volumes and the mount table) or named with `--drive`.  With no such drive, a
   board running MicroPython on `--port` (or the one Pico found) is put into BOOTSEL
   from the host: `machine.bootloader()` through mpremote's raw REPL.  With no drive
   mounted but `picotool` installed and a Pico waiting in BOOTSEL, `picotool load -x`
   writes the image over USB instead.
3. The copy, with a progress bar: written in 64 KB pieces, each synced.  A cut copy
   (the cable pulled, the drive gone, Ctrl-C) says how far it got and how to recover:
   the bootloader is in ROM, nothing is lost, BOOTSEL and `samsara flash` again.
4. The board comes back: the drive goes away (the Pico restarts), its serial port
   answers `hello`, and the reply must name the image's id (`hash`) and `kind`
   "image".  A development bundle left on the board's file system by `samsara deploy`
   shadows the image's modules: it is taken off (its code files only; game logs,
   calibration and flight copies stay) and the board checked again.  `--no-wait`
   stops after the copy.

Exit codes: 0 the board runs the image; 1 the copy or the check failed (the message
says what to do); 2 a mistake in what was given (no such file, not a UF2 image, an
image that would overwrite the logs, a --drive that is no Pico bootloader drive);
130 Ctrl-C.
"""
import glob
import os
import shutil
import subprocess
import sys
import time

from samsara_host import fwstamp
from samsara_host.argtypes import port_arg, positive_seconds

BOARD_ID = "RPI-RP2"
INFO_FILE = "INFO_UF2.TXT"
PIECE = 64 * 1024                     # bytes per write + sync
CMD_BOOTLOADER = "import machine\nmachine.bootloader()"


class FlashError(Exception):
    """Flashing failed; str() says what happened and what to do.  `code`: the exit
    code (1 the board or the copy, 2 what was given)."""

    def __init__(self, msg, code=1):
        Exception.__init__(self, msg)
        self.code = code


class CopyCut(FlashError):
    """The copy stopped part way: `done` of `total` bytes written."""

    def __init__(self, done, total, why):
        FlashError.__init__(self, cut_words(done, total, why))
        self.done = done
        self.total = total


def cut_words(done, total, why):
    """What a cut copy means and how to recover."""
    return ("the copy was cut after %d of %d KB (%s). Nothing is lost: the Pico's "
            "bootloader is in ROM and the game logs are in the part of the flash the "
            "image does not write. Put the board in BOOTSEL mode again (hold the BOOTSEL "
            "button while you plug it in) and run `samsara flash` again."
            % (done // 1024, (total + 1023) // 1024, why))


# ---- the image --------------------------------------------------------------------

def default_image(root):
    """The checkout's image (build/firmware/samsara-*-rpi_pico.uf2), or None."""
    found = sorted(glob.glob(os.path.join(root, "build", "firmware", "samsara-*-rpi_pico.uf2")))
    return found[-1] if found else None


def check_image(path):
    """fwstamp.image_facts of `path`, checked: a whole UF2 image for the RP2040 that
    ends before the file system.  Raises FlashError (code 2) saying what is wrong."""
    if not os.path.isfile(path):
        raise FlashError("no image file %s: build one with `make uf2` or give the .uf2 "
                         "file to flash" % path, 2)
    try:
        facts = fwstamp.image_facts(path)
    except ValueError as e:
        raise FlashError("%s: %s" % (path, e), 2)
    except OSError as e:
        raise FlashError("cannot read %s: %s" % (path, e.strerror or e), 2)
    if facts["family"] not in (None, fwstamp.RP2040_FAMILY):
        raise FlashError("%s is an image for another chip (UF2 family 0x%08x), not the "
                         "Pico's RP2040" % (path, facts["family"]), 2)
    if facts["end"] > fwstamp.FS_START:
        raise FlashError(
            "%s writes up to %d KB into the flash, past the start of the file system at "
            "%d KB where the game logs live: refused, it would destroy them"
            % (path, (facts["end"] + 1023) // 1024, fwstamp.FS_START // 1024), 2)
    return facts


# ---- the BOOTSEL drive ----------------------------------------------------------------

def read_info(drive):
    """The `Key: value` lines of drive/INFO_UF2.TXT as a dict, or None without one."""
    try:
        with open(os.path.join(drive, INFO_FILE), errors="replace") as f:
            text = f.read(4096)
    except OSError:
        return None
    info = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            info[key.strip()] = value.strip()
    return info


def is_pico_drive(info):
    """True for the INFO_UF2.TXT of the RP2040's ROM bootloader (Board-ID: RPI-RP2)."""
    return bool(info) and info.get("Board-ID", "").startswith(BOARD_ID)


def mount_roots():
    """Folders whose subfolders may be mounted drives: SAMSARA_MOUNT_ROOTS (separated by
    os.pathsep) when set, else the usual places of Linux desktops and macOS."""
    env = os.environ.get("SAMSARA_MOUNT_ROOTS")
    if env is not None:
        return [d for d in env.split(os.pathsep) if d]
    user = os.environ.get("USER") or os.environ.get("LOGNAME") or ""
    roots = ["/media/" + user, "/run/media/" + user, "/media", "/mnt", "/Volumes"]
    return [r for r in roots if user or not r.endswith("/")]


def mount_points():
    """Mount points of the mount table (Linux /proc/mounts), with octal escapes undone;
    [] where there is none."""
    out = []
    try:
        with open("/proc/mounts") as f:
            for line in f:
                parts = line.split()
                if len(parts) > 1:
                    out.append(parts[1].encode().decode("unicode_escape"))
    except OSError:
        pass
    return out


def drives():
    """Every mounted drive with an INFO_UF2.TXT (a UF2 bootloader): [(folder, info)].
    Only SAMSARA_MOUNT_ROOTS is searched when it is set (tests)."""
    cands = []
    for root in mount_roots():
        try:
            cands += [os.path.join(root, n) for n in sorted(os.listdir(root))]
        except OSError:
            continue
    if os.environ.get("SAMSARA_MOUNT_ROOTS") is None:
        cands += mount_points()
    seen = set()
    out = []
    for d in cands:
        key = os.path.realpath(d)
        if key in seen or not os.path.isdir(d):
            continue
        seen.add(key)
        info = read_info(d)
        if info is not None:
            out.append((d, info))
    return out


def check_drive(drive):
    """`drive` (given with --drive) when it is a Pico's BOOTSEL drive; else FlashError
    (code 2) saying what it is instead."""
    if not os.path.isdir(drive):
        raise FlashError("%s is no folder: give the RPI-RP2 drive's folder with --drive "
                         "(where the Pico in BOOTSEL mode is mounted)" % drive, 2)
    info = read_info(drive)
    if info is None:
        raise FlashError("%s is not a Pico in BOOTSEL mode: it has no %s. Hold the "
                         "board's BOOTSEL button while you plug it in: a drive named %s "
                         "appears" % (drive, INFO_FILE, BOARD_ID), 2)
    if not is_pico_drive(info):
        raise FlashError("%s is another board's bootloader (Board-ID: %s), not the Pico's "
                         "(%s): nothing was copied" % (drive, info.get("Board-ID", "none"),
                                                       BOARD_ID), 2)
    return drive


def find_drive():
    """The one Pico BOOTSEL drive mounted now, or None.  Raises FlashError when there
    are several."""
    picos = [d for d, info in drives() if is_pico_drive(info)]
    if len(picos) > 1:
        raise FlashError("%d Picos in BOOTSEL mode (%s): name one with --drive"
                         % (len(picos), ", ".join(picos)))
    return picos[0] if picos else None


def other_drives_words():
    """A sentence naming UF2 drives that are not a Pico's, or ''."""
    other = [(d, info) for d, info in drives() if not is_pico_drive(info)]
    if not other:
        return ""
    return (" (found %s, another board's bootloader: Board-ID %s)"
            % (other[0][0], other[0][1].get("Board-ID", "none")))


def wait_for(pred, timeout, step=0.1):
    """Poll pred() until it returns something true or `timeout` seconds pass."""
    t0 = time.monotonic()
    while True:
        got = pred()
        if got or time.monotonic() - t0 >= timeout:
            return got
        time.sleep(step)


# ---- the copy -------------------------------------------------------------------------

def copy_image(src, drive, progress=None):
    """Copy the image file `src` onto the BOOTSEL drive as its own name, in PIECE-byte
    pieces, each flushed and synced; progress(done, total) after each.  Raises CopyCut
    when a write fails or the drive goes away part way."""
    with open(src, "rb") as f:
        data = f.read()
    total = len(data)
    dst = os.path.join(drive, os.path.basename(src))
    done = 0
    try:
        with open(dst, "wb") as out:
            while done < total:
                out.write(data[done:done + PIECE])
                out.flush()
                os.fsync(out.fileno())
                done = min(total, done + PIECE)
                if not os.path.isfile(os.path.join(drive, INFO_FILE)) and done < total:
                    raise CopyCut(done, total, "the drive went away")
                if progress:
                    progress(done, total)
    except OSError as e:
        raise CopyCut(done, total, "writing failed: %s" % (e.strerror or e))
    return total


def picotool_waiting(tool):
    """True when `picotool info` sees a device in BOOTSEL mode."""
    try:
        r = subprocess.run([tool, "info"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return False
    text = (r.stdout + r.stderr).lower()
    return r.returncode == 0 and "no accessible rp2040 devices" not in text \
        and "bootsel" in text


def picotool_load(tool, image):
    """Write `image` with `picotool load -v -x` (verify, then run).  Raises FlashError
    with picotool's words when it fails."""
    r = subprocess.run([tool, "load", "-v", "-x", image], capture_output=True, text=True,
                       timeout=300)
    if r.returncode != 0:
        raise FlashError("picotool could not write the image: %s. Put the board in "
                         "BOOTSEL mode again and run `samsara flash` again"
                         % (r.stderr.strip() or r.stdout.strip() or "exit %d" % r.returncode))


# ---- the board on its serial port ---------------------------------------------------

def enter_bootsel(port):
    """Put the MicroPython board on `port` into BOOTSEL mode from the host: interrupt its
    loop, and `machine.bootloader()` in the raw REPL.  Raises FlashError when the board
    does not answer like MicroPython."""
    from mpremote.transport import TransportError
    from samsara_host import boardlink, deploy_cmd
    try:
        transport = deploy_cmd.open_transport(port)
    except boardlink.LinkError as e:
        raise FlashError("no Pico in BOOTSEL mode, and the board on %s cannot be put into "
                         "it: %s" % (port, e))
    try:
        deploy_cmd.enter_repl(transport, 5)
        transport.exec_raw_no_follow(CMD_BOOTLOADER)
        time.sleep(0.3)
    except (TransportError, OSError) as e:
        raise FlashError("the board on %s does not answer like MicroPython (%s): put it "
                         "into BOOTSEL mode by hand (hold BOOTSEL while you plug it in) "
                         "and run `samsara flash` again" % (port, e))
    except Exception as e:
        if not deploy_cmd._is_gone(e):
            raise
    finally:
        try:
            transport.close()
        except Exception:
            pass


def ask_hello(port):
    """The board's hello reply on `port` (None when the port is missing or silent)."""
    from samsara_host import boardlink
    try:
        state = boardlink.State(port)
        try:
            return state.client.request("hello", timeout=2.0)
        finally:
            state.close()
    except (boardlink.LinkError, OSError):
        return None


def wait_back(port, timeout):
    """The hello reply of the board once it is back: on `port`, or the one Pico among
    the serial ports; None after `timeout` seconds."""
    from samsara_host import boardlink

    def once():
        p = port
        if p is None:
            try:
                p = boardlink.find_board(virtual=[])   # a Pico: flash is for one
            except boardlink.LinkError:
                return None
        r = ask_hello(p)
        return (p, r) if r else None
    return wait_for(once, timeout, step=0.5)


def runs_words(reply):
    """'image 1a2b3c4d5e6f', 'bundle ...', 'source firmware (dev)' from a hello reply."""
    kind = reply.get("kind") or "bundle"    # boards before the image did not say
    if kind == "source":
        return "the source firmware (%s)" % reply.get("hash")
    return "%s %s" % (kind, reply.get("hash"))


# ---- the command ----------------------------------------------------------------------

def add_parser(sub, name, help_text):
    p = sub.add_parser(name, help=help_text, description=help_text)
    p.add_argument("image", nargs="?", metavar="FILE",
                   help="the .uf2 image (default: build/firmware/samsara-*-rpi_pico.uf2, "
                   "`make uf2`)")
    p.add_argument("--port", type=port_arg,
                   help="the board's serial port before and after (default: auto-detect)")
    p.add_argument("--drive", help="the RPI-RP2 drive's folder (default: found among the "
                   "mounted drives)")
    p.add_argument("--timeout", type=positive_seconds, default=60.0,
                   help="seconds to wait for the drive and for the board to come back "
                   "(default 60)")
    p.add_argument("--no-wait", action="store_true",
                   help="stop once the image is copied; do not wait for the board")
    p.set_defaults(func=run)


def run(args):
    from rich.console import Console
    out = Console(soft_wrap=True)
    err = Console(stderr=True, soft_wrap=True)
    try:
        return flash(args, out)
    except KeyboardInterrupt:
        err.print("[bold red]samsara flash:[/bold red] stopped (Ctrl-C)")
        return 130
    except FlashError as e:
        err.print("[bold red]samsara flash:[/bold red] %s" % e)
        return e.code


def flash(args, out):
    """The steps of the module docstring; returns the exit code or raises FlashError."""
    from samsara_host import deploy_cmd
    image = args.image
    if image is None:
        image = default_image(deploy_cmd.repo_root())
        if image is None:
            raise FlashError("no image to flash: build one with `make uf2` (it lands in "
                             "build/firmware/) or give the .uf2 file", 2)
    facts = check_image(image)
    if args.drive:
        check_drive(args.drive)
    ident = facts["image_id"]
    out.print("Image %s: %s, %d KB%s" % (
        os.path.basename(image), "Samsara %s, image id %s" % (facts["version"], ident)
        if ident else "not a Samsara image (no id to check)", (facts["bytes"] + 1023) // 1024,
        ", ends at %d KB of the 640 KB before the game logs" % ((facts["end"] + 1023) // 1024)))
    drive = args.drive or find_drive()
    tool = shutil.which("picotool")
    used_picotool = False
    if drive is None and tool and picotool_waiting(tool):
        out.print("A Pico waits in BOOTSEL mode (picotool sees it, no drive is mounted): "
                  "writing with picotool ...")
        picotool_load(tool, image)
        used_picotool = True
    if drive is None and not used_picotool:
        port = args.port or _pico_port()
        if port is None:
            raise FlashError("no Pico in BOOTSEL mode%s and no board on a serial port. Hold "
                             "the board's BOOTSEL button while you plug it in (a drive named "
                             "%s appears), then run `samsara flash` again"
                             % (other_drives_words(), BOARD_ID))
        before = ask_hello(port)
        if before:
            out.print("The board on %s runs %s; putting it into BOOTSEL mode ..."
                      % (port, runs_words(before)))
        else:
            out.print("Putting the board on %s into BOOTSEL mode ..." % port)
        enter_bootsel(port)
        drive = wait_for(find_drive, args.timeout, step=0.25)
        if drive is None:
            raise FlashError(
                "the board was asked to enter BOOTSEL mode, but no %s drive appeared within "
                "%g s%s. Hold BOOTSEL while you plug it in, then run `samsara flash` again "
                "(on a computer that does not mount drives by itself, mount it, or install "
                "picotool)" % (BOARD_ID, args.timeout, other_drives_words()))
    if not used_picotool:
        out.print("Copying onto %s ..." % drive)
        _copy_with_bar(image, drive, out)
        gone = wait_for(lambda: not os.path.isfile(os.path.join(drive, INFO_FILE)),
                        min(args.timeout, 20.0))
        if not gone:
            raise FlashError(
                "the image is on %s but the Pico did not restart (the drive is still there): "
                "it may not have taken the file. Unplug the board, hold BOOTSEL while you "
                "plug it in again, and run `samsara flash` again" % drive)
        out.print("The Pico took the image and restarts.")
    if args.no_wait:
        out.print("Not waiting for the board (--no-wait).")
        return 0
    return _check_back(args.port, ident, args.timeout, out)


def _pico_port():
    from samsara_host import boardlink
    try:
        return boardlink.find_board(virtual=[])   # a Pico, never a virtual board
    except boardlink.LinkError:
        return None


def _copy_with_bar(image, drive, out):
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn
    bar = Progress(TextColumn("  copy"), BarColumn(), DownloadColumn(), console=out,
                   transient=False)
    task = None
    with bar:
        task = bar.add_task("copy", total=os.path.getsize(image))
        try:
            copy_image(image, drive, lambda done, total: bar.update(task, completed=done))
        except KeyboardInterrupt:
            cut = CopyCut(int(bar.tasks[0].completed), os.path.getsize(image), "Ctrl-C")
            cut.code = 130
            raise cut


def _check_back(port, ident, timeout, out, removed=False):
    from samsara_host import deploy_cmd
    out.print("Waiting for the board to answer on %s ..." % (port or "its serial port"))
    back = wait_back(port, timeout)
    if back is None:
        raise FlashError(
            "the board did not answer within %g s after the copy. If its LEDs stay dark, "
            "unplug it, hold BOOTSEL while you plug it in, and run `samsara flash` again; "
            "`samsara doctor` says more" % timeout)
    where, reply = back
    if ident is None:
        out.print("The board answers on %s: it runs %s." % (where, runs_words(reply)))
        return 0
    if reply.get("hash") == ident and reply.get("kind") == "image":
        out.print("[green]The board on %s runs the image %s[/green] (Samsara %s)."
                  % (where, ident, reply.get("fw")))
        return 0
    if reply.get("kind") in ("bundle", None) and not removed:
        out.print("A development bundle on the board's file system (`samsara deploy`) "
                  "shadows the image: taking it off (game logs stay) ...")
        n = deploy_cmd.remove_bundle_at(where)
        out.print("Removed %d file%s; the board restarts." % (n, "" if n == 1 else "s"))
        return _check_back(where, ident, timeout, out, removed=True)
    raise FlashError("the board came back on %s but runs %s, not the image %s: run "
                     "`samsara flash` again" % (where, runs_words(reply), ident))
