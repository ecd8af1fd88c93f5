"""Positions of libcst nodes, the same as libcst's PositionProvider gives, at a third of its cost.

PositionProvider regenerates the module's code and updates a line and column on every token, and libcst's
MetadataWrapper walks the whole tree once more before it does. Here the code generation only counts
characters and notes where lines start; a node's line and column are computed when a span is asked for,
which the front-end does for a few nodes per file, and only the top-level statements holding those nodes
are generated (StatementPositions). tests/test_python_walk.py compares all of it on every fixture.

The counting hooks are those of libcst's own CodegenState (a libcst internal): should a libcst release change
them, `positions_of` falls back to libcst's PositionProvider rather than fail.
"""

from __future__ import annotations

import ast
import bisect
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Protocol

import libcst
from libcst._nodes.internal import CodegenState
from libcst.metadata import MetadataWrapper, PositionProvider

from watchlint.debuglog import debug

_NEWLINE = re.compile(r"\r\n?|\n")  # as libcst counts lines


@dataclass(frozen=True, slots=True)
class Position:
    """1-based line, 0-based column in code points, as libcst's CodePosition."""

    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Range:
    start: Position
    end: Position


class _Point(Protocol):
    @property
    def line(self) -> int: ...

    @property
    def column(self) -> int: ...


class _Span(Protocol):
    @property
    def start(self) -> _Point: ...

    @property
    def end(self) -> _Point: ...


class NodePositions(Protocol):
    def __getitem__(self, node: libcst.CSTNode, /) -> _Span: ...


def positions_of(
    module: libcst.Module,
    parents: Mapping[libcst.CSTNode, libcst.CSTNode] | None = None,
    statement_lines: Sequence[int] | None = None,
) -> NodePositions:
    """The positions of every node of a module: statement by statement when the parents and CPython's lines
    of the top-level statements are given and pair up with libcst's statements, else the whole module at
    once; libcst's own if ours cannot be computed."""
    if parents is not None and statement_lines is not None:
        by_statement = StatementPositions.build(module, parents, statement_lines)
        if by_statement is not None:
            return by_statement
    try:
        return Positions(module)
    except Exception:  # a libcst release whose code generation no longer calls the hooks as ours expects
        debug(__name__, "falling back to libcst's PositionProvider")
        return MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)


@dataclass
class _OffsetState(CodegenState):
    """Code generation that records, for every node, the character offsets of its syntactic range."""

    offset: int = 0
    line_starts: list[int] = field(default_factory=lambda: [0])
    ranges: dict[libcst.CSTNode, tuple[int, int]] = field(default_factory=dict)
    _starts: list[int] = field(default_factory=list)

    def add_indent_tokens(self) -> None:
        for token in self.indent_tokens:
            self.add_token(token)

    def add_token(self, value: str) -> None:
        self.tokens.append(value)
        if "\n" in value or "\r" in value:
            self.line_starts.extend(self.offset + match.end() for match in _NEWLINE.finditer(value))
        self.offset += len(value)

    def before_codegen(self, node: libcst.CSTNode) -> None:
        self._starts.append(self.offset)

    def after_codegen(self, node: libcst.CSTNode) -> None:
        start = self._starts.pop()
        if node not in self.ranges:  # a syntactic range recorded inside wins over the whitespace-inclusive one
            self.ranges[node] = (start, self.offset)

    @contextmanager
    def record_syntactic_position(
        self, node: libcst.CSTNode, *, start_node: libcst.CSTNode | None = None, end_node: libcst.CSTNode | None = None
    ) -> Iterator[None]:
        start = self.offset
        try:
            yield
        finally:
            end = self.offset
            if start_node is not None:
                start = self.ranges[start_node][0]
            if end_node is not None:
                end = self.ranges[end_node][1]
            self.ranges[node] = (start, end)


class Positions:
    """The range of every node of one module (or of one top-level statement), in one code generation."""

    def __init__(self, module: libcst.Module, node: libcst.CSTNode | None = None, first_line: int = 1) -> None:
        state = _OffsetState(default_indent=module.default_indent, default_newline=module.default_newline)
        (node or module)._codegen(state)
        self._ranges = state.ranges
        self._line_starts = state.line_starts
        self._first_line = first_line

    def __getitem__(self, node: libcst.CSTNode) -> Range:
        start, end = self._ranges[node]
        return Range(self._position(start), self._position(end))

    def _position(self, offset: int) -> Position:
        index = bisect.bisect_right(self._line_starts, offset) - 1
        return Position(self._first_line + index, offset - self._line_starts[index])


def first_lines(tree: ast.Module) -> tuple[int, ...]:
    """The line of each top-level statement's first token (of its first decorator, for a decorated one)."""
    return tuple(
        statement.decorator_list[0].lineno
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and statement.decorator_list
        else statement.lineno
        for statement in tree.body
    )


class StatementPositions:
    """Positions generated one top-level statement at a time, each placed on the line CPython's parser found
    for it: the front-end asks for a few nodes per file, and generating only the statements around them
    costs a fraction of the whole module. Anything outside a top-level statement uses the whole module."""

    def __init__(
        self, module: libcst.Module, parents: Mapping[libcst.CSTNode, libcst.CSTNode], starts: dict[int, int]
    ) -> None:
        self._module = module
        self._parents = parents
        self._starts = starts  # id of a top-level statement -> the line its generated code starts on
        self._by_statement: dict[int, Positions] = {}
        self._whole: NodePositions | None = None

    @classmethod
    def build(
        cls, module: libcst.Module, parents: Mapping[libcst.CSTNode, libcst.CSTNode], lines: Sequence[int]
    ) -> StatementPositions | None:
        """None when libcst's statements and CPython's do not pair up (then the whole module is generated)."""
        starts: dict[int, int] = {}
        index = 0
        for statement in module.body:
            if index >= len(lines):
                return None
            # A statement's code starts with its leading blank and comment lines, one line each.
            starts[id(statement)] = lines[index] - len(statement.leading_lines)
            index += len(statement.body) if isinstance(statement, libcst.SimpleStatementLine) else 1
        return cls(module, parents, starts) if index == len(lines) else None

    def __getitem__(self, node: libcst.CSTNode) -> _Span:
        statement = node
        parent = self._parents.get(statement)
        while parent is not None and parent is not self._module:
            statement, parent = parent, self._parents.get(parent)
        if parent is None or id(statement) not in self._starts:
            return self._whole_module()[node]
        positions = self._by_statement.get(id(statement))
        if positions is None:
            try:
                positions = Positions(self._module, statement, self._starts[id(statement)])
            except Exception:  # see positions_of: the whole module, by libcst if need be
                return self._whole_module()[node]
            self._by_statement[id(statement)] = positions
        return positions[node]

    def _whole_module(self) -> NodePositions:
        if self._whole is None:
            self._whole = positions_of(self._module)
        return self._whole
