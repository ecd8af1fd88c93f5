"""The command line (watchlint/cli.py): every command, every option of `check`, and the exit codes 0, 1 and 2.

Tests that need findings of their own stand in for the front-ends at the check run's one collaborator,
`checkrun.plan`: the real engine run, plus hand-built sites judged by the real checks, settings and
suppressions (`engine.evaluate`), the way DESIGN §2.4 has check tests build facts by hand.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import tomllib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
import pytest
from conftest import REPO, CliResult, validate_sarif, write_tree

import watchlint
from watchlint import checkrun, config, engine
from watchlint.catalog import Catalog, KindIndex
from watchlint.config import CommandLine
from watchlint.facts import Access, Facts, Language, ObjectForm, Operation, Site
from watchlint.findings import Applicability, Edit, Finding, Fix, Level
from watchlint.frontend import file_failure
from watchlint.python.parser import extract_comments
from watchlint.source import Span, read_source

RunCli = Callable[..., CliResult]
InjectSites = Callable[..., None]

GO_FILE = "package main\n\nfunc main() {}\n"
BINARY_GO = b"package main\x00\n"
BINARY_NOTE = "error: bad.go: file is binary (contains NUL bytes)\n"
CONFIG_KEYS = ", ".join(config.CONFIG_KEYS)
CHECK_OPTIONS = (
    "--format",
    "--output",
    "--select",
    "--ignore",
    "--exclude",
    "--config",
    "--include-tests",
    "--show-suppressed",
    "--show-mitigated",
    "--no-color",
    "--quiet",
    "--verbose",
)
SPEC_RULES = [
    ("WL001", "unfiltered-watch", "warning"),
    ("WL002", "implicit-informer-read", "warning"),
    ("WL003", "predicate-only-filter", "warning"),
    ("WL004", "unfiltered-cluster-list", "note"),
    ("WL005", "duplicate-cache", "warning"),
]
HANDLERS = """\
import kopf


@kopf.on.event("", "v1", "secrets"){comment}
def on_secret(event, **_):
    pass
"""
WATCH_LINE = 4
FINDING_HEAD = 'handlers.py:4:2: WL001 `@kopf.on.event("", "v1", "secrets")` streams every Secret in the cluster'
KOPF_HELP = (
    "Scope the operator's namespaces in code (kopf.run(namespaces=[...])), or set kopf-namespaced = true "
    "in the watchlint config when `kopf run -n` scopes it"
)


def repository_url() -> str:
    """The [project.urls] Repository of pyproject.toml, the one place the URL is written."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return str(project["urls"]["Repository"])


def go_tree(root: Path) -> Path:
    """One Go file that parses and one that cannot be read (a per-file error notification)."""
    return write_tree(root, {"ok.go": GO_FILE, "bad.go": BINARY_GO})


def handlers(comment: str = "") -> str:
    return HANDLERS.format(comment=comment)


def secret_watch(kind: str = "Secret") -> Site:
    """What the Python front-end is to report for the decorator of HANDLERS (SPEC §3.2): a kopf watch."""
    return Site(
        operation=Operation.WATCH,
        access=Access.KOPF,
        kind=kind,
        form=ObjectForm.TYPED,
        span=Span("handlers.py", WATCH_LINE, 2, WATCH_LINE, 15),
        call="@kopf.on.event",
        construct='@kopf.on.event("", "v1", "secrets")',
        enclosing="on_secret",
    )


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    """`check` reconfigures the root logger (DEBUG with -v); keep that from leaking into other tests."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


@dataclass(frozen=True)
class Planned:
    """Stands for engine.plan's result: a report made on demand, and no key to reuse a rendered one by."""

    make: Callable[[], engine.Report]
    key: str | None = None

    def report(self, meanwhile: Callable[[], None] | None = None) -> engine.Report:
        return self.make()

    def unit_files(self) -> list[tuple[str, list[str]]]:
        return []  # no unit whose findings' blocks could be kept


@pytest.fixture
def inject_sites(monkeypatch: pytest.MonkeyPatch) -> InjectSites:
    """Run the real engine, then add hand-built sites of handlers.py judged by the real checks and suppressions."""

    def install(*sites: Site, failing_file: bool = False) -> None:
        def run_with_sites(
            paths: Sequence[Path], command_line: CommandLine, catalog: Catalog, options: object = None
        ) -> engine.Report:
            report = engine.run(paths, command_line, catalog)
            settings = engine.SettingsResolver(command_line, catalog).settings_for(Path.cwd())
            source = read_source(Path("handlers.py"), "handlers.py")
            facts = Facts(Language.PYTHON, ".", ("handlers.py",), sites, comments=extract_comments(source))
            kinds = KindIndex.build(catalog.kinds + settings.extra_kinds).names
            outcome = engine.evaluate(facts, settings, kinds, frozenset({"handlers.py"}))
            notifications = [*report.notifications, *outcome.notifications]
            if failing_file:  # a front-end's internal error on one file, as go/python.extract record it
                try:
                    raise RuntimeError("parser exploded")
                except RuntimeError:
                    notifications.append(file_failure(source))
            # The hand-built sites stand for what the Python front-end finds in handlers.py: keep only theirs.
            return engine.make_report(
                [*(f for f in report.findings if f.span.path != "handlers.py"), *outcome.findings],
                [*(m for m in report.mitigated if m.span.path != "handlers.py"), *outcome.mitigated],
                notifications,
                report.files_analyzed,
            )

        monkeypatch.setattr(checkrun, "plan", lambda *given, **named: Planned(lambda: run_with_sites(*given, **named)))

    return install


