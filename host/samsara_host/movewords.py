"""Moves and the board's state in a player's words, and moves as arrows (docs/app.md
"Live", docs/host-tool.md "game").  Its one job is turning sub-move and turn notation
(docs/rules.md section 5: `5:R1-S18`, `3:S22-GS*S7`, `53 5:R1-S18 3:R2-S17`) and a
`status` reply into sentences for the people at the table, and into (from, to) hole
pairs for the pictures.  Used by `samsara game`, the live page and the replay page.
"""

STATE_WORDS = {
    "waiting": "to roll",
    "moving": "to move",
    "goal_pending": "scored: move the scoring piece and put the marble back in",
    "turn_complete": "has finished the turn",
    "repair": "the board needs putting right",
    "game_over": "the game is over",
    "moksha": "Moksha: the game is drawn",
}
"""What each controller state means to a player (never show the state's name)."""


def _hole(name):
    if name in ("GR", "GS"):
        return "the goal space (%s)" % name
    return name


def _split(text):
    # '3:S22-GS*S7' -> (3, 'S22', 'GS', 'S7'); '5:R1-S18' -> (5, 'R1', 'S18', None).
    # ValueError for text that is no sub-move.
    die, _, rest = str(text).partition(":")
    if not die.isdigit() or "-" not in rest:
        raise ValueError("not a sub-move: %r" % (text,))
    frm, _, to = rest.partition("-")
    ins = None
    if "*" in to:
        to, _, ins = to.partition("*")
    if not frm or not to:
        raise ValueError("not a sub-move: %r" % (text,))
    return int(die), frm, to, ins


def sub_move_words(text):
    """'move the marble from R11 to R14' for the sub-move '3:R11-R14'; a goal says
    where the marble goes back in ('... into the goal space (GS), then put it back in
    on S7').  Text that is no sub-move is returned as it is."""
    try:
        _die, frm, to, ins = _split(text)
    except ValueError:
        return str(text)
    if ins:
        return "move the marble from %s into %s, then put it back in on %s" % (
            frm, _hole(to), ins)
    return "move the marble from %s to %s" % (frm, _hole(to))


def turn_moves(text):
    """The sub-moves of turn notation ('53 5:R1-S18 3:R2-S17' or a lone sub-move) as
    a list of their texts; [] for a Moksha or no text."""
    return [t for t in str(text or "").split() if ":" in t]


def turn_words(text):
    """'5:R1-S18: move the marble from R1 to S18; then 3:R2-S17: move ...' for a turn
    (or a sub-move) in notation; 'no complete turn (Moksha)' for a Moksha."""
    subs = turn_moves(text)
    if not subs:
        return "no complete turn (Moksha)" if "Moksha" in str(text) else str(text or "")
    return "; then ".join("%s: %s" % (m, sub_move_words(m)) for m in subs)


def arrows(text):
    """[[from, to, die], ...]: the holes of each sub-move of a turn or sub-move in
    notation, for drawing arrows (a goal's arrow ends in its goal space)."""
    out = []
    for m in turn_moves(text):
        try:
            die, frm, to, _ins = _split(m)
        except ValueError:
            continue
        out.append([frm, to, die])
    return out


def dice_words(dice, remaining=None):
    """'5 and 3' (with '(3 left to play)' when some are played); '' before a roll."""
    if not dice:
        return ""
    text = "%d and %d" % (dice[0], dice[1])
    rem = list(remaining or [])
    if remaining is not None and 0 < len(rem) < 2 and dice[0] != dice[1]:
        text += " (%s left to play)" % " and ".join(str(d) for d in rem)
    return text


def player_name(side, names=None, vs_board=None):
    """How to call player `side` ("A"/"B"): 'the board' when it plays that side, the
    name entered when known (names: [A's, B's]), else 'Player A'/'Player B'."""
    if vs_board and side == vs_board:
        return "the board"
    if names:
        i = "AB".index(side) if side in ("A", "B") else -1
        if 0 <= i < len(names) and names[i]:
            return names[i]
    return "Player %s" % side if side in ("A", "B") else str(side)


def _cap(text):
    return text[:1].upper() + text[1:]


def _moved(text):
    # '5:R1-S18' -> 'a marble from R1 to S18 (the 5)'; a goal says where it goes back in
    try:
        die, frm, to, ins = _split(text)
    except ValueError:
        return str(text)
    if ins:
        return "a marble from %s into %s (the %d); it goes back in on %s" % (
            frm, _hole(to), die, ins)
    return "a marble from %s to %s (the %d)" % (frm, _hole(to), die)


def turn_summary(text):
    """'R1 to S18, R2 to S17' for a turn in notation ('53 5:R1-S18 3:R2-S17'), a goal's
    marble 'S22 into the goal space (GS), back in on S7'; 'no complete turn (Moksha)'
    for a Moksha."""
    parts = []
    for m in turn_moves(text):
        try:
            _die, frm, to, ins = _split(m)
        except ValueError:
            parts.append(m)
            continue
        parts.append("%s into %s, back in on %s" % (frm, _hole(to), ins) if ins
                     else "%s to %s" % (frm, _hole(to)))
    if not parts:
        return "no complete turn (Moksha)" if "Moksha" in str(text) else str(text or "")
    return ", ".join(parts)


