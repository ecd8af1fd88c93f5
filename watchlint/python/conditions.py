"""Conditions judged for the default deployment (SPEC §1): `if` branches and `x if c else y` around a
namespace scope or a site, evaluated where the value is visible.

Environment variables without a visible default are empty, so `if os.getenv("WATCH_NAMESPACE"):` is false
by default; anything the analyzer cannot see (a flag, a settings object) cannot be evaluated (None), and a
condition that cannot be evaluated counts as holding.
"""

from __future__ import annotations

import libcst

from watchlint.facts import Condition
from watchlint.python.flow import Flow
from watchlint.python.names import is_empty_literal, literal_string
from watchlint.python.parser import ParsedFile

_ENVIRONMENT_READS = frozenset({"os.environ.get", "os.getenv"})
_UNKNOWN = object()  # a value that cannot be seen


def branch_condition(file: ParsedFile, flow: Flow, node: libcst.CSTNode) -> Condition | None:
    """The condition of the `if` branches around a node, up to its function; None when there is none."""
    found: list[tuple[libcst.BaseExpression, bool, libcst.If]] = []
    child, current = node, file.parent(node)
    while current is not None and not isinstance(current, libcst.FunctionDef | libcst.Module):
        if isinstance(current, libcst.If):
            if child is current.body:
                found.append((current.test, True, current))
            elif child is current.orelse:
                found.append((current.test, False, current))
        child, current = current, file.parent(current)
    if not found:
        return None
    judged = [(test, wanted, where, _holds(flow, test, wanted)) for test, wanted, where in found]
    test, wanted, where, holds = next((item for item in judged if item[3] is False), judged[0])
    if holds is not False and any(item[3] is None for item in judged):
        holds = None
    return Condition(_describe(file, test, wanted), file.span(where.test), holds)


def value_condition(file: ParsedFile, flow: Flow, value: libcst.BaseExpression) -> Condition | None:
    """For `[ns] if ns else None`, the condition under which the value narrows anything."""
    if not isinstance(value, libcst.IfExp):
        return None
    if is_empty_literal(value.orelse) and not is_empty_literal(value.body):
        wanted = True
    elif is_empty_literal(value.body) and not is_empty_literal(value.orelse):
        wanted = False
    else:
        return None
    return Condition(_describe(file, value.test, wanted), file.span(value.test), _holds(flow, value.test, wanted))


def _holds(flow: Flow, test: libcst.BaseExpression, wanted: bool) -> bool | None:
    truth = truth_by_default(flow, test)
    return None if truth is None else truth is wanted


def _describe(file: ParsedFile, test: libcst.BaseExpression, wanted: bool) -> str:
    return f"`{file.code(test)}` {'holds' if wanted else 'does not hold'}"


def truth_by_default(flow: Flow, node: libcst.BaseExpression, steps: int = 0) -> bool | None:
    """Whether an expression is true in the default deployment; None when it cannot be seen."""
    if steps > 6:
        return None
    if isinstance(node, libcst.UnaryOperation) and isinstance(node.operator, libcst.Not):
        inner = truth_by_default(flow, node.expression, steps + 1)
        return None if inner is None else not inner
    if isinstance(node, libcst.BooleanOperation):
        left = truth_by_default(flow, node.left, steps + 1)
        right = truth_by_default(flow, node.right, steps + 1)
        if isinstance(node.operator, libcst.And):
            return False if False in (left, right) else (None if None in (left, right) else True)
        return True if True in (left, right) else (None if None in (left, right) else False)
    if isinstance(node, libcst.Comparison):
        return _comparison(flow, node, steps)
    value = value_by_default(flow, node, steps)
    if value is _UNKNOWN:
        return None
    return bool(value)


def value_by_default(flow: Flow, node: libcst.BaseExpression, steps: int = 0) -> object:
    """The value of a string, None or bool expression in the default deployment, or _UNKNOWN."""
    text = literal_string(node)
    if text is not None:
        return text
    if isinstance(node, libcst.Name) and node.value in ("None", "True", "False"):
        return {"None": None, "True": True, "False": False}[node.value]
    if isinstance(node, libcst.Call) and flow.file.qualified_names(node.func) & _ENVIRONMENT_READS:
        return _environment_default(flow, node, steps)
    if isinstance(node, libcst.Name) and steps < 6:
        origins = flow.origins(node)  # a name assigned once: its value; twice or more: unknown
        if len(origins) == 1 and origins[0] is not node and isinstance(origins[0], libcst.BaseExpression):
            return value_by_default(flow, origins[0], steps + 1)
    return _UNKNOWN


def _environment_default(flow: Flow, call: libcst.Call, steps: int) -> object:
    """`os.getenv("X")` is None by default; `os.getenv("X", "a")` is "a" (SPEC §1: no visible default = empty)."""
    args = [arg for arg in call.args if arg.keyword is None or arg.keyword.value == "default"]
    if len(args) < 2:
        return None
    return value_by_default(flow, args[1].value, steps + 1)


def _comparison(flow: Flow, node: libcst.Comparison, steps: int) -> bool | None:
    if len(node.comparisons) != 1:
        return None
    target = node.comparisons[0]
    left = value_by_default(flow, node.left, steps + 1)
    right = value_by_default(flow, target.comparator, steps + 1)
    if left is _UNKNOWN or right is _UNKNOWN:
        return None
    operator = target.operator
    if isinstance(operator, libcst.Equal | libcst.Is):
        return left == right
    if isinstance(operator, libcst.NotEqual | libcst.IsNot):
        return left != right
    return None
