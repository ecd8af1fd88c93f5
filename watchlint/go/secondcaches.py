"""Caches built apart from the manager's (`cluster.New`, `cache.New`): which call builds one, its policy key, and
which one a node's options feed (SPEC §1)."""

from __future__ import annotations

import re

import tree_sitter

from watchlint.go import parser
from watchlint.go.model import CR_CACHE, CR_CLUSTER, GoFile
from watchlint.go.resolve import Resolver


def second_cache_key(file: GoFile, call: tree_sitter.Node) -> str:
    """The policy key of a cache built apart from the manager's, by `cluster.New` or `cache.New` (SPEC §1)."""
    return f"{parser.text(call.child_by_field_name('function'))} at {file.path}:{call.start_point.row + 1}"


def is_second_cache(file: GoFile, call: tree_sitter.Node) -> bool:
    """`cluster.New(…)`, or a `cache.New(…)` that is not the manager's own cache being built for NewCache: a
    function given the manager's `cache.Options` (NewCache's signature) builds that one; a helper that builds
    a cache with options of its own (dapr's pod-metadata cache) builds another, even when it returns it."""
    function = call.child_by_field_name("function")
    if function is None or function.type != "selector_expression":
        return False
    operand = function.child_by_field_name("operand")
    package = file.imports.get(parser.text(operand)) if operand is not None else None
    if parser.text(function.child_by_field_name("field")) != "New" or package not in (CR_CLUSTER, CR_CACHE):
        return False
    if package == CR_CLUSTER:
        return True
    current = call.parent
    while current is not None and current.type not in ("function_declaration", "method_declaration", "func_literal"):
        current = current.parent
    parameters = current.child_by_field_name("parameters") if current is not None else None
    return parameters is None or not _takes_cache_options(file, parser.text(parameters))


def _takes_cache_options(file: GoFile, parameters: str) -> bool:
    """Whether a parameter list takes controller-runtime's `cache.Options` (not a type of the module whose
    name ends so)."""
    return any(file.imports.get(alias) == CR_CACHE for alias in re.findall(r"\b(\w+)\.Options\b", parameters))


def enclosing_second_cache(file: GoFile, node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The `cluster.New(…)`/`cache.New(…)` call whose arguments contain a node, if any."""
    current = node.parent
    while current is not None and current.type not in ("function_declaration", "method_declaration"):
        if current.type == "call_expression" and is_second_cache(file, current):
            return current
        current = current.parent
    return None


def cache_fed_by(file: GoFile, resolver: Resolver, node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The second cache whose options variable this node sets: `opts := cache.Options{…}` or
    `opts.DefaultNamespaces = …`, then `cache.New(cfg, opts)` in the same function."""
    variable = _options_variable(node)
    scope = resolver.scope(file, node) if variable is not None else None
    if variable is None or scope is None:
        return None
    declaration = resolver.declaration(file, variable)
    for call in parser.captures("(call_expression) @call", scope.function).get("call", []):
        if not is_second_cache(file, call):
            continue
        arguments = call.child_by_field_name("arguments")
        for argument in parser.named(arguments) if arguments is not None else []:
            if argument.type != "identifier" or parser.text(argument) != parser.text(variable):
                continue
            declared = resolver.declaration(file, argument)
            if declared is not None and (declared == declaration or declared.node == variable):
                return call
    return None


def _options_variable(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The variable an options literal is assigned to, or whose field an assignment sets."""
    current: tree_sitter.Node | None = node
    while current is not None and current.type not in ("function_declaration", "method_declaration", "func_literal"):
        if current.type == "short_var_declaration":
            left = current.child_by_field_name("left")
            return parser.first_named(left)
        if current.type == "assignment_statement":
            left = current.child_by_field_name("left")
            target = parser.first_named(left)
            while target is not None and target.type in ("selector_expression", "index_expression"):
                target = target.child_by_field_name("operand")
            return target if target is not None and target.type == "identifier" else None
        current = current.parent
    return None
