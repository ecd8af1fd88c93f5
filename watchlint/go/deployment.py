"""The default deployment (SPEC §1): evaluate the expressions and conditions a restriction or a site depends
on, with the defaults visible in code.

Flags take the default their definition shows (flags, settings); environment variables and flags without a
visible default are empty; fields of configuration structs are empty unless a non-empty default is visible
(fields). A condition that cannot be evaluated counts as holding (guards). Values carry their origin
(`--watch-namespace`, `WATCH_NAMESPACE`) so a message can say what would enable a restriction (known).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import tree_sitter

from watchlint.facts import Condition
from watchlint.go import parser
from watchlint.go.callgraph import CallGraph
from watchlint.go.declarations import FieldInfo, FunctionInfo, FunctionKey, resolve_type
from watchlint.go.fields import FieldValues
from watchlint.go.flags import FlagRegistry, variable_key
from watchlint.go.guards import Guard, Guards, conjuncts, disjuncts, returns_error, returns_failure, tested_empty
from watchlint.go.interpret import Run, has_range_loop
from watchlint.go.known import (
    A_FUNCTION,
    A_STRUCT,
    AN_ERROR,
    OPERATORS,
    UNKNOWN,
    CallBindings,
    Implementation,
    Results,
    StructLiteral,
    Val,
    Value,
    appended,
    bindings_key,
    contains_result,
    either_origin,
    first_origin,
    is_struct,
    item_value,
    literal_value,
    logical,
    result_at,
    strings_result,
    zero_value,
)
from watchlint.go.model import SAMBER_LO, GoFile, TypeRef
from watchlint.go.pending import method_name, uses_in
from watchlint.go.resolve import (
    Resolver,
    assigned_to,
    is_written,
    keyed_elements,
    selector_chain,
    struct_literal_of,
)
from watchlint.go.scope import receiver_name, return_items, return_statements
from watchlint.go.settings import Settings
from watchlint.go.variables import VariableValues

MAX_DEPTH = 10
# module functions are followed into up to this depth: a helper parsing what another reads from the
# environment (`parse.MustBool(env.Get("X", "false"))`) written into a field a guard tests
_CALL_DEPTH = MAX_DEPTH - 3
# Evaluations one inside the other, whatever started them: `depth` counts the steps of one chain, and a
# parameter bound to what its callers pass starts a chain of its own, so chains nest; past this they are
# unknown rather than deeper than Python's stack
MAX_NESTING = 80
_IN_PROGRESS = object()
# the packages of Kubernetes API types: built-in kinds and the metadata every object embeds
_API_PACKAGE_PREFIXES = ("k8s.io/api/", "k8s.io/apimachinery/pkg/apis/meta/")
_T = TypeVar("_T")
# what strconv.ParseBool accepts
_BOOLEANS = {
    **dict.fromkeys(("1", "t", "T", "TRUE", "true", "True"), True),
    **dict.fromkeys(("0", "f", "F", "FALSE", "false", "False"), False),
}
# the types a conversion keeps a known value of: `string(x)` is x
_BASIC_TYPES = frozenset({"string", "bool", "int", "int32", "int64", "uint", "uint32", "uint64"})
_KNOWN_CONSTANTS = {
    "NamespaceAll": "",
    "NamespaceNone": "",
    "AllNamespaces": "",
    "NamespaceDefault": "default",
    "NamespaceSystem": "kube-system",
}


class _BoundParameters(dict[str, "Value"]):
    """The parameters of a function, each bound on first read to what every call of the function passes,
    when the calls agree; reading them all up front would evaluate every argument of every helper."""

    def __init__(self, evaluator: Evaluator, function: FunctionInfo, depth: int) -> None:
        super().__init__()
        self._evaluator = evaluator
        self._function = function
        self._depth = depth  # how many calls up this binding already reaches: chains of helpers end
        self._indexes = function.positions()
        self.literal: set[str] = set()  # bound to a literal every call writes out (`getPods(cs, true)`)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self._indexes and isinstance(self[name], Val)

    def __missing__(self, name: str) -> Value:
        if self._depth >= MAX_DEPTH:
            self._evaluator.cutoffs += 1
            return UNKNOWN
        self[name] = UNKNOWN  # read again while it is bound (a recursive helper): not known
        key = self._function.key
        calls = self._evaluator.calls.passing_calls(key)
        if (binary := self._evaluator.binary) is not None:
            calls = [(file, call) for file, call in calls if file.package_path in binary]
        index = self._indexes[name]
        depth = self._depth + 1
        parameters = self._function.parameters
        variadic = bool(parameters) and parameters[-1].variadic and parameters[-1].index == index
        read = self._evaluator.variadic_argument if variadic else self._evaluator.argument
        arguments = [read(f, call, index, depth) for f, call in calls]
        known = [value for value in arguments if isinstance(value, Val)]
        value: Value = UNKNOWN
        if known and len(known) == len(arguments) and len({_agreeing(value.value) for value in known}) == 1:
            # the calls agree on the value, whatever each names it (a literal `false`, a flag false by
            # default): the one with an origin names it in messages, an empty list rather than nil
            value = next((item for item in known if item.origin), None) or max(known, key=lambda v: v.value is not None)
            if all(self._written_out(file, call, index, variadic) for file, call in calls):
                self.literal.add(name)
        elif known and len(known) == len(arguments) and all(is_struct(item.value) for item in known):
            value = Val(A_STRUCT)  # struct literals each call writes its own: not nil, their fields not known
        self[name] = value
        return value

    def _written_out(self, file: GoFile, call: tree_sitter.Node, index: int, variadic: bool) -> bool:
        """Whether a call writes out the argument at `index` as a literal (`true`, `"kube-system"`, `nil`, an
        empty `[]string{}`, nothing for a variadic parameter), or passes a local list or map declared empty and
        never written (`var namespaces []string`): the value every deployment gives, not one a program
        fetches."""
        values = parser.named(call.child_by_field_name("arguments") or call)
        argument = values[index] if index < len(values) else None
        if argument is None or literal_value(argument) is not None or _empty_collection(argument):
            return argument is not None or variadic  # a variadic parameter given nothing: an empty list
        if argument.type != "identifier":
            return False
        declaration = self._evaluator.resolver.declaration(file, argument)
        return (
            declaration is not None
            and declaration.parameter_index < 0
            and declaration.ranged_node is None
            and declaration.value_node is None
            and declaration.type_node is not None
            and declaration.type_node.type in ("slice_type", "map_type")
            and self._evaluator.variables.never_written(file, declaration)
        )


def _agreeing(value: object) -> str:
    """What calls must agree on: the value, a nil list and an empty one alike (`len` and `range` read them
    alike)."""
    return "empty" if value is None or value == [] or value == {} else repr(value)


def _empty_collection(node: tree_sitter.Node) -> bool:
    """`[]string{}`, `map[string]bool{}`: a list or map literal without items."""
    type_node = node.child_by_field_name("type") if node.type == "composite_literal" else None
    body = node.child_by_field_name("body") if type_node is not None else None
    return type_node is not None and type_node.type in ("slice_type", "map_type") and not parser.named(body or node)


def _field_read(use: tree_sitter.Node) -> bool:
    """Whether a use of a variable reads one of its fields (`cfg.Include`, not `cfg.Include = …` nor
    `cfg.Default()`), hands the variable on as an argument, or copies it into a literal's field (`GKNN: gknn`)."""
    outer = use.parent
    if outer is not None and outer.type == "argument_list":
        return True
    keyed = outer.parent if outer is not None and outer.type == "literal_element" else None
    if keyed is not None and keyed.type == "keyed_element" and keyed.named_children[-1] == outer:
        return True
    if outer is None or outer.type != "selector_expression" or outer.child_by_field_name("operand") != use:
        return False
    above = outer.parent
    if above is not None and above.type == "call_expression" and above.child_by_field_name("function") == outer:
        return False
    return not is_written(outer)


def _standard_library(package: str, name: str, first: Val, rest: Callable[[], list[Value]]) -> Value | None:
    """strconv.ParseBool, the strings package and slices.Contains of a known value, `rest` giving the other
    arguments' values; None for any other call."""
    if package == "strconv" and name == "ParseBool" and isinstance(first.value, str):
        # `enabled, err := strconv.ParseBool(os.Getenv("X"))`: false with an error for what is no boolean
        parsed = _BOOLEANS.get(first.value)
        return Val((bool(parsed), None if parsed is not None else AN_ERROR), first.origin, first.unseen)
    if package == "strings" and isinstance(first.value, str | list):
        return strings_result(name, first, rest())
    if package == "slices" and name == "Contains":
        # `slices.Contains(crds, "multi")` of a flag's list (mongodb-kubernetes' -watch-resource)
        given = rest()
        return contains_result(first, given[0]) if given else None
    return None


def _is_scalar(value: object) -> bool:
    """A boolean, string or number: a value no method fills."""
    return isinstance(value, bool | str | int | float)


