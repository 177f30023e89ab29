"""`samsara demo`: the main job (issue 3 §6, docs/simulator.md).

Two simulated players play a complete game on the simulated board: every marble they
move becomes raw sensor changes (with the reed chatter, rocking, slides, knocks and
wrong holes of the chosen noise level) that go through the firmware's debounce,
controller, LED scene and power limiter, and its event stream, exactly as on the Pico.

On a terminal the game is shown live (rich): the board with its lit holes in their
colours, the dice display, scores, state and events.  The game is played twice: first
at full speed, only to learn how long it lasts in board time, then live at the pace
that fits `--duration` seconds (never slower than real time).  With --fast, or when
the output is not a terminal, it prints one line per turn instead.  At the end it
prints the game record and writes an SVG picture of the final position (and the
game's trace, which `samsara trace replay` replays), and prints their paths.

With --game samas or --game schaska it shows a seeded self-play game of that game
instead (samsara_host.games_demo; --layout sets Schaska's track).
"""
import argparse
import math
import os
import sys
import time

DEFAULT_SEED = 10
OUT_DIR = os.path.join("build", "demo")


def positive_float(text):
    """argparse type: a finite number > 0 (board time must run forwards and end)."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a number" % text)
    if not math.isfinite(v) or v <= 0:
        raise argparse.ArgumentTypeError("must be a finite number > 0, not %s" % text)
    return v


def plural(n, word, many=None):
    """'1 slide', '2 slides' (many: the plural when it is not word + 's')."""
    return "%d %s" % (n, word if n == 1 else (many or word + "s"))


PLAYERS = ("greedy", "random", "device", "host")
"""The players `--players` seats (samsara_host.sim.player.STRATEGIES): the simulator's
strategies and the two engines (docs/engine.md)."""


def player_names(text):
    """argparse type: one or two player names (comma-separated), each in PLAYERS."""
    names = [n for n in text.split(",") if n]
    if not names or len(names) > 2:
        raise argparse.ArgumentTypeError("give two players, e.g. device greedy or device,greedy")
    for n in names:
        if n not in PLAYERS:
            raise argparse.ArgumentTypeError("unknown player %r (use %s)" % (n, ", ".join(PLAYERS)))
    return names


def two_players(groups):
    """The two player names of --players (a list of player_names lists); None when
    they are not exactly two."""
    names = [n for g in groups for n in g]
    return names if len(names) == 2 else None


def check_out(path):
    """Make the output folder before the game is played; None, or the one-line problem
    (not a folder, cannot be made, not writable)."""
    from samsara_host.argtypes import folder_problem
    return folder_problem(path, "--out")


GAMES = ("samsara", "samas", "schaska")
"""The games of --game (docs/samas.md, docs/schaska.md); samsara is the default."""
SAMSARA_ONLY = (("noise", "--noise"), ("players", "--players"), ("speed", "--speed"))
"""(argument, option) pairs that only Samsara's demo (the simulated board) reads."""


def add_parser(sub, name, help_text):
    p = sub.add_parser(name, help=help_text, description=help_text)
    p.add_argument("--game", default="samsara", choices=GAMES,
                   help="the game (default samsara; samas and schaska: a self-play game "
                   "on the rules, no simulated board)")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help="game seed (default %d)" % DEFAULT_SEED)
    p.add_argument("--layout", default=None, metavar="V1,V2,...",
                   help="Schaska: the field values of the track (default docs/schaska.md)")
    p.add_argument("--noise", type=int, default=None, choices=range(4), metavar="LEVEL",
                   help="physical roughness 0..3 (default 2)")
    p.add_argument("--players", nargs="+", type=player_names, default=None,
                   metavar="A B",
                   help="players of A and B: %s (default greedy greedy; also A,B)"
                   % ", ".join(PLAYERS))
    p.add_argument("--fast", action="store_true",
                   help="no live view: play at full speed, one line per turn")
    p.add_argument("--duration", type=positive_float, default=40.0, metavar="S",
                   help="seconds the live game should take (default 40)")
    p.add_argument("--speed", type=positive_float, default=None, metavar="X",
                   help="board milliseconds per real millisecond (overrides --duration)")
    p.add_argument("--out", default=OUT_DIR, metavar="DIR",
                   help="where the SVG and the trace go (default %s)" % OUT_DIR)
    p.set_defaults(func=run)


