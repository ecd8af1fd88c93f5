"""Option writes nothing reads: a field stored into a local options struct after its last read.

`ctrl.NewManager(cfg, opts)` takes its options by value, so `opts.Cache = cache.Options{…}` written after the
call, or written on a copy (`o := opts`) that no call is given, changes no manager's cache. Only stores whose
target is a field path of a local struct value count (`opts.Cache.DefaultNamespaces = …`): an entry written into
a map (`opts.Cache.ByObject[k] = …`) reaches every copy sharing the map, and a pointer reaches its target.
"""

from __future__ import annotations

import tree_sitter

from watchlint.go import parser
from watchlint.go.model import CR_CACHE, CR_CLIENT, CR_CLUSTER, MANAGER_PACKAGES, GoFile, TypeRef
from watchlint.go.resolve import Resolver
from watchlint.go.scope import Declaration

_FUNCTIONS = frozenset({"function_declaration", "method_declaration", "func_literal"})


def unread_store(resolver: Resolver, file: GoFile, node: tree_sitter.Node) -> bool:
    """Whether `node` lies in a plain `=` store into a field path of a local variable of controller-runtime's
    options (`_value_path`) that no statement reads afterwards: no later mention of the variable reading the
    stored field but other such stores, the whole of a loop holding the store counting as later, and the
    variable's address never taken."""
    statement = _assignment_around(node)
    left = statement.child_by_field_name("left") if statement is not None else None
    targets = parser.named(left) if left is not None else []
    stored = _field_path(targets[0]) if len(targets) == 1 and targets[0].type == "selector_expression" else None
    if statement is None or stored is None:
        return False
    root, fields = stored
    declaration = resolver.declaration(file, root)
    if declaration is None or not _local_struct_value(declaration):
        return False
    if not _value_path(resolver.type_of(file, root), fields):
        return False
    if _inside_function_literal(statement, declaration):
        return False  # a closure may run after later reads, whatever its place in the text
    return not _read_after(resolver, file, statement, declaration, root, fields)


def _read_after(
    resolver: Resolver,
    file: GoFile,
    statement: tree_sitter.Node,
    declaration: Declaration,
    root: tree_sitter.Node,
    fields: tuple[str, ...],
) -> bool:
    """Whether the variable's stored fields may be read after the store, or its address is taken anywhere."""
    function = declaration.node
    while function.parent is not None and function.type not in _FUNCTIONS:
        function = function.parent
    if parser.captures("(goto_statement) @jump", function).get("jump"):
        return True  # a jump back runs the reads before the store again
    later = _loop_start(statement, declaration) or statement.end_byte
    for mention in parser.identifiers_named(function, declaration.name, after=declaration.node.end_byte):
        if mention == root or resolver.declaration(file, mention) is not declaration:
            continue
        selection, read = _selection(mention)
        if _address_taken(mention, selection):
            return True
        # a closure may run after the store whatever its place (`defer func() { run(opts) }()`)
        after = mention.start_byte >= later or _inside_function_literal(mention, declaration)
        if after and not _store_root(mention, selection) and _overlaps(read, fields):
            return True
    return False


# The fields of controller-runtime's option structs that hold a struct value (not a pointer), by the type holding
# them: a store through them stays in the variable. client.Options.Cache is a pointer, which copies share.
_HOLDING_OPTIONS = {"Cache": (CR_CACHE, "Options"), "Client": (CR_CLIENT, "Options")}
_VALUE_FIELDS: dict[tuple[str, str], dict[str, tuple[str, str]]] = {
    **{(package, "Options"): _HOLDING_OPTIONS for package in (*MANAGER_PACKAGES, CR_CLUSTER)},
    (CR_CACHE, "Options"): {},
    (CR_CLIENT, "Options"): {},
    (CR_CLIENT, "CacheOptions"): {},
}


def _value_path(root: TypeRef | None, fields: tuple[str, ...]) -> bool:
    """Whether every field but the last of a path from a variable of controller-runtime's options holds a value,
    so that the store writes into the variable alone (a module's own structs may hold pointers or embed them)."""
    if root is None or root.pointer or root.slice:
        return False
    held: tuple[str, str] | None = (root.package, root.name)
    for name in fields[:-1]:
        held = _VALUE_FIELDS.get(held, {}).get(name) if held is not None else None
    return held is not None and held in _VALUE_FIELDS