# --- the group: --version, --help ------------------------------------------------------------------------------


def test_version_prints_the_package_version(run_cli: RunCli) -> None:
    result = run_cli("--version")
    assert (result.exit_code, result.stdout, result.stderr) == (0, f"watchlint {watchlint.__version__}\n", "")
    assert watchlint.__version__ == "0.1.0"


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_lists_the_commands(run_cli: RunCli, flag: str) -> None:
    result = run_cli(flag)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.startswith("Usage: watchlint [OPTIONS] COMMAND [ARGS]...\n")
    commands = result.stdout.split("Commands:\n", 1)[1]
    assert [line.split()[0] for line in commands.splitlines()] == ["check", "inventory", "rule", "rules"]
    assert "--version" in result.stdout


def test_check_help_lists_every_option(run_cli: RunCli) -> None:
    result = run_cli("check", "--help")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.startswith("Usage: watchlint check [OPTIONS] [PATHS]...\n")
    assert [option for option in CHECK_OPTIONS if option not in result.stdout] == []
    assert "[text|json|sarif|github]" in result.stdout
    assert "-o, --output" in result.stdout
    assert "-q, --quiet" in result.stdout
    assert "-v, --verbose" in result.stdout


def test_no_command_is_a_usage_error(run_cli: RunCli) -> None:
    result = run_cli()
    assert result.exit_code == 2
    assert "Usage: watchlint [OPTIONS] COMMAND [ARGS]..." in result.stdout + result.stderr


def test_unknown_option_is_a_usage_error(run_cli: RunCli, tmp_path: Path) -> None:
    result = run_cli("check", "--colour", tmp_path)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("Usage: watchlint check [OPTIONS] [PATHS]...\n")
    assert "Error: No such option" in result.stderr
    assert "--colour" in result.stderr


# --- rules, rule -----------------------------------------------------------------------------------------------


def test_rules_lists_every_rule_with_name_and_level(run_cli: RunCli, catalog: Catalog) -> None:
    result = run_cli("rules")
    assert (result.exit_code, result.stderr) == (0, "")
    lines = result.stdout.splitlines()
    assert [line.split()[:3] for line in lines] == [list(row) for row in SPEC_RULES]
    assert [line.endswith(rule.summary) for line, rule in zip(lines, catalog.rules, strict=True)] == [True] * 5


@pytest.mark.parametrize("query", ["WL001", "unfiltered-watch", "wl001"], ids=["code", "name", "lower-case-code"])
def test_rule_prints_the_documentation(run_cli: RunCli, catalog: Catalog, query: str) -> None:
    rule = catalog.rule("WL001")
    assert rule is not None
    result = run_cli("rule", query)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines()[:4] == [
        "WL001 unfiltered-watch",
        f"{rule.summary}.",
        "level: warning · languages: go, python",
        "",
    ]
    assert "\nWHAT IT DOES\n" in result.stdout
    assert "\n## " not in result.stdout  # Markdown headings are rendered, not printed raw
    assert "\nBad (Go):\n    package controller\n" in result.stdout


@pytest.mark.parametrize("query", ["WL999", "no-such-rule"])
def test_rule_that_does_not_exist_exits_2(run_cli: RunCli, query: str) -> None:
    result = run_cli("rule", query)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"error: {query}: no such rule (see `watchlint rules`)\n"


def test_rule_without_a_code_is_a_usage_error(run_cli: RunCli) -> None:
    result = run_cli("rule")
    assert (result.exit_code, result.stdout) == (2, "")
    assert "Error: Missing argument 'CODE'." in result.stderr


# --- check: paths ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("paths", [(), (".",)], ids=["no-path", "dot"])
def test_check_analyzes_the_working_directory(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, paths: tuple[str, ...]
) -> None:
    write_tree(go_tree(tmp_path), {"pkg/util.go": "package pkg\n"})
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", *paths)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "No findings in 2 files.\n", BINARY_NOTE)


def test_check_prints_paths_relative_to_the_working_directory(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    go_tree(tmp_path / "project")
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", tmp_path / "project")
    assert result.stderr == "error: project/bad.go: file is binary (contains NUL bytes)\n"


@pytest.mark.parametrize("paths", [("nope",), ("ok.go", "nope")], ids=["only", "second"])
def test_check_reports_a_missing_path(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, paths: tuple[str, ...]
) -> None:
    go_tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", *paths)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", "error: nope: no such file or directory\n")


def test_check_exits_2_when_no_file_can_be_analyzed(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_tree(tmp_path, {"bad.go": BINARY_GO})
    monkeypatch.chdir(tmp_path)
    result = run_cli("check")
    assert (result.exit_code, result.stdout) == (2, "No findings in 0 files.\n")
    assert result.stderr == BINARY_NOTE + "error: no file could be analyzed\n"


def test_check_of_an_empty_folder_exits_0(run_cli: RunCli, tmp_path: Path) -> None:
    result = run_cli("check", tmp_path)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "No findings in 0 files.\n", "")


