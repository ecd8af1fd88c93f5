"""`watchlint inventory`: each scope kind, and the footprint arithmetic with exact numbers for the built-in
large profile (Pod 150,000 x 12 KiB, ConfigMap 30,000 x 6 KiB, Secret 60,000 x 8 KiB, Job 5,000 x 5 KiB,
10,000 namespaces, selectors keep 10 %, metadata 1 KiB, transforms keep 60 %)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import CliResult, write_tree

from watchlint.errors import WatchlintError
from watchlint.inventory import load_profile, parse_objects

RunCli = Callable[..., CliResult]
GO_MOD = "module example.com/shop\n\ngo 1.22\n\nrequire sigs.k8s.io/controller-runtime v0.19.0\n"
MAIN = """package main

import (
	"os"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/shop/controller"
)

var _ = os.Getenv
var _ = corev1.Secret{}
var _ = labels.Everything
var _ = fields.Everything
var _ client.Object

func main() {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{OPTIONS})
	if err != nil {
		panic(err)
	}
	_ = (&controller.ShopReconciler{Client: mgr.GetClient(), Reader: mgr.GetAPIReader()}).SetupWithManager(mgr)
	var _ cache.Options
}
"""
CONTROLLER = """package controller

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type ShopReconciler struct {
	client.Client
	Reader client.Reader
}

func (r *ShopReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var sa corev1.ServiceAccount
	_ = r.Reader.Get(ctx, req.NamespacedName, &sa)
	return ctrl.Result{}, nil
}

