"""What the project's other modules may do with a module's function: name it, or call it leaving a parameter
out. Modules naming no client library are not parsed (flow.Project): their text tells which of them name
the function at all, and only those are parsed to read their calls."""

from __future__ import annotations

import re

import libcst

from watchlint.python.flow import Flow
from watchlint.python.helpers import omitted_by_a_call


def mentioned_elsewhere(flow: Flow, name: str) -> bool:
    """Whether a module of the project other than the flow's names `name` as a word."""
    word = word_pattern(name)
    return any(word.search(data) for _, data in _other_texts(flow))


def omitted_elsewhere(flow: Flow, function: libcst.FunctionDef, parameter: libcst.Param) -> bool:
    """Whether a call in another module of the project may leave the parameter out. Only modules naming the
    function are read for their calls, parsed now where they were not; one that cannot be parsed may."""
    project = flow.project
    if project is None:
        return False
    word = word_pattern(function.name.value)
    for dotted, data in _other_texts(flow):  # a list taken first: parsing a module replaces its entry
        if not word.search(data):
            continue
        parsed = project.flow_of(dotted)
        if parsed is None or omitted_by_a_call(parsed, function, parameter):
            return True
    return False


def _other_texts(flow: Flow) -> list[tuple[str, bytes]]:
    own = flow.file.source.data
    return [(dotted, data) for dotted, data in (flow.project.texts() if flow.project else []) if data is not own]


def word_pattern(name: str) -> re.Pattern[bytes]:
    """`name` as a whole word of source text (a mention in a comment or a string counts)."""
    return re.compile(rb"\b" + re.escape(name.encode()) + rb"\b")
