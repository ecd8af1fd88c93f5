"""kubernetes and kubernetes_asyncio clients -> list and watch sites (SPEC §3.2).

`list_*_for_all_namespaces(…)` without selectors (WL004), `watch.Watch().stream(v1.list_*_for_all_namespaces, …)`
sync and async (WL001, WL003 when the loop filters by labels), `kubernetes.informer.SharedInformer` on such a
list function (WL001), and the dynamic client's `resources.get(api_version=…, kind=…)` then `.get()`/`.watch()`.
Namespaced calls become sites with a namespace restriction, and a list that reads one bounded page and asks
for no other (`limit=1`, no `_continue`) one with a one-page restriction, so `--show-mitigated` lists them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import libcst

from watchlint.facts import Evidence, Mitigation, Operation, Restriction, Site
from watchlint.python.calls import (
    KUBERNETES_SELECTORS,
    ClientContext,
    Narrowing,
    argument,
    argument_span,
    client_site,
    keyword,
    left_out_namespace,
    one_page,
    restrictions,
)
from watchlint.python.conditions import branch_condition, default_branches, strings_by_default
from watchlint.python.flow import Flow
from watchlint.python.helpers import parameter_call, streams_parameter
from watchlint.python.loops import loop_filters
from watchlint.python.mutations import adds_entries, attribute_owners
from watchlint.python.names import (
    ListMethod,
    constant_string,
    group_of_api_version,
    is_none,
    is_true,
    kind_in_group,
    list_method,
    literal_string,
)
from watchlint.python.remedies import ListCall, dynamic_remedies, kubernetes_remedies

PACKAGES = ("kubernetes.", "kubernetes_asyncio.")
INFORMERS = frozenset({"kubernetes.informer.SharedInformer", "kubernetes.informer.informer.SharedInformer"})
PARTIALS = frozenset({"functools.partial"})
_DEFAULTDICT = "collections.defaultdict"
_MAPPING_TYPES = frozenset({_DEFAULTDICT, "collections.OrderedDict"})
_MAX_CHOICES = 4  # nested `a if c else b` and partials followed to the list method they hold
_ALL_NAMESPACES = Narrowing(KUBERNETES_SELECTORS)
_SHOWN = 64  # the longest chooser a note shows whole
_SELECTOR_KEYWORDS = frozenset({"label_selector", "field_selector"})


@dataclass(frozen=True, slots=True)
class _ListFunction:
    """A list method passed as a value (to a watch stream or an informer), with the arguments bound to it."""

    method: ListMethod
    bound: libcst.Call | None  # functools.partial(v1.list_namespaced_pod, namespace=ns)
    # where the method is chosen among several at run time (a table lookup, a `getattr`, a condition not told)
    # and the other kinds the choice may list alike (as widely: across all namespaces, or in one)
    chooser: libcst.CSTNode | None = None
    others: tuple[str, ...] = ()


def extract_clients(context: ClientContext) -> list[Site]:
    sites = []
    holders = _method_holders(context.flow)
    kept = _kept_as_keywords(context)
    for call in context.file.calls:
        site = _site(context, call, holders, kept)
        if site is not None:
            sites.append(site)
    return sites


def _kept_as_keywords(context: ClientContext) -> frozenset[str]:
    """The keywords this file hands a list method to a call with (robusta's `ResourceLister(list_all=
    v1.list_config_map_for_all_namespaces)`): the only attributes worth following when called."""
    return frozenset(
        arg.keyword.value
        for call in context.file.calls
        for arg in call.args
        if arg.keyword is not None
        and isinstance(arg.value, libcst.Attribute)
        and arg.value.attr.value.startswith("list_")
    )


def _method_holders(flow: Flow) -> frozenset[str]:
    """The names this file assigns a list method or a partial to: the only names worth following when a
    call is given one (`pool.submit(fetch)`), found once per file rather than per argument."""
    return frozenset(
        name for (_, name), values in flow.names.items() if any(_may_hold_method(value) for value in values)
    )


def _may_hold_method(value: libcst.BaseExpression) -> bool:
    """A list method, a partial of something, a `getattr`, a choice between two values, another name, a lookup."""
    if isinstance(value, libcst.Attribute):
        return value.attr.value.startswith("list_")
    if isinstance(value, libcst.Call):
        func = value.func
        return (isinstance(func, libcst.Attribute) and func.attr.value in ("partial", "get")) or (
            isinstance(func, libcst.Name) and func.value in ("partial", "getattr")
        )
    return isinstance(value, libcst.IfExp | libcst.Name | libcst.Subscript)


def _site(context: ClientContext, call: libcst.Call, holders: frozenset[str], kept: frozenset[str]) -> Site | None:
    names = context.file.qualified_names(call.func)
    if names & INFORMERS:
        return _informer(context, call)
    if names & PARTIALS:
        return (
            _stream(context, call, offset=1) if _is_stream_method(call.args[0].value if call.args else None) else None
        )
    func = call.func
    named = isinstance(func, libcst.Call) and context.flow.is_builtin(func.func, ("getattr",))  # `getattr(v1, name)(…)`
    if named or (isinstance(func, libcst.Name) and _assigned_in_file(context.flow, func)):
        return _called_through_variable(context, call)
    if isinstance(func, libcst.Attribute):
        name = func.attr.value
        if name == "stream":
            return _stream(context, call)
        # a project's own `list_…` (krkn's `self.list_continue_helper(v1.list_pod_for_all_namespaces, …)`) may be
        # handed a list method
        if name.startswith("list_") and (listed := _list(context, call, func)) is not None:
            return listed
        if name in ("get", "watch"):
            return _dynamic(context, call, func)
        if name in kept and (function := _kept_method(context, func)) is not None:
            site = _listed(context, call, function.method, None, function.bound)
            return _with_alternatives(context, site, function)
    return _handed_to_helper(context, call, holders) or _passed_on(context, call, holders)


def _kept_method(context: ClientContext, attribute: libcst.Attribute) -> _ListFunction | None:
    """The list method an object of a project class keeps under an attribute its constructor is given by keyword
    (`lister = LISTERS[kind]; lister.list_all()` of `LISTERS = {"configmap": ResourceLister(list_all=v1.list_…)}`),
    the object also looked up in a table of them."""
    name = attribute.attr.value
    found = []
    for origin in context.flow.origins(attribute.value):
        lookup = _table_read(origin)
        for value in _table_values(context, lookup, 1) if lookup is not None else [origin]:
            if not (isinstance(value, libcst.Call) and _keeps_as_given(context, value.func, name)):
                continue
            given = next(
                (arg.value for arg in value.args if arg.keyword is not None and arg.keyword.value == name), None
            )
            function = _list_function(context, given, 1) if given is not None else None
            if function is not None:
                found.append(function)
    return _widest(context, found, attribute)


def _keeps_as_given(context: ClientContext, func: libcst.BaseExpression, name: str) -> bool:
    """Whether a call makes an object of a class of the project (this module's, or one it imports) that keeps
    what its constructor is given under `name` as it is: a class declaring its fields (a dataclass, a pydantic
    model), with no `__init__` of its own nor a method of that name, and no code of this file assigning the
    attribute."""
    found = _project_class(context.flow, func)
    if found is None or not _keeps_fields(context.flow, found) or _defines(found, {name}):
        return False
    # the attribute assigned later on an object that may be one of them (not `args.list_all = False` of an
    # argparse.Namespace the code builds)
    return all(_built_otherwise(context, owner, found) for owner in attribute_owners(context.file, name))


def _project_class(flow: Flow, node: libcst.BaseExpression) -> libcst.ClassDef | None:
    found = flow.project_class(node)
    return found[1] if found is not None else None


def _keeps_fields(flow: Flow, cls: libcst.ClassDef, depth: int = 0) -> bool:
    """Whether a class keeps the fields its constructor is given: none of the _MAKING methods, and only bases
    that keep them too."""
    return not _defines(cls, _MAKING) and all(_plain_base(flow, base.value, depth) for base in cls.bases)


def _defines(cls: libcst.ClassDef, names: frozenset[str] | set[str]) -> bool:
    """Whether a class's body defines a method of one of these names."""
    body = cls.body.body if isinstance(cls.body, libcst.IndentedBlock) else ()
    return any(isinstance(item, libcst.FunctionDef) and item.name.value in names for item in body)


def _built_otherwise(context: ClientContext, owner: libcst.BaseExpression, built: libcst.ClassDef) -> bool:
    """Whether an object is only ever made by calls of a library (`argparse.Namespace()`) or of another class
    of the project, never one of `built` (a lookup or a call not told may give one)."""
    origins = context.flow.origins(owner)
    return bool(origins) and all(
        isinstance(origin, libcst.Call) and _makes_other(context, origin.func, built) for origin in origins
    )


def _makes_other(context: ClientContext, func: libcst.BaseExpression, built: libcst.ClassDef) -> bool:
    project = _project_class(context.flow, func)
    if project is not None:
        return project is not built
    # a library's callable, named through a module the file imports (`argparse.Namespace`)
    module = func
    while isinstance(module, libcst.Attribute):
        module = module.value
    return isinstance(module, libcst.Name) and module is not func and module.value in _imported_modules(context)


def _imported_modules(context: ClientContext) -> frozenset[str]:
    """The names this file binds with top-level `import x` statements."""
    names: set[str] = set()
    for line in context.file.module.body:
        for small in line.body if isinstance(line, libcst.SimpleStatementLine) else ():
            for alias in small.names if isinstance(small, libcst.Import) else ():
                bound = alias.asname.name if alias.asname is not None else None
                names.add(
                    bound.value if isinstance(bound, libcst.Name) else context.file.code(alias.name).split(".")[0]
                )
    return frozenset(names)


_PLAIN_BASES = frozenset({"object", "pydantic.BaseModel", "typing.NamedTuple", "NamedTuple", "BaseModel"})


def _plain_base(flow: Flow, base: libcst.BaseExpression, depth: int = 0) -> bool:
    """A base class that keeps the fields its constructor is given: object, a pydantic model, a NamedTuple, or
    a class of the project keeping them in turn (`_keeps_fields`, three bases deep at most)."""
    names = flow.qualified_names(base) or {flow.file.code(base)}
    if all(name in _PLAIN_BASES for name in names):
        return True
    project = _project_class(flow, base)
    return project is not None and depth <= 2 and _keeps_fields(flow, project, depth + 1)


# the methods by which a class may make or change what its constructor is given, or how it is read
_MAKING = frozenset(
    {"__init__", "__post_init__", "__new__", "__init_subclass__", "__setattr__", "__getattr__", "__getattribute__"}
)


def _assigned_in_file(flow: Flow, name: libcst.Name) -> bool:
    """A name this file assigns in a scope around it: a function or an import is no variable holding a list
    method, and following an imported name would parse the module it comes from."""
    return any((scope, name.value) in flow.names for scope in flow.scope_chain(name))


def _called_through_variable(context: ClientContext, call: libcst.Call) -> Site | None:
    """`fetch = v1.list_secret_for_all_namespaces; fetch()`: the list method a variable holds, or a
    `functools.partial` of it (patroni binds its namespace and selector first), with the arguments of both; or
    the one a `getattr` names."""
    function = _list_function(context, call.func)
    if function is None:
        return None
    return _with_alternatives(context, _listed(context, call, function.method, None, function.bound), function)


def _handed_to_helper(context: ClientContext, call: libcst.Call, holders: frozenset[str]) -> Site | None:
    """A list method handed to a function or class of this file that calls it: the site is where it is handed,
    with the arguments of the helper's call and the condition of the handing; one listing across all namespaces
    first, where several are handed (a namespaced one with it)."""
    handed = []
    for index, arg in enumerate(call.args):
        if arg.star or not _may_be_method(arg.value, holders):
            continue
        function = _list_function(context, arg.value)
        called = parameter_call(context.flow, call, arg, index) if function is not None else None
        if function is not None and called is not None:
            handed.append((function, *called, arg.value))
    handed.sort(key=lambda item: item[0].method.is_namespaced)
    for function, inner, offset, token in handed:
        streamed = offset > 0  # the helper watches with it: `w.stream(list_func, namespace=…)`
        site = _listed(context, inner, function.method, None, function.bound, offset, token, streamed)
        if site is not None:  # shown where handed: the helper's call is far from here, in its own terms
            condition = branch_condition(context.file, context.flow, call)
            where = context.file.span(token.attr if isinstance(token, libcst.Attribute) else token)
            site = replace(site, span=where, construct=context.file.code(call), condition=condition)
            return _with_alternatives(context, site, function)
    return None


def _may_be_method(value: libcst.BaseExpression, holders: frozenset[str]) -> bool:
    """A list method, or a name holding one: the only values whose origins are worth looking up."""
    named = isinstance(value, libcst.Attribute) and value.attr.value.startswith("list_")
    return named or (isinstance(value, libcst.Name) and value.value in holders)


def _passed_on(context: ClientContext, call: libcst.Call, holders: frozenset[str]) -> Site | None:
    """A list method handed to a function that calls it with the arguments after it: `pool.submit(v1.list_…,
    …)`, `loop.run_in_executor(None, v1.list_…)`, `asyncio.to_thread(…)`, a retry helper of the project."""
    for index, arg in enumerate(call.args):
        if arg.keyword is not None or arg.star:
            return None
        value = arg.value
        if not _may_be_method(value, holders):
            continue
        function = _list_function(context, value)
        if function is not None:
            method, bound = function.method, function.bound
            wrapper = context.file.parent(call)
            if isinstance(wrapper, libcst.Call) and wrapper.func is call:
                # a wrapper of the method, called at once (zenml's `retry_on_api_exception(v1.list_…, attempts)(
                # namespace=ns, label_selector=…)`): the outer call's arguments are the list's, the others the wrapper's
                site = _listed(context, wrapper, method, None, bound, token=arg.value, wrapped=True)
                return _with_alternatives(context, site, function)
            streamed = streams_parameter(context.flow, call, index)  # a helper that watches with it
            site = _listed(context, call, method, None, bound, offset=index + 1, token=arg.value, streamed=streamed)
            return _with_alternatives(context, site, function)
    return None


def _list(context: ClientContext, call: libcst.Call, func: libcst.Attribute) -> Site | None:
    method = _method(context, func.value, func.attr.value)
    return _listed(context, call, method, func.attr) if method is not None else None


def _listed(
    context: ClientContext,
    call: libcst.Call,
    method: ListMethod,
    name: libcst.Name | None,
    bound: libcst.Call | None = None,
    offset: int = 0,
    token: libcst.BaseExpression | None = None,
    streamed: bool = False,
    wrapped: bool = False,
) -> Site | None:
    """A call of a list method (`name`: its name token where the call spells it, for the fix), its arguments
    from `offset` on; `bound`: the `functools.partial` that bound the first ones; `streamed`: a helper watches
    with it; `wrapped`: `call` calls a wrapper of the method."""
    kind = _kind(context, method, bound, 1) if bound is not None else _kind(context, method, call, offset)
    if kind is None:
        return None
    calls = [(call, offset)] + ([(bound, 1)] if bound is not None else [])
    watches = [watch for made, _ in calls if (watch := keyword(made, "watch")) is not None]
    is_watch = streamed or any(_asks_to_watch(context, watch.value) for watch in watches)
    found = [item for made, at in calls for item in restrictions(context, made, kind, _narrowing(method, at))]
    if bound is None and not offset and not wrapped:
        found += left_out_namespace(context, call, kind, _narrowing(method, 0))
    if not is_watch and not offset:
        # a helper handed the method may ask for the next pages itself (krkn's `list_continue_helper`)
        found += one_page(context, call, kind)
    filters = loop_filters(context.file, context.flow, call) if is_watch else []
    operation = Operation.WATCH if is_watch else Operation.LIST
    site = client_site(context, call, operation, kind, found, filters, token=token)
    if bound is not None or offset or wrapped:
        return site  # the fix renames the method where the call spells it: not through a partial or a helper
    return kubernetes_remedies(context, site, ListCall(call, method, name, offset=0))


def _asks_to_watch(context: ClientContext, value: libcst.BaseExpression) -> bool:
    """Whether a list call's `watch=` value asks for a watch: anything but False or None, except a parameter
    whose default is no `True` (KubiScan's wrapper `def list_pod_for_all_namespaces(self, watch)`, every caller
    passing False): a list method handed `watch=True` streams only under `Watch().stream`, judged there."""
    if is_none(value) or context.file.code(value) == "False":
        return False
    origins = context.flow.origins(value)
    if not origins or not all(isinstance(origin, libcst.Param) for origin in origins):
        return True
    return any(isinstance(origin, libcst.Param) and is_true(origin.default) for origin in origins)


def _kind(context: ClientContext, method: ListMethod, call: libcst.Call, offset: int) -> str | None:
    """The method's kind; for a custom object list, the plural and group its arguments name (extra kinds)."""
    if not method.is_custom:
        return method.kind
    group = argument(call, "group", offset)
    plural = argument(call, "plural", offset + (3 if method.is_namespaced else 2))
    group_text = constant_string(context.flow, group.value) if group is not None else None
    plural_text = constant_string(context.flow, plural.value) if plural is not None else None
    if group_text is None or plural_text is None:
        return None
    return kind_in_group(context.kinds, plural_text, group_text)


def _narrowing(method: ListMethod, offset: int) -> Narrowing:
    """Where the namespace goes: first for list_namespaced_*, after group and version for custom objects."""
    if not method.is_namespaced:
        return _ALL_NAMESPACES
    return Narrowing(KUBERNETES_SELECTORS, ("namespace", offset + (2 if method.is_custom else 0)), True)


def _method(context: ClientContext, receiver: libcst.BaseExpression, name: str) -> ListMethod | None:
    """The list method `name` of a kubernetes API object; where the project defines a function of that name,
    the receiver must not be the project's own (`self`, an instance of its class, one of its modules)."""
    method = list_method(context.kinds, name)
    if method is None:
        return None
    shadowed = name in context.shadowed and not _is_kubernetes(context, receiver)
    if shadowed and _is_project_receiver(context, receiver, name):
        return None  # e.g. a helper of the project named list_secret_for_all_namespaces
    return method


def _is_project_receiver(context: ClientContext, receiver: libcst.BaseExpression, name: str) -> bool:
    """`self`/`cls`, an instance of a project class, or a receiver nothing is known about (a project module);
    a client a project function returns (`async with get_client() as v1`) is no project object, unless a
    project class has a method of that name and the function hands out no visible kubernetes client."""
    if isinstance(receiver, libcst.Name) and receiver.value in ("self", "cls"):
        return True
    flow = context.flow
    origins = flow.origins(receiver)
    handed_out = isinstance(receiver, libcst.Call) and flow.project_function(receiver.func) is not None
    if (origins == [receiver] and not handed_out) or all(isinstance(origin, libcst.Param) for origin in origins):
        return True  # nothing known: a parameter (an annotated kubernetes one was told apart before)
    if name in context.methods and all(_holds_unseen(context, origin) for origin in origins):
        # KubiScan's `get_api_client().list_pod_for_all_namespaces(watch)` and `Config.api_client.…`: the
        # wrapper object the project sets at start-up, whose class defines the method
        return True
    return any(
        flow.project_class(origin.func if isinstance(origin, libcst.Call) else origin) is not None
        for origin in origins
        if isinstance(origin, libcst.BaseExpression)
    )


def _holds_unseen(context: ClientContext, origin: libcst.CSTNode) -> bool:
    """`None` (an attribute set elsewhere later), or a call of a project function none of whose returns is
    seen to come from the kubernetes package."""
    if is_none(origin):
        return True
    if not isinstance(origin, libcst.Call):
        return False
    function = context.flow.project_function(origin.func)
    if function is None:
        return False
    owner = context.flow.owner(function)
    returned = [found for value in owner.returns.get(function, []) for found in [value, *owner.origins(value)]]
    return not any(
        qualified.startswith(PACKAGES)
        for value in returned
        for qualified in owner.qualified_names(value.func if isinstance(value, libcst.Call) else value)
    )


def _is_kubernetes(context: ClientContext, receiver: libcst.BaseExpression) -> bool:
    for origin in [receiver, *context.flow.origins(receiver)]:
        node = origin.func if isinstance(origin, libcst.Call) else origin
        if isinstance(origin, libcst.Param):
            annotation = origin.annotation
            if annotation is None:
                continue
            node = annotation.annotation
        if any(name.startswith(PACKAGES) for name in context.flow.qualified_names(node)):
            return True
    return False


def _stream(context: ClientContext, call: libcst.Call, offset: int = 0) -> Site | None:
    """`w.stream(v1.list_secret_for_all_namespaces, …)`: the stream's own arguments go to the list call.
    With `offset=1` the call is `functools.partial(w.stream, v1.list_…, …)`, whose arguments come one later."""
    first = argument(call, "func", offset)
    function = _list_function(context, first.value) if first is not None else None
    if function is None:
        return None
    method = function.method
    bound = function.bound
    kind = _kind(context, method, bound, 1) if bound is not None else _kind(context, method, call, offset + 1)
    if kind is None:
        return None
    found = restrictions(context, call, kind, _narrowing(method, offset + 1))
    if bound is not None:
        found += restrictions(context, bound, kind, _narrowing(method, 1))
    elif not offset:
        found += left_out_namespace(context, call, kind, _narrowing(method, 1))
    filters = loop_filters(context.file, context.flow, call) if offset == 0 else []
    token = call.args[0].value if offset else None
    site = client_site(context, call, Operation.WATCH, kind, found, filters, token=token)
    # the fix renames the method where the stream names it: not through a variable or a partial
    written = first.value if first is not None and offset == 0 and bound is None else None
    name = written.attr if isinstance(written, libcst.Attribute) else None
    return _with_alternatives(
        context, kubernetes_remedies(context, site, ListCall(call, method, name, offset=1)), function
    )


def _is_stream_method(value: libcst.BaseExpression | None) -> bool:
    return isinstance(value, libcst.Attribute) and value.attr.value == "stream"


def _list_function(context: ClientContext, value: libcst.BaseExpression, depth: int = 0) -> _ListFunction | None:
    if depth > _MAX_CHOICES:  # `x = a if c else x`: a choice that names itself
        return None
    for origin in context.flow.origins(value):
        if isinstance(origin, libcst.IfExp):  # `v1.list_pod_for_all_namespaces if not ns else v1.list_namespaced_pod`
            chosen = _chosen(context, origin, depth + 1)
            if chosen is not None:
                return chosen
        if isinstance(origin, libcst.Attribute):
            method = _method(context, origin.value, origin.attr.value)
            if method is not None:
                return _ListFunction(method, None)
        if isinstance(origin, libcst.Call) and context.flow.is_builtin(origin.func, ("getattr",)):
            named = _named_method(context, origin, depth + 1)
            if named is not None:
                return named
        found = _bound_or_looked_up(context, origin, depth + 1)
        if found is not None:
            return found
    return None


def _bound_or_looked_up(context: ClientContext, origin: libcst.CSTNode, depth: int) -> _ListFunction | None:
    """The list method a `functools.partial` binds, or one a lookup in a table of them gives."""
    if isinstance(origin, libcst.Call) and context.flow.qualified_names(origin.func) & PARTIALS and origin.args:
        inner = _list_function(context, origin.args[0].value, depth)
        return replace(inner, bound=origin) if inner is not None else None
    lookup = _table_read(origin)
    return _looked_up(context, origin, lookup, depth) if lookup is not None else None


@dataclass(frozen=True, slots=True)
class _Lookup:
    """A value looked up in a mapping: `listers[kind]`, `listers.get(kind)`."""

    table: libcst.BaseExpression
    key: libcst.BaseExpression | None  # None where the lookup's key is not an expression of its own
    default: libcst.BaseExpression | None = None  # what `.get(key, default)` gives for a key no entry has


def _table_read(value: libcst.CSTNode) -> _Lookup | None:
    if isinstance(value, libcst.Subscript):
        index = value.slice[0].slice if len(value.slice) == 1 else None
        return _Lookup(value.value, index.value if isinstance(index, libcst.Index) else None)
    func = value.func if isinstance(value, libcst.Call) else None
    if not (isinstance(func, libcst.Attribute) and func.attr.value == "get"):
        return None
    positional = [
        arg.value if arg.keyword is None and not arg.star else None
        for arg in (value.args if isinstance(value, libcst.Call) else ())
    ]
    key = positional[0] if positional else None
    default = positional[1] if len(positional) > 1 else None
    return _Lookup(func.value, key, default)


def _looked_up(context: ClientContext, read: libcst.CSTNode, lookup: _Lookup, depth: int) -> _ListFunction | None:
    """The list method a lookup in a dict literal of them gives (krkn-lib counts objects through `{"Pod":
    v1.list_pod_for_all_namespaces, …}[kind]`): the entry the key selects in the default deployment, else, the
    kind not being told, one that lists across all namespaces, if any does (SPEC §1: it counts as holding)."""
    found = [
        function
        for value in _table_values(context, lookup, depth)
        if (function := _list_function(context, value, depth)) is not None
    ]
    return _widest(context, found, read)


def _named_method(context: ClientContext, call: libcst.Call, depth: int) -> _ListFunction | None:
    """`getattr(v1, name)`: the list method the name spells, directly or through a table of names (k8s-sidecar
    watches through `getattr(v1, _list_namespace[namespace][resource])`); where several may be named, one that
    lists across all namespaces, if any does."""
    if len(call.args) < 2 or any(arg.keyword is not None or arg.star for arg in call.args[:2]):
        return None
    receiver = call.args[0].value
    found = [
        _ListFunction(method, None)
        for name in _names(context, call.args[1].value, depth)
        if (method := _method(context, receiver, name)) is not None
    ]
    return _widest(context, found, call.args[1].value)


def _names(context: ClientContext, value: libcst.BaseExpression, depth: int) -> list[str]:
    """The strings a value may be: literals, constants, and the values of a table it is looked up in."""
    found = []
    for origin in context.flow.origins(value):
        text = literal_string(origin)
        lookup = _table_read(origin) if text is None and depth <= _MAX_CHOICES else None
        if text is not None:
            found.append(text)
        elif lookup is not None:
            found += [
                name for item in _table_values(context, lookup, depth + 1) for name in _names(context, item, depth + 1)
            ]
    return found


def _table_values(context: ClientContext, lookup: _Lookup, depth: int) -> list[libcst.BaseExpression]:
    """The values a lookup in a table may give: those of its dict literals, also where the table is built by
    `dict(…)` or `defaultdict(lambda: …, {…})`, or is itself looked up in a table of tables; of entries with
    known keys, only the one the lookup's key selects in the default deployment, where that is
    told (k8s-sidecar picks its list method by `RESOURCE`, `configmap` unless set)."""
    entries = _entries(context, lookup.table, depth)
    if adds_entries(context.file, context.flow, lookup.table):
        return [value for _, value in entries] + ([lookup.default] if lookup.default is not None else [])
    return _selected(entries, _key_by_default(context, lookup.key), lookup.default)


def _entries(context: ClientContext, table: libcst.BaseExpression, depth: int) -> list[_Entry]:
    return [entry for origin in context.flow.origins(table) for entry in _mapping_entries(context, origin, depth)]


def _key_by_default(context: ClientContext, key: libcst.BaseExpression | None) -> str | None:
    strings = strings_by_default(context.flow, key) if key is not None else None
    return strings[0] if strings is not None and len(strings) == 1 else None


_Entry = tuple[str | None, libcst.BaseExpression]  # a mapping's key, where told, and its value


def _selected(
    entries: list[_Entry], wanted: str | None, default: libcst.BaseExpression | None = None
) -> list[libcst.BaseExpression]:
    """The values of the entries a key selects: every one, and the `.get` default, when the key is not told or
    an entry's key is not (a literal or a constant); the default alone where no entry has a told key, else every
    value (a `KeyError`, which the table does not show)."""
    if not entries:
        # a table whose entries are not seen (built by a comprehension, a parameter): the default, if any, is
        # the one value the code shows
        return [default] if default is not None else []
    told = wanted is not None and all(key is not None for key, _ in entries)
    chosen = [value for key, value in entries if key == wanted] if told else []
    if chosen:
        return chosen
    if told and default is not None:
        return [default]
    return [value for _, value in entries] + ([default] if default is not None else [])


def _mapping_entries(context: ClientContext, origin: libcst.CSTNode, depth: int) -> list[_Entry]:
    if isinstance(origin, libcst.Dict):
        return [
            (_key_by_default(context, element.key), element.value)
            for element in origin.elements
            if isinstance(element, libcst.DictElement)
        ]
    if depth > _MAX_CHOICES or not isinstance(origin, libcst.BaseExpression):
        return []
    if isinstance(origin, libcst.Call) and (builder := _mapping_builder(context, origin.func)) is not None:
        entries: list[_Entry] = []
        for index, arg in enumerate(origin.args):
            if arg.keyword is not None:
                entries.append((arg.keyword.value, arg.value))  # `dict(secret="read_namespaced_secret")`
            elif index == 0 and builder == _DEFAULTDICT:  # the default's factory: what a missing key gives
                entries += [(None, arg.value.body)] if isinstance(arg.value, libcst.Lambda) else []
            else:
                entries += _entries(context, arg.value, depth + 1)
        return entries
    lookup = _table_read(origin)
    if lookup is None:
        return []
    inner_tables = _table_values(context, lookup, depth + 1)
    return [entry for inner in inner_tables for entry in _entries(context, inner, depth + 1)]


def _mapping_builder(context: ClientContext, func: libcst.BaseExpression) -> str | None:
    """`dict`, `collections.defaultdict` or `collections.OrderedDict`, where a call builds a mapping."""
    if context.flow.is_builtin(func, ("dict",)):
        return "dict"
    return next(iter(context.flow.qualified_names(func) & _MAPPING_TYPES), None)


def _widest(context: ClientContext, found: list[_ListFunction], chooser: libcst.CSTNode) -> _ListFunction | None:
    """Of the list methods a value may hold, one that lists across all namespaces and whose partial binds no
    selector, if any does, with the other kinds those as wide may list (`chooser` picks among them)."""
    open_ = [function for function in found if not _selects(context, function)]
    chosen = next(
        (function for function in (*open_, *found) if not function.method.is_namespaced),
        found[0] if found else None,
    )
    if chosen is None:
        return None
    kinds = {
        kind: None
        for function in open_
        if function.method.is_namespaced == chosen.method.is_namespaced
        for kind in (function.method.kind, *function.others)
    }
    others = tuple(kind for kind in kinds if kind not in ("", chosen.method.kind))
    if others == chosen.others:
        return chosen  # a choice of one: the choice inside it, if any, names the others
    return replace(chosen, chooser=chooser, others=others)


def _selects(context: ClientContext, function: _ListFunction) -> bool:
    """Whether a list method's partial binds it a selector written out (`partial(v1.list_secret_…,
    label_selector="app=shop")`); one read from a setting may be empty by default."""
    bound = function.bound.args if function.bound is not None else ()
    return any(
        arg.keyword is not None and arg.keyword.value in _SELECTOR_KEYWORDS and _written_out(context.flow, arg.value)
        for arg in bound
    )


def _written_out(flow: Flow, value: libcst.BaseExpression) -> bool:
    """A selector the code writes: a non-empty string, an f-string, or a constant holding one (not a setting,
    which may be empty by default)."""
    if isinstance(value, libcst.FormattedString | libcst.ConcatenatedString):
        return True
    return bool(constant_string(flow, value))


def _with_alternatives(context: ClientContext, site: Site | None, function: _ListFunction) -> Site | None:
    """A site whose list method is chosen at run time, with a note naming the other kinds it may list."""
    if site is None or function.chooser is None or not function.others:
        return site
    chooser = " ".join(context.file.code(function.chooser).split())
    shown = chooser if len(chooser) <= _SHOWN else chooser[: _SHOWN - 1].rstrip() + "…"
    others = function.others
    kinds = others[0] if len(others) == 1 else f"{', '.join(others[:-1])} or {others[-1]}"
    note = Evidence(context.file.span(function.chooser), f"`{shown}` may also give the list of {kinds}")
    return replace(site, alternatives=note)


def _chosen(context: ClientContext, choice: libcst.IfExp, depth: int = 0) -> _ListFunction | None:
    """The list method a conditional expression gives in the default deployment; when the condition cannot
    be told, the one that lists across all namespaces, if either does (SPEC §1: it counts as holding)."""
    branches = default_branches(context.flow, choice)
    return _widest(
        context,
        [function for branch in branches if (function := _list_function(context, branch, depth)) is not None],
        choice,
    )


def _informer(context: ClientContext, call: libcst.Call) -> Site | None:
    """`SharedInformer(list_func, namespace=None, resync_period=0, label_selector=None, field_selector=None)`."""
    first = argument(call, "list_func", 0)
    function = _list_function(context, first.value) if first is not None else None
    if function is None:
        return None
    if function.method.is_custom:
        return None  # SharedInformer passes only namespace and selectors on: custom objects cannot be listed
    selectors = (("label_selector", 3), ("field_selector", 4))
    # a namespaced list function needs its namespace: the informer leaves a None one out, and the call raises
    namespaced = function.method.is_namespaced
    narrowing = Narrowing(selectors, ("namespace", 1) if namespaced else None, namespace_required=namespaced)
    found = restrictions(context, call, function.method.kind, narrowing)
    if function.bound is None:  # a partial may bind the namespace
        found += left_out_namespace(context, call, function.method.kind, narrowing)
    return _with_alternatives(
        context, client_site(context, call, Operation.WATCH, function.method.kind, found), function
    )


def _dynamic(context: ClientContext, call: libcst.Call, func: libcst.Attribute) -> Site | None:
    """`resource.get()` / `.watch()` of the dynamic client, or `dyn.get(resource, …)` / `dyn.watch(resource, …)`."""
    shift = 0
    kind = _dynamic_kind(context, func.value)
    resource = argument(call, "resource", 0) if kind is None else None  # `dyn.get(resource=secrets)` too
    if resource is not None and not resource.star:
        kind, shift = _dynamic_kind(context, resource.value), 1
    if kind is None:
        return None
    if func.attr.value == "get":
        name = argument(call, "name", shift)
        if name is not None and not is_none(name.value):
            return None  # one object by name
        narrowing = Narrowing(KUBERNETES_SELECTORS, ("namespace", shift + 1))
        found = restrictions(context, call, kind, narrowing) + one_page(context, call, kind)
        return dynamic_remedies(context, client_site(context, call, Operation.LIST, kind, found), call, shift)
    selectors = (("label_selector", shift + 2), ("field_selector", shift + 3))
    found = restrictions(context, call, kind, Narrowing(selectors, ("namespace", shift)))
    found += _watched_name(context, call, kind, shift)
    filters = loop_filters(context.file, context.flow, call)
    site = client_site(context, call, Operation.WATCH, kind, found, filters)
    return dynamic_remedies(context, site, call, shift)


def _watched_name(context: ClientContext, call: libcst.Call, kind: str, shift: int) -> list[Restriction]:
    name = argument(call, "name", shift + 1)
    if name is None or is_none(name.value):
        return []
    text = f"`name={context.file.code(name.value)}`"
    return [Restriction(Mitigation.SELECTOR, kind, argument_span(context.file, name), text)]


def _dynamic_kind(context: ClientContext, value: libcst.BaseExpression) -> str | None:
    """The kind of `dyn.resources.get(api_version="v1", kind="Secret")`, directly or through variables."""
    for origin in context.flow.origins(value):
        if not (isinstance(origin, libcst.Call) and isinstance(origin.func, libcst.Attribute)):
            continue
        owner = origin.func.value
        is_resources = isinstance(owner, libcst.Attribute) and owner.attr.value == "resources"
        if origin.func.attr.value != "get" or not is_resources:
            continue
        kind = keyword(origin, "kind")
        plural = keyword(origin, "name")
        api_version = keyword(origin, "api_version")
        version = constant_string(context.flow, api_version.value) if api_version is not None else None
        group = group_of_api_version(version) if version is not None else None
        named = kind or plural
        text = constant_string(context.flow, named.value) if named is not None else None
        if text is not None:
            return kind_in_group(context.kinds, text, group)
    return None
