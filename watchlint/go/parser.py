"""tree-sitter-go: the parser, compiled queries, node text and spans, syntax errors and comments."""

from __future__ import annotations

import functools

import tree_sitter
import tree_sitter_go

from watchlint.facts import Comment
from watchlint.source import SourceFile, Span

DIRECTIVE_MARKERS = (b"nolint", b"watchlint")  # comments without these cannot suppress anything


@functools.cache
def language() -> tree_sitter.Language:
    return tree_sitter.Language(tree_sitter_go.language())


@functools.cache
def query(source: str) -> tree_sitter.Query:
    """Compile a query once per process (Language.query was removed in tree-sitter 0.26)."""
    return tree_sitter.Query(language(), source)


def captures(pattern: str, node: tree_sitter.Node) -> dict[str, list[tree_sitter.Node]]:
    """Captured nodes by name, each list in document order (the binding does not guarantee any order)."""
    found = tree_sitter.QueryCursor(query(pattern)).captures(node)
    return {name: sorted(nodes, key=_position) for name, nodes in found.items()}


def _position(node: tree_sitter.Node) -> tuple[int, int]:
    return node.start_byte, -node.end_byte


def parse(source: SourceFile) -> tree_sitter.Tree:
    return tree_sitter.Parser(language()).parse(source.data)


def text(node: tree_sitter.Node | None) -> str:
    """The source text of a node; "" for a missing one (optional fields of broken or partial code)."""
    if node is None:
        return ""
    return (node.text or b"").decode("utf-8", errors="replace")


def span(source: SourceFile, node: tree_sitter.Node) -> Span:
    return source.span(node.start_byte, node.end_byte)


def first_syntax_error(tree: tree_sitter.Tree) -> tree_sitter.Node | None:
    """Return the first ERROR or missing node in source order, or None for a clean tree."""
    if not tree.root_node.has_error:
        return None
    cursor = tree.walk()
    while True:
        node = cursor.node
        if node is not None and (node.type == "ERROR" or node.is_missing):
            return node
        if node is not None and node.has_error and cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return None


def extract_comments(source: SourceFile, tree: tree_sitter.Tree) -> tuple[Comment, ...]:
    """Collect the comments that may carry a suppression directive."""
    if not any(marker in source.data for marker in DIRECTIVE_MARKERS):
        return ()
    comments = []
    for node in captures("(comment) @comment", tree.root_node).get("comment", []):
        body = node.text or b""
        if not any(marker in body for marker in DIRECTIVE_MARKERS):
            continue
        line_start = source.line_starts[node.start_point.row]
        is_own_line = not source.data[line_start : node.start_byte].strip()
        comments.append(Comment(span(source, node), text(node), is_own_line))
    return tuple(sorted(comments, key=lambda comment: comment.span))


def matches(pattern: str, node: tree_sitter.Node) -> list[dict[str, list[tree_sitter.Node]]]:
    """Each match of a query as {capture name: nodes}, in document order."""
    found = [captured for _, captured in tree_sitter.QueryCursor(query(pattern)).matches(node)]
    return sorted(found, key=lambda captured: min(_position(item) for nodes in captured.values() for item in nodes))
