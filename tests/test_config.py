"""Unit tests of watchlint/config.py: finding and loading config files, their errors, settings and exclude globs."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import CliResult, write_tree

from watchlint.catalog import Catalog, Kind
from watchlint.config import (
    CONFIG_KEYS,
    CommandLine,
    ConfigError,
    ExcludePattern,
    FileConfig,
    find_config,
    load_config,
    resolve_settings,
)
from watchlint.findings import Level
from watchlint.source import display_path

WITH_SECTION = '[tool.watchlint]\nselect = ["WL001"]\n'
WITHOUT_SECTION = '[project]\nname = "operator"\n\n[tool.ruff]\nline-length = 100\n'
KNOWN_KEYS = ", ".join(CONFIG_KEYS)
EXTRA_KIND = """\
[[extra-kinds]]
name = "Widget"
group = "example.com"
version = "v1alpha1"
plural = "widgets"
namespaced = true
go_packages = ["example.com/api/v1alpha1"]
go_types = ["Widget", "WidgetList"]
python_names = ["widgets", "widget", "wd"]
python_fragments = []
"""
ALL_CODES = frozenset({"WL001", "WL002", "WL003", "WL004", "WL005"})


def extra_kind_with(replace: dict[str, str]) -> str:
    """The EXTRA_KIND entry with some `key = value` lines replaced (an empty value drops the line)."""
    lines = []
    for line in EXTRA_KIND.splitlines():
        key = line.split(" = ")[0]
        if key in replace:
            if replace[key]:
                lines.append(f"{key} = {replace[key]}")
        else:
            lines.append(line)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (
            {".watchlint.toml": "", "watchlint.toml": "", "pyproject.toml": WITH_SECTION},
            ".watchlint.toml",
        ),
        ({"watchlint.toml": "", "pyproject.toml": WITH_SECTION}, "watchlint.toml"),
        ({"pyproject.toml": WITH_SECTION}, "pyproject.toml"),
        ({"pyproject.toml": WITHOUT_SECTION, "watchlint.toml": ""}, "watchlint.toml"),
        ({"repo/pyproject.toml": WITHOUT_SECTION, "watchlint.toml": ""}, "watchlint.toml"),
        ({"repo/pyproject.toml": WITHOUT_SECTION, "pyproject.toml": WITH_SECTION}, "pyproject.toml"),
        ({"repo/watchlint.toml": "", ".watchlint.toml": ""}, "repo/watchlint.toml"),
        ({"repo/pkg/pyproject.toml": WITH_SECTION, "repo/.watchlint.toml": ""}, "repo/pkg/pyproject.toml"),
        ({"repo/pyproject.toml": "[tool.watchlint]\n", ".watchlint.toml": ""}, "repo/pyproject.toml"),
        ({"repo/pyproject.toml": "[tool.watchlint\n", ".watchlint.toml": ""}, "repo/pyproject.toml"),
        ({"repo/pyproject.toml": 'version = "{{version}}"\n[tool\n', ".watchlint.toml": ""}, ".watchlint.toml"),
    ],
    ids=[
        "dot-file-beats-all",
        "plain-beats-pyproject",
        "pyproject-with-section",
        "pyproject-without-section-skipped-in-folder",
        "pyproject-without-section-skipped-upward",
        "pyproject-upward",
        "nearest-folder-wins",
        "nearer-pyproject-beats-parent",
        "empty-section-counts",
        "broken-pyproject-naming-watchlint-is-not-skipped",
        "broken-pyproject-naming-it-nowhere-is-skipped",
    ],
)
def test_find_config_walks_up_to_the_nearest_file(tmp_path: Path, files: dict[str, str], expected: str) -> None:
    write_tree(tmp_path, {"repo/pkg/keep.txt": "", **files})
    assert find_config(tmp_path / "repo" / "pkg") == (tmp_path / expected).resolve()


def test_find_config_from_a_file_starts_in_its_folder(tmp_path: Path) -> None:
    write_tree(tmp_path, {"repo/main.go": "package main\n", "repo/watchlint.toml": "", ".watchlint.toml": ""})
    assert find_config(tmp_path / "repo" / "main.go") == (tmp_path / "repo" / "watchlint.toml").resolve()


def test_find_config_without_any_file_is_none(tmp_path: Path) -> None:
    write_tree(tmp_path, {"repo/pyproject.toml": WITHOUT_SECTION, "repo/setup.cfg": ""})
    assert find_config(tmp_path / "repo") is None


def test_find_config_does_not_parse_a_pyproject_that_names_watchlint_nowhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Most projects' pyproject.toml configure other tools only: a byte search rules them out, so that a tree of
    many Python projects parses none of their TOML to find its configuration."""
    write_tree(tmp_path, {"repo/pyproject.toml": WITHOUT_SECTION, ".watchlint.toml": ""})

    def parsed(*_: object) -> object:
        raise AssertionError("a pyproject.toml naming watchlint nowhere was parsed")

    monkeypatch.setattr(tomllib, "loads", parsed)
    assert find_config(tmp_path / "repo") == (tmp_path / ".watchlint.toml").resolve()


