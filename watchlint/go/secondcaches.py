"""Caches built apart from the manager's (`cluster.New`, `cache.New`): which call builds one, its policy key, and
which one a node's options feed (SPEC §1)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import tree_sitter

from watchlint.go import parser
from watchlint.go.model import CR_CACHE, CR_CLUSTER, GoFile
from watchlint.go.pending import uses_in
from watchlint.go.resolve import Resolver, assigned_to
from watchlint.go.scope import innermost_function


def second_cache_key(file: GoFile, call: tree_sitter.Node) -> str:
    """The policy key of a cache built apart from the manager's, by `cluster.New` or `cache.New` (SPEC §1)."""
    return f"{parser.text(call.child_by_field_name('function'))} at {file.path}:{call.start_point.row + 1}"


def is_second_cache(file: GoFile, call: tree_sitter.Node) -> bool:
    """`cluster.New(…)`, or a `cache.New(…)` that is not the manager's own cache being built for NewCache: a
    function given the manager's `cache.Options` (NewCache's signature) builds that one; a helper that builds
    a cache with options of its own (dapr's pod-metadata cache) builds another, even when it returns it."""
    package = _building_package(file, call)
    if package is None:
        return False
    if package == CR_CLUSTER:
        return True
    current = call.parent
    while current is not None and current.type not in ("function_declaration", "method_declaration", "func_literal"):
        current = current.parent
    parameters = current.child_by_field_name("parameters") if current is not None else None
    return parameters is None or not _takes_cache_options(file, parser.text(parameters))


def _building_package(file: GoFile, call: tree_sitter.Node) -> str | None:
    """CR_CLUSTER or CR_CACHE for a call of their `New`, else None."""
    function = call.child_by_field_name("function")
    # the text first: most calls asked of are no `New`, and it is cheaper than taking the selector apart
    if function is None or not (function.text or b"").endswith(b"New") or function.type != "selector_expression":
        return None
    operand = function.child_by_field_name("operand")
    package = file.imports.get(parser.text(operand)) if operand is not None else None
    if parser.text(function.child_by_field_name("field")) != "New" or package not in (CR_CLUSTER, CR_CACHE):
        return None
    return package


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


def cache_fed_by(file: GoFile, resolver: Resolver, node: tree_sitter.Node, hops: int = 2) -> tree_sitter.Node | None:
    """The second cache whose options variable this node sets: `opts := cache.Options{…}` or
    `opts.DefaultNamespaces = …`, then `cache.New(cfg, opts)` in the same function; or the options parameter
    of a cluster's option function (see `cluster_given_option`); or, `hops` deep, a local the options take a
    field from (odigos' `byObject := map[client.Object]cache.ByObject{…}`, then `cache.Options{ByObject:
    byObject}`)."""
    variable = _options_variable(node)
    if variable is None:
        return None
    held = _held_in_options(file, resolver, variable, hops)
    if held is not None:
        return held
    built = next(
        (
            call
            for call, _ in _calls_passing(file, resolver, variable)
            if is_second_cache(file, call) or _calls_a_cache_constructor_value(file, resolver, call)
        ),
        None,
    )
    if built is not None:
        return built
    declaration = resolver.declaration(file, variable)
    if declaration is not None and declaration.parameter_index >= 0:
        return cluster_given_option(file, node)
    return None


def _held_in_options(
    file: GoFile, resolver: Resolver, variable: tree_sitter.Node, hops: int
) -> tree_sitter.Node | None:
    """The second cache fed by an options literal that takes a local as a field's value (`ByObject: byObject`)
    in the local's function."""
    scope = resolver.scope(file, variable) if hops > 0 else None
    if scope is None:
        return None
    declaration = resolver.declaration(file, variable)
    name = parser.text(variable)
    for use in uses_in(scope.function, name):
        value = use.parent if use.parent is not None and use.parent.type == "literal_element" else use
        element = value.parent
        if element is None or element.type != "keyed_element" or element.child_by_field_name("value") != value:
            continue
        found = resolver.declaration(file, use)
        if found is None or (found != declaration and found.node != variable):
            continue
        literal = element.parent.parent if element.parent is not None else None
        if literal is None or literal.type != "composite_literal":
            continue
        built = enclosing_second_cache(file, literal) or cache_fed_by(file, resolver, literal, hops - 1)
        if built is not None:
            return built
    return None


