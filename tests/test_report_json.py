"""The JSON reporter against its golden file and its documented shape."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from report_case import CASE, build_report

from watchlint.catalog import Catalog
from watchlint.engine import make_report
from watchlint.findings import Finding, Related, Suppression, SuppressionKind
from watchlint.fixes import Applicability, Edit, Fix
from watchlint.levels import Level
from watchlint.report_json import render
from watchlint.source import Span


def test_json_report_matches_golden(
    monkeypatch: pytest.MonkeyPatch, catalog: Catalog, golden: Callable[[Path, str], None]
) -> None:
    monkeypatch.chdir(CASE)
    golden(CASE / "expected.json", render(build_report(catalog), catalog))


def test_json_report_keeps_suppressed_findings_flagged(catalog: Catalog) -> None:
    document = json.loads(render(build_report(catalog), catalog))
    assert document["version"] == 1
    flagged = [(f["code"], f["path"], f["line"], f["suppressed"]) for f in document["findings"]]
    assert flagged == [
        ("WL002", "internal/controller/app_controller.go", 21, False),
        ("WL002", "internal/controller/app_controller.go", 26, True),
        ("WL001", "internal/controller/app_controller.go", 35, False),
        ("WL003", "internal/controller/app_controller.go", 36, False),
        ("WL001", "operator/handlers.py", 5, False),
        ("WL004", "operator/handlers.py", 13, True),
    ]
    assert document["findings"][1]["suppression"] == {
        "kind": "ignore",
        "justification": "the pod informer is shared with the Owns watch below",
    }


def test_json_report_lists_mitigated_sites_only_on_request(catalog: Catalog) -> None:
    report = build_report(catalog)
    assert "mitigated" not in json.loads(render(report, catalog))
    mitigated = json.loads(render(report, catalog, show_mitigated=True))["mitigated"]
    assert [(m["code"], m["path"], m["line"], m["reason"]) for m in mitigated] == [
        ("WL004", "operator/handlers.py", 15, "selector")
    ]


def test_json_report_is_written_as_json_dumps_with_an_indent_of_two(catalog: Catalog) -> None:
    """Findings are written directly, not through dicts: every member, empty lists, a fix without edits, and
    strings that need escaping come out as json.dumps(indent=2, ensure_ascii=False) writes them."""
    odd = 'a "quoted" \\ back\tslash\nnew line, é 日本 \x01'
    span = Span("cmd/mäin.go", 3, 1, 4, 2)
    findings = [
        Finding("WL001", Level.WARNING, span, "plain", "Secret", "Owns(&corev1.Secret{})"),
        Finding(
            "WL002",
            Level.ERROR,
            Span("cmd/main.go", 7, 5, 7, 9),
            odd,
            "ConfigMap",
            odd,
            related=(Related(span, odd), Related(span, "")),
            help=odd,
            fixes=(
                Fix(odd, Applicability.SAFE, (Edit(span, odd), Edit(span, ""))),
                Fix("no edits", Applicability.UNSAFE),
            ),
            suppression=Suppression(SuppressionKind.IGNORE, span, odd),
        ),
    ]
    text = render(make_report(findings, [], [], 2), catalog)
    document = json.loads(text)
    assert text == json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    assert [finding["message"] for finding in document["findings"]] == [odd, "plain"]  # cmd/main.go first
    assert document["findings"][0]["fixes"][0]["edits"][0]["new_text"] == odd
    assert document["findings"][0]["suppression"] == {"kind": "ignore", "justification": odd}
    assert document["findings"][1]["related"] == document["findings"][1]["fixes"] == []
