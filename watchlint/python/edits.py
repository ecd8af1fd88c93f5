"""Python fix builders (SPEC §4): edits computed from libcst node positions, in the file's own layout.

A kubernetes list across all namespaces becomes the namespaced list of the same kind, with the namespace as
a positional argument where the namespaced method takes it (first; after group and version for custom
objects), or as `namespace=` where the call names its arguments. Arguments written one per line get the
new one on a line of its own, indented like its neighbours.
"""

from __future__ import annotations

import libcst

from watchlint.fixes import Edit
from watchlint.python.calls import keyword, positional
from watchlint.python.parser import ParsedFile
from watchlint.source import Span


def rename(file: ParsedFile, name: libcst.Name, new: str) -> Edit:
    return Edit(file.span(name), new)


def insert_positional(file: ParsedFile, call: libcst.Call, index: int, text: str) -> Edit | None:
    """Insert `text` as the positional argument at `index`; None when the call's positions cannot be known
    (a `*args`) or it has fewer positional arguments than `index`."""
    if any(arg.star == "*" for arg in call.args):
        return None
    given = positional(call)
    if index > len(given):
        return None
    indent = _one_per_line(file, call)
    if index < len(call.args):
        return _before(file, call.args[index], text, indent)
    if index > 0:
        return _last(file, call, text, indent)
    return Edit(_inside_parenthesis(file, call), text)


def insert_keyword(file: ParsedFile, call: libcst.Call, text: str, before: str = "") -> Edit:
    """Insert the keyword argument `text` before the argument named `before`, else first among the keyword
    arguments, else last."""
    indent = _one_per_line(file, call)
    target = keyword(call, before) if before else None
    target = target or next((arg for arg in call.args if arg.keyword is not None or arg.star == "**"), None)
    if target is not None:
        return _before(file, target, text, indent)
    if call.args:
        return _last(file, call, text, indent)
    return Edit(_inside_parenthesis(file, call), text)


def joined(file: ParsedFile, first: Edit, second: Edit) -> tuple[Edit, ...]:
    """Two edits of one line as one, keeping the source between them, so a preview shows the whole change."""
    start, end = first.span, second.span
    if start.end_line != end.line or (start.end_line, start.end_column) > (end.line, end.column):
        return (first, second)
    line = file.source.line_bytes(end.line).decode("utf-8", errors="replace")
    between = line[start.end_column - 1 : end.column - 1]
    span = Span(start.path, start.line, start.column, end.end_line, end.end_column)
    return (Edit(span, first.new_text + between + second.new_text),)


def _before(file: ParsedFile, arg: libcst.Arg, text: str, indent: str | None) -> Edit:
    start = file.span(arg)
    separator = ", " if indent is None else ",\n" + indent
    return Edit(Span(start.path, start.line, start.column, start.line, start.column), text + separator)


def _last(file: ParsedFile, call: libcst.Call, text: str, indent: str | None) -> Edit:
    """After the last argument; one per line with a trailing comma, on a line of its own above the `)`, so
    a comment after the last argument stays where it is."""
    last = call.args[-1]
    closing = file.span(call)
    before_closing = file.source.line_bytes(closing.end_line).decode("utf-8", errors="replace")[
        : closing.end_column - 2
    ]
    if indent is not None and isinstance(last.comma, libcst.Comma) and not before_closing.strip():
        return Edit(Span(closing.path, closing.end_line, 1, closing.end_line, 1), f"{indent}{text},\n")
    end = file.span(last.value)
    separator = ", " if indent is None else ",\n" + indent
    return Edit(Span(end.path, end.end_line, end.end_column, end.end_line, end.end_column), separator + text)


def _inside_parenthesis(file: ParsedFile, call: libcst.Call) -> Span:
    """The empty span just after the call's `(`."""
    func = file.span(call.func)
    gap = call.whitespace_after_func
    width = len(gap.value) if isinstance(gap, libcst.SimpleWhitespace) else 0
    column = func.end_column + width + 1
    return Span(func.path, func.end_line, column, func.end_line, column)


def _one_per_line(file: ParsedFile, call: libcst.Call) -> str | None:
    """The indentation of the arguments when they start on a line of their own below the `(`, else None."""
    if not call.args:
        return None
    first = file.span(call.args[0])
    if first.line == file.span(call.func).end_line:
        return None
    prefix = file.source.line_bytes(first.line).decode("utf-8", errors="replace")[: first.column - 1]
    return prefix if not prefix.strip() else None
