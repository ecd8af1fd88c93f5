"""50,000 findings render in every format: complete where the format allows, capped where GitHub caps SARIF.

A quadratic pass over findings (or over source lines per finding) turns these renders from about a second into
minutes, which the suite's run time shows; how the render time grows is measured in benchmarks/.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import validate_sarif, write_tree

from watchlint import report_github, report_json, report_sarif, report_statistics, report_text
from watchlint.catalog import Catalog
from watchlint.engine import Report
from watchlint.findings import Finding, Level
from watchlint.source import SourceLines, Span

FILES = 500
PER_FILE = 100
TOTAL = FILES * PER_FILE
CODES = ("WL001", "WL002", "WL003", "WL004", "WL005")


@pytest.fixture(scope="module")
def large_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Report]:
    root = tmp_path_factory.mktemp("large")
    source = "".join(f"\t_ = r.Get(ctx, key{line}, &cm)\n" for line in range(PER_FILE))
    write_tree(root, {f"internal/c{index:03}/reconcile.go": source for index in range(FILES)})
    findings = [
        Finding(
            code=CODES[line % len(CODES)],
            level=Level.NOTE if line % len(CODES) == 3 else Level.WARNING,
            span=Span(f"internal/c{index:03}/reconcile.go", line + 1, 6, line + 1, 11),
            message=f"`r.Get` caches every ConfigMap in the cluster (call {line})",
            kind="ConfigMap",
            construct=f"r.Get(ctx, key{line}, &cm)",
            enclosing=f"(*R{index}).Reconcile",
            help="Add ConfigMap to Client.Cache.DisableFor",
        )
        for index in range(FILES)
        for line in range(PER_FILE)
    ]
    report = Report(
        findings=tuple(findings),  # already in path, line order
        mitigated=(),
        notifications=(),
        files_analyzed=FILES,
    )
    return root, report


def test_text_lists_every_finding(large_report: tuple[Path, Report], monkeypatch: pytest.MonkeyPatch) -> None:
    root, report = large_report
    monkeypatch.chdir(root)
    text = report_text.render(report, SourceLines(), report_text.TextOptions())
    assert text.count(": WL00") == TOTAL
    assert "internal/c499/reconcile.go:100:6: WL005" in text


def test_json_lists_every_finding(large_report: tuple[Path, Report], catalog: Catalog) -> None:
    _, report = large_report
    document = json.loads(report_json.render(report, catalog))
    assert len(document["findings"]) == TOTAL
    assert document["findings"][-1]["path"] == "internal/c499/reconcile.go"


def test_github_annotates_every_finding(large_report: tuple[Path, Report], catalog: Catalog) -> None:
    _, report = large_report
    lines = report_github.render(report, catalog).splitlines()
    assert len(lines) == TOTAL
    assert sum(line.startswith("::notice ") for line in lines) == TOTAL // len(CODES)


def test_sarif_keeps_githubs_limit_and_says_what_it_left_out(
    large_report: tuple[Path, Report], catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, report = large_report
    monkeypatch.chdir(root)
    log = validate_sarif(report_sarif.render(report, catalog, SourceLines()))
    run = log["runs"][0]
    assert len(run["results"]) == report_sarif.MAX_RESULTS
    assert {result["level"] for result in run["results"]} == {"warning"}  # notes were the first to go
    assert [n["message"]["text"] for n in run["invocations"][0]["toolExecutionNotifications"]] == [
        f"{TOTAL - report_sarif.MAX_RESULTS} results left out: GitHub code scanning accepts at most "
        f"{report_sarif.MAX_RESULTS} per run; the most severe were kept"
    ]


def test_statistics_count_every_finding(large_report: tuple[Path, Report], catalog: Catalog) -> None:
    _, report = large_report
    counts = json.loads(report_statistics.render_json(report, catalog))
    assert sum(entry["count"] for entry in counts) == TOTAL