func (r *ShopReconciler) SetupWithManager(mgr ctrl.Manager) error {
	var _ = builder.OnlyMetadata
	return ctrl.NewControllerManagedBy(mgr).For(&appsv1.Deployment{}).
		WATCHES.
		Complete(r)
}
"""


def inventory(root: Path, run_cli: RunCli, *options: str) -> dict[str, dict[str, Any]]:
    result = run_cli("inventory", str(root), "--format", "json", *options)
    assert result.exit_code == 0, result.stderr
    (unit,) = json.loads(result.stdout)["units"]
    return {f"{entry['kind']}/{entry['cache'].split()[0]}": entry for entry in unit["kinds"]}


def shop(tmp_path: Path, options: str, watches: str) -> Path:
    main = MAIN.replace("OPTIONS", options)
    controller = CONTROLLER.replace("WATCHES", watches)
    return write_tree(tmp_path / "shop", {"go.mod": GO_MOD, "main.go": main, "controller/shop.go": controller})


CACHE = "binary"  # the first word of the cache label ("binary shop": the main package's folder)


@pytest.mark.parametrize(
    ("options", "watches", "kind", "scope", "objects", "bytes"),
    [
        ("", "Owns(&corev1.ConfigMap{})", "ConfigMap", "cluster-wide", 30_000, 30_000 * 6144),
        (
            "Cache: cache.Options{ByObject: map[client.Object]cache.ByObject{"
            '&corev1.Secret{}: {Label: labels.SelectorFromSet(labels.Set{"a": "b"})}}}',
            "Owns(&corev1.Secret{})",
            "Secret",
            "ByObject label selector",
            6_000,
            6_000 * 8192,
        ),
        (
            "Cache: cache.Options{ByObject: map[client.Object]cache.ByObject{&corev1.ConfigMap{}: {Namespaces: "
            'map[string]cache.Config{cache.AllNamespaces: {LabelSelector: labels.SelectorFromSet(labels.Set{"a": "b"})}'
            ', "kube-system": {}}}}}',
            "Owns(&corev1.ConfigMap{})",
            "ConfigMap",
            "ByObject Namespaces (every namespace by a selector)",
            3_000,  # a selector's share of every namespace's ConfigMaps, not two namespaces'
            3_000 * 6144,
        ),
        (
            'Cache: cache.Options{DefaultNamespaces: map[string]cache.Config{"shop": {}, "billing": {}}}',
            "Owns(&corev1.Pod{})",
            "Pod",
            "namespaces shop, billing",
            30,
            30 * 12288,
        ),
        (
            'Cache: cache.Options{DefaultNamespaces: map[string]cache.Config{os.Getenv("NS"): {}}}',
            "Owns(&corev1.Pod{})",
            "Pod",
            'namespaces from `map[string]cache.Config{os.Getenv("NS"): {}}`',
            15,
            15 * 12288,
        ),
        ("", "Owns(&batchv1.Job{}, builder.OnlyMetadata)", "Job", "cluster-wide", 5_000, 5_000 * 1024),
        (
            "Cache: cache.Options{DefaultTransform: cache.TransformStripManagedFields()}",
            "Owns(&corev1.Pod{})",
            "Pod",
            "cluster-wide",
            150_000,
            round(150_000 * 12288 * 0.6),
        ),
        (
            'Cache: cache.Options{DefaultLabelSelector: labels.SelectorFromSet(labels.Set{"a": "b"})}',
            "Owns(&corev1.Secret{})",
            "Secret",
            "default label or field selector",
            6_000,
            6_000 * 8192,
        ),
        (
            "Cache: cache.Options{ByObject: map[client.Object]cache.ByObject{"
            '&corev1.Pod{}: {Field: fields.OneTermEqualSelector("spec.nodeName", os.Getenv("NODE_NAME"))}}}',
            "Owns(&corev1.Pod{})",
            "Pod",
            "ByObject field selector (one node's)",
            30,  # a DaemonSet's agent: 150,000 Pods over 5,000 nodes
            30 * 12288,
        ),
        (
            'Cache: cache.Options{DefaultFieldSelector: fields.SelectorFromSet(fields.Set{"spec.nodeName": "n1"})}',
            "Owns(&corev1.Pod{})",
            "Pod",
            "default label or field selector (one node's)",
            30,
            30 * 12288,
        ),
        (
            "Cache: cache.Options{ByObject: map[client.Object]cache.ByObject{"
            '&corev1.Pod{}: {Field: fields.OneTermNotEqualSelector("status.phase", "Succeeded")}}}',
            "Owns(&corev1.Pod{})",
            "Pod",
            "ByObject field selector",
            15_000,
            15_000 * 12288,
        ),
        (
            'Cache: cache.Options{DefaultLabelSelector: labels.SelectorFromSet(labels.Set{"a": "b"}), '
            "ByObject: map[client.Object]cache.ByObject{&corev1.Secret{}: {Label: labels.Everything()}}}",
            "Owns(&corev1.Secret{})",
            "Secret",
            "cluster-wide",  # the entry's Everything() replaces the default selector for Secrets
            60_000,
            60_000 * 8192,
        ),
    ],
    ids=[
        "cluster-wide",
        "by-object-label",
        "by-object-namespaces-each-selected",
        "namespaces",
        "namespace-variable",
        "metadata",
        "transform",
        "selector",
        "by-object-node",
        "default-field-node",
        "by-object-other-field",
        "by-object-everything-replaces-the-default",
    ],
)
def test_held_scopes_and_their_footprint(
    tmp_path: Path, run_cli: RunCli, options: str, watches: str, kind: str, scope: str, objects: int, bytes: int
) -> None:
    entries = inventory(shop(tmp_path, options, watches), run_cli)
    entry = entries[f"{kind}/{CACHE}"]
    assert (entry["scope"], entry["held"], entry["objects"], entry["bytes"]) == (scope, True, objects, bytes)


FACTORY_MAIN = """package main

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func main() {
	cs := kubernetes.NewForConfigOrDie(&rest.Config{})
	factory := informers.NewSharedInformerFactoryWithOptions(cs, time.Minute,
		informers.WithTweakListOptions(func(options *metav1.ListOptions) {
			options.LabelSelector = "app.kubernetes.io/managed-by=shop"
		}))
	_ = factory.Core().V1().Secrets().Informer()
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	var pods corev1.PodList
	_ = mgr.GetClient().List(context.Background(), &pods, client.MatchingLabels{"app": "shop"})
}
"""


def test_a_factory_selector_scopes_its_informer_and_a_list_selector_does_not(tmp_path: Path, run_cli: RunCli) -> None:
    """A list-options tweak narrows the factory's informer to 10 % of the Secrets; a cached List's
    MatchingLabels narrows what the call returns, not the cluster-wide Pod informer it starts."""
    root = write_tree(tmp_path / "shop", {"go.mod": GO_MOD, "main.go": FACTORY_MAIN})
    entries = inventory(root, run_cli)
    secrets = entries["Secret/client-go"]
    assert (secrets["scope"], secrets["objects"], secrets["bytes"]) == (
        "WithTweakListOptions's LabelSelector",
        6_000,
        6_000 * 8192,
    )
    pods = entries[f"Pod/{CACHE}"]
    assert (pods["scope"], pods["objects"]) == ("cluster-wide", 150_000)


NODE_AGENT_MAIN = """package main

