"""The command line's entry point leaves without the interpreter's teardown: what it wrote still arrives
whole, with the exit code of the run."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import REPO, CliResult


@pytest.mark.parametrize("output_format", ["text", "json", "sarif"])
def test_the_command_line_writes_all_it_reports_before_it_leaves(
    output_format: str, run_cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    arguments = ["check", "examples", "--no-cache", "--format", output_format]
    in_process = run_cli(*arguments)
    launched = subprocess.run([sys.executable, "-m", "watchlint", *arguments], capture_output=True, text=True)
    assert (launched.returncode, launched.stdout, launched.stderr) == (1, in_process.stdout, in_process.stderr)
    assert in_process.exit_code == 1
    assert len(launched.stdout) > 1000


def test_a_report_written_to_a_file_is_whole_when_the_command_line_leaves(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    arguments = ["check", str(REPO / "examples"), "--no-cache", "--format", "json", "-o", str(report)]
    launched = subprocess.run([sys.executable, "-m", "watchlint", *arguments], capture_output=True, text=True)
    assert launched.returncode == 1
    assert report.read_text(encoding="utf-8").rstrip().endswith("}")
