"""`samsara rules legal|play|best` as a user runs it (the installed console script)."""
import json
import shlex
import os
import subprocess
import sys

import pytest

from samsara.rules import moves as rules

SAMSARA = os.path.join(os.path.dirname(sys.executable), "samsara")
START = "oooooo................../oooooo.................. 0-0 A"
MOKSHA_66 = ".o.....o.....o.....o.o.o/.o.....o.....o.....oo..o 0-0 A"


def run(*args, stdin=None):
    return subprocess.run([SAMSARA, *args], input=stdin, capture_output=True, text=True, timeout=60)


def test_legal_lists_turns_in_code_point_order_with_results():
    r = run("rules", "legal", "--position", START, "--dice", "3", "5")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    notes = [l.split("\t")[0] for l in lines]
    assert notes == sorted(notes)
    results = [l.split("\t")[1] for l in lines]
    assert sorted(results) == rules.turn_results(START, 5, 3)[1]
    assert all(n.startswith("53 ") for n in notes)


def test_legal_moksha_prints_one_word():
    r = run("rules", "legal", "--position", MOKSHA_66, "--dice", "6", "6")
    assert r.stdout == "Moksha\n"


def test_legal_forbidden_option():
    pos = "ooooo................o../oooooo.................. 0-0 A"
    a = run("rules", "legal", "--position", pos, "--dice", "3", "1").stdout
    b = run("rules", "legal", "--position", pos, "--dice", "3", "1", "--opponent-goal", "forbidden").stdout
    assert "GR" in a and "GR" not in b


@pytest.mark.parametrize("args,needle", [
    (["--position", "xx", "--dice", "1", "2"], "position"),
    (["--position", START, "--dice", "0", "2"], "1..6"),
    (["--position", START], "--dice"),
])
def test_legal_bad_input_is_a_clear_error(args, needle):
    r = run("rules", "legal", *args)
    assert r.returncode == 2 and needle in r.stderr


def test_batch_streams_one_answer_per_line_and_survives_bad_lines():
    lines = [
        json.dumps({"position": START, "dice": [5, 3], "extra": 1}),
        "",
        "not json",
        json.dumps({"position": START, "dice": [7, 3]}),
        json.dumps({"position": START, "dice": [5]}),
        json.dumps({"position": START, "dice": [5, True]}),
        json.dumps({"position": "oooooo", "dice": [5, 3]}),
        json.dumps([1, 2]),
        json.dumps({"position": MOKSHA_66, "dice": [6, 6]}),
    ]
    r = run("rules", "legal", "--batch", stdin="\n".join(lines) + "\n")
    assert r.returncode == 0
    out = [json.loads(l) for l in r.stdout.splitlines()]
    assert len(out) == 8
    assert out[0] == {"moksha": False, "results": rules.turn_results(START, 5, 3)[1]}
    assert all("error" in o for o in out[1:7])
    assert "bad position" in out[5]["error"]
    assert out[7] == {"moksha": True, "results": []}


