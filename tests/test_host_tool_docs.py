"""docs/host-tool.md's table names every command of the tool (cli.COMMANDS), each with
where its outputs are shown."""
import os
import re

from samsara_host import cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_every_command_is_in_the_table_of_host_tool_md():
    text = open(os.path.join(ROOT, "docs", "host-tool.md"), encoding="utf-8").read()
    table = text[text.index("| command | what it does | outputs in |"):]
    table = table[:table.index("\n\n")]
    named = set(re.findall(r"`samsara ([a-z-]+)", table))
    missing = [name for name, _module, _help in cli.COMMANDS if name not in named]
    assert not missing, missing
    for line in table.splitlines()[2:]:
        assert line.count("|") == 4 and line.split("|")[3].strip(), line