def _calls_a_cache_constructor_value(file: GoFile, resolver: Resolver, call: tree_sitter.Node) -> bool:
    """A call of a `cache.NewCacheFunc` the code holds (`s.newCache(cfg, opts)`, gardener's per-object caches):
    it builds a cache of its own from the options it is given, whichever function the value is."""
    function = call.child_by_field_name("function")
    if function is None or function.type not in ("identifier", "selector_expression"):
        return False
    held = resolver.type_of(file, function)
    return held is not None and held.package == CR_CACHE and held.name == "NewCacheFunc"


def cluster_given_option(file: GoFile, node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The `cluster.New(cfg, option)` the option function around a node is given to (`func(o *cluster.Options)
    { o.Cache.DefaultNamespaces = …; o.NewClient = … }`), written there or held in a local of the function
    building the cluster."""
    option = innermost_function(node)
    outer = innermost_function(option.parent) if option is not None and option.parent is not None else None
    if option is None or option.type != "func_literal" or outer is None:
        return None
    held = assigned_to(option)
    name = parser.text(held) if held is not None and held.type == "identifier" else None
    for call in file.nodes_within("call_expression", outer):
        arguments = parser.named(call.child_by_field_name("arguments") or call)
        if is_second_cache(file, call) and any(item == option or parser.text(item) == name for item in arguments):
            return call
    return None


def cache_built_by_helper(
    file: GoFile, resolver: Resolver, node: tree_sitter.Node
) -> tuple[GoFile, tree_sitter.Node] | None:
    """The second cache a module helper builds with options written as its argument (`util.NewCache(cfg,
    &cache.Options{…})` over `cache.New(conf, *opts)`), or held in a local its function passes so, with the
    helper's file: called so, rather than given as the manager's NewCache, the helper builds a cache of its own
    whatever its signature."""
    passed = _written_as_argument(node)
    if passed is None and (variable := _options_variable(node)) is not None:
        passed = next(_calls_passing(file, resolver, variable), None)
    if passed is None:
        return None
    call, index = passed
    info = resolver.callee(file, call)
    found = info.parameter_at(index) if info is not None else None
    parameter = found.name if found is not None else None
    if info is None or parameter is None:
        return None
    for built in info.file.nodes_within("call_expression", info.node):
        arguments = parser.named(built.child_by_field_name("arguments") or built)
        if _building_package(info.file, built) is not None and any(
            parser.text(item).lstrip("*&") == parameter for item in arguments
        ):
            return info.file, built
    return None


def _written_as_argument(node: tree_sitter.Node) -> tuple[tree_sitter.Node, int] | None:
    """The call whose argument holds a node, and the argument's index, in the same statement."""
    argument, current = node, node.parent
    while current is not None and current.type != "argument_list":
        if current.type in ("function_declaration", "method_declaration", "func_literal", "block"):
            return None
        argument, current = current, current.parent
    if current is None or current.parent is None:
        return None
    index = next((i for i, item in enumerate(parser.named(current)) if item == argument), -1)
    return current.parent, index


def _calls_passing(
    file: GoFile, resolver: Resolver, variable: tree_sitter.Node
) -> Iterator[tuple[tree_sitter.Node, int]]:
    """The calls of its function that pass a local (`cache.New(cfg, opts)`, `helper(cfg, &opts)`), each with the
    argument's index, in the order they are written."""
    scope = resolver.scope(file, variable)
    if scope is None:
        return
    declaration = resolver.declaration(file, variable)  # none where `variable` declares it (`opts := …`)
    name = parser.text(variable)
    for call in file.nodes_within("call_expression", scope.function):
        for index, item in enumerate(parser.named(call.child_by_field_name("arguments") or call)):
            named = item.child_by_field_name("operand") if item.type == "unary_expression" else item
            if named is None or named.type != "identifier" or parser.text(named) != name:
                continue
            found = resolver.declaration(file, named)
            if found is not None and (found == declaration or found.node == variable):
                yield call, index


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