import (
	"os"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
)

func main() {
	node := os.Getenv("NODE_NAME")
	cs := kubernetes.NewForConfigOrDie(&rest.Config{})
	factory := informers.NewSharedInformerFactoryWithOptions(cs, time.Minute,
		informers.WithTweakListOptions(func(options *metav1.ListOptions) {
			options.FieldSelector = "spec.nodeName=" + node
		}))
	_ = factory.Core().V1().Pods().Informer()
	watch := cache.NewListWatchFromClient(cs.CoreV1().RESTClient(), "endpoints", "",
		fields.OneTermEqualSelector("spec.nodeName", node))
	_, _ = cache.NewInformer(watch, &corev1.Endpoints{}, time.Minute, cache.ResourceEventHandlerFuncs{})
}
"""


def test_a_node_agents_informers_hold_one_nodes_share(tmp_path: Path, run_cli: RunCli) -> None:
    """A list-options tweak or a ListWatch that selects on spec.nodeName, however written, keeps what one
    node of the profile's 5,000 holds."""
    root = write_tree(tmp_path / "shop", {"go.mod": GO_MOD, "main.go": NODE_AGENT_MAIN})
    entries = inventory(root, run_cli)
    assert {key: (entry["scope"], entry["objects"]) for key, entry in entries.items()} == {
        "Pod/client-go": ("WithTweakListOptions's FieldSelector (one node's)", 30),
        "Endpoints/client-go": ("fieldSelector (one node's)", 2),
    }


def test_typed_and_metadata_informers_of_one_kind_add_up(tmp_path: Path, run_cli: RunCli) -> None:
    watches = "Owns(&corev1.ConfigMap{}).Watches(&corev1.ConfigMap{}, nil, builder.OnlyMetadata)"
    entry = inventory(shop(tmp_path, "", watches), run_cli)[f"ConfigMap/{CACHE}"]
    assert entry["forms"] == ["metadata", "typed"]
    assert entry["bytes"] == 30_000 * (6144 + 1024)


@pytest.mark.parametrize(
    ("options", "scope"),
    [
        (
            "Client: client.Options{Cache: &client.CacheOptions{"
            "DisableFor: []client.Object{&corev1.ServiceAccount{}}}}",
            "uncached (DisableFor)",
        ),
        ("", "uncached (API reader)"),
    ],
    ids=["disable-for", "api-reader"],
)
def test_uncached_kinds_cost_nothing(tmp_path: Path, run_cli: RunCli, options: str, scope: str) -> None:
    root = shop(tmp_path, options, "Owns(&appsv1.ReplicaSet{})")
    (root / "controller" / "shop.go").write_text(
        (root / "controller" / "shop.go").read_text().replace("r.Reader.Get", "r.Get" if options else "r.Reader.Get")
    )
    entries = inventory(root, run_cli)
    (entry,) = [item for key, item in entries.items() if key.startswith("ServiceAccount/")]
    assert (entry["scope"], entry["held"], entry["bytes"]) == (scope, False, 0)


def test_objects_override_and_largest_first(tmp_path: Path, run_cli: RunCli) -> None:
    root = shop(tmp_path, "", "Owns(&corev1.ConfigMap{}).Owns(&corev1.Secret{})")
    result = run_cli("inventory", str(root), "--format", "json", "--objects", "secret=100,configmap=200000")
    kinds = [entry["kind"] for entry in json.loads(result.stdout)["units"][0]["kinds"]]
    assert kinds[:2] == ["ConfigMap", "Secret"]
    entries = {entry["kind"]: entry for entry in json.loads(result.stdout)["units"][0]["kinds"]}
    assert (entries["ConfigMap"]["bytes"], entries["Secret"]["bytes"]) == (200_000 * 6144, 100 * 8192)


