"""Conditions judged for the default deployment (SPEC §1): `if` branches and `x if c else y` around a
namespace scope or a site, evaluated where the values are visible.

Environment variables without a visible default are empty, so `if os.getenv("WATCH_NAMESPACE"):` is false
by default; so are options and settings whose declaration shows no default (defaults.py: argparse, click,
typer, settings classes). Anything the analyzer cannot see cannot be evaluated (None), and a condition that
cannot be evaluated counts as holding. A name assigned once unconditionally and reassigned
only in branches that do not run by default keeps its first value (`NS = os.getenv("NS", "ALL")`, then
`if NS != "ALL": NS = NS.split(",")`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeGuard

import libcst

from watchlint.facts import Condition
from watchlint.python import defaults
from watchlint.python.flow import Flow
from watchlint.python.names import is_empty_literal, literal_string
from watchlint.python.parser import ParsedFile
from watchlint.settingphrases import given

_ENVIRONMENT_READS = frozenset({"os.environ.get", "os.getenv"})
_STRING_METHODS = frozenset({"lower", "upper", "strip", "casefold"})  # kept when the string is known
_MADE_OF = _STRING_METHODS | {"split", "rstrip", "lstrip"}  # calls whose result is made of the string they are on
_COPIES = frozenset({"list", "tuple", "set", "sorted"})  # builtins giving the items of what they are given
MAX_STEPS = 8


class _Unknown:
    """A value that cannot be seen."""


UNKNOWN = _Unknown()


@dataclass(frozen=True, slots=True)
class _Context:
    steps: int = 0
    assumed: frozenset[int] = frozenset()  # assignments taken as they are while their own reassignments are judged

    def deeper(self) -> _Context:
        return _Context(self.steps + 1, self.assumed)


def branch_condition(
    file: ParsedFile, flow: Flow, node: libcst.CSTNode, context: _Context | None = None
) -> Condition | None:
    """The condition of the `if` branches around a node, up to its function; None when there is none."""
    found = _branches(file, node)
    if not found:
        return None
    context = context or _Context()
    judged = [(test, wanted, _holds(flow, test, wanted, context)) for test, wanted in found]
    test, wanted, holds = next((item for item in judged if item[2] is False), judged[0])
    if holds is not False and any(item[2] is None for item in judged):
        holds = None
    return Condition(_describe(file, flow, test, wanted), file.span(test), holds)


def _branches(file: ParsedFile, node: libcst.CSTNode) -> list[tuple[libcst.BaseExpression, bool]]:
    """Each test around a node with the truth it must have for the node to run, innermost first: an enclosing
    `if`, an arm of `a if test else b`, the right of `test and x` (or `test or x`, where the test is false), and
    each `if` before it that leaves the function (`if not settings.labels: return []`), whose test must be
    false."""
    found: list[tuple[libcst.BaseExpression, bool]] = []
    child, current = node, file.parent(node)
    while current is not None and not isinstance(current, libcst.FunctionDef | libcst.Module):
        if isinstance(current, libcst.If | libcst.IfExp) and child is not current.test:
            found.append((current.test, child is current.body))
        elif isinstance(current, libcst.BooleanOperation) and child is current.right:
            found.append((current.left, isinstance(current.operator, libcst.And)))
        elif isinstance(current, libcst.IndentedBlock):
            found.extend((statement.test, False) for statement in _early_returns(current, child))
        child, current = current, file.parent(current)
    return found


def _early_returns(block: libcst.IndentedBlock, child: libcst.CSTNode) -> list[libcst.If]:
    """The `if`s without else before `child` in a block whose body leaves the function, innermost first."""
    found = []
    for statement in block.body:
        if statement is child:
            break
        if isinstance(statement, libcst.If) and statement.orelse is None and _leaves(statement.body):
            found.append(statement)
    return found[::-1]


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
    holds = _holds(flow, value.test, wanted, _Context())
    return Condition(_describe(file, flow, value.test, wanted), file.span(value.test), holds)


def empty_by_default(file: ParsedFile, flow: Flow, value: libcst.BaseExpression) -> Condition | None:
    """For a value empty in the default deployment (`namespaces=settings.namespaces` whose declaration
    defaults to `[]`, a variable of an unset environment variable), the condition under which it is not."""
    if isinstance(value, libcst.IfExp) or _truth(flow, value, _Context()) is not False:
        return None
    if _unseen_environment_read(flow, value):
        # `namespace=os.getenv("WATCH_NAMESPACE")` as it is: a value set where it is deployed, which the scope
        # takes unconditionally (SPEC §1, as `Namespace: os.Getenv(…)` in Go)
        return None
    variable = environment_variable(flow, value)
    sources = flow.sources(value) if isinstance(value, libcst.Name) else None
    # `namespaces = settings.observer.namespaces`: the setting names what to configure, the local does not
    named = (
        sources[0] if sources is not None and len(sources) == 1 and isinstance(sources[0], libcst.Attribute) else value
    )
    text = given(variable, environment=True) if variable is not None else f"`{file.code(named)}` is not empty"
    return Condition(text, file.span(value), False)


def _holds(flow: Flow, test: libcst.BaseExpression, wanted: bool, context: _Context) -> bool | None:
    truth = _truth(flow, test, context)
    return None if truth is None else truth is wanted


def _describe(file: ParsedFile, flow: Flow, test: libcst.BaseExpression, wanted: bool) -> str:
    """What must hold, naming the environment variable a bare test reads (`if ns:` with ns from WATCH_NAMESPACE)."""
    if isinstance(test, libcst.UnaryOperation) and isinstance(test.operator, libcst.Not):
        test, wanted = test.expression, not wanted
    variable = environment_variable(flow, test)
    if variable is not None:
        return given(variable, negated=not wanted, environment=True)
    return f"`{file.code(test)}` {'holds' if wanted else 'does not hold'}"


def default_branches(flow: Flow, choice: libcst.IfExp) -> list[libcst.BaseExpression]:
    """The value(s) `a if c else b` may have in the default deployment: the one its condition picks, both
    when the condition cannot be told."""
    truth = _truth(flow, choice.test, _Context())
    return [choice.body] if truth is True else [choice.orelse] if truth is False else [choice.body, choice.orelse]


def _unseen_environment_read(flow: Flow, node: libcst.BaseExpression) -> bool:
    """Whether a value is an environment variable read without a default (`os.getenv("X")`), itself or as the
    one value of a name: what the deployment sets, which the code does not show."""
    read = _environment_read(flow, _single_source(flow, node))
    return read is not None and len(read.args) == 1


def environment_variable(flow: Flow, node: libcst.BaseExpression, depth: int = 0) -> str | None:
    """The environment variable a value reads (`os.getenv("X", "")`, a field of a pydantic settings class with
    an `env_prefix`, or a name assigned either once), to name it in messages; None otherwise. `depth`: the steps
    taken into what the value is made of (`names = [n["name"] for n in names]` reads itself)."""
    node = _single_source(flow, node)
    if _is_or(node):  # `os.getenv("X") or ALL_NS`: what the left reads decides first
        node = _single_source(flow, node.left)
    if (read := _environment_read(flow, node)) is not None:
        return literal_string(read.args[0].value)
    # what the value is made of: `os.getenv(…).split(",")`, `[n.strip() for n in raw.split(",")]`, `[os.getenv(…)]`
    made_of: libcst.BaseExpression | None = None
    if isinstance(node, libcst.Call) and isinstance(node.func, libcst.Attribute) and node.func.attr.value in _MADE_OF:
        made_of = node.func.value
    elif isinstance(node, libcst.ListComp | libcst.SetComp | libcst.GeneratorExp):
        made_of = node.for_in.iter
    elif isinstance(node, libcst.List | libcst.Tuple) and len(node.elements) == 1:
        made_of = node.elements[0].value
    if made_of is not None:
        return environment_variable(flow, made_of, depth + 1) if depth < MAX_STEPS else None
    if isinstance(node, libcst.Attribute):
        return defaults.settings_variable(flow, node)  # `settings.observer.namespaces` of a settings class
    return None


def environment_default(flow: Flow, node: libcst.BaseExpression) -> libcst.BaseExpression | None:
    """The default an environment read gives (`"*"` of `os.getenv("WATCH_NAMESPACE", "*")`), itself or as the one
    value of a name; None for another value, or a read without one."""
    node = _single_source(flow, node)
    if _is_or(node):  # `os.getenv("X") or ALL_NS`: unset or empty, X gives way to the right
        left = _single_source(flow, node.left)
        if _environment_read(flow, left) is None:
            return None
        own = environment_default(flow, left)
        return own if own is not None and truth_by_default(flow, own) else node.right
    read = _environment_read(flow, node)
    args = [arg for arg in read.args if arg.keyword is None or arg.keyword.value == "default"] if read else []
    return args[1].value if len(args) >= 2 else None


def _is_or(node: libcst.BaseExpression) -> TypeGuard[libcst.BooleanOperation]:
    return isinstance(node, libcst.BooleanOperation) and isinstance(node.operator, libcst.Or)


def _single_source(flow: Flow, node: libcst.BaseExpression) -> libcst.BaseExpression:
    """The one value a name is assigned, else the node itself."""
    sources = flow.sources(node) if isinstance(node, libcst.Name) else None
    if sources is not None and len(sources) == 1 and isinstance(sources[0], libcst.BaseExpression):
        return sources[0]
    return node


def _environment_read(flow: Flow, node: libcst.BaseExpression) -> libcst.Call | None:
    """`os.getenv(…)` or `os.environ.get(…)` with its variable's name; None for another value."""
    if isinstance(node, libcst.Call) and flow.qualified_names(node.func) & _ENVIRONMENT_READS and node.args:
        return node
    return None


