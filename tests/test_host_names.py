"""Players' names are checked alike wherever they are given (`logs pull --names`,
`logs tag --names`, the app's rename): not empty, at most 40 characters, no control
characters; `logs pull` checks them before it pulls anything."""
import json
import os
import urllib.request

import pytest

from fakeboard import FakeBoard
from loghelp import game_log
from samsara_host import cli, gametags

BAD = [("", "is empty"), ("   ", "is empty"), ("x" * 41, "at most 40 characters"),
       ("An\x1bna", "control characters"), ("Tab\there", "control characters"),
       ("two\nlines", "control characters"),
       ("Anna\u202e", "format characters \\(U\\+202E RIGHT-TO-LEFT OVERRIDE\\)"),
       ("An\u200bna", "format characters \\(U\\+200B"), ("\ufeffAnna", "format characters"),
       ("Ben \ud83d", "lone surrogate")]


@pytest.mark.parametrize("name,words", BAD)
def test_the_one_check_refuses_the_same_names(name, words):
    with pytest.raises(gametags.TagError, match=words):
        gametags.check_names([name, "Ben"])
    with pytest.raises(gametags.TagError, match=words):
        gametags.check({"PlayerA": name})


def test_names_are_kept_without_the_spaces_around_them():
    assert gametags.check_names(["  Anna ", "Ben"]) == ["Anna", "Ben"]


def test_names_outside_the_bmp_and_with_joiners_are_names():
    # an emoji, an emoji sequence (zero-width joiner), a Persian name (non-joiner)
    names = ["Ben \U0001F600", "\U0001F468\u200d\U0001F469", "\u0645\u06cc\u200c\u0631\u0627"]
    for n in names:
        assert gametags.check_text(n) == n


def test_the_host_sends_names_to_the_board_as_utf8_not_escapes():
    from samsara_host import hostproto
    line = hostproto.encode_command("new_game", 1, {"name_a": "Zo\u00eb", "name_b": "Ben \U0001F600"})
    assert b"\\u" not in line and "Ben \U0001F600".encode("utf-8") in line
    assert line.endswith(b"\n") and json.loads(line) == {
        "cmd": "new_game", "id": 1, "name_a": "Zo\u00eb", "name_b": "Ben \U0001F600"}


def test_a_far_players_name_is_checked_like_a_near_ones():
    from samsara_host.online.peer import far_name
    assert far_name("Ben \U0001F600") == "Ben \U0001F600"
    assert far_name("  Cleo ") == "Cleo"
    assert far_name("Eve\u202e") == "" and far_name("a\nb") == "" and far_name("x\ud800") == ""


def test_logs_pull_checks_names_before_it_pulls(tmp_path, capsys):
    board = FakeBoard(str(tmp_path), {1: game_log(2)[0]})
    dest = str(tmp_path / "logs")
    try:
        assert cli.main(["logs", "pull", "--port", board.port, "--dest", dest,
                         "--names", "", ""]) == 2
        err = capsys.readouterr().err
        assert "--names" in err and "is empty" in err
        assert board.acks == [] and not os.path.exists(os.path.join(dest, "fake-1"))
        assert cli.main(["logs", "pull", "--port", board.port, "--dest", dest,
                         "--names", " Anna ", "Ben"]) == 0
    finally:
        board.unplug()
    path = os.path.join(dest, "fake-1", "game-0001.log")
    assert gametags.read(path)["PlayerA"] == "Anna"
    assert cli.main(["logs", "tag", path, "--names", "Anna", "B\x07en"]) == 2
    assert "control characters" in capsys.readouterr().err
    assert gametags.read(path)["PlayerB"] == "Ben"
