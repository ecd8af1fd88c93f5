"""Which objects a loop keeps where a helper it calls tests them: the helper's early `return` (or its answer
`return a if test else b`) read with how the loop takes the answer (`if not wanted(obj): continue`, `if
should_skip(obj): continue`, `[o for o in items if wanted(o)]`, the answer dropped), so that a label test in the
helper gives the selector of what the loop keeps. Where a selector would not keep every object the loop
handles (another return keeps objects the test never saw), nothing is told."""

from __future__ import annotations

import enum
from collections.abc import Sequence

import libcst

from watchlint.python.parser import ParsedFile
from watchlint.python.pickedvalues import logs, reading_call


class _Use(enum.Enum):
    """How a loop takes a helper's answer."""

    DROPPED = "dropped"  # `handle(obj)`: the helper's own work is what the loop does
    YES_KEEPS = "yes keeps"  # `if wanted(obj): …`, `if not wanted(obj): continue`
    NO_KEEPS = "no keeps"  # `if should_skip(obj): continue`


def helper_test_keeps(
    file: ParsedFile, helper: libcst.FunctionDef, calls: list[libcst.Call], test: libcst.BaseExpression
) -> bool | None:
    """Whether the objects a test in a helper holds for are kept by the loop calling it (`calls`); None where
    that cannot be told soundly. `test` is an `if`'s condition, or that of a conditional expression returned;
    either must stand at the top of the helper's body (a test nested under another condition is passed by for
    the objects that condition turns away)."""
    uses = {_use(file, call) for call in calls}
    use = uses.pop() if len(uses) == 1 else None
    owner = file.parent(test)
    if use is None or owner is None:
        return None
    if isinstance(owner, libcst.IfExp):
        return _answer_keeps(file, helper, owner, use)
    if not isinstance(owner, libcst.If):
        return True
    if _top_statements(helper).count(owner) != 1 or _returns_before(helper, owner) or _works_before(helper, owner):
        return None  # nested, after a return that may keep objects the test never saw, or after work on them
    returned = _whole_return(owner)
    if returned is None:
        # `if test: work(obj)`: the helper handles what the test holds for, unless it handles the others too
        return None if _works_after(helper, owner) else not skips(owner)
    truth = _truth(returned.value)
    if use is _Use.DROPPED:
        if not _does_work(returned.value):
            return False  # ends the work early for what the test holds for
        return None if _works_after(helper, owner) else True  # `return reconcile(obj)` is the work
    if truth is None:
        return None
    keeps = truth == (use is _Use.YES_KEEPS)
    if keeps and not _rejects_otherwise(helper, returned, use):
        return None  # the rest of the helper may keep other objects too (`return obj.metadata.namespace == …`)
    return keeps


def _does_work(value: libcst.BaseExpression | None) -> bool:
    """Whether a returned value calls something other than a logger (`return reconcile(obj)`, `return
    {"synced": reconcile(obj)}`), rather than being a value or a log line the caller drops."""
    if value is None:
        return False
    finder = _Calls()
    value.visit(finder)
    return finder.working


