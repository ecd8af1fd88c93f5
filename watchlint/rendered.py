"""Rendered reports, reused whole: a run whose report key (every unit's outcome key and what discovery said)
is the one its command line last rendered writes the same bytes, so a warm run loads, sorts and renders
nothing.

Each command line (its paths, working folder and rendering choices) has one slot in the facts cache, which
every run rewrites: reports are large, and one per change would make the cache grow without end. Entries
are plain tuples, so reading one imports no class.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from watchlint.cache import FactsCache


@dataclass(frozen=True, slots=True)
class Rendered:
    """What a run writes, and how it exits."""

    text: str  # the report, for standard output or --output
    messages: tuple[str, ...]  # the lines for standard error, in order
    exit_code: int


@dataclass(frozen=True, slots=True)
class Slot:
    """Where a command line's rendered report is kept, and the report key it must have been rendered for."""

    cache: FactsCache
    key: str
    report_key: str

    def load(self) -> Rendered | None:
        """The report rendered in the slot, if it was rendered for `report_key`; anything else is a miss."""
        value = self.cache.load(self.key)
        if not (isinstance(value, tuple) and len(value) == 4 and value[0] == self.report_key):
            return None
        _, text, messages, exit_code = value
        if not (isinstance(text, str) and isinstance(messages, tuple) and type(exit_code) is int):
            return None
        if not all(isinstance(message, str) for message in messages):
            return None
        return Rendered(text, messages, exit_code)

    def store(self, rendered: Rendered) -> None:
        self.cache.store(self.key, (self.report_key, rendered.text, rendered.messages, rendered.exit_code))


def slot(cache: FactsCache, choices: Iterable[object], report_key: str) -> Slot:
    """The slot of the command line that `choices` describe: every choice that shapes the rendering (paths,
    format, options, colours, the working folder), each given by its repr."""
    digest = hashlib.sha256(b"rendered\0")
    for choice in choices:
        digest.update(repr(choice).encode() + b"\0")
    return Slot(cache, digest.hexdigest(), report_key)
