"""Whether a helper reads at one call of it: the conditions around its read, evaluated with the helper's
parameters bound to what that call passes (`patch(ctx, c, &pod, false)` skips an `if retry { c.Get(…) }`),
through the helpers in between."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import tree_sitter

from watchlint.go import parser
from watchlint.go.declarations import FunctionInfo
from watchlint.go.guards import early_returns_before
from watchlint.go.known import CallBindings, Value
from watchlint.go.model import GoFile
from watchlint.go.scope import enclosing_function

if TYPE_CHECKING:
    from watchlint.go.deployment import Evaluator

MAX_HOPS = 3  # helpers followed from the call reported to the one that reads


def skips_its_read(
    evaluator: Evaluator, call: tuple[GoFile, tree_sitter.Node], read: GoFile, node: tree_sitter.Node
) -> bool:
    """Whether the call never reaches the read `node` in `read`: a condition around it (an `if`, or an early
    return before it) decided by what the call passes, where the helper's other calls leave it open."""
    target = enclosing_function(node)
    bound = _bound_at(evaluator, call, read, target, MAX_HOPS) if target is not None else None
    if bound is None or target is None:
        return False
    unbound = evaluator.parameters(read, node)
    return any(
        _decided(evaluator, read, condition, bound, unbound, wanted=wanted)
        for condition, wanted in _conditions_of(node, target)
    )


def _conditions_of(node: tree_sitter.Node, function: tree_sitter.Node) -> Iterator[tuple[tree_sitter.Node, bool]]:
    """The conditions a node needs within its function, each with the value it needs: the `if`s around it, and
    the early returns before it (false)."""
    child, current = node, node.parent
    while current is not None and current != function:
        if current.type == "if_statement":
            condition = current.child_by_field_name("condition")
            if condition is not None and child not in (condition, current.child_by_field_name("initializer")):
                yield condition, child != current.child_by_field_name("alternative")
        child, current = current, current.parent
    for statement, _ in early_returns_before(node, function):
        condition = statement.child_by_field_name("condition")
        if condition is not None:
            yield condition, False


def _decided(
    evaluator: Evaluator,
    file: GoFile,
    condition: tree_sitter.Node,
    bound: dict[str, Value],
    unbound: dict[str, Value],
    *,
    wanted: bool,
) -> bool:
    """Whether the condition, which the read needs `wanted`, is the other way at this call, though not for every
    call: a condition on the helper's own state (kueue's `if fetch`, false on a retry's first try) says nothing."""
    truth, _ = evaluator.truth(file, condition, bound)
    if truth is None or truth is wanted:
        return False
    return evaluator.truth(file, condition, unbound)[0] is None


def _bound_at(
    evaluator: Evaluator,
    call: tuple[GoFile, tree_sitter.Node],
    read: GoFile,
    target: tree_sitter.Node,
    hops: int,
) -> CallBindings | None:
    """The target function's parameters bound through the calls from `call` down to it; None where the way
    is not found within `hops` calls."""
    file, node = call
    env: dict[str, Value] = evaluator.parameters(file, node)
    for _ in range(hops):
        info = evaluator.resolver.callee(file, node)
        if info is None:
            return None
        arguments = node.child_by_field_name("arguments")
        values = parser.named(arguments) if arguments is not None else []
        env = CallBindings(info.node, evaluator.arguments_bound(file, info, values, env, 1))
        if info.file.path == read.path and info.node.start_byte == target.start_byte:
            return env
        inner = _call_toward(evaluator, info, read, target)
        if inner is None:
            return None
        file, node = info.file, inner
    return None


def _call_toward(
    evaluator: Evaluator, info: FunctionInfo, read: GoFile, target: tree_sitter.Node
) -> tree_sitter.Node | None:
    """The one call in a function's body of the target function (`Patch` calling `patchCommon`); None where
    there is none or several."""
    found = [
        called.node
        for called in info.file.calls()
        if info.node.start_byte <= called.node.start_byte < info.node.end_byte
        and (callee := evaluator.resolver.callee(info.file, called.node)) is not None
        and callee.file.path == read.path
        and callee.node.start_byte == target.start_byte
    ]
    return found[0] if len(found) == 1 else None
