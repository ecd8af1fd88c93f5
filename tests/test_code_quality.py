"""The code-quality gates of the project run as tests: ruff (lint and format) and mypy --strict."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import REPO


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *command], cwd=REPO, capture_output=True, text=True, check=False)


def test_ruff_check_is_clean() -> None:
    result = _run("ruff", "check", "watchlint", "tests", "benchmarks")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean() -> None:
    result = _run("ruff", "format", "--check", "watchlint", "tests", "benchmarks")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_mypy_strict_is_clean() -> None:
    result = _run("mypy", "--strict", "watchlint")
    assert result.returncode == 0, result.stdout + result.stderr
    names = ("run.py", "generate.py", "floor.py", "parse_only.py", "harness", "synthetic")
    benchmarks = _run("mypy", "--strict", *(f"benchmarks/{name}" for name in names))
    assert benchmarks.returncode == 0, benchmarks.stdout + benchmarks.stderr
