"""Settings from the command line and from .watchlint.toml, watchlint.toml or [tool.watchlint] in pyproject.toml."""

from __future__ import annotations

import fnmatch
import functools
import os
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from watchlint.catalog import Catalog, CatalogError, Kind, parse_kind
from watchlint.errors import WatchlintError
from watchlint.levels import Level
from watchlint.resolved import has_file, resolved_folder, resolved_text
from watchlint.source import display_path

CONFIG_NAMES = (".watchlint.toml", "watchlint.toml", "pyproject.toml")
CONFIG_KEYS = ("select", "ignore", "exclude", "extra-kinds", "level", "include-tests", "kopf-namespaced")


class ConfigError(WatchlintError):
    """A configuration file or option that cannot be used: `file: key: problem`."""


@dataclass(frozen=True, slots=True)
class ExcludePattern:
    """A glob and the folder it is relative to (the config file's folder, or the working directory)."""

    pattern: str
    base: Path

    def matches(self, path: Path) -> bool:
        """Match a glob with `/` against the relative path and its folders, one without against each name."""
        return self.matches_resolved(resolved_text(path))

    def matches_resolved(self, path: str) -> bool:
        """`matches` for a path whose folders are resolved, as `resolved_text` gives."""
        # String operations rather than PurePath ones: discovery asks this for every file and folder.
        prefix = os.path.join(resolved_folder(self.base), "")
        if not path.startswith(prefix) or len(path) == len(prefix):
            return False
        parts = path[len(prefix) :].split("/")
        pattern = self.pattern.rstrip("/")
        if "/" in pattern:
            match = _glob(pattern.removeprefix("./"))
            return any(match("/".join(parts[:end])) for end in range(len(parts), 0, -1))
        match = _glob(pattern)
        return any(map(match, parts))


@functools.lru_cache(maxsize=256)
def _glob(pattern: str) -> Callable[[str], re.Match[str] | None]:
    """fnmatch.fnmatchcase(name, pattern) as one compiled match function per pattern."""
    return re.compile(fnmatch.translate(pattern)).match


@dataclass(frozen=True, slots=True)
class FileConfig:
    """What one configuration file says; None where it says nothing."""

    path: Path
    select: frozenset[str] | None = None
    ignore: frozenset[str] = frozenset()
    exclude: tuple[ExcludePattern, ...] = ()
    extra_kinds: tuple[Kind, ...] = ()
    levels: Mapping[str, Level] = field(default_factory=dict)
    include_tests: bool | None = None
    kopf_namespaced: bool = False


@dataclass(frozen=True, slots=True)
class CommandLine:
    """The options given on the command line; they override or extend the file configuration."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    config_file: Path | None = None
    include_tests: bool = False


@dataclass(frozen=True, slots=True)
class FrontEndOptions:
    """The settings that shape a unit's facts, which the cache keys them by."""

    kopf_namespaced: bool = False  # a kopf operator scoped only on its command line (`kopf run -n ns`)
    include_tests: bool = False  # test code is analyzed: a package only tests import is no dead code


@dataclass(frozen=True, slots=True)
class Settings:
    """The resolved settings for one unit."""

    codes: frozenset[str]  # the rules that run
    exclude: tuple[ExcludePattern, ...] = ()
    extra_kinds: tuple[Kind, ...] = ()
    levels: Mapping[str, Level] = field(default_factory=dict)  # level per code, defaults included
    include_tests: bool = False
    kopf_namespaced: bool = False  # a kopf operator scoped only on its command line (`kopf run -n ns`)
    config_path: Path | None = None
    cluster_scoped: frozenset[str] = frozenset()  # the kinds in force that no namespace holds (an extra Node)

    @property
    def front_end_options(self) -> FrontEndOptions:
        return FrontEndOptions(self.kopf_namespaced, self.include_tests)

    def is_excluded(self, path: str) -> bool:
        """Whether a glob leaves out a file or folder; `path` has its folders resolved (resolved_text)."""
        return any(pattern.matches_resolved(path) for pattern in self.exclude)


def find_config(start: Path) -> Path | None:
    """Walk up from `start` to the nearest config file; a pyproject.toml counts only with [tool.watchlint]."""
    folder = start if start.is_dir() else start.parent
    for directory in (folder.resolve(), *folder.resolve().parents):
        found = config_in(directory)
        if found is not None:
            return found
    return None


def config_in(directory: Path) -> Path | None:
    """The config file of this very folder, without looking further up."""
    for name in CONFIG_NAMES:
        if has_file(directory, name) and (name != "pyproject.toml" or _has_tool_section(directory / name)):
            return directory / name
    return None


def _has_tool_section(path: Path) -> bool:
    # One that names watchlint nowhere configures other tools only, broken or not (a project template's
    # `version = "{{version}}"`): no TOML to parse (~0.15 ms a file).
    if not _names_watchlint(path):
        return False
    try:
        tool = _read_toml(path).get("tool", {})
        return isinstance(tool, dict) and "watchlint" in tool
    except ConfigError:  # a broken file naming watchlint is reported by load_config rather than skipped silently
        return True


