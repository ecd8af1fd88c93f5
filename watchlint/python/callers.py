"""The condition a module's own calls put on one of its functions: a function the module calls only in
branches that do not run by default (`if os.getenv("AUDIT_SECRETS"): register_audit()`) does not run by
default either (SPEC §1), so neither do the handlers it registers nor the calls it makes."""

from __future__ import annotations

import libcst

from watchlint.facts import Condition
from watchlint.python.conditions import branch_condition
from watchlint.python.flow import Flow
from watchlint.python.othermodules import mentioned_elsewhere, word_pattern
from watchlint.python.parser import ParsedFile


def run_condition(file: ParsedFile, flow: Flow, node: libcst.CSTNode) -> Condition | None:
    """The branches around a node; where none is false by default, the calls of the top-level function
    holding it, which may all be (`if os.getenv("AUDIT"): register_audit()`)."""
    condition = branch_condition(file, flow, node)
    if condition is not None and condition.holds_by_default is False:
        return condition
    return callers_condition(file, flow, node) or condition


def callers_condition(file: ParsedFile, flow: Flow, node: libcst.CSTNode) -> Condition | None:
    """Where the node lies in a top-level function the module calls, each call in a branch false by default,
    and the function's name is used nowhere else in the project: the condition of the first call. None
    where any call may run by default, or the function may be called from elsewhere (a callback, another
    module, a name in a string)."""
    function = _top_level_function(file, node)
    if function is None or function.decorators:
        return None  # a decorator may register or call the function itself
    name = function.name.value
    calls = [
        call
        for call in file.calls
        if isinstance(call.func, libcst.Name) and call.func.value == name and flow.local_function(call.func) is function
    ]
    conditions = [branch_condition(file, flow, call) for call in calls]
    false = [condition for condition in conditions if condition is not None and condition.holds_by_default is False]
    if not calls or len(false) != len(calls):
        return None
    # the text scans last, the costliest: the module names it only in its `def` and those calls, no other at all
    if len(word_pattern(name).findall(file.source.data)) != 1 + len(calls) or mentioned_elsewhere(flow, name):
        return None
    return false[0]


def _top_level_function(file: ParsedFile, node: libcst.CSTNode) -> libcst.FunctionDef | None:
    """The function around the node (the node itself excepted: a decorated handler), if defined at the
    module's top level."""
    current = file.parent(node)
    while current is not None and not isinstance(current, libcst.FunctionDef | libcst.ClassDef):
        current = file.parent(current)
    if not isinstance(current, libcst.FunctionDef):
        return None
    return current if isinstance(file.parent(current), libcst.Module) else None
