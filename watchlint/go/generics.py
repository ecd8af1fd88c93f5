"""Objects whose type is a type parameter of the generic function around them (`live := new(U)`, `var obj T`,
`T(live)`): the function's callers name the kind, by the value they pass for a parameter of that type (a
read's object) or by the type arguments they write (a ByObject helper's key, byobjecthelpers)."""

from __future__ import annotations

import tree_sitter

from watchlint.facts import ObjectForm
from watchlint.go import parser
from watchlint.go.declarations import FunctionKey, resolve_type
from watchlint.go.model import GoFile
from watchlint.go.resolve import ObjectRef, Resolver
from watchlint.go.scope import Declaration

_MAX_HOPS = 3  # locals and conversions between the object and its type parameter
_QUALIFIED = "(qualified_type) @type"


def type_parameter_names(function: tree_sitter.Node) -> frozenset[str]:
    """The names a function declares as type parameters (`[U any, T object[U]]`)."""
    return frozenset(_declared_type_parameters(function))


def _declared_type_parameters(function: tree_sitter.Node) -> dict[str, tree_sitter.Node | None]:
    """Each type parameter's name and its constraint."""
    declared = function.child_by_field_name("type_parameters")
    found: dict[str, tree_sitter.Node | None] = {}
    for item in parser.named(declared) if declared is not None else []:
        if item.type == "type_parameter_declaration":
            for name in item.children_by_field_name("name"):
                found[parser.text(name)] = item.child_by_field_name("type")
    return found


def of_type_parameter(resolver: Resolver, file: GoFile, declaration: Declaration, names: frozenset[str]) -> bool:
    """Whether a local is declared with a type parameter's type (`var obj P`), or holds the address of
    one (`obj := &t` with `var t T`) or a new one (`obj := new(T)`)."""
    return _declared_parameter(resolver, file, declaration, names) is not None


def _named(type_node: tree_sitter.Node, names: frozenset[str]) -> str | None:
    """The type parameter a type names, itself or through a pointer (`T`, `*T`)."""
    node = parser.first_named(type_node) if type_node.type == "pointer_type" else type_node
    text = parser.text(node) if node is not None else ""
    return text if text in names else None


def _declared_parameter(
    resolver: Resolver, file: GoFile, declaration: Declaration, names: frozenset[str]
) -> str | None:
    """The type parameter a local is a value of (see `of_type_parameter`)."""
    if declaration.type_node is not None:
        return _named(declaration.type_node, names)
    value = declaration.value_node
    return _expression_parameter(resolver, file, value, names, 0) if value is not None else None


def _expression_parameter(
    resolver: Resolver, file: GoFile, node: tree_sitter.Node, names: frozenset[str], hops: int
) -> str | None:
    """The type parameter an expression is a value of: `new(T)`, `&t`, a conversion `T(x)`, a local."""
    if hops > _MAX_HOPS:
        return None
    if node.type == "unary_expression" and parser.text(node.child_by_field_name("operator")) == "&":
        operand = node.child_by_field_name("operand")
        return _expression_parameter(resolver, file, operand, names, hops + 1) if operand is not None else None
    if node.type == "identifier":
        declaration = resolver.declaration(file, node)
        return _declared_parameter(resolver, file, declaration, names) if declaration is not None else None
    function = node.child_by_field_name("function") if node.type == "call_expression" else None
    if function is None:
        return None
    if parser.text(function) == "new":
        argument = parser.first_named(node.child_by_field_name("arguments") or node)
        return _named(argument, names) if argument is not None else None
    return _named(function, names)  # `T(live)`: a conversion to the type parameter


TYPE_ARGUMENTS = -1  # a helper site's "parameter" where the calls' type arguments name the kind


