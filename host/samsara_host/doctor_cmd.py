"""`samsara doctor`: find out why the board does not work with the host, and say what
to do (docs/host-tool.md).

The checks, in order, each stopping at the first failure:

1. a port: the one given with --port, else a serial port with the Pico's USB id
   2E8A:0005 (none: not plugged in, a charge-only cable, no MicroPython on it, or a
   board in BOOTSEL mode, which is a drive and no serial port);
2. the port opens (not busy with another program, permissions);
3. the firmware answers `hello` with this host's protocol version; then its log
   space (full: pull the logs), a board in repair (put the marbles as its LEDs show)
   and loop timing are reported;
4. when nothing answers: MicroPython's REPL is asked (through mpremote, without a soft
   reset) for sys.implementation (no MicroPython, or one older than 1.22), then for
   a deploy cut short (its manifest still there: the half-copied files, by hash), the
   firmware's files (missing: `samsara deploy`) and whether they import; the loop
   is then restarted (`import main; main.main()`) and `hello` asked again.

`diagnose()` returns Findings so that tests can check the words without a terminal.
"""
import os
import sys

from samsara_host import boardlink
from samsara_host.argtypes import port_arg, positive_seconds

OK, WARN, FAIL = "ok", "warn", "fail"

# main.py and the samsara package, looked up along sys.path as an import would (the
# Pico's root is its '' entry; the virtual board's firmware folder is on MICROPYPATH).
CMD_FILES = ("import os,sys\nfor n in ('main.py','samsara'):\n r='-'+n\n"
             " for d in sys.path:\n  try:\n   os.stat(d+'/'+n if d else n)\n"
             "   r=n\n   break\n  except OSError:\n   pass\n"
             " if r[0]=='-' and n=='samsara':\n  try:\n   __import__(n)\n   r=n\n"
             "  except ImportError:\n   pass\n print(r)")
# the package frozen into a firmware image has no file to stat: it is found by importing
CMD_IMPORT = ("try:\n import boardcore.version as v\n"
              " print('V', v.VERSION, v.HASH, getattr(v, 'KIND', 'bundle'))\n"
              "except Exception as e:\n print('E', type(e).__name__, e)")
CMD_RESTART = "import main\n(getattr(main, 'main', None) or main.run)()"


class Finding:
    """One line of the doctor's report: level (ok, warn, fail), what it found and
    what to do (may be empty)."""

    def __init__(self, level, what, todo=""):
        self.level = level
        self.what = what
        self.todo = todo

    def __repr__(self):
        return "Finding(%r, %r)" % (self.level, self.what)


def _mpremote_transport(port):
    from samsara_host.deploy_cmd import open_transport
    return open_transport(port)


HUNG_TODO = ("Unplug it and plug it in again (the virtual board: stop it and start it "
             "again); if it hangs again, run `samsara doctor` once more.")


