"""Every fixture case under tests/fixtures/<go|python>/<group>/<case>/ is analyzed as its own root and its
inline expectations are compared with the findings in both directions (DESIGN §2.4)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import gofmt_problem
from expectations import compare, parse_expectations

from watchlint.catalog import Catalog
from watchlint.config import CommandLine
from watchlint.engine import run

FIXTURES = Path(__file__).parent / "fixtures"
CASES = sorted(
    case
    for language in ("go", "python")
    if (FIXTURES / language).is_dir()
    for group in sorted((FIXTURES / language).iterdir())
    if group.is_dir()
    for case in sorted(group.iterdir())
    if case.is_dir()
)


def _case_id(case: Path) -> str:
    return case.relative_to(FIXTURES).as_posix()


def test_there_are_fixture_cases() -> None:
    assert len([case for case in CASES if case.parts[-3] == "go"]) >= 30


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_fixture_case(case: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    expectations = parse_expectations(case)
    assert expectations, f"{_case_id(case)} has no expect/ok/todo annotation"
    monkeypatch.chdir(case)
    report = run([Path(".")], CommandLine(), catalog)
    problems = compare(expectations, report)
    # internal errors, and two findings at one place (one site, one finding), all say to run with -v
    crashes = [n for n in report.notifications if "run with -v for details" in n.message]
    assert not crashes, crashes
    assert not problems, "\n".join(problems)


def test_folders_above_a_module_do_not_make_its_code_test_code(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A module checked as `tests/…/case` from above had all its code taken for test code (`tests` is a test
    folder inside a module), and a deployed write of a configuration map was ignored."""
    case = FIXTURES / "go" / "deployment" / "configuration-embedded-in-a-cli-struct"
    monkeypatch.chdir(FIXTURES.parent.parent)
    shown = case.relative_to(FIXTURES.parent.parent).as_posix()
    report = run([Path(shown)], CommandLine(), catalog)
    assert [(f.code, f.span.path, f.span.line) for f in report.findings] == [("WL001", f"{shown}/cmd/main.go", 42)]
    assert [(m.code, m.span.path, m.span.line) for m in report.mitigated] == [("WL001", f"{shown}/cmd/main.go", 43)]


def test_go_fixtures_are_formatted_as_gofmt_formats_them() -> None:
    """Fixtures stand for real operator code, which gofmt formats: comments and alignment where it puts
    them."""
    files = sorted([*(FIXTURES / "go").rglob("*.go"), *(FIXTURES.parent.parent / "examples").rglob("*.go")])
    assert len(files) > 100
    changed = [path.relative_to(FIXTURES.parent.parent).as_posix() for path in files if gofmt_problem(path)]
    assert changed == []


def test_an_annotation_reads_its_text_before_or_after_its_flags(tmp_path: Path) -> None:
    """`[reason=…] "text"` was read without its text, so the text was never checked."""
    (tmp_path / "main.go").write_text(
        'a() // ok: WL002 "only when --x is set" [reason=off-by-default]\n'
        'b() // ok: WL002 [reason=off-by-default] "only when --y is set"\n'
        "c() // expect: WL001\n",
        encoding="utf-8",
    )
    found = [(e.line, e.code, e.substring, sorted(e.flags)) for e in parse_expectations(tmp_path)]
    assert found == [
        (1, "WL002", "only when --x is set", ["reason=off-by-default"]),
        (2, "WL002", "only when --y is set", ["reason=off-by-default"]),
        (3, "WL001", None, []),
    ]


def test_an_annotation_flag_the_comparison_does_not_know_is_an_error(tmp_path: Path) -> None:
    """`[disable-for]` for `[reason=disable-for]` was read as a flag nothing checks, so the reason went untested."""
    (tmp_path / "main.go").write_text("a() // ok: WL002 [disable-for]\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"main.go:1: unknown annotation flag 'disable-for'"):
        parse_expectations(tmp_path)
