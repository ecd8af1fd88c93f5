"""How the default deployment configures a Go program (SPEC §1): flag defaults and required flags, the
environment, viper's keys and feature gates, as the code shows them."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import repeat
from typing import TYPE_CHECKING

import tree_sitter

from watchlint.go import parser
from watchlint.go.configfiles import FROM_FILE
from watchlint.go.declarations import FunctionKey
from watchlint.go.flags import FLAG_VALUE, Flag, kingpin_chain, made_names
from watchlint.go.guards import (
    block_fails,
    conjuncts,
    disjuncts,
    ends_in_an_exit,
    exits,
    holds_when_empty,
    tested_given,
)
from watchlint.go.known import AN_ERROR, UNKNOWN, CallBindings, Val, Value, either_origin, tag_value
from watchlint.go.model import Call, GoFile, call_parts
from watchlint.go.pending import method_name
from watchlint.go.requiredfields import required_by_a_constructor
from watchlint.go.resolve import keyed_elements, keyed_entries
from watchlint.go.scope import last_statement

if TYPE_CHECKING:
    from watchlint.go.deployment import Evaluator

_FUNCTIONS = frozenset({"function_declaration", "method_declaration", "func_literal"})
_MARK_REQUIRED = frozenset({"MarkFlagRequired", "MarkPersistentFlagRequired"})
_GATE_SPECS = ("featuregate.FeatureSpec", "featuregate.VersionedSpecs")  # map value types declaring gates
_VIPER = "github.com/spf13/viper"
# libraries' readers of the watched namespaces, by the end of their package's path and their name: each looks the
# variable up and fails where it is unset (operator-sdk's k8sutil, `github.com/operator-framework/operator-sdk/
# pkg/k8sutil`, and forks of it; disaster37's operator-sdk-extra helper)
_WATCH_NAMESPACE_READERS = {
    ("/pkg/k8sutil", "GetWatchNamespace"): "WATCH_NAMESPACE",
    ("/operator-sdk-extra/pkg/helper", "GetWatchNamespaceFromEnv"): "WATCH_NAMESPACES",
    ("/operator-sdk-extra/v2/pkg/helper", "GetWatchNamespaceFromEnv"): "WATCH_NAMESPACES",
}
# the variables the kubelet sets in every container (the API server's service): a program reading them runs the
# same in any deployment, whatever its settings
KUBELET_VARIABLES = frozenset(
    {"KUBERNETES_SERVICE_HOST", "KUBERNETES_SERVICE_PORT", "KUBERNETES_SERVICE_PORT_HTTPS", "KUBERNETES_PORT"}
)
_FLAG_GETTER = re.compile(r"^Get(String|Bool|Int|Int32|Int64|Duration|StringSlice|StringArray)$")
_VIPER_READERS = frozenset({"ReadConfig", "MergeConfig", "MergeConfigMap"})  # configuration the code hands viper
_VIPER_WRITES = frozenset({"Set", "SetDefault", "BindPFlag", *_VIPER_READERS})


@dataclass
class _ViperKeys:
    """What the module tells viper, by key in lower case."""

    keys: dict[str, dict[str, list[tuple[GoFile, tree_sitter.Node]]]] = field(default_factory=dict)
    # key -> the name of the flag bound to it, and the file binding it (where the flag's command is)
    bound: dict[str, tuple[str, GoFile]] = field(default_factory=dict)
    opaque: bool = False  # keys set that the module does not name, or configuration read from code
    read: set[str] = field(default_factory=set)  # the keys the module reads


def _looked_up_by(value: tree_sitter.Node) -> tree_sitter.Node | None:
    """`name` of `fs.Lookup(name)` (a pflag FlagSet's, `cmd.Flags()`'s): what it looks a flag up by."""
    if method_name(value) != "Lookup":
        return None
    arguments = parser.named(value.child_by_field_name("arguments") or value)
    return arguments[0] if len(arguments) == 1 else None


def _looked_up_flag(evaluator: Evaluator, file: GoFile, value: tree_sitter.Node) -> str | None:
    """`name` of `flags.Lookup("name")`, as a string."""
    looked_up = _looked_up_by(value)
    name = evaluator.value(file, looked_up, {}, 0) if looked_up is not None else UNKNOWN
    return name.value if isinstance(name, Val) and isinstance(name.value, str) else None


class Settings:
    """Reads the configuration a program runs with by default, with the evaluator's values and memory."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator
        self.resolver = evaluator.resolver
        self._required_flags: dict[str, set[str]] | None = None
        self._exits_by_file: dict[str, frozenset[str]] = {}
        self._viper: _ViperKeys | None = None
        self._gates: dict[str, bool] | None = None
        self._gate_origins: dict[str, str] | None = None  # each gate by the origin `gate_setting` names it with
        self._gates_sources: tuple[str, ...] | None = None

    def flag_value(self, flag: Flag, depth: int) -> Value:
        if self.evaluator.once(("required", id(flag)), lambda: self._is_required(flag), False):
            return UNKNOWN  # set in any deployment that runs, to a value the code does not show
        return self._default_value(flag, depth)

    def fails_without(self, flag: Flag) -> bool:
        """Whether the program fails in the package declaring the flag unless it is given (`if len(o.Namespace)
        == 0 { return fmt.Errorf(…) }` in its options' Validate, osm's `validateCLIParams` in a file of its own),
        not told by name from other packages, whose commands' flags of that name may be other flags; or where a
        constructor of another package it is handed in a struct literal fails without it."""
        if flag.required:
            return True
        names = self._names_bound_to(flag)
        package = flag.file.package_path
        files = [file for file in self.evaluator.files if file.package_path == package and not file.is_test]
        if any(not names.isdisjoint(self._exit_unless_set(file)) for file in files or [flag.file]):
            return True
        # handed to a constructor of another package that fails without it, on whose error the program stops
        # (metal-stack's `config.New(&config.NewControllerConfig{SeedNamespace: namespace})`)
        return required_by_a_constructor(self.resolver, files or [flag.file], names, exits)

    def _is_required(self, flag: Flag) -> bool:
        """A flag the program does not run without: `if namespace == "" { os.Exit(1) }` (or log.Fatal, panic)
        where the flag is declared, cobra's MarkFlagRequired("namespace"), or one its definition requires."""
        package = flag.file.package_path
        marked = self._marked_required().get(flag.name, ()) if not flag.names else self._marked_as(flag)
        return self.fails_without(flag) or any(self.evaluator.share_a_binary(package, other) for other in marked)

    def _marked_as(self, flag: Flag) -> set[str]:
        """The packages marking required one of the names a flag the program names may have (liqo's
        "namespace" or "remote-namespace"), where no other definition of a binary of the package spells it."""
        found: set[str] = set()
        for name in flag.names:
            packages = self._marked_required().get(name, ())
            found.update(package for package in packages if not self._spelled(name, package))
        return found

    def _spelled(self, name: str, package: str) -> bool:
        """Whether a definition in a binary with `package` spells a flag's name."""
        flags = self.evaluator.flags.by_name.get(name, ())
        return any(self.evaluator.share_a_binary(package, defined.file.package_path) for defined in flags)

    def _names_bound_to(self, flag: Flag) -> set[str]:
        """The variables and fields a flag fills."""
        flags = self.evaluator.flags
        names = {name.split("@")[0] for (_, name), bound in flags.by_variable.items() if bound is flag}
        names.update(flags.pointers.get(id(flag), ()))  # `driverType := flag.String(…)`, read as `*driverType`
        names.update(field for field, bound in flags.by_field.items() if any(f is flag for _, f in bound))
        return names

    def _exit_unless_set(self, file: GoFile) -> frozenset[str]:
        """The names a file exits without: `x` of `if x == "" { log.Fatal(…) }`, found once per file."""
        found = self._exits_by_file.get(file.path)
        if found is None:
            names = set()
            for call in file.calls():
                statement = call.node.parent
                if statement is not None and _fails_validation(file, call.node):
                    statement = statement.parent  # the return statement of `return fmt.Errorf(…)`
                elif not exits(call.node) and not self._exiting_helper(file, call.node):
                    continue
                block = statement.parent.parent if statement is not None and statement.parent is not None else None
                guard = block.parent if block is not None and block.type == "block" else None
                condition = guard.child_by_field_name("condition") if guard is not None else None
                tested = holds_when_empty(condition) if guard is not None and guard.type == "if_statement" else None
                if tested is not None:
                    names.add(tested.rsplit(".", 1)[-1].lstrip("*"))  # `x.Name == ""` tests the field Name
            found = self._exits_by_file[file.path] = frozenset(names)
        return found

    def _exiting_helper(self, file: GoFile, call: tree_sitter.Node) -> bool:
        """Whether a call runs a module function that ends the program (ceph-csi's `logAndExit(msg)` logging,
        then calling os.Exit(1))."""
        info = self.evaluator.resolver.callee(file, call)
        return ends_in_an_exit(last_statement(info.node.child_by_field_name("body")) if info is not None else None)

    def stops_on_error(self, declared: tree_sitter.Node) -> bool:
        """Whether the statements after the one declaring `declared` with a call's error (`ns, err :=
        getWatchNamespace()`) stop the function or the program on that error: `if err != nil { os.Exit(1) }`."""
        statement = declared.parent
        while statement is not None and statement.type == "expression_list":
            statement = statement.parent
        left = statement.child_by_field_name("left") if statement is not None else None
        names = parser.named(left) if left is not None else []
        if statement is None or len(names) < 2 or names[-1].type != "identifier" or names[-1] == declared:
            return False
        error = parser.text(names[-1])
        following = statement.next_named_sibling
        while following is not None:  # the first test of the error decides, before it is written again
            if following.type == "if_statement" and _tests_error(following, error):
                return _fails_on_error(following)
            if following.type in ("short_var_declaration", "assignment_statement") and _writes(following, error):
                return False
            following = following.next_named_sibling
        return False

    def required_before(self, file: GoFile, node: tree_sitter.Node) -> bool:
        """Whether the code around a read of a variable fails before it when the variable is empty: `if ns
        == "" { return errors.New(…) }` (or os.Exit, log.Fatal, panic) in a block holding the read. A
        deployment that runs has set it, to a value the code does not show."""
        name = parser.text(node)
        scope = self.resolver.scope(file, node)
        # `ns = *cacheNamespace` between the test and the read: the read sees that value, not the one tested
        writes = [value.start_byte for value in scope.assignments.get(name, [])] if scope is not None else []
        writes += [call.start_byte for call, _ in scope.results.get(name, [])] if scope is not None else []

        stops = self._stops(file)

        def tested(part: tree_sitter.Node, names: str | None) -> bool:
            if (names or "").lstrip("*") != name:
                return False
            # a write in a branch that fails leaves nothing behind; one in another branch (`else if ns == "all" {
            # ns = "" }`) may
            failing = _failing_spans(part, stops)
            return not any(
                part.end_byte <= at < node.start_byte and not any(start <= at < end for start, end in failing)
                for at in writes
            )

        return any(
            tested(part, holds_when_empty(part))
            for parts in _failing_tests_before(node, stops)
            for part in parts
            if "." not in parser.text(part)
        ) or any(
            tested(part, tested_given(part))
            for parts in _held_tests_around(node, stops)
            for part in parts
            if "." not in parser.text(part)
        )

    def demanded_before(self, file: GoFile, node: tree_sitter.Node, origin: str) -> bool:
        """Whether the code around a node fails before it where the setting `origin` is empty, as
        `required_before` tells for a variable, whatever expression holds the setting and with other tests
        holding by default beside it (k8s-lookout's `if scope.Namespace == "" && !scope.AllNamespaces { return
        UsageErrorf(…) }`, -A off by default): wherever the node runs, the setting is given."""
        evaluator = self.evaluator
        env = evaluator.parameters(file, node)
        for parts in _failing_tests_before(node, self._stops(file)):
            for items in map(conjuncts, parts):
                for item in items:
                    if holds_when_empty(item) is None or evaluator.truth(file, item, env) != (True, origin):
                        continue
                    if all(evaluator.truth(file, other, env)[0] is True for other in items if other is not item):
                        return True
        return any(
            tested_given(part) is not None and evaluator.truth(file, part, env) == (False, origin)
            for parts in _held_tests_around(node, self._stops(file))
            for part in parts
        )

    def _stops(self, file: GoFile) -> Callable[[tree_sitter.Node | None], bool]:
        """Whether a block of the file ends the program (Guards.surely_fails)."""
        return lambda block: self.evaluator.guarding.surely_fails(file, block)

    def _marked_required(self) -> dict[str, set[str]]:
        """The flags cobra is told are required (`MarkFlagRequired("namespace")`), and those the program sets
        itself (`cmd.Flags().Set("namespace", current)` in a PersistentPreRunE, `cmd.Flag("namespace").Value.
        Set(…)`): either way a value the code does not show. By name, with the packages that say so (another
        binary's `--namespace` is another flag); a name a function of the module makes, by each it may be.
        Found once per module."""
        if self._required_flags is None:
            self._required_flags = {}
            for file in self.evaluator.files:
                for call in file.calls():
                    named = _flag_named(call) if call.name == "Set" else None
                    if call.name not in _MARK_REQUIRED and named is None:
                        continue
                    first = named if named is not None else parser.first_named(call.arguments)
                    name = self.resolver.string_value(file, first) if first is not None else None
                    # a name the program makes as it makes the flag's: `MarkFlagRequired(prefixed("namespace"))`
                    made = made_names(file, first, self.resolver) if first is not None and name is None else ()
                    for marked in (name,) if name is not None else made:
                        self._required_flags.setdefault(marked, set()).add(file.package_path)
        return self._required_flags

    def _default_value(self, flag: Flag, depth: int) -> Value:
        if flag.default is None and flag.tag_default is not None:
            return Val(tag_value(flag.tag_default, flag.is_bool), flag.shown)
        default = flag.default if not flag.defaults_to_destination else self._held_before(flag)
        if default is None:
            return Val(False if flag.is_bool else "", flag.shown)
        # evaluated once, from the top: a flag read deep in the code has its default all the same
        unknown: Value = UNKNOWN
        value = self.evaluator.once(("default", id(flag)), lambda: self._evaluated_default(flag, default), unknown)
        if not isinstance(value, Val):
            return UNKNOWN  # a default the code computes in a way not followed: cannot be told (SPEC §1)
        if flag.is_bool and isinstance(value.value, str):
            return Val(value.value == "true", flag.shown)
        if value.unseen:
            # `flag.StringVar(&ns, "watch-namespace", os.Getenv("WATCH_NAMESPACE"), …)`: a value the code does
            # not show, from the variable unless the flag is given
            return Val(value.value, either_origin(flag.shown, value.origin), unseen=True)
        return Val(value.value, flag.shown)

    def _evaluated_default(self, flag: Flag, default: tree_sitter.Node) -> Value:
        through = flag.through
        if through is None:
            return self.evaluator.value(flag.file, default, {}, 0)
        # a helper's definition: its parameters are what this call passes (`stringFromEnv(env, def)`)
        helper, call = through.helper, through.call
        values = parser.named(call.child_by_field_name("arguments") or call)
        env = self.evaluator.parameters(through.file, call)
        bound = self.evaluator.arguments_bound(through.file, helper.info, values, env, 1)
        return self.evaluator.value(helper.info.file, default, CallBindings(helper.info.node, bound), 0)

    def _held_before(self, flag: Flag) -> tree_sitter.Node | None:
        """What the variable a flag fills and defaults to (`flag.StringVar(&ns, "namespace", ns, …)`) is
        declared with; None for its zero value. A field's earlier writes are read where the field is
        (FieldValues)."""
        default = flag.default
        if default is not None and default.type == "selector_expression":
            # another package's variable (Reloader's `&options.ResourceSelectors, …, options.ResourceSelectors`)
            held = self.resolver.held_value(flag.file, default)
            return held[1] if held is not None else None
        if default is None or default.type != "identifier":
            return None
        declaration = self.resolver.declaration(flag.file, default)
        if declaration is None:
            variable = self.resolver.declarations.variables.get((flag.file.package_path, parser.text(default)))
            return variable.value_node if variable is not None else None
        return declaration.value_node if declaration.value_index == 0 else None

    def configuration_read(self, package: str, name: str, first: Value, count: int) -> Value | None:
        """The environment, viper's IsSet, pflag's Changed and feature gates, for the default deployment."""
        named = first.value if isinstance(first, Val) and isinstance(first.value, str) else None
        if package == "os" and name in ("Getenv", "LookupEnv"):
            if named in KUBELET_VARIABLES:
                return UNKNOWN  # set in every pod, to what the cluster says: no setting of the deployment
            origin = named if named is not None else "an environment variable"
            return Val(("", False) if name == "LookupEnv" else "", origin, unseen=True)
        if (variable := self._watch_namespace_read(package, name, count)) is not None:
            return Val(("", AN_ERROR), variable, unseen=True)
        if name in ("IsSet", "Changed") and named is not None:
            return Val(False, f"--{named}")  # nothing is set in the default deployment
        if name != "Enabled" or count != 1 or named is None:
            return None
        gate = self.feature_gates().get(named)  # `DefaultFeatureGate.Enabled(features.X)`
        return Val(gate, self.gate_setting(named)) if gate is not None else None

    def _watch_namespace_read(self, package: str, name: str, count: int) -> str | None:
        """The variable a library's reader of the watched namespaces looks up, failing where it is unset
        (operator-sdk's `k8sutil.GetWatchNamespace()`: os.LookupEnv("WATCH_NAMESPACE")); None for any other call,
        and for a module's own function of that name, read as any other."""
        if count or FunctionKey(package, "", name) in self.resolver.declarations.functions:
            return None
        return next(
            (
                variable
                for (end, reader), variable in _WATCH_NAMESPACE_READERS.items()
                if reader == name and package.endswith(end)
            ),
            None,
        )

    def viper_read(
        self, file: GoFile, function: tree_sitter.Node | None, package: str, name: str, first: Value, depth: int
    ) -> Value | None:
        """`viper.GetString(key)` in the default deployment, as viper looks a key up (its case ignored): what
        `viper.Set` stores under the key, else its `viper.SetDefault` (named by the key, which its environment
        variable or a bound flag given overrides), else the default of the flag bound to the key (`BindPFlag(key,
        flags.Lookup(name))`, or the flag of that name: None, left to the flag), else the getter's zero value;
        viper reads other sources (files, the environment) only where deployed. Unknown where the module sets
        keys it does not name, fills viper from a reader, or sets a map holding a dotted key."""
        getter = _FLAG_GETTER.match(name)
        written_key = first.value if isinstance(first, Val) and isinstance(first.value, str) else None
        if getter is None or written_key is None or function is None or not self._is_viper(file, function, package):
            return None
        key = written_key.lower()
        keys = self._viper_keys()
        stored = keys.keys.get(key, {})
        for method in ("Set", "SetDefault"):
            written = [
                self.evaluator.value(at, value, self.evaluator.parameters(at, value, depth + 1), depth + 1)
                for at, value in stored.get(method, [])
            ]
            if written:
                distinct = {repr(value): value for value in written}
                (only,) = distinct.values() if len(distinct) == 1 else (UNKNOWN,)
                if method == "SetDefault" and isinstance(only, Val) and not only.origin:
                    # a default the key's other sources (its environment variable, a bound flag) override: the
                    # key names it
                    return Val(only.value, written_key, only.unseen)
                return only
        bound = keys.bound.get(key)
        if bound is not None:
            name_of_flag, bound_in = bound
            flag = self.evaluator.flags.named(name_of_flag, bound_in)
            return self.flag_value(flag, depth) if flag is not None else UNKNOWN
        if any(flag_name.lower() == key for flag_name in self.evaluator.flags.by_name):
            return None  # `BindPFlags(cmd.Flags())` binds each flag by its name, as viper lower-cases it
        if keys.opaque or any(key.startswith(f"{prefix}.") for prefix in keys.keys):
            return UNKNOWN
        kind = getter.group(1)
        zero: object = False if kind == "Bool" else 0 if kind.startswith(("Int", "Duration")) else ""
        return Val([] if kind.endswith(("Slice", "Array")) else zero, written_key)

    def names_a_viper_key(self, origin: str) -> bool:
        """Whether a value's origin is a key the module sets, defaults or binds in viper."""
        keys = self._viper_keys()
        return any(origin.lower() in known for known in (keys.keys, keys.bound, keys.read))

    def _note_viper_call(self, found: _ViperKeys, file: GoFile, call: Call) -> None:
        """Keep what one call that may tell viper something tells it."""
        function = call.node.child_by_field_name("function")
        package = file.imports.get(parser.text(call.operand), "") if call.operand is not None else ""
        if function is None or call.arguments is None or not self._is_viper(file, function, package):
            return
        if call.name in _VIPER_READERS:
            # `v.ReadConfig(strings.NewReader(defaults))`, `MergeConfigMap(defaults)`: any key, from code; a file
            # opened and read is the deployment's configuration, which the code does not show
            source = parser.first_named(call.arguments)
            held = call.name == "MergeConfigMap" or (source is not None and self._holds_text(file, source))
            found.opaque = found.opaque or held
            return
        values = parser.named(call.arguments)
        if call.name not in _VIPER_WRITES:  # a getter: the key read is a setting, whatever else sets it
            read = self.evaluator.value(file, values[0], {}, 0) if len(values) == 1 else UNKNOWN
            if isinstance(read, Val) and isinstance(read.value, str):
                found.read.add(read.value.lower())
            return
        key = self.evaluator.value(file, values[0], {}, 0) if len(values) == 2 else UNKNOWN
        if not isinstance(key, Val) or not isinstance(key.value, str):
            # `for k, v := range defaults { v.SetDefault(k, v) }`: any key; a loop binding flags under their own
            # names (`BindPFlag(name, fs.Lookup(name))`) binds each by its name, as BindPFlags does
            looked_up = _looked_up_by(values[1]) if call.name == "BindPFlag" else None
            by_name = looked_up is not None and parser.text(looked_up) == parser.text(values[0])
            found.opaque = found.opaque or (len(values) == 2 and not by_name)
        elif call.name == "BindPFlag":
            flag = _looked_up_flag(self.evaluator, file, values[1])
            if flag is not None:
                found.bound.setdefault(key.value.lower(), (flag, file))
        else:
            found.keys.setdefault(key.value.lower(), {}).setdefault(call.name, []).append((file, values[1]))

    def _holds_text(self, file: GoFile, source: tree_sitter.Node, hops: int = 2) -> bool:
        """Whether what viper reads is text the code holds (`strings.NewReader(defaults)`, `bytes.NewReader(
        embedded)`, a local holding one), not a file the program opens (directly, through a helper or a
        variable assigned later), which is the deployment's configuration."""
        if source.type == "identifier" and hops > 0:
            declaration = self.resolver.declaration(file, source)
            value = declaration.value_node if declaration is not None else None
            return value is not None and self._holds_text(file, value, hops - 1)
        return re.match(r"(strings|bytes)\.New(Reader|Buffer|BufferString)\(", parser.text(source)) is not None

    def _is_viper(self, file: GoFile, function: tree_sitter.Node, package: str) -> bool:
        """A call of the viper package or of a `*viper.Viper`."""
        if package == _VIPER:
            return True
        operand = function.child_by_field_name("operand") if function.type == "selector_expression" else None
        owner = self.resolver.type_of(file, operand) if operand is not None else None
        return owner is not None and owner.is_(_VIPER, "Viper")

    def _viper_keys(self) -> _ViperKeys:
        """Every `Set(key, value)`, `SetDefault(key, value)` and `BindPFlag(key, flags.Lookup(name))` of viper in
        the module (not tests), by key in lower case, and the keys its getters read."""
        if self._viper is None:
            found = _ViperKeys()
            for file in self.evaluator.files:
                if file.path.endswith("_test.go"):
                    continue
                for call in file.calls():
                    if (call.name in _VIPER_WRITES or _FLAG_GETTER.match(call.name)) and call.arguments is not None:
                        self._note_viper_call(found, file, call)
            self._viper = found
        return self._viper

    def feature_gates(self) -> dict[str, bool]:
        """The default of each feature gate the module declares: the `Default:` of its FeatureSpec, or of the
        last of its VersionedSpecs (the newest version), read once."""
        if self._gates is None:
            gates: dict[str, bool] = {}
            for file in self.evaluator.files:
                if file.path.endswith("_test.go"):
                    continue  # tests switch gates on and off for themselves
                for literal in file.nodes("composite_literal"):
                    kind = literal.child_by_field_name("type")
                    if kind is None or kind.type != "map_type" or not parser.text(kind).endswith(_GATE_SPECS):
                        continue
                    for gate, spec in keyed_entries(literal):
                        name = self.evaluator.value(file, gate, {}, 0)
                        default = _gate_default(spec)
                        if isinstance(name, Val) and isinstance(name.value, str) and default is not None:
                            gates[name.value] = default
            self._gates = gates
        return self._gates

    def gate_setting(self, gate: str, value: bool | None = None) -> str:
        """A gate named with what sets the feature gates: the environment variable they are `Set` from
        (`PGO_FEATURE_GATES Snapshots`), the configuration file's field they are set from (`FeatureGates
        InPlaceRestart (configuration file)`), else the `--feature-gates` flag of Kubernetes components; given
        a value, the gate set to it, as the feature gates are written (`--feature-gates ScaleBuffers=true`)."""
        if self._gates_sources is None:
            # every setting the gates are set from, in the order the files show them (kubeflow trainer's
            # configuration file, then its --feature-gates flag, which overrides it)
            found = (
                source
                for file in self.evaluator.files
                if not file.path.endswith("_test.go")
                for source in map(self._gates_set_from, repeat(file), file.calls())
                if source
            )
            self._gates_sources = tuple(dict.fromkeys(found))
        if value is not None:
            gate = f"{gate}={str(value).lower()}"
        return " or ".join(_gate_phrase(source, gate) for source in self._gates_sources or ("--feature-gates",))

    def gate_named(self, origin: str) -> str | None:
        """The feature gate an origin of `gate_setting` names; None for any other setting."""
        if self._gate_origins is None:  # asked of every setting a message phrases
            self._gate_origins = {self.gate_setting(gate): gate for gate in self.feature_gates()}
        return self._gate_origins.get(origin)

    def _gates_set_from(self, file: GoFile, call: Call) -> str:
        """The setting a call sets feature gates from, if it does: `gates.Set(os.Getenv("X"))`,
        `gates.SetFromMap(cfg.FeatureGates)`."""
        values = parser.named(call.arguments) if call.arguments is not None else []
        if call.name not in ("Set", "SetFromMap") or call.operand is None or len(values) != 1:
            return ""
        if not self._is_gate(file, call.operand):
            return ""
        read = self.evaluator.value(file, values[0], {}, 0)
        setting = isinstance(read, Val) and (read.unseen or read.origin.endswith(FROM_FILE) or _a_flag(read.origin))
        return read.origin if isinstance(read, Val) and setting else ""

    def _is_gate(self, file: GoFile, value: tree_sitter.Node) -> bool:
        """A feature gate, by its type (`featuregate.MutableFeatureGate`, a module's `MutableGate`) or else
        its name (`features`, `gates`)."""
        declared = self.resolver.type_of(file, value)
        if declared is not None:
            return declared.name.endswith("Gate")
        return any(word in parser.text(value).lower() for word in ("gate", "feature"))

    def flag_read(
        self, file: GoFile, node: tree_sitter.Node, name: str, first: Value, values: list[tree_sitter.Node]
    ) -> Flag | None:
        """The flag a call reads: `fs.GetString("ns")`, `flag.String("ns", …)`, `kingpin.Flag("ns").String()`;
        of several of one name, the one defined nearest the read."""
        named = first.value if isinstance(first, Val) and isinstance(first.value, str) else None
        if (_FLAG_GETTER.match(name) or FLAG_VALUE.match(name)) and named is not None:
            return self.evaluator.flags.named(named, file)
        if FLAG_VALUE.match(name) and not values:
            chain = kingpin_chain(node)
            return self.evaluator.flags.named(chain[0], file) if chain is not None else None
        return None


