"""`samsara game new|roll|undo|hint|status`: the board's game from the terminal, as its
buttons play it (docs/host-tool.md "game", docs/protocol.md "Commands").  Its one job
is the command line around the game commands of the line protocol: start a game (two
players, or against the board with its side and level), roll, take back a sub-move,
ask a hint and say where the game stands, in a player's words (`--json` for scripts).

Exit codes: 0 done, 1 the board refused (the reason and what to do instead) or could
not be reached, 2 a mistake in the options.
"""
import json
import sys
import time

from samsara_host import boardlink
from samsara_host.argtypes import port_arg
from samsara_host.movewords import (arrows, dice_words, headline, player_name,
                                    refusal_words, sub_move_words, turn_words)

HINT_WAIT_S = 20.0
"""How long `game hint` waits for the board's `hint` event (it thinks in slices: a
second or two on a Pico, less on a virtual board)."""

REPAIR_WAIT_S = 2.0
"""How long `game new` waits for the board's repair when its sensors differ from the
new game's start (the board looks again once its debounce has settled: a fraction of
a second)."""

LEVELS = (1, 2, 3)


def _level(text):
    import argparse
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n not in LEVELS:
        raise argparse.ArgumentTypeError("--level takes 1, 2 or 3 (3 the strongest), not %r"
                                         % text)
    return n


def add_parser(sub, name, help_text):
    """Register `samsara game` and its sub-commands (cli.py's table)."""
    p = sub.add_parser(name, help=help_text, description=help_text)
    s = p.add_subparsers(dest="action", metavar="ACTION")
    s.required = True

    def common(q, js=False):
        q.add_argument("--port", type=port_arg,
                       help="the board's port (default: the one board there is, a Pico or "
                            "a virtual board; `samsara ports` lists them)")
        if js:
            q.add_argument("--json", action="store_true",
                           help="one JSON object for scripts instead of words")
        q.set_defaults(func=run)

    q = s.add_parser("new", help="start a new game (two players, or against the board)",
                     description="Start a new game on the board.  An unfinished game is "
                                 "closed first (its log says abandoned).")
    q.add_argument("--vs-board", choices=("A", "B"), metavar="A|B",
                   help="the board plays this side (A starts unless --starter B)")
    q.add_argument("--level", type=_level, metavar="N",
                   help="with --vs-board: the board's strength 1, 2 or 3 (default 3, the "
                        "strongest)")
    q.add_argument("--starter", choices=("A", "B"), default="A", metavar="A|B",
                   help="who rolls first (default A)")
    q.add_argument("--match", action="store_true",
                   help="a match of two games (competition rules) instead of one game")
    q.add_argument("--names", nargs="+", metavar="NAME",
                   help="the players' names, A's then B's (kept in the game's log; `game "
                        "status`, the app and the pulled game use them); one name alone "
                        "is A's, or with --vs-board the name of the side you play")
    common(q, js=True)
    q = s.add_parser("roll", help="roll the dice (the roll button)",
                     description="Roll the dice, as the board's roll button does.")
    common(q, js=True)
    q = s.add_parser("undo", help="take back the last sub-move (the undo button)",
                     description="Take back the last sub-move of this turn, as the "
                                 "board's undo button does.")
    common(q, js=True)
    q = s.add_parser("hint", help="the engine's turn for your roll, lit on the board",
                     description="Ask the board's engine for a turn for your roll: it is "
                                 "lit on the board (not forced) and printed here.")
    common(q, js=True)
    q = s.add_parser("status", help="where the game stands, in words (or --json)",
                     description="Where the game stands: whose turn, the dice, the score, "
                                 "the turns so far, who the board plays.")
    common(q, js=True)


def names_of(given, vs_board=None):
    """[A's, B's] of `--names` (one or two names; "" for one not given): one name alone
    is A's, or against the board (vs_board "A"/"B") the name of the side the person
    plays.  Each name is checked as `logs tag` checks it (gametags.check_text: length,
    control characters, empty).  Raises ValueError saying what to give instead."""
    from samsara_host import gametags       # the check of every name (logs pull, tag)
    if not given or len(given) > 2:
        raise ValueError("give one name or two (A's, then B's), not %d" % len(given or ()))
    try:
        if len(given) == 2:
            return gametags.check_names(given)
        name = gametags.check_text(given[0], "the player's name")
    except gametags.TagError as e:
        raise ValueError(str(e))
    return ["", name] if vs_board == "A" else [name, ""]