def _outermost_part(node: tree_sitter.Node) -> tree_sitter.Node:
    """The whole of the selectors and indexes a node begins (`cfg.F.G[k]` of `cfg.F`)."""
    while (outer := node.parent) is not None and outer.type in ("selector_expression", "index_expression"):
        if outer.named_children[0] != node:
            break
        node = outer
    return node


def _addressed(use: tree_sitter.Node) -> bool:
    """Whether a use of a variable takes the address of one of its fields (`&cfg.Namespace`), which may fill it."""
    outer = use.parent
    above = outer.parent if outer is not None and outer.type == "selector_expression" else None
    return above is not None and above.type == "unary_expression" and parser.text(above).startswith("&")


class Evaluator:
    """Evaluates Go expressions for the default deployment and binds the parameters of functions to what their
    calls pass; its parts evaluate variables, fields, the settings a program reads and the guards of nodes."""

    def __init__(self, resolver: Resolver, flags: FlagRegistry, calls: CallGraph) -> None:
        self.resolver = resolver
        self.flags = flags
        self.calls = calls
        self.files = calls.files
        self.guarding = Guards(self)
        self.settings = Settings(self)
        self.fields = FieldValues(self)
        self.variables = VariableValues(self)
        self._bound: dict[FunctionKey, _BoundParameters] = {}
        self._module_packages: frozenset[str] | None = None
        # finds the packages of the binaries that build a cache (None when none does): set by the front-end,
        # asked only once a configuration default is written or options are built by a function nothing calls
        self.find_deployed_packages: Callable[[], frozenset[str] | None] = lambda: None
        self._deployed_packages: tuple[frozenset[str] | None] | None = None
        # finds the packages of each binary of the module (every `package main`): set by the front-end
        self.find_binaries: Callable[[], list[frozenset[str]]] = list
        self._binaries: list[frozenset[str]] | None = None
        # the packages of the one binary evaluated (for_binary): calls outside them run in other processes
        self.binary: frozenset[str] | None = None
        self._memo: dict[object, object] = {}
        self._uses: dict[tuple[str, int, str], list[tree_sitter.Node]] = {}  # see `_uses_in`
        self._nesting = 0  # evaluations under way, one inside the other
        # evaluations cut short by MAX_DEPTH or MAX_NESTING so far: what they gave is computed once more when
        # asked again (see `once`), because the same value asked for from fewer steps away may be known
        self.cutoffs = 0
        # key -> the depth of the last evaluation that asked for it, its result, and how many evaluations it was in
        self._cut_short: dict[object, tuple[int, object, int]] = {}
        self._depth = 0  # the depth of the evaluation last begun: where a memoized value is asked from
        self._handlers: dict[str, Callable[[GoFile, tree_sitter.Node, dict[str, Value], int], Value]] = {
            "parenthesized_expression": self._parenthesized,
            "unary_expression": self._unary,
            "binary_expression": self._binary,
            "identifier": self.variables.value,
            "selector_expression": self._selector,
            "call_expression": self._call,
            "composite_literal": self._literal,
            "index_expression": self._index,
            "slice_expression": self._slice,
            "iota": lambda file, node, env, depth: env.get("iota", UNKNOWN),  # a constant's place, bound by it
        }

    def for_binary(self, packages: frozenset[str]) -> Evaluator:
        """An evaluator of the same module that sees only the calls one binary makes: a parameter is bound to
        what that binary's calls pass (metallb's speaker sets `ReadEndpoints: true` in the config it hands the
        shared manager code, its controller leaves it false), and a guard keeps a site off there when every
        call of the binary is kept off. Its memory starts empty: values read through other binaries' calls
        would not hold in this one."""
        sibling = Evaluator(self.resolver, self.flags, self.calls)
        sibling.find_deployed_packages = self.find_deployed_packages
        sibling.find_binaries = self.find_binaries
        sibling.binary = packages
        return sibling

    def _uses_in(self, file: GoFile, function: tree_sitter.Node, name: str) -> list[tree_sitter.Node]:
        """`uses_in`, kept per function and name: a local holding a struct literal is asked about again at
        each read of its fields (rook's options structs)."""
        key = (file.path, function.start_byte, name)
        found = self._uses.get(key)
        if found is None:
            found = self._uses[key] = uses_in(function, name)
        return found

    def release(self) -> None:
        """Let go of everything: the parts, the bound parameters and the handlers refer back to the evaluator,
        and these cycles would keep the module's objects alive until a cyclic collection."""
        self.__dict__.clear()

    # -- public -----------------------------------------------------------------------------------
    def condition(self, file: GoFile, node: tree_sitter.Node) -> Condition | None:
        """The combined guards of a node: inside its function (its parameters bound to what every call
        passes, when they all pass the same), then at the calls of that function."""
        return self.guarding.condition(file, node)

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
        passed = values[index]
        if passed.type == "variadic_argument":  # `WithNamespaces(namespaces...)`: the list handed on whole
            passed = parser.first_named(passed) or passed
        return self.value(file, passed, self.parameters(file, call, depth), depth)

    def variadic_argument(self, file: GoFile, call: tree_sitter.Node, index: int, depth: int) -> Value:
        """What a call gives the variadic parameter at `index`: the list it hands on whole (`names...`), the
        empty list where it passes nothing, else a new list of the items it passes."""
        values = parser.named(call.child_by_field_name("arguments") or call)
        return self._variadic_value(file, values, index, self.parameters(file, call, depth), depth)

    def _variadic_value(
        self, file: GoFile, values: list[tree_sitter.Node], index: int, env: dict[str, Value], depth: int
    ) -> Value:
        if index >= len(values):
            return Val([])
        if values[-1].type == "variadic_argument":
            spread = parser.first_named(values[-1])
            return self.value(file, spread, env, depth) if index == len(values) - 1 and spread else UNKNOWN
        items = [self.value(file, value, env, depth) for value in values[index:]]
        known = [item for item in items if isinstance(item, Val)]
        if len(known) != len(items):
            return UNKNOWN
        # the setting an item comes from names the list in messages (`newCache(cfg, *namespace)`)
        return Val([item.value for item in known], next((item.origin for item in known if item.origin), ""))

    def module_packages(self) -> frozenset[str]:
        """The import paths of the unit's packages."""
        if self._module_packages is None:
            self._module_packages = frozenset(file.package_path for file in self.files)
        return self._module_packages

    def deployed_packages(self) -> frozenset[str] | None:
        """The packages of the binaries that build a cache; None when no binary does (a library)."""
        if self._deployed_packages is None:
            self._deployed_packages = (self.find_deployed_packages(),)
        return self._deployed_packages[0]

    def in_a_binary(self, package: str) -> bool:
        """Whether a binary of the module is built with the package (the one binary evaluated, where there is
        one); true where the module has none."""
        if self.binary is not None:
            return package in self.binary
        binaries = self._binary_packages()
        return not binaries or any(package in packages for packages in binaries)

    def share_a_binary(self, package: str, other: str) -> bool:
        """Whether two packages are built into one binary of the module; true where the module has none (a
        library: any program may build both)."""
        binaries = self._binary_packages()
        if not binaries or package == other:
            return True
        return any(package in packages and other in packages for packages in binaries)

    def _binary_packages(self) -> list[frozenset[str]]:
        """The packages of each binary of the module, found once."""
        if self._binaries is None:
            self._binaries = self.find_binaries()
        return self._binaries

    def value_at(self, file: GoFile, node: tree_sitter.Node) -> Value:
        """An expression's value where it stands: its function's parameters as every call passes them."""
        return self.value(file, node, self.parameters(file, node), 0)

    def every_namespace(self, file: GoFile, node: tree_sitter.Node) -> tuple[Val, str] | None:
        """A namespace expression that names every namespace (`""`) in the default deployment, from what the code
        shows, with what makes it name one (`--namespace is set`, "`ns()` is not empty"); None otherwise, a
        value read from the environment as is included: a namespace the code does not show counts (SPEC §1)."""
        value = self.value_at(file, node)
        if not isinstance(value, Val) or value.value not in ("", None) or value.unseen:
            return None
        if value.origin and self.settings.demanded_before(file, node, value.origin):
            return None
        text = self.guarding.set_text(value.origin, file) if value.origin else f"`{parser.text(node)}` is not empty"
        return value, text

    # -- evaluation -------------------------------------------------------------------------------
    def truth(self, file: GoFile, node: tree_sitter.Node, env: dict[str, Value]) -> tuple[bool | None, str]:
        value = self.value(file, node, env, 0)
        if isinstance(value, Val) and isinstance(value.value, bool):
            return value.value, value.origin
        return None, value.origin if isinstance(value, Val) else ""

    def value(self, file: GoFile, node: tree_sitter.Node | None, env: dict[str, Value], depth: int) -> Value:
        if node is None:
            return UNKNOWN
        if depth > MAX_DEPTH or self._nesting > MAX_NESTING:
            self.cutoffs += 1
            return UNKNOWN
        self._depth = depth
        literal = literal_value(node)
        if literal is not None:
            return literal
        handler = self._handlers.get(node.type)
        if handler is None:
            return UNKNOWN
        self._nesting += 1
        try:
            return handler(file, node, env, depth)
        finally:
            self._nesting -= 1

    def _parenthesized(self, file: GoFile, node: tree_sitter.Node, env: dict[str, Value], depth: int) -> Value:
        return self.value(file, parser.first_named(node), env, depth + 1)

    def _index(self, file: GoFile, node: tree_sitter.Node, env: dict[str, Value], depth: int) -> Value:
        operand, index_node = node.child_by_field_name("operand"), node.child_by_field_name("index")
        index = self.value(file, index_node, env, depth + 1)
        if isinstance(index, Val) and isinstance(index.value, str) and operand is not None:
            # `FeatureGates[consts.X]` of a package map of gates
            variable = self.resolver.package_variable(file, operand)
            gate = self.variables.gate_map_item(*variable, index.value, depth) if variable is not None else None
            if gate is not None:
                return gate
        container = self.value(file, operand, env, depth + 1)
        if (
            isinstance(container, Val)
            and isinstance(container.value, list)
            and self.resolver.ranges_over(file, index_node, operand)
        ):
            # `for i := range list { list[i] }`: any index, which reads the same where every item is
            first = container.value[0] if container.value else None
            same = container.value and all(item == first for item in container.value)
            return item_value(first, container.origin) if same else UNKNOWN
        if not isinstance(container, Val) or not isinstance(index, Val):
            return UNKNOWN
        items, key = container.value, index.value
        if isinstance(items, list | tuple) and isinstance(key, int) and -len(items) <= key < len(items):
            return item_value(items[key], container.origin)
        if isinstance(items, dict) and _hashable(key) and key in items:
            # a gate of a map of booleans a flag fills (Kong's `--feature-gates`): named as karpenter's gates are
            is_gate = isinstance(items[key], bool) and isinstance(key, str) and container.origin.startswith("--")
            return item_value(items[key], f"{container.origin} {key}" if is_gate else container.origin)
        return UNKNOWN

    def _slice(self, file: GoFile, node: tree_sitter.Node, env: dict[str, Value], depth: int) -> Value:
        """`items[:]`, the whole of a list (Reloader joins its `--resource-label-selector` values so), and any
        slice of an empty one; other slices are not followed."""
        whole = all(node.child_by_field_name(bound) is None for bound in ("start", "end", "capacity"))
        value = self.value(file, node.child_by_field_name("operand"), env, depth + 1)
        if isinstance(value, Val) and isinstance(value.value, list) and (whole or not value.value):
            return value
        return UNKNOWN

    def _unary(self, file: GoFile, node: tree_sitter.Node, env: dict[str, Value], depth: int) -> Value:
        operator = parser.text(node.child_by_field_name("operator"))
        operand = self.value(file, node.child_by_field_name("operand"), env, depth + 1)
        if operator in ("&", "*"):
            return operand
        if operator == "!" and isinstance(operand, Val) and isinstance(operand.value, bool):
            return Val(not operand.value, operand.origin)
        if operator == "-" and isinstance(operand, Val) and type(operand.value) is int:
            return Val(-operand.value, operand.origin)
        return UNKNOWN

    def _binary(self, file: GoFile, node: tree_sitter.Node, env: dict[str, Value], depth: int) -> Value:
        operator = parser.text(node.child_by_field_name("operator"))
        left = self.value(file, node.child_by_field_name("left"), env, depth + 1)
        right = self.value(file, node.child_by_field_name("right"), env, depth + 1)
        origin = first_origin(left, right)
        if operator == "&&" and _nil_guarded(node) and isinstance(right, Val) and right.value is False and right.origin:
            # `d != nil && d.Type != nil && *d.Type == "x"`: the test the nil checks guard names what turns it on
            return Val(False, right.origin)
        if operator in ("&&", "||"):
            return logical(operator, left, right, origin)
        function = OPERATORS.get(operator)
        if function is None or not isinstance(left, Val) or not isinstance(right, Val):
            return UNKNOWN
        if (is_struct(left.value) or is_struct(right.value)) and None not in (left.value, right.value):
            return UNKNOWN  # two structs' values are not known, only that one is not nil
        try:
            return Val(function(left.value, right.value), origin)
        except TypeError:
            return UNKNOWN

    def _selector(self, file: GoFile, node: tree_sitter.Node, env: dict[str, Value], depth: int) -> Value:
        operand = node.child_by_field_name("operand")
        name = parser.text(node.child_by_field_name("field"))
        if operand is not None and operand.type == "identifier" and parser.text(operand) in file.imports:
            return self._package_selector(file.imports[parser.text(operand)], name, depth)
        literal = self._struct_literal(file, operand, env) if operand is not None else None
        if literal is not None and operand is not None:
            return self._literal_selector(literal, operand, name, env, depth)
        owner = self.resolver.written_struct(file, operand) if operand is not None else None
        if owner is None and operand is not None and self._listed_item(file, operand):
            return UNKNOWN  # `sa.Namespace` of `for _, sa := range list.Items`: an object's, not a setting's
        if owner is None and operand is not None and _in_an_object(operand):
            return UNKNOWN  # `cluster.Spec.ClusterLinkOptions.CNI` of an object a clientset got: the cluster's
        located = self.resolver.declarations.field(owner, name) if owner is not None else None
        if located is None and owner is not None and self.resolver.declarations.method(owner, name) is not None:
            return Val(A_FUNCTION)  # a method value (metallb's `ConfigChanged: ctrl.SetConfig`): not nil
        if located is None and owner is not None and self._embeds_an_api_type(owner):
            return UNKNOWN  # `cluster.DeletionTimestamp` of a wrapper embedding *appsv1.StatefulSet: the object's
        if (
            located is not None
            and operand is not None
            and (filled := self._flag_filled(file, operand, located[1], env, depth)) is not None
        ):
            return filled
        if _tested_before_its_fill(node):
            return UNKNOWN  # `if c.agent == nil { c.agent, err = NewAgent() }`: before the fill, not after it
        within = operand.child_by_field_name("field") if operand is not None else None  # `Audit` of cfg.Audit.X
        parent = parser.text(within) if within is not None else None
        field_type = located[1].type if located else None
        zero = self._beneath_an_unwritten_field(file, operand, name, field_type) if parent is not None else None
        value = zero if zero is not None else self.fields.value(name, field_type, owner, depth, parent)
        if located is not None and self._nilable(located[1]) and isinstance(value, Val) and value.value == "":
            # the zero of a type not told is taken for "": a func, channel, interface or map's is nil (capa's
            # `if r.awsNodeServiceFactory != nil`, a seam only tests set)
            return Val(None, value.origin, value.unseen)
        return value

    def _literal_selector(
        self, literal: StructLiteral, operand: tree_sitter.Node, name: str, env: dict[str, Value], depth: int
    ) -> Value:
        """A field read on a struct literal: what the literal writes. Of an object a setting chose (external-dns's
        service type filter, built disabled unless --service-type-filter is given), that setting's."""
        found = self.literal_field(literal, name, depth)
        held = env.get(parser.text(operand)) if literal.built_by is not None else None
        if isinstance(found, Val) and not found.origin and isinstance(held, Val) and held.origin:
            return Val(found.value, held.origin, found.unseen)
        return found

    def _embeds_an_api_type(self, owner: TypeRef) -> bool:
        """Whether a struct of the module embeds, itself or through the structs it embeds, a type of the
        Kubernetes API (bitpoke's `MysqlCluster{*api.MysqlCluster}` over a custom resource embedding
        metav1.ObjectMeta): a field the module does not declare is promoted from that object."""
        declarations = self.resolver.declarations
        pending, seen = [declarations.unalias(owner.base)], set()
        while pending:
            struct = pending.pop()
            seen.add(struct)
            for info in declarations.structs.get(struct, ()):
                embedded = declarations.unalias(info.type.base) if info.is_embedded and info.type else None
                if embedded is None or embedded in seen:
                    continue
                if embedded.package.startswith(_API_PACKAGE_PREFIXES):
                    return True
                pending.append(embedded)
        return False

    def _flag_filled(
        self, file: GoFile, operand: tree_sitter.Node, field: FieldInfo, env: dict[str, Value], depth: int
    ) -> Val | None:
        """A field of a flag's own Value type (`flag.Var(&namespaces, …)`, then `namespaces.values`): what its Set
        would fill, empty where the flag is not given; None for another field."""
        if not self._holds_a_flag(file, operand):
            return None
        held = self.value(file, operand, env, depth + 1)
        if isinstance(held, Val) and held.origin.startswith("--") and held.value in ("", None) and not held.unseen:
            empty = zero_value(field.type)
            return Val(empty.value, held.origin) if isinstance(empty, Val) else None
        return None

    def _nilable(self, field: FieldInfo) -> bool:
        """Whether a field's zero value is nil though its type is no pointer: of an anonymous func, channel,
        interface or map type, or of an interface the module declares."""
        declared = field.type
        return field.nilable or (
            declared is not None and not declared.slice and declared.base in self.resolver.declarations.interfaces
        )

    def _beneath_an_unwritten_field(
        self, file: GoFile, operand: tree_sitter.Node | None, name: str, field_type: TypeRef | None
    ) -> Value | None:
        """`cfg.Options.X` where no code writes `Options` of cfg's struct (Fields.beneath_an_unwritten_field)."""
        holder = operand.child_by_field_name("operand") if operand is not None else None
        holder_type = self.resolver.written_struct(file, holder) if holder is not None else None
        if operand is None or holder_type is None:
            return None
        parent = parser.text(operand.child_by_field_name("field"))
        return self.fields.beneath_an_unwritten_field(holder_type, parent, name, field_type)

    def _package_selector(self, package: str, name: str, depth: int) -> Value:
        """`pkg.Name` of an imported package: a constant known by name, or a package variable."""
        if name in _KNOWN_CONSTANTS:
            return Val(_KNOWN_CONSTANTS[name])
        flag = self.flags.by_variable.get((package, name))
        if flag is not None:  # filled by a flag another package defines (`&options.ResourceSelectors`)
            return self.settings.flag_value(flag, depth)
        variable = self.resolver.declarations.variables.get((package, name))
        if variable is not None and variable.value_node is not None:
            # what the package's and its importers' writes leave, as a read in the package itself would
            return self.variables.package_value(package, name, depth)
        if variable is not None:
            # declared without a value: a setting written once (`func init() { Namespace =
            # os.Getenv("NAMESPACE") }`) is told; its zero value is not, the variable may be filled through
            # its address (`flag.StringVar(&config.Namespace, …)`)
            written = self.variables.package_value(package, name, depth)
            return written if isinstance(written, Val) and written.origin else UNKNOWN
        return UNKNOWN

    def _listed_item(self, file: GoFile, operand: tree_sitter.Node) -> bool:
        """Whether a name is the value of a range over a list's `Items` (k8sgpt's `for _, sa := range
        sas.Items`): an object the cluster holds, whose fields no setting fills."""
        declaration = self.resolver.declaration(file, operand) if operand.type == "identifier" else None
        ranged = declaration.ranged_node if declaration is not None else None
        field = (
            ranged.child_by_field_name("field") if ranged is not None and ranged.type == "selector_expression" else None
        )
        return field is not None and parser.text(field) == "Items"

    def literal_field(self, passed: StructLiteral, name: str, depth: int) -> Value:
        """A field of a struct literal: the value it writes, else its zero value (a literal writing its fields
        in order names none)."""
        body = passed.literal.child_by_field_name("body")
        elements = parser.named(body) if body is not None else []
        if name in passed.written or any(element.type != "keyed_element" for element in elements):
            return UNKNOWN
        declared = resolve_type(passed.literal.child_by_field_name("type"), passed.file)
        located = self.resolver.declarations.field(declared, name) if declared is not None else None
        field_type = located[1].type if located is not None else None
        built_by = passed.built_by
        if built_by is not None and declared is not None and self.fields.set_outside_literals(declared, name):
            # a field the code sets on any object (`f.val = &value` of a setter): what every object's holds
            return self.fields.value(name, field_type, declared, depth)
        written = next((value for key, value in keyed_elements(passed.literal) if key == name), None)
        if written is not None:
            env = built_by if built_by is not None else self.parameters(passed.file, written, depth + 1)
            value = self.value(passed.file, written, env, depth + 1)
            if built_by is not None and not (isinstance(value, Val) and _is_scalar(value.value)):
                # a map, set or list an object starts with is filled as the program runs (envoy gateway's
                # `allAssociatedBackendRefs: make(…)`, `set.Insert(…)`): what every object's holds
                return self.fields.value(name, field_type, declared, depth) if declared is not None else UNKNOWN
            return value
        if located is not None:
            # a field promoted from an embedded struct of the module: what that struct's literal writes
            # (metallb's `&k8s.Config{Listener: k8s.Listener{ServiceChanged: setBalancer}}`)
            promoted = declared is not None and located[0] != declared
            inner = self._embedding_literal(passed, name) if promoted else None
            if inner is not None:
                return self.literal_field(StructLiteral(passed.file, inner), name, depth)
            if promoted and self._embeds_a_value(passed, located[0]):
                # an object of the module given for the embedded struct (`Options{Factory: f}`): what the field
                # of any such object holds, its flag's default among them
                return self.fields.value(name, field_type, located[0], depth)
            return zero_value(located[1].type)
        embedded = _embedded_literal(passed.file, passed.literal, name)
        return self.literal_field(StructLiteral(passed.file, embedded), name, depth) if embedded else UNKNOWN

    def _embedding_literal(self, passed: StructLiteral, name: str) -> tree_sitter.Node | None:
        """The literal an embedded struct of a struct literal is written with (`Listener: Listener{…}`, or its
        address), where that struct has field `name`, itself or promoted."""
        for key, value in keyed_elements(passed.literal):
            inner = struct_literal_of(value)
            if inner is None:
                continue
            ref = resolve_type(inner.child_by_field_name("type"), passed.file)
            if ref is not None and ref.name == key and self.resolver.declarations.field(ref, name) is not None:
                return inner
        return None

    def _embeds_a_value(self, passed: StructLiteral, declaring: TypeRef) -> bool:
        """Whether a struct literal gives its embedded struct `declaring` (`Factory: f`, `Factory: newFactory()`)
        as a value other than a literal of its own."""
        return any(
            key == declaring.name and struct_literal_of(value) is None for key, value in keyed_elements(passed.literal)
        )

    def _holds_a_flag(self, file: GoFile, name: tree_sitter.Node) -> bool:
        """Whether a variable is the one a flag definition fills (`flag.Var(&namespaces, …)`)."""
        return name.type == "identifier" and variable_key(file, name, self.resolver) in self.flags.by_variable

    def memoized(self, key: object, compute: Callable[[], Value]) -> Value:
        """Evaluate once per key; a key met again while it is computed (a cycle) is unknown."""
        unknown: Value = UNKNOWN
        return self.once(key, compute, unknown)

    def once(self, key: object, compute: Callable[[], _T], in_cycle: _T) -> _T:
        """Compute once per key; a key met again while it is computed (a cycle) gives `in_cycle`. A result
        that an evaluation cut short at the depth limit went into is computed again when asked from nearer the
        start than it last was: the keys hold no depth, and the same key asked for with more steps to spare may
        be known (a variable first read from deep in a loop's guard, then by the early return beside its
        assignment; hive's managed domains, first read at the end of another package's chain of helpers).
        Only from nearer each time: cut-short keys under cut-short keys, each recomputed every time, would take
        exponential time."""
        if key in self._memo:
            cached = self._memo[key]
            return in_cycle if cached is _IN_PROGRESS else cached  # type: ignore[return-value]
        depth = self._depth
        retried = self._cut_short.get(key)
        # …or from fewer evaluations deep (hypershift's `hyperv1.NonePlatform` first read past MAX_NESTING)
        if retried is not None and retried[0] <= depth and retried[2] <= self._nesting:
            return retried[1]  # type: ignore[return-value]
        self._memo[key] = _IN_PROGRESS
        cutoffs = self.cutoffs
        try:
            result = compute()
        finally:
            del self._memo[key]
            self._depth = depth
        if self.cutoffs == cutoffs:
            self._memo[key] = result
            self._cut_short.pop(key, None)
        else:
            self._cut_short[key] = (depth, result, self._nesting)
        return result

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
        configuration = self.settings.configuration_read(package, name, first, len(values))
        if configuration is not None:
            return configuration
        viper = self.settings.viper_read(file, function, package, name, first, depth)
        if viper is not None:
            return viper
        flag = self.settings.flag_read(file, node, name, first, values)
        if flag is not None:
            value = self.settings.flag_value(flag, depth)
            if name == "GetString" and isinstance(value, Val) and isinstance(value.value, list):
                # viper's GetString casts a list to "" (cast.ToString knows no slices)
                return Val("", value.origin, value.unseen)
            return value
        if package == SAMBER_LO:
            return self._lo_choice(file, name, first, values, env, depth)
        built_in = self._built_in(file, function, package, name, first, values, env, depth)
        if built_in is not None:
            return built_in
        presence = self._option_presence(file, function, name, env, depth) if not package and not values else None
        if presence is not None:
            return presence
        return self._module_call(file, node, function, values, env, depth)

    def _option_presence(
        self, file: GoFile, function: tree_sitter.Node | None, name: str, env: dict[str, Value], depth: int
    ) -> Value | None:
        """samber/mo's `opt.IsPresent()` and `IsAbsent()` of an Option that holds its zero value: absent (Kong's
        `--kong-admin-svc`, whose own Value fills the Option only when the flag is given); None where the
        Option may hold one, or the method is another's."""
        if name not in ("IsPresent", "IsAbsent") or function is None or function.type != "selector_expression":
            return None
        operand = function.child_by_field_name("operand")
        typed = self.resolver.type_of(file, operand) if operand is not None else None
        if operand is None or typed is None or self.resolver.declarations.unalias(typed.base) != _MO_OPTION:
            return None
        held = self.value(file, operand, env, depth + 1)
        if not isinstance(held, Val) or held.unseen or held.value not in ("", None):
            return None
        return Val(name == "IsAbsent", held.origin)

    def _module_call(
        self,
        file: GoFile,
        node: tree_sitter.Node,
        function: tree_sitter.Node | None,
        values: list[tree_sitter.Node],
        env: dict[str, Value],
        depth: int,
    ) -> Value:
        """What a call of a module function or method returns, or of a function literal called in place."""
        if function is not None and function.type == "func_literal" and not values:
            # a default computed in place (glassflow's `func() bool { if b, err := strconv.ParseBool(…); … }()`)
            return self.returned(file, function, CallBindings(function, dict(env)), depth + 1)
        info = self.resolver.callee(file, node) or self._implementation_method(function, env)
        if info is not None and depth >= _CALL_DEPTH:
            self.cutoffs += 1
        elif info is not None:
            bindings = self.call_bindings(file, node, info, env, depth)
            return self.returned(info.file, info.node, bindings, depth + 1)
        held = self._held_literal_function(file, function) if not values else None
        if held is not None:
            return self.returned(held[0], held[1], CallBindings(held[1], {}), depth + 1)
        return UNKNOWN

    def _implementation_method(self, function: tree_sitter.Node | None, env: dict[str, Value]) -> FunctionInfo | None:
        """The method a call through an interface runs where the evaluation knows the type the interface holds
        (bound by `Guards`, which follows a method up to the calls through an interface that reach it)."""
        operand = (
            function.child_by_field_name("operand") if function and function.type == "selector_expression" else None
        )
        held = env.get(parser.text(operand)) if operand is not None and operand.type == "identifier" else None
        if function is None or not isinstance(held, Val) or not isinstance(held.value, Implementation):
            return None
        key = FunctionKey(held.value.package, held.value.receiver, parser.text(function.child_by_field_name("field")))
        return self.resolver.declarations.functions.get(key)

    def call_bindings(
        self, file: GoFile, call: tree_sitter.Node, info: FunctionInfo, env: dict[str, Value], depth: int
    ) -> CallBindings:
        """The parameters (and receiver) of the module function a call calls, bound to what the call passes."""
        function = call.child_by_field_name("function")
        arguments = call.child_by_field_name("arguments")
        values = parser.named(arguments) if arguments is not None else []
        bindings = self.arguments_bound(file, info, values, env, depth + 1)
        receiver = receiver_name(info.node)
        operand = function.child_by_field_name("operand") if function is not None else None
        if receiver and operand is not None and function is not None and function.type == "selector_expression":
            # `cfg.Watch.Namespaces.Len()`: the method reads the value it is called on
            bindings[parser.text(receiver)] = self.value(file, operand, env, depth + 1)
        literal = frozenset(
            p.name for p in info.parameters if p.index < len(values) and literal_value(values[p.index]) is not None
        )
        return CallBindings(info.node, bindings, literal)

    def _held_literal_function(
        self, file: GoFile, function: tree_sitter.Node | None
    ) -> tuple[GoFile, tree_sitter.Node] | None:
        """The function literal a variable called without arguments holds, as it is or computed once
        (volsync's `var getPullSecrets = sync.OnceValue(func() map[string]string {…})`), with its file."""
        if function is None or function.type not in ("identifier", "selector_expression"):
            return None
        declaring, value = self.resolver.held_value(file, function) or (file, function)
        if value.type == "call_expression" and _computes_once(declaring, value):
            value = parser.named(value.child_by_field_name("arguments") or value)[0]
        return (declaring, value) if value.type == "func_literal" else None

    def _built_in(
        self,
        file: GoFile,
        function: tree_sitter.Node | None,
        package: str,
        name: str,
        first: Value,
        values: list[tree_sitter.Node],
        env: dict[str, Value],
        depth: int,
    ) -> Value | None:
        """len, append, make, the strings package and conversions; None for any other call."""
        is_builtin = function is not None and function.type == "identifier"
        if name == "len" and isinstance(first, Val) and isinstance(first.value, str | list | dict | tuple | None):
            return Val(len(first.value or ()), first.origin)
        if name == "append" and is_builtin:
            return self._appended(file, first, values, env, depth)
        if package in ("strconv", "strings", "slices") and isinstance(first, Val):
            found = _standard_library(
                package, name, first, lambda: [self.value(file, v, env, depth + 1) for v in values[1:]]
            )
            if found is not None:
                return found
        if (package == _LABELS and name in (*_SELECTOR_PARSERS, *_PRINTED_EMPTY)) or (name == "String" and not values):
            return self._selector_string(file, function, name, first, env, depth)
        if _empty_selector(function, package, name, values):
            return Val("")  # `labels.SelectorFromSet(nil)`, `labels.Set{}.AsSelector()`: prints "", selects everything
        if name == "make" and is_builtin:
            return self._made(file, values, env, depth)
        if len(values) == 1 and (
            (package in _POINTER_PACKAGES and name in _POINTER_HELPERS) or (name == "new" and is_builtin)
        ):
            # `ptr.To(true)`, `pointer.String("x")`, Go 1.26's `new(true)`: a pointer reads as what it points to
            # (`new(T)` of a type gives no value: its argument is no expression the evaluator knows)
            return first
        if len(values) == 1 and self._converts(file, function, package, name):
            return first  # `TenancyMode(os.Getenv(…))`: a string (or bool, int) under another name
        return None

    def _appended(
        self, file: GoFile, first: Value, values: list[tree_sitter.Node], env: dict[str, Value], depth: int
    ) -> Value:
        """`append(list, items…)`, and `append(list, more...)` of a known list `more`: its items."""
        spread = values[-1] if len(values) == 2 and values[-1].type == "variadic_argument" else None
        if spread is not None:
            items = self.value(file, parser.first_named(spread), env, depth + 1)
            if not isinstance(items, Val) or not isinstance(items.value, list | None):
                return UNKNOWN
            return appended(first, [item_value(item, items.origin, items.unseen) for item in items.value or ()])
        if any(item.type == "variadic_argument" for item in values[1:]):
            return UNKNOWN
        return appended(first, [self.value(file, item, env, depth + 1) for item in values[1:]])

    def _made(self, file: GoFile, values: list[tree_sitter.Node], env: dict[str, Value], depth: int) -> Value:
        """`make(…)` of nothing yet: an empty list or map. A channel holds what the program sends it as it runs,
        and `make([]T, n)` n items the program fills (`copy(out, in)`): a loop over either is no condition."""
        if values and values[0].type == "channel_type":
            return UNKNOWN
        length = self.value(file, values[1], env, depth + 1) if len(values) > 1 else Val(0)
        if not isinstance(length, Val) or length.value != 0:
            return UNKNOWN
        return Val([] if values and values[0].type == "slice_type" else {})  # a list appends to, a map is written

    def _lo_choice(
        self, file: GoFile, name: str, first: Value, values: list[tree_sitter.Node], env: dict[str, Value], depth: int
    ) -> Value:
        """samber/lo's `FirstOr(list, fallback)` (alauda redis-operator's `lo.FirstOr([]string{os.Getenv(
        "WATCH_ALL_NAMESPACES")}, os.Getenv("WATCH_NAMESPACE"))` is the first variable, never the fallback) and
        `Ternary(condition, a, b)`; `Must(f())`, which panics on f's error, is f's first result (Kong's default
        feature gates, `lo.Must(managercfg.NewFeatureGates(nil))`); any other of its functions gives an unknown
        value."""
        if name == "Must" and values:
            return result_at(first, 0) if len(values) == 1 else first
        if name == "Ternary" and len(values) == 3:
            if not isinstance(first, Val) or not isinstance(first.value, bool):
                return UNKNOWN
            return self.value(file, values[1 if first.value else 2], env, depth + 1)
        if name != "FirstOr" or len(values) != 2:
            return UNKNOWN
        literal = values[0]
        body = literal.child_by_field_name("body") if literal.type == "composite_literal" else None
        if body is not None:  # the first item as written, with its origin (a list's value keeps none per item)
            items = parser.named(body)
            if items:
                return self.value(file, parser.first_named(items[0]) or items[0], env, depth + 1)
        elif not isinstance(first, Val) or not isinstance(first.value, list | None):
            return UNKNOWN
        elif first.value:
            return item_value(first.value[0], first.origin, first.unseen)
        return self.value(file, values[1], env, depth + 1)

    def _selector_string(
        self,
        file: GoFile,
        function: tree_sitter.Node | None,
        name: str,
        first: Value,
        env: dict[str, Value],
        depth: int,
    ) -> Value | None:
        """`labels.Parse(*labelFlag)`: a selector that prints as the string it parsed, with no error (chaoskube's
        --labels, empty by default: it selects everything); `selector.String()` of one, that string; and
        `labels.Everything()` and `labels.Nothing()`, which both print "" (katalyst's flag defaulting to
        `labels.Nothing().String()`, parsed back: every Pod)."""
        if name in _PRINTED_EMPTY:
            return Val("")
        if name != "String":
            if isinstance(first, Val) and isinstance(first.value, str):
                return Val((first.value, None), first.origin, first.unseen)
            return None
        operand = function.child_by_field_name("operand") if function is not None else None
        printed = self.value(file, operand, env, depth + 1) if operand is not None else UNKNOWN
        return printed if _is_string(printed) else None

    def _converts(self, file: GoFile, function: tree_sitter.Node | None, package: str, name: str) -> bool:
        """Whether a call is a conversion to a basic type or a module type declared over one."""
        if function is None or function.type not in ("identifier", "selector_expression"):
            return False
        if function.type == "identifier" and name in _BASIC_TYPES and self.resolver.declaration(file, function) is None:
            return True
        declared = TypeRef(package or file.package_path, name)
        if declared not in self.resolver.declarations.aliases:
            return False
        target = self.resolver.declarations.unalias(declared)
        return target.package == "" and target.name in _BASIC_TYPES and not target.pointer and not target.slice

    def arguments_bound(
        self, file: GoFile, info: FunctionInfo, values: list[tree_sitter.Node], env: dict[str, Value], depth: int
    ) -> dict[str, Value]:
        """A function's parameters bound to what one call of it passes (`values`, read in the caller's `env`); a
        variadic one as `variadic_argument` tells."""
        variadic = info.parameters[-1] if info.parameters and info.parameters[-1].variadic else None
        bound = {
            p.name: self.value(file, values[p.index], env, depth)
            for p in info.parameters
            if p.index < len(values) and p is not variadic
        }
        if variadic is not None:
            bound[variadic.name] = self._variadic_value(file, values, variadic.index, env, depth)
        return bound

    def returned(self, file: GoFile, function: tree_sitter.Node, env: dict[str, Value], depth: int) -> Value:
        """The value the first return statement whose guards hold gives, in source order."""
        key = ("returned", file.path, function.start_byte, bindings_key(env))
        return self.memoized(key, lambda: self._returned_or_run(file, function, env, depth))

    def _returned_or_run(self, file: GoFile, function: tree_sitter.Node, env: dict[str, Value], depth: int) -> Value:
        """What the returns' guards tell; where they cannot tell and the function loops over a list, what running
        it for this call gives (volcano's isControllerEnabled over `--controllers`)."""
        value = self._returned(file, function, env, depth)
        if value is UNKNOWN and isinstance(env, CallBindings) and has_range_loop(function):
            ran = Run(self, file, depth).returned(function, env)
            if ran is not None:
                return ran
        return value

    def _returned(self, file: GoFile, function: tree_sitter.Node, env: dict[str, Value], depth: int) -> Value:
        """Returns that fail are passed over: the default deployment does not fail (a helper that first
        checks `OPERATOR_NAMESPACE` is set returns what it computes after the check)."""
        fails = returns_error(function)
        passed_over = ""  # what the returns before this one read: the value depends on it too
        failures = False  # a return that fails was passed over: whether the call fails is not known
        failed: Value = UNKNOWN  # the error of a failure the default deployment meets
        failure: tuple[object, ...] | None = None  # what that failure returns
        not_found: tuple[object, ...] | None = None  # what a failed read of the cluster returns
        possible: list[Value] = []  # what the returns under guards that cannot be told give
        for statement in return_statements(function):
            guards = list(self.guarding.guards(file, statement, env))
            if fails and returns_failure(statement):
                if failed is UNKNOWN and _configured_and_holding(guards):
                    # `if !found { return "", fmt.Errorf(…) }` of an unset variable: a caller that exits on the
                    # error runs only where it is set, one that goes on (hbase-k8s-operator logs that it watches
                    # every namespace) has what this return gives
                    failed = Val(AN_ERROR, next(guard.origin for guard in guards if guard.origin))
                    failure = self._failure(file, statement, env, depth)
                elif not_found is None and _fails_a_cluster_read(self.resolver, file, statement):
                    # `if err := c.Get(…); err != nil { return false, err }`: the object may well be missing
                    not_found = self._failure(file, statement, env, depth)
                failures = True
                continue
            # one guard that fails keeps the return from running, whatever the others would say
            # (`if val := os.Getenv(name); val != "" { if strings.EqualFold(val, "true") { return true } }`)
            if any(guard.holds is False for guard in guards):
                passed_over = passed_over or next((guard.origin for guard in guards if guard.origin), "")
            elif any(guard.holds is None for guard in guards):
                # which return runs is not known; where every one that may gives one value, that is the value
                # (humio's TLSEnabled: `UseCertManager()`, or `UseCertManager() && *tls.Enabled`, on every path)
                items = return_items(statement)
                if failures or len(items) != 1:
                    return UNKNOWN
                possible.append(self.value(file, items[0], env, depth + 1))
            else:
                evaluated = [self.value(file, item, env, depth + 1) for item in return_items(statement)]
                if possible:
                    return _agreed([*possible, *evaluated]) if len(evaluated) == 1 else UNKNOWN
                if failures and evaluated:  # at run time it may fail (an object not found): err stays unknown
                    evaluated[-1] = failed
                return _given_back(evaluated, _read_by(guards) or passed_over, passed_over, failure, not_found)
        return UNKNOWN

    def _failure(
        self, file: GoFile, statement: tree_sitter.Node, env: dict[str, Value], depth: int
    ) -> tuple[object, ...]:
        """What a failing return gives: its values, the error last."""
        evaluated = [self.value(file, item, env, depth + 1) for item in return_items(statement)][:-1]
        return (*(item.value if isinstance(item, Val) else UNKNOWN for item in evaluated), AN_ERROR)

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
                # a map of booleans holds each (feature gates' defaults); any other map is read as its keys
                held = element.child_by_field_name("value")
                held = (parser.first_named(held) or held) if held is not None else None
                # a map of strings holds them too (a table of aliases read by key)
                written = literal_value(held) if held is not None else None
                keys[value.value] = (
                    held.type == "true"
                    if held is not None and held.type in ("true", "false")
                    else written.value
                    if written is not None and isinstance(written.value, str)
                    else True
                )
            return Val(keys)
        if type_node.type == "slice_type" or self._is_slice_type(file, type_node):
            # a slice, also of a type the module declares as one (`type crdsToWatch []string`)
            items = [self.value(file, parser.first_named(e) or e, env, depth + 1) for e in parser.named(body)]
            if any(not isinstance(item, Val) for item in items):
                return Val([UNKNOWN] * len(items))
            return Val([item.value for item in items if isinstance(item, Val)], first_origin(*items))
        if type_node.type in ("type_identifier", "qualified_type") and self._is_struct(file, type_node):
            return Val(self._struct(file, node, type_node, env))
        return UNKNOWN

    def _struct(
        self, file: GoFile, literal: tree_sitter.Node, type_node: tree_sitter.Node, env: dict[str, Value]
    ) -> object:
        """A struct literal of the module's: not nil (envoy gateway's `e.Provider == nil` of a defaults
        constructor's `Provider: &Provider{…}`), and where what reads it reads what it writes, those fields."""
        if self._passed_to_a_reader(file, literal) or self._held_for_readers(file, literal):
            return StructLiteral(file, literal)
        written = self._pointed_to_for_readers(file, literal)
        if written is not None:
            return StructLiteral(file, literal, written)
        if isinstance(env, CallBindings) and self.fields.built_per_object(file, type_node):
            # built by one call being evaluated (rancher's `SCIM = newFeature("scim", false)` returning
            # `&Feature{def: def}`): that object's fields are what that call gave
            return StructLiteral(file, literal, built_by=env)
        return A_STRUCT

    def _struct_literal(self, file: GoFile, operand: tree_sitter.Node, env: dict[str, Value]) -> StructLiteral | None:
        """The struct literal whose fields a name's selector reads: one a parameter is passed, or a local holds."""
        if operand.type != "identifier":
            return None
        name = parser.text(operand)
        # `in` binds a parameter on its first read, which `get` does not ask for
        passed = env[name] if name in env else None  # noqa: SIM401
        if isinstance(passed, Val) and isinstance(passed.value, StructLiteral):
            return passed.value
        if passed is not None:
            return None
        return self._held_literal(file, operand) or self._constructed_literal(file, operand, env)

    def _held_literal(self, file: GoFile, name: tree_sitter.Node) -> StructLiteral | None:
        """The struct literal a local is declared with, where its function only reads its fields or hands it on
        by value (k8s-operator-cloudflare's `loadOptions := config.LoadOptions{SecretName: os.Getenv(…)}`, then
        `config.WatchOptions{SecretName: loadOptions.SecretName}`): each field is what the literal writes."""
        declaration = self.resolver.declaration(file, name)
        # a value, not `&Config{}`: a pointer handed on may be filled (`flag.StringVar(&cfg.Namespace, …)`, a decoder)
        literal = declaration.value_node if declaration is not None and declaration.value_index == 0 else None
        type_node = literal.child_by_field_name("type") if literal is not None else None
        if declaration is None or literal is None or literal.type != "composite_literal" or type_node is None:
            return None
        function = file.enclosing_function(name)
        if function is None or not self._is_struct(file, type_node):
            return None
        uses = [use for use in self._uses_in(file, function, parser.text(name)) if use != declaration.node]
        return StructLiteral(file, literal) if all(_field_read(use) and not _addressed(use) for use in uses) else None

    def _constructed_literal(self, file: GoFile, name: tree_sitter.Node, env: dict[str, Value]) -> StructLiteral | None:
        """The struct literal a local gets from a module constructor returning one (`opts :=
        DefaultPatchOptions()`, `return &PatchOptions{Strict: true}`) or points to (`o := &Options{}`), where its
        function only reads its fields, or hands it to calls in a loop over a list this call leaves empty (`for
        _, opt := range options { opt(opts) }`, no option passed): each field is what the literal writes."""
        declaration = self.resolver.declaration(file, name)
        value = declaration.value_node if declaration is not None and declaration.value_index == 0 else None
        info = self.resolver.callee(file, value) if value is not None and value.type == "call_expression" else None
        returned = return_statements(info.node) if info is not None else []
        items = return_items(returned[0]) if len(returned) == 1 else []
        literal = items[0] if len(items) == 1 else value  # `o := &Options{}` itself
        literal_file = info.file if info is not None else file
        if literal is not None and parser.is_unary(literal, "&"):
            literal = literal.child_by_field_name("operand")
        type_node = literal.child_by_field_name("type") if literal is not None else None
        if literal is None or literal.type != "composite_literal" or type_node is None:
            return None
        function = file.enclosing_function(name)
        if function is None or declaration is None or not self._is_struct(literal_file, type_node):
            return None
        uses = [use for use in self._uses_in(file, function, parser.text(name)) if use != declaration.node]
        for use in uses:
            handed = use.parent is not None and use.parent.type == "argument_list"
            if handed and not (self._in_a_loop_over_nothing(file, use, env) or self._handed_to_a_reader(file, use)):
                return None
            if not handed and not (_field_read(use) and not _addressed(use)):
                return None
        return StructLiteral(literal_file, literal)

    def _held_for_readers(self, file: GoFile, literal: tree_sitter.Node) -> bool:
        """Whether a struct literal is what a local is declared with (`gknn := common.GKNN{…}`, not its address)
        that its function only reads the fields of and hands to module functions reading them (gateway-api-
        inference-extension's manager options keyed by `gknn.Namespace`): what each field holds there is what
        the literal writes."""
        name = assigned_to(literal)
        function = file.enclosing_function(literal)
        if name is None or name.type != "identifier" or function is None:
            return False
        handed = [
            use
            for use in self._uses_in(file, function, parser.text(name))
            if use.parent is not None and use.parent.type == "argument_list"
        ]
        held = self._held_literal(file, handed[0]) if handed else None  # the declaration as its uses see it
        return held is not None and held.literal == literal and all(self._handed_to_a_reader(file, u) for u in handed)

    def _pointed_to_for_readers(self, file: GoFile, literal: tree_sitter.Node) -> frozenset[str] | None:
        """For a local pointing to a struct literal (`cfg := &k8s.Config{…}`) that its function only reads the
        fields of, writes fields of, and hands to module functions reading them (metallb's `k8s.New(cfg)`):
        the fields it writes, which the literal does not tell. None where a use may change the struct otherwise
        (a method call, a field's address, the pointer stored or returned)."""
        held = literal.parent
        if held is None or not parser.is_unary(held, "&"):
            return None
        name = assigned_to(held)
        function = file.enclosing_function(literal)
        if name is None or name.type != "identifier" or function is None:
            return None
        written: set[str] = set()
        for use in self._uses_in(file, function, parser.text(name)):
            outer = use.parent
            if use == name or outer is None:
                continue
            if outer.type == "argument_list":
                if not self._handed_to_a_reader(file, use):
                    return None
            elif outer.type == "selector_expression" and outer.child_by_field_name("operand") == use:
                if is_written(_outermost_part(outer)):  # `cfg.F = …`, also `cfg.F.G = …` and `cfg.F[k] = …`
                    written.add(parser.text(outer.child_by_field_name("field")))
                elif not _field_read(use) or _addressed(use):
                    return None  # a method (`cfg.Default()`) or a field's address (`flag.StringVar(&cfg.X, …)`)
            else:
                return None
        return frozenset(written)

    def _handed_to_a_reader(self, file: GoFile, use: tree_sitter.Node, hops: int = 2) -> bool:
        """Whether an argument goes to a module function that only reads its fields, itself or through the
        functions it hands it to (kueue's `executePatch(obj, opts, …)`)."""
        received = self._receiving_parameter(file, use) if hops else None
        if received is None:
            return False
        info, name = received
        for inner in uses_in(info.node, name):
            if inner.parent is not None and inner.parent.type == "argument_list":
                if not self._handed_to_a_reader(info.file, inner, hops - 1):
                    return False
            elif not (_field_read(inner) and not _addressed(inner)):
                return False
        return True

    def _receiving_parameter(self, file: GoFile, argument: tree_sitter.Node) -> tuple[FunctionInfo, str] | None:
        """The module function an argument is passed to, and the name of the parameter that takes it."""
        received = self.resolver.receiving_parameter(file, argument)
        return (received[1], received[2].name) if received is not None else None

    def _in_a_loop_over_nothing(self, file: GoFile, node: tree_sitter.Node, env: dict[str, Value]) -> bool:
        """Whether a node sits in a `for … range` over a list that is empty here."""
        current = node.parent
        while current is not None and current.type not in ("function_declaration", "method_declaration"):
            clause = next((c for c in current.named_children if c.type == "range_clause"), None)
            if current.type == "for_statement" and clause is not None:
                ranged = self.value(file, clause.child_by_field_name("right"), env, 1)
                if isinstance(ranged, Val) and ranged.value == []:
                    return True
            current = current.parent
        return False

    def _passed_to_a_reader(self, file: GoFile, literal: tree_sitter.Node) -> bool:
        """Whether a struct literal is an argument of a call (`Gather(ctx, cs, &Config{})`) to a module function
        whose parameter only reads the literal's fields or hands it on: nothing there writes a field before it
        is read (a method could, `cfg.Default()`). A literal held in a local may have its fields written after."""
        addressed = literal.parent
        argument = addressed if addressed is not None and addressed.type == "unary_expression" else literal
        received = self._receiving_parameter(file, argument)
        return received is not None and all(_field_read(use) for use in uses_in(received[0].node, received[1]))

    def _is_slice_type(self, file: GoFile, type_node: tree_sitter.Node) -> bool:
        """Whether a literal's type is one the module declares as a slice."""
        if type_node.type not in ("type_identifier", "qualified_type"):
            return False
        declared = resolve_type(type_node, file)
        underlying = self.resolver.declarations.unalias(declared) if declared is not None else None
        return underlying is not None and underlying != declared and underlying.slice

    def _is_struct(self, file: GoFile, type_node: tree_sitter.Node) -> bool:
        """Whether a literal's type is a struct the module declares."""
        declared = resolve_type(type_node, file)
        return (
            declared is not None
            and self.resolver.declarations.unalias(declared.base) in self.resolver.declarations.structs
        )


