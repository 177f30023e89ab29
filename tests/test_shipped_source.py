"""The modules that ship as source (tools/build_firmware.py AS_SOURCE) lose only their
comments and docstrings: the same code, the same line numbers."""
import ast
import io
import os
import tokenize

import pytest

from tools.build_firmware import AS_SOURCE, SRC, shipped_source


def _code(tree):
    # the module's AST with every docstring emptied (what shipped_source leaves)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and \
                isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            body[0].value.value = ""
    return ast.dump(tree, include_attributes=False)


@pytest.mark.parametrize("rel", AS_SOURCE)
def test_shipped_source_is_the_same_code(rel):
    with open(os.path.join(SRC, rel)) as f:
        text = f.read()
    out = shipped_source(text)
    assert _code(ast.parse(out)) == _code(ast.parse(text))
    toks = tokenize.generate_tokens(io.StringIO(out).readline)
    assert not [t for t in toks if t.type == tokenize.COMMENT]
    assert out.count("\n") == text.count("\n")
    assert len(out) < len(text)


def test_lines_stay_where_they_were():
    text = 'def f(x):\n    """Doc\n    more."""\n    # note\n    return x  # why\n'
    out = shipped_source(text)
    assert out.split("\n")[4] == "    return x"
    assert out.split("\n")[1] == '    ""'
    ns = {}
    exec(compile(out, "s", "exec"), ns)
    assert ns["f"](3) == 3


def test_not_python_is_an_error():
    with pytest.raises(SyntaxError):
        shipped_source("def f(:\n")
