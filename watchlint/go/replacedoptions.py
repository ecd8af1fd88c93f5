"""Manager options a wrapper assigns whole: what its callers wrote in that field never reaches the manager.

`func CreateManager(cfg *rest.Config, options manager.Options) { options.Cache = cache.Options{…}; return
ctrl.NewManager(cfg, options) }` drops the namespaces and selectors its caller put in `options.Cache`
(percona-postgresql-operator's main.go scope): those restrictions narrow nothing, and saying they do would hide
every site they were meant to cover.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import tree_sitter

from watchlint.go import parser
from watchlint.go.guards import returned_on_success
from watchlint.go.managers import ManagerLinks, is_manager_options, options_argument
from watchlint.go.model import GoFile
from watchlint.go.resolve import Resolver, assigned_to, holding_literal, key_of, selector_chain, selector_root
from watchlint.go.scope import innermost_function, under_condition
from watchlint.source import Span

_MAX_HOPS = 8  # literals, locals and returns between a written option and the options value holding it
_MAX_FIELDS = 4

# a local by its file, the function declaring it and its name; a literal by its file and offset
_Local = tuple[str, int, str]
_LiteralKey = tuple[str, int]


@dataclass(frozen=True, slots=True)
class Replacement:
    """An unconditional `options.<path> = …` of a function's options parameter before it builds the manager."""

    path: str  # the field assigned whole, dotted: "Cache", "Cache.ByObject"
    span: Span
    shown: str  # the assigned expression as written: "options.Cache"


def options_path(file: GoFile, target: tree_sitter.Node, resolver: Resolver) -> str | None:
    """`Cache.ByObject` for `opts.Cache.ByObject`, where opts is a manager Options value; None otherwise."""
    fields: list[str] = []
    while target.type == "selector_expression" and len(fields) < _MAX_FIELDS:
        fields.insert(0, parser.text(target.child_by_field_name("field")))
        operand = target.child_by_field_name("operand")
        if operand is None:
            return None
        if is_manager_options(resolver, resolver.type_of(file, operand)):
            return ".".join(fields)
        target = operand
    return None


def covers(replaced: str, path: str) -> bool:
    """Whether assigning the field at `replaced` whole replaces the one at `path` (itself or one inside it)."""
    return path == replaced or path.startswith(replaced + ".")


@dataclass(slots=True)
class _Handed:
    """The options values the wrappers' callers hand them, with what each wrapper replaces: a local, by its
    file, function and name, up to the offset where what is written in it still reaches the wrapper (the
    call, or the end of a function returning it); a literal handed as it is, by its file and offset."""

    locals: dict[_Local, list[tuple[int, Replacement]]] = field(default_factory=dict)
    literals: dict[_LiteralKey, list[Replacement]] = field(default_factory=dict)


