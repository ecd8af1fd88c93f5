"""lightkube and kr8s clients -> list and watch sites (SPEC §3.2).

Both read one namespace unless told otherwise: lightkube's `Client.list/watch` use the client's namespace
unless `namespace=ALL_NS` (`"*"`), and kr8s's `get`/`watch`/`APIObject.list` the API's namespace unless
`namespace=kr8s.ALL`. Listing across all namespaces without `labels=`/`fields=` (lightkube) or
`label_selector=`/`field_selector=` (kr8s) is WL004, watching that way WL001.
"""

from __future__ import annotations

from dataclasses import replace

import libcst

from watchlint.facts import Condition, Mitigation, Operation, Restriction, Site
from watchlint.python.calls import (
    ClientContext,
    Narrowing,
    argument,
    argument_span,
    client_site,
    keyword,
    method_name,
    positional,
    restrictions,
)
from watchlint.python.conditions import environment_default, environment_variable, strings_by_default
from watchlint.python.defaults import command_line_option
from watchlint.python.helpers import names_all, passed_every_namespace
from watchlint.python.loops import loop_filters
from watchlint.python.names import constant_string, is_none, kr8s_kind, literal_string
from watchlint.settingphrases import given

KR8S_FUNCTIONS = frozenset({"kr8s.get", "kr8s.watch", "kr8s.asyncio.get", "kr8s.asyncio.watch"})
KR8S_APIS = frozenset({"kr8s.api", "kr8s.asyncio.api", "kr8s.Api", "kr8s.asyncio.Api"})
KR8S_OBJECTS = ("kr8s.objects.", "kr8s.asyncio.objects.")
KR8S_ALL = frozenset({"kr8s.ALL", "kr8s.asyncio.ALL", "kr8s._api.ALL"})
LIGHTKUBE_RESOURCES = "lightkube.resources."
LIGHTKUBE_ALL = frozenset({"lightkube.ALL_NS", "lightkube.core.generic_client.ALL_NS", "lightkube.core.client.ALL_NS"})
_AllNamespaces = tuple[frozenset[str], str, int | None]  # the ALL constants, the literal, the namespace position
_LIGHTKUBE_SELECTORS = Narrowing((("labels", None), ("fields", None)))
_KR8S_SELECTORS = Narrowing((("label_selector", None), ("field_selector", None)))


def extract_lightkube_kr8s(context: ClientContext) -> list[Site]:
    sites = []
    for call in context.file.calls:
        site = _lightkube(context, call) or _kr8s(context, call)
        if site is not None:
            sites.append(site)
    return sites


def _lightkube(context: ClientContext, call: libcst.Call) -> Site | None:
    """`client.list(Secret, namespace=ALL_NS)` / `client.watch(…)`: the resource class names the kind."""
    name = method_name(call)
    if not isinstance(call.func, libcst.Attribute) or name is None or name.value not in ("list", "watch"):
        return None
    given = positional(call)
    resource = keyword(call, "res") or (given[0] if given else None)
    kind = resource_class_kind(context, resource.value, (LIGHTKUBE_RESOURCES,)) if resource is not None else None
    if kind is None or _project_object(context, call.func.value, name.value):
        return None
    found = restrictions(context, call, kind, _LIGHTKUBE_SELECTORS)
    found += _namespace(context, call, kind, (LIGHTKUBE_ALL, "*", None), "the client's namespace", empty_is_every=True)
    site = _site(context, call, name.value == "watch", kind, found)
    # lightkube's selectors are `labels=` and `fields=`: the kubernetes client's keywords would raise TypeError
    verb = "watch" if site.operation is Operation.WATCH else "list"
    return replace(site, suggestion=f"Pass labels= or fields=, or {verb} a single namespace (namespace=…)")


