"""kopf handlers and indexes -> watch sites; kopf.run / operator / spawn_tasks namespaces -> the project's policy.

kopf keeps one watch stream per resource, cluster-wide unless the operator serves named namespaces, and
evaluates `labels=`, `annotations=`, `when=` and `value=` filters after every object is streamed in (SPEC §1,
§3.2). A namespace scope anywhere in the project scopes every handler of it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import libcst

from watchlint.catalog import KindIndex
from watchlint.facts import (
    Access,
    CachePolicy,
    Condition,
    Evidence,
    Mitigation,
    ObjectForm,
    Operation,
    Restriction,
    Site,
)
from watchlint.python.callers import run_condition
from watchlint.python.calls import argument_span, keyword, keyword_dict, method_name
from watchlint.python.conditions import (
    branch_condition,
    empty_by_default,
    environment_variable,
    strings_by_default,
    truth_by_default,
    value_condition,
)
from watchlint.python.flow import Flow
from watchlint.python.names import (
    KOPF_NAME_KEYWORDS,
    constant_string,
    is_empty_literal,
    is_none,
    is_true,
    kopf_kind,
)
from watchlint.python.parser import ParsedFile
from watchlint.settingphrases import given as setting_given
from watchlint.source import Span

POLICY_KEY = "kopf"
_ON = ("event", "create", "update", "delete", "resume", "field", "timer", "daemon", "index")
HANDLERS = frozenset({*(f"kopf.on.{name}" for name in _ON), "kopf.timer", "kopf.daemon", "kopf.index"})
RUNNERS = frozenset({"kopf.run", "kopf.operator", "kopf.spawn_tasks"})
FILTERS = ("labels", "annotations", "when", "value", "old", "new")
# the handlers of no change, where `field=` alone filters (kopf passes on the objects holding the field); on the
# others it names the change to react to, as on `@kopf.on.field`
_PRESENCE_FILTERED = frozenset(
    {"kopf.on.event", "kopf.on.timer", "kopf.timer", "kopf.on.daemon", "kopf.daemon", "kopf.on.index", "kopf.index"}
)
CONFIG_SCOPE = "kopf-namespaced = true in the watchlint config"
MAX_SHOWN = 48
_MAX_RESOURCES = 16  # the resources a handler call in a loop registers, at most
_SCOPES = (libcst.FunctionDef, libcst.ClassDef)


@dataclass(frozen=True, slots=True)
class Runner:
    """A kopf.run / kopf.operator / kopf.spawn_tasks call and the file it is in."""

    file: ParsedFile
    flow: Flow
    call: libcst.Call


@dataclass(slots=True)
class KopfFacts:
    """What the kopf extractor found in the files of one project."""

    sites: list[Site] = field(default_factory=list)
    origins: list[Span] = field(default_factory=list)  # the kopf.run / operator / spawn_tasks calls
    restrictions: list[Restriction] = field(default_factory=list)
    runners: list[Runner] = field(default_factory=list)  # the same calls, for the suggestions of the sites


def extract_kopf(file: ParsedFile, flow: Flow, kinds: KindIndex, into: KopfFacts) -> None:
    """Add the handlers and the namespace scopes of one file."""
    holders = _attribute_holders(flow)
    for call in file.calls:
        names = _called_names(file, flow, call.func, holders)
        if names & HANDLERS:
            into.sites.extend(_handler_sites(file, flow, kinds, call, names))
        elif names & RUNNERS:
            into.origins.append(file.span(call.func))
            into.runners.append(Runner(file, flow, call))
            into.restrictions.extend(_scope(file, flow, call))


def _attribute_holders(flow: Flow) -> frozenset[str]:
    """The names the file assigns an attribute to: the only ones that may hold a decorator of kopf's, found
    once per file rather than followed at every call."""
    return frozenset(
        name for (_, name), values in flow.names.items() if any(isinstance(value, libcst.Attribute) for value in values)
    )


def _called_names(file: ParsedFile, flow: Flow, func: libcst.BaseExpression, holders: frozenset[str]) -> frozenset[str]:
    """The qualified names a call's callee has, and for a name assigned one (`on_event = kopf.on.event`), those
    of what it is assigned: a decorator used through an alias registers its handler all the same."""
    names = file.qualified_names(func)
    if not isinstance(func, libcst.Name) or func.value not in holders:
        return names
    held = [origin for origin in flow.origins(func) if origin is not func and isinstance(origin, libcst.Attribute)]
    return names.union(*(flow.qualified_names(origin) for origin in held))


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


def _handler_sites(
    file: ParsedFile, flow: Flow, kinds: KindIndex, call: libcst.Call, names: frozenset[str]
) -> list[Site]:
    """The handler a call registers; for a decorator factory handing kopf its own `*args` (`def
    on_related(*args, **kwargs): … @kopf.on.event(*args, **kwargs)`), the one each use of it in the module
    registers, with the resource that use names."""
    factory = _factory_of(file, call)
    if factory is None:
        resources = _resources(file, flow, call)
        return [
            site for named in resources if (site := _handler_site(file, flow, kinds, call, names, named)) is not None
        ]
    uses = [
        used for used in file.calls if isinstance(used.func, libcst.Name) and flow.local_function(used.func) is factory
    ]
    return [
        site
        for used in uses
        if (site := _handler_site(file, flow, kinds, call, names, _positional_strings(flow, used), used, factory))
        is not None
    ]


def _resources(file: ParsedFile, flow: Flow, call: libcst.Call) -> list[list[str | None]]:
    """The resources a handler call names, given positionally: one, or one per item of the literal a loop
    around it walks (`for plural in ("pods", "services"): kopf.on.event("", "v1", plural)(on_change)`)."""
    named = _positional_strings(flow, call)
    if named is None:
        return []
    given = [arg for arg in call.args if arg.keyword is None]
    if any(arg.star for arg in given):
        return [named]
    choices = [_loop_items(file, flow, call, arg.value) or [value] for arg, value in zip(given, named, strict=True)]
    combinations = itertools.islice(itertools.product(*choices), _MAX_RESOURCES)
    return [list(combination) for combination in combinations]


def _loop_items(file: ParsedFile, flow: Flow, call: libcst.Call, value: libcst.BaseExpression) -> list[str | None]:
    """The strings a name takes in turn in the innermost loop around the call walking a literal into it, or a
    name holding one literal (`RESOURCES = ("pods", "secrets")`); empty where the name is no such loop's
    target or the literal holds anything but strings."""
    if not isinstance(value, libcst.Name):
        return []
    node, previous = file.parent(call), None
    # the function a decorator decorates is no boundary: the loop around it registers it for each item
    while node is not None and (isinstance(previous, libcst.Decorator) or not isinstance(node, _SCOPES)):
        if isinstance(node, libcst.For) and isinstance(node.target, libcst.Name) and node.target.value == value.value:
            items = _walked_strings(flow, node.iter, 0)
            return items if items and None not in items else []
        node, previous = file.parent(node), node
    return []


_SAME_ITEMS = frozenset({"list", "tuple", "sorted", "reversed", "set", "frozenset"})  # builtins keeping the items
_MAX_WALK_DEPTH = 4
_UNKNOWN_BOUND = object()


def _walked_strings(flow: Flow, walked: libcst.BaseExpression, depth: int) -> list[str | None]:
    """The strings a loop over an expression takes: a list, tuple or set literal (through the names holding it), a
    slice of one with literal bounds (`RESOURCES[:2]`), one handed to a builtin keeping its items
    (`sorted(RESOURCES)`), or a comprehension copying it (`[r for r in RESOURCES]`); empty for anything else."""
    origins = flow.origins(walked)
    found = origins[0] if len(origins) == 1 else walked
    if isinstance(found, libcst.List | libcst.Tuple | libcst.Set):
        elements = found.elements
        items = [constant_string(flow, item.value) for item in elements if isinstance(item, libcst.Element)]
        return items if len(items) == len(elements) else []
    if depth >= _MAX_WALK_DEPTH:
        return []
    if isinstance(found, libcst.Subscript) and len(found.slice) == 1 and isinstance(found.slice[0].slice, libcst.Slice):
        written = found.slice[0].slice
        bounds = [_bound(part) for part in (written.lower, written.upper, written.step)]
        if any(bound is _UNKNOWN_BOUND for bound in bounds) or bounds[2] == 0:
            return []
        lower, upper, step = (bound if isinstance(bound, int) else None for bound in bounds)
        return _walked_strings(flow, found.value, depth + 1)[lower:upper:step]
    copied = _copying_comprehension(found)
    if copied is not None:
        return _walked_strings(flow, copied, depth + 1)
    if isinstance(found, libcst.Call) and isinstance(found.func, libcst.Name) and found.func.value in _SAME_ITEMS:
        arguments = found.args
        if len(arguments) == 1 and arguments[0].keyword is None and not arguments[0].star:
            return _walked_strings(flow, arguments[0].value, depth + 1)
    return []


def _copying_comprehension(node: libcst.CSTNode) -> libcst.BaseExpression | None:
    """What `[name for name in WATCHED]` walks: a comprehension taking each item as it is, with one loop and no
    test (a test may drop any); None for anything else."""
    if not isinstance(node, libcst.ListComp | libcst.SetComp | libcst.GeneratorExp):
        return None
    clause, element = node.for_in, node.elt
    target = clause.target
    if not isinstance(element, libcst.Name) or not isinstance(target, libcst.Name):
        return None
    if clause.inner_for_in is not None or clause.ifs or clause.asynchronous is not None:
        return None
    return clause.iter if element.value == target.value else None


def _bound(part: libcst.BaseExpression | None) -> int | object | None:
    """A slice bound written as an integer (`2`, `-1`) or left out (None); _UNKNOWN_BOUND for anything else."""
    if part is None:
        return None
    negative = isinstance(part, libcst.UnaryOperation) and isinstance(part.operator, libcst.Minus)
    number = part.expression if isinstance(part, libcst.UnaryOperation) and negative else part
    if not isinstance(number, libcst.Integer):
        return _UNKNOWN_BOUND
    return -int(number.value, 0) if negative else int(number.value, 0)


def _factory_of(file: ParsedFile, call: libcst.Call) -> libcst.FunctionDef | None:
    """The function around a handler call whose `*args` the call passes as its resource, and nothing else."""
    starred = [arg for arg in call.args if arg.keyword is None and arg.star != "**"]
    name = starred[0].value if len(starred) == 1 and starred[0].star == "*" else None
    if not isinstance(name, libcst.Name):
        return None
    node = file.parent(call)
    while node is not None:
        if isinstance(node, libcst.FunctionDef):
            star = node.params.star_arg
            if isinstance(star, libcst.Param) and star.name.value == name.value:
                return node
        node = file.parent(node)
    return None


def _handler_site(
    file: ParsedFile,
    flow: Flow,
    kinds: KindIndex,
    call: libcst.Call,
    names: frozenset[str],
    positional: list[str | None] | None,
    used: libcst.Call | None = None,
    factory: libcst.FunctionDef | None = None,
) -> Site | None:
    """`names`: the qualified names the call's callee has; `positional`: the resource named positionally;
    `used`: the use of the decorator factory `factory` that names the resource; the site is reported there."""
    given = used or call
    if positional is None:
        return None
    keywords = {
        name: constant_string(flow, arg.value)
        for name in ("group", *KOPF_NAME_KEYWORDS)
        if (arg := keyword(given, name) or keyword(call, name)) is not None
    }
    kind = kopf_kind(kinds, positional, keywords)
    if kind is None:
        return None
    by_field = bool(names & _PRESENCE_FILTERED)
    filters = _filters(file, flow, call, by_field=by_field)
    if used is not None and factory is not None:
        filters += _filters(file, flow, used, by_field=by_field) + _filters_added(file, factory, used)
    decorator = file.parent(given)
    anchor: libcst.CSTNode
    if isinstance(decorator, libcst.Decorator):
        # SPEC §3: a decorator's finding lands on its first line, at the `@`
        span, prefix, anchor = file.first_line_span(decorator), "@", file.parent(decorator) or decorator
    else:
        span, prefix, anchor = file.span(method_name(given) or given), "", given
    return Site(
        operation=Operation.WATCH,
        access=Access.KOPF,
        kind=kind,
        form=ObjectForm.TYPED,
        span=span,
        call=prefix + file.code(given.func),
        construct=prefix + file.code(given),
        enclosing=_handler_name(file, flow, given, decorator),
        policy_keys=(POLICY_KEY,),
        filters=tuple(filters),
        condition=run_condition(file, flow, anchor),
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


def _filters(file: ParsedFile, flow: Flow, call: libcst.Call, *, by_field: bool) -> list[Evidence]:
    """The filter arguments of a handler; one that is None or empty in the default deployment filters nothing
    (`annotations=annotation_filter()` returning None unless a test setting is on). `by_field`: `field=` alone is
    one, as on the handlers of no change (`@kopf.on.event("secrets", field=("data", "ca.crt"))`)."""
    found = []
    for name in (*FILTERS, "field") if by_field and keyword(call, "value") is None else FILTERS:
        arg = keyword(call, name)
        if arg is not None and not is_none(arg.value) and truth_by_default(flow, arg.value) is not False:
            found.append(Evidence(argument_span(file, arg), f"`{_short(name + '=' + file.code(arg.value))}`"))
    return found


def _filters_added(file: ParsedFile, factory: libcst.FunctionDef, used: libcst.Call) -> list[Evidence]:
    """The filters a decorator factory adds to the keywords it hands kopf (`kwargs.setdefault("labels", …)`,
    `kwargs["labels"] = …`, `kwargs.update(labels=…)`), but those under an `if` on one of its parameters that
    does not hold for this use (`if cluster_label is not None:` where the use passes none)."""
    star = factory.params.star_kwarg
    if star is None:
        return []
    collector = _KeywordsAdded(star.name.value)
    factory.body.visit(collector)
    return [
        Evidence(file.span(node), f"`{_short(file.code(node))}`")
        for node in collector.found
        if _runs_for(file, factory, used, node) is not False
    ]


def _runs_for(file: ParsedFile, factory: libcst.FunctionDef, used: libcst.Call, node: libcst.CSTNode) -> bool | None:
    """Whether a statement of a factory runs for one use of it, as far as the `if`s around it test the
    factory's parameters against None (or for truth); None when that cannot be told."""
    child, current = node, file.parent(node)
    while current is not None and current is not factory:
        if isinstance(current, libcst.If) and child is current.body:
            holds = _parameter_test(factory, used, current.test)
            if holds is not None and not holds:
                return False
        child, current = current, file.parent(current)
    return None


