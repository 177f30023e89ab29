"""`samsara bench`: run the device benchmark on a board and print its figures.

The benchmark body is tools/upy_bench_device.py (device side, not in the firmware
bundle).  This module prepends its parameters (rules cases from tools/bench_rules.py,
packed as hex; idle seconds; lift/placement cycles), stops main.py's loop with mpremote's
raw REPL (Ctrl-C, no soft reset), runs the text there, reads its `BENCH name v ...` lines
and soft-resets the board so main.py runs again.  Works against a Pico and the emulated
Pico (`--port socket://127.0.0.1:PORT`).  Figures are device time (time.ticks_us on the
board); docs/performance.md "Device figures (emulated Pico)" explains each.

    run_bench(port, idle_s=60, cases=200, cycles=10, restart=True, echo=None)
        -> {name: [int, ...]}          raises DeployError / boardlink.LinkError
    report_lines(figures) -> [str]     the human table
"""
import os
import sys

from samsara_host.deploy_cmd import DeployError, enter_repl, open_transport, repo_root
from samsara_host.argtypes import port_arg

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


def run_bench(port, idle_s=60, cases=200, cycles=10, restart=True, echo=None,
              timeout=3600):
    """Run the device benchmark on the board at `port`; returns {name: [ints]}.
    echo(str) receives the board's output as it comes (None: kept quiet).  Raises
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
                transport.exit_raw_repl()
                transport.serial.write(b"\x04")   # soft reset: main.py runs again
            except Exception:
                pass
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
    p.add_argument("--idle-s", type=int, default=60,
                   help="seconds of idle loop for the collection count (default 60)")
    p.add_argument("--cases", type=int, default=200, help="rules cases (default 200)")
    p.add_argument("--cycles", type=int, default=10,
                   help="lift/placement cycles per pass (default 10)")
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    p.add_argument("--no-restart", action="store_true", help="leave the board in the REPL")
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
                         restart=not args.no_restart, echo=echo)
    except (DeployError, boardlink.LinkError) as e:
        print("samsara bench: %s" % e, file=sys.stderr)
        return 1
    print("\n".join(report_lines(figs)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(figs, f, indent=1, sort_keys=True)
    return 0
