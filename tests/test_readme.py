"""The README stays true: the rule table matches rules/, and CI runs the quick-start test command."""

from __future__ import annotations

import re

from conftest import REPO

from watchlint.catalog import Catalog

README = (REPO / "README.md").read_text(encoding="utf-8")


def _quick_start_commands() -> list[str]:
    section = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert block is not None, "the Quick start has no ```sh block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_quick_start_has_exactly_two_command_lines() -> None:
    install_and_lint, install_and_test = _quick_start_commands()
    assert "watchlint check examples/" in install_and_lint
    assert "pytest" in install_and_test


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    test_command = _quick_start_commands()[1]
    assert test_command in ci.splitlines()


def test_rule_table_matches_the_catalogue(catalog: Catalog) -> None:
    table = README.split("<!-- rules-table:start -->", 1)[1].split("<!-- rules-table:end -->", 1)[0]
    rows = [line for line in table.strip().splitlines()[2:]]
    expected = [
        f"| [{rule.code}](rules/{rule.code}.md) | {rule.name} | {rule.level} | {', '.join(rule.languages)} "
        f"| {rule.summary} |"
        for rule in catalog.active_rules
    ]
    assert rows == expected


def test_command_line_section_lists_every_option_of_check() -> None:
    from watchlint.cli import check

    section = README.split("## Command line", 1)[1].split("\n## ", 1)[0]
    options = {name for param in check.params for name in param.opts if name.startswith("--")}
    missing = sorted(name for name in options if not re.search(rf"{re.escape(name)}\b", section))
    assert missing == []