def _flag_named(call: Call) -> tree_sitter.Node | None:
    """The name argument of a call giving a flag its value: `fs.Set(name, value)` on a flag set (`cmd.Flags()`,
    `flag.CommandLine`) or `flag.Set`, and `fs.Flag(name).Value.Set(value)` (or `Lookup(name)`)."""
    values = parser.named(call.arguments) if call.arguments is not None else []
    operand = call.operand
    if len(values) == 2 and operand is not None:
        shown = parser.text(operand)
        if shown in ("flag", "pflag") or shown.endswith(("Flags()", "CommandLine")):
            return values[0]
    if len(values) != 1 or operand is None or operand.type != "selector_expression":
        return None
    if parser.text(operand.child_by_field_name("field")) != "Value":
        return None
    lookup = operand.child_by_field_name("operand")
    looked_up = call_parts(lookup) if lookup is not None and lookup.type == "call_expression" else None
    if looked_up is None or looked_up.name not in ("Flag", "Lookup") or looked_up.arguments is None:
        return None
    return parser.first_named(looked_up.arguments)


def _failing_tests_before(
    node: tree_sitter.Node, stops: Callable[[tree_sitter.Node | None], bool]
) -> Iterator[list[tree_sitter.Node]]:
    """The parts of `a || b` of each `if` before a node, in a block holding it within its function, or holding it
    in its else, whose block fails (`return fmt.Errorf(…)`, os.Exit, panic or a Fatal log call): where the node
    runs, each part is false."""
    child, current = node, node.parent
    while current is not None and current.type not in _FUNCTIONS:
        if current.type == "statement_list":
            for statement in current.named_children:
                if statement.start_byte >= child.start_byte:
                    break
                if statement.type == "if_statement" and block_fails(statement.child_by_field_name("consequence")):
                    condition = statement.child_by_field_name("condition")
                    yield disjuncts(condition) if condition is not None else []
                elif statement.type == "expression_switch_statement":
                    yield from _failing_cases(statement, stops)
        elif current.type == "if_statement" and child == current.child_by_field_name("alternative"):
            condition = current.child_by_field_name("condition")
            if condition is not None and stops(current.child_by_field_name("consequence")):
                yield disjuncts(condition)  # `if ns == "" { return errors.New(…) } else {…node…}`
        child, current = current, current.parent


