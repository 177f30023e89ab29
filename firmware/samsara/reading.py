"""Reading a settled frame as moves: pure functions of (turn, settled frame)
(docs/controller.md "Reading the board").

While a turn is played (moving / turn complete) `read(turn, frame)` explains the frame
F as the turn's accepted sub-moves (samsara.turn.Turn), perhaps cut back (undo,
correction), followed by 0, 1 or 2 new legal sub-moves, with at most MAX_LIFTED
marbles in the air (lifted, missing from F).  The reading that keeps most of the
accepted sub-moves wins, then the one with the fewest new sub-moves, then the one with
the fewest marbles in the air.  Two different readings at that rank wait for more
input (AMBIGUOUS); no reading at all is a wrong placement (WRONG: one marble on a
non-target) or a REPAIR.  A result is a tuple whose first item is its kind:

    (MATCH, k, seq, goal)   keep the first k accepted sub-moves, then play the tuple
                            seq of new ones; goal: None, or the progress
                            (ins_done, piece_done, lifted) of a goal seq ends with
    (AMBIGUOUS,)            two readings: wait for more input
    (WRONG, hole, reason)   a marble on `hole`, which is not a target; reason text
    (REPAIR, reason)        nothing explains F

`place_fast` reads the commonest placement without the search, `read_goal` the steps
of a pending goal, `read_waiting` a frame before the roll; `targets` gives the lit
landing fields of a lifted marble; `misfit` says what a frame no reading explains
means (a wrong placement with its reason, or a repair).  What the board can read from
a position, for the simulated players, is the host's samsara_host.sim.readable.
Nothing here changes the turn, except the one-entry cache of `targets` (turn.memo).
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(__x):
        return __x

from samsara.rules import moves as rules
from samsara.frame import r_mask, s_mask, extra_mask, pieces_mask
from samsara.rules.geometry import GS, popcount24, position_name
from samsara.rules.notation import format_sub_move
from samsara.rules.moves import M_DIE, M_FROM, M_TO, M_INS, M_R, M_S, M_A, M_B
from samsara.turn import lane_bit, owner_piece

MAX_LIFTED = const(2)   # marbles in the air at once before the board counts as disturbed

MATCH = const(0)
AMBIGUOUS = const(1)
WRONG = const(2)
REPAIR = const(3)
_AMBIGUOUS = (AMBIGUOUS,)



def bits(r, s):
    """Track position indexes (0..47) of the set bits of lane masks r, s (a new list,
    ascending)."""
    out = []
    i = 0
    while r:
        if r & 1:
            out.append(i)
        r >>= 1
        i += 1
    i = 0
    while s:
        if s & 1:
            out.append(24 + i)
        s >>= 1
        i += 1
    return out


def in_air(turn, frame):
    """Marbles of the accepted position that are off the board in `frame` (list)."""
    return bits(turn.r & ~r_mask(frame), turn.s & ~s_mask(frame))


def read_waiting(turn, frame):
    """Before the roll (or with nothing to read): the lifted holes (list) when the frame
    is the turn's expected frame minus at most MAX_LIFTED marbles, else None."""
    e = turn.expected
    er = r_mask(e)
    es = s_mask(e)
    fr = r_mask(frame)
    fs = s_mask(frame)
    if extra_mask(frame) != extra_mask(e) or fr & ~er or fs & ~es:
        return None
    lr = er & ~fr
    ls = es & ~fs
    if popcount24(lr) + popcount24(ls) > MAX_LIFTED:
        return None
    return bits(lr, ls)


def near_expected(turn, frame):
    """True when the frame is the expected frame with at most MAX_LIFTED marbles in the
    air and nothing else (the strict test of a repair after the undo button)."""
    fr = r_mask(frame)
    fs = s_mask(frame)
    e = turn.expected
    if extra_mask(frame) != extra_mask(e):
        return False
    er = r_mask(e)
    es = s_mask(e)
    return not (fr & ~er) and not (fs & ~es) and \
        popcount24(er & ~fr) + popcount24(es & ~fs) <= MAX_LIFTED


