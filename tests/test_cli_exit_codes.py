"""The exit codes of docs/cli.md "Exit codes": every command that reads a file the user
names says what is wrong with it in one line on stderr and exits 2, like any other
mistake in what was typed (1 is for a board or a piece of work that failed)."""
import os

import pytest

from samsara_host import cli

HERE = os.path.dirname(os.path.abspath(__file__))

READERS = [
    ["trace", "replay"],
    ["analyze"],
    ["logs", "export"],
    ["logs", "show"],
    ["logs", "tag", "--event", "x"],
]
"""The commands that read a user's file: argv before the file (options after it)."""


def _argv(cmd, path):
    # the file goes after the sub-command, its options after the file
    n = 2 if cmd[0] in ("trace", "logs") else 1
    return cmd[:n] + [path] + cmd[n:]


@pytest.mark.parametrize("cmd", READERS, ids=lambda c: " ".join(c[:2]))
@pytest.mark.parametrize("content", ["hello, no game and no trace\n", None, ""],
                         ids=["garbage", "missing", "empty"])
def test_a_bad_or_missing_file_is_exit_code_2(tmp_path, capsys, cmd, content):
    path = str(tmp_path / "bad.jsonl")
    if content is not None:
        with open(path, "w") as f:
            f.write(content)
    assert cli.main(_argv(cmd, path)) == 2
    err = capsys.readouterr().err
    assert "bad.jsonl" in err and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err


def test_the_convention_is_written_once_in_the_cli_doc_and_named_in_the_help(capsys):
    with open(os.path.join(HERE, "..", "docs", "cli.md"), encoding="utf-8") as f:
        text = f.read()
    assert text.count("## Exit codes") == 1
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    assert "exit codes: 0" in capsys.readouterr().out


@pytest.mark.parametrize("option, value", [
    ("--idle-s", "0"), ("--idle-s", "-1"), ("--idle-s", "1.5"), ("--idle-s", "x"),
    ("--cases", "0"), ("--cases", "-5"), ("--cycles", "0"), ("--cycles", "-2"),
])
def test_bench_refuses_numbers_out_of_range_before_the_port_opens(capsys, option, value):
    # --idle-s 0 was a ZeroDivisionError traceback from the board (exit 1), -1 nonsense
    # figures with exit 0; --cases/--cycles 0 or below were taken
    with pytest.raises(SystemExit) as e:
        cli.main(["bench", "--port", "/dev/samsara-no-such-port", option, value])
    err = capsys.readouterr().err
    assert e.value.code == 2, err
    assert option in err and "whole number 1 or more" in err, err
    assert "Traceback" not in err and "does not exist" not in err
