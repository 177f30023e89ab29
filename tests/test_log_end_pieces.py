"""A game's end written in a flush of its own (docs/performance.md "Seventh round"): on
the Pico the main loop flushes the recorder's waiting events with `piece`, which stops
before the game's end event, so the end's records come onto the heap only after the
loop's next collection.  The file written is the same byte for byte, and the end
record no longer loads a module of its own."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for p in (os.path.join(ROOT, "firmware"), os.path.join(HERE, "fakes")):
    if p not in sys.path:
        sys.path.insert(0, p)

from memfs import MemFs  # noqa: E402
from boardcore.storage import logrecord  # noqa: E402
from boardcore.storage.gamelog import GameLog  # noqa: E402
from samsara.recorder import Recorder  # noqa: E402
from loghelp import RecorderBoard  # noqa: E402

START = "oooooo................../oooooo.................. 0-0 A"
LAST = "ooooo.................../oooooo...............o.. 5-0 A"

# The last turn of a game as the controller emits it (its lift/place/turn_complete
# lines are not logged: boardcore.link.protocol.NOT_LOGGED).
TURN = [
    {"ev": "game_start", "position": LAST, "match": False, "t": 0},
    {"ev": "roll", "dice": [1, 3], "player": "A", "source": "host", "t": 10},
    {"ev": "lift", "pos": "R5", "t": 20},
    {"ev": "place", "pos": "R6", "t": 30},
    {"ev": "sub", "move": "1:R5-R6", "player": "A", "t": 30},
    {"ev": "sub", "move": "3:S22-GS*S7", "player": "A", "t": 40},
    {"ev": "goal", "goal": "GS", "ins": "S7", "score": "6-0", "player": "A", "t": 40},
    {"ev": "reinsert", "pos": "S7", "t": 50},
    {"ev": "score", "score": 6, "player": "A", "t": 60},
    {"ev": "turn_complete", "turn": "31 1:R5-R6 3:S22-GS*S7", "player": "A", "t": 61},
    {"ev": "turn", "turn": "31 1:R5-R6 3:S22-GS*S7", "player": "A", "t": 70,
     "position": "oooo.o................../ooooooo................. 6-0 B"},
    {"ev": "game_over", "winner": "A", "how": "centre", "score": "6-0", "points": [3, 0],
     "t": 70},
]


def _files(fs):
    return {n: bytes(fs.files[n]) for n in fs.files if n.startswith("g")}


def _recorder(defer):
    fs = MemFs()
    rec = Recorder(GameLog(fs), RecorderBoard(), "vb-1")
    rec.defer = defer
    return fs, rec


def test_a_piece_stops_before_the_games_end_and_the_next_writes_it():
    fs, rec = _recorder(True)
    rec.on_event(TURN[0])            # a game's first event starts its log at once
    for ev in TURN[1:]:
        rec.on_event(ev)
    logged = [e for e in TURN[1:] if e["ev"] not in ("lift", "place", "turn_complete")]
    assert rec.pending == logged
    assert len(logged) - 1 > 4
    assert rec.flush(True) == 4           # the last turn's records, four at a time
    assert rec.pending == logged[4:]
    assert rec.flush(True) == len(logged) - 1 - 4
    assert [e["ev"] for e in rec.pending] == ["game_over"]
    assert rec.log.run_gid is not None           # the game's file is still open
    assert rec.flush(True) == 1
    assert rec.pending == [] and rec.log.run_gid is None
    assert rec.flush(True) == 0
    ok, msg, rp = logrecord.verify(list(_files(fs).values())[0])
    assert ok, msg
    assert rp.end is not None and rp.end.get("winner") == "A"


def test_the_pieces_write_the_same_file_as_one_flush_and_as_no_deferring():
    files = []
    for mode in ("pieces", "one", "direct"):
        fs, rec = _recorder(mode != "direct")
        for ev in TURN:
            rec.on_event(ev)
        if mode == "pieces":
            while rec.flush(True):
                pass
        elif mode == "one":
            n = len(rec.pending)
            assert rec.flush() == n and rec.pending == []
        files.append(_files(fs))
    assert files[0] == files[1] == files[2]
    assert len(files[0]) == 1 and list(files[0])[0].endswith(".end")


def test_an_end_event_alone_is_its_own_piece():
    fs, rec = _recorder(True)
    for ev in TURN[:-1]:
        rec.on_event(ev)
    rec.flush(True)
    rec.on_event(TURN[-1])
    assert rec.flush(True) == 1          # (nothing before it to leave it for)
    assert rec.log.run_gid is None