def test_find_config_skips_a_pyproject_whose_tool_is_not_a_table(tmp_path: Path) -> None:
    write_tree(tmp_path, {"repo/pyproject.toml": "tool = 1\n", ".watchlint.toml": ""})
    assert find_config(tmp_path / "repo") == (tmp_path / ".watchlint.toml").resolve()


def test_load_config_pyproject_whose_tool_is_not_a_table_is_a_config_error(tmp_path: Path, catalog: Catalog) -> None:
    path = tmp_path / "pyproject.toml"
    path.write_text('tool = "watchlint"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_config(path, catalog)
    assert str(raised.value).startswith(f"{display_path(path)}: tool")


def load(tmp_path: Path, catalog: Catalog, text: str, name: str = ".watchlint.toml") -> FileConfig:
    write_tree(tmp_path, {name: text})
    return load_config(tmp_path / name, catalog)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('select = ["WL001", "implicit-informer-read"]', frozenset({"WL001", "WL002"})),
        ('select = ["wl003"]', frozenset({"WL003"})),
        ("select = []", frozenset()),
    ],
    ids=["code-and-name", "lower-case-code", "empty"],
)
def test_load_config_select(tmp_path: Path, catalog: Catalog, text: str, expected: frozenset[str]) -> None:
    assert load(tmp_path, catalog, text).select == expected


def test_load_config_without_select_selects_nothing_in_particular(tmp_path: Path, catalog: Catalog) -> None:
    config = load(tmp_path, catalog, "")
    assert config == FileConfig(path=tmp_path / ".watchlint.toml")
    assert (config.select, config.ignore, config.include_tests) == (None, frozenset(), None)


def test_load_config_ignore_accepts_codes_and_rule_names(tmp_path: Path, catalog: Catalog) -> None:
    config = load(tmp_path, catalog, 'ignore = ["unfiltered-watch", "WL004", "duplicate-cache"]')
    assert config.ignore == frozenset({"WL001", "WL004", "WL005"})


def test_load_config_exclude_is_relative_to_the_config_folder(tmp_path: Path, catalog: Catalog) -> None:
    config = load(tmp_path, catalog, 'exclude = ["generated", "internal/gen/*"]', name="repo/.watchlint.toml")
    base = (tmp_path / "repo").resolve()
    assert config.exclude == (ExcludePattern("generated", base), ExcludePattern("internal/gen/*", base))


def test_load_config_extra_kinds_use_the_catalogue_fields(tmp_path: Path, catalog: Catalog) -> None:
    config = load(tmp_path, catalog, EXTRA_KIND)
    assert config.extra_kinds == (
        Kind(
            name="Widget",
            group="example.com",
            version="v1alpha1",
            plural="widgets",
            namespaced=True,
            go_packages=("example.com/api/v1alpha1",),
            go_types=("Widget", "WidgetList"),
            python_names=("widgets", "widget", "wd"),
            python_fragments=(),
        ),
    )


def test_load_config_level_table_by_code_and_name(tmp_path: Path, catalog: Catalog) -> None:
    config = load(tmp_path, catalog, '[level]\nWL001 = "error"\nunfiltered-cluster-list = "warning"\n')
    assert config.levels == {"WL001": Level.ERROR, "WL004": Level.WARNING}


@pytest.mark.parametrize(("value", "expected"), [("true", True), ("false", False)], ids=["true", "false"])
def test_load_config_include_tests(tmp_path: Path, catalog: Catalog, value: str, expected: bool) -> None:
    assert load(tmp_path, catalog, f"include-tests = {value}").include_tests is expected


