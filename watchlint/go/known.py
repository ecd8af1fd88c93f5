"""Values known for the default deployment: a value with its origin (a flag, an environment variable), or
UNKNOWN, and the operations of Go the evaluation applies to them."""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import tree_sitter

from watchlint.go import parser
from watchlint.go.model import GoFile, TypeRef
from watchlint.go.resolve import unquote

OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    ">": operator.gt,
    "<=": operator.le,
    ">=": operator.ge,
    "+": operator.add,
}


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()


class _Error:
    """The error a function returns where it fails in the default deployment: not nil, nothing else known."""

    def __repr__(self) -> str:
        return "AN_ERROR"


AN_ERROR = _Error()


class _Function:
    """A function value the code names (a method value, `ConfigChanged: ctrl.SetConfig`): not nil, nothing
    else known."""

    def __repr__(self) -> str:
        return "A_FUNCTION"


A_FUNCTION = _Function()


class _Struct:
    """A struct value the code builds (`&Provider{…}`, what `DefaultProvider()` returns): not nil, its fields
    read by their own writes; compared with anything but nil, unknown (Evaluator._binary)."""

    def __repr__(self) -> str:
        return "A_STRUCT"


A_STRUCT = _Struct()


class StructLiteral(_Struct):
    """A struct literal a call passes as it is (`Gather(ctx, cs, &Config{})`) to a function that only reads its
    fields: not nil, and each field what the literal writes for it, or its zero value where it writes none; but
    for the fields its holder writes after it (`written`: metallb's `cfg.EnableWebhook = …` under a switch),
    which are not known."""

    __slots__ = ("built_by", "file", "literal", "written")

    def __init__(
        self,
        file: GoFile,
        literal: tree_sitter.Node,
        written: frozenset[str] = frozenset(),
        built_by: CallBindings | None = None,
    ) -> None:
        self.file = file
        self.literal = literal
        self.written = written
        # the parameters of the one call that built it (`SCIM = newFeature("scim", false)` returning `&Feature{def:
        # def}`): its fields read through them, and the fields code sets elsewhere as every object's are
        self.built_by = built_by

    def __repr__(self) -> str:  # one literal, one value: memo keys and callers' agreement tell them apart
        built = f"({bindings_key(self.built_by)})" if self.built_by is not None else ""
        return f"A_STRUCT@{self.file.path}:{self.literal.start_byte}{built}"


class Implementation(_Struct):
    """What an interface value holds where a call through it runs one type's method (volcano's `c.Initialize(opt)`
    reaching the sharding controller's): a value of that type, whose other methods are that type's too
    (`c.Name()`)."""

    __slots__ = ("package", "receiver")

    def __init__(self, package: str, receiver: str) -> None:
        self.package = package
        self.receiver = receiver

    def __repr__(self) -> str:
        return f"A_{self.receiver}@{self.package}"


def is_struct(value: object) -> bool:
    """Whether a value is a struct the code builds (A_STRUCT or a StructLiteral)."""
    return isinstance(value, _Struct)


@dataclass(frozen=True, slots=True)
class Val:
    """A value known for the default deployment, and where it comes from (a flag, a variable)."""

    value: object
    origin: str = ""
    # read from an environment variable that has no default in code: empty in conditions (SPEC §1), but a value
    # the code does not show where it is used as is (a namespace passed on unconditionally counts)
    unseen: bool = False


Value = Val | _Unknown


class Results(tuple[object, ...]):
    """The results of a call that fails in the default deployment (a setting it needs is missing), as a program
    that stops on the error sees them (what the function computes past its check), with what it returns on that
    failure (`failure`) for a program that goes on."""

    failure: tuple[object, ...]
    certain: bool  # the call fails by default; else it may, where a read of the cluster finds nothing

    def __new__(cls, items: tuple[object, ...], failure: tuple[object, ...], certain: bool = True) -> Results:
        made = super().__new__(cls, items)
        made.failure = failure
        made.certain = certain
        return made

    def read_going_on(self) -> tuple[object, ...]:
        """What a program that goes on past the error reads: what the failure returns where the call fails by
        default; where it may fail, each result both returns agree on, unknown where they differ."""
        if self.certain:
            return self.failure
        return tuple(item if item == failed else UNKNOWN for item, failed in zip(self, self.failure, strict=True))


