"""Rendered reports, reused whole: a run whose report key (every unit's outcome key and what discovery said)
and rendering choices are those of an earlier run writes the same bytes, so a warm run loads, sorts and
renders nothing. Entries live in the facts cache, as plain tuples: reading one imports no class."""

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


def rendered_key(report_key: str, choices: Iterable[object]) -> str:
    """The key of a rendered report: the report's key and every choice that shapes the rendering (format,
    options, colours, the working folder), each given by its repr."""
    digest = hashlib.sha256(b"rendered\0" + report_key.encode())
    for choice in choices:
        digest.update(b"\0" + repr(choice).encode())
    return digest.hexdigest()


def load(cache: FactsCache, key: str) -> Rendered | None:
    """The rendered report stored under `key`, or None; an entry of any other shape is a miss."""
    value = cache.load(key)
    if not (isinstance(value, tuple) and len(value) == 3):
        return None
    text, messages, exit_code = value
    if not (isinstance(text, str) and isinstance(messages, tuple) and type(exit_code) is int):
        return None
    if not all(isinstance(message, str) for message in messages):
        return None
    return Rendered(text, messages, exit_code)


def store(cache: FactsCache, key: str, rendered: Rendered) -> None:
    cache.store(key, (rendered.text, rendered.messages, rendered.exit_code))
