"""The default deployment (SPEC §1): evaluate the conditions a restriction or a site depends on, with the
defaults visible in code.

Flags take the default their definition shows (flag, pflag, cobra, kingpin); environment variables and
flags without a visible default are empty; fields of configuration structs are empty unless a non-empty
default is visible. A condition that cannot be evaluated counts as holding. Values carry their origin
(`--watch-namespace`, `WATCH_NAMESPACE`) so a message can say what would enable a restriction.
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

import tree_sitter

from watchlint.discover import TEST_DIRECTORIES, is_test_file
from watchlint.facts import Condition
from watchlint.go import parser
from watchlint.go.configfiles import decoded_structs, nested_structs
from watchlint.go.declarations import FunctionInfo, FunctionKey, resolve_type
from watchlint.go.model import Call, GoFile, TypeRef
from watchlint.go.resolve import Resolver, keyed_elements, keyed_entries
from watchlint.go.scope import Declaration, enclosing_function, innermost_function, return_items, return_statements
from watchlint.go.writes import Write, WriteKind, repeats_before, writes_of
from watchlint.source import Span

MAX_DEPTH = 10
CALLER_LEVELS = 5  # calls followed up from a site to the guard that keeps it off by default
_BOOLEAN_READS = ("identifier", "selector_expression")  # `if clusterScoped`, `if cfg.ClusterScoped`
MAX_WRITES = 16  # writes of one field of one struct looked at
# writes of one field name whose struct is told, to find those of one struct: names like `Name` are written
# everywhere (ingress-nginx writes `Namespace` 36 times, the flag-fed one last)
MAX_SCANNED_WRITES = 256
_IN_PROGRESS = object()
_T = TypeVar("_T")
_NIL_TYPES = frozenset({"map_type", "slice_type", "pointer_type", "channel_type", "function_type"})
_FLAG_VAR = re.compile(r"^(String|Bool|Int|Int32|Int64|Uint|Float64|Duration|StringSlice|StringArray)Var(P)?$")
_FLAG_VALUE = re.compile(r"^(String|Bool|Int|Int32|Int64|Uint|Float64|Duration|StringSlice|StringArray)(P)?$")
_FLAG_GETTER = re.compile(r"^Get(String|Bool|Int|Int32|Int64|Duration|StringSlice|StringArray)$")
_GATE_SPECS = ("featuregate.FeatureSpec", "featuregate.VersionedSpecs")  # map value types declaring gates
_MARK_REQUIRED = frozenset({"MarkFlagRequired", "MarkPersistentFlagRequired"})
_TAG_ITEM = re.compile(r'([A-Za-z_][A-Za-z0-9_-]*):"((?:[^"\\]|\\.)*)"')  # key:"value" in a struct tag
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_KONG = "github.com/alecthomas/kong"
_VIPER = "github.com/spf13/viper"
_URFAVE_CLI = "github.com/urfave/cli"  # v1, /v2 and /v3
_KNOWN_CONSTANTS = {
    "NamespaceAll": "",
    "AllNamespaces": "",
    "NamespaceDefault": "default",
    "NamespaceSystem": "kube-system",
}


_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
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


@dataclass(frozen=True, slots=True)
class Val:
    """A value known for the default deployment, and where it comes from (a flag, a variable)."""

    value: object
    origin: str = ""
    # read from an environment variable that has no default in code: empty in conditions (SPEC §1), but a value
    # the code does not show where it is used as is (a namespace passed on unconditionally counts)
    unseen: bool = False


Value = Val | _Unknown


@dataclass(slots=True)
class Flag:
    name: str
    file: GoFile
    default: tree_sitter.Node | None  # None: the zero value (or `tag_default`)
    is_bool: bool = False  # kingpin writes boolean defaults as strings: Default("true")
    tag_default: str | None = None  # a struct tag's `default:"…"`, for flags declared by tags


@dataclass(frozen=True, slots=True)
class EnvTag:
    """A struct field filled from an environment variable, as its tag says, with the default it gives."""

    variable: str
    default: str | None  # None: the zero value

    @classmethod
    def parse(cls, tag: str) -> EnvTag | None:
        """`env:"X" envDefault:"v"` (caarlos0/env), `env:"X" env-default:"v"` (cleanenv), `env:"X,default=v"`
        (sethvargo/go-envconfig), `envconfig:"X" default:"v"` (kelseyhightower/envconfig)."""
        values = dict(_TAG_ITEM.findall(tag))
        spec = values.get("env", values.get("envconfig"))
        if spec is None:
            return None
        name, *options = (part.strip() for part in spec.split(","))
        if not _ENV_NAME.fullmatch(name):
            return None
        default = values.get("envDefault", values.get("env-default"))
        if default is None and "envconfig" in values:
            default = values.get("default")
        for option in options:
            if option.startswith("default="):
                default = option.removeprefix("default=")
        return cls(name, default)


@dataclass(slots=True)
class FlagRegistry:
    """Every flag definition of the module, by the variable or field it fills and by its name."""

    by_variable: dict[tuple[str, str], Flag] = field(default_factory=dict)  # (package or file, name)
    # field name -> the structs whose field of that name a flag fills, with the flag (None: struct not told)
    by_field: dict[str, list[tuple[TypeRef | None, Flag]]] = field(default_factory=dict)
    by_name: dict[str, Flag] = field(default_factory=dict)
    # field name -> the structs declaring a field of that name with an `env:"X"` tag, with X and its default
    env_by_field: dict[str, list[tuple[TypeRef | None, EnvTag]]] = field(default_factory=dict)
    decoded: list[TypeRef] = field(default_factory=list)  # structs filled from a configuration file

    def collect(self, file: GoFile, resolver: Resolver) -> None:
        self.decoded.extend(decoded_structs(file, resolver))
        for call in file.calls():
            if call.operand is not None and call.arguments is not None:
                self._flag_call(file, call, resolver)
        if any(path.startswith(_URFAVE_CLI) for path in file.imports.values()):
            for literal in file.nodes("composite_literal"):
                self._urfave_flag(file, literal, resolver)
        uses_kong = _KONG in file.imports.values()
        for declaration in file.nodes("field_declaration"):
            tag = declaration.child_by_field_name("tag")
            if tag is None:
                continue
            text = parser.text(tag)
            env = EnvTag.parse(text)
            names = declaration.children_by_field_name("name")
            if env is not None and names:
                struct = _declaring_struct(file, declaration)
                self.env_by_field.setdefault(parser.text(names[0]), []).append((struct, env))
            if names and ('default:"' in text or (uses_kong and 'help:"' in text)):
                self._tagged_flag(file, declaration, parser.text(names[0]), text)

    def _urfave_flag(self, file: GoFile, literal: tree_sitter.Node, resolver: Resolver) -> None:
        """`&cli.BoolFlag{Name: "with-workload", Value: true, Destination: &withWorkload}` (urfave/cli)."""
        kind = resolve_type(literal.child_by_field_name("type"), file)
        if kind is None or not kind.package.startswith(_URFAVE_CLI) or not kind.name.endswith("Flag"):
            return
        fields = dict(keyed_elements(literal))
        name = _constant_text(file, fields["Name"], resolver) if "Name" in fields else None
        if name is None:
            return
        flag = Flag(name, file, fields.get("Value"), is_bool=kind.name == "BoolFlag")
        self.by_name.setdefault(name, flag)
        destination = fields.get("Destination")
        if destination is not None and destination.type == "unary_expression":
            target = destination.child_by_field_name("operand")
            if target is not None:
                self._bind(file, target, flag, resolver)

    def _tagged_flag(self, file: GoFile, declaration: tree_sitter.Node, field_name: str, tag: str) -> None:
        """A field declared as a flag by its tag, as kong and go-flags do (`Namespaced bool
        `default:"false" help:"…"``): the flag is named by `name:`/`long:` or after the field
        (WatchNamespace -> --watch-namespace), its default is `default:` or the zero value."""
        values = dict(_TAG_ITEM.findall(tag))
        if "-" in (values.get("kong"), values.get("name")):
            return
        struct = _declaring_struct(file, declaration)
        if struct is None:
            return
        name = values.get("name") or values.get("long") or _kebab(field_name)
        field_type = parser.text(declaration.child_by_field_name("type"))
        flag = Flag(name, file, None, is_bool=field_type == "bool", tag_default=values.get("default"))
        self.by_field.setdefault(field_name, []).append((struct, flag))
        self.by_name.setdefault(name, flag)

    def _flag_call(self, file: GoFile, selector_call: Call, resolver: Resolver) -> None:
        call, method, arguments = selector_call.node, selector_call.name, selector_call.arguments
        match = _FLAG_VAR.match(method)
        if arguments is None or (match is None and _FLAG_VALUE.match(method) is None):
            return  # most calls: decided before the arguments are taken apart
        values = parser.named(arguments)
        name = _constant_text(file, values[1], resolver) if match and len(values) >= 3 else None
        if match and name is not None:
            default = values[3] if match.group(2) and len(values) > 3 else values[2]
            flag = Flag(name, file, default)
            target = values[0].child_by_field_name("operand") if values[0].type == "unary_expression" else None
            if target is not None:
                self._bind(file, target, flag, resolver)
            self.by_name.setdefault(flag.name, flag)
            return
        if (match and len(values) == 1) or (_FLAG_VALUE.match(method) and not values):
            self._kingpin_flag(file, call, method, values, resolver)
            return
        value_match = _FLAG_VALUE.match(method)
        name = _constant_text(file, values[0], resolver) if value_match and len(values) >= 2 else None
        if value_match and name is not None:
            default = values[2] if value_match.group(2) and len(values) > 2 else values[1]
            self.by_name.setdefault(name, Flag(name, file, default))

    def _kingpin_flag(
        self, file: GoFile, call: tree_sitter.Node, method: str, values: list[tree_sitter.Node], resolver: Resolver
    ) -> None:
        """`kingpin.Flag("name", "help").Default("x").String()` or `….StringVar(&x)`."""
        found = kingpin_chain(call)
        if found is None:
            return
        name, default = found
        flag = Flag(name, file, default, is_bool=method.startswith("Bool"))
        self.by_name.setdefault(name, flag)
        target = values[0].child_by_field_name("operand") if values and values[0].type == "unary_expression" else None
        if target is not None:
            self._bind(file, target, flag, resolver)

    def _bind(self, file: GoFile, target: tree_sitter.Node, flag: Flag, resolver: Resolver) -> None:
        """The variable or field a flag fills (`&ns`, `&opts.Namespace`)."""
        if target.type == "selector_expression":
            owner = resolver.type_of(file, target.child_by_field_name("operand"))
            self.by_field.setdefault(parser.text(target.child_by_field_name("field")), []).append((owner, flag))
        else:
            self.by_variable[_variable_key(file, target, resolver)] = flag


def kingpin_chain(call: tree_sitter.Node) -> tuple[str, tree_sitter.Node | None] | None:
    """The flag name and default node of a kingpin (or kingpin-like) builder chain ending at `call`."""
    name, default = None, None
    node = call.child_by_field_name("function")
    for _ in range(8):
        operand = (
            node.child_by_field_name("operand") if node is not None and node.type == "selector_expression" else None
        )
        if operand is None or operand.type != "call_expression":
            break
        function = operand.child_by_field_name("function")
        method = parser.text(function.child_by_field_name("field")) if function is not None else ""
        arguments = operand.child_by_field_name("arguments")
        first = parser.first_named(arguments)
        if method == "Default" and default is None:
            default = first
        elif method == "Flag" and first is not None and parser.text(first)[:1] in ('"', "`"):
            name = _unquote(parser.text(first))
        node = function
    return (name, default) if name is not None else None


def _constant_text(file: GoFile, node: tree_sitter.Node, resolver: Resolver) -> str | None:
    """A string literal, or a package-level constant (or variable) of the module set to one: flag names are
    often constants (`fs.StringSlice(operator.NamespacesFlag, nil, …)`)."""
    if node.type in ("interpreted_string_literal", "raw_string_literal"):
        return _unquote(parser.text(node))
    key = None
    if node.type == "identifier":
        key = (file.package_path, parser.text(node))
    elif node.type == "selector_expression":
        operand = node.child_by_field_name("operand")
        package = file.imports.get(parser.text(operand)) if operand is not None else None
        key = (package, parser.text(node.child_by_field_name("field"))) if package else None
    variable = resolver.declarations.variables.get(key) if key is not None else None
    value = variable.value_node if variable is not None else None
    if value is None or value.type not in ("interpreted_string_literal", "raw_string_literal"):
        return None
    return _unquote(parser.text(value))


def _variable_key(file: GoFile, target: tree_sitter.Node, resolver: Resolver) -> tuple[str, str]:
    declaration = resolver.declaration(file, target)
    if declaration is not None:
        return (file.path, f"{declaration.name}@{declaration.node.start_byte}")
    return (file.package_path, parser.text(target))


def _unquote(text: str) -> str:
    if text[:1] == "`":
        return text.strip("`")
    body = text[1:-1] if len(text) >= 2 else text
    return body.replace('\\"', '"').replace("\\\\", "\\")


@dataclass(frozen=True, slots=True)
class Guard:
    """One condition around a node: an `if`, a `case` or a loop, evaluated."""

    holds: bool | None
    text: str
    span: Span
    origin: str = ""  # the flag or variable the condition reads, when it reads one


class _BoundParameters(dict[str, "Value"]):
    """The parameters of a function, each bound on first read to what every call of the function passes,
    when the calls agree; reading them all up front would evaluate every argument of every helper."""

    def __init__(self, evaluator: Evaluator, function: FunctionInfo, depth: int) -> None:
        super().__init__()
        self._evaluator = evaluator
        self._function = function
        self._depth = depth  # how many calls up this binding already reaches: chains of helpers end
        self._indexes = {parameter.name: parameter.index for parameter in function.parameters}

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self._indexes and isinstance(self[name], Val)

    def __missing__(self, name: str) -> Value:
        if self._depth >= MAX_DEPTH:
            return UNKNOWN
        self[name] = UNKNOWN  # read again while it is bound (a recursive helper): not known
        key = self._function.key
        calls = self._evaluator.deployed(key, self._evaluator.callers(key))
        index = self._indexes[name]
        depth = self._depth + 1
        arguments = (self._evaluator.argument(f, call, index, depth) for f, call in calls)
        passed = {repr(value): value for value in arguments}
        value = next(iter(passed.values())) if len(passed) == 1 else UNKNOWN
        self[name] = value
        return value


class _Configured(dict[str, "Value"]):
    """The parameters that hold configuration (a value a flag or the environment gives), for the guards of a
    local's writes (`if len(namespaces) == 0 { namespaces = … }`): an object's fields, read from the empty
    literal it starts as, say nothing of the object the program fetches into it later."""

    def __init__(self, bound: dict[str, Value]) -> None:
        super().__init__()
        self._bound = bound

    def __contains__(self, name: object) -> bool:
        value = self._bound[name] if isinstance(name, str) and name in self._bound else None
        return isinstance(value, Val) and bool(value.origin)

    def __missing__(self, name: str) -> Value:
        return self._bound[name]


class Evaluator:
    """Evaluates Go expressions and the guards around nodes for the default deployment."""

    def __init__(self, resolver: Resolver, flags: FlagRegistry) -> None:
        self.resolver = resolver
        self.flags = flags
        self._field_values: dict[str, list[tuple[GoFile, tree_sitter.Node, Callable[[], TypeRef | None]]]] | None = None
        self._calls_by_name: dict[str, list[tuple[GoFile, tree_sitter.Node]]] | None = None
        self._literals_by_type: dict[str, list[tuple[GoFile, tree_sitter.Node]]] | None = None
        self._calls_by_method: dict[str, dict[FunctionKey, list[tuple[GoFile, tree_sitter.Node]]]] = {}
        self._required_flags: frozenset[str] | None = None
        self._exits_by_file: dict[str, frozenset[str]] = {}
        self._callers: dict[FunctionKey, list[tuple[GoFile, tree_sitter.Node]]] = {}
        self._writes_of: dict[tuple[str, int], list[Write]] = {}  # by the declaring identifier's file and offset
        self._early_return_lists: dict[tuple[str, int], list[tree_sitter.Node]] = {}
        self._gates: dict[str, bool] | None = None
        self._bound: dict[FunctionKey, _BoundParameters] = {}
        self._viper: dict[str, dict[str, list[tuple[GoFile, tree_sitter.Node]]]] | None = None
        self._file_structs: frozenset[TypeRef] | None = None
        self._package_assignments: dict[tuple[str, str], list[tuple[GoFile, tree_sitter.Node]]] | None = None
        self._element_writes: dict[str, list[tuple[GoFile, tree_sitter.Node, Callable[[], TypeRef | None]]]] | None = (
            None
        )
        self.files: list[GoFile] = []
        self._memo: dict[object, object] = {}
        self._handlers: dict[str, Callable[[GoFile, tree_sitter.Node, dict[str, Value], int], Value]] = {
            "parenthesized_expression": self._parenthesized,
            "unary_expression": self._unary,
            "binary_expression": self._binary,
            "identifier": self._identifier,
            "selector_expression": self._selector,
            "call_expression": self._call,
            "composite_literal": self._literal,
            "index_expression": self._index,
        }

    # -- public -----------------------------------------------------------------------------------
    def condition(self, file: GoFile, node: tree_sitter.Node) -> Condition | None:
        """The combined guards of a node: inside its function (its parameters bound to what every call
        passes, when they all pass the same), then at the calls of that function."""
        guards = list(self.guards(file, node, self.parameters(file, node)))
        guards.extend(self._caller_guards(file, node))
        return combine(guards)

    def parameters(self, file: GoFile, node: tree_sitter.Node, depth: int = 0) -> dict[str, Value]:
        """The parameters of the function around a node, bound on first read to what its calls pass (and
        theirs to what their callers pass: constructors hand flags down through several levels)."""
        key = self.resolver.function_key(file, node)
        info = self.resolver.declarations.functions.get(key) if key is not None else None
        if info is None or not info.parameters or info.key.name == "main":
            return {}
        bound = self._bound.get(info.key)
        if bound is None:  # one binding per function: every local and guard of it reads the same calls
            bound = self._bound[info.key] = _BoundParameters(self, info, depth)
        return bound

    def argument(self, file: GoFile, call: tree_sitter.Node, index: int, depth: int) -> Value:
        """The value of a call's argument at `index`, in the function that makes the call."""
        values = parser.named(call.child_by_field_name("arguments") or call)
        if index >= len(values):
            return UNKNOWN
        return self.value(file, values[index], self.parameters(file, call, depth), depth)

    def guards(self, file: GoFile, node: tree_sitter.Node, env: dict[str, Value]) -> Iterator[Guard]:
        child, current = node, node.parent
        while current is not None and current.type not in ("function_declaration", "method_declaration", "source_file"):
            if current.type == "if_statement":
                condition = current.child_by_field_name("condition")
                if condition is not None and child not in (condition, current.child_by_field_name("initializer")):
                    truth, origin = self.truth(file, condition, env)
                    in_else = child == current.child_by_field_name("alternative")
                    holds = None if truth is None else (truth != in_else)
                    if origin and holds is False:
                        text = self._turned_on_by(file, condition, env, origin)
                    else:
                        text = _guard_text(condition, origin, in_else)
                    yield Guard(holds, text, file.span(condition), origin)
            elif current.type in ("expression_case", "default_case"):
                yield self._case_guard(file, current, env)
            elif current.type == "for_statement" and child == current.child_by_field_name("body"):
                yield self._loop_guard(file, current, env)
            elif current.type == "statement_list":
                yield from self._early_returns(file, current, child, env)
            child, current = current, current.parent

    def _early_returns(
        self, file: GoFile, statements: tree_sitter.Node, child: tree_sitter.Node, env: dict[str, Value]
    ) -> Iterator[Guard]:
        """`if cond { return … }` before a statement: it runs only when cond is false. Only conditions on
        variables that hold the configuration count (their value comes from a flag or an environment
        variable): not a field, which may be an object's (`backup.Status.PodName`), and never an error check
        (the default deployment does not fail, and `if err != nil { return err }` comes before most
        statements)."""
        for condition in self._early_return_conditions(file, statements):
            if condition.start_byte >= child.start_byte:
                return
            truth, origin = self.truth(file, condition, env)
            if truth is not None and origin:
                yield Guard(not truth, self._turned_on_by(file, condition, env, origin), file.span(condition), origin)

    def _is_global(self, file: GoFile, name: tree_sitter.Node) -> bool:
        """A package variable, not a local or parameter of that name."""
        if self.resolver.declaration(file, name) is not None:
            return False
        return (file.package_path, parser.text(name)) in self.resolver.declarations.variables

    def _turned_on_by(self, file: GoFile, condition: tree_sitter.Node, env: dict[str, Value], origin: str) -> str:
        """What turns on a branch that is off by default: setting the flag away from its default. A boolean
        that is true by default (`if r.endpointSlices {…} else {site}`) is turned off, which "is set" would
        not say."""
        bare = condition
        while bare.type in ("parenthesized_expression", "unary_expression"):
            if bare.type == "unary_expression" and parser.text(bare.child_by_field_name("operator")) != "!":
                break
            bare = parser.named(bare)[-1]
        parts = _disjuncts(bare)
        if len(parts) > 1:  # `a != "" || b != "" || c`: any one of them turns the branch on
            origins = list(dict.fromkeys(found for part in parts if (found := self.truth(file, part, env)[1])))
            if len(origins) > 1:
                return f"{', '.join(origins[:-1])} or {origins[-1]} is set"
        value = self.value(file, bare, env, 0)
        if (
            isinstance(value, Val)
            and value.value is True
            and value.origin == origin
            # an environment variable's boolean (env tags) has no default to look up: the variable read is it
            and (self._default_of(origin) is True or (bare.type in _BOOLEAN_READS and self._default_of(origin) is None))
        ):
            return f"{origin}=false"
        return f"{origin} is set"

    def _default_of(self, origin: str) -> object:
        """The default value of the flag or feature gate an origin names (None when it names neither)."""
        if origin.startswith("--feature-gates "):
            return self._feature_gates().get(origin.removeprefix("--feature-gates "))
        flag = self.flags.by_name.get(origin.removeprefix("--")) if origin.startswith("--") else None
        value = self._flag_value(flag, 0) if flag is not None else None
        return value.value if isinstance(value, Val) else None

    def _early_return_conditions(self, file: GoFile, statements: tree_sitter.Node) -> list[tree_sitter.Node]:
        """The conditions of a statement list's early returns that `_early_returns` may count, found once
        per list: every site and restriction below the list asks for them."""
        key = (file.path, statements.start_byte)
        conditions = self._early_return_lists.get(key)
        if conditions is None:
            conditions = []
            function = innermost_function(statements)
            fails = function is not None and _returns_error(function)
            for statement in statements.named_children:
                condition = statement.child_by_field_name("condition") if statement.type == "if_statement" else None
                returned = _early_return(statement) if condition is not None else None
                # an early return that fails is passed over: the default deployment does not fail
                if condition is not None and returned is not None and not (fails and _returns_failure(returned)):
                    # `if cfg == nil || cfg.Defaults == nil { return }`: one true part returns alone
                    parts = _disjuncts(condition)
                    conditions.extend(part for part in parts if _reads_variables_only(file, part, self._is_global))
            self._early_return_lists[key] = conditions
        return conditions

    # -- evaluation -------------------------------------------------------------------------------
    def truth(self, file: GoFile, node: tree_sitter.Node, env: dict[str, Value]) -> tuple[bool | None, str]:
        value = self.value(file, node, env, 0)
        if isinstance(value, Val) and isinstance(value.value, bool):
            return value.value, value.origin
        return None, value.origin if isinstance(value, Val) else ""

    def value(self, file: GoFile, node: tree_sitter.Node | None, env: dict[str, Value], depth: int) -> Value:
        if node is None or depth > MAX_DEPTH:
            return UNKNOWN
        literal = _literal(node)
        if literal is not None:
            return literal
        handler = self._handlers.get(node.type)
        return handler(file, node, env, depth) if handler is not None else UNKNOWN

    def _parenthesized(self, file: GoFile, node: tree_sitter.Node, env: dict[str, Value], depth: int) -> Value:
        return self.value(file, parser.first_named(node), env, depth + 1)

    def _index(self, file: GoFile, node: tree_sitter.Node, env: dict[str, Value], depth: int) -> Value:
        container = self.value(file, node.child_by_field_name("operand"), env, depth + 1)
        index = self.value(file, node.child_by_field_name("index"), env, depth + 1)
        if not isinstance(container, Val) or not isinstance(index, Val):
            return UNKNOWN
        items, key = container.value, index.value
        if isinstance(items, list | tuple) and isinstance(key, int) and -len(items) <= key < len(items):
            return _item(items[key], container.origin)
        if isinstance(items, dict) and key in items:
            return _item(items[key], container.origin)
        return UNKNOWN

    def _unary(self, file: GoFile, node: tree_sitter.Node, env: dict[str, Value], depth: int) -> Value:
        operator = parser.text(node.child_by_field_name("operator"))
        operand = self.value(file, node.child_by_field_name("operand"), env, depth + 1)
        if operator in ("&", "*"):
            return operand
        if operator == "!" and isinstance(operand, Val) and isinstance(operand.value, bool):
            return Val(not operand.value, operand.origin)
        return UNKNOWN

    def _binary(self, file: GoFile, node: tree_sitter.Node, env: dict[str, Value], depth: int) -> Value:
        operator = parser.text(node.child_by_field_name("operator"))
        left = self.value(file, node.child_by_field_name("left"), env, depth + 1)
        right = self.value(file, node.child_by_field_name("right"), env, depth + 1)
        origin = _origin(left, right)
        if operator in ("&&", "||"):
            return _logical(operator, left, right, origin)
        function = _OPERATORS.get(operator)
        if function is None or not isinstance(left, Val) or not isinstance(right, Val):
            return UNKNOWN
        try:
            return Val(function(left.value, right.value), origin)
        except TypeError:
            return UNKNOWN

    def _identifier(self, file: GoFile, node: tree_sitter.Node, env: dict[str, Value], depth: int) -> Value:
        name = parser.text(node)
        declaration = self.resolver.declaration(file, node)
        if name in env:
            if declaration is None or declaration.parameter_index < 0:
                return env[name]
            # a parameter as the callers pass it, then as the function rewrites it before the read
            # (`if len(namespaces) == 0 { namespaces = []string{metav1.NamespaceAll} }`)
            writes = [w for w in self._writes(file, declaration) if w.node.end_byte <= node.start_byte]
            if not writes or any(write.escapes for write in self._writes(file, declaration)):
                return env[name]
            return self._written_value(file, declaration, writes, depth, env[name])
        if declaration is not None:
            return self._declared(file, declaration, node, depth)
        flag = self.flags.by_variable.get((file.package_path, name))
        if flag is not None:
            return self._flag_value(flag, depth)
        variable = self.resolver.declarations.variables.get((file.package_path, name))
        if variable is not None and variable.value_node is not None:
            return self.value(variable.file, variable.value_node, {}, depth + 1)
        if variable is not None:
            written = self._package_writes(file.package_path, name)
            if len(written) > 1:
                return UNKNOWN  # set in several places: which one ran cannot be told
            if written:  # `var namespaces []string` set once, by the function parsing the flags
                write_file, value = written[0]
                return self.value(write_file, value, self.parameters(write_file, value, depth + 1), depth + 1)
            return _zero(resolve_type(variable.type_node, variable.file))
        return UNKNOWN

    def _package_writes(self, package: str, name: str) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The values assigned to a package variable declared without one, in the package's non-test files."""
        if self._package_assignments is None:
            self._package_assignments = {}
            for file in self.files:
                if _is_test_code(file.path):
                    continue
                for left, right in file.assignments():
                    targets, values = parser.named(left), parser.named(right)
                    if len(targets) != len(values):
                        continue
                    for target, value in zip(targets, values, strict=True):
                        if target.type == "identifier" and self.resolver.declaration(file, target) is None:
                            key = (file.package_path, parser.text(target))
                            self._package_assignments.setdefault(key, []).append((file, value))
        return self._package_assignments.get((package, name), [])

    def _declared(self, file: GoFile, declaration: Declaration, node: tree_sitter.Node, depth: int) -> Value:
        """A local's value where `node` reads it: its declared value, then the writes before the read."""
        at = _read_at(node, declaration)
        every = self._writes(file, declaration)
        escaping = [write for write in every if write.escapes]
        closure = _closure_of(node, declaration)
        if escaping and (closure is None or any(_span(innermost_function(w.node)) != closure for w in escaping)):
            return UNKNOWN  # a function literal writes it, at a time that cannot be told
        if closure is not None and escaping:
            # read in the function literal that writes it (a cobra RunE reading its flags): the literal runs
            # once the declaring function has set the variable up (flags defined), then writes it in order
            writes = [write for write in every if not write.escapes] + [w for w in escaping if w.node.end_byte <= at]
        else:
            writes = [write for write in every if write.node.end_byte <= at]
            if any(repeats_before(write, at) for write in every if write.node.end_byte > at):
                return UNKNOWN  # written later in a loop that reads it: the next round reads that write
        key = ("local", file.path, declaration.node.start_byte, len(writes), closure if escaping else None)
        return self._memoized(key, lambda: self._written_value(file, declaration, writes, depth))

    def _writes(self, file: GoFile, declaration: Declaration) -> list[Write]:
        key = (file.path, declaration.node.start_byte)
        found = self._writes_of.get(key)
        if found is None:
            function = enclosing_function(declaration.node)
            found = (
                []
                if function is None
                else writes_of(declaration, function, lambda n: self.resolver.declaration(file, n))
            )
            self._writes_of[key] = found
        return found

    def _written_value(
        self, file: GoFile, declaration: Declaration, writes: list[Write], depth: int, initial: Value | None = None
    ) -> Value:
        """The declared (or `initial`) value with the writes applied in order."""
        value = self._declared_value(file, declaration, depth) if initial is None else initial
        for write in writes:
            written = self._write_value(file, write, value, depth)
            if written is None:
                continue  # not a write after all: a flag definition, whose default is the declared value
            configured = _Configured(self.parameters(file, write.node, depth + 1))
            guards = list(self.guards(file, write.node, configured))
            skipped = next((guard for guard in guards if guard.holds is False), None)
            if skipped is not None:
                # kept by default, but a flag would change it: the value comes from that flag
                if isinstance(value, Val) and not value.origin and skipped.origin:
                    value = Val(value.value, skipped.origin)
            elif any(guard.holds is None for guard in guards):
                value = _either(value, written)
            else:
                # a fallback written because a flag is left at its default comes from that flag
                origin = next((guard.origin for guard in guards if guard.origin), "")
                value = Val(written.value, origin) if isinstance(written, Val) and not written.origin else written
        return value

    def _write_value(self, file: GoFile, write: Write, before: Value, depth: int) -> Value | None:
        if write.kind is WriteKind.INDEX:
            return self._indexed(file, write, before, depth)
        if write.kind is WriteKind.ASSIGN:
            left, right = write.node.child_by_field_name("left"), write.node.child_by_field_name("right")
            names = parser.named(left) if left is not None else []
            values = parser.named(right) if right is not None else []
            env = self.parameters(file, write.node, depth + 1)
            if len(values) == len(names):
                return self.value(file, values[write.index], env, depth + 1)
            value = self.value(file, values[0], env, depth + 1) if len(values) == 1 else UNKNOWN
            if isinstance(value, Val) and isinstance(value.value, tuple) and write.index < len(value.value):
                return _item(value.value[write.index], value.origin)  # `x, err = call()`
            return UNKNOWN
        if write.kind is WriteKind.ADDRESS:
            return self._filled(file, write.node, depth)
        return UNKNOWN

    def _indexed(self, file: GoFile, write: Write, before: Value, depth: int) -> Value:
        """`x[key] = value` on a known map: the map with that key (the values are not tracked)."""
        left = write.node.child_by_field_name("left")
        target = parser.named(left)[write.index] if left is not None else None
        key = self.value(file, target.child_by_field_name("index"), {}, depth + 1) if target is not None else UNKNOWN
        if not isinstance(before, Val) or not isinstance(before.value, dict | None) or not isinstance(key, Val):
            return UNKNOWN
        return Val({**(before.value or {}), key.value: True}, before.origin or key.origin)

    def _filled(self, file: GoFile, address: tree_sitter.Node, depth: int) -> Value | None:
        """What a call given `&x` leaves in x: a flag's value for a flag definition (None: the registry
        gave the declared value already) or viper's UnmarshalKey of a flag; anything else is unknown."""
        arguments = address.parent
        call = arguments.parent if arguments is not None and arguments.type == "argument_list" else None
        function = call.child_by_field_name("function") if call is not None else None
        if call is None or function is None or function.type != "selector_expression":
            return UNKNOWN
        method = parser.text(function.child_by_field_name("field"))
        values = parser.named(arguments) if arguments is not None else []
        if (_FLAG_VAR.match(method) or _FLAG_VALUE.match(method)) and values and values[0] == address:
            return None
        if method == "UnmarshalKey" and len(values) == 2 and values[1] == address:
            named = self.value(file, values[0], {}, depth + 1)
            flag = (
                self.flags.by_name.get(named.value) if isinstance(named, Val) and isinstance(named.value, str) else None
            )
            return self._flag_value(flag, depth) if flag is not None else UNKNOWN
        return UNKNOWN

    def _declared_value(self, file: GoFile, declaration: Declaration, depth: int) -> Value:
        flag = self.flags.by_variable.get((file.path, f"{declaration.name}@{declaration.node.start_byte}"))
        if flag is not None:
            return self._flag_value(flag, depth)
        if declaration.ranged_node is not None:
            return self._ranged_value(file, declaration.ranged_node, depth)
        if declaration.parameter_index >= 0:
            return UNKNOWN
        if declaration.value_node is not None:
            # a local's value may depend on the function's parameters: `objects := strings.Split(names, ",")`
            env = self.parameters(file, declaration.value_node, depth + 1)
            value = self.value(file, declaration.value_node, env, depth + 1)
            if isinstance(value, Val) and isinstance(value.value, tuple):
                items = value.value
                index = declaration.value_index
                return _item(items[index], value.origin) if index < len(items) else UNKNOWN
            return value
        if declaration.type_node is not None and declaration.type_node.type in _NIL_TYPES:
            return Val(None)  # `var namespaces map[string]cache.Config`: nil until written
        return _zero(resolve_type(declaration.type_node, file))

    def _ranged_value(self, file: GoFile, ranged: tree_sitter.Node, depth: int) -> Value:
        """The item of `for _, item := range list` when every item of the list is the same (`[""]` by
        default, every namespace); unknown otherwise."""
        value = self.value(file, ranged, self.parameters(file, ranged, depth + 1), depth + 1)
        if not isinstance(value, Val) or not isinstance(value.value, list) or not value.value:
            return UNKNOWN
        first = value.value[0]
        if isinstance(first, str | bool | int) and all(item == first for item in value.value):
            return Val(first, value.origin)
        return UNKNOWN

    def _flag_value(self, flag: Flag, depth: int) -> Value:
        if self._once(("required", id(flag)), lambda: self._is_required(flag), False):
            return UNKNOWN  # set in any deployment that runs, to a value the code does not show
        return self._default_value(flag, depth)

    def _is_required(self, flag: Flag) -> bool:
        """A flag the program does not run without: `if namespace == "" { os.Exit(1) }` (or log.Fatal, panic)
        where the flag is declared, or cobra's MarkFlagRequired("namespace")."""
        if flag.name in self._marked_required():
            return True
        names = {name.split("@")[0] for (_, name), bound in self.flags.by_variable.items() if bound is flag}
        names.update(field for field, bound in self.flags.by_field.items() if any(f is flag for _, f in bound))
        return not names.isdisjoint(self._exit_unless_set(flag.file))

    def _exit_unless_set(self, file: GoFile) -> frozenset[str]:
        """The names a file exits without: `x` of `if x == "" { log.Fatal(…) }`, found once per file."""
        found = self._exits_by_file.get(file.path)
        if found is None:
            names = set()
            for call in file.calls():
                function = call.node.child_by_field_name("function")
                shown = parser.text(function) if function is not None else ""
                if shown not in ("os.Exit", "panic") and not call.name.startswith("Fatal"):
                    continue
                statement = call.node.parent
                block = statement.parent.parent if statement is not None and statement.parent is not None else None
                guard = block.parent if block is not None and block.type == "block" else None
                condition = guard.child_by_field_name("condition") if guard is not None else None
                tested = _tested_empty(condition) if guard is not None and guard.type == "if_statement" else None
                if tested is not None:
                    names.add(tested)
            found = self._exits_by_file[file.path] = frozenset(names)
        return found

    def _marked_required(self) -> frozenset[str]:
        """The flags cobra is told are required (`MarkFlagRequired("namespace")`), found once per module."""
        if self._required_flags is None:
            names = set()
            for file in self.files:
                for call in file.calls():
                    if call.name not in _MARK_REQUIRED:
                        continue
                    first = parser.first_named(call.arguments)
                    if first is not None and (name := self.resolver.string_value(file, first)) is not None:
                        names.add(name)
            self._required_flags = frozenset(names)
        return self._required_flags

    def _default_value(self, flag: Flag, depth: int) -> Value:
        if flag.default is None and flag.tag_default is not None:
            return Val(_tag_value(flag.tag_default, flag.is_bool), f"--{flag.name}")
        if flag.default is None:
            return Val(False if flag.is_bool else "", f"--{flag.name}")
        # evaluated once, from the top: a flag read deep in the code has its default all the same
        default = flag.default
        unknown: Value = UNKNOWN
        value = self._once(("default", id(flag)), lambda: self.value(flag.file, default, {}, 0), unknown)
        if not isinstance(value, Val):
            return UNKNOWN  # a default the code computes in a way not followed: cannot be told (SPEC §1)
        if flag.is_bool and isinstance(value.value, str):
            return Val(value.value == "true", f"--{flag.name}")
        return Val(value.value, f"--{flag.name}")

    def _selector(self, file: GoFile, node: tree_sitter.Node, env: dict[str, Value], depth: int) -> Value:
        operand = node.child_by_field_name("operand")
        name = parser.text(node.child_by_field_name("field"))
        if name in _KNOWN_CONSTANTS and operand is not None and parser.text(operand) in file.imports:
            return Val(_KNOWN_CONSTANTS[name])
        if operand is not None and operand.type == "identifier" and parser.text(operand) in file.imports:
            variable = self.resolver.declarations.variables.get((file.imports[parser.text(operand)], name))
            if variable is not None and variable.value_node is not None:
                return self.value(variable.file, variable.value_node, {}, depth + 1)
            return UNKNOWN
        owner = self.resolver.type_of(file, operand) if operand is not None else None
        located = self.resolver.declarations.field(owner, name) if owner is not None else None
        return self._field(name, located[1].type if located else None, owner, depth)

    def _field(self, name: str, field_type: TypeRef | None, owner: TypeRef | None, depth: int) -> Value:
        """A configuration field: its visible non-empty default, else its zero value (SPEC §1). Flags and
        writes of a field of the same name in another struct (`--type` filling `args.Type`) say nothing of
        `def.Terraform.Type`."""
        key = ("field", name, field_type, owner.base if owner is not None else None)
        return self._memoized(key, lambda: self._field_value(name, field_type, owner, depth))

    def _memoized(self, key: object, compute: Callable[[], Value]) -> Value:
        """Evaluate once per key; a key met again while it is computed (a cycle) is unknown."""
        unknown: Value = UNKNOWN
        return self._once(key, compute, unknown)

    def _once(self, key: object, compute: Callable[[], _T], in_cycle: _T) -> _T:
        """Compute once per key; a key met again while it is computed (a cycle) gives `in_cycle`."""
        if key in self._memo:
            cached = self._memo[key]
            return in_cycle if cached is _IN_PROGRESS else cached  # type: ignore[return-value]
        self._memo[key] = _IN_PROGRESS
        result = compute()
        self._memo[key] = result
        return result

    def _field_value(self, name: str, field_type: TypeRef | None, owner: TypeRef | None, depth: int) -> Value:
        tagged = self.flags.env_by_field.get(name, [])
        env = next((env for struct, env in tagged if self._same(struct, owner, name)), None)
        origin = env.variable if env is not None else ""
        flag = next(
            (flag for struct, flag in self.flags.by_field.get(name, []) if self._same(struct, owner, name)), None
        )
        if flag is not None:
            value = self._flag_value(flag, depth)
            return Val(value.value, origin or value.origin) if isinstance(value, Val) else value
        if env is not None and env.default is not None:
            is_bool = field_type is not None and field_type.name == "bool" and not field_type.pointer
            return Val(_tag_value(env.default, is_bool), origin)
        known = []
        for file, value_node, _ in self._writes_of_field(name, owner):
            # a constructor's parameter stored in the field: what the constructor's calls pass
            value = self.value(file, value_node, self.parameters(file, value_node, depth + 1), depth + 1)
            if isinstance(value, Val) and value.origin:  # filled from a flag or the environment: configuration
                known.append(value)
        visible = next((value for value in known if value.value not in ("", None, False, 0)), None)
        if visible is not None:
            return Val(visible.value, origin or visible.origin)
        if not known and not origin:
            declaring = self._declaring(owner, name) if owner is not None else None
            if declaring is None or declaring not in self._from_files():
                return UNKNOWN  # not configuration (a custom resource's spec, say): nothing can be told
            origin = f"{name} (configuration file)"
        zero = _zero(field_type)
        empty = zero.value if isinstance(zero, Val) else ""
        unseen = bool(known) and not origin and all(value.unseen for value in known)  # stored from os.Getenv
        return Val(empty, origin or next((value.origin for value in known if value.origin), "") or name, unseen)

    def _from_files(self) -> frozenset[TypeRef]:
        """The structs filled from configuration files, and those they hold."""
        if self._file_structs is None:
            self._file_structs = nested_structs(self.flags.decoded, self.resolver.declarations)
        return self._file_structs

    def stored(
        self, owner: TypeRef | None, name: str, *, elements: bool = False
    ) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The values the module stores in field `name` of `owner` (by assignment or in a literal), or with
        `elements` in its items (`c.factories[ns] = factory`)."""
        return [(file, value) for file, value, _ in self._writes_of_field(name, owner, elements=elements)]

    def _writes_of_field(
        self, name: str, owner: TypeRef | None, *, elements: bool = False
    ) -> list[tuple[GoFile, tree_sitter.Node, Callable[[], TypeRef | None]]]:
        """The first writes of field `name` of `owner`'s struct (any struct's when `owner` is not known), or
        with `elements` of its items."""
        writes = self._field_writes()  # fills the table of items' writes too
        table = (self._element_writes or {}) if elements else writes
        scanned = table.get(name, [])[:MAX_SCANNED_WRITES]
        return [write for write in scanned if self._same(write[2](), owner, name)][:MAX_WRITES]

    def _same(self, struct: TypeRef | None, owner: TypeRef | None, name: str) -> bool:
        """Whether field `name` of `struct` can be the one read on `owner` (either unknown: it may be); both
        are taken to the struct that declares the field, for fields promoted from embedded structs."""
        if struct is None or owner is None:
            return True
        return self._declaring(struct, name) == self._declaring(owner, name)

    def _declaring(self, struct: TypeRef, name: str) -> TypeRef:
        declarations = self.resolver.declarations
        found = declarations.field(struct, name)
        return found[0] if found is not None else declarations.unalias(struct.base)

    def _field_writes(self) -> dict[str, list[tuple[GoFile, tree_sitter.Node, Callable[[], TypeRef | None]]]]:
        """Writes of fields by name, each with a function telling its struct (computed only when read)."""
        if self._field_values is None:
            writes: dict[str, list[tuple[GoFile, tree_sitter.Node, Callable[[], TypeRef | None]]]] = {}
            elements: dict[str, list[tuple[GoFile, tree_sitter.Node, Callable[[], TypeRef | None]]]] = {}
            resolver = self.resolver
            for file in self.files:
                for left, right in file.assignments():
                    written, value = parser.named(left)[0], parser.named(right)[0]
                    # `x.f = v` writes field f; `x.f[k] = v` one of its items
                    is_item = written.type == "index_expression"
                    table = elements if is_item else writes
                    target = written.child_by_field_name("operand") if is_item else written
                    if target is not None and target.type == "selector_expression":
                        name = parser.text(target.child_by_field_name("field"))
                        operand = target.child_by_field_name("operand")
                        owner = functools.partial(resolver.type_of, file, operand)
                        table.setdefault(name, []).append((file, value, owner))
                for literal in file.nodes("composite_literal"):
                    struct = functools.partial(resolve_type, literal.child_by_field_name("type"), file)
                    for key, value in keyed_elements(literal):
                        writes.setdefault(key, []).append((file, value, struct))
            self._field_values, self._element_writes = writes, elements
        return self._field_values

    def _call(self, file: GoFile, node: tree_sitter.Node, env: dict[str, Value], depth: int) -> Value:
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        values = parser.named(arguments) if arguments is not None else []
        name = (
            parser.text(function.child_by_field_name("field"))
            if function and function.type == "selector_expression"
            else parser.text(function)
        )
        package = ""
        if function is not None and function.type == "selector_expression":
            package = file.imports.get(parser.text(function.child_by_field_name("operand")), "")
        first = self.value(file, values[0], env, depth + 1) if values else UNKNOWN
        configuration = self._configuration_read(package, name, first, len(values))
        if configuration is not None:
            return configuration
        viper = self._viper_read(file, function, package, name, first, depth)
        if viper is not None:
            return viper
        flag = self._flag_read(node, name, first, values)
        if flag is not None:
            return self._flag_value(flag, depth)
        if name == "len" and isinstance(first, Val) and isinstance(first.value, str | list | dict | tuple | None):
            return Val(len(first.value or ()), first.origin)
        if name == "append" and function is not None and function.type == "identifier":
            return _appended(first, [self.value(file, item, env, depth + 1) for item in values[1:]])
        if package == "strings" and isinstance(first, Val) and isinstance(first.value, str):
            return _strings(name, first, [self.value(file, item, env, depth + 1) for item in values[1:]])
        if name == "make" and function is not None and function.type == "identifier":
            return Val({})
        info = self.resolver.callee(file, node)
        if info is not None and depth < MAX_DEPTH // 2:
            bindings = {
                p.name: self.value(file, values[p.index], env, depth + 1)
                for p in info.parameters
                if p.index < len(values)
            }
            return self.returned(info.file, info.node, bindings, depth + 1)
        return UNKNOWN

    def _configuration_read(self, package: str, name: str, first: Value, count: int) -> Value | None:
        """The environment, viper's IsSet, pflag's Changed and feature gates, for the default deployment."""
        named = first.value if isinstance(first, Val) and isinstance(first.value, str) else None
        if package == "os" and name in ("Getenv", "LookupEnv"):
            origin = named if named is not None else "an environment variable"
            return Val(("", False), origin) if name == "LookupEnv" else Val("", origin, unseen=True)
        if name in ("IsSet", "Changed") and named is not None:
            return Val(False, f"--{named}")  # nothing is set in the default deployment
        gate = self._feature_gates().get(named) if name == "Enabled" and count == 1 and named is not None else None
        if gate is not None:  # `DefaultFeatureGate.Enabled(features.X)`
            return Val(gate, f"--feature-gates {named}")
        return None

    def _viper_read(
        self, file: GoFile, function: tree_sitter.Node | None, package: str, name: str, first: Value, depth: int
    ) -> Value | None:
        """`viper.GetString(key)` in the default deployment: what `viper.Set` stores under the key, else its
        `viper.SetDefault`, else the default of the flag of that name (None: left to the flag), else the
        getter's zero value; viper reads other sources (files, the environment) only where deployed."""
        getter = _FLAG_GETTER.match(name)
        key = first.value if isinstance(first, Val) and isinstance(first.value, str) else None
        if getter is None or key is None or function is None or not self._is_viper(file, function, package):
            return None
        stored = self._viper_keys().get(key, {})
        for method in ("Set", "SetDefault"):
            written = [
                self.value(at, value, self.parameters(at, value, depth + 1), depth + 1)
                for at, value in stored.get(method, [])
            ]
            if written:
                distinct = {repr(value): value for value in written}
                return next(iter(distinct.values())) if len(distinct) == 1 else UNKNOWN
        if key in self.flags.by_name:
            return None
        kind = getter.group(1)
        zero: object = False if kind == "Bool" else 0 if kind.startswith(("Int", "Duration")) else ""
        return Val([] if kind.endswith(("Slice", "Array")) else zero, key)

    def _is_viper(self, file: GoFile, function: tree_sitter.Node, package: str) -> bool:
        """A call of the viper package or of a `*viper.Viper`."""
        if package == _VIPER:
            return True
        operand = function.child_by_field_name("operand") if function.type == "selector_expression" else None
        owner = self.resolver.type_of(file, operand) if operand is not None else None
        return owner is not None and owner.is_(_VIPER, "Viper")

    def _viper_keys(self) -> dict[str, dict[str, list[tuple[GoFile, tree_sitter.Node]]]]:
        """Every `Set(key, value)` and `SetDefault(key, value)` of viper in the module (not tests), by key."""
        if self._viper is None:
            keys: dict[str, dict[str, list[tuple[GoFile, tree_sitter.Node]]]] = {}
            for file in self.files:
                if file.path.endswith("_test.go"):
                    continue
                for call in file.calls():
                    if call.name not in ("Set", "SetDefault") or call.arguments is None:
                        continue
                    function = call.node.child_by_field_name("function")
                    package = file.imports.get(parser.text(call.operand), "") if call.operand is not None else ""
                    values = parser.named(call.arguments)
                    if len(values) != 2 or function is None or not self._is_viper(file, function, package):
                        continue
                    key = self.value(file, values[0], {}, 0)
                    if isinstance(key, Val) and isinstance(key.value, str):
                        keys.setdefault(key.value, {}).setdefault(call.name, []).append((file, values[1]))
            self._viper = keys
        return self._viper

    def _feature_gates(self) -> dict[str, bool]:
        """The default of each feature gate the module declares: the `Default:` of its FeatureSpec, or of the
        last of its VersionedSpecs (the newest version), read once."""
        if self._gates is None:
            gates: dict[str, bool] = {}
            for file in self.files:
                if file.path.endswith("_test.go"):
                    continue  # tests switch gates on and off for themselves
                for literal in file.nodes("composite_literal"):
                    kind = literal.child_by_field_name("type")
                    if kind is None or kind.type != "map_type" or not parser.text(kind).endswith(_GATE_SPECS):
                        continue
                    for gate, spec in keyed_entries(literal):
                        name = self.value(file, gate, {}, 0)
                        default = _gate_default(spec)
                        if isinstance(name, Val) and isinstance(name.value, str) and default is not None:
                            gates[name.value] = default
            self._gates = gates
        return self._gates

    def _flag_read(
        self, node: tree_sitter.Node, name: str, first: Value, values: list[tree_sitter.Node]
    ) -> Flag | None:
        """The flag a call reads: `fs.GetString("ns")`, `flag.String("ns", …)`, `kingpin.Flag("ns").String()`."""
        named = first.value if isinstance(first, Val) and isinstance(first.value, str) else None
        if (_FLAG_GETTER.match(name) or _FLAG_VALUE.match(name)) and named is not None:
            return self.flags.by_name.get(named)
        if _FLAG_VALUE.match(name) and not values:
            chain = kingpin_chain(node)
            return self.flags.by_name.get(chain[0]) if chain is not None else None
        return None

    def returned(self, file: GoFile, function: tree_sitter.Node, env: dict[str, Value], depth: int) -> Value:
        """The value the first return statement whose guards hold gives, in source order."""
        bindings = tuple(sorted((name, repr(value)) for name, value in env.items()))
        key = ("returned", file.path, function.start_byte, bindings)
        return self._memoized(key, lambda: self._returned(file, function, env, depth))

    def _returned(self, file: GoFile, function: tree_sitter.Node, env: dict[str, Value], depth: int) -> Value:
        """Returns that fail are passed over: the default deployment does not fail (a helper that first
        checks `OPERATOR_NAMESPACE` is set returns what it computes after the check)."""
        fails = _returns_error(function)
        passed_over = ""  # what the returns before this one read: the value depends on it too
        failures = False  # a return that fails was passed over: whether the call fails is not known
        for statement in return_statements(function):
            if fails and _returns_failure(statement):
                failures = True
                continue
            guards = list(self.guards(file, statement, env))
            if any(guard.holds is None for guard in guards):
                return UNKNOWN
            if not all(guard.holds for guard in guards):
                passed_over = passed_over or next((guard.origin for guard in guards if guard.origin), "")
            else:
                evaluated = [self.value(file, item, env, depth + 1) for item in return_items(statement)]
                if failures and evaluated:  # at run time it may fail (an object not found): err stays unknown
                    evaluated[-1] = UNKNOWN
                # The value a guarded return gives depends on what the guard read (WATCH_NAMESPACE unset).
                origin = next((guard.origin for guard in guards if guard.origin), "") or passed_over
                if len(evaluated) == 1:
                    first = evaluated[0]
                    return Val(first.value, first.origin or origin) if isinstance(first, Val) else first
                items = tuple(item.value if isinstance(item, Val) else UNKNOWN for item in evaluated)
                return Val(items, origin or _origin(*evaluated))
        return UNKNOWN

    def _literal(self, file: GoFile, node: tree_sitter.Node, env: dict[str, Value], depth: int) -> Value:
        type_node = node.child_by_field_name("type")
        body = node.child_by_field_name("body")
        if type_node is None or body is None:
            return UNKNOWN
        if type_node.type == "map_type":
            keys = {}
            for element in parser.named(body):
                key = element.child_by_field_name("key")
                key_node = parser.first_named(key) or key
                value = self.value(file, key_node, env, depth + 1)
                if not isinstance(value, Val):
                    return UNKNOWN
                keys[value.value] = True
            return Val(keys)
        if type_node.type == "slice_type":
            items = [self.value(file, parser.first_named(e) or e, env, depth + 1) for e in parser.named(body)]
            if any(not isinstance(item, Val) for item in items):
                return Val([UNKNOWN] * len(items))
            return Val([item.value for item in items if isinstance(item, Val)])
        return UNKNOWN

    # -- guards -----------------------------------------------------------------------------------
    def _case_guard(self, file: GoFile, case: tree_sitter.Node, env: dict[str, Value]) -> Guard:
        switch = case.parent
        while switch is not None and switch.type != "expression_switch_statement":
            switch = switch.parent
        span = file.span(case.child(0) or case)
        if switch is None:
            return Guard(None, "a case", span)
        tag = switch.child_by_field_name("value")
        tag_value = self.value(file, tag, env, 0) if tag is not None else Val(True)
        if case.type == "default_case":
            others = [c for c in switch.named_children if c.type == "expression_case"]
            outcomes = [self._case_matches(file, c, tag_value, env) for c in others]
            holds = None if None in outcomes else not any(outcomes)
            return Guard(holds, f"no other case of `switch {parser.text(tag)}` matches", span)
        holds = self._case_matches(file, case, tag_value, env)
        text = " ".join(parser.text(case.child_by_field_name("value") or case).split())[:60]
        origin = tag_value.origin if isinstance(tag_value, Val) else ""
        if origin and tag is not None:  # the case is chosen by configuration: name it (SPEC §1)
            return Guard(holds, f"{origin} selects {text}", span, origin)
        return Guard(holds, text, span)

    def _case_matches(self, file: GoFile, case: tree_sitter.Node, tag: Value, env: dict[str, Value]) -> bool | None:
        values = case.child_by_field_name("value")
        if values is None or not isinstance(tag, Val):
            return None
        results = []
        for item in parser.named(values):
            value = self.value(file, item, env, 0)
            if not isinstance(value, Val):
                return None
            results.append(value.value == tag.value)
        return any(results)

    def _loop_guard(self, file: GoFile, loop: tree_sitter.Node, env: dict[str, Value]) -> Guard:
        clause = next((child for child in loop.named_children if child.type == "range_clause"), None)
        span = file.span(clause if clause is not None else loop)
        if clause is None:
            return Guard(None, "a loop", span)
        ranged = clause.child_by_field_name("right")
        text = " ".join(parser.text(ranged).split())
        body = ranged.child_by_field_name("body") if ranged is not None and ranged.type == "composite_literal" else None
        if body is not None:  # `range []string{namespace}`: as many rounds as items, whatever they hold
            return Guard(bool(parser.named(body)), f"`{text}` is not empty", span)
        value = self.value(file, ranged, env, 0)
        if isinstance(value, Val) and isinstance(value.value, list | dict | str | tuple | None):
            # `[""]` runs once (every namespace): what the loop does with its item decides, not the loop
            items = value.value or ()
            return Guard(len(items) > 0, _set_text(value.origin or text), span)
        return Guard(None, f"`{text}` is not empty", span)

    def _caller_guards(self, file: GoFile, node: tree_sitter.Node, levels: int = CALLER_LEVELS) -> list[Guard]:
        """When a node sits in a helper, the guards around the helper's calls decide for it, and where a
        call is not guarded, those around the calls of the function making it (up to `levels` calls up):
        a feature gate usually guards the entry of a chain of helpers, not the read at its end."""
        key = self.resolver.function_key(file, node)
        info = self.resolver.declarations.functions.get(key) if key is not None else None
        if info is None or info.key.name == "main":
            return []
        # a cycle of calls is taken as a call that may run
        return self._once(("callers-off", info.key, levels), lambda: self._off_at_every_call(info.key, levels), [])

    def _off_at_every_call(self, key: FunctionKey, levels: int) -> list[Guard]:
        """The first guard that keeps one call of a function off by default, when every call is kept off;
        none when one call may run."""
        calls = self.deployed(key, self.callers(key))
        if not calls and key.receiver:  # a method only controller-runtime calls (Reconcile)
            calls = self.deployed(key, self.constructions(key))
        outcomes = []
        for caller_file, call in calls:
            combined = combine(list(self.guards(caller_file, call, {})))
            if combined is not None and combined.holds_by_default is False:
                outcomes.append(Guard(False, combined.text, combined.span))
                continue
            above = self._caller_guards(caller_file, call, levels - 1) if levels > 1 else []
            if not above:
                return []  # one call that may run is enough
            outcomes.append(above[0])
        return outcomes[:1]

    def callers(self, key: FunctionKey) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The calls of one module function, resolved on demand: only helpers with a site or a guarded
        restriction are ever asked for, so resolving every call of the module up front would be wasted."""
        found = self._callers.get(key)
        if found is None:
            if key.receiver:
                found = self._method_calls(key.name).get(key, [])
            else:  # told from the call's text first, without resolving its callee (the costly part)
                found = [
                    (file, call)
                    for file, call in self._named(key.name)
                    if _may_call_function(file, call, key) and self._callee_key(file, call) == key
                ]
            self._callers[key] = found
        return found

    def deployed(
        self, key: FunctionKey, places: list[tuple[GoFile, tree_sitter.Node]]
    ) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The calls (or constructions) of a function a binary makes: a binary holds no test, so what tests
        do with a non-test function says nothing of the deployment (--include-tests)."""
        info = self.resolver.declarations.functions.get(key)
        if info is None or _is_test_code(info.file.path):
            return places
        return [(file, node) for file, node in places if not _is_test_code(file.path)]

    def _method_calls(self, name: str) -> dict[FunctionKey, list[tuple[GoFile, tree_sitter.Node]]]:
        """The calls of a method name grouped by the method each invokes, each call resolved once: the
        methods of generated wrappers share names (Get, List) by the hundred."""
        grouped = self._calls_by_method.get(name)
        if grouped is None:
            grouped = {}
            for file, call in self._named(name):
                if (callee := self._callee_key(file, call)) is not None:
                    grouped.setdefault(callee, []).append((file, call))
            self._calls_by_method[name] = grouped
        return grouped

    def constructions(self, key: FunctionKey) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The composite literals building a method's receiver type: a method that no code of the module
        calls runs where its value is built (`if enableX { (&XReconciler{…}).SetupWithManager(mgr) }`)."""
        if self._literals_by_type is None:
            index: dict[str, list[tuple[GoFile, tree_sitter.Node]]] = {}
            for file in self.files:
                for literal in file.nodes("composite_literal"):
                    type_node = literal.child_by_field_name("type")
                    if type_node is not None:
                        index.setdefault(parser.text(type_node).rsplit(".", 1)[-1], []).append((file, literal))
            self._literals_by_type = index
        built = TypeRef(key.package, key.receiver)
        return [
            (file, literal)
            for file, literal in self._literals_by_type.get(key.receiver, [])
            if (found := resolve_type(literal.child_by_field_name("type"), file)) is not None and found.base == built
        ]

    def _callee_key(self, file: GoFile, call: tree_sitter.Node) -> FunctionKey | None:
        info = self.resolver.callee(file, call)
        return info.key if info is not None else None

    def _named(self, name: str) -> list[tuple[GoFile, tree_sitter.Node]]:
        """Calls whose function name (the last selector element) is `name`; indexed once, without resolving."""
        if self._calls_by_name is None:
            index: dict[str, list[tuple[GoFile, tree_sitter.Node]]] = {}
            for file in self.files:
                for call in file.calls():
                    index.setdefault(call.name, []).append((file, call.node))
            self._calls_by_name = index
        return self._calls_by_name.get(name, [])


def combine(guards: list[Guard]) -> Condition | None:
    """All guards must hold; the first that fails (or cannot be told) names the condition."""
    if not guards:
        return None
    failing = next((guard for guard in guards if guard.holds is False), None)
    if failing is not None:
        return Condition(failing.text, failing.span, False)
    unknown = next((guard for guard in guards if guard.holds is None), None)
    if unknown is not None:
        return Condition(unknown.text, unknown.span, None)
    return None  # every guard holds: as good as unconditional


def _literal(node: tree_sitter.Node) -> Val | None:
    kind = node.type
    if kind in ("interpreted_string_literal", "raw_string_literal"):
        return Val(_unquote(parser.text(node)))
    if kind == "int_literal":
        text = parser.text(node)
        return Val(int(text)) if text.isdigit() else None
    if kind in ("true", "false"):
        return Val(kind == "true")
    if kind == "nil":
        return Val(None)
    return None


def _logical(operator: str, left: Value, right: Value, origin: str) -> Value:
    """`&&` and `||`; an operand that decides alone names the origin (`!gateA || !gateB` true by gateB)."""
    operands = (left, right)
    values = [item.value if isinstance(item, Val) and isinstance(item.value, bool) else None for item in operands]
    deciding = operator != "&&"  # the value that decides alone: false for &&, true for ||
    if deciding in values:
        decided = operands[values.index(deciding)]
        return Val(deciding, decided.origin if isinstance(decided, Val) and decided.origin else origin)
    return Val(not deciding, origin) if values == [not deciding, not deciding] else UNKNOWN


def _either(before: Value, written: Value) -> Value:
    """A variable written under a condition that cannot be told: known only when both values agree
    (`ns := ""; if !all { ns = os.Getenv("NS") }` is empty either way)."""
    if not isinstance(before, Val) or not isinstance(written, Val) or type(before.value) is not type(written.value):
        return UNKNOWN
    return Val(written.value, written.origin or before.origin) if before.value == written.value else UNKNOWN


def _gate_default(spec: tree_sitter.Node) -> bool | None:
    """`{Default: false, PreRelease: …}`, or the last spec of `{{Version: …, Default: …}, …}`."""
    specs = [spec]
    if spec.type == "literal_value":
        nested = [item for item in parser.named(spec) if item.type in ("literal_element", "literal_value")]
        if nested and not any(item.type == "keyed_element" for item in parser.named(spec)):
            last = nested[-1]
            specs = [parser.first_named(last) or last] if last.type == "literal_element" else [last]
    for name, value in keyed_elements(specs[0]):
        if name == "Default" and value.type in ("true", "false"):
            return value.type == "true"
    return None


def _item(item: object, origin: str) -> Value:
    """One item of a known list, map or tuple of results, which may itself be unknown."""
    return UNKNOWN if isinstance(item, _Unknown) else Val(item, origin)


def _appended(first: Value, items: list[Value]) -> Value:
    """`append(list, items…)`: a nil or known list grows by the items (unknown ones included: they count)."""
    if not isinstance(first, Val) or not isinstance(first.value, list | None):
        return UNKNOWN
    added = [item.value if isinstance(item, Val) else UNKNOWN for item in items]
    return Val([*(first.value or []), *added], first.origin or _origin(*items))


def _strings(name: str, first: Val, rest: list[Value]) -> Value:
    text = str(first.value)
    argument = rest[0].value if rest and isinstance(rest[0], Val) else None
    if name in ("TrimSpace", "ToLower", "ToUpper"):
        return Val({"TrimSpace": text.strip(), "ToLower": text.lower(), "ToUpper": text.upper()}[name], first.origin)
    if name in ("Split", "SplitSeq") and isinstance(argument, str) and argument:
        return Val(text.split(argument), first.origin)
    if name == "Fields":
        return Val(text.split(), first.origin)
    if name in ("Contains", "HasPrefix", "HasSuffix") and isinstance(argument, str):
        tests = {
            "Contains": argument in text,
            "HasPrefix": text.startswith(argument),
            "HasSuffix": text.endswith(argument),
        }
        return Val(tests[name], first.origin)
    return UNKNOWN


def _zero(type_ref: TypeRef | None) -> Value:
    if type_ref is None or type_ref.pointer or type_ref.slice:
        return Val(None) if type_ref is not None else UNKNOWN
    return {"string": Val(""), "bool": Val(False)}.get(
        type_ref.name, Val(0) if type_ref.name.startswith(("int", "uint")) else UNKNOWN
    )


def _origin(*values: Value) -> str:
    return next((value.origin for value in values if isinstance(value, Val) and value.origin), "")


def _set_text(origin: str) -> str:
    return f"{origin} is set" if not origin.startswith("`") else f"{origin} is not empty"


def _guard_text(condition: tree_sitter.Node, origin: str, negated: bool) -> str:
    if origin:
        return f"{origin} is {'not ' if negated else ''}set"
    text = " ".join(parser.text(condition).split())
    text = text if len(text) <= 60 else text[:59] + "…"
    return f"`{text}` is {'false' if negated else 'true'}"


def _reads_variables_only(
    file: GoFile, condition: tree_sitter.Node, is_global: Callable[[GoFile, tree_sitter.Node], bool]
) -> bool:
    """No field of a value and no error variable. A package's names and the fields of package variables
    are not an object's fields: `flags.Namespace`, `utilfeature.DefaultFeatureGate.Enabled(…)`,
    `options.EnablePods` where `var options Options` holds the command line."""
    found = parser.captures("[(identifier) @name (selector_expression) @field]", condition)
    for selector in found.get("field", []):
        root = selector.child_by_field_name("operand")
        while root is not None and root.type == "selector_expression":
            root = root.child_by_field_name("operand")
        if root is None or root.type != "identifier":
            return False
        if parser.text(root) not in file.imports and not is_global(file, root):
            return False
    return not any(
        name.text in (b"err", b"error") or (name.text or b"").endswith(b"Err") for name in found.get("name", [])
    )


def _span(node: tree_sitter.Node | None) -> tuple[int, int] | None:
    return (node.start_byte, node.end_byte) if node is not None else None


def _closure_of(node: tree_sitter.Node, declaration: Declaration) -> tuple[int, int] | None:
    """The byte range of the function literal a local is read in, when that is not its declaring function."""
    reader = innermost_function(node)
    if (
        reader is None
        or reader.type != "func_literal"
        or reader.start_byte <= declaration.node.start_byte < reader.end_byte
    ):
        return None
    return _span(reader)


def _read_at(node: tree_sitter.Node, declaration: Declaration) -> int:
    """Where a local is read, for the writes before it: in a function deferred (`defer func() { … }()`)
    after its declaration, at the end of the declaring function, when the deferred function runs."""
    current = node.parent
    while current is not None and current.type not in ("function_declaration", "method_declaration"):
        declared_inside = current.start_byte <= declaration.node.start_byte < current.end_byte
        call = current.parent if current.type == "func_literal" and not declared_inside else None
        statement = call.parent if call is not None and call.type == "call_expression" else None
        if statement is not None and statement.type == "defer_statement":
            function = enclosing_function(declaration.node)
            return function.end_byte if function is not None else node.start_byte
        current = current.parent
    return node.start_byte


def _is_test_code(path: str) -> bool:
    """A `_test.go` file, or a file of a test folder (`test/`, `e2e/`): analyzed with --include-tests only."""
    parts = path.split("/")
    return is_test_file(parts[-1]) or any(part in TEST_DIRECTORIES for part in parts[:-1])


def _tested_empty(condition: tree_sitter.Node | None) -> str | None:
    """The name `name == ""`, `x.Name == ""`, `name == nil` or `len(name) == 0` tests, or None."""
    if condition is None or condition.type != "binary_expression":
        return None
    if parser.text(condition.child_by_field_name("operator")) != "==":
        return None
    sides = [condition.child_by_field_name("left"), condition.child_by_field_name("right")]
    texts = [parser.text(side) for side in sides if side is not None]
    empty = next((index for index, text in enumerate(texts) if text in ('""', "nil", "0", "``")), None)
    if len(texts) != 2 or empty is None:
        return None
    tested = texts[1 - empty]
    if tested.startswith("len(") and tested.endswith(")"):
        tested = tested[4:-1]
    return tested.rsplit(".", 1)[-1]


def _returns_error(function: tree_sitter.Node) -> bool:
    """Whether a function's last result is an `error`."""
    result = function.child_by_field_name("result")
    if result is not None and result.type == "parameter_list":
        declarations = parser.named(result)
        result = declarations[-1].child_by_field_name("type") if declarations else None
    return result is not None and parser.text(result) == "error"


