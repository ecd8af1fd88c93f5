"""Flag definitions of a Go module (flag, pflag, cobra, kingpin, urfave/cli, kong and go-flags tags) and the
struct fields filled from environment variables, each with the default its definition shows."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import tree_sitter

from watchlint.go import parser
from watchlint.go.configfiles import decoded_from_parameters, decoded_into_parameters, decoded_structs
from watchlint.go.declarations import FunctionInfo, FunctionKey, resolve_type
from watchlint.go.envconfig import Processed, field_variables, processed_structs
from watchlint.go.model import Call, GoFile, TypeRef, shared_folders
from watchlint.go.resolve import Resolver, assigned_to, keyed_elements, unquote
from watchlint.go.scope import innermost_function, return_items, return_statements
from watchlint.go.structtags import declares_a_variables_field, declaring_struct, tag_items

# the typed flag definitions of flag and pflag (`StringVar(&v, name, default, usage)`, `IntSlice(name, default,
# usage)`), with P for pflag's forms taking a shorthand before the default
_FLAG_TYPES = (
    "String|Bool|Int|Int8|Int16|Int32|Int64|Uint|Uint8|Uint16|Uint32|Uint64|Float32|Float64|Duration"
    "|StringSlice|StringArray|IntSlice|Int32Slice|Int64Slice|UintSlice|Float32Slice|Float64Slice|BoolSlice"
    "|DurationSlice|StringToString|StringToInt|StringToInt64"
)
FLAG_VAR = re.compile(rf"^({_FLAG_TYPES})Var(P)?$")
# kingpin's own value types, whose Var forms take allowed values after the destination
_KINGPIN_ONLY = frozenset({"Enum", "Enums", "EnumVar", "EnumsVar", "Strings", "StringsVar"})
FLAG_VALUE = re.compile(rf"^({_FLAG_TYPES})(P)?$")
# flags of a value of the program's own (`fs.Var(&namespaces, "namespace", usage)`): its default is what the
# value holds before; and flags whose function fills variables (`flag.Func(name, usage, func(v string) …)`)
VALUE_FLAGS = frozenset({"Var", "VarP", "VarPF", "Func", "TextVar"})
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_KONG = "github.com/alecthomas/kong"
# libraries binding flags of their own to the fields of an options struct (`watchOptions.BindFlags(fs)`): the
# struct, then each field with its flag, the default it gives, and whether it is a boolean
_LIBRARY_FLAG_SETS: dict[TypeRef, tuple[tuple[str, str, str, bool], ...]] = {
    TypeRef("github.com/fluxcd/pkg/runtime/controller", "WatchOptions"): (
        ("AllNamespaces", "watch-all-namespaces", "true", True),
        ("LabelSelector", "watch-label-selector", "", False),
        ("ConfigsLabelSelector", "watch-configs-label-selector", "reconcile.fluxcd.io/watch=Enabled", False),
    ),
}
_URFAVE_CLI = "github.com/urfave/cli"  # v1, /v2 and /v3


@dataclass(slots=True)
class Flag:
    """A flag definition: its name, the file defining it and the default it shows."""

    name: str
    file: GoFile
    default: tree_sitter.Node | None  # None: the zero value (or `tag_default`)
    is_bool: bool = False  # kingpin writes boolean defaults as strings: Default("true")
    tag_default: str | None = None  # a struct tag's `default:"…"`, for flags declared by tags
    # `flag.StringVar(&o.Namespace, "namespace", o.Namespace, …)`: the default is what the field held before
    defaults_to_destination: bool = False
    required: bool = False  # the definition says the program does not run without it (urfave's Required: true)
    # defined through a helper of the module (`iflag.StringVar(fs, &ns, "namespace", "NS", "", usage)`): the
    # default is the helper's, read with the helper's parameters bound to what this call passes
    through: WrappedDefinition | None = None
    by_tag: bool = False  # declared by a struct field's tag (kong, go-flags), named after the field
    # a name the program builds, where it may be one of several (liqo's `f.remotify("namespace")`: "namespace"
    # or "remote-namespace"): each of them; the flag is then found by none (`name` is "")
    names: tuple[str, ...] = ()

    @property
    def shown(self) -> str:
        """`--namespace`, as messages name the flag (`--namespace or --remote-namespace`)."""
        return " or ".join(f"--{name}" for name in self.names) if self.names else f"--{self.name}"


@dataclass(frozen=True, slots=True)
class FlagHelper:
    """A function of the module that defines the flag its caller names, into the variable its caller points
    to (`func StringVar(fs *flag.FlagSet, out *string, name, env, def, usage string) { fs.StringVar(out,
    name, fromEnv(env, def), usage) }`): the positions of both parameters and the default the definition
    gives, in the helper's terms."""

    info: FunctionInfo
    output: int
    name: int
    default: tree_sitter.Node


