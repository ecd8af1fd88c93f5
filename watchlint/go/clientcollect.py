"""What each client-typed struct field, package variable and parameter of a module receives, recorded from every
file into the client graph's tables before any reference is resolved (clients)."""

from __future__ import annotations

import tree_sitter

from watchlint.go import parser
from watchlint.go.clientrefs import PACKAGE_SCOPE, Known
from watchlint.go.clients import ClientGraph
from watchlint.go.declarations import resolve_type
from watchlint.go.model import GoFile, TypeRef, is_client_type
from watchlint.go.resolve import keyed_elements
from watchlint.go.scope import in_nil_test


def collect(graph: ClientGraph, file: GoFile) -> None:
    """Record what every client-typed field and parameter receives in this file."""
    _literals(graph, file)
    _assignments(graph, file)
    _package_variables(graph, file)
    _calls(graph, file)


def _literals(graph: ClientGraph, file: GoFile) -> None:
    resolver = graph.resolver
    client_fields = graph.client_field_names()
    for literal in file.nodes("composite_literal"):
        keyed = keyed_elements(literal)
        if keyed and not any(key in client_fields for key, _ in keyed):
            continue  # typing the literal costs a scope lookup; most set no client field
        elements = keyed or resolver.positional_elements(file, literal)  # `&Controller{cli}`: fields by position
        if not any(key in client_fields for key, _ in elements):
            continue
        type_ref = resolver.type_of(file, literal)
        if type_ref is None:
            continue
        struct = resolver.declarations.unalias(type_ref.base)
        fields = {info.name: info for info in resolver.declarations.structs.get(struct, ())}
        for key, value in elements:
            info = fields.get(key)
            if info is not None and graph.is_client_like(info.type):
                graph.record(graph.field_values, (struct, key), file, value)


def _assignments(graph: ClientGraph, file: GoFile) -> None:
    resolver = graph.resolver
    client_fields = graph.client_field_names()
    for _, _, targets, values in file.assignments():
        for position, left in enumerate(targets):
            if left.type == "index_expression":  # `p.clients[token] = c`: an item of a map or list of clients
                left = left.child_by_field_name("operand") or left
            field = left.child_by_field_name("field") if left.type == "selector_expression" else None
            if field is None or parser.text(field) not in client_fields or not values:
                continue
            located = resolver.selected_field(file, left)
            if located is None or not graph.is_client_like(located[1].type):
                continue
            key = (located[0], parser.text(field))
            fallback = in_nil_test(left, parser.text(left), is_nil=True)  # a default for a field left unset
            graph.record_target(
                graph.field_values, key, file, values, len(targets), position, fallback or _on_error(left)
            )


def _package_variables(graph: ClientGraph, file: GoFile) -> None:
    """`Client, err = client.New(…)` in some function, or `common.Client = …` in another package: a package-level
    client gets its value."""
    resolver = graph.resolver
    for _, _, names, values in file.assignments():
        for position, name in enumerate(names):
            named = resolver.module_variable(file, name) if values else None
            if named is None:
                continue
            variable = resolver.declarations.variables[named]
            if not graph.is_client_like(resolve_type(variable.type_node, variable.file)):
                continue
            key = (TypeRef(named[0], PACKAGE_SCOPE), named[1])
            graph.record_target(graph.field_values, key, file, values, len(names), position, _on_error(name))


def _on_error(node: tree_sitter.Node) -> bool:
    """Whether a write sits where an error was returned (`if err != nil { direct = c } else { direct = d }`,
    addon-controller's fallback where client.New fails): the default deployment does not fail, so the value
    written there is a fallback, which other values of the field or variable outweigh."""
    return in_nil_test(node, "err", is_nil=False)


def _calls(graph: ClientGraph, file: GoFile) -> None:
    resolver = graph.resolver
    wanted = graph.functions_with_client_parameters()
    if not wanted:
        return
    for called in file.calls():
        if called.name not in wanted:
            continue
        call, arguments = called.node, called.arguments
        if arguments is None:
            continue
        found = resolver.callee(file, call)
        values = parser.named(arguments)
        for info in [found] if found is not None else graph.methods.dispatched(file, called):
            for parameter in info.parameters:
                if parameter.index < len(values) and graph.is_client_like(parameter.type):
                    graph.record(graph.call_arguments, (info.key, parameter.index), file, values[parameter.index])


# what stores an item into a container of another module (sync.Map, ttlcache.Cache, an LRU), its key first
_CONTAINER_WRITES = frozenset({"Store", "LoadOrStore", "Swap", "Set", "Add", "Put"})


def collect_containers(graph: ClientGraph, file: GoFile) -> None:
    """`c.internal.Set(key, value, ttl)`: a client stored into a field of another module's container type (kyma's
    ttlcache of one client per remote cluster); what reads the field's items reads those clients. Collected from
    every file before `collect`, which resolves what the functions reading them return."""
    resolver = graph.resolver
    for called in file.calls():
        container = called.operand
        if called.name not in _CONTAINER_WRITES or container is None or container.type != "selector_expression":
            continue
        values = parser.named(called.arguments) if called.arguments is not None else []
        if len(values) < 2:
            continue
        located = resolver.selected_field(file, container)
        held = located[1].type if located is not None else None
        if located is None or held is None or resolver.declarations.declares_type(held.base):
            continue  # a container of the module's own has methods of its own, followed as any
        name = located[1].name
        for value in values[1:]:
            # a client by its type (a wrapper struct of the module's is followed by its type already, what its
            # client field holds), or one built in place (`c, err := client.New(…)`, whose type is not told)
            if is_client_type(resolver.type_of(file, value)) or isinstance(graph.ref_of(file, value), Known):
                graph.container_fields.add((located[0], name))
                graph.record(graph.field_values, (located[0], name), file, value)
