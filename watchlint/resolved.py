"""What a run learns of folders, remembered for the run: their resolved paths (symbolic links followed) and
the files they hold. Discovery and the exclude globs ask about every file and folder of a tree, and each
question asked of the file system costs a system call per path component."""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable
from pathlib import Path

_listed: dict[str, frozenset[str]] = {}  # folder -> names of the regular files a walk found in it


def resolved_text(path: Path) -> str:
    """The path with its folders resolved, as a string; the last name stays as written: a linked file is
    matched where it is, as git does."""
    return os.path.join(resolved_folder(path.parent), path.name)


def resolved_folder(folder: Path) -> Path:
    """folder.resolve(), remembered for absolute folders (a relative one depends on the working directory)."""
    if not folder.is_absolute() or ".." in folder.parts:
        return folder.resolve()
    return _resolved_absolute_folder(folder)


def remember_files(folder: str, names: Iterable[str]) -> None:
    """Record the regular files of a folder (absolute, normalised) a walk has just listed, so that has_file
    need not ask again."""
    _listed[folder] = frozenset(names)


def has_file(folder: Path, name: str) -> bool:
    """(folder / name).is_file(), answered from the walk's listing where the walk went."""
    names = _listed.get(os.fspath(folder))
    return name in names if names is not None else (folder / name).is_file()


def nearest_folder_with(start: Path, names: tuple[str, ...]) -> Path | None:
    """The nearest folder from `start` upwards that holds a file of one of `names`."""
    return _nearest_folder_with(start, names)


def forget_folders() -> None:
    """Start a run afresh: folders may have been replaced by links, or gained files, since the last run."""
    _resolved_absolute_folder.cache_clear()
    _nearest_folder_with.cache_clear()
    _listed.clear()


@functools.lru_cache(maxsize=16384)
def _resolved_absolute_folder(folder: Path) -> Path:
    # From the resolved parent, one lstat per folder rather than one per component of every path.
    parent = folder.parent
    if parent == folder or folder.is_symlink():
        return folder.resolve()
    return _resolved_absolute_folder(parent) / folder.name


@functools.lru_cache(maxsize=16384)
def _nearest_folder_with(start: Path, names: tuple[str, ...]) -> Path | None:
    # Sibling folders share their ancestors: each folder is asked once per run.
    if any(has_file(start, name) for name in names):
        return start
    parent = start.parent
    return None if parent == start else _nearest_folder_with(parent, names)