class ReplacedOptions:
    """Which options a caller writes that a wrapper building the manager replaces before it does."""

    def __init__(self, links: ManagerLinks, resolver: Resolver) -> None:
        self.links = links
        self.resolver = resolver
        self._handed: _Handed | None = None

    def replacing(self, file: GoFile, node: tree_sitter.Node) -> Replacement | None:
        """The assignment that replaces the option written at `node` (the left side of `opts.Cache.X = …`, or a
        value or key inside an options literal) before the manager is built; None when it reaches it."""
        handed = self._handed_values()
        written = _written_root(node) if handed.locals or handed.literals else None
        if written is None:
            return None
        root, path = written
        if root.type != "identifier":
            candidates = handed.literals.get((file.path, root.start_byte), [])
            return next((found for found in candidates if covers(found.path, path)), None)
        function = innermost_function(root)
        if function is None or not is_manager_options(self.resolver, self.resolver.type_of(file, root)):
            return None
        reaching = handed.locals.get((file.path, function.start_byte, parser.text(root)), [])
        return next((found for limit, found in reaching if node.start_byte < limit and covers(found.path, path)), None)

    def _handed_values(self) -> _Handed:
        if self._handed is None:
            self._handed = _Handed()
            for file, call in self.links.manager_calls:
                wrapper = self.resolver.function_key(file, call)
                replaced = self._replaced_by(file, call) if wrapper is not None else []
                for index, replacement in replaced:
                    for caller_file, caller in self.links.calls.callers(wrapper) if wrapper is not None else ():
                        arguments = parser.named(caller.child_by_field_name("arguments") or caller)
                        if index < len(arguments):
                            self._follow(caller_file, arguments[index], caller.start_byte, replacement, 0)
        return self._handed

    def _replaced_by(self, file: GoFile, call: tree_sitter.Node) -> list[tuple[int, Replacement]]:
        """The fields a function assigns whole in its options parameter before handing it to the manager
        constructor `call`, with the parameter's position: outside any branch or loop, so that it always runs."""
        options = options_argument(file, call)
        if options is not None and options.type == "unary_expression":
            options = options.child_by_field_name("operand")
        if options is None or options.type != "identifier":
            return []
        declaration = self.resolver.declaration(file, options)
        function = innermost_function(call)
        if declaration is None or declaration.parameter_index < 0 or function is None:
            return []
        found = []
        for left, _, targets, _ in file.assignments():
            if not function.start_byte < left.start_byte < call.start_byte or innermost_function(left) != function:
                continue
            for target in targets:
                root = selector_root(target)
                path = options_path(file, target, self.resolver) if root is not None else None
                # syntax, not the evaluator, tells whether it always runs: what a guard evaluates to may depend
                # on what was evaluated before, and this runs before any policy is extracted
                if path is not None and parser.text(root) == declaration.name and not under_condition(target):
                    replacement = Replacement(path, file.span(target), parser.text(target))
                    found.append((declaration.parameter_index, replacement))
        return found

    def _follow(
        self, file: GoFile, value: tree_sitter.Node, limit: int | None, replacement: Replacement, depth: int
    ) -> None:
        """Record what an argument handed to the wrapper is made of: a local of the caller, written before the
        call (`limit`), the result of a function of the module, returned whole, or a literal."""
        handed = self._handed_values()
        if depth > _MAX_HOPS:
            return
        if value.type == "unary_expression" and (operand := value.child_by_field_name("operand")) is not None:
            self._follow(file, operand, limit, replacement, depth + 1)
        elif value.type == "composite_literal":
            handed.literals.setdefault((file.path, value.start_byte), []).append(replacement)
        elif value.type == "identifier" and (function := innermost_function(value)) is not None:
            end = limit if limit is not None else function.end_byte
            local = (file.path, function.start_byte, parser.text(value))
            handed.locals.setdefault(local, []).append((end, replacement))
            declaration = self.resolver.declaration(file, value)
            made = declaration.value_node if declaration is not None else None
            if declaration is not None and made is not None and made.type == "call_expression":
                self._returned(file, made, declaration.value_index, replacement, depth)
        elif value.type == "call_expression":
            self._returned(file, value, 0, replacement, depth)

    def _returned(self, file: GoFile, call: tree_sitter.Node, index: int, replacement: Replacement, depth: int) -> None:
        info = self.resolver.callee(file, call)
        if info is None:
            return
        for returned in returned_on_success(info.node, index):
            self._follow(info.file, returned, None, replacement, depth + 1)


def _written_root(node: tree_sitter.Node) -> tuple[tree_sitter.Node, str] | None:
    """The options value an option written at `node` belongs to, and the fields leading to it there: the local
    of `opts.Cache.ByObject = …` (its left side; `opts.Cache.DefaultNamespaces[ns] = …` too), of `opts :=
    ctrl.Options{Cache: …}` or `opts.Cache = cache.Options{…}` for an element of those literals, or a literal
    under no name (an argument, a returned value); the fields as a dotted path."""
    fields: list[str] = []
    current = node
    for _ in range(_MAX_HOPS):
        if current.type == "index_expression":
            current = current.child_by_field_name("operand") or current
        if current.type == "selector_expression":
            root, chain = selector_chain(current)
            return (root, ".".join([*chain, *fields])) if root.type == "identifier" else None
        if current.parent is not None and current.parent.type == "unary_expression":
            current = current.parent
        literal = holding_literal(current)
        if literal is not None:
            key = key_of(current)
            if key is not None and key.isidentifier():  # a struct field; a map's keys name no field
                fields.insert(0, key)
            current = literal
            continue
        target = assigned_to(current)
        if target is None:
            return current, ".".join(fields)
        current = target
        if current.type == "identifier":
            return current, ".".join(fields)
    return None