def _embedded_literal(file: GoFile, literal: tree_sitter.Node, name: str) -> tree_sitter.Node | None:
    """The literal of a struct of another module, embedded in a struct literal, that writes the promoted field
    `name` (`GKNN{NamespacedName: types.NamespacedName{Namespace: ns}, GroupKind: …}`); None where none or
    several do (which struct declares a field another module's does not tell)."""
    found = [
        value
        for key, value in keyed_elements(literal)
        if value.type == "composite_literal"
        and (ref := resolve_type(value.child_by_field_name("type"), file)) is not None
        and ref.name == key
        and ref.package not in ("", file.package_path)
        and any(inner == name for inner, _ in keyed_elements(value))
    ]
    return found[0] if len(found) == 1 else None


def _computes_once(file: GoFile, call: tree_sitter.Node) -> bool:
    """`sync.OnceValue(f)` or `sync.OnceValues(f)`: a function that returns what `f` does."""
    function = call.child_by_field_name("function")
    if function is None or function.type != "selector_expression":
        return False
    operand = function.child_by_field_name("operand")
    return (
        operand is not None
        and file.imports.get(parser.text(operand)) == "sync"
        and parser.text(function.child_by_field_name("field")) in ("OnceValue", "OnceValues")
        and len(parser.named(call.child_by_field_name("arguments") or call)) == 1
    )


