"""Build constraints: whether a Go file is in the default build of the deployed binary.

A file headed `//go:build integration` (test helpers that are no `_test.go` file), `//go:build tools` or
`//go:build windows` is not compiled by a plain `go build` on the Linux/amd64 images operators ship as:
none of its code runs in the default deployment (SPEC §1).
"""

from __future__ import annotations

import re

_CONSTRAINT = re.compile(rb"^//go:build[ \t]+([^\r\n]*)", re.MULTILINE)
_PACKAGE_CLAUSE = re.compile(rb"^\s*package\s", re.MULTILINE)
_HEAD_BYTES = 16 * 1024  # where the header of a file with a long license is over
# The convention of `go generate` (https://go.dev/s/generatedcode), searched in the file's head.
_GENERATED = re.compile(rb"^// Code generated .* DO NOT EDIT\.\r?$", re.MULTILINE)
_TOKEN = re.compile(r"\s*(\(|\)|!|&&|\|\||[A-Za-z0-9_.]+)")
# what a plain `go build` on linux/amd64 satisfies; other operating systems, architectures and every custom tag
# (integration, e2e, tools, ignore, enterprise…) it does not
_SATISFIED = frozenset({"linux", "amd64", "unix", "gc", "cgo"})
_GO_VERSION = re.compile(r"go1\.\d+")


def header(data: bytes) -> bytes:
    """The part of a Go file before its package clause (within its first 16 KiB), where directives such as
    `//go:build` and the generated-code marker belong."""
    head = data[:_HEAD_BYTES]
    package = _PACKAGE_CLAUSE.search(head)
    return head[: package.start()] if package else head


def marked_generated(data: bytes) -> bool:
    """Whether the generated-code marker comes before the package clause, as the convention requires."""
    return _GENERATED.search(header(data)) is not None


def in_default_build(data: bytes) -> bool:
    """Whether a file's `//go:build` line, if it has one before its package clause, holds for a plain build;
    a line that does not parse holds (the file is analyzed, as without one)."""
    match = _CONSTRAINT.search(header(data))
    if match is None:
        return True
    expression = match.group(1).decode("utf-8", "replace").split("//", 1)[0]
    tokens = _tokens(expression)
    if tokens is None:
        return True
    parsed = _Parser(tokens)
    value = parsed.expression()
    return True if value is None or parsed.position != len(tokens) else value


def _tokens(expression: str) -> list[str] | None:
    tokens, position = [], 0
    expression = expression.rstrip()
    while position < len(expression):
        match = _TOKEN.match(expression, position)
        if match is None:
            return None
        tokens.append(match.group(1))
        position = match.end()
    return tokens


class _Parser:
    """`a || b`, `a && b`, `!a`, `(a)`, as `go/build/constraint` reads them; None where the line does not parse."""

    def __init__(self, tokens: list[str]) -> None:
        self.tokens = tokens
        self.position = 0

    def expression(self) -> bool | None:
        value = self._and()
        while value is not None and self._take("||"):
            right = self._and()
            value = None if right is None else value or right
        return value

    def _and(self) -> bool | None:
        value = self._not()
        while value is not None and self._take("&&"):
            right = self._not()
            value = None if right is None else value and right
        return value

    def _not(self) -> bool | None:
        if self._take("!"):
            value = self._not()
            return None if value is None else not value
        if self._take("("):
            value = self.expression()
            return value if self._take(")") else None
        if self.position < len(self.tokens) and self.tokens[self.position] not in ("(", ")", "!", "&&", "||"):
            tag = self.tokens[self.position]
            self.position += 1
            return tag in _SATISFIED or _GO_VERSION.fullmatch(tag) is not None
        return None

    def _take(self, token: str) -> bool:
        if self.position < len(self.tokens) and self.tokens[self.position] == token:
            self.position += 1
            return True
        return False