def _parameter_test(factory: libcst.FunctionDef, used: libcst.Call, test: libcst.BaseExpression) -> bool | None:
    """`p is None`, `p is not None`, `p` or `not p` for a parameter p of the factory, with the value the use
    gives it (its default where the use leaves it out)."""
    if isinstance(test, libcst.UnaryOperation) and isinstance(test.operator, libcst.Not):
        inner = _parameter_test(factory, used, test.expression)
        return None if inner is None else not inner
    if isinstance(test, libcst.Comparison) and len(test.comparisons) == 1:
        target = test.comparisons[0]
        if is_none(target.comparator) and isinstance(target.operator, libcst.Is | libcst.IsNot):
            given = _given(factory, used, test.left)
            if given is None:
                return None
            return is_none(given) is isinstance(target.operator, libcst.Is)
        return None
    given = _given(factory, used, test)
    if given is None:
        return None
    if is_none(given) or is_empty_literal(given) or (isinstance(given, libcst.Name) and given.value == "False"):
        return False
    return True if isinstance(given, libcst.SimpleString | libcst.Integer | libcst.Dict | libcst.Call) else None


def _given(factory: libcst.FunctionDef, used: libcst.Call, name: libcst.BaseExpression) -> libcst.BaseExpression | None:
    """What a use of the factory gives the keyword parameter `name` (its default when the use leaves it out)."""
    if not isinstance(name, libcst.Name):
        return None
    parameter = next((p for p in factory.params.kwonly_params if p.name.value == name.value), None)
    if parameter is None:
        return None
    passed = keyword(used, name.value)
    return passed.value if passed is not None else parameter.default


