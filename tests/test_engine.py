"""End-to-end tests of watchlint/engine.py: files that cannot be analyzed, exit codes, SARIF notifications,
relative paths, and evaluate() on hand-built facts (reported paths, suppressions, mitigated sites)."""

from __future__ import annotations

import errno
import gc
from collections.abc import Callable
from pathlib import Path

import pytest
import tree_sitter
from conftest import CliResult, validate_sarif, write_tree

import watchlint.go as go_front_end
from watchlint import extraction, source
from watchlint.catalog import Catalog
from watchlint.config import CommandLine, FileConfig, resolve_settings
from watchlint.discover import Unit
from watchlint.engine import Report, evaluate, make_report, run
from watchlint.facts import (
    Access,
    CachePolicy,
    Comment,
    Facts,
    Language,
    Mitigation,
    Notification,
    NotificationLevel,
    ObjectForm,
    Operation,
    Site,
)
from watchlint.findings import Level, Mitigated, Related, Suppression, SuppressionKind
from watchlint.frontend import UnitInput
from watchlint.source import Span

GOOD: dict[str, str | bytes] = {
    "go.mod": "module example.com/operator\n\ngo 1.22\n",
    "cmd/main.go": "package main\n\nfunc main() {}\n",
    "operator/handlers.py": "import kopf\n\n\ndef on_create() -> None:\n    pass\n",
}
BAD: dict[str, str | bytes] = {
    "internal/latin1.go": b"package internal\n\n// caf\xe9\n",
    "internal/binary.go": b"package internal\x00\x01",
    "internal/locked.go": "package internal\n",
    "internal/broken.go": "package internal\n\nfunc f( {\n",
    "operator/utf16.py": "x = 1\n".encode("utf-16"),
    "operator/syntax.py": "def f(:\n",
}
# path below the analyzed folder, level and message, in the reporting order (path, message)
BAD_NOTES = [  # path, level, message and the line SARIF's region names (syntax errors)
    ("internal/binary.go", "error", "file is binary (contains NUL bytes)", None),
    (
        "internal/broken.go",
        "warning",
        "cannot parse line 3 (a syntax error, or Go the parser does not read); analyzed what parsed",
        3,
    ),
    ("internal/latin1.go", "error", "file is not valid UTF-8 (invalid byte at line 3)", None),
    ("internal/locked.go", "error", "cannot read file: Permission denied", None),
    ("operator/syntax.py", "error", "syntax error at line 1; file skipped", 1),
    ("operator/utf16.py", "error", "file is UTF-16 encoded; only UTF-8 source is analyzed", None),
]