def _table(args):
    from samsara_host.sim.table import Table
    return Table(seed=args.seed, noise=args.noise, players=tuple(args.players))


def _other_game(args, console):
    """--game samas|schaska: check the options, then samsara_host.games_demo.run."""
    wrong = [opt for name, opt in SAMSARA_ONLY if getattr(args, name) is not None]
    if args.game == "samas" and args.layout is not None:
        wrong.append("--layout")
    if wrong:
        print("samsara demo: %s is not for --game %s" % (wrong[0], args.game), file=sys.stderr)
        return 2
    if args.game == "schaska":
        from schaska.rules.layout import DEFAULT, LayoutError, parse_layout
        try:
            args.layout = DEFAULT if args.layout is None else parse_layout(args.layout)
        except LayoutError as e:
            print("samsara demo: --layout: %s" % e, file=sys.stderr)
            return 2
    problem = check_out(args.out)
    if problem:
        print("samsara demo: %s" % problem, file=sys.stderr)
        return 2
    from samsara_host import games_demo
    try:
        return games_demo.run(args, console)
    except KeyboardInterrupt:
        print("samsara demo: interrupted", file=sys.stderr)
        return 130


def run(args):
    from rich.console import Console
    from samsara_host.sim.table import SimError
    console = Console()
    if args.game != "samsara":
        return _other_game(args, console)
    if args.layout is not None:
        print("samsara demo: --layout is for --game schaska", file=sys.stderr)
        return 2
    if args.noise is None:
        args.noise = 2
    if args.players is None:
        args.players = [["greedy", "greedy"]]
    players = two_players(args.players)
    if players is None:
        print("samsara demo: --players takes two players, e.g. --players device greedy",
              file=sys.stderr)
        return 2
    args.players = players
    problem = check_out(args.out)
    if problem:
        print("samsara demo: %s" % problem, file=sys.stderr)
        return 2
    live = console.is_terminal and not args.fast
    t0 = time.time()
    try:
        if live:
            table = _run_live(args, console)
        else:
            table = _run_fast(args, console)
    except KeyboardInterrupt:
        return _interrupted(args)
    except SimError as e:
        console.print("[bold red]the simulated game got stuck:[/] %s" % e)
        return 1
    try:
        _finish(args, table, console, time.time() - t0)
    except OSError as e:
        print("samsara demo: cannot write the picture or trace: %s" % e, file=sys.stderr)
        return 1
    return 0


_RUNNING = [None]   # the table being played, for a Ctrl-C's partial trace


def _interrupted(args):
    """Ctrl-C: keep the partial game's trace and say so in one line; exit code 130."""
    from samsara_host.trace import save
    table = _RUNNING[0]
    if table is None:
        print("samsara demo: interrupted before the game started; nothing kept",
              file=sys.stderr)
        return 130
    path = os.path.join(args.out, "demo-seed%d-partial.jsonl" % args.seed)
    try:
        os.makedirs(args.out, exist_ok=True)
        save(path, table.trace())
    except OSError as e:
        print("samsara demo: interrupted; the partial trace could not be written: %s" % e,
              file=sys.stderr)
        return 130
    print("samsara demo: interrupted after %d turns; the partial game's trace is kept in "
          "%s (samsara trace replay %s)" % (len(table.turns()), path, path), file=sys.stderr)
    return 130


def _run_fast(args, console):
    table = _table(args)
    _RUNNING[0] = table
    seen = 0
    start = table.start.mover
    console.print("Samsara demo: seed %d, noise %d, A (%s) vs B (%s), simulated board"
                  % (args.seed, args.noise, args.players[0], args.players[1]))
    n = 0
    while table.step_until(table.wake):
        ev = table.driver.events
        while seen < len(ev):
            t, e = ev[seen]
            seen += 1
            if e["ev"] == "turn":
                console.print("%7.1f s  %3d. %s  %s" % (t / 1000.0, n + 1, "AB"[(start + n) % 2],
                                                       e["turn"]), highlight=False)
                n += 1
    return table


