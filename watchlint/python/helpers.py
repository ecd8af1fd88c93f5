"""Project functions a list method is handed to, and whether one opens a watch stream with it: dstack's
`watch_events(api.list_namespaced_pod, …)` calls `Watch().stream(method, *args, **kwargs)`."""

from __future__ import annotations

import libcst

from watchlint.python.flow import Flow


def streams_parameter(flow: Flow, call: libcst.Call, index: int) -> bool:
    """Whether the project function `call` calls hands its positional parameter `index` to a `.stream(…)`."""
    function = _project_function(flow, call.func)
    if function is None:
        return False
    parameters = function.params.params
    if index >= len(parameters):
        return False
    name = parameters[index].name.value
    collector = _StreamCalls()
    function.body.visit(collector)
    return name in collector.streamed


def _project_function(flow: Flow, func: libcst.BaseExpression) -> libcst.FunctionDef | None:
    """The function of the project a call names: of this module, or imported from another one."""
    if isinstance(func, libcst.Name) and (local := flow.local_function(func)) is not None:
        return local
    if flow.project is None:
        return None
    for qualified in sorted(flow.qualified_names(func)):
        module, _, name = qualified.lstrip(".").rpartition(".")
        other = flow.project.module_flow(module) if module else None
        body = other.file.module.body if other is not None else ()
        found = next((node for node in body if isinstance(node, libcst.FunctionDef) and node.name.value == name), None)
        if found is not None:
            return found
    return None


class _StreamCalls(libcst.CSTVisitor):
    """The names given first to a `.stream(…)` call."""

    def __init__(self) -> None:
        self.streamed: set[str] = set()

    def visit_Call(self, node: libcst.Call) -> None:
        func = node.func
        first = node.args[0].value if node.args and node.args[0].keyword is None else None
        if isinstance(func, libcst.Attribute) and func.attr.value == "stream" and isinstance(first, libcst.Name):
            self.streamed.add(first.value)