class CallBindings(dict[str, Value]):
    """A function's parameters bound to what one call passes, while the evaluation reads that function's body
    for the call: its locals read through them (`b, err := strconv.ParseBool(s)`), not through what every
    call of the function passes."""

    def __init__(
        self, function: tree_sitter.Node, bound: dict[str, Value], literal: frozenset[str] = frozenset()
    ) -> None:
        super().__init__(bound)
        self.function = function  # the declaration or literal the parameters belong to
        self.literal = literal  # those the call writes out as literals (`NewFeatureGates(nil)`)


def bindings_key(env: dict[str, Value]) -> tuple[tuple[str, str], ...]:
    """Parameters bound to values, as part of a memo key: what one call passes decides what is computed."""
    return tuple(sorted((name, repr(value)) for name, value in env.items()))


def either_origin(first: str, second: str) -> str:
    """`A or B` of two origins, each setting named once (`RESTRICT_TO_NAMESPACE or WATCH_NAMESPACE` with itself
    stays as it is)."""
    parts = first.split(" or ")
    return " or ".join([*parts, *(part for part in second.split(" or ") if part not in parts)])


def literal_value(node: tree_sitter.Node) -> Val | None:
    kind = node.type
    if kind in ("interpreted_string_literal", "raw_string_literal"):
        return Val(unquote(parser.text(node)))
    if kind == "int_literal":
        text = parser.text(node)
        return Val(int(text)) if text.isdigit() else None
    if kind in ("true", "false"):
        return Val(kind == "true")
    if kind == "nil":
        return Val(None)
    return None


def logical(operator: str, left: Value, right: Value, origin: str) -> Value:
    """`&&` and `||`; an operand that decides alone names the origin (`!gateA || !gateB` true by gateB)."""
    operands = (left, right)
    values = [item.value if isinstance(item, Val) and isinstance(item.value, bool) else None for item in operands]
    deciding = operator != "&&"  # the value that decides alone: false for &&, true for ||
    if deciding in values:
        decided = operands[values.index(deciding)]
        return Val(deciding, decided.origin if isinstance(decided, Val) and decided.origin else origin)
    if values != [not deciding, not deciding]:
        return UNKNOWN
    if operator == "||":  # false until any one of them turns true: each names what turns it on
        origin = " or ".join(dict.fromkeys(item.origin for item in operands if isinstance(item, Val) and item.origin))
    return Val(not deciding, origin)


def either(before: Value, written: Value) -> Value:
    """A variable written under a condition that cannot be told: known only when both values agree
    (`ns := ""; if !all { ns = os.Getenv("NS") }` is empty either way)."""
    if not isinstance(before, Val) or not isinstance(written, Val) or type(before.value) is not type(written.value):
        return UNKNOWN
    return Val(written.value, written.origin or before.origin) if before.value == written.value else UNKNOWN


def item_value(item: object, origin: str, unseen: bool = False) -> Value:
    """One item of a known list, map or tuple of results, which may itself be unknown; `unseen`: the
    container's (`ns, ok := os.LookupEnv(…)`)."""
    return UNKNOWN if isinstance(item, _Unknown) else Val(item, origin, unseen)


def result_at(value: Value, index: int) -> Value:
    """Result `index` of a call giving several (`x, err := f()`): its item, unknown where it is none."""
    if isinstance(value, Val) and isinstance(value.value, tuple) and index < len(value.value):
        return item_value(value.value[index], value.origin, value.unseen)
    return UNKNOWN


