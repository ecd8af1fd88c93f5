"""The value a Go variable holds where it is read, for the default deployment (SPEC §1): a local's
declaration and the writes before the read, each under its guards; a parameter as the calls pass it; a package
variable's value, or the one write that sets it."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

import tree_sitter

from watchlint.facts import Condition
from watchlint.go import parser
from watchlint.go.declarations import FunctionInfo, resolve_type
from watchlint.go.flags import FLAG_VALUE, FLAG_VAR, VALUE_FLAGS, in_flag_function
from watchlint.go.guards import tested_empty, tested_given
from watchlint.go.interpret import LocalState
from watchlint.go.known import (
    A_FUNCTION,
    UNKNOWN,
    CallBindings,
    Results,
    Val,
    Value,
    bindings_key,
    either,
    either_origin,
    iota_environment,
    result_at,
    zero_value,
)
from watchlint.go.model import GoFile
from watchlint.go.pending import uses_in
from watchlint.go.readingmethods import ReadingMethods
from watchlint.go.resolve import assigned_to, keyed_entries
from watchlint.go.scope import (
    Declaration,
    enclosing_function,
    innermost_function,
    return_items,
    return_statements,
)
from watchlint.go.writes import Write, WriteKind, method_calls, receivers, repeats_before, writes_of, written_names

if TYPE_CHECKING:
    from watchlint.go.deployment import Evaluator


class _PackageWrite(NamedTuple):
    """A write of a package variable: the value assigned, and which result of it where it is a call giving
    several (`x, err = f()`)."""

    file: GoFile
    value: tree_sitter.Node
    result: int | None


_NIL_TYPES = frozenset({"map_type", "slice_type", "pointer_type", "channel_type", "function_type"})


class _Configured(dict[str, "Value"]):
    """The parameters that hold configuration (a value a flag or the environment gives, or a literal every call
    writes out), for the guards of a local's writes (`if len(namespaces) == 0 { namespaces = … }`): an object's
    fields, read from the empty literal it starts as, say nothing of the object the program fetches into it
    later."""

    def __init__(self, bound: dict[str, Value]) -> None:
        super().__init__()
        self._bound = bound

    def __contains__(self, name: object) -> bool:
        value = self._bound[name] if isinstance(name, str) and name in self._bound else None
        literal = getattr(self._bound, "literal", ())  # a plain dict where nothing is bound
        return isinstance(value, Val) and (bool(value.origin) or name in literal)

    def __missing__(self, name: str) -> Value:
        return self._bound[name]


class VariableValues:
    """Evaluates identifiers, with the evaluator's values, guards and memory."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator
        self.resolver = evaluator.resolver
        self._writes_of: dict[tuple[str, int], list[Write]] = {}  # by the declaring identifier's file and offset
        # the names each function may write, by its file and offset
        self._written: dict[tuple[str, int], dict[str, list[tree_sitter.Node]]] = {}
        self._called: dict[tuple[str, int], dict[str, list[tree_sitter.Node]]] = {}  # the names methods are called on
        self._methods_of: dict[tuple[str, int], list[Write]] = {}  # by the declaring identifier's file and offset
        self.reading = ReadingMethods(self.resolver)
        self._package_assignments: dict[tuple[str, str, bool], list[_PackageWrite]] | None = None

    def value(self, file: GoFile, node: tree_sitter.Node, env: dict[str, Value], depth: int) -> Value:
        found = self._value(file, node, env, depth)
        if isinstance(found, Val) and found.value in ("", None) and self.evaluator.settings.required_before(file, node):
            return UNKNOWN  # `if ns == "" { return errors.New(…) }` before the read: a deployment that runs sets it
        return found

    def _value(self, file: GoFile, node: tree_sitter.Node, env: dict[str, Value], depth: int) -> Value:
        name = parser.text(node)
        if isinstance(env, LocalState) and name in env.assigned:
            return env[name]  # a helper run statement by statement: the local as the run has left it
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
            return self._declared(file, declaration, node, env, depth)
        flag = self.evaluator.flags.by_variable.get((file.package_path, name))
        if flag is not None:
            given = self.evaluator.settings.flag_value(flag, depth)
            return self._flag_fallback(file.package_path, name, given, depth) or given
        if self.resolver.package_function(file.package_path, name) is not None:
            return Val(A_FUNCTION)  # a function value (metallb's `ServiceChanged: setBalancer`): not nil
        return self.package_value(file.package_path, name, depth)

    def _flag_fallback(self, package: str, name: str, given: Value, depth: int) -> Value | None:
        """What a package variable a flag fills holds where the flag is left empty and the program's one write of
        the variable fills it then (`if len(crds) == 0 { crds = crdsToWatch{"single"} }` after flag.Parse,
        mongodb-kubernetes' -watch-resource); None where there is no such write."""
        if not isinstance(given, Val) or given.unseen or given.value not in ("", None, [], ()):
            return None
        writes = self._package_writes(package, name)
        if len(writes) != 1:
            return None
        (write,) = writes
        if tested_empty(_made_when(write.value)) != name:
            return None
        written = self._package_written(write, {}, depth + 1)
        return Val(written.value, given.origin, written.unseen) if isinstance(written, Val) else None

    def _package_value(self, package: str, name: str, depth: int) -> Value:
        """A package variable's value: its initializer, unless code writes another (`var routeAPIFound = false`
        set from API discovery at start-up, a main setting a configuration package's variable); without one,
        what the one write gives."""
        variable = self.resolver.declarations.variables.get((package, name))
        if variable is None:
            return UNKNOWN
        # a write under a condition false by default does not run (`if *nsLabel != "" { watched = … }`)
        written = [
            write
            for write in self._package_writes(package, name)
            if not _off_by_default(self.evaluator.condition(write.file, write.value))
        ]
        if variable.value_node is None and len(written) > 1:
            return UNKNOWN  # set in several places: which one ran cannot be told
        filled = self._package_writes(package, name, elements=True)
        if any(not _off_by_default(self.evaluator.condition(write.file, write.value)) for write in filled):
            # `reconcilers["upgrade"] = &UpgradeReconciler{…}` into `var reconcilers = map[…]…{}` (milvus-operator)
            # before ranging over it: the entries are not followed, and the empty initializer would say none
            return UNKNOWN
        if variable.value_node is not None:
            # the writes read as they stand, their functions' parameters unbound: binding them evaluates the
            # calls of every function writing the variable, which may read it in turn
            values = [self._package_written(write, {}, depth + 1) for write in written]
            constants = iota_environment(variable.iota)
            initial = self.evaluator.value(variable.file, variable.value_node, constants, depth + 1)
            agree = all(
                isinstance(value, Val)
                and isinstance(initial, Val)
                and value.value == initial.value
                and not value.unseen
                for value in values
            )
            if agree:
                return initial
            # `var Namespace = ""` set once from the environment or a flag (`func init() { Namespace =
            # os.Getenv("NAMESPACE") }`): the setting's value, as if the variable were declared without one
            (only,) = values if len(values) == 1 else (None,)
            return only if isinstance(only, Val) and only.origin else UNKNOWN
        if written and all(_lazily_set(write.value, name) for write in written):
            # `if secretReconciler == nil { …; secretReconciler = sr }` (global hub's lazily started reconcilers):
            # nil until the first pass sets it, which its own guard lets through
            return zero_value(resolve_type(variable.type_node, variable.file))
        values = [
            self._package_written(write, self.evaluator.parameters(write.file, write.value, depth + 1), depth + 1)
            for write in written
        ]
        if values:  # `var namespaces []string` set once, by the function parsing the flags
            return values[0]
        return zero_value(resolve_type(variable.type_node, variable.file))

    def gate_map_item(self, package: str, name: str, key: str, depth: int) -> Value | None:
        """`FeatureGates[consts.ModelMirror]` of a package `map[string]bool` literal that configuration may
        override item by item (`FeatureGates[key] = val` in a loop over parsed --feature-gates): the default the
        literal writes for the gate, named as the feature gates are set; None for another variable or key, or
        where code writes that very item (its value is then not the literal's)."""
        variable = self.resolver.declarations.variables.get((package, name))
        literal = variable.value_node if variable is not None else None
        kind = (
            literal.child_by_field_name("type") if literal is not None and literal.type == "composite_literal" else None
        )
        value_type = kind.child_by_field_name("value") if kind is not None and kind.type == "map_type" else None
        if variable is None or literal is None or value_type is None or parser.text(value_type) != "bool":
            return None
        default = next((value for gate, value in keyed_entries(literal) if self._names(variable.file, gate, key)), None)
        if default is None or parser.text(default) not in ("true", "false"):
            return None
        overridden = False
        for write in self._package_writes(package, name, elements=True):
            target = assigned_to(write.value)
            index = target.child_by_field_name("index") if target is not None else None
            if write.result is not None:
                overridden = True  # `gates[key], err = parse(…)`: an item set to what cannot be told
                continue
            if index is None or _off_by_default(self.evaluator.condition(write.file, write.value)):
                continue
            written = self.evaluator.value(write.file, index, {}, depth + 1)
            if isinstance(written, Val) and written.value == key:
                return None  # the program sets this gate itself
            overridden = overridden or not isinstance(written, Val)
        origin = self.evaluator.settings.gate_setting(key) if overridden else ""
        return Val(parser.text(default) == "true", origin)

    def _names(self, file: GoFile, node: tree_sitter.Node, key: str) -> bool:
        """Whether an expression holds the string `key`."""
        value = self.evaluator.value(file, node, {}, 0)
        return isinstance(value, Val) and value.value == key

    def package_value(self, package: str, name: str, depth: int) -> Value:
        """A package variable's value read from any package (see `_package_value`)."""
        unknown: Value = UNKNOWN
        return self.evaluator.once(
            ("package", package, name), lambda: self._package_value(package, name, depth), unknown
        )

    def _package_writes(self, package: str, name: str, *, elements: bool = False) -> list[_PackageWrite]:
        """The values assigned to a package variable, in the module's non-test files (its package's, and those
        naming it through an import: `config.MountManager = true`); with `elements`, those assigned to its
        elements (`registry[key] = value`)."""
        if self._package_assignments is None:
            self._package_assignments = {}
            for file in self.evaluator.files:
                if file.is_test:
                    continue
                for _, _, targets, values in file.assignments():
                    if len(targets) != len(values) and len(values) != 1:
                        continue
                    # `insecure, err = strconv.ParseBool(…)`: each target takes its result of the one call
                    several = len(targets) != len(values)
                    for index, target in enumerate(targets):
                        indexed = target.type == "index_expression"
                        named = target.child_by_field_name("operand") if indexed else target
                        variable = self.resolver.package_variable(file, named) if named is not None else None
                        if variable is not None:
                            write = _PackageWrite(file, values[0 if several else index], index if several else None)
                            self._package_assignments.setdefault((*variable, indexed), []).append(write)
        return self._package_assignments.get((package, name, elements), [])

    def _package_written(self, write: _PackageWrite, env: dict[str, Value], depth: int) -> Value:
        """What one write gives a package variable: its value, or its result of a call giving several."""
        value = self.evaluator.value(write.file, write.value, env, depth)
        return value if write.result is None else result_at(value, write.result)

    def _declared(
        self, file: GoFile, declaration: Declaration, node: tree_sitter.Node, env: dict[str, Value], depth: int
    ) -> Value:
        """A local's value where `node` reads it: its declared value, then the writes before the read."""
        at = _read_at(node, declaration)
        every = self._writes(file, declaration)
        escaping = [write for write in every if write.escapes]
        closure = _closure_of(node, declaration)
        if closure is not None and _returned_into(declaration):
            # a named result a deferred function reads (`defer func() { g.on = ret }()`): what a `return x`
            # put there (amazon-network-policy-controller's ConfigMap-enabled state)
            return UNKNOWN
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
        writes = self._with_method_calls(file, declaration, writes, at)
        # in a helper the evaluation reads for one call, a local's value follows that call's arguments
        bound = env if isinstance(env, CallBindings) and innermost_function(declaration.node) == env.function else None
        bindings = bindings_key(bound) if bound is not None else None
        key = ("local", file.path, declaration.node.start_byte, len(writes), closure if escaping else None, bindings)
        return self.evaluator.memoized(key, lambda: self._written_value(file, declaration, writes, depth, bound=bound))

    def _writes(self, file: GoFile, declaration: Declaration) -> list[Write]:
        key = (file.path, declaration.node.start_byte)
        found = self._writes_of.get(key)
        if found is None:
            function = file.enclosing_function(declaration.node)
            found = (
                []
                if function is None
                else writes_of(
                    declaration, self._written_in(file, function), lambda n: self.resolver.declaration(file, n)
                )
            )
            found = [write for write in found if not in_flag_function(write.node)]  # the flag's own value
            self._writes_of[key] = found
        return found

    def never_written(self, file: GoFile, declaration: Declaration) -> bool:
        """Whether nothing writes a local after its declaration: no assignment, address taken or method call."""
        return not self._writes(file, declaration) and not self._method_calls(file, declaration)

    def _with_method_calls(self, file: GoFile, declaration: Declaration, writes: list[Write], at: int) -> list[Write]:
        """The writes before a read, with the method calls on the local and its method values that may come
        before it, which may fill a collection (`names := set.Make(); names.Add(n)`: not the empty map Make
        returns), in source order."""
        calls = [
            call
            for call in self._method_calls(file, declaration)
            # before the read, in a function literal that may run any time, or later in a loop around the read
            if call.node.end_byte <= at or call.escapes or repeats_before(call, at)
        ]
        return sorted([*writes, *calls], key=lambda write: write.node.start_byte) if calls else writes

    def _method_calls(self, file: GoFile, declaration: Declaration) -> list[Write]:
        """The method calls and method values of a local that may write it (see `ReadingMethods`), found once."""
        key = (file.path, declaration.node.start_byte)
        found = self._methods_of.get(key)
        if found is None:
            found = self._methods_of[key] = self._find_method_calls(file, declaration)
        return found

    def _find_method_calls(self, file: GoFile, declaration: Declaration) -> list[Write]:
        function = file.enclosing_function(declaration.node)
        if function is None:
            return []
        key = (file.path, function.start_byte)
        called = self._called.get(key)
        if called is None:
            called = self._called[key] = receivers(function)
        if declaration.name not in called:
            return []
        found = method_calls(declaration, called, lambda n: self.resolver.declaration(file, n))
        return [call for call in found if not self.reading.only_reads(file, call.node)]

    def _written_in(self, file: GoFile, function: tree_sitter.Node) -> dict[str, list[tree_sitter.Node]]:
        key = (file.path, function.start_byte)
        found = self._written.get(key)
        if found is None:
            found = self._written[key] = written_names(function)
        return found

    def _written_value(
        self,
        file: GoFile,
        declaration: Declaration,
        writes: list[Write],
        depth: int,
        initial: Value | None = None,
        bound: CallBindings | None = None,
    ) -> Value:
        """The declared (or `initial`) value with the writes applied in order; `bound`: the parameters of the
        function around the local as one call passes them, else as every call does."""
        value = self._declared_value(file, declaration, depth, bound) if initial is None else initial
        skipped_branch: tree_sitter.Node | None = None  # the `if` whose branch a skipped write sits in
        for write in writes:
            written = self._write_value(file, write, value, depth, bound)
            if written is None:
                continue  # not a write after all: a flag definition, whose default is the declared value
            # the guards of a write read the parameters as the call being evaluated passes them: Kong's default
            # gates, `NewFeatureGates(nil)`, skip the loop over what its flag's Set passes
            parameters = (
                bound
                if bound is not None and innermost_function(write.node) == bound.function
                else self.evaluator.parameters(file, write.node, depth + 1)
            )
            configured = _Configured(parameters)
            guards = list(self.evaluator.guarding.guards(file, write.node, configured))
            skipped = next((guard for guard in guards if guard.holds is False), None)
            if skipped is not None:
                skipped_branch = _branching(write.node)
                # kept by default, but a flag would change it: the value comes from that flag, and from its own
                # source too where the flag would give it a value (`ns := os.Getenv("WATCH_NAMESPACE"); if
                # watchCurrent { ns = currentNamespace() }`: WATCH_NAMESPACE or --watch-current-namespace)
                if isinstance(value, Val) and not value.origin and skipped.origin:
                    value = Val(value.value, skipped.setting)
                elif isinstance(value, Val) and skipped.origin and not _empties(written) and not _same(written, value):
                    value = Val(value.value, either_origin(value.origin, skipped.origin), value.unseen)
            elif any(guard.holds is None for guard in guards):
                value = either(value, written)
            elif skipped_branch is not None and _branching(write.node) == skipped_branch and _empties(written):
                # `if only { ns = "rook-ceph" } else { ns = "" }`: the else leaves what the skipped write's
                # setting already says (`CURRENT_NAMESPACE_ONLY=true` turns it on)
                continue
            else:
                # a fallback written because a flag is left empty comes from that flag, and from the fallback's
                # own source too (`RESTRICT_TO_NAMESPACE`, else `WATCH_NAMESPACE`); a setting written while
                # another holds by default comes from the written one alone: the other turns it off, not on
                # (Reloader's `if isGlobal { selector = namespaceSelector }`)
                origin = next((guard.origin for guard in guards if guard.origin), "")
                if (
                    isinstance(written, Val)
                    and written.origin
                    and origin
                    and origin not in written.origin.split(" or ")
                    and (_a_fallback(write.node) or _tests_its_setting(value, origin))
                ):
                    written = Val(written.value, f"{origin} or {written.origin}", written.unseen)
                value = Val(written.value, origin) if isinstance(written, Val) and not written.origin else written
        return value

    def _write_value(
        self, file: GoFile, write: Write, before: Value, depth: int, bound: CallBindings | None = None
    ) -> Value | None:
        if write.kind is WriteKind.INDEX:
            return self._indexed(file, write, before, depth, bound)
        if write.kind is WriteKind.ASSIGN:
            left, right = write.node.child_by_field_name("left"), write.node.child_by_field_name("right")
            names = parser.named(left) if left is not None else []
            values = parser.named(right) if right is not None else []
            env = self._environment(file, write.node, depth, bound)
            if len(values) == len(names):
                return self.evaluator.value(file, values[write.index], env, depth + 1)
            value = self.evaluator.value(file, values[0], env, depth + 1) if len(values) == 1 else UNKNOWN
            return result_at(value, write.index)  # `x, err = call()`
        if write.kind is WriteKind.ADDRESS:
            return self._filled(file, write.node, depth)
        if write.kind is WriteKind.COPY:
            return self._copied_into(file, write, before, depth)
        if write.kind is WriteKind.METHOD:  # only a collection type's method may add items; others are not read
            return UNKNOWN if isinstance(before, Val) and isinstance(before.value, list | dict) else None
        return UNKNOWN

    def _copied_into(self, file: GoFile, write: Write, before: Value, depth: int) -> Value:
        """`maps.Copy(x, src)` on a known map: x with the keys of src (the values are not tracked)."""
        arguments = parser.named(write.node.child_by_field_name("arguments") or write.node)
        env = self.evaluator.parameters(file, write.node, depth + 1)
        source = self.evaluator.value(file, arguments[1], env, depth + 1) if len(arguments) > 1 else UNKNOWN
        if not isinstance(before, Val) or not isinstance(before.value, dict | None) or not isinstance(source, Val):
            return UNKNOWN
        if not isinstance(source.value, dict | None):
            return UNKNOWN
        return Val({**(before.value or {}), **(source.value or {})}, before.origin or source.origin)

    def _indexed(self, file: GoFile, write: Write, before: Value, depth: int, bound: CallBindings | None) -> Value:
        """`x[key] = value` on a known map: the map with that key (the values are not tracked); a key the
        function's parameter gives (`configs[namespace] = …` in a helper) is what the calls pass. An empty list
        stays empty: a program that runs writes no item of it (Reloader rewriting the items of its selectors
        in a loop over them)."""
        if isinstance(before, Val) and before.value == [] and not before.unseen:
            return before
        left = write.node.child_by_field_name("left")
        target = parser.named(left)[write.index] if left is not None else None
        env = self._environment(file, write.node, depth, bound)
        key = self.evaluator.value(file, target.child_by_field_name("index"), env, depth + 1) if target else UNKNOWN
        if not isinstance(before, Val) or not isinstance(before.value, dict | None) or not isinstance(key, Val):
            return UNKNOWN
        return Val({**(before.value or {}), key.value: True}, before.origin or key.origin)

    def _filled(self, file: GoFile, address: tree_sitter.Node, depth: int) -> Value | None:
        """What a call given `&x` leaves in x: a flag's value for a flag definition (None: the registry
        gave the declared value already) or viper's UnmarshalKey of a flag; anything else is unknown."""
        arguments = address.parent
        call = arguments.parent if arguments is not None and arguments.type == "argument_list" else None
        function = call.child_by_field_name("function") if call is not None else None
        if call is not None and arguments is not None:
            info = self.resolver.callee(file, call)
            index = parser.position_in(arguments, address)
            if info is not None and index >= 0 and self._sets_later(info, index, 2):
                return None  # an override registered for later (`boolEnv(&o.enabled, "DD_…")`): not a default
        if call is None or function is None:
            return UNKNOWN
        if (file.path, call.start_byte) in self.evaluator.flags.helper_calls:
            return None  # a flag helper's definition (`iflag.StringVar(fs, &ns, "namespace", …)`)
        if function.type != "selector_expression":
            return UNKNOWN
        method = parser.text(function.child_by_field_name("field"))
        values = parser.named(arguments) if arguments is not None else []
        is_flag = FLAG_VAR.match(method) or FLAG_VALUE.match(method) or method in VALUE_FLAGS  # `flag.Var(&v, …)`
        if is_flag and values and values[0] == address:
            return None
        if method == "UnmarshalKey" and len(values) == 2 and values[1] == address:
            named = self.evaluator.value(file, values[0], {}, depth + 1)
            flag = (
                self.evaluator.flags.named(named.value, file)
                if isinstance(named, Val) and isinstance(named.value, str)
                else None
            )
            return self.evaluator.settings.flag_value(flag, depth) if flag is not None else UNKNOWN
        return UNKNOWN

    def _sets_later(self, info: FunctionInfo, index: int, hops: int) -> bool:
        """Whether a module function given a pointer at `index` only writes through it in function literals
        it hands back (a setter applied when an environment variable is found), directly or through the
        module functions it passes the pointer to; any other use may write it now."""
        parameter = info.parameter_at(index)
        if parameter is None or parameter.name in ("", "_"):
            return False
        for use in uses_in(info.node, parameter.name):
            if innermost_function(use) != info.node:
                continue  # in a function literal: runs later, when the setter is applied
            arguments = use.parent
            if arguments is None or arguments.type != "argument_list" or arguments.parent is None or hops == 0:
                return False
            callee = self.resolver.callee(info.file, arguments.parent)
            position = parser.position_in(arguments, use)
            if callee is None or not self._sets_later(callee, position, hops - 1):
                return False
        return True

    def _environment(
        self, file: GoFile, node: tree_sitter.Node, depth: int, bound: CallBindings | None
    ) -> dict[str, Value]:
        """The parameters a local's declaration or write reads: as one call passes them (`bound`), else as every
        call of the function does."""
        return bound if bound is not None else self.evaluator.parameters(file, node, depth + 1)

    def _declared_value(
        self, file: GoFile, declaration: Declaration, depth: int, bound: CallBindings | None = None
    ) -> Value:
        flag = self.evaluator.flags.by_variable.get((file.path, f"{declaration.name}@{declaration.node.start_byte}"))
        if flag is not None:
            return self.evaluator.settings.flag_value(flag, depth)
        if declaration.ranged_node is not None:
            return self._ranged_value(file, declaration.ranged_node, depth, bound)
        if declaration.parameter_index >= 0 or declaration.is_receiver:
            return UNKNOWN  # `(b *Bool) IsTrue()`: not a nil pointer declared without a value
        if declaration.value_node is not None:
            # a local's value may depend on the function's parameters: `objects := strings.Split(names, ",")`
            env = self._environment(file, declaration.value_node, depth, bound)
            value = self.evaluator.value(file, declaration.value_node, env, depth + 1)
            stops = self.evaluator.settings.stops_on_error
            if isinstance(value, Val) and isinstance(value.value, Results) and not stops(declaration.node):
                # the call fails by default and the program goes on: what it returns on failure is read
                value = Val(value.value.read_going_on(), value.origin, value.unseen)
            if isinstance(value, Val) and isinstance(value.value, tuple):
                return result_at(value, declaration.value_index)
            return value
        if declaration.type_node is not None and declaration.type_node.type in _NIL_TYPES:
            return Val(None)  # `var namespaces map[string]cache.Config`: nil until written
        return zero_value(resolve_type(declaration.type_node, file))

    def ranges_over_every_namespace(self, file: GoFile, node: tree_sitter.Node) -> bool:
        """Whether a name is the item of a range over a list, or the key of a range over a map, that holds `""`
        beside other namespaces by default (`for _, ns := range []string{"", "openshift-config"}`): one round of
        the loop uses every namespace."""
        declaration = self.resolver.declaration(file, node) if node.type == "identifier" else None
        if declaration is None:
            return False
        # the items of a list, or the keys of a map a loop takes its key from (`for ns := range caBundles`,
        # a map literal keyed by namespace)
        ranged = declaration.ranged_node if declaration.indexes is None else declaration.indexes
        if ranged is None:
            return False
        value = self.evaluator.value(file, ranged, self._environment(file, ranged, 0, None), 1)
        held = value.value if isinstance(value, Val) and not value.unseen else None
        # a list of `""` alone reads as `""`, with what fills it otherwise (`_ranged_value`)
        items = held if isinstance(held, list) and declaration.indexes is None else []
        items = list(held) if isinstance(held, dict) and declaration.indexes is not None else items
        return "" in items and any(item != "" for item in items)

    def _ranged_value(
        self, file: GoFile, ranged: tree_sitter.Node, depth: int, bound: CallBindings | None = None
    ) -> Value:
        """The item of `for _, item := range list` when every item of the list is the same (`[""]` by
        default, every namespace); unknown otherwise. `bound`: the parameters as one call passes them."""
        value = self.evaluator.value(file, ranged, self._environment(file, ranged, depth, bound), depth + 1)
        if not isinstance(value, Val) or not isinstance(value.value, list) or not value.value:
            return UNKNOWN
        first = value.value[0]
        if isinstance(first, str | bool | int) and all(item == first for item in value.value):
            return Val(first, value.origin)
        return UNKNOWN


