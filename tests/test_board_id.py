"""One name per board (issue 10 §1): a real board's id is its flash chip's unique id
(machine.unique_id()), a virtual board's is the one given with --id or one of its own
kept in its folder, and the game log's header records the id that `hello` reports."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for p in (os.path.join(ROOT, "firmware"), os.path.join(HERE, "fakes")):
    if p not in sys.path:
        sys.path.insert(0, p)

from boardcore.storage import logrecord  # noqa: E402
from boardcore.storage.gamelog import GameLog  # noqa: E402
from boardcore.storage.osfs import OsFs  # noqa: E402
from samsara.recorder import Recorder  # noqa: E402
from loghelp import RecorderBoard  # noqa: E402


def _header(folder):
    names = [n for n in os.listdir(folder) if n.startswith("g")]
    assert len(names) == 1, names
    data = open(os.path.join(folder, names[0]), "rb").read()
    ok, msg, rp = logrecord.verify(data)
    assert rp.header is not None, msg
    return rp.header


def test_real_board_id_is_the_flash_chips_unique_id(monkeypatch):
    import machine
    from board import linkhooks as mainhooks
    monkeypatch.delenv("SAMSARA_BOARD_ID", raising=False)
    want = "".join("%02x" % b for b in machine.unique_id())
    assert mainhooks.board_id(object()) == want
    monkeypatch.setenv("SAMSARA_BOARD_ID", "vb-7f3a")
    assert mainhooks.board_id(object()) == "vb-7f3a"


def test_the_log_header_records_the_board_id(tmp_path):
    folder = str(tmp_path / "logs")
    os.makedirs(folder)
    rec = Recorder(GameLog(OsFs(folder)), RecorderBoard(), "e660583883292a2b")
    rec.start_game()
    rec.close()
    h = _header(folder)
    assert h["board"] == "e660583883292a2b"
    assert h["fmt"] == logrecord.FMT and h["og"] == "owner_scores"


def test_the_header_of_a_game_the_board_starts_records_it_too(tmp_path):
    folder = str(tmp_path / "logs")
    os.makedirs(folder)
    rec = Recorder(GameLog(OsFs(folder)), RecorderBoard(), "vb-1")
    rec.on_event({"ev": "game_start", "position": "oooooo................../oooooo.................. 0-0 A"})
    rec.close()
    assert _header(folder)["board"] == "vb-1"