# --- check: --format -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["xml", "TEXT", ""], ids=["xml", "upper-case", "empty"])
def test_check_rejects_an_unknown_format(run_cli: RunCli, tmp_path: Path, value: str) -> None:
    result = run_cli("check", "--format", value, tmp_path)
    assert (result.exit_code, result.stdout) == (2, "")
    assert "Usage: watchlint check [OPTIONS] [PATHS]..." in result.stderr
    assert f"Error: Invalid value for '--format': '{value}' is not one of" in result.stderr


# --- check: --select, --ignore ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--select", "WL999"), "--select: 'WL999' is not a rule code or name"),
        (("--select", "WL001,WL999"), "--select: 'WL999' is not a rule code or name"),
        (("--select", "WL001", "--select", "WL1"), "--select: 'WL1' is not a rule code or name"),
        (("--ignore", "nope"), "--ignore: 'nope' is not a rule code or name"),
        (("--ignore", "unfiltered_watch"), "--ignore: 'unfiltered_watch' is not a rule code or name"),
    ],
    ids=["select-code", "select-in-a-list", "select-repeated", "ignore-name", "ignore-snake-case-name"],
)
def test_check_rejects_an_unknown_rule_in_select_or_ignore(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...], message: str
) -> None:
    write_tree(tmp_path, {"ok.go": GO_FILE})
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", *args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"error: {message} (see `watchlint rules`)\n"


def test_check_rejects_an_unknown_rule_even_when_there_is_nothing_to_analyze(run_cli: RunCli, tmp_path: Path) -> None:
    write_tree(tmp_path, {"README.md": "# operator\n"})
    result = run_cli("check", "--select", "WL999", tmp_path)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "error: --select: 'WL999' is not a rule code or name (see `watchlint rules`)\n"


@pytest.mark.parametrize(
    "args",
    [
        ("--select", "WL001,WL002"),
        ("--select", "WL001, WL002"),
        ("--select", "WL001", "--select", "WL002"),
        ("--select", "unfiltered-watch"),
        ("--select", "wl003"),
        ("--ignore", "WL004"),
        ("--ignore", "duplicate-cache,WL001"),
        ("--select", "WL001", "--ignore", "WL001"),
    ],
    ids=[
        "select-comma",
        "select-comma-space",
        "select-repeated",
        "select-name",
        "select-lower-case",
        "ignore-code",
        "ignore-name-and-code",
        "select-and-ignore",
    ],
)
def test_check_accepts_codes_and_names_in_select_and_ignore(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...]
) -> None:
    write_tree(tmp_path, {"ok.go": GO_FILE})
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", *args)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "No findings in 1 file.\n", "")


# --- check: findings and exit code 1 ---------------------------------------------------------------------------


def test_check_exits_1_on_an_unsuppressed_finding(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, inject_sites: InjectSites
) -> None:
    write_tree(tmp_path, {"handlers.py": handlers()})
    monkeypatch.chdir(tmp_path)
    inject_sites(secret_watch())
    result = run_cli("check")
    assert (result.exit_code, result.stderr) == (1, "")
    lines = result.stdout.splitlines()
    assert lines[0] == FINDING_HEAD
    assert lines[-1] == "Found 1 finding in 1 file: 1 WL001."


@pytest.mark.parametrize(
    ("args", "exit_code"),
    [
        ((), 1),
        (("--select", "WL001"), 1),
        (("--select", "unfiltered-watch"), 1),
        (("--select", "WL002,WL003"), 0),
        (("--select", "WL002", "--select", "WL001"), 1),
        (("--ignore", "WL001"), 0),
        (("--ignore", "unfiltered-watch"), 0),
        (("--ignore", "WL002, WL003"), 1),
        (("--select", "WL001", "--ignore", "WL001"), 0),
    ],
    ids=[
        "all-rules",
        "select-code",
        "select-name",
        "select-others",
        "select-repeated",
        "ignore-code",
        "ignore-name",
        "ignore-others",
        "select-then-ignore",
    ],
)
def test_select_and_ignore_decide_which_findings_count(
    run_cli: RunCli,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    inject_sites: InjectSites,
    args: tuple[str, ...],
    exit_code: int,
) -> None:
    write_tree(tmp_path, {"handlers.py": handlers()})
    monkeypatch.chdir(tmp_path)
    inject_sites(secret_watch())
    result = run_cli("check", *args)
    assert result.exit_code == exit_code
    assert (FINDING_HEAD in result.stdout) is (exit_code == 1)


@pytest.mark.parametrize(
    ("config", "args", "exit_code"),
    [
        ('select = ["WL002"]\n', (), 0),
        ('select = ["WL002"]\n', ("--select", "WL001"), 1),
        ('ignore = ["unfiltered-watch"]\n', (), 0),
        ('ignore = ["WL002"]\n', ("--ignore", "WL003"), 1),
    ],
    ids=["config-select", "cli-select-replaces-config", "config-ignore", "ignores-add-up"],
)
def test_config_select_and_ignore_combine_with_the_command_line(
    run_cli: RunCli,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    inject_sites: InjectSites,
    config: str,
    args: tuple[str, ...],
    exit_code: int,
) -> None:
    write_tree(tmp_path, {"handlers.py": handlers(), ".watchlint.toml": config})
    monkeypatch.chdir(tmp_path)
    inject_sites(secret_watch())
    assert run_cli("check", *args).exit_code == exit_code


