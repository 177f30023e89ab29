"""Sub-move and turn notation (docs/rules.md §5): format, parse, and replay on a position.

    sub-move   <die>:<from>-<to>          5:R1-S18
               goal adds the reinsertion   3:S22-GS*S7
    turn       <roll> <sub-move> ...      53 5:R1-S18 3:R2-S17   (larger die first)
               Moksha roll                 53 Moksha

Parsing also accepts short forms, filled in from the position: a sub-move without
its die (``R1-S18``), a goal without its reinsertion (``3:S22-GS``), and the landing
field alone (``5:S18``, "the marble that lands on S18 with the 5"), which is
ambiguous when two marbles can land there.  Three errors, all
ValueError subclasses, tell the causes apart: NotationError (the text is not
notation), IllegalMoveError (well-formed but not legal here) and AmbiguousMoveError
(more than one legal reading with different results).

Its one job is the notation, both ways: text from moves and moves from text.  On the
board only formatting runs in the game loop (events, the game record); parsing runs
when a logged game resumes and for the host's commands.
"""

from samsara.rules.geometry import NAMES, position_index, GS, GR
from samsara.rules import moves as rules


class NotationError(ValueError):
    """Text that is not sub-move or turn notation (docs/rules.md §5)."""


class IllegalMoveError(ValueError):
    """Well-formed notation for a sub-move or turn that the rules do not allow here."""


class AmbiguousMoveError(ValueError):
    """Notation that more than one legal sub-move or turn fits, with different results."""


_DIE = ["0", "1", "2", "3", "4", "5", "6"]   # (a list: interned strings, not heap ones)


def format_sub_move(m):
    """Notation of a sub-move tuple (rules.py): '5:R1-S18' or '3:S22-GS*S7'."""
    # One format from names looked up (no str() of an int, no concatenation): about
    # 0.35 ms on the Pico instead of 1.3 (docs/performance.md "Fifth round").
    if m[3] >= 0:
        return "%s:%s-%s*%s" % (_DIE[m[0]], NAMES[m[1]], NAMES[m[2]], NAMES[m[3]])
    return "%s:%s-%s" % (_DIE[m[0]], NAMES[m[1]], NAMES[m[2]])


def format_roll(d1, d2):
    """The roll with the larger die first, e.g. (3, 5) -> '53'."""
    if d1 < d2:
        d1, d2 = d2, d1
    return "%d%d" % (d1, d2)


def format_turn(d1, d2, moves):
    """Turn notation: the roll (larger die first) then the sub-moves in the order
    played; an empty `moves` is written '<roll> Moksha'."""
    if not moves:
        return format_roll(d1, d2) + " Moksha"
    return " ".join([format_roll(d1, d2)] + [format_sub_move(m) for m in moves])


def parse_sub_move(text):
    """Parse one sub-move into (die, frm, to, ins): die 1..6 or 0 when omitted, frm a
    track field 0..47 or -1 when only the landing field is given, to a field or
    GS/GR, ins the reinsertion field or -1.

    Raises NotationError naming what is wrong.
    """
    if not isinstance(text, str) or not text:
        raise NotationError("empty sub-move")
    die = 0
    body = text
    if ":" in text:
        head, body = text.split(":", 1)
        if len(head) != 1 or head not in "123456":
            raise NotationError("bad die %r in %r (use 1..6)" % (head, text))
        die = int(head)
    ins = -1
    if "*" in body:
        body, ins_t = body.split("*", 1)
        try:
            ins = position_index(ins_t)
        except ValueError:
            raise NotationError("bad reinsertion field %r in %r" % (ins_t, text))
        if ins >= 48:
            raise NotationError("reinsertion must be a track field, got %r" % ins_t)
    parts = body.split("-")
    if len(parts) == 1:
        parts = ["", parts[0]]
    if len(parts) != 2:
        raise NotationError("a sub-move is <die>:<from>-<to>, got %r" % text)
    try:
        frm = position_index(parts[0]) if parts[0] else -1
        to = position_index(parts[1])
    except ValueError as e:
        raise NotationError("%s in %r" % (e, text))
    if frm < 0 and (die == 0 or ":" not in text):
        raise NotationError("write the die with a landing field alone, e.g. '5:S18': %r" % text)
    if frm >= 48:
        raise NotationError("a marble moves from a track field, not %r" % parts[0])
    if to > GR:
        raise NotationError("a marble lands on a track field or a goal, not %r" % parts[1])
    if ins >= 0 and to not in (GS, GR):
        raise NotationError("only a goal has a reinsertion field: %r" % text)
    return (die, frm, to, ins)


