"""What a frame that no reading explains means (docs/controller.md "Reading the
board"): a wrong placement of a lifted marble, with the reason text, or a repair.  Its
one job is those explanations; samsara.reading.read loads it only when nothing else
fits (clean play never does) and the main loop drops it again at its next quiet moment
(mainloop.ON_DEMAND_MODULES, docs/performance.md "Fifth round").
"""

from samsara.rules import moves as rules
from samsara.frame import r_mask, s_mask, extra_mask
from samsara.rules.geometry import GS, position_name
from samsara.rules.notation import format_sub_move
from samsara.reading import MAX_LIFTED, WRONG, REPAIR, bits, targets


def misfit(turn, fr, fs, fx):
    """(WRONG, hole, reason) or (REPAIR, reason) for the frame (fr, fs, fx: its track
    masks and goal/extra mask) that nothing explains (samsara.reading.read)."""
    e = turn.expected
    er = r_mask(e)
    es = s_mask(e)
    gone = bits(er & ~fr, es & ~fs)
    extra = bits(fr & ~er, fs & ~es)
    ex = extra_mask(e)
    if not extra and (fx & ex) == ex and (fx & ~ex) in (1, 2):
        # a marble in a goal hole that is not its target: a wrong placement too
        extra = [GS + (fx & ~ex) - 1]
        fx = ex
    if fx != ex:
        return (REPAIR, "a scoring piece or goal hole differs from the game: "
                "missing %s, extra %s" % (_names_x(extra_mask(e) & ~fx),
                                          _names_x(fx & ~extra_mask(e))))
    if len(extra) == 1 and 1 <= len(gone) <= MAX_LIFTED:
        x = extra[0]
        reason = None
        for o in gone:
            why = _why_not(turn, o, x)
            if why is not None:
                reason = why
                break
        if reason is not None:
            return (WRONG, x, reason)
        if len(gone) == 1:
            return (REPAIR, "the marble on %s cannot move with %s" %
                    (position_name(gone[0]), " or ".join([str(d) for d in turn.rem])
                     or "no die left"))
    if not extra and not gone:
        return (REPAIR, "the board differs from the expected position")
    return (REPAIR, "the board is not a step of a legal move: missing %s, extra %s" %
            (" ".join([position_name(p) for p in gone]) or "-",
             " ".join([position_name(p) for p in extra]) or "-"))


def _names_x(ex):
    out = []
    for i in range(16):
        if (ex >> i) & 1:
            out.append(position_name(48 + i))
    return " ".join(out) or "-"


def _why_not(turn, o, x):
    # Reason text why the marble from o may not land on x, or None when the
    # marble from o has nowhere to go at all.
    tl, back = targets(turn, o)
    if not tl and back < 0:
        return None
    src = position_name(o)
    dst = position_name(x)
    rem = turn.rem
    two = len(rem) == 2
    xi = 24 if x >= GS else x % 24
    for d in rem:
        if (xi - o % 24 - d) % 12:
            continue          # no sub-move of d from o reaches x
        for m in rules.gen_sub_moves(turn.r, turn.s, turn.a, turn.b, turn.mover, d,
                                     turn.og, o):
            if m[2] == x and two:
                other = rem[1] if d == rem[0] else rem[0]
                return "%s leaves die %d unplayable" % (format_sub_move(m), other)
    lst = " ".join(["%d:%s" % (d, position_name(t)) for t, d in tl])
    if back >= 0:
        lst = (lst + " " if lst else "") + "back:" + position_name(back)
    return "%s is not a target of the marble from %s (targets: %s)" % (dst, src, lst)
