"""Samas games as JSON lines (docs/samas.md "JSON lines"): the lines of a game, a seeded
self-play game, the answer of `samsara rules legal --game samas`, a short text form and
a round in words.

Lines, in order:
    {"game": "samas", "start": S}
    {"round": k, "play": {"A": SEL, "B": SEL}, "after": S}     one per round, k from 1
    {"result": "A" | "B" | "draw", "final": S}
S is a state object (samas.rules.state), SEL one of "0", "1", "2", "3", "J".
"""
import random

from samas.rules.game import Game
from samas.rules.rounds import SELECTIONS, legal_selections, result, reveal, selection
from samas.rules.state import START, State


def start_line(state):
    """The first line of a game from `state`."""
    return {"game": "samas", "start": state.to_obj()}


def round_line(k, sel_a, sel_b, after):
    """The line of round k (from 1): A's and B's selections (indexes), the state after."""
    return {"round": k, "play": {"A": SELECTIONS[sel_a], "B": SELECTIONS[sel_b]},
            "after": after.to_obj()}


def result_line(game):
    """The last line of a finished Game."""
    return {"result": game.result, "final": game.state.to_obj()}


def self_play(seed, state=START):
    """One seeded self-play game: each round A and then B picks uniformly among its legal
    selections with random.Random(seed).  Returns (the finished Game, its lines as a list
    of dicts)."""
    rng = random.Random(seed)
    game = Game(state)
    lines = [start_line(state)]
    while not game.over():
        sa = rng.choice(legal_selections(game.state, 0))
        sb = rng.choice(legal_selections(game.state, 1))
        after = game.play(sa, sb)
        lines.append(round_line(game.rounds, sa, sb, after))
    lines.append(result_line(game))
    return game, lines


def board_lines(events):
    """The JSON lines of a game played on a Samas board, from the board's events
    (samas.controller: game_start, round, game_over; every other event is left out), in
    the same form as self_play's: what `logs export --format jsonl` writes for the game.
    Raises ValueError when the events do not start with a game_start."""
    out = []
    for ev in events:
        kind = ev.get("ev")
        if kind == "game_start":
            if out:
                raise ValueError("a second game_start: the events hold more than one game")
            out.append({"game": "samas", "start": ev["start"]})
        elif not out and kind in ("round", "game_over"):
            raise ValueError("the events do not start with a game_start")
        elif kind == "round":
            out.append({"round": ev["round"], "play": ev["play"], "after": ev["after"]})
        elif kind == "game_over":
            out.append({"result": ev["result"], "final": ev["final"]})
    return out


def legal_answer(state):
    """`rules legal --game samas` for a State: {"legal": {"A": [SEL...], "B": [SEL...]},
    "result": null | "A" | "B" | "draw"} (both lists empty once the game is over)."""
    return {"legal": {"AB"[p]: [SELECTIONS[i] for i in legal_selections(state, p)]
                      for p in (0, 1)},
            "result": result(state)}


def round_words(before, play, after, who=None):
    """A Samas round in words from the state objects before and after it and its play:
    who won the reveal and moved, and the run-out when a player then held nothing
    (the split comes from samas.rules.rounds.reveal, the rules' own step).  who: what
    to call a player ("A"/"B" -> words; None: the letter)."""
    if who is None:
        def who(p):
            return p
    mid = reveal(State.from_obj(before), selection(play["A"]), selection(play["B"])).to_obj()
    won = [p for p in ("A", "B") if mid[p]["hole"] != before[p]["hole"]]
    out = ("%s wins the reveal and moves %d to %d" % (who(won[0]), before[won[0]]["hole"],
                                                      mid[won[0]]["hole"])
           if won else "nobody moves")
    for p in ("A", "B"):
        if after[p]["hole"] != mid[p]["hole"]:
            q = "B" if p == "A" else "A"
            out += "; %s holds nothing, so %s runs %d to %d" % (
                who(q), who(p), mid[p]["hole"], after[p]["hole"])
    return out


def _count(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def _describe(s):
    return "   ".join("%s: hollow %d, %s, %s" % (
        "AB"[p], s.hole[p], _count(s.stones[p], "stone"), _count(s.jokers[p], "joker"))
        for p in (0, 1))


def text_lines(seed, game, lines):
    """The self-play game as text, one line per round (the text form of `rules play
    --game samas`)."""
    out = ["Samas self-play, seed %d. Start   %s" % (seed, _describe(START))]
    prev = START
    for line in lines[1:-1]:
        s = State.from_obj(line["after"])
        a, b = line["play"]["A"], line["play"]["B"]
        moved = [p for p in (0, 1) if s.hole[p] != prev.hole[p]]
        what = "nobody moves" if not moved else " and ".join(
            "%s moves to %d" % ("AB"[p], s.hole[p]) for p in moved)
        out.append("round %d: A %s, B %s: %s   %s" % (line["round"], a, b, what, _describe(s)))
        prev = s
    out.append(result_text(game))
    return out


def result_text(game):
    """The last line of the text form of a finished Game: "result: A wins (far end)
    after 23 rounds", "result: draw (limit) after 100 rounds"."""
    r = game.result
    return "result: %s (%s) after %d rounds" % (
        "draw" if r == "draw" else r + " wins", game.how, game.rounds)
