"""The engines (docs/engine.md): the device engine's choice is a legal complete turn,
it is deterministic and the sliced API gives the one-call answer; the host engine's
choice is legal; match results do not depend on --jobs; `samsara rules best`."""
import json
import random

from samsara.rules import engine as dev
from samsara.rules import moves as rules
from samsara.rules.position import Position
from samsara_host.cli import main
from samsara_host.engine import hostengine
from samsara_host.engine.match import run_match, wilson
from samsara_host.selfplay import play_game

MOKSHA_66 = ".o.....o.....o.....o.o.o/.o.....o.....o.....oo..o 0-0 A"
GOAL_31 = "ooooo.................../oooooo...............o.. 0-0 A"
SIXTH = "ooooo.................../oooooo...............o.. 5-2 A"
OPP_GOAL = "ooooo................o../oooooo.................. 0-0 A"


def positions(n_games=6, every=5):
    """Positions of seeded random self-play games (every `every`-th turn)."""
    out = []
    for seed in range(n_games):
        play_game(seed, on_turn=lambda g, d1, d2, p: out.append(p))
    return out[::every]


def assert_legal(p, d1, d2, og, res):
    """res (moves, key, value) is a complete turn of the roll: its sub-moves chain
    legally from p, use the roll's dice, and reach one of complete_turns' results."""
    turns = rules.complete_turns(p.r, p.s, p.a, p.b, p.mover, d1, d2, og)
    if not turns:
        assert res is None
        return
    moves, key, _value = res
    assert key in {k for _m, k in turns}
    r, s, a, b = p.r, p.s, p.a, p.b
    for m in moves:
        assert m in rules.gen_sub_moves(r, s, a, b, p.mover, m[0], og)
        r, s, a, b = m[4], m[5], m[6], m[7]
    assert (r, s, a, b) == key
    dice = sorted(m[0] for m in moves)
    if len(moves) == 1:
        assert rules.ends_turn(moves[0], p.a, p.b)
        assert moves[0][0] in (d1, d2)
    else:
        assert dice == sorted((d1, d2))


def test_device_choice_is_a_legal_complete_turn():
    rng = random.Random(11)
    for p in positions():
        for og in (rules.OWNER_SCORES, rules.FORBIDDEN):
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            assert_legal(p, d1, d2, og, dev.choose(p.r, p.s, p.a, p.b, p.mover, d1, d2, og, 5))


def test_device_special_positions():
    # Moksha: no turn.
    p = Position.parse(MOKSHA_66)
    assert dev.choose(p.r, p.s, p.a, p.b, p.mover, 6, 6) is None
    # A goal on offer is taken (3:S22-GS).
    p = Position.parse(GOAL_31)
    res = dev.choose(p.r, p.s, p.a, p.b, p.mover, 3, 1)
    assert_legal(p, 3, 1, 0, res)
    assert res[1][2] == 1
    # The sixth goal ends the turn after one sub-move and wins.
    p = Position.parse(SIXTH)
    res = dev.choose(p.r, p.s, p.a, p.b, p.mover, 6, 3)
    assert_legal(p, 6, 3, 0, res)
    assert res[1][2] == 6 and res[2] == dev.WIN
    # The opponent's goal: never chosen with owner_scores here, illegal when forbidden.
    p = Position.parse(OPP_GOAL)
    for og in (rules.OWNER_SCORES, rules.FORBIDDEN):
        res = dev.choose(p.r, p.s, p.a, p.b, p.mover, 3, 1, og)
        assert_legal(p, 3, 1, og, res)
        assert res[1][3] == 0


