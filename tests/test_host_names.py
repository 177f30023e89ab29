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
       ("two\nlines", "control characters")]


@pytest.mark.parametrize("name,words", BAD)
def test_the_one_check_refuses_the_same_names(name, words):
    with pytest.raises(gametags.TagError, match=words):
        gametags.check_names([name, "Ben"])
    with pytest.raises(gametags.TagError, match=words):
        gametags.check({"PlayerA": name})


def test_names_are_kept_without_the_spaces_around_them():
    assert gametags.check_names(["  Anna ", "Ben"]) == ["Anna", "Ben"]


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
