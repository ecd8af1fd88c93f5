"""Settings a constructor of another package fails without.

`cfg, err := config.New(&config.Options{SeedNamespace: namespace}); if err != nil { log.Fatal(err) }` where
`config.New` returns an error when `SeedNamespace` is empty, itself or through a validating method of the value
it is given: the program does not run without the setting, so its empty default never reaches the code after.
"""

from __future__ import annotations

from collections.abc import Callable

import tree_sitter

from watchlint.go import parser
from watchlint.go.declarations import FunctionInfo
from watchlint.go.guards import holds_when_empty
from watchlint.go.model import GoFile
from watchlint.go.pending import operand_of
from watchlint.go.resolve import Resolver, keyed_elements
from watchlint.go.scope import return_items, statements


def required_by_a_constructor(
    resolver: Resolver, files: list[GoFile], names: set[str], exits: Callable[[tree_sitter.Node], bool]
) -> bool:
    """Whether these files write one of `names` (the variables a flag fills) into a field of a struct literal
    handed to a module function of another package that fails without the field, and stop on its error (`exits`:
    whether a call ends the program)."""
    for file in files:
        for literal in file.nodes("composite_literal"):
            keys = [key for key, value in keyed_elements(literal) if parser.text(value).lstrip("*") in names]
            handed = _handed_to(resolver, file, literal) if keys else None
            if handed is None or not _stops_on_its_error(handed[0], exits):
                continue
            info, parameter = handed[1], handed[2]
            if any(_fails_without(resolver, info, parameter, key, 1) for key in keys):
                return True
    return False


def _handed_to(
    resolver: Resolver, file: GoFile, literal: tree_sitter.Node
) -> tuple[tree_sitter.Node, FunctionInfo, str] | None:
    """The call a literal (or its address) is an argument of, the module function of another package it calls,
    and the name of the parameter taking it."""
    argument = literal.parent if literal.parent is not None and parser.is_unary(literal.parent, "&") else literal
    received = resolver.receiving_parameter(file, argument, variadic=False)
    if received is None or received[1].file.package_path == file.package_path:
        return None
    return received[0], received[1], received[2].name


def _stops_on_its_error(call: tree_sitter.Node, exits: Callable[[tree_sitter.Node], bool]) -> bool:
    """`x, err := call(…)` followed by `if err != nil { log.Fatal(…) }`: the program ends on the call's error."""
    statement = call.parent.parent if call.parent is not None else None
    if statement is None or statement.type not in ("short_var_declaration", "assignment_statement"):
        return False
    targets = parser.named(statement.child_by_field_name("left") or statement)
    following = statement.next_named_sibling
    condition = following.child_by_field_name("condition") if following is not None else None
    if not targets or following is None or following.type != "if_statement" or condition is None:
        return False
    if " ".join(parser.text(condition).split()) != f"{parser.text(targets[-1])} != nil":
        return False
    block = following.child_by_field_name("consequence")
    calls = parser.captures("(call_expression) @call", block).get("call", []) if block is not None else []
    return any(exits(inner) for inner in calls)


def _fails_without(resolver: Resolver, info: FunctionInfo, holder: str, key: str, depth: int) -> bool:
    """Whether a function returns a failure, in its own statements (not under other conditions), where the
    value its parameter `holder` holds leaves `key` empty (`if c.SeedNamespace == "" { return nil, err }`), or
    where a method of that value it calls so (`if err := c.validate(); err != nil { return nil, err }`)."""
    for statement in statements(info.node.child_by_field_name("body")):
        if statement.type != "if_statement":
            continue
        consequence = statement.child_by_field_name("consequence")
        if not any(_returns_an_error(item) for item in statements(consequence)):
            continue
        if holds_when_empty(statement.child_by_field_name("condition")) == f"{holder}.{key}":
            return True
        initializer = statement.child_by_field_name("initializer")
        called = _method_called_on(resolver, info.file, initializer, holder) if initializer is not None else None
        if called is not None and depth > 0 and _fails_without(resolver, called[0], called[1], key, depth - 1):
            return True
    return False


def _returns_an_error(statement: tree_sitter.Node) -> bool:
    """A return whose last value, the error, is not written as nil (`return nil, err`, `return fmt.Errorf(…)`)."""
    items = return_items(statement) if statement.type == "return_statement" else []
    return bool(items) and parser.text(items[-1]) != "nil"


def _method_called_on(
    resolver: Resolver, file: GoFile, statement: tree_sitter.Node, holder: str
) -> tuple[FunctionInfo, str] | None:
    """The module method `holder.method()` an `if` initializer calls, with the name of its receiver."""
    for call in parser.captures("(call_expression) @c", statement).get("c", []):
        operand = operand_of(call)
        if operand is None or parser.text(operand) != holder:
            continue
        info = resolver.callee(file, call)
        receiver = info.node.child_by_field_name("receiver") if info is not None else None
        names = parser.captures("(parameter_declaration name: (identifier) @name)", receiver) if receiver else {}
        found = names.get("name", [])
        if info is not None and found:
            return info, parser.text(found[0])
    return None
