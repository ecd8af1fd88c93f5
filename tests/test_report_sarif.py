"""The SARIF reporter: golden file, schema validity, and the conventions GitHub code scanning relies on."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace as change
from pathlib import Path
from typing import Any

import pytest
from conftest import validate_sarif
from report_case import CASE, build_report

from watchlint.catalog import Catalog
from watchlint.findings import Level
from watchlint.metadata import repository_url
from watchlint.report_sarif import _LineHashes, render, within_github_limit
from watchlint.source import SourceLines, Span


@pytest.fixture
def sarif_log(monkeypatch: pytest.MonkeyPatch, catalog: Catalog) -> dict[str, Any]:
    monkeypatch.chdir(CASE)
    return validate_sarif(render(build_report(catalog), catalog, SourceLines()))


def test_sarif_report_matches_golden(
    monkeypatch: pytest.MonkeyPatch, catalog: Catalog, golden: Callable[[Path, str], None]
) -> None:
    monkeypatch.chdir(CASE)
    text = render(build_report(catalog), catalog, SourceLines())
    validate_sarif(text)
    golden(CASE / "expected.sarif", text)


def test_sarif_lists_every_rule_with_its_documentation(sarif_log: dict[str, Any], catalog: Catalog) -> None:
    rules = sarif_log["runs"][0]["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == [rule.code for rule in catalog.active_rules]
    for descriptor, rule in zip(rules, catalog.active_rules, strict=True):
        assert descriptor["name"] == rule.name
        assert descriptor["shortDescription"]["text"] == rule.summary
        assert descriptor["help"]["markdown"] == rule.body
        assert descriptor["defaultConfiguration"]["level"] == str(rule.level)
        assert descriptor["helpUri"] == f"{repository_url()}/blob/main/docs/rules/{rule.code}.md"


def test_sarif_results_point_at_relative_uris_with_rule_index(sarif_log: dict[str, Any]) -> None:
    run = sarif_log["runs"][0]
    assert run["columnKind"] == "unicodeCodePoints"
    first = run["results"][0]
    assert first["ruleId"] == "WL002"
    assert run["tool"]["driver"]["rules"][first["ruleIndex"]]["id"] == "WL002"
    assert first["level"] == "warning"
    location = first["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "internal/controller/app_controller.go", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 21, "startColumn": 14, "endLine": 21, "endColumn": 17}
    related = first["relatedLocations"][0]
    assert related["physicalLocation"]["artifactLocation"]["uri"] == "cmd/main.go"
    assert related["message"]["text"] == "cache options here leave ConfigMap unrestricted"


def test_sarif_results_carry_both_fingerprints(sarif_log: dict[str, Any]) -> None:
    fingerprints = [result["partialFingerprints"] for result in sarif_log["runs"][0]["results"]]
    assert all(set(item) == {"primaryLocationLineHash", "watchlint/v1"} for item in fingerprints)
    assert all(item["primaryLocationLineHash"].endswith(":1") for item in fingerprints)
    assert len({item["watchlint/v1"] for item in fingerprints}) == len(fingerprints)


def test_sarif_keeps_suppressed_results_with_justification(sarif_log: dict[str, Any]) -> None:
    suppressed = [r for r in sarif_log["runs"][0]["results"] if "suppressions" in r]
    assert [(r["ruleId"], r["suppressions"]) for r in suppressed] == [
        ("WL002", [{"kind": "inSource", "justification": "the pod informer is shared with the Owns watch below"}]),
        ("WL004", [{"kind": "inSource"}]),
    ]


def test_sarif_reports_notifications_in_the_invocation(sarif_log: dict[str, Any]) -> None:
    invocation = sarif_log["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is True
    assert invocation["toolExecutionNotifications"] == [
        {
            "level": "error",
            "message": {"text": "syntax error at line 3; file skipped"},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": "operator/legacy.py", "uriBaseId": "%SRCROOT%"},
                        "region": {"startLine": 3},
                    }
                }
            ],
        }
    ]


def test_sarif_line_hash_ignores_whitespace_and_counts_repeats(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a.go").write_text("x := r.Get()\n\tx := r.Get()\nother\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    hashes = _LineHashes(SourceLines())
    first, second, third = (hashes.hash(Span("a.go", line, 1, line, 2)) for line in (1, 2, 3))
    assert first.split(":")[0] == second.split(":")[0]
    assert (first.split(":")[1], second.split(":")[1]) == ("1", "2")
    assert third.split(":")[0] != first.split(":")[0]
    assert json.dumps(first)  # plain strings


def test_sarif_keeps_the_most_severe_results_within_githubs_limit(catalog: Catalog) -> None:
    report = build_report(catalog)
    graded = tuple(
        change(finding, level=Level.NOTE if index % 2 else Level.ERROR) for index, finding in enumerate(report.findings)
    )
    limited = within_github_limit(change(report, findings=graded), limit=2)
    assert [finding.level for finding in limited.findings] == [Level.ERROR, Level.ERROR]
    assert [finding.span.line for finding in limited.findings] == [21, 35]
    assert limited.notifications[-1].message == (
        "4 results left out: GitHub code scanning accepts at most 2 per run; the most severe were kept"
    )
