"""The tree shows the layers (docs/architecture.md "Layers"): each module of the board
core every game shares (firmware/boardcore/) and of each game module (firmware/samsara/,
firmware/samas/, firmware/schaska/, with the other games' shared board
firmware/gameboard/) imports only from the layers its own layer may use, and from a
short list of MicroPython built-in modules (no hardware module, no driver, nothing of
main.py's).  The imports are read from the source (ast), function-level ones included;
tests/test_event_path.py also imports every module with the hardware modules blocked.

The allowed arrows (docs/architecture.md has them as a table):

    boardcore                 -> boardcore (debounce, frame, events, pacing, power,
                                 ticks, flight, version: no game's module)
    boardcore.storage         -> boardcore.storage, boardcore, boardcore.link.protocol
    boardcore.link.protocol   -> boardcore.link.protocol (protocol, argwords: what both
                                 ends of the link share)
    boardcore.link            -> boardcore.link, its protocol, boardcore.storage, boardcore
    G.rules                   -> G.rules (a game's rules: nothing of the board)
    samsara                   -> samsara, samsara.rules, boardcore, boardcore.storage,
                                 boardcore.link.protocol
    gameboard                 -> gameboard, boardcore, boardcore.storage,
                                 boardcore.link.protocol
    samas, schaska            -> their own, their rules, gameboard, boardcore,
                                 boardcore.storage, boardcore.link.protocol

A game's boot module (samas/boot.py, schaska/boot.py, gameboard/boot.py) is in the
boot layer with mainboot.py: it may import the drivers, the scan loop and the link.
"""
import ast
import glob
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FIRMWARE = os.path.join(ROOT, "firmware")

PACKAGES = ("boardcore", "samsara", "gameboard", "samas", "schaska")
"""The hardware-free packages under firmware/: the shared core, the games' modules."""

GAMES = ("samas", "schaska")
"""The game packages beside samsara, built on gameboard."""

_BOARD_OF_ANY_GAME = {"boardcore", "boardcore.storage", "boardcore.link.protocol"}

ALLOWED = {
    "boardcore": {"boardcore"},
    "boardcore.storage": {"boardcore.storage", "boardcore", "boardcore.link.protocol"},
    "boardcore.link.protocol": {"boardcore.link.protocol"},
    "boardcore.link": {"boardcore.link", "boardcore.link.protocol", "boardcore.storage",
                       "boardcore"},
    "samsara.rules": {"samsara.rules"},
    "samsara": {"samsara", "samsara.rules"} | _BOARD_OF_ANY_GAME,
    "gameboard": {"gameboard"} | _BOARD_OF_ANY_GAME,
    "samas.rules": {"samas.rules"},
    "samas": {"samas", "samas.rules", "gameboard"} | _BOARD_OF_ANY_GAME,
    "schaska.rules": {"schaska.rules"},
    "schaska": {"schaska", "schaska.rules", "gameboard"} | _BOARD_OF_ANY_GAME,
}
"""Layer -> the layers its modules may import (besides the built-ins below)."""

BOOT = ("gameboard.boot", "samas.boot", "schaska.boot")
"""The games' boot modules: the boot layer (module docstring)."""

BUILTINS = {"array", "binascii", "ubinascii", "io", "json", "micropython", "os", "uos",
            "select", "sys", "time", "gc", "struct", "errno"}
"""Modules of MicroPython itself that the core packages may import."""


def _modules():
    """{dotted module name: path} of every module of PACKAGES."""
    out = {}
    for pkg in PACKAGES:
        for p in glob.glob(os.path.join(FIRMWARE, pkg, "**", "*.py"), recursive=True):
            rel = os.path.relpath(p, FIRMWARE)[:-3].replace(os.sep, ".")
            if rel.endswith(".__init__"):
                rel = rel[:-len(".__init__")]
            out[rel] = p
    return out


def _layer(mod):
    parts = mod.split(".")
    top = parts[0]
    if top == "boardcore" and len(parts) >= 2:
        if parts[1] == "storage":
            return "boardcore.storage"
        if parts[1] == "link":
            if len(parts) == 2 or parts[2] in ("protocol", "argwords"):
                return "boardcore.link.protocol"
            return "boardcore.link"
    if len(parts) >= 2 and parts[1] == "rules":
        return top + ".rules"
    return top