def game_status(client):
    """The game's state from the board: {state, mover, dice, remaining, score, turns,
    vs_board, level, game, names, position, record, winner, how, headline}; winner: "A",
    "B" once the game is won, else null (a draw, or the game goes on); names: [A's, B's] from
    the game's log header ("" for one not given) or null; turns and record (the last
    10 turns) count the turn just finished in turn_complete, which the board's
    `position` leaves out until the next roll commits it.  Raises boardlink.LinkError."""
    from samsara_host.runninglog import game_header, header_names
    st = client.request("status")
    pos = client.request("position")
    # the running game's number, or after its end the finished game's (its log closed)
    game = st.get("game") if isinstance(st.get("game"), int) else st.get("ended")
    names = header_names(game_header(client, game)) \
        if isinstance(game, int) and not isinstance(game, bool) else None
    turns, record = pos.get("turns"), list(pos.get("record") or [])
    done = st.get("turn")
    if st.get("state") == "turn_complete" and isinstance(done, str) and done \
            and isinstance(turns, int) and not isinstance(turns, bool):
        # the board commits a complete turn at the next roll (until then it may be
        # undone) and counts it from then on; a player counts it once it is played
        turns, record = turns + 1, (record + [done])[-10:]
    out = {"state": st.get("state"), "mover": st.get("mover"), "dice": st.get("dice") or [],
           "remaining": st.get("remaining") or [], "score": st.get("score"),
           "turns": turns, "vs_board": st.get("vs_board"),
           "level": st.get("level"), "game": st.get("game"),
           "position": pos.get("position"), "record": record,
           "board_move": st.get("board_move"), "hint": st.get("hint"), "names": names,
           "winner": st.get("winner") if st.get("winner") in ("A", "B") else None,
           "how": st.get("how"), "missing": [], "extra": []}
    if out["state"] == "repair":
        out["missing"], out["extra"] = holes_to_fix(client, out["position"])
    out["headline"] = headline(out, names, terminal=True)
    return out


def holes_to_fix(client, position):
    """([missing], [extra]): the names of the holes to put right in a repair, in the
    board's order: where the position (text, with its scores) has a marble or scoring
    piece the sensors do not see, and where the sensors see one it has none.  From
    the board's `sensors` reply (its settled `on`) against the frame of `position`
    (samsara.frame.from_position: marbles, each scoring piece on the field of its
    score, goals empty): what the board lights in its repair, worked out here since
    `status` does not list them.  ([], []) when the board does not answer `sensors`
    or the position is unreadable.  Raises boardlink.LinkError."""
    from samsara.frame import from_position
    from samsara.rules.geometry import position_index, position_name
    from samsara.rules.position import Position, PositionError
    try:
        frame = from_position(Position.parse(str(position)))
        on = client.request("sensors").get("on")
    except (PositionError, ValueError, boardlink.BoardError):
        return [], []
    want = {position_name(p) for p in range(64) if frame[p >> 3] >> (p & 7) & 1}
    seen = set(n for n in on if isinstance(n, str)) if isinstance(on, list) else set()
    order = sorted(want ^ seen, key=position_index)
    return [n for n in order if n in want], [n for n in order if n in seen]


def _words(s):
    lines = [s["headline"] + "."]
    if s.get("state") == "repair" and not (s.get("missing") or s.get("extra")):
        lines.append("The lit holes show what is missing or extra.")
    if s.get("board_move") and s["board_move"] not in s["headline"]:
        lines.append("The board plays %s: %s." % (s["board_move"],
                                                  sub_move_words(s["board_move"])))
    if s.get("hint") and not s["headline"].startswith("Hint"):
        lines.append("Hint (lit on the board): %s." % turn_words(s["hint"]))
    if s["vs_board"]:
        lines.append("Against the board: it plays %s (level %s), you play %s." % (
            s["vs_board"], s["level"], "B" if s["vs_board"] == "A" else "A"))
    score = str(s["score"] or "0-0").split("-")
    if len(score) == 2:
        def who(side):
            name = (s.get("names") or ["", ""])["AB".index(side)]
            if not s["vs_board"]:
                return "%s (%s)" % (name, side) if name else side
            return "%s (%s)" % ("the board" if side == s["vs_board"] else name or "you",
                                side)
        lines.append("Score: %s %s, %s %s.  Turns so far: %s." % (
            who("A"), score[0], who("B"), score[1], s["turns"]))
    if s["dice"]:
        lines.append("Dice: %s." % dice_words(s["dice"], s["remaining"]))
    if s["record"]:
        lines.append("Last turn: %s" % s["record"][-1])
    return "\n".join(lines)


def _say(args, obj, text):
    if args.json:
        print(json.dumps(obj))
    else:
        print(text)


def _refused(args, e, client=None):
    # the board said no: what to do instead, in a player's words (movewords.
    # refusal_words, as the app says it), from the game as it stands
    what = {"roll": "`samsara game status` says whose turn it is and what to do",
            "undo": "undo takes back a sub-move of the turn being played",
            "hint": "ask for a hint during your own turn, after the roll",
            "new": "pull the finished games first: `samsara logs pull`"}
    msg = e.msg or e.code
    words = None
    if args.action in ("roll", "hint") and client is not None:
        try:
            words = refusal_words(args.action, msg, game_status(client))
        except boardlink.LinkError:
            words = None
    if words and not words.startswith("The board says no"):
        print("samsara game %s: %s." % (args.action, words), file=sys.stderr)
        return 1
    print("samsara game %s: the board says no: %s (%s)" % (args.action, msg,
                                                           what[args.action]),
          file=sys.stderr)
    return 1


