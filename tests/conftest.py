"""Shared test fixtures: the catalogue, SARIF schema validation, golden files and a CLI runner."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from watchlint.catalog import Catalog, load_catalog
from watchlint.cli import main

TESTS = Path(__file__).parent
REPO = TESTS.parent
SARIF_SCHEMA = TESTS / "sarif-schema-2.1.0.json"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true", help="rewrite golden files instead of comparing")


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


def validate_sarif(document: str | dict[str, Any]) -> dict[str, Any]:
    """Validate a SARIF log against the official 2.1.0 schema and return it parsed."""
    log = json.loads(document) if isinstance(document, str) else document
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(schema).validate(log)
    return log


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> Callable[[Path, str], None]:
    """Compare text with a golden file, or rewrite it under --update-goldens."""

    def compare(path: Path, actual: str) -> None:
        if request.config.getoption("--update-goldens"):
            path.write_text(actual, encoding="utf-8")
            return
        assert path.is_file(), f"{path} is missing; run pytest --update-goldens and review it"
        assert actual == path.read_text(encoding="utf-8"), f"{path} differs; review, then pytest --update-goldens"

    return compare


@dataclass(frozen=True)
class CliResult:
    exit_code: int
    stdout: str
    stderr: str


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., CliResult]:
    """Run `watchlint ARGS` in-process through main() and capture its exit code and output."""

    def invoke(*args: str | Path) -> CliResult:
        capsys.readouterr()
        code = main([str(arg) for arg in args])
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return invoke


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    """Create files below `root` from a {relative path: content} mapping and return `root`."""
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def lines_of(text: str) -> Sequence[str]:
    return [line for line in text.splitlines() if line.strip()]


def gofmt_problem(path: Path) -> str | None:
    """Why gofmt would change a Go file (its error, or that it reformats it), None when it would not; skips
    the test where gofmt is not installed. A CRLF file is judged on its content with LF line endings, as
    gofmt writes LF."""
    gofmt = shutil.which("gofmt")
    if gofmt is None:
        pytest.skip("gofmt is not installed (.ci/run installs Debian's golang-go)")
    content = path.read_bytes().replace(b"\r\n", b"\n")
    result = subprocess.run([gofmt], input=content, capture_output=True, check=False)
    if result.returncode != 0:
        return result.stderr.decode()
    return None if result.stdout == content else "gofmt would reformat it"