def _failing_spans(part: tree_sitter.Node, stops: Callable[[tree_sitter.Node | None], bool]) -> list[tuple[int, int]]:
    """The byte ranges of the branches of the `if` or `switch` testing a condition that end failing."""
    current: tree_sitter.Node | None = part
    while current is not None and current.type not in ("if_statement", "expression_switch_statement"):
        current = current.parent
    if current is None:
        return []
    if current.type == "if_statement":
        branches = [current.child_by_field_name("consequence"), current.child_by_field_name("alternative")]
        failing = [b for b in branches if b is not None and b.type == "block" and (block_fails(b) or stops(b))]
    else:
        failing = [case for case in current.named_children if case.type in ("expression_case", "default_case")]
        failing = [case for case in failing if stops(case)]
    return [(branch.start_byte, branch.end_byte) for branch in failing]


def _failing_cases(
    switch: tree_sitter.Node, stops: Callable[[tree_sitter.Node | None], bool]
) -> Iterator[list[tree_sitter.Node]]:
    """The tests of the leading cases of a tagless switch that end the program (`switch { case ns == "":
    log.Fatal(…) }`): past the switch, each is false."""
    if not _tagless(switch):
        return
    for case in switch.named_children:
        if case.type != "expression_case" or not stops(case):
            return  # a case taken before a later one may let the program on with that one's test true
        values = parser.named(case.child_by_field_name("value") or case)
        yield [part for value in values for part in disjuncts(value)]


