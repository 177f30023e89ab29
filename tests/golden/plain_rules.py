"""A deliberately plain second implementation of the Samsara rules.

This module is the reference the golden data (``turns.jsonl``) is generated
from. It shares no code with the real engine in ``firmware/samsara`` and is
written the most obvious way: a position is a dict, the board is a dict from
field name ("R1".."R24", "S1".."S24") to True/False, and every rule is an
explicit loop. Clarity over speed. See docs/rules.md (sections 3 and 5).

Public functions:

- ``parse_position(text) -> dict`` and ``format_position(pos) -> str``
- ``sub_moves(pos, die, opponent_goal) -> list of dicts`` (one die)
- ``complete_turns(pos, a, b, opponent_goal) -> (moksha, sorted result strings)``
"""

OWNER_SCORES = "owner_scores"
FORBIDDEN = "forbidden"
OPPONENT_GOAL_OPTIONS = (OWNER_SCORES, FORBIDDEN)

LANES = ("R", "S")
FIELDS_PER_LANE = 24
MAX_SCORE = 6

START_POSITION = "oooooo................../oooooo.................. 0-0 A"

# Which goal follows field 24 of each lane, and who owns each goal.
GOAL_AFTER_LANE = {"R": "GR", "S": "GS"}
GOAL_OWNER = {"GS": "A", "GR": "B"}
# The lane a goal's marble is put back on (the goal's own lane).
GOAL_LANE = {"GS": "S", "GR": "R"}


def field_name(lane, number):
    return lane + str(number)


def all_field_names():
    names = []
    for lane in LANES:
        for number in range(1, FIELDS_PER_LANE + 1):
            names.append(field_name(lane, number))
    return names


def split_field(name):
    """'R12' -> ('R', 12)."""
    return name[0], int(name[1:])


def other_lane(lane):
    if lane == "R":
        return "S"
    return "R"


def partner_of(name):
    """The other half of the same double space: R i <-> S i+12, S i <-> R i+12."""
    lane, number = split_field(name)
    partner_number = ((number - 1 + 12) % 24) + 1
    return field_name(other_lane(lane), partner_number)


def other_player(player):
    if player == "A":
        return "B"
    return "A"


# ---------------------------------------------------------------------------
# Position string (rules.md section 5)
# ---------------------------------------------------------------------------


def parse_position(text):
    """Parse '<R1..R24>/<S1..S24> <scoreA>-<scoreB> <mover>' into a dict.

    Raises ValueError for anything that is not a valid position.
    """
    parts = text.split(" ")
    if len(parts) != 3:
        raise ValueError("position needs three space-separated parts: %r" % text)
    board_part, score_part, mover = parts

    lanes = board_part.split("/")
    if len(lanes) != 2:
        raise ValueError("board part needs exactly one '/': %r" % text)
    board = {}
    for lane, lane_text in zip(LANES, lanes):
        if len(lane_text) != FIELDS_PER_LANE:
            raise ValueError("lane %s needs 24 characters: %r" % (lane, text))
        for index in range(FIELDS_PER_LANE):
            char = lane_text[index]
            if char == "o":
                board[field_name(lane, index + 1)] = True
            elif char == ".":
                board[field_name(lane, index + 1)] = False
            else:
                raise ValueError("bad field character %r in %r" % (char, text))

    marble_count = 0
    for name in board:
        if board[name]:
            marble_count += 1
    if marble_count != 12:
        raise ValueError("a position has exactly 12 marbles, not %d: %r" % (marble_count, text))

    scores = score_part.split("-")
    if len(scores) != 2:
        raise ValueError("scores must look like 'a-b': %r" % text)
    score_values = []
    for score_text in scores:
        if len(score_text) != 1 or score_text not in "0123456":
            raise ValueError("a score is a digit 0..6: %r" % text)
        score_values.append(int(score_text))

    if mover not in ("A", "B"):
        raise ValueError("mover must be A or B: %r" % text)

    return {
        "board": board,
        "score": {"A": score_values[0], "B": score_values[1]},
        "mover": mover,
    }


def format_position(pos):
    lane_texts = []
    for lane in LANES:
        chars = []
        for number in range(1, FIELDS_PER_LANE + 1):
            if pos["board"][field_name(lane, number)]:
                chars.append("o")
            else:
                chars.append(".")
        lane_texts.append("".join(chars))
    return "%s/%s %d-%d %s" % (
        lane_texts[0],
        lane_texts[1],
        pos["score"]["A"],
        pos["score"]["B"],
        pos["mover"],
    )


def copy_position(pos):
    return {
        "board": dict(pos["board"]),
        "score": dict(pos["score"]),
        "mover": pos["mover"],
    }


def marble_fields(pos):
    """Occupied fields in a fixed order: R1..R24 then S1..S24."""
    found = []
    for name in all_field_names():
        if pos["board"][name]:
            found.append(name)
    return found


# ---------------------------------------------------------------------------
# One die (a sub-move)
# ---------------------------------------------------------------------------


