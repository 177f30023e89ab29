"""A game record on the host: tags, the start position and the turns, replayed and
checked by the rules engine; its text form (like chess's PGN) and its JSON form
(docs/host-tool.md "Game record formats").

Text form::

    [Event "Samsara game"]
    [Date "2026.11.29"]
    [Board "e6614c311b5a7c2d"]
    [Game "7"]
    [PlayerA "?"]
    [PlayerB "?"]
    [Starter "A"]
    [OpponentGoal "owner_scores"]
    [Match "no"]
    [Result "A"]
    [Score "6-2"]
    [Points "4-0"]
    [Termination "centre"]

      1. A 53 5:R1-S18 3:R2-S17
      2. B 64 6:S1-S7 4:S2-S6
      ...
    A wins at the centre (score 6-2, points 4-0)

Tags are `[Name "value"]` lines (a `"` or `\\` in a value is escaped with `\\`).
`Result` is `A`, `B`, `draw` or `*` (unfinished); `Position` appears when the game did
not start from the start position (like PGN's FEN tag); `Final`, when present (`samsara
rules play` writes it), is the position after the last turn, recomputed on replay like
`Score`.  A turn line is
`<number>. <A|B> <turn notation>` (docs/rules.md §5), optionally followed by a comment
in braces, `{...}` (`samsara logs export --analysis` writes the analysis there).  The
closing line is a comment for people; the reader ignores it and the braces.

`parse_text` and `from_json` replay every turn and raise RecordError (with the line
number) for anything that is not a legal game: a garbage file never gets as far as a
picture.
"""
import json
import re

from samsara.rules import moves as rules
from samsara.rules.game import Game
from samsara.rules.position import Position, PositionError

TAG_ORDER = ("Event", "Site", "Date", "Board", "Game", "Seed", "PlayerA", "PlayerB", "Starter",
             "VsBoard", "Level", "Far", "Online", "Position", "OpponentGoal", "Match", "Result", "Score", "Points",
             "Termination", "Final", "Firmware")
START = Position().format()


class RecordError(ValueError):
    """A file or log that is not a valid game record; str() says where and why."""


def _esc(v):
    return str(v).replace("\\", "\\\\").replace('"', '\\"')


def _unesc(v):
    return re.sub(r"\\(.)", r"\1", v)


class Step:
    """One turn of a replayed record: number (1..), player (0/1), notation, the
    Position after it, and the turn's sub-move tuples."""

    def __init__(self, number, player, notation, position, moves):
        self.number = number
        self.player = player
        self.notation = notation
        self.position = position
        self.moves = moves


