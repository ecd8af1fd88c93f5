"""A unit on its way through the facts cache: keyed by its files' metadata when the cache knows it, else by
their content, read only then."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import TypeVar

from watchlint.cache import FactsCache, is_settled, metadata_key, outcome_key, unit_key
from watchlint.catalog import Catalog
from watchlint.config import Settings
from watchlint.discover import Unit
from watchlint.extraction import Job, Overlay, read_sources
from watchlint.notifications import Notification
from watchlint.source import SourceFile, display_path


class UnitState:
    """A unit on its way through the cache. Its files are read only when no cache entry answers for it: the
    cache remembers which key the files had when their metadata (inode, size, times) was last the same."""

    def __init__(self, unit: Unit, settings: Settings, catalog: Catalog) -> None:
        self.unit = unit
        self.settings = settings
        self.shown_root = display_path(unit.root)
        self.shown = [display_path(path) for path in unit.files]
        self.reported = frozenset(
            shown for path, shown in zip(unit.files, self.shown, strict=True) if unit.is_reported(path)
        )
        self.kinds = catalog.kinds + settings.extra_kinds
        self.sources: list[SourceFile] | None = None
        self.unreadable: list[Notification] = []
        self.key = ""
        self._stats: list[tuple[str, os.stat_result]] | None = None

    @property
    def outcome_key(self) -> str:
        return outcome_key(self.key, self.settings.codes, self.settings.levels, self.reported)

    def recall_key(self, cache: FactsCache) -> bool:
        """Take the key the files had the last time their metadata was this; False when unknown."""
        self._stats = self._stat()
        if self._stats is None:
            return False
        key = cache.load(self._stat_key(self._stats))
        if not isinstance(key, str):
            return False
        self.key = key
        return True

    def read(self, overlay: Overlay, cache: FactsCache | None) -> None:
        """Read the files and, with a cache, key the unit by their content; remember that key for their
        metadata, unless a file changed so recently that a change to come could leave its metadata as it is."""
        self.sources, self.unreadable = read_sources(self.unit.files, overlay, self.shown)
        if cache is None:
            return
        self.key = unit_key(
            str(self.unit.language),
            self.shown_root,
            self.sources,
            self.kinds,
            self.settings.front_end_options,
            [f"{note.path}: {note.message}" for note in self.unreadable],
            [(display_path(path), _read_manifest(path)) for path in self.unit.manifests],
        )
        if self._stats is not None and is_settled(stat for _, stat in self._stats):
            cache.store(self._stat_key(self._stats), self.key)

    def take_job(self, overlay: Overlay, cache: FactsCache | None) -> Job:
        """What a worker needs to extract the unit's facts (the files are read now if they were not). The state
        lets go of the sources: once the job is done nothing holds them, so a run keeps the files of the
        units in flight in memory, not those of the whole tree."""
        if self.sources is None:
            self.read(overlay, cache)
        assert self.sources is not None
        job = (self.unit, self.settings, self.kinds, self.sources, self.unreadable)
        self.sources = None
        return job

    def size(self) -> int:
        """The bytes of the unit's files, to start the largest units first: from the files when they were
        read, else from their metadata (an unreadable file counts as empty)."""
        if self.sources is not None:
            return sum(len(source.data) for source in self.sources)
        if self._stats is not None:
            return sum(stat.st_size for _, stat in self._stats)
        total = 0
        for path in self.unit.files:
            with contextlib.suppress(OSError):
                total += os.stat(path).st_size
        return total

    def file_stats(self) -> list[tuple[str, os.stat_result]]:
        """The metadata of the unit's files by absolute path, as keying last found it (none before)."""
        if self._stats is None:
            return []
        return [(os.fspath(path), stat) for path, (_, stat) in zip(self.unit.files, self._stats, strict=False)]

    def _stat(self) -> list[tuple[str, os.stat_result]] | None:
        try:
            stats = [(shown, os.stat(path)) for path, shown in zip(self.unit.files, self.shown, strict=True)]
            stats.extend((display_path(path), os.stat(path)) for path in self.unit.manifests)
        except OSError:
            return None
        return stats

    def _stat_key(self, stats: list[tuple[str, os.stat_result]]) -> str:
        language = str(self.unit.language)
        return metadata_key(language, self.shown_root, stats, self.kinds, self.settings.front_end_options)


def _read_manifest(path: Path) -> bytes | None:
    """A file the front-end reads besides the sources (go.mod), or None: the front-end then goes without."""
    try:
        return path.read_bytes()
    except OSError:
        return None


_Cached = TypeVar("_Cached")


def cached(cache: FactsCache, key: str, expected: type[_Cached]) -> _Cached | None:
    value = cache.load(key)
    return value if isinstance(value, expected) else None