def _returns_failure(statement: tree_sitter.Node) -> bool:
    """A return whose last value, the error, is not nil (a bare return names its results: not told)."""
    values = return_items(statement)
    return bool(values) and parser.text(values[-1]) != "nil"


def _may_call_function(file: GoFile, call: tree_sitter.Node, key: FunctionKey) -> bool:
    """Whether a call can be one of the plain function `key`: `pkg.Name(…)` with pkg importing its package,
    or `Name(…)` in its package."""
    function = call.child_by_field_name("function")
    if function is not None and function.type == "selector_expression":
        operand = function.child_by_field_name("operand")
        return operand is not None and file.imports.get(parser.text(operand)) == key.package
    return file.package_path == key.package


def _declaring_struct(file: GoFile, declaration: tree_sitter.Node) -> TypeRef | None:
    """The named struct type a field declaration belongs to (`type startCommand struct {…}`)."""
    struct = declaration.parent.parent if declaration.parent is not None else None
    spec = struct.parent if struct is not None and struct.type == "struct_type" else None
    name = spec.child_by_field_name("name") if spec is not None and spec.type == "type_spec" else None
    return TypeRef(file.package_path, parser.text(name)) if name is not None else None


def _kebab(name: str) -> str:
    """WatchCacheNamespaced -> watch-cache-namespaced, as kong names a field's flag (acronyms kept whole)."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "-", name).lower()


def _tag_value(text: str, is_bool: bool) -> object:
    if is_bool:
        return text == "true"
    return int(text) if re.fullmatch(r"-?\d+", text) else text


def _disjuncts(condition: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The parts of `a || b || c` (one part for any other condition)."""
    node = condition
    while node.type == "parenthesized_expression" and parser.named(node):
        node = parser.named(node)[0]
    if node.type == "binary_expression" and parser.text(node.child_by_field_name("operator")) == "||":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is not None and right is not None:
            return _disjuncts(left) + _disjuncts(right)
    return [condition]


def _early_return(statement: tree_sitter.Node) -> tree_sitter.Node | None:
    """The return ending the block of an `if` without `else`, if it ends with one."""
    if statement.child_by_field_name("alternative") is not None:
        return None
    block = statement.child_by_field_name("consequence")
    statements = (
        next((child for child in block.named_children if child.type == "statement_list"), None) if block else None
    )
    last = parser.named(statements)[-1] if statements is not None and parser.named(statements) else None
    return last if last is not None and last.type == "return_statement" else None
