"""go.mod: the module path, the controller-runtime version that decides which option shapes apply, and the versions
of the other libraries whose behaviour changed between releases."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

CONTROLLER_RUNTIME = "sigs.k8s.io/controller-runtime"
DYNAMICLISTENER = "github.com/rancher/dynamiclistener"
_TRACKED = frozenset({CONTROLLER_RUNTIME, DYNAMICLISTENER})  # the requirements whose versions are kept
_MODULE = re.compile(r"^\s*module\s+\"?([^\s\"]+)\"?", re.MULTILINE)
_VERSION = re.compile(r"^v(\d+)\.(\d+)\.(\d+)(-\S*)?")


@dataclass(frozen=True, slots=True)
class GoModule:
    path: str  # the module path, "" when there is no readable go.mod
    controller_runtime: tuple[int, int, int] | None  # required version, None when not required
    # the other tracked requirements' versions as written (`v0.7.1-rc1`): None where a `replace` builds another
    # module or a local folder in its place, whose release cannot be told
    others: tuple[tuple[str, str | None], ...] = ()

    def required(self, path: str) -> str | None:
        """The version of a tracked library (not controller-runtime) the module builds with, as written; None where
        it does not require it or its release cannot be told."""
        return dict(self.others).get(path)

    @property
    def has_legacy_cache_options(self) -> bool:
        """Whether it requires controller-runtime before v0.15: ClientDisableCacheFor and the NewCache
        SelectorsByObject instead of client.CacheOptions.DisableFor and cache.Options.ByObject."""
        return self.controller_runtime is not None and self.controller_runtime < (0, 15, 0)

    @property
    def has_client_objects(self) -> bool:
        """Whether its controller-runtime (v0.7 or later, or none seen) has client.Object, ClientDisableCacheFor
        and builder.OnlyMetadata."""
        return self.controller_runtime is None or self.controller_runtime >= (0, 7, 0)

    @property
    def has_per_kind_selectors(self) -> bool:
        """Whether its controller-runtime (v0.9 or later, or none seen) selects a kind's objects in the cache
        (SelectorsByObject, later ByObject)."""
        return self.controller_runtime is None or self.controller_runtime >= (0, 9, 0)

    @property
    def cache_options_era(self) -> str:
        """Which shapes of the cache options the required controller-runtime has (cacheoptions.ERAS): before
        v0.9 no per-kind selector (SelectorsByObject, BuilderWithOptions) at all, before v0.7 no
        ClientDisableCacheFor, client.Object nor builder.OnlyMetadata either."""
        if not self.has_client_objects:
            return "pre-v0.7"
        if not self.has_per_kind_selectors:
            return "pre-selectors"
        if self.has_legacy_cache_options:
            return "legacy"
        # v0.15's ByObject entries take no Namespaces, and its cache's namespaces are a list, not a map
        return "v0.15" if self.controller_runtime is not None and self.controller_runtime < (0, 16, 0) else "current"

    def package_path(self, directory: str) -> str:
        """Import path of the package in `directory` (POSIX, relative to the module root)."""
        if directory in ("", "."):
            return self.path
        return f"{self.path}/{directory}" if self.path else directory


def parse_go_mod(text: str) -> GoModule:
    """Read the module path and the tracked requirements, with the versions `replace` directives put in their
    place; garbage yields an empty module. controller-runtime replaced by a fork or a local folder keeps the
    version required (its option shapes follow it); another tracked library's release is then unknown."""
    module = _MODULE.search(text)
    required: dict[str, str] = {}
    replaced: dict[str, str | None] = {}
    replacements: list[tuple[str, str | None, list[str]]] = []  # path, the version it applies to, the target
    for directive, fields in _directives(text):
        if directive == "require" and len(fields) >= 2 and fields[0] in _TRACKED:
            required[fields[0]] = fields[1]
        elif directive == "replace" and "=>" in fields:
            arrow = fields.index("=>")
            left, right = fields[:arrow], fields[arrow + 1 :]
            if left and right and left[0] in _TRACKED:
                replacements.append((left[0], left[1] if len(left) > 1 else None, right))
    for path, applies_to, target in replacements:
        if applies_to is not None and required.get(path) != applies_to:
            continue  # `replace x v0.9.0 => …` replaces only that version
        same = len(target) == 2 and target[0] == path
        replaced[path] = target[1] if same else None
    versions = {path: replaced.get(path, version) for path, version in required.items()}
    runtime = versions.pop(CONTROLLER_RUNTIME, None) or required.get(CONTROLLER_RUNTIME)
    parsed = release(runtime) if runtime is not None else None
    return GoModule(module.group(1) if module else "", parsed[0] if parsed else None, tuple(sorted(versions.items())))


def _directives(text: str) -> list[tuple[str, list[str]]]:
    """Each line of a go.mod's directives with its directive (`require`, `replace`, `exclude`, …), as fields
    unquoted, comments dropped: one-line directives and the lines of their blocks."""
    found: list[tuple[str, list[str]]] = []
    block = ""
    for line in text.splitlines():
        # `require(` is `require (`: the parentheses are tokens of their own
        code = line.split("//", 1)[0].replace("(", " ( ").replace(")", " ) ")
        fields = [field.strip('"') for field in code.split()]
        if not fields:
            continue
        if block:
            if fields == [")"]:
                block = ""
            else:
                found.append((block, fields))
        elif len(fields) == 2 and fields[1] == "(":
            block = fields[0]
        else:
            found.append((fields[0], fields[1:]))
    return found


def release(version: str) -> tuple[tuple[int, int, int], bool] | None:
    """`((0, 7, 1), True)` of `v0.7.1-rc1`: a version's release numbers, and whether it comes before that release
    (a pre-release, or a pseudo-version of a commit after the previous one); None for what is no version."""
    parsed = _VERSION.match(version)
    if parsed is None:
        return None
    numbers = (int(parsed.group(1)), int(parsed.group(2)), int(parsed.group(3)))
    return numbers, bool(parsed.group(4)) and not parsed.group(4).startswith("+")


def read_go_mod(root: Path) -> GoModule:
    try:
        return parse_go_mod((root / "go.mod").read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return GoModule("", None)