def _tests_its_setting(value: Value, origin: str) -> bool:
    """Whether a guard reads the setting the variable holds so far (`namespace, found := os.LookupEnv(…)`, then
    `if !found { namespace = … }`): what it writes falls back from that setting."""
    return isinstance(value, Val) and bool(value.origin) and origin in value.origin.split(" or ")


def _a_fallback(write: tree_sitter.Node) -> bool:
    """Whether a write is made because a setting is empty (`if ns == "" { ns = … }`, the else of `ns != ""`, or
    no test at all), not while another setting holds (`if isGlobal { … }`)."""
    branching = _branching(write)
    if branching is None:
        return True
    condition = branching.child_by_field_name("condition")
    alternative = branching.child_by_field_name("alternative")
    in_else = alternative is not None and alternative.start_byte <= write.start_byte < alternative.end_byte
    return (tested_given(condition) if in_else else tested_empty(condition)) is not None


def _lazily_set(write: tree_sitter.Node, name: str) -> bool:
    """Whether a write of a package variable is made only while it is nil (`if x == nil { x = … }`)."""
    condition = _made_when(write)
    if condition is None:
        return False
    tests = re.compile(rf"(?:^|&&)\s*(?:\w+\.)?{re.escape(name)}\s*==\s*nil\s*(?:&&|$)")
    return tests.search(" ".join(parser.text(condition).split())) is not None


