"""The event handlers a client-go informer is given, and whether they only filter in the operator.

`inf.Informer().AddEventHandler(cache.FilteringResourceEventHandler{FilterFunc: f, Handler: h})` is the
client-go form of a predicate: the informer still lists and caches every object, and `f` drops events
after that (SPEC §3: WL003). An informer with any other handler processes every object: it is no filter.
"""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter

from watchlint.facts import Evidence
from watchlint.go import parser
from watchlint.go.model import GoFile
from watchlint.go.resolve import Resolver, assigned_to, keyed_elements
from watchlint.go.scope import innermost_function, return_items, return_statements

CLIENT_GO_CACHE = "k8s.io/client-go/tools/cache"
_ADDS = frozenset({"AddEventHandler", "AddEventHandlerWithResyncPeriod", "AddEventHandlerWithOptions"})
_FILTERING = "FilteringResourceEventHandler"
_MAX_HOPS = 4  # variables and helpers followed from the informer to its handlers: `i := f.Secrets(); s := i.Informer()`


def handler_filters(
    resolver: Resolver, file: GoFile, informer: tree_sitter.Node
) -> list[tuple[Evidence, GoFile, tree_sitter.Node]]:
    """The filters of an informer's handlers when each of them is a FilteringResourceEventHandler (at least
    one), each with the file and the handler argument, whose guards decide whether it is added; none when it has
    no handler in sight or one that takes every event. The same expression written again in the function
    (`configmapinformer.Get(ctx)`, `f.Core().V1().Secrets()`) is the same shared informer: its handlers count
    too, as do those a module helper handed the informer adds (kuscia's `c.addConfigMapHandler(informer)`)."""
    handlers = [found for same in _spelled_alike(file, informer) for found in _handlers(resolver, file, same, 0)]
    filters = [(_filtering(resolver, at, handler), at, handler) for at, handler in handlers]
    if not filters or any(found is None for found, _, _ in filters):
        return []
    return [(Evidence(at.span(found), f"`{_shown(found)}`"), at, handler) for found, at, handler in filters if found]


def _handlers(
    resolver: Resolver, file: GoFile, node: tree_sitter.Node, hops: int
) -> Iterator[tuple[GoFile, tree_sitter.Node]]:
    """The handler arguments of the AddEventHandler calls made on an informer expression: on it or its
    `.Informer()` in place, through the variables that hold either, or in a module function it is passed to."""
    current = _method_call_on(node, frozenset({"Informer"})) or node
    added = _method_call_on(current, _ADDS)
    if added is not None:
        arguments = parser.named(added.child_by_field_name("arguments") or added)
        if arguments:
            yield file, arguments[0]
        return
    if hops < _MAX_HOPS and (passed := _passed_to(resolver, file, current, hops)) is not None:
        yield from passed[0]
        if passed[1] is not None:  # a helper giving the informer back (`informer := withAudit(informer)`)
            yield from _handlers(resolver, file, passed[1], hops + 1)
        return
    yield from _held_handlers(resolver, file, current, hops)


def _held_handlers(
    resolver: Resolver, file: GoFile, current: tree_sitter.Node, hops: int
) -> Iterator[tuple[GoFile, tree_sitter.Node]]:
    """The handlers added through the variable or the field an informer expression is assigned to."""
    variable = assigned_to(current)
    if variable is None or variable.type not in ("identifier", "selector_expression") or hops >= _MAX_HOPS:
        return
    if variable.type == "selector_expression":  # `sc.podInformer = f.Core().V1().Pods()`: the field's uses after
        yield from _field_handlers(resolver, file, variable, hops)
        return
    scope = resolver.scope(file, variable)
    if scope is None:
        return
    assigned = resolver.declaration(file, variable)  # `x = value`: declared before; `x := value` declares it
    name = parser.text(variable)
    for reference in parser.identifiers_named(scope.function, name):
        if reference.start_byte <= variable.start_byte:
            continue
        declaration = resolver.declaration(file, reference)
        if declaration is not None and (declaration == assigned or declaration.node == variable):
            yield from _handlers(resolver, file, reference, hops + 1)


def _passed_to(
    resolver: Resolver, file: GoFile, value: tree_sitter.Node, hops: int
) -> tuple[list[tuple[GoFile, tree_sitter.Node]], tree_sitter.Node | None] | None:
    """The handlers a module function adds on the informer it is passed as an argument (`c.addHandler(informer)`,
    or `informer.Informer()`): those added on its parameter, with the call where the function returns the
    parameter (the informer is then the call's result too); None where the value is no such argument."""
    received = resolver.receiving_parameter(file, value, variadic=False)
    if received is None:
        return None
    call, info, parameter = received
    body = info.node.child_by_field_name("body")
    if body is None:
        return None
    parameters = info.node.child_by_field_name("parameters")
    found: list[tuple[GoFile, tree_sitter.Node]] = []
    for reference in parser.identifiers_named(body, parameter.name):
        declaration = resolver.declaration(info.file, reference)
        own = declaration is not None and parameters is not None and parser.encloses(parameters, declaration.node)
        if own and reference.parent is not None and reference.parent.type == "expression_list":
            returned = reference.parent.parent is not None and reference.parent.parent.type == "return_statement"
            if returned:
                continue  # given back: the caller's handlers on the result are looked at instead
        if own:  # the function's own parameter, not a function literal's of the same name
            found.extend(_handlers(resolver, info.file, reference, hops + 1))
    gives_back = any(  # `return informer`, `return informer, nil`
        (items := return_items(statement)) and parser.text(items[0]) == parameter.name
        for statement in return_statements(info.node)
    )
    return found, call if gives_back else None


