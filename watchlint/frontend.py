"""What the engine hands a front-end (one unit's sources and the kinds), and the per-file error guard."""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from pathlib import Path

from watchlint.catalog import KindIndex
from watchlint.config import FrontEndOptions
from watchlint.debuglog import debug
from watchlint.facts import Notification, NotificationLevel
from watchlint.source import SourceFile


@dataclass(frozen=True, slots=True)
class UnitInput:
    root: Path  # absolute root of the unit (the folder with go.mod, or the Python project)
    shown_root: str  # the root as displayed
    sources: tuple[SourceFile, ...]  # the files that could be read, in path order
    kinds: KindIndex  # built-in and configured high-cardinality kinds
    options: FrontEndOptions = field(default_factory=FrontEndOptions)


def file_failure(source: SourceFile) -> Notification:
    """Turn the exception being handled into a notification naming the file (traceback kept for -v and SARIF)."""
    debug(__name__, "internal error while analyzing %s", source.path)
    return Notification(
        source.path,
        "internal error while analyzing this file; run with -v for details",
        NotificationLevel.ERROR,
        traceback.format_exc(),
    )
