"""Module-wide declarations: struct fields, functions and package variables, and type expressions -> TypeRef."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import tree_sitter

from watchlint.frozeninit import direct_init
from watchlint.go import parser
from watchlint.go.model import CR_CLIENT, GoFile, TypeRef
from watchlint.go.structtags import tag_items

PREDECLARED = frozenset(
    {
        *("bool", "byte", "complex64", "complex128", "error", "float32", "float64", "int", "int8", "int16"),
        *("int32", "int64", "rune", "string", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr"),
        *("any", "comparable"),
    }
)
_RECONCILE = "sigs.k8s.io/controller-runtime/pkg/reconcile"
_MANAGER = "sigs.k8s.io/controller-runtime/pkg/manager"
# the methods of library interfaces a module interface embeds, where they are few and well known: kubeedge's
# `Controller interface { SetupWithManager(…); reconcile.Reconciler }` is implemented by the types with both
LIBRARY_INTERFACES = {
    TypeRef(_RECONCILE, "Reconciler"): frozenset({"Reconcile"}),
    TypeRef(_RECONCILE, "TypedReconciler"): frozenset({"Reconcile"}),
    TypeRef(_MANAGER, "Runnable"): frozenset({"Start"}),
    TypeRef(_MANAGER, "LeaderElectionRunnable"): frozenset({"NeedLeaderElection"}),
    TypeRef("sigs.k8s.io/controller-runtime/pkg/webhook/admission", "Handler"): frozenset({"Handle"}),
    TypeRef("fmt", "Stringer"): frozenset({"String"}),
    TypeRef("", "error"): frozenset({"Error"}),
}


# the structs uber's fx (and dig, beneath it) fills from what constructors provide, and those constructors return
_INJECTED_INTO = frozenset({TypeRef("go.uber.org/fx", "In"), TypeRef("go.uber.org/dig", "In")})
_PROVIDED_BY = frozenset({TypeRef("go.uber.org/fx", "Out"), TypeRef("go.uber.org/dig", "Out")})

# the type expressions of anonymous types whose zero value is nil
_NILABLE_TYPES = frozenset({"function_type", "channel_type", "interface_type", "map_type"})


def resolve_type(node: tree_sitter.Node | None, file: GoFile) -> TypeRef | None:
    """Turn a type expression into a TypeRef in the context of its file; None for anonymous types. Kept on the
    file: the passes ask for the same field and parameter types again and again."""
    if node is None:
        return None
    known = file.resolved_types
    if node.id not in known:
        known[node.id] = _resolve_type(node, file)
    return known[node.id]


def _resolve_type(node: tree_sitter.Node, file: GoFile) -> TypeRef | None:
    kind = node.type
    if kind == "pointer_type":
        inner = resolve_type(parser.first_named(node), file)
        return TypeRef(inner.package, inner.name, True, inner.slice) if inner else None
    if kind in ("slice_type", "map_type"):  # a container of T, by index: `clients[0]`, `readers["home"]`
        element = node.child_by_field_name("element" if kind == "slice_type" else "value")
        inner = resolve_type(element, file)
        return TypeRef(inner.package, inner.name, inner.pointer, True) if inner else None
    if kind in ("parenthesized_type", "type_elem"):
        return resolve_type(parser.first_named(node), file)
    if kind == "generic_type":
        return resolve_type(node.child_by_field_name("type"), file)
    if kind == "qualified_type":
        package = parser.text(node.child_by_field_name("package"))
        name = parser.text(node.child_by_field_name("name"))
        path = file.imports.get(package)
        return TypeRef(path, name) if path else None
    if kind == "type_identifier":
        name = parser.text(node)
        return TypeRef("", name) if name in PREDECLARED else TypeRef(file.package_path, name)
    if kind == "interface_type" and _declares_client_reads(node, file):
        return TypeRef(CR_CLIENT, "Reader")
    return None


def _declares_client_reads(interface: tree_sitter.Node, file: GoFile) -> bool:
    """An anonymous interface with client.Reader's Get or List (`Reader interface { Get(ctx,
    client.ObjectKey, client.Object, …) error }`): a field of that type holds a controller-runtime client."""
    for method in interface.named_children:
        name = method.child_by_field_name("name") if method.type == "method_elem" else None
        if parser.text(name) not in ("Get", "List"):
            continue
        parameters = method.child_by_field_name("parameters")
        for parameter in parameters.named_children if parameters is not None else ():
            ref = resolve_type(parameter.child_by_field_name("type"), file)
            if ref is not None and ref.is_(CR_CLIENT, "Object", "ObjectList"):
                return True
    return False


MAX_EMBEDDING = 3  # embedded structs a promoted method is looked for through


@direct_init
@dataclass(frozen=True, slots=True)
class FieldInfo:
    name: str  # the field name; for an embedded field, the type's name
    type: TypeRef | None
    is_embedded: bool
    file_key: str = ""  # the key a configuration file names it by (`yaml:"watchNamespace"`, else json's), if tagged
    tagged: bool = False  # declared with a tag: a decoder or a reflecting filler may write it (keda's `keda:"…"`)
    # of an anonymous func, channel, interface or map type, whose zero value is nil (a factory seam tests set)
    nilable: bool = False
    # the `name:"…"` of its tag, by which uber's fx (and dig) hand a value a constructor's fx.Out struct provides to
    # the fx.In struct of one asking for it
    injected: str = ""


@direct_init
@dataclass(frozen=True, slots=True)
class Parameter:
    name: str
    type: TypeRef | None
    index: int
    variadic: bool = False  # `options ...PatchOption`: the last, holding what the calls pass from its place on


@direct_init
@dataclass(frozen=True, slots=True)
class FunctionKey:
    package: str  # import path
    receiver: str  # receiver type name, "" for a plain function
    name: str


@dataclass(slots=True)
class FunctionInfo:
    key: FunctionKey
    file: GoFile
    node: tree_sitter.Node  # function_declaration or method_declaration
    parameters: tuple[Parameter, ...]
    results: tuple[TypeRef | None, ...]

    def positions(self) -> dict[str, int]:
        """Each named parameter's place in the call's arguments."""
        return {parameter.name: parameter.index for parameter in self.parameters}

    def parameter_at(self, index: int, *, variadic: bool = True) -> Parameter | None:
        """The parameter taking the argument at `index` where the call passes them one by one; without
        `variadic`, None where that is a variadic parameter (which takes the rest, not that one argument)."""
        found = next((parameter for parameter in self.parameters if parameter.index == index), None)
        return None if found is not None and found.variadic and not variadic else found


@dataclass(slots=True)
class PackageVariable:
    file: GoFile
    type_node: tree_sitter.Node | None
    value_node: tree_sitter.Node | None
    iota: int | None = None  # a constant's place in its declaration, what `iota` stands for in its value


def _embeds(fields: tuple[FieldInfo, ...], embedded: frozenset[TypeRef]) -> bool:
    return any(info.is_embedded and info.type is not None and info.type.base in embedded for info in fields)


def _client_applicator(package: str) -> tuple[TypeRef, tuple[FieldInfo, ...]]:
    client = TypeRef(CR_CLIENT, "Client")
    return TypeRef(package, "ClientApplicator"), (
        FieldInfo("Client", client, is_embedded=True),
        FieldInfo("Applicator", TypeRef(package, "Applicator"), is_embedded=True),
    )


# Structs of libraries that embed a controller-runtime client, which reads through them reach: crossplane's
# ClientApplicator, used by crossplane and its providers (`cl.Get` is the embedded client's Get).
_LIBRARY_STRUCTS = dict(
    _client_applicator(f"github.com/crossplane/crossplane-runtime{major}/pkg/resource") for major in ("", "/v2")
)


@dataclass(slots=True)
class Declarations:
    """What the module declares, looked up by import path and name."""

    structs: dict[TypeRef, tuple[FieldInfo, ...]] = field(default_factory=lambda: dict(_LIBRARY_STRUCTS))
    interfaces: dict[TypeRef, tuple[TypeRef, ...]] = field(default_factory=dict)  # embedded interfaces
    interface_methods: dict[TypeRef, frozenset[str]] = field(default_factory=dict)  # declared, not embedded
    # what each declared method of a module interface returns, by interface and method name
    interface_results: dict[tuple[TypeRef, str], tuple[TypeRef | None, ...]] = field(default_factory=dict)
    # interfaces declaring controller-runtime's reads (`Get(ctx, key, obj client.Object, …) error`): a client
    # narrowed to what a type needs, whatever it embeds
    reader_interfaces: set[TypeRef] = field(default_factory=set)
    aliases: dict[TypeRef, TypeRef] = field(default_factory=dict)  # `type X = Y` and `type X Y`
    # `type Constructor func(client.Client, …) Controller`: the function type, with the file declaring it
    function_types: dict[TypeRef, tuple[GoFile, tree_sitter.Node]] = field(default_factory=dict)
    functions: dict[FunctionKey, FunctionInfo] = field(default_factory=dict)
    variables: dict[tuple[str, str], PackageVariable] = field(default_factory=dict)
    # struct types declared inside functions, by their package and name: a package-level type of the name
    # takes precedence, and two functions declaring different structs of one name make it unknown
    _local_structs: dict[TypeRef, tuple[FieldInfo, ...] | None] = field(default_factory=dict)
    _names: frozenset[str] | None = None  # see may_name_a_function

    def add_file(self, file: GoFile) -> None:
        self._names = None
        for node in file.tree.root_node.named_children:
            if node.type == "type_declaration":
                self._add_types(node, file)
            elif node.type in ("function_declaration", "method_declaration"):
                self._add_function(node, file)
            elif node.type == "var_declaration":
                for spec in _specs(node, "var_spec"):
                    self._add_variable(spec, file)
            elif node.type == "const_declaration":
                self._add_constants(node, file)

    def may_name_a_function(self, name: str) -> bool:
        """Whether a function or method the module declares, or a package variable (which may hold one), has
        this name: a selector of another name (`r.Client`, `obj.Name`) names none, and its operand's type is
        not looked up for it."""
        if self._names is None:
            self._names = frozenset(key.name for key in self.functions) | {name for _, name in self.variables}
        return name in self._names

    def field(self, struct: TypeRef, name: str) -> tuple[TypeRef, FieldInfo] | None:
        """A field of a struct and the struct declaring it, including fields promoted from embedded structs."""
        return self._field(self.unalias(struct.base), name, depth=0)

    def _field(self, struct: TypeRef, name: str, depth: int) -> tuple[TypeRef, FieldInfo] | None:
        fields = self.structs.get(struct)
        if fields is None or depth > 4:
            return None
        for info in fields:
            if info.name == name:
                return struct, info
        for info in fields:
            if info.is_embedded and info.type is not None:
                found = self._field(self.unalias(info.type.base), name, depth + 1)
                if found is not None:
                    return found
        return None

    def provided_for(self, owner: TypeRef, name: str) -> list[tuple[TypeRef, str]]:
        """For a field of an fx.In struct tagged `name:"x"`, which fx fills and no code writes, the fields of the
        module's fx.Out structs tagged alike: the values the constructors returning those give them are what it
        holds (chaos-mesh's `NoCacheReader client.Reader `name:"no-cache"``, provided by `noCacheReader{Reader:
        mgr.GetAPIReader()}`)."""
        declared = self.field(owner, name)
        if declared is None or not declared[1].injected or not _embeds(self.structs[declared[0]], _INJECTED_INTO):
            return []
        return [
            (struct, info.name)
            for struct, fields in self.structs.items()
            if _embeds(fields, _PROVIDED_BY)
            for info in fields
            if info.injected == declared[1].injected
        ]

    def declares_type(self, ref: TypeRef) -> bool:
        """Whether a (base, unaliased) type is a struct or an interface the module declares."""
        return ref in self.interfaces or (ref in self.structs and ref not in _LIBRARY_STRUCTS)

    def unalias(self, ref: TypeRef) -> TypeRef:
        seen = 0
        while ref.base in self.aliases and seen < 5:
            target = self.aliases[ref.base]
            ref = TypeRef(target.package, target.name, ref.pointer or target.pointer, ref.slice or target.slice)
            seen += 1
        return ref

    def required_methods(
        self, interface: TypeRef, depth: int = 0, *, known_only: bool = False
    ) -> frozenset[str] | None:
        """The method names a type must have to implement a module interface, embedded ones included; None
        when an embedded interface is neither the module's nor a well-known library's (its methods are not
        known), or with `known_only` the names that are known (an implementation embeds `client.Object` for
        the interface's `client.Object`)."""
        if interface not in self.interfaces:
            if depth and known_only:
                return LIBRARY_INTERFACES.get(interface, frozenset())
            return LIBRARY_INTERFACES.get(interface) if depth else None
        found = set(self.interface_methods.get(interface, ()))
        for embedded in self.interfaces.get(interface, ()):
            inner = (
                self.required_methods(self.unalias(embedded), depth + 1, known_only=known_only) if depth < 8 else None
            )
            if inner is None:
                return None
            found |= inner
        return frozenset(found)

    def method(self, receiver: TypeRef, name: str, depth: int = 0) -> FunctionInfo | None:
        """A method of a type, or of the type it is declared over or an alias of (`type Strings []string`
        declares its own; `type Client = other.Client` has the other's), or one promoted from a module struct
        it embeds (`c.UpdateOwned(…)` on a struct embedding `*helper.Client`)."""
        ref, seen = receiver.base, 0
        while True:
            found = self.functions.get(FunctionKey(ref.package, ref.name, name))
            if found is not None or ref.base not in self.aliases or seen == 5:
                break
            ref, seen = self.aliases[ref.base].base, seen + 1
        if found is not None or depth >= MAX_EMBEDDING:
            return found
        promoted = [
            inner
            for info in self.structs.get(ref.base, ())
            if info.is_embedded and info.type is not None
            if (inner := self.method(info.type, name, depth + 1)) is not None
        ]
        return promoted[0] if len(promoted) == 1 else None  # two at one depth: ambiguous, Go rejects the call

    def _add_struct(self, ref: TypeRef, type_node: tree_sitter.Node, file: GoFile) -> None:
        """A struct type's fields, and those of the anonymous struct types of its fields."""
        nested: dict[TypeRef, tuple[FieldInfo, ...]] = {}
        self.structs[ref] = tuple(_struct_fields(type_node, file, ref.name, nested))
        self._local_structs.pop(ref, None)
        for inner, fields in nested.items():
            self.structs.setdefault(inner, fields)

    def _add_types(self, node: tree_sitter.Node, file: GoFile) -> None:
        for spec in _specs(node, "type_spec", "type_alias"):
            name_node = spec.child_by_field_name("name")
            type_node = spec.child_by_field_name("type")
            if name_node is None or type_node is None:
                continue
            ref = TypeRef(file.package_path, parser.text(name_node))
            if type_node.type == "struct_type":
                self._add_struct(ref, type_node, file)
            elif type_node.type == "interface_type":
                embedded = [resolve_type(parser.named(child)[0], file) for child in _interface_elements(type_node)]
                self.interfaces[ref] = tuple(item for item in embedded if item is not None)
                names = (child.child_by_field_name("name") for child in type_node.named_children)
                self.interface_methods[ref] = frozenset(parser.text(name) for name in names if name is not None)
                for child in type_node.named_children:
                    method = child.child_by_field_name("name")
                    if method is not None:
                        results = function_results(child.child_by_field_name("result"), file)
                        self.interface_results[(ref, parser.text(method))] = results
                if any(_declares_a_read(child, file) for child in type_node.named_children):
                    self.reader_interfaces.add(ref)
            elif type_node.type == "function_type":
                self.function_types[ref] = (file, type_node)
            else:
                target = resolve_type(type_node, file)
                if target is not None and target != ref:
                    self.aliases[ref] = target

    def _add_function(self, node: tree_sitter.Node, file: GoFile) -> None:
        name = parser.text(node.child_by_field_name("name"))
        receiver = ""
        receiver_node = node.child_by_field_name("receiver")
        if receiver_node is not None:
            for parameter in parser.named(receiver_node):
                ref = resolve_type(parameter.child_by_field_name("type"), file)
                receiver = ref.name if ref else ""
        key = FunctionKey(file.package_path, receiver, name)
        parameters = tuple(parameters_of(node.child_by_field_name("parameters"), file))
        results = function_results(node.child_by_field_name("result"), file)
        self.functions[key] = FunctionInfo(key, file, node, parameters, results)
        body = node.child_by_field_name("body")
        if body is not None and b"type " in file.source.data[body.start_byte : body.end_byte]:
            for declaration in parser.captures("(type_declaration) @type", body).get("type", []):
                self._add_local_structs(declaration, file)

    def _add_local_structs(self, declaration: tree_sitter.Node, file: GoFile) -> None:
        """`type jobItem struct{ job *batchv1.Job }` in a function: its fields resolve like a package type's."""
        for spec in _specs(declaration, "type_spec"):
            name_node, type_node = spec.child_by_field_name("name"), spec.child_by_field_name("type")
            if name_node is None or type_node is None or type_node.type != "struct_type":
                continue
            ref = TypeRef(file.package_path, parser.text(name_node))
            fields = tuple(_struct_fields(type_node, file))
            if ref in self.structs and ref not in self._local_structs:
                continue  # a package-level type of that name
            if ref in self._local_structs and self._local_structs[ref] != fields:
                self._local_structs[ref] = None
                self.structs.pop(ref, None)
                continue
            if ref not in self._local_structs:
                self._local_structs[ref] = fields
                self.structs[ref] = fields

    def _add_variable(self, spec: tree_sitter.Node, file: GoFile) -> None:
        names = [child for child in spec.children_by_field_name("name")]
        values = spec.child_by_field_name("value")
        value_nodes = parser.named(values) if values is not None else []
        for position, name in enumerate(names):
            value = value_nodes[position] if position < len(value_nodes) else None
            key = (file.package_path, parser.text(name))
            self.variables[key] = PackageVariable(file, spec.child_by_field_name("type"), value)

    def _add_constants(self, declaration: tree_sitter.Node, file: GoFile) -> None:
        """A constant without a value repeats the type and the values of the one before, with `iota` one more
        (`Kubernetes Cluster = iota` then `OpenShift`: 0, 1)."""
        type_node: tree_sitter.Node | None = None
        value_nodes: list[tree_sitter.Node] = []
        for index, spec in enumerate(_specs(declaration, "const_spec")):
            values = spec.child_by_field_name("value")
            if values is not None:
                type_node, value_nodes = spec.child_by_field_name("type"), parser.named(values)
            for position, name in enumerate(spec.children_by_field_name("name")):
                value = value_nodes[position] if position < len(value_nodes) else None
                self.variables[(file.package_path, parser.text(name))] = PackageVariable(file, type_node, value, index)


def _specs(node: tree_sitter.Node, *types: str) -> Iterator[tree_sitter.Node]:
    for child in node.named_children:
        if child.type in types:
            yield child
        elif child.type.endswith("_spec_list"):
            yield from (grandchild for grandchild in child.named_children if grandchild.type in types)


def _struct_fields(
    struct: tree_sitter.Node,
    file: GoFile,
    owner: str = "",
    nested: dict[TypeRef, tuple[FieldInfo, ...]] | None = None,
) -> Iterator[FieldInfo]:
    """The fields of a struct type; a field of an anonymous struct type (clickhouse-operator's `Namespaces
    struct { Include *Strings }`) is given a type named after its place, `Owner.Field`, whose fields go into
    `nested`."""
    for declarations in struct.named_children:
        if declarations.type != "field_declaration_list":
            continue
        for declaration in declarations.named_children:
            if declaration.type != "field_declaration":
                continue
            type_node = declaration.child_by_field_name("type")
            type_ref = resolve_type(type_node, file)
            names = declaration.children_by_field_name("name")
            if type_ref is None and nested is not None and owner and len(names) == 1:
                type_ref = _anonymous_struct(type_node, file, f"{owner}.{parser.text(names[0])}", nested)
            tag = declaration.child_by_field_name("tag")
            items = tag_items(parser.text(tag)) if tag is not None else {}
            injected = items.get("name", "")
            if names:
                key = _file_key(items) if len(names) == 1 else ""
                nilable = type_ref is None and type_node is not None and type_node.type in _NILABLE_TYPES
                for name in names:
                    yield FieldInfo(parser.text(name), type_ref, False, key, tag is not None, nilable, injected)
            elif type_ref is not None:
                yield FieldInfo(type_ref.name, type_ref, is_embedded=True, injected=injected)


def _anonymous_struct(
    type_node: tree_sitter.Node | None, file: GoFile, name: str, nested: dict[TypeRef, tuple[FieldInfo, ...]]
) -> TypeRef | None:
    """The type a field of an anonymous struct type (or a pointer to one) is given, its fields recorded."""
    pointer = type_node is not None and type_node.type == "pointer_type"
    inner = parser.first_named(type_node) if pointer and type_node is not None else type_node
    if inner is None or inner.type != "struct_type":
        return None
    ref = TypeRef(file.package_path, name)
    nested[ref] = tuple(_struct_fields(inner, file, name, nested))
    return TypeRef(ref.package, ref.name, pointer)


def _file_key(items: dict[str, str]) -> str:
    """The key a field's `yaml` (else `json`, else go-ini's `ini`) tag item names it by; "" where it has none, or is
    left out (`-`)."""
    key = (items.get("yaml") or items.get("json") or items.get("ini") or "").split(",", 1)[0]
    return key if key != "-" else ""


_READ_OBJECTS = {"Get": "Object", "List": "ObjectList"}


def _declares_a_read(element: tree_sitter.Node, file: GoFile) -> bool:
    """Whether an interface element is controller-runtime's Get or List: the method of the name taking a
    `client.Object` (`client.ObjectList`)."""
    name = element.child_by_field_name("name") if element.type == "method_elem" else None
    wanted = _READ_OBJECTS.get(parser.text(name)) if name is not None else None
    if wanted is None:
        return False
    parameters = parameters_of(element.child_by_field_name("parameters"), file)
    return any(parameter.type is not None and parameter.type.is_(CR_CLIENT, wanted) for parameter in parameters)


def _interface_elements(interface: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    for child in interface.named_children:
        if child.type == "type_elem" and parser.named(child):
            yield child


def parameters_of(parameter_list: tree_sitter.Node | None, file: GoFile) -> Iterator[Parameter]:
    if parameter_list is None:
        return
    index = 0
    for declaration in parameter_list.named_children:
        if declaration.type not in ("parameter_declaration", "variadic_parameter_declaration"):
            continue
        type_ref = resolve_type(declaration.child_by_field_name("type"), file)
        names = [parser.text(name) for name in declaration.children_by_field_name("name")] or ["_"]
        variadic = declaration.type == "variadic_parameter_declaration"
        for name in names:
            yield Parameter(name, type_ref, index, variadic)
            index += 1


def function_results(result: tree_sitter.Node | None, file: GoFile) -> tuple[TypeRef | None, ...]:
    """The types a function (or function type) returns, given its `result` node."""
    if result is None:
        return ()
    if result.type == "parameter_list":
        return tuple(parameter.type for parameter in parameters_of(result, file))
    return (resolve_type(result, file),)