def _agreed(values: list[Value]) -> Value:
    """The one value every return that may run gives, where a setting decides each (`UseCertManager() && …`),
    else unknown: a literal `false` after a loop over an object's items says nothing of the deployment."""
    first = values[0]
    if not all(isinstance(item, Val) and type(item.value) is bool and item.origin for item in values):
        return UNKNOWN
    if any(isinstance(item, Val) and item.value != getattr(first, "value", None) for item in values):
        return UNKNOWN
    return Val(getattr(first, "value", None), first_origin(*values))


def _read_by(guards: list[Guard]) -> str:
    """The settings a return's guards read: the value it gives depends on them (WATCH_NAMESPACE unset), each
    early return before it on its own (Reloader's --namespaces, then KUBERNETES_NAMESPACE): any one of them
    given changes it."""
    origin = ""
    for read in dict.fromkeys(guard.origin for guard in guards if guard.origin):
        origin = either_origin(origin, read) if origin else read
    return origin


def _given_back(
    evaluated: list[Value],
    origin: str,
    passed_over: str,
    failure: tuple[object, ...] | None,
    not_found: tuple[object, ...] | None,
) -> Value:
    """The value of the return that runs: its one result, or its results with what a failure passed over gives
    instead (`failure`, where the call fails by default; `not_found`, where a read of the cluster may fail)."""
    if len(evaluated) == 1:
        first = evaluated[0]
        if isinstance(first, Val) and (fallen := _fallen_back(first, passed_over)) is not None:
            # `envOr("WATCH_NAMESPACE", flagValue)`: empty only while both are, either one sets it
            return Val(first.value, fallen, first.unseen)
        # `return os.Getenv("POD_NAMESPACE")`: still a value the code does not show
        return Val(first.value, first.origin or origin, first.unseen) if isinstance(first, Val) else first
    items = tuple(item.value if isinstance(item, Val) else UNKNOWN for item in evaluated)
    first = evaluated[0] if evaluated else UNKNOWN
    unseen = isinstance(first, Val) and first.unseen  # `return ns, nil`
    if isinstance(first, Val) and origin == passed_over and (fallen := _fallen_back(first, passed_over)) is not None:
        # percona's `ns, found := os.LookupEnv("PGO_TARGET_NAMESPACE"); if found { return ns, nil }`, then the same
        # of WATCH_NAMESPACE: either one sets what is returned
        origin = fallen
    results: tuple[object, ...] = items
    if failure is not None and len(failure) == len(items):
        results = Results(items, failure)
    elif not_found is not None and len(not_found) == len(items):
        # a caller going on past the error (existinginfra's `exists, _ := a.kubeadmCertsExists(ctx)`) reads either
        results = Results(items, not_found, certain=False)
    return Val(results, origin or first_origin(*evaluated), unseen)