def _imports(path, modules):
    """The modules that the file at `path` imports (firmware ones resolved to modules:
    `from samsara.rules import moves` is samsara.rules.moves)."""
    tree = ast.parse(open(path).read(), path)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "%s: relative import" % path
            base = node.module
            for a in node.names:
                sub = base + "." + a.name
                out.append(sub if sub in modules else base)
    return out


def test_the_layer_map_covers_every_module():
    layers = {_layer(m) for m in _modules()}
    assert layers == set(ALLOWED)


def test_each_layer_imports_only_what_it_may():
    modules = _modules()
    bad = []
    for mod, path in sorted(modules.items()):
        if mod in BOOT:
            continue
        mine = _layer(mod)
        for imp in _imports(path, modules):
            top = imp.split(".")[0]
            if top not in PACKAGES:
                if top not in BUILTINS:
                    bad.append("%s imports %s (not a built-in of the core packages)"
                               % (mod, imp))
                continue
            theirs = _layer(imp)
            if theirs != mine and theirs not in ALLOWED[mine]:
                bad.append("%s (%s) imports %s (%s)" % (mod, mine, imp, theirs))
    assert not bad, "\n".join(bad)


def test_the_shared_core_imports_no_game():
    # The strongest rule spelled out: nothing under firmware/boardcore/ names a game's
    # package, so every game's bundle takes it whole and nothing of another game.
    modules = _modules()
    for mod, path in modules.items():
        if mod.split(".")[0] == "boardcore":
            for imp in _imports(path, modules):
                assert imp.split(".")[0] not in ("samsara", "gameboard") + GAMES, (mod, imp)


def test_the_packages_are_empty_markers():
    for mod, path in _modules().items():
        if path.endswith("__init__.py"):
            tree = ast.parse(open(path).read())
            assert all(isinstance(n, ast.Expr) for n in tree.body), mod  # a docstring at most


def test_the_rules_engines_read_nothing_of_the_board():
    modules = _modules()
    for mod, path in modules.items():
        if _layer(mod).endswith(".rules"):
            own = mod.split(".")[0] + ".rules"
            for imp in _imports(path, modules):
                top = imp.split(".")[0]
                assert top not in PACKAGES or imp.startswith(own), (mod, imp)


def test_a_module_that_breaks_a_layer_is_caught():
    # The check itself can fail: an import of Samsara's controller from the shared
    # core, or of Samsara from Samas, is outside the map.
    assert _layer("samsara.controller") not in ALLOWED["boardcore.link"]
    assert _layer("samsara.core") not in ALLOWED["samas"]
    assert _layer("samas.core") not in ALLOWED["samsara"]


def test_docs_architecture_lists_every_module_in_its_place():
    # docs/architecture.md "The places and their modules": one table a folder, a row a
    # module; a module added, moved or removed shows here.
    text = open(os.path.join(ROOT, "docs", "architecture.md")).read()
    text = text[text.index("## The places and their modules"):]
    for folder in ("firmware/samsara/rules/", "firmware/samsara/", "firmware/boardcore/",
                   "firmware/boardcore/storage/", "firmware/boardcore/link/",
                   "firmware/board/", "hardware/samsara_hw/",
                   "firmware/samas/rules/", "firmware/schaska/rules/", "firmware/samas/",
                   "firmware/schaska/", "firmware/gameboard/"):
        head = "### `%s`" % folder
        assert head in text, head
        part = text[text.index(head) + len(head):]
        part = part[:part.index("\n### ")] if "\n### " in part else part
        listed = set(line.split("|")[1].strip().strip("`") for line in part.splitlines()
                     if line.startswith("| `"))
        have = set(os.path.basename(p) for p in glob.glob(os.path.join(ROOT, folder, "*.py"))
                   if not p.endswith("__init__.py"))
        assert listed == have, (folder, sorted(listed ^ have))
