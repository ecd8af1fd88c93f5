"""The rule and kind catalogue: load and validate rules/*.md and rules/kinds.toml."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from watchlint.errors import WatchlintError
from watchlint.levels import Level

RULE_KEYS = frozenset({"code", "name", "level", "summary", "fix", "fix_safety", "languages", "status", "since", "tags"})
RULE_SECTIONS = ("What it does", "Why is this bad?", "Example", "Fix safety", "Suppression", "References")
KIND_KEYS = frozenset(
    {
        "name",
        "group",
        "version",
        "plural",
        "namespaced",
        "go_packages",
        "go_types",
        "python_names",
        "python_fragments",
    }
)
OPTIONAL_KIND_KEYS = frozenset({"field_selectors"})
# Every object's API serves these field selectors; the catalogue lists what a kind serves besides them.
METADATA_FIELDS = frozenset({"metadata.name", "metadata.namespace"})
LANGUAGES = ("go", "python")
_CODE = re.compile(r"^WL\d{3}$")
_KEBAB = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)+$")
_FENCE = re.compile(r"^```(?P<info>[^\n`]*)\n(?P<code>.*?)^```\s*$", re.MULTILINE | re.DOTALL)
_HEADING = re.compile(r"^## (?P<title>.+?)\s*$", re.MULTILINE)


class CatalogError(WatchlintError):
    """A rule file or kind entry that breaks the catalogue schema."""


@dataclass(frozen=True, slots=True)
class Example:
    """A fenced `<language> bad|good` block of a rule doc, executed by the tests."""

    language: str
    is_bad: bool
    code: str
    line: int  # 1-based line of the opening fence in the rule file


@dataclass(frozen=True, slots=True)
class Rule:
    code: str
    name: str
    level: Level
    summary: str
    fix: str  # always | sometimes | none
    fix_safety: str  # safe | unsafe | none
    languages: tuple[str, ...]
    status: str  # stable | preview | removed
    since: str
    tags: tuple[str, ...]
    body: str  # the Markdown doc after the front matter
    examples: tuple[Example, ...]
    path: Path


@dataclass(frozen=True, slots=True)
class Kind:
    name: str  # canonical Kind
    group: str  # "" for the core group
    version: str
    plural: str
    namespaced: bool
    go_packages: tuple[str, ...]  # import paths defining the Go types
    go_types: tuple[str, ...]  # type names, including the *List type
    python_names: tuple[str, ...]  # plural, singular and short resource names
    python_fragments: tuple[str, ...]  # kubernetes-client method name fragments: "config_map"
    field_selectors: tuple[str, ...] = ()  # fields the API server filters on besides metadata.name/namespace

    @property
    def served_fields(self) -> frozenset[str]:
        """The field selectors a list of the kind may send to the API server."""
        return METADATA_FIELDS | frozenset(self.field_selectors)


@dataclass(frozen=True, slots=True)
class KindIndex:
    """Lookups from the names front-ends see to canonical kinds."""

    kinds: tuple[Kind, ...]
    by_go_type: Mapping[tuple[str, str], str] = field(default_factory=dict)  # (import path, type) -> Kind
    by_python_name: Mapping[str, str] = field(default_factory=dict)  # lower-case resource name -> Kind
    by_fragment: Mapping[str, str] = field(default_factory=dict)  # method fragment -> Kind

    @classmethod
    def build(cls, kinds: tuple[Kind, ...]) -> KindIndex:
        by_go_type = {
            (package, name): kind.name for kind in kinds for package in kind.go_packages for name in kind.go_types
        }
        by_python_name = {name.lower(): kind.name for kind in kinds for name in (*kind.python_names, kind.name)}
        by_fragment = {fragment: kind.name for kind in kinds for fragment in kind.python_fragments}
        return cls(kinds, by_go_type, by_python_name, by_fragment)

    def go_kind(self, import_path: str, type_name: str) -> str | None:
        return self.by_go_type.get((import_path, type_name))

    def python_kind(self, resource: str) -> str | None:
        return self.by_python_name.get(resource.lower())

    def fragment_kind(self, fragment: str) -> str | None:
        return self.by_fragment.get(fragment)

    @property
    def names(self) -> frozenset[str]:
        return frozenset(kind.name for kind in self.kinds)

    @property
    def cluster_scoped(self) -> frozenset[str]:
        """The kinds no namespace holds (an extra Node), which no namespace scope narrows."""
        return frozenset(kind.name for kind in self.kinds if not kind.namespaced)

    def go_entry(self, kind: str, import_path: str) -> Kind | None:
        """The entry of a kind named in Go by its package (Event of core/v1 or of events.k8s.io)."""
        return next((entry for entry in self.kinds if entry.name == kind and import_path in entry.go_packages), None)

    def served_fields(self, kind: str, import_path: str = "") -> frozenset[str]:
        """The field selectors the API server serves for a kind named in Go; where the package is not known,
        only those every kind of that name serves (Event of core/v1 and of events.k8s.io differ)."""
        entries = [entry for entry in self.kinds if entry.name == kind]
        exact = [entry for entry in entries if import_path in entry.go_packages]
        chosen = exact or entries
        if not chosen:
            return METADATA_FIELDS
        return frozenset.intersection(*(entry.served_fields for entry in chosen))


@dataclass(frozen=True, slots=True)
class Catalog:
    rules: tuple[Rule, ...]  # sorted by code
    kinds: tuple[Kind, ...]

    def rule(self, code_or_name: str) -> Rule | None:
        wanted = code_or_name.strip()
        return next(
            (rule for rule in self.rules if wanted in (rule.code, rule.name) or wanted.upper() == rule.code),
            None,
        )

    @property
    def active_rules(self) -> tuple[Rule, ...]:
        return tuple(rule for rule in self.rules if rule.status != "removed")


def rules_directory() -> Path:
    """Return the packaged rules (a wheel's watchlint/_rules), else the checkout's rules/ (editable installs)."""
    packaged = Path(__file__).parent / "_rules"
    return packaged if packaged.is_dir() else Path(__file__).parent.parent / "rules"


def load_catalog(directory: Path | None = None) -> Catalog:
    directory = directory if directory is not None else rules_directory()
    if not directory.is_dir():
        raise CatalogError(f"{directory}: rule catalogue not found")
    rules = tuple(parse_rule(path.read_text(encoding="utf-8"), path) for path in sorted(directory.glob("WL*.md")))
    if not rules:
        raise CatalogError(f"{directory}: no rule files (WL*.md)")
    kinds_path = directory / "kinds.toml"
    try:
        table = tomllib.loads(kinds_path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise CatalogError(f"{kinds_path}: {error}") from None
    entries = table.get("kind")
    if set(table) != {"kind"} or not isinstance(entries, list) or not entries:
        raise CatalogError(f"{kinds_path}: expected only [[kind]] tables")
    kinds = tuple(parse_kind(entry, f"{kinds_path}: kind[{index}]") for index, entry in enumerate(entries))
    return Catalog(rules, kinds)


def parse_rule(text: str, path: Path) -> Rule:
    """Parse one rule file; raise CatalogError naming the file and the problem."""
    front, body = _split_front_matter(text, path)
    try:
        meta = tomllib.loads(front)
    except tomllib.TOMLDecodeError as error:
        raise CatalogError(f"{path}: front matter: {error}") from None
    _check_keys(meta, RULE_KEYS, str(path))
    _check_rule_values(meta, path)
    _check_sections(body, path)
    examples = _parse_examples(text, path)
    for language in meta["languages"]:
        for is_bad in (True, False):
            if meta["status"] != "removed" and not any(e.language == language and e.is_bad == is_bad for e in examples):
                label = "bad" if is_bad else "good"
                raise CatalogError(f"{path}: Example: no ```{language} {label} block")
    return Rule(
        code=meta["code"],
        name=meta["name"],
        level=Level(meta["level"]),
        summary=meta["summary"],
        fix=meta["fix"],
        fix_safety=meta["fix_safety"],
        languages=tuple(meta["languages"]),
        status=meta["status"],
        since=meta["since"],
        tags=tuple(meta["tags"]),
        body=body.strip() + "\n",
        examples=examples,
        path=path,
    )


def parse_kind(entry: Any, where: str) -> Kind:
    """Validate one kind table (kinds.toml or a config's extra-kinds)."""
    if not isinstance(entry, dict):
        raise CatalogError(f"{where}: expected a table")
    _check_keys(entry, KIND_KEYS, where, OPTIONAL_KIND_KEYS)
    for key in ("name", "group", "version", "plural"):
        if not isinstance(entry[key], str):
            raise CatalogError(f"{where}: {key}: expected a string")
    if not entry["name"] or not entry["version"] or not entry["plural"]:
        raise CatalogError(f"{where}: name, version and plural must not be empty")
    if not isinstance(entry["namespaced"], bool):
        raise CatalogError(f"{where}: namespaced: expected true or false")
    lists = {}
    for key in ("go_packages", "go_types", "python_names", "python_fragments", "field_selectors"):
        value = entry.get(key, [])
        if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):
            raise CatalogError(f"{where}: {key}: expected a list of non-empty strings")
        lists[key] = tuple(value)
    for key in ("go_packages", "go_types", "python_names"):
        if not lists[key]:
            raise CatalogError(f"{where}: {key}: a kind needs its Go and Python names")
    return Kind(
        name=entry["name"],
        group=entry["group"],
        version=entry["version"],
        plural=entry["plural"],
        namespaced=entry["namespaced"],
        go_packages=lists["go_packages"],
        go_types=lists["go_types"],
        python_names=lists["python_names"],
        python_fragments=lists["python_fragments"],
        field_selectors=lists["field_selectors"],
    )


def _split_front_matter(text: str, path: Path) -> tuple[str, str]:
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != "+++":
        raise CatalogError(f"{path}: must start with +++ front matter")
    for index, line in enumerate(lines[1:], start=1):
        if line.strip() == "+++":
            return "".join(lines[1:index]), "".join(lines[index + 1 :])
    raise CatalogError(f"{path}: front matter is not closed with +++")


def _check_keys(
    table: Mapping[str, Any], required: frozenset[str], where: str, optional: frozenset[str] = frozenset()
) -> None:
    unknown = sorted(set(table) - required - optional)
    if unknown:
        raise CatalogError(f"{where}: {unknown[0]}: unknown key")
    missing = sorted(required - set(table))
    if missing:
        raise CatalogError(f"{where}: {missing[0]}: missing key")


_CHOICES = {
    "level": frozenset(level.value for level in Level),
    "fix": frozenset({"always", "sometimes", "none"}),
    "fix_safety": frozenset({"safe", "unsafe", "none"}),
    "status": frozenset({"stable", "preview", "removed"}),
}


def _check_rule_values(meta: Mapping[str, Any], path: Path) -> None:
    def fail(key: str, problem: str) -> CatalogError:
        return CatalogError(f"{path}: {key}: {problem}")

    for key in ("code", "name", "summary", "since", *_CHOICES):
        if not isinstance(meta[key], str):
            raise fail(key, "expected a string")
    for key, allowed in _CHOICES.items():
        if meta[key] not in allowed:
            raise fail(key, f"expected one of {', '.join(sorted(allowed))}")
    if not _CODE.match(meta["code"]) or meta["code"] != path.stem:
        raise fail("code", f"expected WL plus three digits, equal to the file name {path.stem}")
    if not _KEBAB.match(meta["name"]):
        raise fail("name", "expected a kebab-case name of two words or more")
    if not meta["summary"] or meta["summary"].endswith(".") or "\n" in meta["summary"]:
        raise fail("summary", "expected one line without a trailing period")
    _check_rule_lists(meta, path)


def _check_rule_lists(meta: Mapping[str, Any], path: Path) -> None:
    def fail(key: str, problem: str) -> CatalogError:
        return CatalogError(f"{path}: {key}: {problem}")

    languages = meta["languages"]
    if not isinstance(languages, list) or not languages or not all(item in LANGUAGES for item in languages):
        raise fail("languages", f"expected a non-empty list of {', '.join(LANGUAGES)}")
    if not isinstance(meta["tags"], list) or not all(isinstance(tag, str) for tag in meta["tags"]):
        raise fail("tags", "expected a list of strings")


def _check_sections(body: str, path: Path) -> None:
    titles = [match["title"] for match in _HEADING.finditer(_without_fences(body))]
    missing = [title for title in RULE_SECTIONS if title not in titles]
    if missing:
        raise CatalogError(f"{path}: missing section ## {missing[0]}")
    present = [title for title in titles if title in RULE_SECTIONS]
    if present != list(RULE_SECTIONS):
        raise CatalogError(f"{path}: sections must be in the order {', '.join(RULE_SECTIONS)}")


def _without_fences(text: str) -> str:
    return _FENCE.sub("", text)


def _parse_examples(text: str, path: Path) -> tuple[Example, ...]:
    examples = []
    for match in _FENCE.finditer(text):
        words = match["info"].split()
        if len(words) == 2 and words[1] in ("bad", "good"):
            if words[0] not in LANGUAGES:
                raise CatalogError(f"{path}: Example: unknown language {words[0]!r}")
            line = text.count("\n", 0, match.start()) + 1
            examples.append(Example(words[0], words[1] == "bad", match["code"], line))
    return tuple(examples)
