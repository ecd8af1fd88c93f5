"""The facts cache: a unit's facts on disk, keyed by the content of its files, watchlint's own code and the
settings that shape the facts, so an unchanged unit is not parsed again (like `.ruff_cache`); and beside
them its checked outcome, so an unchanged unit checked the same way is not even checked again.

The key includes a hash of watchlint's source files, so a development checkout never reads facts written by
older code. A corrupt, stale or unreadable entry is a miss, never an error.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

from watchlint import __version__
from watchlint.atomic import write_atomically
from watchlint.catalog import Kind
from watchlint.config import FrontEndOptions
from watchlint.debuglog import debug
from watchlint.source import SourceFile

FOLDER = ".watchlint_cache"
CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by watchlint.\n"
    "# For information about cache directory tags, see https://bford.info/cachedir/\n"
)


@functools.cache
def code_fingerprint() -> str:
    """A hash of watchlint's own Python files and rule catalogue."""
    package = Path(__file__).parent
    digest = hashlib.sha256(__version__.encode())
    files = (
        sorted(package.rglob("*.py"))
        + sorted((package.parent / "rules").glob("*"))
        + sorted((package / "_rules").glob("*"))
    )
    for path in files:
        try:
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
        except OSError:
            continue
    return digest.hexdigest()


def _unit_digest(
    purpose: bytes, language: str, root: str, kinds: Iterable[Kind], options: FrontEndOptions
) -> hashlib._Hash:
    """A hash started with what every key of a unit depends on: watchlint's code, the unit and its settings."""
    digest = hashlib.sha256(code_fingerprint().encode() + purpose)
    digest.update(f"{language}\0{root}\0{options!r}\0".encode())
    digest.update(_kinds_text(tuple(kinds)))
    return digest


@functools.lru_cache(maxsize=64)
def _kinds_text(kinds: tuple[Kind, ...]) -> bytes:
    # Every unit of a run has the same kinds, or nearly: one repr per set of them, not one per unit.
    return repr(sorted(kinds, key=lambda kind: (kind.name, kind.group))).encode()


def unit_key(
    language: str,
    root: str,
    sources: Iterable[SourceFile],
    kinds: Iterable[Kind],
    options: FrontEndOptions,
    unreadable: Iterable[str] = (),
    manifests: Iterable[tuple[str, bytes | None]] = (),
) -> str:
    """The cache key of a unit: its files (paths and bytes, and the files that could not be read, with why),
    the other files its front-end reads (go.mod; None when unreadable), the kinds in force and the options
    that shape facts."""
    digest = _unit_digest(b"", language, root, kinds, options)
    for source in sources:
        digest.update(source.path.encode() + b"\0" + hashlib.sha256(source.data).digest())
    for reason in unreadable:
        digest.update(b"\1" + reason.encode())
    for path, data in manifests:
        digest.update(b"\2" + path.encode() + b"\0" + (hashlib.sha256(data).digest() if data is not None else b"-"))
    return digest.hexdigest()


SETTLED_NS = 2_000_000_000  # a file changed this recently may change again without its metadata changing


def metadata_key(
    language: str,
    root: str,
    files: Iterable[tuple[str, os.stat_result]],
    kinds: Iterable[Kind],
    options: FrontEndOptions,
) -> str:
    """The key under which a unit's content key is remembered for its files' metadata (path, inode, size,
    modification and change times: ctime cannot be set back, so even tools that keep mtimes are noticed);
    `files` includes the other files the front-end reads."""
    digest = _unit_digest(b"\0metadata\0", language, root, kinds, options)
    for path, stat in files:
        digest.update(f"{path}\0{stat.st_ino}\0{stat.st_size}\0{stat.st_mtime_ns}\0{stat.st_ctime_ns}\0".encode())
    return digest.hexdigest()


def is_settled(stats: Iterable[os.stat_result], now_ns: int | None = None) -> bool:
    """Whether every file last changed long enough ago that a new change will show in its times: a change
    within the same clock tick as the last one would keep them (the "racy git" problem)."""
    limit = (time.time_ns() if now_ns is None else now_ns) - SETTLED_NS
    return all(stat.st_mtime_ns < limit and stat.st_ctime_ns < limit for stat in stats)


def outcome_key(unit: str, codes: Iterable[str], levels: Mapping[str, object], reported: Iterable[str]) -> str:
    """The cache key of a unit's checked outcome: its facts' key, the rules that run, their levels and the
    files whose findings are reported."""
    digest = hashlib.sha256(unit.encode())
    digest.update(repr(sorted(codes)).encode() + b"\0")
    digest.update(repr(sorted((code, str(level)) for code, level in levels.items())).encode() + b"\0")
    digest.update("\0".join(sorted(reported)).encode())
    return digest.hexdigest()


def report_key(outcomes: Iterable[str], notes: Iterable[str]) -> str:
    """The key of a run's report: its units' outcome keys, in order, and the notes of discovery."""
    digest = hashlib.sha256(b"report\0")
    for key in outcomes:
        digest.update(key.encode() + b"\0")
    for note in notes:
        digest.update(b"\1" + note.encode())
    return digest.hexdigest()


class FactsCache:
    """Pickled entries (facts, checked outcomes, remembered content keys) in `<folder>/<first two hex
    digits>/<key>`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @property
    def exists(self) -> bool:
        """Whether entries were ever stored here (the first run of a project has nothing to read back)."""
        return (self.folder / "CACHEDIR.TAG").is_file()

    def load(self, key: str) -> object | None:
        path = self._path(key)
        try:
            with path.open("rb") as stream:
                value: object = pickle.load(stream)
                return value
        except FileNotFoundError:
            return None
        except Exception:  # a corrupt or incompatible entry is a miss
            debug(__name__, "ignoring unreadable cache entry %s", path)
            return None

    def holds(self, key: str) -> bool:
        """Whether an entry is stored under `key` (not read: it may still prove unreadable)."""
        return self._path(key).is_file()

    def store(self, key: str, value: object) -> None:
        path = self._path(key)
        try:
            self._prepare()
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(path, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        except OSError:
            debug(__name__, "cannot write cache entry %s", path)

    def remove(self, key: str) -> None:
        # Gone already (another run removed it too), or the folder is read-only: nothing to do either way.
        with contextlib.suppress(OSError):
            self._path(key).unlink()

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / key

    def _prepare(self) -> None:
        if self.exists:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "CACHEDIR.TAG").write_text(CACHEDIR_TAG, encoding="utf-8")
        (self.folder / ".gitignore").write_text("# created by watchlint\n*\n", encoding="utf-8")