def _spelled_alike(file: GoFile, informer: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The informer expression, and the calls spelled alike in the function around it, a field the function
    sets read as what it is set to (nested's `c.informer.Events()` beside `informer.Core().V1().Events()`,
    where `c := &controller{informer: informer.Core().V1()}`)."""
    function = innermost_function(informer)
    if function is None or informer.type != "call_expression":
        return [informer]
    given: dict[tuple[str, str], list[tree_sitter.Node]] = {}  # each field's values, looked up once

    def spelled_out(call: tree_sitter.Node) -> str:
        return _spelled_out(file, function, call, given)

    text, name = spelled_out(informer), _called(informer)
    alike = [
        call
        for call in file.nodes("call_expression")
        if call != informer and parser.encloses(function, call) and _called(call) == name
    ]
    return [informer, *(call for call in alike if spelled_out(call) == text)]


def _called(call: tree_sitter.Node) -> str:
    """The name a call calls (`Events` of `f.Core().V1().Events()`)."""
    function = call.child_by_field_name("function")
    named = (
        function.child_by_field_name("field")
        if function is not None and function.type == "selector_expression"
        else function
    )
    return parser.text(named)


def _spelled_out(
    file: GoFile,
    function: tree_sitter.Node,
    call: tree_sitter.Node,
    given: dict[tuple[str, str], list[tree_sitter.Node]],
) -> str:
    """A call's text, the field at the start of its chain (`c.informer`) replaced by the one value the function
    gives it, in a literal of its struct held by the variable (`c := &controller{informer: …}`) or by an
    assignment (`c.informer = …`); `given` keeps the values of the fields looked up so far."""
    text = parser.text(call)
    root = call
    while root.type in ("call_expression", "selector_expression"):
        inner = root.child_by_field_name("function" if root.type == "call_expression" else "operand")
        if inner is None:
            return text
        if root.type == "selector_expression" and inner.type == "identifier":
            break
        root = inner
    if root.type != "selector_expression" or root == call:
        return text
    holder, field = parser.text(root.child_by_field_name("operand")), parser.text(root.child_by_field_name("field"))
    if (holder, field) not in given:
        given[holder, field] = list(_field_values(file, function, holder, field))
    values = given[holder, field]
    if len(values) != 1:
        return text
    return parser.text(values[0]) + text[len(parser.text(root)) :]


def _field_values(file: GoFile, function: tree_sitter.Node, holder: str, field: str) -> Iterator[tree_sitter.Node]:
    """The values a function gives `holder.field`: assigned to it, or keyed in a struct literal `holder` is
    declared or assigned with."""
    for literal in file.nodes("composite_literal"):
        if not parser.encloses(function, literal):
            continue
        value = literal.parent if literal.parent is not None and parser.is_unary(literal.parent, "&") else literal
        target = assigned_to(value)
        if target is not None and parser.text(target) == holder:
            yield from (given for key, given in keyed_elements(literal) if key == field)
    for _, right, _, values in file.assignments():
        for value in values if parser.encloses(function, right) else []:
            target = assigned_to(value)
            if target is not None and parser.text(target) == f"{holder}.{field}":
                yield value


def _field_handlers(
    resolver: Resolver, file: GoFile, field: tree_sitter.Node, hops: int
) -> Iterator[tuple[GoFile, tree_sitter.Node]]:
    """The handlers added through a struct field an informer is stored in, in the function that stores it,
    after the store (spelled alike: `sc.podInformer.Informer().AddEventHandler(…)`)."""
    scope = resolver.scope(file, field)
    if scope is None:
        return
    text = parser.text(field)
    for reference in parser.captures("(selector_expression) @field", scope.function).get("field", []):
        if reference.start_byte > field.start_byte and parser.text(reference) == text:
            yield from _handlers(resolver, file, reference, hops + 1)


def _method_call_on(node: tree_sitter.Node, names: frozenset[str]) -> tree_sitter.Node | None:
    """The call `node.Name(…)` with Name one of `names`, when node is the operand of one."""
    selector = node.parent
    if selector is None or selector.type != "selector_expression" or selector.child_by_field_name("operand") != node:
        return None
    call = selector.parent
    if parser.text(selector.child_by_field_name("field")) not in names or call is None:
        return None
    return call if call.type == "call_expression" and call.child_by_field_name("function") == selector else None


def _filtering(resolver: Resolver, file: GoFile, handler: tree_sitter.Node) -> tree_sitter.Node | None:
    """The FilteringResourceEventHandler literal a handler is, in place or held in a local; None otherwise."""
    if handler.type == "identifier":
        declaration = resolver.declaration(file, handler)
        handler = declaration.value_node if declaration is not None and declaration.value_node is not None else handler
    if handler.type == "unary_expression":
        handler = handler.child_by_field_name("operand") or handler
    type_node = handler.child_by_field_name("type") if handler.type == "composite_literal" else None
    if type_node is None or type_node.type != "qualified_type":
        return None
    package = file.imports.get(parser.text(type_node.child_by_field_name("package")))
    is_filtering = parser.text(type_node.child_by_field_name("name")) == _FILTERING
    return handler if package == CLIENT_GO_CACHE and is_filtering else None


def _shown(literal: tree_sitter.Node) -> str:
    type_node = literal.child_by_field_name("type")
    return f"{parser.text(type_node) if type_node is not None else _FILTERING}{{FilterFunc: …}}"