def test_load_config_reads_the_tool_section_of_pyproject(tmp_path: Path, catalog: Catalog) -> None:
    text = '[project]\nname = "x"\n\n[tool.watchlint]\nignore = ["WL002"]\ninclude-tests = true\n'
    config = load(tmp_path, catalog, text, name="pyproject.toml")
    assert (config.select, config.ignore, config.include_tests) == (None, frozenset({"WL002"}), True)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("colour = 1", f"colour: unknown key (known keys: {KNOWN_KEYS})"),
        ("include_tests = true", f"include_tests: unknown key (known keys: {KNOWN_KEYS})"),
        ('select = "WL001"', "select: expected a list of strings"),
        ("select = [1]", "select: expected a list of strings"),
        ('ignore = "WL001"', "ignore: expected a list of strings"),
        ('ignore = ["WL001", 2]', "ignore: expected a list of strings"),
        ('exclude = "vendor"', "exclude: expected a list of strings"),
        ("exclude = [true]", "exclude: expected a list of strings"),
        ('include-tests = "yes"', "include-tests: expected true or false"),
        ("include-tests = 1", "include-tests: expected true or false"),
        ('level = "error"', 'level: expected a table of code = "error" | "warning" | "note"'),
        ('level = ["error"]', 'level: expected a table of code = "error" | "warning" | "note"'),
        ('[level]\nWL001 = "fatal"', 'level.WL001: expected "error", "warning" or "note"'),
        ('[level]\nWL001 = "Error"', 'level.WL001: expected "error", "warning" or "note"'),
        ("[level]\nWL001 = 3", 'level.WL001: expected "error", "warning" or "note"'),
        ('[level]\nWL999 = "error"', "level: 'WL999' is not a rule code or name (see `watchlint rules`)"),
        ('select = ["WL999"]', "select: 'WL999' is not a rule code or name (see `watchlint rules`)"),
        ('select = ["WL00"]', "select: 'WL00' is not a rule code or name (see `watchlint rules`)"),
        ('ignore = ["use-by-object"]', "ignore: 'use-by-object' is not a rule code or name (see `watchlint rules`)"),
        ('[extra-kinds]\nname = "Widget"', "extra-kinds: expected an array of tables ([[extra-kinds]])"),
        ("extra-kinds = [1]", "extra-kinds[0]: expected a table"),
        (extra_kind_with({"plural": ""}), "extra-kinds[0]: plural: missing key"),
        (extra_kind_with({"python_fragments": ""}), "extra-kinds[0]: python_fragments: missing key"),
        (EXTRA_KIND + 'colour = "blue"\n', "extra-kinds[0]: colour: unknown key"),
        (extra_kind_with({"name": "1"}), "extra-kinds[0]: name: expected a string"),
        (extra_kind_with({"name": '""'}), "extra-kinds[0]: name, version and plural must not be empty"),
        (extra_kind_with({"namespaced": '"yes"'}), "extra-kinds[0]: namespaced: expected true or false"),
        (extra_kind_with({"go_types": '"Widget"'}), "extra-kinds[0]: go_types: expected a list of non-empty strings"),
        (extra_kind_with({"go_packages": "[]"}), "extra-kinds[0]: go_packages: a kind needs its Go and Python names"),
        (extra_kind_with({"go_types": "[]"}), "extra-kinds[0]: go_types: a kind needs its Go and Python names"),
        (
            extra_kind_with({"python_names": "[]"}),
            "extra-kinds[0]: python_names: a kind needs its Go and Python names",
        ),
        (EXTRA_KIND + extra_kind_with({"plural": ""}), "extra-kinds[1]: plural: missing key"),
        (extra_kind_with({"name": '"Secret"'}), "extra-kinds: Secret is already a built-in kind"),
        (extra_kind_with({"name": '"ConfigMap"'}), "extra-kinds: ConfigMap is already a built-in kind"),
    ],
    ids=[
        "unknown-key",
        "underscore-key",
        "select-string",
        "select-int-item",
        "ignore-string",
        "ignore-int-item",
        "exclude-string",
        "exclude-bool-item",
        "include-tests-string",
        "include-tests-int",
        "level-string",
        "level-array",
        "level-unknown-value",
        "level-capitalised-value",
        "level-int-value",
        "level-unknown-code",
        "select-unknown-code",
        "select-code-prefix",
        "ignore-unknown-name",
        "extra-kinds-table",
        "extra-kinds-int-item",
        "extra-kind-missing-field",
        "extra-kind-missing-fragments",
        "extra-kind-unknown-field",
        "extra-kind-name-not-string",
        "extra-kind-empty-name",
        "extra-kind-namespaced-string",
        "extra-kind-list-not-array",
        "extra-kind-no-go-packages",
        "extra-kind-no-go-types",
        "extra-kind-no-python-names",
        "second-extra-kind-named-by-index",
        "extra-kind-duplicates-secret",
        "extra-kind-duplicates-configmap",
    ],
)
def test_load_config_errors_name_file_key_and_problem(
    tmp_path: Path, catalog: Catalog, text: str, problem: str
) -> None:
    path = tmp_path / ".watchlint.toml"
    path.write_text(text + "\n", encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_config(path, catalog)
    assert str(raised.value) == f"{display_path(path)}: {problem}"


@pytest.mark.parametrize("value", ['["error"]', '{ severity = "error" }'], ids=["array", "table"])
def test_load_config_level_with_unhashable_value_is_a_config_error(
    tmp_path: Path, catalog: Catalog, value: str
) -> None:
    path = tmp_path / ".watchlint.toml"
    path.write_text(f"[level]\nWL001 = {value}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_config(path, catalog)
    assert str(raised.value) == f'{display_path(path)}: level.WL001: expected "error", "warning" or "note"'


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[tool]\nwatchlint = 1\n", "tool.watchlint: expected a table"),
        ('[tool.watchlint]\nselect = "WL001"\n', "select: expected a list of strings"),
        ("[tool.watchlint]\nfoo = 1\n", f"foo: unknown key (known keys: {KNOWN_KEYS})"),
    ],
    ids=["section-not-table", "wrong-type", "unknown-key"],
)
def test_load_config_errors_in_pyproject(tmp_path: Path, catalog: Catalog, text: str, problem: str) -> None:
    path = tmp_path / "pyproject.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_config(path, catalog)
    assert str(raised.value) == f"{display_path(path)}: {problem}"