class _Calls(libcst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.working = False

    def visit_Call(self, node: libcst.Call) -> bool:
        if logs(node):
            return False
        if reading_call(node):  # `str(obj.metadata.name)`: what it reads may still be work
            return True
        self.working = True
        return False


def _works_after(helper: libcst.FunctionDef, statement: libcst.If) -> bool:
    """Whether the helper does anything after an `if` at its top: an `else` that does not only skip, or a later
    statement other than a constant return, `pass` or a log line."""
    other = statement.orelse
    if other is not None and not (isinstance(other, libcst.Else) and only_skips(other.body)):
        return True
    statements = _top_statements(helper)
    return not all(
        isinstance(small, libcst.Pass)
        or (isinstance(small, libcst.Return) and not _does_work(small.value))
        or (isinstance(small, libcst.Expr) and logs(small.value))
        for small in _smalls(statements[statements.index(statement) + 1 :])
    )


def _works_before(helper: libcst.FunctionDef, statement: libcst.If) -> bool:
    """Whether the helper does something before an `if` at its top: a compound statement, or a call other than
    a logger's and a `.get` reading the object: work done on objects the test turns away too."""
    statements = _top_statements(helper)
    for line in statements[: statements.index(statement)]:
        if not isinstance(line, libcst.SimpleStatementLine):
            return True
        for small in line.body:
            value = small.value if isinstance(small, libcst.Expr | libcst.Assign | libcst.AnnAssign) else None
            if value is not None and _does_work(value) and not _reads_only(value):
                return True
    return False


def _reads_only(value: libcst.BaseExpression) -> bool:
    """`obj.metadata.labels or {}`, `labels.get("app")`: a value read from the object, calling nothing but
    `.get`."""
    finder = _Calls()
    value.visit(finder)
    if not finder.working:
        return True
    return (
        isinstance(value, libcst.Call) and isinstance(value.func, libcst.Attribute) and value.func.attr.value == "get"
    )


def _top_statements(helper: libcst.FunctionDef) -> list[libcst.BaseStatement]:
    body = helper.body
    return list(body.body) if isinstance(body, libcst.IndentedBlock) else []


def _answer_keeps(file: ParsedFile, helper: libcst.FunctionDef, choice: libcst.IfExp, use: _Use) -> bool | None:
    """`return False if test else True`, the helper's only return: kept where the branch the test takes is
    the answer the loop keeps."""
    returned = file.parent(choice)
    if use is _Use.DROPPED or not isinstance(returned, libcst.Return) or _returns(helper) != [returned]:
        return None
    line = file.parent(returned)
    if line is None or line not in _top_statements(helper):
        return None
    body, orelse = _truth(choice.body), _truth(choice.orelse)
    if body is None or orelse is None or body == orelse:
        return None
    return body == (use is _Use.YES_KEEPS)


def _use(file: ParsedFile, call: libcst.Call) -> _Use | None:
    """How the loop takes the answer of one call of the helper; None for a use not followed (kept in a name,
    compared, handed on)."""
    node: libcst.CSTNode = call
    parent = file.parent(node)
    if isinstance(parent, libcst.Await):
        node, parent = parent, file.parent(parent)
    if isinstance(parent, libcst.Expr):
        return _Use.DROPPED
    climbed = _climbed(file, node)
    if climbed is None:
        return None
    node, parent, yes, joined = climbed
    if isinstance(parent, libcst.If) and parent.test is node:
        above = file.parent(parent)
        if isinstance(above, libcst.If) and above.orelse is parent:
            return None  # an `elif`: what the branches before it handle never reaches the helper
        other = parent.orelse
        if other is not None and not (isinstance(other, libcst.Else) and only_skips(other.body)):
            return None  # `if wanted(o): … else: …`: the objects it says no to are handled too
        skipping = skips(parent)
    elif isinstance(parent, libcst.CompIf) and parent.test is node:
        skipping = False
    else:
        return None
    # `if a and wanted(o): work` keeps only what the helper says yes to, `if skip(o) or b: continue` skips
    # all it says yes to; the other joins let objects by whatever the helper says
    if joined is not None and joined is not (libcst.Or if skipping else libcst.And):
        return None
    return _Use.YES_KEEPS if yes != skipping else _Use.NO_KEEPS


def _climbed(
    file: ParsedFile, node: libcst.CSTNode
) -> tuple[libcst.CSTNode, libcst.CSTNode | None, bool, type[libcst.BaseBooleanOp] | None] | None:
    """From an answer up through `not`, `await` and one kind of `and`/`or` (the outermost): the expression
    reached, its parent, whether it is true where the helper says yes, and the join; None for a `not` around
    a join, where the answer no longer decides alone."""
    yes = True
    joined: type[libcst.BaseBooleanOp] | None = None
    parent = file.parent(node)
    while True:
        if isinstance(parent, libcst.UnaryOperation) and isinstance(parent.operator, libcst.Not):
            if joined is not None:
                return None
            yes = not yes
        elif isinstance(parent, libcst.BooleanOperation):
            if joined not in (None, type(parent.operator)):
                return None
            joined = type(parent.operator)
        elif not isinstance(parent, libcst.Await):
            return node, parent, yes, joined
        node, parent = parent, file.parent(parent)


def _rejects_otherwise(helper: libcst.FunctionDef, kept_by: libcst.Return, use: _Use) -> bool:
    """Whether every other way out of the helper gives the answer the loop drops: its other returns, constants,
    and its end, where the helper ends there (None: no)."""
    dropped = use is _Use.NO_KEEPS  # the truth of the answer the loop drops
    others = [returned for returned in _returns(helper) if returned is not kept_by]
    if any(_truth(returned.value) is not dropped for returned in others):
        return False
    body = helper.body
    last = body.body[-1] if isinstance(body, libcst.IndentedBlock) and body.body else None
    ends_in_return = (
        isinstance(last, libcst.SimpleStatementLine) and bool(last.body) and isinstance(last.body[-1], libcst.Return)
    )
    return ends_in_return or not dropped


def _returns_before(helper: libcst.FunctionDef, statement: libcst.If) -> bool:
    """Whether a return of the helper comes before an `if` (in source order, outside nested functions)."""
    collector = _Returns()
    helper.body.visit(collector)
    for node in collector.order:
        if node is statement:
            return False
        if isinstance(node, libcst.Return):
            return True
    return False


def _returns(helper: libcst.FunctionDef) -> list[libcst.Return]:
    """The helper's return statements in source order, not those of functions nested in it."""
    collector = _Returns()
    helper.body.visit(collector)
    return [node for node in collector.order if isinstance(node, libcst.Return)]


class _Returns(libcst.CSTVisitor):
    """The `if`s and returns of a function body in source order, not those of functions nested in it."""

    def __init__(self) -> None:
        super().__init__()
        self.order: list[libcst.If | libcst.Return] = []

    def visit_If(self, node: libcst.If) -> None:
        self.order.append(node)

    def visit_Return(self, node: libcst.Return) -> None:
        self.order.append(node)

    def visit_FunctionDef(self, node: libcst.FunctionDef) -> bool:
        return False

    def visit_Lambda(self, node: libcst.Lambda) -> bool:
        return False


def _whole_return(statement: libcst.If) -> libcst.Return | None:
    """The `return` that is an `if`'s whole body."""
    small = _only_small_statement(statement)
    return small if isinstance(small, libcst.Return) else None


def skips(statement: libcst.If) -> bool:
    """`if test: continue` (or a bare `return`): the loop keeps what the test rejects."""
    small = _only_small_statement(statement)
    return isinstance(small, libcst.Continue) or (isinstance(small, libcst.Return) and small.value is None)


def _only_small_statement(statement: libcst.If) -> libcst.BaseSmallStatement | None:
    body = statement.body
    lines = body.body if isinstance(body, libcst.IndentedBlock) else [body]
    if len(lines) != 1 or not isinstance(lines[0], libcst.SimpleStatementLine | libcst.SimpleStatementSuite):
        return None
    small = lines[0].body
    return small[0] if len(small) == 1 else None


def only_skips(body: libcst.BaseSuite) -> bool:
    """Whether a branch does nothing with the object: it passes it by (`continue`, `pass`, `...`, a bare
    `return`), maybe logging that it does."""
    lines = body.body if isinstance(body, libcst.IndentedBlock) else [body]
    return all(
        isinstance(small, libcst.Continue | libcst.Pass | libcst.Break)
        or (isinstance(small, libcst.Return) and small.value is None)
        or (isinstance(small, libcst.Expr) and (isinstance(small.value, libcst.Ellipsis) or logs(small.value)))
        for small in _smalls(lines)
    )


def _smalls(lines: Sequence[libcst.CSTNode]) -> list[libcst.CSTNode]:
    """The small statements of statement lines, a compound statement standing for itself."""
    simple = libcst.SimpleStatementLine | libcst.SimpleStatementSuite
    return [small for line in lines for small in (line.body if isinstance(line, simple) else [line])]


def _truth(value: libcst.BaseExpression | None) -> bool | None:
    """A returned value's truth, where it is a constant (`return`, None, True, False)."""
    if value is None:
        return False
    if isinstance(value, libcst.Name) and value.value in ("None", "True", "False"):
        return value.value == "True"
    return None
