"""pykube (pykube-ng) queries -> list and watch sites.

`Pod.objects(api)` queries the namespace of the API's kubeconfig context unless given `namespace=pykube.all`,
in `objects(…)` or a later `.filter(…)`, whose `selector=` and `field_selector=` narrow it. A query iterated
lists every object it matches on each pass (WL004), one `.watch()`ed streams them (WL001); one asked for a
single object by name (`.get_by_name(n)`, `.get(name=n)`) reads that object only, and `.get(**criteria)`
without a name filters and lists as `.filter(…)` does.
"""

from __future__ import annotations

from dataclasses import replace

import libcst

from watchlint.facts import Mitigation, Operation, Restriction, Site
from watchlint.python.calls import (
    ClientContext,
    Narrowing,
    argument,
    argument_condition,
    client_site,
    keyword,
    restrictions,
)
from watchlint.python.conditions import truth_by_default
from watchlint.python.helpers import passed_every_namespace
from watchlint.python.lightkube_kr8s import resource_class_kind
from watchlint.python.names import constant_string

PYKUBE_CLASSES = ("pykube.",)
PYKUBE_ALL = frozenset({"pykube.all", "pykube.query.all_"})
_OBJECT_FACTORIES = frozenset({"pykube.object_factory", "pykube.objects.object_factory"})
_BY_NAME = frozenset({"get_by_name", "get", "get_or_none"})  # `get` and `get_or_none` by name=
_FILTERS = frozenset({"filter", "get", "get_or_none"})  # the methods taking namespace= and selectors
_SELECTORS = Narrowing((("selector", None), ("field_selector", None)))
_NAMESPACE_POSITION = {"objects": 1, "filter": 0}  # objects(api, namespace), filter(namespace, …)
_CHAIN_LINKS = 8  # methods and wrappers followed from a query


def extract_pykube(context: ClientContext) -> list[Site]:
    sites = []
    for call in context.file.calls:
        func = call.func
        if not isinstance(func, libcst.Attribute) or func.attr.value != "objects":
            continue
        kind = resource_class_kind(context, func.value, PYKUBE_CLASSES) or _factory_kind(context, func.value)
        if kind is not None:
            site = _query_site(context, call, kind)
            if site is not None:
                sites.append(site)
    return sites


def _factory_kind(context: ClientContext, value: libcst.BaseExpression) -> str | None:
    """The kind of a class `pykube.object_factory(api, "v1", "Secret")` builds, named by a constant string."""
    for origin in [value, *context.flow.origins(value)]:
        if not isinstance(origin, libcst.Call) or not context.flow.qualified_names(origin.func) & _OBJECT_FACTORIES:
            continue
        given = argument(origin, "kind", 2)
        kind = constant_string(context.flow, given.value) if given is not None else None
        return context.kinds.python_kind(kind) if kind else None
    return None


def _query_site(context: ClientContext, objects: libcst.Call, kind: str) -> Site | None:
    """The list or watch a query built by `objects(…)` makes, with the calls made on it."""
    chain = _chained(context, objects)
    if any(name in _BY_NAME and (name == "get_by_name" or keyword(call, "name")) for name, call in chain):
        return None  # one object read by its name
    filters = [call for name, call in chain if name in _FILTERS]
    found: list[Restriction] = []
    for call in filters:
        found.extend(restrictions(context, call, kind, _SELECTORS))
    found.extend(_namespace(context, objects, filters, kind))
    is_watch = any(name == "watch" for name, _ in chain)
    site = client_site(context, objects, Operation.WATCH if is_watch else Operation.LIST, kind, found)
    verb = "watch" if is_watch else "query"
    help_text = f"Add .filter(selector=…) or .filter(field_selector=…), or {verb} a single namespace (namespace=…)"
    return replace(site, suggestion=help_text)


