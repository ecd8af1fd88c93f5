"""Whether a watch's handler or predicates read its objects as the kind's typed struct (`pod, ok :=
obj.(*corev1.Pod)`, `predicate.TypedFuncs[*corev1.Pod]`): under builder.OnlyMetadata they would be handed
metav1.PartialObjectMetadata, and drop every event without an error (or panic, asserted without `ok`), so that
fix is not offered.

The functions followed are those written in the watch's arguments (function literals), named there (module
functions and methods, `r.isRelevant`), or held in a local those arguments name, and the functions those name in turn.
"""

from __future__ import annotations

import tree_sitter

from watchlint.go import parser
from watchlint.go.declarations import resolve_type
from watchlint.go.model import GoFile
from watchlint.go.resolve import ObjectRef, Resolver
from watchlint.go.values import ValueTracer

_ASSERTED = "[(type_assertion_expression type: (_) @type) (type_case type: (_) @type) (type_arguments (_) @type)]"
_NAMED = "[(identifier) @name (selector_expression) @name]"
_LEVELS = 2  # functions named by the functions the watch names, and no further


def reads_typed(
    resolver: Resolver, values: ValueTracer, file: GoFile, arguments: list[tree_sitter.Node], watched: ObjectRef
) -> bool:
    """Whether the code a watch is given asserts or instantiates its objects as the watched kind's type."""
    if not watched.package:
        return False
    scanned: list[tuple[GoFile, tree_sitter.Node]] = []
    for argument in arguments:
        scanned.append((file, argument))
        held = values.defined_as(file, argument, 2) if argument.type == "identifier" else None
        if held is not None:
            scanned.append((file, held))
    seen = {(scanned_file.path, node.start_byte) for scanned_file, node in scanned}
    pending = list(scanned)
    for _ in range(_LEVELS):
        found: list[tuple[GoFile, tree_sitter.Node]] = []
        for scanned_file, node in pending:
            for name in parser.captures(_NAMED, node).get("name", []):
                info = resolver.function_named(scanned_file, name)
                if info is not None and (info.file.path, info.node.start_byte) not in seen:
                    seen.add((info.file.path, info.node.start_byte))
                    found.append((info.file, info.node))
        scanned.extend(found)
        pending = found
    return any(_asserts(scanned_file, node, watched) for scanned_file, node in scanned)


def _asserts(file: GoFile, node: tree_sitter.Node, watched: ObjectRef) -> bool:
    for type_node in parser.captures(_ASSERTED, node).get("type", []):
        found = resolve_type(type_node, file)
        if found is not None and found.name == watched.kind and found.package == watched.package:
            return True
    return False