def check_repl(transport, restart=True, silent=False):
    """Step 4 on an open mpremote-like transport: [Finding].  silent: the port sent
    nothing at all to hello; if the REPL does not answer either, the board hangs (its
    program is stuck), which no flashing cures."""
    from mpremote.transport import TransportError
    from samsara_host import deploy_cmd
    out = []
    try:
        deploy_cmd.enter_repl(transport, 3)
    except TransportError:
        if silent:
            out.append(Finding(FAIL, "the board does not answer: neither hello nor Ctrl-C "
                               "gets a byte back (its program hangs): unplug it and plug "
                               "it in again", HUNG_TODO))
            return out
        out.append(Finding(FAIL, "the port answers neither the Samsara firmware nor a "
                           "MicroPython REPL",
                           "Put the Samsara firmware image on it: hold BOOTSEL while "
                           "plugging the Pico in, then run `samsara flash`."))
        return out
    try:
        impl = deploy_cmd.read_implementation(transport)
        deploy_cmd.check_implementation(impl)
    except deploy_cmd.OldMicroPython as e:
        out.append(Finding(FAIL, "MicroPython too old", str(e)))
        return out
    except deploy_cmd.NoMicroPython as e:
        out.append(Finding(FAIL, "no MicroPython", str(e)))
        return out
    name, version, machine = impl
    out.append(Finding(OK, "MicroPython %d.%d.%d on %s" % (version + (machine,))))
    half = deploy_cmd.half_copied(transport)
    if half is not None:
        bad, names = half
        out.append(Finding(FAIL, "the last deploy did not finish: the firmware on the board "
                           "is half-copied (%d of %d files do not match the bundle's hash%s)"
                           % (len(bad), len(names), ": " + ", ".join(bad[:3]) +
                              (", ..." if len(bad) > 3 else "") if bad else ""),
                           "Run `samsara deploy` again (it copies only what differs)."))
        transport.exit_raw_repl()
        return out
    files = transport.exec(CMD_FILES).decode("utf-8", "replace").split()
    missing = [f[1:] for f in files if f.startswith("-")]
    if missing:
        out.append(Finding(FAIL, "firmware missing: no %s on the board" % " and no ".join(
            missing), "Run `samsara flash` to put the firmware image on the board "
            "(`samsara deploy` copies a development bundle)."))
        transport.exit_raw_repl()
        return out
    got = transport.exec(CMD_IMPORT).decode("utf-8", "replace").strip().split(None, 2)
    if not got or got[0] != "V":
        out.append(Finding(FAIL, "the firmware is on the board but does not load: %s"
                           % " ".join(got[1:]),
                           "Run `samsara deploy --force` to copy it again (a firmware "
                           "built for another MicroPython, or damaged files)."))
        transport.exit_raw_repl()
        return out
    words = (got[2] if len(got) > 2 else "?").split()
    kind = words[1] if len(words) > 1 else "bundle"
    out.append(Finding(OK, "firmware %s (%s %s) is on the board" % (
        got[1], {"image": "image", "source": "source tree"}.get(kind, "bundle"), words[0])))
    if restart:
        transport.exec_raw_no_follow(CMD_RESTART)
        try:
            # The loop runs until interrupted: an answer within the timeout means it ended.
            _out, err = transport.follow(1.5)
        except TransportError:
            return out
        err = err.decode("utf-8", "replace").strip()
        out.append(Finding(FAIL, "the firmware's loop stops at once: %s"
                           % (err.splitlines()[-1] if err else "it returned"),
                           "Run `samsara deploy --force`; if it persists the firmware "
                           "does not fit this board (board_config), see the traceback "
                           "with `mpremote connect PORT resume exec \"import main; "
                           "main.main()\"`."))
    else:
        transport.exit_raw_repl()
    return out


REPAIR_TODO = ("Put the marbles as the board's LEDs show: a marble into each hole lit "
               "white, none in each hole lit red (after the undo button, the undone "
               "marble back where it was); the board goes on by itself once its holes "
               "match the game. `samsara monitor` shows the board and names the reason "
               "when a repair starts (docs/controller.md).")


def repair_finding(client):
    """The Finding of a board whose status says `repair` (its holes do not match the
    game's position, docs/controller.md): a FAIL, with the position the board expects
    when `position` answers."""
    try:
        pos = client.request("position").get("position")
    except boardlink.LinkError:
        pos = None
    return Finding(FAIL, "the board is in repair: its holes do not match the game%s"
                   % (" (the position it expects: %s)" % pos if pos else ""), REPAIR_TODO)


def log_space_finding(space):
    """The Finding of the game log's space ({"free", "need", "full"} of `status`'s
    `log` or of a `logs` reply): a FAIL when full (pull the games), else OK."""
    if space.get("full"):
        return Finding(FAIL, "the game log is full: the flash holds only games no host "
                       "has pulled, so no new game can start", "Run `samsara logs pull`.")
    return Finding(OK, "game log: %s bytes free, a game reserves %s"
                   % (space.get("free", "?"), space.get("need", "?")))


def check_firmware(client, hello):
    """Step 3 after a hello reply: [Finding]."""
    out = []
    try:
        boardlink.check_hello(hello)
    except boardlink.LinkError as e:
        out.append(Finding(FAIL, str(e).split(":")[0], str(e)))
        return out
    game = hello.get("game")
    out.append(Finding(OK, "Samsara firmware %s (%s) answers, board %s, protocol %s%s"
                       % (hello.get("fw"), hello.get("hash"), hello.get("board"),
                          hello.get("proto"), ", playing %s" % game.capitalize()
                          if game else "")))
    if game:
        # another game's board (docs/samas.md, docs/schaska.md): no Samsara status;
        # its game log's room through `logs`
        try:
            logs = client.request("logs")
        except boardlink.LinkError as e:
            out.append(Finding(WARN, "logs failed: %s" % e))
            return out
        out.append(log_space_finding(logs))
        return out
    try:
        st = client.request("status")
    except boardlink.LinkError as e:
        out.append(Finding(WARN, "status failed: %s" % e))
        return out
    out.append(log_space_finding(st.get("log") or {}))
    if st.get("state") == "repair":
        out.append(repair_finding(client))
    loop = st.get("loop") or {}
    if loop.get("overruns"):
        out.append(Finding(WARN, "the scan loop overran its %s ms period %s times (longest "
                           "%s ms)" % (loop.get("period_ms"), loop.get("overruns"),
                                       loop.get("max_ms"))))
    return out


