"""The real rules engine against the golden turns from the plain reference.

``tests/golden/turns.jsonl.gz`` holds one JSON object per line (position,
dice, opponent_goal, moksha, results); it is produced by
``tests/golden/make_golden.py`` from ``tests/golden/plain_rules.py``, a
separate, deliberately plain implementation of docs/rules.md.
"""

import pytest
import os
import sys

import json

GOLDEN_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
if GOLDEN_DIR not in sys.path:
    sys.path.insert(0, GOLDEN_DIR)

import make_golden  # noqa: E402

SHOW = 5  # mismatches shown in full
SHOW_ITEMS = 6  # positions shown per set difference


def load_entries():
    text = make_golden.read_committed()
    return [json.loads(line) for line in text.splitlines()]


def _describe(entry, moksha, results):
    expected = set(entry["results"])
    got = set(results)
    missing = sorted(expected - got)
    extra = sorted(got - expected)
    lines = [
        "position %s  dice %d %d  opponent_goal=%s"
        % (entry["position"], entry["dice"][0], entry["dice"][1], entry["opponent_goal"]),
    ]
    if moksha != entry["moksha"]:
        lines.append("  moksha: expected %s, engine %s" % (entry["moksha"], moksha))
    if missing:
        lines.append("  missing from engine (%d): %s" % (len(missing), ", ".join(missing[:SHOW_ITEMS])))
    if extra:
        lines.append("  extra in engine (%d): %s" % (len(extra), ", ".join(extra[:SHOW_ITEMS])))
    if not missing and not extra and list(results) != entry["results"]:
        lines.append("  same set, but the list is not sorted and distinct (%d items)" % len(results))
    return "\n".join(lines)


def test_engine_matches_golden_turns():
    from samsara.rules.moves import turn_results

    entries = load_entries()
    assert len(entries) >= 2000
    mismatches = []
    for entry in entries:
        a, b = entry["dice"]
        moksha, results = turn_results(entry["position"], a, b, opponent_goal=entry["opponent_goal"])
        results = list(results)
        if bool(moksha) != entry["moksha"] or results != entry["results"]:
            mismatches.append(_describe(entry, moksha, results))
    if mismatches:
        raise AssertionError(
            "%d of %d golden turns differ; first %d:\n%s"
            % (len(mismatches), len(entries), min(SHOW, len(mismatches)), "\n".join(mismatches[:SHOW]))
        )


def _check_reproducible(limit):
    committed = make_golden.read_committed().splitlines()
    regenerated = make_golden.render(make_golden.generate(limit)).splitlines()
    if limit is not None:
        committed = committed[:limit]
        assert len(regenerated) == limit
    assert regenerated == committed, "turns.jsonl.gz is stale: run python tests/golden/make_golden.py"


def test_golden_file_is_reproducible_first_200():
    """make_golden.py regenerates the first 200 lines of the committed file exactly."""
    _check_reproducible(200)


@pytest.mark.soak
def test_golden_file_is_reproducible_whole():
    """The whole file (about 30 s of CPU), in `make soak`."""
    _check_reproducible(None)


def test_golden_file_shape():
    entries = load_entries()
    assert len(entries) >= 2000
    keys = set()
    for entry in entries:
        assert list(entry) == ["position", "dice", "opponent_goal", "moksha", "results"]
        assert entry["opponent_goal"] in ("owner_scores", "forbidden")
        assert entry["moksha"] == (entry["results"] == [])
        assert entry["results"] == sorted(set(entry["results"]))
        keys.add((entry["position"], tuple(entry["dice"]), entry["opponent_goal"]))
    assert len(keys) == len(entries)
    assert sum(1 for e in entries if e["moksha"]) >= 20
    assert sum(1 for e in entries if e["opponent_goal"] == "forbidden") >= len(entries) // 5
