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
from watchlint.language import Language
from watchlint.notifications import Notification, NotificationLevel
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
    # file -> (its folder, the broadest walk root that found it), as absolute strings: the walk handles
    # thousands of paths, and a Path costs a parse per join and a tuple per hash
    files: dict[str, tuple[str, str]] = field(default_factory=dict)
    notifications: list[Notification] = field(default_factory=list)
    skipped: int = 0
    real_paths: set[str] = field(default_factory=set)


class FolderRules(Protocol):
    """The configuration in force for the files and subfolders of one folder."""

    @property
    def include_tests(self) -> bool: ...

    def is_excluded(self, path: str) -> bool:
        """Whether a file or folder is left out; `path` has its folders resolved, as resolved_text gives."""
        ...


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
        _collect(os.fspath(root), frozenset(walks[root]), file_filter, collected)
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


def _is_excluded_directory(name: str, resolved: str, rules: FolderRules) -> bool:
    if name in EXCLUDED_DIRECTORIES or name.startswith("."):
        return True
    if name in TEST_DIRECTORIES and not rules.include_tests:
        return True
    return rules.is_excluded(resolved)


# The outputs of Kubernetes' code generators (deepcopy, conversion, defaults, OpenAPI, registration): no site,
# and large. Other `zz_generated` files are read, and left out when headed `Code generated … DO NOT EDIT.`:
# some projects generate their controllers (Kong's `zz_generated.controllers.go`).
GENERATED_NAMES = tuple(
    f"zz_generated.{kind}" for kind in ("deepcopy", "conversion", "defaults", "openapi", "register", "validations")
)


def is_generated_name(name: str) -> bool:
    """Whether a file name is a Kubernetes code generator's output, left out unread."""
    return name.startswith(GENERATED_NAMES)


def _is_excluded_name(name: str, rules: FolderRules) -> bool:
    """Excluded by its name alone, whatever the globs say."""
    return name.startswith(".") or is_generated_name(name) or (is_test_file(name) and not rules.include_tests)


def _collect(root: str, suffixes: frozenset[str], file_filter: FileFilter, out: _Collected) -> None:
    if not os.path.isdir(root):
        folder = os.path.dirname(root)
        rules = file_filter.rules_for(Path(folder))
        _add_file(root, folder, os.fspath(resolved_folder(Path(folder))), root, rules, out)
        return
    # Depth first, each folder's files before its subfolders, names sorted: the order os.walk would give.
    # os.scandir tells files, folders and links apart without a system call per entry. Each folder comes
    # with its resolved path: a folder the walk enters is no link, so it is its resolved parent's child.
    pending: list[tuple[str, str, FolderRules | None]] = [(root, os.fspath(resolved_folder(Path(root))), None)]
    while pending:
        folder, resolved, parent_rules = pending.pop()
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
                if _is_excluded_directory(name, os.path.join(resolved, name), rules):
                    out.skipped += 1
                elif not entry.is_symlink():  # a linked folder is not entered: a link loop cannot hang the walk
                    subfolders.append((entry.path, os.path.join(resolved, name), rules))
            elif os.path.splitext(name)[1] not in suffixes:
                continue
            elif _is_excluded_name(name, rules):
                out.skipped += 1
            else:
                _add_file(entry.path, folder, resolved, root, rules, out, is_regular=_is_regular(entry))
        pending.extend(reversed(subfolders))


def _rules_of(
    folder: str, entries: list[os.DirEntry[str]], parent_rules: FolderRules | None, file_filter: FileFilter
) -> FolderRules:
    """Record the folder's files, and the configuration in force in it: its parent's when it holds no file
    that may configure it."""
    listed = frozenset(entry.name for entry in entries if _is_file(entry))
    remember_files(folder, listed)
    if parent_rules is None or listed & file_filter.config_names:
        return file_filter.rules_for(Path(folder))
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
    path: str, folder: str, resolved: str, root: str, rules: FolderRules, out: _Collected, *, is_regular: bool = False
) -> None:
    """Record a file to analyze; `folder` is its parent and `resolved` that parent resolved, `is_regular`
    says the caller already knows it is a regular file, not a link."""
    if path in out.files:
        return
    name = os.path.basename(path)
    if os.path.splitext(name)[1] not in SUFFIXES:
        out.notifications.append(
            Notification(display_path(path), "not a Go or Python file; skipped", NotificationLevel.NOTE)
        )
        return
    located = os.path.join(resolved, name)  # a linked file is matched where it is, as git does
    if _is_excluded_name(name, rules) or rules.is_excluded(located):
        out.skipped += 1
        return
    problem = None if is_regular else _link_problem(Path(path))
    if problem:
        out.notifications.append(Notification(display_path(path), problem, NotificationLevel.ERROR))
        return
    real = os.path.realpath(path) if not is_regular and os.path.islink(path) else located
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


