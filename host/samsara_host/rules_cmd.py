"""`samsara rules legal|play|best`: the rules engine from the command line (docs/cli.md)."""
import json
import sys

from samsara.rules.position import Position, PositionError
from samsara.rules import moves as rules
from samsara.rules.game import Game


GAMES = ("samsara", "samas", "schaska")
"""The games of `--game` (docs/samas.md, docs/schaska.md); samsara is the default."""


def add_parser(sub, name, help_text):
    p = sub.add_parser(name, help=help_text, description=help_text)
    rsub = p.add_subparsers(dest="rules_command", metavar="ACTION")
    lg = rsub.add_parser("legal", help="list the legal complete turns of a roll "
                         "(Samas, Schaska: the legal choices of a state)")
    _game_option(lg, GAMES)
    lg.add_argument("--position", help="position string (docs/rules.md §5)")
    lg.add_argument("--dice", nargs=2, type=int, metavar=("A", "B"))
    lg.add_argument("--batch", action="store_true",
                    help='read JSON lines {"position": ..., "dice": [a, b]} from stdin '
                    "(Samas, Schaska: one state object a line)")
    lg.add_argument("--opponent-goal", choices=rules.OPTION_NAMES,
                    help="rule option (default owner_scores)")
    lg.add_argument("--state", help="Samas, Schaska: a state object (JSON, docs/samas.md, "
                    "docs/schaska.md)")
    lg.add_argument("--layout", metavar="V,...",
                    help="Schaska: the field values, e.g. +1,+2,-1,8,... (default: docs/schaska.md)")
    lg.set_defaults(func=cmd_legal)
    pl = rsub.add_parser("play", help="play one seeded self-play game and print its record")
    _game_option(pl, GAMES)
    pl.add_argument("--seed", type=int, default=1)
    pl.add_argument("--opponent-goal", choices=rules.OPTION_NAMES,
                    help="rule option (default owner_scores)")
    pl.add_argument("--layout", metavar="V,...",
                    help="Schaska: the field values, e.g. +1,+2,-1,8,... (default: docs/schaska.md)")
    pl.add_argument("--json", action="store_true",
                    help="Samas, Schaska: the game as JSON lines (docs/samas.md, docs/schaska.md)")
    pl.set_defaults(func=cmd_play)
    bs = rsub.add_parser("best", help="the engine's turn for a roll and its evaluation")
    _game_option(bs, ("samsara",))
    bs.add_argument("--position", required=True, help="position string (docs/rules.md §5)")
    bs.add_argument("--dice", nargs=2, type=int, metavar=("A", "B"), required=True)
    bs.add_argument("--engine", default="device", choices=("device", "host"))
    bs.add_argument("--opponent-goal", choices=rules.OPTION_NAMES,
                    help="rule option (default owner_scores)")
    bs.add_argument("--seed", type=int, default=1, help="the engine's tie-break seed (default 1)")
    bs.set_defaults(func=cmd_best)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def _game_option(parser, games):
    parser.add_argument("--game", default="samsara", choices=games,
                        help="the game (default samsara%s)" % (
                            "" if len(games) > 1 else "; no engine for the others yet"))


def _option_code(args):
    """The rule option code of --opponent-goal (owner_scores when not given)."""
    return rules.option_code(args.opponent_goal or "owner_scores")


def _misplaced(args, action):
    """True after printing the one-line error when an option does not fit --game."""
    from samsara_host.rules_games_cmd import misplaced_option
    msg = misplaced_option(args)
    if msg:
        print("samsara rules %s: %s" % (action, msg), file=sys.stderr)
        return True
    return False


def _position_and_dice(args, action):
    """The Position of --position, with --dice checked (1..6); None after printing the
    one-line error of `samsara rules ACTION`."""
    try:
        pos = Position.parse(args.position)
        for d in args.dice:
            rules.check_die(d)
    except ValueError as e:
        print("samsara rules %s: %s" % (action, e), file=sys.stderr)
        return None
    return pos


def cmd_legal(args):
    if _misplaced(args, "legal"):
        return 2
    if args.game != "samsara":
        from samsara_host.rules_games_cmd import cmd_legal as other_legal
        return other_legal(args)
    og = _option_code(args)
    if args.batch:
        if args.position is not None or args.dice is not None:
            print("samsara rules legal: --batch reads positions and dice from stdin; "
                  "it cannot be combined with --position or --dice", file=sys.stderr)
            return 2
        return batch(sys.stdin, sys.stdout, og)
    if args.position is None or args.dice is None:
        print("samsara rules legal: give --position and --dice A B, or --batch", file=sys.stderr)
        return 2
    pos = _position_and_dice(args, "legal")
    if pos is None:
        return 2
    game = Game(pos, og)
    turns = game.legal_turns(args.dice[0], args.dice[1])
    if not turns:
        print("Moksha")
        return 0
    for note, res in turns:
        print("%s\t%s" % (note, res.format()))
    return 0