def test_device_match_final_turn_counts_sides():
    # B (the starter) has 6 and A plays the final turn of a match: a turn reaching the
    # centre is valued by the side counts, else as a loss by 6 - score.  Here S22 + 3
    # enters GS (reinserted on S1): A's side keeps 11 marbles to B's 1, A wins by 10.
    p = Position.parse("oooooo................../............ooooo....o.. 5-6 A")
    res = dev.choose(p.r, p.s, p.a, p.b, p.mover, 3, 1, 0, 1, dev.MODE_MATCH, 1)
    assert_legal(p, 3, 1, 0, res)
    assert res[1][2] == 6 and res[2] == dev.WIN + 10 * dev.POINT
    # From the start position's shape a sixth goal loses on sides (5 to 7 after it):
    # the engine prefers losing by 1 point (6 - 5) to losing by 2.
    p = Position.parse("ooooo.................../oooooo...............o.. 5-6 A")
    res = dev.choose(p.r, p.s, p.a, p.b, p.mover, 3, 1, 0, 1, dev.MODE_MATCH, 1)
    assert_legal(p, 3, 1, 0, res)
    assert res[1][2] == 5 and res[2] == -dev.WIN - dev.POINT


def test_device_is_deterministic_and_sliced_equals_one_call():
    rng = random.Random(3)
    for p in positions(3, 7):
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        one = dev.choose(p.r, p.s, p.a, p.b, p.mover, d1, d2, 0, 9)
        assert one == dev.choose(p.r, p.s, p.a, p.b, p.mover, d1, d2, 0, 9)
        for n in (1, 7):
            t = dev.Thinker(p.r, p.s, p.a, p.b, p.mover, d1, d2, 0, 9)
            calls = 0
            while not t.step(n):
                calls += 1
            got = None if t.moves is None else (t.moves, t.key, t.value)
            assert got == one
            assert t.work <= (calls + 1) * n


def test_device_table_gives_the_same_values():
    saved = dev._table
    try:
        dev._table = None
        plain = [dev.chance(u) for u in range(0, 4096, 37)]
        tab = dev.use_table()
        assert [tab[u] for u in range(0, 4096, 37)] == plain
    finally:
        dev._table = saved


def test_device_fast_evaluation_gives_the_same_values_and_choices():
    # engine.use_fast (the board's): chance remembered, the double spaces by table
    # lookups; every value and every choice as without it.
    rng = random.Random(5)
    pos = [(rng.getrandbits(24), rng.getrandbits(24), rng.randint(0, 5), rng.randint(0, 5))
           for _ in range(3000)]
    games = positions(3, 9)
    rolls = [(rng.randint(1, 6), rng.randint(1, 6)) for _ in games]
    was = dev.use_fast(False)
    try:
        plain_eval = [dev.evaluate(r, s, a, b, me) for r, s, a, b in pos for me in (0, 1)]
        plain_chance = [dev.chance(u) for u in range(4096)]
        plain_choice = [dev.choose(p.r, p.s, p.a, p.b, p.mover, d1, d2, 0, 9)
                        for p, (d1, d2) in zip(games, rolls)]
        assert dev.use_fast(True) is False
        assert dev.use_fast(True) is True
        assert [dev.evaluate(r, s, a, b, me) for r, s, a, b in pos for me in (0, 1)] == \
            plain_eval
        assert [dev.chance(u) for u in range(4096)] == plain_chance
        assert [dev.chance(u) for u in range(4096)] == plain_chance     # remembered
        assert [dev.choose(p.r, p.s, p.a, p.b, p.mover, d1, d2, 0, 9)
                for p, (d1, d2) in zip(games, rolls)] == plain_choice
        assert dev.use_fast(False) is True
        assert [dev.evaluate(r, s, a, b, me) for r, s, a, b in pos[:50] for me in (0, 1)] \
            == plain_eval[:100]
    finally:
        dev.use_fast(was)


def test_host_choice_is_legal():
    rng = random.Random(5)
    for p in positions(2, 9)[:6]:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        res = hostengine.choose(p.r, p.s, p.a, p.b, p.mover, d1, d2, 0, 1, width=2)
        assert_legal(p, d1, d2, 0, res)
    p = Position.parse(MOKSHA_66)
    assert hostengine.choose(p.r, p.s, p.a, p.b, p.mover, 6, 6) is None


