"""Trailing comments realigned where a fix changed the code before them, as gofmt aligns them.

gofmt lines up the `//` comments that end consecutive lines of one alignment section, one space after the
longest code among them. A fix that lengthens `Watches(&corev1.Secret{}, h).` into `Watches(&corev1.Secret{}, h,
builder.OnlyMetadata).` leaves its comment, and those of its section, out of line. The section is told from the
file before the fix: the neighbours of the edited line, of its indentation, whose comments stood in the same
column as its own (gofmt gives a section one column; a break between sections rarely keeps it). Lines that
start inside a raw string or a block comment are never touched.
"""

from __future__ import annotations

import re

_INDENT = re.compile(r"^[ \t]*")


# an edit by the lines it spans: first and last line before, first and last line after (0-based)
LineEdit = tuple[int, int, int, int]


def realign(before: str, after: str, edits: list[LineEdit]) -> str:
    """`after` with the trailing comments of the sections of the lines edits changed within one line realigned."""
    old_lines, lines = before.split("\n"), after.split("\n")
    old_of = _old_lines(old_lines, lines, edits)
    inside = _starting_inside(before)
    done: set[int] = set()
    for old_first, old_last, first, last in sorted(edits):
        if old_first != old_last or first >= len(lines):
            continue  # an edit writing lines of its own lays them out itself
        # a line changed within itself, or the lines beside lines inserted whole (an import spec without a
        # comment ends the section of the specs around it: each part is aligned on its own)
        inserted = [index for index in range(first, min(last, len(lines) - 1) + 1) if old_of[index] < 0]
        changed = [first] if first == last else [min(inserted) - 1, max(inserted) + 1] if inserted else []
        for index in changed:
            old = old_of[index] if 0 <= index < len(lines) else -1
            column = _comment_column(old_lines[old]) if old >= 0 and old not in inside else -1
            if column < 0 or index in done or _split(lines[index]) is None:
                continue
            section = _section(old_lines, lines, old_of, inside, index, column)
            done.update(section)
            _align(lines, section)
    return "\n".join(lines)


def _align(lines: list[str], section: list[int]) -> None:
    """Line up the trailing comments of a section one space after its longest code."""
    parts = [_split(lines[member]) for member in section]
    aligned = max(len(part[0]) for part in parts if part is not None) + 1
    for member, part in zip(section, parts, strict=True):
        if part is not None:
            code, comment, ending = part
            lines[member] = code + " " * (aligned - len(code)) + comment + ending


def _old_lines(old_lines: list[str], lines: list[str], edits: list[LineEdit]) -> list[int]:
    """For each line after the edits, the line it was before (-1 for a line an edit wrote)."""
    old_count, count = len(old_lines), len(lines)
    old_of = [-1] * count
    old = new = 0
    for old_first, old_last, first, last in sorted(edits):
        while old < old_first and new < count:
            old_of[new] = old
            old, new = old + 1, new + 1
        if old_first == old_last and first == last and new < count:
            old_of[new] = old_first  # changed within its line
        elif old_first == old_last and last < count and old_first < old_count:
            # lines inserted whole before the line (it ends the edit) or after it (it starts the edit)
            kept = [index for index in (last, first) if lines[index] == old_lines[old_first]]
            if kept:
                old_of[kept[0]] = old_first
        old, new = old_last + 1, last + 1
    while old < old_count and new < count:
        old_of[new] = old
        old, new = old + 1, new + 1
    return old_of


def _section(
    old_lines: list[str], lines: list[str], old_of: list[int], inside: set[int], index: int, column: int
) -> list[int]:
    """The lines around `index` of its indentation whose comments stood in its comment's column before."""
    indent = _indentation(lines[index])

    def member(at: int) -> bool:
        old = old_of[at]
        same = old >= 0 and old not in inside and _indentation(lines[at]) == indent and _split(lines[at]) is not None
        return same and _comment_column(old_lines[old]) == column

    first = last = index
    while first > 0 and member(first - 1):
        first -= 1
    while last + 1 < len(lines) and member(last + 1):
        last += 1
    return list(range(first, last + 1))


def _indentation(line: str) -> str:
    found = _INDENT.match(line)
    return found.group(0) if found else ""


def _comment_column(line: str) -> int:
    """Where a line's trailing comment starts; -1 for a line without one."""
    part = _split(line)
    return len(line) - len(part[1]) - len(part[2]) if part is not None else -1


def _split(line: str) -> tuple[str, str, str] | None:
    """(code without trailing blanks, `// comment`, line ending) of a line of code ending in a line comment;
    None for a line without one, a comment alone, or one whose strings cannot be told on the line."""
    ending = "\r" if line.endswith("\r") else ""
    body = line[: len(line) - len(ending)]
    quote = ""
    position = 0
    while position < len(body):
        char = body[position]
        if quote:
            if char == "\\" and quote != "`":
                position += 2
                continue
            if char == quote:
                quote = ""
        elif char in "\"'`":
            quote = char
        elif body.startswith("/*", position):
            # a block comment ending the line (`ctrl "…" /* the manager */`) trails it as a line comment does;
            # one amid the code, or running on to another line, is not followed
            end = body.find("*/", position + 2)
            rest = body[end + 2 :].strip(" \t") if end >= 0 else "?"
            code = body[:position].rstrip(" \t")
            if end < 0 or (rest and not rest.startswith("//")) or not code.strip():
                return None
            return code, body[position:], ending
        elif body.startswith("//", position):
            code = body[:position].rstrip(" \t")
            return (code, body[position:], ending) if code.strip() else None
        position += 1
    return None


# the tokens a `//` may hide in: raw strings and block comments (which may span lines), line comments, strings, runes
_TOKENS = re.compile(r"`[^`]*`|/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.DOTALL)


def _starting_inside(text: str) -> set[int]:
    """The lines (0-based) that start inside a raw string or a block comment begun on an earlier line."""
    found: set[int] = set()
    for token in _TOKENS.finditer(text):
        spans_lines = token.group(0)[:1] in ("`", "/") and not token.group(0).startswith("//")
        if spans_lines and "\n" in token.group(0):
            first = text.count("\n", 0, token.start())
            found.update(range(first + 1, first + 1 + token.group(0).count("\n")))
    return found
