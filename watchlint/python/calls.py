"""Call arguments and the restrictions they carry (namespace, selectors), shared by the client extractors."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import libcst

from watchlint.catalog import KindIndex
from watchlint.exclusions import excludes_only
from watchlint.facts import (
    EXCLUDES_ONLY,
    Access,
    Condition,
    Evidence,
    Mitigation,
    ObjectForm,
    Operation,
    Restriction,
    Site,
)
from watchlint.python.callers import run_condition
from watchlint.python.conditions import (
    branch_condition,
    default_branches,
    environment_variable,
    none_by_default,
    runs_only_with,
    truth_by_default,
)
from watchlint.python.defaults import command_line_option
from watchlint.python.flow import Flow
from watchlint.python.helpers import omitted_default
from watchlint.python.names import is_empty_literal, is_none, literal_string
from watchlint.python.parser import ParsedFile
from watchlint.settingphrases import given
from watchlint.source import Span


def keyword(call: libcst.Call, name: str) -> libcst.Arg | None:
    return next((arg for arg in call.args if arg.keyword is not None and arg.keyword.value == name), None)


def positional(call: libcst.Call) -> list[libcst.Arg]:
    """The positional arguments, up to the first `*args` (whose length is unknown)."""
    result = []
    for arg in call.args:
        if arg.keyword is not None or arg.star:
            break
        result.append(arg)
    return result


def argument(call: libcst.Call, name: str, position: int | None = None) -> libcst.Arg | None:
    """An argument given by keyword, or at a position of the callee's signature."""
    found = keyword(call, name)
    if found is None and position is not None:
        given = positional(call)
        found = given[position] if position < len(given) else None
    return found


def method_name(call: libcst.Call) -> libcst.Name | None:
    """The name token of the callee: `stream` in `w.stream(…)`, `SharedInformer` in `SharedInformer(…)`."""
    if isinstance(call.func, libcst.Attribute):
        return call.func.attr
    if isinstance(call.func, libcst.Name):
        return call.func
    return None


@dataclass(frozen=True, slots=True)
class Narrowing:
    """How a call's arguments narrow what it reads: the names of its namespace and selector parameters."""

    selectors: Sequence[tuple[str, int | None]]  # (keyword, position) of label and field selectors
    namespace: tuple[str, int | None] | None = None  # None: the call has no namespace parameter
    # `list_namespaced_pod(namespace)`: the client raises on None, so None lists no namespace at all
    namespace_required: bool = False


KUBERNETES_SELECTORS = (("label_selector", None), ("field_selector", None))


@dataclass(frozen=True, slots=True)
class ClientContext:
    """One parsed file, with what the client extractors need to read it."""

    file: ParsedFile
    flow: Flow
    kinds: KindIndex
    shadowed: frozenset[str]  # function names the project defines: calls of those need a known API receiver
    methods: frozenset[str]  # of those, the names of methods of the project's classes


def argument_condition(
    flow: Flow, file: ParsedFile, call: libcst.Call, value: libcst.BaseExpression, span: Span, *, none_raises: bool
) -> Condition | None:
    """When a selector or namespace argument sends nothing by default: an empty setting, or a parameter
    defaulting to None that a call of its function leaves out, unless the call runs only where it is given
    (`if selector: v1.list_pod_for_all_namespaces(label_selector=selector)`). Where the client raises on None
    (`none_raises`: a required namespace), None is no value that lists more."""
    omitted = omitted_default(flow, value)
    if none_raises and (is_none(value) or omitted is not None or none_by_default(flow, value)):
        return None  # `os.environ.get("WATCH_NAMESPACE")`: the call raises unless the deployment sets it
    if truth_by_default(flow, value) is False:
        # `label_selector=os.getenv("SELECTOR", "")`, `namespace=None`: none is sent by default
        if (variable := environment_variable(flow, value)) is not None:
            shown = given(variable, environment=True)
        elif (option := command_line_option(flow, value)) is not None:  # `args.namespace` of `--namespace`
            shown = given(option, environment=False)
        else:
            shown = f"`{file.code(value)}` is not empty"
        return Condition(shown, span, False)
    if omitted is not None and not runs_only_with(file, call, omitted[0]):
        # `def f(label_selector=None)` called as `f()` in the module
        return Condition(f"`{omitted[0]}` is passed to {omitted[1]}()", span, False)
    return None


