"""Samas choices and rounds: what each player may choose, which choice wins, one round
applied to a state, the run-out end and the result (docs/samas.md "The rules": a round, the end).

A choice (a "selection") is one of the texts "0", "1", "2", "3" (that many stones) or
"J" (one joker).  Inside, a selection is its index in SELECTIONS: 0..3 stones, JOKER (4).
A result is "A", "B", "draw", or None while the game runs.
"""

from samas.rules.state import State, FAR_END, STEP

SELECTIONS = ("0", "1", "2", "3", "J")
"""The selections' texts, by index (the index of a stone count is the count)."""
JOKER = 4
"""The index of the joker selection in SELECTIONS."""


class SelectionError(ValueError):
    """A selection that is not one of "0", "1", "2", "3", "J"."""


class IllegalSelectionError(ValueError):
    """A selection the player may not make now (more stones than held, a joker not held,
    or any selection once the game is over)."""


def selection(text):
    """The index (0..4) of a selection text "0".."3" or "J".  Raises SelectionError."""
    for i in range(len(SELECTIONS)):
        if SELECTIONS[i] == text:
            return i
    raise SelectionError("a selection is one of 0, 1, 2, 3, J; got %r" % (text,))


def compare(x, y):
    """Who wins a reveal of selection x against selection y (indexes 0..4):
    1 when x wins, -1 when y wins, 0 when they are equal (same count, or both jokers).
    A joker beats 1-3 stones and loses to 0 stones; otherwise more stones win.
    Antisymmetric: compare(x, y) == -compare(y, x)."""
    if x == y:
        return 0
    if x == JOKER:
        return -1 if y == 0 else 1
    if y == JOKER:
        return 1 if x == 0 else -1
    return 1 if x > y else -1


def legal_selections(state, p):
    """The selections player p (0 = A, 1 = B) may make in `state`, as indexes in
    SELECTIONS order: 0 always, 1..3 when that many stones are held, the joker when
    one is held.  Empty when the game is over (result(state) is not None)."""
    if result(state) is not None:
        return []
    out = [0]
    for n in range(1, 4):
        if n <= state.stones[p]:
            out.append(n)
    if state.jokers[p] > 0:
        out.append(JOKER)
    return out


def result(state):
    """The result of `state`: "A" or "B" when that player's Sama-stone is on its far end,
    else, when a player holds nothing (the run-out already played), the player closer to
    its far end or "draw" at equal distance; None while the game runs."""
    for p in (0, 1):
        if state.hole[p] == FAR_END[p]:
            return "AB"[p]
    if state.has_nothing(0) or state.has_nothing(1):
        da = state.distance(0)
        db = state.distance(1)
        if da == db:
            return "draw"
        return "A" if da < db else "B"
    return None


def play_round(state, sel_a, sel_b):
    """The state after a round in which A revealed selection `sel_a` and B `sel_b`
    (indexes 0..4): reveal() and then run_out().  Raises IllegalSelectionError for a
    selection not in legal_selections."""
    return run_out(reveal(state, sel_a, sel_b))


def reveal(state, sel_a, sel_b):
    """The state after both selections are revealed: both leave play and the winner's
    Sama-stone moves one hollow toward the other side (nobody moves on equal
    selections).  Raises IllegalSelectionError for a selection not in
    legal_selections(state, player)."""
    sels = (sel_a, sel_b)
    for p in (0, 1):
        if sels[p] not in legal_selections(state, p):
            if result(state) is not None:
                raise IllegalSelectionError("the game is over")
            raise IllegalSelectionError("%s may not play %s (holds %d stones, %d jokers)" % (
                "AB"[p], SELECTIONS[sels[p]] if sels[p] in (0, 1, 2, 3, 4) else repr(sels[p]),
                state.stones[p], state.jokers[p]))
    hole = [state.hole[0], state.hole[1]]
    stones = [state.stones[0], state.stones[1]]
    jokers = [state.jokers[0], state.jokers[1]]
    for p in (0, 1):
        if sels[p] == JOKER:
            jokers[p] -= 1
        else:
            stones[p] -= sels[p]
    c = compare(sel_a, sel_b)
    if c:
        w = 0 if c > 0 else 1
        hole[w] += STEP[w]
    return State(hole, stones, jokers)


def run_out(state):
    """The run-out (docs/samas.md "The rules": the end): unless a Sama-stone is on its far end,
    for each player who holds nothing the other player's Sama-stone moves one hollow
    per stone (not joker) that other player holds, up to its far end.  Returns
    `state` itself when nothing moves."""
    if state.distance(0) == 0 or state.distance(1) == 0:
        return state
    hole = [state.hole[0], state.hole[1]]
    moved = False
    for p in (0, 1):
        if state.has_nothing(p) and state.stones[1 - p]:
            q = 1 - p
            h = hole[q] + STEP[q] * state.stones[q]
            hole[q] = min(h, FAR_END[q]) if STEP[q] > 0 else max(h, FAR_END[q])
            moved = True
    if not moved:
        return state
    return State(hole, state.stones, state.jokers)
