"""The board behaves as recorded (tools/same_behaviour.py): the traces of tests/traces/
and of seeded simulated games give the same events, turns, results and scenes, seeded
games record the same traces, and main.py's loop on the fake hardware streams the same
lines as when tests/golden/behaviour.json.gz was recorded.  A change of behaviour that
is meant is named in same_behaviour.INTENDED (or the file recorded again, saying why in
the commit)."""
from tools import same_behaviour


def test_the_board_behaves_as_recorded():
    import gzip
    import json
    with gzip.open(same_behaviour.GOLDEN, "rt") as f:
        old = json.load(f)
    n, diffs = same_behaviour.compare(old, same_behaviour._run_items(same_behaviour.ROOT))
    assert n >= 70
    assert diffs == [], "\n".join(diffs[:20])