def _tagless(switch: tree_sitter.Node) -> bool:
    """Whether a switch tests a condition in each case (`switch { case ns == "": … }`), with no initializer."""
    return switch.child_by_field_name("value") is None and switch.child_by_field_name("initializer") is None


def _held_tests_around(
    node: tree_sitter.Node, stops: Callable[[tree_sitter.Node | None], bool]
) -> Iterator[list[tree_sitter.Node]]:
    """The parts of `a && b` of each `if` whose else fails (`if ns != "" {…} else { return errors.New(…) }`), or
    of the one case of a tagless switch whose others and default fail, holding a node in that branch or standing
    before it in a block holding it, within its function: where the node runs, each part holds."""
    child, current = node, node.parent
    while current is not None and current.type not in _FUNCTIONS:
        if current.type == "if_statement" and child == current.child_by_field_name("consequence"):
            yield from _held_tests(current, stops)
        elif current.type == "expression_case" and child.type == "statement_list" and current.parent is not None:
            yield from _held_case(current.parent, stops, current)  # in the case's statements, not its test
        elif current.type == "statement_list":
            for statement in current.named_children:
                if statement.start_byte >= child.start_byte:
                    break
                if statement.type == "if_statement":
                    yield from _held_tests(statement, stops)
                elif statement.type == "expression_switch_statement":
                    yield from _held_case(statement, stops)
        child, current = current, current.parent


