"""`samsara logs list | pull | export | show` (docs/host-tool.md).

list and pull talk to the board (docs/protocol.md `logs`, `log_get`, `log_ack`);
export and show work on files: a pulled log, or a record exported as JSON or text.
"""
import json
import os
import sys

from samsara_host import boardlink
from samsara_host.argtypes import port_arg, seconds, whole

DEFAULT_DEST = "samsara-logs"


def add_parser(sub, name, help_text):
    p = sub.add_parser(name, help=help_text, description=help_text)
    lsub = p.add_subparsers(dest="logs_command", metavar="ACTION")

    ls = lsub.add_parser("list", help="the game logs on the board")
    ls.add_argument("--port", type=port_arg, help="serial port or pyserial URL (default: auto-detect)")
    ls.add_argument("--dest", default=DEFAULT_DEST, help="folder of pulled logs (to mark "
                    "those already here; default %(default)s)")
    ls.add_argument("--json", action="store_true", help="the listing as JSON")
    ls.set_defaults(func=cmd_list)

    pl = lsub.add_parser("pull", help="copy game logs from the board, verify, acknowledge")
    pl.add_argument("games", nargs="*", type=int, metavar="GAME",
                    help="game numbers (default: every log not yet pulled)")
    pl.add_argument("--all", action="store_true", help="also logs already pulled")
    pl.add_argument("--port", type=port_arg, help="serial port or pyserial URL (default: auto-detect)")
    pl.add_argument("--dest", default=DEFAULT_DEST, help="folder to store logs in "
                    "(default %(default)s/<board>/game-NNNN.log)")
    pl.add_argument("--wait", type=seconds, default=30.0,
                    help="seconds to wait for a board that went away mid-pull (default 30)")
    pl.add_argument("--no-ack", action="store_true",
                    help="do not mark the logs as pulled on the board")
    pl.add_argument("--names", nargs=2, metavar=("A", "B"),
                    help="the players' names, stored with each pulled game "
                         "(see `logs tag`)")
    pl.set_defaults(func=cmd_pull)

    tg = lsub.add_parser("tag", help="set a game's player names, event, site or date",
                         description="Set the tags of a pulled game in its sidecar file "
                         "FILE.tags; the game's own bytes (moves, checksums) stay as "
                         "they are.  `logs export` and `logs show` show them.")
    tg.add_argument("file", help="a pulled log, or a record exported as JSON or text")
    tg.add_argument("--names", nargs=2, metavar=("A", "B"), help="the players' names")
    tg.add_argument("--event", help="the event, e.g. 'Club night'")
    tg.add_argument("--site", help="where it was played")
    tg.add_argument("--date", help="the date played, YYYY.MM.DD")
    tg.set_defaults(func=cmd_tag)

    ex = lsub.add_parser("export", help="a game record as JSON, text, SVG, PNG, an animated "
                         "GIF or one HTML page")
    ex.add_argument("file", help="a pulled log, or a record exported as JSON or text")
    ex.add_argument("--format", choices=("json", "text", "svg", "png", "gif", "html",
                                         "jsonl"),
                    default=None, help="json/text: the record; svg/png: a picture per "
                    "turn (or --strip); gif: an animation, one frame per turn; html: one "
                    "self-contained page to step through the game; jsonl: a Samas or "
                    "Schaska game's JSON lines, as `rules play --json` writes them "
                    "(default text, jsonl for Samas and Schaska logs)")
    ex.add_argument("--out", help="output file (json/text, strip, gif, html) or folder (one "
                    "picture per turn); default: stdout for json/text, next to FILE for "
                    "pictures")
    ex.add_argument("--strip", action="store_true",
                    help="svg/png: all turns in one picture instead of one file per turn")
    ex.add_argument("--columns", type=whole(1), default=None,
                    help="pictures per row of a strip (default 4)")
    ex.add_argument("--turns", help="svg/png: only these turns, e.g. 10-20 or 0-5 "
                    "(0 is the start)")
    ex.add_argument("--analysis", action="store_true",
                    help="add the engine's analysis (samsara analyze): comments in the "
                    "text record, an \"analysis\" object in JSON, mistakes marked in "
                    "the pictures")
    ex.add_argument("--engine", default="host", choices=("host", "device"),
                    help="the engine of --analysis (default host)")
    ex.set_defaults(func=cmd_export)

    sh = lsub.add_parser("show", help="step through a game record turn by turn")
    sh.add_argument("file", help="a pulled log, or a record exported as JSON or text")
    sh.add_argument("--turn", type=int, default=0, help="turn to start at (0: the start)")
    sh.add_argument("--all", action="store_true",
                    help="print every turn even on a terminal (no keys)")
    sh.set_defaults(func=cmd_show)

    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def _err(cmd, msg):
    if isinstance(msg, boardlink.LinkError):
        msg = boardlink.explain(msg)
    print("samsara logs %s: %s" % (cmd, msg), file=sys.stderr)


