"""Lists whose objects are only counted against zero or one: whether any exists is all they ask, which a List
of one page of one object (`Limit: 1`) answers as well without reading every object."""

from __future__ import annotations

import tree_sitter

from watchlint.go import parser
from watchlint.go.model import GoFile
from watchlint.go.pending import uses_in

_COMPARISONS = frozenset({"==", "!=", "<", "<=", ">", ">="})
_BOUNDS = frozenset({"0", "1"})


def existence_test(file: GoFile, call: tree_sitter.Node, typed_client: bool) -> tree_sitter.Node | None:
    """The comparison (`len(list.Items) > 0`) that reads a List's result, where the function reads it for
    nothing else: the result a clientset's `List` returns, or the list a controller-runtime client's `List` fills
    (`typed_client`); None where its objects are read, handed on or returned."""
    result = _filled(call) if typed_client else _returned(call)
    function = file.enclosing_function(call)
    if result is None or function is None:
        return None
    tests = []
    for use in uses_in(function, parser.text(result)):
        if use.start_byte == result.start_byte or _declares(use):
            continue
        test = _counted(use)
        if test is None:
            return None
        tests.append(test)
    return tests[0] if tests else None


def _returned(call: tree_sitter.Node) -> tree_sitter.Node | None:
    """`list` of `list, err := cs.CoreV1().Pods("").List(…)`."""
    values = call.parent
    statement = values.parent if values is not None and values.type == "expression_list" else None
    if statement is None or statement.type not in ("short_var_declaration", "assignment_statement"):
        return None
    if statement.child_by_field_name("right") != values:
        return None
    targets = parser.named(statement.child_by_field_name("left") or statement)
    return targets[0] if targets and targets[0].type == "identifier" else None


def _filled(call: tree_sitter.Node) -> tree_sitter.Node | None:
    """`list` of `c.List(ctx, &list, …)` or `c.List(ctx, list, …)`."""
    arguments = parser.named(call.child_by_field_name("arguments") or call)
    if len(arguments) < 2:
        return None
    given = arguments[1]
    if parser.is_unary(given, "&"):
        given = given.child_by_field_name("operand") or given
    return given if given.type == "identifier" else None


def _declares(use: tree_sitter.Node) -> bool:
    """Whether an identifier is the name a declaration gives (`var list corev1.PodList`, `list := &…{}`)."""
    parent = use.parent
    if parent is not None and parent.type == "var_spec":
        return use in parent.children_by_field_name("name")
    if parent is not None and parent.type == "expression_list":
        statement = parent.parent
        return (
            statement is not None
            and statement.type in ("short_var_declaration", "assignment_statement")
            and statement.child_by_field_name("left") == parent
        )
    return False


def _counted(use: tree_sitter.Node) -> tree_sitter.Node | None:
    """The comparison of `len(use.Items)` with 0 or 1 that a use of the list is, else None."""
    items = use.parent
    if items is None or items.type != "selector_expression":
        return None
    if parser.text(items.child_by_field_name("field")) != "Items":
        return None
    arguments = items.parent
    length = arguments.parent if arguments is not None and arguments.type == "argument_list" else None
    if length is None or length.type != "call_expression":
        return None
    if parser.text(length.child_by_field_name("function")) != "len":
        return None
    comparison = length.parent
    if comparison is None or comparison.type != "binary_expression":
        return None
    if parser.text(comparison.child_by_field_name("operator")) not in _COMPARISONS:
        return None
    left, right = comparison.child_by_field_name("left"), comparison.child_by_field_name("right")
    bound = right if left == length else left
    return comparison if bound is not None and bound.type == "int_literal" and parser.text(bound) in _BOUNDS else None
