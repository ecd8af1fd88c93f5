"""ByObject entries a helper writes for the kinds its callers name.

`func restrict(obj client.Object, sel string, m map[client.Object]cache.ByObject) { m[obj] = cache.ByObject{…} }`
and its generic form (`setByObjectFor[corev1.Secret](sel, opts.ByObject)`, whose key is a value of a type
parameter) restrict nothing by themselves: each call restricts the kind it passes, where it calls.
"""

from __future__ import annotations

from collections.abc import Callable

import tree_sitter

from watchlint.go import parser
from watchlint.go.callgraph import CallGraph
from watchlint.go.declarations import FunctionInfo
from watchlint.go.generics import kind_in_type_arguments, of_type_parameter, type_parameter_names
from watchlint.go.model import GoFile
from watchlint.go.resolve import ObjectRef, Resolver
from watchlint.go.scope import Declaration

# what one call of the helper gives as the entry's object, or None
_KindOfCall = Callable[[GoFile, tree_sitter.Node], ObjectRef | None]


def entries_by_callers(
    resolver: Resolver, calls: CallGraph, file: GoFile, key: tree_sitter.Node
) -> list[tuple[GoFile, tree_sitter.Node, ObjectRef]]:
    """For an entry key in a function that is one of its parameters or a value of one of its type
    parameters: each call of the function a binary makes (its file, the call) with the object it names."""
    if key.type != "identifier":
        return []
    function_key = resolver.function_key(file, key)
    info = resolver.declarations.functions.get(function_key) if function_key is not None else None
    declaration = resolver.declaration(file, key)
    if info is None or declaration is None:
        return []
    kind_of = _by_parameter(resolver, info, declaration) or _by_type_argument(resolver, file, info, declaration)
    if kind_of is None:
        return []
    found = []
    for caller_file, call in calls.deployed_callers(info.key):
        named = kind_of(caller_file, call)
        if named is not None:
            found.append((caller_file, call, named))
    return found


def _by_parameter(resolver: Resolver, info: FunctionInfo, declaration: Declaration) -> _KindOfCall | None:
    """`m[obj] = …` with obj a parameter of the function (not of a function literal inside it)."""
    parameters = info.node.child_by_field_name("parameters")
    if declaration.parameter_index < 0 or parameters is None or not parser.encloses(parameters, declaration.node):
        return None
    index = declaration.parameter_index

    def kind_of(caller_file: GoFile, call: tree_sitter.Node) -> ObjectRef | None:
        arguments = parser.named(call.child_by_field_name("arguments") or call)
        return resolver.object_of(caller_file, arguments[index]) if index < len(arguments) else None

    return kind_of


def _by_type_argument(
    resolver: Resolver, file: GoFile, info: FunctionInfo, declaration: Declaration
) -> _KindOfCall | None:
    """`var t T; var obj P = &t; m[obj] = …` with T and P type parameters: the call's type arguments name
    the kind (`setByObjectFor[corev1.Secret](…)`; the pointer type parameter is inferred from T)."""
    type_parameters = type_parameter_names(info.node)
    if not type_parameters or not of_type_parameter(resolver, file, declaration, type_parameters):
        return None

    def kind_of(caller_file: GoFile, call: tree_sitter.Node) -> ObjectRef | None:
        return kind_in_type_arguments(resolver, caller_file, call)

    return kind_of
