"""`samsara bench`: run the device benchmark on a board and print its figures.

The benchmark body is tools/upy_bench_device.py (device side, not in the firmware
bundle).  This module prepends its parameters (rules cases from tools/bench_rules.py,
packed as hex; idle seconds; lift/placement cycles), stops main.py's loop with mpremote's
raw REPL (Ctrl-C, no soft reset), runs the text there, reads its `BENCH name v ...` lines
and soft-resets the board so main.py runs again.  Works against a Pico, the emulated
Pico (`--port socket://127.0.0.1:PORT`) and the virtual board (MicroPython's Unix port,
docs/virtual-board.md): there a soft reset (Ctrl-D) would end the board's process, so
its loop is started again in place (deploy_cmd.CMD_RESET, as `samsara deploy` does).
Figures are device time (time.ticks_us on the board); docs/performance.md "Device
figures (emulated Pico)" explains each.

    run_bench(port, idle_s=60, cases=200, cycles=10, restart=True, echo=None, note=None)
        -> {name: [int, ...]}          raises DeployError / boardlink.LinkError
    report_lines(figures) -> [str]     the human table
"""
import os
import sys

from samsara_host.deploy_cmd import (CMD_RESET, DeployError, enter_repl, is_unix_port,
                                     open_transport, read_implementation, repo_root)
from samsara_host.argtypes import port_arg, whole

DEVICE_SCRIPT = os.path.join("tools", "upy_bench_device.py")
PARTS = ("scan", "tick", "buttons", "leds", "sinks")


def pack_corpus(corpus):
    """Rules cases (r, s, a, b, mover, d1, d2, origin) as one hex string, 12 bytes a
    case: r and s 3 bytes each (24-bit lane masks), then a, b, mover, d1, d2, origin."""
    out = bytearray()
    for r, s, a, b, mover, d1, d2, origin in corpus:
        out += r.to_bytes(3, "big") + s.to_bytes(3, "big")
        out += bytes((a, b, mover, d1, d2, origin))
    return out.hex()


UNPACK = """
def _unpack(h):
    import binascii
    b = binascii.unhexlify(h)
    c = []
    for i in range(0, len(b), 12):
        c.append(((b[i] << 16) | (b[i + 1] << 8) | b[i + 2],
                  (b[i + 3] << 16) | (b[i + 4] << 8) | b[i + 5],
                  b[i + 6], b[i + 7], b[i + 8], b[i + 9], b[i + 10], b[i + 11]))
    return c
CORPUS = _unpack(CORPUS_HEX)
del CORPUS_HEX
"""


def device_code(root, idle_s=60, cases=200, cycles=10):
    """The text run on the board: parameters, then tools/upy_bench_device.py."""
    path = os.path.join(root, DEVICE_SCRIPT)
    if not os.path.exists(path):
        raise DeployError("no device benchmark at %s" % DEVICE_SCRIPT)
    if root not in sys.path:
        sys.path.insert(0, root)
    from tools.bench_rules import make_corpus
    corpus = make_corpus(cases) if cases > 0 else []
    with open(path) as f:
        body = f.read()
    head = "CORPUS_HEX = %r\nIDLE_S = %d\nCYCLES = %d\n" % (pack_corpus(corpus), idle_s, cycles)
    return head + UNPACK + body


def parse_lines(text):
    """{name: [ints]} from the `BENCH name v ...` lines of the board's output."""
    figs = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] == "BENCH":
            try:
                figs[parts[1]] = [int(v) for v in parts[2:]]
            except ValueError:
                continue
    return figs


VIRTUAL_RESTART = ("the virtual board (MicroPython's Unix port) has no soft reset: its "
                   "loop was started again in place")
SOFT_RESET = "board soft-reset: main.py runs again"


def restart_board(transport):
    """Start the board's loop again after the benchmark; the transport is in the raw
    REPL.  A Pico (and the emulated Pico): leave the raw REPL and soft-reset (Ctrl-D),
    so main.py runs.  The virtual board (sys.implementation._machine names the Unix
    port, deploy_cmd.is_unix_port): Ctrl-D at its REPL ends its process, so the loop is
    started in place with deploy_cmd.CMD_RESET.  Returns the line that says which."""
    try:
        unix = is_unix_port(read_implementation(transport)[2])
    except Exception:
        unix = False
    if unix:
        transport.exec_raw_no_follow(CMD_RESET)
        return VIRTUAL_RESTART
    transport.exit_raw_repl()
    transport.serial.write(b"\x04")   # soft reset: main.py runs again
    return SOFT_RESET