def diagnose(port=None, comports=None, transport_factory=_mpremote_transport,
             hello_timeout=2.0):
    """Run the checks; returns [Finding].  The last finding with level FAIL is the
    problem; its `todo` what to do."""
    out = []
    if port is None:
        ports = boardlink.list_ports(comports)
        picos = [p for p in ports if p.is_pico]
        if not picos:
            others = ", ".join("%s%s" % (p.device, " (%s)" % p.usb_id() if p.usb_id() else "")
                               for p in ports)
            out.append(Finding(
                FAIL, "no board found: no serial port with the Pico's USB id 2E8A:0005"
                + ("; other ports: %s" % others if others else ""),
                "Plug the board in with a data cable (charge-only cables carry no data). "
                "A Pico showing up as a drive called RPI-RP2 is in BOOTSEL mode: "
                "`samsara flash` puts the Samsara firmware image on it. "
                "If the board is on another port, name it: `samsara doctor --port PORT`."))
            return out
        if len(picos) > 1:
            out.append(Finding(FAIL, "%d boards found: %s" % (
                len(picos), ", ".join(p.device for p in picos)),
                "Name one: `samsara doctor --port PORT`."))
            return out
        port = picos[0].device
        out.append(Finding(OK, "Pico found on %s" % port))
    state = boardlink.State(port)
    try:
        try:
            hello = state.client.request("hello", timeout=hello_timeout)
        except boardlink.PortBusy as e:
            out.append(Finding(FAIL, "port %s is busy" % port, str(e)))
            return out
        except boardlink.LinkError as e:
            if not isinstance(e, (boardlink.NoReply, boardlink.BoardError)):
                out.append(Finding(FAIL, "cannot open %s" % port, str(e)))
                return out
            hello = None
        if hello is not None:
            out.append(Finding(OK, "port %s opens" % port))
            out.extend(check_firmware(state.client, hello))
            return out
        noise = list(state.client.noise)
        if not any(n.startswith(">>>") for n in noise):
            # What came first may be old output waiting in the port; ask once more and
            # judge by what the board says now (nothing at all: it hangs).
            state.client.noise.clear()
            try:
                hello = state.client.request("hello", timeout=min(hello_timeout, 1.0))
            except boardlink.LinkError:
                hello = None
            if hello is not None:
                out.append(Finding(OK, "port %s opens" % port))
                out.extend(check_firmware(state.client, hello))
                return out
            fresh = list(state.client.noise)
        else:
            fresh = noise
    finally:
        state.close()
    repl = any(n.startswith(">>>") or n.startswith("{'") for n in noise)
    if repl:
        seen = " (a MicroPython REPL echoed the command: the firmware's loop is stopped)"
    elif noise:
        seen = " (the board printed: %s)" % noise[-1][:100]
    else:
        seen = ""
    out.append(Finding(WARN, "port %s opens but the firmware does not answer hello%s"
                       % (port, seen)))
    try:
        transport = transport_factory(port)
    except boardlink.LinkError as e:
        out.append(Finding(FAIL, "cannot open %s for the REPL" % port, str(e)))
        return out
    try:
        found = check_repl(transport, silent=not fresh)
    finally:
        try:
            transport.close()
        except Exception:
            pass
    out.extend(found)
    if any(f.level == FAIL for f in found):
        return out
    # The loop was restarted: does it answer now?
    state = boardlink.State(port)
    try:
        import time
        time.sleep(0.3)
        hello = state.hello(timeout=3.0)
        out.append(Finding(OK, "the board sat in the REPL; its loop was restarted and "
                           "answers now (firmware %s, board %s)"
                           % (hello.get("fw"), hello.get("board"))))
    except boardlink.LinkError as e:
        noise = list(state.client.noise) if state.connected else []
        out.append(Finding(FAIL, "the firmware's loop does not start: %s%s" % (
            e, "; last output: %s" % noise[-1][:120] if noise else ""),
            "Run `samsara deploy --force`; if it persists, `mpremote connect PORT resume "
            "exec \"import main; main.main()\"` shows the error."))
    finally:
        state.close()
    return out


