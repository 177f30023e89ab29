"""Hand-checked positions that the host engine must answer right (docs/engine.md
"Known positions"; the rules and the position string: docs/rules.md).

Each case says why its answer is right.  The premise of each (which turns score, which
turns leave the opponent a winning roll, that no complete turn exists) is checked here
too by enumerating the rules engine's complete turns, so a case cannot rot into a
position that no longer shows what its comment claims.  The engine is asked through
`rules_cmd.best_turn(..., engine="host")`, the function behind `samsara rules best
--engine host`."""
from samsara.rules import moves as rules
from samsara.rules.position import Position
from samsara_host.cli import main
from samsara_host.rules_cmd import best_turn


def _turns(p, d1, d2):
    return rules.complete_turns(p.r, p.s, p.a, p.b, p.mover, d1, d2)


def _after(res):
    # the Position after the engine's turn (the other player to move)
    return Position.parse(res[1])


def winning_rolls(p):
    """Of the 36 rolls, how many give the player to move in Position p a complete turn
    that brings their own score to 6 (an immediate win)."""
    n = 0
    for x in range(1, 7):
        for y in range(1, 7):
            for _m, k in rules.complete_turns(p.r, p.s, p.a, p.b, p.mover, x, y):
                if (k[2] if p.mover == 0 else k[3]) == 6:
                    n += 1
                    break
    return n


# An obvious scoring turn.  A's marble on S22 is 3 fields from A's goal GS (S23, S24,
# GS), so a 3 scores it (put back on S7, S1..S6 being full); no other marble can reach a
# goal with 3, 1 or 4, and nothing else on the board is at stake (both scores 0, B's
# marbles far from GR).  A goal is a sixth of the game: the engine must take it.
SCORING = "ooooo.................../oooooo...............o.. 0-0 A"


def test_an_obvious_scoring_turn_is_taken():
    p = Position.parse(SCORING)
    turns = _turns(p, 3, 1)
    assert {k[2] for _m, k in turns} == {0, 1}       # some turns score, most not
    assert {k[3] for _m, k in turns} == {0}          # and none scores for B
    res = best_turn(p, 3, 1, "host")
    assert "3:S22-GS*" in res[0]
    assert _after(res).a == 1 and _after(res).b == 0


# A forced block.  Both players are at 5: one goal wins.  B's marble on R23 is 2 fields
# from GR, so B wins next turn with any roll holding a 2 and with 1-1 (12 of 36 rolls).
# A rolls 4 2 and cannot win now: A's S20 marble is 5 fields from GS (4, 2 and 6 all
# miss) and S11 is 14 away.  Marbles belong to nobody: A may move the R23 marble, but
# forward it only comes nearer GR (a 2 puts it into GR: B scores and wins at once).
# The way out is the lane change at the start: R23's partner S11 is full, so the R23
# marble may count from S11 and go 4 to S15, off B's lane.  The 2 must then move S11
# itself (to S13): while S11 is full, a marble landing on it must take its free partner
# R23, so B's 6 from S5 would land on R23 and B's 2 take it into GR (6-2).
# `42 4:R23-S15 2:S11-S13` is the only turn after which B has no winning roll; every
# other turn leaves B at least 2 of 36, and after the block A's S20 marble wins on
# A's next roll with 18 of 36, so each roll B is given costs A about half a game.
# (Played out, docs/engine.md "Known positions": the block wins 0.06-0.09 more than
# the engine's next choices.  The same shape with A at 4 and no marble near GS is a
# near tie: A's chances are small either way, so B's 2 rolls cost A little.)
BLOCK = "ooooo.................o./oo.oo.....o........o.... 5-5 A"


def test_a_forced_block_is_found():
    p = Position.parse(BLOCK)
    assert winning_rolls(Position(p.r, p.s, p.a, p.b, 1)) == 12
    assert all(k[2] < 6 for _m, k in _turns(p, 4, 2))      # A cannot win now
    safe = []
    for _m, k in _turns(p, 4, 2):
        after = Position(k[0], k[1], k[2], k[3], 1)
        if k[3] < 6 and winning_rolls(after) == 0:
            safe.append(after.format())
        elif k[3] < 6:
            assert winning_rolls(after) >= 2
    assert len(safe) == 1
    blocked = Position.parse(safe[0])
    assert winning_rolls(Position(blocked.r, blocked.s, blocked.a, blocked.b, 0)) == 18
    res = best_turn(p, 4, 2, "host")
    assert res[1] == safe[0]
    assert res[0] == "42 4:R23-S15 2:S11-S13"


# A Moksha.  Rolled 6 6, every marble is blocked: R20, R22, R24, S20, S21 and S24 would
# pass their goal; each of the other six lands 6 on in its own lane on a full field whose
# partner is full too (R2 -> R8 / S20, R8 -> R14 / S2, R14 -> R20 / S8, S2 -> S8 / R20,
# S8 -> S14 / R2, S14 -> S20 / R8), so that landing is illegal; a lane change at the
# start is open only between full pairs (R2-S14, R8-S20, R14-S2, R20-S8), and counting
# from the partner gives the partner's own blocked move.  No 6 can be played, so no
# complete turn exists: the game ends in a draw (docs/rules.md §3 "Moksha").
MOKSHA = ".o.....o.....o.....o.o.o/.o.....o.....o.....oo..o 0-0 A"


def test_a_moksha_is_named(capsys):
    p = Position.parse(MOKSHA)
    assert not rules.any_sub_move(p.r, p.s, p.a, p.b, p.mover, 6)
    assert _turns(p, 6, 6) == []
    assert best_turn(p, 6, 6, "host") is None
    assert main(["rules", "best", "--position", MOKSHA, "--dice", "6", "6",
                 "--engine", "host"]) == 0
    assert capsys.readouterr().out.strip() == "Moksha"


# A race where only one turn wins.  Both players are at 5: the next goal decides.  A
# rolls 2 3.  A's marble on S20 is 5 fields from GS: the 2 and the 3 together take it
# there (S20 -> S22 -> GS, or S20 -> S23 -> GS: the same turn, one resulting position),
# and A wins.  The marble on R22 is 3 fields from B's goal GR: playing the 3 with it
# scores for B (the goal's owner) and B wins; every other turn leaves the game running
# with B to roll.  No other marble can reach GS (the R marbles' partners S13..S17 are
# empty, so none can change lanes).  Of the complete turns exactly one brings A to 6;
# the engine must play it, and say so (a won game is worth 1).
RACE = "ooooo................o../ooooo..............o.... 5-5 A"


def test_a_race_where_only_one_turn_wins():
    p = Position.parse(RACE)
    turns = _turns(p, 2, 3)
    wins = [k for _m, k in turns if k[2] == 6]
    losses = [k for _m, k in turns if k[3] == 6]
    assert len(wins) == 1 and len(losses) >= 1 and len(turns) > 20
    res = best_turn(p, 2, 3, "host")
    after = _after(res)
    assert (after.r, after.s, after.a, after.b) == wins[0]
    assert "GS" in res[0] and res[2] == 1.0
    assert capsys_free_best(RACE, "2", "3").endswith("\t1.000")


def capsys_free_best(position, d1, d2):
    """The last line of `samsara rules best --engine host` for position and roll, run
    in a child process (the command as a user types it)."""
    import os
    import subprocess
    import sys
    exe = os.path.join(os.path.dirname(sys.executable), "samsara")
    out = subprocess.run([exe, "rules", "best", "--position", position, "--dice", d1, d2,
                          "--engine", "host"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip().splitlines()[-1]
