"""The facts cache and worker processes: warm runs read facts instead of parsing, any broken entry is a miss,
and the output is byte-identical with or without the cache and for any number of jobs."""

from __future__ import annotations

import ast
import json
import os
import pickle
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from conftest import CliResult, write_tree

from watchlint import cache as cache_module
from watchlint import engine, extraction, pool, rendered, report_json, standby, unitstate
from watchlint.catalog import load_catalog
from watchlint.config import CommandLine, FrontEndOptions
from watchlint.findings import Finding
from watchlint.frontend import UnitInput
from watchlint.language import Language
from watchlint.source import decode_source

RunCli = Callable[..., CliResult]
GO_MOD = "module example.com/{name}\n\ngo 1.22\n\nrequire sigs.k8s.io/controller-runtime v0.19.0\n"
MAIN = """package main

import (
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
)

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_ = ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Owns(&corev1.{kind}{{}}).Complete(nil)
}
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Three operator modules, so that there is work for several processes."""
    files = {}
    for name, kind in (("alpha", "Secret"), ("beta", "ConfigMap"), ("gamma", "Pod")):
        files[f"{name}/go.mod"] = GO_MOD.format(name=name)
        files[f"{name}/main.go"] = MAIN.replace("{kind}", kind).replace("{{}}", "{}")
    root = write_tree(tmp_path / "repo", files)
    monkeypatch.chdir(root)
    return root


