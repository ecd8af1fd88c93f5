"""The label an operator marks the objects it creates with, for the label selector a fix proposes: the
standard "who made this" key and the value the code sets it to (volsync's `AddLabel(obj,
OwnedByLabelKey, OwnedByLabelValue)` with `app.kubernetes.io/created-by=volsync`)."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator

import tree_sitter

from watchlint.go import parser
from watchlint.go.callgraph import is_test_code
from watchlint.go.model import GoFile
from watchlint.go.resolve import Resolver, keyed_entries, unquote

MANAGED_BY = "app.kubernetes.io/managed-by"
OWNER_KEYS = (MANAGED_BY, "app.kubernetes.io/created-by")
_NAMES = ("identifier", "selector_expression", "interpreted_string_literal", "raw_string_literal")


def owner_label(files: list[GoFile], resolver: Resolver, operator: str) -> tuple[str, str]:
    """The owner key and value the module's code sets most often, else `managed-by=<operator>`."""
    keys = _key_names(files, resolver)
    if not keys:
        return MANAGED_BY, operator
    found: Counter[tuple[str, str]] = Counter()
    for file in files:
        if is_test_code(file.path):
            continue
        for key, value in _pairs(file):
            if parser.text(key).rsplit(".", 1)[-1] not in keys:
                continue
            named, given = resolver.string_value(file, key), resolver.string_value(file, value)
            if named in OWNER_KEYS and given:
                found[(named, given)] += 1
    return found.most_common(1)[0][0] if found else (MANAGED_BY, operator)


def _key_names(files: list[GoFile], resolver: Resolver) -> frozenset[str]:
    """The texts that may name an owner key: the keys themselves, quoted, and the constants set to them."""
    names = {f'"{key}"' for key in OWNER_KEYS}
    for (_, name), variable in resolver.declarations.variables.items():
        value = variable.value_node
        if value is None or value.type != "interpreted_string_literal":
            continue
        if unquote(parser.text(value)) in OWNER_KEYS:
            names.add(name)
    present = any(key.encode() in file.source.data for file in files for key in OWNER_KEYS)
    return frozenset(names) if present else frozenset()


def _pairs(file: GoFile) -> Iterator[tuple[tree_sitter.Node, tree_sitter.Node]]:
    """Key and value written side by side: map entries, `m[k] = v`, and adjacent call arguments."""
    for literal in file.nodes("composite_literal"):
        kind = literal.child_by_field_name("type")
        if kind is not None and kind.type == "map_type":
            yield from keyed_entries(literal)
    for left, right in file.assignments():
        target, value = parser.named(left)[0], parser.named(right)[0]
        index = target.child_by_field_name("index") if target.type == "index_expression" else None
        if index is not None:
            yield index, value
    for call in file.calls():
        arguments = parser.named(call.arguments) if call.arguments is not None else []
        for key, value in itertools.pairwise(arguments):
            if key.type in _NAMES:
                yield key, value
