"""What an export says about its source (issue 10 §1): the Board tag is the log's own
header's, never the folder's name; a torn log (cut in the middle of a record) exports
its valid records with a warning instead of being refused."""
import os

from loghelp import game_log
from samsara_host import cli, record


def _write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    return path


def test_the_board_tag_is_the_headers_not_the_folders(tmp_path):
    data = game_log(3, header={"position": None, "board": "e660583883292a2b"})[0]
    path = _write(str(tmp_path / "virtual-1" / "game-0003.log"), data)
    assert record.load(path).tags["Board"] == "e660583883292a2b"


def test_an_old_log_without_a_board_says_unknown(tmp_path, capsys):
    path = _write(str(tmp_path / "virtual-1" / "game-0003.log"), game_log(3)[0])
    assert record.load(path).tags["Board"] == "unknown"
    assert cli.main(["logs", "export", path]) == 0
    assert '[Board "unknown"]' in capsys.readouterr().out


def test_a_torn_log_exports_its_valid_records_with_a_warning(tmp_path, capsys):
    whole, game = game_log(3)
    path = _write(str(tmp_path / "game-0003.log"), whole[:500])   # head -c 500
    assert cli.main(["logs", "export", path]) == 0
    cap = capsys.readouterr()
    assert "torn" in cap.err and "500" in cap.err, cap.err
    rec = record.GameRecord.parse_text(cap.out)
    assert rec.turns and rec.turns == list(game.record)[:len(rec.turns)]
    assert cli.main(["logs", "show", path, "--all"]) == 0
    assert "torn" in capsys.readouterr().err
