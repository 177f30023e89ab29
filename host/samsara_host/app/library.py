"""The game library of `samsara app` (docs/app.md "Library"): the games pulled into
the logs folder, as `samsara logs pull` stores them (`<folder>/<board>/game-NNNN.log`,
samsara_host.logpull.local_name), with the tags sidecar (samsara_host.gametags).

A game's id is its path under the folder without `.log`, e.g.
`virtual-1a2b3c4d/game-0003`; `find(root, gid)` accepts only ids of files that are
there (no `..`, no other folder).  A torn log (a cut copy, a damaged record) is read
up to its first bad record and says so in `torn`; a file that cannot be read at all
is listed with its `error`.
"""
import os
import re

from samsara_host import games_log, gametags, record

ID_RE = re.compile(r"[A-Za-z0-9._-]{1,64}/game-\d{4,}(-\d+)?$")
"""A game id: `<board folder>/game-NNNN` (or -2, -3 beside it: logpull.place)."""


class NotFound(LookupError):
    """No game with that id in the library."""


def find(root, gid):
    """The file of game `gid` under `root`; raises NotFound."""
    if not isinstance(gid, str) or not ID_RE.match(gid) or ".." in gid:
        raise NotFound(gid)
    path = os.path.join(root, *gid.split("/")) + ".log"
    if not os.path.isfile(path):
        raise NotFound(gid)
    return path


def game_ids(root):
    """Ids of every game log under `root`, newest board folder entries last, sorted."""
    out = []
    try:
        boards = sorted(os.listdir(root))
    except OSError:
        return out
    for b in boards:
        folder = os.path.join(root, b)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if name.endswith(".log"):
                gid = "%s/%s" % (b, name[:-4])
                if ID_RE.match(gid):
                    out.append(gid)
    return out


def _names(tags):
    pa, pb = tags.get("PlayerA", "?"), tags.get("PlayerB", "?")
    return ("" if pa in ("", "?") else pa, "" if pb in ("", "?") else pb)


def summary(root, gid):
    """One game's entry of the list: {"id", "board", "game", "date", "players"
    [A, B] ("" unnamed), "result" (words), "winner" ("A", "B", "draw", "" unfinished),
    "score", "turns" (Samas: rounds), "options" (words), "torn" (words or None),
    "error" (None, or why it cannot be read at all), "kind" ("samsara", "samas",
    "schaska")}.  Raises NotFound."""
    path = find(root, gid)
    number = gid.split("/")[1][5:]
    out = {"id": gid, "board": gid.split("/")[0], "game": number.lstrip("0") or "0",
           "date": "", "players": ["", ""], "result": "", "winner": "", "score": "",
           "turns": 0, "options": "", "torn": None, "error": None, "kind": "samsara"}
    other = games_log.other_game_of_file(path)
    if other is not None:
        return _other_summary(out, path, other)
    try:
        rec = gametags.load_tagged(path)
    except record.RecordError as e:
        out["error"] = str(e)
        return out
    t = rec.tags
    out["date"] = t.get("Date", "").replace("?", "") .strip(".")
    out["players"] = list(_names(t))
    out["result"] = rec.summary()
    res = t.get("Result", "*")
    out["winner"] = "" if res == "*" else res
    out["score"] = t.get("Score", "")
    out["turns"] = len(rec.turns)
    out["options"] = options_words(t)
    out["torn"] = rec.torn
    return out



def _other_summary(out, path, game):
    """summary() of a Samas or Schaska game's log: the players (the tags over the log
    header's names), the result in words (livegames' words), the rounds or turns, its
    "kind" (the game: the page offers no Samsara replay for it)."""
    from samsara_host.app.livegames import GameLiveModel, game_words
    out["kind"] = game
    try:
        with open(path, "rb") as f:
            lines = games_log.jsonl_lines(f.read())
        tags = gametags.read(path)
    except (OSError, games_log.LogError, gametags.TagError) as e:
        out["error"] = str(e)
        return out
    names = list(lines[0].get("players") or ("", ""))
    names = [tags.get("Player" + side) or n for side, n in zip("AB", names)]
    out["players"] = [n if n != "?" else "" for n in names]
    out["date"] = tags.get("Date", "").replace("?", "").strip(".")
    m = GameLiveModel(game)
    m.from_lines(lines)
    m.name(out["players"])
    end = m.over_line()
    out["result"] = m.over_words()[len("Game over: "):] if end else "not finished"
    out["winner"] = end["result"] if end else ""
    out["turns"] = m.steps()
    out["options"] = game_words(game) + (
        "" if game == "samas" else ", layout " + ",".join(
            "8" if v == 8 else "%+d" % v for v in lines[0]["layout"]))
    return out


def options_words(tags):
    """The rule options of a record's tags in words."""
    og = tags.get("OpponentGoal", "owner_scores")
    words = ["a marble in the opponent's goal scores for the goal's owner"
             if og == "owner_scores" else "the opponent's goal is closed"]
    if tags.get("Match", "no") not in ("no", "", "-"):
        words.append("match (%s)" % tags["Match"])
    if tags.get("Position"):
        words.append("own start position")
    return ", ".join(words)


def listing(root):
    """summary() of every game, newest first (board, then game number)."""
    return [summary(root, g) for g in reversed(game_ids(root))]


def load(root, gid):
    """The GameRecord of game `gid` with its sidecar's tags (torn logs allowed).
    Raises NotFound, record.RecordError."""
    return gametags.load_tagged(find(root, gid))


def rename(root, gid, a, b):
    """Set the players' names of game `gid` (its tags sidecar); returns the tags.
    Raises NotFound, gametags.TagError, OSError."""
    path = find(root, gid)
    return gametags.update(path, {"PlayerA": a.strip(), "PlayerB": b.strip()})


def delete(root, gid):
    """Delete the host's copy of game `gid` and its tags sidecar (the board's copy is
    not touched).  Raises NotFound, OSError."""
    path = find(root, gid)
    os.remove(path)
    try:
        os.remove(gametags.sidecar(path))
    except FileNotFoundError:
        pass