def _warn_torn(cmd, path, rec):
    """A torn log is read up to its first bad record: say so (stderr), once."""
    if getattr(rec, "torn", None):
        print("samsara logs %s: warning: %s is torn: %s; its %d turn%s before that are "
              "shown" % (cmd, path, rec.torn, len(rec.turns),
                         "" if len(rec.turns) == 1 else "s"), file=sys.stderr)


# ---- list ----------------------------------------------------------------------------

def cmd_list(args):
    if os.path.lexists(args.dest) and not os.path.isdir(args.dest):
        # (read only: a missing folder is fine, nothing pulled yet; a file is a slip)
        _err("list", "--dest %s is a file, not a folder of pulled logs" % args.dest)
        return 2
    state = boardlink.State(args.port)
    try:
        hello = state.hello()
        listing = boardlink.list_logs(state.client)
    except boardlink.LinkError as e:
        _err("list", e)
        return 1
    finally:
        state.close()
    from samsara_host.logpull import find_copy, local_name
    board = hello.get("board")
    logs = listing.get("logs", [])
    for e in logs:
        # Only a file with this game's very bytes is its pulled copy (not another
        # board's game that happens to have the same name).
        path = os.path.join(args.dest, local_name(board, e["game"]))
        e["here"] = find_copy(path, e.get("size"), e.get("crc"))
    if args.json:
        print(json.dumps({"board": board, "game": hello.get("game", "samsara"),
                          "logs": logs, "free": listing.get("free"),
                          "need": listing.get("need"), "full": listing.get("full")}))
        return 0
    game = hello.get("game", "samsara")
    print("Board %s%s: %d game log%s" % (board, "" if game == "samsara" else " (%s)" % game,
                                          len(logs), "" if len(logs) == 1 else "s"))
    if logs:
        print("  game  state     bytes  crc   pulled copy")
    for e in logs:
        print("  %4d  %-8s %6d  %s  %s" % (e["game"], e["state"], e["size"],
                                          e.get("crc") or "----", e["here"] or "-"))
    print(room_words(listing.get("free"), listing.get("need"), listing.get("full")))
    return 0


