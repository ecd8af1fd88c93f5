"""The writes of a local variable after its declaration: assignments (of it or of its elements), increments,
addresses taken, maps copied into, and the method calls that may fill a collection.

The default deployment (SPEC §1) is judged on the value a variable holds where a condition reads it, so
`ns := os.Getenv("WATCH_NAMESPACE"); if ns == "" { ns = "apps" }` scopes the cache to `apps`, and a list
filled only under a condition that does not hold stays empty.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import tree_sitter

from watchlint.go import parser
from watchlint.go.scope import FUNCTIONS, Declaration, innermost_function

_WRITTEN_NAMES = """
[
  (assignment_statement left: (expression_list (identifier) @name))
  (assignment_statement left: (expression_list (index_expression operand: (identifier) @name)))
  (assignment_statement left: (expression_list (unary_expression operator: "*" operand: (identifier) @name)))
  (inc_statement (identifier) @name)
  (dec_statement (identifier) @name)
  (unary_expression operator: "&" operand: (identifier) @name)
  (call_expression function: (selector_expression) arguments: (argument_list . (identifier) @name))
]
"""
# Calls that fill the map given first with the entries of the second.
MAP_COPIES = frozenset({"maps.Copy"})
_RECEIVERS = "(selector_expression operand: (identifier) @name)"


class WriteKind(enum.Enum):
    ASSIGN = "assign"  # `x = value` or `x, err = call()`
    ADDRESS = "address"  # `&x` handed to a call, which may fill it
    INDEX = "index"  # `x[key] = value`: a map or list written in place
    COPY = "copy"  # `maps.Copy(x, src)`: a map given the entries of another
    METHOD = "method"  # `x.Add(item)`: a method of a module's collection type may fill it
    OTHER = "other"  # `x += …`, `x++`: not evaluated


@dataclass(frozen=True, slots=True)
class Write:
    node: tree_sitter.Node  # the statement, or the `&x` expression
    kind: WriteKind
    index: int = 0  # for ASSIGN and INDEX: the written expression's position on the left
    escapes: bool = False  # inside a function literal of its own: it may run at any time


def written_names(function: tree_sitter.Node) -> dict[str, list[tree_sitter.Node]]:
    """The identifiers a function (function literals below it included) may write, by name, each list in
    source order: read once per function for all its locals, a big function having many."""
    found: dict[str, list[tree_sitter.Node]] = {}
    for name in parser.captures(_WRITTEN_NAMES, function).get("name", []):
        found.setdefault(parser.text(name), []).append(name)
    return found


def writes_of(
    declaration: Declaration,
    written: Mapping[str, list[tree_sitter.Node]],
    declared_by: Callable[[tree_sitter.Node], Declaration | None],
) -> list[Write]:
    """The writes of one declared name, in source order, among the `written_names` of the function declaring
    it; `declared_by` resolves a name node to its declaration, so a shadowing variable of the same name is not
    taken for this one."""
    writes = []
    for name in written.get(declaration.name, ()):
        if name.start_byte < declaration.visible_from:
            continue
        write = _write(name, declaration)
        if write is not None and declared_by(name) == declaration:
            writes.append(write)
    return writes


def receivers(function: tree_sitter.Node) -> dict[str, list[tree_sitter.Node]]:
    """The identifiers a function (function literals below it included) selects a method or field of, by
    name, each list in source order (with package names, which no local declares)."""
    found: dict[str, list[tree_sitter.Node]] = {}
    for name in parser.captures(_RECEIVERS, function).get("name", []):
        found.setdefault(parser.text(name), []).append(name)
    return found


def method_calls(
    declaration: Declaration,
    selected: Mapping[str, list[tree_sitter.Node]],
    declared_by: Callable[[tree_sitter.Node], Declaration | None],
) -> list[Write]:
    """The method calls (`names.Add(n)`) and method values (`add := names.Add`) of one declared name among the
    `receivers` of the function declaring it, in source order: a set type of the module fills itself that
    way. A field read is one too: the caller tells them apart by the value (a list or map has no field)."""
    calls = []
    for name in selected.get(declaration.name, ()):
        selector = name.parent
        if name.start_byte < declaration.visible_from or selector is None or declared_by(name) != declaration:
            continue
        called = selector.parent
        node = called if called is not None and called.type == "call_expression" else selector
        escapes = innermost_function(node) != innermost_function(declaration.node)
        calls.append(Write(node, WriteKind.METHOD, escapes=escapes))
    return calls


def _write(name: tree_sitter.Node, declaration: Declaration) -> Write | None:
    """The write of `name`, or None when the tree around it has none of the query's shapes."""
    parent = name.parent
    if parent is None:
        return None
    escapes = innermost_function(parent) != innermost_function(declaration.node)
    if parent.type == "unary_expression" and parser.text(parent.child_by_field_name("operator")) == "*":
        # `*ns = "default"` through the pointer a flag gives: a pointer reads as the value it points to
        left = parent.parent
        statement = left.parent if left is not None else None
        if left is None or statement is None or statement.type != "assignment_statement":
            return None
        return _assignment(statement, left, parent, escapes)
    if parent.type == "unary_expression":
        return Write(parent, WriteKind.ADDRESS, escapes=escapes)
    if parent.type == "argument_list":  # only the first argument of a call: `maps.Copy(x, src)` fills x
        call = parent.parent
        function = call.child_by_field_name("function") if call is not None else None
        is_copy = function is not None and parser.text(function) in MAP_COPIES
        return Write(call, WriteKind.COPY, escapes=escapes) if call is not None and is_copy else None
    if parent.type in ("inc_statement", "dec_statement"):
        return Write(parent, WriteKind.OTHER, escapes=escapes)
    if parent.type == "index_expression":  # `x[key] = value`, the index expression one of the left side's
        left = parent.parent
        statement = left.parent if left is not None else None
        if left is None or statement is None or statement.type != "assignment_statement":
            return None
        return Write(statement, WriteKind.INDEX, parser.named(left).index(parent), escapes)
    statement = parent.parent
    if parent.type != "expression_list" or statement is None or statement.type != "assignment_statement":
        return None
    return _assignment(statement, parent, name, escapes)


def _assignment(statement: tree_sitter.Node, left: tree_sitter.Node, written: tree_sitter.Node, escapes: bool) -> Write:
    """`x = value` (or `*x = value`) with `written` among the left side's expressions; `x += …` is not evaluated."""
    operator = next((child.type for child in statement.children if not child.is_named), "")
    if operator != "=":
        return Write(statement, WriteKind.OTHER, escapes=escapes)
    return Write(statement, WriteKind.ASSIGN, parser.named(left).index(written), escapes)


def repeats_before(write: Write, at: int) -> bool:
    """Whether a write placed after byte `at` can still run before it: both in one loop (`if seen { … };
    seen = true`)."""
    current = write.node.parent
    while current is not None and current.type not in FUNCTIONS:
        if current.type == "for_statement" and current.start_byte <= at < current.end_byte:
            return True
        current = current.parent
    return False
