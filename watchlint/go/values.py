"""What a Go expression holds: followed through local variables, earlier field assignments, appends, and the
parameters of the named function around it."""

from __future__ import annotations

import functools
import re

import tree_sitter

from watchlint.go import parser
from watchlint.go.declarations import FunctionKey
from watchlint.go.model import FAKE_CLIENTSET, GoFile
from watchlint.go.resolve import Resolver, append_arguments, is_slice_literal, literal_items, struct_literal_of
from watchlint.go.scope import Declaration, innermost_function, returned_values, under_condition
from watchlint.go.writes import Write, WriteKind, writes_of, written_names


class ValueTracer:
    """Follows values back to the expressions that give them, within one module."""

    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver
        # by file, the field assignments (`f.client = …`) by the field expression's text
        self._field_assignments: dict[str, dict[str, list[tuple[tree_sitter.Node, tree_sitter.Node]]]] = {}

    def defined_as(
        self, file: GoFile, node: tree_sitter.Node | None, hops: int, *, through_address: bool = False
    ) -> tree_sitter.Node | None:
        """The expression behind at most `hops` local variables (`src := source.Kind(…)`, `factory :=
        informers.New…(…)`), and behind `&` when `through_address`; None where a variable has no value."""
        for _ in range(hops):
            if through_address and node is not None and node.type == "unary_expression":
                node = node.child_by_field_name("operand")
            if node is not None and node.type == "selector_expression":
                return self.assigned_before(file, node) or node
            if node is None or node.type != "identifier":
                return node
            declaration = self.resolver.declaration(file, node)
            node = declaration.value_node if declaration is not None else None
        return node

    def struct_literal(self, file: GoFile, node: tree_sitter.Node) -> tree_sitter.Node | None:
        """The composite literal an expression holds, also through `&` or the locals `defined_as` follows
        (`opts := &Options{…}`); None for any other value."""
        return struct_literal_of(self.defined_as(file, node, 2, through_address=True))

    def assigned_before(self, file: GoFile, field: tree_sitter.Node) -> tree_sitter.Node | None:
        """The value last assigned to a field (`f.kubeClient = fake.NewSimpleClientset()`) earlier in the
        function that reads it."""
        writes = self._field_assignments.get(file.path)
        if writes is None:
            writes = self._field_assignments[file.path] = {}
            for _, _, targets, values in file.assignments():
                if len(targets) == len(values):
                    for target, value in zip(targets, values, strict=True):
                        if target.type == "selector_expression":
                            writes.setdefault(parser.text(target), []).append((target, value))
        function = innermost_function(field)
        found = None
        for target, value in writes.get(parser.text(field), []):
            if target.start_byte < field.start_byte and innermost_function(target) == function:
                found = value
        return found

    def helper_parameter(self, file: GoFile, node: tree_sitter.Node) -> tuple[FunctionKey, int] | None:
        """When an object argument is a parameter of the named function around it, that function is a helper
        (`watchOwned(b, &corev1.Secret{})`): its callers name the kind (SPEC §3.1 Helpers)."""
        target = node.child_by_field_name("operand") if node.type == "unary_expression" else node
        if target is not None and target.type == "type_assertion_expression":  # `list.(client.ObjectList)`
            target = target.child_by_field_name("operand")
        if target is None or target.type != "identifier":
            return None
        declaration = self.resolver.declaration(file, target)
        if declaration is not None and declaration.value_node is not None and _typed_as_pointer(declaration):
            return None  # `switch t := obj.(type) { case *apiextv1.CustomResourceDefinition: … }`: the case's kind
        copied = copied_from(declaration.value_node) if declaration is not None else None
        if copied is None and declaration is not None and declaration.value_node is not None:
            copied = self._copied_through(file, declaration.value_node, declaration.value_index)
        if copied is not None:  # `curr := empty.DeepCopyObject().(T)`: the same kind as the parameter
            declaration = self.resolver.declaration(file, copied)
            # `val := reflect.ValueOf(obj)` behind `reflect.New(val.Type())`: what it reflects
            reflected = reflected_of(declaration.value_node) if declaration is not None else None
            declaration = self.resolver.declaration(file, reflected) if reflected is not None else declaration
        found = self.resolver.parameter_of(file, node, declaration)
        return (found[0].key, found[1]) if found is not None else None

    def _copied_through(self, file: GoFile, value: tree_sitter.Node, index: int = 0) -> tree_sitter.Node | None:
        """The argument a module function returns a copy of, where every return copies the same parameter
        (opensearch's `current := r.fromDesired(desired)` returning `reflect.New(…ValueOf(desired)…).Interface()`):
        the variable whose kind the copy has."""
        info = self.resolver.callee(file, value) if value.type == "call_expression" else None
        arguments = value.child_by_field_name("arguments")
        if info is None or arguments is None:
            return None
        positions = set()
        for returned in returned_values(info.node, index):  # the result the variable takes
            if _for_unstructured_only(returned, info.node):
                continue  # a typed object never takes the branch (`if _, ok := desired.(*unstructured.Unstructured)`)
            copied = copied_from(returned)
            declaration = self.resolver.declaration(info.file, copied) if copied is not None else None
            found = self.resolver.parameter_of(info.file, copied, declaration) if copied is not None else None
            positions.add(found[1] if found is not None and found[0].key == info.key else -1)
        passed = parser.named(arguments)
        position = positions.pop() if len(positions) == 1 else -1
        argument = passed[position] if 0 <= position < len(passed) else None
        return argument if argument is not None and argument.type == "identifier" else None

    def items_parameter(self, file: GoFile, node: tree_sitter.Node) -> tuple[FunctionKey, int] | None:
        """When an object argument is an item of a parameter of the named function around it (`objs[i]` or the
        `obj` of `for _, obj := range objs`, with `objs ...client.Object`): that parameter, whose callers name
        the kinds one by one (`mustGetInformers(ctx, mgr, &corev1.Secret{}, &corev1.Pod{})`)."""
        if node.type == "index_expression":
            operand = node.child_by_field_name("operand")
            return self.helper_parameter(file, operand) if operand is not None else None
        declaration = self.resolver.declaration(file, node) if node.type == "identifier" else None
        ranged = declaration.ranged_node if declaration is not None else None
        return self.helper_parameter(file, ranged) if ranged is not None else None

    def passed_items(self, file: GoFile, values: list[tree_sitter.Node], index: int) -> list[tree_sitter.Node]:
        """What a call passes as the items of a slice parameter at `index`: the variadic arguments written out,
        or the items of a slice literal given whole (also spread: `objs...`)."""
        passed = values[index:]
        if len(passed) != 1:
            return passed
        only = passed[0]
        spread = parser.first_named(only) if only.type == "variadic_argument" else None
        literal = self.defined_as(file, spread if spread is not None else only, 2)
        return literal_items(literal) if literal is not None and is_slice_literal(literal) else passed

    def object_helper(self, file: GoFile, node: tree_sitter.Node) -> tuple[tuple[FunctionKey, int] | None, str | None]:
        """`helper_parameter` for an object argument, also where it is a field of the parameter (`r.AddWatch(ctx,
        WatchTarget{Object: &corev1.Secret{}})` reading `target.Object`): the parameter, and the field."""
        if node.type == "selector_expression" and (operand := node.child_by_field_name("operand")) is not None:
            helper = self.helper_parameter(file, operand)
            field = node.child_by_field_name("field")
            return (helper, parser.text(field)) if helper is not None and field is not None else (None, None)
        return self.helper_parameter(file, node), None

    def options_held(
        self, file: GoFile, variable: tree_sitter.Node, passed: tree_sitter.Node | None = None
    ) -> list[tree_sitter.Node] | None:
        """The options a local variable holds: `opts := []client.ListOption{…}` with the items appended to
        it later, or `lo := client.MatchingLabels{…}`; None when they cannot all be seen (no value, a field
        of it written, its address taken, any other write). `passed`: the `&opts` the List is given, whose
        address taken is no write."""
        declaration = self.resolver.declaration(file, variable)
        if declaration is None or declaration.parameter_index >= 0 or declaration.ranged_node is not None:
            return None  # a parameter holds what its callers pass
        function = innermost_function(declaration.node)  # writes may sit in function literals below it
        if function is None or parser.text(variable) in _fields_written(function):
            return None
        value, declared_type = declaration.value_node, declaration.type_node
        if value is None and (declared_type is None or declared_type.type != "slice_type"):
            return None
        # `var opts []client.ListOption` is empty until appended to
        held = [] if value is None else literal_items(value) if is_slice_literal(value) else [value]
        declared_by = functools.partial(self.resolver.declaration, file)
        first = {parser.text(item) for item in held}
        for write in writes_of(declaration, written_names(function), declared_by):
            if write.node == passed:
                continue
            appended = _appended_items(write, declaration.name) if write.kind is WriteKind.ASSIGN else None
            if appended is None and write.kind is WriteKind.ASSIGN and first and first <= _reassigned_items(write):
                continue  # `opts = []client.ListOption{client.InNamespace(ns), client.Continue(token)}`: a page on
            if appended is None:
                return None
            held.extend(appended)
        return held

    def appended_to_parameter(self, file: GoFile, variable: tree_sitter.Node) -> list[tree_sitter.Node]:
        """The options a function appends to its variadic parameter, unconditionally and before `variable` reads
        it (kubekey's `opts = append(opts, ctrlclient.InNamespace(owner.GetNamespace()))` before its List), where
        every write of it appends; none otherwise. What the callers pass is the parameter's, told apart."""
        declaration = self.resolver.declaration(file, variable)
        if declaration is None or declaration.parameter_index < 0 or not declaration.variadic:
            return []
        function = innermost_function(declaration.node)
        if function is None:
            return []
        declared_by = functools.partial(self.resolver.declaration, file)
        appended: list[tree_sitter.Node] = []
        for write in writes_of(declaration, written_names(function), declared_by):
            items = _appended_items(write, declaration.name) if write.kind is WriteKind.ASSIGN else None
            if items is None:
                return []
            # in the function itself, not in a literal that may run later, elsewhere or not at all
            unconditional = not under_condition(write.node) and innermost_function(write.node) == function
            if write.node.end_byte <= variable.start_byte and unconditional:
                appended.extend(items)
        return appended

    def built_by(self, file: GoFile, node: tree_sitter.Node | None, package: str) -> tree_sitter.Node | None:
        """The call of a function of `package` that built a value, directly or through local variables."""
        built = self.defined_as(file, node, 3)
        if built is None or built.type != "call_expression":
            return None
        function = built.child_by_field_name("function")
        operand = function.child_by_field_name("operand") if function is not None else None
        return built if operand is not None and file.imports.get(parser.text(operand)) == package else None

    def is_fake_clientset(self, file: GoFile, node: tree_sitter.Node | None) -> bool:
        """`fake.NewSimpleClientset(…)` or `fake.NewClientset(…)`, directly or through local variables, or a
        variable declared `*fake.Clientset` (assigned after its declaration, a named result)."""
        if self.built_by(file, node, FAKE_CLIENTSET) is not None:
            return True
        declared = self.resolver.type_of(file, node) if node is not None and node.type == "identifier" else None
        return declared is not None and declared.package == FAKE_CLIENTSET


