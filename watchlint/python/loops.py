"""The loop that consumes a watch stream or a list's items, and the label or annotation tests in it (WL003,
SPEC §3.2).

`for event in w.stream(…)`, `async with w.stream(…) as stream: async for event in stream`, `for pod in
v1.list_…().items`, and a stream or list kept in a variable first: a test on labels or annotations in that
loop filters in the operator, after the API server has sent every object.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import libcst

from watchlint.facts import Evidence
from watchlint.python.flow import Flow
from watchlint.python.helperanswers import helper_test_keeps, only_skips, skips
from watchlint.python.names import literal_string
from watchlint.python.namespaces import tested_names
from watchlint.python.parser import ParsedFile
from watchlint.python.pickedvalues import calls_under, computes_a_value, result_handed_on
from watchlint.python.selectors import label_requirements
from watchlint.python.walk import walk

_METADATA_FILTER = re.compile(r"label|annotation", re.IGNORECASE)
MAX_SHOWN = 64


def loop_filters(file: ParsedFile, flow: Flow, call: libcst.Call) -> list[Evidence]:
    """The first label or annotation test in the loops that consume the stream a call opens, or in the
    functions of this file those loops hand each event to (one level: `self.handle(event)`)."""
    for test, _ in _filter_tests(file, flow, call):
        shown = file.code(test)
        shown = shown if len(shown) <= MAX_SHOWN else shown[: MAX_SHOWN - 1].rstrip() + "…"
        return [Evidence(file.span(test), f"`if {shown}`")]
    return []


def loop_label_selector(file: ParsedFile, flow: Flow, call: libcst.Call) -> str | None:
    """The label selector that keeps what the loop keeps, when its one label or annotation test reads as one
    (`labels.get("app") != "shop": continue` -> `app=shop`); None otherwise."""
    tests = list(_filter_tests(file, flow, call))
    if len(tests) != 1:
        return None  # several tests may keep the union of what each selects
    test, helper = tests[0]
    owner = file.parent(test)
    keeps: bool | None = True
    if helper is not None:
        keeps = helper_test_keeps(file, *helper, test)
    elif isinstance(owner, libcst.If) and owner.test is test:
        keeps = not skips(owner)
    requirements = label_requirements(flow, test, keeps) if keeps is not None else None
    return ",".join(requirements) if requirements else None


_Helper = tuple[libcst.FunctionDef, list[libcst.Call]]  # a function the loop calls, with its calls there


def _filter_tests(
    file: ParsedFile, flow: Flow, call: libcst.Call
) -> Iterator[tuple[libcst.BaseExpression, _Helper | None]]:
    """Each test, with the helper whose body holds it and the loop's calls of it (None for the loop's own)."""
    loops = _consumers(file, flow, call)
    bodies: list[tuple[libcst.CSTNode, _Helper | None]] = [(loop, None) for loop in loops]
    for loop in loops:
        bodies += [
            (callee.body, (callee, calls))
            for callee, calls in _callees(flow, loop)
            if not (computes_a_value(callee) and all(result_handed_on(file, flow, loop, call) for call in calls))
        ]
    for body, helper in bodies:
        collector = _Tests(body)
        walk(body, collector)
        yield from ((test, helper) for test in collector.tests)


def _callees(flow: Flow, body: libcst.CSTNode) -> list[tuple[libcst.FunctionDef, list[libcst.Call]]]:
    """The functions and methods of this file called in a loop body, with their calls there."""
    found: dict[libcst.FunctionDef, list[libcst.Call]] = {}
    for call in calls_under(body):
        callee: libcst.FunctionDef | None = None
        if isinstance(call.func, libcst.Name):
            callee = flow.local_function(call.func)
        elif isinstance(call.func, libcst.Attribute) and isinstance(call.func.value, libcst.Name):
            callee = flow.method(call.func, call.func.value.value)
        if callee is not None:
            found.setdefault(callee, []).append(call)
    return list(found.items())


def _consumers(file: ParsedFile, flow: Flow, call: libcst.Call) -> list[libcst.CSTNode]:
    """The loop bodies (or comprehension conditions) that iterate what the call returns."""
    node: libcst.CSTNode = call
    parent = file.parent(node)
    while parent is not None and (isinstance(parent, libcst.Await) or _items_of(parent, node)):
        node, parent = parent, file.parent(parent)  # `(await …)`, a list's `.items`
    if isinstance(parent, libcst.For) and parent.iter is node:
        return [parent.body]
    if isinstance(parent, libcst.CompFor) and parent.iter is node:
        return list(parent.ifs)
    if isinstance(parent, libcst.WithItem):
        with_statement = file.parent(parent)
        return [with_statement.body] if isinstance(with_statement, libcst.With) else []
    target: libcst.BaseExpression | None = None
    if isinstance(parent, libcst.Assign) and len(parent.targets) == 1:
        target = parent.targets[0].target
    elif isinstance(parent, libcst.AnnAssign):
        target = parent.target
    if isinstance(target, libcst.Name):
        return _loops_over(file, flow, call, target.value)
    return []


def _items_of(node: libcst.CSTNode | None, value: libcst.CSTNode | None) -> bool:
    """`x.items` (of `value` when given): the objects of a list call's result."""
    return isinstance(node, libcst.Attribute) and node.attr.value == "items" and (value is None or node.value is value)


