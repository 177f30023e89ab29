"""`samsara trace replay|record`: sensor traces from the command line (docs/traces.md)."""
import json
import sys

from samsara.rules import moves as rules
from samsara_host.argtypes import port_arg


def add_parser(sub, name, help_text):
    p = sub.add_parser(name, help=help_text, description=help_text)
    tsub = p.add_subparsers(dest="trace_command", metavar="ACTION")
    rp = tsub.add_parser("replay", help="feed a trace through debounce and controller",
                         description="Replay a sensor trace through the firmware's debounce "
                         "and controller (default settings, scan period, virtual clock) and "
                         "print the game record, rejections, final position and LED scene.")
    rp.add_argument("file", metavar="FILE")
    rp.add_argument("--json", action="store_true", help="print one JSON object (docs/traces.md)")
    rp.set_defaults(func=cmd_replay)
    rc = tsub.add_parser("record", help="write the trace of a simulated game",
                         description="Play a seeded game between two simulated players on "
                         "the simulated board and write every raw sensor change, dice line "
                         "and button press as a trace.")
    rc.add_argument("file", metavar="FILE")
    rc.add_argument("--seed", type=int, default=1)
    rc.add_argument("--noise", type=int, default=1, choices=range(4), metavar="LEVEL",
                    help="0 clean contacts and careful players .. 3 rough (default 1)")
    rc.add_argument("--players", nargs=2, default=["greedy", "greedy"],
                    choices=["greedy", "random"], metavar=("A", "B"),
                    help="strategies of A and B: greedy or random (default greedy greedy)")
    rc.add_argument("--start", metavar="POSITION", help="start position string")
    rc.add_argument("--opponent-goal", default="owner_scores", choices=rules.OPTION_NAMES)
    rc.set_defaults(func=cmd_record)
    pp = tsub.add_parser("pull", help="fetch the board's flight recorder as a trace",
                         description="Fetch the board's flight recorder (the raw sensor "
                         "changes, presses and dice of its last turns) and write it as a "
                         "trace that replays from the roll of the oldest whole turn "
                         "(docs/traces.md \"Flight recorder\").")
    pp.add_argument("--port", type=port_arg, help="serial port or socket:// URL (default: the one board found)")
    pp.add_argument("--out", metavar="FILE",
                    help="trace file (default trace-<board id>-<n>.jsonl here)")
    pp.add_argument("--saved", nargs="?", const=0, type=int, metavar="COPY",
                    help="list the copies saved on flash and fetch the newest (or COPY)")
    pp.add_argument("--json", action="store_true",
                    help="print changes, span_ms, turns, out as one JSON object")
    pp.set_defaults(func=cmd_pull)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def cmd_replay(args):
    from samsara_host.trace import load, replay, TraceError
    try:
        tr = load(args.file)
    except OSError as e:
        print("samsara trace replay: cannot read %s: %s" % (args.file, e.strerror or e),
              file=sys.stderr)
        return 2
    except TraceError as e:
        print("samsara trace replay: %s: %s" % (args.file, e), file=sys.stderr)
        return 2
    rp = replay(tr)
    res = rp.result()
    if args.json:
        print(json.dumps(res))
        return 0
    print(format_replay(args.file, tr, rp, res))
    return 0


def format_replay(name, tr, rp, res):
    """The text report of a replay (docs/traces.md "Replay output")."""
    out = []
    a = out.append
    a("trace %s: %d inputs, the last at %.1f ms; replayed to %d ms in %d ticks"
      % (name, len(tr.lines), tr.end_ms(), rp.end_ms, rp.ticks))
    start = tr.start
    a("start: %s" % start.format())
    a("turns:")
    if not res["turns"]:
        a("   (none)")
    for i, t in enumerate(res["turns"]):
        a("  %3d. %s  %s" % (i + 1, "AB"[(start.mover + i) % 2], t))
    a("rejected:")
    if not res["rejected"]:
        a("   (none)")
    for r in res["rejected"]:
        a("  %10.1f ms  %s" % (r["t_ms"], r["reason"]))
    repairs = [(t, e) for t, e in rp.events if e["ev"] in ("repair", "repair_end")]
    if repairs:
        a("repairs:")
        for t, e in repairs:
            if e["ev"] == "repair":
                a("  %10.1f ms  entered: %s" % (t, e["reason"]))
            else:
                a("  %10.1f ms  left" % t)
    a("final position: %s" % res["final_position"])
    a("state: %s" % res["state"])
    r = res["result"]
    if r is None:
        a("result: none (the game goes on)")
    elif r["winner"] is None:
        a("result: draw by %s (score %s)" % (r["how"], r["score"]))
    else:
        a("result: %s wins %s (score %s)" % (
            r["winner"], "at the centre" if r["how"] == "centre" else r["how"], r["score"]))
    a("scene: %s" % (" ".join("%s=%s" % kv for kv in res["scene"].items()) or "(dark)"))
    return "\n".join(out)