def _fails_a_cluster_read(resolver: Resolver, file: GoFile, statement: tree_sitter.Node) -> bool:
    """Whether a failing return sits under `if err != nil` of an error a Get or List returned (a read of the
    cluster, whose object may not exist), in its function."""
    current = statement.parent
    while current is not None and current.type not in ("function_declaration", "method_declaration", "func_literal"):
        condition = current.child_by_field_name("condition") if current.type == "if_statement" else None
        if condition is not None and condition.type == "binary_expression":
            tested = condition.child_by_field_name("left")
            declaration = (
                resolver.declaration(file, tested) if tested is not None and tested.type == "identifier" else None
            )
            value = declaration.value_node if declaration is not None else None
            if value is not None and value.type == "call_expression" and method_name(value) in ("Get", "List"):
                return (
                    parser.text(condition.child_by_field_name("operator")) == "!="
                    and parser.text(condition.child_by_field_name("right")) == "nil"
                )
        current = current.parent
    return False


def _fallen_back(value: Val, passed_over: str) -> str | None:
    """The origin of an empty value a setting gives, returned after a return another setting turns on was passed
    over (a variable, else a flag): both (`A or B`), or its own where it names the passed-over one already; None
    for any other value."""
    if value.value not in ("", None) or not value.origin or not passed_over:
        return None
    return value.origin if passed_over in value.origin.split(" or ") else f"{passed_over} or {value.origin}"