def restrictions(context: ClientContext, call: libcst.Call, kind: str, narrowing: Narrowing) -> list[Restriction]:
    """The selectors and namespace a call passes, in its arguments or in a `**kwargs` dict we can read;
    a `**kwargs` we cannot read may carry them, which counts (SPEC §1)."""
    flow = context.flow
    file = flow.owner(call).file  # a functools.partial bound in another module is read there
    wanted = [(Mitigation.SELECTOR, name, position) for name, position in narrowing.selectors]
    if narrowing.namespace is not None:
        wanted.append((Mitigation.NAMESPACE, *narrowing.namespace))
    found = []
    for mitigation, name, position in wanted:
        arg = argument(call, name, position)
        required = mitigation is Mitigation.NAMESPACE and narrowing.namespace_required
        # a required namespace of None raises: the call lists nothing, never every namespace
        if arg is not None and (not is_empty_literal(arg.value) or (required and is_none(arg.value))):
            text = f"`{name}={file.code(arg.value)}`"
            span = argument_span(file, arg)
            condition = argument_condition(flow, file, call, arg.value, span, none_raises=required)
            selector = _selector_text(flow, arg.value) if mitigation is Mitigation.SELECTOR else None
            if selector is not None and excludes_only(selector):  # `label_selector="owner!=helm"`
                detail = EXCLUDES_ONLY + selector
                found.append(Restriction(mitigation, kind, span, f"`{name}`", is_effective=False, detail=detail))
                continue
            found.append(Restriction(mitigation, kind, span, text, condition=condition))
    spread = next((arg for arg in call.args if arg.star == "*"), None)
    passed = len(positional(call))
    spread_fills = [name for _, name, at in wanted if at is not None and at >= passed and keyword(call, name) is None]
    if spread is not None and spread_fills:
        # `list_namespaced_secret(*args)`: the namespace or a selector may be among the spread arguments
        text = f"`{file.code(spread)}` may pass a selector or namespace"
        found.append(Restriction(Mitigation.UNRESOLVED, kind, argument_span(file, spread), text))
    for star in (arg for arg in call.args if arg.star == "**"):
        entries = keyword_dict(flow, star.value)
        if entries is None:
            text = f"`{file.code(star)}` may pass a selector or namespace"
            found.append(Restriction(Mitigation.UNRESOLVED, kind, argument_span(file, star), text))
            continue
        names = {name: mitigation for mitigation, name, _ in wanted}
        for key, value in entries:
            if key in names and not is_empty_literal(value):
                owner = flow.owner(value)  # `kwargs["label_selector"] = …` may be set under a condition
                condition = branch_condition(owner.file, owner, value)
                text = f"`{key}` in `{file.code(star)}`"
                found.append(Restriction(names[key], kind, argument_span(file, star), text, condition=condition))
    return found


def left_out_namespace(context: ClientContext, call: libcst.Call, kind: str, narrowing: Narrowing) -> list[Restriction]:
    """A required namespace the call does not pass at all: `list_namespaced_pod()` raises a TypeError before
    sending anything, so the call lists no namespace, never every one. Only for a call that passes every
    argument itself: a `functools.partial` or a wrapper may supply the namespace elsewhere."""
    if narrowing.namespace is None or not narrowing.namespace_required:
        return []
    name, position = narrowing.namespace
    if argument(call, name, position) is not None or any(arg.star for arg in call.args):
        return []  # given, or maybe given by a `*args` or `**kwargs` (counted by `restrictions`)
    file = context.flow.owner(call).file
    where = file.span(method_name(call) or call.func)
    return [Restriction(Mitigation.NAMESPACE, kind, where, f"`{name}` left out: the call raises")]


