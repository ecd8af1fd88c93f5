"""The text reporter against its golden file, plus the options that change it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from report_case import CASE, build_report

from watchlint.catalog import Catalog
from watchlint.engine import Report
from watchlint.facts import Notification, NotificationLevel
from watchlint.findings import Applicability, Edit, Finding, Fix, Level
from watchlint.report_text import TextOptions, render, render_notification
from watchlint.source import SourceLines, Span


@pytest.fixture
def in_case(monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(CASE)
    return CASE


def test_text_report_matches_golden(in_case: Path, catalog: Catalog, golden: Callable[[Path, str], None]) -> None:
    text = render(build_report(catalog), SourceLines(), TextOptions())
    golden(in_case / "expected.txt", text)


def test_text_report_hides_suppressed_findings_unless_asked(in_case: Path, catalog: Catalog) -> None:
    report = build_report(catalog)
    hidden = render(report, SourceLines(), TextOptions())
    shown = render(report, SourceLines(), TextOptions(show_suppressed=True))
    assert "internal/controller/app_controller.go:26:14: WL002" not in hidden
    assert "internal/controller/app_controller.go:26:14: WL002" in shown
    assert "   = suppressed: the pod informer is shared with the Owns watch below" in shown


def test_text_report_lists_mitigated_sites_on_request(in_case: Path, catalog: Catalog) -> None:
    report = build_report(catalog)
    listed = render(report, SourceLines(), TextOptions(show_mitigated=True))
    default = render(report, SourceLines(), TextOptions())
    line = (
        "operator/handlers.py:15:10: ok WL004 [selector] "
        '`core.list_config_map_for_all_namespaces(label_selector="app=widget")`'
        ' (operator/handlers.py:15:45: label_selector="app=widget")'
    )
    assert line in listed.splitlines()
    assert line not in default.splitlines()
    assert "1 mitigated site, see --show-mitigated" in default


def test_text_report_colors_only_when_asked(in_case: Path, catalog: Catalog) -> None:
    report = build_report(catalog)
    assert "\x1b[" not in render(report, SourceLines(), TextOptions(color=False))
    assert "\x1b[" in render(report, SourceLines(), TextOptions(color=True))


def test_caret_aligns_under_the_name_token_after_tabs(in_case: Path, catalog: Catalog) -> None:
    text = render(build_report(catalog), SourceLines(), TextOptions())
    lines = text.splitlines()
    source = lines.index("21 |     if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {")
    assert lines[source + 1] == "   |                 ^^^"


def test_notification_line_names_level_path_and_message() -> None:
    note = Notification("a/b.go", "file is binary (contains NUL bytes)", NotificationLevel.ERROR)
    assert render_notification(note, color=False) == "error: a/b.go: file is binary (contains NUL bytes)"


def test_a_very_long_line_is_cut_around_the_span(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    line = "var x = " + "a" * 5000 + "; _ = c.List(nil, &l); var y = " + "b" * 5000
    (tmp_path / "one.go").write_text(f"package x\n{line}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    column = line.index("c.List") + 1
    finding = Finding(
        code="WL002",
        level=Level.WARNING,
        span=Span("one.go", 2, column, 2, column + 6),
        message="`c.List` on Secret starts a cluster-wide Secret informer",
        kind="Secret",
        construct="c.List(nil, &l)",
    )
    report = Report(findings=(finding,), mitigated=(), notifications=(), files_analyzed=1)
    lines = render(report, SourceLines(), TextOptions(show_summary=False)).splitlines()
    assert lines[2] == "2 | …" + "a" * 54 + "; _ = c.List(nil, &l); var y = " + "b" * 41 + "…"  # 60 columns each side
    assert lines[3] == "  | " + " " * 61 + "^^^^^^"


def test_a_finding_with_a_fix_shows_the_help_and_the_fix_with_its_preview(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "watch.py").write_text("for event in w.stream(v1.list_secret_for_all_namespaces):\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    edit = Edit(Span("watch.py", 1, 26, 1, 56), "list_namespaced_secret, namespace")
    finding = Finding(
        code="WL003",
        level=Level.WARNING,
        span=Span("watch.py", 1, 14, 1, 22),
        message="`w.stream(v1.list_secret_for_all_namespaces)` filters events only; every Secret is still streamed",
        kind="Secret",
        construct="w.stream(v1.list_secret_for_all_namespaces)",
        help='Pass label_selector="app=shop", what the loop keeps',
        fixes=(Fix("List Secret in namespace `namespace` only", Applicability.UNSAFE, (edit,)),),
    )
    report = Report(findings=(finding,), mitigated=(), notifications=(), files_analyzed=1)
    lines = render(report, SourceLines(), TextOptions(show_summary=False)).splitlines()
    assert lines[4:] == [
        '  = help: Pass label_selector="app=shop", what the loop keeps',
        "  = fix: List Secret in namespace `namespace` only [unsafe]",
        "    watch.py:1",
        "    - for event in w.stream(v1.list_secret_for_all_namespaces):",
        "    + for event in w.stream(v1.list_namespaced_secret, namespace):",
    ]
