"""What the project's other modules may do with a module's function: name it, or call it leaving a parameter
out. Modules naming no client library are not parsed (flow.Project): their text tells which of them name
the function at all, and only those are parsed to read their calls."""

from __future__ import annotations

import re

import libcst

from watchlint.python.flow import Flow
from watchlint.python.helpers import omitted_by_a_call
from watchlint.source import SourceFile


def mentioned_elsewhere(flow: Flow, name: str) -> bool:
    """Whether a module of the project other than the flow's names `name` as a word."""
    word = word_pattern(name)
    return any(word.search(_data(module)) for module in _others(flow))


def omitted_elsewhere(flow: Flow, function: libcst.FunctionDef, parameter: libcst.Param) -> bool:
    """Whether a call in another module of the project may leave the parameter out. Only modules naming the
    function are read for their calls, parsed now where they were not; one that cannot be parsed may."""
    project = flow.project
    if project is None:
        return False
    word = word_pattern(function.name.value)
    own = flow.file.source.data
    for dotted, module in list(project.modules.items()):  # parsing one replaces its entry
        data = _data(module)
        if data is own or not word.search(data):
            continue
        parsed = project.flow_of(dotted)
        if parsed is None or omitted_by_a_call(parsed, function, parameter):
            return True
    return False


def _others(flow: Flow) -> list[Flow | SourceFile]:
    project = flow.project
    own = flow.file.source.data
    return [module for module in (project.modules.values() if project else ()) if _data(module) is not own]


def _data(module: Flow | SourceFile) -> bytes:
    return module.file.source.data if isinstance(module, Flow) else module.data


def word_pattern(name: str) -> re.Pattern[bytes]:
    """`name` as a whole word of source text (a mention in a comment or a string counts)."""
    return re.compile(rb"\b" + re.escape(name.encode()) + rb"\b")
