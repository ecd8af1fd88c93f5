"""Project functions the client calls go through: whether one a list method is handed to opens a watch
stream with it (dstack's `watch_events(api.list_namespaced_pod, …)` calls `Watch().stream(method, …)`), where
a function or class of the file calls a list method handed to it, and whether a parameter passed on as a
selector or namespace is left out by a call, so it keeps its empty default."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import libcst

from watchlint.facts import Condition
from watchlint.python.flow import Flow
from watchlint.python.names import constant_string, is_empty_literal, is_none

# executors' methods that call a function with the arguments after it, by the function's position
_RUNS_ITS_ARGUMENT = {"submit": 0, "run_in_executor": 1, "to_thread": 0}


def streams_parameter(flow: Flow, call: libcst.Call, index: int) -> bool:
    """Whether the project function `call` calls hands its positional parameter `index` to a `.stream(…)`, also
    where an executor runs it (`pool.submit(monitor, list_func, …)`), or the project class it builds keeps it
    for one (a threaded watcher's `self.func = func` streamed by `run()`, of this module or another)."""
    function = flow.project_function(call.func)
    runner = call.func.attr.value if isinstance(call.func, libcst.Attribute) else ""
    ran_at = _RUNS_ITS_ARGUMENT.get(runner)
    if function is None and ran_at is not None and ran_at < index and not call.args[ran_at].keyword:
        function, index = flow.project_function(call.args[ran_at].value), index - ran_at - 1
    if function is None:
        owner = flow.project_class(call.func) if isinstance(call.func, libcst.Name) else None
        return owner is not None and _class_streams(owner[1], index, passes_more=len(call.args) > index + 1)
    parameters = function.params.params
    if index >= len(parameters):
        return False
    holds = partial(_names, name=parameters[index].name.value)
    return bool(_calls(function.body, partial(_streams, holds=holds)))


def _class_streams(owner: libcst.ClassDef, index: int, *, passes_more: bool) -> bool:
    """Whether a class keeps the positional argument `index` of its construction (`__init__`'s parameter after
    self) in an attribute its methods hand to a `.stream(…)` with nothing but what the construction gives after
    it (`*self.args, **self.kwargs`), or alone where the construction gives nothing more: the list's arguments
    are then the construction's."""
    init = _method_of(owner, "__init__")
    if init is None or index + 1 >= len(init.params.params):
        return False
    kept = _kept_as(init, init.params.params[index + 1].name.value)
    if kept is None:
        return False
    streams = _calls(owner, partial(_streams, holds=partial(_is_self_attribute, name=kept)))
    return any(all(arg.star for arg in found.args[1:]) if found.args[1:] else not passes_more for found in streams)


def omitted_default(flow: Flow, value: libcst.BaseExpression) -> tuple[str, str] | None:
    """When a value is a parameter that defaults to None or an empty literal and a call of its function in
    the same module leaves it out (`all_secrets()` of `def all_secrets(label_selector=None)`): the parameter
    and the function's names."""
    for origin in flow.origins(value):
        if not isinstance(origin, libcst.Param) or origin.default is None:
            continue
        if not (is_none(origin.default) or is_empty_literal(origin.default)):
            continue
        function = flow.enclosing_function(origin)
        if function is not None and omitted_by_a_call(flow, function, origin):
            return origin.name.value, function.name.value
    return None


def omitted_by_a_call(flow: Flow, function: libcst.FunctionDef, parameter: libcst.Param) -> bool:
    """Whether a call of the function in its module leaves the parameter out."""
    return any(_omits(call, function, parameter) for call in flow.file.calls)


def passed_by_the_calls(
    flow: Flow, function: libcst.FunctionDef, parameter: libcst.Param
) -> list[libcst.BaseExpression]:
    """What the calls of the function in its module pass for the parameter."""
    return [passed for call in flow.file.calls if (passed := _passed(call, function, parameter)) is not None]


def passed_for(flow: Flow, value: libcst.BaseExpression) -> list[tuple[libcst.Call, libcst.BaseExpression]]:
    """Where a value is a parameter of a function of this file: each call of the function in the file (by its
    name, or `x.name(…)`) with what it passes for the parameter, by keyword or position."""
    found = []
    for origin in flow.origins(value):
        if not isinstance(origin, libcst.Param) or (function := flow.enclosing_function(origin)) is None:
            continue
        for call in flow.file.calls:
            passed = _passed(call, function, origin)
            if passed is not None:
                found.append((call, passed))
    return found


def names_all(flow: Flow, value: libcst.BaseExpression, everything: frozenset[str], literal: str | None) -> bool:
    """Whether a namespace value is a library's all-namespaces constant (`everything`) or its string (`literal`)."""
    origins = flow.origins(value)
    return any(flow.qualified_names(origin) & everything for origin in origins) or (
        literal is not None and constant_string(flow, value) == literal
    )


def passed_every_namespace(
    flow: Flow, value: libcst.BaseExpression, everything: frozenset[str], literal: str | None
) -> Condition | None:
    """Where a namespace is a parameter of a helper that a call in the file gives every namespace
    (`secrets_in(client, ALL_NS)`): the condition, false by default, that the callers pass one namespace."""
    for call, passed in passed_for(flow, value):
        if names_all(flow, passed, everything, literal):
            caller = flow.enclosing_function(call)
            where = f"{caller.name.value}()" if caller is not None else "the module"
            shown = f"{where} passes {called_name(call)}() one namespace, not `{flow.file.code(passed)}`"
            return Condition(shown, flow.file.span(call), False)
    return None


def _passed(call: libcst.Call, function: libcst.FunctionDef, parameter: libcst.Param) -> libcst.BaseExpression | None:
    """What a call of `function` passes for `parameter`; None where it is no such call or passes nothing."""
    if called_name(call) != function.name.value or any(arg.star for arg in call.args):
        return None
    name = parameter.name.value
    keyworded = [arg.value for arg in call.args if arg.keyword is not None and arg.keyword.value == name]
    if keyworded:
        return keyworded[0]
    names = _positional_names(call, function)
    position = names.index(name) if name in names else -1
    given = [arg.value for arg in call.args if arg.keyword is None]
    return given[position] if 0 <= position < len(given) else None


def called_name(call: libcst.Call) -> str:
    """The name a call calls: `f` of `f(…)` and of `x.f(…)`; empty for another callee."""
    func = call.func
    if isinstance(func, libcst.Name):
        return func.value
    return func.attr.value if isinstance(func, libcst.Attribute) else ""


def _positional_names(call: libcst.Call, function: libcst.FunctionDef) -> list[str]:
    """The parameters a call's positional arguments fill, in order: a method called on its receiver skips
    `self` or `cls`."""
    positional = [param.name.value for param in function.params.params]
    if isinstance(call.func, libcst.Attribute) and positional[:1] in (["self"], ["cls"]):
        positional = positional[1:]
    return positional


def _omits(call: libcst.Call, function: libcst.FunctionDef, parameter: libcst.Param) -> bool:
    """Whether a call of `function` (by its name, or `self.name(…)`) passes nothing for `parameter`."""
    if called_name(call) != function.name.value or any(arg.star for arg in call.args):
        return False
    if any(arg.keyword is not None and arg.keyword.value == parameter.name.value for arg in call.args):
        return False
    passed = sum(1 for arg in call.args if arg.keyword is None)
    return parameter.name.value not in _positional_names(call, function)[:passed]


def parameter_call(flow: Flow, call: libcst.Call, arg: libcst.Arg, index: int) -> tuple[libcst.Call, int] | None:
    """Where a function of this file that `call` calls calls the value `arg` hands it (krr's
    `self._list_batched(all_namespaces_request=v1.list_job_for_all_namespaces, …)` calling
    `all_namespaces_request(watch=False, label_selector=…)`), or where a class of this file calls it once its
    `__init__` keeps it (patroni's `ObjectCache(dcs, pods_func, …)` calling `self._func(watch=True, …)`): a call
    asking to watch first, else the first call; else where the function streams it (armada's
    `_delete_item_action(list_func, …)` watching `w.stream(list_func, namespace=…, field_selector=…)`). With the
    position of the list's first argument in that call: 0, or 1 in a `.stream(…)`; None where there is none."""
    func = call.func
    owner = flow.project_class(func) if isinstance(func, libcst.Name) else None
    if owner is not None and owner[0] is flow:
        function, skipped = _method_of(owner[1], "__init__"), 1
    elif isinstance(func, libcst.Name):
        function, skipped = flow.local_function(func), 0
    elif isinstance(func, libcst.Attribute) and isinstance(func.value, libcst.Name):
        function, skipped = flow.method(func, func.value.value), 1  # the receiver takes the first parameter
    else:
        return None
    name = _parameter_name(function, arg, index + skipped) if function is not None else None
    if function is None or name is None:
        return None
    holds: Callable[[libcst.BaseExpression], bool]
    scope: libcst.CSTNode
    if owner is not None and owner[0] is flow:
        kept = _kept_as(function, name)  # `self._func = func`: the class calls `self._func(…)`
        if kept is None:
            return None
        holds, scope = partial(_is_self_attribute, name=kept), owner[1]
    else:
        holds, scope = partial(_names, name=name), function.body
    # `function(*args, **kwargs)` forwards what the caller passed after it: those are the list's arguments
    calls = [found for found in _calls(scope, lambda node: holds(node.func)) if not any(a.star for a in found.args)]
    watching = [found for found in calls if _asks_to_watch(found)]
    streams = [found for found in _calls(scope, partial(_streams, holds=holds)) if not any(a.star for a in found.args)]
    # a watch is the stronger use (orca's ResourceProxy lists its kept method once and streams it for ever)
    if watching or streams:
        return (watching[0], 0) if watching else (streams[0], 1)
    return (calls[0], 0) if calls else None


def _streams(call: libcst.Call, holds: Callable[[libcst.BaseExpression], bool]) -> bool:
    """`w.stream(list_func, …)` of what holds the list method, whose other arguments go to the list."""
    first = call.args[0] if call.args else None
    return (
        isinstance(call.func, libcst.Attribute)
        and call.func.attr.value == "stream"
        and first is not None
        and first.keyword is None
        and holds(first.value)
    )


def _method_of(owner: libcst.ClassDef, name: str) -> libcst.FunctionDef | None:
    body = owner.body.body if isinstance(owner.body, libcst.IndentedBlock) else ()
    return next((item for item in body if isinstance(item, libcst.FunctionDef) and item.name.value == name), None)


def _parameter_name(function: libcst.FunctionDef, arg: libcst.Arg, position: int) -> str | None:
    """The parameter an argument fills: its keyword, or the parameter at its position."""
    if arg.keyword is not None:
        return arg.keyword.value
    parameters = function.params.params
    return parameters[position].name.value if position < len(parameters) else None


def _kept_as(init: libcst.FunctionDef, parameter: str) -> str | None:
    """The attribute `__init__` keeps a parameter in (`self._func = func`), if one."""
    for statement in init.body.body if isinstance(init.body, libcst.IndentedBlock) else ():
        small = statement.body if isinstance(statement, libcst.SimpleStatementLine) else []
        for assign in small:
            if not isinstance(assign, libcst.Assign) or len(assign.targets) != 1:
                continue
            target, value = assign.targets[0].target, assign.value
            if isinstance(target, libcst.Attribute) and _is_self_attribute(target, None) and _names(value, parameter):
                return target.attr.value
    return None


def _names(node: libcst.BaseExpression, name: str) -> bool:
    return isinstance(node, libcst.Name) and node.value == name


def _is_self_attribute(node: libcst.BaseExpression, name: str | None) -> bool:
    """`self.name` (any attribute of self where `name` is None)."""
    return (
        isinstance(node, libcst.Attribute)
        and isinstance(node.value, libcst.Name)
        and node.value.value == "self"
        and (name is None or node.attr.value == name)
    )


def _asks_to_watch(call: libcst.Call) -> bool:
    value = next((arg.value for arg in call.args if arg.keyword is not None and arg.keyword.value == "watch"), None)
    return value is not None and not (isinstance(value, libcst.Name) and value.value in ("False", "None"))


def _calls(node: libcst.CSTNode, wanted: Callable[[libcst.Call], bool]) -> list[libcst.Call]:
    collector = _Calls(wanted)
    node.visit(collector)
    return collector.found


class _Calls(libcst.CSTVisitor):
    """The calls a predicate picks in a node, lambdas and nested functions included, in source order."""

    def __init__(self, wanted: Callable[[libcst.Call], bool]) -> None:
        self.wanted = wanted
        self.found: list[libcst.Call] = []

    def visit_Call(self, node: libcst.Call) -> None:
        if self.wanted(node):
            self.found.append(node)
