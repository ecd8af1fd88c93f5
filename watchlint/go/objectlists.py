"""The objects a list of client.Objects holds (DisableFor, cache options): written in a literal, appended,
held in a variable, returned by a helper, or picked by name from a table with names the default deployment
gives (`--disable-cache-for=secret`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import tree_sitter

from watchlint.go import parser
from watchlint.go.deployment import Evaluator
from watchlint.go.known import Val
from watchlint.go.model import GoFile
from watchlint.go.resolve import Resolver, append_arguments, keyed_entries, literal_items
from watchlint.go.scope import named_results, returned_values

MAX_HELPER_DEPTH = 3  # helpers returning the objects of helpers
MAX_HOPS = 3  # variables followed to the literal they hold


@dataclass(frozen=True, slots=True)
class ObjectLists:
    """Follows the object lists of one module."""

    resolver: Resolver
    evaluator: Evaluator

    def objects_in(
        self, file: GoFile, value: tree_sitter.Node, depth: int
    ) -> Iterator[tuple[GoFile, tree_sitter.Node]]:
        """The object expressions of a `[]client.Object{…}` literal, an `append(…)`, a local variable, or
        what a function of the module returns (`DisableFor: cache.ResourcesToDisable()`), with their file."""
        if depth > MAX_HELPER_DEPTH:
            return
        if value.type == "composite_literal":
            yield from ((file, item) for item in literal_items(value))
        elif (appended := append_arguments(value)) is not None:
            for argument in appended[1:]:
                yield from self._appended(file, argument, depth)
        elif value.type == "call_expression":
            info = self.resolver.callee(file, value)
            helper = info.file if info is not None else file
            returned = returned_values(info.node) if info is not None else []
            if info is not None and not returned:  # `func f() (objects []client.Object) { …; return }`
                returned = named_results(info.node)[:1]
            for item in returned:
                yield from self.objects_in(helper, item, depth + 1)
        elif value.type == "identifier":
            yield from self._objects_in_variable(file, value, depth)

    def passed(self, file: GoFile, value: tree_sitter.Node) -> list[list[tuple[GoFile, tree_sitter.Node]]] | None:
        """Where a list is a parameter of the function around it (tidb's `newClient(ctx, cfg, disabledFor)`),
        the objects each call passes, where every call writes its list out; None otherwise."""
        declaration = self.resolver.declaration(file, value) if value.type == "identifier" else None
        key = self.resolver.function_key(file, value) if declaration is not None else None
        if declaration is None or declaration.parameter_index < 0 or declaration.variadic or key is None:
            return None
        calls = self.evaluator.calls.passing_calls(key)
        passed = []
        for caller, call in calls:
            arguments = parser.named(call.child_by_field_name("arguments") or call)
            argument = arguments[declaration.parameter_index] if declaration.parameter_index < len(arguments) else None
            if argument is None or argument.type != "composite_literal":
                return None
            passed.append(list(self.objects_in(caller, argument, 0)))
        return passed or None

    def _appended(self, file: GoFile, item: tree_sitter.Node, depth: int) -> Iterator[tuple[GoFile, tree_sitter.Node]]:
        looked_up = self._looked_up(file, item)
        if looked_up is not None:
            yield from self._objects_by_name(file, *looked_up)
        elif item.type == "composite_literal":
            yield from self.objects_in(file, item, depth)
        else:
            yield file, item

    def _looked_up(self, file: GoFile, item: tree_sitter.Node) -> tuple[tree_sitter.Node, tree_sitter.Node] | None:
        """The map and key of an object looked up by name: `objectsByName[name]`, or a variable holding one
        (`o, ok := objectsByName[name]`)."""
        if item.type == "identifier":
            declaration = self.resolver.declaration(file, item)
            item = declaration.value_node if declaration is not None and declaration.value_node is not None else item
        if item.type != "index_expression":
            return None
        table, key = item.child_by_field_name("operand"), item.child_by_field_name("index")
        return (table, key) if table is not None and key is not None else None

    def _objects_by_name(
        self, file: GoFile, table: tree_sitter.Node, key: tree_sitter.Node
    ) -> Iterator[tuple[GoFile, tree_sitter.Node]]:
        """The objects of a name -> object table that the names in the default deployment pick: a flag like
        `--disable-cache-for=configmap,secret` split and looked up in a loop. Names that cannot be told
        yield the lookup itself, which no kind matches (the list's contents are then not visible)."""
        names = self._names(file, key)
        literal = self._table(file, table)
        if names is None or literal is None:
            yield file, key
            return
        table_file, entries = literal
        for entry_key, entry_value in entries:
            name = self.evaluator.value(table_file, entry_key, {}, 0)
            if isinstance(name, Val) and name.value in names:
                yield table_file, entry_value

    def _names(self, file: GoFile, key: tree_sitter.Node) -> list[object] | None:
        """The names a lookup's key takes: its value, or each item of the list a loop ranges over."""
        declaration = self.resolver.declaration(file, key) if key.type == "identifier" else None
        node = declaration.ranged_node if declaration is not None and declaration.ranged_node is not None else key
        value = self.evaluator.value_at(file, node)
        if not isinstance(value, Val):
            return None
        if node is key:
            return [value.value]
        return list(value.value) if isinstance(value.value, list | tuple) else None

    def _table(
        self, file: GoFile, table: tree_sitter.Node
    ) -> tuple[GoFile, list[tuple[tree_sitter.Node, tree_sitter.Node]]] | None:
        """The entries of the map literal a table variable (local or of the package) holds."""
        found = literal_of(self.resolver, file, table, hops=1) if table.type == "identifier" else None
        if found is None or found[1].type != "composite_literal":
            return None
        return found[0], keyed_entries(found[1])

    def _objects_in_variable(
        self, file: GoFile, variable: tree_sitter.Node, depth: int
    ) -> Iterator[tuple[GoFile, tree_sitter.Node]]:
        declaration = self.resolver.declaration(file, variable)
        if declaration is not None and declaration.value_node is not None:
            yield from self.objects_in(file, declaration.value_node, depth)
        scope = self.resolver.scope(file, variable)
        for assigned in scope.assignments.get(parser.text(variable), []) if scope is not None else []:
            # `list = append(list, &corev1.Secret{})`; `list = []client.Object{…}` (under a flag, say)
            if assigned.type in ("call_expression", "composite_literal"):
                yield from self.objects_in(file, assigned, depth)


def literal_of(
    resolver: Resolver, file: GoFile, node: tree_sitter.Node, hops: int = MAX_HOPS
) -> tuple[GoFile, tree_sitter.Node] | None:
    """The literal an expression is, followed through at most `hops` variables, local or of the package
    (`sel := cache.ByObject{…}` then `&corev1.Secret{}: sel`), with its file; None when it is none."""
    for _ in range(hops + 1):
        if node.type in ("composite_literal", "literal_value"):
            return file, node
        held = resolver.held_value(file, node) if node.type == "identifier" else None
        if held is None:
            return None
        file, node = held
    return None