def room_words(free, need, full=False):
    """The log area's room in games, as the app's Board page says it: 'Room for 3 more
    games.' (free // need: bytes free, bytes a new game reserves; the bytes are in
    `--json` only); with `full` what to do first.  'Room for more games: the board
    does not say how many.' when it gave no figures."""
    if full:
        return "FULL: pull the logs (`samsara logs pull`) before the next game."
    if not isinstance(free, int) or not isinstance(need, int) or need <= 0 \
            or isinstance(free, bool) or isinstance(need, bool):
        return "Room for more games: the board does not say how many."
    n = max(0, free // need)
    return "Room for %d more game%s." % (n, "" if n == 1 else "s")


# ---- pull ----------------------------------------------------------------------------

def cmd_pull(args):
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn
    from samsara_host import logpull
    out = Console(soft_wrap=True)
    problem = check_dest(args.dest)
    if problem:
        _err("pull", problem)
        return 2    # an output that cannot be: docs/cli.md "Exit codes"
    if args.names is not None:
        # checked before anything is pulled: a pull that cannot be tagged is not begun
        from samsara_host import gametags
        try:
            args.names = gametags.check_names(args.names)
        except gametags.TagError as e:
            _err("pull", "--names: %s" % e)
            return 2
    state = boardlink.State(args.port)
    try:
        hello = state.hello()
        listing = boardlink.list_logs(state.client)
    except boardlink.LinkError as e:
        state.close()
        _err("pull", e)
        return 1
    board = hello.get("board")
    logs = {e["game"]: e for e in listing.get("logs", [])}
    if args.games:
        missing = [g for g in args.games if g not in logs]
        if missing:
            _err("pull", "the board has no log of game %s (it has: %s)" % (
                ", ".join(map(str, missing)), ", ".join(map(str, sorted(logs))) or "none"))
            state.close()
            return 1
        todo = [logs[g] for g in args.games]
    else:
        todo = [e for e in logs.values() if args.all or e["state"] != "pulled"]
    if not todo:
        out.print("Nothing to pull: every log on board %s was pulled already "
                  "(--all pulls them again)." % board)
        state.close()
        return 0
    failed = 0
    current = {}
    try:
        with _progress(out, Progress, TextColumn, BarColumn, DownloadColumn) as bar:
            for e in sorted(todo, key=lambda e: e["game"]):
                game = e["game"]
                dest = os.path.join(args.dest, logpull.local_name(board, game))
                current["game"], current["dest"] = game, dest
                task = bar.add_task("game %d" % game, total=e["size"] or 1)

                def progress(done, size, task=task):
                    bar.update(task, completed=done, total=max(size, 1))

                def gone(err, have, game=game):
                    bar.console.print("[yellow]game %d: the board went away at byte %d "
                                      "(%s); waiting up to %.0f s for it ...[/yellow]"
                                      % (game, have, getattr(err, "why", err), args.wait))

                try:
                    r = logpull.pull_with_reconnect(
                        state, game, dest, e, progress, wait=args.wait, on_disconnect=gone,
                        ack=not args.no_ack)
                except (logpull.PullError, boardlink.LinkError) as err:
                    failed += 1
                    _err("pull", "game %d: %s" % (game, err))
                    if isinstance(err, logpull.BoardGone):
                        rest = [x["game"] for x in todo if x["game"] > game]
                        if rest:
                            _err("pull", "not pulled: game%s %s; run `samsara logs pull` "
                                 "again once the board is back" % (
                                     "" if len(rest) == 1 else "s",
                                     ", ".join(map(str, sorted(rest)))))
                        break
                    continue
                finally:
                    bar.remove_task(task)
                acked = e["state"] == "done" and not args.no_ack
                note = "acknowledged" if acked else (
                    "still running, pull again when it ends" if e["state"] == "running"
                    else "not acknowledged" if args.no_ack else "pulled before")
                if r.get("discarded"):
                    bar.console.print("game %d: the partial copy of an earlier pull (%d "
                                      "bytes) was damaged: discarded it, pulled the whole "
                                      "log again" % (game, r["discarded"]))
                if r.get("reconnects"):
                    note += ", resumed after %d reconnect%s" % (
                        r["reconnects"], "" if r["reconnects"] == 1 else "s")
                if r.get("kept"):
                    note += "; %s holds a different game and was kept" % r["kept"]
                bar.console.print("game %d: %d bytes, %d record%s, CRC %s verified -> %s (%s)"
                                  % (game, r["size"], r["records"],
                                     "" if r["records"] == 1 else "s", r["crc"], r["path"],
                                     note))
                _stamp(bar.console, r["path"], args.names)
                current.clear()
    except KeyboardInterrupt:
        _pull_interrupted(current)
        return 130
    finally:
        state.close()
    return 1 if failed else 0


def check_dest(dest):
    """None when `dest` is (or can be made) a writable folder, else the one-line
    problem, checked before the board is asked for anything."""
    from samsara_host.argtypes import folder_problem
    if not dest.strip():
        return "--dest is empty: name a folder (default: %s)" % DEFAULT_DEST
    return folder_problem(dest, "--dest")


class _NoBar:
    """Progress's stand-in off a terminal: no bar, no blank line left behind."""

    def __init__(self, console):
        self.console = console

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def add_task(self, *a, **k):
        return 0

    def update(self, *a, **k):
        pass

    def remove_task(self, *a):
        pass


def _progress(out, Progress, *columns):
    if not out.is_terminal:
        return _NoBar(out)
    return Progress(*(c() if c.__name__ != "TextColumn" else c("{task.description}")
                      for c in columns), console=out, transient=True)


def _stamp(console, path, names):
    # The date of the pull and the names, in the game's tags sidecar (gametags).
    from samsara_host import gametags
    try:
        tags = gametags.stamp_pull(path, names)
    except (gametags.TagError, OSError) as e:
        _err("pull", "could not write the tags of %s: %s" % (path, e))
        return
    console.print("  tags: %s" % ", ".join('%s "%s"' % kv for kv in sorted(tags.items())),
                  highlight=False)


# ---- tag -----------------------------------------------------------------------------

def cmd_tag(args):
    from samsara_host import gametags, record
    tags = {}
    if args.names is not None:
        try:
            tags["PlayerA"], tags["PlayerB"] = gametags.check_names(args.names)
        except gametags.TagError as e:
            _err("tag", "--names: %s" % e)
            return 2
    for key, value in (("Event", args.event), ("Site", args.site), ("Date", args.date)):
        if value is not None:
            tags[key] = value
    if not tags:
        _err("tag", "nothing to change: give --names A B, --event, --site or --date")
        return 2
    try:
        gametags.check(tags)
    except gametags.TagError as e:
        _err("tag", e)
        return 2
    from samsara_host import games_log
    other = games_log.other_game_of_file(args.file)   # a Samas or Schaska log is a game too
    try:
        rec = gametags.load_tagged(args.file) if other is None else None  # only a game
        merged = gametags.update(args.file, tags)
    except record.RecordError as e:
        _err("tag", "%s: %s" % (args.file, e))
        return 2    # not a game: docs/cli.md "Exit codes"
    except OSError as e:
        _err("tag", "cannot write %s: %s" % (gametags.sidecar(args.file), e.strerror or e))
        return 1
    shown = dict(rec.tags) if rec is not None else {}
    shown.update(merged)
    print("%s: %s" % (gametags.sidecar(args.file),
                      ", ".join('%s "%s"' % (k, shown[k]) for k in gametags.EDITABLE
                                if k in shown)))
    return 0


def _pull_interrupted(current):
    """Ctrl-C during a pull: one line saying what is kept (the resumable part file)."""
    part = current.get("dest", "") + ".part"
    if current and os.path.exists(part):
        _err("pull", "interrupted during game %d: its first %d bytes are kept in %s; "
             "`samsara logs pull` goes on from there; the board still has the game"
             % (current["game"], os.path.getsize(part), part))
    else:
        _err("pull", "interrupted%s; nothing partial is kept, the board still has %s"
             % (" before game %d" % current["game"] if current else "",
                "the game" if current else "its games"))


# ---- export --------------------------------------------------------------------------

def _turn_range(text, n):
    if not text:
        return 0, n
    try:
        if "-" in text:
            a, b = text.split("-", 1)
            lo, hi = int(a), int(b)
        else:
            lo = hi = int(text)
    except ValueError:
        raise ValueError("--turns takes N or A-B, e.g. 10-20, not %r" % text)
    if lo > hi:
        raise ValueError("--turns %s: the first turn comes after the last (write %d-%d; "
                         "turns outside 0-%d do not exist)" % (text, hi, lo, n))
    if not (0 <= lo <= hi <= n):
        raise ValueError("--turns %s outside 0-%d" % (text, n))
    return lo, hi


def _write(path, data):
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)