def _run_live(args, console):
    from rich.live import Live
    from samsara_host.live import render
    if args.speed:
        speed = args.speed
    else:
        probe = _table(args).run()
        speed = max(1.0, probe.now / (1000.0 * max(1.0, args.duration)))
    table = _table(args)
    _RUNNING[0] = table
    title = "Samsara demo: seed %d, noise %d, A (%s) vs B (%s)" % (
        args.seed, args.noise, args.players[0], args.players[1])
    frame_s = 1.0 / 20
    with Live(render(table, title, speed=speed), console=console, refresh_per_second=20,
              transient=False) as lv:
        w0 = time.monotonic()
        going = True
        while going:
            going = table.step_until((time.monotonic() - w0) * 1000.0 * speed)
            lv.update(render(table, title, speed=speed))
            time.sleep(frame_s)
        time.sleep(1.0)
    return table


def _finish(args, table, console, wall_s):
    from samsara_host import svg
    from samsara_host.trace import save, scene_rgb
    from samsara_host.live import describe_event
    c = table.controller
    turns = table.turns()
    start = table.start.mover
    console.print()
    console.print("[bold]Game record[/] (seed %d, noise %d, A %s, B %s)"
                  % (args.seed, args.noise, args.players[0], args.players[1]))
    for i, t in enumerate(turns):
        console.print("  %3d. %s  %s" % (i + 1, "AB"[(start + i) % 2], t), highlight=False)
    result = [e for _t, e in table.driver.events if e["ev"] == "game_over"]
    res_line = describe_event(result[0]) if result else "the game did not finish"
    pos = c.position().format()
    console.print("  %s" % res_line, highlight=False)
    console.print("  final position: %s" % pos, highlight=False)
    rejects = sum(1 for _t, e in table.driver.events if e["ev"] == "reject")
    repairs = sum(1 for _t, e in table.driver.events if e["ev"] == "repair")
    st = table.stats
    console.print("  board: %d raw changes in %.1f s of board time, %d ticks run"
                  % (sum(1 for x in table.record if "pos" in x), table.now / 1000.0,
                     table.driver.ticks), highlight=False)
    console.print("         %s, %s" % (plural(rejects, "rejection"), plural(repairs, "repair")),
                  highlight=False)
    console.print("  hands: %s, %s, %d put back, %s (%d bumped),"
                  % (plural(st.slides, "slide"), plural(st.wrong, "wrong hole"), st.back,
                     plural(st.knocks, "knock"), st.bumps), highlight=False)
    console.print("         %s, %s" % (plural(st.double, "double lift"),
                                       plural(st.rocks, "rocking marble")), highlight=False)
    os.makedirs(args.out, exist_ok=True)
    base = os.path.join(args.out, "demo-seed%d" % args.seed)
    notes = [res_line, "final position: " + pos,
             "%d turns; record and trace: %s.jsonl" % (len(turns), os.path.basename(base))]
    path = svg.write(base + ".svg", c.position(), scene_rgb(table.board.limited_scene()),
                     title="Samsara demo, seed %d: A (%s) vs B (%s)" % (
                         args.seed, args.players[0], args.players[1]), notes=notes)
    save(base + ".jsonl", table.trace())
    # Paths are printed whole (never wrapped), so they can be copied.
    console.print("  picture of the final position: [bold]%s[/]" % path, highlight=False,
                  soft_wrap=True)
    console.print("  trace of the game: %s.jsonl" % base, highlight=False, soft_wrap=True)
    console.print("    (replay it: samsara trace replay %s.jsonl)" % base, highlight=False,
                  soft_wrap=True)
    console.print("  demo took %.1f s" % wall_s, style="dim", highlight=False)
