"""Walk a libcst tree in source order without rebuilding it.

libcst's own `node.visit(visitor)` rebuilds every node it passes (and validates each rebuilt one), even for a
read-only CSTVisitor; on operator code that cost nine times what this walk does. The walk drives the same
CSTVisitor protocol (`on_visit` → `visit_<Node>`, False skips the children; `on_leave` → `leave_<Node>`,
called for every visited node), over the syntax nodes only: whitespace, comments, brackets, commas and the
like, which the front-end never looks at, are not visited. Children come in the order libcst visits them,
which is source order; tests/test_python_walk.py compares both walks on real code.
"""

from __future__ import annotations

import dataclasses
from typing import TypeGuard

import libcst

# Fields that hold formatting, never syntax the analysis reads.
_FORMATTING_FIELDS = frozenset(
    {
        "leading_lines",
        "lines_after_decorators",
        "lpar",
        "rpar",
        "lbrace",
        "rbrace",
        "lbracket",
        "rbracket",
        "comma",
        "semicolon",
        "colon",
        "first_colon",
        "second_colon",
        "equal",
        "dot",
        "header",
        "footer",
        "trailing_whitespace",
        "newline",
        "empty_lines",
        "first_line",
        "last_line",
        "comment",
        "posonly_ind",
        "trailing_comma",
        "relative",
    }
)
_FORMATTING_PREFIXES = ("whitespace", "leading_whitespace")

# Nodes whose dataclass fields are not declared in source order.
_SOURCE_ORDER: dict[type[libcst.CSTNode], tuple[str, ...]] = {
    libcst.FunctionDef: ("decorators", "asynchronous", "name", "type_parameters", "params", "returns", "body"),
    libcst.ClassDef: ("decorators", "name", "type_parameters", "bases", "keywords", "body"),
    libcst.IfExp: ("body", "test", "orelse"),
    libcst.Arg: ("keyword", "value"),
    libcst.ExceptHandler: ("type", "name", "body"),
    libcst.ExceptStarHandler: ("type", "name", "body"),
    libcst.MatchCase: ("pattern", "guard", "body"),
    libcst.Parameters: ("posonly_params", "params", "star_arg", "kwonly_params", "star_kwarg"),
    libcst.With: ("asynchronous", "items", "body"),
    libcst.For: ("asynchronous", "target", "iter", "body", "orelse"),
    libcst.CompFor: ("asynchronous", "target", "iter", "ifs", "inner_for_in"),
}
_fields_of: dict[type[libcst.CSTNode], tuple[str, ...]] = {}


def _syntax_fields(node_type: type[libcst.CSTNode]) -> tuple[str, ...]:
    names = _fields_of.get(node_type)
    if names is None:
        names = _SOURCE_ORDER.get(node_type) or tuple(
            field.name
            for field in dataclasses.fields(node_type)
            if field.name not in _FORMATTING_FIELDS and not field.name.startswith(_FORMATTING_PREFIXES)
        )
        _fields_of[node_type] = names
    return names


_is_node_type: dict[type, bool] = {}


def _is_node(value: object) -> TypeGuard[libcst.CSTNode]:
    """isinstance(value, libcst.CSTNode), remembered per type: CSTNode is an ABC, and ABC checks are slow."""
    value_type = type(value)
    known = _is_node_type.get(value_type)
    if known is None:
        known = _is_node_type[value_type] = issubclass(value_type, libcst.CSTNode)
    return known


def children(node: libcst.CSTNode) -> list[libcst.CSTNode]:
    """The node's syntax children in source order."""
    found: list[libcst.CSTNode] = []
    for name in _syntax_fields(type(node)):
        value = getattr(node, name, None)
        if type(value) is tuple or type(value) is list:
            found.extend(item for item in value if _is_node(item))
        elif _is_node(value):
            found.append(value)
    return found


def preorder(root: libcst.CSTNode) -> tuple[list[libcst.CSTNode], dict[libcst.CSTNode, libcst.CSTNode]]:
    """Every syntax node under and including `root` in source order (the order libcst's visitor enters them),
    and each one's parent (`root` has none)."""
    order: list[libcst.CSTNode] = []
    parents: dict[libcst.CSTNode, libcst.CSTNode] = {}
    pending = [root]
    while pending:
        node = pending.pop()
        order.append(node)
        found = children(node)
        if found:
            for child in found:
                parents[child] = node
            found.reverse()
            pending.extend(found)
    return order, parents


def walk(root: libcst.CSTNode, visitor: libcst.CSTVisitor) -> None:
    """`root.visit(visitor)` for a read-only visitor, without recursion and without rebuilding the tree."""
    pending: list[tuple[libcst.CSTNode, bool]] = [(root, False)]
    while pending:
        node, leaving = pending.pop()
        if leaving:
            visitor.on_leave(node)
            continue
        pending.append((node, True))
        if visitor.on_visit(node):
            pending.extend((child, False) for child in reversed(children(node)))
