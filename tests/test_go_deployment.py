"""The Go evaluator of the default deployment (watchlint/go/deployment.py) where the fixture grammar cannot say
enough: its bound on evaluations nested one inside the other."""

from __future__ import annotations

from pathlib import Path

import pytest

from watchlint.catalog import Catalog
from watchlint.config import CommandLine
from watchlint.engine import run
from watchlint.go import deployment

NESTED_FLAGS = Path(__file__).parent / "fixtures" / "go" / "deployment" / "restriction-behind-two-nested-flags"


def _findings(catalog: Catalog) -> list[tuple[str, str, int]]:
    report = run([Path(".")], CommandLine(), catalog)
    return [(finding.code, finding.span.path, finding.span.line) for finding in report.findings]


def test_evaluations_nested_past_the_bound_are_unknown(catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    """Chains of helpers whose parameters are bound to what their callers pass nest evaluations past Python's
    stack (argo-workflows' artifact server); past MAX_NESTING a value is unknown, and a condition that cannot
    be evaluated counts as holding: the scope the two flags set then counts, and the watch is no finding."""
    monkeypatch.chdir(NESTED_FLAGS)
    assert _findings(catalog) == [("WL001", "main.go", 17)]
    monkeypatch.setattr(deployment, "MAX_NESTING", 0)
    assert _findings(catalog) == []