def test_text_table_ends_with_the_total(tmp_path: Path, run_cli: RunCli) -> None:
    root = shop(tmp_path, "", "Owns(&corev1.ConfigMap{})")
    result = run_cli("inventory", str(root), "--profile", "small")
    lines = result.stdout.splitlines()
    assert lines[0] == "Profile small: a hundredth of large: 100 namespaces, 1,500 pods, 50 nodes"
    row = next(line for line in lines if line.strip().startswith("ConfigMap"))
    assert row.split()[-6:] == ["cluster-wide", "300", "6.0", "KiB", "1.8", "MiB"]
    assert lines[-1].strip().startswith("TOTAL")
    assert lines[-1].strip().endswith("1.8 MiB")


def test_markdown_is_a_table_for_a_pull_request(
    tmp_path: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    shop(tmp_path, "", "Owns(&corev1.ConfigMap{})")
    monkeypatch.chdir(tmp_path)
    text = run_cli("inventory", "shop", "--format", "markdown").stdout
    assert text.startswith("### watchlint inventory (profile `large`)\n")
    assert "| Kind | Cache | Scope | Objects | Footprint | Started by |" in text
    assert "| ConfigMap | binary shop | cluster-wide | 30,000 | 175.8 MiB |" in text


def test_profile_file_and_errors(tmp_path: Path) -> None:
    path = tmp_path / "tiny.toml"
    path.write_text(
        "namespaces = 10\nselector_fraction = 0.5\nmetadata_bytes = 100\ntransform_factor = 1.0\n"
        "default_objects = 1\ndefault_bytes = 10\n[kinds]\nPod = { objects = 40, bytes = 1000 }\n",
        encoding="utf-8",
    )
    profile = load_profile(str(path))
    assert (profile.name, profile.of("Pod").objects, profile.of("Secret").objects) == ("tiny", 40, 1)
    assert profile.nodes is None  # a profile without a node count keeps the selector fraction for spec.nodeName
    with pytest.raises(WatchlintError, match="not small, medium, large"):
        load_profile("huge")
    with pytest.raises(WatchlintError, match="--objects"):
        parse_objects("secrets=x", ["Secret"])
    assert parse_objects("secret=20000, ConfigMap=3", ["Secret", "ConfigMap"]) == {"Secret": 20000, "ConfigMap": 3}


def test_a_profile_without_a_node_count_keeps_the_selector_fraction_for_one_nodes_cache(
    tmp_path: Path, run_cli: RunCli
) -> None:
    profile = tmp_path / "nodeless.toml"
    profile.write_text(
        "namespaces = 10\nselector_fraction = 0.5\nmetadata_bytes = 100\ntransform_factor = 1.0\n"
        "default_objects = 1\ndefault_bytes = 10\n[kinds]\nPod = { objects = 40, bytes = 1000 }\n",
        encoding="utf-8",
    )
    options = (
        "Cache: cache.Options{ByObject: map[client.Object]cache.ByObject{"
        '&corev1.Pod{}: {Field: fields.OneTermEqualSelector("spec.nodeName", os.Getenv("NODE_NAME"))}}}'
    )
    entries = inventory(shop(tmp_path, options, "Owns(&corev1.Pod{})"), run_cli, "--profile", str(profile))
    entry = entries[f"Pod/{CACHE}"]
    assert (entry["scope"], entry["objects"], entry["bytes"]) == ("ByObject field selector (one node's)", 20, 20_000)


STREAMS = """from kubernetes import client, watch

v1 = client.CoreV1Api()


def everything():
    for event in watch.Watch().stream(v1.list_secret_for_all_namespaces):
        print(event["type"])


def one_namespace(namespace):
    for event in watch.Watch().stream(v1.list_namespaced_pod, namespace):
        print(event["type"])


def listed():
    return v1.list_secret_for_all_namespaces().items
"""


def test_watch_streams_have_rows_of_their_own(tmp_path: Path, run_cli: RunCli) -> None:
    """A client library's watch holds no cache but streams every object it selects: not a live read."""
    root = write_tree(tmp_path / "streams", {"streams.py": STREAMS})
    result = run_cli("inventory", str(root), "--format", "json")
    (unit,) = json.loads(result.stdout)["units"]
    rows = sorted((entry["kind"], entry["cache"], entry["scope"]) for entry in unit["kinds"])
    assert rows == [
        ("Pod", "watch streams", "streamed, namespace or selector"),
        ("Secret", "no cache", "read live (direct-client)"),
        ("Secret", "watch streams", "streamed, cluster-wide"),
    ]