def _score(text, who=None):
    # 'A 1, B 0'; by the players' names when who(side) knows them ('Ben 1, the board 0')
    a, _, b = str(text).partition("-")
    if not b:
        return str(text)
    na, nb = (who("A"), who("B")) if who else ("Player A", "Player B")
    if (na, nb) == ("Player A", "Player B"):
        na, nb = "A", "B"
    return "%s %s, %s %s" % (na, a, nb, b)


def event_words(ev, who=None):
    """One line in a player's words for an event of the board's stream (the app's
    "What happened" list), or None for one a player need not read.  No turn notation
    and no state names: sub-moves as 'Anna moved a marble from R1 to S18 (the 5)'.
    who(side) -> what to call player "A"/"B" (default player_name).  docs/app.md
    "Live"."""
    who = who or player_name
    k = ev.get("ev")
    p = ev.get("player")
    name = who(p) if p in ("A", "B") else "The player"
    if k == "roll" and isinstance(ev.get("dice"), list) and len(ev["dice"]) == 2:
        return "%s rolls %d %d" % (_cap(name), ev["dice"][0], ev["dice"][1])
    if k == "sub":
        return "%s moved %s" % (_cap(name), _moved(ev.get("move")))
    if k == "goal":
        return "Goal in %s: %s scores (%s); the marble goes back in on %s" % (
            _hole(ev.get("goal")), name, _score(ev.get("score"), who), ev.get("ins"))
    if k == "reinsert":
        return "The marble is back in on %s" % ev.get("pos")
    if k == "reject":
        return ev.get("said") or "Not taken: %s" % ev.get("reason", "")
    if k == "repair":
        # what to set up or put right, the holes named (repair_words); new_game: the
        # live page marks a repair before any turn or roll of the game
        return repair_words(ev.get("reason", ""), ev.get("missing") or [],
                            ev.get("extra") or [], new_game=bool(ev.get("new_game")))
    if k == "repair_end":
        return "The board is right again: play goes on"
    if k == "undo":
        return "Taken back: %s" % _moved(ev.get("move"))
    if k == "turn_complete":
        return "%s finished the turn: %s" % (_cap(name), turn_summary(ev.get("turn")))
    if k == "moksha":
        dice = [c for c in str(ev.get("roll", "")) if c.isdigit()][:2]
        return "Moksha: the roll %s has no complete turn" % " and ".join(dice)
    if k == "game_over":
        w = ev.get("winner")
        if w in ("A", "B"):
            return "Game over: %s wins (%s)" % (who(w), _score(ev.get("score"), who))
        return "Game over: a draw by %s (%s)" % (ev.get("how"), _score(ev.get("score"), who))
    if k == "board_move":
        return "The board plays: %s; carry it out on the lit holes" % sub_move_words(
            ev.get("move"))
    if k == "hint":
        return "Hint for %s: %s" % (name, "; then ".join(
            sub_move_words(m) for m in turn_moves(ev.get("turn"))) or "no complete turn")
    if k == "game_start":
        return "A new game starts"
    return None


def over_words(status, names=None):
    """The end of the game in one sentence from a `status` reply (state game_over or
    moksha; winner "A"/"B"/None, score "a-b") and the turns played (status["turns"]):
    'Game over: Anna (A) won 6-4 in 31 turns', 'Game over: a draw (Moksha) at 3-3 after
    12 turns'; the board when it plays the winner's side ('the board (A) won ...').
    Without a winner or a result the sentence says only that the game is over."""
    w = status.get("winner")
    score = str(status.get("score") or "")
    turns = status.get("turns")
    n = "" if not isinstance(turns, int) or isinstance(turns, bool) else \
        " in %d turn%s" % (turns, "" if turns == 1 else "s")
    if w in ("A", "B"):
        who = player_name(w, names, status.get("vs_board"))
        if not who.startswith("Player "):
            who = "%s (%s)" % (who, w)
        a, _, b = score.partition("-")
        points = "%s-%s" % ((a, b) if w == "A" else (b, a)) if b else score
        return "Game over: %s won %s%s" % (who, points, n)
    if status.get("state") == "moksha" or status.get("how") == "moksha":
        return "Game over: a draw (Moksha) at %s%s" % (score, n.replace(" in ", " after "))
    if status.get("how") == "centre":
        return "Game over: a draw at %s%s" % (score, n.replace(" in ", " after "))
    return "The game is over"


