"""The compiled code of the methods `dataclasses` writes, kept from one run to the next.

Creating a dataclass compiles the text of its `__init__`, `__repr__`, `__eq__`, ... libcst's ~250 node
classes spend about half of its ~0.2 s import compiling them, in every process that parses Python, and
watchlint's own classes ~40 ms of every run's start-up. The command line has `dataclasses` compile through this
module, which keeps the code objects by their exact source text in the user's cache folder, one file per
top-level package and Python build: the same text compiles to the same code, so a class made from kept code is
the class that compiling would make. A missing, unreadable or corrupt file counts as empty; one that cannot
be written is left as it is.

Only the command line installs this (watchlint/launch.py): importing watchlint as a library changes nothing.
"""

from __future__ import annotations

import builtins
import dataclasses
import marshal
import os
import sys
from pathlib import Path
from types import CodeType
from typing import Any

# Entries of a file beyond this many (texts of classes since changed, in a development checkout) start it afresh.
_LIMIT = 4000


@dataclasses.dataclass
class _Package:
    """The kept code of the classes of one top-level package (libcst, watchlint, ...), read when the first
    class of the package is made: a process that does not import libcst does not read its ~1 MB."""

    file: Path
    kept: dict[str, CodeType]  # read from the file, or compiled in this process
    new: dict[str, CodeType] = dataclasses.field(default_factory=dict)  # compiled here, not saved yet
    used: set[str] = dataclasses.field(default_factory=set)


_packages: dict[str, _Package] = {}
_folder: Path | None = None


def cache_folder() -> Path:
    """The user's cache folder for watchlint, as XDG (or the platform) places it; a relative XDG_CACHE_HOME is
    ignored, as the XDG specification asks."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~/AppData/Local")
    elif sys.platform == "darwin":
        base = os.path.expanduser("~/Library/Caches")
    else:
        given = os.environ.get("XDG_CACHE_HOME", "")
        base = given if os.path.isabs(given) else os.path.expanduser("~/.cache")
    return Path(base) / "watchlint"


def install() -> None:
    """Have `dataclasses` compile through the kept code from now on in this process and those it forks."""
    global _folder
    if _folder is None:
        _folder = cache_folder()
        # A global of the module shadows the builtin for the module's own calls only.
        dataclasses.exec = _exec  # type: ignore[attr-defined]


def save() -> None:
    """Add what this process compiled to the files (with what other processes added meanwhile)."""
    for package in _packages.values():
        if package.new:
            _save(package)


def _save(package: _Package) -> None:
    entries = _read(package.file)
    entries.update(package.new)
    if len(entries) > _LIMIT:
        entries = {text: package.kept[text] for text in package.used}
    package.new.clear()
    try:
        from watchlint.atomic import write_atomically

        package.file.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(package.file, marshal.dumps(entries))
    except OSError:
        return


def _exec(source: object, globals: dict[str, Any] | None = None, locals: Any = None, /, **options: Any) -> None:
    if isinstance(source, str) and _folder is not None:
        package = _package(_folder, str((globals or {}).get("__name__", "")).partition(".")[0])
        code = package.kept.get(source)
        if code is None:
            # Not inheriting this module's `from __future__ import annotations`, as dataclasses' own exec would
            # not: the methods' annotations stay objects.
            code = compile(source, "<string>", "exec", dont_inherit=True)
            package.kept[source] = package.new[source] = code
        package.used.add(source)
        source = code
    builtins.exec(source, globals, locals, **options)  # type: ignore[arg-type]


def _package(folder: Path, name: str) -> _Package:
    found = _packages.get(name)
    if found is None:
        label = name if name.isidentifier() and name.isascii() else "_"
        file = folder / f"dataclass-code-{label}-{sys.implementation.cache_tag}-{sys.hexversion:x}.marshal"
        found = _packages[name] = _Package(file, _read(file))
    return found


def _read(path: Path) -> dict[str, CodeType]:
    try:
        entries = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not isinstance(entries, dict):
        return {}
    return {text: code for text, code in entries.items() if isinstance(text, str) and isinstance(code, CodeType)}
