"""Typed client-go clients of one kind held in a struct field or a map (`s.pods.List(…)`, `j.podInterfaces[""]`,
of type `typedcorev1.PodInterface`), or given as a parameter: their namespace is the one of the
`cs.CoreV1().Pods(ns)` the module stores there or its callers pass, known once every file's writes and calls
are."""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter

from watchlint.go import parser
from watchlint.go.declarations import FunctionKey
from watchlint.go.model import TYPED_CLIENTS, TypeRef
from watchlint.go.resolve import assigned_to


@dataclass(frozen=True, slots=True)
class HeldClient:
    """Where a site's typed client is read from: the field (of `owner`, or its items with `elements`), the key
    the site reads an item by (`""`), and the accessor the stored clients must come from (`Pods`); or the
    parameter of a function that is given it (`parameter`: the function and the parameter's index)."""

    owner: TypeRef | None
    name: str
    elements: bool
    key: str | None
    plural: str
    parameter: tuple[FunctionKey, int] | None = None


def typed_accessor(typed: TypeRef | None) -> str | None:
    """`CoreV1` for a type of client-go's typed clients (`typedcorev1.PodInterface`, `*CoreV1Client`)."""
    if typed is None or not typed.package.startswith(TYPED_CLIENTS):
        return None
    group, version = typed.package.split("/")[-2:]
    return group.capitalize() + version.capitalize()


def kind_client(typed: TypeRef | None) -> str | None:
    """The kind a typed client of one kind is for (`Pod` of `PodInterface`); None for another type."""
    if typed is None or typed_accessor(typed) is None or not typed.name.endswith("Interface"):
        return None
    return typed.name.removesuffix("Interface") or None


def read_key(operand: tree_sitter.Node) -> str | None:
    """The key a map item is read by (`""` of `m[""]`), as written; None for a field read whole."""
    index = operand.child_by_field_name("index") if operand.type == "index_expression" else None
    return parser.text(index) if index is not None else None


def same_key(value: tree_sitter.Node, key: str | None) -> bool:
    """Whether a value stored in a map may be the item read by `key`: the same literal key, or, for a key that
    is a variable, any key but a literal (`m[""]` holds the all-namespaces client, `m[ns]` one namespace's)."""
    if key is None:
        return True
    written = _written_key(value)
    if written is None:
        return True
    if _is_literal(key):
        return written == key
    return not _is_literal(written)


def _written_key(value: tree_sitter.Node) -> str | None:
    """The key a value is stored under: `m[key] = value`, or `{key: value}` of a map literal."""
    target = assigned_to(value)
    if target is not None and target.type == "index_expression":
        index = target.child_by_field_name("index")
        return parser.text(index) if index is not None else None
    element = value.parent
    if element is not None and element.type == "literal_element":
        element = element.parent
    if element is not None and element.type == "keyed_element":
        first = parser.first_named(element)
        if first is not None and first.type == "literal_element":
            first = parser.first_named(first)
        return parser.text(first) if first is not None else None
    return None


def _is_literal(key: str) -> bool:
    return key[:1] in ('"', "`")
