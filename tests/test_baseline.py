"""Baselines round-trip: recorded findings stay silent when code moves within a file, and come back when the
file is renamed or the construct changes. Statistics count findings per rule and kind."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import CliResult, write_tree

MAIN = """package main

import (
	ctrl "sigs.k8s.io/controller-runtime"

	"example.com/shop/controller"
)

func main() {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	if err != nil {
		panic(err)
	}
	_ = (&controller.ShopReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr)
}
"""
CONTROLLER = """package controller

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type ShopReconciler struct {
	client.Client
}

func (r *ShopReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

func (r *ShopReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&appsv1.Deployment{}).Owns(&corev1.Secret{}).Complete(r)
}
"""
RunCli = Callable[..., CliResult]


@pytest.fixture
def shop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = write_tree(
        tmp_path / "shop",
        {"go.mod": "module example.com/shop\n", "main.go": MAIN, "controller/shop.go": CONTROLLER},
    )
    monkeypatch.chdir(root)
    return root


def _new_findings(run_cli: RunCli) -> list[tuple[str, int, str]]:
    result = run_cli("check", "--format", "json", "--baseline", "baseline.json")
    return [(f["path"], f["line"], f["code"]) for f in json.loads(result.stdout)["findings"]]


def test_write_baseline_records_every_finding_and_exits_0(shop: Path, run_cli: RunCli) -> None:
    result = run_cli("check", "--write-baseline", "baseline.json")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "Recorded 3 findings in baseline.json.\n")
    document = json.loads((shop / "baseline.json").read_text(encoding="utf-8"))
    assert document["version"] == 1
    assert [(entry["code"], entry["path"], entry["kind"]) for entry in document["findings"]] == [
        ("WL002", "controller/shop.go", "ConfigMap"),
        ("WL002", "controller/shop.go", "ConfigMap"),
        ("WL001", "controller/shop.go", "Secret"),
    ]
    assert len({entry["fingerprint"] for entry in document["findings"]}) == 3  # identical Gets are numbered


def test_baselined_findings_are_silent_and_counted(shop: Path, run_cli: RunCli) -> None:
    run_cli("check", "--write-baseline", "baseline.json")
    result = run_cli("check", "--baseline", "baseline.json")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1].startswith("No findings in 2 files (3 baselined")


def test_moving_code_within_the_file_keeps_findings_baselined(shop: Path, run_cli: RunCli) -> None:
    run_cli("check", "--write-baseline", "baseline.json")
    shifted = CONTROLLER.replace("type ShopReconciler struct {", "// The shop.\n\n\ntype ShopReconciler struct {")
    (shop / "controller" / "shop.go").write_text(shifted, encoding="utf-8")
    assert _new_findings(run_cli) == []


def test_renaming_the_file_makes_its_findings_new(shop: Path, run_cli: RunCli) -> None:
    run_cli("check", "--write-baseline", "baseline.json")
    (shop / "controller" / "shop.go").rename(shop / "controller" / "store.go")
    assert _new_findings(run_cli) == [
        ("controller/store.go", 18, "WL002"),
        ("controller/store.go", 21, "WL002"),
        ("controller/store.go", 28, "WL001"),
    ]


def test_changing_the_construct_makes_it_new(shop: Path, run_cli: RunCli) -> None:
    run_cli("check", "--write-baseline", "baseline.json")
    changed = CONTROLLER.replace("Owns(&corev1.Secret{})", "Owns(&corev1.ServiceAccount{})")
    (shop / "controller" / "shop.go").write_text(changed, encoding="utf-8")
    assert _new_findings(run_cli) == [("controller/shop.go", 28, "WL001")]


def test_a_third_identical_construct_is_new(shop: Path, run_cli: RunCli) -> None:
    run_cli("check", "--write-baseline", "baseline.json")
    get = "\tif err := r.Get(ctx, req.NamespacedName, &cm); err != nil {\n\t\treturn ctrl.Result{}, err\n\t}\n"
    (shop / "controller" / "shop.go").write_text(CONTROLLER.replace(get, get * 2, 1), encoding="utf-8")
    assert _new_findings(run_cli) == [("controller/shop.go", 24, "WL002")]


@pytest.mark.parametrize("content", ["not json", '{"version": 9, "findings": []}', "[]"], ids=str)
def test_a_broken_baseline_exits_2(shop: Path, run_cli: RunCli, content: str) -> None:
    (shop / "baseline.json").write_text(content, encoding="utf-8")
    result = run_cli("check", "--baseline", "baseline.json")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: baseline.json: ")


def test_statistics_count_findings_per_rule_and_kind(shop: Path, run_cli: RunCli) -> None:
    result = run_cli("check", "--statistics")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "2\tWL002\timplicit-informer-read\tConfigMap",
        "1\tWL001\tunfiltered-watch      \tSecret",
    ]
    as_json = json.loads(run_cli("check", "--statistics", "--format", "json").stdout)
    assert as_json == [
        {"code": "WL002", "name": "implicit-informer-read", "kind": "ConfigMap", "count": 2},
        {"code": "WL001", "name": "unfiltered-watch", "kind": "Secret", "count": 1},
    ]
