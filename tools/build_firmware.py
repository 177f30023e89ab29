"""`make firmware`: build the development bundle into build/bundle/ and print its size.

A board ships with the firmware image (`make uf2`, tools/build_image.py: the code frozen
into flash); the bundle is for development: `samsara deploy` copies it onto a board's
file system with mpremote, where it shadows the image's modules (docs/firmware.md).

Every module under firmware/ is compiled with `mpy-cross -march=armv6m` (Cortex-M0+,
the RP2040) to a .mpy file at the same relative path; `main.py` is copied as source
(MicroPython runs /main.py after boot and does not look for main.mpy).  The bundle
folder is emptied first so a deleted module does not linger.  The layout is the Pico's
file system root:

    main.py  board_config.mpy  board/*.mpy  samsara/*.mpy

A module shipped as source goes without its comments and docstrings
(`shipped_source`; the line numbers stay).

Bytecode .mpy files from mpy-cross 1.29 load on MicroPython 1.22 and later (docs/
toolchain notes); a .mpy with native or viper code would only load on the matching
version, so such a module ships as source (AS_SOURCE: board/ledcopy_viper.py and
boardcore/flight_viper.py, which the Pico compiles at import); the build fails on
native/viper code anywhere else.

boardcore/version.mpy is compiled last, stamped with the bundle's hash (SHA-256 over
every other file, `samsara_host.fwstamp.bundle_hash`) and `KIND = "bundle"`, so a
board running this bundle says so in `hello`.  Line numbers stay in the bytecode, so a
traceback from the board names the line.

`--game samas|schaska` builds that game's bundle instead (docs/samas.md, docs/schaska.md
"On the board"): only the modules its boot imports (game_sources: its own package, the
shared game board package (firmware/gameboard/), the drivers, the scan loop and the host link with what they import;
never the other game's package) and a main.py that boots the game.

Usage: python tools/build_firmware.py [MPY_CROSS] [--out DIR] [--game samas|schaska]
Exit code 1 when a file fails to compile, 2 for an unknown game.
"""
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import tokenize

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "host"))
from samsara_host import fwstamp  # noqa: E402

SRC = "firmware"
OUT = os.path.join("build", "bundle")
AS_SOURCE = ("main.py", "boot.py", "board/ledcopy_viper.py", "boardcore/flight_viper.py")  # copied, not compiled (paths relative to firmware/)
OTHER_GAMES = ("samas", "schaska")
"""The other games' packages under firmware/ (docs/samas.md, docs/schaska.md): Samsara's
bundle and image leave them out, so Samsara's firmware stays as it was; `make test-mpy`
and `make typecheck` check them all the same."""
GAMES_SHARED = ("gameboard",)
"""The packages under firmware/ that only the other games use (docs/architecture.md
"firmware/gameboard/": their shared board core, game log policy and boot); a game's
bundle takes them through its imports."""
NOT_SAMSARA = OTHER_GAMES + GAMES_SHARED
"""The packages under firmware/ that Samsara's bundle and image leave out."""


def sources(src=SRC):
    """Relative paths of every .py under `src`, sorted; the NOT_SAMSARA packages (the
    other games' and what only they share) left out."""
    found = []
    for root, dirs, names in os.walk(src):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not (
            d in NOT_SAMSARA and os.path.samefile(root, src)))
        for n in sorted(names):
            if n.endswith(".py"):
                found.append(os.path.relpath(os.path.join(root, n), src))
    return sorted(found)


GAME_MAIN = '''"""%s board firmware: the entry point MicroPython runs at power-up (beside
a bundle or image built by tools/build_firmware.py or tools/build_image.py --game %s).
`import main; main.main()` restarts the loop from the REPL."""

from %s.boot import main  # noqa: F401

if __name__ == "__main__":
    main()
'''
"""main.py of a game bundle: the game's name, the game, its package."""


def _module_file(src, mod):
    # The file of dotted module `mod` under src (a module or a package's __init__), or
    # None when it is not part of the firmware (a MicroPython built-in).
    p = os.path.join(src, *mod.split("."))
    if os.path.isfile(p + ".py"):
        return p + ".py"
    if os.path.isfile(os.path.join(p, "__init__.py")):
        return os.path.join(p, "__init__.py")
    return None


