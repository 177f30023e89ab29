"""The one event path of issue 8 §1: the core package imports no hardware module, the
event table (samsara_host.hostproto) covers every event the firmware emits (with its
fields), the logged-event lists and docs/protocol.md follow from that table."""
import glob
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FW = os.path.join(ROOT, "firmware")

from boardcore.link import protocol as P
from samsara_host import hostproto as H# noqa: E402
from boardcore.storage import logrecord# noqa: E402


def test_core_package_imports_no_hardware_module():
    # A fresh interpreter in which machine, rp2 and neopixel cannot be imported at all.
    # Every module of the hardware-free packages (the board core every game shares and
    # each game's module, with their subpackages); the viper ones (MicroPython only,
    # tests/upy) are checked by their text below.
    names = []
    for top in ("boardcore", "samsara", "gameboard", "samas", "schaska"):
        pkg = os.path.join(FW, top)
        names += sorted(top + "." + os.path.relpath(p, pkg)[:-3].replace(os.sep, ".")
                        for p in glob.glob(os.path.join(pkg, "**", "*.py"), recursive=True)
                        if not p.endswith("__init__.py") and not p.endswith("boot.py"))
    for n in ("samsara.rules.moves", "samsara.recorder", "boardcore.link.hostlink",
              "boardcore.storage.gamelog", "samas.core", "gameboard.logbook"):
        assert n in names, n
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('machine', 'rp2', 'neopixel'):\n"
        "            raise ImportError('hardware module ' + name)\n"
        "        return None\n"
        "sys.meta_path.insert(0, Block())\n"
        "sys.path.insert(0, " + repr(FW) + ")\n"
        "import importlib\n"
        "for n in " + repr([n for n in names if not n.endswith("_viper")]) + ":\n"
        "    importlib.import_module(n)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('machine', 'rp2', 'neopixel', 'board')]\n"
        "assert not bad, bad\n"
        "print('ok')\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.startswith("ok"), r.stderr
    for n in names:
        text = open(os.path.join(FW, n.replace(".", os.sep) + ".py")).read()
        for hw in ("machine", "rp2", "neopixel"):
            assert '__import__("%s")' % hw not in text and "import %s" % hw not in text, (n, hw)


def test_logged_and_end_lists_follow_the_table():
    for name, fields, flags in H.event_table():
        assert (name in P.NOT_LOGGED) == (not flags & H.LOGGED), name
        assert (name in P.END_EVENTS) == bool(flags & H.ENDS), name
        rec = logrecord.event_record(dict([("ev", name)] + [(f, "x") for f in fields]))
        assert (rec is None) == (not flags & H.LOGGED), name
    assert P.END_EVENTS == ("game_over",)
    # "hint" was the log-full LED hint's old event (now a board overlay); since issue 11
    # the name is the engine's hint, a logged event of its own.
    for gone in ("scene", "tick", "dice_entry", "sensors", "end", "gameover",
                 "game_end"):
        assert H.event_spec(gone) is None
    assert H.event_spec("hint") == (("t", "turn", "player"), H.LOGGED)


def _emitted(events):
    for ev in events:
        spec = H.event_spec(ev["ev"])
        assert spec is not None, "event %s is not in the event table" % ev["ev"]
        extra = set(ev) - set(spec[0]) - {"ev", "cut"}
        assert not extra, (ev["ev"], extra)


@pytest.mark.parametrize("seed", [1, 2, 3, 5, 8])
def test_every_event_of_simulated_games_is_in_the_table(seed):
    from samsara_host.sim.table import Table
    t = Table(seed=seed, noise=1)
    t.run()
    evs = [e for _t, e in t.driver.events]
    assert any(e["ev"] == "game_over" for e in evs)
    _emitted(evs)


def test_every_event_of_the_traces_is_in_the_table():
    from samsara_host import trace
    n = 0
    for path in sorted(glob.glob(os.path.join(HERE, "traces", "*.jsonl"))):
        rp = trace.replay(trace.load(path))
        _emitted([e for _t, e in rp.events])
        n += 1
    assert n > 0


def test_every_line_of_the_link_and_recorder_is_in_the_table():
    sys.path.insert(0, os.path.join(HERE, "upy"))
    from linkkit import FakeStream, services
    from samsara.core import Board
    from samsara.config import Config
    from fakes.memfs import MemFs
    from boardcore.storage.gamelog import GameLog
    board = Board(Config(dice="host"))
    st = FakeStream()
    svc = services(st, board, GameLog(MemFs(), capacity=2 * 4096, max_turns=2,
                                      turn_budget=256), boot_ms=0)
    for t in range(10):
        svc.poll(t)
    st.feed(b'{"cmd":"new_game"}\n')
    for t in range(10, 40):
        svc.poll(t)
    evs = [x for x in st.lines() if "ev" in x]
    names = [e["ev"] for e in evs]
    assert "boot" in names and "log_full" in names
    _emitted(evs)


def test_docs_protocol_lists_every_event_of_the_table():
    text = open(os.path.join(ROOT, "docs", "protocol.md")).read()
    text = text[text.index("## Events"):]
    text = text[:text.index("\n## ", 3)]
    for name, fields, flags in H.event_table():
        row = [line for line in text.splitlines() if line.startswith("| `%s` |" % name)]
        assert row, "docs/protocol.md has no row for event %s" % name
        cells = row[0].split("|")
        for f in fields:
            assert "`%s`" % f in cells[2], (name, f)
        assert cells[3].strip() == ("yes" if flags & H.LOGGED else "no"), name
        assert cells[4].strip() == ("yes" if flags & H.ENDS else "no"), name