class GameRecord:
    """tags (dict, str values), start (Position), turns (list of turn notation).

    `replay()` plays the turns with the rules engine and returns the Steps; it
    also sets `result` (Game.result), `final` (the last Position) and fills the Result,
    Score, Points and Termination tags from the play.  Raises RecordError.
    """

    def __init__(self, tags=None, start=None, turns=()):
        self.tags = dict(tags or {})
        self.start = start if start is not None else Position()
        self.turns = list(turns)
        self.result = None
        self.final = self.start
        self.torn = None         # a torn log's "where and why" (from_log), else None
        self.steps = []

    # -- rules -------------------------------------------------------------------------
    def option_code(self):
        name = self.tags.get("OpponentGoal", "owner_scores")
        if name not in rules.OPTION_NAMES:
            raise RecordError("unknown OpponentGoal %r (use %s)"
                              % (name, " or ".join(rules.OPTION_NAMES)))
        return rules.option_code(name)

    def is_match(self):
        return self.tags.get("Match", "no") not in ("no", "", "-")

    def replay(self, line_numbers=None):
        """Play every turn; returns the list of Steps.  line_numbers: the source line of
        each turn, for error messages."""
        from samsara.rules.notation import read_turn
        game = Game(self.start, self.option_code(), match=self.is_match(),
                    starter=self.start.mover)
        steps = []
        for i, note in enumerate(self.turns):
            where = ("line %d" % line_numbers[i]) if line_numbers else ("turn %d" % (i + 1))
            if game.over():
                raise RecordError("%s: %r follows the end of the game" % (where, note))
            p = game.pos
            try:
                dice, moves, key = read_turn(p.r, p.s, p.a, p.b, p.mover, note, game.og)
                recorded = game.apply(dice[0], dice[1], moves, key)
            except ValueError as e:
                raise RecordError("%s: %s" % (where, e))
            steps.append(Step(i + 1, p.mover, recorded, game.pos, moves))
        self.steps = steps
        self.final = game.pos
        self.result = game.result
        self._result_tags(game)
        return steps

    def _result_tags(self, game):
        t = self.tags
        t["Score"] = "%d-%d" % (game.pos.a, game.pos.b)
        if "Final" in t:  # the last position, when the record carries it: from the play
            t["Final"] = game.pos.format()
        if game.result is None:
            t["Result"] = "*"
            t.pop("Points", None)
            t.pop("Termination", None)
            return
        winner, how, pts = game.result
        t["Result"] = "draw" if winner is None else "AB"[winner]
        t["Termination"] = how
        t["Points"] = "%d-%d" % pts

    def summary(self):
        """One line naming the result, e.g. 'A wins at the centre (score 6-2, points
        4-0)'."""
        score = "%d-%d" % (self.final.a, self.final.b)
        if self.result is None:
            return "Unfinished (score %s)" % score
        winner, how, pts = self.result
        tail = "(score %s, points %d-%d)" % (score, pts[0], pts[1])
        if winner is None:
            return "Draw by %s %s" % ("Moksha" if how == "moksha" else "side count", tail)
        return "%s wins at the centre %s" % ("AB"[winner], tail)

    # -- text form -----------------------------------------------------------------------
    def to_text(self, comments=None):
        """The text form (module docstring); replays first when not yet replayed.
        comments: {turn number: text} written after those turns as `{text}` (a `}` in
        a text becomes `)`); the reader skips them."""
        if len(self.steps) != len(self.turns):
            self.replay()
        tags = dict(self.tags)
        if self.start.format() != START:
            tags["Position"] = self.start.format()
        else:
            tags.pop("Position", None)
        tags.setdefault("Event", "Samsara game")
        tags.setdefault("Starter", "AB"[self.start.mover])
        names = [k for k in TAG_ORDER if k in tags] + sorted(k for k in tags
                                                            if k not in TAG_ORDER)
        lines = ['[%s "%s"]' % (k, _esc(tags[k])) for k in names]
        lines.append("")
        for s in self.steps:
            line = "%3d. %s %s" % (s.number, "AB"[s.player], s.notation)
            if comments and comments.get(s.number):
                line += " {%s}" % comments[s.number].replace("}", ")")
            lines.append(line)
        lines.append(self.summary())
        return "\n".join(lines) + "\n"

    @staticmethod
    def parse_text(text):
        """Read the text form; replays it.  Raises RecordError naming the line."""
        if not isinstance(text, str):
            raise RecordError("a record is text")
        tags = {}
        turns = []
        nums = []
        expect = 1
        body = False
        for n, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line:
                continue
            m = re.fullmatch(r'\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]', line)
            if m:
                if body:
                    raise RecordError("line %d: a tag after the turns" % n)
                tags[m.group(1)] = _unesc(m.group(2))
                continue
            m = re.fullmatch(r"(\d+)\.\s+([AB])\s+([^{]+?)(?:\s*\{[^}]*\})?", line)
            if m:
                body = True
                if int(m.group(1)) != expect:
                    raise RecordError("line %d: turn %s where turn %d was expected"
                                      % (n, m.group(1), expect))
                turns.append((m.group(2), m.group(3).strip()))
                nums.append(n)
                expect += 1
                continue
            if re.match(r"(A wins|B wins|Draw|Unfinished)\b", line):
                continue
            raise RecordError("line %d: not a tag, a turn or a result line: %r"
                              % (n, line[:60]))
        if not tags and not turns:
            raise RecordError("no tags and no turns: not a Samsara game record")
        try:
            start = Position.parse(tags["Position"]) if "Position" in tags else None
        except PositionError as e:
            raise RecordError("Position tag: %s" % e)
        if start is None:
            starter = tags.get("Starter", "A")
            if starter not in ("A", "B"):
                raise RecordError("Starter tag must be A or B, not %r" % starter)
            start = Position(mover="AB".index(starter))
        rec = GameRecord(tags, start, [t for _p, t in turns])
        rec.replay(nums)
        for (player, _t), step, n in zip(turns, rec.steps, nums):
            if "AB"[step.player] != player:
                raise RecordError("line %d: it is %s's turn, the record says %s"
                                  % (n, "AB"[step.player], player))
        return rec

    # -- JSON form -----------------------------------------------------------------------
    def to_json(self):
        """The JSON form: {"format": "samsara-record", "version": 1, "tags", "start",
        "turns": [{"n", "player", "turn", "position"}], "result", "final"}."""
        if len(self.steps) != len(self.turns):
            self.replay()
        tags = dict(self.tags)
        tags.pop("Position", None)
        return {
            "format": "samsara-record", "version": 1, "tags": tags,
            "start": self.start.format(),
            "turns": [{"n": s.number, "player": "AB"[s.player], "turn": s.notation,
                       "position": s.position.format()} for s in self.steps],
            "result": self.summary(), "final": self.final.format(),
        }

    @staticmethod
    def from_json(obj):
        """Read the JSON form (a dict or its text); replays it and checks each
        stored position against the replay.  Raises RecordError."""
        if isinstance(obj, (str, bytes)):
            try:
                obj = json.loads(obj)
            except ValueError as e:
                raise RecordError("not JSON: %s" % e)
            except RecursionError:
                raise RecordError("not JSON: nested too deeply")
        if not isinstance(obj, dict) or obj.get("format") != "samsara-record":
            from samsara_host import gametags
            if isinstance(obj, dict) and obj and set(obj) <= set(gametags.EDITABLE):
                raise RecordError("this is a tags file (the names, event, site and date "
                                  "of a game, `samsara logs tag`): give the game file "
                                  "beside it")
            raise RecordError("not a samsara-record JSON file")
        version = obj.get("version", 1)
        if version != 1 or isinstance(version, bool):
            raise RecordError("version %s: this tool reads samsara-record version 1"
                              % json.dumps(version))
        tags = obj.get("tags", {})
        if not isinstance(tags, dict):
            raise RecordError("tags must be an object")
        for k, v in tags.items():
            if not isinstance(v, (str, int, float)) or isinstance(v, bool):
                raise RecordError("tag %s must be text, not %s" % (k, json.dumps(v)))
        try:
            start = Position.parse(obj.get("start", START))
        except PositionError as e:
            raise RecordError("start: %s" % e)
        turns = obj.get("turns", [])
        if not isinstance(turns, list) or not all(isinstance(t, dict) and
                                                  isinstance(t.get("turn"), str)
                                                  for t in turns):
            raise RecordError("turns must be a list of objects with a 'turn' string")
        rec = GameRecord({k: str(v) for k, v in tags.items()}, start,
                         [t["turn"] for t in turns])
        rec.replay()
        for t, s in zip(turns, rec.steps):
            if "position" in t and t["position"] != s.position.format():
                raise RecordError("turn %d: stored position %s, the replay gives %s"
                                  % (s.number, t["position"], s.position.format()))
        return rec


