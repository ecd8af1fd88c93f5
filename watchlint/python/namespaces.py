"""Which expression holds a namespace where a call runs: what a `list_namespaced_*` fix passes (SPEC §4).

A parameter called `namespace` or `ns` (kopf hands every handler `namespace`), or a name or `self` attribute
assigned only namespace-like values: an environment variable such as `WATCH_NAMESPACE`, the service account's
namespace file, another object's `.namespace`, or a namespace literal in a name that says so. Code that tests
the value (`if ns:`) knows it may be empty and means "every namespace" then: it is offered nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import libcst

from watchlint.python.conditions import truth_by_default
from watchlint.python.flow import Flow, Scope
from watchlint.python.helpers import omitted_by_a_call, passed_by_the_calls
from watchlint.python.names import constant_string, is_empty_literal, literal_string
from watchlint.python.othermodules import omitted_elsewhere
from watchlint.python.walk import walk
from watchlint.source import Span

NAMESPACE_NAMES = ("namespace", "ns")
SERVICE_ACCOUNT_FILE = "serviceaccount/namespace"
_NAMESPACE_SUFFIXES = ("_namespace", "_ns")
_DNS_LABEL = re.compile(r"[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?")
_ENVIRONMENT = frozenset({"os.environ"})
_ENVIRONMENT_CALLS = frozenset({"os.environ.get", "os.getenv"})
_PATHS = frozenset({"pathlib.Path", "pathlib.PurePath"})
_TRIMS = frozenset({"strip", "rstrip", "lower"})
MAX_STEPS = 6
# The statements whose blocks run on some paths only.
_CONDITIONAL = (
    libcst.If,
    libcst.Else,
    libcst.For,
    libcst.While,
    libcst.ExceptHandler,
    libcst.ExceptStarHandler,
    libcst.MatchCase,
)


def namespace_in_scope(flow: Flow, node: libcst.CSTNode) -> str | None:
    """The expression that holds a namespace where `node` runs, innermost scope first; None when none does."""
    where = flow.file.span(node)
    for scope in flow.scope_chain(node):
        for candidate in _candidates(flow, scope, node, where):
            # code that tests its namespace (`if ns: … else: list every namespace`), or lets it be empty,
            # means every namespace when it is: no other name is offered there either
            return candidate if candidate is not None and candidate not in _tested_names(flow, node) else None
    return None


def is_namespace_name(name: str) -> bool:
    """`namespace`, `ns`, `WATCH_NAMESPACE`, `target_ns`: a name that says it holds one namespace."""
    lowered = name.lower()
    return lowered in NAMESPACE_NAMES or lowered.endswith(_NAMESPACE_SUFFIXES)


def _candidates(flow: Flow, scope: Scope, node: libcst.CSTNode, where: Span) -> Iterator[str | None]:
    """The namespace-holding expressions one scope binds that `node` sees, parameters first; None for a
    namespace that may be empty (`os.getenv("WATCH_NAMESPACE", "")`, `namespace = None`)."""
    if isinstance(scope, libcst.FunctionDef):
        yield from _parameters_holding(flow, scope, node)
    yield from _assigned(flow, scope, node, where)
    if isinstance(scope, libcst.FunctionDef) and scope is flow.enclosing_function(node):
        yield from _attributes(flow, scope)


def _parameters_holding(flow: Flow, function: libcst.FunctionDef, node: libcst.CSTNode) -> Iterator[str]:
    for param in _parameters(function):
        name = param.name.value
        if not (is_namespace_name(name) and _is_string(param) and _resolves_to(flow, node, name, function)):
            continue
        empty = param.default is not None and _empty_by_default(flow, param.default)
        if empty and (omitted_by_a_call(flow, function, param) or omitted_elsewhere(flow, function, param)):
            continue  # `def f(namespace=None)` called as `f()`: that call has no namespace to pass
        if any(_empty_by_default(flow, passed) for passed in passed_by_the_calls(flow, function, param)):
            continue  # `f(args.namespace)` of an option empty by default: nor has that one
        if all(_holds(flow, value, name) for value in flow.names.get((function, name), [])):
            yield name


def _empty_by_default(flow: Flow, value: libcst.BaseExpression) -> bool:
    """Whether a default is None or empty in the default deployment (`None`, `DEFAULT_NAMESPACE = None`,
    `os.getenv("WATCH_NAMESPACE")`)."""
    return is_empty_literal(value) or truth_by_default(flow, value) is False


def _assigned(flow: Flow, scope: Scope, node: libcst.CSTNode, where: Span) -> Iterator[str | None]:
    """The names a scope assigns, in the order of their first assignment."""
    assigned = sorted(
        ((name, values) for (owner, name), values in flow.names.items() if owner is scope),
        key=lambda item: flow.file.span(item[1][0]),
    )
    is_innermost = next(flow.scope_chain(node), None) is scope
    for name, values in assigned:
        if is_innermost and not flow.file.span(values[0]) < where:
            continue  # assigned after the call runs
        if not any(_bound_whenever(flow, value, node, scope) for value in values):
            continue  # bound only on some paths (under an `if`, in a loop): the call may find it unbound
        if not _resolves_to(flow, node, name, scope):
            continue
        if any(_may_be_empty(flow, value, name) for value in values):
            yield None
        elif all(_holds(flow, value, name) for value in values):
            yield name


def _bound_whenever(flow: Flow, value: libcst.CSTNode, node: libcst.CSTNode, scope: Scope) -> bool:
    """Whether an assignment of `value` in `scope` has run whenever `node` runs: each block around it that runs
    only on some paths (a branch, a loop's body, a handler, a case) holds `node` too."""
    around_node = set()
    current = flow.file.parent(node)
    while current is not None and current is not scope:
        around_node.add(id(current))
        current = flow.file.parent(current)
    current, parent = value, flow.file.parent(value)
    while parent is not None and current is not scope:
        is_block = isinstance(current, libcst.IndentedBlock | libcst.SimpleStatementSuite)
        if is_block and isinstance(parent, _CONDITIONAL) and id(current) not in around_node:
            return False
        current, parent = parent, flow.file.parent(parent)
    return True


def _attributes(flow: Flow, method: libcst.FunctionDef) -> Iterator[str]:
    """`self.namespace`, set in any method of the class or in its body."""
    params = method.params.posonly_params or method.params.params
    receiver = params[0].name.value if params else ""
    owner = flow.self_class(method, receiver) if receiver else None
    if owner is None:
        return
    tables = (flow.attributes, flow.names)
    found = sorted({name for table in tables for (scope, name) in table if scope is owner and is_namespace_name(name)})
    for name in found:
        values = flow.attributes.get((owner, name), []) + flow.names.get((owner, name), [])
        if all(_holds(flow, value, name) for value in values):
            yield f"{receiver}.{name}"


def _parameters(function: libcst.FunctionDef | libcst.Lambda) -> list[libcst.Param]:
    params = function.params
    return [*params.posonly_params, *params.params, *params.kwonly_params]


def _is_string(param: libcst.Param) -> bool:
    """Unannotated, or annotated as a string: a `namespace: V1Namespace` parameter holds an object."""
    if param.annotation is None:
        return True
    return "str" in re.findall(r"\w+", libcst.Module([]).code_for_node(param.annotation.annotation))


def _resolves_to(flow: Flow, node: libcst.CSTNode, name: str, scope: Scope) -> bool:
    """Whether `name` at `node` means the binding in `scope`: no inner function, lambda or comprehension
    binds it again, and no loop, `with`, `except` or import rebinds it on the way."""
    if _rebound_around(flow, node, name, scope):
        return False
    for current in flow.scope_chain(node):
        if _rebinds(current, name):
            return False
        if current is scope:
            return True
        is_param = isinstance(current, libcst.FunctionDef) and any(
            param.name.value == name for param in _parameters(current)
        )
        if is_param or (current, name) in flow.names:
            return False
    return False


def _rebound_around(flow: Flow, node: libcst.CSTNode, name: str, scope: Scope) -> bool:
    """A lambda parameter or comprehension variable named `name` around `node`, inside `scope`."""
    current = flow.file.parent(node)
    while current is not None and current is not scope:
        if isinstance(current, libcst.Lambda) and any(param.name.value == name for param in _parameters(current)):
            return True
        if isinstance(current, libcst.ListComp | libcst.SetComp | libcst.DictComp | libcst.GeneratorExp):
            finder = _Names()
            walk(current.for_in, finder)  # the targets, and the iterables, which is conservative
            if name in finder.names:
                return True
        current = flow.file.parent(current)
    return False


def _rebinds(scope: Scope, name: str) -> bool:
    """Whether a scope binds `name` other than by assignment: `for`, `with … as`, `except … as`, imports."""
    finder = _Binders(name)
    for statement in scope.body.body if isinstance(scope, libcst.FunctionDef | libcst.ClassDef) else scope.body:
        walk(statement, finder)
    return finder.found


def _holds(flow: Flow, value: libcst.CSTNode, name: str, steps: int = 0) -> bool:
    """Whether a value assigned to `name` is one namespace."""
    value = _untrimmed(value)
    if steps > MAX_STEPS or not isinstance(value, libcst.BaseExpression):
        return False
    text = literal_string(value)
    if text is not None:  # a fallback (`DEFAULT_NAMESPACE = "default"`) is no namespace the code works in
        fallback = name.upper().startswith(("DEFAULT", "FALLBACK"))
        return is_namespace_name(name) and not fallback and _DNS_LABEL.fullmatch(text) is not None
    if _is_environment_read(flow, value) or _is_service_account_read(flow, value) or _is_namespace_field(value):
        return True
    if isinstance(value, libcst.BooleanOperation) and isinstance(value.operator, libcst.Or):
        return _holds(flow, value.left, name, steps + 1) and _holds(flow, value.right, name, steps + 1)
    if not isinstance(value, libcst.Name | libcst.Attribute):
        return False
    origins = flow.origins(value)
    if origins == [value]:
        return False  # nothing known about it
    return all(
        is_namespace_name(origin.name.value) and _is_string(origin)
        if isinstance(origin, libcst.Param)
        else _holds(flow, origin, name, steps + 1)
        for origin in origins
    )


def _may_be_empty(flow: Flow, value: libcst.CSTNode, name: str) -> bool:
    """`ns = None`, `namespace = ""`, `target = os.getenv("TARGET_NAMESPACE", "")`: every namespace when empty."""
    value = _untrimmed(value)
    if is_namespace_name(name) and is_empty_literal(value):
        return True
    if not isinstance(value, libcst.Call) or not flow.qualified_names(value.func) & _ENVIRONMENT_CALLS:
        return False
    args = _environment_arguments(value)
    return len(args) > 1 and _is_namespace_variable(flow, args[0].value) and is_empty_literal(args[1].value)


def _untrimmed(value: libcst.CSTNode) -> libcst.CSTNode:
    """`x.strip()`, `str(x)`, `await x` -> `x`."""
    while True:
        if isinstance(value, libcst.Await):
            value = value.expression
        elif isinstance(value, libcst.Call) and isinstance(value.func, libcst.Attribute):
            if value.func.attr.value not in _TRIMS:
                return value
            value = value.func.value
        elif isinstance(value, libcst.Call) and isinstance(value.func, libcst.Name) and value.func.value == "str":
            if len(value.args) != 1:
                return value
            value = value.args[0].value
        else:
            return value


def _is_environment_read(flow: Flow, value: libcst.BaseExpression) -> bool:
    """`os.environ["WATCH_NAMESPACE"]`, `os.getenv("POD_NAMESPACE")`; not with an empty default, which says
    the code serves every namespace when the variable is unset."""
    if isinstance(value, libcst.Subscript):
        if not flow.qualified_names(value.value) & _ENVIRONMENT or len(value.slice) != 1:
            return False
        index = value.slice[0].slice
        return isinstance(index, libcst.Index) and _is_namespace_variable(flow, index.value)
    if not isinstance(value, libcst.Call) or not flow.qualified_names(value.func) & _ENVIRONMENT_CALLS:
        return False
    args = _environment_arguments(value)
    if not args or not _is_namespace_variable(flow, args[0].value):
        return False
    return len(args) < 2 or not is_empty_literal(args[1].value)


def _environment_arguments(call: libcst.Call) -> list[libcst.Arg]:
    """The variable and the default of `os.getenv(key, default)` / `os.environ.get(key, default)`."""
    return [arg for arg in call.args if arg.keyword is None or arg.keyword.value in ("key", "default")]


def _is_namespace_variable(flow: Flow, key: libcst.BaseExpression) -> bool:
    """`NAMESPACE`, `WATCH_NAMESPACE`, `POD_NAMESPACE`; `WATCH_NAMESPACES` may list several."""
    text = constant_string(flow, key)
    return text is not None and (text.upper() == "NAMESPACE" or text.upper().endswith("_NAMESPACE"))


def _is_service_account_read(flow: Flow, value: libcst.BaseExpression) -> bool:
    """`open(".../serviceaccount/namespace").read()`, through `with … as f`, or `Path(…).read_text()`."""
    if not (isinstance(value, libcst.Call) and isinstance(value.func, libcst.Attribute)):
        return False
    method = value.func.attr.value
    if method not in ("read", "read_text"):
        return False
    for origin in flow.origins(value.func.value):
        if not isinstance(origin, libcst.Call) or not origin.args:
            continue
        is_open = isinstance(origin.func, libcst.Name) and origin.func.value == "open" and method == "read"
        is_path = bool(flow.qualified_names(origin.func) & _PATHS) and method == "read_text"
        path = constant_string(flow, origin.args[0].value)
        if (is_open or is_path) and path is not None and path.endswith(SERVICE_ACCOUNT_FILE):
            return True
    return False


def _is_namespace_field(value: libcst.BaseExpression) -> bool:
    """`obj.metadata.namespace`, `body["metadata"]["namespace"]`, `meta.get("namespace")`."""
    if isinstance(value, libcst.Attribute):
        return value.attr.value == "namespace"
    if isinstance(value, libcst.Subscript) and len(value.slice) == 1:
        index = value.slice[0].slice
        return isinstance(index, libcst.Index) and literal_string(index.value) == "namespace"
    if isinstance(value, libcst.Call) and isinstance(value.func, libcst.Attribute) and value.func.attr.value == "get":
        return bool(value.args) and literal_string(value.args[0].value) == "namespace"
    return False


def _tested_names(flow: Flow, node: libcst.CSTNode) -> frozenset[str]:
    """The names and `self` attributes tested by an `if` in the function (or module) around `node`."""
    return tested_names(flow.enclosing_function(node) or flow.file.module)


def tested_names(root: libcst.CSTNode) -> frozenset[str]:
    """The names and `self` attributes the conditions under `root` read (`if`, `while`, `x if c else y`)."""
    collector = _Tests()
    walk(root, collector)
    return frozenset(collector.names)


class _Tests(libcst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def visit_If(self, node: libcst.If) -> None:
        self._collect(node.test)

    def visit_IfExp(self, node: libcst.IfExp) -> None:
        self._collect(node.test)

    def visit_While(self, node: libcst.While) -> None:
        self._collect(node.test)

    def _collect(self, test: libcst.BaseExpression) -> None:
        names = _Names()
        walk(test, names)
        self.names.update(names.names)


class _Names(libcst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def visit_Name(self, node: libcst.Name) -> None:
        self.names.add(node.value)

    def visit_Attribute(self, node: libcst.Attribute) -> None:
        if isinstance(node.value, libcst.Name):
            self.names.add(f"{node.value.value}.{node.attr.value}")


class _Binders(libcst.CSTVisitor):
    """Bindings of one name in one scope that are not assignments; nested scopes are left out."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
        self.found = False

    def visit_FunctionDef(self, node: libcst.FunctionDef) -> bool:
        return False

    def visit_ClassDef(self, node: libcst.ClassDef) -> bool:
        return False

    def visit_Lambda(self, node: libcst.Lambda) -> bool:
        return False

    def visit_For(self, node: libcst.For) -> None:
        self._target(node.target)

    def visit_AsName(self, node: libcst.AsName) -> None:  # with … as, except … as, import … as
        self._target(node.name)

    def visit_ImportAlias(self, node: libcst.ImportAlias) -> None:
        if node.asname is None:
            self.found = self.found or libcst.Module([]).code_for_node(node.name).split(".")[0] == self.name

    def _target(self, target: libcst.BaseExpression) -> None:
        names = _Names()
        walk(target, names)
        self.found = self.found or self.name in names.names
