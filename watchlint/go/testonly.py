"""Packages only a module's tests can run: under an `internal/` folder, and imported by no other file of the
module. Go lets only the tree holding `internal/` import such a package, so when no binary or other package of
the module imports it (envtest fakes and suite helpers imported by `_test.go` files alone), no deployment runs
it. Their sites are test code's: analyzed only with --include-tests.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from watchlint.go.imports import imported_paths
from watchlint.go.model import GoFile

# an import path with an `internal` element, as a generated file (left unparsed) may quote it
_INTERNAL_PATH = re.compile(rb'"([^"\n]*/internal(?:/[^"\n]*)?)"')


def quoted_internal_paths(data: bytes) -> set[str]:
    """The import paths under an `internal/` folder that an unparsed (generated) file quotes: a `wire_gen.go`
    of a binary may be the one file importing a package."""
    return {match.decode("utf-8", "replace") for match in _INTERNAL_PATH.findall(data)}


def test_only_packages(
    files: Iterable[GoFile], also_imported: set[str], module_paths: frozenset[str]
) -> frozenset[str]:
    """The module's packages under an `internal/` folder of its own that no file imports, main packages aside."""
    files = list(files)
    imported = {path for file in files for path in imported_paths(file)} | also_imported
    return frozenset(
        file.package_path
        for file in files
        if file.package_name != "main"
        and file.package_path not in imported
        and _under_internal(file.package_path, module_paths)
    )


def _under_internal(package: str, module_paths: frozenset[str]) -> bool:
    """Whether the part of the path inside its module has an `internal` element: one in the module path itself
    (`corp.example/internal/op`) lets packages of other modules import it."""
    for module in module_paths:
        if package == module or package.startswith(module + "/"):
            return "internal" in package[len(module) :].split("/")
    return False
