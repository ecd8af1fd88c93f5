"""Runs a small Go helper statement by statement over known values: the functions that decide from a list
setting whether a part runs (`isControllerEnabled(name, controllers)` over `--controllers=*,-sharding`), whose
returns sit in loops and depend on the rounds before them, which reading each return's guards cannot tell."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

import tree_sitter

from watchlint.go import parser
from watchlint.go.known import OPERATORS, UNKNOWN, CallBindings, Val, Value, item_value
from watchlint.go.scope import named_results

if TYPE_CHECKING:
    from watchlint.go.deployment import Evaluator
    from watchlint.go.model import GoFile

_STEPS = 2000  # statements run at most: a helper that loops longer is not one of these
_ZERO_VALUES = {"bool": False, "string": "", "int": 0, "int32": 0, "int64": 0}


class LocalState(CallBindings):
    """The parameters a call binds and the locals the run has set so far, which reads take as they stand; a
    block's declarations hide the outer names of theirs until the block ends (`x := …` inside an `if`)."""

    def __init__(self, bindings: CallBindings) -> None:
        super().__init__(bindings.function, dict(bindings), bindings.literal)
        self.assigned: set[str] = set()
        # per open block, the names it declared with what they held before: (were they assigned, their value)
        self._scopes: list[dict[str, tuple[bool, object]]] = [{}]

    @contextmanager
    def scope(self) -> Iterator[None]:
        """A block's declarations, undone when it ends."""
        self._scopes.append({})
        try:
            yield
        finally:
            self._close()

    def _close(self) -> None:
        for name, (was_assigned, before) in self._scopes.pop().items():
            if before is _ABSENT:
                self.pop(name, None)
            else:
                self[name] = before  # type: ignore[assignment]
            (self.assigned.add if was_assigned else self.assigned.discard)(name)

    def declare(self, name: str, value: Value) -> None:
        """`name := value` or `var name = value`: a new variable of the innermost block (the same one where that
        block declared it already)."""
        scope = self._scopes[-1]
        if name != "_" and name not in scope:
            scope[name] = (name in self.assigned, dict.get(self, name, _ABSENT))
        self.set(name, value)

    def set(self, name: str, value: Value) -> None:
        if name != "_":
            self[name] = value
            self.assigned.add(name)


_ABSENT = object()  # a name no binding held before a block declared it


class _NotFollowedError(Exception):
    """A statement the run does not follow, or a value it needs that is not known: the helper is not run."""


@dataclass(frozen=True, slots=True)
class _Returned:
    value: Value


_BREAK = "break"
_CONTINUE = "continue"
_Outcome = _Returned | str | None  # None: the statements ran to their end
# the statements holding others, by the method of Run that runs each (names: bound methods kept on a run would
# tie it to itself, and the evaluator with it, until a cyclic collection)
_COMPOUND = {
    "statement_list": "_statements",
    "block": "_block",
    "if_statement": "_if",
    "for_statement": "_range",
    "expression_switch_statement": "_switch",
}


def _zero_of(type_node: tree_sitter.Node | None) -> Val:
    """The zero value of a local's declared type: nil for a slice (`var s []string; s == nil` holds), or of a
    boolean, string or integer; another type's is not followed."""
    if type_node is not None and type_node.type == "slice_type":
        return Val(None)
    if type_node is not None and parser.text(type_node) in _ZERO_VALUES:
        return Val(_ZERO_VALUES[parser.text(type_node)])
    raise _NotFollowedError


def _called_in_place(node: tree_sitter.Node | None) -> tree_sitter.Node | None:
    """The function literal a call without arguments calls where it is written (`func() bool {…}()`), taking no
    parameters; None for another node."""
    function = node.child_by_field_name("function") if node is not None and node.type == "call_expression" else None
    arguments = node.child_by_field_name("arguments") if node is not None else None
    if function is None or function.type != "func_literal" or (arguments is not None and arguments.named_children):
        return None
    parameters = function.child_by_field_name("parameters")
    return function if parameters is None or not parameters.named_children else None


def _holds_a_closure(node: tree_sitter.Node) -> bool:
    pending = [node]
    while pending:
        current = pending.pop()
        if current.type == "func_literal":
            return True
        pending.extend(current.named_children)
    return False


def has_range_loop(function: tree_sitter.Node) -> bool:
    """Whether a function's own body holds a `for … range` loop (a function literal's inside it is its own)."""
    pending = [function.child_by_field_name("body")]
    while pending:
        node = pending.pop()
        if node is None or node.type == "func_literal":
            continue
        if node.type == "range_clause":
            return True
        pending.extend(node.named_children)
    return False