def check_out(args):
    """None, or the one-line problem with --out, checked before any work (exit 2): its
    parent folder must exist (no folder tree is made); a file output (json, text, gif,
    html, --strip) must not name a folder, a per-turn picture folder not a file."""
    out = args.out
    if not out or (out == "-" and args.format in ("json", "text", "jsonl")):
        return None
    folder = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(folder):
        return "no folder %s for --out %s" % (folder, out)
    if args.format in PICTURE_FORMATS and not args.strip:
        if os.path.exists(out) and not os.path.isdir(out):
            return "--out %s is a file; give a folder for the pictures (or --strip)" % out
        return None
    if os.path.isdir(out):
        ext = "txt" if args.format == "text" else args.format
        stem = os.path.splitext(os.path.basename(args.file))[0]
        return "--out %s names a folder; give a file name, e.g. %s" % (
            out, os.path.join(out, "%s.%s" % (stem, ext)))
    return None


PICTURE_FORMATS = ("svg", "png")
GAME_FORMATS = ("gif", "html")   # the whole game (or --turns) in one file


def check_export_options(args):
    """None, or the one-line problem with options that do not fit the format (--strip
    and --columns are for svg/png, --turns for pictures, GIF and HTML)."""
    if args.format in PICTURE_FORMATS:
        if args.columns is not None and not args.strip:
            return "--columns is for --strip"
        return None
    checks = [("--strip", args.strip, PICTURE_FORMATS),
              ("--columns", args.columns is not None, PICTURE_FORMATS)]
    if args.format not in GAME_FORMATS:
        checks.append(("--turns", args.turns, PICTURE_FORMATS + GAME_FORMATS))
    for flag, given, formats in checks:
        if given:
            return "%s is for pictures (--format %s or %s), not --format %s" % (
                flag, ", ".join(formats[:-1]), formats[-1], args.format)
    return None



