"""Schaska games as JSON lines (docs/schaska.md "JSON lines"): the lines of a game, a
seeded self-play game, the answer of `samsara rules legal --game schaska`, a short
text form and a move in words.

Lines, in order:
    {"game": "schaska", "layout": [v1, ...], "start": S}
    {"turn": k, "player": "A" | "B", "move": {"from": "start" | f, "to": f | "home" | "start"},
     "after": S}                                                 one per turn, k from 1
    {"result": "A" | "B" | "draw", "by": "home" | "block" | "limit", "final": S}
S is a state object (schaska.rules.state).
"""
import random

from schaska.rules.actions import action_obj, apply, legal_actions, result
from schaska.rules.game import Game
from schaska.rules.layout import format_layout
from schaska.rules.state import PLAYERS


def start_line(layout, state):
    """The first line of a game on `layout` from `state`."""
    return {"game": "schaska", "layout": list(layout), "start": state.to_obj()}


def turn_line(k, before, action, after):
    """The line of turn k (from 1): the player to move in `before`, its action, the state
    after."""
    return {"turn": k, "player": PLAYERS[before.mover], "move": action_obj(before, action),
            "after": after.to_obj()}


def result_line(game):
    """The last line of a finished Game."""
    return {"result": game.result, "by": game.by, "final": game.state.to_obj()}


def self_play(seed, layout):
    """One seeded self-play game on `layout`: each turn the player to move picks uniformly
    among its legal actions (in legal_actions order) with random.Random(seed).
    Returns (the finished Game, its lines as a list of dicts)."""
    rng = random.Random(seed)
    game = Game(layout)
    lines = [start_line(layout, game.state)]
    while not game.over():
        actions = game.legal()
        action = actions[rng.randrange(len(actions))]
        before = game.state
        after = game.play(action)
        lines.append(turn_line(game.turns, before, action, after))
    lines.append(result_line(game))
    return game, lines


def board_lines(events):
    """The JSON lines of a game played on a Schaska board, from the board's events
    (schaska.controller: game_start, turn, game_over; every other event is left out), in
    the same form as self_play's: what `logs export --format jsonl` writes for the game.
    Raises ValueError when the events do not start with a game_start."""
    out = []
    for ev in events:
        kind = ev.get("ev")
        if kind == "game_start":
            if out:
                raise ValueError("a second game_start: the events hold more than one game")
            out.append({"game": "schaska", "layout": ev["layout"], "start": ev["start"]})
        elif not out and kind in ("turn", "game_over"):
            raise ValueError("the events do not start with a game_start")
        elif kind == "turn":
            out.append({"turn": ev["turn"], "player": ev["player"], "move": ev["move"],
                        "after": ev["after"]})
        elif kind == "game_over":
            out.append({"result": ev["result"], "by": ev["by"], "final": ev["final"]})
    return out


def legal_answer(layout, state):
    """`rules legal --game schaska` for a State on `layout`: {"legal": [{"move": M,
    "after": S}, ...], "result": null | "A" | "B" | "draw", "by": null | "home" | "block"}
    (the turn limit is not part of a state: a state is never over by it)."""
    acts = legal_actions(layout, state)
    r = result(layout, state)
    return {"legal": [{"move": action_obj(state, a), "after": apply(layout, state, a).to_obj()}
                      for a in acts],
            "result": r[0] if r else None, "by": r[1] if r else None}


def move_words(player, move):
    """A turn's move in words: "A enters on field 1", "B moves 12 to 9", "A moves 15
    home", "B moves 14 back to its start"."""
    frm, to = move["from"], move["to"]
    if frm == "start":
        return "%s enters on field %d" % (player, to)
    if to == "home":
        return "%s moves %d home" % (player, frm)
    if to == "start":
        return "%s moves %d back to its start" % (player, frm)
    return "%s moves %d to %d" % (player, frm, to)


def _describe(obj):
    return "   ".join("%s: start %d, fields %s, home %d" % (
        p, obj[p]["start"], ",".join(str(f) for f in obj[p]["fields"]) or "-", obj[p]["home"])
        for p in PLAYERS)


def text_lines(seed, game, lines):
    """The self-play game as text, one line per turn (the text form of `rules play
    --game schaska`)."""
    out = ["Schaska self-play, seed %d, layout %s" % (seed, format_layout(game.layout))]
    for line in lines[1:-1]:
        m = line["move"]
        out.append("turn %d: %s %s-%s   %s" % (line["turn"], line["player"], m["from"], m["to"],
                                              _describe(line["after"])))
    out.append(result_text(game))
    return out


def result_text(game):
    """The last line of the text form of a finished Game: "result: A wins by home after
    85 turns", "result: draw by block after 120 turns"."""
    r = game.result
    return "result: %s by %s after %d turns" % (
        "draw" if r == "draw" else r + " wins", game.by, game.turns)