def test_suppressed_finding_exits_0_and_is_hidden(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, inject_sites: InjectSites
) -> None:
    write_tree(tmp_path, {"handlers.py": handlers("  # watchlint: ignore[WL001] -- mirrors every Secret")})
    monkeypatch.chdir(tmp_path)
    inject_sites(secret_watch())
    result = run_cli("check")
    assert (result.exit_code, result.stdout, result.stderr) == (
        0,
        "No findings in 1 file (1 suppressed, hidden).\n",
        "",
    )


def test_show_suppressed_prints_the_suppressed_finding_with_its_reason(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, inject_sites: InjectSites
) -> None:
    write_tree(tmp_path, {"handlers.py": handlers("  # watchlint: ignore[WL001] -- mirrors every Secret")})
    monkeypatch.chdir(tmp_path)
    inject_sites(secret_watch())
    result = run_cli("check", "--show-suppressed")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == FINDING_HEAD
    assert "  = suppressed: mirrors every Secret (handlers.py:4:38)" in lines
    assert lines[-1] == "No findings in 1 file (1 suppressed)."


def test_suppression_of_another_code_leaves_the_finding(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, inject_sites: InjectSites
) -> None:
    write_tree(tmp_path, {"handlers.py": handlers("  # noqa: WL003")})
    monkeypatch.chdir(tmp_path)
    inject_sites(secret_watch())
    result = run_cli("check")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-1] == "Found 1 finding in 1 file: 1 WL001."


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ((), ["No findings in 1 file (1 mitigated site, see --show-mitigated)."]),
        (
            ("--show-mitigated",),
            [
                'handlers.py:4:2: ok WL001 [not-high-cardinality] `@kopf.on.event("", "v1", "secrets")`',
                "",
                "No findings in 1 file.",
            ],
        ),
    ],
    ids=["hidden", "shown"],
)
def test_show_mitigated_lists_mitigated_sites_with_the_reason(
    run_cli: RunCli,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    inject_sites: InjectSites,
    args: tuple[str, ...],
    expected: list[str],
) -> None:
    write_tree(tmp_path, {"handlers.py": handlers()})
    monkeypatch.chdir(tmp_path)
    inject_sites(secret_watch(kind="Deployment"))
    result = run_cli("check", *args)
    assert (result.exit_code, result.stdout.splitlines(), result.stderr) == (0, expected, "")


@pytest.mark.parametrize(("args", "has_key"), [((), False), (("--show-mitigated",), True)], ids=["hidden", "shown"])
def test_show_mitigated_adds_the_mitigated_sites_to_json(
    run_cli: RunCli,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    inject_sites: InjectSites,
    args: tuple[str, ...],
    has_key: bool,
) -> None:
    write_tree(tmp_path, {"handlers.py": handlers()})
    monkeypatch.chdir(tmp_path)
    inject_sites(secret_watch(kind="Deployment"))
    document = json.loads(run_cli("check", "--format", "json", *args).stdout)
    assert ("mitigated" in document) is has_key
    if has_key:
        assert [(item["code"], item["line"], item["reason"]) for item in document["mitigated"]] == [
            ("WL001", WATCH_LINE, "not-high-cardinality")
        ]


def test_config_level_changes_the_level_of_findings(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, inject_sites: InjectSites
) -> None:
    write_tree(tmp_path, {"handlers.py": handlers(), ".watchlint.toml": '[level]\nWL001 = "error"\n'})
    monkeypatch.chdir(tmp_path)
    inject_sites(secret_watch())
    result = run_cli("check", "--format", "github")
    assert result.exit_code == 1
    assert result.stdout.startswith(
        "::error file=handlers.py,line=4,col=2,endLine=4,endColumn=15,title=WL001 unfiltered-watch::"
    )


@pytest.mark.parametrize("output_format", ["text", "json", "sarif", "github"])
def test_findings_exit_1_in_every_format(
    run_cli: RunCli,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    inject_sites: InjectSites,
    output_format: str,
) -> None:
    write_tree(tmp_path, {"handlers.py": handlers()})
    monkeypatch.chdir(tmp_path)
    inject_sites(secret_watch())
    result = run_cli("check", "--format", output_format, "--output", "report.out")
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", "")
    report = (tmp_path / "report.out").read_text(encoding="utf-8")
    if output_format == "json":
        (finding,) = json.loads(report)["findings"]
        assert (finding["code"], finding["name"], finding["path"], finding["line"], finding["suppressed"]) == (
            "WL001",
            "unfiltered-watch",
            "handlers.py",
            WATCH_LINE,
            False,
        )
    elif output_format == "sarif":
        (sarif_result,) = validate_sarif(report)["runs"][0]["results"]
        assert (sarif_result["ruleId"], sarif_result["ruleIndex"], sarif_result["level"]) == ("WL001", 0, "warning")
    elif output_format == "github":
        assert report.startswith(
            "::warning file=handlers.py,line=4,col=2,endLine=4,endColumn=15,title=WL001 unfiltered-watch::"
        )
    else:
        assert report.splitlines()[0] == FINDING_HEAD


def test_sarif_reports_a_suppressed_finding_with_its_justification(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, inject_sites: InjectSites
) -> None:
    write_tree(tmp_path, {"handlers.py": handlers("  # watchlint: ignore[WL001] -- mirrors every Secret")})
    monkeypatch.chdir(tmp_path)
    inject_sites(secret_watch())
    result = run_cli("check", "--format", "sarif")
    assert result.exit_code == 0
    (sarif_result,) = validate_sarif(result.stdout)["runs"][0]["results"]
    assert sarif_result["suppressions"] == [{"kind": "inSource", "justification": "mirrors every Secret"}]


