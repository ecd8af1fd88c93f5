"""Rendered reports, reused whole: a run whose report key (every unit's outcome key and what discovery said)
is one its way of running used lately writes the same bytes, so a warm run loads, sorts and renders nothing.

Each way of running (working folder and rendering choices) keeps the few reports it used last: an edit and
its undo, or switching branches and back, find theirs, while reports, which are large, cannot pile up one
per change (or per set of files a pre-commit hook gives). Entries are plain tuples, so reading one imports
no class.

A run that analyzes one unit again cannot reuse its report whole, but it can reuse the text blocks (or the
JSON objects) of the other units' findings (`FindingBlocks`): rendering a finding reads its file for the
source line, and at a few hundred findings rendering cost more than analyzing the edited unit; a JSON
document of 800 findings took ~0.05 s to write.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypeGuard

from watchlint.cache import FactsCache

if TYPE_CHECKING:
    from watchlint.findings import Finding

KEPT = 4  # reports kept per way of running, the most recently used


@dataclass(frozen=True, slots=True)
class Rendered:
    """What a run writes, and how it exits."""

    text: str  # the report, for standard output or --output
    messages: tuple[str, ...]  # the lines for standard error, in order
    exit_code: int


@dataclass(frozen=True, slots=True)
class Slot:
    """Where a way of running keeps its reports: an index of their report keys, most recently used first,
    and one entry per report."""

    cache: FactsCache
    key: str  # the index's

    def load(self, report_key: str) -> Rendered | None:
        """The report rendered for `report_key`, if the slot keeps one; anything malformed is a miss."""
        index = self._index()
        if report_key not in index:
            return None
        value = self.cache.load(self._entry(report_key))
        if not (isinstance(value, tuple) and len(value) == 4 and value[0] == report_key):
            return None
        _, text, messages, exit_code = value
        if not (isinstance(text, str) and isinstance(messages, tuple) and type(exit_code) is int):
            return None
        if not all(isinstance(message, str) for message in messages):
            return None
        if index[0] != report_key:  # used now: the last to be forgotten
            self._write_index(report_key, index)
        return Rendered(text, messages, exit_code)

    def store(self, report_key: str, rendered: Rendered) -> None:
        """Keep the report as the most recently used, and forget the least recently used beyond KEPT."""
        self.cache.store(self._entry(report_key), (report_key, rendered.text, rendered.messages, rendered.exit_code))
        self._write_index(report_key, self._index())

    def _write_index(self, report_key: str, index: tuple[str, ...]) -> None:
        """Put `report_key` first in the index, removing the reports that fall beyond KEPT."""
        ordered = [report_key, *(key for key in index if key != report_key)]
        for forgotten in ordered[KEPT:]:
            self.cache.remove(self._entry(forgotten))
        self.cache.store(self.key, tuple(ordered[:KEPT]))

    def _index(self) -> tuple[str, ...]:
        value = self.cache.load(self.key)
        if isinstance(value, tuple) and all(isinstance(key, str) for key in value):
            return value
        return ()

    def _entry(self, report_key: str) -> str:
        return _entry_key(self.key, report_key)


def slot(cache: FactsCache, choices: Iterable[object]) -> Slot:
    """The slot of the way of running that `choices` describe: every choice that shapes the rendering
    (format, options, colours, the working folder), each given by its repr."""
    return Slot(cache, _choices_key(b"rendered", choices))


def _choices_key(kind: bytes, choices: Iterable[object]) -> str:
    """One key for a kind of entry and the rendering choices, each given by its repr."""
    digest = hashlib.sha256(kind + b"\0")
    for choice in choices:
        digest.update(repr(choice).encode() + b"\0")
    return digest.hexdigest()


def _entry_key(choices_key: str, key: str) -> str:
    """The cache key of one entry (a report, a unit's blocks) kept under the rendering choices' key."""
    return hashlib.sha256(f"{choices_key}\0{key}".encode()).hexdigest()


_BlockId = tuple[str, str, int, int, int, int, str]  # code, path, line, column, end line, end column, message


def block_id(finding: Finding) -> _BlockId:
    """What a finding's block is kept by: a site gets one finding per rule."""
    span = finding.span
    return finding.code, span.path, span.line, span.column, span.end_line, span.end_column, finding.message


class Blocks(Protocol):
    """Where a reporter takes the blocks of findings rendered before, rendering the others."""

    def block(self, finding: Finding, render: Callable[[], str]) -> str: ...

    def save(self) -> None: ...


@dataclass(slots=True)
class AheadBlocks:
    """Findings rendered as their units' outcomes came, while the other units were analyzed (a run without a
    cache, whose last unit's findings alone are then left to render): `FindingBlocks`' use, kept in memory."""

    blocks: dict[_BlockId, str] = field(default_factory=dict)

    def block(self, finding: Finding, render: Callable[[], str]) -> str:
        """The finding's block rendered ahead, else `render()`'s."""
        text = self.blocks.get(block_id(finding))
        return text if text is not None else render()

    def save(self) -> None:
        """Nothing to keep: the blocks live as long as the run."""


@dataclass(slots=True)
class FindingBlocks:
    """Findings rendered before (text blocks, or a JSON report's finding objects), one cache entry per unit,
    keyed by the unit's outcome key and the rendering choices: an outcome key names the unit's files by
    content, and a finding's block depends on nothing else (the finding and the lines of its unit's files it
    shows)."""

    cache: FactsCache
    choices: str  # the rendering choices' key
    unit_of: dict[str, str]  # shown path of a unit's file -> the unit's outcome key
    _blocks: dict[str, dict[_BlockId, str]] = field(default_factory=dict)  # outcome key -> its blocks
    _changed: set[str] = field(default_factory=set)

    def block(self, finding: Finding, render: Callable[[], str]) -> str:
        """The finding's block as rendered before for its unit, else `render()`'s, remembered."""
        unit = self.unit_of.get(finding.span.path)
        edited = [edit.span.path for fix in finding.fixes for edit in fix.edits]
        if unit is None or any(self.unit_of.get(path) != unit for path in edited):
            return render()  # the block would show a file outside the unit, which its key does not name
        blocks = self._unit_blocks(unit)
        key = block_id(finding)
        text = blocks.get(key)
        if text is None:
            text = blocks[key] = render()
            self._changed.add(unit)
        return text

    def load(self) -> None:
        """Read the blocks of every unit now, rather than at each unit's first finding."""
        for unit in sorted(set(self.unit_of.values())):
            self._unit_blocks(unit)

    def save(self) -> None:
        """Store the blocks of the units that gained some."""
        for unit in sorted(self._changed):
            self.cache.store(self._entry(unit), tuple(self._blocks[unit].items()))
        self._changed.clear()

    def _unit_blocks(self, unit: str) -> dict[_BlockId, str]:
        if unit not in self._blocks:
            self._blocks[unit] = _blocks_of(self.cache.load(self._entry(unit)))
        return self._blocks[unit]

    def _entry(self, unit: str) -> str:
        return _entry_key(self.choices, unit)


def _blocks_of(value: object) -> dict[_BlockId, str]:
    """The blocks of a cache entry; anything malformed is a miss."""
    if not isinstance(value, tuple):
        return {}
    found: dict[_BlockId, str] = {}
    for item in value:
        if not _is_block(item):
            return {}
        found[item[0]] = item[1]
    return found


def _is_block(item: object) -> TypeGuard[tuple[_BlockId, str]]:
    if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], str)):
        return False
    key = item[0]
    return isinstance(key, tuple) and len(key) == 7 and tuple(map(type, key)) == (str, str, int, int, int, int, str)


def finding_blocks(
    cache: FactsCache, units: Iterable[tuple[str, Iterable[str]]], choices: Iterable[object]
) -> FindingBlocks:
    """The blocks of the units given as (outcome key, shown paths of their files), for the rendering that
    `choices` describe (each given by its repr)."""
    unit_of = {path: key for key, paths in units for path in paths}
    return FindingBlocks(cache, _choices_key(b"finding blocks", choices), unit_of)