_POINTER_PACKAGES = frozenset({"k8s.io/utils/ptr", "k8s.io/utils/pointer"})
_LABELS = "k8s.io/apimachinery/pkg/labels"
_SELECTOR_PACKAGES = frozenset({_LABELS, "k8s.io/apimachinery/pkg/fields"})
_MO_OPTION = TypeRef("github.com/samber/mo", "Option")
_SELECTOR_PARSERS = frozenset({"Parse"})
# selectors that print as "" (`labels.Nothing().String()` as a flag's default, parsed back it selects everything)
_PRINTED_EMPTY = frozenset({"Everything", "Nothing"})
# k8s.io/utils' constructors of a pointer to their argument (ptr.To; pointer.Bool and the deprecated …Ptr forms)
_POINTER_HELPERS = frozenset(
    {"To", "Bool", "String", "Int", "Int32", "Int64", "BoolPtr", "StringPtr", "Int32Ptr", "Int64Ptr", "Duration"}
)


def _empty_selector(function: tree_sitter.Node | None, package: str, name: str, values: list[tree_sitter.Node]) -> bool:
    """Whether a call makes an empty label or field selector: `SelectorFromSet(nil)` (or of `Set{}`),
    `SelectorFromValidatedSet` alike, `NewSelector()`, `Set{}.AsSelector()`."""
    if name == "AsSelector" and not values:
        operand = function.child_by_field_name("operand") if function is not None else None
        return operand is not None and _is_empty_set(operand)
    if package not in _SELECTOR_PACKAGES:
        return False
    if name == "NewSelector":
        return not values
    empty = len(values) == 1 and (parser.text(values[0]) == "nil" or _is_empty_set(values[0]))
    return name in ("SelectorFromSet", "SelectorFromValidatedSet") and empty


