"""The Go parser's tolerance of syntax newer than tree-sitter-go: Go 1.26's new(expression)."""

from __future__ import annotations

import pytest
from conftest import TESTS

from watchlint.go import parser
from watchlint.source import SourceFile, read_source

CASE = TESTS / "fixtures" / "go" / "WL002" / "go126-new-of-expression"


def _source(text: str) -> SourceFile:
    return SourceFile("x.go", text.encode())


@pytest.mark.parametrize(
    "expression",
    ['new("/")', "new(int32(1))", "new(a + b)", 'T{Value: new("/"), B: 1}', '[]T{{P: &H{A: f(P), V: new("/")}}}'],
    ids=["string", "conversion", "binary", "keyed-element", "nested-literal"],
)
def test_new_of_an_expression_parses_without_error(expression: str) -> None:
    tree = parser.parse(_source(f"package x\n\nvar v = {expression}\n\nfunc f() {{ r.Get(ctx, key, &cm) }}\n"))
    assert parser.first_syntax_error(tree) is None
    calls = parser.captures("(call_expression function: (selector_expression) @call)", tree.root_node)["call"]
    assert [parser.text(node) for node in calls] == ["r.Get"]


def test_new_of_a_type_and_a_function_named_new_are_left_as_written() -> None:
    text = 'package x\n\nfunc new(s string) string { return s }\n\nvar p = new(corev1.Secret)\nvar q = new("/")\n'
    tree = parser.parse(_source(text))
    assert parser.first_syntax_error(tree) is None
    assert tree.root_node.text == text.replace('new("/")', 'nex("/")').encode()  # only the expression form changes


def test_real_syntax_errors_are_still_reported() -> None:
    tree = parser.parse(_source('package x\n\nvar v = new("/")\n\nfunc f() {\n'))
    error = parser.first_syntax_error(tree)
    assert error is not None
    assert error.start_point.row >= 4


def test_the_go126_fixture_parses_cleanly() -> None:
    path = CASE / "internal" / "controller" / "route_controller.go"
    assert parser.first_syntax_error(parser.parse(read_source(path, path.name))) is None