_UNSTRUCTURED_ASSERTED = re.compile(r"^\w+\s*,\s*(\w+)\s*:=\s*[\w.]+\.\(\s*\*\s*(?:\w+\.)?Unstructured\s*\)$")


def _for_unstructured_only(node: tree_sitter.Node, function: tree_sitter.Node) -> bool:
    """Whether a node runs only where a value is an unstructured object: in the block of `if _, ok :=
    obj.(*unstructured.Unstructured); ok` (not of `!ok`, which typed objects take)."""
    child, current = node, node.parent
    while current is not None and current != function:
        if current.type == "if_statement" and child == current.child_by_field_name("consequence"):
            initializer = " ".join(parser.text(current.child_by_field_name("initializer")).split())
            asserted = _UNSTRUCTURED_ASSERTED.match(initializer)
            if asserted is not None and parser.text(current.child_by_field_name("condition")) == asserted.group(1):
                return True
        child, current = current, current.parent
    return False


def _typed_as_pointer(declaration: Declaration) -> bool:
    """Whether a variable is declared a pointer to a type (a type switch's case naming one): its kind is the
    type's, whatever value it is given."""
    return declaration.type_node is not None and declaration.type_node.type == "pointer_type"


def copied_from(value: tree_sitter.Node | None) -> tree_sitter.Node | None:
    """The variable a value copies: `x.DeepCopyObject().(T)`, `x.DeepCopy()`, `x.DeepCopyObject()`, a new value of
    its type made by reflect, or `x` itself (`current := emptyObj`, `objects, ok := list.(client.ObjectList)`: the
    same object)."""
    if value is not None and value.type == "identifier":
        return value
    if value is not None and value.type == "type_assertion_expression":
        value = value.child_by_field_name("operand")
        if value is not None and value.type == "identifier":
            return value
    function = value.child_by_field_name("function") if value is not None and value.type == "call_expression" else None
    if function is None or function.type != "selector_expression":
        return None
    operand = function.child_by_field_name("operand")
    if parser.text(function.child_by_field_name("field")) == "Interface" and operand is not None:
        return _reflected(operand)
    if parser.text(function.child_by_field_name("field")) not in ("DeepCopyObject", "DeepCopy"):
        return None
    return operand if operand is not None and operand.type == "identifier" else None


