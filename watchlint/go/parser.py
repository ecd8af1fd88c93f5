"""tree-sitter-go: the parser, compiled queries, node text and spans, syntax errors and comments."""

from __future__ import annotations

import functools
import re
from operator import attrgetter

import tree_sitter
import tree_sitter_go

from watchlint.facts import Comment
from watchlint.source import SourceFile, Span

DIRECTIVE_MARKERS = (b"nolint", b"watchlint")  # comments without these cannot suppress anything
STRING_LITERALS = frozenset({"interpreted_string_literal", "raw_string_literal"})  # `"x"` and `` `x` ``


@functools.cache
def language() -> tree_sitter.Language:
    return tree_sitter.Language(tree_sitter_go.language())


@functools.cache
def query(source: str) -> tree_sitter.Query:
    """Compile a query once per process (Language.query was removed in tree-sitter 0.26)."""
    return tree_sitter.Query(language(), source)


# the node type of comments by number: comparing `kind_id` skips making the name's string (see `named`)
_COMMENT = language().id_for_node_kind("comment", True)


def captures(pattern: str, node: tree_sitter.Node, after: int | None = None) -> dict[str, list[tree_sitter.Node]]:
    """Captured nodes by name, each list in document order (the binding does not guarantee any order); with
    `after`, only those ending past that byte (the query skips the rest of the tree)."""
    cursor = tree_sitter.QueryCursor(query(pattern))
    if after is not None:
        cursor.set_byte_range(after, node.end_byte)
    found = cursor.captures(node)
    return {name: _in_document_order(nodes) for name, nodes in found.items()}


def _in_document_order(nodes: list[tree_sitter.Node]) -> list[tree_sitter.Node]:
    """`nodes` sorted by `position`: two stable sorts on one attribute each, which cost half of one on a key
    function (every query's captures are sorted)."""
    ordered = sorted(nodes, key=_END, reverse=True)
    ordered.sort(key=_START)
    return ordered


_START, _END = attrgetter("start_byte"), attrgetter("end_byte")


def position(node: tree_sitter.Node) -> tuple[int, int]:
    """The order of nodes in a document: by start, an outer node before the one it starts with."""
    return node.start_byte, -node.end_byte


# Go 1.26 lets new() take an expression (`new(int32(1))`); tree-sitter-go 0.25 accepts only a type there, and
# its error recovery can swallow the rest of the file.
_NEW_CALL = re.compile(rb"(?<![\w.])new\(")
_NEW_STANDIN = b"nex"  # same length: every offset, line and column stays where it was
_NEW_ROUNDS = 4


def parse(source: SourceFile) -> tree_sitter.Tree:
    data = source.data
    tree = tree_sitter.Parser(language()).parse(data)
    if tree.root_node.has_error and b"new(" in data:
        tree, data = _reparse_new_of_expression(data, tree)
    if b"](" in data:
        tree = _reparse_instantiations(data, tree)
    return tree


# A generic function called with its type argument written out and one argument (`NewStore[int](c)`,
# `ptr.To[int32](3)`) reads, to tree-sitter-go, as a conversion to a generic type; with none or several arguments
# (`New[T](a, b)`) as a call of an index expression. Neither is a call the passes see. Such instantiations are
# read again as plain calls, their type arguments blanked: a conversion to a generic type then reads like a
# conversion to any other type, a call. An index of a literal (`handlers["x"](obj)`) is a value's, left as it is.

# an index that may be a type argument: not a literal, a call or an expression of several parts
_TYPE_LIKE = frozenset({"identifier", "type_identifier", "qualified_type", "selector_expression", "generic_type"})


def _reparse_instantiations(data: bytes, tree: tree_sitter.Tree) -> tree_sitter.Tree:
    root = tree.root_node
    regions = [
        region
        for start, end in _bracketed_before_a_call(data)
        if (region := _instantiation(root.descendant_for_byte_range(start, end))) is not None
    ]
    if not regions:
        return tree
    patched = bytearray(data)
    edited = tree.copy()
    for start, end in regions:
        patched[start:end] = bytes(b if b == 0x0A else 0x20 for b in data[start:end])  # same length, same lines
        first, last = _point(patched, start), _point(patched, end)
        edited.edit(start, end, end, first, last, last)
    retried = tree_sitter.Parser(language()).parse(bytes(patched), edited)
    return retried if _error_count(retried) <= _error_count(tree) else tree


