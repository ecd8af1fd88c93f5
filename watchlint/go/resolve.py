"""Expressions -> types, Kubernetes objects and strings, using local scopes and module declarations."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import tree_sitter

from watchlint.catalog import KindIndex
from watchlint.facts import ObjectForm
from watchlint.go import parser
from watchlint.go.declarations import (
    Declarations,
    FieldInfo,
    FunctionInfo,
    FunctionKey,
    Parameter,
    function_results,
    resolve_type,
)
from watchlint.go.model import CR_CACHE, CR_CLIENT, META_V1, SCHEMA, TYPED_CLIENTS, UNSTRUCTURED, GoFile, TypeRef
from watchlint.go.scope import (
    Declaration,
    FunctionScope,
    build_scope,
    enclosing_function,
    receiver_name,
    return_items,
    return_statements,
    returned_values,
)
from watchlint.go.writes import WriteKind, writes_of, written_names

_SETTER_CALLS = (
    "(call_expression function: (selector_expression operand: (identifier) field: (field_identifier))) @call"
)
MAX_DEPTH = 8  # following values through variables and calls; deeper chains are not worth the time
_EMBEDDED_INTERFACES = 5  # interfaces embedding interfaces, followed this deep for a method's results
_GVK_SETTERS = frozenset({"SetGroupVersionKind", "SetKind"})
# Packages whose `Object` interface a kind is converted to (`client.Object(&corev1.Pod{})`): the kind stays.
_OBJECT_INTERFACES = frozenset({CR_CLIENT, "k8s.io/apimachinery/pkg/runtime", META_V1})
# the constructors of client-go's typed group clients (`corev1client.NewForConfig(cfg)`), which return `*CoreV1Client`
_GROUP_CLIENT_CONSTRUCTORS = frozenset({"NewForConfig", "NewForConfigOrDie", "NewForConfigAndClient", "New"})
# library constructors whose results the module keeps in locals: the package, its constructors, the type built
_LIBRARY_BUILT = (
    (
        re.compile(r"^github\.com/rancher/wrangler(?:/v[0-9]+)?/pkg/clients$"),
        frozenset({"New", "NewFromConfig"}),
        "Clients",
    ),
    (re.compile(r"^github\.com/spf13/viper$"), frozenset({"New", "NewWithOptions", "GetViper"}), "Viper"),
)
_ACCESSOR_TYPES = {
    "GetClient": TypeRef(CR_CLIENT, "Client"),
    "GetAPIReader": TypeRef(CR_CLIENT, "Reader"),
    "GetCache": TypeRef(CR_CACHE, "Cache"),
}


@dataclass(frozen=True, slots=True)
class ObjectRef:
    """What an object expression is: its kind, how it is typed, and how it reads in the source."""

    kind: str
    form: ObjectForm
    text: str
    is_list: bool
    package: str = ""  # import path of the Go type, for fixes that name the kind in another file


class Resolver:
    """Answers questions about expressions; scopes are built once per function and kept on the file."""

    def __init__(self, declarations: Declarations, kinds: KindIndex) -> None:
        self.declarations = declarations
        self.kinds = kinds
        self._aliases: dict[FunctionKey, list[FunctionKey]] | None = None  # see function_aliases
        self._function_keys: dict[tuple[str, int], FunctionKey] = {}  # by the declaration's file and offset
        # by the file and byte range of the name, or of the call
        self._declarations: dict[tuple[str, int, int], Declaration | None] = {}
        self._callees: dict[tuple[str, int, int], FunctionInfo | None] = {}
        # the names a function of the module makes of a string it is given (flags.made_names), by both, and
        # what its returns give, by the function
        self.made_names: dict[tuple[FunctionKey, str], tuple[str, ...]] = {}
        self.name_returns: dict[FunctionKey, tuple[tree_sitter.Node, ...]] = {}

    # -- names ---------------------------------------------------------------------------------------
    def scope(self, file: GoFile, node: tree_sitter.Node) -> FunctionScope | None:
        function = file.enclosing_function(node)
        if function is None:
            return None
        scope = file.function_scopes.get(function.id)
        if scope is None:
            scope = build_scope(function, file.declaring_within)
            file.function_scopes[function.id] = scope
        assert isinstance(scope, FunctionScope)
        return scope

    def declaration(self, file: GoFile, identifier: tree_sitter.Node) -> Declaration | None:
        # kept by the name's place, which tells its text and its scope: a name is asked of about three times
        at = (file.path, identifier.start_byte, identifier.end_byte)
        if at in self._declarations:
            return self._declarations[at]
        scope = self.scope(file, identifier)
        found = scope.lookup(parser.text(identifier), identifier.start_byte) if scope is not None else None
        self._declarations[at] = found
        return found

    def package_variable(self, file: GoFile, named: tree_sitter.Node) -> tuple[str, str] | None:
        """The (package, name) of the package variable an expression names: `watched` of the file's own
        package (not a local shadowing it), or `config.MountManager` of an imported one (a main setting a
        configuration package's variable, a read of `features.Gates`)."""
        key = _variable_key(file, named)
        return key if key is not None and self._unshadowed(file, named) else None

    def module_variable(self, file: GoFile, named: tree_sitter.Node) -> tuple[str, str] | None:
        """package_variable, for a variable the module declares: the name is looked up before the scope around
        it, which most assignments would otherwise build for this alone."""
        key = _variable_key(file, named)
        return key if key in self.declarations.variables and self._unshadowed(file, named) else None

    def _unshadowed(self, file: GoFile, named: tree_sitter.Node) -> bool:
        """Whether no local hides the variable `named` (a name, or the package of `pkg.Name`) is taken for."""
        shadowed = named if named.type == "identifier" else named.child_by_field_name("operand")
        return shadowed is not None and self.declaration(file, shadowed) is None

    def held_value(self, file: GoFile, name: tree_sitter.Node) -> tuple[GoFile, tree_sitter.Node] | None:
        """The value, and its file, that a local or a package variable (of this package or another:
        `opts.AllJobs`) is given where it is declared; None when it is given none there, or is a parameter."""
        if name.type == "identifier":
            declaration = self.declaration(file, name)
            if declaration is not None:
                return (file, declaration.value_node) if declaration.value_node is not None else None
            key = (file.package_path, parser.text(name))
        elif name.type == "selector_expression":
            operand = name.child_by_field_name("operand")
            package = file.imports.get(parser.text(operand)) if operand is not None else None
            if package is None:
                return None
            key = (package, parser.text(name.child_by_field_name("field")))
        else:
            return None
        variable = self.declarations.variables.get(key)
        if variable is None or variable.value_node is None:
            return None
        return variable.file, variable.value_node

    def function_key(self, file: GoFile, node: tree_sitter.Node) -> FunctionKey | None:
        """The key of the named function or method around a node (None inside package-level literals)."""
        function = file.enclosing_function(node)
        while function is not None and function.type == "func_literal":
            function = enclosing_function(function.parent) if function.parent is not None else None
        if function is None:
            return None
        at = (file.path, function.start_byte)
        if at not in self._function_keys:  # every site, guard and binding asks of its function
            self._function_keys[at] = self._declared_key(file, function)
        return self._function_keys[at]

    def parameter_of(
        self, file: GoFile, node: tree_sitter.Node, declaration: Declaration | None
    ) -> tuple[FunctionInfo, int] | None:
        """The module function around `node` whose parameter `declaration` declares, with its position; None
        where it declares no parameter, or one of a function literal, whose callers are not followed."""
        if declaration is None or declaration.parameter_index < 0:
            return None
        key = self.function_key(file, node)
        info = self.declarations.functions.get(key) if key is not None else None
        if info is None or info.node.start_byte != declaration.scope_start:
            return None
        return info, declaration.parameter_index

    def _declared_key(self, file: GoFile, function: tree_sitter.Node) -> FunctionKey:
        receiver = ""
        receiver_node = function.child_by_field_name("receiver")
        if receiver_node is not None:
            for parameter in parser.named(receiver_node):
                ref = resolve_type(parameter.child_by_field_name("type"), file)
                receiver = ref.name if ref else ""
        return FunctionKey(file.package_path, receiver, parser.text(function.child_by_field_name("name")))

    # -- types ---------------------------------------------------------------------------------------
    def selected_field(self, file: GoFile, selector: tree_sitter.Node) -> tuple[TypeRef, FieldInfo] | None:
        """The struct field a selector names (`c.internal`) and the struct declaring it; None where its
        operand's type, or the field, is not told."""
        operand = selector.child_by_field_name("operand")
        owner = self.type_of(file, operand) if operand is not None else None
        field = selector.child_by_field_name("field")
        return self.declarations.field(owner, parser.text(field)) if owner is not None and field is not None else None

    def type_of(self, file: GoFile, node: tree_sitter.Node | None, depth: int = 0) -> TypeRef | None:
        if node is None or depth > MAX_DEPTH:
            return None
        kind = node.type
        if kind == "identifier":
            return self._identifier_type(file, node, depth)
        if kind == "selector_expression":
            return self._selector_type(file, node, depth)
        if kind == "composite_literal":
            return resolve_type(node.child_by_field_name("type"), file)
        if kind == "unary_expression":
            return self._unary_type(file, node, depth)
        if kind == "call_expression":
            return self._call_type(file, node, 0, depth)
        if kind == "parenthesized_expression":
            return self.type_of(file, parser.first_named(node), depth + 1)
        if kind == "type_assertion_expression":
            return resolve_type(node.child_by_field_name("type"), file)
        if kind == "index_expression":
            container = self._underlying_slice(self.type_of(file, node.child_by_field_name("operand"), depth + 1))
            return TypeRef(container.package, container.name, container.pointer) if container else None
        return None

    def _underlying_slice(self, container: TypeRef | None) -> TypeRef | None:
        """A named slice type as the slice it is declared over (`type Certificates []*Certificate`): its items are
        of the element type, whose methods are not the named type's."""
        if container is None or container.slice:
            return container
        underlying = self.declarations.unalias(container)
        return underlying if underlying.slice else container

    def written_struct(self, file: GoFile, node: tree_sitter.Node | None, depth: int = 0) -> TypeRef | None:
        """The struct whose field a write `node.f = v` sets: node's type; where that cannot be told but the
        chain passes through a type the module does not declare (`spec.Strategy.Canary` of an imported API
        type), a type named by that path (`Spec.Strategy.Canary`), which no struct of the module is."""
        found = self.type_of(file, node, depth)
        if found is None and node is not None and node.type == "identifier" and depth <= MAX_DEPTH:
            # `for _, subset := range endpoints.Subsets`: an item of what the loop ranges over
            declaration = self.declaration(file, node)
            ranged = declaration.ranged_node if declaration is not None else None
            holder = self.written_struct(file, ranged, depth + 1) if ranged is not None else None
            if (
                holder is not None
                and holder.package
                and self.declarations.unalias(holder.base) not in self.declarations.structs
            ):
                return TypeRef(holder.package, f"{holder.name}[]")
            return None
        if found is not None or node is None or node.type != "selector_expression" or depth > MAX_DEPTH:
            return found
        holder = self.written_struct(file, node.child_by_field_name("operand"), depth + 1)
        if holder is None or holder.package == "":
            return None
        if self.declarations.unalias(holder.base) in self.declarations.structs:
            return None  # a module struct whose field is not told: the struct written is not known
        return TypeRef(holder.package, f"{holder.name}.{parser.text(node.child_by_field_name('field'))}")

    def _unary_type(self, file: GoFile, node: tree_sitter.Node, depth: int) -> TypeRef | None:
        operator = node.child_by_field_name("operator")
        inner = self.type_of(file, node.child_by_field_name("operand"), depth + 1)
        if inner is None or operator is None:
            return None
        if parser.text(operator) == "&":
            return TypeRef(inner.package, inner.name, True, inner.slice)
        if parser.text(operator) == "*":
            return TypeRef(inner.package, inner.name, False, inner.slice)
        return None

    def _identifier_type(self, file: GoFile, node: tree_sitter.Node, depth: int) -> TypeRef | None:
        declaration = self.declaration(file, node)
        if declaration is None:
            variable = self.declarations.variables.get((file.package_path, parser.text(node)))
            if variable is None:
                return None
            if variable.type_node is not None:
                return resolve_type(variable.type_node, variable.file)
            return self.type_of(variable.file, variable.value_node, depth + 1)
        if declaration.type_node is not None:
            declared = resolve_type(declaration.type_node, file)
            if declaration.variadic:  # PayU redis-operator's `for _, pod := range pods` over `pods ...corev1.Pod`
                return (
                    TypeRef(declared.package, declared.name, declared.pointer, True)
                    if declared and not declared.slice
                    else None
                )
            return declared
        if declaration.ranged_node is not None:
            ranged = self._underlying_slice(self.type_of(file, declaration.ranged_node, depth + 1))
            return TypeRef(ranged.package, ranged.name, ranged.pointer) if ranged and ranged.slice else None
        if declaration.value_node is not None:
            value = declaration.value_node
            if value.type == "call_expression":
                return self._call_type(file, value, declaration.value_index, depth + 1)
            return self.type_of(file, value, depth + 1)
        return None

    def _selector_type(self, file: GoFile, node: tree_sitter.Node, depth: int) -> TypeRef | None:
        operand = node.child_by_field_name("operand")
        name = parser.text(node.child_by_field_name("field"))
        if operand is None:
            return None
        if operand.type == "identifier" and self._is_package(file, operand):
            variable = self.declarations.variables.get((file.imports[parser.text(operand)], name))
            if variable is not None and variable.type_node is not None:
                return resolve_type(variable.type_node, variable.file)
            # `var ControllerConfig = NewDefaultConfig()`: the type of what it is set to
            return self.type_of(variable.file, variable.value_node, depth + 1) if variable is not None else None
        owner = self.type_of(file, operand, depth + 1)
        if owner is None:
            return None
        if name == "Items" and owner.name.endswith("List") and self.kinds.go_kind(owner.package, owner.name):
            return TypeRef(owner.package, owner.name.removesuffix("List"), slice=True)
        found = self.declarations.field(owner, name)
        return found[1].type if found else None

    def _call_type(self, file: GoFile, call: tree_sitter.Node, index: int, depth: int) -> TypeRef | None:
        function = call.child_by_field_name("function")
        if function is None:
            return None
        if function.type == "identifier" and parser.text(function) == "new":
            arguments = call.child_by_field_name("arguments")
            inner = resolve_type(parser.first_named(arguments), file)
            return TypeRef(inner.package, inner.name, True) if inner else None
        if function.type == "selector_expression":
            name = parser.text(function.child_by_field_name("field"))
            if name in _ACCESSOR_TYPES and index == 0:
                return _ACCESSOR_TYPES[name]
            operand = function.child_by_field_name("operand")
            converted = name == "Object" and operand is not None and self._is_package(file, operand)
            if converted and file.imports[parser.text(operand)] in _OBJECT_INTERFACES:  # `client.Object(&x)`
                return self.type_of(file, parser.first_named(call.child_by_field_name("arguments")), depth + 1)
            built = _group_client_built(file, operand, name) or _library_built(file, operand, name)
            built = built if index == 0 else None
            if built is not None:
                return built
            if name == "DeepCopy" and index == 0 and operand is not None:  # generated: returns *T
                owner = self.type_of(file, operand, depth + 1)
                return TypeRef(owner.package, owner.name, True) if owner is not None and not owner.slice else None
        operand = function.child_by_field_name("operand") if function.type == "selector_expression" else None
        if operand is not None and not (operand.type == "identifier" and self._is_package(file, operand)):
            # a method: the operand's type is taken once (`a.B().C().D()` of a builder chain asks for each link's)
            owner = self.type_of(file, operand)
            name = parser.text(function.child_by_field_name("field"))
            method = self.declarations.method(owner, name) if owner is not None else None
            results = method.results if method is not None else self._interface_results(owner, name)
            return results[index] if results is not None and index < len(results) else None
        info = self.callee(file, call)
        results = info.results if info is not None else self._function_value_results(file, function)
        return results[index] if index < len(results) else None

    def _function_value_results(self, file: GoFile, function: tree_sitter.Node) -> tuple[TypeRef | None, ...]:
        """What a call through a variable of a function type returns (kong's `setupControllers(mgr, &cfg)` of a
        `SetupControllersFunc` parameter): the results its type declares."""
        declaration = self.declaration(file, function) if function.type == "identifier" else None
        declared = declaration.type_node if declaration is not None else None
        if declared is None:
            return ()
        if declared.type == "function_type":
            return function_results(declared.child_by_field_name("result"), file)
        named = resolve_type(declared, file)
        found = self.declarations.function_types.get(self.declarations.unalias(named)) if named else None
        return function_results(found[1].child_by_field_name("result"), found[0]) if found is not None else ()

    def interface_results(self, file: GoFile, call: tree_sitter.Node) -> tuple[TypeRef | None, ...] | None:
        """What the method of a module interface a call invokes through it is declared to return (whatever a
        library method of the name returns: goofy's in-memory `GetClient() cclient.Client`)."""
        function = call.child_by_field_name("function")
        operand = function.child_by_field_name("operand") if function is not None else None
        if function is None or function.type != "selector_expression" or operand is None:
            return None
        return self._interface_results(self.type_of(file, operand), parser.text(function.child_by_field_name("field")))

    def _interface_results(self, owner: TypeRef | None, name: str, depth: int = 0) -> tuple[TypeRef | None, ...] | None:
        """What a method of a module interface returns (`ctx.Resources()` of a pipeline.Context), also one it
        embeds (kuma's `rt.Config()`, declared by the RuntimeContext a Runtime embeds)."""
        if owner is None:
            return None
        interface = self.declarations.unalias(owner.base)
        found = self.declarations.interface_results.get((interface, name))
        if found is not None or depth >= _EMBEDDED_INTERFACES:
            return found
        embedded = self.declarations.interfaces.get(interface, ())
        inner = [results for item in embedded if (results := self._interface_results(item, name, depth + 1))]
        return inner[0] if len(inner) == 1 else None

    def callee(self, file: GoFile, call: tree_sitter.Node) -> FunctionInfo | None:
        """The module function or method a call invokes, when it can be told; kept, as a call is asked of about
        three times."""
        at = (file.path, call.start_byte, call.end_byte)
        if at not in self._callees:
            self._callees[at] = self.function_named(file, call.child_by_field_name("function"))
        return self._callees[at]

    def receiving_parameter(
        self, file: GoFile, argument: tree_sitter.Node, *, variadic: bool = True
    ) -> tuple[tree_sitter.Node, FunctionInfo, Parameter] | None:
        """The call an argument is passed in, the module function it calls, and the parameter that takes the
        argument; without `variadic`, None where that is a variadic parameter (which takes the rest)."""
        arguments = argument.parent
        call = arguments.parent if arguments is not None and arguments.type == "argument_list" else None
        info = self.callee(file, call) if call is not None and call.type == "call_expression" else None
        if call is None or info is None or arguments is None:
            return None
        parameter = info.parameter_at(parser.position_in(arguments, argument), variadic=variadic)
        return (call, info, parameter) if parameter is not None else None

    def function_named(self, file: GoFile, function: tree_sitter.Node | None) -> FunctionInfo | None:
        """The module function or method an expression names (`newFactory`, `pkg.Transform`, `r.strip`)."""
        if function is None:
            return None
        if function.type == "identifier":
            return self.package_function(file.package_path, parser.text(function))
        if function.type != "selector_expression":
            return None
        operand = function.child_by_field_name("operand")
        name = parser.text(function.child_by_field_name("field"))
        if operand is None or not self.declarations.may_name_a_function(name):
            return None
        if operand.type == "identifier" and self._is_package(file, operand):
            return self.package_function(file.imports[parser.text(operand)], name)
        owner = self.type_of(file, operand)
        return self.declarations.method(owner, name) if owner is not None else None

    def package_function(self, package: str, name: str) -> FunctionInfo | None:
        """The module function `name` of `package`, or the one a package variable of that name holds (see
        `held_function`)."""
        found = self.declarations.functions.get(FunctionKey(package, "", name))
        held = self.held_function(package, name) if found is None else None
        return self.declarations.functions.get(FunctionKey(held[0], "", held[1])) if held is not None else found

    def held_function(self, package: str, name: str) -> tuple[str, str] | None:
        """The function a package variable of `package` holds, as its package's import path and its name: a seam
        tests swap (`var GetPodExecClient = getPodExecClientImpl`, `var NewVirtualManager = ctrl.NewManager`),
        the function it holds otherwise."""
        variable = self.declarations.variables.get((package, name))
        value = variable.value_node if variable is not None else None
        if variable is None or value is None:
            return None
        if value.type == "identifier":
            return package, parser.text(value)
        operand = value.child_by_field_name("operand") if value.type == "selector_expression" else None
        imported = variable.file.imports.get(parser.text(operand)) if operand is not None else None
        return (imported, parser.text(value.child_by_field_name("field"))) if imported is not None else None

    def function_aliases(self) -> dict[FunctionKey, list[FunctionKey]]:
        """The package variables holding a module function, by the function: calls of the variable are its (also
        from another package: package-operator's `var NewRequestManager = packageimport.NewRequestManager`)."""
        if self._aliases is None:
            self._aliases = {}
            for package, name in self.declarations.variables:
                held = self.held_function(package, name)
                function = self.declarations.functions.get(FunctionKey(held[0], "", held[1])) if held else None
                if function is not None:
                    self._aliases.setdefault(function.key, []).append(FunctionKey(package, "", name))
        return self._aliases

    def _is_package(self, file: GoFile, identifier: tree_sitter.Node) -> bool:
        name = parser.text(identifier)
        return name in file.imports and self.declaration(file, identifier) is None

    # -- objects -------------------------------------------------------------------------------------
    def object_of(self, file: GoFile, node: tree_sitter.Node | None) -> ObjectRef | None:
        """Resolve an object argument (`&corev1.Secret{}`, `&s`, `new(T)`, a typed variable) to its kind."""
        if node is None:
            return None
        target = node
        if node.type == "unary_expression" and parser.text(node.child_by_field_name("operator")) == "&":
            target = node.child_by_field_name("operand") or node
        type_ref = self.type_of(file, target)
        if type_ref is not None and type_ref.is_(CR_CLIENT, "Object", "ObjectList") and target.type == "identifier":
            return self._held_object(file, target)
        if type_ref is not None and type_ref.is_(CR_CLIENT, "Object") and target.type == "selector_expression":
            return self._field_set_before(file, target)
        if target.type == "call_expression" and (built := self._built_unstructured(file, target)) is not None:
            return built
        if type_ref is None or type_ref.slice:
            return None
        text = " ".join(parser.text(node).split())
        is_list = type_ref.name.endswith("List")
        kind = self.kinds.go_kind(type_ref.package, type_ref.name)
        if kind is not None:  # a kind named …List (a custom AllowList) is listed as AllowListList
            return ObjectRef(kind, ObjectForm.TYPED, text, type_ref.name == f"{kind}List", type_ref.package)
        if type_ref.is_(META_V1, "PartialObjectMetadata", "PartialObjectMetadataList"):
            form = ObjectForm.METADATA
        elif type_ref.is_(UNSTRUCTURED, "Unstructured", "UnstructuredList"):
            form = ObjectForm.UNSTRUCTURED
        else:
            return None
        named = self._kind_set_on(file, target)
        return ObjectRef(named, form, text, is_list) if named else None

    def _built_unstructured(self, file: GoFile, call: tree_sitter.Node) -> ObjectRef | None:
        """The object a module helper builds and returns, an Unstructured given the kind its caller passes
        (opendatahub's `getObject(gvk.ServiceAccount)` returning `resources.GvkToUnstructured(gvk)`, which sets
        that GroupVersionKind on a new Unstructured)."""
        kind = self._unstructured_kind(file, call, lambda node: self.gvk_kind(file, node), 0)
        return ObjectRef(kind, ObjectForm.UNSTRUCTURED, " ".join(parser.text(call).split()), False) if kind else None

    def _unstructured_kind(
        self, file: GoFile, call: tree_sitter.Node, kind_of: Callable[[tree_sitter.Node], str | None], depth: int
    ) -> str | None:
        """The kind of the Unstructured a call of a module function returns; `kind_of` reads a GroupVersionKind
        the call passes (through the parameters of the helpers it is passed on to)."""
        info = self.callee(file, call)
        returned = returned_values(info.node) if info is not None and depth <= MAX_DEPTH else []
        if info is None or len(returned) != 1:
            return None
        arguments = parser.named(call.child_by_field_name("arguments") or call)

        def passed_kind(node: tree_sitter.Node) -> str | None:
            declaration = self.declaration(info.file, node) if node.type == "identifier" else None
            if declaration is not None and declaration.parameter_index >= 0:
                index = declaration.parameter_index
                return kind_of(arguments[index]) if index < len(arguments) else None
            return self.gvk_kind(info.file, node)

        value = returned[0]
        if value.type == "call_expression":
            return self._unstructured_kind(info.file, value, passed_kind, depth + 1)
        declared = self.type_of(info.file, value) if value.type == "identifier" else None
        if declared is None or not declared.is_(UNSTRUCTURED, "Unstructured"):
            return None
        return self._kind_set_on(info.file, value, passed_kind)

    def _held_object(self, file: GoFile, name: tree_sitter.Node) -> ObjectRef | None:
        """The object a local of interface type is declared with and keeps (`var obj client.Object =
        &discoveryv1.EndpointSlice{}`); None where it is declared otherwise or assigned again."""
        declaration = self.declaration(file, name)
        value = declaration.value_node if declaration is not None and declaration.parameter_index < 0 else None
        if declaration is None or value is None or value.type not in ("unary_expression", "composite_literal"):
            return None
        if declaration.ranged_node is not None or self.reassigned(file, name, declaration, results=True):
            return None
        return self.object_of(file, value)

    def assigned_objects(self, file: GoFile, name: tree_sitter.Node) -> list[tuple[ObjectRef, tree_sitter.Node]]:
        """The objects a local of interface type declared without one is given, each by an assignment of its
        function before the read (aws-load-balancer-controller's `var clientObj client.Object`, then
        `clientObj = &discv1.EndpointSlice{}` or `&corev1.Endpoints{}` by a flag), with that assignment; none
        where a write gives it anything else, or may run later (in a function literal)."""
        declaration = self.declaration(file, name) if name.type == "identifier" else None
        if declaration is None or declaration.parameter_index >= 0 or declaration.ranged_node:
            return []
        found = []
        for value, assignment in self.assignments_before(file, name) or ():
            ref = self.object_of(file, value) if value.type in ("unary_expression", "composite_literal") else None
            if ref is None:
                return []
            found.append((ref, assignment))
        return found

    def assignments_before(
        self, file: GoFile, name: tree_sitter.Node
    ) -> list[tuple[tree_sitter.Node, tree_sitter.Node]] | None:
        """The values a local declared without one (or with nil) is assigned in its function before a read of it,
        each with its assignment statement, where every such write is a plain assignment outside function
        literals; None otherwise."""
        declaration = self.declaration(file, name) if name.type == "identifier" else None
        function = file.enclosing_function(name)
        if declaration is None or function is None:
            return None
        if declaration.value_node is not None and parser.text(declaration.value_node) != "nil":
            return None
        found = []
        for write in writes_of(declaration, written_names(function), lambda node: self.declaration(file, node)):
            if write.node.start_byte > name.start_byte:
                continue
            right = parser.named(write.node.child_by_field_name("right") or write.node)
            if write.kind is not WriteKind.ASSIGN or write.escapes or len(right) <= write.index:
                return None
            found.append((right[write.index], write.node))
        return found

    def _field_set_before(self, file: GoFile, field: tree_sitter.Node) -> ObjectRef | None:
        """The object an interface field holds where the function sets it last before the read, unconditionally
        (capsule's `r.base = base{obj: &discoveryv1.EndpointSlice{}, …}` then `For(r.base.obj)`); None otherwise."""
        function = file.enclosing_function(field)
        operand, name = field.child_by_field_name("operand"), parser.text(field.child_by_field_name("field"))
        if function is None or operand is None:
            return None
        held, whole = parser.text(operand), parser.text(field)
        body = function.child_by_field_name("body")
        top = {body, *(parser.named(body) if body is not None else ())}  # its statements, not nested blocks
        value = None
        for statement in parser.captures("(assignment_statement) @a", function).get("a", []):
            if statement.start_byte >= field.start_byte or statement.parent not in top:
                continue
            left_side, right = statement.child_by_field_name("left"), statement.child_by_field_name("right")
            left = parser.named(left_side) if left_side is not None else []
            values = parser.named(right) if right is not None else []
            if len(left) != 1 or len(values) != 1:
                continue
            written = values[0]
            if parser.text(left[0]) == whole:
                value = written
            elif parser.text(left[0]) == held:
                value = field_given(written, name)
        return self.object_of(file, value) if value is not None and value.type != "identifier" else None

    def _kind_set_on(
        self, file: GoFile, node: tree_sitter.Node, kind_of: Callable[[tree_sitter.Node], str | None] | None = None
    ) -> str | None:
        """The kind given to a PartialObjectMetadata or Unstructured object by its TypeMeta or a setter; `kind_of`
        reads the GroupVersionKind a setter is given (in a helper: through what its callers pass)."""
        literal = node
        declaration = self.declaration(file, node) if node.type == "identifier" else None
        if declaration is not None and declaration.value_node is not None:
            literal = declaration.value_node
            if literal.type == "unary_expression":
                literal = literal.child_by_field_name("operand") or literal
        if literal.type == "composite_literal":
            named = self._kind_in_literal(literal)
            if named:
                return named
        if declaration is None:
            return None
        return self._kind_from_setters(file, node, declaration, kind_of or (lambda given: self.gvk_kind(file, given)))

    def _kind_from_setters(
        self,
        file: GoFile,
        node: tree_sitter.Node,
        declaration: Declaration,
        kind_of: Callable[[tree_sitter.Node], str | None],
    ) -> str | None:
        scope = self.scope(file, node)
        if scope is None:
            return None
        for call in parser.captures(_SETTER_CALLS, scope.function).get("call", []):
            function = call.child_by_field_name("function")
            assert function is not None
            operand = function.child_by_field_name("operand")
            method = parser.text(function.child_by_field_name("field"))
            if method not in _GVK_SETTERS or operand is None or parser.text(operand) != declaration.name:
                continue
            if self.declaration(file, operand) != declaration:
                continue
            first = parser.first_named(call.child_by_field_name("arguments"))
            named = kind_of(first) if first is not None else None
            if named:
                return named
        return None

    def _kind_in_expression(self, node: tree_sitter.Node) -> str | None:
        """`corev1.SchemeGroupVersion.WithKind("Secret")`, `schema.GroupVersionKind{Kind: "Secret"}`, `"Secret"`."""
        for string in _strings_in(node):
            named = self.kinds.python_kind(string.removesuffix("List")) if string[:1].isupper() else None
            if named and named == string.removesuffix("List"):
                return named
        return None

    def _kind_in_literal(self, literal: tree_sitter.Node) -> str | None:
        for key, value in keyed_elements(literal):
            if key in ("TypeMeta", "Kind", "Object"):
                named = self._kind_in_expression(value)
                if named:
                    return named
        return None

    def gvk_kind(self, file: GoFile, node: tree_sitter.Node) -> str | None:
        """The kind named by a GroupVersionKind expression (GetInformerForKind, SetGroupVersionKind), also
        through a variable holding one (`gvk.ServiceAccount`, a package's table of the kinds it manages)."""
        return self._kind_in_expression(self._gvk_value(file, node) or node)

    def _gvk_value(self, file: GoFile, node: tree_sitter.Node) -> tree_sitter.Node | None:
        """The value a local or package variable named by `node` is declared with, if any."""
        if node.type == "identifier":
            declaration = self.declaration(file, node)
            if declaration is not None:
                return declaration.value_node if declaration.value_index == 0 else None
            variable = self.declarations.variables.get((file.package_path, parser.text(node)))
        elif node.type == "selector_expression" and (operand := node.child_by_field_name("operand")) is not None:
            package = file.imports.get(parser.text(operand)) if self._is_package(file, operand) else None
            field_name = parser.text(node.child_by_field_name("field"))
            variable = self.declarations.variables.get((package, field_name)) if package else None
        else:
            return None
        return variable.value_node if variable is not None else None

    def is_schema_type(self, ref: TypeRef | None) -> bool:
        return ref is not None and ref.package == SCHEMA

    def struct_elements(self, file: GoFile, literal: tree_sitter.Node) -> list[tuple[str, tree_sitter.Node]]:
        """The `Field: value` pairs of a struct literal; where it names no field (`&Controller{cli}`), its items
        paired with the fields of the module's struct in declaration order."""
        return keyed_elements(literal) or self.positional_elements(file, literal)

    def positional_elements(self, file: GoFile, literal: tree_sitter.Node) -> list[tuple[str, tree_sitter.Node]]:
        """`struct_elements` of a literal that names no field: its items paired with the fields of the module's
        struct in declaration order; none where it names fields or is no such struct's."""
        type_node = literal.child_by_field_name("type")
        if type_node is None or type_node.type not in _NAMED_TYPES:
            return []
        items = literal_items(literal)
        struct = resolve_type(type_node, file) if items else None
        fields = self.declarations.structs.get(self.declarations.unalias(struct.base)) if struct is not None else None
        if fields is None or len(fields) != len(items) or any(item.type == "keyed_element" for item in items):
            return []
        return [(info.name, item) for info, item in zip(fields, items, strict=True)]

    # -- strings -------------------------------------------------------------------------------------
    def _converted_receiver(self, file: GoFile, call: tree_sitter.Node, depth: int) -> str | None:
        """`traceFlag.String()` of a constant of a string type of the module whose String returns it."""
        function = call.child_by_field_name("function")
        arguments = call.child_by_field_name("arguments")
        if function is None or function.type != "selector_expression" or parser.named(arguments or call):
            return None
        operand = function.child_by_field_name("operand")
        value = self.string_value(file, operand, depth + 1) if operand is not None else None
        type_ref = self.type_of(file, operand) if value is not None and operand is not None else None
        method = (
            self.declarations.method(type_ref, parser.text(function.child_by_field_name("field"))) if type_ref else None
        )
        return value if method is not None and _returns_its_receiver(method.node) else None

    def ranges_over(self, file: GoFile, index: tree_sitter.Node | None, container: tree_sitter.Node | None) -> bool:
        """Whether `index` is the key of a `for i := range container` loop over the same expression."""
        if index is None or container is None or index.type != "identifier":
            return False
        declaration = self.declaration(file, index)
        ranged = declaration.indexes if declaration is not None else None
        return ranged is not None and parser.text(ranged) == parser.text(container)

    def reassigned(
        self, file: GoFile, node: tree_sitter.Node, declaration: Declaration, *, results: bool = False
    ) -> list[tree_sitter.Node]:
        """The values a local is assigned later in its function (`x = value`), where the name written is that
        local and not a same-named one of another block; with `results`, also the calls whose result it takes
        among others (`x, err = parse(…)`)."""
        scope = self.scope(file, node)
        if scope is None:
            return []
        written = [*scope.assignments.get(declaration.name, [])]
        if results:
            written.extend(call for call, _ in scope.results.get(declaration.name, []))
        return [value for value in written if scope.lookup(declaration.name, value.start_byte) is declaration]

    def _keeps(self, file: GoFile, node: tree_sitter.Node, declaration: Declaration, value: str, depth: int) -> bool:
        """Whether a local keeps the string it is declared with: every later write of it writes that string
        (redis-operator's `workload := LabelWorkloadData; if role == sentinel { workload = … }` varies)."""
        return all(
            self.string_value(file, written, depth + 1) == value for written in self.reassigned(file, node, declaration)
        )

    def string_value(self, file: GoFile, node: tree_sitter.Node | None, depth: int = 0) -> str | None:
        """The string a literal or a constant holds (`"spec.nodeName"`, `podJobKey`, `constants.JobKey`),
        also through `string(…)` and local variables; None when it cannot be told."""
        if node is None or depth > MAX_DEPTH:
            return None
        if node.type in ("interpreted_string_literal", "raw_string_literal"):
            return unquote(parser.text(node))
        if node.type == "parenthesized_expression" or (
            node.type == "call_expression" and parser.text(node.child_by_field_name("function")) == "string"
        ):
            inner = node if node.type == "parenthesized_expression" else node.child_by_field_name("arguments")
            return self.string_value(file, parser.first_named(inner), depth + 1)
        if node.type == "identifier" and (declaration := self.declaration(file, node)) is not None:
            if declaration.parameter_index >= 0 or declaration.ranged_node is not None:
                return None
            declared = self.string_value(file, declaration.value_node, depth + 1)
            return declared if declared is None or self._keeps(file, node, declaration, declared, depth) else None
        if node.type == "call_expression":
            return self._converted_receiver(file, node, depth)
        if node.type == "binary_expression" and parser.text(node.child_by_field_name("operator")) == "+":
            # `labelPrefix + "managed-by"`: both halves known, or nothing
            left = self.string_value(file, node.child_by_field_name("left"), depth + 1)
            right = self.string_value(file, node.child_by_field_name("right"), depth + 1) if left is not None else None
            return left + right if left is not None and right is not None else None
        variable = None
        if node.type == "identifier":
            variable = self.declarations.variables.get((file.package_path, parser.text(node)))
        elif node.type == "selector_expression":
            operand = node.child_by_field_name("operand")
            package = file.imports.get(parser.text(operand)) if operand is not None else None
            name = parser.text(node.child_by_field_name("field"))
            variable = self.declarations.variables.get((package, name)) if package is not None else None
        return self.string_value(variable.file, variable.value_node, depth + 1) if variable is not None else None


def _returns_its_receiver(function: tree_sitter.Node) -> bool:
    """A method whose one statement returns its receiver as a string (`func (f flagName) String() string {
    return string(f) }`)."""
    receiver = receiver_name(function)
    statements = return_statements(function)
    items = return_items(statements[0]) if len(statements) == 1 else []
    if receiver is None or len(items) != 1:
        return False
    item = items[0]
    if item.type == "call_expression" and parser.text(item.child_by_field_name("function")) == "string":
        item = parser.first_named(item.child_by_field_name("arguments") or item) or item
    return parser.text(item) == parser.text(receiver)


def unquote(literal: str) -> str:
    """The text of a Go string literal: raw strings as written, `\\"` and `\\\\` unescaped in interpreted ones."""
    if literal[:1] == "`":
        return literal.strip("`")
    body = literal[1:-1] if len(literal) >= 2 else literal
    return body.replace('\\"', '"').replace("\\\\", "\\")


def append_arguments(node: tree_sitter.Node) -> list[tree_sitter.Node] | None:
    """The arguments of a call of the builtin `append` (the list first), None for any other expression."""
    function = node.child_by_field_name("function") if node.type == "call_expression" else None
    if function is None or parser.text(function) != "append":
        return None
    return parser.named(node.child_by_field_name("arguments") or node)


def is_slice_literal(node: tree_sitter.Node) -> bool:
    """`[]T{…}`."""
    return _literal_type(node) == "slice_type"


def is_map_literal(node: tree_sitter.Node) -> bool:
    """`map[K]V{…}`."""
    return _literal_type(node) == "map_type"


def _literal_type(node: tree_sitter.Node) -> str | None:
    type_node = node.child_by_field_name("type") if node.type == "composite_literal" else None
    return type_node.type if type_node is not None else None


_NAMED_TYPES = frozenset({"type_identifier", "qualified_type"})  # a struct literal's type by name


def literal_items(literal: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The element expressions of an unkeyed composite literal (`[]client.Object{a, b}`)."""
    body = literal.child_by_field_name("body")
    elements = parser.named(body) if body is not None else []
    return [element_value(e) for e in elements]


def element_value(element: tree_sitter.Node) -> tree_sitter.Node:
    """What a composite literal's element holds: the expression inside a `literal_element`, else itself."""
    return (parser.first_named(element) or element) if element.type == "literal_element" else element


def holding_literal(value: tree_sitter.Node) -> tree_sitter.Node | None:
    """The literal a value is written in under a key (`client.Options{Cache: &client.CacheOptions{…}}`,
    `{Enabled: on, Controller: &R{}}`): its composite literal, or the literal value of an element a slice
    literal writes without its type; None for a value under no key."""
    node = value.parent
    if node is not None and node.type == "unary_expression":
        node = node.parent
    while node is not None and node.type == "literal_element":
        node = node.parent
    if node is None or node.type != "keyed_element":
        return None
    body = node.parent
    entry = body.parent if body is not None and body.type == "literal_value" else None
    return entry if entry is not None and entry.type in ("composite_literal", "literal_value") else body


def assigned_to(value: tree_sitter.Node) -> tree_sitter.Node | None:
    """What a value is declared or assigned to, in its place of the list (`x := value`, `s.informer = value`,
    `m[key] = value`, `a, b = x, value`); None for a value no declaration or assignment writes."""
    values = value.parent
    statement = values.parent if values is not None and values.type == "expression_list" else None
    if values is None or statement is None or statement.type not in ("short_var_declaration", "assignment_statement"):
        return None
    if statement.child_by_field_name("right") != values:
        return None
    left = statement.child_by_field_name("left")
    names = parser.named(left) if left is not None else []
    index = next((i for i, item in enumerate(parser.named(values)) if item == value), -1)
    return names[index] if 0 <= index < len(names) else None


def is_written(target: tree_sitter.Node) -> bool:
    """Whether an expression is what an assignment writes (`cfg.Include = …`, among its left side) or `x++`
    changes, rather than a value read."""
    listed = target.parent
    if listed is not None and listed.type in ("inc_statement", "dec_statement"):
        return True
    statement = listed.parent if listed is not None and listed.type == "expression_list" else None
    return (
        statement is not None
        and statement.type == "assignment_statement"
        and statement.child_by_field_name("left") == listed
    )


def option_holder(function: tree_sitter.Node, name: str) -> tree_sitter.Node | None:
    """Where a function literal is given as the option field `name` (`NewCache: func(…) {…}`, `opts.NewClient =
    func(…) {…}`): the literal holding it, or the expression whose field it is assigned to; None otherwise."""
    if function.type != "func_literal":
        return None
    if key_of(function) == name:
        return holding_literal(function)
    target = assigned_to(function)
    if target is None or target.type != "selector_expression":
        return None
    field = target.child_by_field_name("field")
    return target.child_by_field_name("operand") if field is not None and parser.text(field) == name else None


def key_of(value: tree_sitter.Node) -> str | None:
    """The key a value is written under in a literal (`NewCache` of `NewCache: func(…) {…}`, `MatchLabels` of
    `MatchLabels: map[string]string{…}`); None for a value under no key, or for a key itself."""
    holder = value.parent
    element = holder.parent if holder is not None and holder.type == "literal_element" else None
    key = element.child_by_field_name("key") if element is not None and element.type == "keyed_element" else None
    return parser.text(key) if key is not None and key != holder else None


def struct_literal_of(value: tree_sitter.Node | None) -> tree_sitter.Node | None:
    """The composite literal a value is, or takes the address of (`Recorder{…}`, `&Recorder{…}`); None for
    another value."""
    if value is not None and value.type == "unary_expression":
        value = value.child_by_field_name("operand")
    return value if value is not None and value.type == "composite_literal" else None


def keyed_elements(literal: tree_sitter.Node) -> list[tuple[str, tree_sitter.Node]]:
    """The `Key: value` pairs of a composite literal whose keys are plain names."""
    body = literal.child_by_field_name("body") if literal.type == "composite_literal" else literal
    pairs = []
    for element in body.named_children if body is not None else ():
        if element.type != "keyed_element":
            continue
        key = element.child_by_field_name("key")
        value = element.child_by_field_name("value")
        if key is None or value is None:
            continue
        key_node = element_value(key)
        value_node = element_value(value)
        if key_node.type in ("identifier", "field_identifier"):
            pairs.append((parser.text(key_node), value_node))
    return pairs


def field_given(value: tree_sitter.Node, name: str) -> tree_sitter.Node | None:
    """The value a struct literal, also behind `&`, gives field `name` (`x` of `&T{Object: x}`, or of an item
    `{Object: x}` of a slice literal); None where it gives none."""
    literal = value.child_by_field_name("operand") if value.type == "unary_expression" else value
    return next((given for key, given in keyed_elements(literal) if key == name), None) if literal else None


def keyed_entries(literal: tree_sitter.Node) -> list[tuple[tree_sitter.Node, tree_sitter.Node]]:
    """Every `key: value` pair of a composite literal (map literals have expression keys)."""
    body = literal.child_by_field_name("body") if literal.type == "composite_literal" else literal
    pairs = []
    for element in body.named_children if body is not None else ():
        if element.type != "keyed_element":
            continue
        key = element.child_by_field_name("key")
        value = element.child_by_field_name("value")
        if key is None or value is None:
            continue
        key_node = element_value(key)
        value_node = element_value(value)
        pairs.append((key_node, value_node))
    return pairs


def _strings_in(node: tree_sitter.Node) -> list[str]:
    found = parser.captures("[(interpreted_string_literal) (raw_string_literal)] @s", node).get("s", [])
    return [parser.text(item).strip('"`') for item in sorted(found, key=lambda item: item.start_byte)]


def _group_client_built(file: GoFile, operand: tree_sitter.Node | None, name: str) -> TypeRef | None:
    """`*CoreV1Client` for `corev1client.NewForConfig(cfg)` of k8s.io/client-go/kubernetes/typed/core/v1."""
    package = file.imports.get(parser.text(operand)) if operand is not None and operand.type == "identifier" else None
    if package is None or not package.startswith(TYPED_CLIENTS) or name not in _GROUP_CLIENT_CONSTRUCTORS:
        return None
    group, version = package.split("/")[-2:]
    return TypeRef(package, group.capitalize() + version.capitalize() + "Client", True)


def _library_built(file: GoFile, operand: tree_sitter.Node | None, name: str) -> TypeRef | None:
    """The pointer a library constructor of `_LIBRARY_BUILT` returns (`*clients.Clients` for wrangler's
    `clients.NewFromConfig(cfg, nil)`, `*viper.Viper` for `viper.New()`), which a local then holds."""
    package = file.imports.get(parser.text(operand)) if operand is not None and operand.type == "identifier" else None
    if package is None:
        return None
    for pattern, constructors, built in _LIBRARY_BUILT:
        if name in constructors and pattern.match(package):
            return TypeRef(package, built, True)
    return None


# the fields a chain of selectors is followed through (`opts.Cache.ByObject`), at most
_SELECTED_FIELDS = 8


def selector_chain(target: tree_sitter.Node) -> tuple[tree_sitter.Node, list[str]]:
    """`opts` and `["Cache", "ByObject"]` of `opts.Cache.ByObject`: what the fields are selected from, and them."""
    fields: list[str] = []
    while target.type == "selector_expression" and len(fields) < _SELECTED_FIELDS:
        operand = target.child_by_field_name("operand")
        if operand is None:
            break
        fields.insert(0, parser.text(target.child_by_field_name("field")))
        target = operand
    return target, fields


def selector_root(target: tree_sitter.Node) -> tree_sitter.Node | None:
    """`opts` of `opts.Cache.ByObject` (and of `opts`)."""
    root, _ = selector_chain(target)
    return root if root.type == "identifier" else None


def _variable_key(file: GoFile, named: tree_sitter.Node) -> tuple[str, str] | None:
    """The (package, name) a package variable written `named` would have: `watched` of the file's package, or
    `config.MountManager` of an imported one; whether a local hides it is not asked."""
    if named.type == "identifier":
        return file.package_path, parser.text(named)
    operand = named.child_by_field_name("operand") if named.type == "selector_expression" else None
    if operand is None or operand.type != "identifier" or parser.text(operand) not in file.imports:
        return None
    return file.imports[parser.text(operand)], parser.text(named.child_by_field_name("field"))
