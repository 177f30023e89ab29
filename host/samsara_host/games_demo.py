"""`samsara demo --game samas|schaska`: a seeded self-play game of Samas or Schaska shown
in the terminal (docs/samas.md, docs/schaska.md "The demo").

The game is the one `samsara rules play --game G --seed N [--layout ...] --json` prints
(samsara_host.samas_lines / schaska_lines.self_play: the same rules modules, the same
seed); this module only shows it.  On a terminal each round (Samas: the secret choices,
then both revealed and the winner's move) or turn (Schaska: the figure that moved) is
drawn live with rich (samas_view, schaska_view), paced so the game takes about
`--duration` seconds.  With --fast, or when the output is not a terminal, it prints one
line per round or turn and the final board.  Either way it ends with the result line,
the same words as `samsara rules play --game G` (e.g. "result: A wins (far end) after
23 rounds"), and writes the game's JSON lines to `<out>/<game>-seed<N>.jsonl`.
"""
import json
import os
import sys
import time

from samsara_host import samas_lines, samas_view, schaska_lines, schaska_view


def samas_steps(lines):
    """(state_obj, shown, note, moved, words) per picture of a Samas game's lines."""
    prev = lines[0]["start"]
    out = [(prev, None, "The start: both Sama-stones on their first hollows.", (), None)]
    for line in lines[1:-1]:
        after, play = line["after"], line["play"]
        k = line["round"]
        out.append((prev, None, "Round %d: both choose in secret ..." % k, (), None))
        moved = tuple(p for p in ("A", "B") if after[p]["hole"] != prev[p]["hole"])
        what = samas_lines.round_words(prev, play, after)
        words = "round %d: A %s, B %s: %s" % (k, play["A"], play["B"], what)
        out.append((after, play, "Round %d revealed: %s." % (k, what), moved, words))
        prev = after
    return out


def schaska_steps(lines):
    """(state_obj, move, note, words) per picture of a Schaska game's lines."""
    out = [(lines[0]["start"], None, "The start: every figure at its start.", None)]
    for line in lines[1:-1]:
        words = "turn %d: %s" % (line["turn"], schaska_lines.move_words(line["player"], line["move"]))
        out.append((line["after"], line["move"], words[0].upper() + words[1:] + ".", words))
    return out


def result_words(game_name, game):
    """The result line, as `samsara rules play --game G` ends: "result: A wins (far end)
    after 23 rounds" (Samas), "result: draw by block after 120 turns" (Schaska)."""
    if game_name == "samas":
        return samas_lines.result_text(game)
    return schaska_lines.result_text(game)


def play(args):
    """The seeded game of args (game, seed, layout tuple): (Game, lines, title)."""
    if args.game == "samas":
        game, lines = samas_lines.self_play(args.seed)
        title = "Samas demo: seed %d" % args.seed
    else:
        game, lines = schaska_lines.self_play(args.seed, args.layout)
        title = "Schaska demo: seed %d, %d fields" % (args.seed, len(args.layout))
    return game, lines, title


def _picture(args, step, title, n, total):
    head = "%s, %s %d of %d" % (title, "round" if args.game == "samas" else "turn", n, total)
    if args.game == "samas":
        state, shown, note, moved, _w = step
        return samas_view.render(state, head, shown, note, moved)
    state, move, note, _w = step
    return schaska_view.render(args.layout, state, head, move, note)


def _final(args, game, lines, title):
    final = lines[-1]["final"]
    words = result_words(args.game, game)
    if args.game == "samas":
        last = lines[-2] if len(lines) > 2 else None
        return samas_view.render(final, title + ", the end", last["play"] if last else None,
                                 words)
    last = lines[-2] if len(lines) > 2 else None
    return schaska_view.render(args.layout, final, title + ", the end",
                               last["move"] if last else None, words)


def run(args, console):
    """Show the game of args on `console` (live on a terminal unless args.fast), print
    the result line and write the JSON lines.  Returns the exit code (0, or 1 when the
    JSON lines cannot be written)."""
    game, lines, title = play(args)
    steps = samas_steps(lines) if args.game == "samas" else schaska_steps(lines)
    # a round's or turn's number for the title: Samas shows each round twice
    per = 2 if args.game == "samas" else 1
    total = len(lines) - 2
    if console.is_terminal and not args.fast:
        from rich.live import Live
        pause = max(0.05, args.duration / max(1, len(steps)))
        with Live(_picture(args, steps[0], title, 0, total), console=console,
                  refresh_per_second=20, transient=False) as lv:
            for i, step in enumerate(steps):
                lv.update(_picture(args, step, title, (i + per - 1) // per, total))
                time.sleep(pause)
            lv.update(_final(args, game, lines, title))
            time.sleep(0.5)
    else:
        head = title
        if args.game == "schaska":
            from schaska.rules.layout import format_layout
            head += ", layout " + format_layout(args.layout)
        console.print(head, highlight=False, soft_wrap=True)
        for step in steps:
            if step[-1]:
                console.print("  " + step[-1], highlight=False, soft_wrap=True)
        console.print(_final(args, game, lines, title))
    console.print(result_words(args.game, game), highlight=False)
    path = os.path.join(args.out, "%s-seed%d.jsonl" % (args.game, args.seed))
    try:
        os.makedirs(args.out, exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            for line in lines:
                f.write(json.dumps(line, separators=(",", ":")) + "\n")
    except OSError as e:
        print("samsara demo: cannot write the game's JSON lines: %s" % e, file=sys.stderr)
        return 1
    console.print("  the game as JSON lines: %s" % path, highlight=False, soft_wrap=True)
    return 0