def run_bench(port, idle_s=60, cases=200, cycles=10, restart=True, echo=None,
              timeout=3600, note=None):
    """Run the device benchmark on the board at `port`; returns {name: [ints]}.
    echo(str) receives the board's output as it comes (None: kept quiet); note(str)
    the one line that says how the board was restarted (restart_board).  Raises
    DeployError when the benchmark fails on the board (with its traceback)."""
    from mpremote.transport import TransportError
    from samsara_host import boardlink
    code = device_code(repo_root(), idle_s, cases, cycles)
    transport = open_transport(port)
    chunks = []

    def consume(data):
        text = data.decode("utf-8", "replace")
        chunks.append(text)
        if echo is not None:
            echo(text)

    try:
        try:
            enter_repl(transport, 15)
            transport.exec_raw_no_follow(code)
            _out, err = transport.follow(timeout, consume)
        except TransportError as e:
            raise boardlink.PortError("the board did not answer at its REPL: %s" % e)
        if restart:
            try:
                said = restart_board(transport)
            except Exception:
                said = None
            if said and note is not None:
                note(said)
    finally:
        try:
            transport.close()
        except Exception:
            pass
    figs = parse_lines("".join(chunks))
    if err or "done" not in figs:
        msg = err.decode("utf-8", "replace").strip() if err else "no end mark"
        raise DeployError("the benchmark failed on the board: %s" % msg[-600:])
    return figs


def _ms(us):
    return "%.2f" % (us / 1000.0) if us >= 0 else "-"


def report_lines(figs):
    """The figures as a text table (ms, device time)."""
    lines = ["device benchmark (device time, ms: median / p99 / max, n)"]

    def row(label, name):
        v = figs.get(name)
        if v and len(v) >= 4:
            lines.append("  %-34s %8s %8s %8s   n=%d" % (label, _ms(v[0]), _ms(v[1]), _ms(v[2]), v[3]))

    row("Moksha decision (after gc.collect)", "moksha_clean")
    row("Moksha decision (collections as due)", "moksha_natural")
    row("one marble's targets (after collect)", "targets_clean")
    row("one marble's targets (as due)", "targets_natural")
    row("idle Loop.once()", "idle_once")
    for kind in ("idle", "lift", "place"):
        if kind != "idle":
            row("%s iteration Loop.once()" % kind, kind + "_once")
        for p in PARTS:
            row("  %s: %s" % (kind, p), "%s_%s" % (kind, p))
    c = figs.get("collections_per_min")
    if c:
        lines.append("  collections per idle minute        %d (%d in %d s)" % (c[0], c[1], c[2]))
    for label, name in (("one gc.collect()", "gc_collect"),):
        v = figs.get(name)
        if v:
            lines.append("  %-34s %8s" % (label, _ms(v[0])))
    for label, name in (("free heap at start (bench loaded)", "free_at_start_bytes"),
                        ("lowest free heap, idle minute", "idle_free_min_bytes"),
                        ("lowest free heap, lifts/placements", "moves_free_min_bytes"),
                        ("free heap after gc.collect()", "free_after_collect_bytes")):
        v = figs.get(name)
        if v:
            lines.append("  %-34s %8d bytes (%.1f KB)" % (label, v[0], v[0] / 1024.0))
    return lines


def add_parser(sub, name, help_text):
    p = sub.add_parser(name, help=help_text, description=help_text)
    p.add_argument("--port", type=port_arg, help="serial port or pyserial URL (default: auto-detect)")
    p.add_argument("--idle-s", type=whole(1), default=60, metavar="S",
                   help="whole seconds of idle loop for the collection count, 1 or more "
                        "(default 60)")
    p.add_argument("--cases", type=whole(1), default=200,
                   help="rules cases, 1 or more (default 200)")
    p.add_argument("--cycles", type=whole(1), default=10,
                   help="lift/placement cycles per pass, 1 or more (default 10)")
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    p.add_argument("--no-restart", action="store_true",
                   help="leave the board in the REPL (default: restart its loop: a soft "
                        "reset, on the virtual board the loop started in place)")
    p.add_argument("--verbose", action="store_true", help="show the board's output")
    p.set_defaults(func=run)


def run(args):
    import json
    from samsara_host import boardlink
    try:
        port = boardlink.resolve_port(args.port)
        echo = (lambda t: sys.stderr.write(t)) if args.verbose else None
        print("running the device benchmark on %s (about %d s of device time) ..." % (
            port, args.idle_s + 30), file=sys.stderr)
        figs = run_bench(port, args.idle_s, args.cases, args.cycles,
                         restart=not args.no_restart, echo=echo,
                         note=lambda line: print(line, file=sys.stderr))
    except (DeployError, boardlink.LinkError) as e:
        print("samsara bench: %s" % e, file=sys.stderr)
        return 1
    print("\n".join(report_lines(figs)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(figs, f, indent=1, sort_keys=True)
    return 0