def kind_in_type_arguments(
    resolver: Resolver, file: GoFile, call: tree_sitter.Node, is_list: bool | None = None
) -> ObjectRef | None:
    """The kind a generic call's type arguments name (`getIfExists[corev1.ConfigMap](…)`, the pointer type
    parameter inferred), or where it writes none, the types of the function literals it passes, from which Go
    infers them (`findByLabels(ctx, c, func(l *corev1.ConfigMapList) []corev1.ConfigMap {…})`, or kubeblocks'
    `generics.PodSignature`, a package variable holding one); with `is_list`, only list types or only others.
    None where they name no kind, or two (which one the object takes is not told)."""
    arguments = call.child_by_field_name("type_arguments")
    types = (
        [(file, node) for node in parser.named(arguments)]
        if arguments is not None
        else _literal_types(resolver, file, call)
    )
    named: dict[str, ObjectRef] = {}
    for declaring, argument in types:
        type_ref = resolve_type(argument, declaring)
        kind = resolver.kinds.go_kind(type_ref.package, type_ref.name) if type_ref is not None else None
        listed = type_ref is not None and type_ref.name.endswith("List")
        if type_ref is not None and kind is not None and is_list in (None, listed):
            text = " ".join(parser.text(argument).split())
            named.setdefault(kind, ObjectRef(kind, ObjectForm.TYPED, text, listed, type_ref.package))
    return next(iter(named.values())) if len(named) == 1 else None


def _literal_types(resolver: Resolver, file: GoFile, call: tree_sitter.Node) -> list[tuple[GoFile, tree_sitter.Node]]:
    """The package types the function literals a call passes take or return, each with the file writing it:
    passed as they are, or held by the variable passed."""
    found: list[tuple[GoFile, tree_sitter.Node]] = []
    for argument in parser.named(call.child_by_field_name("arguments") or call):
        declaring, literal = file, argument
        if argument.type in ("identifier", "selector_expression"):
            declaring, literal = resolver.held_value(file, argument) or (file, argument)
        if literal.type != "func_literal":
            continue
        for part in (literal.child_by_field_name("parameters"), literal.child_by_field_name("result")):
            types = parser.captures(_QUALIFIED, part).get("type", []) if part is not None else []
            found.extend((declaring, node) for node in types)
    return found


def generic_object(resolver: Resolver, file: GoFile, node: tree_sitter.Node) -> tuple[FunctionKey, int] | None:
    """For an object whose type is a type parameter of the generic function around it, the parameter of the
    function its callers pass a value of that type in (`desired U` for `c.Get(ctx, key, T(new(U)))` with
    `T object[U]`, a pointer constraint of U), or TYPE_ARGUMENTS where none does: where the calls name the
    kind, as a helper's parameter does."""
    key = resolver.function_key(file, node)
    info = resolver.declarations.functions.get(key) if key is not None else None
    declared = _declared_type_parameters(info.node) if info is not None else {}
    if info is None or not declared:
        return None
    parameter = _expression_parameter(resolver, file, node, frozenset(declared), 0)
    if parameter is None:
        return None
    # the parameter and those its constraint is built over (`T object[U]`, `T interface{ *U; client.Object }`)
    constraint = declared[parameter]
    captured = parser.captures("(type_identifier) @t", constraint).get("t", []) if constraint is not None else []
    related = frozenset({parameter} | ({parser.text(item) for item in captured} & declared.keys()))
    parameters = info.node.child_by_field_name("parameters")
    index = 0
    for item in parser.named(parameters) if parameters is not None else []:
        if item.type not in ("parameter_declaration", "variadic_parameter_declaration"):
            continue
        type_node = item.child_by_field_name("type")
        names = item.children_by_field_name("name") or [item]
        if type_node is not None and _named(type_node, related) is not None:
            return info.key, index
        index += len(names)
    # no parameter takes a value of it (`obj := new(E)` in `getIfExists[E any, P ptr[E]](ctx, key, c)`): the
    # calls' type arguments name the kind
    return info.key, TYPE_ARGUMENTS
