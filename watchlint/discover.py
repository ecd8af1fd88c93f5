"""Discovery: turn the paths given on the command line into units (a Go module per go.mod, a Python project).

The analysis of a unit is module-wide (the cache policy lives in main.go), so a path inside a Go module
brings in its whole module, while findings are reported only under the paths that were given.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from watchlint.errors import WatchlintError
from watchlint.facts import Language, Notification, NotificationLevel
from watchlint.resolved import has_file, nearest_folder_with, remember_files, resolved_folder
from watchlint.source import display_path

SUFFIXES = {".go": Language.GO, ".py": Language.PYTHON}
EXCLUDED_DIRECTORIES = frozenset(
    {
        "vendor",
        "third_party",
        "testdata",
        "node_modules",
        "__pycache__",
        "__pypackages__",
        "site-packages",
        "venv",
    }
)
TEST_DIRECTORIES = frozenset({"test", "tests", "e2e"})  # test code, like _test.go files: only with include-tests
PYTHON_PROJECT_FILES = ("pyproject.toml", "setup.py", "setup.cfg")


@dataclass(frozen=True, slots=True)
class Unit:
    """One analysis unit: the files of a Go module or a Python project, and where findings are reported."""

    language: Language
    root: Path  # absolute
    files: tuple[Path, ...]  # absolute, sorted
    report_under: tuple[Path, ...]  # absolute; a finding is reported when its file is under one of them
    manifests: tuple[Path, ...] = ()  # absolute, sorted: the other files the front-end reads (go.mod)

    def is_reported(self, path: Path) -> bool:
        # On strings: both sides are absolute and normalised, and Path.parents builds a Path per ancestor.
        text = os.fspath(path)
        return any(
            text == scope or text.startswith(scope.rstrip(os.sep) + os.sep)
            for scope in map(os.fspath, self.report_under)
        )


@dataclass(frozen=True, slots=True)
class Discovery:
    units: tuple[Unit, ...]
    notifications: tuple[Notification, ...] = ()
    skipped: int = 0  # files left out by excludes


@dataclass(slots=True)
class _Collected:
    # file -> (its folder, the broadest walk root that found it)
    files: dict[Path, tuple[Path, Path]] = field(default_factory=dict)
    notifications: list[Notification] = field(default_factory=list)
    skipped: int = 0
    real_paths: set[str] = field(default_factory=set)


class FolderRules(Protocol):
    """The configuration in force for the files and subfolders of one folder."""

    @property
    def include_tests(self) -> bool: ...

    def is_excluded(self, path: Path) -> bool: ...


class FileFilter(Protocol):
    """The configuration that applies where a path lies."""

    @property
    def config_names(self) -> frozenset[str]:
        """Names of the files that may configure a folder: a folder without any follows its parent."""
        ...

    def rules_for(self, folder: Path) -> FolderRules:
        """The rules for the entries of `folder` (asked once per folder, not once per file)."""
        ...


def discover(paths: Sequence[Path], file_filter: FileFilter) -> Discovery:
    """Find the units that `paths` belong to; a missing path is a WatchlintError."""
    targets = [_absolute(path) for path in paths]
    for path, target in zip(paths, targets, strict=True):
        if not target.exists() and not target.is_symlink():
            raise WatchlintError(f"{path}: no such file or directory")
    collected = _Collected()
    walks: dict[Path, set[str]] = {}
    for target in targets:
        if target.is_file() and target.suffix not in SUFFIXES:
            note = Notification(display_path(target), "not a Go or Python file; skipped", NotificationLevel.NOTE)
            collected.notifications.append(note)
            continue
        walks.setdefault(_go_root(target), set()).add(".go")
        walks.setdefault(_python_root(target), set()).add(".py")
    for root in sorted(walks):  # a folder sorts before its subfolders, so the broadest root is recorded
        _collect(root, frozenset(walks[root]), file_filter, collected)
    units = _group(collected.files, targets)
    return Discovery(units, tuple(collected.notifications), collected.skipped)


def _absolute(path: Path) -> Path:
    return Path(os.path.normpath(path.absolute()))


def _ancestor_with(start: Path, names: tuple[str, ...], stop: Path | None = None) -> Path | None:
    """The nearest folder from `start` upwards (not above `stop`, when `start` lies under it) that holds one
    of `names`."""
    found = nearest_folder_with(start, names)
    if found is None or stop is None or found == stop or stop in found.parents:
        return found
    return None if stop == start or stop in start.parents else found


def _go_root(target: Path) -> Path:
    """The module around the target (its cache policy matters), else the target itself."""
    folder = target if target.is_dir() else target.parent
    module = _ancestor_with(folder, ("go.mod",))
    return module if module is not None else target


def _python_root(target: Path) -> Path:
    """A folder is analyzed as given (nested projects become their own units); a file brings in its project."""
    if target.is_dir():
        return target
    project = _ancestor_with(target.parent, PYTHON_PROJECT_FILES)
    return project if project is not None else target


def is_test_file(name: str) -> bool:
    if name.endswith(".go"):
        return name.endswith("_test.go")
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


def _is_excluded_directory(folder: Path, rules: FolderRules) -> bool:
    name = folder.name
    if name in EXCLUDED_DIRECTORIES or name.startswith("."):
        return True
    if name in TEST_DIRECTORIES and not rules.include_tests:
        return True
    return rules.is_excluded(folder)


def _is_excluded_file(path: Path, rules: FolderRules) -> bool:
    return _is_excluded_name(path.name, rules) or rules.is_excluded(path)


def _is_excluded_name(name: str, rules: FolderRules) -> bool:
    """Excluded by its name alone, whatever the globs say: asked before a Path is built for the file."""
    return name.startswith((".", "zz_generated")) or (is_test_file(name) and not rules.include_tests)


def _collect(root: Path, suffixes: frozenset[str], file_filter: FileFilter, out: _Collected) -> None:
    if not root.is_dir():
        _add_file(root, root.parent, root, file_filter.rules_for(root.parent), out)
        return
    # Depth first, each folder's files before its subfolders, names sorted: the order os.walk would give.
    # os.scandir tells files, folders and links apart without a system call per entry.
    pending: list[tuple[Path, FolderRules | None]] = [(root, None)]
    while pending:
        folder, parent_rules = pending.pop()
        try:
            with os.scandir(folder) as scanner:
                entries = sorted(scanner, key=lambda entry: entry.name)
        except OSError as error:
            reason = error.strerror or type(error).__name__
            out.notifications.append(Notification(display_path(folder), f"cannot read directory: {reason}"))
            continue
        subfolders = []
        rules = _rules_of(folder, entries, parent_rules, file_filter)
        for entry in entries:
            name = entry.name
            if _is_folder(entry):
                path = folder / name
                if _is_excluded_directory(path, rules):
                    out.skipped += 1
                elif not entry.is_symlink():  # a linked folder is not entered: a link loop cannot hang the walk
                    subfolders.append((path, rules))
            elif os.path.splitext(name)[1] not in suffixes:
                continue
            elif _is_excluded_name(name, rules):
                out.skipped += 1
            else:
                _add_file(folder / name, folder, root, rules, out, is_regular=_is_regular(entry))
        pending.extend(reversed(subfolders))


def _rules_of(
    folder: Path, entries: list[os.DirEntry[str]], parent_rules: FolderRules | None, file_filter: FileFilter
) -> FolderRules:
    """Record the folder's files, and the configuration in force in it: its parent's when it holds no file
    that may configure it (a folder the walk entered is no link, so its parent is the resolved one's)."""
    listed = frozenset(entry.name for entry in entries if _is_file(entry))
    remember_files(folder, listed)
    if parent_rules is None or listed & file_filter.config_names:
        return file_filter.rules_for(folder)
    return parent_rules


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _is_file(entry: os.DirEntry[str]) -> bool:
    """Path.is_file for a listed entry: a link counts by what it points to."""
    try:
        return entry.is_file()
    except OSError:
        return False


def _is_regular(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file(follow_symlinks=False)
    except OSError:
        return False


def _add_file(
    path: Path, folder: Path, root: Path, rules: FolderRules, out: _Collected, *, is_regular: bool = False
) -> None:
    """Record a file to analyze; `folder` is its parent (one object for all the files of a folder, so that
    grouping hashes it once), `is_regular` says the caller already knows it is a regular file, not a link."""
    if path in out.files:
        return
    if path.suffix not in SUFFIXES:
        out.notifications.append(
            Notification(display_path(path), "not a Go or Python file; skipped", NotificationLevel.NOTE)
        )
        return
    if _is_excluded_file(path, rules):
        out.skipped += 1
        return
    problem = None if is_regular else _link_problem(path)
    if problem:
        out.notifications.append(Notification(display_path(path), problem, NotificationLevel.ERROR))
        return
    if not is_regular and path.is_symlink():
        real = os.fspath(path.resolve())
    else:
        real = os.path.join(resolved_folder(folder), path.name)
    if real in out.real_paths:
        return  # a symbolic link to a file already found: analyzing it twice would report it twice
    out.real_paths.add(real)
    out.files[path] = (folder, root)


def _link_problem(path: Path) -> str | None:
    """Say why a path cannot be opened as a regular file, or None."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return "not a regular file; skipped"
    except OSError as error:
        if error.errno == errno.ELOOP:
            return "symbolic link loop; skipped"
        if path.is_symlink():
            return "broken symbolic link; skipped"
        return f"cannot read file: {error.strerror or type(error).__name__}"
    return None


def _group(files: dict[Path, tuple[Path, Path]], targets: list[Path]) -> tuple[Unit, ...]:
    grouped: dict[tuple[Language, Path], list[Path]] = {}
    roots: dict[tuple[Path, Language, Path], Path] = {}  # the files of a folder share their unit: look up once
    for path, (folder, walk_root) in files.items():
        language = SUFFIXES[os.path.splitext(path.name)[1]]
        key = (folder, language, walk_root)
        if key not in roots:
            roots[key] = _unit_root(path, language, walk_root)
        grouped.setdefault((language, roots[key]), []).append(path)
    _merge_replaced_modules(grouped)
    units = []
    for (language, root), members in sorted(grouped.items()):
        report_under = tuple(target for target in targets if _overlaps(target, root))
        if not report_under:
            continue  # a nested module outside every given path: nothing of it could be reported
        folders = {files[path][0] for path in members}
        manifests = _go_manifests(root, folders) if language is Language.GO else ()
        units.append(Unit(language, root, tuple(sorted(members, key=_parts)), report_under, manifests))
    return tuple(units)


def _go_manifests(root: Path, folders: set[Path]) -> tuple[Path, ...]:
    """The go.mod files the Go front-end reads for a unit (its module path and controller-runtime version
    shape the facts): the unit's own, and the nearest one above each folder of its files, which is another
    module's where a local `replace` merged that module in."""
    modules = {root} if has_file(root, "go.mod") else set()
    for folder in folders:
        module = nearest_folder_with(folder, ("go.mod",))
        if module is not None:
            modules.add(module)
    return tuple(sorted((module / "go.mod" for module in modules), key=_parts))


def _parts(path: Path) -> tuple[str, ...]:
    """Path order (name by name) compared on tuples of strings, without Path's own comparison."""
    return path.parts


def _merge_replaced_modules(grouped: dict[tuple[Language, Path], list[Path]]) -> None:
    """A module that another one pulls in with a local `replace` directive is built into that module's
    binaries: analyze its files as part of the consuming module, so they are judged by its policy."""
    for language, root in sorted(grouped):
        if language is not Language.GO or (language, root) not in grouped:
            continue
        for target in local_replacements(root):
            key = (Language.GO, target)
            if target != root and key in grouped and target not in root.parents:
                grouped[(language, root)].extend(grouped.pop(key))


_REPLACE = re.compile(r"^\s*(?:replace\s+)?\S+(?:\s+v\S+)?\s*=>\s*(\.{1,2}/\S*)\s*$", re.MULTILINE)


def local_replacements(module_root: Path) -> list[Path]:
    """Folders of the modules a go.mod replaces with local paths (`replace x => ./lib`)."""
    try:
        text = (module_root / "go.mod").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    return [Path(os.path.normpath(module_root / match.group(1))) for match in _REPLACE.finditer(text)]


def _overlaps(target: Path, root: Path) -> bool:
    return target == root or root in target.parents or target in root.parents


def _unit_root(path: Path, language: Language, walk_root: Path) -> Path:
    if language is Language.GO:
        module = _ancestor_with(path.parent, ("go.mod",))
        if module is not None:
            return module
        return walk_root if walk_root.is_dir() else path.parent
    folder = walk_root if walk_root.is_dir() else walk_root.parent
    # Only projects at or below the folder walked count: a folder is analyzed as given (SPEC §3.2).
    project = _ancestor_with(path.parent, PYTHON_PROJECT_FILES, stop=folder)
    return project if project is not None else folder