def _is_empty_set(node: tree_sitter.Node) -> bool:
    """`labels.Set{}`, `fields.Set{}`: a set literal with no pairs."""
    typed = node.child_by_field_name("type") if node.type == "composite_literal" else None
    body = node.child_by_field_name("body")
    return typed is not None and parser.text(typed).endswith("Set") and (body is None or not parser.named(body))


def _tested_before_its_fill(read: tree_sitter.Node) -> bool:
    """Whether a field is tested empty in the condition of an `if` whose branch writes it (tarian's `if
    c.clusterAgent == nil { …; c.clusterAgent, err = clusteragent.NewClusterAgent(…) }`): what the branch writes
    is the field's value after the test, not at it, so it decides nothing there."""
    shown = parser.text(read)
    child, current = read, read.parent
    while current is not None and current.type not in ("block", "function_declaration", "method_declaration"):
        if current.type == "if_statement" and child == current.child_by_field_name("condition"):
            branch = current.child_by_field_name("consequence")
            tested = {(tested_empty(part) or "").lstrip("*") for part in disjuncts(child)}
            return (
                branch is not None
                and shown in tested
                and any(
                    parser.text(target) == shown
                    for statement in parser.captures("(assignment_statement) @a", branch).get("a", [])
                    for target in parser.named(statement.child_by_field_name("left") or statement)
                )
            )
        child, current = current, current.parent
    return False