def strings_by_default(flow: Flow, node: libcst.BaseExpression) -> tuple[str, ...] | None:
    """The strings a value holds in the default deployment: one string (`os.getenv("WATCH_NAMESPACE", "*")`), or
    a list, tuple or comprehension of them (`[os.getenv(…, "*")]`, `os.environ.get(…, "*").split(",")`); None
    when they cannot be told."""
    context = _Context()
    value = _value(flow, node, context)
    if isinstance(node, libcst.List | libcst.Tuple | libcst.Set):
        value = tuple(_value(flow, element.value, context.deeper()) for element in node.elements)
    if isinstance(value, str):
        return (value,)
    if isinstance(value, tuple | list) and all(isinstance(item, str) for item in value):
        return tuple(value)
    return None


def none_by_default(flow: Flow, node: libcst.BaseExpression) -> bool:
    """Whether a value is None in the default deployment (`os.environ.get("WATCH_NAMESPACE")`, unset)."""
    return _value(flow, node, _Context()) is None


def truth_by_default(flow: Flow, node: libcst.BaseExpression) -> bool | None:
    """Whether an expression is true in the default deployment; None when it cannot be seen."""
    return _truth(flow, node, _Context())


def _truth(flow: Flow, node: libcst.BaseExpression, context: _Context) -> bool | None:
    if context.steps > MAX_STEPS:
        return None
    if isinstance(node, libcst.UnaryOperation) and isinstance(node.operator, libcst.Not):
        inner = _truth(flow, node.expression, context.deeper())
        return None if inner is None else not inner
    if isinstance(node, libcst.BooleanOperation):
        left = _truth(flow, node.left, context.deeper())
        right = _truth(flow, node.right, context.deeper())
        if isinstance(node.operator, libcst.And):
            return False if False in (left, right) else (None if None in (left, right) else True)
        return True if True in (left, right) else (None if None in (left, right) else False)
    if isinstance(node, libcst.Comparison):
        return _comparison(flow, node, context)
    value = _value(flow, node, context)
    return None if isinstance(value, _Unknown) else bool(value)


