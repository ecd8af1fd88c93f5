"""Helpers that only pick a value, and loops that only hand a value on (WL001 rather than WL003, SPEC §3.2).

k8s-sidecar's watch loop keeps `dest_folder = _get_destination_folder(metadata, …)`, a helper that tests an
annotation only to choose the folder it returns, and writes every object there: the test filters nothing. A
helper's tests are passed over when the helper computes its value and nothing else, and the loop hands the
value only to calls that cannot skip the object for it: of other modules, builtins, or functions of the
project whose parameter is handed on in turn without a test.
"""

from __future__ import annotations

import enum

import libcst

from watchlint.python.flow import Flow
from watchlint.python.namespaces import tested_names
from watchlint.python.parser import ParsedFile
from watchlint.python.walk import walk

# calls that only read: builtins, `os.path`, and the reading methods of strings and mappings
_READING_BUILTINS = frozenset({"len", "str", "int", "bool", "isinstance", "min", "max", "sorted", "any", "all"})
_READING_METHODS = frozenset(
    {"get", "keys", "values", "items", "startswith", "endswith", "strip", "lstrip", "rstrip", "lower", "upper"}
    | {"split", "rsplit", "replace", "format", "join", "isabs", "basename", "dirname", "normpath", "abspath"}
)
_HANDING_BUILTINS = frozenset({"print", "str", "repr", "format", "len", "open"})  # take a value, test nothing
_HANDING_DEPTH = 2  # names derived from the value, and functions handing it on, followed this deep
# what a value passes through on its way into a call's arguments without being tested
_HANDING_ON = (
    libcst.Arg,
    libcst.BinaryOperation,
    libcst.FormattedString,
    libcst.FormattedStringExpression,
    libcst.ConcatenatedString,
    libcst.Tuple,
    libcst.List,
    libcst.Element,
    libcst.DictElement,
    libcst.Dict,
    libcst.Await,
)


def computes_a_value(function: libcst.FunctionDef) -> bool:
    """Whether a function only computes what it returns: it assigns names, logs, chooses in `if`s and returns,
    and calls nothing but some builtins, `os.path` and the methods of strings and mappings that read. Its tests
    choose a value; they do nothing else."""
    return all(_computes(line) for line in lines_of(function.body))


def result_handed_on(file: ParsedFile, flow: Flow, loop: libcst.CSTNode, call: libcst.Call) -> bool:
    """Whether the loop keeps what a call returns in a name it only hands on (`folder = destination(meta,
    default)`, then `write(os.path.join(folder, key))`): nothing the loop does then depends on the value.
    Not a name a condition, a `match`, a list kept for later or a function that tests it reads."""
    owner = file.parent(call)
    target = owner.targets[0].target if isinstance(owner, libcst.Assign) and len(owner.targets) == 1 else None
    return isinstance(target, libcst.Name) and _name_handed_on(file, flow, loop, target, _HANDING_DEPTH, {})


def lines_of(body: libcst.BaseSuite) -> list[libcst.CSTNode]:
    return list(body.body) if isinstance(body, libcst.IndentedBlock) else [body]


def _name_handed_on(
    file: ParsedFile, flow: Flow, scope: libcst.CSTNode, name: libcst.Name, depth: int, known: _Known
) -> bool:
    uses = _uses_in(scope, known).get(name.value, [])
    return all(_handed_on(file, flow, scope, use, depth, known) for use in uses if use is not name)


def _uses_in(scope: libcst.CSTNode, known: _Known) -> dict[str, list[libcst.Name]]:
    """The names under a node by spelling, gathered once per node and question: a loop body deriving many
    names from the value is walked once, not once per name."""
    found = known.get(id(scope))
    if found is None:
        uses = _Uses()
        walk(scope, uses)
        found = known[id(scope)] = uses.found
    return found


_Known = dict[int, dict[str, list[libcst.Name]]]  # the names under each body looked at, by the body's identity


