"""The command table (boardcore.link.commands.COMMANDS) is the one definition the parser,
the dispatcher, `hello`'s list and docs/protocol.md follow: the docs' command table
lists the same commands in the same order with the same arguments, every handler is a
function of one of the cmd_* modules or, for a game's command, of Samsara's
samsara.commands (hello's list is the table's: tests/upy/upy_test_usblink.py asks a
real link)."""
import os
import re

from boardcore.link import commands as C
from samsara import commands as samsara_commands

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _docs_rows():
    text = open(os.path.join(ROOT, "docs", "protocol.md")).read()
    part = text[text.index("| `cmd` | arguments | result |"):]
    part = part[:part.index("\n\n")]
    rows = []
    for line in part.splitlines()[2:]:
        cells = line.split("|")
        rows.append((cells[1].strip().strip("`"), cells[2]))
    return rows


def test_the_docs_list_the_tables_commands_in_its_order():
    assert [name for name, _args in _docs_rows()] == list(C.COMMAND_NAMES)


def test_the_docs_name_every_argument_of_every_command():
    for name, args in _docs_rows():
        spec = C.command_spec(name)
        named = set(re.findall(r"`([a-z_]+)`", args))
        if not spec:
            assert args.strip() in ("-", ""), (name, args)
        for key in spec:
            assert key in named, (name, key)


def test_every_handler_is_a_command_module_function_named_after_its_command():
    game = dict(samsara_commands.HANDLERS)
    for name, handler, args in C.COMMANDS:
        if handler is None:
            handler = game.pop(name)     # a game's command: Samsara's handler
            assert handler.__module__ == "samsara.commands", name
        else:
            assert handler.__module__.startswith("boardcore.link.cmd_"), (name, handler.__module__)
            assert name not in game, name
        assert handler.__name__ == name, name
        assert len(set(a[0] for a in args)) == len(args), name
    assert not game, sorted(game)        # no handler of Samsara's outside the table