def _value(flow: Flow, node: libcst.BaseExpression, context: _Context) -> object:
    """The value of a string, None or bool expression in the default deployment, or UNKNOWN."""
    if context.steps > MAX_STEPS:
        return UNKNOWN
    text = literal_string(node)
    if text is not None:
        return text
    if isinstance(node, libcst.Name) and node.value in ("None", "True", "False"):
        return {"None": None, "True": True, "False": False}[node.value]
    if isinstance(node, libcst.List | libcst.Tuple | libcst.Set | libcst.Dict):
        return _literal_items(flow, node, context)
    if (items := defaults.collection(node)) is not None:
        return items
    if isinstance(node, libcst.Call):
        return _call_value(flow, node, context)
    if isinstance(node, libcst.ListComp | libcst.SetComp):  # a generator is true whatever it yields
        return _comprehension_value(flow, node, context)
    if isinstance(node, libcst.Name | libcst.Attribute):
        value = _assigned_value(flow, node, context)
        return _configured_default(flow, node, context) if isinstance(value, _Unknown) else value
    if isinstance(node, libcst.BooleanOperation | libcst.Comparison | libcst.UnaryOperation):
        return _operation_value(flow, node, context)
    return UNKNOWN


def _operation_value(
    flow: Flow, node: libcst.BooleanOperation | libcst.Comparison | libcst.UnaryOperation, context: _Context
) -> object:
    """`a or b` / `a and b` as the operand Python gives (`os.getenv("NAMESPACE") or "*"` is "*", not True), a
    comparison or `not` as its truth (`TESTING = os.getenv(…).lower() == "true"`); UNKNOWN where not told."""
    if isinstance(node, libcst.BooleanOperation) and not isinstance(operand := _operand(flow, node, context), _Unknown):
        return operand
    if isinstance(node, libcst.UnaryOperation) and not isinstance(node.operator, libcst.Not):
        return UNKNOWN
    truth = _truth(flow, node, context.deeper())
    return UNKNOWN if truth is None else truth