@pytest.mark.parametrize(
    "text", ["select = [\n", "select = WL001\n", "[level]\n[level]\n"], ids=["unclosed", "bare-word", "dup-table"]
)
def test_load_config_invalid_toml(tmp_path: Path, catalog: Catalog, text: str) -> None:
    path = tmp_path / "watchlint.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(tomllib.TOMLDecodeError) as parsed:
        tomllib.loads(text)
    with pytest.raises(ConfigError) as raised:
        load_config(path, catalog)
    assert str(raised.value) == f"{display_path(path)}: invalid TOML: {parsed.value}"


def test_load_config_not_utf8_is_a_config_error(tmp_path: Path, catalog: Catalog) -> None:
    path = tmp_path / "watchlint.toml"
    path.write_bytes(b'select = ["WL001"] # caf\xe9\n')
    with pytest.raises(ConfigError) as raised:
        load_config(path, catalog)
    assert str(raised.value).startswith(f"{display_path(path)}: cannot read: ")


def test_resolve_settings_defaults_to_every_rule_at_its_catalogue_level(catalog: Catalog) -> None:
    settings = resolve_settings(None, CommandLine(), catalog)
    assert settings.codes == ALL_CODES
    assert settings.levels == {
        "WL001": Level.WARNING,
        "WL002": Level.WARNING,
        "WL003": Level.WARNING,
        "WL004": Level.NOTE,
        "WL005": Level.WARNING,
    }
    assert (settings.exclude, settings.extra_kinds, settings.include_tests, settings.config_path) == (
        (),
        (),
        False,
        None,
    )


@pytest.mark.parametrize(
    ("config_select", "config_ignore", "command_line", "expected"),
    [
        (None, frozenset(), CommandLine(), ALL_CODES),
        (frozenset({"WL001", "WL002"}), frozenset(), CommandLine(), frozenset({"WL001", "WL002"})),
        (frozenset({"WL001", "WL002"}), frozenset(), CommandLine(select=("WL003",)), frozenset({"WL003"})),
        (None, frozenset(), CommandLine(select=("predicate-only-filter", "WL004")), frozenset({"WL003", "WL004"})),
        (None, frozenset({"WL001"}), CommandLine(ignore=("WL002",)), frozenset({"WL003", "WL004", "WL005"})),
        (
            frozenset({"WL001", "WL002"}),
            frozenset({"WL002"}),
            CommandLine(select=("WL001", "WL002", "WL003")),
            frozenset({"WL001", "WL003"}),
        ),
        (None, frozenset(), CommandLine(ignore=("unfiltered-watch",)), frozenset({"WL002", "WL003", "WL004", "WL005"})),
    ],
    ids=[
        "all-by-default",
        "config-select",
        "cli-select-replaces-config-select",
        "cli-select-by-name",
        "cli-ignore-extends-config-ignore",
        "config-ignore-applies-to-cli-select",
        "cli-ignore-by-name",
    ],
)
def test_resolve_settings_codes(
    tmp_path: Path,
    catalog: Catalog,
    config_select: frozenset[str] | None,
    config_ignore: frozenset[str],
    command_line: CommandLine,
    expected: frozenset[str],
) -> None:
    config = FileConfig(path=tmp_path / ".watchlint.toml", select=config_select, ignore=config_ignore)
    assert resolve_settings(config, command_line, catalog).codes == expected


