"""Namespaces taken one by one from a List of every namespace.

`for _, ns := range namespaces.Items { cs.CoreV1().Pods(ns.Name).List(…) }` after an unfiltered List of
Namespaces names each namespace in turn: the loop reads every Pod of the cluster, a namespace at a time, and its
namespace restricts nothing.
"""

from __future__ import annotations

import re

import tree_sitter

from watchlint.go import parser
from watchlint.go.model import GoFile
from watchlint.go.pending import method_name, operand_of
from watchlint.go.resolve import Resolver, keyed_elements
from watchlint.go.scope import innermost_function

_SELECTING = frozenset({"LabelSelector", "FieldSelector"})
_CONDITIONAL = frozenset({"if_statement", "for_statement", "expression_switch_statement", "type_switch_statement"})


def every_listed_namespace(resolver: Resolver, file: GoFile, node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The List of every namespace whose items a namespace expression names in turn (`ns.Name`, `ns.GetName()`,
    `ns.ObjectMeta.Name` of `for _, ns := range list.Items`): a clientset's `Namespaces().List(ctx, options)`
    whose options select nothing, or a List with no options into that NamespaceList; None otherwise."""
    item = _named_item(node)
    declaration = resolver.declaration(file, item) if item is not None else None
    ranged = declaration.ranged_node if declaration is not None else None
    if declaration is None or ranged is None or ranged.type != "selector_expression":
        return None
    if item is None or _skips_some(resolver, file, node, ranged, parser.text(item)):
        return None
    holder = ranged.child_by_field_name("operand")
    if parser.text(ranged.child_by_field_name("field")) != "Items" or holder is None or holder.type != "identifier":
        return None
    held = resolver.declaration(file, holder)
    if held is None or held.parameter_index >= 0:
        return None
    value = held.value_node
    if value is not None and value.type == "call_expression":
        every = held.value_index == 0 and _lists_every_namespace(value) and not _rewritten(file, ranged, held.name)
        return value if every else None
    typed = resolver.type_of(file, holder)
    if typed is None or typed.name != "NamespaceList" or _rewritten(file, ranged, f"{held.name}.Items"):
        return None
    return _filled_by_a_list(file, held.name, declaration.node)


def _skips_some(resolver: Resolver, file: GoFile, node: tree_sitter.Node, ranged: tree_sitter.Node, item: str) -> bool:
    """Whether the loop over the namespaces passes some over before the read by a test of the namespace (`if
    ns.Labels[…] == "" { continue }`), or reads under such a test: the namespaces read are then some of them.
    A test of something else (`if err != nil { continue }`) passes over no namespace."""
    loop = ranged.parent.parent if ranged.parent is not None else None
    body = loop.child_by_field_name("body") if loop is not None and loop.type == "for_statement" else None
    if body is None:
        return True
    for stop in parser.captures("(continue_statement) @stop", body).get("stop", []):
        if stop.start_byte < node.start_byte and _tests_the_item(_condition_around(stop, body), item):
            return True
    child, current = node, node.parent
    while current is not None and current != body:
        branch = current.parent if current.type == "block" and child.type != "block" else None
        tested = branch is not None and branch.type == "if_statement" and _tests_the_item(branch, item)
        if tested and branch is not None and not _read_in_every_arm(resolver, file, branch, node, item):
            return True  # the arms of a test that each make the read take every namespace between them
        child, current = current, current.parent
    return False


def _read_in_every_arm(
    resolver: Resolver, file: GoFile, branch: tree_sitter.Node, node: tree_sitter.Node, item: str
) -> bool:
    """Whether every arm of the `if`/`else if`/`else` chain around a read makes the same read with the loop's
    namespace, as a statement of its own (`if system(ns.Name) { …Secrets(ns.Name).List(…small page…) } else {
    …Secrets(ns.Name).List(…) }`): together the arms read every namespace, and the test passes none over. The
    same read is the same call (`….Secrets(ns.Name).List`, `reader.List`) of the same kind."""
    read = _read_around(node)
    if read is None:
        return False
    head = branch
    while (
        head.parent is not None
        and head.parent.type == "if_statement"
        and head.parent.child_by_field_name("alternative") == head
    ):
        head = head.parent
    arms: list[tree_sitter.Node] = []
    current: tree_sitter.Node | None = head
    while current is not None and current.type == "if_statement":
        consequence = current.child_by_field_name("consequence")
        if consequence is None:
            return False
        arms.append(consequence)
        current = current.child_by_field_name("alternative")
    if current is None:  # no final `else`: the namespaces no arm takes are passed over
        return False
    arms.append(current)
    wanted = _read_signature(resolver, file, read)
    return all(
        any(
            _read_signature(resolver, file, made) == wanted and _directly_in(made, arm) and _names_item(made, item)
            for made in parser.captures("(call_expression) @call", arm).get("call", [])
        )
        for arm in arms
    )


def _read_around(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The outermost call of the expression a namespace is given in: the List of `cs.CoreV1().Secrets(ns.Name)
    .List(…)`, `reader.List(ctx, &l, client.InNamespace(ns.Name))`."""
    found, child, current = None, node, node.parent
    while current is not None and current.type in ("argument_list", "call_expression", "selector_expression"):
        if current.type == "call_expression":
            function = current.child_by_field_name("function")
            if child.type == "argument_list" and (function is None or function.type != "selector_expression"):
                break  # `len(…List(…))`, `must(…)`: a function given the read, not the read's chain
            found = current
        child, current = current, current.parent
    return found


def _read_signature(resolver: Resolver, file: GoFile, call: tree_sitter.Node) -> tuple[str, str]:
    """The function a read calls, as written, and the kind of the object it is given (for a controller-runtime
    client's `List(ctx, &pods, …)`)."""
    arguments = parser.named(call.child_by_field_name("arguments") or call)
    kinds = (found.kind for argument in arguments if (found := resolver.object_of(file, argument)) is not None)
    return parser.text(call.child_by_field_name("function")), next(kinds, "")


def _directly_in(call: tree_sitter.Node, arm: tree_sitter.Node) -> bool:
    """Whether a call runs whenever its arm does: no `if`, loop or switch of the arm's own around it."""
    child, current = call, call.parent
    while current is not None and current != arm:
        runs_first = current.type == "if_statement" and child in (
            current.child_by_field_name("initializer"),
            current.child_by_field_name("condition"),
        )  # `if s, err := ….List(…); err == nil`: the initializer runs whenever the if does
        if current.type in _CONDITIONAL and not runs_first:
            return False
        child, current = current, current.parent
    return current == arm


def _names_item(call: tree_sitter.Node, item: str) -> bool:
    """Whether a call is given the loop's namespace somewhere in its arguments (`….Secrets(ns.Name).List(…)`)."""
    return any(True for _ in parser.identifiers_named(call, item))


def _condition_around(node: tree_sitter.Node, body: tree_sitter.Node) -> tree_sitter.Node | None:
    """The `if` around a node within a loop's body, if any."""
    current = node.parent
    while current is not None and current != body:
        if current.type == "if_statement":
            return current
        current = current.parent
    return None


def _tests_the_item(statement: tree_sitter.Node | None, item: str) -> bool:
    """Whether an `if`'s condition reads the loop's namespace."""
    condition = statement.child_by_field_name("condition") if statement is not None else None
    return condition is not None and any(True for _ in parser.identifiers_named(condition, item))


def _rewritten(file: GoFile, ranged: tree_sitter.Node, target: str) -> bool:
    """Whether the function assigns `target` (`namespaces.Items = onlyTenants(namespaces.Items)`, `namespaces =
    …`) beside its declaration, ahead of the loop ranging over it."""
    function = file.enclosing_function(ranged)
    if function is None:
        return False
    ahead = file.source.data[function.start_byte : ranged.start_byte]
    written = re.compile(rb"(?<![\w.])" + re.escape(target.encode()) + rb"\s*(?:,[^=\n]*?)?(?<![:!<>=])=(?!=)")
    return written.search(ahead) is not None


def _named_item(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """`ns` of `ns.Name`, `ns.GetName()`, `ns.ObjectMeta.Name`."""
    operand: tree_sitter.Node | None = None
    if node.type == "call_expression":
        operand = operand_of(node) if method_name(node) == "GetName" else None
    elif node.type == "selector_expression" and parser.text(node.child_by_field_name("field")) == "Name":
        operand = node.child_by_field_name("operand")
        if operand is not None and operand.type == "selector_expression":
            meta = parser.text(operand.child_by_field_name("field")) == "ObjectMeta"
            operand = operand.child_by_field_name("operand") if meta else None
    return operand if operand is not None and operand.type == "identifier" else None


def _lists_every_namespace(call: tree_sitter.Node) -> bool:
    """`cs.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})`: a clientset's List of Namespaces whose
    options, written at the call, select nothing."""
    if method_name(call) != "List" or method_name(operand_of(call)) != "Namespaces":
        return False
    arguments = parser.named(call.child_by_field_name("arguments") or call)
    return len(arguments) == 2 and _selects_nothing(arguments[1])


def _selects_nothing(options: tree_sitter.Node) -> bool:
    """`metav1.ListOptions{}` (or with fields that select nothing, a Limit aside: a page is no selection
    either way, the next pages follow)."""
    literal = options.child_by_field_name("operand") if parser.is_unary(options, "&") else options
    if literal is None or literal.type != "composite_literal":
        return False
    return not any(key in _SELECTING for key, _ in keyed_elements(literal))


def _filled_by_a_list(file: GoFile, name: str, before: tree_sitter.Node) -> tree_sitter.Node | None:
    """`c.List(ctx, &namespaces)` (or of a pointer `namespaces`) with no options, in the function around `before`
    and ahead of it."""
    function = innermost_function(before)
    if function is None:
        return None
    filling = []  # every List filling the list ahead of the loop: one with options narrows what the loop reads
    for call in file.nodes("call_expression"):
        if not parser.encloses(function, call) or call.start_byte > before.start_byte:
            continue
        arguments = parser.named(call.child_by_field_name("arguments") or call)
        listed = method_name(call) == "List" and len(arguments) >= 2
        if listed and parser.text(arguments[1]).removeprefix("&") == name:
            filling.append((call, len(arguments)))
    return filling[0][0] if filling and all(count == 2 for _, count in filling) else None
