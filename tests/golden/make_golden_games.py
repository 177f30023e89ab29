"""Write the golden games of tests/golden/games/: seeded self-play games of Samas and
Schaska as `samsara rules play --game G --seed N [--layout V,...] --json` prints them.
Each is refereed by the plain readings (plain_samas.py, plain_schaska.py) before it is
written.  Run after a deliberate change of the rules or of the lines:

    python tests/golden/make_golden_games.py
"""
import io
import json
import os
import sys
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
GAMES_DIR = os.path.join(HERE, "games")
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import plain_samas  # noqa: E402
import plain_schaska  # noqa: E402

LOOPING = "+3,+2,+1,-1,+2,-2,+3,8,8,+3,-2,+2,-1,+1,+2,+3"
"""A layout on which random play can run into the turn limit."""

GAMES = [
    # (file name, arguments after `samsara rules play`, how it ends)
    ("samas-seed-5.jsonl", ["--game", "samas", "--seed", "5"], "A reaches the far end"),
    ("samas-seed-4.jsonl", ["--game", "samas", "--seed", "4"], "B runs out, A wins"),
    ("samas-seed-24.jsonl", ["--game", "samas", "--seed", "24"], "a draw after a run-out"),
    ("schaska-seed-3.jsonl", ["--game", "schaska", "--seed", "3"], "the default layout: A home"),
    ("schaska-9-fields-seed-1.jsonl", ["--game", "schaska", "--seed", "1",
                                       "--layout", "+1,+2,+3,-1,8,+2,+1,-2,+1"], "a block"),
    ("schaska-limit-seed-11.jsonl", ["--game", "schaska", "--seed", "11", "--layout", LOOPING],
     "the 400-turn limit"),
]
"""The golden games."""


def play_text(args):
    """What `samsara rules play ARGS --json` prints (run in this process)."""
    from samsara_host.cli import main
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["rules", "play"] + args + ["--json"])
    assert code == 0, (args, code)
    return out.getvalue()


def referee(text):
    """Referee a game's text (JSON lines) with the plain reading of its game; returns the
    number of rounds or turns."""
    lines = [json.loads(x) for x in text.splitlines()]
    if lines[0]["game"] == "samas":
        return plain_samas.referee(lines)
    return plain_schaska.referee(lines)


def main():
    os.makedirs(GAMES_DIR, exist_ok=True)
    for name, args, _how in GAMES:
        text = play_text(args)
        referee(text)
        with open(os.path.join(GAMES_DIR, name), "w", encoding="utf-8") as f:
            f.write(text)
        print("wrote %s (%d lines)" % (name, text.count("\n")))


if __name__ == "__main__":
    main()
