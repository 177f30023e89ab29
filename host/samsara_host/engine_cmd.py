"""`samsara engine match`: the strength of two players over N seeded single games;
`samsara engine calibrate`: how far the host engine's win probability can be believed
(docs/engine.md, docs/cli.md)."""
import json
import sys

from samsara.rules import moves as rules


def add_parser(sub, name, help_text):
    p = sub.add_parser(name, help=help_text, description=help_text)
    esub = p.add_subparsers(dest="engine_command", metavar="ACTION")
    m = esub.add_parser("match", help="play N single games between two players, print the score")
    m.add_argument("a", metavar="A", help="player A: random, greedy, device or host")
    m.add_argument("b", metavar="B", help="player B: random, greedy, device or host")
    m.add_argument("--games", type=int, default=100, help="number of single games (default 100)")
    m.add_argument("--seed", type=int, default=1, help="dice seed (default 1)")
    m.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    m.add_argument("--json", action="store_true", help="print one JSON object")
    m.add_argument("--opponent-goal", default="owner_scores", choices=rules.OPTION_NAMES)
    m.set_defaults(func=cmd_match)
    c = esub.add_parser("calibrate", help="play N games host engine against host engine, "
                        "print how well its win probability matches the outcomes")
    c.add_argument("--games", type=int, default=100, help="number of single games (default 100)")
    c.add_argument("--seed", type=int, default=1, help="dice seed (default 1)")
    c.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    c.add_argument("--json", action="store_true", help="print one JSON object")
    c.set_defaults(func=cmd_calibrate)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def cmd_match(args):
    from samsara_host.engine.match import PLAYERS, run_match
    for n in (args.a, args.b):
        if n not in PLAYERS:
            print("samsara engine match: unknown player %r (use %s)"
                  % (n, ", ".join(sorted(PLAYERS))), file=sys.stderr)
            return 2
    if args.games < 1 or args.jobs < 1:
        print("samsara engine match: --games and --jobs must be at least 1", file=sys.stderr)
        return 2
    res = run_match(args.a, args.b, args.games, args.seed, args.jobs,
                    rules.option_code(args.opponent_goal))
    if args.json:
        print(json.dumps(res, sort_keys=True))
        return 0
    lo, hi = res["a_win_rate_ci95"]
    print("%s (A) vs %s (B): %d game%s, seed %d, opponent_goal %s"
          % (args.a, args.b, res["games"], "" if res["games"] == 1 else "s", res["seed"],
             res["opponent_goal"]))
    print("A wins %d, B wins %d, draws %d (Moksha %d)"
          % (res["a_wins"], res["b_wins"], res["draws"], res["moksha_draws"]))
    print("win rate of A %.3f (95 %% interval %.3f-%.3f), draws counted as half"
          % (res["a_win_rate"], lo, hi))
    spd = res["sec_per_decision"]
    print("time per decision: A %.1f ms, B %.1f ms" % (spd["a"] * 1000, spd["b"] * 1000))
    return 0


PROGRESS_EVERY = 10
"""`engine calibrate` prints a progress line on stderr after every this many games."""


def cmd_calibrate(args):
    import time
    if args.games < 1 or args.jobs < 1:
        print("samsara engine calibrate: --games and --jobs must be at least 1", file=sys.stderr)
        return 2
    from samsara_host.engine import calibration
    t0 = time.time()

    def progress(done, games, data):
        if done % PROGRESS_EVERY and done != games:
            return
        table = calibration.reliability(data)
        print("samsara engine calibrate: %d/%d games, %d turns, ece so far %s, %.0f s"
              % (done, games, table["turns"],
                 "-" if table["ece"] is None else "%.3f" % table["ece"], time.time() - t0),
              file=sys.stderr, flush=True)

    res = calibration.run(args.games, args.seed, progress, args.jobs)
    if args.json:
        print(json.dumps(res, sort_keys=True))
        return 0
    for line in calibrate_lines(res):
        print(line)
    return 0


def _f(v, fmt="%.3f"):
    return "-" if v is None else fmt % v


def calibrate_lines(res):
    """The text report of `engine calibrate` from its JSON dict: a list of lines."""
    out = ["host engine against host engine: %d game%s, seed %d, %d turns judged "
           "(%d with an exact value left out: game ends, Moksha)"
           % (res["games"], "" if res["games"] == 1 else "s", res["seed"], res["turns"],
              res["exact_turns"]),
           "win probability of the chosen turn for its mover; calibration map: %s"
           % res["calibration"],
           "",
           "bucket     predicted  observed   count"]
    for b in res["buckets"]:
        out.append("%.1f-%.1f    %-9s  %-9s  %5d" % (b["lo"], b["hi"], _f(b["predicted"]),
                                                 _f(b["observed"]), b["count"]))
    out.append("")
    out.append("ece %s, Brier score %s (the raw network value: ece %s, Brier %s)"
               % (_f(res["ece"], "%.4f"), _f(res["brier"], "%.4f"),
                  _f(res["raw"]["ece"], "%.4f"), _f(res["raw"]["brier"], "%.4f")))
    return out