def appended(first: Value, items: list[Value]) -> Value:
    """`append(list, items…)`: a nil or known list grows by the items (unknown ones included: they count)."""
    if not isinstance(first, Val) or not isinstance(first.value, list | None):
        return UNKNOWN
    added = [item.value if isinstance(item, Val) else UNKNOWN for item in items]
    return Val([*(first.value or []), *added], first.origin or first_origin(*items))


def strings_result(name: str, first: Val, rest: list[Value]) -> Value:
    """A call of the strings package on a known string; `Join` on a known list (Reloader's selectors)."""
    argument = rest[0].value if rest and isinstance(rest[0], Val) else None
    if isinstance(first.value, list):
        parts = first.value
        if name == "Join" and isinstance(argument, str) and all(isinstance(part, str) for part in parts):
            return Val(argument.join(parts), first.origin, first.unseen)
        return UNKNOWN
    text = str(first.value)
    if name in ("TrimSpace", "ToLower", "ToUpper"):
        return Val({"TrimSpace": text.strip(), "ToLower": text.lower(), "ToUpper": text.upper()}[name], first.origin)
    if name in ("Split", "SplitSeq") and isinstance(argument, str) and argument:
        return Val(text.split(argument), first.origin)
    if name in ("ReplaceAll", "Replace") and len(rest) >= 2 and isinstance(rest[1], Val):
        old, new = argument, rest[1].value
        if isinstance(old, str) and isinstance(new, str) and (name == "ReplaceAll" or _replaces_all(rest)):
            return Val(text.replace(old, new), first.origin)
    if name == "Fields":
        return Val(text.split(), first.origin)
    if name == "EqualFold" and isinstance(argument, str):  # `strings.EqualFold(os.Getenv("X"), "true")`
        return Val(text.casefold() == argument.casefold(), first.origin)
    if name in ("Contains", "HasPrefix", "HasSuffix") and isinstance(argument, str):
        tests = {
            "Contains": argument in text,
            "HasPrefix": text.startswith(argument),
            "HasSuffix": text.endswith(argument),
        }
        return Val(tests[name], first.origin)
    return UNKNOWN


def contains_result(items: Val, wanted: Value) -> Value:
    """`slices.Contains` of a known list: true where the value is among its items, false where every item is
    known and none is it. A flag.Var of a list type left empty by default reads as "", its printed value."""
    if not isinstance(items.value, list | tuple | None) and items.value != "":
        return UNKNOWN
    if not isinstance(wanted, Val) or wanted.value is None:
        return UNKNOWN
    listed = list(items.value or ())
    if wanted.value in listed:
        return Val(True, items.origin, items.unseen)
    return UNKNOWN if any(item is UNKNOWN for item in listed) else Val(False, items.origin, items.unseen)


def _replaces_all(rest: list[Value]) -> bool:
    """`strings.Replace(s, old, new, -1)`."""
    return len(rest) > 2 and isinstance(rest[2], Val) and rest[2].value == -1


def zero_value(type_ref: TypeRef | None) -> Value:
    if type_ref is None or type_ref.pointer or type_ref.slice:
        return Val(None) if type_ref is not None else UNKNOWN
    if not type_ref.package and type_ref.name in ("any", "error"):
        return Val(None)  # a nil interface (`var watched any` that a setting fills only when given)
    return {"string": Val(""), "bool": Val(False)}.get(
        type_ref.name, Val(0) if type_ref.name.startswith(("int", "uint")) else UNKNOWN
    )


def first_origin(*values: Value) -> str:
    return next((value.origin for value in values if isinstance(value, Val) and value.origin), "")


def tag_value(text: str, is_bool: bool) -> object:
    if is_bool:
        return text == "true"
    return int(text) if re.fullmatch(r"-?\d+", text) else text


def iota_environment(iota: int | None) -> dict[str, Value]:
    """What a constant's value is evaluated with: `iota`, its place in its declaration."""
    return {"iota": Val(iota)} if iota is not None else {}