def _fit(r, s, a, b, fr, fs, fx):
    # Marbles in the air when F (fr, fs, fx) is position (r, s, a, b) with some
    # marbles lifted; -1 when F has anything the position has not.
    if fx != pieces_mask(a, b) or fr & ~r or fs & ~s:
        return -1
    n = popcount24(r & ~fr) + popcount24(s & ~fs)
    return n if n <= MAX_LIFTED else -1


def fit_goal(m, pa, pb, fr, fs, fx, hand):
    """Goal sub-move m (scores pa, pb before it): F (lane masks fr, fs, extra mask fx)
    shows the marble in the goal hole, in the air (only if hand) or on its reinsertion
    field, and the scoring piece on its old field, in the air or on its new field.
    Returns (ins_done, piece_done, lifted) or None.  Every other hole must match,
    except (only if hand) other marbles in the air once both steps are done: the goal
    is then complete and the next sub-move may begin."""
    r = m[M_R]
    s = m[M_S]
    ins = m[M_INS]
    rb, sb = lane_bit(ins)
    gbit = 1 << (m[M_TO] - GS)
    old, new = owner_piece(m, pa, pb)
    obit = 1 << (old - GS)
    nbit = 1 << (new - GS)
    if (fr & rb) or (fs & sb):
        ins_done = True
        if fx & gbit:
            return None
    else:
        ins_done = False
        r &= ~rb
        s &= ~sb
        if not (fx & gbit) and not hand:
            return None
    if fr & ~r or fs & ~s:
        return None
    lifted = popcount24(r & ~fr) + popcount24(s & ~fs)
    if lifted and not (hand and ins_done and lifted <= MAX_LIFTED):
        return None
    fx &= ~gbit
    other = pieces_mask(m[M_A], m[M_B]) & ~nbit
    if old == new:
        piece_done = True
        want = other | nbit
    else:
        piece = fx & (obit | nbit)
        if piece == nbit:
            piece_done = True
        elif piece == obit or piece == 0:
            piece_done = False
        else:
            return None
        want = other | piece
    if fx != want:
        return None
    if lifted and not piece_done:
        return None
    return (ins_done, piece_done, lifted)


def read_goal(turn, frame, hand=True):
    """A pending goal (the last accepted sub-move): its progress (ins_done,
    piece_done, lifted) in `frame`, or None when anything else moved (fit_goal)."""
    k = len(turn.played) - 1
    pr, ps, pa, pb = turn.prefix(k)
    return fit_goal(turn.played[k], pa, pb, r_mask(frame), s_mask(frame),
                    extra_mask(frame), hand)


def read(turn, frame):
    """Read the settled `frame` as this turn's sub-moves (module docstring): a MATCH,
    AMBIGUOUS, WRONG or REPAIR result."""
    fr = r_mask(frame)
    fs = s_mask(frame)
    fx = extra_mask(frame)
    n = len(turn.played)
    k = n
    while k >= turn.floor:
        pr, ps, pa, pb = turn.prefix(k)
        if _fit(pr, ps, pa, pb, fr, fs, fx) >= 0:
            return (MATCH, k, (), None)
        rem = turn.rem_after(k) if k < n else turn.rem
        if rem and not (k > 0 and turn.ends[k - 1]):
            gone = bits(pr & ~fr, ps & ~fs)
            if 0 < len(gone) <= 4:
                found = _one_more(turn, pr, ps, pa, pb, rem, gone, fr, fs, fx)
                if not found and len(rem) == 2:
                    found = _two_more(turn, pr, ps, pa, pb, rem, gone, fr, fs, fx)
                if found:
                    return _pick(k, found)
        k -= 1
    # Nothing explains F: a wrong placement or a repair.
    return misfit(turn, fr, fs, fx)