def add_parser(sub, name, help_text):
    p = sub.add_parser(name, help=help_text, description=help_text)
    p.add_argument("--port", type=port_arg, help="serial port or pyserial URL (default: auto-detect)")
    p.add_argument("--sensors", action="store_true",
                   help="map the sensor health per hole since boot, suspicious holes named")
    p.add_argument("--svg", metavar="FILE", help="with --sensors: also write the map as SVG")
    p.add_argument("--self-test", action="store_true",
                   help="guided self-test: each hole lit in turn, drop a marble in and lift it")
    p.add_argument("--holes", metavar="NAMES",
                   help="with --self-test: comma-separated holes (default: every track hole)")
    p.add_argument("--hole-timeout", type=positive_seconds, default=15.0, metavar="S",
                   help="with --self-test: seconds to wait at each hole, above 0 "
                        "(default 15)")
    p.set_defaults(func=run)


def report(findings, write=print):
    marks = {OK: "[ok]  ", WARN: "[warn]", FAIL: "[FAIL]"}
    for f in findings:
        write("%s %s" % (marks[f.level], f.what))
        if f.todo and f.level != OK:
            write("       -> %s" % f.todo)
    fails = [f for f in findings if f.level == FAIL]
    if fails:
        write("Problem: %s" % fails[-1].what)
        return 1
    write("All good: the board is ready.")
    return 0


def option_problem(args):
    """The words of a bad combination of doctor's options (None when they fit):
    --sensors and --self-test are two runs, --svg belongs to --sensors and must name a
    file that can be written (trace_cmd.check_writable, as `trace record`), --holes to
    --self-test and must name holes of the board (checked before anything is lit)."""
    from samsara.rules.geometry import position_index
    from samsara_host.trace_cmd import check_writable
    sensors = getattr(args, "sensors", False)
    selftest = getattr(args, "self_test", False)
    if sensors and selftest:
        return "--sensors and --self-test are two runs: give one of them"
    svg = getattr(args, "svg", None)
    if svg is not None and not sensors:
        return "--svg is for --sensors"
    if svg is not None and not svg.strip():
        return "--svg is empty: name a file, e.g. sensors.svg"
    if svg is not None and os.path.isdir(svg):
        return "--svg %s is a folder; name a file, e.g. %s" % (
            svg, os.path.join(svg, "sensors.svg"))
    problem = check_writable(svg) if svg is not None else None
    if problem:
        return "--svg: %s" % problem
    holes = getattr(args, "holes", None)
    if holes is not None and not selftest:
        return "--holes is for --self-test"
    if holes is not None and not holes.strip():
        return "--holes is empty: name the holes to test (R1,S24,...), or leave it out for every track hole"
    for name in (holes.split(",") if holes else ()):
        try:
            position_index(name.strip())
        except ValueError:
            return ("--holes: %r is no hole of the board (names like R1, S24, GR, GS, "
                    "A0, AC, comma-separated)" % name)
    return None


def run(args):
    bad = option_problem(args)
    if bad:
        print("samsara doctor: %s" % bad, file=sys.stderr)
        return 2
    if getattr(args, "sensors", False) or getattr(args, "self_test", False):
        return run_sensor_checks(args)
    try:
        findings = diagnose(args.port)
    except boardlink.LinkError as e:
        findings = [Finding(FAIL, str(e))]
    return report(findings)


def run_sensor_checks(args):
    """`doctor --sensors` / `doctor --self-test` (samsara_host.sensors_cmd)."""
    from samsara_host import sensors_cmd
    from samsara.rules.geometry import position_name
    state = boardlink.State(args.port)
    try:
        state.hello()
        if args.sensors:
            return sensors_cmd.run_sensors(state.client, args.svg)
        holes = ([h.strip() for h in args.holes.split(",")] if args.holes
                 else [position_name(p) for p in range(48)])

        def prompt(name):
            print("%s is lit: drop a marble into it and lift it out" % name)
        res = sensors_cmd.self_test(state.client, holes, prompt, args.hole_timeout)
        bad = [r for r in res if r[1] != "ok"]
        for _n, _v, detail in res:
            print(("  ok    " if _v == "ok" else "  FAIL  ") + detail)
        print("%d of %d holes saw the marble as they should" % (len(res) - len(bad), len(res)))
        return 1 if bad else 0
    except boardlink.LinkError as e:
        print("samsara doctor: %s" % boardlink.explain(e), file=sys.stderr)
        return 1
    finally:
        state.close()
