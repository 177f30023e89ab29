"""The tree shows the layers (docs/architecture.md "Layers"): each module
under firmware/samsara imports only from the layers its own layer may use, and from a
short list of MicroPython built-in modules (no hardware module, no driver, nothing of
main.py's).  The imports are read from the source (ast), function-level ones included;
tests/test_event_path.py also imports every module with the hardware modules blocked.

The allowed arrows (docs/architecture.md has them as a table):

    rules          -> rules
    core           -> core, rules
    storage        -> storage, rules, link.protocol (the event table, error codes, CRC)
    link.protocol  -> link.protocol (what both ends share: link.protocol and
                      link.argwords, the words of the commands' arguments)
    link           -> link, link.protocol, storage, core, rules (the line stream,
                      the command table and the commands: hostlink, commands,
                      cmd_*)
"""
import ast
import glob
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PKG = os.path.join(ROOT, "firmware", "samsara")

ALLOWED = {
    "rules": {"rules"},
    "core": {"core", "rules"},
    "storage": {"storage", "rules", "link.protocol"},
    "link.protocol": {"link.protocol"},
    "link": {"link", "link.protocol", "storage", "core", "rules"},
}
"""Layer -> the layers its modules may import (besides the built-ins below)."""

BUILTINS = {"array", "binascii", "ubinascii", "io", "json", "micropython", "os", "uos",
            "select", "sys", "time", "gc", "struct", "errno"}
"""Modules of MicroPython itself that the core package may import."""


def _modules():
    """{dotted module name: path} of every module under firmware/samsara."""
    out = {}
    for p in glob.glob(os.path.join(PKG, "**", "*.py"), recursive=True):
        rel = os.path.relpath(p, os.path.dirname(PKG))[:-3].replace(os.sep, ".")
        if rel.endswith(".__init__"):
            rel = rel[:-len(".__init__")]
        out[rel] = p
    return out


def _layer(mod):
    parts = mod.split(".")
    if len(parts) >= 2 and parts[1] in ("rules", "storage"):
        return parts[1]
    if len(parts) >= 2 and parts[1] == "link":
        if len(parts) == 2 or parts[2] in ("protocol", "argwords"):
            return "link.protocol"
        return "link"
    return "core"