def _reflected(made: tree_sitter.Node) -> tree_sitter.Node | None:
    """The variable `reflect.New(reflect.Indirect(reflect.ValueOf(x)).Type())` (or `reflect.TypeOf(x).Elem()`)
    makes a new value of the type of: a helper reading a fresh object of the kind it is given."""
    if made.type != "call_expression" or not parser.text(made.child_by_field_name("function")).endswith("reflect.New"):
        return None
    for call in parser.captures("(call_expression) @call", made).get("call", []):
        if (of := reflected_of(call)) is not None:
            return of
        function = call.child_by_field_name("function")
        operand = function.child_by_field_name("operand") if function is not None else None
        field = function.child_by_field_name("field") if function is not None else None
        if parser.text(field) == "Type" and operand is not None and operand.type == "identifier":
            return operand  # `val.Type()`: what `val` reflects
    return None


def reflected_of(value: tree_sitter.Node | None) -> tree_sitter.Node | None:
    """The variable `reflect.ValueOf(x)` or `reflect.TypeOf(x)` reflects."""
    if value is None or value.type != "call_expression":
        return None
    called = parser.text(value.child_by_field_name("function"))
    arguments = parser.named(value.child_by_field_name("arguments") or value)
    if called.endswith(("reflect.ValueOf", "reflect.TypeOf")) and len(arguments) == 1:
        return arguments[0] if arguments[0].type == "identifier" else None
    return None