@pytest.fixture
def locked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every file named locked.go unreadable (tests run as root in CI, where chmod 000 has no effect)."""
    read_bytes = source.read_bytes

    def refuse(path: Path) -> bytes:
        if path.name == "locked.go":
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return read_bytes(path)

    monkeypatch.setattr(source, "read_bytes", refuse)


def stderr_lines(prefix: str) -> str:
    return "".join(f"{level}: {prefix}{path}: {message}\n" for path, level, message, _ in BAD_NOTES)


@pytest.mark.usefixtures("locked")
@pytest.mark.parametrize(
    ("cwd", "argument", "prefix"),
    [("", "repo", "repo/"), ("repo", ".", ""), ("other", "../repo", "../repo/"), ("", "repo/", "repo/")],
    ids=["from-parent", "from-inside", "from-sibling", "trailing-slash"],
)
def test_bad_files_become_one_stderr_line_each_and_the_run_goes_on(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    run_cli: Callable[..., CliResult],
    cwd: str,
    argument: str,
    prefix: str,
) -> None:
    write_tree(tmp_path / "repo", {**GOOD, **BAD})
    (tmp_path / "other").mkdir()
    monkeypatch.chdir(tmp_path / cwd)
    result = run_cli("check", argument)
    # cmd/main.go, operator/handlers.py and the partially parsed internal/broken.go were analyzed
    assert (result.exit_code, result.stdout) == (0, "No findings in 3 files.\n")
    assert result.stderr == stderr_lines(prefix)


@pytest.mark.usefixtures("locked")
def test_bad_files_in_sarif_are_tool_execution_notifications(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_cli: Callable[..., CliResult]
) -> None:
    write_tree(tmp_path / "repo", {**GOOD, **BAD})
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", "--format", "sarif", "repo")
    assert result.exit_code == 0
    log = validate_sarif(result.stdout)
    (invocation,) = log["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is True
    notes = [
        (
            note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            note["level"],
            note["message"]["text"],
            note["locations"][0]["physicalLocation"].get("region", {}).get("startLine"),
        )
        for note in invocation["toolExecutionNotifications"]
    ]
    assert notes == [(f"repo/{path}", level, message, line) for path, level, message, line in BAD_NOTES]
    uris = [
        note["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"]
        for note in invocation["toolExecutionNotifications"]
    ]
    assert uris == ["%SRCROOT%"] * len(BAD_NOTES)
    assert log["runs"][0]["results"] == []
    assert result.stderr == stderr_lines("repo/")


@pytest.mark.usefixtures("locked")
def test_engine_run_reports_bad_files_as_sorted_notifications(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, catalog: Catalog
) -> None:
    write_tree(tmp_path / "repo", {**GOOD, **BAD})
    monkeypatch.chdir(tmp_path)
    report = run([Path("repo")], CommandLine(), catalog)
    assert report.notifications == tuple(
        Notification(f"repo/{path}", message, NotificationLevel(level), line=line)
        for path, level, message, line in BAD_NOTES
    )
    assert (report.findings, report.mitigated, report.files_analyzed) == ((), (), 3)
    assert report.has_failed_entirely is False


def test_python_syntax_error_names_the_line_of_the_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_cli: Callable[..., CliResult]
) -> None:
    write_tree(tmp_path, {"op/handlers.py": "x = 1\ny = = 2\nz = 3\n", "op/index.py": "x = 1\n"})
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", "op")
    assert result.stderr == "error: op/handlers.py: syntax error at line 2; file skipped\n"


@pytest.mark.usefixtures("locked")
@pytest.mark.parametrize(
    ("files", "stderr"),
    [
        (
            {"bad.go": b"package x\x00", "bad.py": "def f(:\n"},
            "error: repo/bad.go: file is binary (contains NUL bytes)\n"
            "error: repo/bad.py: syntax error at line 1; file skipped\n",
        ),
        ({"locked.go": "package x\n"}, "error: repo/locked.go: cannot read file: Permission denied\n"),
        (
            {"go.mod": "module m\n", "a.go": b"\xfe\xff\x00p", "b.py": b"\xff\xfex\x00"},
            "error: repo/a.go: file is UTF-16 encoded; only UTF-8 source is analyzed\n"
            "error: repo/b.py: file is UTF-16 encoded; only UTF-8 source is analyzed\n",
        ),
    ],
    ids=["go-and-python", "unreadable", "utf16-in-module"],
)
def test_every_file_bad_exits_2(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    run_cli: Callable[..., CliResult],
    files: dict[str, str | bytes],
    stderr: str,
) -> None:
    write_tree(tmp_path / "repo", files)
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", "repo")
    assert (result.exit_code, result.stdout) == (2, "No findings in 0 files.\n")
    assert result.stderr == stderr + "error: no file could be analyzed\n"


def test_every_file_bad_in_sarif_is_an_unsuccessful_execution(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_cli: Callable[..., CliResult]
) -> None:
    write_tree(tmp_path / "repo", {"bad.py": "def f(:\n"})
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", "--format", "sarif", "repo")
    assert result.exit_code == 2
    (invocation,) = validate_sarif(result.stdout)["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    assert len(invocation["toolExecutionNotifications"]) == 1


def test_only_a_go_syntax_warning_is_not_a_failed_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_cli: Callable[..., CliResult]
) -> None:
    write_tree(tmp_path / "repo", {"go.mod": "module m\n", "main.go": "package main\n\nfunc main( {\n"})
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", "repo")
    assert (result.exit_code, result.stdout) == (0, "No findings in 1 file.\n")
    assert result.stderr == (
        "warning: repo/main.go: cannot parse line 3 (a syntax error, or Go the parser does not read); "
        "analyzed what parsed\n"
    )


def test_empty_folder_has_no_findings_in_zero_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_cli: Callable[..., CliResult]
) -> None:
    (tmp_path / "empty").mkdir()
    monkeypatch.chdir(tmp_path)
    assert run_cli("check", "empty") == CliResult(0, "No findings in 0 files.\n", "")


def test_quiet_hides_bad_file_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_cli: Callable[..., CliResult]
) -> None:
    write_tree(tmp_path / "repo", {**GOOD, "internal/binary.go": b"package internal\x00"})
    monkeypatch.chdir(tmp_path)
    assert run_cli("check", "--quiet", "repo") == CliResult(0, "", "")


def test_missing_path_exits_2_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_cli: Callable[..., CliResult]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert run_cli("check", "nowhere") == CliResult(2, "", "error: nowhere: no such file or directory\n")


def test_generated_go_file_is_not_counted_as_analyzed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_cli: Callable[..., CliResult]
) -> None:
    generated = "// Code generated by controller-gen. DO NOT EDIT.\n\npackage v1\n\nfunc f( {\n"
    write_tree(tmp_path / "repo", {"go.mod": "module m\n", "main.go": "package main\n", "api/types.go": generated})
    monkeypatch.chdir(tmp_path)
    assert run_cli("check", "repo") == CliResult(0, "No findings in 1 file.\n", "")


# Hand-built facts: `Owns(&corev1.Secret{})` in two files judged by one manager with no restriction.

CONTROLLER = "internal/controller/app_controller.go"
OTHER = "internal/other/other_controller.go"
MAIN = "cmd/main.go"


def span(path: str, line: int, column: int = 3, length: int = 4) -> Span:
    return Span(path, line, column, line, column + length)


def secret_watch(path: str, line: int) -> Site:
    return Site(
        operation=Operation.WATCH,
        access=Access.CACHE,
        kind="Secret",
        form=ObjectForm.TYPED,
        span=span(path, line),
        call="Owns",
        construct="Owns(&corev1.Secret{})",
        enclosing="AppReconciler.SetupWithManager",
        policy_keys=("m",),
    )


def api_reader_get(path: str, line: int) -> Site:
    return Site(
        operation=Operation.GET,
        access=Access.API_READER,
        kind="Secret",
        form=ObjectForm.TYPED,
        span=span(path, line),
        call="r.APIReader.Get",
        construct="r.APIReader.Get(ctx, key, &secret)",
        policy_keys=("m",),
    )


POLICY = CachePolicy(key="m", label="binary cmd", origins=(span(MAIN, 40, 9, 14),), restrictions=())


def facts(*sites: Site, comments: tuple[Comment, ...] = ()) -> Facts:
    return Facts(
        language=Language.GO,
        root=".",
        files=(MAIN, CONTROLLER, OTHER),
        sites=sites,
        policies=(POLICY,),
        comments=comments,
    )


def test_evaluate_unrestricted_secret_watch_is_wl001(catalog: Catalog) -> None:
    settings = resolve_settings(None, CommandLine(), catalog)
    outcome = evaluate(facts(secret_watch(CONTROLLER, 30)), settings, frozenset({"Secret"}), frozenset({CONTROLLER}))
    (finding,) = outcome.findings
    assert (finding.code, finding.level, finding.span, finding.kind) == (
        "WL001",
        Level.WARNING,
        span(CONTROLLER, 30),
        "Secret",
    )
    assert finding.message == "`Owns(&corev1.Secret{})` caches every Secret in the cluster"
    assert finding.related == (Related(span(MAIN, 40, 9, 14), "cache options here leave Secret unrestricted"),)
    assert finding.suppression is None
    assert (outcome.mitigated, outcome.notifications, outcome.files_analyzed) == ([], [], 3)


def test_evaluate_uses_the_configured_level(tmp_path: Path, catalog: Catalog) -> None:
    config = FileConfig(path=tmp_path / "w.toml", levels={"WL001": Level.ERROR})
    settings = resolve_settings(config, CommandLine(), catalog)
    outcome = evaluate(facts(secret_watch(CONTROLLER, 30)), settings, frozenset({"Secret"}), frozenset({CONTROLLER}))
    assert [finding.level for finding in outcome.findings] == [Level.ERROR]


def test_evaluate_keeps_only_findings_in_reported_files(catalog: Catalog) -> None:
    settings = resolve_settings(None, CommandLine(), catalog)
    both = facts(secret_watch(CONTROLLER, 30), secret_watch(OTHER, 12))
    outcome = evaluate(both, settings, frozenset({"Secret"}), frozenset({OTHER}))
    assert [finding.span for finding in outcome.findings] == [span(OTHER, 12)]
    assert evaluate(both, settings, frozenset({"Secret"}), frozenset()).findings == []


def test_evaluate_runs_only_selected_codes(catalog: Catalog) -> None:
    settings = resolve_settings(None, CommandLine(ignore=("WL001",)), catalog)
    outcome = evaluate(facts(secret_watch(CONTROLLER, 30)), settings, frozenset({"Secret"}), frozenset({CONTROLLER}))
    assert (outcome.findings, outcome.mitigated) == ([], [])


def test_evaluate_kind_outside_the_catalogue_is_mitigated(catalog: Catalog) -> None:
    settings = resolve_settings(None, CommandLine(), catalog)
    outcome = evaluate(facts(secret_watch(CONTROLLER, 30)), settings, frozenset({"Pod"}), frozenset({CONTROLLER}))
    assert outcome.findings == []
    assert outcome.mitigated == [
        Mitigated("WL001", span(CONTROLLER, 30), "Secret", "Owns(&corev1.Secret{})", Mitigation.NOT_HIGH_CARDINALITY)
    ]


def test_evaluate_keeps_suppressed_findings_flagged(catalog: Catalog) -> None:
    settings = resolve_settings(None, CommandLine(), catalog)
    directive = Comment(span(CONTROLLER, 29, 2, 40), "//watchlint:ignore WL001 -- secret reflector", True)
    outcome = evaluate(
        facts(secret_watch(CONTROLLER, 30), secret_watch(CONTROLLER, 31), comments=(directive,)),
        settings,
        frozenset({"Secret"}),
        frozenset({CONTROLLER}),
    )
    assert [(finding.span.line, finding.suppression) for finding in outcome.findings] == [
        (30, Suppression(SuppressionKind.IGNORE, directive.span, "secret reflector")),
        (31, None),
    ]


def test_evaluate_reports_unusable_directives_only_in_reported_files(catalog: Catalog) -> None:
    settings = resolve_settings(None, CommandLine(), catalog)
    comments = (
        Comment(span(CONTROLLER, 29, 2, 24), "//watchlint:ignore WL001", True),
        Comment(span(OTHER, 11, 2, 24), "//watchlint:ignore WL001", True),
    )
    outcome = evaluate(
        facts(secret_watch(CONTROLLER, 30), secret_watch(OTHER, 12), comments=comments),
        settings,
        frozenset({"Secret"}),
        frozenset({CONTROLLER}),
    )
    assert [finding.is_suppressed for finding in outcome.findings] == [False]
    assert outcome.notifications == [
        Notification(
            CONTROLLER,
            "line 29: suppression without a reason does not apply; expected `//watchlint:ignore WL001 -- reason`",
        )
    ]


def test_evaluate_drops_a_mitigated_verdict_at_the_span_of_a_finding(catalog: Catalog) -> None:
    settings = resolve_settings(None, CommandLine(), catalog)
    outcome = evaluate(
        facts(secret_watch(CONTROLLER, 30), api_reader_get(CONTROLLER, 30), api_reader_get(CONTROLLER, 50)),
        settings,
        frozenset({"Secret"}),
        frozenset({CONTROLLER}),
    )
    assert [(finding.code, finding.span) for finding in outcome.findings] == [("WL001", span(CONTROLLER, 30))]
    assert [(item.code, item.span, item.reason) for item in outcome.mitigated] == [
        ("WL002", span(CONTROLLER, 50), Mitigation.API_READER)
    ]


def test_evaluate_drops_mitigated_verdicts_outside_reported_files(catalog: Catalog) -> None:
    settings = resolve_settings(None, CommandLine(), catalog)
    outcome = evaluate(
        facts(api_reader_get(OTHER, 5), api_reader_get(CONTROLLER, 6)),
        settings,
        frozenset({"Secret"}),
        frozenset({CONTROLLER}),
    )
    assert [item.span for item in outcome.mitigated] == [span(CONTROLLER, 6)]


def test_evaluate_two_findings_at_one_place_become_an_internal_error(catalog: Catalog) -> None:
    settings = resolve_settings(None, CommandLine(), catalog)
    outcome = evaluate(
        facts(secret_watch(CONTROLLER, 30), secret_watch(CONTROLLER, 30)),
        settings,
        frozenset({"Secret"}),
        frozenset({CONTROLLER}),
    )
    assert len(outcome.findings) == 1
    assert outcome.notifications == [
        Notification(CONTROLLER, "two findings at line 30; run with -v for details", NotificationLevel.ERROR)
    ]


def test_report_sorts_notifications_and_counts_failure(catalog: Catalog) -> None:
    notes = [
        Notification("b.go", "file is binary (contains NUL bytes)", NotificationLevel.ERROR),
        Notification("a.py", "syntax error at line 1; file skipped", NotificationLevel.ERROR),
        Notification("a.py", "syntax error at line 1; file skipped", NotificationLevel.ERROR),
    ]
    report: Report = make_report([], [], notes, 0)
    assert [note.path for note in report.notifications] == ["a.py", "b.go"]
    assert report.has_failed_entirely is True
    assert make_report([], [], notes, 1).has_failed_entirely is False
    assert make_report([], [], [], 0).has_failed_entirely is False


@pytest.mark.parametrize("enabled_before", [True, False])
@pytest.mark.parametrize("fails", [False, True])
def test_a_front_end_runs_with_the_collector_paused_and_its_state_is_restored(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch, enabled_before: bool, fails: bool
) -> None:
    write_tree(tmp_path, {"go.mod": "module example.com/m\n", "main.go": "package main\n"})
    unit = Unit(Language.GO, tmp_path, (tmp_path / "main.go",), (tmp_path,), (tmp_path / "go.mod",))
    seen: list[bool] = []

    def extract(unit_input: UnitInput) -> Facts:
        seen.append(gc.isenabled())
        if fails:
            raise RuntimeError("front-end fault")
        return facts()

    monkeypatch.setattr(extraction, "front_end", lambda language: extract)
    was_enabled = gc.isenabled()
    (gc.enable if enabled_before else gc.disable)()
    try:
        extracted = extraction.extract_unit(unit, resolve_settings(None, CommandLine(), catalog), catalog)
        after = gc.isenabled()
    finally:
        (gc.enable if was_enabled else gc.disable)()
    assert seen == [False]
    assert after is enabled_before
    assert (extracted.facts is None) is fails


_UNIT_OBJECTS = ("watchlint", "libcst", "tree_sitter")


@pytest.mark.parametrize(
    ("language", "case", "manifest"),
    [
        (Language.GO, "go/WL002/cache-itself-through-an-interface", "go.mod"),
        (Language.PYTHON, "python/WL004/resource-from-another-module", "pyproject.toml"),
    ],
    ids=["go", "python"],
)
def test_a_unit_leaves_no_cycles_for_the_paused_collector(
    catalog: Catalog, language: Language, case: str, manifest: str
) -> None:
    """The Go evaluator and its parts, and a Python project and its files' flows, refer to each other; a
    front-end cuts that when it is done, so that the unit's trees and indexes go with their last reference
    rather than wait for a collection walking them all."""
    root = Path(__file__).parent / "fixtures" / case
    files = tuple(sorted(root.rglob(f"*.{'go' if language is Language.GO else 'py'}")))
    unit = Unit(language, root, files, (root,), (root / manifest,))
    settings = resolve_settings(None, CommandLine(), catalog)
    extraction.extract_unit(unit, settings, catalog)  # first imports and compiled queries: cycles of their own
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds is kept in gc.garbage, to be looked at
    try:
        extracted = extraction.extract_unit(unit, settings, catalog)
        gc.collect()
        # ast.literal_eval's own closures form cycles too: only the unit's objects count here
        left = [type(item).__name__ for item in gc.garbage if type(item).__module__.startswith(_UNIT_OBJECTS)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        (gc.enable if was_enabled else gc.disable)()
    assert extracted.facts is not None
    assert extracted.facts.sites
    assert left == []  # the whole unit's objects (hundreds here) while the cycles were kept


def test_a_module_without_kubernetes_code_is_parsed_only_for_what_every_analyzed_file_reports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_cli: Callable[..., CliResult]
) -> None:
    """No file of the module can make a site (none names a Kubernetes package): its files are parsed for their
    syntax errors and suppression comments, which a run reports as for any file, and no pass indexes them; one
    file importing a Kubernetes package has the whole module analyzed."""
    main = "package main\n\n//watchlint:ignore WL001\nfunc main() {}\n"
    write_tree(
        tmp_path / "repo",
        {"go.mod": GOOD["go.mod"], "cmd/main.go": main, "internal/broken.go": BAD["internal/broken.go"]},
    )
    indexed: list[str] = []
    index_nodes = go_front_end.index_nodes

    def spy(tree: tree_sitter.Tree) -> dict[str, list[tree_sitter.Node]]:
        indexed.append(tree.root_node.text.decode())  # type: ignore[union-attr]
        return index_nodes(tree)

    monkeypatch.setattr(go_front_end, "index_nodes", spy)
    monkeypatch.chdir(tmp_path)
    without = run_cli("check", "-j1", "repo")
    assert (without.exit_code, without.stdout, indexed) == (0, "No findings in 2 files.\n", [])
    assert without.stderr == (
        "warning: repo/cmd/main.go: line 3: suppression without a reason does not apply; expected "
        "`//watchlint:ignore WL001 -- reason`\n"
        "warning: repo/internal/broken.go: cannot parse line 3 (a syntax error, or Go the parser does not read); "
        "analyzed what parsed\n"
    )
    importing = main.replace("\n\n", '\n\nimport _ "k8s.io/api/core/v1"\n\n', 1)
    (tmp_path / "repo" / "cmd" / "main.go").write_text(importing, encoding="utf-8")
    with_one = run_cli("check", "-j1", "repo")
    moved = without.stderr.replace("main.go: line 3", "main.go: line 5")  # below the import
    assert (with_one.exit_code, with_one.stdout, with_one.stderr) == (0, without.stdout, moved)
    assert indexed == [importing, BAD["internal/broken.go"]]
