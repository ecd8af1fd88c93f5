"""Output does not depend on the order Python iterates sets in: each process (a worker of the pool too) draws
its own string hash seed, so an order-dependent choice gives different findings from run to run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import write_tree

OUTER_MAIN = """package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
)

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	var secret corev1.Secret
	_ = mgr.GetClient().Get(context.Background(), ctrl.Request{}.NamespacedName, &secret)
}
"""

HELPER = """package kube

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// WaitForPods is shared by the end-to-end tests of the operator.
func WaitForPods(ctx context.Context, c client.Client) error {
	var pods corev1.PodList
	return c.List(ctx, &pods)
}
"""

NESTED = {
    "go.mod": (
        "module example.com/op\n\ngo 1.22\n\nrequire example.com/op/pkg/testhelper v0.0.0\n\n"
        "replace example.com/op/pkg/testhelper => ./pkg/testhelper\n"
    ),
    "main.go": OUTER_MAIN,
    "pkg/testhelper/go.mod": "module example.com/op/pkg/testhelper\n\ngo 1.22\n",
    "pkg/testhelper/kube/pods.go": HELPER,
}


def test_a_module_nested_in_a_test_support_folder_is_test_code_under_every_hash_seed(tmp_path: Path) -> None:
    """The test-support folder was looked for inside whichever of the two modules holding the package a set
    gave first: the nested module's helper List was reported as cache-backed under some seeds only."""
    root = write_tree(tmp_path / "op", NESTED)
    outputs = set()
    for seed in range(6):
        environment = {**os.environ, "PYTHONHASHSEED": str(seed)}
        command = [sys.executable, "-m", "watchlint", "check", ".", "--no-cache", "-j1", "--format", "json"]
        result = subprocess.run(command, cwd=root, env=environment, capture_output=True, text=True, check=False)
        assert result.returncode == 1, result.stderr
        outputs.add(result.stdout)
    (output,) = outputs
    findings = json.loads(output)["findings"]
    assert [(finding["code"], finding["path"], finding["line"]) for finding in findings] == [("WL002", "main.go", 13)]
