"""Resolved folders (symbolic links followed), remembered for the run: discovery and the exclude globs ask
for every file and folder of a tree, and resolving each path costs a system call per path component."""

from __future__ import annotations

import functools
from pathlib import Path


def resolved_path(path: Path) -> Path:
    """The path with its folders resolved; the last name stays as written: a linked file is matched where it
    is, as git does."""
    return resolved_folder(path.parent) / path.name


def resolved_folder(folder: Path) -> Path:
    """folder.resolve(), remembered for absolute folders (a relative one depends on the working directory)."""
    if not folder.is_absolute() or ".." in folder.parts:
        return folder.resolve()
    return _resolved_absolute_folder(folder)


def forget_resolved_folders() -> None:
    """Start a run afresh: folders may have been replaced by links since the last one in this process."""
    _resolved_absolute_folder.cache_clear()


@functools.lru_cache(maxsize=16384)
def _resolved_absolute_folder(folder: Path) -> Path:
    # From the resolved parent, one lstat per folder rather than one per component of every path.
    parent = folder.parent
    if parent == folder or folder.is_symlink():
        return folder.resolve()
    return _resolved_absolute_folder(parent) / folder.name