def test_warm_run_reads_the_cache_and_gives_the_same_output(
    repo: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    cold = run_cli("check", ".", "--format", "json")
    assert (
        (repo / ".watchlint_cache" / "CACHEDIR.TAG")
        .read_text()
        .startswith("Signature: 8a477f597d28d172789f06886806bc55")
    )
    assert (repo / ".watchlint_cache" / ".gitignore").read_text().endswith("*\n")
    _forbid(monkeypatch, extraction, "extract_sources", "a warm run must not run a front-end")
    warm = run_cli("check", ".", "--format", "json")
    assert (warm.exit_code, warm.stdout) == (cold.exit_code, cold.stdout)


def _forbid(monkeypatch: pytest.MonkeyPatch, module: ModuleType, name: str, why: str) -> None:
    """Make module.<name> fail the test if the run calls it."""

    def forbidden(*_: object) -> object:
        raise AssertionError(why)

    monkeypatch.setattr(module, name, forbidden)


def test_warm_run_with_the_same_rules_does_not_check_again(
    repo: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_cli("check", ".", "--format", "json")
    expected = run_cli("check", ".", "--format", "sarif", "--no-cache")
    _forbid(monkeypatch, engine, "evaluate", "an unchanged unit checked the same way must be read back whole")
    warm = run_cli("check", ".", "--format", "sarif")  # another rendering of the same outcomes
    assert (warm.exit_code, warm.stdout) == (expected.exit_code, expected.stdout)


@pytest.mark.parametrize(
    "options",
    [
        ["--format", "text"],
        ["--format", "json", "--show-mitigated"],
        ["--format", "sarif"],
        ["--format", "github"],
        ["--statistics"],
        ["-q"],
        ["-v"],
    ],
    ids=" ".join,
)
def test_a_warm_run_with_the_same_options_writes_the_rendered_report_again(
    repo: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch, options: list[str]
) -> None:
    """Nothing to load, sort or render: the report, the notifications on stderr and the exit code are those of
    the run before (a file that is not UTF-8 gives an error on stderr)."""
    (repo / "delta").mkdir()
    (repo / "delta" / "main.go").write_bytes(b'package main\n\nimport _ "k8s.io/api"\n\xff\n')
    cold = run_cli("check", ".", *options)
    assert cold.exit_code == 1
    assert bool(cold.stderr) is ("-q" not in options)
    monkeypatch.setattr(engine.RunPlan, "report", lambda _: pytest.fail("the rendered report must be reused"))
    warm = run_cli("check", ".", *options)
    assert warm == cold


def test_a_run_that_reuses_its_rendered_report_imports_no_analysis_or_reporter(repo: Path) -> None:
    """Start-up is most of a warm run: it must not load what only analysing or rendering needs."""
    script = (
        "import sys\n"
        "from watchlint.cli import main\n"
        "code = main(['check', '.', '--format', 'json', '-o', 'report.json'])\n"
        "print(code, sorted(name for name in sys.modules if name.startswith('watchlint')))\n"
    )
    cold = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert "'watchlint.checks'" in cold.stdout  # the front-ends ran in worker processes
    warm = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    code, loaded = warm.stdout.split(" ", 1)
    assert code == "1"
    heavy = ["facts", "findings", "fixes", "frontend", "go", "python", "checks", "report_json", "report_text"]
    assert {f"watchlint.{name}" for name in [*heavy, "baseline"]}.isdisjoint(ast.literal_eval(loaded))


@pytest.mark.parametrize(
    ("first", "then"),
    [
        (["--format", "json"], ["--format", "text"]),
        (["--format", "text"], ["--format", "text", "--show-mitigated"]),
        (["--format", "text"], ["--format", "text", "--show-suppressed"]),
        (["--format", "text"], ["--format", "text", "-q"]),
        (["--format", "json"], ["--format", "json", "--statistics"]),
        (["--format", "text"], ["--format", "text", "--ignore", "WL001"]),
        (["--format", "text"], ["--format", "text", "beta"]),
    ],
)
def test_another_rendering_choice_renders_again(repo: Path, run_cli: RunCli, first: list[str], then: list[str]) -> None:
    run_cli("check", *first)
    expected = run_cli("check", *then, "--no-cache")
    assert run_cli("check", *then) == expected


def test_a_report_against_a_baseline_follows_the_baseline(repo: Path, run_cli: RunCli) -> None:
    baseline = repo / "baseline.json"
    run_cli("check", ".", "--write-baseline", str(baseline))
    assert run_cli("check", ".", "--baseline", str(baseline)).exit_code == 0
    baseline.write_text('{"version": 1, "findings": []}\n', encoding="utf-8")
    assert run_cli("check", ".", "--baseline", str(baseline)) == run_cli(
        "check", ".", "--baseline", str(baseline), "--no-cache"
    )


def test_other_options_check_the_cached_facts_again(
    repo: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_cli("check", ".", "--format", "json")
    expected = run_cli("check", ".", "--format", "json", "--no-cache", "--ignore", "WL001")
    _forbid(monkeypatch, extraction, "extract_sources", "facts of an unchanged unit must come from the cache")
    warm = run_cli("check", ".", "--format", "json", "--ignore", "WL001")
    assert (warm.exit_code, warm.stdout) == (expected.exit_code, expected.stdout)
    assert '"code": "WL001"' not in warm.stdout


def test_a_changed_file_is_analyzed_again(repo: Path, run_cli: RunCli) -> None:
    run_cli("check", ".")
    main = repo / "beta" / "main.go"
    main.write_text(main.read_text().replace("ConfigMap", "ServiceAccount"), encoding="utf-8")
    result = run_cli("check", ".", "--format", "json", "-q")
    assert '"kind": "ServiceAccount"' in result.stdout
    assert '"kind": "ConfigMap"' not in result.stdout


OLD_ERA = Path(__file__).parent / "fixtures" / "go" / "fixes-safe" / "client-disable-cache-for-old-era"


@pytest.mark.parametrize("settled_files", [False, True], ids=["read", "by-metadata"])
def test_a_changed_go_mod_is_analyzed_again(
    tmp_path: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch, settled_files: bool
) -> None:
    """go.mod's controller-runtime version decides the shape of a fix: facts cached under the old version
    must not answer for the new one (the same size: only its change time tells)."""
    if settled_files:
        monkeypatch.setattr(cache_module, "SETTLED_NS", -(10**12))
    root = tmp_path / "op"
    shutil.copytree(OLD_ERA, root, ignore=shutil.ignore_patterns("*.fixed"))
    monkeypatch.chdir(root)
    old = run_cli("check", ".", "--format", "json")
    assert "Add &corev1.ConfigMap{} to ClientDisableCacheFor in main.go" in old.stdout
    go_mod = root / "go.mod"
    go_mod.write_text(go_mod.read_text().replace("controller-runtime v0.14.6", "controller-runtime v0.19.0"))
    new = run_cli("check", ".", "--format", "json")
    assert new.stdout == run_cli("check", ".", "--format", "json", "--no-cache").stdout
    assert "ClientDisableCacheFor" not in new.stdout


def test_corrupt_entries_are_misses(repo: Path, run_cli: RunCli) -> None:
    cold = run_cli("check", ".", "--format", "json")
    entries = _entries(repo)
    # each unit's facts, its checked outcome and its findings' JSON objects, the report and its slot's index
    assert len(entries) == 11
    for path in entries:
        path.write_bytes(b"not a pickle")
    assert run_cli("check", ".", "--format", "json").stdout == cold.stdout


def _entries(repo: Path) -> list[Path]:
    return [path for path in (repo / ".watchlint_cache").rglob("*") if path.is_file() and len(path.name) == 64]


def test_a_report_is_kept_under_the_key_of_what_was_analyzed(
    repo: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A key remembered for the files' metadata can turn out stale when the files are read (they changed
    between the two): the report must be kept under the key of the contents it was made from."""
    recall = unitstate.UnitState.recall_key

    def stale(state: unitstate.UnitState, cache: cache_module.FactsCache) -> bool:
        state.key = "0" * 64  # no facts or outcome under it: the files are read, and keyed afresh
        return True

    monkeypatch.setattr(unitstate.UnitState, "recall_key", stale)
    first = run_cli("check", ".", "--format", "json")
    monkeypatch.setattr(unitstate.UnitState, "recall_key", recall)
    monkeypatch.setattr(engine.RunPlan, "report", lambda _: pytest.fail("the report of these contents is kept"))
    assert run_cli("check", ".", "--format", "json") == first


def test_an_edit_and_its_undo_find_the_report_rendered_before_the_edit(
    repo: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = run_cli("check", ".", "--format", "json")
    main = repo / "beta" / "main.go"
    original = main.read_text()
    main.write_text(original.replace("ConfigMap", "ServiceAccount"), encoding="utf-8")
    assert '"kind": "ServiceAccount"' in run_cli("check", ".", "--format", "json").stdout
    main.write_text(original, encoding="utf-8")
    monkeypatch.setattr(engine.RunPlan, "report", lambda _: pytest.fail("the earlier report must be reused"))
    assert run_cli("check", ".", "--format", "json") == before


def _spy_on_rendered_findings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths of the findings the text reporter renders from now on."""
    from watchlint import report_text

    rendered_paths: list[str] = []
    real = report_text._render_finding

    def spy(finding: Finding, *args: object) -> str:
        rendered_paths.append(finding.span.path)
        return real(finding, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(report_text, "_render_finding", spy)
    return rendered_paths


def test_a_text_report_after_an_edit_renders_the_findings_of_the_edited_unit_only(
    repo: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_cli("check", ".")
    main = repo / "beta" / "main.go"
    main.write_text(main.read_text() + "// edited\n", encoding="utf-8")
    rendered_paths = _spy_on_rendered_findings(monkeypatch)
    edited = run_cli("check", ".")
    assert rendered_paths == ["beta/main.go"]
    assert edited == run_cli("check", ".", "--no-cache")
    assert [line.split(": ")[0] for line in edited.stdout.splitlines() if ": WL" in line] == [
        "alpha/main.go:10:62",
        "beta/main.go:10:62",
        "gamma/main.go:10:62",
    ]


def test_a_finding_unchanged_by_an_edit_of_its_line_shows_the_line_as_it_is_now(repo: Path, run_cli: RunCli) -> None:
    run_cli("check", ".")
    main = repo / "alpha" / "main.go"
    lines = main.read_text().splitlines(keepends=True)
    lines[9] = lines[9].rstrip("\n") + " // owns the Secrets\n"  # the finding's line: same span, same message
    main.write_text("".join(lines), encoding="utf-8")
    edited = run_cli("check", ".")
    assert "Complete(nil) // owns the Secrets" in edited.stdout
    assert edited == run_cli("check", ".", "--no-cache")


def test_blocks_rendered_in_colour_are_not_shown_without(
    repo: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)  # the capture stream stands in for a terminal
    assert "\x1b[" in run_cli("check", ".").stdout
    main = repo / "beta" / "main.go"
    main.write_text(main.read_text() + "// edited\n", encoding="utf-8")
    plain = run_cli("check", ".", "--no-color")
    assert "\x1b[" not in plain.stdout
    assert plain == run_cli("check", ".", "--no-color", "--no-cache")


def test_a_way_of_running_keeps_the_reports_it_used_last_only(
    repo: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reports are large: runs on other files (a pre-commit hook gives other files each time) or after
    changes must not add one report each."""
    run_cli("check", ".", "--format", "json")
    before = len(_entries(repo))  # facts and outcomes of the 3 units, the slot's index and its one report
    for files in (["alpha/main.go"], ["beta/main.go"], ["gamma/main.go"], ["alpha/main.go", "beta/main.go"]):
        assert run_cli("check", *files, "--format", "json") == run_cli(
            "check", *files, "--format", "json", "--no-cache"
        )
    assert len(_entries(repo)) == before + rendered.KEPT - 1  # the newest reports; no unit changed
    assert run_cli("check", "alpha/main.go", "--format", "json").exit_code == 1  # kept: used again, kept longest
    for files in (["."], ["gamma/main.go", "beta/main.go"], ["gamma/main.go", "alpha/main.go"]):
        run_cli("check", *files, "--format", "json")  # each one pushes out the least recently used
    assert len(_entries(repo)) == before + rendered.KEPT - 1
    monkeypatch.setattr(engine.RunPlan, "report", lambda _: pytest.fail("a recently used report must be kept"))
    run_cli("check", "alpha/main.go", "--format", "json")


def test_no_cache_writes_nothing_and_cache_dir_moves_it(repo: Path, run_cli: RunCli, tmp_path: Path) -> None:
    run_cli("check", ".", "--no-cache")
    assert not (repo / ".watchlint_cache").exists()
    run_cli("check", ".", "--cache-dir", str(tmp_path / "elsewhere"))
    assert (tmp_path / "elsewhere" / "CACHEDIR.TAG").is_file()
    assert not (repo / ".watchlint_cache").exists()


def test_output_is_byte_identical_for_any_number_of_jobs(repo: Path, run_cli: RunCli) -> None:
    outputs = {
        jobs: run_cli("check", ".", "--format", "sarif", "--no-cache", "-j", jobs).stdout for jobs in ("1", "2", "3")
    }
    assert outputs["1"] == outputs["2"] == outputs["3"]
    assert outputs["1"].count('"ruleId": "WL001"') == 3


def test_a_worker_that_dies_fails_the_units_in_flight_and_a_new_pool_takes_the_rest(
    tmp_path: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = [f"op{index:02d}" for index in range(10)]
    files = {}
    for name in [*names, "crash"]:
        files[f"{name}/go.mod"] = GO_MOD.format(name=name)
        files[f"{name}/main.go"] = MAIN.replace("{kind}", "Secret").replace("{{}}", "{}")
    files["crash/main.go"] += "// the largest unit, so that it is given to the pool first\n" * 40
    monkeypatch.chdir(write_tree(tmp_path / "repo", files))
    _crash_on(monkeypatch, "crash")
    result = run_cli("check", ".", "--format", "json", "--no-cache", "-j", "2")
    report = json.loads(result.stdout)
    died = {note["path"] for note in report["notifications"] if "worker analyzing this go unit died" in note["message"]}
    analyzed = sorted(finding["path"].split("/")[0] for finding in report["findings"])
    assert "crash" in died
    assert len(died) <= 2 * pool.IN_FLIGHT_PER_WORKER  # the units in flight with it, at most
    assert analyzed == sorted(set(names) - died)  # every other unit is analyzed by a new pool
    assert {(f["code"], f["path"].split("/")[1], f["line"]) for f in report["findings"]} == {("WL001", "main.go", 10)}
    assert result.exit_code == 1


def test_facts_a_worker_cannot_send_back_fail_their_unit_only(
    repo: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A task that fails outside the front-end's guard (here its result does not pickle) is a notification on
    its units; the run goes on and exits as its findings say."""
    real_extract_job = pool.extract_job

    def extract_job(job: extraction.Job) -> object:
        extracted = real_extract_job(job)
        if job[0].root.name == "beta":
            return extraction.Extracted(extracted.facts, extracted.kinds, [lambda: None])  # type: ignore[list-item]
        return extracted

    monkeypatch.setattr(pool, "extract_job", extract_job)  # workers are forked: the patch is in them too
    result = run_cli("check", ".", "--format", "json", "--no-cache", "-j", "2")
    report = json.loads(result.stdout)
    assert [(f["code"], f["path"], f["line"]) for f in report["findings"]] == [
        ("WL001", "alpha/main.go", 10),
        ("WL001", "gamma/main.go", 10),
    ]
    [note] = report["notifications"]
    assert note["path"] == "beta"
    assert note["message"].startswith("internal error: the worker analyzing this go unit could not return it")
    assert result.exit_code == 1


def _crash_on(monkeypatch: pytest.MonkeyPatch, shown_root: str) -> None:
    """Make the front-end end its process when given this unit, as a native crash would (workers are forked,
    so the patch is in them too)."""
    real_front_end = extraction.front_end

    def front_end(language: Language) -> Callable[[UnitInput], object]:
        def extract(unit: UnitInput) -> object:
            if unit.shown_root == shown_root:
                os._exit(70)
            return real_front_end(language)(unit)

        return extract

    monkeypatch.setattr(extraction, "front_end", front_end)


def test_a_run_without_cache_reads_each_unit_when_its_turn_comes_and_keeps_none(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[str] = []
    real_read_source = extraction.read_source

    def read_source(path: Path, shown: str) -> object:
        reads.append(shown)
        return real_read_source(path, shown)

    monkeypatch.setattr(extraction, "read_source", read_source)
    catalog = load_catalog()
    run = engine.plan([Path(".")], CommandLine(), catalog, options=engine.RunOptions(jobs=1))
    assert reads == []  # nothing to key without a cache: reading waits for the unit's job
    report = run.report()
    assert reads == ["alpha/main.go", "beta/main.go", "gamma/main.go"]
    assert [state.sources for state in run.states] == [None, None, None]  # the jobs took them
    assert [(f.code, f.span.path, f.span.line) for f in report.findings] == [
        ("WL001", "alpha/main.go", 10),
        ("WL001", "beta/main.go", 10),
        ("WL001", "gamma/main.go", 10),
    ]


def test_a_run_the_cache_answers_keeps_no_sources(repo: Path, tmp_path: Path) -> None:
    """Files read only to be keyed (their metadata changed, as after a fresh checkout) are let go once the
    cache answers for their unit."""
    cache = cache_module.FactsCache(tmp_path / "cache")
    options = engine.RunOptions(jobs=1, cache=cache)
    engine.plan([Path(".")], CommandLine(), load_catalog(), options=options).report()
    for path in repo.rglob("main.go"):
        path.write_bytes(path.read_bytes())  # same contents, new metadata
    run = engine.plan([Path(".")], CommandLine(), load_catalog(), options=options)
    assert all(state.sources is not None for state in run.states)  # read to be keyed
    report = run.report()
    assert [state.sources for state in run.states] == [None, None, None]
    assert [(f.code, f.span.path, f.span.line) for f in report.findings] == [
        ("WL001", "alpha/main.go", 10),
        ("WL001", "beta/main.go", 10),
        ("WL001", "gamma/main.go", 10),
    ]


linux_only = pytest.mark.skipif(not standby.available(), reason="the standby worker needs fork (Linux)")


def _one_job(folder: str, cache: cache_module.FactsCache) -> tuple[unitstate.UnitState, extraction.Job]:
    """The one unit of a folder, planned with a cache, and the job that analyzes it."""
    planned = engine.plan([Path(folder)], CommandLine(), load_catalog(), options=engine.RunOptions(cache=cache))
    [state] = planned.states
    return state, state.take_job(planned.overlay, cache)


@linux_only
def test_the_unit_an_edit_changed_is_analyzed_by_the_standby_worker(repo: Path) -> None:
    """The worker forked at start-up imports the front-end and analyzes the edited unit while the parent reads
    the others back: the parent imports neither the Go front-end nor the checks, and the report is the same."""
    script = (
        "import sys\n"
        "from watchlint.cli import main\n"
        "code = main(['check', '.', '--format', 'json', '-o', 'report.json', '-j', '2'])\n"
        "print(code, sorted(name for name in sys.modules if name.startswith('watchlint')))\n"
    )
    subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    with (repo / "beta" / "main.go").open("a", encoding="utf-8") as stream:
        stream.write("// edited\n")
    edited = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    code, loaded = edited.stdout.split(" ", 1)
    assert code == "1"
    assert {"watchlint.go", "watchlint.checks"}.isdisjoint(ast.literal_eval(loaded))
    fresh = subprocess.run(
        [sys.executable, "-m", "watchlint", "check", ".", "--format", "json", "--no-cache"], capture_output=True
    )
    assert (repo / "report.json").read_bytes() == fresh.stdout


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_json_report_without_a_cache_renders_each_units_findings_as_its_outcome_comes(
    repo: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch, jobs: str
) -> None:
    """While the other units are analyzed, not once all are: each finding is rendered once, before the report
    is put together, and the report is byte for byte the one rendered from a cache's blocks."""
    events: list[str] = []
    real_finding, real_make_report = report_json._finding, engine.make_report

    def finding(found: Finding, name: str) -> str:
        events.append(found.span.path)
        return real_finding(found, name)

    def make_report(*given: Any) -> engine.Report:
        events.append("report")
        return real_make_report(*given)

    monkeypatch.setattr(report_json, "_finding", finding)
    monkeypatch.setattr(engine, "make_report", make_report)
    ahead = run_cli("check", ".", "--format", "json", "--no-cache", "-j", jobs)
    assert sorted(events[:-1]) == ["alpha/main.go", "beta/main.go", "gamma/main.go"]
    assert events[-1] == "report"
    assert ahead == run_cli("check", ".", "--format", "json", "-j", jobs)


@linux_only
def test_the_report_is_made_ready_while_the_standby_worker_analyzes_the_edited_unit(
    repo: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The parent reads the other units' finding objects while it waits for the worker's outcome, with nothing
    else to do: none is read after it, and the report is the one a run without a cache writes."""
    run_cli("check", ".", "--format", "json", "-j", "2")
    with (repo / "beta" / "main.go").open("a", encoding="utf-8") as stream:
        stream.write("// edited\n")
    events: list[str] = []
    real_analyze, real_unit_blocks = standby.Standby.analyze, rendered.FindingBlocks._unit_blocks

    def analyze(worker: standby.Standby, *given: object) -> Callable[[], engine.UnitOutcome | None]:
        outcome = real_analyze(worker, *given)  # type: ignore[arg-type]

        def waited() -> engine.UnitOutcome | None:
            found = outcome()
            events.append("outcome")
            return found

        return waited

    def unit_blocks(blocks: rendered.FindingBlocks, unit: str) -> dict[object, str]:
        if unit not in blocks._blocks:
            events.append("blocks read")
        return real_unit_blocks(blocks, unit)  # type: ignore[return-value]

    monkeypatch.setattr(standby.Standby, "analyze", analyze)
    monkeypatch.setattr(rendered.FindingBlocks, "_unit_blocks", unit_blocks)
    edited = run_cli("check", ".", "--format", "json", "-j", "2")
    assert events == ["blocks read"] * 3 + ["outcome"]  # the edited unit's too: a miss, its key being new
    assert edited == run_cli("check", ".", "--format", "json", "--no-cache")


@linux_only
def test_a_standby_worker_that_dies_fails_its_unit_only(
    repo: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_cli("check", ".", "--format", "json", "-j", "2")
    with (repo / "beta" / "main.go").open("a", encoding="utf-8") as stream:
        stream.write("// edited\n")
    _crash_on(monkeypatch, "beta")
    result = run_cli("check", ".", "--format", "json", "-j", "2")
    report = json.loads(result.stdout)
    assert [(f["code"], f["path"], f["line"]) for f in report["findings"]] == [
        ("WL001", "alpha/main.go", 10),
        ("WL001", "gamma/main.go", 10),
    ]
    assert [(n["path"], n["message"]) for n in report["notifications"]] == [
        ("beta", "internal error: the worker analyzing this go unit died; run with -v for details")
    ]


@linux_only
def test_a_standby_worker_takes_a_unit_larger_than_a_pipe_while_it_is_still_importing(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The parent hands the unit over and goes on reading the other outcomes back: it is not held until the
    worker's imports are over (here, an import that lasts until the parent has handed the unit over)."""
    handed = tmp_path / "handed"
    slow = tmp_path / "modules" / "slow_to_import.py"
    slow.parent.mkdir()
    slow.write_text(
        "import pathlib, time\n"
        "deadline = time.monotonic() + 60\n"
        f"while not pathlib.Path({str(handed)!r}).exists() and time.monotonic() < deadline:\n"
        "    time.sleep(0.01)\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(slow.parent))
    monkeypatch.setattr(standby, "_PRELOADED", ("slow_to_import",))
    beta = repo / "beta" / "main.go"
    beta.write_text(beta.read_text(encoding="utf-8") + "// padding\n" * 30_000, encoding="utf-8")  # ~330 KB
    cache = cache_module.FactsCache(tmp_path / "cache")
    state, job = _one_job("beta", cache)
    worker = standby.Standby.start(cache)
    assert worker is not None
    try:
        started = time.monotonic()
        outcome_of = worker.analyze(job, state.settings, state.reported, state.key, state.outcome_key)
        handing = time.monotonic() - started
        handed.touch()
        outcome = outcome_of()
    finally:
        worker.dismiss()
    assert handing < 30  # held, it would have taken the import's whole minute
    assert outcome is not None
    assert [(f.code, f.span.path, f.span.line) for f in outcome.findings] == [("WL001", "beta/main.go", 10)]


def _stand_in_front_ends(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seconds: dict[str, float]
) -> None:
    """Stand-ins for the front-ends' imports: each lasts its seconds, going through the meta path all along
    (where an interruption stops it), then marks that it ran to its end (a file named by its language in
    tmp_path); and a kopf project, delta, beside the repository's Go module."""
    modules = tmp_path / "modules"
    modules.mkdir()
    for language, lasting in seconds.items():
        (modules / f"slow_{language}.py").write_text(
            "import pathlib, time\n"
            f"deadline = time.monotonic() + {lasting}\n"
            "while time.monotonic() < deadline:\n"
            "    try:\n"
            "        import watchlint_test_missing_module  # each attempt goes through the meta path\n"
            "    except ImportError:\n"
            "        time.sleep(0.01)\n"
            f"pathlib.Path({str(tmp_path / language)!r}).touch()\n",
            encoding="utf-8",
        )
    monkeypatch.syspath_prepend(str(modules))
    monkeypatch.setattr(standby, "_FRONT_ENDS", ((b"G", "slow_go"), (b"P", "slow_python")))
    write_tree(
        repo,
        {
            "delta/pyproject.toml": '[project]\nname = "delta"\nversion = "0"\n',
            "delta/handlers.py": 'import kopf\n\n\n@kopf.on.event("pods")\ndef seen(body, **_):\n    pass\n',
        },
    )


@linux_only
def test_a_hint_turns_the_standby_worker_to_the_front_end_it_names_before_the_unit_comes(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The parent says which language changed as soon as it sees a changed unit: the worker stops importing the
    Go front-end (here a minute long) and imports the Python one while the unit is still being read and keyed."""
    _stand_in_front_ends(repo, tmp_path, monkeypatch, {"go": 60, "python": 0.2})
    cache = cache_module.FactsCache(tmp_path / "cache")
    state, job = _one_job("delta", cache)
    worker = standby.Standby.start(cache)
    assert worker is not None
    try:
        worker.expect(job[0].language)
        deadline = time.monotonic() + 30
        while not (tmp_path / "python").exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        imported_before_the_unit = (tmp_path / "python").exists()
        outcome = worker.analyze(job, state.settings, state.reported, state.key, state.outcome_key)()
    finally:
        worker.dismiss()
    assert imported_before_the_unit
    assert outcome is not None
    assert [(f.code, f.span.path, f.span.line) for f in outcome.findings] == [("WL001", "delta/handlers.py", 4)]
    assert not (tmp_path / "go").exists()


@linux_only
@pytest.mark.parametrize(
    ("unit", "finding", "imported"),
    [
        ("beta", ("WL001", "beta/main.go", 10), ["go"]),
        ("delta", ("WL001", "delta/handlers.py", 4), ["python"]),
    ],
)
def test_a_unit_cuts_the_standby_workers_import_of_the_other_front_end_short(
    repo: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    unit: str,
    finding: tuple[str, str, int],
    imported: list[str],
) -> None:
    """While it waits, the worker imports the Go front-end, then the Python one. A unit stops the import of
    the front-end it does not need at the next module that import reaches (each stand-in below would last a
    minute), and lets the import of its own run to its end (its stand-in lasts a fifth of a second)."""
    seconds = {language: 0.2 if imported == [language] else 60 for language in ("go", "python")}
    _stand_in_front_ends(repo, tmp_path, monkeypatch, seconds)
    cache = cache_module.FactsCache(tmp_path / "cache")
    state, job = _one_job(unit, cache)
    worker = standby.Standby.start(cache)
    assert worker is not None
    try:
        started = time.monotonic()
        outcome = worker.analyze(job, state.settings, state.reported, state.key, state.outcome_key)()
        waited = time.monotonic() - started
    finally:
        worker.dismiss()
    assert waited < 30
    assert outcome is not None
    assert [(f.code, f.span.path, f.span.line) for f in outcome.findings] == [finding]
    assert [language for language in ("go", "python") if (tmp_path / language).exists()] == imported


@linux_only
def test_a_standby_worker_is_started_only_where_a_unit_may_be_analyzed_again(
    repo: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[int] = []
    real_start = standby.Standby.start

    def start(cache: cache_module.FactsCache) -> standby.Standby | None:
        worker = real_start(cache)
        assert worker is not None
        started.append(worker.pid)
        return worker

    monkeypatch.setattr(standby.Standby, "start", start)
    run_cli("check", ".", "-j", "2")  # a first run: nothing to read back, the pool analyzes every unit
    run_cli("check", ".", "-j", "2", "--no-cache")
    run_cli("check", ".", "-j", "1", "--format", "json")  # one process asked for
    assert started == []
    run_cli("check", ".", "-j", "2", "--format", "sarif")
    assert len(started) == 1
    with pytest.raises(ChildProcessError):  # not needed: stopped and reaped before the run ended
        os.waitpid(started[0], os.WNOHANG)


def test_the_cache_key_follows_content_and_code(repo: Path) -> None:
    first = decode_source(b"package main\n", "main.go")
    second = decode_source(b"package main\n\n", "main.go")
    key = cache_module.unit_key("go", ".", [first], [], FrontEndOptions())
    assert key != cache_module.unit_key("go", ".", [second], [], FrontEndOptions())
    assert key != cache_module.unit_key("go", ".", [first], [], FrontEndOptions(kopf_namespaced=True))
    assert key != cache_module.unit_key("go", ".", [first], [], FrontEndOptions(include_tests=True))
    assert key == cache_module.unit_key("go", ".", [first], [], FrontEndOptions())
    assert len(cache_module.code_fingerprint()) == 64


def test_the_outcome_key_follows_rules_levels_and_reported_files() -> None:
    key = cache_module.outcome_key("k", ["WL001", "WL002"], {"WL001": "warning"}, ["main.go"])
    assert key == cache_module.outcome_key("k", ["WL002", "WL001"], {"WL001": "warning"}, ["main.go"])
    assert key != cache_module.outcome_key("other", ["WL001", "WL002"], {"WL001": "warning"}, ["main.go"])
    assert key != cache_module.outcome_key("k", ["WL001"], {"WL001": "warning"}, ["main.go"])
    assert key != cache_module.outcome_key("k", ["WL001", "WL002"], {"WL001": "error"}, ["main.go"])
    assert key != cache_module.outcome_key("k", ["WL001", "WL002"], {"WL001": "warning"}, ["main.go", "x.go"])


@pytest.fixture
def settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file counts as settled at once, as if it had last changed long ago (ctime cannot be set back)."""
    monkeypatch.setattr(cache_module, "SETTLED_NS", -(10**12))


@pytest.mark.usefixtures("settled")
def test_warm_run_over_settled_files_reads_none_of_them(
    repo: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    cold = run_cli("check", ".", "--format", "json")
    _forbid(monkeypatch, extraction, "read_source", "files whose metadata is unchanged must not be read")
    warm = run_cli("check", ".", "--format", "json")
    assert (warm.exit_code, warm.stdout) == (cold.exit_code, cold.stdout)


@pytest.mark.usefixtures("settled")
def test_a_same_size_change_with_its_mtime_put_back_is_noticed(repo: Path, run_cli: RunCli) -> None:
    run_cli("check", ".")
    main = repo / "beta" / "main.go"
    before = main.stat()
    main.write_text(main.read_text().replace("ConfigMap", "Namespace"), encoding="utf-8")  # both 9 letters
    os.utime(main, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (main.stat().st_size, main.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    result = run_cli("check", ".", "--format", "json", "-q")
    assert '"kind": "ConfigMap"' not in result.stdout


def test_files_changed_within_the_settling_time_are_not_trusted(tmp_path: Path) -> None:
    path = tmp_path / "main.go"
    path.write_text("package main\n", encoding="utf-8")
    stat = path.stat()
    assert not cache_module.is_settled([stat])
    later = max(stat.st_mtime_ns, stat.st_ctime_ns) + cache_module.SETTLED_NS + 1
    assert cache_module.is_settled([stat], now_ns=later)
    assert not cache_module.is_settled([stat], now_ns=later - 2)


@pytest.mark.usefixtures("settled")
@pytest.mark.parametrize("content", [b"not a pickle", pickle.dumps(42), pickle.dumps("0" * 64)])
def test_corrupt_or_wrong_entries_of_every_kind_are_misses(repo: Path, run_cli: RunCli, content: bytes) -> None:
    cold = run_cli("check", ".", "--format", "json")
    entries = _entries(repo)
    # each unit's facts, outcome, files' metadata and findings' JSON objects, the report, the slot's index
    assert len(entries) == 14
    for path in entries:
        path.write_bytes(content)
    assert run_cli("check", ".", "--format", "json").stdout == cold.stdout


def _block_key(run_cli: RunCli) -> tuple[object, ...]:
    """The key the blocks entry of alpha's one finding holds it under."""
    finding = json.loads(run_cli("check", ".", "--format", "json").stdout)["findings"][0]
    assert finding["path"] == "alpha/main.go"
    fields = ("code", "path", "line", "column", "end_line", "end_column", "message")
    return tuple(finding[name] for name in fields)


@pytest.mark.parametrize("content", ["not a pickle", "not a tuple", "a key of another shape", "not text"])
def test_corrupt_or_wrong_finding_blocks_are_misses(repo: Path, run_cli: RunCli, content: str) -> None:
    first = run_cli("check", ".")
    key = _block_key(run_cli)
    written = {
        "not a pickle": b"not a pickle",
        "not a tuple": pickle.dumps(42),
        "a key of another shape": pickle.dumps(((key[:6], "a block"),)),
        "not text": pickle.dumps(((key, 7),)),  # trusted, this would fail the rendering
    }[content]
    for path in _entries(repo):
        path.write_bytes(written)
    assert run_cli("check", ".") == first


def test_a_json_report_after_an_edit_renders_the_findings_of_the_edited_unit_only(
    repo: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The findings' objects are kept per unit, as text blocks are: an edit renders its unit's again, and the
    document is byte for byte the one a run without a cache writes."""
    run_cli("check", ".", "--format", "json")
    main = repo / "beta" / "main.go"
    main.write_text(main.read_text() + "// edited\n", encoding="utf-8")
    rendered_paths: list[str] = []
    real = report_json._finding

    def spy(finding: Finding, name: str) -> str:
        rendered_paths.append(finding.span.path)
        return real(finding, name)

    monkeypatch.setattr(report_json, "_finding", spy)
    edited = run_cli("check", ".", "--format", "json")
    assert rendered_paths == ["beta/main.go"]
    assert edited == run_cli("check", ".", "--format", "json", "--no-cache")
    assert [(f["path"], f["line"]) for f in json.loads(edited.stdout)["findings"]] == [
        ("alpha/main.go", 10),
        ("beta/main.go", 10),
        ("gamma/main.go", 10),
    ]