class _KeywordsAdded(libcst.CSTVisitor):
    """The statements that add a filter to a `**kwargs` dictionary."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.found: list[libcst.CSTNode] = []

    def visit_Call(self, node: libcst.Call) -> None:
        func = node.func
        if not (isinstance(func, libcst.Attribute) and isinstance(func.value, libcst.Name)):
            return
        if func.value.value != self.name:
            return
        first = node.args[0] if node.args else None
        sets = func.attr.value == "setdefault" and first is not None and _names_a_filter(first.value)
        updates = func.attr.value == "update" and any(
            arg.keyword is not None and arg.keyword.value in FILTERS for arg in node.args
        )
        if sets or updates:
            self.found.append(node)

    def visit_Assign(self, node: libcst.Assign) -> None:
        for target in node.targets:
            subscript = target.target
            if not isinstance(subscript, libcst.Subscript) or len(subscript.slice) != 1:
                continue
            element = subscript.slice[0].slice
            value = element.value if isinstance(element, libcst.Index) else None
            named = isinstance(subscript.value, libcst.Name) and subscript.value.value == self.name
            if named and value is not None and _names_a_filter(value):
                self.found.append(node)


def _names_a_filter(node: libcst.BaseExpression) -> bool:
    return isinstance(node, libcst.SimpleString) and node.evaluated_value in FILTERS


def _handler_name(file: ParsedFile, flow: Flow, call: libcst.Call, decorator: libcst.CSTNode | None) -> str:
    """The handler function: the decorated one, or the one passed in `kopf.on.event("pods")(fn)`."""
    owner = file.parent(decorator) if isinstance(decorator, libcst.Decorator) else None
    if isinstance(owner, libcst.FunctionDef):
        return owner.name.value
    outer = file.parent(call)
    if isinstance(outer, libcst.Call) and outer.func is call and outer.args:
        return file.code(outer.args[0].value)
    return flow.enclosing_name(call)


@dataclass(frozen=True, slots=True)
class _Option:
    """A keyword a runner receives: written in the call, or an entry of a `**options` dict built in sight."""

    key: str
    value: libcst.BaseExpression
    anchor: libcst.CSTNode  # the argument or dict entry, for spans and `if` branches
    in_call: bool


def _scope(file: ParsedFile, flow: Flow, call: libcst.Call) -> list[Restriction]:
    """The namespaces a kopf.run / operator / spawn_tasks call serves; none when it serves the cluster."""
    options, unreadable = _options(flow, call)
    for option in options:
        is_unconditional = option.in_call or branch_condition(file, flow, option.anchor) is None
        if option.key == "clusterwide" and is_unconditional and is_true(option.value):
            return []  # kopf refuses clusterwide=True together with namespaces
        # `clusterwide=not ns` is true by default as `namespaces=[ns] if ns else None` is off: the latter says when
    found = []
    call_condition = branch_condition(file, flow, call)
    for option in options:
        if option.key not in ("namespaces", "namespace") or is_empty_literal(option.value):
            continue  # namespace= is the deprecated form of namespaces=[…]
        if _serves_everything(flow, option.value):
            continue
        where = call_condition if option.in_call else branch_condition(file, flow, option.anchor)
        narrows = value_condition(file, flow, option.value) or empty_by_default(file, flow, option.value)
        if narrows is None and _matches_every_namespace(strings_by_default(flow, option.value) or ()):
            # `namespaces=[os.getenv("WATCH_NAMESPACE", "*")]`: every namespace unless the variable is set
            listed = option.value.elements if isinstance(option.value, libcst.List | libcst.Tuple) else ()
            read = (name for item in listed if (name := environment_variable(flow, item.value)) is not None)
            variable = environment_variable(flow, option.value) or next(read, None)
            text = (
                setting_given(variable, environment=True) if variable else f"`{_short(file.code(option.value))}` is set"
            )
            narrows = Condition(text, file.span(option.value), False)
        condition = _stricter(narrows, where)
        shown = f"`{_short(f'{file.code(call.func)}({option.key}={file.code(option.value)})')}`"
        anchor = option.anchor
        if isinstance(anchor, libcst.Arg):
            span = argument_span(file, anchor)
        else:  # a dict entry; one built in another module is cited at the call
            span = file.span(anchor) if anchor in file.parents else file.span(call)
        found.append(Restriction(Mitigation.OPERATOR_NAMESPACES, None, span, shown, condition=condition))
    if not found and unreadable is not None:
        text = f"`{_short(file.code(call))}` may set namespaces"
        span = argument_span(file, unreadable)
        found.append(Restriction(Mitigation.UNRESOLVED, None, span, text, condition=call_condition))
    return found


def _stricter(first: Condition | None, second: Condition | None) -> Condition | None:
    """Of two conditions that must both hold, the one that decides: false by default, else unknown."""
    if first is None or second is None:
        return first or second
    for holds in (False, None):
        for condition in (first, second):
            if condition.holds_by_default is holds:
                return condition
    return first


def _options(flow: Flow, call: libcst.Call) -> tuple[list[_Option], libcst.Arg | None]:
    """The runner's keywords, and the first `**options` whose contents cannot be read (None: all were read)."""
    options = [_Option(arg.keyword.value, arg.value, arg, True) for arg in call.args if arg.keyword is not None]
    unreadable = None
    for star in (arg for arg in call.args if arg.star == "**"):
        entries = _dict_options(flow, star.value)
        if entries is None:
            unreadable = unreadable or star
        else:
            options.extend(entries)
    return options, unreadable