def _loops_over(file: ParsedFile, flow: Flow, call: libcst.Call, name: str) -> list[libcst.CSTNode]:
    scope = flow.enclosing_function(call) or file.module
    finder = _LoopFinder(name)
    walk(scope, finder)
    return list(finder.bodies)


class _LoopFinder(libcst.CSTVisitor):
    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
        self.bodies: list[libcst.CSTNode] = []

    def visit_For(self, node: libcst.For) -> None:
        iterated = (
            node.iter.value if isinstance(node.iter, libcst.Attribute) and _items_of(node.iter, None) else node.iter
        )
        if isinstance(iterated, libcst.Name) and iterated.value == self.name:
            self.bodies.append(node.body)


class _Tests(libcst.CSTVisitor):
    """Conditions (`if`, `x if c else y`, comprehension `if`) that look at labels or annotations to decide what
    the loop does with an object; not those that only pick a value no later test reads (`if annotations.get(
    "prometheus.io/path"): path = …`), after which every object is handled alike."""

    def __init__(self, body: libcst.CSTNode) -> None:
        super().__init__()
        self.tests: list[libcst.BaseExpression] = []
        self._tested: frozenset[str] | None = None  # the names the loop's conditions read, found when needed
        self._body = body
        self._picks: set[int] = set()  # the conditional expressions that only pick a value

    def visit_If(self, node: libcst.If) -> bool:
        if _dispatches(node):
            return False  # every object goes one way or another: neither its test nor those in its branches filter
        picked = _picked_names(node)
        if picked is None or picked & self._names_tested():
            self._consider(node.test)
        return True

    def visit_Assign(self, node: libcst.Assign) -> None:
        # `scheme = "https" if "prometheus.io/tls" in annotations else "http"`: a value picked for every object
        target = node.targets[0].target if len(node.targets) == 1 else None
        picked = isinstance(target, libcst.Name) and target.value not in self._names_tested()
        if isinstance(node.value, libcst.IfExp) and picked:
            self._picks.add(id(node.value))

    def visit_IfExp(self, node: libcst.IfExp) -> None:
        if id(node) not in self._picks:
            self._consider(node.test)

    def _names_tested(self) -> frozenset[str]:
        if self._tested is None:
            self._tested = tested_names(self._body)
        return self._tested

    def visit_CompIf(self, node: libcst.CompIf) -> None:
        self._consider(node.test)

    def _consider(self, test: libcst.BaseExpression) -> None:
        finder = _MentionsMetadata()
        walk(test, finder)
        if finder.found and test not in self.tests:
            self.tests.append(test)


def _dispatches(statement: libcst.If) -> bool:
    """Whether an `if` hands every object to one branch or another that each does something with it (`if
    labels.get("app") == "shop": … else: …`): it filters nothing. Not where a branch only skips the object
    (`continue`, `pass`, a bare `return`), or no final `else` lets objects pass by."""
    branch: libcst.If | libcst.Else | None = statement
    while isinstance(branch, libcst.If):
        if only_skips(branch.body):
            return False
        branch = branch.orelse
    return isinstance(branch, libcst.Else) and not only_skips(branch.body)


def _picked_names(statement: libcst.If) -> frozenset[str] | None:
    """The local names an `if` only picks a value for (every branch, elif and else too, assigns names values
    that call nothing but `.get`); None for an `if` that does anything else."""
    names: set[str] = set()
    branch: libcst.If | libcst.Else | None = statement
    while branch is not None:
        body = branch.body
        lines = body.body if isinstance(body, libcst.IndentedBlock) else [body]
        for line in lines:
            if not isinstance(line, libcst.SimpleStatementLine | libcst.SimpleStatementSuite):
                return None
            for small in line.body:
                assigned = _assigned_name(small)
                if assigned is None:
                    return None
                names.add(assigned)
        orelse = branch.orelse if isinstance(branch, libcst.If) else None
        branch = orelse if isinstance(orelse, libcst.If | libcst.Else) else None
    return frozenset(names)


def _assigned_name(statement: libcst.BaseSmallStatement) -> str | None:
    """The name `name = value` (also annotated or augmented) assigns, where the value calls nothing but `.get`."""
    if isinstance(statement, libcst.Assign) and len(statement.targets) == 1:
        target, value = statement.targets[0].target, statement.value
    elif isinstance(statement, libcst.AnnAssign | libcst.AugAssign) and statement.value is not None:
        target, value = statement.target, statement.value
    else:
        return None
    picks = all(
        isinstance(call.func, libcst.Attribute) and call.func.attr.value == "get" for call in calls_under(value)
    )
    return target.value if isinstance(target, libcst.Name) and picks else None


class _MentionsMetadata(libcst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.found = False

    def visit_Name(self, node: libcst.Name) -> None:
        self.found = self.found or bool(_METADATA_FILTER.search(node.value))

    def visit_SimpleString(self, node: libcst.SimpleString) -> None:
        text = literal_string(node)
        self.found = self.found or text in ("labels", "annotations")