def _held_case(
    switch: tree_sitter.Node, stops: Callable[[tree_sitter.Node | None], bool], taken: tree_sitter.Node | None = None
) -> Iterator[list[tree_sitter.Node]]:
    """The parts of the one test of the case of `switch { case ns != "": …; default: os.Exit(2) }` that does not
    fail (`taken`, where given), its others and its default failing."""
    if not _tagless(switch):
        return
    cases = [case for case in switch.named_children if case.type in ("expression_case", "default_case")]
    running = [case for case in cases if not stops(case)]
    if len(running) != 1 or running[0].type != "expression_case" or taken not in (None, running[0]):
        return
    if not any(case.type == "default_case" for case in cases):
        return
    values = parser.named(running[0].child_by_field_name("value") or running[0])
    if len(values) == 1:
        yield conjuncts(values[0])


def _held_tests(
    statement: tree_sitter.Node, stops: Callable[[tree_sitter.Node | None], bool]
) -> Iterator[list[tree_sitter.Node]]:
    other = statement.child_by_field_name("alternative")
    condition = statement.child_by_field_name("condition")
    # `if ns := os.Getenv(…); ns != ""` tests a name of its own, which may hide the one read
    declares = statement.child_by_field_name("initializer") is not None
    if other is not None and other.type == "block" and condition is not None and not declares and stops(other):
        yield conjuncts(condition)