@dataclass(frozen=True, slots=True)
class WrappedDefinition:
    """A flag helper's call: where it is, and the helper."""

    file: GoFile
    call: tree_sitter.Node
    helper: FlagHelper


@dataclass(frozen=True, slots=True)
class EnvTag:
    """A struct field filled from an environment variable, as its tag says, with the default it gives."""

    variable: str
    default: str | None  # None: the zero value

    @classmethod
    def parse(cls, tag: str) -> EnvTag | None:
        """`env:"X" envDefault:"v"` (caarlos0/env), `env:"X" env-default:"v"` (cleanenv), `env:"X,default=v"`
        (sethvargo/go-envconfig), `envconfig:"X" default:"v"` (kelseyhightower/envconfig)."""
        values = tag_items(tag)
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
    # every definition of each name, in the order met: binaries of one module may each define theirs
    by_name: dict[str, list[Flag]] = field(default_factory=dict)
    # field name -> the structs declaring a field of that name with an `env:"X"` tag, with X and its default
    env_by_field: dict[str, list[tuple[TypeRef | None, EnvTag]]] = field(default_factory=dict)
    decoded: list[TypeRef] = field(default_factory=list)  # structs filled from a configuration file
    # structs decoded from a function's parameter: from a file when a caller passes a file's bytes
    decoded_by_parameter: list[tuple[TypeRef, FunctionKey, int]] = field(default_factory=list)
    # functions decoding a file into a parameter (`LoadConfigInto(conf any, dir string)`): what callers pass
    decoded_into_parameter: list[tuple[FunctionKey, int]] = field(default_factory=list)
    processed: list[Processed] = field(default_factory=list)  # structs envconfig fills, tagged or not
    helpers: dict[FunctionKey, FlagHelper] = field(default_factory=dict)  # functions defining their callers' flags
    helper_calls: set[tuple[str, int]] = field(default_factory=set)  # (file, start) of the calls of helpers
    # the locals a flag's value is held in by pointer (`driverType := flag.String("type", …)`), by flag identity
    pointers: dict[int, set[str]] = field(default_factory=dict)
    # per method name, its matches of FLAG_VAR and FLAG_VALUE: every call of the module is asked
    _forms: dict[str, tuple[re.Match[str] | None, re.Match[str] | None]] = field(default_factory=dict)

    def named(self, name: str, near: GoFile | None = None) -> Flag | None:
        """The flag of a name; of several definitions, the one the read's file defines (pixie's `run.go` beside
        `github_matrix.go`, each with a `--suite` of its own), else the one whose folder shares most with `near`'s,
        the first on a tie."""
        flags = self.by_name.get(name)
        if not flags:
            return None
        if near is None or len(flags) == 1:
            return flags[0]
        # the read's own folder first: `cmd/main.go` beside `cmd/dashboard/main.go` shares as much with `cmd`
        return max(
            flags,
            key=lambda flag: (
                flag.file.path == near.path,
                shared_folders(flag.file.directory, near.directory),
                flag.file.directory == near.directory,
            ),
        )

    def _name(self, flag: Flag) -> None:
        self.by_name.setdefault(flag.name, []).append(flag)

    def collect(self, file: GoFile, resolver: Resolver) -> None:
        self.decoded.extend(decoded_structs(file, resolver))
        self.decoded_by_parameter.extend(decoded_from_parameters(file, resolver))
        self.decoded_into_parameter.extend(decoded_into_parameters(file, resolver))
        self.processed.extend(processed_structs(file, resolver))
        for call in file.calls():
            if call.name == "BindFlags" and call.operand is not None:
                self._library_flags(file, call.operand, resolver)
            elif call.operand is not None and call.arguments is not None:
                self._flag_call(file, call, resolver)
        if any(path.startswith(_URFAVE_CLI) for path in file.imports.values()):
            for literal in file.nodes("composite_literal"):
                self._urfave_flag(file, literal, resolver)
        self._tagged_fields(file)

    def _tagged_fields(self, file: GoFile) -> None:
        """The fields whose tags name an environment variable or declare a flag."""
        uses_kong = _KONG in file.imports.values()
        for declaration in file.nodes("field_declaration"):
            tag = declaration.child_by_field_name("tag")
            if tag is None:
                continue
            text = parser.text(tag)
            # Most tags are an API type's `json:"…"` alone: only the keys of an environment variable or a flag
            # matter here, and each of those holds "env" or is one of the three below.
            env = EnvTag.parse(text) if "env" in text else None
            # go-flags names its flags by `long:` and may leave the default out: the zero value then
            flagged = 'default:"' in text or 'long:"' in text or (uses_kong and 'help:"' in text)
            if env is None and not flagged:
                continue
            names = declaration.children_by_field_name("name")
            if env is not None and names:
                struct = declaring_struct(file, declaration)
                self.env_by_field.setdefault(parser.text(names[0]), []).append((struct, env))
            if names and flagged:
                self._tagged_flag(file, declaration, parser.text(names[0]), text)

    def finish(self, files: list[GoFile], resolver: Resolver) -> None:
        """After every file is collected: the flags defined through helpers of the module, at their calls; the
        fields of the structs envconfig fills take their variables' names, prefix included (`envconfig:"X"`
        alone says X, `Process("APP", …)` makes it APP_X)."""
        if self.helpers:
            names = {key.name for key in self.helpers}
            for file in files:
                for call in file.calls():
                    if call.name in names and call.arguments is not None:
                        self._helper_call(file, call.node, call.arguments, resolver)
        for processed in self.processed:
            for filled in field_variables(files, processed):
                entries = self.env_by_field.setdefault(filled.field, [])
                entries[:] = [(struct, env) for struct, env in entries if struct != processed.struct]
                entries.append((processed.struct, EnvTag(filled.variable, filled.default)))

    def _urfave_flag(self, file: GoFile, literal: tree_sitter.Node, resolver: Resolver) -> None:
        """`&cli.BoolFlag{Name: "with-workload", Value: true, Destination: &withWorkload}` (urfave/cli)."""
        kind = resolve_type(literal.child_by_field_name("type"), file)
        if kind is None or not kind.package.startswith(_URFAVE_CLI) or not kind.name.endswith("Flag"):
            return
        fields = dict(keyed_elements(literal))
        name = _constant_text(file, fields["Name"], resolver) if "Name" in fields else None
        if name is None:
            return
        required = "Required" in fields and parser.text(fields["Required"]) == "true"
        flag = Flag(name, file, fields.get("Value"), is_bool=kind.name == "BoolFlag", required=required)
        self._name(flag)
        destination = fields.get("Destination")
        if destination is not None and destination.type == "unary_expression":
            target = destination.child_by_field_name("operand")
            if target is not None:
                self._bind(file, target, flag, resolver)

    def _tagged_flag(self, file: GoFile, declaration: tree_sitter.Node, field_name: str, tag: str) -> None:
        """A field declared as a flag by its tag, as kong and go-flags do (`Namespaced bool
        `default:"false" help:"…"``): the flag is named by `name:`/`long:` or after the field
        (WatchNamespace -> --watch-namespace), its default is `default:` or the zero value."""
        values = tag_items(tag)
        if "-" in (values.get("kong"), values.get("name")):
            return
        struct = declaring_struct(file, declaration)
        if struct is None and not declares_a_variables_field(declaration):
            return  # a struct type written inline elsewhere (a literal's, a parameter's): no flags of a parser
        name = values.get("name") or values.get("long") or _kebab(field_name)
        field_type = parser.text(declaration.child_by_field_name("type"))
        required = values.get("required") in ("", "true", "yes")  # kong's `required:""`, go-flags' `required:"true"`
        is_bool = field_type == "bool"
        flag = Flag(
            name, file, None, is_bool=is_bool, tag_default=values.get("default"), required=required, by_tag=True
        )
        self.by_field.setdefault(field_name, []).append((struct, flag))
        self._name(flag)

    def _flag_call(self, file: GoFile, selector_call: Call, resolver: Resolver) -> None:
        call, method, arguments = selector_call.node, selector_call.name, selector_call.arguments
        if method in VALUE_FLAGS and arguments is not None:
            self._value_flag(file, method, parser.named(arguments), resolver)
            return
        forms = self._forms.get(method)
        if forms is None:
            forms = self._forms[method] = (FLAG_VAR.match(method), FLAG_VALUE.match(method))
        match, value_match = forms
        if arguments is None or (match is None and value_match is None and method not in _KINGPIN_ONLY):
            return  # most calls: decided before the arguments are taken apart
        values = parser.named(arguments)
        if (match or method in _KINGPIN_ONLY) and self._binder_flag(file, values, resolver):
            return
        if match and len(values) >= 3:
            self._var_flag(file, call, values, values[3] if match.group(2) and len(values) > 3 else values[2], resolver)
            return
        if (match and len(values) == 1) or (value_match and not values):
            self._kingpin_flag(file, call, method, values, resolver)
            return
        if method in _KINGPIN_ONLY and kingpin_chain(call) is not None:  # `EnumsVar(&cfg.Sources, allowed...)`
            self._kingpin_flag(file, call, method, values[:1] if method.endswith("Var") else [], resolver)
            return
        name = _one_name(file, values[0], resolver) if value_match and len(values) >= 2 else None
        if value_match and name is not None:
            default = values[2] if value_match.group(2) and len(values) > 2 else values[1]
            flag = Flag(name, file, default)
            self._name(flag)
            held = assigned_to(call)
            if held is not None and held.type == "identifier":
                self.pointers.setdefault(id(flag), set()).add(parser.text(held))

    def _var_flag(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        values: list[tree_sitter.Node],
        default: tree_sitter.Node,
        resolver: Resolver,
    ) -> None:
        """`flag.StringVar(&ns, "namespace", "", usage)` and its kin (pflag's `…VarP` take a shorthand first)."""
        name = _constant_text(file, values[1], resolver)
        target = values[0].child_by_field_name("operand") if values[0].type == "unary_expression" else None
        itself = target is not None and parser.text(default) == parser.text(target)
        built = _built_names(file, values[1], resolver) if name is None and target is not None else ()
        if len(built) > 1 and target is not None:
            # liqo's `f.remotify("namespace")`, or a local set to one of two names: no read finds the flag by one
            # of them, but its variable holds its default unless it is given
            self._bind(file, target, Flag("", file, default, defaults_to_destination=itself, names=built), resolver)
            return
        name = name or (built[0] if built else None)  # `prefixed("namespace")` making "operator-namespace"
        if name is None:  # a name the code does not spell: a flag helper's definition, if any
            self._helper(file, call, default, values, resolver)
            return
        flag = Flag(name, file, default, defaults_to_destination=itself)
        if target is not None:
            self._bind(file, target, flag, resolver)
        self._name(flag)

    def _binder_flag(self, file: GoFile, values: list[tree_sitter.Node], resolver: Resolver) -> bool:
        """A binder of the module's own taking the name first and the destination after the help and the default
        (external-dns's FlagBinder: `b.StringVar("namespace", help, defaultConfig.Namespace, &cfg.Namespace)`,
        `b.EnumVar(name, help, def, &cfg.Provider, allowed...)`); False for another call."""
        if len(values) < 3 or values[0].type not in ("interpreted_string_literal", "raw_string_literal"):
            return False
        position = next(
            (
                index
                for index, value in enumerate(values[2:], start=2)
                if value.type == "unary_expression" and parser.text(value.child_by_field_name("operator")) == "&"
            ),
            None,
        )
        if position is None:
            return False
        name = _constant_text(file, values[0], resolver)
        target = values[position].child_by_field_name("operand")
        if name is None or target is None:
            return False
        default = _literal_field(file, values[2], resolver) if position > 2 else None
        flag = Flag(name, file, default)
        self._bind(file, target, flag, resolver)
        self._name(flag)
        return True

    def _helper(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        default: tree_sitter.Node,
        values: list[tree_sitter.Node],
        resolver: Resolver,
    ) -> None:
        """A definition naming its flag and variable by parameters of the function around it: a flag helper."""
        key = resolver.function_key(file, call)
        info = resolver.declarations.functions.get(key) if key is not None else None
        if info is None or values[0].type != "identifier" or values[1].type != "identifier":
            return
        positions = info.positions()
        output, name = positions.get(parser.text(values[0])), positions.get(parser.text(values[1]))
        if output is not None and name is not None:
            self.helpers[info.key] = FlagHelper(info, output, name, default)

    def _helper_call(
        self, file: GoFile, call: tree_sitter.Node, arguments: tree_sitter.Node, resolver: Resolver
    ) -> None:
        info = resolver.callee(file, call)
        helper = self.helpers.get(info.key) if info is not None else None
        values = parser.named(arguments)
        if helper is None or max(helper.output, helper.name) >= len(values):
            return
        name = _constant_text(file, values[helper.name], resolver)
        pointer = values[helper.output]
        target = pointer.child_by_field_name("operand") if pointer.type == "unary_expression" else None
        if name is None or target is None:
            return
        flag = Flag(name, file, helper.default, through=WrappedDefinition(file, call, helper))
        self._bind(file, target, flag, resolver)
        self._name(flag)
        self.helper_calls.add((file.path, call.start_byte))

    def _value_flag(self, file: GoFile, method: str, values: list[tree_sitter.Node], resolver: Resolver) -> None:
        """`Var(&v, name, usage)`, `TextVar(&v, name, default, usage)`: the default is what `v` holds before
        (TextVar's written default aside); `Func(name, usage, fn)`: the variables `fn` assigns hold their
        values before the flag is given."""
        if method == "Func":
            name = _constant_text(file, values[0], resolver) if len(values) == 3 else None
            if name is None or values[2].type != "func_literal":
                return
            flag = Flag(name, file, None, defaults_to_destination=True)
            self._name(flag)
            for left, _ in _assignments_in(values[2]):
                for assigned in parser.named(left):
                    if assigned.type in ("identifier", "selector_expression"):
                        self._bind(file, assigned, flag, resolver)
            return
        if len(values) < 3:  # not a flag: jennifer's `jen.Var()`, a builder's `Var(name)`
            return
        name = _constant_text(file, values[1], resolver)
        target = _destination(values[0])
        if name is None or target is None:
            return
        written = method == "TextVar" and len(values) == 4
        flag = Flag(name, file, values[2] if written else None, defaults_to_destination=not written)
        self._bind(file, target, flag, resolver)
        self._name(flag)

    def _kingpin_flag(
        self, file: GoFile, call: tree_sitter.Node, method: str, values: list[tree_sitter.Node], resolver: Resolver
    ) -> None:
        """`kingpin.Flag("name", "help").Default("x").String()` or `….StringVar(&x)`."""
        found = kingpin_chain(call)
        if found is None:
            return
        name, default = found
        flag = Flag(name, file, default, is_bool=method.startswith("Bool"), required=_chain_requires(call))
        self._name(flag)
        target = values[0].child_by_field_name("operand") if values and values[0].type == "unary_expression" else None
        if target is not None:
            self._bind(file, target, flag, resolver)

    def _library_flags(self, file: GoFile, options: tree_sitter.Node, resolver: Resolver) -> None:
        """The flags a library binds to the fields of its options struct (Flux's `--watch-all-namespaces`,
        true unless given, for `WatchOptions.AllNamespaces`)."""
        owner = resolver.type_of(file, options)
        for field_name, name, default, is_bool in _LIBRARY_FLAG_SETS.get(owner.base, ()) if owner else ():
            flag = Flag(name, file, None, is_bool=is_bool, tag_default=default)
            self._name(flag)
            self.by_field.setdefault(field_name, []).append((owner.base if owner else None, flag))

    def _bind(self, file: GoFile, target: tree_sitter.Node, flag: Flag, resolver: Resolver) -> None:
        """The variable or field a flag fills (`&ns`, `&opts.Namespace`), or another package's variable
        (Reloader's `&options.ResourceSelectors`)."""
        imported = resolver.package_variable(file, target) if target.type == "selector_expression" else None
        if imported is not None:
            self.by_variable[imported] = flag
        elif target.type == "selector_expression":
            owner = resolver.type_of(file, target.child_by_field_name("operand"))
            self.by_field.setdefault(parser.text(target.child_by_field_name("field")), []).append((owner, flag))
        else:
            self.by_variable[variable_key(file, target, resolver)] = flag


