"""Sub-moves are read by their fields' names outside the rules engine: a sub-move is a
tuple (die, frm, to, ins, r, s, a, b) of samsara.rules.moves, and code outside
firmware/samsara/rules/ (the board core, the link, the host) writes m[M_R], m[M_A], ...
(samsara.rules.moves.M_DIE .. M_B), never m[4]..m[7].

Read from the source (ast): every subscript by a constant 4..7 in firmware/ and host/,
outside the rules engine, fails the test unless its module is one whose such subscripts
index something else (a frame's bytes, the flight ring, a file's stat), listed below
with what they index.
"""
import ast
import glob
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RULES = os.path.join("firmware", "samsara", "rules") + os.sep

NOT_MOVES = {
    "firmware/samsara/frame.py": "the 8 bytes of a frame",
    "firmware/boardcore/flight.py": "the flight ring's header and marks",
    "firmware/boardcore/flight_py.py": "the flight ring's marks",
    "firmware/boardcore/flight_viper.py": "the flight ring's marks and slots",
    "firmware/boardcore/flightsave.py": "the saved ring's header bytes",
    "firmware/boardcore/storage/osfs.py": "os.stat's fields",
    "host/samsara_host/flightpull.py": "the pulled ring's header bytes and entries",
}
"""Modules whose subscripts by 4..7 index no sub-move, with what they index."""


def _constant_subscripts(path, lo, hi):
    """[(line, source text)] of the subscripts by an int constant in lo..hi in a file."""
    tree = ast.parse(open(path).read(), path)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            k = node.slice
            if isinstance(k, ast.Constant) and type(k.value) is int and lo <= k.value <= hi:
                out.append((node.lineno, ast.unparse(node)))
    return out


def _files():
    out = []
    for top in ("firmware", "host"):
        for p in glob.glob(os.path.join(ROOT, top, "**", "*.py"), recursive=True):
            rel = os.path.relpath(p, ROOT)
            if not rel.startswith(RULES):
                out.append(rel)
    return sorted(out)


def test_the_fields_have_names_in_the_rules_engine():
    from samsara.rules import moves
    names = (moves.M_DIE, moves.M_FROM, moves.M_TO, moves.M_INS,
             moves.M_R, moves.M_S, moves.M_A, moves.M_B)
    assert names == tuple(range(8))
    m = moves.gen_sub_moves(0x3F, 0x3F, 0, 0, 0, 5)[0]
    assert len(m) == 8 and m[moves.M_DIE] == 5


def test_the_finder_sees_a_numbered_field(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("def f(m):\n    return (m[4], m[M_S], m[0], m['a'])\n")
    assert _constant_subscripts(str(src), 4, 7) == [(2, "m[4]")]


def test_no_sub_move_field_by_number_outside_the_rules_engine():
    bad = []
    for rel in _files():
        if rel.replace(os.sep, "/") in NOT_MOVES:
            continue
        for line, text in _constant_subscripts(os.path.join(ROOT, rel), 4, 7):
            bad.append("%s:%d: %s" % (rel, line, text))
    assert not bad, ("a sub-move's fields by name (samsara.rules.moves.M_R ...), or the "
                     "module in NOT_MOVES when it indexes no sub-move:\n" + "\n".join(bad))


def test_the_exempt_modules_exist_and_need_it():
    for rel, what in NOT_MOVES.items():
        path = os.path.join(ROOT, rel)
        assert os.path.exists(path), rel
        assert _constant_subscripts(path, 4, 7), (rel, what)
