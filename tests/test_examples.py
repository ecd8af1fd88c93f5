"""The bundled example operator (examples/, the README quick start) shows every rule once, next to a
mitigated variant of each, with exact findings."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO

from watchlint.catalog import Catalog
from watchlint.config import CommandLine
from watchlint.engine import Report, run
from watchlint.facts import Mitigation

GO = "go-operator/internal/controller"
EXPECTED_GO = [
    (f"{GO}/backup_controller.go", 98, "WL003"),
    (f"{GO}/backup_controller.go", 110, "WL005"),
    (f"{GO}/bookstore_controller.go", 52, "WL002"),
    (f"{GO}/bookstore_controller.go", 70, "WL002"),
    (f"{GO}/bookstore_controller.go", 83, "WL004"),
    (f"{GO}/bookstore_controller.go", 147, "WL001"),
]
MITIGATED_GO = [
    (f"{GO}/backup_controller.go", 97, Mitigation.METADATA_ONLY),
    (f"{GO}/backup_controller.go", 105, Mitigation.BY_OBJECT),
    (f"{GO}/bookstore_controller.go", 58, Mitigation.DISABLE_FOR),
    (f"{GO}/bookstore_controller.go", 94, Mitigation.NAMESPACE),
    (f"{GO}/bookstore_controller.go", 148, Mitigation.BY_OBJECT),
]
PY = "kopf-operator/bookstore_operator"
EXPECTED_PY = [
    (f"{PY}/handlers.py", 18, "WL001"),
    (f"{PY}/handlers.py", 26, "WL003"),
    (f"{PY}/handlers.py", 36, "WL004"),
]
MITIGATED_PY = [
    (f"{PY}/handlers.py", 37, Mitigation.SELECTOR),
]


@pytest.fixture
def report(catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> Report:
    monkeypatch.chdir(REPO / "examples")
    return run([Path(".")], CommandLine(), catalog)


def test_example_go_operator_findings(report: Report) -> None:
    found = [(f.span.path, f.span.line, f.code) for f in report.findings if f.span.path.endswith(".go")]
    assert found == EXPECTED_GO


def test_example_go_operator_mitigated_variants(report: Report) -> None:
    mitigated = [(m.span.path, m.span.line, m.reason) for m in report.mitigated if m.span.path.endswith(".go")]
    for item in MITIGATED_GO:
        assert item in mitigated


def test_example_kopf_operator_findings(report: Report) -> None:
    found = [(f.span.path, f.span.line, f.code) for f in report.findings if f.span.path.endswith(".py")]
    assert found == EXPECTED_PY


def test_example_kopf_operator_mitigated_variants(report: Report) -> None:
    mitigated = [(m.span.path, m.span.line, m.reason) for m in report.mitigated if m.span.path.endswith(".py")]
    assert mitigated == MITIGATED_PY


def test_example_covers_every_rule(report: Report) -> None:
    assert {f.code for f in report.findings} == {"WL001", "WL002", "WL003", "WL004", "WL005"}
    assert not report.notifications
