"""The front-end's own walk and positions (whole module or statement by statement) agree with libcst's.

watchlint walks libcst trees without rebuilding them (watchlint/python/walk.py) and computes positions with
a lighter code generation (watchlint/python/positions.py); both must give exactly what libcst gives, on
every Python fixture and on sources written to reach the nodes whose fields are not in source order.
"""

from __future__ import annotations

import ast
from pathlib import Path

import libcst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from watchlint.python.positions import Positions, StatementPositions, first_lines
from watchlint.python.walk import children, preorder, walk

FIXTURES = Path(__file__).parent / "fixtures"

# Formatting nodes the walk leaves out on purpose.
_FORMATTING = (
    libcst.BaseParenthesizableWhitespace,
    libcst.EmptyLine,
    libcst.TrailingWhitespace,
    libcst.Comment,
    libcst.Newline,
    libcst.LeftParen,
    libcst.RightParen,
    libcst.LeftCurlyBrace,
    libcst.RightCurlyBrace,
    libcst.LeftSquareBracket,
    libcst.RightSquareBracket,
    libcst.Comma,
    libcst.Semicolon,
    libcst.Colon,
    libcst.AssignEqual,
    libcst.Dot,
    libcst.ParamSlash,
)

OUT_OF_FIELD_ORDER = """\
import os.path as p
from . import sibling
from ..pkg.mod import (a as b, c)

@decorator(arg=1)
@other
async def handler(x, /, y: int = 2, *rest, z, **kw) -> "R":
    async with open(x) as f, lock:
        async for item in stream(f):
            value = item if item.ok else None
    try:
        pass
    except (KeyError, ValueError) as error:
        raise RuntimeError(error) from error
    finally:
        done = [v async for v in values if v if not v.skip]
    match value:
        case {"k": inner} if inner > 1:
            return call(key=inner, *value, **kw)
        case [first, *others] | (first, *others):
            return first
    return lambda q, *, r=3: (q, r)

class Model(Base, metaclass=Meta):
    field: int = 1; other = field
"""


def _fixture_modules() -> list[tuple[str, libcst.Module]]:
    found = [("field-order", libcst.parse_module(OUT_OF_FIELD_ORDER))]
    for path in sorted(FIXTURES.rglob("*.py")):
        try:
            found.append((path.relative_to(FIXTURES).as_posix(), libcst.parse_module(path.read_bytes())))
        except libcst.ParserSyntaxError:
            continue  # fixtures of broken code
    return found


class _Recorder(libcst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.visited: list[libcst.CSTNode] = []
        self.left: list[libcst.CSTNode] = []

    def on_visit(self, node: libcst.CSTNode) -> bool:
        self.visited.append(node)
        return not isinstance(node, libcst.Lambda)  # a visitor may skip children

    def on_leave(self, original_node: libcst.CSTNode) -> None:
        self.left.append(original_node)


def _syntax(nodes: list[libcst.CSTNode]) -> list[int]:
    return [id(node) for node in nodes if not isinstance(node, _FORMATTING)]


@pytest.mark.parametrize(
    ("name", "module"), _fixture_modules(), ids=lambda value: value if isinstance(value, str) else ""
)
def test_walk_visits_and_leaves_the_syntax_nodes_in_libcsts_order(name: str, module: libcst.Module) -> None:
    theirs, ours = _Recorder(), _Recorder()
    module.visit(theirs)
    walk(module, ours)
    assert _syntax(ours.visited) == _syntax(theirs.visited)
    assert _syntax(ours.left) == _syntax(theirs.left)


@pytest.mark.parametrize(
    ("name", "module"), _fixture_modules(), ids=lambda value: value if isinstance(value, str) else ""
)
def test_positions_equal_libcsts_position_provider(name: str, module: libcst.Module) -> None:
    theirs = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    ours = Positions(module)
    for node, where in theirs.items():
        mine = ours[node]
        assert (mine.start.line, mine.start.column, mine.end.line, mine.end.column) == (
            where.start.line,
            where.start.column,
            where.end.line,
            where.end.column,
        ), f"{name}: {type(node).__name__}"


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_positions_count_every_kind_of_line_ending(newline: str) -> None:
    module = libcst.parse_module(newline.join(["import kopf", "", "x = kopf.on.event('pods')", "y = 'é' + z", ""]))
    theirs = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    ours = Positions(module)
    call = next(node for node in theirs if isinstance(node, libcst.Call))
    name = next(node for node in theirs if isinstance(node, libcst.Name) and node.value == "z")
    assert (ours[call].start.line, ours[call].start.column) == (3, 4)
    assert (ours[name].start.line, ours[name].start.column, ours[name].end.column) == (4, 10, 11)
    assert ours[call].end.column == theirs[call].end.column


@pytest.mark.parametrize(
    ("name", "module"), _fixture_modules(), ids=lambda value: value if isinstance(value, str) else ""
)
def test_positions_by_statement_equal_positions_of_the_whole_module(name: str, module: libcst.Module) -> None:
    parents = preorder(module)[1]
    by_statement = StatementPositions.build(module, parents, first_lines(ast.parse(module.code)))
    assert by_statement is not None
    whole = Positions(module)
    for node in parents:
        try:
            expected = whole[node]
        except KeyError:
            continue  # formatting nodes the walk leaves out have no position of their own to compare
        assert by_statement[node] == expected, f"{name}: {type(node).__name__}"


def test_positions_by_statement_refuse_statements_that_do_not_pair_up() -> None:
    module = libcst.parse_module("a = 1\nb = 2\n")
    assert StatementPositions.build(module, {}, (1,)) is None


def test_preorder_names_each_nodes_parent() -> None:
    module = libcst.parse_module("f(a.b)\n")
    order, parents = preorder(module)
    call = next(node for node in order if isinstance(node, libcst.Call))
    attribute = next(node for node in order if isinstance(node, libcst.Attribute))
    assert order[0] is module
    assert module not in parents
    assert parents[attribute] is call.args[0]
    assert children(attribute) == [attribute.value, attribute.attr]
    assert set(parents) == set(order[1:])


@pytest.mark.parametrize(
    ("name", "module"), _fixture_modules(), ids=lambda value: value if isinstance(value, str) else ""
)
def test_preorder_lists_the_syntax_nodes_in_libcsts_order(name: str, module: libcst.Module) -> None:
    class EveryNode(_Recorder):
        def on_visit(self, node: libcst.CSTNode) -> bool:
            self.visited.append(node)
            return True

    theirs = EveryNode()
    module.visit(theirs)
    assert _syntax(preorder(module)[0]) == _syntax(theirs.visited)


def test_positions_fall_back_to_libcsts_provider_when_the_code_generation_hooks_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import watchlint.python.positions as positions

    def broken(module: libcst.Module) -> None:
        raise TypeError("record_syntactic_position() got an unexpected keyword argument")

    monkeypatch.setattr(positions, "Positions", broken)
    module = libcst.parse_module("import kopf\n\n@kopf.on.event('pods')\ndef f(**_):\n    pass\n")
    found = positions.positions_of(module)
    decorator = module.body[1].decorators[0]  # type: ignore[attr-defined]
    assert (found[decorator].start.line, found[decorator].start.column) == (3, 0)