def batch_line(line, og):
    """Answer one --batch input line: a dict for the JSON output line (docs/cli.md)."""
    try:
        req = json.loads(line)
    except ValueError as e:
        return {"error": "bad JSON: %s" % e}
    except RecursionError:
        return {"error": "bad JSON: nested too deeply"}
    if not isinstance(req, dict):
        return {"error": "each line must be a JSON object"}
    dice = req.get("dice")
    if (not isinstance(dice, list) or len(dice) != 2
            or any(type(d) is not int or not 1 <= d <= 6 for d in dice)):
        return {"error": "dice must be a list of two integers 1..6, got %s" % json.dumps(dice)}
    if "position" not in req:
        return {"error": "missing key 'position'"}
    try:
        moksha, results = rules.turn_results(req["position"], dice[0], dice[1], og)
    except PositionError as e:
        return {"error": "bad position: %s" % e}
    return {"moksha": moksha, "results": results}


def batch(inp, out, og):
    """Stream --batch: one JSON answer per non-blank input line, flushed as it goes."""
    for line in inp:
        if not line.strip():
            continue
        out.write(json.dumps(batch_line(line, og)) + "\n")
        out.flush()
    return 0


def play_record(seed, og):
    """The GameRecord of self-play game `seed` (replayed and checked like any record),
    with the Event, Seed, players and Final (the last position) tags."""
    from samsara_host.record import GameRecord
    from samsara_host.selfplay import play_game
    game = play_game(seed, og)
    rec = GameRecord({"Event": "self-play", "Seed": str(seed), "PlayerA": "random",
                      "PlayerB": "random", "OpponentGoal": rules.OPTION_NAMES[og],
                      "Match": "no", "Final": ""}, turns=game.record)
    rec.replay()
    return rec


def cmd_play(args):
    if _misplaced(args, "play"):
        return 2
    if args.game != "samsara":
        from samsara_host.rules_games_cmd import cmd_play as other_play
        return other_play(args)
    og = _option_code(args)
    # The text form of `logs export --format text`: `logs show` and `logs export` read it.
    sys.stdout.write(play_record(args.seed, og).to_text())
    return 0


def best_turn(position, d1, d2, engine="device", og=rules.OWNER_SCORES, seed=1):
    """The engine's turn for a roll: (turn notation, resulting position string with the
    other player to move, value in the engine's units: device a goal = 1000, host the
    mover's win probability 0..1, docs/engine.md),
    or None for Moksha.  position: a Position; engine 'device' or 'host'."""
    from samsara.rules import engine as dev
    from samsara.rules.notation import format_turn
    from samsara.rules.position import format_position
    if engine == "host":
        from samsara_host.engine import hostengine
        choose = hostengine.choose
    else:
        choose = dev.choose
    p = position
    res = choose(p.r, p.s, p.a, p.b, p.mover, d1, d2, og, seed)
    if res is None:
        return None
    moves, k, value = res
    return (format_turn(d1, d2, moves), format_position(k[0], k[1], k[2], k[3], 1 - p.mover), value)


def cmd_best(args):
    pos = _position_and_dice(args, "best")
    if pos is None:
        return 2
    if pos.a == 6 and pos.b == 6:
        # Legal as a position (scores 0..6: a match's final turn starts from a 6), but
        # at 6-6 the game has ended (docs/rules.md section 4): no turn to find.
        print("Game over: both scores are 6 (both scoring pieces on the centre), no turn to play")
        return 0
    res = best_turn(pos, args.dice[0], args.dice[1], args.engine,
                    _option_code(args), args.seed)
    if res is None:
        print("Moksha")
        return 0
    # the columns named in a first line (a '#' line that scripts skip)
    print("# turn\tposition after it\t%s" % BEST_VALUE[args.engine])
    if args.engine == "host":
        print("%s\t%s\t%.3f" % res)
    else:
        print("%s\t%s\t%d" % res)
    return 0


BEST_VALUE = {"device": "value (a goal = 1000, a won game 1000000)",
              "host": "the mover's chance to win (0..1)"}
"""The label of `rules best`'s third column, by engine (docs/cli.md)."""
