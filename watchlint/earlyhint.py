"""Telling the standby worker before discovery that a Python file changed since the last run.

The standby worker (watchlint/standby.py) imports the Go front-end first and turns to libcst's import, the
longer one, once planning meets a Python unit to analyze again: after the tree is discovered and its units
keyed (~60 ms on the benchmark's 8x tree), by which time it has spent that long on the Go front-end. A run with
a cache keeps the metadata of the Python files it keyed; the next run looks at them before discovering the tree
and, when one changed, has the worker start on libcst at once. A wrong or missing hint costs time, never a
result: planning still tells the worker what the unit it hands over needs.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable

from watchlint.cache import FactsCache

# The cache entry holding the Python files' metadata: one per cache folder, whatever paths a run is given.
_KEY = hashlib.sha256(b"watchlint: python files' metadata at the last run").hexdigest()

_Metadata = tuple[str, int, int, int, int]  # absolute path, inode, size, modification and change times (ns)
_SHAPE = (str, int, int, int, int)


def python_changed(cache: FactsCache) -> bool:
    """Whether a Python file the last run keyed has changed or gone since (False when none was kept)."""
    kept = cache.load(_KEY)
    if not isinstance(kept, tuple):
        return False
    for entry in kept:
        if not isinstance(entry, tuple) or len(entry) != 5 or not all(map(isinstance, entry, _SHAPE)):
            return False  # kept by another version of watchlint, or damaged: no hint either way
        try:
            if _metadata(entry[0], os.stat(entry[0])) != entry:
                return True
        except OSError:
            return True
    return False


def remember_python(cache: FactsCache, files: Iterable[tuple[str, os.stat_result]]) -> None:
    """Keep the metadata of the Python files of this run (absolute paths, as they were keyed)."""
    cache.store(_KEY, tuple(_metadata(path, stat) for path, stat in files))


def _metadata(path: str, stat: os.stat_result) -> _Metadata:
    return path, stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns
