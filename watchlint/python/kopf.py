"""kopf handlers and indexes -> watch sites; kopf.run / operator / spawn_tasks namespaces -> the project's policy.

kopf keeps one watch stream per resource, cluster-wide unless the operator serves named namespaces, and
evaluates `labels=`, `annotations=`, `when=` and `value=` filters after every object is streamed in (SPEC §1,
§3.2). A namespace scope anywhere in the project scopes every handler of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst

from watchlint.catalog import KindIndex
from watchlint.facts import Access, CachePolicy, Evidence, Mitigation, ObjectForm, Operation, Restriction, Site
from watchlint.python.calls import has_star_kwargs, keyword, method_name
from watchlint.python.conditions import branch_condition, value_condition
from watchlint.python.flow import Flow
from watchlint.python.names import KOPF_NAME_KEYWORDS, constant_string, is_empty_literal, is_none, kopf_kind
from watchlint.python.parser import ParsedFile
from watchlint.source import Span

POLICY_KEY = "kopf"
_ON = ("event", "create", "update", "delete", "resume", "field", "timer", "daemon", "index")
HANDLERS = frozenset({*(f"kopf.on.{name}" for name in _ON), "kopf.timer", "kopf.daemon", "kopf.index"})
RUNNERS = frozenset({"kopf.run", "kopf.operator", "kopf.spawn_tasks"})
FILTERS = ("labels", "annotations", "when", "value", "old", "new")  # `field=` alone names a trigger
CONFIG_SCOPE = "kopf-namespaced = true in the watchlint config"
MAX_SHOWN = 48


@dataclass(slots=True)
class KopfFacts:
    """What the kopf extractor found in the files of one project."""

    sites: list[Site] = field(default_factory=list)
    origins: list[Span] = field(default_factory=list)  # the kopf.run / operator / spawn_tasks calls
    restrictions: list[Restriction] = field(default_factory=list)


def extract_kopf(file: ParsedFile, flow: Flow, kinds: KindIndex, into: KopfFacts) -> None:
    """Add the handlers and the namespace scopes of one file."""
    for call in file.calls:
        names = file.qualified_names(call.func)
        if names & HANDLERS:
            site = _handler_site(file, flow, kinds, call)
            if site is not None:
                into.sites.append(site)
        elif names & RUNNERS:
            into.origins.append(file.span(call.func))
            restriction = _scope(file, flow, call)
            if restriction is not None:
                into.restrictions.append(restriction)


def kopf_policy(found: KopfFacts, shown_root: str, is_namespaced_by_config: bool) -> CachePolicy | None:
    """The project's one kopf policy; the config key stands in for a `kopf run -n` that code cannot show."""
    if not found.sites and not found.origins:
        return None
    restrictions = list(found.restrictions)
    if is_namespaced_by_config:
        anchor = found.sites[0].span if found.sites else found.origins[0]
        restrictions.append(Restriction(Mitigation.OPERATOR_NAMESPACES, None, anchor, CONFIG_SCOPE))
    label = f"kopf operator {shown_root}"
    return CachePolicy(POLICY_KEY, label, tuple(found.origins), tuple(restrictions))


def _handler_site(file: ParsedFile, flow: Flow, kinds: KindIndex, call: libcst.Call) -> Site | None:
    positional = _positional_strings(flow, call)
    if positional is None:
        return None
    keywords = {
        name: constant_string(flow, arg.value)
        for name in ("group", *KOPF_NAME_KEYWORDS)
        if (arg := keyword(call, name)) is not None
    }
    kind = kopf_kind(kinds, positional, keywords)
    if kind is None:
        return None
    decorator = file.parent(call)
    if isinstance(decorator, libcst.Decorator):
        # SPEC §3: a decorator's finding lands on its first line, at the `@`
        span, prefix, anchor = file.first_line_span(decorator), "@", decorator
    else:
        span, prefix, anchor = file.span(method_name(call) or call), "", call
    return Site(
        operation=Operation.WATCH,
        access=Access.KOPF,
        kind=kind,
        form=ObjectForm.TYPED,
        span=span,
        call=prefix + file.code(call.func),
        construct=prefix + file.code(call),
        enclosing=_handler_name(file, flow, call, decorator),
        policy_keys=(POLICY_KEY,),
        filters=tuple(_filters(file, call)),
        condition=branch_condition(file, flow, anchor),
    )


def _positional_strings(flow: Flow, call: libcst.Call) -> list[str | None] | None:
    """The resource given positionally, `*RESOURCE` tuples included; None when it cannot be read."""
    values: list[str | None] = []
    for arg in call.args:
        if arg.keyword is not None:
            break
        if arg.star == "*":
            origins = flow.origins(arg.value)
            if len(origins) != 1 or not isinstance(origins[0], libcst.Tuple | libcst.List):
                return None
            values.extend(constant_string(flow, element.value) for element in origins[0].elements)
        elif arg.star == "":
            values.append(constant_string(flow, arg.value))
    return values


def _filters(file: ParsedFile, call: libcst.Call) -> list[Evidence]:
    found = []
    for name in FILTERS:
        arg = keyword(call, name)
        if arg is not None and not is_none(arg.value):
            found.append(Evidence(file.span(arg), f"`{_short(file.code(arg))}`"))
    return found


def _handler_name(file: ParsedFile, flow: Flow, call: libcst.Call, decorator: libcst.CSTNode | None) -> str:
    """The handler function: the decorated one, or the one passed in `kopf.on.event("pods")(fn)`."""
    owner = file.parent(decorator) if isinstance(decorator, libcst.Decorator) else None
    if isinstance(owner, libcst.FunctionDef):
        return owner.name.value
    outer = file.parent(call)
    if isinstance(outer, libcst.Call) and outer.func is call and outer.args:
        return file.code(outer.args[0].value)
    return flow.enclosing_name(call)


def _scope(file: ParsedFile, flow: Flow, call: libcst.Call) -> Restriction | None:
    """The namespaces a kopf.run / operator / spawn_tasks call serves; None when it serves the cluster."""
    clusterwide = keyword(call, "clusterwide")
    if clusterwide is not None and not is_empty_literal(clusterwide.value):
        return None  # kopf refuses clusterwide=True together with namespaces
    namespaces = keyword(call, "namespaces") or keyword(call, "namespace")
    condition = branch_condition(file, flow, call)
    if namespaces is not None and not is_empty_literal(namespaces.value):
        if _serves_everything(flow, namespaces.value):
            return None
        condition = value_condition(file, flow, namespaces.value) or condition
        text = f"`{_short(file.code(call.func) + '(' + file.code(namespaces) + ')')}`"
        return Restriction(Mitigation.OPERATOR_NAMESPACES, None, file.span(namespaces), text, condition=condition)
    if namespaces is None and has_star_kwargs(call):
        star = next(arg for arg in call.args if arg.star == "**")
        text = f"`{_short(file.code(call))}` may set namespaces"
        return Restriction(Mitigation.UNRESOLVED, None, file.span(star), text, condition=condition)
    return None


def _serves_everything(flow: Flow, value: libcst.BaseExpression) -> bool:
    """`namespaces=["*"]`: kopf's glob patterns that match every namespace narrow nothing."""
    origins = flow.origins(value)
    if len(origins) != 1 or not isinstance(origins[0], libcst.List | libcst.Tuple | libcst.Set):
        return False
    patterns = [constant_string(flow, element.value) for element in origins[0].elements]
    return "*" in patterns or (bool(patterns) and all(p is not None and p.startswith("!") for p in patterns))


def _short(text: str) -> str:
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1].rstrip() + "…"