def _dict_options(flow: Flow, value: libcst.BaseExpression) -> list[_Option] | None:
    """`opts = {"clusterwide": False, …}` and later `opts["namespaces"] = …`, or None when not in sight."""
    entries = keyword_dict(flow, value)
    if entries is None:
        return None
    return [_Option(key, entry, entry, False) for key, entry in entries]


def _serves_everything(flow: Flow, value: libcst.BaseExpression) -> bool:
    """`namespaces=["*"]`: kopf's glob patterns that match every namespace narrow nothing. kopf splits each
    pattern at commas and starts one whose first glob excludes with `*` (`"!kube-system"`, `"*,!kube-system"`
    match all but one); a namespace served by any pattern is served."""
    origins = flow.origins(value)
    single = constant_string(flow, value)  # `namespace="*"`, the deprecated form of `namespaces=["*"]`
    if single is not None:
        return _matches_every_namespace((single,))
    if len(origins) != 1 or not isinstance(origins[0], libcst.List | libcst.Tuple | libcst.Set):
        return False
    patterns = [constant_string(flow, element.value) for element in origins[0].elements]
    return _matches_every_namespace(tuple(pattern for pattern in patterns if pattern is not None))


def _matches_every_namespace(patterns: tuple[str, ...]) -> bool:
    """Whether one of kopf's namespace patterns serves every namespace (its first glob `*`, or one excluding)."""
    firsts = [pattern.split(",")[0].strip() for pattern in patterns]
    return any(first == "*" or first.startswith("!") for first in firsts)


def _short(text: str) -> str:
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1].rstrip() + "…"