def _bracketed_before_a_call(data: bytes) -> list[tuple[int, int]]:
    """The `[…]` right after a name and right before `(`, on one line, unnested: a byte search (a regular
    expression trying a name at every offset cost a third of the parse of the files it was run on)."""
    found = []
    close = data.find(b"](")
    while close != -1:
        open_ = data.rfind(b"[", max(0, close - 256), close)
        inner = data[open_ + 1 : close] if open_ > 0 else b"\n"
        before = data[open_ - 1 : open_]
        if b"\n" not in inner and b"]" not in inner and (before.isalnum() or before == b"_"):
            found.append((open_, close + 1))
        close = data.find(b"](", close + 2)
    return found


def _instantiation(node: tree_sitter.Node | None) -> tuple[int, int] | None:
    """The bytes of the type arguments `[…]` to blank, where the node found at them is an instantiation called."""
    parent = node.parent if node is not None else None
    if node is None or parent is None:
        return None
    if node.type == "type_arguments" and parent.type == "generic_type":
        conversion = parent.parent
        if conversion is not None and conversion.type == "type_conversion_expression":
            return node.start_byte, node.end_byte
        return None
    if node.type == "index_expression" and parent.type == "call_expression":
        operand, index = node.child_by_field_name("operand"), node.child_by_field_name("index")
        called = parent.child_by_field_name("function") == node
        if called and operand is not None and index is not None and index.type in _TYPE_LIKE:
            return operand.end_byte, node.end_byte
    return None


def _point(data: bytearray, offset: int) -> tuple[int, int]:
    """The row and column of a byte offset, as tree-sitter's edits take them."""
    return data.count(b"\n", 0, offset), offset - (data.rfind(b"\n", 0, offset) + 1)


def _reparse_new_of_expression(data: bytes, tree: tree_sitter.Tree) -> tuple[tree_sitter.Tree, bytes]:
    """Parse again with each broken `new(` read as an ordinary call; keep the tree only if it has fewer errors.

    A few rounds, because the recovery around one broken call can hide the next one, then all at once.
    """
    patched = bytearray(data)
    best, best_errors, best_data = tree, _error_count(tree), data
    reparser = tree_sitter.Parser(language())
    for _ in range(_NEW_ROUNDS):
        broken = [m.start() for m in _NEW_CALL.finditer(patched) if _is_broken_new(best, m.start())]
        if not broken:
            break
        # parsed again incrementally: only the regions around the patched calls are read anew
        edited = best.copy()
        for start in broken:
            patched[start : start + 3] = _NEW_STANDIN
            row, column = _point(patched, start)
            edited.edit(start, start + 3, start + 3, (row, column), (row, column + 3), (row, column + 3))
        retried_data = bytes(patched)
        retried = reparser.parse(retried_data, edited)
        errors = _error_count(retried)
        if errors >= best_errors:
            break
        best, best_errors, best_data = retried, errors, retried_data
        if not errors:
            break
    if best_errors:
        # many calls in one body: each round uncovers only the next one or two; read every `new(` as a call
        # (a `new(T)` of a type then reads as a call too, which only this broken file pays for)
        replaced = _NEW_CALL.sub(_NEW_STANDIN + b"(", data)
        everything = tree_sitter.Parser(language()).parse(replaced)
        if _error_count(everything) < best_errors:
            best, best_data = everything, replaced
    return best, best_data


def _is_broken_new(tree: tree_sitter.Tree, start: int) -> bool:
    """Whether the `new(` at `start` did not parse as a clean call: recovery may read `new` as a bare operand."""
    node = tree.root_node.descendant_for_byte_range(start, start + 3)
    if node is None or node.type not in ("identifier", "ERROR"):
        return False
    parent = node.parent
    if parent is not None and parent.type == "call_expression" and parent.child_by_field_name("function") == node:
        return parent.has_error
    return parent is None or parent.type not in ("function_declaration", "method_declaration")


