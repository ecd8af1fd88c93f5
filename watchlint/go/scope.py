"""Local names of one function: parameters, `var`, `:=`, range variables, with Go block scoping.

A name resolves to the innermost declaration whose block encloses the use and that precedes it, so the
same name can be a Secret in one block and a ConfigMap in the next (SPEC §3.1).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import tree_sitter

from watchlint.frozeninit import direct_init
from watchlint.go import parser

_BLOCKS = frozenset(
    {
        "block",
        "if_statement",
        "for_statement",
        "expression_switch_statement",
        "type_switch_statement",
        "select_statement",
        "expression_case",
        "default_case",
        "type_case",
        "communication_case",
        "func_literal",
        "function_declaration",
        "method_declaration",
    }
)
FUNCTIONS = frozenset({"function_declaration", "method_declaration", "func_literal"})


@direct_init
@dataclass(frozen=True, slots=True)
class Declaration:
    """One declared local name."""

    name: str
    visible_from: int  # byte offset where the name comes into scope
    scope_start: int  # byte range of the enclosing block
    scope_end: int
    node: tree_sitter.Node  # the declaring identifier
    type_node: tree_sitter.Node | None = None  # the declared type, when written
    value_node: tree_sitter.Node | None = None  # the assigned expression
    value_index: int = 0  # position in a multi-value call (`c, err := client.New(…)`)
    parameter_index: int = -1  # position in the function's parameter list, -1 for other names
    ranged_node: tree_sitter.Node | None = None  # for `for _, x := range expr`: expr
    indexes: tree_sitter.Node | None = None  # for `for i := range expr`: expr, whose indices i takes
    is_receiver: bool = False  # a method's receiver: whatever value the method is called on
    variadic: bool = False  # `pods ...corev1.Pod`: type_node is the element type, the name holds a slice


@dataclass(slots=True)
class FunctionScope:
    """Every declaration inside one function (nested function literals included)."""

    function: tree_sitter.Node
    declarations: dict[str, list[Declaration]] = field(default_factory=dict)
    assignments: dict[str, list[tree_sitter.Node]] = field(default_factory=dict)  # `x = value`: values
    # `x, err = call()`: the call and the position of x among its results
    results: dict[str, list[tuple[tree_sitter.Node, int]]] = field(default_factory=dict)
    element_writes: dict[str, list[tree_sitter.Node]] = field(default_factory=dict)  # `x[key] = value`: values

    def lookup(self, name: str, at: int) -> Declaration | None:
        best: Declaration | None = None
        for declaration in self.declarations.get(name, ()):
            if not (declaration.scope_start <= at < declaration.scope_end and declaration.visible_from <= at):
                continue
            if best is None or _is_inner(declaration, best):
                best = declaration
        return best

    def add(self, declaration: Declaration) -> None:
        if declaration.name != "_":
            self.declarations.setdefault(declaration.name, []).append(declaration)


def _is_inner(candidate: Declaration, best: Declaration) -> bool:
    candidate_size = candidate.scope_end - candidate.scope_start
    best_size = best.scope_end - best.scope_start
    if candidate_size != best_size:
        return candidate_size < best_size
    return candidate.visible_from > best.visible_from


def enclosing_function(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The outermost function or method declaration around a node (function literals are part of it)."""
    found = None
    current: tree_sitter.Node | None = node
    while current is not None:
        if current.type in ("function_declaration", "method_declaration"):
            return current
        if current.type == "func_literal":
            found = current
        current = current.parent
    return found


