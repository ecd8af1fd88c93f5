"""Label selectors built from requirements (`labels.NewSelector().Add(*req…)` with `req, err :=
labels.NewRequirement(key, selection.DoesNotExist, nil)`), as kube-proxy and the proxies modelled on it build theirs:
where every requirement excludes, the selector keeps every object but those it names."""

from __future__ import annotations

import tree_sitter

from watchlint.go import parser
from watchlint.go.model import GoFile
from watchlint.go.resolve import Resolver

LABELS = "k8s.io/apimachinery/pkg/labels"
SELECTION = "k8s.io/apimachinery/pkg/selection"
_EMPTY_SELECTORS = frozenset({"NewSelector", "Everything"})  # selectors of no requirement, which `Add` extends
# the operators whose requirement keeps every object but those it names, as a selector string writes them
_EXCLUDING = {"DoesNotExist": "!{key}", "NotEquals": "{key}!={values}", "NotIn": "{key} notin ({values})"}


def excluded_requirements(file: GoFile, node: tree_sitter.Node, resolver: Resolver) -> str | None:
    """The selector string a selector built from requirements stands for, where each of them excludes
    (`!service.kubernetes.io/headless`); None for any other selector, one with no requirement included."""
    added = _added(file, node, resolver)
    terms = [_excluding_term(file, requirement, resolver) for requirement in added or ()]
    return ",".join(term for term in terms if term) if terms and all(terms) else None


def _added(file: GoFile, node: tree_sitter.Node, resolver: Resolver) -> list[tree_sitter.Node] | None:
    """The requirements `Add` gives a selector built from `labels.NewSelector()`, also across the reassignments
    of a local (`s := labels.NewSelector(); s = s.Add(*a, *b)`); None where it is built otherwise."""
    values = [node]
    name = parser.text(node) if node.type == "identifier" else None
    if name is not None:
        declaration = resolver.declaration(file, node)
        scope = resolver.scope(file, node)
        if declaration is None or declaration.value_node is None or declaration.parameter_index >= 0 or scope is None:
            return None
        values = [declaration.value_node, *scope.assignments.get(name, [])]
    added: list[tree_sitter.Node] = []
    for value in values:
        while (extended := _extended(value)) is not None:
            added.extend(parser.named(value.child_by_field_name("arguments") or value))
            value = extended
        if not (value.type == "identifier" and parser.text(value) == name) and not _empty_selector(file, value):
            return None
    return added


def _extended(value: tree_sitter.Node) -> tree_sitter.Node | None:
    """The selector `s.Add(…)` extends, `s`; None for any other expression."""
    function = value.child_by_field_name("function") if value.type == "call_expression" else None
    if function is None or function.type != "selector_expression":
        return None
    return (
        function.child_by_field_name("operand") if parser.text(function.child_by_field_name("field")) == "Add" else None
    )


def _empty_selector(file: GoFile, value: tree_sitter.Node) -> bool:
    """`labels.NewSelector()` or `labels.Everything()`."""
    function = value.child_by_field_name("function") if value.type == "call_expression" else None
    operand = function.child_by_field_name("operand") if function is not None else None
    return (
        function is not None
        and function.type == "selector_expression"
        and operand is not None
        and file.imports.get(parser.text(operand)) == LABELS
        and parser.text(function.child_by_field_name("field")) in _EMPTY_SELECTORS
    )


def _excluding_term(file: GoFile, requirement: tree_sitter.Node, resolver: Resolver) -> str | None:
    """`!key` of a `*req` built by `labels.NewRequirement(key, selection.DoesNotExist, nil)` (or `key!=v`,
    `key notin (a,b)`); None for a requirement that selects, or one not built so in the same function."""
    if requirement.type == "unary_expression":
        requirement = requirement.child_by_field_name("operand") or requirement
    declaration = resolver.declaration(file, requirement) if requirement.type == "identifier" else None
    built = declaration.value_node if declaration is not None and declaration.parameter_index < 0 else None
    function = built.child_by_field_name("function") if built is not None and built.type == "call_expression" else None
    arguments = parser.named(built.child_by_field_name("arguments") or built) if built is not None else []
    if function is None or parser.text(function).rsplit(".", 1)[-1] != "NewRequirement" or len(arguments) < 2:
        return None
    operator = arguments[1]
    package = operator.child_by_field_name("operand") if operator.type == "selector_expression" else None
    if package is None or file.imports.get(parser.text(package)) != SELECTION:
        return None
    term = _EXCLUDING.get(parser.text(operator.child_by_field_name("field")))
    if term is None:
        return None
    key = resolver.string_value(file, arguments[0])
    listed = arguments[2].child_by_field_name("body") if len(arguments) > 2 else None  # `[]string{"a", "b"}`
    items = [parser.first_named(item) or item for item in parser.named(listed)] if listed is not None else []
    values = [resolver.string_value(file, item) or parser.text(item) for item in items]
    return term.format(key=key if key is not None else parser.text(arguments[0]), values=",".join(values))