def place_fast(turn, frame, o, x):
    """The commonest placement read fast: the one marble in the air (from track field
    o, the frame otherwise the accepted position) lands on track field or goal hole x
    as a completable sub-move of a die left.  Returns the MATCH result `read` gives
    then, or None when the shortcut does not apply (ask `read`).  `read` accepts
    exactly this: with one marble gone and one new hole, every candidate of its first
    step lands on x, and two dice never reach the same field from the same marble
    (landing = start + die, +-12).  Call only with dice left and no goal pending."""
    fr = r_mask(frame)
    fs = s_mask(frame)
    a = turn.a
    b = turn.b
    goal = x >= GS
    if extra_mask(frame) != pieces_mask(a, b) | ((1 << (x - GS)) if goal else 0):
        return None
    xi = 24 if goal else x % 24
    rem = turn.rem
    two = len(rem) == 2
    mover = turn.mover
    og = turn.og
    for i in range(len(rem)):
        d = rem[i]
        if i == 1 and d == rem[0]:
            break
        if (xi - o % 24 - d) % 12:
            continue
        for m in rules.gen_sub_moves(turn.r, turn.s, a, b, mover, d, og, o):
            if m[M_TO] != x:
                continue
            if goal:
                rb, sb = lane_bit(m[M_INS])     # the marble waits in the goal
                if m[M_R] & ~rb != fr or m[M_S] & ~sb != fs:
                    continue
            elif m[M_R] != fr or m[M_S] != fs:
                continue
            if two and not rules.ends_turn(m, a, b) and not rules.any_sub_move(
                    m[M_R], m[M_S], m[M_A], m[M_B], mover, rem[1 - i], og):
                return None     # a dead end: `read` rejects it
            prog = None
            if goal:
                old_p, new_p = owner_piece(m, a, b)
                prog = (False, old_p == new_p, 0)
            return (MATCH, len(turn.played), (m,), prog)
    return None


def _new_field(pr, ps, fr, fs):
    # The lane index (0..23) of the one new track field of F, or -1.
    xr = fr & ~pr
    xs = fs & ~ps
    if (xr and not xs and not (xr & (xr - 1))) or (xs and not xr and not (xs & (xs - 1))):
        return bits(xr, xs)[0] % 24
    return -1


def _one_more(turn, pr, ps, pa, pb, rem, gone, fr, fs, fx):
    found = []
    mover = turn.mover
    og = turn.og
    two = len(rem) == 2
    # One new marble on one track field x: a sub-move of d from lane index i lands
    # on index i + d (+-12 with lane changes), so skip the dice that cannot --
    # unless i + d reaches a goal (index 24 of either lane): then the new marble
    # is on the reinsertion field, anywhere in fields 1..12.
    x = _new_field(pr, ps, fr, fs)
    for d in (rem[0],) if (not two or rem[0] == rem[1]) else (rem[0], rem[1]):
        other = rem[1] if d == rem[0] and two else rem[0]
        for o in gone:
            if x >= 0 and (x - o % 24 - d) % 12 and (o % 24 + d) % 12:
                continue
            for m in rules.gen_sub_moves(pr, ps, pa, pb, mover, d, og, o):
                # the cheap frame test first, the completable test only on a fit
                c = _candidate((m,), pa, pb, fr, fs, fx)
                if c is None:
                    continue
                if two and not (rules.ends_turn(m, pa, pb) or
                                rules.any_sub_move(m[M_R], m[M_S], m[M_A], m[M_B], mover,
                                                   other, og)):
                    continue
                found.append(c)
    return found