def _chained(context: ClientContext, call: libcst.Call) -> list[tuple[str, libcst.Call]]:
    """The methods called on a query (`.filter(…).watch()`), in order: in one expression, through a function
    of the project handed the query (`wrap(Pod.objects(api), request).filter(…)`, taken to return it), and on
    a local holding it (`q = Pod.objects(api); q = q.filter(…)`)."""
    chain: list[tuple[str, libcst.Call]] = []
    node: libcst.CSTNode = call
    for _ in range(_CHAIN_LINKS):
        parent = context.file.parent(node)
        wrapper = context.file.parent(parent) if isinstance(parent, libcst.Arg) and parent.keyword is None else None
        if isinstance(wrapper, libcst.Call) and context.flow.project_function(wrapper.func) is not None:
            node = wrapper
            continue
        outer = context.file.parent(parent) if isinstance(parent, libcst.Attribute) and parent.value is node else None
        if isinstance(parent, libcst.Attribute) and isinstance(outer, libcst.Call) and outer.func is parent:
            chain.append((parent.attr.value, outer))
            node = outer
            continue
        chain.extend(_held_by(context, node))
        break
    return chain


def _held_by(context: ClientContext, query: libcst.CSTNode) -> list[tuple[str, libcst.Call]]:
    """The methods called on the local a query is assigned to (`q = Pod.objects(api)`), and on what it is
    reassigned to from them (`q = q.filter(…)`)."""
    assign = context.file.parent(query)
    target = assign.targets[0].target if isinstance(assign, libcst.Assign) and len(assign.targets) == 1 else None
    if not isinstance(target, libcst.Name):
        return []
    held: list[libcst.CSTNode] = [query]
    found = []
    for call in context.file.calls:  # in source order: a reassignment comes before the calls on its value
        func = call.func
        if not (isinstance(func, libcst.Attribute) and isinstance(func.value, libcst.Name)):
            continue
        if func.value.value == target.value and any(
            any(origin is value for value in held) for origin in context.flow.origins(func.value)
        ):
            found.append((func.attr.value, call))
            held.append(call)
    return found


def _namespace(
    context: ClientContext, objects: libcst.Call, filters: list[libcst.Call], kind: str
) -> list[Restriction]:
    """The namespace the last call naming one gives; none named, the API's own (its kubeconfig context's)."""
    given = [
        (call, position)
        for call, position in [(objects, _NAMESPACE_POSITION["objects"])]
        + [(call, _NAMESPACE_POSITION["filter"]) for call in filters]
        if argument(call, "namespace", position) is not None
    ]
    if not given:
        name = objects.func.attr if isinstance(objects.func, libcst.Attribute) else objects
        return [Restriction(Mitigation.NAMESPACE, kind, context.file.span(name), "the API's namespace")]
    call, position = given[-1]
    namespace = argument(call, "namespace", position)
    assert namespace is not None
    value = namespace.value
    # `namespace or pykube.all`: every namespace where none is given
    values = [value.left, value.right] if isinstance(value, libcst.BooleanOperation) else [value]
    origins = [origin for item in values for origin in (item, *context.flow.origins(item))]
    if any(context.flow.qualified_names(origin) & PYKUBE_ALL for origin in origins):
        return _or_every_namespace(context, call, value, kind)
    found = restrictions(context, call, kind, Narrowing((), ("namespace", position)))
    # a helper's parameter one of its calls gives `pykube.all`: scoped only where callers pass one namespace
    condition = passed_every_namespace(context.flow, value, PYKUBE_ALL, None)
    return [replace(item, condition=item.condition or condition) for item in found] if condition else found


def _or_every_namespace(
    context: ClientContext, call: libcst.Call, value: libcst.BaseExpression, kind: str
) -> list[Restriction]:
    """`namespace or pykube.all`: every namespace where none is given. A namespace given by default scopes the
    query; one empty by default (a setting without a default) scopes it only once given, which the finding
    says; one that cannot be seen, nothing (the query may list everything)."""
    if not isinstance(value, libcst.BooleanOperation) or not isinstance(value.operator, libcst.Or):
        return []
    given, file = value.left, context.flow.owner(call).file
    truth = truth_by_default(context.flow, given)
    if truth is None:
        return []
    span = file.span(given)
    # false by default: the condition argument_condition words for it ("--namespace is set")
    condition = None if truth else argument_condition(context.flow, file, call, given, span, none_raises=False)
    return [Restriction(Mitigation.NAMESPACE, kind, span, f"`namespace={file.code(given)}`", condition=condition)]