def test_batch_flushes_as_it_goes():
    p = subprocess.Popen([SAMSARA, "rules", "legal", "--batch"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
    try:
        p.stdin.write(json.dumps({"position": START, "dice": [1, 1]}) + "\n")
        p.stdin.flush()
        first = json.loads(p.stdout.readline())   # answered before stdin closes
        assert first["moksha"] is False and first["results"]
    finally:
        p.stdin.close()
        p.wait(timeout=30)


def test_play_is_seeded_and_complete():
    a = run("rules", "play", "--seed", "11")
    b = run("rules", "play", "--seed", "11")
    assert a.returncode == 0 and a.stdout == b.stdout
    assert '[Result "' in a.stdout and '[Result "*"]' not in a.stdout
    assert '[Final "' in a.stdout


def test_play_writes_the_text_record_that_logs_show_and_export_read(tmp_path):
    from samsara.rules.position import Position
    from samsara_host.record import load
    r = run("rules", "play", "--seed", "4")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == '[Event "self-play"]'
    for tag in ('[Seed "4"]', '[OpponentGoal "owner_scores"]'):
        assert tag in lines
    assert lines[lines.index("") + 1].startswith("  1. A ")
    g = tmp_path / "g.txt"
    g.write_text(r.stdout)
    rec = load(str(g))
    assert rec.tags["Final"] == rec.final.format()
    Position.parse(rec.tags["Final"])
    assert rec.tags["Result"] in ("A", "B", "draw")
    show = run("logs", "show", "--all", str(g))
    assert show.returncode == 0, show.stderr
    assert rec.summary() in show.stdout
    export = run("logs", "export", "--format", "text", str(g))
    assert export.returncode == 0 and export.stdout == r.stdout


def test_batch_cannot_be_combined_with_position_or_dice():
    for extra in (["--position", START], ["--dice", "1", "2"]):
        r = run("rules", "legal", "--batch", *extra, stdin="")
        assert r.returncode == 2 and "cannot be combined" in r.stderr


@pytest.mark.parametrize("deep", ["[" * 100000, '{"a": ' * 100000])
def test_batch_answers_a_deeply_nested_line_and_goes_on(deep):
    good = json.dumps({"position": START, "dice": [5, 3]})
    r = run("rules", "legal", "--batch", stdin=deep + "\n" + good + "\n")
    assert r.returncode == 0 and "Traceback" not in r.stderr
    out = [json.loads(l) for l in r.stdout.splitlines()]
    assert len(out) == 2 and "nested too deeply" in out[0]["error"]
    assert out[1] == {"moksha": False, "results": rules.turn_results(START, 5, 3)[1]}


@pytest.mark.parametrize("engine", ["device", "host"])
def test_best_on_a_6_6_position_says_the_game_is_over(engine):
    # 6-6: both scoring pieces on the centre, the match's final turn played: no turn
    # to find (docs/rules.md §4), not an engine's turn with a value
    r = run("rules", "best", "--position", "oooooo................../oooooo.................. 6-6 A",
            "--dice", "5", "3", "--engine", engine)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == ("Game over: both scores are 6 (both scoring pieces on the "
                                "centre), no turn to play")


def test_legal_lists_the_turns_of_a_6_6_position_as_its_reference_answers_do():
    # `legal` is the move generator (docs/cli.md): at 6-6 it lists turns like anywhere
    # else, as tests/golden/turns.jsonl.gz does; only `best` says the game is over
    import gzip
    here = os.path.dirname(os.path.abspath(__file__))
    with gzip.open(os.path.join(here, "golden", "turns.jsonl.gz"), "rt") as f:
        e = next(e for e in map(json.loads, f)
                 if " 6-6 " in e["position"] and not e["moksha"]
                 and e["opponent_goal"] == "owner_scores")
    r = run("rules", "legal", "--position", e["position"], "--dice", *map(str, e["dice"]))
    assert r.returncode == 0, r.stderr
    got = sorted(set(line.split("\t")[1] for line in r.stdout.splitlines()))
    assert got == sorted(e["results"]) and got


def test_best_prints_what_cli_md_shows_with_its_columns_labelled():
    # docs/cli.md's `rules best` example is the tool's output today: the `#` line labels
    # the three columns (the third: the engine's value, with its unit), then the turn.
    text = open(os.path.join(os.path.dirname(__file__), "..", "docs", "cli.md"),
                encoding="utf-8").read()
    at = text.index("    $ samsara rules best ")
    cmd, head, line = text[at:].split("\n")[:3]
    args = shlex.split(cmd.strip()[2:])[1:]
    r = run(*args)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [head.strip(), line.strip()]
    cols = head.strip().split("\t")
    assert cols[0].startswith("# ") and len(cols) == len(line.strip().split("\t")) == 3
    assert "value" in cols[2] and "goal = 1000" in cols[2]
    # the host engine labels its third column as its own unit: a chance to win
    r = run(*args, "--engine", "host")
    head_h, line_h = r.stdout.splitlines()
    assert head_h.split("\t")[2] == "the mover's chance to win (0..1)"
    assert 0.0 <= float(line_h.split("\t")[2]) <= 1.0
    # a script skipping `#` lines reads the turn as before
    rows = [l.split("\t") for l in r.stdout.splitlines() if not l.startswith("#")]
    assert rows == [line_h.split("\t")]
