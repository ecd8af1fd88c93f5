"""libcst parsing and comment extraction for the Python front-end."""

from __future__ import annotations

import ast
import io
import itertools
import tokenize

import libcst

from watchlint.facts import Comment
from watchlint.source import SourceFile, Span

DIRECTIVE_MARKERS = (b"noqa", b"watchlint")  # comments without these cannot suppress anything


class PythonSyntaxError(Exception):
    """A file libcst cannot parse; the message names the line."""


_NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in b"()[]{}")
MAX_NESTING = 200  # CPython's own parser limit; libcst's native parser crashes the process far beyond it


def parse(source: SourceFile) -> libcst.Module:
    depth = _bracket_depth(source.data)
    if depth > MAX_NESTING:
        raise PythonSyntaxError(f"brackets nested {depth} deep (more than {MAX_NESTING})")
    try:
        return libcst.parse_module(source.data)
    except libcst.ParserSyntaxError as error:
        raise PythonSyntaxError(f"syntax error at line {_error_line(source, error.raw_line)}") from None


def _bracket_depth(data: bytes) -> int:
    """The deepest bracket nesting, counted on tokens once a cheap byte count says it may be deep."""
    brackets = data.translate(None, _NOT_BRACKETS)
    rough = max(itertools.accumulate(1 if byte in b"([{" else -1 for byte in brackets), default=0)
    if rough <= MAX_NESTING:
        return rough
    depth = deepest = 0
    try:
        for token in tokenize.tokenize(io.BytesIO(data).readline):
            if token.type == tokenize.OP and token.string in "([{":
                depth += 1
                deepest = max(deepest, depth)
            elif token.type == tokenize.OP and token.string in ")]}":
                depth -= 1
    except (tokenize.TokenError, SyntaxError):
        pass
    return deepest


def _error_line(source: SourceFile, fallback: int) -> int:
    """CPython's parser names the line of the error; libcst's may point past it."""
    try:
        compile(source.data, source.path, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as error:
        return error.lineno or fallback
    except (ValueError, RecursionError, MemoryError):
        return fallback
    return fallback


def extract_comments(source: SourceFile) -> tuple[Comment, ...]:
    """Collect the comments that may carry a suppression directive, with tokenize (libcst parsed the file)."""
    if not any(marker in source.data for marker in DIRECTIVE_MARKERS):
        return ()
    comments = []
    try:
        tokens = list(tokenize.tokenize(io.BytesIO(source.data).readline))
    except (tokenize.TokenError, SyntaxError):
        return ()
    for token in tokens:
        if token.type != tokenize.COMMENT or not any(marker.decode() in token.string for marker in DIRECTIVE_MARKERS):
            continue
        (line, column), (end_line, end_column) = token.start, token.end
        span = Span(source.path, line, column + 1, end_line, end_column + 1)
        comments.append(Comment(span, token.string, not token.line[:column].strip()))
    return tuple(comments)
