"""Schaska actions: what the player to move may do, one action applied, the game end by
all figures home or by a block, and the scoring of a block (docs/schaska.md "The rules":
a turn, half time, the end; "Decisions").

An action is a pair (frm, to) of track positions 0..n+1 (schaska.rules.state): entering
is (own start, own first field), a move (field, landing position), where the landing
position is a field, the player's home (forward past the last field) or the player's
own start (backward past the player's first field).  For A the start is 0 and home n+1,
for B the start is n+1 and home 0.
"""

from schaska.rules.state import State, FIGURES, PLAYERS


class IllegalActionError(ValueError):
    """An action that is not among the legal actions of the state (or the game is over)."""


def start_of(n, p):
    """Player p's start position: 0 for A, n+1 for B."""
    return 0 if p == 0 else n + 1


def home_of(n, p):
    """Player p's home position (the other player's start): n+1 for A, 0 for B."""
    return n + 1 if p == 0 else 0


def progress(n, p, pos):
    """How far position `pos` (0..n+1) is along player p's way: 0 at the start, the field
    number for A and n+1-field for B, n+1 at home."""
    return pos if p == 0 else n + 1 - pos


def landing(layout, state, f):
    """Where the figure on field f (1..n) lands when moved by the value of its field,
    counting only empty fields: a field, or n+1 / 0 when it walks off the track (home or
    back to its start, by direction and player)."""
    n = state.n
    p = state.cells[f] - 1
    v = layout[f - 1]
    d = 1 if p == 0 else -1
    if v < 0:
        d = -d
        v = -v
    c = state.cells
    g = f + d
    while 1 <= g <= n:
        if c[g] == 0:
            v -= 1
            if v == 0:
                return g
        g += d
    return g


def frozen_leader(state, p):
    """The field of player p's leading figure (the one furthest along on the track) when
    half time keeps it from moving: p has figures at the start and that figure's progress
    is past the middle (progress > n/2).  0 when no figure is held."""
    if state.start[p] == 0:
        return 0
    n = state.n
    c = state.cells
    want = p + 1
    rng = range(n, 0, -1) if p == 0 else range(1, n + 1)
    for f in rng:
        if c[f] == want:
            return f if 2 * progress(n, p, f) > n else 0
    return 0


def legal_actions(layout, state):
    """The legal actions of the player to move, as a list of (frm, to): entering first
    (when the player has a figure at the start and the first field is empty), then the
    moves of the player's figures by field number, ascending; the half-time leader
    (frozen_leader) has none.  Empty when that player has no action (a block) or when
    the game is over by all figures home."""
    n = state.n
    if len(layout) != n:
        raise ValueError("the layout has %d fields, the state %d" % (len(layout), n))
    if state.home[0] == FIGURES or state.home[1] == FIGURES:
        return []
    p = state.mover
    c = state.cells
    out = []
    first = 1 if p == 0 else n
    if state.start[p] and c[first] == 0:
        out.append((start_of(n, p), first))
    frozen = frozen_leader(state, p)
    want = p + 1
    for f in range(1, n + 1):
        if c[f] == want and f != frozen:
            out.append((f, landing(layout, state, f)))
    return out


def apply(layout, state, action):
    """The state after the player to move takes `action` (one of legal_actions), the
    other player to move.  Raises IllegalActionError for any other action."""
    if action not in legal_actions(layout, state):
        raise IllegalActionError("%s may not play %r here" % (PLAYERS[state.mover], action))
    n = state.n
    p = state.mover
    frm, to = action
    cells = bytearray(state.cells)
    start = [state.start[0], state.start[1]]
    home = [state.home[0], state.home[1]]
    if 1 <= frm <= n:
        cells[frm] = 0
    else:
        start[p] -= 1
    if 1 <= to <= n:
        cells[to] = p + 1
    elif to == home_of(n, p):
        home[p] += 1
    else:
        start[p] += 1
    return State(n, cells, start, home, 1 - p)


def totals(state):
    """Each player's total progress (A's, B's): 0 per figure at the start, the progress of
    each figure on a field, n+1 per figure home."""
    n = state.n
    out = [0, 0]
    for f in range(1, n + 1):
        o = state.cells[f]
        if o:
            out[o - 1] += progress(n, o - 1, f)
    for p in (0, 1):
        out[p] += (n + 1) * state.home[p]
    return (out[0], out[1])


def scored(state):
    """"A", "B" or "draw": the larger total progress wins (a block, or the turn limit)."""
    ta, tb = totals(state)
    if ta == tb:
        return "draw"
    return "A" if ta > tb else "B"


def result(layout, state):
    """How `state` has ended: (winner, by) with winner "A", "B" or "draw" and by "home"
    (all of a player's figures home: that player wins) or "block" (the player to move has
    no action: scored()); None while the game runs."""
    for p in (0, 1):
        if state.home[p] == FIGURES:
            return (PLAYERS[p], "home")
    if not legal_actions(layout, state):
        return (scored(state), "block")
    return None


def action_obj(state, action):
    """The move object of an action of the player to move in `state`:
    {"from": "start" | field, "to": field | "home" | "start"}."""
    n = state.n
    p = state.mover
    frm, to = action
    out = {"from": frm if 1 <= frm <= n else "start"}
    if 1 <= to <= n:
        out["to"] = to
    else:
        out["to"] = "home" if to == home_of(n, p) else "start"
    return out