def in_flag_function(node: tree_sitter.Node) -> bool:
    """Whether a node sits in the function a `flag.Func(name, usage, fn)` calls with the flag's value: it runs
    only where the flag is given, never in the default deployment."""
    literal = innermost_function(node)
    arguments = literal.parent if literal is not None and literal.type == "func_literal" else None
    call = arguments.parent if arguments is not None and arguments.type == "argument_list" else None
    function = call.child_by_field_name("function") if call is not None else None
    if function is None or function.type != "selector_expression":
        return False
    values = parser.named(arguments) if arguments is not None else []
    return parser.text(function.child_by_field_name("field")) == "Func" and len(values) == 3 and values[2] == literal


def _chain_requires(call: tree_sitter.Node) -> bool:
    """Whether a kingpin builder chain marks its flag `.Required()` (external-dns' `--source`): the program does
    not run without it."""
    node = call.child_by_field_name("function")
    for _ in range(8):
        operand = (
            node.child_by_field_name("operand") if node is not None and node.type == "selector_expression" else None
        )
        if operand is None or operand.type != "call_expression":
            return False
        node = operand.child_by_field_name("function")
        if (
            node is not None
            and node.type == "selector_expression"
            and parser.text(node.child_by_field_name("field")) == "Required"
        ):
            return True
    return False


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
            name = unquote(parser.text(first))
        node = function
    return (name, default) if name is not None else None


