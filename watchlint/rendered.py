"""Rendered reports, reused whole: a run whose report key (every unit's outcome key and what discovery said)
is one its way of running used lately writes the same bytes, so a warm run loads, sorts and renders nothing.

Each way of running (working folder and rendering choices) keeps the few reports it used last: an edit and
its undo, or switching branches and back, find theirs, while reports, which are large, cannot pile up one
per change (or per set of files a pre-commit hook gives). Entries are plain tuples, so reading one imports
no class.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from watchlint.cache import FactsCache

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
        return hashlib.sha256(f"{self.key}\0{report_key}".encode()).hexdigest()


def slot(cache: FactsCache, choices: Iterable[object]) -> Slot:
    """The slot of the way of running that `choices` describe: every choice that shapes the rendering
    (format, options, colours, the working folder), each given by its repr."""
    digest = hashlib.sha256(b"rendered\0")
    for choice in choices:
        digest.update(repr(choice).encode() + b"\0")
    return Slot(cache, digest.hexdigest())