def _handed_on(
    file: ParsedFile, flow: Flow, scope: libcst.CSTNode, use: libcst.Name, depth: int, known: _Known
) -> bool:
    node: libcst.CSTNode = use
    given = False  # given to a function of the project, whose result is not the value
    while True:
        parent = file.parent(node)
        if isinstance(parent, libcst.Expr | libcst.WithItem):
            return True
        if isinstance(parent, libcst.Assign | libcst.AugAssign) and node is parent.value:
            if given:  # `files_changed |= _process(folder, item)`: what the function returns, not the value
                return True
            # `path = os.path.join(folder, key)`, `wanted = json.loads(spec)`: a name derived from the value,
            # handed on in turn
            target = (
                parent.targets[0].target if isinstance(parent, libcst.Assign) and len(parent.targets) == 1 else None
            )
            return (
                isinstance(target, libcst.Name)
                and depth > 0
                and _name_handed_on(file, flow, scope, target, depth - 1, known)
            )
        if isinstance(parent, libcst.Call) and isinstance(node, libcst.Arg):
            taken = _taken(flow, parent, node, depth, known)
            if taken is None:
                return False
            given = given or taken is _Taker.PROJECT
        elif not isinstance(parent, _HANDING_ON):
            return False
        node = parent


class _Taker(enum.Enum):
    LIBRARY = "library"  # a library's function, a logger's or a builtin: what it returns may be the value's
    PROJECT = "project"  # a function of the project that hands the value on untested: it returns something else


def _taken(flow: Flow, call: libcst.Call, arg: libcst.Arg, depth: int, known: _Known) -> _Taker | None:
    """Who takes an argument without testing it: a builtin that tests nothing, a library's function or method
    (`os.path.join`, `shutil.copy`, a logger's), or a function of the project whose parameter no condition
    reads and which hands it on in turn; None for a call that may test it: a method of a value of the loop's
    (`found.append(…)`, a list tested later), a function held in a variable, a name of the project not
    followed (a function its package re-exports, a class's method)."""
    func = call.func
    if arg.star:
        return None
    defined = flow.project_definition(func)
    method = flow.method(func, "self") if defined is None and isinstance(func, libcst.Attribute) else None
    defined = (flow, method) if method is not None else defined
    if defined is None:
        root = _root_name(func) if isinstance(func, libcst.Attribute) else func
        if isinstance(func, libcst.Attribute) and isinstance(root, libcst.Name) and "log" in root.value.lower():
            return _Taker.LIBRARY  # a logger's method, wherever the logger is made
        if not isinstance(root, libcst.Name) or flow.names_the_project(root):
            return None
        if isinstance(func, libcst.Name):
            library = flow.is_builtin(func, _HANDING_BUILTINS) or bool(flow.qualified_names(func))
        else:
            library = bool(flow.qualified_names(root))
        return _Taker.LIBRARY if library else None
    callee_flow, callee = defined
    parameter = _parameter_taking(callee, call, arg, bound=method is not None)
    if parameter is None or parameter.name.value in tested_names(callee.body) or depth == 0:
        return None
    handed = _name_handed_on(callee_flow.file, callee_flow, callee.body, parameter.name, depth - 1, known)
    return _Taker.PROJECT if handed else None


def _parameter_taking(
    callee: libcst.FunctionDef, call: libcst.Call, arg: libcst.Arg, *, bound: bool
) -> libcst.Param | None:
    """The parameter of the callee an argument is given to; a method's `self` (not a staticmethod's) left out."""
    parameters = list(callee.params.params)
    static = any(
        isinstance(decorator.decorator, libcst.Name) and decorator.decorator.value == "staticmethod"
        for decorator in callee.decorators
    )
    if bound and not static:
        parameters = parameters[1:]
    if arg.keyword is not None:
        every = [*parameters, *callee.params.kwonly_params]
        return next((parameter for parameter in every if parameter.name.value == arg.keyword.value), None)
    index = call.args.index(arg)
    return parameters[index] if index < len(parameters) else None


