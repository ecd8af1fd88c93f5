"""libcst parsing and comment extraction for the Python front-end."""

from __future__ import annotations

import io
import tokenize

import libcst

from watchlint.facts import Comment
from watchlint.source import SourceFile, Span

DIRECTIVE_MARKERS = (b"noqa", b"watchlint")  # comments without these cannot suppress anything


class PythonSyntaxError(Exception):
    """A file libcst cannot parse; the message names the line."""


def parse(source: SourceFile) -> libcst.Module:
    try:
        return libcst.parse_module(source.data)
    except libcst.ParserSyntaxError as error:
        raise PythonSyntaxError(f"syntax error at line {error.raw_line}") from None


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
