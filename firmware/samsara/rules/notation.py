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

Parsing and replaying live in samsara.rules.notation_read; the functions of the same names
here import it when first called.  On the board only formatting runs in the game loop
(events, the game record); parsing runs at boot to resume a logged game, after which
main.py drops samsara.rules.notation_read again (docs/performance.md "Firmware": heap).
"""

from samsara.rules.geometry import NAMES
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
    """Parse one sub-move into (die, frm, to, ins) (samsara.rules.notation_read)."""
    from samsara.rules.notation_read import parse_sub_move as f
    return f(text)


def parse_roll(text):
    """Parse a roll token such as '53' into (5, 3) (samsara.rules.notation_read)."""
    from samsara.rules.notation_read import parse_roll as f
    return f(text)


def read_sub_move(r, s, a, b, mover, dice, text, og=rules.OWNER_SCORES):
    """The legal sub-move that `text` names, with a die from `dice`
    (samsara.rules.notation_read)."""
    from samsara.rules.notation_read import read_sub_move as f
    return f(r, s, a, b, mover, dice, text, og)


def read_turn(r, s, a, b, mover, text, og=rules.OWNER_SCORES):
    """Replay turn notation on a position: ((d1, d2), moves, (r, s, a, b))
    (samsara.rules.notation_read)."""
    from samsara.rules.notation_read import read_turn as f
    return f(r, s, a, b, mover, text, og)