def _made_when(write: tree_sitter.Node) -> tree_sitter.Node | None:
    """The condition of the nearest `if` around a write, where the write is in its consequence (not its else)."""
    branching = _branching(write)
    condition = branching.child_by_field_name("condition") if branching is not None else None
    consequence = branching.child_by_field_name("consequence") if branching is not None else None
    if consequence is None or not consequence.start_byte <= write.start_byte < consequence.end_byte:
        return None
    return condition


def _branching(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The nearest `if` around a node."""
    current = node.parent
    while current is not None and current.type != "if_statement":
        current = current.parent
    return current


def _empties(written: Value) -> bool:
    """Whether a write gives a value seen to be empty (`ns = ""`), which turns no restriction on."""
    return isinstance(written, Val) and not written.unseen and not written.value


def _off_by_default(condition: Condition | None) -> bool:
    return condition is not None and condition.holds_by_default is False


def _span(node: tree_sitter.Node | None) -> tuple[int, int] | None:
    return (node.start_byte, node.end_byte) if node is not None else None


def _returned_into(declaration: Declaration) -> bool:
    """Whether a local is a named result some return statement of its function gives a value."""
    results = declaration.node.parent.parent if declaration.node.parent is not None else None
    function = results.parent if results is not None and results.type == "parameter_list" else None
    if function is None or function.child_by_field_name("result") != results:
        return False
    return any(return_items(statement) for statement in return_statements(function))


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


def _same(written: Value, value: Val) -> bool:
    """Whether a write under a setting leaves what the variable holds as it was (datadog-operator's
    `nss = includeWatchNamespace(nss, …)`, which returns a map naming every namespace unchanged): the setting
    then changes nothing."""
    return isinstance(written, Val) and not written.unseen and repr(written.value) == repr(value.value)


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