def _group(files: dict[str, tuple[str, str]], targets: list[Path]) -> tuple[Unit, ...]:
    grouped: dict[tuple[Language, Path], list[str]] = {}
    roots: dict[tuple[str, Language, str], Path] = {}  # the files of a folder share their unit: look up once
    walk_roots: dict[str, tuple[Path, bool]] = {}  # walk root -> (its Path, whether it is a folder)
    for path, (folder, walk_root) in files.items():
        language = SUFFIXES[os.path.splitext(path)[1]]
        key = (folder, language, walk_root)
        root = roots.get(key)
        if root is None:
            if walk_root not in walk_roots:
                walk_roots[walk_root] = (Path(walk_root), os.path.isdir(walk_root))
            root = roots[key] = _unit_root(Path(folder), language, *walk_roots[walk_root])
        grouped.setdefault((language, root), []).append(path)
    merged = _merge_replaced_modules(grouped)
    units = []
    for (language, root), members in sorted(grouped.items()):
        report_under = tuple(target for target in targets if _overlaps(target, root))
        if not report_under:
            continue  # a nested module outside every given path: nothing of it could be reported
        members.sort(key=_components)
        manifests = _go_manifests(root, merged.get(root, [])) if language is Language.GO else ()
        units.append(Unit(language, root, tuple(map(Path, members)), report_under, manifests))
    return tuple(units)


def _components(path: str) -> list[str]:
    """Path order (name by name, as Path.parts compares) of a normalised absolute path string."""
    return path.split(os.sep)


def _go_manifests(root: Path, merged: list[Path]) -> tuple[Path, ...]:
    """The go.mod files the Go front-end reads for a unit (its module path and controller-runtime version
    shape the facts): the unit's own, and those of the modules a local `replace` merged into it."""
    modules = [module for module in (root, *merged) if has_file(module, "go.mod")]
    return tuple(sorted((module / "go.mod" for module in modules), key=_parts))


def _parts(path: Path) -> tuple[str, ...]:
    """Path order (name by name) compared on tuples of strings, without Path's own comparison."""
    return path.parts


def _merge_replaced_modules(grouped: dict[tuple[Language, Path], list[str]]) -> dict[Path, list[Path]]:
    """A module that another one pulls in with a local `replace` directive is built into that module's
    binaries: modules linked by such directives are analyzed as one unit, so that their files are judged by
    the policies of the binaries that reach them. The unit takes the outermost root: the consumer's for a
    module nested in it or beside it, the replaced module's for consumers nested in it (binaries in
    `cmd/<name>/go.mod` over the repository's root module). Return the roots merged into each unit."""
    holder: dict[Path, Path] = {}  # module root -> the root of the unit it joined (followed to the end)

    def unit_of(root: Path) -> Path:
        while root in holder:
            root = holder[root]
        return root

    for language, root in sorted(grouped):
        if language is not Language.GO:
            continue
        for target in local_replacements(root):
            consumer, replaced = unit_of(root), unit_of(target)
            if (Language.GO, target) not in grouped or consumer == replaced:
                continue
            into, taken = (replaced, consumer) if replaced in consumer.parents else (consumer, replaced)
            holder[taken] = into
    merged: dict[Path, list[Path]] = {}
    for taken in sorted(holder):
        into = unit_of(taken)
        grouped[(Language.GO, into)].extend(grouped.pop((Language.GO, taken)))
        merged.setdefault(into, []).append(taken)
    return merged


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


def _unit_root(folder: Path, language: Language, walk_root: Path, walked_folder: bool) -> Path:
    """The root of the unit of the files of `folder`; `walked_folder` says whether the walk root is a folder
    (rather than a file given on the command line)."""
    if language is Language.GO:
        module = _ancestor_with(folder, ("go.mod",))
        if module is not None:
            return module
        return walk_root if walked_folder else folder
    scope = walk_root if walked_folder else walk_root.parent
    # Only projects at or below the folder walked count: a folder is analyzed as given (SPEC §3.2).
    project = _ancestor_with(folder, PYTHON_PROJECT_FILES, stop=scope)
    return project if project is not None else scope