def _tests_error(statement: tree_sitter.Node, error: str) -> bool:
    condition = statement.child_by_field_name("condition")
    return condition is not None and " ".join(parser.text(condition).split()) == f"{error} != nil"


def _writes(statement: tree_sitter.Node, name: str) -> bool:
    left = statement.child_by_field_name("left")
    return left is not None and any(parser.text(target) == name for target in parser.named(left))


def _fails_on_error(statement: tree_sitter.Node) -> bool:
    """Whether an `if err != nil` (`_tests_error`) stops there: no else, its block ending in a return (or os.Exit,
    panic, a Fatal log call)."""
    if statement.child_by_field_name("alternative") is not None:
        return False
    last = last_statement(statement.child_by_field_name("consequence"))
    return last is not None and (last.type == "return_statement" or ends_in_an_exit(last))


def _fails_validation(file: GoFile, call: tree_sitter.Node) -> bool:
    """`return fmt.Errorf(…)` (or errors.New) saying a setting is required, or in an options struct's
    `Validate` or `Complete` method, which a command runs before anything else and fails with (hypershift's
    `if len(o.Namespace) == 0 { return fmt.Errorf("the namespace … is required") }`)."""
    function = call.child_by_field_name("function")
    if parser.text(function) not in ("fmt.Errorf", "errors.New") or call.parent is None:
        return False
    if call.parent.type != "expression_list" or call.parent.parent is None:
        return False
    if call.parent.parent.type != "return_statement":
        return False
    if "required" in parser.text(call):  # `errors.New("--platform-type is required")`
        return True
    declared = file.enclosing_function(call)
    name = declared.child_by_field_name("name") if declared is not None else None
    return name is not None and parser.text(name).lower().startswith(("validate", "complete"))


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


def _gate_phrase(source: str, gate: str) -> str:
    """A gate set to a value through one setting: `--feature-gates X=true`, `featureGates X=true (configuration
    file)`."""
    if source.endswith(FROM_FILE):
        return f"{source.removesuffix(FROM_FILE)}{gate} {FROM_FILE}"
    return f"{source} {gate}"


def _a_flag(origin: str) -> bool:
    """Whether a setting is a command-line flag (`--feature-gates`), one origin only."""
    return origin.startswith("--") and " " not in origin