def _error_count(tree: tree_sitter.Tree) -> int:
    return len(captures("(ERROR) @error", tree.root_node).get("error", [])) + _missing_count(tree)


def _missing_count(tree: tree_sitter.Tree) -> int:
    count = 0
    cursor = tree.walk()
    while True:
        node = cursor.node
        if node is not None and node.is_missing:
            count += 1
        if node is not None and node.has_error and cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return count


def text(node: tree_sitter.Node | None) -> str:
    """The source text of a node; "" for a missing one (optional fields of broken or partial code)."""
    if node is None:
        return ""
    try:  # the strict decode first: it is a fifth faster, and this runs ~5 times per line of Go
        return node.text.decode()  # type: ignore[union-attr]  # a tree parsed from bytes keeps them
    except UnicodeDecodeError:
        return (node.text or b"").decode("utf-8", errors="replace")


def identifiers_named(
    node: tree_sitter.Node, name: str, after: int | None = None, kinds: tuple[str, ...] = ("identifier",)
) -> list[tree_sitter.Node]:
    """The identifiers (nodes of `kinds`) within a node that spell `name`, in document order; with `after`, only
    those ending past that byte. Found by searching the node's text for the name, then taking the node each
    match spans: a query listing every identifier, each then decoded, cost three to five times as much."""
    start = node.start_byte
    data = node.text or b""
    word = re.compile(rb"(?<![A-Za-z0-9_])" + re.escape(name.encode()) + rb"(?![A-Za-z0-9_])")
    found = []
    for match in word.finditer(data, max(after - start, 0) if after is not None else 0):
        at, end = start + match.start(), start + match.end()
        named = node.descendant_for_byte_range(at, end)
        if named is not None and named.type in kinds and named.start_byte == at and named.end_byte == end:
            found.append(named)
    return found


def is_unary(node: tree_sitter.Node, operator: str) -> bool:
    """Whether a node is the unary `operator` (`&x`, `*x`) applied to an operand."""
    return node.type == "unary_expression" and text(node.child_by_field_name("operator")) == operator


def position_in(node: tree_sitter.Node, child: tree_sitter.Node) -> int:
    """The index of `child` among `named(node)` (an argument in its argument list); -1 when it is none of them."""
    return next((index for index, item in enumerate(named(node)) if item == child), -1)


def named(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The named children of a node, without comments: tree-sitter attaches a comment to whatever node it
    sits in, so `Owns(// why\n&corev1.Pod{})` would otherwise have the comment as its first argument. Loops
    that pick children by their type can read `named_children` as it is."""
    children = node.named_children
    for child in children:  # a loop, not any(): this runs ~10k times per 10k lines
        if child.kind_id == _COMMENT:  # the number, not the name: `type` makes a string each time
            return [child for child in children if child.kind_id != _COMMENT]
    return children


def encloses(holder: tree_sitter.Node, node: tree_sitter.Node) -> bool:
    """Whether `node` lies within `holder` (or is it)."""
    return holder.start_byte <= node.start_byte and node.end_byte <= holder.end_byte


def first_named(node: tree_sitter.Node | None) -> tree_sitter.Node | None:
    """The first of `named`, if any."""
    if node is None:
        return None
    for child in node.named_children:  # a loop, not next() over a generator: a third of the time
        if child.kind_id != _COMMENT:
            return child
    return None


def span(source: SourceFile, node: tree_sitter.Node) -> Span:
    """`source.span` of a node, from the rows and byte columns tree-sitter keeps: the source's table of line
    starts is then made only for the files a report shows a line of."""
    start, end = node.start_point, node.end_point
    return Span(
        source.path,
        start.row + 1,
        _column(source.data, node.start_byte, start.column),
        end.row + 1,
        _column(source.data, node.end_byte, end.column),
    )


def _column(data: bytes, offset: int, byte_column: int) -> int:
    """The 1-based code-point column of a byte offset `byte_column` bytes into its line."""
    return len(data[offset - byte_column : offset].decode("utf-8", errors="replace")) + 1


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
    return sorted(found, key=lambda captured: min(position(item) for nodes in captured.values() for item in nodes))