def _imports(path, modules):
    """The modules that the file at `path` imports (samsara ones resolved to modules:
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
    layers = {_layer(m) for m in _modules() if m != "samsara" and m != "samsara.link"}
    assert layers == set(ALLOWED)


def test_each_layer_imports_only_what_it_may():
    modules = _modules()
    bad = []
    for mod, path in sorted(modules.items()):
        if mod in ("samsara", "samsara.link", "samsara.rules", "samsara.storage"):
            continue            # package markers: empty
        mine = _layer(mod)
        for imp in _imports(path, modules):
            top = imp.split(".")[0]
            if top != "samsara":
                if top not in BUILTINS:
                    bad.append("%s imports %s (not a built-in of the core package)" % (mod, imp))
                continue
            if imp == "samsara":
                continue
            theirs = _layer(imp)
            if theirs != mine and theirs not in ALLOWED[mine]:
                bad.append("%s (%s) imports %s (%s)" % (mod, mine, imp, theirs))
    assert not bad, "\n".join(bad)


def test_the_packages_are_empty_markers():
    for pkg in ("", "rules", "storage", "link"):
        text = open(os.path.join(PKG, pkg, "__init__.py")).read()
        tree = ast.parse(text)
        assert all(isinstance(n, ast.Expr) for n in tree.body), pkg   # a docstring at most


def test_the_rules_engine_reads_nothing_of_the_board():
    # The strongest rule spelled out: the rules engine runs with nothing else around.
    modules = _modules()
    for mod, path in modules.items():
        if _layer(mod) == "rules":
            for imp in _imports(path, modules):
                assert not imp.startswith("samsara.") or imp.startswith("samsara.rules"), \
                    (mod, imp)


def test_docs_architecture_lists_every_module_in_its_place():
    # docs/architecture.md "The places and their modules": one table a folder, a row a
    # module; a module added, moved or removed shows here.
    text = open(os.path.join(ROOT, "docs", "architecture.md")).read()
    text = text[text.index("## The places and their modules"):]
    for folder in ("firmware/samsara/rules/", "firmware/samsara/", "firmware/samsara/storage/",
                   "firmware/samsara/link/", "firmware/board/", "hardware/samsara_hw/",
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


GAMES = ("samas", "schaska")
"""The game packages beside samsara (docs/architecture.md "Layers": the other games'
rules import their own package and builtins only; their board modules may also use the
shared board core below)."""

SHARED_CORE = ("samsara.debounce", "samsara.events", "samsara.pacing", "samsara.power",
               "samsara.ticks", "samsara.storage", "samsara.storage.gamelog",
               "samsara.storage.logwrite", "samsara.storage.logrecord",
               "samsara.link.protocol", "gameboard", "gameboard.core", "gameboard.logbook")
"""The game-agnostic modules of the board core that the other games' board modules
(firmware/samas/*.py, firmware/schaska/*.py) reuse: the debounce, the event queue, the
pacing flags, the power limiter, tick arithmetic, the game log's store and record
format (with the protocol's CRC and event table), and the game board core and game log
policy they subclass (firmware/gameboard/: its boot.py is in the boot layer)."""

GAME_BOOT = "boot.py"
"""A game's boot module (firmware/samas/boot.py, firmware/schaska/boot.py) is in the
boot layer: it may import what mainboot imports (board_config, mainloop, the drivers,
the host link, the file-system adapter)."""


def _game_imports(path):
    tree = ast.parse(open(path).read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "%s: relative import" % path
            yield node.module


def test_the_other_games_import_their_own_package_builtins_and_the_shared_core():
    bad = []
    for game in GAMES:
        root = os.path.join(ROOT, "firmware", game)
        paths = glob.glob(os.path.join(root, "**", "*.py"), recursive=True)
        assert len(paths) >= 4, game
        for path in paths:
            rules = os.sep + "rules" + os.sep in path
            if os.path.basename(path) == GAME_BOOT and not rules:
                continue
            for name in _game_imports(path):
                top = name.split(".")[0]
                if top == game or top in BUILTINS:
                    continue
                if not rules and name in SHARED_CORE:
                    continue
                bad.append("%s imports %s" % (os.path.relpath(path, ROOT), name))
    assert not bad, "\n".join(bad)


def test_the_shared_core_is_game_agnostic():
    # What the other games reuse reads nothing of Samsara's game: only each other and
    # the built-ins.
    for mod in SHARED_CORE:
        path = os.path.join(ROOT, "firmware", *mod.split(".")) + ".py"
        if mod in ("samsara.storage", "gameboard"):
            continue     # a package marker
        for name in _game_imports(path):
            assert name in SHARED_CORE or name.split(".")[0] in BUILTINS, (mod, name)


def test_each_game_board_module_is_in_the_shared_core_or_the_boot():
    # firmware/gameboard/: a module added there is listed in SHARED_CORE (and so
    # checked game-agnostic above) unless it is the boot.
    for p in glob.glob(os.path.join(ROOT, "firmware", "gameboard", "*.py")):
        name = os.path.basename(p)
        if name not in ("__init__.py", GAME_BOOT):
            assert "gameboard." + name[:-3] in SHARED_CORE, name


def test_the_other_games_packages_are_empty_markers():
    text = open(os.path.join(ROOT, "firmware", "gameboard", "__init__.py")).read()
    assert all(isinstance(n, ast.Expr) for n in ast.parse(text).body)
    for game in GAMES:
        for pkg in ("", "rules"):
            text = open(os.path.join(ROOT, "firmware", game, pkg, "__init__.py")).read()
            assert all(isinstance(n, ast.Expr) for n in ast.parse(text).body), (game, pkg)
