"""pykube (pykube-ng) queries -> list and watch sites.

`Pod.objects(api)` queries the namespace of the API's kubeconfig context unless given `namespace=pykube.all`,
in `objects(…)` or a chained `.filter(…)`, whose `selector=` and `field_selector=` narrow it. A query iterated
lists every object it matches on each pass (WL004), one `.watch()`ed streams them (WL001); one asked for a
single object by name (`.get_by_name(n)`, `.get(name=n)`) reads that object only.
"""

from __future__ import annotations

from dataclasses import replace

import libcst

from watchlint.facts import Mitigation, Operation, Restriction, Site
from watchlint.python.calls import ClientContext, Narrowing, argument, client_site, keyword, restrictions
from watchlint.python.lightkube_kr8s import resource_class_kind

PYKUBE_CLASSES = ("pykube.",)
PYKUBE_ALL = frozenset({"pykube.all", "pykube.query.all_"})
_BY_NAME = frozenset({"get_by_name", "get", "get_or_none"})  # `get` and `get_or_none` by name=
_SELECTORS = Narrowing((("selector", None), ("field_selector", None)))
_NAMESPACE_POSITION = {"objects": 1, "filter": 0}  # objects(api, namespace), filter(namespace, …)


def extract_pykube(context: ClientContext) -> list[Site]:
    sites = []
    for call in context.file.calls:
        func = call.func
        if not isinstance(func, libcst.Attribute) or func.attr.value != "objects":
            continue
        kind = resource_class_kind(context, func.value, PYKUBE_CLASSES)
        if kind is not None:
            site = _query_site(context, call, kind)
            if site is not None:
                sites.append(site)
    return sites


def _query_site(context: ClientContext, objects: libcst.Call, kind: str) -> Site | None:
    """The list or watch a query built by `objects(…)` makes, with the calls chained on it."""
    chain = _chained(context, objects)
    if any(name in _BY_NAME and (name == "get_by_name" or keyword(call, "name")) for name, call in chain):
        return None  # one object read by its name
    filters = [call for name, call in chain if name == "filter"]
    found: list[Restriction] = []
    for call in filters:
        found.extend(restrictions(context, call, kind, _SELECTORS))
    found.extend(_namespace(context, objects, filters, kind))
    is_watch = any(name == "watch" for name, _ in chain)
    site = client_site(context, objects, Operation.WATCH if is_watch else Operation.LIST, kind, found)
    verb = "watch" if is_watch else "query"
    return replace(
        site, suggestion=f"Filter by selector= or field_selector=, or {verb} a single namespace (namespace=…)"
    )


def _chained(context: ClientContext, call: libcst.Call) -> list[tuple[str, libcst.Call]]:
    """The methods called on a query in one expression (`.filter(…).watch()`), in order."""
    chain: list[tuple[str, libcst.Call]] = []
    node: libcst.CSTNode = call
    while True:
        attribute = context.file.parent(node)
        outer = context.file.parent(attribute) if isinstance(attribute, libcst.Attribute) else None
        if (
            not isinstance(attribute, libcst.Attribute)
            or not isinstance(outer, libcst.Call)
            or outer.func is not attribute
        ):
            return chain
        chain.append((attribute.attr.value, outer))
        node = outer


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
    origins = [namespace.value, *context.flow.origins(namespace.value)]
    if any(context.flow.qualified_names(origin) & PYKUBE_ALL for origin in origins):
        return []
    return restrictions(context, call, kind, Narrowing((), ("namespace", position)))