def _project_object(context: ClientContext, receiver: libcst.BaseExpression, method: str) -> bool:
    """Whether the receiver is, wherever it comes from, an instance of a project class that defines the method
    itself (a `Client` of the project's own beside lightkube's resources): its `list` is not lightkube's. A
    subclass of lightkube's client that only inherits the method is lightkube's."""
    flow = context.flow
    if isinstance(receiver, libcst.Name) and receiver.value in ("self", "cls"):
        owner = flow.enclosing_class(receiver)  # `self.list(Secret)` in the class defining list
        return owner is not None and (owner, method) in flow.functions
    origins = flow.origins(receiver)
    classes = [flow.project_class(origin.func) if isinstance(origin, libcst.Call) else None for origin in origins]
    return bool(classes) and all(found is not None and (found[1], method) in found[0].functions for found in classes)


def _kr8s(context: ClientContext, call: libcst.Call) -> Site | None:
    name = method_name(call)
    if name is None:
        return None
    if context.file.qualified_names(call.func) & KR8S_FUNCTIONS or (
        name.value in ("get", "watch") and isinstance(call.func, libcst.Attribute) and _is_kr8s_api(context, call.func)
    ):
        return _kr8s_get(context, call, is_watch=name.value == "watch")
    if name.value == "list" and isinstance(call.func, libcst.Attribute):
        kind = resource_class_kind(context, call.func.value, KR8S_OBJECTS)
        if kind is not None:  # `Secret.list(namespace=kr8s.ALL)`; a Django `Secret` model is no kr8s object
            return _kr8s_site(context, call, kind, is_watch=False)
    return None


def _kr8s_get(context: ClientContext, call: libcst.Call, is_watch: bool) -> Site | None:
    """`kr8s.get(kind, *names, namespace=…, label_selector=…, field_selector=…)`; names mean a get by name."""
    given = positional(call)
    kind_arg = keyword(call, "kind") or (given[0] if given else None)
    if kind_arg is None or (len(given) > 1 and not is_watch):
        return None
    text = constant_string(context.flow, kind_arg.value)
    kind = (
        kr8s_kind(context.kinds, text)
        if text is not None
        else resource_class_kind(context, kind_arg.value, KR8S_OBJECTS)
    )
    return _kr8s_site(context, call, kind, is_watch) if kind is not None else None


def _kr8s_site(context: ClientContext, call: libcst.Call, kind: str, is_watch: bool) -> Site:
    found = restrictions(context, call, kind, _KR8S_SELECTORS)
    # kr8s.watch(kind, namespace, …) takes the namespace second; get(kind, *names, namespace=…) by keyword
    position = 1 if is_watch else None
    if argument(call, "namespace", position) is not None or not _api_of_every_namespace(context, call):
        found += _namespace(context, call, kind, (KR8S_ALL, "all", position), "the API's namespace")
    site = _site(context, call, is_watch, kind, found)
    verb = "watch" if site.operation is Operation.WATCH else "list"
    # the help a kr8s call gets anyway, also where a caller hands its helper every namespace
    suggestion = f"Pass label_selector= or field_selector=, or {verb} a single namespace"
    return replace(site, suggestion=suggestion)


def _api_of_every_namespace(context: ClientContext, call: libcst.Call) -> bool:
    """Whether the Api a call without `namespace=` reads by is set to every namespace: built with
    `namespace=kr8s.ALL` (`api.get(…)`, `Secret.list(api=api)`), or a kr8s Api of the file given it after
    (`api.namespace = kr8s.ALL`: kubectl-ng's, which kr8s's functions share, the default Api being cached)."""
    given = keyword(call, "api")
    held = [given.value] if given is not None else []
    if isinstance(call.func, libcst.Attribute) and _is_kr8s_api(context, call.func):
        held.append(call.func.value)
    for value in held:
        for origin in context.flow.origins(value):
            built = _api_call(context, origin)
            namespace = keyword(built, "namespace") if built is not None else None
            if namespace is not None and _every_namespace(context, namespace.value):
                return True
    return any(
        isinstance(target.target, libcst.Attribute)
        and target.target.attr.value == "namespace"
        and _every_namespace(context, node.value)
        and any(_api_call(context, origin) is not None for origin in context.flow.origins(target.target.value))
        for node in context.file.flow_nodes
        if isinstance(node, libcst.Assign)
        for target in node.targets
    )


