"""`samsara trace replay|record` and `samsara demo` as a user runs them (the installed
console script), the trace format's errors, the SVG picture and the live view."""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from rich.console import Console

from samsara import states
from samsara.rules.position import Position
from samsara_host import trace as tr
from samsara_host import svg
from samsara_host.layout import load_positions, computed_positions, computed_leds, hardware_csv_path
from samsara_hw.csvcheck import HardwareConfigError
from samsara_hw.names import led_name
from samsara_host.live import render
from samsara_host.sim.table import Table

SAMSARA = os.path.join(os.path.dirname(sys.executable), "samsara")
HERE = os.path.dirname(os.path.abspath(__file__))
TRACES = os.path.join(HERE, "traces")


def run(*args, cwd=None):
    return subprocess.run([SAMSARA, *args], capture_output=True, text=True, timeout=120, cwd=cwd)


def test_replay_json_is_one_object_with_exactly_the_documented_keys():
    r = run("trace", "replay", "--json", os.path.join(TRACES, "wrong_hole.jsonl"))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 1
    obj = json.loads(lines[0])
    assert list(obj) == ["turns", "rejected", "final_position", "state", "result", "scene"]
    assert obj["turns"] == []
    assert obj["rejected"][0]["t_ms"] == 1650.0
    assert set(obj["rejected"][0]) == {"t_ms", "reason"}
    assert obj["state"] == states.MOVING and obj["result"] is None
    assert obj["scene"]["TA"] == "turn"


def test_replay_text_prints_record_rejections_position_and_scene():
    r = run("trace", "replay", os.path.join(TRACES, "game_over.jsonl"))
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "  1. A  31 3:S22-GS*S7" in out
    assert "final position: ooooo.................../ooooooo................. 6-0 B" in out
    assert "state: game_over" in out
    assert "result: A wins at the centre (score 6-0)" in out
    assert "scene: " in out and "AC=score" in out


def test_replay_reports_a_bad_trace_line(tmp_path):
    f = tmp_path / "bad.jsonl"
    f.write_text('{"t_ms": 5, "pos": "R1", "on": false}\n{"t_ms": 3, "pos": "R1", "on": true}\n')
    r = run("trace", "replay", str(f))
    assert r.returncode == 2
    assert "line 2" in r.stderr and "backwards" in r.stderr


@pytest.mark.parametrize("text, piece", [
    ('{"t_ms": 1, "pos": "R25", "on": true}', "unknown position"),
    ('{"t_ms": 1, "pos": "R2", "on": 1}', "on must be true or false"),
    ('{"t_ms": -1, "pos": "R2", "on": true}', "t_ms must be a number >= 0"),
    ('{"t_ms": 1, "dice": [0, 3]}', "dice must be"),
    ('{"t_ms": 1, "button": "shake"}', "button must be"),
    ('{"t_ms": 1, "button": "roll", "long": "yes"}', "long must be"),
    ('{"t_ms": 1}', "needs pos/on, dice or button"),
    ('{"start": "ooo 0-0 A"}', "bad start position"),
    ('{"start": "oooooo................../oooooo.................. 6-0 B"}', "already over"),
    ('{"opponent_goal": "never"}', "unknown opponent_goal"),
    ('{"colour": 1}', "unknown header key"),
    ('[1, 2]', "JSON object"),
    ('{"t_ms": 1, "pos": "R2"', "not JSON"),
])
def test_trace_errors_name_the_problem(text, piece):
    with pytest.raises(tr.TraceError) as e:
        tr.parse(text + "\n")
    assert piece in str(e.value) and "line 1" in str(e.value)


def test_header_only_first_and_lines_round_trip():
    text = ('{"start": "oooooo................../oooooo.................. 0-0 B", '
            '"opponent_goal": "forbidden", "seed": 9}\n'
            '{"t_ms": 1.5, "dice": [6, 2]}\n{"t_ms": 1.5, "button": "roll"}\n'
            '{"t_ms": 800.0, "pos": "S1", "on": false}\n'
            '{"t_ms": 900.0, "button": "undo", "long": true}\n')
    t = tr.parse(text)
    assert t.start.mover == 1 and t.opponent_goal == "forbidden"
    assert tr.dumps(t) == text
    with pytest.raises(tr.TraceError):
        tr.parse('{"t_ms": 1, "button": "roll"}\n{"seed": 3}\n')


