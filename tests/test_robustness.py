"""Hostile and broken input never crashes the run or loses findings (the bad-input tree is generated here:
large files are not committed). Two runs, and runs from different folders, give byte-identical output."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import CliResult, validate_sarif, write_tree

from watchlint import source

GO_MOD = "module example.com/bad\n\ngo 1.22\n\nrequire sigs.k8s.io/controller-runtime v0.19.0\n"
MAIN = """package main

import ctrl "sigs.k8s.io/controller-runtime"

func main() {
	if _, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{}); err != nil {
		panic(err)
	}
}
"""
FINDING = """package controller

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
)

func Setup(mgr ctrl.Manager, r any) error {
	return ctrl.NewControllerManagedBy(mgr).For(&appsv1.Deployment{}).Owns(&corev1.Secret{}).Complete(nil)
}
"""
DEPTH = 5000
BAD = {  # path -> the start of the diagnostic it must get, after its level
    "controller/latin1.go": "controller/latin1.go: file is not valid UTF-8",
    "operator/utf16.py": "operator/utf16.py: file is UTF-16 encoded",
    "controller/binary.go": "controller/binary.go: file is binary",
    "controller/huge.go": "controller/huge.go: file is larger than 10 MB",
    "operator/deep.py": "operator/deep.py: brackets nested 5000 deep",
    "controller/unclosed.go": "controller/unclosed.go: cannot parse line",
    "controller/truncated.go": "controller/truncated.go: cannot parse line",
    "operator/python2.py": "operator/python2.py: looks like Python 2",
    "operator/broken.py": "operator/broken.py: syntax error at line 1",
    "controller/dangling.go": "controller/dangling.go: broken symbolic link",
    "controller/loop.go": "controller/loop.go: symbolic link loop",
    "controller/secret.go": "controller/secret.go: cannot read file: Permission denied",
}
RunCli = Callable[..., CliResult]


def _bad_tree(root: Path) -> Path:
    write_tree(
        root,
        {
            "go.mod": GO_MOD,
            "main.go": MAIN,
            "controller/shop.go": FINDING,
            "controller/latin1.go": b"package controller\n// caf\xe9\n",
            "operator/utf16.py": "import kopf\n".encode("utf-16"),
            "controller/binary.go": b"\x7fELF\x00\x00package controller",
            "controller/huge.go": b"package controller\n" + b"// padding padding padding padding padding\n" * 260_000,
            "controller/deep.go": "package controller\n\nvar x = " + "(" * DEPTH + "1" + ")" * DEPTH + "\n",
            "operator/deep.py": "import kopf\nx = " + "[" * DEPTH + "]" * DEPTH + "\n",
            "controller/unclosed.go": "package controller\n\nfunc f() {\n\tif true {\n",
            "controller/truncated.go": 'package controller\n\nimport (\n\tcorev1 "k8s.io/api/core/v1"\n',
            "operator/python2.py": 'import kopf\nprint "hello"\n',
            "operator/broken.py": "def handler(:\n    pass\n",
            "controller/bom.go": b"\xef\xbb\xbfpackage controller\n",
            "controller/crlf.go": b"package controller\r\n\r\nfunc crlf() {}\r\n",
            "controller/cr.go": b"package controller\r\rfunc cr() {}\r",
            "controller/empty.go": b"",
            "controller/with space.go": "package controller\n",
            "controller/café.go": "package controller\n",
            "controller/secret.go": "package controller\n",
            "tools/go.mod": "this is not a go.mod\x00\n",
            "tools/tool.go": "package tools\n",
        },
    )
    (root / "controller" / "dangling.go").symlink_to("missing.go")  # relative: the tree may move
    (root / "controller" / "loop.go").symlink_to("loop.go")
    return root


@pytest.fixture
def bad_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = _bad_tree(tmp_path / "bad")
    monkeypatch.chdir(root)
    unreadable = (root / "controller" / "secret.go").resolve()
    real_read = source.read_bytes

    def read_bytes(path: Path) -> bytes:  # CI runs as root, where chmod 000 does not stop reading
        if path.resolve() == unreadable:
            raise PermissionError(13, "Permission denied", str(path))
        return real_read(path)

    monkeypatch.setattr(source, "read_bytes", read_bytes)
    return root


def test_bad_tree_gives_one_diagnostic_per_bad_file_and_keeps_the_finding(bad_tree: Path, run_cli: RunCli) -> None:
    result = run_cli("check", ".")
    assert result.exit_code == 1
    assert "controller/shop.go:10:68: WL001 `Owns(&corev1.Secret{})` caches every Secret" in result.stdout
    diagnostics = result.stderr.splitlines()
    for path, start in BAD.items():
        matching = [line for line in diagnostics if line.split(": ", 1)[-1].startswith(start)]
        assert len(matching) == 1, (path, diagnostics)
    assert "warning: tools/go.mod: no module line" in result.stderr
    clean = ("bom.go", "crlf.go", "cr.go", "empty.go", "with space.go", "café.go", "deep.go")
    assert not [line for line in diagnostics if any(name in line for name in clean)]


def test_bad_tree_sarif_has_a_notification_per_bad_file(bad_tree: Path, run_cli: RunCli) -> None:
    result = run_cli("check", ".", "--format", "sarif", "--output", "report.sarif")
    assert result.exit_code == 1
    log = validate_sarif((bad_tree / "report.sarif").read_text(encoding="utf-8"))
    notifications = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    uris = [item["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for item in notifications]
    for path in BAD:
        assert uris.count(path) == 1, (path, uris)
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["WL001"]


def test_no_file_analyzable_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_cli: RunCli) -> None:
    write_tree(tmp_path, {"a.go": b"\x00\x01", "b.py": b"caf\xe9 = 1\n"})
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", ".")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == "error: no file could be analyzed"


def test_an_internal_error_in_one_file_is_a_notification(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_cli: RunCli
) -> None:
    from watchlint.go import policy

    write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": MAIN, "controller/shop.go": FINDING})
    monkeypatch.chdir(tmp_path)
    real = policy.extract_policy

    def failing(file, resolver, evaluator, links, replaced):  # type: ignore[no-untyped-def]
        if file.path == "main.go":
            raise RuntimeError("boom")
        return real(file, resolver, evaluator, links, replaced)

    monkeypatch.setattr(policy, "extract_policy", failing)
    monkeypatch.setattr("watchlint.go.extract_policy", failing)
    result = run_cli("check", ".", "-v")
    assert result.exit_code == 1  # the rest of the module is still analyzed
    assert "error: main.go: internal error while analyzing this file; run with -v for details" in result.stderr
    assert "RuntimeError: boom" in result.stderr


def test_an_internal_error_resolving_one_site_loses_only_that_files_sites(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_cli: RunCli
) -> None:
    """Sites are resolved module-wide once every file is read: a failure there is its file's notification,
    and the other files' findings are still reported."""
    import watchlint.go as go

    other = FINDING.replace("setup(", "setupPods(").replace("corev1.Secret", "corev1.Pod")
    write_tree(
        tmp_path, {"go.mod": GO_MOD, "main.go": MAIN, "controller/shop.go": FINDING, "controller/pods.go": other}
    )
    monkeypatch.chdir(tmp_path)
    real = go._site

    def failing(found, *rest, **named):  # type: ignore[no-untyped-def]
        if found.item.file.path == "controller/shop.go":
            raise RuntimeError("boom")
        return real(found, *rest, **named)

    monkeypatch.setattr(go, "_site", failing)
    result = run_cli("check", ".", "-v")
    assert result.exit_code == 1
    assert [line.split(" `")[0] for line in result.stdout.splitlines() if ": WL" in line] == [
        "controller/pods.go:10:68: WL001"
    ]
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert errors == ["error: controller/shop.go: internal error while analyzing this file; run with -v for details"]


@pytest.mark.slow
def test_output_is_byte_identical_across_runs_and_folders(tmp_path: Path) -> None:
    root = _bad_tree(tmp_path / "bad")
    (root / "controller" / "secret.go").unlink()
    outputs = []
    for output_format in ("json", "sarif"):
        runs = []
        for _ in range(2):
            command = [sys.executable, "-m", "watchlint", "check", ".", "--format", output_format]
            done = subprocess.run(command, cwd=root, capture_output=True, timeout=120, check=False)
            runs.append(done.stdout)
        assert runs[0] == runs[1]
        outputs.append(runs[0])
    assert json.loads(outputs[0])["findings"]
    moved = tmp_path / "elsewhere"
    os.rename(root, moved)
    command = [sys.executable, "-m", "watchlint", "check", ".", "--format", "sarif"]
    again = subprocess.run(command, cwd=moved, capture_output=True, timeout=120, check=False)
    assert again.stdout == outputs[1]
