"""The benchmark's synthetic monorepo (benchmarks/generate.py) is deterministic and valid input.

The benchmark compares sizes and runs; that only means something if the same size always gives the same
bytes, if a bigger tree contains the smaller one, and if watchlint reads every generated file cleanly.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from conftest import REPO, CliResult

sys.path.insert(0, str(REPO / "benchmarks"))
import generate  # benchmarks/ is not a package


def _files(root: Path) -> dict[str, bytes]:
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in root.rglob("*") if path.is_file()}


def test_the_same_size_always_writes_the_same_bytes(tmp_path: Path) -> None:
    generate.generate(tmp_path / "first", 1)
    generate.generate(tmp_path / "second", 1)
    assert _files(tmp_path / "first") == _files(tmp_path / "second")


def test_the_2x_tree_contains_the_1x_tree(tmp_path: Path) -> None:
    generate.generate(tmp_path / "one", 1)
    generate.generate(tmp_path / "two", 2)
    one, two = _files(tmp_path / "one"), _files(tmp_path / "two")
    differing = sorted(name for name, data in one.items() if two.get(name) != data)
    assert differing == ["README.md"]  # it states the scale
    assert len(two) > len(one)


def test_watchlint_reads_the_1x_tree_without_notifications_and_finds_both_languages(
    tmp_path: Path, run_cli: Callable[..., CliResult]
) -> None:
    generate.generate(tmp_path, 1)
    result = run_cli("check", tmp_path, "--no-cache", "--format", "json", "-j1")
    report = json.loads(result.stdout)
    assert result.exit_code == 1
    assert report["notifications"] == []
    per_language = Counter((finding["path"].rsplit(".", 1)[1], finding["code"]) for finding in report["findings"])
    assert per_language == {
        ("go", "WL001"): 44,
        ("go", "WL002"): 63,
        ("go", "WL003"): 6,
        ("go", "WL005"): 3,
        ("py", "WL001"): 2,
        ("py", "WL003"): 3,
    }


def test_the_parse_floor_selects_files_as_watchlint_does() -> None:
    """benchmarks/floor.py runs without importing watchlint (its start-up would count in the floor), so it
    keeps its own copy of the selection rules: they must not drift from watchlint's."""
    import floor

    import watchlint.go.buildtags
    import watchlint.python
    from watchlint import discover

    assert floor.EXCLUDED_DIRECTORIES == discover.EXCLUDED_DIRECTORIES
    assert floor.TEST_DIRECTORIES == discover.TEST_DIRECTORIES
    assert floor._GO_GENERATED.pattern == watchlint.go.buildtags._GENERATED.pattern
    assert floor._PY_GENERATED.pattern == watchlint.python._GENERATED.pattern
    names = ["a_test.go", "a.go", "test_a.py", "a_test.py", "a.py", "testing.py", "contest.go"]
    assert [floor.is_test_file(name) for name in names] == [discover.is_test_file(name) for name in names]


def test_a_floor_that_cannot_parse_a_file_fails_on_a_generated_tree_only(tmp_path: Path) -> None:
    """A parse error of the floor means broken generator output on a generated tree, but is a property of a
    tree given with --path (watchlint reports the same file as a syntax error)."""
    import pytest
    import run

    (tmp_path / "ok.go").write_text('package ok\n\nimport _ "k8s.io/api/core/v1"\n', encoding="utf-8")
    (tmp_path / "broken.go").write_text("package broken\n\nfunc f( {\n", encoding="utf-8")
    command = [sys.executable, str(REPO / "benchmarks" / "floor.py"), "go", ".", "--jobs", "1"]
    with pytest.raises(RuntimeError, match="1 files failed to parse"):
        run.run_once(command, tmp_path)
    measured = run.run_once(command, tmp_path, accept_parse_errors=True)
    assert measured.exit_code == 0


def test_the_run_without_analysis_parses_every_go_file_and_finds_nothing(tmp_path: Path) -> None:
    """benchmarks/parse_only.py borrows the start of the Go front-end: it must keep parsing each file (a syntax
    error is still told at its line) while no pass of the analysis runs (the example's findings are gone), in
    one process and in the pool's workers (two modules)."""
    import os
    import shutil
    import subprocess

    for module in ("a", "b"):
        shutil.copytree(REPO / "examples" / "go-operator", tmp_path / module)
    with (tmp_path / "b" / "internal" / "controller" / "backup_controller.go").open("a", encoding="utf-8") as stream:
        stream.write("func broken( {\n")  # line 113
    environment = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [
        sys.executable,
        str(REPO / "benchmarks" / "parse_only.py"),
        "check",
        ".",
        "--no-cache",
        "--format",
        "json",
    ]
    for jobs in ("1", "2"):
        result = subprocess.run([*command, "-j", jobs], cwd=tmp_path, env=environment, capture_output=True, check=False)
        assert result.returncode == 0, result.stderr
        report = json.loads(result.stdout)
        assert report["findings"] == []
        assert [(item["path"], item["message"].split(" (")[0]) for item in report["notifications"]] == [
            ("b/internal/controller/backup_controller.go", "cannot parse line 113")
        ]