def enclosing_loop(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The innermost `for` around a node within its function: the loop a `continue` goes on with (labelled ones
    aside), the one whose clause declares a range variable."""
    current = node.parent
    while current is not None and current.type not in ("for_statement", "function_declaration", "func_literal"):
        current = current.parent
    return current if current is not None and current.type == "for_statement" else None


def innermost_function(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The nearest function, method or function literal around a node (not the node itself)."""
    current = node.parent
    while current is not None and current.type not in FUNCTIONS:
        current = current.parent
    return current


def function_starting_at(node: tree_sitter.Node, start: int) -> tree_sitter.Node | None:
    """The function, method or function literal around a node that starts at `start`: the one declaring a
    parameter the node reads (`Declaration.scope_start`)."""
    function = innermost_function(node)
    while function is not None and function.start_byte != start:
        function = innermost_function(function)
    return function


_BRANCHES = frozenset({"expression_case", "type_case", "default_case", "communication_case", "for_statement"})


def under_condition(node: tree_sitter.Node) -> bool:
    """Whether a node sits in a branch or a loop of its function, where it may not run (`if v, ok := gates["X"];
    ok { g.X = v }`); an `if`'s own condition and initializer run whatever they test."""
    child, current = node, node.parent
    while current is not None and current.type not in FUNCTIONS:
        if current.type in _BRANCHES:
            return True
        if current.type == "if_statement" and child not in (
            current.child_by_field_name("condition"),
            current.child_by_field_name("initializer"),
        ):
            return True
        child, current = current, current.parent
    return False


def in_nil_test(node: tree_sitter.Node, name: str, *, is_nil: bool) -> bool:
    """Whether a node sits where `name` is nil (`is_nil`: in the block of `if name == nil` or the else of
    `if name != nil`) or where it is not (the block of `if name != nil`, the else of `if name == nil`), within
    its function."""
    wanted = {"".join(name.split()) + "==nil": is_nil, "".join(name.split()) + "!=nil": not is_nil}
    child, current = node, node.parent
    while current is not None and current.type not in ("function_declaration", "method_declaration", "func_literal"):
        condition = current.child_by_field_name("condition") if current.type == "if_statement" else None
        # the initializer runs before the test (`if r.client, err = client.New(…); err != nil`)
        if condition is not None and child is not condition and child != current.child_by_field_name("initializer"):
            in_block = child != current.child_by_field_name("alternative")
            if wanted.get("".join(parser.text(condition).split())) is in_block:
                return True
        child, current = current, current.parent
    return False


def returned_values(function: tree_sitter.Node, index: int = 0) -> list[tree_sitter.Node]:
    """The value at `index` of each return statement of a function (not of the function literals in it)."""
    values = []
    for statement in return_statements(function):
        items = return_items(statement)
        if index < len(items):
            values.append(items[index])
    return values


def return_statements(function: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The return statements of a function itself, in source order (not those of function literals in it)."""
    found = parser.captures("(return_statement) @r", function).get("r", [])
    return [statement for statement in found if innermost_function(statement) == function]


def statements(block: tree_sitter.Node | None) -> list[tree_sitter.Node]:
    """The statements of a block (a function's body, an `if`'s consequence), in its statement list."""
    listed = next((child for child in block.named_children if child.type == "statement_list"), None) if block else None
    return parser.named(listed) if listed is not None else []


def last_statement(block: tree_sitter.Node | None) -> tree_sitter.Node | None:
    """The last statement of a block (a function's body, an `if`'s consequence); None for an empty one."""
    listed = statements(block)
    return listed[-1] if listed else None


def return_items(statement: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The values a return statement gives; none for a bare `return`."""
    first = parser.first_named(statement)
    if first is None:
        return []
    return parser.named(first) if first.type == "expression_list" else [first]


def build_scope(
    function: tree_sitter.Node, declaring: Callable[[tree_sitter.Node], list[tree_sitter.Node]]
) -> FunctionScope:
    """The scope of a function; `declaring` gives the statements of DECLARING inside a node, in document order."""
    scope = FunctionScope(function)
    _add_parameters(scope, function)
    body = function.child_by_field_name("body")
    for node in declaring(body) if body is not None else ():
        _ADDERS[node.type](scope, node)
    return scope


def _block_of(node: tree_sitter.Node) -> tree_sitter.Node:
    current = node.parent
    while current is not None and current.type not in _BLOCKS:
        current = current.parent
    return current if current is not None else node


def receiver_name(function: tree_sitter.Node) -> tree_sitter.Node | None:
    """The name a method's receiver is bound to (`s` of `func (s *Strings) Len() int`); None for none."""
    receiver = function.child_by_field_name("receiver")
    parameters = parser.named(receiver) if receiver is not None else []
    names = [name for parameter in parameters for name in parameter.children_by_field_name("name")]
    return names[0] if names else None


def named_results(function: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The names of a function's named results (`(conf *Config, err error)`), in order."""
    result = function.child_by_field_name("result")
    declared = result.named_children if result is not None and result.type == "parameter_list" else []
    return [
        name
        for declaration in declared
        if declaration.type == "parameter_declaration"
        for name in declaration.children_by_field_name("name")
    ]


def _add_parameters(scope: FunctionScope, function: tree_sitter.Node) -> None:
    start, end = function.start_byte, function.end_byte
    receiver = receiver_name(function)
    if receiver is not None and receiver.parent is not None:
        type_node = receiver.parent.child_by_field_name("type")
        scope.add(Declaration(parser.text(receiver), start, start, end, receiver, type_node, is_receiver=True))
    parameters = function.child_by_field_name("parameters")
    index = 0
    for parameter in parameters.named_children if parameters is not None else ():
        if parameter.type not in ("parameter_declaration", "variadic_parameter_declaration"):
            continue
        type_node = parameter.child_by_field_name("type")
        names = parameter.children_by_field_name("name")
        for name in names:
            variadic = parameter.type == "variadic_parameter_declaration"
            scope.add(
                Declaration(
                    parser.text(name), start, start, end, name, type_node, parameter_index=index, variadic=variadic
                )
            )
            index += 1
        index += 0 if names else 1  # an unnamed parameter still takes a position
    for name in named_results(function):  # locals of the function, zero until written
        declared = name.parent
        type_node = declared.child_by_field_name("type") if declared is not None else None
        scope.add(Declaration(parser.text(name), start, start, end, name, type_node))


# The statements that declare a function's locals, found by the query indexing each file (model.index_nodes):
# visiting every node of a body in Python cost more than parsing the file, and a query per function about half
# of building its scope.
DECLARING = (
    "short_var_declaration",
    "var_declaration",
    "const_declaration",
    "range_clause",
    "func_literal",
    "assignment_statement",
    "type_switch_statement",
)


def _add_short(scope: FunctionScope, node: tree_sitter.Node) -> None:
    left = node.child_by_field_name("left")
    right = node.child_by_field_name("right")
    names = parser.named(left) if left is not None else []
    values = parser.named(right) if right is not None else []
    block = _block_of(node)
    for position, name in enumerate(names):
        if name.type != "identifier":
            continue
        value: tree_sitter.Node | None = values[0] if values else None
        index = position
        if len(values) == len(names):
            value, index = values[position], 0
        declaration = Declaration(
            parser.text(name), node.end_byte, block.start_byte, block.end_byte, name, None, value, index
        )
        scope.add(declaration)


def _add_var(scope: FunctionScope, node: tree_sitter.Node) -> None:
    """A `var` or `const` declaration of the function; a constant without a value repeats the spec above
    it (iota), which is not followed: its names stay undeclared, not zero. Each name is seen from the end of
    its own spec, as Go scopes them: `var ( c = f.Job(); cache = c.Cache() )` reads the first in the second."""
    block = _block_of(node)
    for spec in _var_specs(node):
        names = spec.children_by_field_name("name")
        type_node = spec.child_by_field_name("type")
        values_node = spec.child_by_field_name("value")
        values = parser.named(values_node) if values_node is not None else []
        if spec.type == "const_spec" and not values:
            continue
        for position, name in enumerate(names):
            value = values[position] if position < len(values) else (values[0] if values else None)
            index = 0 if len(values) == len(names) else position
            declaration = Declaration(
                parser.text(name), spec.end_byte, block.start_byte, block.end_byte, name, type_node, value, index
            )
            scope.add(declaration)


def _var_specs(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    specs = []
    for child in node.named_children:
        if child.type in ("var_spec", "const_spec"):
            specs.append(child)
        elif child.type == "var_spec_list":
            specs.extend(grandchild for grandchild in child.named_children if grandchild.type == "var_spec")
    return specs


def _add_range(scope: FunctionScope, node: tree_sitter.Node) -> None:
    left = node.child_by_field_name("left")
    ranged = node.child_by_field_name("right")
    statement = node.parent if node.parent is not None else node
    if left is None or not any(child.type == ":=" for child in node.children):
        return
    names = [name for name in left.named_children if name.type == "identifier"]
    for position, name in enumerate(names):
        declaration = Declaration(
            parser.text(name),
            node.end_byte,
            statement.start_byte,
            statement.end_byte,
            name,
            ranged_node=ranged if position == 1 else None,
            indexes=ranged if position == 0 else None,
        )
        scope.add(declaration)


def _add_assignment(scope: FunctionScope, node: tree_sitter.Node) -> None:
    left = node.child_by_field_name("left")
    right = node.child_by_field_name("right")
    if left is None or right is None or not any(child.type == "=" for child in node.children):
        return
    names = parser.named(left)
    values = parser.named(right)
    if len(values) == 1 and len(names) > 1 and values[0].type == "call_expression":
        for index, name in enumerate(names):
            if name.type == "identifier":
                scope.results.setdefault(parser.text(name), []).append((values[0], index))
        return
    if len(names) != len(values):
        return
    for name, value in zip(names, values, strict=True):
        if name.type == "identifier":
            scope.assignments.setdefault(parser.text(name), []).append(value)
        elif name.type == "index_expression":  # `readers[name] = c`: an element of a map or list
            operand = name.child_by_field_name("operand")
            if operand is not None and operand.type == "identifier":
                scope.element_writes.setdefault(parser.text(operand), []).append(value)


def _add_type_switch(scope: FunctionScope, node: tree_sitter.Node) -> None:
    """`switch r := x.(type)`: in each case naming one type, `r` is of that type (component-operator-runtime's
    `case *SecretReference: r.load(ctx, clnt, …)`); in the others, of x's type, which is not followed. Its value
    is x's, of which the case only tells the type (no zero value: llm-d's `case *v1.InferencePool:` holds the
    pool just read)."""
    alias = node.child_by_field_name("alias")
    asserted = node.child_by_field_name("value")
    names = parser.named(alias) if alias is not None else []
    if len(names) != 1 or names[0].type != "identifier":
        return
    for case in node.named_children:
        if case.type not in ("type_case", "default_case"):
            continue
        types = case.children_by_field_name("type")
        typed = types[0] if len(types) == 1 and parser.text(types[0]) != "nil" else None
        name = parser.text(names[0])
        scope.add(Declaration(name, case.start_byte, case.start_byte, case.end_byte, names[0], typed, asserted))


_ADDERS: dict[str, Callable[[FunctionScope, tree_sitter.Node], None]] = {
    "short_var_declaration": _add_short,
    "var_declaration": _add_var,
    "const_declaration": _add_var,
    "range_clause": _add_range,
    "func_literal": _add_parameters,
    "assignment_statement": _add_assignment,
    "type_switch_statement": _add_type_switch,
}