_LIGHTKUBE_OPERATORS = "lightkube.operators."
# lightkube's label operators that exclude, as the selector terms they are sent as
_EXCLUDING = {"not_equal": "{key}!={values}", "not_in": "{key} notin ({values})", "not_exists": "!{key}"}


def _selector_text(flow: Flow, value: libcst.BaseExpression) -> str | None:
    """A selector as the API server is sent it, where it can be told: a string literal, or lightkube's dict of
    labels (`{"owner": not_equal("helm")}` is `owner!=helm`); None otherwise."""
    text = literal_string(value)
    if text is not None or not isinstance(value, libcst.Dict) or not value.elements:
        return text
    terms = []
    for element in value.elements:
        key = literal_string(element.key) if isinstance(element, libcst.DictElement) else None
        if key is None or not isinstance(element, libcst.DictElement):
            return None
        terms.append(_lightkube_term(flow, key, element.value))
    return ",".join(terms)


def _lightkube_term(flow: Flow, key: str, value: libcst.BaseExpression) -> str:
    """The selector term of one entry of lightkube's labels: `owner!=helm` of `not_equal("helm")`, `key=value`
    of a string or any other operator."""
    called = value if isinstance(value, libcst.Call) else None
    names = flow.qualified_names(called.func) if called is not None else frozenset()
    operators = [name.removeprefix(_LIGHTKUBE_OPERATORS) for name in names if name.startswith(_LIGHTKUBE_OPERATORS)]
    operator = operators[0] if operators else ""
    if called is None or operator not in _EXCLUDING:
        return f"{key}={literal_string(value) or '…'}"
    first = called.args[0].value if called.args else None
    items = first.elements if isinstance(first, libcst.List | libcst.Tuple | libcst.Set) else ([first] if first else [])
    shown = [literal_string(item.value if isinstance(item, libcst.BaseElement) else item) or "…" for item in items]
    return _EXCLUDING[operator].format(key=key, values=", ".join(shown))


def one_page(context: ClientContext, call: libcst.Call, kind: str) -> list[Restriction]:
    """`limit=N` and no continue token: the call reads one page of at most N objects and asks for no other,
    as a count through `metadata.remaining_item_count` does (robusta probes with `limit=1`). A paging loop
    passes `_continue=token`, and a `**` dict may carry one: those still list every object."""
    limit, token = keyword(call, "limit"), keyword(call, "_continue")
    if limit is None or any(arg.star == "**" for arg in call.args):
        return []
    if (token is not None and not is_none(token.value)) or not _bounds_a_page(context.flow, limit.value):
        return []
    text = f"`limit={context.file.code(limit.value)}`: one page, no continue token"
    return [Restriction(Mitigation.ONE_PAGE, kind, argument_span(context.file, limit), text)]


def _bounds_a_page(flow: Flow, value: libcst.BaseExpression) -> bool:
    """An integer literal other than 0, or a name or attribute none of whose known values is `None` or `0`,
    which ask for every object at once (a parameter's default counts: the default deployment may omit it)."""
    if isinstance(value, libcst.Integer):
        return value.evaluated_value != 0
    if not isinstance(value, libcst.Name | libcst.Attribute) or is_none(value):
        return False
    for origin in flow.origins(value):
        known = origin.default if isinstance(origin, libcst.Param) else origin
        if known is not None and (is_empty_literal(known) or _is_zero(known)):
            return False
    return True


def _is_zero(node: libcst.CSTNode) -> bool:
    return isinstance(node, libcst.Integer) and node.evaluated_value == 0


def keyword_dict(flow: Flow, value: libcst.BaseExpression) -> list[tuple[str, libcst.BaseExpression]] | None:
    """The entries of a dict built in sight: `{"label_selector": …}`, `dict(label_selector=…)`, and later
    `kwargs["label_selector"] = …` in the same scope; None when it may hold keys we cannot see. A name assigned
    a dict outright and others under conditions (`options = {"clusterwide": True}`, then `options =
    {"namespaces": [ns]}` under `if ns:`) holds by default the one a condition true by default writes, else the
    first with the others' entries, each judged by the branch it is written in; None where a condition cannot
    be told."""
    origins = flow.origins(value)
    chosen = _default_literals(flow, origins) if len(origins) > 1 else origins
    if not chosen:
        return None
    entries: list[tuple[str, libcst.BaseExpression]] = []
    for origin in chosen:
        found = _literal_entries(flow, origin)
        if found is None:
            return None
        entries.extend(found)
    if isinstance(value, libcst.Name):
        entries.extend(flow.dict_entries(value))
    return entries


