"""The rule and kind catalogue: the shipped rules/ and kinds.toml, and the schema checks of watchlint/catalog.py."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

from watchlint.catalog import Catalog, CatalogError, KindIndex, load_catalog, parse_kind, parse_rule
from watchlint.checks import CHECKS

RULES = REPO / "rules"
RULE_PATH = Path("WL002.md")
SECTION_ORDER = "What it does, Why is this bad?, Example, Fix safety, Suppression, References"

# SPEC §3: code, name and default level of every rule.
SPEC_RULES = [
    ("WL001", "unfiltered-watch", "warning"),
    ("WL002", "implicit-informer-read", "warning"),
    ("WL003", "predicate-only-filter", "warning"),
    ("WL004", "unfiltered-cluster-list", "note"),
    ("WL005", "duplicate-cache", "warning"),
]

# SPEC §2: the default high-cardinality kinds, as (name, group, version); Event is served by two groups.
SPEC_KINDS = {
    ("Secret", "", "v1"),
    ("ConfigMap", "", "v1"),
    ("Pod", "", "v1"),
    ("Event", "", "v1"),
    ("Event", "events.k8s.io", "v1"),
    ("Endpoints", "", "v1"),
    ("EndpointSlice", "discovery.k8s.io", "v1"),
    ("ReplicaSet", "apps", "v1"),
    ("ServiceAccount", "", "v1"),
    ("Job", "batch", "v1"),
}

# A minimal valid rule file in the shape of rules/WL002.md: TOML literals per front-matter key, then the sections.
FRONT_MATTER = {
    "code": '"WL002"',
    "name": '"implicit-informer-read"',
    "level": '"warning"',
    "summary": '"Get/List through a cache-backed client starts a cluster-wide informer"',
    "fix": '"sometimes"',
    "fix_safety": '"safe"',
    "languages": '["go"]',
    "status": '"stable"',
    "since": '"0.1.0"',
    "tags": '["memory", "controller-runtime"]',
}
SECTIONS = {
    "What it does": "Finds a cached read.",
    "Why is this bad?": "It caches every object.",
    "Example": "```go bad\npackage bad\n```\nBetter:\n```go good\npackage good\n```",
    "Fix safety": "Safe.",
    "Suppression": "`//watchlint:ignore WL002 -- reason`",
    "References": "- https://pkg.go.dev/sigs.k8s.io/controller-runtime/pkg/client#CacheOptions",
}


def rule_text(front: dict[str, str | None] | None = None, sections: dict[str, str] | None = None) -> str:
    """Build a rule file; a front-matter value of None drops that key."""
    merged = {**FRONT_MATTER, **(front or {})}
    head = "".join(f"{key} = {value}\n" for key, value in merged.items() if value is not None)
    chosen = SECTIONS if sections is None else sections
    body = "\n".join(f"## {title}\n{text}\n" for title, text in chosen.items())
    return f"+++\n{head}+++\n{body}"


def without(title: str) -> dict[str, str]:
    return {key: value for key, value in SECTIONS.items() if key != title}


def kind_entry(**changes: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "name": "Secret",
        "group": "",
        "version": "v1",
        "plural": "secrets",
        "namespaced": True,
        "go_packages": ["k8s.io/api/core/v1"],
        "go_types": ["Secret", "SecretList"],
        "python_names": ["secrets", "secret"],
        "python_fragments": ["secret"],
    }
    entry.update(changes)
    return {key: value for key, value in entry.items() if value is not None}


# --- the shipped catalogue -------------------------------------------------------------------------------------


def test_shipped_rules_are_the_five_of_the_spec(catalog: Catalog) -> None:
    assert [(rule.code, rule.name, str(rule.level)) for rule in catalog.rules] == SPEC_RULES
    assert [rule.code for rule in catalog.active_rules] == [code for code, _, _ in SPEC_RULES]


def test_shipped_rules_are_read_from_the_checkout_in_an_editable_install(catalog: Catalog) -> None:
    assert catalog == load_catalog(RULES)
    assert [rule.path for rule in catalog.rules] == [RULES / f"{code}.md" for code, _, _ in SPEC_RULES]


@pytest.mark.parametrize("code", [code for code, _, _ in SPEC_RULES])
def test_shipped_rule_has_a_bad_and_a_good_example_per_language(catalog: Catalog, code: str) -> None:
    rule = catalog.rule(code)
    assert rule is not None
    found = {(example.language, example.is_bad) for example in rule.examples}
    assert found == {(language, is_bad) for language in rule.languages for is_bad in (True, False)}
    assert all(example.code.strip() for example in rule.examples)


@pytest.mark.parametrize("code", [code for code, _, _ in SPEC_RULES])
def test_shipped_rule_example_lines_point_at_their_fences(catalog: Catalog, code: str) -> None:
    rule = catalog.rule(code)
    assert rule is not None
    lines = rule.path.read_text(encoding="utf-8").splitlines()
    for example in rule.examples:
        assert lines[example.line - 1] == f"```{example.language} {'bad' if example.is_bad else 'good'}"


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("WL001", "WL001"),
        ("unfiltered-watch", "WL001"),
        ("wl004", "WL004"),
        (" WL003 ", "WL003"),
        ("duplicate-cache", "WL005"),
    ],
    ids=["code", "name", "lower-case-code", "padded-code", "other-name"],
)
def test_catalog_rule_finds_by_code_or_name(catalog: Catalog, query: str, code: str) -> None:
    rule = catalog.rule(query)
    assert rule is not None
    assert rule.code == code


@pytest.mark.parametrize("query", ["WL999", "WL00", "unfiltered", "Unfiltered-Watch", ""], ids=repr)
def test_catalog_rule_returns_none_for_an_unknown_rule(catalog: Catalog, query: str) -> None:
    assert catalog.rule(query) is None


def test_shipped_rule_names_are_unique(catalog: Catalog) -> None:
    names = [rule.name for rule in catalog.rules]
    assert len(names) == len(set(names))


def test_shipped_kinds_are_the_kinds_of_the_spec(catalog: Catalog) -> None:
    kinds = [(kind.name, kind.group, kind.version) for kind in catalog.kinds]
    assert len(kinds) == len(SPEC_KINDS)
    assert set(kinds) == SPEC_KINDS


@pytest.mark.parametrize(
    ("package", "type_name", "kind"),
    [
        ("k8s.io/api/core/v1", "SecretList", "Secret"),
        ("k8s.io/api/core/v1", "Secret", "Secret"),
        ("k8s.io/api/core/v1", "ConfigMapList", "ConfigMap"),
        ("k8s.io/api/events/v1", "Event", "Event"),
        ("k8s.io/api/core/v1", "EventList", "Event"),
        ("k8s.io/api/discovery/v1", "EndpointSliceList", "EndpointSlice"),
        ("k8s.io/api/apps/v1", "ReplicaSet", "ReplicaSet"),
        ("k8s.io/api/batch/v1", "JobList", "Job"),
        ("k8s.io/api/apps/v1", "Deployment", None),
        ("k8s.io/api/apps/v1", "Secret", None),
        ("example.com/api/v1", "SecretList", None),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_kind_index_go_kind(catalog: Catalog, package: str, type_name: str, kind: str | None) -> None:
    assert KindIndex.build(catalog.kinds).go_kind(package, type_name) == kind


@pytest.mark.parametrize(
    ("resource", "kind"),
    [
        ("cm", "ConfigMap"),
        ("po", "Pod"),
        ("configmaps", "ConfigMap"),
        ("configmap", "ConfigMap"),
        ("Secret", "Secret"),
        ("SECRETS", "Secret"),
        ("endpointslices", "EndpointSlice"),
        ("EndpointSlice", "EndpointSlice"),
        ("sa", "ServiceAccount"),
        ("events", "Event"),
        ("deployments", None),
        ("config_map", None),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_kind_index_python_kind(catalog: Catalog, resource: str, kind: str | None) -> None:
    assert KindIndex.build(catalog.kinds).python_kind(resource) == kind


@pytest.mark.parametrize(
    ("fragment", "kind"),
    [
        ("config_map", "ConfigMap"),
        ("secret", "Secret"),
        ("endpoint_slice", "EndpointSlice"),
        ("service_account", "ServiceAccount"),
        ("configmap", None),
        ("deployment", None),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_kind_index_fragment_kind(catalog: Catalog, fragment: str, kind: str | None) -> None:
    assert KindIndex.build(catalog.kinds).fragment_kind(fragment) == kind


def test_kind_index_names_are_the_canonical_kinds(catalog: Catalog) -> None:
    assert KindIndex.build(catalog.kinds).names == {name for name, _, _ in SPEC_KINDS}


@pytest.mark.parametrize(
    ("kind", "package", "field", "is_served"),
    [
        ("Pod", "k8s.io/api/core/v1", "spec.nodeName", True),
        ("Pod", "k8s.io/api/core/v1", "metadata.namespace", True),
        ("Pod", "k8s.io/api/core/v1", ".metadata.controller", False),
        ("Secret", "k8s.io/api/core/v1", "type", True),
        ("ConfigMap", "k8s.io/api/core/v1", "type", False),
        ("Event", "k8s.io/api/core/v1", "involvedObject.uid", True),
        ("Event", "k8s.io/api/events/v1", "involvedObject.uid", False),
        ("Event", "", "involvedObject.uid", False),  # package unknown: only what both Events serve
        ("Event", "", "metadata.name", True),
        ("Certificate", "", "metadata.name", True),  # a kind outside the catalogue: metadata only
        ("Certificate", "", "spec.secretName", False),
    ],
    ids=lambda value: value if isinstance(value, str) and value else None,
)
def test_kind_index_served_fields(catalog: Catalog, kind: str, package: str, field: str, is_served: bool) -> None:
    """The field selectors the API server serves (SPEC §4: DisableFor is safe only where it serves them)."""
    assert (field in KindIndex.build(catalog.kinds).served_fields(kind, package)) is is_served


def test_every_active_rule_has_a_check_and_every_check_a_rule(catalog: Catalog) -> None:
    assert set(CHECKS) == {rule.code for rule in catalog.active_rules}


# --- parse_rule ------------------------------------------------------------------------------------------------


def test_parse_rule_accepts_the_minimal_rule() -> None:
    text = rule_text()
    rule = parse_rule(text, RULE_PATH)
    assert (rule.code, rule.name, rule.level, rule.fix, rule.fix_safety) == (
        "WL002",
        "implicit-informer-read",
        "warning",
        "sometimes",
        "safe",
    )
    assert (rule.languages, rule.status, rule.since, rule.tags) == (
        ("go",),
        "stable",
        "0.1.0",
        ("memory", "controller-runtime"),
    )
    assert rule.summary == "Get/List through a cache-backed client starts a cluster-wide informer"
    assert rule.body.startswith("## What it does\nFinds a cached read.\n")
    assert rule.body.endswith("CacheOptions\n")
    lines = text.splitlines()
    assert [(e.language, e.is_bad, e.code, e.line) for e in rule.examples] == [
        ("go", True, "package bad\n", lines.index("```go bad") + 1),
        ("go", False, "package good\n", lines.index("```go good") + 1),
    ]
    assert rule.path == RULE_PATH


@pytest.mark.parametrize("key", list(FRONT_MATTER), ids=str)
def test_parse_rule_rejects_a_missing_key(key: str) -> None:
    with pytest.raises(CatalogError) as caught:
        parse_rule(rule_text({key: None}), RULE_PATH)
    assert str(caught.value) == f"WL002.md: {key}: missing key"


def test_parse_rule_rejects_an_unknown_key() -> None:
    with pytest.raises(CatalogError) as caught:
        parse_rule(rule_text({"severity": '"high"'}), RULE_PATH)
    assert str(caught.value) == "WL002.md: severity: unknown key"


@pytest.mark.parametrize(
    ("front", "message"),
    [
        ({"level": '"warn"'}, "level: expected one of error, note, warning"),
        ({"level": '"Warning"'}, "level: expected one of error, note, warning"),
        ({"level": "2"}, "level: expected a string"),
        ({"fix": '"maybe"'}, "fix: expected one of always, none, sometimes"),
        ({"fix_safety": '"risky"'}, "fix_safety: expected one of none, safe, unsafe"),
        ({"status": '"retired"'}, "status: expected one of preview, removed, stable"),
        ({"since": "0.1"}, "since: expected a string"),
        ({"code": "2"}, "code: expected a string"),
        ({"code": '"WL02"'}, "code: expected WL plus three digits, equal to the file name WL002"),
        ({"code": '"wl002"'}, "code: expected WL plus three digits, equal to the file name WL002"),
        ({"code": '"XX002"'}, "code: expected WL plus three digits, equal to the file name WL002"),
        ({"code": '"WL003"'}, "code: expected WL plus three digits, equal to the file name WL002"),
        ({"name": '"implicit_informer_read"'}, "name: expected a kebab-case name of two words or more"),
        ({"name": '"Implicit-Informer-Read"'}, "name: expected a kebab-case name of two words or more"),
        ({"name": '"informer"'}, "name: expected a kebab-case name of two words or more"),
        ({"name": '"implicit--read"'}, "name: expected a kebab-case name of two words or more"),
        ({"name": '"-implicit-read"'}, "name: expected a kebab-case name of two words or more"),
        ({"summary": '"Reads start an informer."'}, "summary: expected one line without a trailing period"),
        ({"summary": '""'}, "summary: expected one line without a trailing period"),
        ({"summary": '"""one\ntwo"""'}, "summary: expected one line without a trailing period"),
        ({"languages": '["rust"]'}, "languages: expected a non-empty list of go, python"),
        ({"languages": '["go", "rust"]'}, "languages: expected a non-empty list of go, python"),
        ({"languages": "[]"}, "languages: expected a non-empty list of go, python"),
        ({"languages": '"go"'}, "languages: expected a non-empty list of go, python"),
        ({"tags": '"memory"'}, "tags: expected a list of strings"),
        ({"tags": "[1]"}, "tags: expected a list of strings"),
    ],
    ids=[
        "level-unknown",
        "level-capitalised",
        "level-integer",
        "fix-unknown",
        "fix_safety-unknown",
        "status-unknown",
        "since-float",
        "code-integer",
        "code-two-digits",
        "code-lower-case",
        "code-wrong-prefix",
        "code-not-the-file-name",
        "name-snake-case",
        "name-capitalised",
        "name-one-word",
        "name-double-dash",
        "name-leading-dash",
        "summary-trailing-period",
        "summary-empty",
        "summary-two-lines",
        "languages-unknown",
        "languages-one-unknown",
        "languages-empty",
        "languages-string",
        "tags-string",
        "tags-integers",
    ],
)
def test_parse_rule_rejects_a_bad_value(front: dict[str, str | None], message: str) -> None:
    with pytest.raises(CatalogError) as caught:
        parse_rule(rule_text(front), RULE_PATH)
    assert str(caught.value) == f"WL002.md: {message}"


def test_parse_rule_rejects_unhashable_languages() -> None:
    with pytest.raises(CatalogError) as caught:
        parse_rule(rule_text({"languages": '[["go"]]'}), RULE_PATH)
    assert str(caught.value) == "WL002.md: languages: expected a non-empty list of go, python"


def test_parse_rule_names_the_file_by_its_path() -> None:
    path = Path("rules") / "WL002.md"
    with pytest.raises(CatalogError) as caught:
        parse_rule(rule_text({"level": '"loud"'}), path)
    assert str(caught.value) == f"{path}: level: expected one of error, note, warning"


@pytest.mark.parametrize("title", list(SECTIONS), ids=str)
def test_parse_rule_rejects_a_missing_section(title: str) -> None:
    sections = without(title)
    if title == "Example":  # keep the examples, under another heading, so only the section is missing
        sections["Why is this bad?"] += "\n" + SECTIONS["Example"]
    with pytest.raises(CatalogError) as caught:
        parse_rule(rule_text(sections=sections), RULE_PATH)
    assert str(caught.value) == f"WL002.md: missing section ## {title}"


@pytest.mark.parametrize(
    "order",
    [
        ["Why is this bad?", "What it does", "Example", "Fix safety", "Suppression", "References"],
        ["What it does", "Why is this bad?", "Example", "Suppression", "Fix safety", "References"],
        ["References", "What it does", "Why is this bad?", "Example", "Fix safety", "Suppression"],
    ],
    ids=["first-two-swapped", "fix-safety-after-suppression", "references-first"],
)
def test_parse_rule_rejects_sections_out_of_order(order: list[str]) -> None:
    with pytest.raises(CatalogError) as caught:
        parse_rule(rule_text(sections={title: SECTIONS[title] for title in order}), RULE_PATH)
    assert str(caught.value) == f"WL002.md: sections must be in the order {SECTION_ORDER}"


def test_parse_rule_rejects_a_repeated_section() -> None:
    text = rule_text() + "## What it does\nAgain.\n"
    with pytest.raises(CatalogError) as caught:
        parse_rule(text, RULE_PATH)
    assert str(caught.value) == f"WL002.md: sections must be in the order {SECTION_ORDER}"


def test_parse_rule_ignores_a_heading_inside_a_fenced_block_for_the_order() -> None:
    sections = dict(SECTIONS)
    sections["What it does"] += "\n```text\n## References\n## Example\n```"
    rule = parse_rule(rule_text(sections=sections), RULE_PATH)
    assert rule.code == "WL002"


def test_parse_rule_does_not_count_a_heading_inside_a_fenced_block_as_a_section() -> None:
    sections = without("Fix safety")
    sections["Example"] += "\n```go good\n## Fix safety\n```"
    with pytest.raises(CatalogError) as caught:
        parse_rule(rule_text(sections=sections), RULE_PATH)
    assert str(caught.value) == "WL002.md: missing section ## Fix safety"


def test_parse_rule_accepts_a_level_three_heading_as_part_of_a_section() -> None:
    sections = dict(SECTIONS)
    sections["What it does"] += "\n### kopf\nHandlers too."
    rule = parse_rule(rule_text(sections=sections), RULE_PATH)
    assert "### kopf\nHandlers too." in rule.body


@pytest.mark.parametrize(
    ("languages", "example", "message"),
    [
        ('["go", "python"]', SECTIONS["Example"], "Example: no ```python bad block"),
        ('["go"]', "```go bad\npackage bad\n```", "Example: no ```go good block"),
        ('["go"]', "```go good\npackage good\n```", "Example: no ```go bad block"),
        ('["python"]', SECTIONS["Example"], "Example: no ```python bad block"),
        ('["go"]', "```go\npackage bad\n```\n```go\npackage good\n```", "Example: no ```go bad block"),
        ('["go"]', "```go bad\npackage bad\n```\n```rust good\nfn main() {}\n```", "Example: unknown language 'rust'"),
    ],
    ids=[
        "python-listed-no-python-block",
        "go-good-missing",
        "go-bad-missing",
        "only-other-language-blocks",
        "blocks-without-bad-good",
        "unknown-example-language",
    ],
)
def test_parse_rule_rejects_missing_or_unknown_examples(languages: str, example: str, message: str) -> None:
    sections = {**SECTIONS, "Example": example}
    with pytest.raises(CatalogError) as caught:
        parse_rule(rule_text({"languages": languages}, sections), RULE_PATH)
    assert str(caught.value) == f"WL002.md: {message}"


def test_parse_rule_accepts_a_removed_rule_without_examples() -> None:
    sections = {**SECTIONS, "Example": "None: this rule was removed."}
    rule = parse_rule(rule_text({"status": '"removed"'}, sections), RULE_PATH)
    assert (rule.status, rule.examples) == ("removed", ())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (rule_text().replace("+++\n## What it does", "## What it does", 1), "front matter is not closed with +++"),
        (rule_text().removeprefix("+++\n"), "must start with +++ front matter"),
        ("", "must start with +++ front matter"),
        ("\n" + rule_text(), "must start with +++ front matter"),
    ],
    ids=["not-closed", "not-opened", "empty-file", "blank-line-first"],
)
def test_parse_rule_rejects_broken_front_matter_fences(text: str, message: str) -> None:
    with pytest.raises(CatalogError) as caught:
        parse_rule(text, RULE_PATH)
    assert str(caught.value) == f"WL002.md: {message}"


def test_parse_rule_rejects_front_matter_that_is_not_toml() -> None:
    with pytest.raises(CatalogError) as caught:
        parse_rule(rule_text({"level": "warning"}), RULE_PATH)
    assert str(caught.value).startswith("WL002.md: front matter: ")


# --- parse_kind ------------------------------------------------------------------------------------------------


def test_parse_kind_accepts_a_kind_without_fragments() -> None:
    kind = parse_kind(kind_entry(python_fragments=[]), "kinds.toml: kind[0]")
    assert (kind.name, kind.group, kind.version, kind.plural, kind.namespaced) == ("Secret", "", "v1", "secrets", True)
    assert (kind.go_packages, kind.go_types, kind.python_names, kind.python_fragments) == (
        ("k8s.io/api/core/v1",),
        ("Secret", "SecretList"),
        ("secrets", "secret"),
        (),
    )


def test_parse_kind_reads_the_optional_field_selectors() -> None:
    assert parse_kind(kind_entry(), "kinds.toml: kind[0]").field_selectors == ()
    kind = parse_kind(kind_entry(field_selectors=["type"]), "kinds.toml: kind[0]")
    assert kind.field_selectors == ("type",)
    assert kind.served_fields == {"metadata.name", "metadata.namespace", "type"}


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (kind_entry(field_selectors="type"), "field_selectors: expected a list of non-empty strings"),
        (kind_entry(plural=None), "plural: missing key"),
        (kind_entry(namespaced=None), "namespaced: missing key"),
        (kind_entry(python_fragments=None), "python_fragments: missing key"),
        (kind_entry(shortNames=["sec"]), "shortNames: unknown key"),
        (kind_entry(name=1), "name: expected a string"),
        (kind_entry(group=["core"]), "group: expected a string"),
        (kind_entry(version=1), "version: expected a string"),
        (kind_entry(name=""), "name, version and plural must not be empty"),
        (kind_entry(version=""), "name, version and plural must not be empty"),
        (kind_entry(plural=""), "name, version and plural must not be empty"),
        (kind_entry(namespaced="yes"), "namespaced: expected true or false"),
        (kind_entry(namespaced=1), "namespaced: expected true or false"),
        (kind_entry(go_packages="k8s.io/api/core/v1"), "go_packages: expected a list of non-empty strings"),
        (kind_entry(go_types=["Secret", ""]), "go_types: expected a list of non-empty strings"),
        (kind_entry(python_names=[1]), "python_names: expected a list of non-empty strings"),
        (kind_entry(python_fragments="secret"), "python_fragments: expected a list of non-empty strings"),
        (kind_entry(go_packages=[]), "go_packages: a kind needs its Go and Python names"),
        (kind_entry(go_types=[]), "go_types: a kind needs its Go and Python names"),
        (kind_entry(python_names=[]), "python_names: a kind needs its Go and Python names"),
        ("Secret", "expected a table"),
    ],
    ids=[
        "field_selectors-string",
        "missing-plural",
        "missing-namespaced",
        "missing-python_fragments",
        "unknown-key",
        "name-integer",
        "group-list",
        "version-integer",
        "name-empty",
        "version-empty",
        "plural-empty",
        "namespaced-string",
        "namespaced-integer",
        "go_packages-string",
        "go_types-empty-item",
        "python_names-integer-item",
        "python_fragments-string",
        "go_packages-empty",
        "go_types-empty",
        "python_names-empty",
        "not-a-table",
    ],
)
def test_parse_kind_rejects(entry: Any, message: str) -> None:
    with pytest.raises(CatalogError) as caught:
        parse_kind(entry, "kinds.toml: kind[3]")
    assert str(caught.value) == f"kinds.toml: kind[3]: {message}"


# --- load_catalog ----------------------------------------------------------------------------------------------


@pytest.fixture
def rules_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "rules"
    shutil.copytree(RULES, copy)
    return copy


def test_load_catalog_reads_a_copy_of_the_rules(rules_copy: Path, catalog: Catalog) -> None:
    copied = load_catalog(rules_copy)
    assert [rule.code for rule in copied.rules] == [rule.code for rule in catalog.rules]
    assert [rule.body for rule in copied.rules] == [rule.body for rule in catalog.rules]
    assert copied.kinds == catalog.kinds


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('level = "note"', 'level = "loud"', "level: expected one of error, note, warning"),
        ("## Fix safety", "## Fixes", "missing section ## Fix safety"),
        ("```python good", "```python", "Example: no ```python good block"),
        ('code = "WL004"', 'code = "WL040"', "code: expected WL plus three digits, equal to the file name WL004"),
    ],
    ids=["bad-level", "renamed-section", "example-label-dropped", "code-mismatch"],
)
def test_load_catalog_rejects_a_broken_rule_file(rules_copy: Path, old: str, new: str, message: str) -> None:
    path = rules_copy / "WL004.md"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(CatalogError) as caught:
        load_catalog(rules_copy)
    assert str(caught.value) == f"{path}: {message}"


def test_load_catalog_rejects_a_rule_file_named_after_another_code(rules_copy: Path) -> None:
    (rules_copy / "WL001.md").rename(rules_copy / "WL009.md")
    with pytest.raises(CatalogError) as caught:
        load_catalog(rules_copy)
    assert str(caught.value) == (
        f"{rules_copy / 'WL009.md'}: code: expected WL plus three digits, equal to the file name WL009"
    )


def test_load_catalog_rejects_a_broken_kind(rules_copy: Path) -> None:
    path = rules_copy / "kinds.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('python_names = ["pods", "pod", "po"]', "python_names = []", 1), encoding="utf-8")
    with pytest.raises(CatalogError) as caught:
        load_catalog(rules_copy)
    assert str(caught.value) == f"{path}: kind[2]: python_names: a kind needs its Go and Python names"


@pytest.mark.parametrize(
    "content",
    ["", 'name = "Secret"\n', "[[kind]]\n" + 'name = "Secret"\n' * 2, '[[kinds]]\nname = "Secret"\n'],
    ids=["empty", "no-kind-table", "invalid-toml", "wrong-table-name"],
)
def test_load_catalog_rejects_a_broken_kinds_file(rules_copy: Path, content: str) -> None:
    path = rules_copy / "kinds.toml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CatalogError) as caught:
        load_catalog(rules_copy)
    assert str(caught.value).startswith(f"{path}: ")


def test_load_catalog_rejects_a_missing_kinds_file(rules_copy: Path) -> None:
    path = rules_copy / "kinds.toml"
    path.unlink()
    with pytest.raises(CatalogError) as caught:
        load_catalog(rules_copy)
    assert str(caught.value).startswith(f"{path}: ")


def test_load_catalog_rejects_an_empty_directory(tmp_path: Path) -> None:
    with pytest.raises(CatalogError) as caught:
        load_catalog(tmp_path)
    assert str(caught.value) == f"{tmp_path}: no rule files (WL*.md)"


def test_load_catalog_rejects_a_missing_directory(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    with pytest.raises(CatalogError) as caught:
        load_catalog(missing)
    assert str(caught.value) == f"{missing}: rule catalogue not found"
