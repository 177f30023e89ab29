"""`samsara analyze GAME [--json] [--engine host|device] [--deep]`: every turn of a recorded game
against the engine's best, the mistakes flagged, each player's luck (docs/cli.md,
docs/engine.md "Game analysis")."""
import json
import sys


def add_parser(sub, name, help_text):
    p = sub.add_parser(name, help=help_text, description=help_text)
    p.add_argument("file", metavar="GAME", help="a pulled game log, or a record exported "
                   "as JSON or text")
    p.add_argument("--engine", default="host", choices=("host", "device"),
                   help="the engine that judges (default host: win probabilities)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--deep", action="store_true",
                   help="host engine: search close choices (the best two within 0.01) "
                   "one ply deeper, at ply 3 (about 15 s of one core for 40 turns)")
    p.set_defaults(func=cmd_analyze)


def summary_line(s, luck_value, units="win probability"):
    """A player's summary in words from the analysis's summary dict `s` (doubtful,
    mistake, blunder, equity_loss) and luck, e.g. '1 doubtful, 1 mistake, 2 blunders,
    loss 12.0 %, luck +5.0 %' (singular for one; the figures as the app shows them,
    analysis.figure)."""
    from samsara_host.analysis import figure

    def n(k):
        return "%d %s%s" % (s[k], k, "" if s[k] == 1 else "s")
    return "%d doubtful, %s, %s, loss %s, luck %s" % (
        s["doubtful"], n("mistake"), n("blunder"), figure(s["equity_loss"], units),
        figure(luck_value, units, sign=True))


def text_report(res):
    """The analysis dict as lines of text for people (one per turn, then the sums)."""
    from samsara_host.analysis import comment, figure
    names = res["players"]
    unit = res["units"]
    lines = ["Analysis by the %s engine (loss %s; %s)" % (
        res["engine"], "as a share of the chance to win" if unit == "win probability"
        else "in goals", ", ".join("%s from %s" % (k, figure(v, unit))
                                   for k, v in sorted(res["thresholds"].items(),
                                                      key=lambda kv: kv[1])))]
    for t in res["turns"]:
        lines.append("%3d. %s %-28s %s" % (t["turn"], t["player"], t["played"],
                                           comment(t, unit) or "(no choice)"))
    lines.append(res["result"])
    for n in "AB":
        who = n if names[n] in ("", "?") else "%s (%s)" % (n, names[n])
        s = res["summary"][n]
        lines.append("%s: %s" % (who, summary_line(s, res["luck"][n], unit)))
    return lines


def cmd_analyze(args):
    from samsara_host.analysis import analyze_log
    from samsara_host.record import RecordError
    try:
        res = analyze_log(args.file, args.engine, deep=args.deep)
    except RecordError as e:
        print("samsara analyze: %s: %s" % (args.file, e), file=sys.stderr)
        return 2    # a file that is not a whole game: docs/cli.md "Exit codes"
    if args.json:
        print(json.dumps(res, sort_keys=True))
        return 0
    print("\n".join(text_report(res)))
    return 0