def reinsertion_field(board, goal):
    """First field of 1..12 on the goal's own lane that is free and whose
    partner half is free too."""
    lane = GOAL_LANE[goal]
    for number in range(1, 13):
        name = field_name(lane, number)
        if not board[name] and not board[partner_of(name)]:
            return name
    # rules.md says one always exists (12 marbles, 12 double spaces).
    raise AssertionError("no reinsertion field on lane %s" % lane)


def sub_moves(pos, die, opponent_goal=OWNER_SCORES):
    """All legal sub-moves for one die, deduplicated by resulting position.

    Each entry is a dict:
      from      - the marble's own field (even when it changes lanes at the start)
      to        - the field it lands on, or 'GS' / 'GR'
      reinsert  - the reinsertion field after a goal, else None
      position  - the resulting position dict (mover NOT switched)
      won       - True if this sub-move brought a score from 5 to 6
      text      - notation such as '5:R1-S18' or '3:S22-GS*S7'
    The mover stays the same: switching players is the turn's job.
    """
    if opponent_goal not in OPPONENT_GOAL_OPTIONS:
        raise ValueError("unknown opponent_goal option %r" % opponent_goal)
    if die < 1 or die > 6:
        raise ValueError("a die shows 1..6, not %r" % die)

    mover = pos["mover"]
    results = []
    seen = set()

    for origin in marble_fields(pos):
        # Where the counting may start: the marble's own field, and, if the
        # partner half of its double space is occupied, the partner field.
        start_fields = [origin]
        if pos["board"][partner_of(origin)]:
            start_fields.append(partner_of(origin))

        for start in start_fields:
            lane, number = split_field(start)
            target_number = number + die

            if target_number > FIELDS_PER_LANE + 1:
                continue  # would pass the goal: no overshoot

            new_pos = copy_position(pos)
            board = new_pos["board"]
            board[origin] = False  # the origin hole is vacated first

            reinsert = None
            won = False
            if target_number == FIELDS_PER_LANE + 1:
                # Exactly the goal after field 24 of this lane.
                goal = GOAL_AFTER_LANE[lane]
                owner = GOAL_OWNER[goal]
                if opponent_goal == FORBIDDEN and owner != mover:
                    continue
                landed = goal
                old_score = new_pos["score"][owner]
                new_score = old_score + 1
                if new_score > MAX_SCORE:
                    new_score = MAX_SCORE
                new_pos["score"][owner] = new_score
                if old_score == 5 and new_score == 6:
                    won = True
                reinsert = reinsertion_field(board, goal)
                board[reinsert] = True
            else:
                target = field_name(lane, target_number)
                if not board[target]:
                    landed = target
                else:
                    other_half = partner_of(target)
                    if board[other_half]:
                        continue  # both halves occupied: illegal
                    landed = other_half
                board[landed] = True

            key = format_position(new_pos)
            if key in seen:
                continue
            seen.add(key)

            text = "%d:%s-%s" % (die, origin, landed)
            if reinsert is not None:
                text += "*" + reinsert
            results.append(
                {
                    "from": origin,
                    "to": landed,
                    "reinsert": reinsert,
                    "position": new_pos,
                    "won": won,
                    "text": text,
                }
            )
    return results


# ---------------------------------------------------------------------------
# A complete turn
# ---------------------------------------------------------------------------


def complete_turns(pos_or_text, a, b, opponent_goal=OWNER_SCORES):
    """All complete turns for the roll (a, b).

    Returns (moksha, results) where results is the sorted list of distinct
    resulting position strings (the other player to move) and moksha is True
    when there is no complete turn.
    """
    if isinstance(pos_or_text, str):
        pos = parse_position(pos_or_text)
    else:
        pos = pos_or_text

    orders = [(a, b)]
    if a != b:
        orders.append((b, a))

    finals = set()
    for first_die, second_die in orders:
        for first in sub_moves(pos, first_die, opponent_goal):
            if first["won"]:
                # A score went from 5 to 6: the turn ends at once.
                finals.add(_hand_over(first["position"]))
                continue
            for second in sub_moves(first["position"], second_die, opponent_goal):
                finals.add(_hand_over(second["position"]))

    results = sorted(finals)
    return len(results) == 0, results


def turn_notations(pos_or_text, a, b, opponent_goal=OWNER_SCORES):
    """Map resulting position string -> one turn notation, e.g. '53 5:R1-S18 3:R2-S17'."""
    if isinstance(pos_or_text, str):
        pos = parse_position(pos_or_text)
    else:
        pos = pos_or_text
    orders = [(a, b)]
    if a != b:
        orders.append((b, a))
    roll = "%d%d" % (a, b)
    found = {}
    for first_die, second_die in orders:
        for first in sub_moves(pos, first_die, opponent_goal):
            if first["won"]:
                key = _hand_over(first["position"])
                found.setdefault(key, roll + " " + first["text"])
                continue
            for second in sub_moves(first["position"], second_die, opponent_goal):
                key = _hand_over(second["position"])
                found.setdefault(key, roll + " " + first["text"] + " " + second["text"])
    return found


def _hand_over(pos):
    done = copy_position(pos)
    done["mover"] = other_player(pos["mover"])
    return format_position(done)