def _first(d, *keys):
    for k in keys:
        if k in d and d[k] not in (None, ""):
            return d[k]
    return None


def from_log(data, board=None, allow_torn=False):
    """The GameRecord of a pulled game log (the board's file bytes, docs/gamelog.md),
    replayed and checked.

    Tags come from the log's header record (game number, start position, starter,
    rule option, match, players, date when the board knew them) and its end record;
    board: the board id to put in [Board] when the header has none (else "unknown":
    logs written before the header named its board).  allow_torn: take the good
    records before a torn or damaged one (a running game's copy, a cut file) instead
    of raising; the record's `torn` then says where and why (None for a whole log).
    Raises RecordError.
    """
    from boardcore.storage import logrecord
    ok, msg, rp = logrecord.verify(bytes(data))
    if not ok and not (allow_torn and rp.header is not None):
        raise RecordError("not a valid game log: %s" % msg)
    torn = None if ok else "%s (of %d bytes)" % (msg, len(data))
    h = rp.header or {}
    other = h.get("rules")
    if other:
        # another game's log (docs/samas.md, docs/schaska.md "The game log"): its own
        # lines, not a Samsara record
        raise RecordError("a %s game's log, not Samsara's: `samsara logs export FILE "
                          "--format jsonl` reads it" % str(other).capitalize())
    tags = {"Event": "Samsara game"}
    date = _first(h, "date", "Date")
    tags["Date"] = str(date) if date else "????.??.??"
    # The board is the one the log names, never guessed from where the file lies.
    b = _first(h, "board", "Board") or board
    tags["Board"] = str(b) if b else "unknown"
    if "game" in h:
        tags["Game"] = str(h["game"])
    players = h.get("players")
    pa = _first(h, "player_a", "PlayerA") or (players[0] if isinstance(players, list)
                                               and len(players) == 2 else None)
    pb = _first(h, "player_b", "PlayerB") or (players[1] if isinstance(players, list)
                                               and len(players) == 2 else None)
    # A game against the board (issue 11): the header's vs_board names the side the
    # board played; logs before it have none and read as before.
    vs = h.get("vs_board")
    if vs in ("A", "B"):
        tags["VsBoard"] = vs
        if h.get("level") in (1, 2, 3):          # the board's strength (docs/engine.md)
            tags["Level"] = str(h["level"])
        if vs == "A" and not pa:
            pa = "board"
        elif vs == "B" and not pb:
            pb = "board"
    # An online game: the far player's side and the game's id (from its code).
    if h.get("far") in ("A", "B"):
        tags["Far"] = h["far"]
    if isinstance(h.get("online"), str):
        tags["Online"] = h["online"]
    tags["PlayerA"] = str(pa or "?")
    tags["PlayerB"] = str(pb or "?")
    og = _first(h, "opponent_goal", "og", "options")
    if isinstance(og, dict):
        og = og.get("opponent_goal")
    if isinstance(og, int):
        from samsara.rules import moves as rules
        og = rules.OPTION_NAMES[og] if 0 <= og < len(rules.OPTION_NAMES) else None
    tags["OpponentGoal"] = str(og or "owner_scores")
    match = h.get("match")
    if isinstance(match, dict):
        tags["Match"] = "game %s of 2" % match.get("game", "?")
    elif match:
        tags["Match"] = str(match) if not isinstance(match, bool) else "yes"
    else:
        tags["Match"] = "no"
    fw = _first(h, "fw", "firmware")
    if fw:
        tags["Firmware"] = str(fw)
    start = None
    pos_text = _first(h, "position", "start")
    if pos_text:
        try:
            start = Position.parse(pos_text)
        except PositionError as e:
            raise RecordError("header position: %s" % e)
    starter = _first(h, "starter", "mover")
    if start is None:
        if starter in ("A", "B", 0, 1):
            start = Position(mover=starter if isinstance(starter, int) else "AB".index(starter))
        else:
            start = Position()
    rec = GameRecord(tags, start, rp.turns)
    rec.replay()
    end = rp.end if rp.ended and isinstance(rp.end, dict) else None
    if end and end.get("how") == "abandoned":
        rec.tags["Termination"] = "abandoned"
    elif end and "score" in end:
        # The board's own verdict must agree with the rules engine's replay.
        got = "%d-%d" % (rec.final.a, rec.final.b)
        winner = None if rec.result is None or rec.result[0] is None else "AB"[rec.result[0]]
        if end.get("score") != got or ("winner" in end and end["winner"] != winner):
            raise RecordError("the log's end record says winner %s, score %s; replaying its "
                              "turns gives winner %s, score %s"
                              % (end.get("winner"), end.get("score"), winner, got))
    rec.log_ended = rp.ended
    rec.log_state = rp.state()
    rec.torn = torn
    return rec