def export_jsonl(args, game):
    """`logs export FILE --format jsonl` of a Samas or Schaska log (game): its JSON
    lines (samsara_host.games_log; the start line's "players" with the tags sidecar's
    names over the header's), to --out or stdout.  Returns the exit code."""
    from samsara_host import games_log
    if game is None:
        _err("export", "%s: --format jsonl is for Samas and Schaska logs" % args.file)
        return 2
    for flag, given in (("--strip", args.strip), ("--columns", args.columns is not None),
                        ("--turns", args.turns), ("--analysis", args.analysis)):
        if given:
            _err("export", "%s is not for a %s log (--format jsonl)" % (flag, game))
            return 2
    from samsara_host import gametags
    try:
        with open(args.file, "rb") as f:
            lines = games_log.jsonl_lines(f.read())
        tags = gametags.read(args.file)
    except (OSError, games_log.LogError, gametags.TagError) as e:
        _err("export", "%s: %s" % (args.file, e))
        return 2
    # the players' names: the tags sidecar's (logs tag, a pull's --names, the app) over
    # the log header's
    names = list(lines[0].get("players") or ("", ""))
    names = [tags.get("Player" + side) or n for side, n in zip("AB", names)]
    names = [n if n != "?" else "" for n in names]
    if any(names):
        lines[0]["players"] = names
    text = "".join(json.dumps(x, separators=(",", ":")) + "\n" for x in lines)
    if args.out and args.out != "-":
        try:
            _write(args.out, text)
        except OSError as e:
            _err("export", "cannot write %s: %s" % (args.out, e.strerror or e))
            return 1
        print("wrote %s" % args.out)
    else:
        sys.stdout.write(text)
    return 0


def cmd_export(args):
    from samsara_host import export, games_log, gametags, record
    game = games_log.other_game_of_file(args.file)
    if args.format is None:
        args.format = "jsonl" if game is not None else "text"
    if args.format == "jsonl" or game is not None:
        if args.format != "jsonl":
            _err("export", "%s: a %s log exports as --format jsonl" % (args.file, game))
            return 2
        problem = check_out(args)
        if problem:
            _err("export", problem)
            return 2
        return export_jsonl(args, game)
    problem = check_export_options(args) or check_out(args)
    if problem:
        _err("export", problem)
        return 2
    try:
        rec = gametags.load_tagged(args.file)
    except record.RecordError as e:
        _err("export", "%s: %s" % (args.file, e))
        return 2    # not a game: docs/cli.md "Exit codes"
    _warn_torn("export", args.file, rec)
    analysis = None
    if args.analysis:
        from samsara_host import analysis as an
        if getattr(rec, "torn", None):
            _err("export", "%s: --analysis needs a whole game; this log is torn" % args.file)
            return 2
        analysis = an.analyze_record(rec, args.engine)
    if args.format in ("json", "text"):
        if args.format == "json":
            obj = rec.to_json()
            if analysis is not None:
                obj["analysis"] = analysis
            text = json.dumps(obj, indent=1) + "\n"
        elif analysis is not None:
            text = analysed_text(rec, analysis)
        else:
            text = rec.to_text()
        if args.out and args.out != "-":
            try:
                _write(args.out, text)
            except OSError as e:
                _err("export", "cannot write %s: %s" % (args.out, e.strerror or e))
                return 1
            print("wrote %s" % args.out)
        else:
            sys.stdout.write(text)
        return 0
    try:
        lo, hi = _turn_range(args.turns, len(rec.turns))
    except ValueError as e:
        _err("export", e)
        return 2
    pics = export.pictures(rec, analysis=analysis)[lo:hi + 1]
    stem = os.path.splitext(os.path.basename(args.file))[0]
    base = os.path.dirname(os.path.abspath(args.file))
    try:
        if args.format in GAME_FORMATS:
            path = args.out or os.path.join(base, "%s.%s" % (stem, args.format))
            _write(path, export.gif(pics) if args.format == "gif"
                   else export.html(rec, pics))
            print("wrote %s (%s, turns %d-%d)" % (
                path, _pictures(len(pics), "frame" if args.format == "gif" else "picture"),
                lo, hi))
            return 0
        if args.strip:
            svg = export.strip([s for _t, s in pics], columns=args.columns or 4)
            path = args.out or os.path.join(base, "%s-strip.%s" % (stem, args.format))
            _write(path, svg if args.format == "svg" else export.svg_to_png(svg))
            print("wrote %s (%s, turns %d-%d)" % (path, _pictures(len(pics)), lo, hi))
            return 0
        folder = args.out or os.path.join(base, "%s-%s" % (stem, args.format))
        os.makedirs(folder, exist_ok=True)
        for i, (_title, svg) in enumerate(pics):
            name = os.path.join(folder, "turn-%03d.%s" % (lo + i, args.format))
            _write(name, svg if args.format == "svg" else export.svg_to_png(svg))
    except export.ExportError as e:
        _err("export", e)
        return 1
    except OSError as e:
        _err("export", "cannot write %s: %s" % (e.filename or args.out, e.strerror or e))
        return 1
    print("wrote %s to %s (turn-%03d .. turn-%03d; turn-000 is the start)"
          % (_pictures(len(pics)), folder, lo, hi))
    return 0