def _assignments_in(function: tree_sitter.Node) -> Iterator[tuple[tree_sitter.Node, tree_sitter.Node]]:
    """The left and right sides of the assignments (`=`, `+=`) in a function literal."""
    for statement in parser.captures("(assignment_statement) @a", function).get("a", []):
        left, right = statement.child_by_field_name("left"), statement.child_by_field_name("right")
        if left is not None and right is not None:
            yield left, right


def _constant_text(file: GoFile, node: tree_sitter.Node, resolver: Resolver) -> str | None:
    """A string literal, or a constant (or variable) of the module set to one: flag names are often constants
    (`fs.StringSlice(operator.NamespacesFlag, nil, …)`), or constants of a string type of the module
    (`flag.Bool(traceFlag.String(), false, …)`)."""
    return resolver.string_value(file, node)


def _one_name(file: GoFile, node: tree_sitter.Node, resolver: Resolver) -> str | None:
    """A flag's name where it is one: spelled (a literal, a constant) or the one a function of the module makes
    (`flag.String(prefixed("namespace"), "", …)` making "operator-namespace")."""
    spelled = _constant_text(file, node, resolver)
    if spelled is not None or node.type != "call_expression":
        return spelled
    made = made_names(file, node, resolver)
    return made[0] if len(made) == 1 else None


