"""The early hint: a run with a cache keeps the metadata of the Python files it keyed, and the next run tells its
standby worker to import libcst before it discovers the tree when one of them changed."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import CliResult, write_tree

from watchlint import cache as cache_module
from watchlint import earlyhint, engine, standby
from watchlint.catalog import load_catalog
from watchlint.config import CommandLine
from watchlint.language import Language

RunCli = Callable[..., CliResult]
HANDLERS = """import kopf
import kubernetes


@kopf.on.create("example.com", "v1", "backups")
def create(namespace, **_):
    return kubernetes.client.CoreV1Api().list_secret_for_all_namespaces()
"""
GO_MAIN = """package main

import (
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
)

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_ = ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Owns(&corev1.Secret{}).Complete(nil)
}
"""


@pytest.fixture
def mixed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A Go operator beside a kopf one."""
    files = {
        "operator/go.mod": "module example.com/operator\n\ngo 1.22\n\nrequire sigs.k8s.io/controller-runtime v0.19.0\n",
        "operator/main.go": GO_MAIN,
        "kopf/pyproject.toml": '[project]\nname = "backups"\n',
        "kopf/backups/handlers.py": HANDLERS,
    }
    root = write_tree(tmp_path / "repo", files)
    monkeypatch.chdir(root)
    return root


def _plan(cache: cache_module.FactsCache) -> engine.RunPlan:
    return engine.plan([Path(".")], CommandLine(), load_catalog(), options=engine.RunOptions(cache=cache))


def test_a_python_file_changed_or_removed_since_the_last_run_is_told(mixed: Path) -> None:
    cache = cache_module.FactsCache(mixed / ".watchlint_cache")
    assert not earlyhint.python_changed(cache)  # nothing kept yet
    _plan(cache).report()
    assert not earlyhint.python_changed(cache)
    handlers = mixed / "kopf" / "backups" / "handlers.py"
    handlers.write_text(HANDLERS + "# edited\n", encoding="utf-8")
    assert earlyhint.python_changed(cache)
    _plan(cache).report()  # keyed again, and kept as it is now
    assert not earlyhint.python_changed(cache)
    (mixed / "operator" / "main.go").write_text(GO_MAIN + "// edited\n", encoding="utf-8")
    assert not earlyhint.python_changed(cache)  # a Go change is no reason to turn to libcst
    handlers.unlink()
    assert earlyhint.python_changed(cache)


def test_an_unreadable_entry_is_no_hint(mixed: Path) -> None:
    cache = cache_module.FactsCache(mixed / ".watchlint_cache")
    for entry in ("not metadata", (7,), ((str(mixed / "kopf"), "inode"),)):
        cache.store(earlyhint._KEY, entry)
        assert not earlyhint.python_changed(cache)


def test_a_tree_without_python_keeps_nothing(mixed: Path) -> None:
    cache = cache_module.FactsCache(mixed / ".watchlint_cache")
    engine.plan([Path("operator")], CommandLine(), load_catalog(), options=engine.RunOptions(cache=cache)).report()
    assert cache.load(earlyhint._KEY) is None


@pytest.mark.skipif(not standby.available(), reason="the standby worker needs fork (Linux)")
def test_the_standby_worker_is_told_of_a_python_edit_before_the_tree_is_discovered(
    mixed: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hint comes before discovery for a Python edit, and only from planning for a Go edit; the report is
    the one a run without a cache writes either way."""
    run_cli("check", ".", "--format", "json", "-j", "2")
    events: list[object] = []
    real_expect, real_discover = standby.Standby.expect, engine.discover

    def expect(worker: standby.Standby, language: Language) -> None:
        events.append(language)
        real_expect(worker, language)

    def discover(*given: object) -> object:
        events.append("discovered")
        return real_discover(*given)  # type: ignore[arg-type]

    monkeypatch.setattr(standby.Standby, "expect", expect)
    monkeypatch.setattr(engine, "discover", discover)
    with (mixed / "kopf" / "backups" / "handlers.py").open("a", encoding="utf-8") as stream:
        stream.write("# edited\n")
    edited = run_cli("check", ".", "--format", "json", "-j", "2")
    assert events == [Language.PYTHON, "discovered", Language.PYTHON]
    assert edited == run_cli("check", ".", "--format", "json", "--no-cache")
    events.clear()
    with (mixed / "operator" / "main.go").open("a", encoding="utf-8") as stream:
        stream.write("// edited\n")
    edited = run_cli("check", ".", "--format", "json", "-j", "2")
    assert events == ["discovered", Language.GO]
    assert edited == run_cli("check", ".", "--format", "json", "--no-cache")
    assert os.path.isdir(mixed / ".watchlint_cache")
