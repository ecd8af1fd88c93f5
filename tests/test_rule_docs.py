"""The examples in rules/*.md are executed (pylint's bad.py/good.py): a `bad` block gives its rule's code,
a `good` block does not. Go examples run in a temporary module beside a plain manager, Python examples as the
one file of a project (DESIGN §2.3)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO

from watchlint import ruledocs
from watchlint.catalog import Catalog, Example, Rule, load_catalog
from watchlint.config import CommandLine
from watchlint.engine import run

ANALYZED_LANGUAGES = ("go", "python")  # a language joins once its analyzer exists
GO_MOD = "module example.com/doc\n\ngo 1.22\n\nrequire sigs.k8s.io/controller-runtime v0.19.0\n"
GO_MAIN = """package main

import ctrl "sigs.k8s.io/controller-runtime"

func main() {
	if _, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{}); err != nil {
		panic(err)
	}
}
"""


def _examples() -> list[tuple[Rule, Example]]:
    return [
        (rule, example)
        for rule in load_catalog().active_rules
        for example in rule.examples
        if example.language in ANALYZED_LANGUAGES
    ]


def _example_id(item: tuple[Rule, Example]) -> str:
    rule, example = item
    return f"{rule.code}-{example.language}-{'bad' if example.is_bad else 'good'}-line{example.line}"


@pytest.mark.parametrize("item", _examples(), ids=[_example_id(item) for item in _examples()])
def test_rule_example_behaves_as_documented(
    item: tuple[Rule, Example], catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rule, example = item
    if example.language == "go":
        (tmp_path / "go.mod").write_text(GO_MOD, encoding="utf-8")
        (tmp_path / "main.go").write_text(GO_MAIN, encoding="utf-8")
        (tmp_path / "controller").mkdir()
        (tmp_path / "controller" / "example.go").write_text(example.code, encoding="utf-8")
    if example.language == "python":
        (tmp_path / "example.py").write_text(example.code, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    report = run([Path(".")], CommandLine(), catalog)
    codes = sorted({finding.code for finding in report.findings})
    assert not [n for n in report.notifications if n.level == "error"], report.notifications
    if example.is_bad:
        assert rule.code in codes, f"{rule.path.name}:{example.line}: the bad example gives {codes}"
    else:
        assert rule.code not in codes, f"{rule.path.name}:{example.line}: the good example gives {codes}"


def test_generated_rule_pages_are_current(catalog: Catalog) -> None:
    """docs/rules/ is generated from rules/: regenerate with `python -m watchlint.ruledocs docs/rules`."""
    generated = ruledocs.pages(catalog)
    folder = REPO / "docs" / "rules"
    on_disk = {path.name: path.read_text(encoding="utf-8") for path in folder.glob("*.md")}
    assert on_disk == generated


def test_terminal_rendering_drops_markdown_marks(catalog: Catalog) -> None:
    rule = catalog.rule("WL002")
    assert rule is not None
    text = ruledocs.render_terminal(rule, color=False, width=80)
    lines = text.splitlines()
    assert lines[:3] == [
        "WL002 implicit-informer-read",
        f"{rule.summary}.",
        "level: warning · languages: go",
    ]
    assert "WHY IS THIS BAD?" in lines
    assert not any(line.startswith(("#", "```")) for line in lines)
    assert all(len(line) <= 80 for line in lines if not line.startswith("    "))
    assert "Good (Go):" in lines
