"""Entry point of the `samsara` command: a table of sub-commands, each a module with
`add_parser(subparsers)` that sets `func` on its parser.

Modules are imported lazily by name so that `samsara rules ...` never loads serial or
simulation code it does not need.
"""
import os
import sys

# (argparse and importlib are imported inside the functions: until main() runs, the
# tool does nothing a Ctrl-C could interrupt with a traceback)

# (command, module, one-line help)
COMMANDS = [
    ("rules", "samsara_host.rules_cmd", "legal turns of a position, self-play games"),
    ("engine", "samsara_host.engine_cmd", "engine matches: the strength of the players"),
    ("analyze", "samsara_host.analyze_cmd", "a recorded game against the engine: mistakes and luck"),
    ("demo", "samsara_host.demo_cmd", "play a complete game on the simulated board"),
    ("trace", "samsara_host.trace_cmd", "replay or record sensor traces"),
    ("flash", "samsara_host.flash_cmd", "put the firmware image on a Pico (BOOTSEL), check it runs"),
    ("deploy", "samsara_host.deploy_cmd", "development: copy the firmware bundle onto the board's files"),
    ("ports", "samsara_host.ports_cmd", "find the board among the serial ports"),
    ("logs", "samsara_host.logs_cmd", "game logs: list, pull, export, show"),
    ("monitor", "samsara_host.monitor_cmd", "a live picture of the board from its events"),
    ("game", "samsara_host.game_cmd", "the board's game: new (also against the board), roll, undo, hint, status"),
    ("doctor", "samsara_host.doctor_cmd", "say what is wrong when the board does not answer"),
    ("virtual-board", "samsara_host.vboard_cmd", "run a virtual board (no hardware) for the other commands"),
    ("bench", "samsara_host.bench_cmd", "run the device benchmark on a board, print its figures"),
    ("app", "samsara_host.app.cmd", "the companion app in the browser: live board, library, replay, play"),
    ("online", "samsara_host.online.cmd", "play a friend far away: two boards, one game, over MQTT"),
    ("relay", "samsara_host.relay_cmd", "run Mosquitto for online games (persistence on)"),
]


def build_parser():
    """The argparse parser with every sub-command registered."""
    import argparse
    import importlib
    parser = argparse.ArgumentParser(
        prog="samsara", description="Samsara smart board tool",
        epilog="exit codes: 0 done; 2 a mistake in what was given (an option, a value, a "
        "file that is missing or not what the command reads); 1 the board or the work "
        "failed; 130 Ctrl-C; 143 SIGTERM of an online bridge or spectator (docs/cli.md "
        "\"Exit codes\")")
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module, help_text in COMMANDS:
        try:
            mod = importlib.import_module(module)
        except ImportError:
            continue
        mod.add_parser(sub, name, help_text)
    return parser


def _version():
    """'samsara X (firmware Y)': the host tool's version (the installed package's) and
    the version of the firmware it deploys (boardcore.version)."""
    from boardcore.version import VERSION
    try:
        from importlib.metadata import version
        host = version("samsara-board")
    except Exception:   # run from the source tree without an install
        host = VERSION
    return "samsara %s (firmware %s)" % (host, VERSION)


def main(argv=None):
    """Run the command line; returns the exit code.  A Ctrl-C at any moment, even
    while the commands' modules are still being loaded, is one line and exit 130."""
    try:
        return _main(argv)
    except KeyboardInterrupt:
        words = [a for a in (sys.argv[1:] if argv is None else argv)[:2]
                 if not a.startswith("-")]
        print("samsara%s: stopped (Ctrl-C)" % "".join(" " + w for w in words[:1]),
              file=sys.stderr)
        return 130


def _main(argv):
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:
        # argparse would name the top-level usage; name the command the user typed
        _deepest(parser, sys.argv[1:] if argv is None else argv).error(
            "unrecognized arguments: %s" % " ".join(extra))
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    _pipe_closed_is_done()
    try:
        return args.func(args) or 0
    except KeyboardInterrupt:
        # (the commands that keep something say what in their own line and return
        # 130 themselves; this is every other command's one line)
        name = _deepest(parser, sys.argv[1:] if argv is None else argv).prog
        print("%s: stopped (Ctrl-C)" % name, file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader stopped reading (`samsara logs show G | head`): done, exit 0.
        # stdout goes to devnull so that the interpreter's last flush stays silent.
        _stdout_to_devnull()
        return 0
    except OSError as e:
        # Last resort: the commands name their own file errors; anything that still
        # escapes is one line, never a traceback.
        print("samsara: %s" % _os_message(e), file=sys.stderr)
        return 1


def _stdout_to_devnull():
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)
    except (OSError, ValueError, AttributeError):   # no real stdout (a test's capture)
        pass


def _pipe_closed_is_done():
    """rich's Console meets a closed pipe with SystemExit(1) (Console.on_broken_pipe);
    in this tool a reader that stops reading ends the command with exit 0, as a
    print() does: its consoles raise BrokenPipeError instead, which main() answers."""
    try:
        from rich.console import Console
    except ImportError:
        return

    def on_broken_pipe(self):
        self.quiet = True
        raise BrokenPipeError

    Console.on_broken_pipe = on_broken_pipe


def _deepest(parser, argv):
    """The (sub-)parser of the command named in `argv` (e.g. `logs export`), so that an
    error shows that command's usage line."""
    import argparse
    for tok in argv:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs or tok not in subs[0].choices:
            if tok.startswith("-") or not subs:
                continue
            break
        parser = subs[0].choices[tok]
    return parser


def _os_message(e):
    """'<file>: <reason>' for an OSError (the reason alone when it names no file)."""
    reason = e.strerror or str(e) or e.__class__.__name__
    if e.filename is not None:
        return "%s: %s" % (e.filename, reason)
    return reason


if __name__ == "__main__":
    sys.exit(main())