def test_resolve_settings_config_levels_override_catalogue_levels(tmp_path: Path, catalog: Catalog) -> None:
    config = FileConfig(path=tmp_path / "w.toml", levels={"WL004": Level.ERROR, "WL001": Level.NOTE})
    levels = resolve_settings(config, CommandLine(), catalog).levels
    assert (levels["WL001"], levels["WL002"], levels["WL004"]) == (Level.NOTE, Level.WARNING, Level.ERROR)


@pytest.mark.parametrize(
    ("config_value", "cli_value", "expected"),
    [(None, False, False), (True, False, True), (False, True, True), (None, True, True), (False, False, False)],
    ids=["neither", "config", "cli-over-config-false", "cli", "config-false"],
)
def test_resolve_settings_include_tests(
    tmp_path: Path, catalog: Catalog, config_value: bool | None, cli_value: bool, expected: bool
) -> None:
    config = FileConfig(path=tmp_path / "w.toml", include_tests=config_value)
    assert resolve_settings(config, CommandLine(include_tests=cli_value), catalog).include_tests is expected


def test_resolve_settings_cli_excludes_are_relative_to_the_working_directory(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    from_config = ExcludePattern("generated", tmp_path / "repo")
    config = FileConfig(path=tmp_path / "repo" / "w.toml", exclude=(from_config,))
    settings = resolve_settings(config, CommandLine(exclude=("cmd/*",)), catalog)
    assert settings.exclude == (from_config, ExcludePattern("cmd/*", tmp_path.resolve()))
    assert settings.config_path == tmp_path / "repo" / "w.toml"


@pytest.mark.parametrize(
    ("command_line", "message"),
    [
        (CommandLine(select=("WL999",)), "--select: 'WL999' is not a rule code or name (see `watchlint rules`)"),
        (CommandLine(ignore=("nope",)), "--ignore: 'nope' is not a rule code or name (see `watchlint rules`)"),
    ],
    ids=["select", "ignore"],
)
def test_resolve_settings_unknown_cli_code(catalog: Catalog, command_line: CommandLine, message: str) -> None:
    with pytest.raises(ConfigError) as raised:
        resolve_settings(None, command_line, catalog)
    assert str(raised.value) == message


@pytest.mark.parametrize(
    ("pattern", "relative", "expected"),
    [
        ("generated", "generated/types.go", True),
        ("generated", "api/v1/generated/types.go", True),
        ("generated", "generated", True),
        ("generated", "api/generated.go", False),
        ("generated", "generatedx/types.go", False),
        ("*.pb.go", "types.pb.go", True),
        ("*.pb.go", "api/v1/types.pb.go", True),
        ("*.pb.go", "api/v1/types.go", False),
        ("zz_*", "api/zz_generated.deepcopy.go", True),
        ("internal/gen/*", "internal/gen/client.go", True),
        ("internal/gen/*", "internal/gen/sub/client.go", True),
        ("internal/gen/*", "internal/generated/client.go", False),
        ("internal/gen/*", "other/internal/gen/client.go", False),
        ("./cmd", "cmd/main.go", True),
        ("./cmd", "cmd", True),
        ("./cmd", "tools/cmd/main.go", False),
        ("./cmd", "cmdline/main.go", False),
        ("internal/gen/", "internal/gen/client.go", True),
    ],
    ids=[
        "name-at-top",
        "name-at-depth",
        "name-is-the-folder",
        "name-not-a-file-prefix",
        "name-not-a-prefix",
        "suffix-glob-at-top",
        "suffix-glob-at-depth",
        "suffix-glob-no-match",
        "prefix-glob",
        "path-glob",
        "path-glob-below",
        "path-glob-other-folder",
        "path-glob-anchored-at-base",
        "dot-slash-folder-file",
        "dot-slash-folder-itself",
        "dot-slash-anchored",
        "dot-slash-whole-name",
        "trailing-slash-path",
    ],
)
def test_exclude_pattern_matches_relative_to_its_base(
    tmp_path: Path, pattern: str, relative: str, expected: bool
) -> None:
    base = tmp_path / "repo"
    assert ExcludePattern(pattern, base).matches(base / relative) is expected


@pytest.mark.parametrize("pattern", ["generated", "*.go", "internal/gen/*", "./cmd"], ids=str)
def test_exclude_pattern_never_matches_outside_its_base(tmp_path: Path, pattern: str) -> None:
    outside = {
        "generated": "other/generated/x.go",
        "*.go": "other/x.go",
        "internal/gen/*": "other/internal/gen/x.go",
        "./cmd": "other/cmd/main.go",
    }[pattern]
    assert ExcludePattern(pattern, tmp_path / "repo").matches(tmp_path / outside) is False


def test_exclude_pattern_does_not_match_its_own_base(tmp_path: Path) -> None:
    assert ExcludePattern("repo", tmp_path / "repo").matches(tmp_path / "repo") is False


def test_exclude_pattern_matches_a_linked_file_by_its_own_name(tmp_path: Path) -> None:
    base = tmp_path / "repo"
    (base / "pkg").mkdir(parents=True)
    (base / "pkg" / "real.go").write_text("package pkg\n", encoding="utf-8")
    (base / "pkg" / "client.gen.go").symlink_to("real.go")
    assert ExcludePattern("*.gen.go", base).matches(base / "pkg" / "client.gen.go") is True
    assert ExcludePattern("real.go", base).matches(base / "pkg" / "client.gen.go") is False


def test_exclude_pattern_follows_linked_folders_to_its_base(tmp_path: Path) -> None:
    base = tmp_path / "repo"
    (base / "gen").mkdir(parents=True)
    (tmp_path / "alias").symlink_to(base)  # the same tree reached through a link
    assert ExcludePattern("gen/*", base).matches(tmp_path / "alias" / "gen" / "x.go") is True


@pytest.mark.parametrize(
    ("config", "problem"),
    [
        ('select = "WL001"\n', "select: expected a list of strings"),
        ('[level]\nWL002 = "loud"\n', 'level.WL002: expected "error", "warning" or "note"'),
        ("surprise = true\n", f"surprise: unknown key (known keys: {KNOWN_KEYS})"),
    ],
    ids=["wrong-type", "unknown-level", "unknown-key"],
)
def test_cli_broken_config_exits_2_with_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    run_cli: Callable[..., CliResult],
    config: str,
    problem: str,
) -> None:
    write_tree(tmp_path, {"repo/.watchlint.toml": config, "repo/op.py": "x = 1\n"})
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", "repo")
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"error: repo/.watchlint.toml: {problem}\n")