def _api_call(context: ClientContext, node: libcst.CSTNode) -> libcst.Call | None:
    """The `kr8s.api(…)` (or awaited `kr8s.asyncio.api(…)`) call a value is."""
    if isinstance(node, libcst.Await):
        node = node.expression
    if isinstance(node, libcst.Call) and context.flow.qualified_names(node.func) & KR8S_APIS:
        return node
    return None


def _every_namespace(context: ClientContext, value: libcst.BaseExpression) -> bool:
    """`kr8s.ALL`, or the `"all"` it stands for."""
    return names_all(context.flow, value, KR8S_ALL, "all")


def _site(context: ClientContext, call: libcst.Call, is_watch: bool, kind: str, found: list[Restriction]) -> Site:
    operation = Operation.WATCH if is_watch else Operation.LIST
    filters = loop_filters(context.file, context.flow, call) if is_watch else []
    return client_site(context, call, operation, kind, found, filters)


def _namespace(
    context: ClientContext,
    call: libcst.Call,
    kind: str,
    all_namespaces: _AllNamespaces,
    default: str,
    *,
    empty_is_every: bool = False,
) -> list[Restriction]:
    """A namespace restriction unless the call asks for all namespaces; no namespace means the default one.
    `empty_is_every`: the library sends `""` as is (lightkube), which lists every namespace."""
    everything, literal, position = all_namespaces
    arg = argument(call, "namespace", position)
    if arg is None or is_none(arg.value):
        where = method_name(call) or call
        return [Restriction(Mitigation.NAMESPACE, kind, context.file.span(where), default)]
    if names_all(context.flow, arg.value, everything, literal):
        return []
    text = f"`namespace={context.file.code(arg.value)}`"
    if _every_namespace_by_default(context, arg.value, all_namespaces, empty_is_every):
        if literal_string(arg.value) is not None:
            return []  # `namespace=""` of lightkube: `/namespaces//secrets`, which the API server serves whole
        # `namespace=os.getenv("WATCH_NAMESPACE", ALL_NS)`: every namespace unless the variable is set
        variable = environment_variable(context.flow, arg.value)
        option = command_line_option(context.flow, arg.value) if variable is None else None
        if variable is not None or option is not None:
            shown = given(variable or option or "", environment=variable is not None)
        else:
            shown = f"`{context.file.code(arg.value)}` is not empty"
        unset = Condition(shown, argument_span(context.file, arg), False)
        return [Restriction(Mitigation.NAMESPACE, kind, argument_span(context.file, arg), text, condition=unset)]
    # a helper's parameter one of its calls gives every namespace: scoped only where callers pass one
    condition = passed_every_namespace(context.flow, arg.value, everything, literal)
    return [Restriction(Mitigation.NAMESPACE, kind, argument_span(context.file, arg), text, condition=condition)]


def _every_namespace_by_default(
    context: ClientContext, value: libcst.BaseExpression, all_namespaces: _AllNamespaces, empty_is_every: bool
) -> bool:
    """Whether a namespace names every namespace in the default deployment: an environment read defaulting to
    the library's all-namespaces constant or literal, or (for lightkube, `empty_is_every`) to `""`; also a
    constant `""` for lightkube. kr8s reads `""` as its default namespace."""
    everything, literal, _ = all_namespaces
    default = environment_default(context.flow, value)
    if default is not None and names_all(context.flow, default, everything, literal):
        return True
    strings = strings_by_default(context.flow, value)
    return strings in ((literal,), ("",) if empty_is_every else (literal,))


def resource_class_kind(context: ClientContext, value: libcst.BaseExpression, packages: tuple[str, ...]) -> str | None:
    """The kind of a resource class imported from a client library (`lightkube.resources.core_v1.Secret`)."""
    for origin in [value, *context.flow.origins(value)]:
        for name in context.flow.qualified_names(origin):
            if name.startswith(packages):
                kind = context.kinds.python_kind(name.rpartition(".")[2])
                if kind is not None:
                    return kind
    return None


def _is_kr8s_api(context: ClientContext, func: libcst.Attribute) -> bool:
    return any(_api_call(context, origin) is not None for origin in context.flow.origins(func.value))
