"""Whether a watch's handler or predicates read its objects as the kind's typed struct (`pod, ok :=
obj.(*corev1.Pod)`, `predicate.TypedFuncs[*corev1.Pod]`): under builder.OnlyMetadata they would be handed
metav1.PartialObjectMetadata, on which their type assertions fail without an error, dropping what they read typed
(or panic, asserted without `ok`), so that fix is not offered.

The functions followed are those written in the watch's arguments (function literals), named there (module
functions and methods, `r.isRelevant`), or held in a local those arguments name, and the functions those name in turn;
where those arguments name a parameter of the function around the watch, what its callers pass there
(`handler_parameters`).
"""

from __future__ import annotations

import tree_sitter

from watchlint.go import parser
from watchlint.go.declarations import FunctionKey, resolve_type
from watchlint.go.model import GoFile
from watchlint.go.resolve import ObjectRef, Resolver
from watchlint.go.values import ValueTracer

_ASSERTED = "[(type_assertion_expression type: (_) @type) (type_case type: (_) @type) (type_arguments (_) @type)]"
_NAMED = "[(identifier) @name (selector_expression) @name]"
_PASSED = "(argument_list (identifier) @name)"
_LEVELS = 2  # functions named by the functions the watch names, and no further


# how a handler reading the kind typed fares with metav1.PartialObjectMetadata, worst first: an assertion without
# `ok` panics; one with `ok`, or a type switch, drops the event; a type argument (`TypedFuncs[*corev1.Pod]`) fails
PANICS, DROPS, TYPED = "panics", "drops", "typed"


class TypedReads:
    """How the code a watch is given reads its objects, the functions scanned kept for the module's other
    watches: a module's watches name the same few handlers and predicates."""

    def __init__(self, resolver: Resolver, values: ValueTracer) -> None:
        self.resolver = resolver
        self.values = values
        # by a scanned node's file and byte range: the module functions it names; the types it asserts, with how
        self._named: dict[tuple[str, int, int], list[tuple[GoFile, tree_sitter.Node]]] = {}
        self._asserted: dict[tuple[str, int, int], list[tuple[tuple[str, str] | None, str]]] = {}

    def reads_typed(self, file: GoFile, arguments: list[tree_sitter.Node], watched: ObjectRef) -> str:
        """How the code a watch is given asserts or instantiates its objects as the watched kind's type (PANICS,
        DROPS or TYPED); "" where it does not."""
        if not watched.package:
            return ""
        scanned: list[tuple[GoFile, tree_sitter.Node]] = []
        for argument in arguments:
            scanned.append((file, argument))
            held = self.values.defined_as(file, argument, 2) if argument.type == "identifier" else None
            if held is not None:
                scanned.append((file, held))
        seen = {(scanned_file.path, node.start_byte) for scanned_file, node in scanned}
        pending = list(scanned)
        for _ in range(_LEVELS):
            found: list[tuple[GoFile, tree_sitter.Node]] = []
            for scanned_file, node in pending:
                for info_file, info_node in self._functions_named(scanned_file, node):
                    if (info_file.path, info_node.start_byte) not in seen:
                        seen.add((info_file.path, info_node.start_byte))
                        found.append((info_file, info_node))
            scanned.extend(found)
            pending = found
        wanted = (watched.package, watched.kind)
        return worst({how for at, node in scanned for kind, how in self._asserts(at, node) if kind == wanted})

    def _functions_named(self, file: GoFile, node: tree_sitter.Node) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The module functions and methods a node names, in the order it names them."""
        key = (file.path, node.start_byte, node.end_byte)
        if key not in self._named:
            infos = (self.resolver.function_named(file, name) for name in parser.captures(_NAMED, node).get("name", []))
            self._named[key] = [(info.file, info.node) for info in infos if info is not None]
        return self._named[key]

    def _asserts(self, file: GoFile, node: tree_sitter.Node) -> list[tuple[tuple[str, str] | None, str]]:
        """The types a node asserts or instantiates, as (package, name), each with how it fares (`_how`)."""
        key = (file.path, node.start_byte, node.end_byte)
        if key not in self._asserted:
            found = []
            for type_node in parser.captures(_ASSERTED, node).get("type", []):
                asserted = resolve_type(type_node, file)
                found.append(((asserted.package, asserted.name) if asserted is not None else None, _how(type_node)))
            self._asserted[key] = found
        return self._asserted[key]


def worst(uses: set[str]) -> str:
    """The worst of several ways of reading the objects typed; "" for none."""
    return next((use for use in (PANICS, DROPS, TYPED) if use in uses), "")


def handler_parameters(
    values: ValueTracer, file: GoFile, arguments: list[tree_sitter.Node]
) -> list[tuple[FunctionKey, int]]:
    """The parameters of the function around a watch that its arguments are, or hand to a call, there or in the
    local they name (argocd-operator's `h := handler.EnqueueRequestsFromMapFunc(mapper)` with `mapper
    handler.MapFunc` a parameter): the functions its callers pass there handle the objects too."""
    found: list[tuple[FunctionKey, int]] = []
    for argument in arguments:
        names = [argument] if argument.type == "identifier" else []
        held = values.defined_as(file, argument, 2) if argument.type == "identifier" else None
        for node in (argument, held):
            names.extend(parser.captures(_PASSED, node).get("name", []) if node is not None else [])
        for name in names:
            parameter = values.helper_parameter(file, name)
            if parameter is not None and parameter not in found:
                found.append(parameter)
    return found


def _how(type_node: tree_sitter.Node) -> str:
    """How the use of a type fails on another one: `obj.(*T)` alone panics, `t, ok := obj.(*T)` and a type
    switch's case do not match, a type argument is another type."""
    use = type_node.parent
    if use is None or use.type == "type_arguments":
        return TYPED
    if use.type == "type_case":
        return DROPS
    values = use.parent
    statement = values.parent if values is not None and values.type == "expression_list" else None
    left = statement.child_by_field_name("left") if statement is not None else None
    return DROPS if left is not None and len(parser.named(left)) == 2 else PANICS
