"""Project functions the client calls go through: whether one a list method is handed to opens a watch
stream with it (dstack's `watch_events(api.list_namespaced_pod, …)` calls `Watch().stream(method, …)`), and
whether a parameter passed on as a selector or namespace is left out by a call, so it keeps its empty
default."""

from __future__ import annotations

import libcst

from watchlint.python.flow import Flow
from watchlint.python.names import is_empty_literal, is_none


def streams_parameter(flow: Flow, call: libcst.Call, index: int) -> bool:
    """Whether the project function `call` calls hands its positional parameter `index` to a `.stream(…)`."""
    function = flow.project_function(call.func)
    if function is None:
        return False
    parameters = function.params.params
    if index >= len(parameters):
        return False
    name = parameters[index].name.value
    collector = _StreamCalls()
    function.body.visit(collector)
    return name in collector.streamed


class _StreamCalls(libcst.CSTVisitor):
    """The names given first to a `.stream(…)` call."""

    def __init__(self) -> None:
        self.streamed: set[str] = set()

    def visit_Call(self, node: libcst.Call) -> None:
        func = node.func
        first = node.args[0].value if node.args and node.args[0].keyword is None else None
        if isinstance(func, libcst.Attribute) and func.attr.value == "stream" and isinstance(first, libcst.Name):
            self.streamed.add(first.value)


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
        if function is not None and any(_omits(call, function, origin) for call in flow.file.calls):
            return origin.name.value, function.name.value
    return None


def _omits(call: libcst.Call, function: libcst.FunctionDef, parameter: libcst.Param) -> bool:
    """Whether a call of `function` (by its name, or `self.name(…)`) passes nothing for `parameter`."""
    func = call.func
    name = (
        func.value if isinstance(func, libcst.Name) else func.attr.value if isinstance(func, libcst.Attribute) else ""
    )
    if name != function.name.value or any(arg.star for arg in call.args):
        return False
    if any(arg.keyword is not None and arg.keyword.value == parameter.name.value for arg in call.args):
        return False
    positional = [param.name.value for param in function.params.params]
    if isinstance(func, libcst.Attribute) and positional[:1] in (["self"], ["cls"]):
        positional = positional[1:]
    passed = sum(1 for arg in call.args if arg.keyword is None)
    return parameter.name.value not in positional[:passed]


def parameter_call(flow: Flow, call: libcst.Call, arg: libcst.Arg, index: int) -> libcst.Call | None:
    """Where a function of this file that `call` calls calls the value `arg` hands it (krr's
    `self._list_batched(all_namespaces_request=v1.list_job_for_all_namespaces, …)` calling
    `all_namespaces_request(watch=False, label_selector=…)`): the first call of that parameter, if one."""
    func = call.func
    if isinstance(func, libcst.Name):
        function, skipped = flow.local_function(func), 0
    elif isinstance(func, libcst.Attribute) and isinstance(func.value, libcst.Name):
        function, skipped = flow.method(func, func.value.value), 1  # the receiver takes the first parameter
    else:
        return None
    if function is None:
        return None
    if arg.keyword is not None:
        name = arg.keyword.value
    else:
        positional = function.params.params[skipped:]
        if index >= len(positional):
            return None
        name = positional[index].name.value
    collector = _ParameterCalls(name)
    function.body.visit(collector)
    found = collector.found
    # `function(*args, **kwargs)` forwards what the caller passed after it: those are the list's arguments
    return found if found is not None and not any(arg.star for arg in found.args) else None


class _ParameterCalls(libcst.CSTVisitor):
    """The first call of a name (a parameter) in a function's body, lambdas included."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.found: libcst.Call | None = None

    def visit_Call(self, node: libcst.Call) -> bool:
        if self.found is None and isinstance(node.func, libcst.Name) and node.func.value == self.name:
            self.found = node
        return self.found is None