def _pictures(n, word="picture"):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def analysed_text(rec, analysis):
    """The text record with the analysis: an [Analysis "..."] tag per player (flags,
    loss, luck) and each turn's verdict as a `{...}` comment after it."""
    from samsara_host.analysis import comment
    from samsara_host.analyze_cmd import summary_line
    saved = dict(rec.tags)
    try:
        rec.tags["Analysis"] = "%s engine, loss in %s" % (analysis["engine"],
                                                          analysis["units"])
        for n in "AB":
            s = analysis["summary"][n]
            rec.tags["Analysis" + n] = summary_line(s, analysis["luck"][n],
                                                    analysis["units"])
        return rec.to_text({t["turn"]: comment(t, analysis["units"])
                            for t in analysis["turns"]})
    finally:
        rec.tags = saved


# ---- show ----------------------------------------------------------------------------

def frame(rec, k):
    """The rich Text shown for turn k (0 = the start) of a replayed record."""
    from rich.text import Text
    from samsara_host import boardview
    n = len(rec.steps)
    if k == 0:
        pos, hl, note = rec.start, (), "start"
    else:
        s = rec.steps[k - 1]
        pos, hl = s.position, boardview.turn_fields(s.notation)
        note = "turn %d: %s %s" % (s.number, "AB"[s.player], s.notation)
    t = Text()
    head = " ".join('%s %s' % (key, rec.tags[key]) for key in ("Game", "Board", "Date")
                    if key in rec.tags)
    pa, pb = rec.tags.get("PlayerA", "?"), rec.tags.get("PlayerB", "?")
    if (pa, pb) != ("?", "?"):
        head += "  A %s vs B %s" % (pa, pb)
    t.append("%s  [%d/%d]\n" % (head or "Samsara game", k, n), style="bold")
    t.append_text(boardview.render(pos, hl, note=note))
    if k == n:
        t.append("\n    " + rec.summary(), style="bold")
    return t


def _read_key():
    import termios
    import tty
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        ch = os.read(fd, 1).decode("latin-1")
        if ch == "\x1b":  # arrow keys: ESC [ C / D
            rest = os.read(fd, 2).decode("latin-1")
            return {"[C": "n", "[D": "p", "[A": "p", "[B": "n"}.get(rest, "q")
        return ch
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


def cmd_show(args, read_key=None, console=None):
    from rich.console import Console
    from samsara_host import gametags, record
    try:
        rec = gametags.load_tagged(args.file)
    except record.RecordError as e:
        _err("show", "%s: %s" % (args.file, e))
        return 2    # not a game: docs/cli.md "Exit codes"
    _warn_torn("show", args.file, rec)
    console = console or Console()
    n = len(rec.steps)
    if not 0 <= args.turn <= n:
        _err("show", "--turn %d is outside the game: its turns are 0-%d (0 is the start)"
             % (args.turn, n))
        return 2
    k = args.turn
    interactive = read_key is not None or (sys.stdin.isatty() and sys.stdout.isatty()
                                           and not args.all and os.name == "posix")
    if not interactive:
        for i in range(k, n + 1):
            console.print(frame(rec, i))
            console.print()
        return 0
    read_key = read_key or _read_key
    while True:
        console.clear()
        console.print(frame(rec, k))
        console.print("\n    n/space/->: next   p/<-: previous   g/G: first/last   q: quit",
                      style="dim")
        key = read_key()
        if key in ("q", "Q", "\x03", "\x04", ""):
            return 0
        if key in ("n", " ", "\r", "\n"):
            k = min(n, k + 1)
        elif key == "p":
            k = max(0, k - 1)
        elif key == "g":
            k = 0
        elif key == "G":
            k = n
