"""Per-file imports: the alias each import path is known by (no alias means the last path element)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

import tree_sitter

from watchlint.go import parser
from watchlint.go.model import GoFile

_GOPKG_VERSION = re.compile(r"(\w[\w-]*)\.v\d+")  # gopkg.in/yaml.v3: package yaml
_MAJOR_VERSION = re.compile(r"^v\d+$")


@functools.lru_cache(maxsize=4096)  # every file imports mostly the same paths
def default_aliases(import_path: str) -> tuple[str, ...]:
    """Names an unaliased import may be used by: the last element (`k8s.io/api/core/v1` -> `v1`), and for a
    `/vN` path also the element before it, since `github.com/org/repo/v2` is package `repo`; gopkg.in's
    `yaml.v3` is package `yaml`."""
    parts = import_path.rstrip("/").split("/")
    names = [parts[-1]]
    if _MAJOR_VERSION.match(parts[-1]) and len(parts) > 1:
        names.append(parts[-2])
    if (versioned := _GOPKG_VERSION.fullmatch(parts[-1])) is not None:
        names.append(versioned.group(1))
    return tuple(name.removeprefix("go-").replace("-", "_").replace(".", "_") for name in names)


def extract_imports(specs: Iterable[tree_sitter.Node]) -> dict[str, str]:
    """Map each name used in the file to its import path; dot and blank imports are left out."""
    aliases: dict[str, str] = {}
    for spec in specs:
        path_node = spec.child_by_field_name("path")
        if path_node is None:
            continue
        path = parser.text(path_node).strip('"`')
        name_node = spec.child_by_field_name("name")
        if name_node is not None:
            alias = parser.text(name_node)
            if alias not in ("_", "."):
                aliases[alias] = path
            continue
        for position, alias in enumerate(default_aliases(path)):
            if position == 0 or alias not in aliases:
                aliases.setdefault(alias, path)
    return aliases


def imported_paths(file: GoFile) -> frozenset[str]:
    """Every path a file imports, blank (`_ "…/feature/x"`, for its init's registrations) and dot imports
    included: what a package reaches, where `GoFile.imports` holds only the names code can use. Kept on the
    file: the binaries and the test-only packages ask again."""
    if file.import_paths is None:
        file.import_paths = frozenset(
            parser.text(path).strip('"`')
            for spec in file.nodes("import_spec")
            if (path := spec.child_by_field_name("path")) is not None
        )
    return file.import_paths


def name_module_imports(files: Iterable[GoFile]) -> None:
    """An unaliased import of a package the unit holds is used by the name its package clause declares, which
    need not be its folder's (`internal/controllers` declaring `package new_controllers`): that name is added
    to each importing file's imports, once every file is parsed."""
    declared: dict[str, set[str]] = {}
    for file in files:
        if file.package_name and not file.package_name.endswith("_test"):
            declared.setdefault(file.package_path, set()).add(file.package_name)
    renamed = {
        path: next(iter(names))
        for path, names in declared.items()
        if len(names) == 1 and next(iter(names)) not in default_aliases(path)
    }
    if not renamed:
        return
    for file in files:
        for spec in file.nodes("import_spec"):
            path_node = spec.child_by_field_name("path")
            if spec.child_by_field_name("name") is not None or path_node is None:
                continue
            path = parser.text(path_node).strip('"`')
            if (name := renamed.get(path)) is not None:
                file.imports.setdefault(name, path)
