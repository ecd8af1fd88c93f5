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
    import tempfile  # only runs that write a file need it

    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".watchlint", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