def _two_more(turn, pr, ps, pa, pb, rem, gone, fr, fs, fx):
    found = []
    mover = turn.mover
    og = turn.og
    # With one new track field x, both sub-moves move the same marble (each new
    # landing is occupied in F): it ends on its start + d + e (mod 12), or, when
    # that reaches a goal (start + d + e = 0 mod 12), on the reinsertion field.
    x = _new_field(pr, ps, fr, fs)
    for d, e in ((rem[0], rem[1]),) if rem[0] == rem[1] else \
            ((rem[0], rem[1]), (rem[1], rem[0])):
        for o in gone:
            if x >= 0 and (x - o % 24 - d - e) % 12 and (o % 24 + d + e) % 12:
                continue
            for m in rules.gen_sub_moves(pr, ps, pa, pb, mover, d, og, o):
                if m[M_INS] >= 0 or rules.ends_turn(m, pa, pb):
                    continue  # a goal is finished before anything else moves
                gone2 = bits(m[M_R] & ~fr, m[M_S] & ~fs)
                if len(gone2) > 4:
                    continue
                for o2 in gone2:
                    for m2 in rules.gen_sub_moves(m[M_R], m[M_S], m[M_A], m[M_B], mover, e,
                                                  og, o2):
                        c = _candidate((m, m2), pa, pb, fr, fs, fx)
                        if c is not None:
                            found.append(c)
    return found


def _candidate(seq, pa, pb, fr, fs, fx):
    # (lifted, seq, goal progress) when F is seq played with marbles in the air,
    # every new landing field occupied in F; else None.
    last = seq[-1]
    if len(seq) == 2:
        pa = seq[0][M_A]
        pb = seq[0][M_B]
    landing = []
    for m in seq:
        if m[M_TO] < 48:
            landing.append(m[M_TO])
    if len(seq) == 2 and seq[1][M_FROM] == seq[0][M_TO] and seq[0][M_TO] in landing:
        landing.remove(seq[0][M_TO])
    if last[M_INS] >= 0:
        prog = fit_goal(last, pa, pb, fr, fs, fx, False)
        if prog is None:
            return None
        lifted = 0
    else:
        prog = None
        lifted = _fit(last[M_R], last[M_S], last[M_A], last[M_B], fr, fs, fx)
        if lifted < 0:
            return None
    for p in landing:
        rb, sb = lane_bit(p)
        if not (fr & rb or fs & sb):
            return None
    return (lifted, seq, prog)


def _pick(k, found):
    best = found[0][0]
    for c in found:
        if c[0] < best:
            best = c[0]
    keep = []
    keys = []
    for c in found:
        if c[0] == best:
            m = c[1][-1]
            key = (m[M_R], m[M_S], m[M_A], m[M_B])
            if key not in keys:
                keys.append(key)
                keep.append(c)
    if len(keep) > 1:
        return _AMBIGUOUS
    c = keep[0]
    return (MATCH, k, c[1], c[2])


def targets(turn, o):
    """([(to, die)], back): the completable landings of the marble on track field o
    with the dice left, and its earlier field this turn it may go back to (or -1).
    Cached for the accepted position and dice in turn.memo (a wrong placement and the
    display ask twice)."""
    key = (o, turn.r, turn.s, turn.a, turn.b, turn.used, len(turn.played), turn.floor,
           turn.mover)
    memo = turn.memo
    if memo[0] == key:
        return memo[1]
    out = []
    if turn.rem:
        for m in rules.completable_sub_moves(turn.r, turn.s, turn.a, turn.b, turn.mover,
                                             tuple(turn.rem), o, turn.og):
            out.append((m[M_TO], m[M_DIE]))
    back = -1
    if len(turn.played) > turn.floor:
        m = turn.played[-1]
        if m[M_TO] == o:
            back = m[M_FROM]
    memo[0] = key
    memo[1] = (out, back)
    return memo[1]


# ---- what a frame no reading explains means -------------------------------------------

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
            if m[M_TO] == x and two:
                other = rem[1] if d == rem[0] else rem[0]
                return "%s leaves die %d unplayable" % (format_sub_move(m), other)
    lst = " ".join(["%d:%s" % (d, position_name(t)) for t, d in tl])
    if back >= 0:
        lst = (lst + " " if lst else "") + "back:" + position_name(back)
    return "%s is not a target of the marble from %s (targets: %s)" % (dst, src, lst)