def test_record_then_replay_gives_the_same_game(tmp_path):
    f = tmp_path / "g.jsonl"
    r = run("trace", "record", "--seed", "5", "--noise", "2", str(f))
    assert r.returncode == 0, r.stderr
    assert "turns" in r.stdout
    t = tr.load(str(f))
    assert t.header["start"] == "oooooo................../oooooo.................. 0-0 A"
    res = json.loads(run("trace", "replay", "--json", str(f)).stdout)
    live = Table(seed=5, noise=2).run()
    assert res["turns"] == live.turns()
    assert res["final_position"] == live.final_position()
    assert res["result"]["how"] == "centre"


def test_demo_fast_plays_a_whole_game_and_writes_the_svg(tmp_path):
    r = run("demo", "--fast", "--seed", "3", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "Game record" in out and "game over:" in out
    svg_path = tmp_path / "demo-seed3.svg"
    assert ("picture of the final position: %s" % svg_path) in out
    root = ET.parse(str(svg_path)).getroot()
    assert root.tag.endswith("svg")
    # the trace next to it replays to the same record
    res = json.loads(run("trace", "replay", "--json", str(tmp_path / "demo-seed3.jsonl")).stdout)
    assert res["state"] in (states.GAME_OVER, states.MOKSHA)
    for note in res["turns"]:
        assert note in out


def test_svg_draws_every_hole_marble_piece_and_lit_led():
    p = Position.parse("ooooo.................../oooooo...............o.. 2-5 A")
    text = svg.render(p, {"S7": "#ffffff", "D1.3": "#00ff00", "TA": "#ffffff"}, title="t",
                      notes=["a < b"])
    root = ET.fromstring(text)
    ns = "{http://www.w3.org/2000/svg}"
    circles = root.findall(".//" + ns + "circle")
    rects = root.findall(".//" + ns + "rect")
    # 12 marbles + B's round piece + round holes (R lane 24, GR, B track 7) + dice
    # pips 14 + turn LEDs 2 + one lit ring
    assert len(circles) >= 12 + 1 + 32 + 16 + 1
    assert len(rects) >= 24 + 1 + 7 + 1    # S holes, GS, A track, A's piece
    assert "a &lt; b" in text
    assert 'stroke="#ffffff"' in text


def test_layout_prefers_the_hardware_table_and_falls_back(tmp_path):
    coords, leds, source = load_positions()
    assert len(coords) == 64
    if source == "computed":
        assert leds == computed_leds()
    # No table: the computed layout.
    coords, leds, source = load_positions(str(tmp_path))
    assert source == "computed" and coords == computed_positions()
    # A table is read by the one checked parser (samsara_hw.csvcheck): a bad one is an
    # error naming the file and row, never silently skipped rows.
    (tmp_path / "hardware").mkdir()
    (tmp_path / "hardware" / "positions.csv").write_text("name,x_mm,y_mm\nR1,1,2\n")
    with pytest.raises(HardwareConfigError, match="positions.csv: missing column"):
        load_positions(str(tmp_path))
    real = open(hardware_csv_path(), encoding="utf-8").read()
    (tmp_path / "hardware" / "positions.csv").write_text(
        real.replace("\nR2,1,", "\nR2,one,"))
    with pytest.raises(HardwareConfigError, match=r"positions.csv line 3 \(R2\)"):
        load_positions(str(tmp_path))
    (tmp_path / "hardware" / "positions.csv").write_text(real)
    assert load_positions(str(tmp_path))[0] == load_positions()[0]
    assert led_name(0) == "R1" and led_name(64) == "D1.0" and led_name(79) == "TB"


def test_live_view_renders_a_running_game():
    t = Table(seed=2, noise=2)
    con = Console(record=True, width=120, force_terminal=True, color_system="truecolor")
    for stop in (0, 5000, 20000, 40000):
        t.step_until(stop)
        con.print(render(t, "demo", speed=3.0))
    text = con.export_text()
    assert "GR" in text and "GS" in text and "now:" in text
    for name in ("turn_complete", "goal_pending", "moving"):
        assert name not in text
    assert "rolls" in text


# -- bad input: one line naming the problem, non-zero exit, no traceback -----------------

def _clean_error(r, *pieces):
    assert r.returncode != 0
    assert "Traceback" not in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    for p in pieces:
        assert p in r.stderr, r.stderr


def test_demo_out_that_cannot_be_a_folder_is_refused_before_playing(tmp_path):
    f = tmp_path / "afile"
    f.write_text("keep me")
    _clean_error(run("demo", "--fast", "--out", str(f)), "is a file, not a folder")
    assert f.read_text() == "keep me"
    _clean_error(run("demo", "--fast", "--out", "/proc/nope"), "cannot make the folder")


@pytest.mark.parametrize("args, piece", [
    (["--speed", "-1"], "--speed"), (["--speed", "nan"], "--speed"),
    (["--speed", "0"], "--speed"), (["--duration", "0"], "--duration"),
    (["--duration", "-5"], "--duration"), (["--duration", "inf"], "--duration"),
    (["--speed", "fast"], "not a number"),
])
def test_demo_speed_and_duration_must_be_finite_and_positive(tmp_path, args, piece):
    r = run("demo", "--fast", "--out", str(tmp_path), *args)
    assert r.returncode == 2 and piece in r.stderr and "Traceback" not in r.stderr
    assert not os.listdir(str(tmp_path))


def test_demo_summary_counts_in_the_singular_for_one():
    from samsara_host.demo_cmd import plural
    assert plural(1, "double lift") == "1 double lift"
    assert plural(0, "double lift") == "0 double lifts"
    assert plural(2, "wrong hole") == "2 wrong holes"


def test_record_from_a_finished_position_is_refused(tmp_path):
    # A score of 6 ends a single game: there is nothing to record from there.
    r = run("trace", "record", "--start", "oooooo................../oooooo.................. 6-0 B",
            str(tmp_path / "x.jsonl"))
    _clean_error(r, "already over")
    assert os.listdir(str(tmp_path)) == []


def test_record_into_a_missing_folder_or_onto_a_folder_is_refused(tmp_path):
    _clean_error(run("trace", "record", "nodir/x.jsonl", cwd=str(tmp_path)), "no folder nodir")
    _clean_error(run("trace", "record", str(tmp_path)), "is a folder")
    assert os.listdir(str(tmp_path)) == []


@pytest.mark.parametrize("t", ["1e308", "Infinity", "1000000000.5", "1" + "0" * 400])
def test_replay_refuses_absurd_times_naming_the_line(tmp_path, t):
    f = tmp_path / "t.jsonl"
    f.write_text('{"t_ms": 1, "pos": "R1", "on": false}\n'
                 '{"t_ms": %s, "pos": "R1", "on": true}\n' % t)
    _clean_error(run("trace", "replay", str(f)), "line 2", "t_ms must be at most")
    assert tr.parse('{"t_ms": 1000000000, "pos": "R1", "on": true}\n').end_ms() == 1e9


def test_replay_of_a_file_that_is_not_utf8_names_the_line(tmp_path):
    f = tmp_path / "t.jsonl"
    f.write_bytes(b'{"t_ms": 1, "pos": "R1", "on": false}\n\n{"t_ms": 2, "pos": "\xff"}\n')
    _clean_error(run("trace", "replay", str(f)), "line 3: not UTF-8 text")


@pytest.mark.parametrize("deep", ["[" * 100000, '{"a": ' * 100000])
def test_replay_of_deeply_nested_json_is_a_clean_error(tmp_path, deep):
    f = tmp_path / "t.jsonl"
    f.write_text('{"t_ms": 1, "pos": "R1", "on": false}\n' + deep + "\n")
    _clean_error(run("trace", "replay", str(f)), "line 2", "nested too deeply")