def _built_names(file: GoFile, node: tree_sitter.Node, resolver: Resolver) -> tuple[str, ...]:
    """The names a flag's name may be where the program builds it: what a function of the module makes of the
    one string it is given (`made_names`), or the strings a local (not a parameter) is set to before the
    definition (`flagName` set in an if/else to one of two names); () where they cannot all be told."""
    if node.type == "call_expression":
        return made_names(file, node, resolver)
    declaration = resolver.declaration(file, node) if node.type == "identifier" else None
    if declaration is None or declaration.parameter_index >= 0:
        return ()
    names = [resolver.string_value(file, value) for value, _ in resolver.assignments_before(file, node) or ()]
    return tuple(dict.fromkeys(name for name in names if name)) if names and all(names) else ()


def made_names(file: GoFile, call: tree_sitter.Node, resolver: Resolver) -> tuple[str, ...]:
    """The names a call of a function of the module given one string may return (`return "operator-" + name`;
    liqo's remotify returns "remote-" + name or name); () where one cannot be told. Read once per function and
    string."""
    function = call.child_by_field_name("function") if call.type == "call_expression" else None
    if function is None or (function.type == "identifier" and resolver.declaration(file, function) is not None):
        return ()  # a local function value shadowing the module's of that name
    arguments = parser.named(call.child_by_field_name("arguments") or call)
    given = resolver.string_value(file, arguments[0]) if len(arguments) == 1 else None
    info = resolver.callee(file, call) if given else None
    if given is None or info is None or len(info.parameters) != 1 or info.parameters[0].variadic:
        return ()
    key = (info.key, given)
    found = resolver.made_names.get(key)
    if found is None:
        returned = resolver.name_returns.get(info.key)
        if returned is None:
            returned = resolver.name_returns[info.key] = _returned_names(info)
        parameter = info.parameters[0].name
        names = [_joined(info.file, item, parameter, given, resolver) for item in returned]
        made = [name for name in names if name]
        found = resolver.made_names[key] = tuple(dict.fromkeys(made)) if made and len(made) == len(names) else ()
    return found