def _root_name(func: libcst.Attribute) -> libcst.Name | None:
    value: libcst.BaseExpression = func
    while isinstance(value, libcst.Attribute):
        value = value.value
    return value if isinstance(value, libcst.Name) else None


def _computes(line: libcst.CSTNode) -> bool:
    if isinstance(line, libcst.SimpleStatementLine | libcst.SimpleStatementSuite):
        return all(_computes_small(small) for small in line.body)
    branch: libcst.If | libcst.Else | None = line if isinstance(line, libcst.If) else None
    if branch is None:
        return False
    while branch is not None:
        if isinstance(branch, libcst.If) and not _only_reads(branch.test):
            return False
        if not all(_computes(inner) for inner in lines_of(branch.body)):
            return False
        orelse = branch.orelse if isinstance(branch, libcst.If) else None
        branch = orelse if isinstance(orelse, libcst.If | libcst.Else) else None
    return True


def _computes_small(small: libcst.BaseSmallStatement) -> bool:
    if isinstance(small, libcst.Pass):
        return True
    if isinstance(small, libcst.Expr):  # a docstring, or a log line
        return isinstance(small.value, libcst.SimpleString) or (logs(small.value) and _reads_arguments(small))
    if isinstance(small, libcst.Return):
        return small.value is None or _only_reads(small.value)
    if isinstance(small, libcst.Assign):
        named = all(isinstance(target.target, libcst.Name) for target in small.targets)
        return named and _only_reads(small.value)
    if isinstance(small, libcst.AnnAssign | libcst.AugAssign):
        return isinstance(small.target, libcst.Name) and (small.value is None or _only_reads(small.value))
    return False


def logs(value: libcst.BaseExpression) -> bool:
    """`logger.info(…)`, `logging.debug(…)`, `log.warning(…)`: a call that only reports (a `print` may be what
    the operator does with the object)."""
    function = value.func if isinstance(value, libcst.Call) else None
    owner = function.value if isinstance(function, libcst.Attribute) else None
    if isinstance(owner, libcst.Attribute):  # `self.logger.info(…)`
        owner = owner.attr
    # a level of a logger named so (`logger.info`, `sidecar_log.warning`): not `backlog.append`, `logic.reconcile`
    return (
        isinstance(function, libcst.Attribute)
        and function.attr.value in _LOG_LEVELS
        and isinstance(owner, libcst.Name)
        and "log" in owner.value.lower()
    )


_LOG_LEVELS = frozenset(
    {"debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log", "msg", "trace"}
)


def _reads_arguments(small: libcst.Expr) -> bool:
    call = small.value
    return isinstance(call, libcst.Call) and all(_only_reads(arg.value) for arg in call.args)


def _only_reads(value: libcst.BaseExpression) -> bool:
    return all(reading_call(call) for call in calls_under(value))


def reading_call(call: libcst.Call) -> bool:
    """A call of a builtin or a string or mapping method that only reads (`str(x)`, `labels.get("app")`)."""
    return (isinstance(call.func, libcst.Name) and call.func.value in _READING_BUILTINS) or (
        isinstance(call.func, libcst.Attribute) and call.func.attr.value in _READING_METHODS
    )


def calls_under(node: libcst.CSTNode) -> list[libcst.Call]:
    """Every call in a node, itself included, in source order."""
    calls = _Calls()
    walk(node, calls)
    return calls.calls


class _Calls(libcst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[libcst.Call] = []

    def visit_Call(self, node: libcst.Call) -> None:
        self.calls.append(node)


class _Uses(libcst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, list[libcst.Name]] = {}

    def visit_Name(self, node: libcst.Name) -> None:
        self.found.setdefault(node.value, []).append(node)

    def visit_Attribute(self, node: libcst.Attribute) -> bool:
        walk(node.value, self)  # `os.path`: the attribute's name is no use of a variable `path`
        return False
