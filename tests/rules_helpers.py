"""Small helpers shared by the rules tests: sub-move lists in notation."""
from samsara.rules import moves as rules
from samsara.rules.geometry import position_name
from samsara.rules.position import Position


def moves_of(position, die, og=rules.OWNER_SCORES, origin=-1):
    """Sub-moves of one die as a set of '<from>-<to>[*<ins>]' strings."""
    p = Position.parse(position) if isinstance(position, str) else position
    out = set()
    for m in rules.gen_sub_moves(p.r, p.s, p.a, p.b, p.mover, die, og, origin):
        t = "%s-%s" % (position_name(m[1]), position_name(m[2]))
        if m[3] >= 0:
            t += "*" + position_name(m[3])
        out.add(t)
    return out


def turns_of(position, d1, d2, og=rules.OWNER_SCORES):
    """Complete turns as {result position string: turn notation}."""
    from samsara.rules.game import Game
    g = Game(Position.parse(position), og)
    return {res.format(): note for note, res in g.legal_turns(d1, d2)}