class Run:
    """One run of a function for one call: what it returns, or None where a step is not followed."""

    def __init__(self, evaluator: Evaluator, file: GoFile, depth: int) -> None:
        self.evaluator = evaluator
        self.file = file
        self.depth = depth
        self.steps = 0
        self.origins: list[str] = []  # the settings the branches taken and the lists ranged over read

    def returned(self, function: tree_sitter.Node, bindings: CallBindings) -> Value | None:
        state = LocalState(bindings)
        try:
            for name in named_results(function):  # named results start at their zero values
                declaration = name.parent
                state.declare(
                    parser.text(name), _zero_of(declaration.child_by_field_name("type") if declaration else None)
                )
            outcome = self._statements(function.child_by_field_name("body"), state)
        except _NotFollowedError:
            return None
        if not isinstance(outcome, _Returned) or not isinstance(outcome.value, Val):
            return None
        value = outcome.value
        # `return hasStar`, set by a literal in a branch the setting chose: the value is the setting's
        origin = value.origin or next((origin for origin in self.origins if origin), "")
        return Val(value.value, origin, value.unseen)

    # -- statements ---------------------------------------------------------------------------------
    def _statements(self, block: tree_sitter.Node | None, state: LocalState) -> _Outcome:
        if block is None:
            return None
        for statement in block.named_children:
            if statement.type == "comment":
                continue
            outcome = self._statement(statement, state)
            if outcome is not None:
                return outcome
        return None

    def _block(self, block: tree_sitter.Node, state: LocalState) -> _Outcome:
        with state.scope():
            return self._statements(block, state)

    def _statement(self, statement: tree_sitter.Node, state: LocalState) -> _Outcome:
        self.steps += 1
        if self.steps > _STEPS:
            raise _NotFollowedError
        kind = statement.type
        compound = _COMPOUND.get(kind)
        if compound is not None:
            outcome: _Outcome = getattr(self, compound)(statement, state)
            return outcome
        if kind == "return_statement":
            items = parser.named(statement.named_children[0]) if statement.named_children else []
            if len(items) != 1:
                raise _NotFollowedError
            return _Returned(self._value(items[0], state))
        if kind in ("break_statement", "continue_statement") and not statement.named_children:
            return _BREAK if kind == "break_statement" else _CONTINUE  # a labelled one is not followed
        if kind != "empty_statement":
            self._simple(statement, state)
        return None

    def _simple(self, statement: tree_sitter.Node | None, state: LocalState) -> None:
        """An assignment, a declaration or `x++`; anything else (a call for its effects) is not followed."""
        if statement is None:
            return
        kind = statement.type
        if kind in ("short_var_declaration", "assignment_statement"):
            self._assign(statement, state)
        elif kind == "var_declaration":
            for spec in statement.named_children:
                self._var_spec(spec, state)
        elif kind in ("inc_statement", "dec_statement"):
            target = parser.first_named(statement)
            value = self._value(target, state) if target is not None and target.type == "identifier" else UNKNOWN
            if not isinstance(value, Val) or type(value.value) is not int:
                raise _NotFollowedError
            step = 1 if kind == "inc_statement" else -1
            state.set(parser.text(target), Val(value.value + step, value.origin))
        else:
            raise _NotFollowedError

    def _assign(self, statement: tree_sitter.Node, state: LocalState) -> None:
        targets = parser.named(statement.child_by_field_name("left") or statement)
        values = parser.named(statement.child_by_field_name("right") or statement)
        operator = parser.text(statement.child_by_field_name("operator")) or ":="
        if len(targets) != len(values) or any(target.type != "identifier" for target in targets):
            raise _NotFollowedError
        computed = [self._value(value, state) for value in values]  # `a, b = b, a`: all read before any write
        for target, value in zip(targets, computed, strict=True):
            if operator == ":=":
                state.declare(parser.text(target), value)
                continue
            if operator == "=":
                state.set(parser.text(target), value)
                continue
            function = OPERATORS.get(operator.removesuffix("="))
            held = self._value(target, state)
            if function is None or not isinstance(held, Val) or not isinstance(value, Val):
                raise _NotFollowedError
            try:
                state.set(parser.text(target), Val(function(held.value, value.value), held.origin or value.origin))
            except TypeError as error:
                raise _NotFollowedError from error

    def _var_spec(self, spec: tree_sitter.Node, state: LocalState) -> None:
        names = [child for child in spec.children_by_field_name("name") if child.type == "identifier"]
        written = spec.child_by_field_name("value")
        values = parser.named(written) if written is not None else []
        if values:
            if len(values) != len(names):
                raise _NotFollowedError
            for name, value in zip(names, values, strict=True):
                state.declare(parser.text(name), self._value(value, state))
            return
        zero = _zero_of(spec.child_by_field_name("type"))
        for name in names:
            state.declare(parser.text(name), zero)

    def _if(self, statement: tree_sitter.Node, state: LocalState) -> _Outcome:
        with state.scope():  # what the initializer declares is the `if`'s, its else branches' too
            self._simple(statement.child_by_field_name("initializer"), state)
            if self._holds(statement.child_by_field_name("condition"), state):
                return self._statement_or_block(statement.child_by_field_name("consequence"), state)
            return self._statement_or_block(statement.child_by_field_name("alternative"), state)

    def _statement_or_block(self, node: tree_sitter.Node | None, state: LocalState) -> _Outcome:
        return None if node is None else self._statement(node, state)

    def _range(self, loop: tree_sitter.Node, state: LocalState) -> _Outcome:
        clause = next((child for child in loop.named_children if child.type == "range_clause"), None)
        if clause is None:
            raise _NotFollowedError  # a counted or conditional loop: how often it runs is its own computation
        ranged = self._value(clause.child_by_field_name("right"), state)
        # a map's order is random in Go: only a list gives its rounds in an order the result may depend on
        if not isinstance(ranged, Val) or not isinstance(ranged.value, list | tuple):
            raise _NotFollowedError
        self.origins.append(ranged.origin)
        left = clause.child_by_field_name("left")
        names = [parser.text(name) for name in parser.named(left)] if left is not None else []
        if any(not name.isidentifier() for name in names) or len(names) > 2:
            raise _NotFollowedError
        # `for _, c := range …` declares its variables, each round anew; `for _, c = range …` assigns outer ones
        bind = state.set if any(child.type == "=" for child in clause.children) else state.declare
        for index, item in enumerate(ranged.value):
            with state.scope():
                if names:
                    bind(names[0], Val(index))
                if len(names) == 2:
                    bind(names[1], item_value(item, ranged.origin, ranged.unseen))
                outcome = self._statement_or_block(loop.child_by_field_name("body"), state)
            if outcome == _BREAK:
                break
            if isinstance(outcome, _Returned):
                return outcome
        return None

    def _switch(self, statement: tree_sitter.Node, state: LocalState) -> _Outcome:
        with state.scope():
            return self._switched(statement, state)

    def _switched(self, statement: tree_sitter.Node, state: LocalState) -> _Outcome:
        self._simple(statement.child_by_field_name("initializer"), state)
        tag_node = statement.child_by_field_name("value")
        tag = self._value(tag_node, state) if tag_node is not None else Val(True)
        if not isinstance(tag, Val):
            raise _NotFollowedError
        self.origins.append(tag.origin)
        cases = [child for child in statement.named_children if child.type in ("expression_case", "default_case")]
        chosen = next(
            (case for case in cases if case.type == "expression_case" and self._matches(case, tag, state)), None
        )
        chosen = chosen or next((case for case in cases if case.type == "default_case"), None)
        if chosen is None:
            return None
        body = [child for child in chosen.named_children if child.type == "statement_list"]
        if any(child.type == "fallthrough_statement" for part in body for child in part.named_children):
            raise _NotFollowedError
        outcome = self._block(body[0], state) if body else None  # each case is a block of its own
        return None if outcome == _BREAK else outcome  # a `break` in a case leaves the switch

    def _matches(self, case: tree_sitter.Node, tag: Val, state: LocalState) -> bool:
        values = case.child_by_field_name("value")
        for node in parser.named(values) if values is not None else []:
            value = self._value(node, state)
            if not isinstance(value, Val):
                raise _NotFollowedError
            self.origins.append(value.origin)
            if value.value == tag.value:
                return True
        return False

    # -- values -------------------------------------------------------------------------------------
    def _closure(self, literal: tree_sitter.Node, state: LocalState) -> Value:
        """`func() bool { … }()`: its body run on the run's own locals, which it may write (`hasStar = true`), in
        a block of its own; what it returns is the value."""
        with state.scope():
            outcome = self._statements(literal.child_by_field_name("body"), state)
        if not isinstance(outcome, _Returned):
            raise _NotFollowedError  # a break or continue cannot leave a function; a value is wanted
        return outcome.value

    def _holds(self, condition: tree_sitter.Node | None, state: LocalState) -> bool:
        value = self._value(condition, state)
        if not isinstance(value, Val) or not isinstance(value.value, bool):
            raise _NotFollowedError
        self.origins.append(value.origin)
        return value.value

    def _value(self, node: tree_sitter.Node | None, state: LocalState) -> Value:
        literal = _called_in_place(node)
        if literal is not None:
            return self._closure(literal, state)
        if node is not None and _holds_a_closure(node):
            raise _NotFollowedError  # a function literal may write the run's locals, which the evaluation of it cannot
        value = self.evaluator.value(self.file, node, state, self.depth + 1)
        if value is UNKNOWN:
            raise _NotFollowedError
        return value