def test_cli_broken_config_given_with_option(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_cli: Callable[..., CliResult]
) -> None:
    write_tree(tmp_path, {"ci.toml": "ignore = [1]\n", "repo/op.py": "x = 1\n"})
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", "--config", "ci.toml", "repo")
    expected = "error: ci.toml: ignore: expected a list of strings\n"
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", expected)


def test_cli_config_select_and_cli_select_resolve_to_a_clean_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_cli: Callable[..., CliResult]
) -> None:
    write_tree(tmp_path, {"repo/.watchlint.toml": 'select = ["WL001"]\n', "repo/op.py": "x = 1\n"})
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", "--select", "WL002,unfiltered-watch", "repo")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "No findings in 1 file.\n", "")


def test_cli_broken_config_in_a_folder_without_sources_still_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_cli: Callable[..., CliResult]
) -> None:
    write_tree(tmp_path, {"repo/.watchlint.toml": 'select = "WL001"\n'})
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", "repo")
    assert (result.exit_code, result.stderr) == (2, "error: repo/.watchlint.toml: select: expected a list of strings\n")


def test_load_config_reads_kopf_namespaced(tmp_path: Path, catalog: Catalog) -> None:
    path = tmp_path / ".watchlint.toml"
    path.write_text("kopf-namespaced = true\n", encoding="utf-8")
    config = load_config(path, catalog)
    assert config.kopf_namespaced is True
    assert resolve_settings(config, CommandLine(), catalog).kopf_namespaced is True


def test_kopf_namespaced_must_be_a_boolean(tmp_path: Path, catalog: Catalog) -> None:
    path = tmp_path / ".watchlint.toml"
    path.write_text('kopf-namespaced = "yes"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_config(path, catalog)
    assert str(raised.value).endswith(".watchlint.toml: kopf-namespaced: expected true or false")