def _operand(flow: Flow, node: libcst.BooleanOperation, context: _Context) -> object:
    """The operand `and` / `or` gives: `a or b` is a where a is true, else b; `a and b` is a where a is false."""
    left = _value(flow, node.left, context.deeper())
    if isinstance(left, _Unknown):
        return UNKNOWN
    keeps_left = bool(left) if isinstance(node.operator, libcst.Or) else not left
    return left if keeps_left else _value(flow, node.right, context.deeper())


def _call_value(flow: Flow, node: libcst.Call, context: _Context) -> object:
    """The value of a call: an environment read, a copy of a collection (`list(namespaces)`), a string method
    (`os.getenv("X", "False").lower()`), or a local function of no arguments; UNKNOWN for any other."""
    if flow.qualified_names(node.func) & _ENVIRONMENT_READS:
        return _environment_default(flow, node, context)
    if len(node.args) == 1 and flow.is_builtin(node.func, _COPIES):
        copied = _value(flow, node.args[0].value, context.deeper())
        if not isinstance(copied, tuple | list | str):
            return UNKNOWN
        made = node.func.value if isinstance(node.func, libcst.Name) else ""
        return list(copied) if made in ("list", "sorted") else tuple(copied)
    if isinstance(node.func, libcst.Attribute) and not node.args:
        method = node.func.attr.value
        known = _value(flow, node.func.value, context.deeper()) if method in _STRING_METHODS else UNKNOWN
        return getattr(known, method)() if isinstance(known, str) else UNKNOWN
    if isinstance(node.func, libcst.Attribute) and node.func.attr.value == "split" and len(node.args) == 1:
        separator = literal_string(node.args[0].value)  # `os.getenv("NAMESPACES", "").split(",")`: `[""]`
        known = _value(flow, node.func.value, context.deeper()) if separator else UNKNOWN
        return known.split(separator) if isinstance(known, str) and separator else UNKNOWN
    if isinstance(node.func, libcst.Name) and not node.args:
        function = flow.local_function(node.func)
        return _returned(flow, function, context.deeper()) if function is not None else UNKNOWN
    return UNKNOWN


def _literal_items(
    flow: Flow, node: libcst.List | libcst.Tuple | libcst.Set | libcst.Dict, context: _Context
) -> object:
    """The items of a list or tuple literal, each UNKNOWN where it cannot be told (a set's or dict's all are: only
    how many there are counts); UNKNOWN for one with a starred item, of a length not known."""
    if isinstance(node, libcst.Set | libcst.Dict):
        return (
            tuple(UNKNOWN for _ in node.elements)
            if all(isinstance(e, libcst.Element | libcst.DictElement) for e in node.elements)
            else UNKNOWN
        )
    if not all(isinstance(element, libcst.Element) for element in node.elements):
        return UNKNOWN
    items = [_value(flow, element.value, context.deeper()) for element in node.elements]
    return items if isinstance(node, libcst.List) else tuple(items)  # `[""] == ("",)` is false


