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


MAIN_GO = """\
package main

import (
\tctrl "sigs.k8s.io/controller-runtime"
)

func main() {
\tmgr, err := ctrl.NewManager(cfg, ctrl.Options{
\t\tLeaderElection: true,
\t})
}
"""
CLIENT_BLOCK = (
    "\t\tClient: client.Options{\n"
    "\t\t\tCache: &client.CacheOptions{\n"
    "\t\t\t\tDisableFor: []client.Object{&corev1.Secret{}},\n"
    "\t\t\t},\n"
    "\t\t},\n"
)
DISABLE_FOR_TITLE = "Add &corev1.Secret{} to Client.Cache.DisableFor in main.go"
DISABLE_FOR_EDITS = (
    Edit(Span("main.go", 10, 1, 10, 1), CLIENT_BLOCK),
    Edit(Span("main.go", 4, 1, 4, 1), '\tcorev1 "k8s.io/api/core/v1"\n'),
    Edit(Span("main.go", 5, 1, 5, 1), '\t"sigs.k8s.io/controller-runtime/pkg/client"\n'),
)


def _fix_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fix: Fix, color: bool = False) -> list[str]:
    """The `= fix:` line of a WL002 finding carrying `fix`, and the preview under it."""
    (tmp_path / "main.go").write_text(MAIN_GO, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    finding = Finding(
        code="WL002",
        level=Level.WARNING,
        span=Span("main.go", 8, 14, 8, 29),
        message="`r.Get` on Secret starts a cluster-wide Secret informer",
        kind="Secret",
        construct="r.Get(ctx, key, &s)",
        fixes=(fix,),
    )
    report = Report(findings=(finding,), mitigated=(), notifications=(), files_analyzed=1)
    lines = render(report, SourceLines(), TextOptions(color=color, show_summary=False)).splitlines()
    return lines[4:]


def test_a_preview_that_leaves_edits_out_says_how_many_and_where_to_see_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fix = Fix(DISABLE_FOR_TITLE, Applicability.SAFE, DISABLE_FOR_EDITS)
    assert _fix_lines(tmp_path, monkeypatch, fix) == [
        "  = fix: Add &corev1.Secret{} to Client.Cache.DisableFor in main.go [safe]",
        "    main.go:10",
        "    +         Client: client.Options{",
        "    +             Cache: &client.CacheOptions{",
        "    +                 DisableFor: []client.Object{&corev1.Secret{}},",
        "    +             },",
        "    +         },",
        "    main.go:4",
        '    +     corev1 "k8s.io/api/core/v1"',
        "    … and 1 more edit (see --diff)",
    ]


@pytest.mark.parametrize("count", [1, 2], ids=["one-edit", "two-edits"])
def test_a_preview_that_shows_every_edit_ends_with_the_last_edit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: int
) -> None:
    fix = Fix(DISABLE_FOR_TITLE, Applicability.SAFE, DISABLE_FOR_EDITS[:count])
    lines = _fix_lines(tmp_path, monkeypatch, fix)
    assert lines[-1] == ("    +         }," if count == 1 else '    +     corev1 "k8s.io/api/core/v1"')
    assert not any("…" in line for line in lines)


def test_the_count_of_edits_left_out_is_plural_and_names_unsafe_fixes_option(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    edits = (*DISABLE_FOR_EDITS, Edit(Span("main.go", 8, 2, 8, 5), "manager"))
    fix = Fix("Read Secret through mgr.GetAPIReader()", Applicability.UNSAFE, edits)
    assert _fix_lines(tmp_path, monkeypatch, fix)[-1] == "    … and 2 more edits (see --diff --unsafe-fixes)"


def test_a_preview_that_can_show_no_edit_still_counts_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spanning = Edit(Span("main.go", 8, 2, 10, 3), "mgr, err := ctrl.NewManager(cfg, options)")  # several lines
    fix = Fix("Build the manager from options", Applicability.SAFE, (spanning,))
    assert _fix_lines(tmp_path, monkeypatch, fix) == [
        "  = fix: Build the manager from options [safe]",
        "    … 1 edit not shown (see --diff)",
    ]


def test_the_count_of_edits_left_out_is_styled_like_the_preview(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fix = Fix(DISABLE_FOR_TITLE, Applicability.SAFE, DISABLE_FOR_EDITS)
    lines = _fix_lines(tmp_path, monkeypatch, fix, color=True)
    assert lines[-2] == '    \x1b[32m+     corev1 "k8s.io/api/core/v1"\x1b[0m'
    assert lines[-1] == "    … and 1 more edit (see --diff)"  # plain, like the `path:line` heads