def _returned_names(info: FunctionInfo) -> tuple[tree_sitter.Node, ...]:
    """What each return of a one-parameter function gives, where it is a name function: its parameter read by
    its returns alone (not assigned, shadowed, switched on or tested, when the name returned may be another),
    no named result a deferred function may rewrite, one value per return; () otherwise."""
    parameter = info.parameters[0].name
    returns = return_statements(info.node)
    body, result = info.node.child_by_field_name("body"), info.node.child_by_field_name("result")
    if body is None or not returns or (result is not None and result.type == "parameter_list"):
        return ()
    if any(
        not any(item.start_byte <= use.start_byte < item.end_byte for item in returns)
        for use in _named(body, parameter)
    ):
        return ()
    items = [return_items(statement) for statement in returns]
    return tuple(found[0] for found in items) if all(len(found) == 1 for found in items) else ()


def _named(node: tree_sitter.Node, name: str) -> Iterator[tree_sitter.Node]:
    """The identifiers spelled `name` under a node."""
    for child in node.named_children:
        if child.type == "identifier" and parser.text(child) == name:
            yield child
        elif child.named_child_count:
            yield from _named(child, name)


def _joined(file: GoFile, node: tree_sitter.Node, parameter: str, given: str, resolver: Resolver) -> str | None:
    """A returned name: the parameter (given `given`), a string constant, or those joined by `+`."""
    if node.type == "identifier" and parser.text(node) == parameter:
        return given
    if node.type == "parenthesized_expression" and (inner := parser.first_named(node)) is not None:
        return _joined(file, inner, parameter, given, resolver)
    if node.type == "binary_expression" and parser.text(node.child_by_field_name("operator")) == "+":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        first = _joined(file, left, parameter, given, resolver) if left is not None else None
        second = _joined(file, right, parameter, given, resolver) if right is not None and first is not None else None
        return first + second if first is not None and second is not None else None
    return _constant(file, node, resolver)


