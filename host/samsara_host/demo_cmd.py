"""`samsara demo`: the main job.  Until the simulated board lands this plays one seeded
self-play game on the rules engine."""


def add_parser(sub, name, help_text):
    p = sub.add_parser(name, help=help_text, description=help_text)
    p.add_argument("--seed", type=int, default=7)
    p.set_defaults(func=run)


def run(args):
    from samsara_host.rules_cmd import cmd_play
    args.opponent_goal = "owner_scores"
    return cmd_play(args)