def game_sources(game, src=SRC):
    """Relative paths of what a bundle of `game` ("samas" or "schaska") holds: every
    firmware module its boot (`<game>/boot.py`) imports, directly or through others
    (the shared game board package, the drivers, the scan loop and the host link with
    what they import), their packages' __init__ files, and boot.py (the watchdog's
    keep-alive); sorted.  No other game's package is among them.  ValueError for
    another game."""
    import ast
    if game not in OTHER_GAMES:
        raise ValueError("a game bundle is one of %s, not %r" % (", ".join(OTHER_GAMES), game))
    seen = {}
    todo = [game + ".boot"]
    while todo:
        mod = todo.pop()
        if mod in seen:
            continue
        path = _module_file(src, mod)
        if path is None:
            continue
        seen[mod] = path
        parts = mod.split(".")
        todo += [".".join(parts[:i]) for i in range(1, len(parts))]
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                todo += [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                for a in node.names:
                    sub = node.module + "." + a.name
                    todo.append(sub if _module_file(src, sub) else node.module)
    out = set(os.path.relpath(p, src) for p in seen.values())
    out.add("boot.py")
    for other in OTHER_GAMES:
        if other != game:
            assert not [r for r in out if r.split(os.sep)[0] == other], other
    return sorted(out)


def shipped_source(text):
    """`text` (a module's Python source) as it ships on the board: comments and
    docstrings taken out (a docstring becomes `""`), trailing spaces stripped; every
    line stays where it was, so a traceback's line numbers still point into the file
    in firmware/.  The board keeps the source in flash and compiles it at import, so
    what it does not need costs flash and compile time only (docs/firmware.md).
    Raises SyntaxError when `text` is not Python."""
    lines = text.split("\n")
    cuts = []          # (row, start col, end row, end col, replacement), rows from 1
    prev = tokenize.NEWLINE
    try:
        toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except tokenize.TokenError as e:
        raise SyntaxError("not Python: %s" % (e.args[0],))
    for i, tok in enumerate(toks):
        if tok.type == tokenize.COMMENT:
            cuts.append((tok.start[0], tok.start[1], tok.end[0], tok.end[1], ""))
        elif tok.type == tokenize.STRING and prev in (tokenize.NEWLINE, tokenize.INDENT,
                                                        tokenize.DEDENT):
            nxt = toks[i + 1].type if i + 1 < len(toks) else tokenize.NEWLINE
            if nxt in (tokenize.NEWLINE, tokenize.COMMENT):
                cuts.append((tok.start[0], tok.start[1], tok.end[0], tok.end[1], '""'))
        if tok.type not in (tokenize.NL, tokenize.COMMENT):
            prev = tok.type
    for r0, c0, r1, c1, rep in reversed(cuts):
        head = lines[r0 - 1][:c0]
        tail = lines[r1 - 1][c1:]
        lines[r0 - 1] = head + rep + (tail if r1 == r0 else "")
        for r in range(r0, r1):
            lines[r] = tail if r == r1 - 1 else ""
    out = "\n".join(line.rstrip() for line in lines)
    compile(out, "<shipped>", "exec")
    return out


def build(mpy_cross="mpy-cross", src=SRC, out=OUT, game=None):
    """Build the bundle; returns a list of (relative path, size in bytes).  game:
    "samas" or "schaska" for that game's bundle (game_sources, with a main.py that boots
    it: GAME_MAIN), None for Samsara's.  Raises RuntimeError naming the file when
    mpy-cross fails or a file uses native/viper code."""
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    made = []
    rels = sources(src) if game is None else game_sources(game, src) + ["main.py"]
    for rel in rels:
        path = os.path.join(src, rel)
        if game is not None and rel == "main.py":
            text = GAME_MAIN % (game.capitalize(), game, game)
        else:
            with open(path) as f:
                text = f.read()
        if rel not in AS_SOURCE and ("@micropython.native" in text or "@micropython.viper" in text):
            raise RuntimeError("%s uses native/viper code: ship it as .py or check the "
                               "board's version (docs/firmware.md)" % path)
        if rel in AS_SOURCE:
            dst = os.path.join(out, rel)
            os.makedirs(os.path.dirname(dst) or out, exist_ok=True)
            with open(dst, "w") as f:
                f.write(shipped_source(text))
        else:
            dst = os.path.join(out, rel[:-3] + ".mpy")
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            r = subprocess.run([mpy_cross, "-march=armv6m", "-o", dst, "-s", rel, path],
                               capture_output=True, text=True)
            if r.returncode != 0:
                raise RuntimeError("mpy-cross failed on %s:\n%s" % (path, r.stderr.strip()))
        made.append((os.path.relpath(dst, out), os.path.getsize(dst)))
    digest = stamp_hash(mpy_cross, src, out)
    if digest:
        made = [(rel, os.path.getsize(os.path.join(out, rel))) for rel, _size in made]
    return made


VERSION_MPY = fwstamp.VERSION_MPY


def bundle_hash(out):
    """12 hex digits naming the bundle in folder `out` (fwstamp.bundle_hash over its
    files; boardcore/version.mpy, which carries the hash, left out)."""
    files = []
    for root, _dirs, names in os.walk(out):
        for n in names:
            full = os.path.join(root, n)
            with open(full, "rb") as f:
                files.append((os.path.relpath(full, out).replace(os.sep, "/"), f.read()))
    return fwstamp.bundle_hash(files)


def stamp_hash(mpy_cross, src, out):
    """Compile boardcore/version.py again, stamped (fwstamp.stamp) with HASH =
    bundle_hash(out) and KIND = "bundle", so that the board's `hello` names the bundle
    it runs (docs/protocol.md "Versions").  Returns the hash, or None when the bundle has
    no version module."""
    target = os.path.join(out, *VERSION_MPY.split("/"))
    if not os.path.exists(target):
        return None
    digest = bundle_hash(out)
    with open(os.path.join(src, "boardcore", "version.py")) as f:
        try:
            text = fwstamp.stamp(f.read(), digest, "bundle")
        except ValueError as e:
            raise RuntimeError(str(e))
    stamped = os.path.join(out, "boardcore", "version-stamped.py")
    with open(stamped, "w") as f:
        f.write(text)
    try:
        r = subprocess.run([mpy_cross, "-march=armv6m", "-o", target, "-s",
                            "boardcore/version.py", stamped], capture_output=True, text=True)
    finally:
        os.remove(stamped)
    if r.returncode != 0:
        raise RuntimeError("mpy-cross failed on the version stamp:\n%s" % r.stderr.strip())
    return digest


def report(made, out=OUT):
    """Lines describing the bundle: one per folder and the total."""
    groups = {}
    for rel, size in made:
        top = rel.split(os.sep)[0] if os.sep in rel else "(root)"
        n, s = groups.get(top, (0, 0))
        groups[top] = (n + 1, s + size)
    total = sum(s for _, s in made)
    lines = ["firmware bundle in %s:" % out]
    for top in sorted(groups):
        n, s = groups[top]
        lines.append("  %-10s %3d files %8d bytes" % (top, n, s))
    lines.append("  %-10s %3d files %8d bytes (%.1f KB)"
                 % ("total", len(made), total, total / 1024.0))
    return lines, total


def main(argv):
    args = list(argv[1:])
    out = OUT
    if "--out" in args:
        i = args.index("--out")
        out = args[i + 1]
        del args[i:i + 2]
    game = None
    if "--game" in args:
        i = args.index("--game")
        game = args[i + 1] if i + 1 < len(args) else ""
        del args[i:i + 2]
        if game not in OTHER_GAMES:
            print("--game takes one of %s, not %r" % (", ".join(OTHER_GAMES), game))
            return 2
    mpy_cross = args[0] if args else "mpy-cross"
    try:
        made = build(mpy_cross, SRC, out, game)
    except RuntimeError as e:
        print(e)
        return 1
    lines, total = report(made, out)
    print("\n".join(lines))
    if any(rel.replace(os.sep, "/") == VERSION_MPY for rel, _size in made):
        print("bundle %s (the hash `hello` reports once it runs on the board)"
              % bundle_hash(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