def _names_watchlint(path: Path) -> bool:
    try:
        return b"watchlint" in path.read_bytes()
    except OSError:
        return True


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{display_path(path)}: cannot read: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{display_path(path)}: invalid TOML: {error}") from None


def load_config(path: Path, catalog: Catalog) -> FileConfig:
    """Read and validate one configuration file; errors name it relative to the working directory."""
    document = _read_toml(path)
    base = path.parent.resolve()
    config_path, path = path, Path(display_path(path))
    table: Any = document
    if path.name == "pyproject.toml":
        tool = document.get("tool", {})
        if not isinstance(tool, dict):
            raise ConfigError(f"{path}: tool: expected a table")
        table = tool.get("watchlint", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: tool.watchlint: expected a table")
    unknown = sorted(set(table) - set(CONFIG_KEYS))
    if unknown:
        raise ConfigError(f"{path}: {unknown[0]}: unknown key (known keys: {', '.join(CONFIG_KEYS)})")
    return FileConfig(
        path=config_path,
        select=_codes(table, "select", path, catalog) if "select" in table else None,
        ignore=_codes(table, "ignore", path, catalog) if "ignore" in table else frozenset(),
        exclude=tuple(ExcludePattern(glob, base) for glob in _strings(table, "exclude", path)),
        extra_kinds=_extra_kinds(table, path, catalog),
        levels=_levels(table, path, catalog),
        include_tests=_boolean(table, "include-tests", path),
        kopf_namespaced=bool(_boolean(table, "kopf-namespaced", path)),
    )


def resolve_codes(values: Iterable[str], catalog: Catalog, where: str) -> frozenset[str]:
    """Turn codes or rule names into codes; an unknown one is a ConfigError naming `where`."""
    codes = set()
    for value in values:
        rule = catalog.rule(value)
        if rule is None or rule.status == "removed":
            raise ConfigError(f"{where}: {value!r} is not a rule code or name (see `watchlint rules`)")
        codes.add(rule.code)
    return frozenset(codes)


def resolve_settings(file_config: FileConfig | None, command_line: CommandLine, catalog: Catalog) -> Settings:
    """Combine a file's configuration with the command line: --select replaces, the rest extends."""
    all_codes = frozenset(rule.code for rule in catalog.active_rules)
    config = file_config or FileConfig(path=Path())
    select = config.select if config.select is not None else all_codes
    if command_line.select:
        select = resolve_codes(command_line.select, catalog, "--select")
    ignore = config.ignore | resolve_codes(command_line.ignore, catalog, "--ignore")
    cwd = Path.cwd().resolve()
    levels = {rule.code: rule.level for rule in catalog.active_rules} | dict(config.levels)
    return Settings(
        codes=select - ignore,
        exclude=config.exclude + tuple(ExcludePattern(glob, cwd) for glob in command_line.exclude),
        extra_kinds=config.extra_kinds,
        levels=levels,
        include_tests=command_line.include_tests or bool(config.include_tests),
        kopf_namespaced=config.kopf_namespaced,
        config_path=file_config.path if file_config else None,
        cluster_scoped=frozenset(kind.name for kind in catalog.kinds + config.extra_kinds if not kind.namespaced),
    )


def _strings(table: Mapping[str, Any], key: str, path: Path) -> list[str]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{path}: {key}: expected a list of strings")
    return value


def _codes(table: Mapping[str, Any], key: str, path: Path, catalog: Catalog) -> frozenset[str]:
    return resolve_codes(_strings(table, key, path), catalog, f"{path}: {key}")


def _boolean(table: Mapping[str, Any], key: str, path: Path) -> bool | None:
    value = table.get(key)
    if value is not None and not isinstance(value, bool):
        raise ConfigError(f"{path}: {key}: expected true or false")
    return value


def _levels(table: Mapping[str, Any], path: Path, catalog: Catalog) -> dict[str, Level]:
    value = table.get("level", {})
    if not isinstance(value, dict):
        raise ConfigError(f'{path}: level: expected a table of code = "error" | "warning" | "note"')
    levels = {}
    for name, level in value.items():
        (code,) = resolve_codes([name], catalog, f"{path}: level")
        if not isinstance(level, str) or level not in {item.value for item in Level}:
            raise ConfigError(f'{path}: level.{name}: expected "error", "warning" or "note"')
        levels[code] = Level(level)
    return levels


def _extra_kinds(table: Mapping[str, Any], path: Path, catalog: Catalog) -> tuple[Kind, ...]:
    value = table.get("extra-kinds", [])
    if not isinstance(value, list):
        raise ConfigError(f"{path}: extra-kinds: expected an array of tables ([[extra-kinds]])")
    kinds = []
    for index, entry in enumerate(value):
        try:
            kinds.append(parse_kind(entry, f"{path}: extra-kinds[{index}]"))
        except CatalogError as error:
            raise ConfigError(str(error)) from None
    known = {kind.name for kind in catalog.kinds}
    for kind in kinds:
        if kind.name in known:
            raise ConfigError(f"{path}: extra-kinds: {kind.name} is already a built-in kind")
    return tuple(kinds)