def parse_roll(text):
    """Parse a roll token such as '53' into (5, 3).  Raises NotationError."""
    if len(text) != 2 or text[0] not in "123456" or text[1] not in "123456":
        raise NotationError("a roll is two digits 1..6, got %r" % text)
    return (int(text[0]), int(text[1]))


def _matches(r, s, a, b, mover, dice, spec, og):
    # Legal sub-moves fitting spec with a die from `dice`, one per resulting position.
    die, frm, to, ins = spec
    out = []
    tried = []
    for d in dice:
        if (die and d != die) or d in tried:
            continue
        tried.append(d)
        for m in rules.gen_sub_moves(r, s, a, b, mover, d, og, frm):
            if m[2] == to and (ins < 0 or m[3] == ins) and (frm < 0 or m[1] == frm):
                out.append(m)
    return out


def read_sub_move(r, s, a, b, mover, dice, text, og=rules.OWNER_SCORES):
    """The legal sub-move that `text` names, with a die from `dice` (tuple of values
    still to play).  Returns its sub-move tuple (rules.py).

    Raises NotationError, IllegalMoveError (no such legal sub-move, or its die is
    not among `dice`), AmbiguousMoveError (die omitted and both dice fit, with
    different results).
    """
    spec = parse_sub_move(text)
    if spec[0] and spec[0] not in dice:
        raise IllegalMoveError("%s: no die %d left to play" % (text, spec[0]))
    found = _matches(r, s, a, b, mover, dice, spec, og)
    if not found:
        raise IllegalMoveError("%s is not a legal sub-move here" % text)
    if len(found) > 1:
        raise AmbiguousMoveError("%s fits %d sub-moves (%s); write the field it came from"
                                 % (text, len(found), ", ".join(format_sub_move(m) for m in found)))
    return found[0]


def read_turn(r, s, a, b, mover, text, og=rules.OWNER_SCORES):
    """Replay turn notation on a position.

    Returns ((d1, d2), moves, (r, s, a, b)): the roll as written, the sub-move tuples
    in the order played (empty for Moksha) and the position after the turn (the mover
    still to flip).  Checks the whole turn: every die used unless a score reached 6,
    and a Moksha claim only when the roll has no complete turn.
    Raises NotationError, IllegalMoveError or AmbiguousMoveError.
    """
    if not isinstance(text, str):
        raise NotationError("turn notation must be a string")
    tokens = text.split()
    if not tokens:
        raise NotationError("empty turn")
    d1, d2 = parse_roll(tokens[0])
    if d1 < d2:
        raise NotationError("write the larger die first: %r" % tokens[0])
    rest = tokens[1:]
    if rest == ["Moksha"]:
        if rules.has_complete_turn(r, s, a, b, mover, d1, d2, og):
            raise IllegalMoveError("roll %s has a legal turn: not Moksha" % tokens[0])
        return ((d1, d2), [], (r, s, a, b))
    if not rest:
        raise NotationError("a turn lists its sub-moves or 'Moksha'")
    if len(rest) > 2:
        raise IllegalMoveError("a turn has at most two sub-moves, got %d" % len(rest))
    specs = [parse_sub_move(t) for t in rest]
    readings = {}
    error = [None]

    def walk(r, s, a, b, dice, k, played, ended):
        if k == len(specs):
            if not dice or ended:
                readings[(r, s, a, b)] = list(played)
            else:
                error[0] = "turn incomplete: die %d not played" % dice[0]
            return
        if ended:
            error[0] = "the turn ended at the sixth goal; %s cannot follow" % rest[k]
            return
        found = _matches(r, s, a, b, mover, dice, specs[k], og)
        if not found:
            error[0] = "%s is not a legal sub-move here" % rest[k]
        for m in found:
            left = list(dice)
            left.remove(m[0])
            walk(m[4], m[5], m[6], m[7], tuple(left), k + 1, played + [m],
                 rules.ends_turn(m, a, b))

    walk(r, s, a, b, (d1, d2), 0, [], False)
    if not readings:
        raise IllegalMoveError("%s: %s" % (text, error[0]))
    if len(readings) > 1:
        raise AmbiguousMoveError("%s has %d readings with different results; write the "
                                 "fields each marble came from" % (text, len(readings)))
    key = list(readings.keys())[0]
    return ((d1, d2), readings[key], key)