def _assignment_around(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The `=` statement storing the value `node` is part of; None past a call, which uses its arguments
    whatever becomes of its result (`holder.Manager = mustManager(ctrl.Options{…})`)."""
    current = node.parent
    while current is not None and current.type not in _FUNCTIONS and current.type != "call_expression":
        if current.type == "assignment_statement":
            operator = current.child_by_field_name("operator")
            return current if operator is not None and parser.text(operator) == "=" else None
        current = current.parent
    return None


def _field_path(target: tree_sitter.Node) -> tuple[tree_sitter.Node, tuple[str, ...]] | None:
    """The variable of `opts.Cache.DefaultNamespaces` and the fields after it; None where the path holds anything
    but field selections."""
    fields: list[str] = []
    current = target
    while current.type == "selector_expression":
        operand = current.child_by_field_name("operand")
        if operand is None:
            return None
        fields.append(parser.text(current.child_by_field_name("field")))
        current = operand
    return (current, tuple(reversed(fields))) if current.type == "identifier" else None


def _selection(mention: tree_sitter.Node) -> tuple[tree_sitter.Node, tuple[str, ...]]:
    """The field selection a mention of the variable starts (`opts.Cache.SyncPeriod`, the mention itself where
    it selects none), and the fields it selects (`opts.LeaderElection` reads that field alone)."""
    fields: list[str] = []
    current = mention
    while current.parent is not None and current.parent.type == "selector_expression":
        if current.parent.child_by_field_name("operand") != current:
            break
        current = current.parent
        fields.append(parser.text(current.child_by_field_name("field")))
    return current, tuple(fields)


def _overlaps(read: tuple[str, ...], stored: tuple[str, ...]) -> bool:
    """Whether a read of one field path sees a store into another: one path leads into the other."""
    shorter = min(len(read), len(stored))
    return read[:shorter] == stored[:shorter]


def _local_struct_value(declaration: Declaration) -> bool:
    """A local declared from a struct literal, a copy of another variable, or `var o T` of a named type."""
    if declaration.parameter_index >= 0 or declaration.is_receiver or declaration.ranged_node is not None:
        return False
    declared = declaration.node.parent
    if declared is not None and declared.type == "parameter_declaration":
        return False  # a named result, which a bare `return` hands back
    value = declaration.value_node
    if value is None:
        written = declaration.type_node
        return written is not None and written.type in ("type_identifier", "qualified_type")
    return value.type in ("composite_literal", "identifier")


def _inside_function_literal(node: tree_sitter.Node, declaration: Declaration) -> bool:
    """Whether a node lies in a function literal within the variable's scope."""
    current = node.parent
    while current is not None and current.type not in ("function_declaration", "method_declaration"):
        if current.type == "func_literal" and current.start_byte > declaration.node.start_byte:
            return True
        current = current.parent
    return False


def _loop_start(statement: tree_sitter.Node, declaration: Declaration) -> int | None:
    """The start of the outermost loop around the store that the variable lives across: its next round reads
    what this one wrote."""
    found = None
    current = statement.parent
    while current is not None and current.type not in _FUNCTIONS:
        if current.type == "for_statement" and current.start_byte > declaration.node.start_byte:
            found = current.start_byte
        current = current.parent
    return found


def _address_taken(mention: tree_sitter.Node, selection: tree_sitter.Node) -> bool:
    """`&opts`, `&opts.Cache` (the mention's `selection`): a pointer into the variable may be read later under
    another name; a method called on it may take its address alike."""
    parent = selection.parent
    if parent is None:
        return False
    if parser.is_unary(parent, "&"):
        return True
    return parent.type == "call_expression" and selection != mention  # `opts.Complete()`


def _store_root(mention: tree_sitter.Node, selection: tree_sitter.Node) -> bool:
    """Whether a mention is the variable of another plain store's field path (`opts.Cache.SyncPeriod = …`, the
    mention's `selection`)."""
    left = selection.parent
    statement = left.parent if left is not None and left.type == "expression_list" else None
    if statement is None or statement.type != "assignment_statement":
        return False
    operator = statement.child_by_field_name("operator")
    return (
        statement.child_by_field_name("left") == left
        and operator is not None
        and parser.text(operator) == "="
        and selection != mention
    )
