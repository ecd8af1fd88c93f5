"""The Go parser's tolerance of syntax newer than tree-sitter-go (Go 1.26's new(expression)), its reading of
instantiated generic calls as calls, and finding the function around a node by position."""

from __future__ import annotations

import pytest
import tree_sitter
from conftest import TESTS

from watchlint.go import parser
from watchlint.go.model import GoFile, index_nodes
from watchlint.go.scope import enclosing_function
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


def test_the_incremental_reparse_gives_the_tree_a_fresh_parse_of_the_patched_text_gives() -> None:
    text = (
        'package x\n\nfunc f() {\n\ta := new("x")\n\tb := T{\n\t\tV: new(int32(1)),\n\t}\n'
        "\tr.Get(ctx, key, new(corev1.Secret))\n}\n"
    )
    tree = parser.parse(_source(text))
    patched = text.replace('new("x")', 'nex("x")').replace("new(int32(1))", "nex(int32(1))").encode()
    fresh = tree_sitter.Parser(parser.language()).parse(patched)
    assert parser.first_syntax_error(tree) is None
    assert tree.root_node.text == patched
    assert str(tree.root_node) == str(fresh.root_node)


def test_instantiated_generic_calls_read_as_calls_with_their_type_arguments_blanked() -> None:
    """`store.New[int](c)` (a conversion to a generic type, to tree-sitter-go) and `New[T](a, b)` (a call of an
    index expression) read as plain calls, offsets kept; a call of a value indexed by a literal, and a call
    tree-sitter-go already reads with its type arguments (`lo.Map[A, B](…)`), are left as written."""
    text = (
        "package x\n\nfunc f() {\n\ta := store.New[int](c)\n\tb := New[T](ctx, c)\n"
        '\th := handlers["x"](obj)\n\tm := lo.Map[A, B](xs, g)\n}\n'
    )
    tree = parser.parse(_source(text))
    blanked = text.replace("store.New[int](c)", "store.New     (c)").replace("New[T](ctx, c)", "New   (ctx, c)")
    assert tree.root_node.text == blanked.encode()
    calls = parser.captures("(call_expression function: (_) @function)", tree.root_node)["function"]
    assert [parser.text(node) for node in calls] == ["store.New", "New", 'handlers["x"]', "lo.Map"]
    assert parser.first_syntax_error(tree) is None


def test_real_syntax_errors_are_still_reported() -> None:
    tree = parser.parse(_source('package x\n\nvar v = new("/")\n\nfunc f() {\n'))
    error = parser.first_syntax_error(tree)
    assert error is not None
    assert error.start_point.row >= 4


def test_the_go126_fixture_parses_cleanly() -> None:
    path = CASE / "internal" / "controller" / "route_controller.go"
    assert parser.first_syntax_error(parser.parse(read_source(path, path.name))) is None


FUNCTIONS = """package x

var handler = func(c client.Client) { c.Get(ctx, key, &cm) }

type R struct{ client.Client }

func (r *R) Reconcile(ctx context.Context) error {
	run := func() { r.Get(ctx, key, &cm) }
	run()
	return nil
}

func helper(c client.Client) { c.List(ctx, &pods) }
"""


def test_the_function_around_a_node_found_by_position_is_the_one_its_parents_lead_to() -> None:
    source = _source(FUNCTIONS)
    tree = parser.parse(source)
    file = GoFile(source, tree, ".", "example.com/x", "x", {}, index_nodes(tree))
    names = parser.captures("(identifier) @name", tree.root_node)["name"]
    found: dict[str, tree_sitter.Node | None] = {}
    for node in names:  # each name's first place
        found.setdefault(parser.text(node), file.enclosing_function(node))
    assert found["handler"] is None  # the name of a package-level variable: in no function
    assert found["cm"] is not None
    assert found["cm"].type == "func_literal"  # inside a package-level literal: the parent walk finds it
    assert parser.text(found["run"].child_by_field_name("name")) == "Reconcile"  # inside a literal in a method
    assert parser.text(found["pods"].child_by_field_name("name")) == "helper"
    for node in names:
        assert file.enclosing_function(node) == enclosing_function(node)


CALLED_LITERALS = """package x

var ready = func() bool { return check(1) }()

func (r *R) Reconcile(ctx context.Context) {
	r.Get(ctx, key, &cm)
	func() { r.List(ctx, &pods) }()
}
"""


def test_the_calls_inside_a_node_found_by_position_are_those_a_query_of_the_node_finds() -> None:
    """Not the call around a function literal called where it is written, which starts where the literal does."""
    source = _source(CALLED_LITERALS)
    tree = parser.parse(source)
    file = GoFile(source, tree, ".", "example.com/x", "x", {}, index_nodes(tree))
    holders = parser.captures("[(method_declaration) (func_literal)] @holder", tree.root_node)["holder"]
    assert len(holders) == 3
    for holder in holders:
        queried = parser.captures("(call_expression) @call", holder).get("call", [])
        assert file.nodes_within("call_expression", holder) == queried
    package_level = holders[0]
    assert [parser.text(call) for call in file.nodes_within("call_expression", package_level)] == ["check(1)"]
