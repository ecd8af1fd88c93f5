"""GitHub workflow annotations: golden file and escaping."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from report_case import CASE, build_report

from watchlint.catalog import Catalog
from watchlint.report_github import _escape_data, _escape_property, render


def test_github_annotations_match_golden(
    monkeypatch: pytest.MonkeyPatch, catalog: Catalog, golden: Callable[[Path, str], None]
) -> None:
    monkeypatch.chdir(CASE)
    golden(CASE / "expected.github", render(build_report(catalog), catalog))


def test_github_annotations_skip_suppressed_findings(catalog: Catalog) -> None:
    lines = render(build_report(catalog), catalog).splitlines()
    assert len([line for line in lines if "title=WL" in line]) == 4
    assert not any("line=26" in line for line in lines)


@pytest.mark.parametrize(
    ("text", "data", "prop"),
    [
        ("50% done", "50%25 done", "50%25 done"),
        ("a\nb\r", "a%0Ab%0D", "a%0Ab%0D"),
        ("k8s.io/api:v1, x", "k8s.io/api:v1, x", "k8s.io/api%3Av1%2C x"),
    ],
    ids=["percent", "newlines", "colon-comma"],
)
def test_github_escaping_follows_workflow_command_rules(text: str, data: str, prop: str) -> None:
    assert _escape_data(text) == data
    assert _escape_property(text) == prop