def _nil_guarded(conjunction: tree_sitter.Node) -> bool:
    """Whether every part of a conjunction's left side checks against nil something its right side reads
    through (`p.Deploy != nil && p.Deploy.Type != nil && …`): guards of the test on the right, not settings."""
    right = conjunction.child_by_field_name("right")
    read = parser.text(right) if right is not None else ""
    parts = conjuncts(conjunction.child_by_field_name("left") or conjunction)
    for part in parts:
        tested = part.child_by_field_name("left") if part.type == "binary_expression" else None
        nil = part.child_by_field_name("right") if part.type == "binary_expression" else None
        if (
            tested is None
            or nil is None
            or nil.type != "nil"
            or parser.text(part.child_by_field_name("operator")) != "!="
            or f"{parser.text(tested)}." not in read
        ):
            return False
    return bool(parts)


def _is_string(value: Value) -> bool:
    return isinstance(value, Val) and isinstance(value.value, str)


def _in_an_object(operand: tree_sitter.Node) -> bool:
    """Whether a selector's operand reads into an API object's Spec or Status (`cluster.Spec.ClusterLinkOptions`):
    its fields hold what users write in the cluster, not what a flag of the same name sets (kosmos' kosmosctl
    --cni beside the Cluster resource's spec.clusterLinkOptions.cni)."""
    _, fields = selector_chain(operand)
    return "Spec" in fields or "Status" in fields


def _hashable(value: object) -> bool:
    """Whether a value can key a map's value: a key the evaluation takes for a list (pixie's `registry[name]` with
    `name := viper.GetString("suite")`, a flag another subcommand declares as a StringSlice) names no entry."""
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _configured_and_holding(guards: list[Guard]) -> bool:
    """Guards that all hold by default, one of them decided by the configuration (a flag, the environment)."""
    return bool(guards) and all(guard.holds is True for guard in guards) and any(guard.origin for guard in guards)
