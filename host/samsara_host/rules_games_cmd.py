"""`samsara rules legal|play --game samas|schaska`: the Samas and Schaska rules from the
command line (docs/cli.md, docs/samas.md, docs/schaska.md).  `rules_cmd` registers the
options and hands these games' actions here."""
import json
import sys

from samas.rules.state import State as SamasState
from schaska.rules.layout import DEFAULT, LayoutError, parse_layout
from schaska.rules.state import State as SchaskaState
from samsara_host import samas_lines, schaska_lines

SAMSARA_ONLY = (("position", "--position"), ("dice", "--dice"),
                ("opponent_goal", "--opponent-goal"), ("engine", "--engine"))
"""(argument, option) pairs that only Samsara's rules read."""
OTHERS_ONLY = (("state", "--state"), ("layout", "--layout"), ("json", "--json"))
"""(argument, option) pairs that only Samas and Schaska read."""


def dumps(obj):
    """One JSON line as the issue's and the docs' lines are written: no spaces."""
    return json.dumps(obj, separators=(",", ":"))


def misplaced_option(args):
    """The one-line error for an option given with a game that does not read it, or None."""
    if args.game == "samsara":
        wrong = [opt for name, opt in OTHERS_ONLY if getattr(args, name, None) not in (None, False)]
        if wrong:
            return "%s is for --game samas and schaska" % wrong[0]
        return None
    wrong = [opt for name, opt in SAMSARA_ONLY if getattr(args, name, None) is not None]
    if wrong:
        return "%s is for --game samsara" % wrong[0]
    if args.game == "samas" and getattr(args, "layout", None) is not None:
        return "--layout is for --game schaska"
    return None


def _layout(args):
    """The layout tuple of --layout (the default layout without it); LayoutError."""
    if args.layout is None:
        return DEFAULT
    return parse_layout(args.layout)


def answer(game, layout, text):
    """The answer to one state (JSON text) of `rules legal`: a dict for the output line;
    {"error": "..."} for a line that is not a state of that game."""
    try:
        obj = json.loads(text)
    except ValueError as e:
        return {"error": "bad JSON: %s" % e}
    except RecursionError:
        return {"error": "bad JSON: nested too deeply"}
    try:
        if game == "samas":
            return samas_lines.legal_answer(SamasState.from_obj(obj))
        return schaska_lines.legal_answer(layout, SchaskaState.from_obj(obj, len(layout)))
    except ValueError as e:
        return {"error": "bad state: %s" % e}


def cmd_legal(args):
    """`rules legal --game samas|schaska --state S | --batch`: one JSON line per state."""
    try:
        layout = _layout(args) if args.game == "schaska" else None
    except LayoutError as e:
        print("samsara rules legal: --layout: %s" % e, file=sys.stderr)
        return 2
    if args.batch:
        if args.state is not None:
            print("samsara rules legal: --batch reads states from stdin; it cannot be "
                  "combined with --state", file=sys.stderr)
            return 2
        for line in sys.stdin:
            if line.strip():
                sys.stdout.write(dumps(answer(args.game, layout, line)) + "\n")
                sys.stdout.flush()
        return 0
    if args.state is None:
        print("samsara rules legal: give --state S (a %s state object) or --batch"
              % args.game.capitalize(), file=sys.stderr)
        return 2
    out = answer(args.game, layout, args.state)
    if "error" in out:
        print("samsara rules legal: --state: %s" % out["error"], file=sys.stderr)
        return 2
    print(dumps(out))
    return 0


def cmd_play(args):
    """`rules play --game samas|schaska --seed N [--layout V,...] [--json]`."""
    if args.game == "samas":
        game, lines = samas_lines.self_play(args.seed)
        text = samas_lines.text_lines
    else:
        try:
            layout = _layout(args)
        except LayoutError as e:
            print("samsara rules play: --layout: %s" % e, file=sys.stderr)
            return 2
        game, lines = schaska_lines.self_play(args.seed, layout)
        text = schaska_lines.text_lines
    if args.json:
        sys.stdout.write("".join(dumps(line) + "\n" for line in lines))
    else:
        sys.stdout.write("".join(t + "\n" for t in text(args.seed, game, lines)))
    return 0
