"""Whether a method of the module only reads its receiver: `func (s Set) Has(n string) bool`, or a getter handing
it to a library function (`strings.Join(slices.Sorted(maps.Keys(s)), ",")`). A local holding a known list or map
keeps its value across calls of such methods; any other method of a collection type may fill it
(`names := set.Make(); names.Add(n)`)."""

from __future__ import annotations

import tree_sitter

from watchlint.go import parser
from watchlint.go.declarations import FunctionInfo, FunctionKey
from watchlint.go.model import GoFile
from watchlint.go.resolve import Resolver, is_written
from watchlint.go.scope import receiver_name
from watchlint.go.writes import MAP_COPIES

# builtins that read what they are given, or write items in place, but never add any to it
_NOT_ADDING_BUILTINS = frozenset({"len", "cap", "print", "println", "delete", "clear", "min", "max", "append", "copy"})
_METHOD_DEPTH = 3  # methods calling methods of the receiver, followed this deep


class ReadingMethods:
    """The module's methods judged once each."""

    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver
        self._judged: dict[FunctionKey, bool] = {}

    def only_reads(self, file: GoFile, node: tree_sitter.Node) -> bool:
        """Whether a method call (`names.Has(n)`) leaves its receiver as it is; not a method value (`add :=
        names.Add`), which may be called anywhere."""
        info = self.resolver.callee(file, node) if node.type == "call_expression" else None
        return info is not None and self._reads(info, _METHOD_DEPTH)

    def _reads(self, info: FunctionInfo, depth: int) -> bool:
        found = self._judged.get(info.key)
        if found is None:
            self._judged[info.key] = False  # a method reached again while judged (recursion) may write
            found = self._judged[info.key] = self._every_use_reads(info, depth)
        return found

    def _every_use_reads(self, info: FunctionInfo, depth: int) -> bool:
        body = info.node.child_by_field_name("body")
        receiver = receiver_name(info.node)
        if body is None or info.node.child_by_field_name("receiver") is None:
            return False
        if receiver is None or parser.text(receiver) == "_":
            return True  # `func (Set) Len() int`: the body cannot name the receiver
        return all(
            self._use_reads(info.file, use, depth) for use in parser.identifiers_named(body, parser.text(receiver))
        )

    def _use_reads(self, file: GoFile, use: tree_sitter.Node, depth: int) -> bool:
        """Whether one use of the receiver reads it: an item read, a range over it, a comparison, its return, an
        argument of a library function or of a builtin that adds nothing, or a call of a method that only reads
        it in turn. Not an item written, its address taken, a method value, a copy kept (which may be written),
        or an argument of a function of the module (which may write it)."""
        parent = use.parent
        kind = parent.type if parent is not None else ""
        if parent is None:
            return False
        if kind in ("parenthesized_expression", "type_conversion_expression", "variadic_argument"):
            return self._use_reads(file, parent, depth)
        if kind == "unary_expression":  # `*s` of a pointer receiver reads as s; `&s` may be written through
            return parser.text(parent.child_by_field_name("operator")) == "*" and self._use_reads(file, parent, depth)
        if kind == "selector_expression":
            called = parent.parent
            if called is None or called.type != "call_expression" or called.child_by_field_name("function") != parent:
                return False
            callee = self.resolver.callee(file, called)
            return callee is not None and depth > 0 and self._reads(callee, depth - 1)
        if kind == "index_expression":
            return parent.child_by_field_name("operand") != use or not is_written(parent)
        if kind == "argument_list":
            return self._read_by_the_call(file, parent, use)
        if kind == "expression_list":
            return parent.parent is not None and parent.parent.type == "return_statement"
        return kind in ("range_clause", "binary_expression")

    def _read_by_the_call(self, file: GoFile, arguments: tree_sitter.Node, use: tree_sitter.Node) -> bool:
        call = arguments.parent
        function = call.child_by_field_name("function") if call is not None else None
        if call is None or function is None or self.resolver.callee(file, call) is not None:
            return False
        if function.type == "identifier":
            return parser.text(function) in _NOT_ADDING_BUILTINS  # not a function value held in a local
        return not (parser.text(function) in MAP_COPIES and parser.named(arguments)[:1] == [use])
