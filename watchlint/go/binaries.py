"""Binaries of a module: each `package main` with the module packages it imports, directly or not (SPEC §3.1).

A site is judged against every binary that reaches its package and builds a manager; a package no such
binary reaches is judged against the union of the module's policies.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from watchlint.go.imports import imported_paths
from watchlint.go.model import GoFile

MODULE_KEY = "module"


def module_key(directory: str) -> str:
    """The policy key of the library code of a module: the unit's own (`directory` ""), or one a local
    `replace` joined to it, each judged by its own module's options (SPEC §3.1: modules are analyzed
    separately)."""
    return f"{MODULE_KEY}:{directory}" if directory else MODULE_KEY


def is_module_key(key: str) -> bool:
    return key == MODULE_KEY or key.startswith(MODULE_KEY + ":")


@dataclass(frozen=True, slots=True)
class Binary:
    key: str  # the main package's folder as displayed, e.g. "cmd/manager"
    packages: frozenset[str]  # import paths it reaches, its own included


def find_binaries(files: Iterable[GoFile], module_paths: frozenset[str]) -> list[Binary]:
    imports: dict[str, set[str]] = {}
    mains: dict[str, str] = {}
    for file in files:
        internal = {path for path in imported_paths(file) if _is_internal(path, module_paths)}
        imports.setdefault(file.package_path, set()).update(internal)
        if file.package_name == "main":
            mains.setdefault(file.package_path, _folder(file.path))
    binaries = []
    for package, folder in sorted(mains.items()):
        reached = {package}
        pending = [package]
        while pending:
            for imported in imports.get(pending.pop(), ()):
                if imported not in reached:
                    reached.add(imported)
                    pending.append(imported)
        binaries.append(Binary(folder, frozenset(reached)))
    return binaries


def _is_internal(path: str, module_paths: frozenset[str]) -> bool:
    return any(path == module or path.startswith(module + "/") for module in module_paths)


def _folder(path: str) -> str:
    head, _, _ = path.rpartition("/")
    return head or "."
