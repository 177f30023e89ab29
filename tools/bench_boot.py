"""The boot of the firmware image and of the `.mpy` bundle on the emulated Pico, side by
side, and what the image leaves of the flash (part of `make bench-device`).

    python -m tools.bench_boot [--port 7940]

For each firmware (tools/rig.py: "image", the code frozen into flash; "bundle", stock
MicroPython 1.22 with the bundle on its file system) a served rig is started with a
control port; the host sends `hello` every 20 ms of wall time from the moment the port
listens until the board answers, then asks `logs`.  From the rig's serial.log and
scan.json (emulated ms from the reset):

    first_scan_ms   the first latch of the sensor chain (the boot's sensor check)
    boot_ms         the `boot` event: the scan loop runs
    hello_ms        the first `hello` reply
    log_free        bytes a game log can still take (`logs` `free`)

The image facts (fwstamp.image_facts): its size in flash, the flash left before the
file system, the file system's size.  Targets: the image boots no slower than the bundle
(reset -> first scan and reset -> hello) and leaves the logs at least as much room.
"""
import argparse
import json
import os
import socket
import sys
import tempfile
import time

from tools import rig as rigmod

FIRMWARES = ("image", "bundle")


def _hello_until_answered(port, timeout=240.0):
    """Connect to the board's serial socket as soon as it listens and send hello every
    20 ms until a reply comes; then `logs`.  Returns the logs reply dict (or {})."""
    t0 = time.time()
    s = None
    while s is None:
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=1)
        except OSError:
            if time.time() - t0 > timeout:
                raise RuntimeError("the rig's port %d never listened" % port)
            time.sleep(0.05)
    s.settimeout(0.02)
    buf = b""
    n = 0
    try:
        answered = False
        while not answered:
            if time.time() - t0 > timeout:
                raise RuntimeError("no hello reply within %g s" % timeout)
            n += 1
            s.sendall(b'{"cmd": "hello", "id": %d}\n' % n)
            try:
                buf += s.recv(65536)
            except socket.timeout:
                pass
            answered = b'"re": "hello"' in buf
        # The hellos sent while the board booted are answered one by one (on a loaded
        # machine the emulator runs slower than the wall clock), and some of the flood
        # is lost in the USB buffers, the last one perhaps torn: the `logs` question goes
        # once the answers have stopped for 2 s, after a newline that ends a torn line.
        s.settimeout(0.2)
        _quiet(s, 2.0, time.time() + timeout)
        s.sendall(b'\n{"cmd": "logs", "id": "room"}\n')
        return _reply(s, b"", "room", time.time() + timeout) or {}
    finally:
        s.close()


def _quiet(s, quiet_s, deadline):
    """Read and drop what socket `s` sends until nothing came for `quiet_s` seconds (or
    `deadline`, time.time(), passed)."""
    last = time.time()
    while time.time() < deadline and time.time() - last < quiet_s:
        try:
            if s.recv(65536):
                last = time.time()
        except socket.timeout:
            pass


def _reply(s, buf, want, deadline):
    """The reply object whose `id` is `want`, read from socket `s` (bytes already read:
    `buf`) until `deadline` (time.time()); None when it did not come."""
    while True:
        *lines, buf = buf.split(b"\n")
        for line in lines:
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if isinstance(obj, dict) and obj.get("id") == want:
                return obj
        if time.time() > deadline:
            return None
        try:
            got = s.recv(65536)
        except socket.timeout:
            continue
        if not got:
            return None
        buf += got


def boot_figures(out):
    """first_scan_ms, boot_ms, hello_ms from a rig's outputs folder."""
    fig = {"first_scan_ms": None, "boot_ms": None, "hello_ms": None}
    with open(os.path.join(out, "serial.log")) as f:
        for line in f:
            t, _, text = line.partition("\t")
            if fig["boot_ms"] is None and '"ev": "boot"' in text:
                fig["boot_ms"] = round(float(t), 1)
            if fig["hello_ms"] is None and '"re": "hello"' in text:
                fig["hello_ms"] = round(float(t), 1)
    with open(os.path.join(out, "scan.json")) as f:
        latches = json.load(f)["latch_ms"]
    fig["first_scan_ms"] = round(latches[0], 1) if latches else None
    return fig


def measure_one(rig, firmware, port):
    """The boot figures of `firmware` on a served rig at `port` (control port + 1)."""
    out = tempfile.mkdtemp(prefix="bench-boot-%s-" % firmware)
    with rigmod.Serve(rig, port, control=port + 1, extra=["--serve", "--out", out],
                      firmware=firmware) as srv:
        logs = _hello_until_answered(port)
        srv.ctl({"query": "summary"})
    fig = boot_figures(out)
    fig["log_free"] = logs.get("free")
    fig["out"] = out
    return fig


def measure(rig, port=7940):
    """{"image": figures, "bundle": figures, "facts": image facts, "pass": bool}."""
    from samsara_host import fwstamp
    got = {fw: measure_one(rig, fw, port + 2 * i) for i, fw in enumerate(FIRMWARES)}
    uf2 = rigmod.image_args()[1]
    facts = fwstamp.image_facts(uf2)
    got["facts"] = {"file": os.path.basename(uf2), "image_kb": round(facts["end"] / 1024.0, 1),
                    "before_fs_kb": fwstamp.FS_START // 1024,
                    "fs_kb": fwstamp.FS_BYTES // 1024, "image_id": facts["image_id"]}
    im, bu = got["image"], got["bundle"]
    got["pass"] = all(im[k] is not None and bu[k] is not None and im[k] <= bu[k]
                      for k in ("first_scan_ms", "hello_ms")) and \
        (im["log_free"] or 0) >= (bu["log_free"] or 0)
    return got


def report(b):
    """The lines of the boot and image rows."""
    f = b["facts"]
    im, bu = b["image"], b["bundle"]

    def row(label, key, scale=1.0, unit="", better="<="):
        a, c = im[key], bu[key]
        ok = a is not None and c is not None and (a <= c if better == "<=" else a >= c)
        show = (lambda v: "-" if v is None else ("%.1f%s" % (v / scale, unit)))
        return "%-38s %12s %12s  %-18s %s" % (label, show(a), show(c),
                                              "image %s bundle" % better,
                                              "PASS" if ok else "FAIL")
    return [
        "image %s (id %s): %.1f KB of the %d KB of flash before the file system; "
        "file system %d KB" % (f["file"], f["image_id"], f["image_kb"], f["before_fs_kb"],
                              f["fs_kb"]),
        "%-38s %12s %12s  %-18s %s" % ("boot (emulated ms from the reset)", "image", "bundle",
                                       "target", "result"),
        row("reset -> first sensor scan (ms)", "first_scan_ms"),
        row("reset -> loop running, boot event (ms)", "boot_ms").rsplit("  ", 2)[0] + "  (info)",
        row("reset -> hello answered (ms)", "hello_ms"),
        row("room for game logs (KB)", "log_free", 1024.0, "", ">="),
    ]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="bench_boot", description=__doc__.split("\n\n")[0])
    ap.add_argument("--port", type=int, default=7940, help="first TCP port (4 are used)")
    a = ap.parse_args(argv)
    rig = rigmod.find_rig()
    if rig is None:
        print("no emulated Pico at %s (set PICO_RIG)" % rigmod.rig_dir())
        return 2
    b = measure(rig, a.port)
    print("\n".join(report(b)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