def load(path, board=None):
    """A GameRecord from a file: a pulled log (binary), the JSON form or the text
    form, told apart by content.  A pulled log's [Board] is its header's (`board`
    when the header has none, else "unknown"); a torn log gives the turns of its valid
    records and says so in the record's `torn`.  Raises RecordError (also for a
    missing file); its words do not name the file (the caller puts it in front)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise RecordError("cannot read the file: %s" % (e.strerror or e))
    if not data:
        raise RecordError("the file is empty: a game log or record has at least its "
                          "header (pull it again: `samsara logs pull --all`)")
    from boardcore.storage import logrecord
    if data[0] == logrecord.SYNC:
        return from_log(data, board, allow_torn=True)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("neither a game log, a JSON record nor a text record")
    if looks_like_trace(text):
        raise RecordError("this looks like a sensor trace: use samsara trace replay")
    if text.lstrip().startswith("{"):
        return GameRecord.from_json(text)
    return GameRecord.parse_text(text)


def looks_like_trace(text):
    """True when the text's first line is a sensor trace line (docs/traces.md): a JSON
    object with "t_ms", or a trace header (only the keys of trace.HEADER_KEYS)."""
    from samsara_host.trace import HEADER_KEYS
    first = text.lstrip().split("\n", 1)[0]
    if not first.startswith("{"):
        return False
    try:
        obj = json.loads(first)
    except (ValueError, RecursionError):
        return False
    if not isinstance(obj, dict) or obj.get("format") == "samsara-record":
        return False
    return "t_ms" in obj or (bool(obj) and all(k in HEADER_KEYS for k in obj))