_FIELD_WRITES = "(assignment_statement left: (expression_list (selector_expression operand: (identifier) @name)))"


def _fields_written(function: tree_sitter.Node) -> set[str]:
    """Names of the variables whose fields a function assigns (`lo.Namespace = ns`)."""
    return {parser.text(name) for name in parser.captures(_FIELD_WRITES, function).get("name", [])}


def _reassigned_items(write: Write) -> set[str]:
    """The texts of the items of a slice literal a write assigns whole; none for any other write. Where they
    include every item the variable was declared with, the options that restrict hold in every value."""
    right = write.node.child_by_field_name("right")
    values = parser.named(right) if right is not None else []
    value = values[write.index] if write.index < len(values) else None
    return (
        {parser.text(item) for item in literal_items(value)} if value is not None and is_slice_literal(value) else set()
    )


def _appended_items(write: Write, name: str) -> list[tree_sitter.Node] | None:
    """The items of `opts = append(opts, a, b)`; None for any other assignment."""
    right = write.node.child_by_field_name("right")
    values = parser.named(right) if right is not None else []
    arguments = append_arguments(values[write.index]) if write.index < len(values) else None
    if not arguments or parser.text(arguments[0]) != name:
        return None
    items = []
    for argument in arguments[1:]:
        if argument.type == "variadic_argument":
            return None  # `append(opts, more...)`: what `more` holds is not followed
        items.append(argument)
    return items
