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
