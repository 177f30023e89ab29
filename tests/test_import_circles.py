"""No import circles in firmware/: no two modules import each other, directly or round
a loop of several (docs/architecture.md "Layers").  A module that needs another's work
imports it; the other never imports it back, not even inside a function, so each module
can be read, loaded and tested with only what lies below it.

The imports are read from the source (ast) of every module under firmware/ (main.py,
the boot, the loop, board/ and the samsara package): `import x`, `from x import y`
(y a module or a name in x), relative imports, and imports inside functions.  Only
imports of firmware modules count; MicroPython's own and the drivers' hardware modules
are not in the tree.  Each module also says its one job in its docstring.
"""
import ast
import glob
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FIRMWARE = os.path.join(ROOT, "firmware")


def _modules():
    """{dotted module name: path} of every module under firmware/ (a package by its
    own name: samsara.rules for samsara/rules/__init__.py)."""
    out = {}
    for p in glob.glob(os.path.join(FIRMWARE, "**", "*.py"), recursive=True):
        rel = os.path.relpath(p, FIRMWARE)[:-3].replace(os.sep, ".")
        if rel.endswith(".__init__"):
            rel = rel[:-len(".__init__")]
        out[rel] = p
    return out


def _known(name, modules):
    """The firmware module that `name` (a dotted import) loads, or None: the longest
    leading part of it that is a module."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _imports(mod, path, modules):
    """The firmware modules that module `mod` (at `path`) imports, anywhere in it."""
    tree = ast.parse(open(path).read(), path)
    package = mod if path.endswith("__init__.py") else mod.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                out.add(_known(a.name, modules))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package
                for _ in range(node.level - 1):
                    up = up.rpartition(".")[0]
                base = up + "." + base if up and base else (up or base)
            for a in node.names:
                sub = base + "." + a.name
                out.add(sub if sub in modules else _known(base, modules))
    out.discard(None)
    out.discard(mod)
    return out


def _graph():
    modules = _modules()
    return {m: _imports(m, p, modules) for m, p in modules.items()}


def _circles(graph):
    """The import circles of `graph` ({module: modules it imports}): one shortest loop
    a strongly connected group of modules, each a list [m0, m1, ..., m0]."""
    index = {}
    low = {}
    stack = []
    on = set()
    groups = []
    counter = [0]

    def visit(v):
        # Tarjan's strongly connected components (the tree is small: recursion is fine)
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(set(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    loops = []
    for group in groups:
        start = min(group)
        # breadth first from start back to it, inside the group
        prev = {}
        todo = [start]
        found = None
        while todo and found is None:
            nxt = []
            for v in todo:
                for w in sorted(graph[v] & group):
                    if w == start:
                        found = v
                        break
                    if w not in prev:
                        prev[w] = v
                        nxt.append(w)
                if found is not None:
                    break
            todo = nxt
        path = [found]
        while path[-1] != start:
            path.append(prev[path[-1]])
        path.reverse()
        loops.append(path + [start])
    return loops


def test_the_circle_finder_finds_direct_and_round_circles():
    # The finder itself, on made-up trees: a test that passes on any tree must be able
    # to fail.
    assert _circles({"a": {"b"}, "b": {"a"}}) == [["a", "b", "a"]]
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert _circles({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_the_import_reader_sees_every_kind_of_import(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("import samsara.rules.moves\n"
                   "from samsara.rules import engine\n"
                   "from samsara.rules.geometry import NAMES\n"
                   "from . import x\n"
                   "def f():\n"
                   "    from .y import z\n"
                   "    import micropython\n")
    modules = {"samsara.rules.moves": "", "samsara.rules.engine": "",
               "samsara.rules.geometry": "", "samsara.rules": "", "samsara": "",
               "samsara.rules.x": "", "samsara.rules.y": "", "samsara.rules.m": ""}
    got = _imports("samsara.rules.m", str(src), modules)
    assert got == {"samsara.rules.moves", "samsara.rules.engine", "samsara.rules.geometry",
                   "samsara.rules.x", "samsara.rules.y"}


def test_the_reader_covers_the_whole_firmware_tree():
    graph = _graph()
    for name in ("main", "mainboot", "mainloop", "board.hall", "samsara.controller",
                 "samsara.rules.engine", "boardcore.storage.gamelog", "boardcore.link.commands"):
        assert name in graph, name
    assert "samsara.rules.moves" in graph["samsara.rules.engine"]
    assert "mainloop" in graph["mainboot"]


def test_no_module_in_firmware_imports_round_a_circle():
    loops = _circles(_graph())
    assert not loops, "import circles in firmware/:\n" + "\n".join(
        "  " + " -> ".join(loop) for loop in loops)


def test_every_firmware_module_says_its_job_in_a_docstring():
    bare = [m for m, p in sorted(_modules().items())
            if not (ast.get_docstring(ast.parse(open(p).read())) or "").strip()]
    assert not bare, "modules without a docstring: %s" % ", ".join(bare)
