"""The JSON reporter against its golden file and its documented shape."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from report_case import CASE, build_report

from watchlint.catalog import Catalog
from watchlint.report_json import render


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
