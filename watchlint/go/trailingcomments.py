"""Trailing comments realigned where a fix changed the code before them, as gofmt aligns them.

gofmt lines up the `//` comments that end consecutive lines of one indentation, one space after the longest
code among them (a lone one gets a single space). A fix that lengthens `Owns(&corev1.Secret{}).` into
`Owns(&corev1.Secret{}, builder.OnlyMetadata).` leaves its comment, and its neighbours', out of line: the lines
of each such run are laid out again. Lines of another indentation, which gofmt may align in the same block,
are left as they are.
"""

from __future__ import annotations

import re

_INDENT = re.compile(r"^[ \t]*")


def realign(text: str, edited: set[int]) -> str:
    """The text with the trailing comments of the runs holding an edited line (0-based) realigned."""
    lines = text.split("\n")
    done: set[int] = set()
    for index in sorted(edited):
        if index in done or index >= len(lines) or _split(lines[index]) is None:
            continue
        run = _run_around(lines, index)
        done.update(run)
        parts = [_split(lines[member]) for member in run]
        column = max(len(part[0]) for part in parts if part is not None) + 1
        for member, part in zip(run, parts, strict=True):
            if part is not None:
                code, comment, ending = part
                lines[member] = code + " " * (column - len(code)) + comment + ending
    return "\n".join(lines)


def _run_around(lines: list[str], index: int) -> list[int]:
    """The consecutive lines around `index` of its indentation that end in a comment."""
    indent = _indentation(lines[index])
    first = last = index
    while first > 0 and _indentation(lines[first - 1]) == indent and _split(lines[first - 1]) is not None:
        first -= 1
    while last + 1 < len(lines) and _indentation(lines[last + 1]) == indent and _split(lines[last + 1]) is not None:
        last += 1
    return list(range(first, last + 1))


def _indentation(line: str) -> str:
    found = _INDENT.match(line)
    return found.group(0) if found else ""


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
            return None  # a block comment on the line: its extent is not followed
        elif body.startswith("//", position):
            code = body[:position].rstrip(" \t")
            return (code, body[position:], ending) if code.strip() else None
        position += 1
    return None