def _default_literals(flow: Flow, origins: list[libcst.CSTNode]) -> list[libcst.CSTNode]:
    """Of the values a name is assigned, those that decide what it holds by default (see `keyword_dict`); none
    where that cannot be told."""
    outright: list[libcst.CSTNode] = []
    chosen: list[libcst.CSTNode] = []
    off: list[libcst.CSTNode] = []
    for origin in origins:
        owner = flow.owner(origin)
        condition = branch_condition(owner.file, owner, origin)
        if condition is None:
            outright.append(origin)
        elif condition.holds_by_default is None:
            return []
        elif condition.holds_by_default:
            chosen.append(origin)
        else:
            off.append(origin)
    if len(outright) > 1 or len(chosen) > 1:
        return []
    if chosen and outright:
        return chosen  # the outright value replaced by default
    return [*outright, *chosen, *off]  # an if/else's branches: each entry judged by its own


def _literal_entries(flow: Flow, origin: libcst.CSTNode) -> list[tuple[str, libcst.BaseExpression]] | None:
    """The entries of a dict literal, a `dict(…)` call, or the branch of `{} if c else {…}` the default
    deployment takes (both when the condition cannot be told)."""
    if isinstance(origin, libcst.IfExp):
        merged: list[tuple[str, libcst.BaseExpression]] = []
        for branch in default_branches(flow, origin):
            found = flow.origins(branch)
            chosen = _literal_entries(flow, found[0]) if len(found) == 1 else None
            if chosen is None:
                return None
            merged.extend(chosen)
        return merged
    entries: list[tuple[str, libcst.BaseExpression]] = []
    if isinstance(origin, libcst.Dict):
        for element in origin.elements:
            key = literal_string(element.key) if isinstance(element, libcst.DictElement) else None
            if key is None or not isinstance(element, libcst.DictElement):
                return None  # `**other` or a computed key: the dict may hold anything
            entries.append((key, element.value))
    elif isinstance(origin, libcst.Call) and isinstance(origin.func, libcst.Name) and origin.func.value == "dict":
        if any(arg.keyword is None for arg in origin.args):
            return None
        entries.extend((arg.keyword.value, arg.value) for arg in origin.args if arg.keyword is not None)
    else:
        return None
    return entries


def argument_span(file: ParsedFile, arg: libcst.Arg) -> Span:
    """The argument without the comma that follows it."""
    start = file.span(arg.keyword if arg.keyword is not None else arg)
    end = file.span(arg.value)
    return Span(start.path, start.line, start.column, end.end_line, end.end_column)


def client_site(
    context: ClientContext,
    call: libcst.Call,
    operation: Operation,
    kind: str,
    site_restrictions: Sequence[Restriction] = (),
    filters: Sequence[Evidence] = (),
    token: libcst.BaseExpression | None = None,
) -> Site:
    """A direct API client call: no cache, one request or stream per call (SPEC §1). The finding lands on
    the callee's name token (SPEC §3), or on `token` (`stream` in `functools.partial(w.stream, …)`)."""
    file, flow = context.file, context.flow
    name = method_name(call)
    if isinstance(token, libcst.Attribute):
        name = token.attr
    return Site(
        operation=operation,
        access=Access.DIRECT_CLIENT,
        kind=kind,
        form=ObjectForm.TYPED,
        span=file.span(name if name is not None else call),
        call=file.code(token if token is not None else call.func),  # the list method, not the helper calling it
        construct=file.code(call),
        enclosing=flow.enclosing_name(call),
        restrictions=tuple(site_restrictions),
        filters=tuple(filters),
        condition=run_condition(file, flow, call),
    )
