"""Go sites (watchlint/go/sites.py) where the fixture grammar cannot say enough: the evidence a site carries."""

from __future__ import annotations

from pathlib import Path

import pytest

from watchlint.catalog import Catalog
from watchlint.config import CommandLine
from watchlint.engine import run

FIXTURES = Path(__file__).parent / "fixtures" / "go"


def test_a_chained_event_filter_is_cited_where_the_chain_calls_it(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The evidence of `WithEventFilter` starts at its name, not at `ctrl.NewControllerManagedBy` heading the chain."""
    monkeypatch.chdir(FIXTURES / "WL003" / "builder-wide-event-filter")
    report = run([Path(".")], CommandLine(), catalog)
    (pods,) = [finding for finding in report.findings if finding.code == "WL003" and finding.kind == "Pod"]
    filters = [
        (related.span.line, related.span.column, related.message)
        for related in pods.related
        if "WithEventFilter" in related.message
    ]
    assert filters == [(39, 3, "`WithEventFilter(…)` filters events only")]
