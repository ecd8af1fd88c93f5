"""Fix cases: each case under tests/fixtures/<go|python>/fixes-safe|fixes-unsafe/<case>/ is copied, fixed with
--fix (and --unsafe-fixes for the unsafe group), and compared with the `<file>.fixed` goldens beside the files
it must edit. The fixed tree must parse (tree-sitter-go, libcst), keep gofmt's formatting, report none of the
fixed findings again, and a second --fix must change nothing (DESIGN §2.4, §2.5)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import gofmt_problem

from watchlint import fixer
from watchlint.catalog import Catalog
from watchlint.config import CommandLine
from watchlint.engine import run
from watchlint.go import parser as go_parser
from watchlint.python import parser as python_parser
from watchlint.source import read_source

FIXTURES = Path(__file__).parent / "fixtures"
GROUPS = {"fixes-safe": False, "fixes-unsafe": True}
CASES = sorted(
    case
    for language in ("go", "python")
    for group in GROUPS
    if (FIXTURES / language / group).is_dir()
    for case in sorted((FIXTURES / language / group).iterdir())
    if case.is_dir()
)


def _case_id(case: Path) -> str:
    return case.relative_to(FIXTURES).as_posix()


def _goldens(case: Path) -> dict[str, bytes]:
    """{path of the edited file: expected bytes} from the `.fixed` files of a case (bytes: line endings count)."""
    return {
        golden.relative_to(case).as_posix().removesuffix(".fixed"): golden.read_bytes()
        for golden in sorted(case.rglob("*.fixed"))
    }


def test_there_are_fix_cases_for_both_languages_and_every_era() -> None:
    go_mods = "".join((case / "go.mod").read_text() for case in CASES if (case / "go.mod").is_file())
    assert len(CASES) >= 15
    assert all(version in go_mods for version in ("v0.14", "v0.15", "v0.19"))
    assert len([case for case in CASES if case.parts[-3] == "python"]) >= 4


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_fix_case(
    case: Path, catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, golden_update: bool
) -> None:
    include_unsafe = GROUPS[case.parent.name]
    work = tmp_path / case.name
    shutil.copytree(case, work, ignore=shutil.ignore_patterns("*.fixed"))
    monkeypatch.chdir(work)
    outcome = fixer.fix([Path(".")], CommandLine(), catalog, include_unsafe)
    fixed_before = {(f.span.path, f.code, f.construct) for f in outcome.fixed}
    fixer.write_all(outcome)
    changed = {path.relative_to(work).as_posix(): path.read_bytes() for path in outcome.changed}
    if golden_update:
        for relative, content in changed.items():
            (case / f"{relative}.fixed").write_bytes(content)
        return
    assert changed == _goldens(case), "the fixed files differ from the .fixed goldens (pytest --update-goldens)"
    for relative in changed:
        if relative.endswith(".go"):
            tree = go_parser.parse(read_source(work / relative, relative))
            assert go_parser.first_syntax_error(tree) is None, relative
        elif relative.endswith(".py"):
            python_parser.parse(read_source(work / relative, relative))  # libcst parses it, or this raises
    remaining = {(f.span.path, f.code, f.construct) for f in run([Path(".")], CommandLine(), catalog).findings}
    assert not fixed_before & remaining, "fixed findings are reported again"
    again = fixer.fix([Path(".")], CommandLine(), catalog, include_unsafe)
    assert again.changed == [], "a second --fix changed files again"
    _assert_gofmt_clean(work, [relative for relative in changed if relative.endswith(".go")])


def _assert_gofmt_clean(root: Path, files: list[str]) -> None:
    for relative in files:
        problem = gofmt_problem(root / relative)
        assert problem is None, f"{relative}: {problem}"


@pytest.fixture
def golden_update(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))
