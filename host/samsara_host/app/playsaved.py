"""Keeping a finished Samas or Schaska game of the Play page (docs/app.md "Play"): its
JSON lines (docs/samas.md, docs/schaska.md "JSON lines") in a folder of its own under
the app's games folder, numbered apart from every other folder's games.

    keep_lines(games_dir, "browser-samas", lines)   # -> "browser-samas/game-0001"
"""
import json
import os

NAME = "game-%04d.jsonl"


def keep_lines(games_dir, folder, lines):
    """Write `lines` (dicts) as JSON lines to the next free `<games_dir>/<folder>/
    game-NNNN.jsonl` (never over a file that is there); returns its id
    "<folder>/game-NNNN", or None when the folder cannot be written (the game stays on
    the page)."""
    where = os.path.join(games_dir, folder)
    text = "".join(json.dumps(x, separators=(",", ":")) + "\n" for x in lines)
    try:
        os.makedirs(where, exist_ok=True)
        taken = [int(n[5:9]) for n in os.listdir(where)
                 if n.startswith("game-") and n.endswith(".jsonl") and n[5:9].isdigit()]
        k = max(taken, default=0) + 1
        while True:
            try:
                fd = os.open(os.path.join(where, NAME % k), os.O_WRONLY | os.O_CREAT | os.O_EXCL,
                             0o644)
                break
            except FileExistsError:
                k += 1
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError:
        return None
    return "%s/game-%04d" % (folder, k)
