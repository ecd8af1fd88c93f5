"""Atomic file replacement: a reader, or a run that fails half-way, never sees a truncated file."""

from __future__ import annotations

import os
from pathlib import Path


def write_atomically(path: Path, data: bytes) -> None:
    """Replace `path` with `data` through a temporary file in the same folder and a rename.

    An existing file keeps its permission bits; a new one gets the usual umask-derived mode rather than
    mkstemp's 0600, so a report or baseline stays readable by the CI step that uploads it.
    """
    try:
        mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    handle, temporary = _create_temporary(path)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


_EXCLUSIVE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)


def _create_temporary(path: Path) -> tuple[int, str]:
    """A new file beside `path`, created exclusively with a random name, as tempfile.mkstemp does; without
    importing tempfile, which brings shutil and archive modules to every run that writes a report."""
    for _ in range(100):
        temporary = os.path.join(path.parent, f".{path.name}.{os.urandom(6).hex()}.watchlint")
        try:
            return os.open(temporary, _EXCLUSIVE, 0o600), temporary
        except FileExistsError:
            continue
    raise FileExistsError(f"{path.parent}: no free temporary name for {path.name}")