def run(args):
    """Carry out `samsara game ACTION` (module docstring); returns the exit code."""
    if args.action == "new" and args.level is not None and not args.vs_board:
        print("samsara game new: --level is the board's strength: it needs --vs-board A|B",
              file=sys.stderr)
        return 2
    if args.action == "new" and args.names is not None:
        try:
            args.names = names_of(args.names, args.vs_board)
        except ValueError as e:
            print("samsara game new: --names: %s" % e, file=sys.stderr)
            return 2
    state = boardlink.State(args.port)
    try:
        hello = state.hello()
        client = state.client
        if hello.get("game") and args.action == "new":
            return _new_other_game(args, client, hello["game"])
        if args.action == "status":
            s = game_status(client)
            _say(args, s, _words(s))
            return 0
        if args.action == "new":
            kw = {"starter": args.starter, "match": bool(args.match)}
            if args.vs_board:
                kw["vs_board"] = args.vs_board
                kw["level"] = args.level or 3
            if args.names:
                for key, name in zip(("name_a", "name_b"), args.names):
                    if name:
                        kw[key] = name
            r = client.request("new_game", timeout=10.0, **kw)
            s = game_status(client)
            deadline = time.monotonic() + REPAIR_WAIT_S
            while s["state"] != "repair" and time.monotonic() < deadline and any(
                    holes_to_fix(client, s["position"])):
                # the sensors differ from the new game's start: the board sees it once
                # its debounce has settled them again, and asks for a repair
                time.sleep(0.1)
                s = game_status(client)
            s["game"] = r.get("game")
            who = ("against the board (it plays %s, level %d; you play %s)" % (
                args.vs_board, kw["level"], "B" if args.vs_board == "A" else "A")
                if args.vs_board else "for %s (A) and %s (B)" % tuple(
                    n or "Player %s" % side for n, side in zip(args.names, "AB"))
                if args.names else "for two players")
            _say(args, s, "Game %s started %s%s.\n%s." % (
                r.get("game"), who, ", a match of two games" if args.match else "",
                s["headline"]))
            return 0
        if args.action == "roll":
            r = client.request("roll")
            s = game_status(client)
            s["rolled"] = r.get("dice")
            _say(args, s, "Rolled %s.\n%s." % (dice_words(r.get("dice")), s["headline"]))
            return 0
        if args.action == "undo":
            r = client.request("undo")
            s = game_status(client)
            s["undone"] = r.get("move")
            _say(args, s, "Took back %s (%s).\n%s." % (
                r.get("move"), sub_move_words(r.get("move")), s["headline"]))
            return 0
        if args.action == "hint":
            return _hint(args, client)
    except boardlink.BoardError as e:
        if e.code in ("state", "log_full"):
            return _refused(args, e, state.client)
        print("samsara game %s: %s" % (args.action, boardlink.explain(e)), file=sys.stderr)
        return 1
    except boardlink.LinkError as e:
        print("samsara game %s: %s" % (args.action, boardlink.explain(e)), file=sys.stderr)
        return 1
    finally:
        state.close()
    return 0


def _new_other_game(args, client, game):
    # `game new` on a Samas or Schaska board (gameboard.commands.new_game): a new game
    # from the start, with the players' names for its log; Samsara's options refused.
    if args.vs_board or args.match or args.starter != "A":
        print("samsara game new: a %s board plays no game against the board, no match "
              "and no other starter: only --names" % game.capitalize(), file=sys.stderr)
        return 2
    kw = {}
    for key, name in zip(("name_a", "name_b"), args.names or ()):
        if name:
            kw[key] = name
    r = client.request("new_game", timeout=10.0, **kw)
    names = r.get("players") or ["", ""]
    who = "for %s (A) and %s (B)" % tuple(n or "Player %s" % side
                                         for n, side in zip(names, "AB"))
    _say(args, {"game": game, "players": r.get("players")},
         "New %s game started %s: play it at the board." % (game.capitalize(), who))
    return 0


def _hint(args, client):
    client.events.clear()
    client.request("hint")
    deadline = time.monotonic() + HINT_WAIT_S
    while time.monotonic() < deadline:
        for ev in client.poll_events(0.2):
            if ev.get("ev") == "hint":
                turn = ev.get("turn", "")
                s = {"hint": turn, "player": ev.get("player"), "arrows": arrows(turn),
                     "words": turn_words(turn)}
                who = ev.get("player")
                if who in ("A", "B"):      # by name when the game's log has the names
                    st = game_status(client)
                    who = player_name(who, st.get("names"), st.get("vs_board"))
                _say(args, s, "Hint for %s: %s\n%s.\nIt is lit on the board: the marble "
                              "to move blinks." % (who, turn, s["words"]))
                return 0
            if ev.get("ev") == "reject" and ev.get("what") == "hint":
                print("samsara game hint: %s." % refusal_words(
                    "hint", ev.get("reason"), game_status(client)), file=sys.stderr)
                return 1
    print("samsara game hint: the board did not name its turn within %.0f s; "
          "`samsara game status` says where the game stands" % HINT_WAIT_S, file=sys.stderr)
    return 1