def check_writable(path):
    """None when a file can be written at `path`, else the one-line problem (checked
    before the game is played, so no work is lost to a bad name)."""
    import os
    if os.path.isdir(path):
        return "%s is a folder; name a file, e.g. %s" % (path, os.path.join(path, "game.jsonl"))
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        return "no folder %s for %s" % (folder, path)
    if not os.access(folder, os.W_OK | os.X_OK) or (os.path.exists(path)
                                                    and not os.access(path, os.W_OK)):
        return "cannot write %s (permission denied)" % path
    return None


def _save(path, trace):
    """save() with the OSError as one line; True when written."""
    from samsara_host.trace import save
    try:
        save(path, trace)
    except OSError as e:
        print("samsara trace record: cannot write %s: %s" % (path, e.strerror or e),
              file=sys.stderr)
        return False
    return True


def cmd_record(args):
    from samsara_host.sim.table import Table, SimError
    problem = check_writable(args.file)
    if problem:
        print("samsara trace record: %s" % problem, file=sys.stderr)
        return 2
    try:
        tb = Table(seed=args.seed, noise=args.noise, players=tuple(args.players),
                   position=args.start, opponent_goal=args.opponent_goal)
    except ValueError as e:
        print("samsara trace record: %s" % e, file=sys.stderr)
        return 2
    try:
        tb.run()
    except SimError as e:
        print("samsara trace record: the simulated game got stuck: %s" % e, file=sys.stderr)
        if _save(args.file, tb.trace()):
            print("the trace up to that point is in %s" % args.file, file=sys.stderr)
        return 1
    tr = tb.trace()
    if not _save(args.file, tr):
        return 1
    res = [e for _t, e in tb.driver.events if e["ev"] == "game_over"]
    how = ("%s wins, %s" % (res[0]["winner"], res[0]["score"]) if res and res[0]["winner"]
           else (res[0]["how"] if res else "unfinished"))
    print("%s: %d lines, %d turns, %.1f s of play, %s; final position %s"
          % (args.file, len(tr.lines) + 1, len(tb.turns()), tb.now / 1000.0, how,
             tb.final_position()))
    return 0


def default_out(board, folder="."):
    """trace-<board id>-<n>.jsonl in `folder` with the first n from 1 not yet taken."""
    import os
    n = 1
    while True:
        name = os.path.join(folder, "trace-%s-%d.jsonl" % (board or "board", n))
        if not os.path.exists(name):
            return name
        n += 1


def cmd_pull(args):
    from samsara_host import boardlink
    from samsara_host.flightpull import fetch, to_trace, FlightError
    problem = check_writable(args.out) if args.out else None
    if problem:       # a given --out is checked before the board is asked
        print("samsara trace pull: %s" % problem, file=sys.stderr)
        return 2
    state = boardlink.State(args.port)
    try:
        hello = state.hello()
        board = hello.get("board")
        copy = -1
        if args.saved is not None:
            copies = state.client.request("flight_list").get("copies", [])
            if not args.json:
                for c in copies:
                    print("copy %d: %d bytes, saved after %s" % (
                        c["copy"], c["size"], _why(c["why"])))
            if not copies:
                print("samsara trace pull: the board has no saved flight copy",
                      file=sys.stderr)
                return 1
            copy = args.saved or copies[-1]["copy"]
        data = fetch(state.client, copy)
    except boardlink.LinkError as e:
        print("samsara trace pull: %s" % boardlink.explain(e), file=sys.stderr)
        return 1
    except FlightError as e:
        print("samsara trace pull: %s" % e, file=sys.stderr)
        return 1
    finally:
        state.close()
    try:
        tr, info = to_trace(data, board)
    except FlightError as e:
        print("samsara trace pull: %s" % e, file=sys.stderr)
        return 1
    out = args.out or default_out(board)
    problem = check_writable(out)
    if problem:
        print("samsara trace pull: %s" % problem, file=sys.stderr)
        return 2
    from samsara_host.trace import save
    save(out, tr)
    res = {"changes": info["changes"], "span_ms": info["span_ms"], "turns": info["turns"],
           "out": out}
    if args.json:
        print(json.dumps(res))
    else:
        print("%s: %d raw changes, %d turns, %.1f s (from the roll of the oldest whole "
              "turn); samsara trace replay %s" % (out, res["changes"], res["turns"],
                                                  res["span_ms"] / 1000.0, out))
    return 0


def _why(code):
    from samsara_host.flightpull import WHY
    return WHY.get(code, str(code))