def _comprehension_value(flow: Flow, node: libcst.ListComp | libcst.SetComp, context: _Context) -> object:
    """The items of a comprehension over strings (`[ns.strip() for ns in raw.split(",") if ns.strip()]`), one
    `for` whose target is a name, its element and its tests read only through `_item_value`: `()` for the
    comprehension of an unset `NAMESPACES=""`; UNKNOWN for any other."""
    loop = node.for_in
    if loop.inner_for_in is not None or not isinstance(loop.target, libcst.Name) or loop.asynchronous is not None:
        return UNKNOWN
    items = _value(flow, loop.iter, context.deeper())
    if not isinstance(items, tuple | list) or not all(isinstance(item, str) for item in items):
        return UNKNOWN
    found: list[object] = []
    for item in items:
        kept = [_item_value(test.test, loop.target.value, item) for test in loop.ifs]
        if any(isinstance(value, _Unknown) for value in kept):
            return UNKNOWN
        if all(kept):
            found.append(_item_value(node.elt, loop.target.value, item))
    if any(isinstance(value, _Unknown) for value in found):
        return UNKNOWN
    return found if isinstance(node, libcst.ListComp) else tuple(found)


def _item_value(node: libcst.BaseExpression, name: str, item: str) -> object:
    """An expression of a comprehension's item: the item itself, or a string method of it without arguments
    (`ns.strip()`); UNKNOWN for any other."""
    if isinstance(node, libcst.Name) and node.value == name:
        return item
    if isinstance(node, libcst.Call) and not node.args and isinstance(node.func, libcst.Attribute):
        method = node.func.attr.value
        if method in _STRING_METHODS and isinstance(node.func.value, libcst.Name) and node.func.value.value == name:
            return str(getattr(item, method)())
    return UNKNOWN


def _returned(flow: Flow, function: libcst.FunctionDef, context: _Context) -> object:
    """What a function of no arguments returns by default: its first `return`, passing over the early
    returns of ifs that do not hold by default (`if not TESTING: return None`); UNKNOWN when one cannot be
    told or the body does anything else first. Assignments to names are passed over: the values read later
    are found from the names (`raw = os.getenv("NAMESPACES")`, then `if not raw: return []`)."""
    body = function.body.body if isinstance(function.body, libcst.IndentedBlock) else ()
    for statement in body:
        if isinstance(statement, libcst.SimpleStatementLine) and isinstance(statement.body[0], libcst.Expr):
            continue  # a docstring or a call made for its effect
        if isinstance(statement, libcst.SimpleStatementLine) and _assigns_names(statement.body[0]):
            continue
        if isinstance(statement, libcst.SimpleStatementLine) and isinstance(statement.body[0], libcst.Return):
            returned = statement.body[0].value
            return None if returned is None else _value(flow, returned, context.deeper())
        if not isinstance(statement, libcst.If) or statement.orelse is not None:
            return UNKNOWN
        branch = statement.body.body if isinstance(statement.body, libcst.IndentedBlock) else ()
        last = branch[-1] if branch else None
        returns = isinstance(last, libcst.SimpleStatementLine) and isinstance(last.body[0], libcst.Return)
        holds = _truth(flow, statement.test, context.deeper())
        if not returns or holds is None:
            return UNKNOWN
        if holds:
            return _returned_by(flow, branch, context)
    return UNKNOWN


def _assigns_names(statement: libcst.BaseSmallStatement) -> bool:
    """`a = …` or `a: T = …`, to plain names only."""
    if isinstance(statement, libcst.AnnAssign):
        return isinstance(statement.target, libcst.Name)
    return isinstance(statement, libcst.Assign) and all(
        isinstance(target.target, libcst.Name) for target in statement.targets
    )


def _returned_by(flow: Flow, branch: Sequence[libcst.BaseStatement], context: _Context) -> object:
    """The value of the return ending a branch that runs by default, when nothing comes before it."""
    last = branch[-1]
    if len(branch) != 1 or not isinstance(last, libcst.SimpleStatementLine):
        return UNKNOWN
    returned = last.body[0]
    if not isinstance(returned, libcst.Return):
        return UNKNOWN
    return None if returned.value is None else _value(flow, returned.value, context.deeper())


def _configured_default(flow: Flow, node: libcst.Name | libcst.Attribute, context: _Context) -> object:
    """The default a flag, option or settings attribute declares (SPEC §1), or UNKNOWN."""
    found = defaults.configured(flow, node)
    if found is None:
        return UNKNOWN
    if isinstance(found, defaults.Constant):
        return found.value
    owner, expression = found
    return _value(owner, expression, context.deeper())