def _no_time(res):
    res = dict(res)
    del res["sec_per_decision"]
    return res


def test_match_json_invariants_and_jobs():
    one = run_match("device", "greedy", 6, 4, jobs=1)
    two = run_match("device", "greedy", 6, 4, jobs=2)
    assert _no_time(one) == _no_time(two)
    for res in (one, two):
        assert res["games"] == 6
        assert res["a_wins"] + res["b_wins"] + res["draws"] == 6
        assert 0 <= res["moksha_draws"] <= res["draws"]
        assert res["a_win_rate"] == (res["a_wins"] + res["draws"] / 2.0) / 6
        lo, hi = res["a_win_rate_ci95"]
        assert 0 <= lo <= res["a_win_rate"] <= hi <= 1
        assert set(res["sec_per_decision"]) == {"a", "b"}


def test_wilson_interval():
    lo, hi = wilson(0.5, 100)
    assert abs(lo - 0.4038) < 1e-3 and abs(hi - 0.5962) < 1e-3
    assert wilson(0.0, 0) == [0.0, 1.0]


def test_cli_match_json_and_best(capsys):
    assert main(["engine", "match", "random", "greedy", "--games", "4", "--seed", "2", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["games"] == 4 and res["a_wins"] + res["b_wins"] + res["draws"] == 4
    assert main(["engine", "match", "random", "nobody"]) == 2
    capsys.readouterr()
    assert main(["rules", "best", "--position", GOAL_31, "--dice", "3", "1"]) == 0
    head, line = capsys.readouterr().out.strip().split("\n")
    assert head.split("\t") == ["# turn", "position after it",
                                "value (a goal = 1000, a won game 1000000)"]
    out = line.split("\t")
    assert "3:S22-GS*" in out[0] and out[1].endswith(" 1-0 B")
    int(out[2])
    assert main(["rules", "best", "--position", MOKSHA_66, "--dice", "6", "6", "--engine", "host"]) == 0
    assert capsys.readouterr().out.strip() == "Moksha"
    assert main(["rules", "best", "--position", "nonsense", "--dice", "6", "6"]) == 2


def test_training_features_match_the_engine_evaluation():
    # tools/train_engine.py fits weights on `features`; engine.evaluate must be the
    # same linear function of them with the shipped integer weights.
    from tools.train_engine import features
    w = [dev.GOAL]
    for tab in (dev.MINE, dev.THEIRS, dev.BOTH):
        w.extend(8 * (x - 128) for x in tab)
    w.extend([dev.W_OWN, -dev.W_OPP, -dev.W_OPP5])
    for p in positions(3, 3):
        for me in (0, 1):
            f = features(p.r, p.s, p.a, p.b, me)
            assert sum(a * b for a, b in zip(w, f)) == dev.evaluate(p.r, p.s, p.a, p.b, me)


def test_cli_match_text_says_one_game(capsys):
    # the text summary said "1 games"
    assert main(["engine", "match", "random", "greedy", "--games", "1"]) == 0
    out = capsys.readouterr().out
    assert "random (A) vs greedy (B): 1 game, seed 1" in out


def test_ctrl_c_in_a_match_on_two_jobs_is_one_line_and_exit_130():
    # the terminal sends Ctrl-C to the whole process group: the pool's workers ignore
    # it (they printed "Process ForkPoolWorker-1:" and a traceback each), the parent
    # says it stopped in one line
    import os
    import signal
    import subprocess
    import sys
    import time
    exe = os.path.join(os.path.dirname(sys.executable), "samsara")
    p = subprocess.Popen([exe, "engine", "match", "greedy", "greedy", "--games", "50000",
                          "--seed", "3", "--jobs", "2"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    time.sleep(4)
    os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    assert err == "samsara engine match: stopped (Ctrl-C)\n" and out == ""