def _constant(file: GoFile, node: tree_sitter.Node, resolver: Resolver) -> str | None:
    """A string literal, or a constant set to one: a variable may be set again (a prefix `init()` rewrites)."""
    if node.type in ("interpreted_string_literal", "raw_string_literal"):
        return unquote(parser.text(node))
    local = resolver.declaration(file, node) if node.type == "identifier" else None
    if local is not None:
        constant = local.node.parent is not None and local.node.parent.type == "const_spec"
        return resolver.string_value(file, node) if constant else None
    named = node.type in ("identifier", "selector_expression")
    key = resolver.module_variable(file, node) if named else None
    variable = resolver.declarations.variables.get(key) if key is not None else None
    return resolver.string_value(file, node) if variable is not None and variable.iota is not None else None


def variable_key(file: GoFile, target: tree_sitter.Node, resolver: Resolver) -> tuple[str, str]:
    """How `FlagRegistry.by_variable` names a variable: a local by its file and declaration, a package's by
    its package."""
    declaration = resolver.declaration(file, target)
    if declaration is not None:
        return (file.path, f"{declaration.name}@{declaration.node.start_byte}")
    return (file.package_path, parser.text(target))


def _kebab(name: str) -> str:
    """WatchCacheNamespaced -> watch-cache-namespaced, as kong names a field's flag (acronyms kept whole)."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "-", name).lower()


def _destination(value: tree_sitter.Node) -> tree_sitter.Node | None:
    """What a value flag fills: `v` of `&v`, or of a Value built around its address (kong-operator's
    `newValidatedValue(&cfg.WatchNamespaces, parse)`, `&listValue{&cfg.Namespaces}`)."""
    if parser.is_unary(value, "&"):
        inner = value.child_by_field_name("operand")
        if inner is None or inner.type != "composite_literal":
            return inner
        value = inner
    if value.type == "call_expression":
        first = parser.first_named(value.child_by_field_name("arguments"))
    elif value.type == "composite_literal":
        body = value.child_by_field_name("body")
        element = parser.first_named(body) if body is not None else None
        first = parser.first_named(element) if element is not None and element.type == "literal_element" else element
        if element is not None and element.type == "keyed_element":
            first = parser.named(element)[-1]
            first = parser.first_named(first) if first.type == "literal_element" else first
    else:
        return None
    if first is not None and first.type == "type_conversion_expression":  # `(*map[string]bool)(&c.FeatureGates)`
        first = first.child_by_field_name("operand")
    return first.child_by_field_name("operand") if first is not None and parser.is_unary(first, "&") else None


def _literal_field(file: GoFile, node: tree_sitter.Node, resolver: Resolver) -> tree_sitter.Node | None:
    """What a default read from a package variable's literal is (`defaultConfig.Namespace` of `var defaultConfig
    = &Config{Namespace: ""}`): the literal's field, None where it leaves the field out (its zero value), `node`
    itself for any other default. Read as written: evaluating the field would come back to this flag."""
    operand = node.child_by_field_name("operand") if node.type == "selector_expression" else None
    held = resolver.held_value(file, operand) if operand is not None and operand.type == "identifier" else None
    literal = held[1] if held is not None and held[0] is file else None
    if literal is not None and literal.type == "unary_expression":
        literal = literal.child_by_field_name("operand")
    if literal is None or literal.type != "composite_literal":
        return node
    return dict(keyed_elements(literal)).get(parser.text(node.child_by_field_name("field")))
