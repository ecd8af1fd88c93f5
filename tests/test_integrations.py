"""The integrations, run for real: the pre-commit hook through `pre-commit try-repo`, the GitHub Action's
command on a fixture, and the places that must name the repository of pyproject.toml."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import REPO, validate_sarif, write_tree

REPOSITORY = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]["Repository"]
OPERATOR = {
    "go.mod": "module example.com/shop\n\ngo 1.22\n\nrequire sigs.k8s.io/controller-runtime v0.19.0\n",
    "main.go": """package main

import (
	ctrl "sigs.k8s.io/controller-runtime"

	"example.com/shop/controller"
)

func main() {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	if err != nil {
		panic(err)
	}
	if err := (&controller.ShopReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr); err != nil {
		panic(err)
	}
}
""",
    "controller/shop.go": """package controller

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type ShopReconciler struct {
	client.Client
}

func (r *ShopReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&appsv1.Deployment{}).
		Owns(&corev1.ConfigMap{}).
		Complete(r)
}
""",
}


def _git(root: Path, *arguments: str) -> None:
    environment = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    subprocess.run(["git", *arguments], cwd=root, env=environment, check=True, capture_output=True)


def _pre_commit(root: Path, home: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "watchlint", "--all-files"]
    environment = {**os.environ, "PRE_COMMIT_HOME": str(home), "NO_COLOR": "1"}
    return subprocess.run(command, cwd=root, env=environment, capture_output=True, text=True, timeout=900, check=False)


@pytest.mark.slow
def test_pre_commit_hook_fails_on_a_finding_and_passes_once_it_is_suppressed(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = write_tree(tmp_path / "shop", OPERATOR)
    _git(root, "init", "-q")
    _git(root, "add", ".")
    _git(root, "commit", "-q", "-m", "shop operator")
    home = tmp_path / "pre-commit-home"

    failing = _pre_commit(root, home)
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "controller/shop.go:17:3: WL001 `Owns(&corev1.ConfigMap{})` caches every ConfigMap" in failing.stdout

    shop = root / "controller" / "shop.go"
    text = shop.read_text(encoding="utf-8")
    suppressed = "Owns(&corev1.ConfigMap{}). //watchlint:ignore WL001 -- the shop owns every ConfigMap"
    shop.write_text(text.replace("Owns(&corev1.ConfigMap{}).", suppressed), encoding="utf-8")
    _git(root, "add", ".")
    passing = _pre_commit(root, home)
    assert passing.returncode == 0, passing.stdout + passing.stderr


def test_pre_commit_hook_definition() -> None:
    (hook,) = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert hook["id"] == "watchlint"
    assert hook["language"] == "python"
    assert hook["entry"] == "watchlint check"
    assert hook["types_or"] == ["go", "python"]
    assert hook["require_serial"] is True


def _action() -> dict[str, Any]:
    action: dict[str, Any] = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
    return action


def test_action_uses_every_input() -> None:
    action = _action()
    steps = json.dumps(action["runs"]["steps"])
    assert set(action["inputs"]) == {"paths", "args", "upload-sarif", "fail-on-findings", "inventory"}
    for name in action["inputs"]:
        assert f"inputs.{name}" in steps, f"input {name} is not used"
    upload = next(step for step in action["runs"]["steps"] if "upload-sarif" in step.get("uses", ""))
    assert upload["with"]["category"] == "watchlint"


def test_action_command_runs_on_a_fixture(tmp_path: Path) -> None:
    """The Action itself cannot run offline; its watchlint command runs here with the same arguments."""
    step = next(step for step in _action()["runs"]["steps"] if step.get("id") == "watchlint")
    line = next(line.strip() for line in step["run"].splitlines() if line.strip().startswith("watchlint check"))
    root = write_tree(tmp_path / "shop", OPERATOR)
    sarif = tmp_path / "watchlint.sarif"
    defaults = {name: spec["default"] for name, spec in _action()["inputs"].items()}
    arguments = (
        line.replace('"${sarif}"', shlex.quote(str(sarif)))
        .replace("${WATCHLINT_ARGS}", defaults["args"])
        .replace("${WATCHLINT_PATHS}", defaults["paths"])
    )
    command = [sys.executable, "-m", "watchlint", *shlex.split(arguments)[1:]]
    result = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 1, result.stderr
    log = validate_sarif(sarif.read_text(encoding="utf-8"))
    results = log["runs"][0]["results"]
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]) for r in results] == [
        ("WL001", "controller/shop.go")
    ]


@pytest.mark.parametrize("path", ["README.md", "examples/github-workflow.yml"], ids=str)
def test_repository_links_follow_pyproject(path: str) -> None:
    """The repository URL lives in [project.urls]; copy-paste snippets must name that repository."""
    text = (REPO / path).read_text(encoding="utf-8")
    owner_name = REPOSITORY.removeprefix("https://github.com/")
    snippets = re.findall(r"repo: (https://github\.com/\S+)", text) + re.findall(r"uses: (\w[\w.-]*/\w[\w.-]*)@", text)
    ours = [item for item in snippets if "actions/" not in item and "github/codeql" not in item]
    assert ours, f"{path} has no snippet naming the repository"
    assert all(item in (REPOSITORY, owner_name) for item in ours), ours