def _assigned_value(flow: Flow, node: libcst.Name | libcst.Attribute, context: _Context) -> object:
    """The value of a name assigned once unconditionally, unless a reassignment may run by default."""
    sources = flow.sources(node) or []
    values = [source for source in sources if isinstance(source, libcst.BaseExpression)]
    if not values or len(values) != len(sources):  # unknown, or a parameter
        return UNKNOWN
    unconditional: list[libcst.BaseExpression] = []
    conditional: list[libcst.BaseExpression] = []
    for value in values:
        (conditional if _branches(flow.owner(value).file, value) else unconditional).append(value)
    if len(unconditional) != 1:
        return UNKNOWN
    base = unconditional[0]
    if id(base) not in context.assumed:
        judging = _Context(context.steps + 1, context.assumed | {id(base)})
        for source in conditional:
            owner = flow.owner(source)
            condition = branch_condition(owner.file, owner, source, judging)
            if condition is not None and condition.holds_by_default is not False:
                return UNKNOWN
    return _value(flow.owner(base), base, context.deeper())


def _environment_default(flow: Flow, call: libcst.Call, context: _Context) -> object:
    """`os.getenv("X")` is None by default; `os.getenv("X", "a")` is "a" (SPEC §1: no visible default = empty)."""
    args = [arg for arg in call.args if arg.keyword is None or arg.keyword.value == "default"]
    if len(args) < 2:
        return None
    return _value(flow, args[1].value, context.deeper())


def _comparison(flow: Flow, node: libcst.Comparison, context: _Context) -> bool | None:
    if len(node.comparisons) != 1:
        return None
    target = node.comparisons[0]
    left = _value(flow, node.left, context.deeper())
    right = _value(flow, target.comparator, context.deeper())
    if _holds_unknown(left) or _holds_unknown(right):
        return None
    operator = target.operator
    if isinstance(operator, libcst.Equal | libcst.Is):
        return left == right
    if isinstance(operator, libcst.NotEqual | libcst.IsNot):
        return left != right
    return None


def _holds_unknown(value: object) -> bool:
    """Whether a value is UNKNOWN, or a collection with an UNKNOWN item: no comparison of it can be told."""
    return isinstance(value, _Unknown) or (isinstance(value, tuple | list) and any(map(_holds_unknown, value)))


def runs_only_with(file: ParsedFile, node: libcst.CSTNode, name: str) -> bool:
    """Whether a node runs only where the name is truthy: in the body of `if name:` (`if name and other:`,
    `if name is not None:`) or the else of `if not name:`, or after `if not name: return …` in its function."""
    return any(_implies(test, name, wanted) for test, wanted in _branches(file, node))


def _implies(test: libcst.BaseExpression, name: str, wanted: bool) -> bool:
    """Whether `test` having the truth `wanted` means `name` is truthy (or at least not None)."""
    if isinstance(test, libcst.Name):
        return wanted and test.value == name
    if isinstance(test, libcst.UnaryOperation) and isinstance(test.operator, libcst.Not):
        return _implies(test.expression, name, not wanted)
    if isinstance(test, libcst.BooleanOperation):
        # `a and b` true: both are; `a or b` false: neither is
        both = isinstance(test.operator, libcst.And) if wanted else isinstance(test.operator, libcst.Or)
        return both and (_implies(test.left, name, wanted) or _implies(test.right, name, wanted))
    if isinstance(test, libcst.Comparison) and len(test.comparisons) == 1:
        target = test.comparisons[0]
        none_test = isinstance(target.comparator, libcst.Name) and target.comparator.value == "None"
        named = isinstance(test.left, libcst.Name) and test.left.value == name
        if none_test and named:
            not_none = isinstance(target.operator, libcst.IsNot | libcst.NotEqual)
            return not_none == wanted
    return False


def _leaves(body: libcst.BaseSuite) -> bool:
    """Whether a block ends by leaving the function (return, raise), on lines of its own or after the colon."""
    if isinstance(body, libcst.SimpleStatementSuite):  # `if not labels: return []`
        return bool(body.body) and isinstance(body.body[-1], libcst.Return | libcst.Raise)
    statements = body.body if isinstance(body, libcst.IndentedBlock) else [body]
    last = statements[-1] if statements else None
    small = last.body if isinstance(last, libcst.SimpleStatementLine) else [last] if last is not None else []
    return bool(small) and isinstance(small[-1], libcst.Return | libcst.Raise)