def refusal_words(action, reason, status=None):
    """The board's refusal of `action` ("roll", "hint", "undo", "new") in a player's
    words: what to do instead, from the refusal's `reason` (the board's words) and the
    game as it stands (a `status` reply or the live page's snapshot: state, mover, dice,
    remaining, vs_board).  'Roll first: a hint needs the dice', 'You have already
    rolled: move your marbles (4 and 5 still to play)'; the board's own words when
    none fits better.  The terminal (`samsara game`) and the app say the same."""
    st = (status or {}).get("state")
    vs = (status or {}).get("vs_board")
    board = vs is not None and (status or {}).get("mover") == vs
    rem = [d for d in (status or {}).get("remaining") or [] if isinstance(d, int)]
    reason = str(reason or "")
    if action in ("roll", "hint"):
        if st in ("game_over", "moksha"):
            return "The game is over: start a new game"
        if st == "repair":
            return "Put the board right first: the lit holes show what is missing or extra"
        if st == "goal_pending":
            return ("Finish the goal first: move the scoring piece on and put the marble "
                    "back in")
    if action == "hint":
        if board:
            return "No hint during the board's turn: carry out its move on the lit holes"
        if st in ("waiting", "turn_complete") or (st == "moving" and not
                                                  (status or {}).get("dice")):
            return "Roll first: a hint needs the dice"
        if st == "moving" and not rem:
            return "Your turn is complete: a hint comes with the next roll"
    if action == "roll":
        if st == "moving" and rem:
            return "You have already rolled: move your marbles (%s still to play)" % (
                " and ".join(str(d) for d in rem))
        if st == "moving":
            return "You have already rolled: put every marble in its hole first"
        if board and st in ("waiting", "turn_complete"):
            return "The board rolls by itself: wait for its move"
        if reason.startswith("put the marble back"):
            return _cap(reason)
    return "The board says no: %s" % reason if reason else "The board says no"


def fix_words(missing, extra):
    """The holes to fix in words: 'put a marble on S6; take the marbles off S11, GS'
    (missing, extra: lists of hole names); "" when both are empty."""
    fix = []
    if missing:
        fix.append("put a marble on %s" % ", ".join(missing))
    if extra:
        fix.append("take the marble%s off %s" % ("s" if len(extra) > 1 else "",
                                                 ", ".join(extra)))
    return "; ".join(fix)


def repair_words(reason, missing, extra, new_game=False):
    """What to do in a repair, naming the holes: 'put a marble on S6; take the marble
    off S11'.  reason: the board's words for the repair; new_game: True when no turn
    of the game has been played yet (a new game: its start position to set up, when
    the board says it changed before the roll).  After
    a finished game (the board's reason 'set up the board for the new game') and for a
    new game over a half-played board the words ask to set up the start position; in
    the middle of a game they ask to put the board right."""
    what = fix_words(missing, extra)
    reason = str(reason or "")
    if reason.startswith("set up the board for the new game"):
        head = "Set up the board for the new game (the last one is over)"
    elif new_game and reason.startswith("the board changed before the roll"):
        head = "Set up the start position for the new game"
    else:
        return "Put the board right (%s)%s" % (reason, ": " + what if what else "")
    return head + (": " + what if what else "")


def headline(status, names=None, terminal=False):
    """Whose turn it is and what to do, in one sentence, from a `status` reply (dict
    with state, mover, dice, remaining, vs_board).  As in the board's `status`, the
    mover of a `turn_complete` is the next player (the one to roll; the turn just
    finished is the other player's: docs/controller.md, Controller.position).
    terminal: the words of `samsara game`, which name the command beside the roll
    button ("press the roll button or run `samsara game roll`").  In a
    repair the holes to fix are named from status["missing"] and status["extra"]
    (names; `samsara game status` works them out from the sensors) when given."""
    st = status.get("state")
    side = status.get("mover") or "A"
    vs = status.get("vs_board")
    who = player_name(side, names, vs)
    board = vs is not None and side == vs
    dice = status.get("dice") or []
    if st == "game_over":
        return over_words(status, names) + ": start a new game"
    if st == "moksha":
        return "Moksha: the roll had no complete turn; the game is drawn"
    if st == "repair":
        missing, extra = status.get("missing") or [], status.get("extra") or []
        if not (missing or extra):
            return "Put the board right: the lit holes show what is missing or extra"
        fix = fix_words(missing, extra)
        if not status.get("turns") and not dice:
            return "Set up the start position for the new game: " + fix
        return "Put the board right: " + fix
    if st == "goal_pending":
        # (the mover carries the goal out; the point may be the other player's: a
        # marble in the opponent's goal scores for the goal's owner, docs/rules.md §3)
        if board:
            return ("A goal in the board's turn: move the goal owner's scoring piece on "
                    "and put the marble back in")
        return ("A goal in %s's turn: move the goal owner's scoring piece on and put the "
                "marble back in" % who)
    if st == "turn_complete":
        done = player_name("B" if side == "A" else "A", names, vs)
        if board:
            return "%s finished the turn: the board rolls next" % _cap(done)
        return "%s finished the turn: %s, roll the dice%s" % (
            _cap(done), who, " (the roll button or `samsara game roll`)" if terminal else "")
    if st == "moving" and dice:
        if board:
            if status.get("board_move"):
                return "The board plays %s: %s" % (status["board_move"],
                                                   sub_move_words(status["board_move"]))
            return "The board rolled %s: carry out its move on the lit holes" % (
                dice_words(dice))
        return "%s rolled %s: move a marble" % (who, dice_words(dice, status.get("remaining")))
    if board:
        return "The board's turn: it rolls by itself"
    return "%s to roll: press the roll button%s" % (
        who, " or run `samsara game roll`" if terminal else "")