# --- check: --output and the report formats --------------------------------------------------------------------


@pytest.mark.parametrize("output_format", ["text", "json", "sarif", "github"])
@pytest.mark.parametrize("flag", ["--output", "-o"])
def test_output_writes_the_report_to_the_file(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, output_format: str, flag: str
) -> None:
    go_tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", "--format", output_format, flag, "report.out")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", BINARY_NOTE)
    written = (tmp_path / "report.out").read_text(encoding="utf-8")
    assert written == run_cli("check", "--format", output_format).stdout
    assert written.endswith("\n")


@pytest.mark.parametrize(
    ("output_format", "expected"),
    [
        ("text", "No findings in 1 file.\n"),
        ("github", "::error file=bad.go,title=watchlint::file is binary (contains NUL bytes)\n"),
    ],
)
def test_text_and_github_reports_without_findings(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, output_format: str, expected: str
) -> None:
    go_tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", "--format", output_format)
    assert (result.exit_code, result.stdout, result.stderr) == (0, expected, BINARY_NOTE)


def test_json_report_without_findings(run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    go_tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", "--format", "json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "version": 1,
        "findings": [],
        "notifications": [{"path": "bad.go", "level": "error", "message": "file is binary (contains NUL bytes)"}],
    }


def test_sarif_report_lists_every_rule(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, catalog: Catalog
) -> None:
    go_tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", "--format", "sarif")
    assert result.exit_code == 0
    run = validate_sarif(result.stdout)["runs"][0]
    assert run["columnKind"] == "unicodeCodePoints"
    assert run["results"] == []
    driver = run["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("watchlint", watchlint.__version__)
    base = repository_url()
    assert base.startswith("https://")
    descriptors = driver["rules"]
    assert [(item["id"], item["name"]) for item in descriptors] == [(code, name) for code, name, _ in SPEC_RULES]
    for item, rule in zip(descriptors, catalog.rules, strict=True):
        assert item["shortDescription"]["text"] == rule.summary
        what_it_does = rule.body.removeprefix("## What it does\n").split("\n## ", 1)[0]
        full_description = item["fullDescription"]["text"]
        assert full_description
        assert " ".join(what_it_does.split()).startswith(full_description)
        assert item["help"] == {"text": rule.body, "markdown": rule.body}
        assert item["helpUri"].startswith(base + "/")
        assert item["helpUri"].endswith(f"/{rule.code}.md")
        assert item["defaultConfiguration"] == {"level": str(rule.level)}


def test_sarif_report_carries_the_notifications(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    go_tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    invocation = validate_sarif(run_cli("check", "--format", "sarif").stdout)["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is True
    (notification,) = invocation["toolExecutionNotifications"]
    assert (notification["level"], notification["message"]["text"]) == ("error", "file is binary (contains NUL bytes)")
    assert notification["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "bad.go",
        "uriBaseId": "%SRCROOT%",
    }


def test_output_creates_missing_folders(run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_tree(tmp_path, {"ok.go": GO_FILE})
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", "--format", "json", "--output", "reports/ci/watchlint.json")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")
    assert json.loads((tmp_path / "reports/ci/watchlint.json").read_text(encoding="utf-8"))["version"] == 1


def test_output_that_cannot_be_written_exits_2(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_tree(tmp_path, {"ok.go": GO_FILE, "taken": "a file, not a folder\n"})
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", "--output", "taken/report.txt")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("error: taken/report.txt: cannot write report: ")
    assert result.stderr.count("\n") == 1


def test_output_of_a_failed_run_leaves_the_previous_report_alone(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_tree(tmp_path, {"ok.go": GO_FILE, "report.json": "previous report\n"})
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", "--select", "WL999", "--format", "json", "--output", "report.json")
    assert result.exit_code == 2
    assert (tmp_path / "report.json").read_text(encoding="utf-8") == "previous report\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["ok.go", "report.json"]  # no temporary left


def test_output_replaces_the_previous_report_and_keeps_its_mode(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_tree(tmp_path, {"ok.go": GO_FILE, "report.json": "previous report\n"})
    (tmp_path / "report.json").chmod(0o640)
    monkeypatch.chdir(tmp_path)
    assert run_cli("check", "--format", "json", "--output", "report.json").exit_code == 0
    assert json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))["findings"] == []
    assert (tmp_path / "report.json").stat().st_mode & 0o777 == 0o640


def test_output_to_a_folder_is_a_usage_error(run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_tree(tmp_path, {"ok.go": GO_FILE, "reports/.keep": ""})
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", "--output", "reports")
    assert (result.exit_code, result.stdout) == (2, "")
    assert "Error: Invalid value for '-o' / '--output'" in result.stderr


# --- check: --config and discovered configuration --------------------------------------------------------------


def test_config_that_does_not_exist_exits_2(run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    go_tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", "--config", "nope.toml")
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", "error: nope.toml: config file not found\n")


def test_config_that_is_a_folder_is_a_usage_error(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_tree(tmp_path, {"ok.go": GO_FILE, "conf/.keep": ""})
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", "--config", "conf")
    assert (result.exit_code, result.stdout) == (2, "")
    assert "Error: Invalid value for '--config'" in result.stderr


@pytest.mark.parametrize(
    ("args", "stdout", "stderr"),
    [
        ((), "No findings in 1 file.\n", BINARY_NOTE),
        (("--config", "ci.toml"), "No findings in 1 file.\n", ""),
        (("--config", "ci.toml", "--exclude", "ok.go"), "No findings in 0 files.\n", ""),
    ],
    ids=["without", "with", "with-cli-exclude-too"],
)
def test_config_file_applies_its_exclude(
    run_cli: RunCli,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
    stdout: str,
    stderr: str,
) -> None:
    write_tree(go_tree(tmp_path), {"ci.toml": 'exclude = ["bad.go"]\n'})
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", *args)
    assert (result.exit_code, result.stdout, result.stderr) == (0, stdout, stderr)


def test_config_file_replaces_the_discovered_one(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_tree(go_tree(tmp_path), {".watchlint.toml": 'exclude = ["bad.go"]\n', "empty.toml": ""})
    monkeypatch.chdir(tmp_path)
    assert run_cli("check").stderr == ""
    result = run_cli("check", "--config", "empty.toml")
    assert (result.exit_code, result.stderr) == (0, BINARY_NOTE)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('select = ["WL999"]\n', "select: 'WL999' is not a rule code or name (see `watchlint rules`)"),
        ("colour = true\n", f"colour: unknown key (known keys: {CONFIG_KEYS})"),
        ("include-tests = 1\n", "include-tests: expected true or false"),
    ],
    ids=["unknown-rule", "unknown-key", "wrong-type"],
)
def test_config_file_with_an_error_exits_2_naming_the_file(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: str, message: str
) -> None:
    write_tree(go_tree(tmp_path), {"ci.toml": content})
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", "--config", "ci.toml")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"error: ci.toml: {message}\n"


def test_a_broken_project_template_naming_watchlint_nowhere_does_not_stop_the_run(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pyproject.toml template (`version = "{{version}}"`) is not TOML, and configures no watchlint: the tree
    beside it is linted, not the run ended with a config error."""
    write_tree(
        tmp_path,
        {"handlers.py": handlers(), "templates/pyproject.toml": '[project]\nversion = "{{version}}"\ndeps = [{{x}}]\n'},
    )
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", ".")
    assert (result.exit_code, result.stderr) == (1, "")
    assert result.stdout.startswith("handlers.py:4:1: WL001 ")


def test_config_file_that_is_not_toml_exits_2(run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_tree(go_tree(tmp_path), {"ci.toml": "exclude = [\n"})
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", "--config", "ci.toml")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("error: ci.toml: invalid TOML: ")
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("name", "content"),
    [
        (".watchlint.toml", 'exclude = ["bad.go"]\n'),
        ("watchlint.toml", 'exclude = ["bad.go"]\n'),
        ("pyproject.toml", '[project]\nname = "operator"\n\n[tool.watchlint]\nexclude = ["bad.go"]\n'),
    ],
    ids=["dot-watchlint", "watchlint", "pyproject"],
)
def test_config_is_found_by_walking_up_from_the_path(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, content: str
) -> None:
    write_tree(tmp_path, {f"project/{name}": content})
    go_tree(tmp_path / "project" / "internal" / "controller")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = run_cli("check", tmp_path / "project" / "internal" / "controller")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "No findings in 1 file.\n", "")
    (tmp_path / "project" / name).unlink()
    assert run_cli("check", tmp_path / "project" / "internal" / "controller").stderr == (
        "error: ../project/internal/controller/bad.go: file is binary (contains NUL bytes)\n"
    )


# --- check: --exclude, --include-tests -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "stdout", "stderr"),
    [
        ((), "No findings in 3 files.\n", BINARY_NOTE),
        (("--exclude", "bad.go"), "No findings in 3 files.\n", ""),
        (("--exclude", "gen"), "No findings in 1 file.\n", BINARY_NOTE),
        (("--exclude", "gen/*"), "No findings in 1 file.\n", BINARY_NOTE),
        (("--exclude", "gen/x.go"), "No findings in 2 files.\n", BINARY_NOTE),
        (("--exclude", "bad.go", "--exclude", "gen"), "No findings in 1 file.\n", ""),
        (("--exclude", "*.go"), "No findings in 0 files.\n", ""),
        (("--exclude", "x.go"), "No findings in 2 files.\n", BINARY_NOTE),
        (("--exclude", "nothing-matches"), "No findings in 3 files.\n", BINARY_NOTE),
    ],
    ids=[
        "none",
        "file-name",
        "folder-name",
        "folder-glob",
        "relative-path",
        "repeated",
        "every-go-file",
        "name-in-subfolder",
        "no-match",
    ],
)
def test_exclude_leaves_out_matching_files_and_folders(
    run_cli: RunCli,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
    stdout: str,
    stderr: str,
) -> None:
    write_tree(go_tree(tmp_path), {"gen/x.go": "package gen\n", "gen/y.go": "package gen\n"})
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", *args)
    assert (result.exit_code, result.stdout, result.stderr) == (0, stdout, stderr)


@pytest.mark.parametrize(
    ("args", "config", "stdout"),
    [
        ((), "", "No findings in 2 files.\n"),
        (("--include-tests",), "", "No findings in 4 files.\n"),
        ((), "include-tests = true\n", "No findings in 4 files.\n"),
        (("--include-tests",), "include-tests = false\n", "No findings in 4 files.\n"),
    ],
    ids=["default", "option", "config", "option-over-config"],
)
def test_include_tests_adds_test_files(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...], config: str, stdout: str
) -> None:
    write_tree(
        tmp_path,
        {
            ".watchlint.toml": config,
            "main.go": GO_FILE,
            "main_test.go": "package main\n",
            "operator.py": "import kopf\n",
            "test_operator.py": "import operator\n",
        },
    )
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", *args)
    assert (result.exit_code, result.stdout, result.stderr) == (0, stdout, "")


# --- check: --quiet, --verbose ---------------------------------------------------------------------------------


def test_quiet_prints_no_summary_and_no_warnings(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    go_tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    for flag in ("-q", "--quiet"):
        assert run_cli("check", flag) == CliResult(0, "", "")


def test_quiet_keeps_the_error_of_a_failed_run(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_tree(tmp_path, {"bad.go": BINARY_GO})
    monkeypatch.chdir(tmp_path)
    assert run_cli("check", "-q") == CliResult(2, "", "error: no file could be analyzed\n")


def test_quiet_prints_the_findings_without_the_summary(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, inject_sites: InjectSites
) -> None:
    write_tree(tmp_path, {"handlers.py": handlers()})
    monkeypatch.chdir(tmp_path)
    inject_sites(secret_watch())
    result = run_cli("check", "--quiet")
    assert (result.exit_code, result.stderr) == (1, "")
    lines = result.stdout.splitlines()
    assert lines[0] == FINDING_HEAD
    assert f"  = help: {KOPF_HELP}" in lines
    assert [line for line in lines if line.startswith(("Found ", "No findings", "[*]"))] == []


def test_quiet_does_not_change_the_machine_formats(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    go_tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    for output_format in ("json", "sarif", "github"):
        assert (
            run_cli("check", "-q", "--format", output_format).stdout
            == run_cli("check", "--format", output_format).stdout
        )


def test_quiet_drops_the_whole_summary_of_fixable_findings(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_tree(tmp_path, {"handlers.py": handlers()})
    monkeypatch.chdir(tmp_path)
    fixable = Finding(
        code="WL001",
        level=Level.WARNING,
        span=Span("handlers.py", WATCH_LINE, 2, WATCH_LINE, 15),
        message="`@kopf.on.event` streams every Secret in the cluster",
        kind="Secret",
        construct='@kopf.on.event("", "v1", "secrets")',
        fixes=(Fix("Scope the operator", Applicability.UNSAFE, (Edit(Span("handlers.py", 1, 1, 1, 1), "# x\n"),)),),
    )
    monkeypatch.setattr(checkrun, "plan", lambda *_, **__: Planned(lambda: engine.make_report([fixable], [], [], 1)))
    result = run_cli("check", "-q")
    assert result.exit_code == 1
    assert [line for line in result.stdout.splitlines() if line.startswith(("Found ", "[*]"))] == []


@pytest.mark.parametrize("flag", [None, "-v", "--verbose"])
def test_verbose_prints_debug_logs_and_the_traceback_of_a_file_error(
    run_cli: RunCli,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    inject_sites: InjectSites,
    flag: str | None,
) -> None:
    write_tree(tmp_path, {"handlers.py": handlers()})
    monkeypatch.chdir(tmp_path)
    inject_sites(failing_file=True)
    result = run_cli("check", *([flag] if flag else []))
    assert (result.exit_code, result.stdout) == (0, "No findings in 1 file.\n")
    notice = "error: handlers.py: internal error while analyzing this file; run with -v for details"
    lines = result.stderr.splitlines()
    assert notice in lines
    if flag is None:
        assert lines == [notice]
        return
    assert "watchlint: watchlint.frontend: internal error while analyzing handlers.py" in lines
    assert lines[-1] == "RuntimeError: parser exploded"
    assert lines.index(notice) < len(lines) - 1
    assert result.stderr.count("Traceback (most recent call last):") == 2  # the debug log, then the detail


def test_verbose_adds_nothing_to_a_clean_run(run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_tree(tmp_path, {"ok.go": GO_FILE})
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", "-v")
    assert [line for line in result.stderr.splitlines() if not line.startswith("watchlint: ")] == []
    assert (result.exit_code, result.stdout) == (0, "No findings in 1 file.\n")


def test_a_run_without_verbose_does_not_import_logging(tmp_path: Path) -> None:
    """Only -v needs the logging module, whose import would lengthen every warm run (debuglog)."""
    write_tree(tmp_path, {"ok.go": GO_FILE, "handlers.py": handlers()})
    code = "import sys; from watchlint.cli import main; main(['check', '.', '-j1', '--no-cache', '-q']); "
    code += "print('logging' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert result.stdout.splitlines()[-1] == "False"


# --- check: colour ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("is_tty", "args", "no_color", "has_ansi"),
    [
        (True, (), None, True),
        (True, ("--no-color",), None, False),
        (True, (), "1", False),
        (True, ("--output", "report.txt"), None, False),
        (True, ("--format", "json"), None, False),
        (False, (), None, False),
    ],
    ids=["tty", "no-color-option", "NO_COLOR", "output-file", "json", "not-a-tty"],
)
def test_color_only_on_a_terminal_and_never_when_disabled(
    run_cli: RunCli,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    inject_sites: InjectSites,
    is_tty: bool,
    args: tuple[str, ...],
    no_color: str | None,
    has_ansi: bool,
) -> None:
    write_tree(tmp_path, {"handlers.py": handlers()})
    monkeypatch.chdir(tmp_path)
    inject_sites(secret_watch())
    monkeypatch.delenv("NO_COLOR", raising=False)
    if no_color is not None:
        monkeypatch.setenv("NO_COLOR", no_color)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: is_tty)  # the capture stream stands in for a terminal
    result = run_cli("check", *args)
    assert result.exit_code == 1
    report = (tmp_path / "report.txt").read_text(encoding="utf-8") if "--output" in args else result.stdout
    assert ("\x1b[" in report) is has_ansi
    if "--format" not in args:
        assert click.unstyle(report).splitlines()[0] == FINDING_HEAD


# --- errors of the run as a whole ------------------------------------------------------------------------------


def _raise_runtime_error(*_: Any, **__: Any) -> engine.RunPlan:
    raise RuntimeError("boom")


@pytest.mark.parametrize("flag", [None, "-v", "--verbose"])
def test_internal_error_of_the_run_exits_2_in_one_line(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flag: str | None
) -> None:
    monkeypatch.setattr(checkrun, "plan", _raise_runtime_error)
    result = run_cli("check", *([flag] if flag else []), tmp_path)
    message = "error: internal error: RuntimeError: boom; run with -v for details\n"
    assert (result.exit_code, result.stdout) == (2, "")
    if flag is None:
        assert result.stderr == message
    else:
        assert result.stderr.startswith("Traceback (most recent call last):\n")
        assert result.stderr.endswith("RuntimeError: boom\n" + message)
        assert "_raise_runtime_error" in result.stderr


def test_internal_error_traceback_with_combined_short_flags(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(checkrun, "plan", _raise_runtime_error)
    result = run_cli("check", "-qv", tmp_path)
    assert result.exit_code == 2
    assert result.stderr.startswith("Traceback (most recent call last):\n")


def test_user_error_of_the_run_has_no_traceback_even_with_verbose(run_cli: RunCli, tmp_path: Path) -> None:
    result = run_cli("check", "-v", tmp_path / "nope")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"error: {tmp_path / 'nope'}: no such file or directory\n"


# --- python -m watchlint ---------------------------------------------------------------------------------------


@pytest.mark.slow
def test_python_dash_m_watchlint_runs_the_cli(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "watchlint", "--version"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, f"watchlint {watchlint.__version__}\n", "")


@pytest.mark.slow
def test_deeply_nested_python_file_does_not_crash_the_run(tmp_path: Path) -> None:
    depth = 5000
    write_tree(tmp_path, {"ok.py": "import kopf\n", "deep.py": "x = " + "(" * depth + "1" + ")" * depth + "\n"})
    result = subprocess.run(
        [sys.executable, "-m", "watchlint", "check", "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0
    assert result.stderr.startswith("error: deep.py: ")


# --- progress line -----------------------------------------------------------------------------------------------

_TWO_PROJECTS = {
    "one/pyproject.toml": "[project]\nname = 'one'\n",
    "one/handlers.py": "import kopf\n\n@kopf.on.event('secrets')\ndef on_secret(**_):\n    pass\n",
    "two/pyproject.toml": "[project]\nname = 'two'\n",
    "two/handlers.py": "import kopf\n\n@kopf.on.event('configmaps')\ndef on_config_map(**_):\n    pass\n",
}


@pytest.mark.parametrize(
    ("is_tty", "args", "shown"),
    [
        (True, (), True),
        (True, ("-q",), False),  # --quiet prints findings only
        (False, (), False),  # CI logs get no carriage returns
    ],
)
def test_progress_line_goes_to_a_terminals_stderr_once_the_run_is_long(
    tmp_path: Path,
    run_cli: Callable[..., CliResult],
    monkeypatch: pytest.MonkeyPatch,
    is_tty: bool,
    args: tuple[str, ...],
    shown: bool,
) -> None:
    write_tree(tmp_path, _TWO_PROJECTS)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(checkrun, "PROGRESS_AFTER_SECONDS", -1.0)  # every run counts as long
    monkeypatch.setattr(sys.stderr, "isatty", lambda: is_tty)
    result = run_cli("check", "--no-cache", "-j1", *args)
    assert result.exit_code == 1
    half, full = "#" * 15 + "." * 15, "#" * 30
    lines = f"\rwatchlint [{half}] 1/2 units\rwatchlint [{full}] 2/2 units\r\x1b[K"
    assert (lines in result.stderr) is shown
    assert "units" not in result.stdout


def test_the_progress_bar_keeps_its_length_as_units_are_analyzed() -> None:
    assert checkrun.progress_bar(7, 120) == "\rwatchlint [#.............................]   7/120 units"
    assert checkrun.progress_bar(120, 120) == "\rwatchlint [" + "#" * 30 + "] 120/120 units"
    assert len({len(checkrun.progress_bar(done, 120)) for done in range(121)}) == 1


def test_short_runs_print_no_progress_line(
    tmp_path: Path, run_cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_tree(tmp_path, _TWO_PROJECTS)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    result = run_cli("check", "--no-cache", "-j1")
    assert result.exit_code == 1
    assert "units" not in result.stderr
