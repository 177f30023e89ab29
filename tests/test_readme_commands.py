"""Every `samsara ...` line of README.md's command list parses with the real command
line (the placeholders PORT, FILE, N, ... filled in, each `a | b` alternative and each
`[optional]` part taken): a newcomer who types them as written gets no usage error."""
import os
import re
import shlex

import pytest

from samsara_host import cli

HERE = os.path.dirname(os.path.abspath(__file__))
START = "oooooo................../oooooo.................. 0-0 A"
FILL = {"PORT": "loop://", "FILE": "game.jsonl", "N": "1", "SEED": "1", "DIR": "vb",
        "ID": "vb-1", "0..3": "2", "...": START, "CODE": "7K3M-Q9XD-4FJT"}


def _readme_lines():
    with open(os.path.join(HERE, "..", "README.md"), encoding="utf-8") as f:
        text = f.read()
    out = []
    for line in text.splitlines():
        if not line.startswith("    samsara "):
            continue
        line = re.split(r"\s#", line)[0].strip()          # the comment
        line = line.replace("[", "").replace("]", "")     # optional parts taken
        alts = line.split(" | ")
        first = alts[0].split()
        if len(alts) == 1:
            out.append((line, False))
            continue
        out.append((" ".join(first), True))               # a list of sub-commands:
        for alt in alts[1:]:                              # the last word swapped
            out.append((" ".join(first[:-1] + alt.split()), True))
    return out


LINES = _readme_lines()


def _argv(line):
    argv = []
    for tok in shlex.split(line)[1:]:
        if tok == "<":                                    # standard input
            break
        tok = FILL.get(tok, tok)
        if "|" in tok and not tok.startswith("-"):
            tok = tok.split("|")[0]                       # gif|html|svg|png: one of them
        argv.append(tok)
    return argv


def test_the_readme_lists_commands():
    assert len(LINES) > 20 and any("trace pull" in x and "--out FILE" in x for x, _l in LINES)


@pytest.mark.parametrize("line,listing", LINES, ids=[x for x, _l in LINES])
def test_a_readme_command_parses(line, listing, capsys):
    parser = cli.build_parser()
    if listing:     # `logs list | pull | export`: each is a sub-command (with its --help)
        with pytest.raises(SystemExit) as e:
            parser.parse_known_args(_argv(line) + ["--help"])
        assert e.value.code == 0, (line, capsys.readouterr().err)
        return
    try:
        args, extra = parser.parse_known_args(_argv(line))
    except SystemExit:
        raise AssertionError("%s: %s" % (line, capsys.readouterr().err))
    assert not extra, (line, extra)
    assert getattr(args, "func", None), line
