"""The fixes Go sites are offered (watchlint/go/remedies.py): DisableFor is safe only while no cached List of
the kind filters on a field the API server cannot serve (a cache index), whatever form the selector takes."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_tree

from watchlint.catalog import Catalog
from watchlint.config import CommandLine
from watchlint.engine import run
from watchlint.facts import CachePolicy, Transform
from watchlint.findings import Applicability, Finding
from watchlint.go.ownerlabel import _NeedleIndex
from watchlint.go.remedies import rewriting_transforms
from watchlint.source import Span

GO_MOD = """module example.com/nodes

go 1.22

require sigs.k8s.io/controller-runtime v0.19.0
"""

MAIN = """package main

import (
	ctrl "sigs.k8s.io/controller-runtime"

	"example.com/nodes/internal/controller"
)

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_ = (&controller.NodeReconciler{Client: mgr.GetClient(), Live: mgr.GetAPIReader()}).SetupWithManager(mgr)
}
"""

CONTROLLER = """package controller

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/fields"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const podKey = "podKey"

func keyOf(name string) string { return name }

type NodeReconciler struct {
	client.Client
	Live client.Reader
}

func (r *NodeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var pod corev1.Pod
	if err := r.Get(ctx, req.NamespacedName, &pod); err != nil {
		return ctrl.Result{}, err
	}
	var pods corev1.PodList
	return ctrl.Result{}, r.List(ctx, &pods, OPTION)
}

func (r *NodeReconciler) list(ctx context.Context, selector fields.Selector) error {
	var pods corev1.PodList
	return r.Live.List(ctx, &pods, client.MatchingFieldsSelector{Selector: selector})
}

func (r *NodeReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("nodes").Complete(r)
}

func onNode(name string) fields.Selector {
	field := fields.Set{}
	field["spec.nodeName"] = name
	return field.AsSelector()
}

func byIndex(name string) fields.Selector {
	return fields.OneTermEqualSelector(podKey, name)
}
"""


def findings(tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch, option: str) -> list[Finding]:
    """The WL002 findings of the Get (first) and the List (second) of the reconciler, the List taking `option`."""
    files = {"go.mod": GO_MOD, "main.go": MAIN, "internal/controller/node.go": CONTROLLER.replace("OPTION", option)}
    monkeypatch.chdir(write_tree(tmp_path, files))
    report = run([Path(".")], CommandLine(), catalog)
    found = [finding for finding in report.findings if finding.code == "WL002"]
    assert [finding.span.line for finding in found] == [24, 28]
    return found


@pytest.mark.parametrize(
    "option",
    [
        'client.MatchingFields{"spec.nodeName": req.Name}',
        'client.MatchingFields{"metadata.name": req.Name, "status.phase": "Running"}',
        'client.MatchingFieldsSelector{Selector: fields.OneTermEqualSelector("spec.nodeName", req.Name)}',
        'client.MatchingFieldsSelector{Selector: fields.ParseSelectorOrDie("spec.nodeName=a,status.phase!=Failed")}',
        'client.MatchingFieldsSelector{Selector: fields.Set{"spec.nodeName": req.Name}.AsSelector()}',
        "&client.ListOptions{FieldSelector: fields.Everything()}",
        'client.MatchingLabels{"app": req.Name}',
        "client.InNamespace(req.Namespace)",
        "client.MatchingFieldsSelector{Selector: onNode(req.Name)}",
        'client.MatchingFieldsSelector{Selector: fields.ParseSelectorOrDie(fmt.Sprintf("spec.nodeName=%s", req.Name))}',
        'client.MatchingFieldsSelector{Selector: fields.ParseSelectorOrDie("spec.nodeName=" + req.Name)}',
        '&client.ListOptions{FieldSelector: client.MatchingFieldsSelector{Selector: fields.OneTermEqualSelector("spec.'
        'nodeName", req.Name)}}',
    ],
    ids=[
        "served-field",
        "metadata-and-phase",
        "one-term",
        "parsed",
        "set-as-selector",
        "everything",
        "labels",
        "ns",
        "helper-filling-a-set",
        "parsed-from-sprintf",
        "parsed-from-concatenation",
        "wrapped-in-list-options",
    ],
)
def test_disable_for_stays_safe_when_the_server_serves_every_field(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch, option: str
) -> None:
    for finding in findings(tmp_path, catalog, monkeypatch, option):
        assert finding.fixes[0].applicability is Applicability.SAFE
        assert finding.fixes[0].title == "Add &corev1.Pod{} to Client.Cache.DisableFor in main.go"
        assert finding.help.startswith("Add Pod to client.CacheOptions.DisableFor")


@pytest.mark.parametrize(
    ("option", "shown"),
    [
        ("client.MatchingFields{podKey: req.Name}", '"podKey"'),
        ('&client.MatchingFields{".metadata.controller": req.Name}', '".metadata.controller"'),
        ("client.MatchingFields{keyOf(req.Name): req.Name}", "`keyOf(req.Name)`"),
        ('client.MatchingFieldsSelector{Selector: fields.ParseSelectorOrDie("spec.nodeName=a,owner=b")}', '"owner"'),
        (
            "&client.ListOptions{FieldSelector: fields.AndSelectors("
            'fields.OneTermEqualSelector("spec.nodeName", req.Name), fields.OneTermEqualSelector(podKey, req.Name))}',
            '"podKey"',
        ),
        ("client.MatchingFields(fields.Set{podKey: req.Name})", '"podKey"'),
        (
            "[]client.ListOption{client.InNamespace(req.Namespace), client.MatchingFields{podKey: req.Name}}...",
            '"podKey"',
        ),
        ("client.MatchingFieldsSelector{Selector: byIndex(req.Name)}", '"podKey"'),
        (
            'client.MatchingFieldsSelector{Selector: fields.ParseSelectorOrDie(fmt.Sprintf("owner=%s", req.Name))}',
            '"owner"',
        ),
        (
            "client.MatchingFieldsSelector{Selector: "
            'fields.ParseSelectorOrDie(fmt.Sprintf("%s=%s", podKey, req.Name))}',
            '`fmt.Sprintf("%s=%s", podKey, req.Name)`',
        ),
    ],
    ids=[
        "constant",
        "address",
        "call",
        "parsed",
        "and-selectors",
        "converted-set",
        "options-slice",
        "helper",
        "parsed-from-sprintf",
        "key-not-written",
    ],
)
def test_disable_for_is_no_edit_for_any_read_of_a_kind_listed_by_a_cache_index(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch, option: str, shown: str
) -> None:
    get, listed = findings(tmp_path, catalog, monkeypatch, option)
    # Applied alone, the edit would send the List to an API server that rejects its field: the help says what
    # to change first, and no edit is offered.
    assert listed.fixes == ()
    # a selector watchlint cannot read may name the index: the help does not say it does
    instead = (
        f"the field selector {shown}, which may name a cache index the API server cannot serve"
        if shown.startswith("`")
        else f"the cache index {shown}, which the API server cannot serve"
    )
    assert listed.help == (
        f"Filter this List by a label selector instead of {instead}; then add Pod to "
        "client.CacheOptions.DisableFor in the manager options"
    )
    # The Get is no List by index, but DisableFor would send the List to the API server too; reading the
    # Get alone through the API reader the reconciler holds is still offered.
    assert [(fix.applicability, fix.title) for fix in get.fixes] == [
        (Applicability.UNSAFE, "Read through r.Live (mgr.GetAPIReader())"),
    ]
    assert get.help.endswith("in the manager options, or read this one through mgr.GetAPIReader()")


def _list_by_index_help(
    tmp_path: Path,
    catalog: Catalog,
    monkeypatch: pytest.MonkeyPatch,
    assertion: str,
    omitted: str,
    returned: str = "pod.Spec.NodeName",
) -> str:
    """The help of a List by the cache index "podKey", whose IndexField's function asserts the object as
    `assertion` and returns nothing where `omitted` holds (where one is given), else `returned`."""
    guard = f"if {omitted} {{\n\t\t\treturn nil\n\t\t}}" if omitted else ""
    indexed = CONTROLLER.replace(
        'return ctrl.NewControllerManagedBy(mgr).Named("nodes").Complete(r)',
        f"""indexer := mgr.GetFieldIndexer()
	_ = indexer.IndexField(context.Background(), &corev1.Pod{{}}, podKey, func(o client.Object) []string {{
		{assertion}
		{guard}
		return []string{{{returned}}}
	}})
	return ctrl.NewControllerManagedBy(mgr).Named("nodes").Complete(r)""",
    )
    files = {
        "go.mod": GO_MOD,
        "main.go": MAIN,
        "internal/controller/node.go": indexed.replace("OPTION", "client.MatchingFields{podKey: req.Name}"),
    }
    monkeypatch.chdir(write_tree(tmp_path, files))
    report = run([Path(".")], CommandLine(), catalog)
    [listed] = [finding for finding in report.findings if finding.code == "WL002" and finding.span.line == 28]
    return listed.help


NARROWED_LATER = (
    "; then add Pod to client.CacheOptions.DisableFor in the manager options; the index at "
    "internal/controller/node.go:38 caches every Pod until it is narrowed with cache.Options.ByObject"
)


@pytest.mark.parametrize(
    ("assertion", "omitted"),
    [
        ("pod := o.(*corev1.Pod)", 'pod.Spec.NodeName == ""'),
        ("pod, ok := o.(*corev1.Pod)", '!ok || pod.Spec.NodeName == ""'),
    ],
    ids=["field-unset", "another-type"],
)
def test_an_index_whose_function_returns_a_served_field_is_replaced_by_that_field(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch, assertion: str, omitted: str
) -> None:
    """vcluster's "IndexByAssigned" holds each Pod's spec.nodeName, as its IndexField's function returns: the
    List can select on that field, which the API server serves, rather than on a label nobody sets. The Pods
    the index leaves out (no node yet, or no Pod at all) are those the field selector would not match either."""
    assert _list_by_index_help(tmp_path, catalog, monkeypatch, assertion, omitted) == (
        'Filter this List by the field selector "spec.nodeName" instead of the cache index "podKey" (the API '
        "server serves the field, which the index holds)" + NARROWED_LATER
    )


def test_a_lists_help_names_the_index_of_its_own_managers_cache(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """vcluster's host and virtual managers each index Pods under one name, one holding spec.nodeName and the
    other a value of its own: each List is told of its own manager's index, and of no List of the other. A List
    of no index is told to filter the indexed one first; with no namespace nor selector of its own, it is told
    too that it would then list every Pod from the API server on each call."""
    monkeypatch.chdir(Path(__file__).parent / "fixtures" / "go" / "WL002" / "index-of-one-name-in-two-managers")
    report = run([Path(".")], CommandLine(), catalog)
    helps = [(f.span.line, f.help) for f in report.findings if f.code == "WL002"]
    by_node = 'by the field selector "spec.nodeName" instead of the cache index "byHost" (the API server serves the '
    by_node += "field, which the index holds)"
    disable = "; then add Pod to client.CacheOptions.DisableFor in the manager options"
    narrowed = "; the index at main.go:{} caches every Pod until it is narrowed with cache.Options.ByObject"
    other = f"Filter the List at main.go:39 {by_node}{disable}, or read this one through mgr.GetAPIReader()"
    assert helps == [
        (39, f"Filter this List {by_node}{disable}" + narrowed.format(24)),
        (
            44,
            'Filter this List by a label selector instead of the cache index "byHost", which the API server cannot '
            f"serve{disable}" + narrowed.format(31),
        ),
        (51, f"{other}: it then reads every Pod from the API server on each call (WL004)" + narrowed.format(24)),
        (55, other + narrowed.format(24)),
    ]


def test_a_setup_handed_to_a_runner_runs_its_list_by_index_under_that_runners_manager(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A setup called by name in one subcommand and handed to another's runner, which calls each setup it is
    given: its List by cache index runs under both managers, so the auditor's Pod List is told to replace that
    index first, and DisableFor on the auditor's manager is no fix (the API server would reject the List)."""
    monkeypatch.chdir(Path(__file__).parent / "fixtures" / "go" / "WL002" / "index-of-a-setup-two-subcommands-run")
    report = run([Path(".")], CommandLine(), catalog)
    [audited] = [f for f in report.findings if f.code == "WL002" and f.span.path == "audit/audit.go"]
    assert audited.fixes == ()
    assert audited.help.startswith(
        'Filter the List at indexing/indexing.go:31 by a label selector instead of the cache index ".zone"'
    )


def test_an_index_returning_a_field_of_the_object_asserted_in_place_is_replaced_by_that_field(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """carina's index returns `o.(*corev1.Pod).Spec.NodeName` without a local: the same field as through one."""
    assert _list_by_index_help(tmp_path, catalog, monkeypatch, "", "", "o.(*corev1.Pod).Spec.NodeName") == (
        'Filter this List by the field selector "spec.nodeName" instead of the cache index "podKey" (the API '
        "server serves the field, which the index holds)" + NARROWED_LATER
    )


@pytest.mark.parametrize(
    "returned",
    [
        'fmt.Sprintf("%s-%s", pod.Spec.SchedulerName, pod.Spec.NodeName)',
        'pod.Spec.SchedulerName + "/" + pod.Spec.NodeName',
    ],
)
def test_an_index_joining_served_fields_is_replaced_by_a_selector_on_each(
    returned: str, tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """carina's index joins the Pod's scheduler and node names: a field selector on both selects the Pods a key
    of the index names, no label is needed."""
    assertion = "pod := o.(*corev1.Pod)"
    assert _list_by_index_help(tmp_path, catalog, monkeypatch, assertion, "", returned) == (
        'Filter this List by the field selectors "spec.schedulerName" and "spec.nodeName" instead of the cache '
        'index "podKey" (the API server serves the fields, which the index joins)' + NARROWED_LATER
    )


@pytest.mark.parametrize(
    "returned",
    [
        # `%.3s` keeps three characters of the scheduler's name
        'fmt.Sprintf("%.3s/%s", pod.Spec.SchedulerName, pod.Spec.NodeName)',
        # the node's name joined with a value the function computes
        'pod.Spec.NodeName + "/" + strings.ToLower(pod.Name)',
    ],
)
def test_an_index_joining_more_than_whole_fields_is_no_copy_of_them(
    returned: str, tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An index holding part of a field, or a computed value beside one, holds nothing a field selector names."""
    assertion = "pod := o.(*corev1.Pod)"
    assert _list_by_index_help(tmp_path, catalog, monkeypatch, assertion, "", returned).startswith(
        'Filter this List by a label selector instead of the cache index "podKey"'
    )


def test_an_index_that_leaves_out_objects_the_field_would_select_is_no_copy_of_it(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """vcluster's host index of "IndexByAssigned" holds the node of the Pods it manages only: a field selector
    on spec.nodeName would list the others too, so the help falls back to a label."""
    omitted = '!ok || pod.Spec.NodeName == "" || pod.Labels["managed"] != "true"'
    assert _list_by_index_help(tmp_path, catalog, monkeypatch, "pod, ok := o.(*corev1.Pod)", omitted) == (
        'Filter this List by a label selector instead of the cache index "podKey", which the API server cannot '
        "serve" + NARROWED_LATER
    )


def test_an_index_named_like_a_field_the_server_serves_is_replaced_by_that_field(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`".spec.nodeName"`, the name an index copying the field often gets, is no field the API server knows;
    `"spec.nodeName"` is: the List can select on it rather than on a label nobody sets."""
    _, listed = findings(tmp_path, catalog, monkeypatch, 'client.MatchingFields{".spec.nodeName": req.Name}')
    instead = (
        'by the field selector "spec.nodeName" instead of the cache index ".spec.nodeName" (the API server serves '
        "the field, if the index holds it)"
    )
    assert listed.fixes == ()
    assert listed.help == (
        f"Filter this List {instead}; then add Pod to client.CacheOptions.DisableFor in the manager options"
    )


def test_uncached_lists_by_any_field_leave_disable_for_safe(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`r.Live` reads the API server already: its field selector, unknown here, is none of the cache's
    business, and the cached reads of Pods can go uncached safely."""
    for finding in findings(tmp_path, catalog, monkeypatch, "client.InNamespace(req.Namespace)"):
        assert finding.fixes[0].applicability is Applicability.SAFE


def test_a_cache_index_in_options_held_by_a_variable_leaves_disable_for_out(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    held = (
        "opts := []client.ListOption{client.InNamespace(req.Namespace)}\n"
        "\topts = append(opts, client.MatchingFields{podKey: req.Name})\n"
        "\treturn ctrl.Result{}, r.List(ctx, &pods, opts...)"
    )
    controller = CONTROLLER.replace("return ctrl.Result{}, r.List(ctx, &pods, OPTION)", held)
    files = {"go.mod": GO_MOD, "main.go": MAIN, "internal/controller/node.go": controller}
    monkeypatch.chdir(write_tree(tmp_path, files))
    report = run([Path(".")], CommandLine(), catalog)
    listed = [finding for finding in report.findings if finding.code == "WL002" and finding.span.line == 30]
    assert listed[0].fixes == ()
    assert 'the cache index "podKey"' in listed[0].help


WATCHES = """package controller

import (
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/builder"
)

func RegisterWatches(b *builder.Builder) *builder.Builder {
	return b.Owns(&corev1.ConfigMap{}).Owns(&corev1.Secret{})
}

func RegisterMoreWatches(b *builder.Builder) *builder.Builder {
	return b.Owns(&corev1.ConfigMap{})
}

func RegisterShadowed(builder *builder.Builder) *builder.Builder {
	return builder.Owns(&corev1.ServiceAccount{})
}
"""

WATCHING_MAIN = """package main

import (
	appsv1 "k8s.io/api/apps/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"example.com/nodes/internal/controller"
)

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	b := ctrl.NewControllerManagedBy(mgr).For(&appsv1.Deployment{})
	b = controller.RegisterShadowed(controller.RegisterMoreWatches(controller.RegisterWatches(b)))
	_ = b.Complete(reconcile.Func(nil))
}
"""


def test_only_metadata_is_offered_where_it_saves_the_cache_and_compiles(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ConfigMap is watched typed twice: one metadata-only watch would keep a second informer (WL005).
    `builder` is a parameter where ServiceAccount is watched: `builder.OnlyMetadata` would not compile.
    Secret's single watch in a function whose names hide nothing gets the fix."""
    files = {"go.mod": GO_MOD, "main.go": WATCHING_MAIN, "internal/controller/watches.go": WATCHES}
    monkeypatch.chdir(write_tree(tmp_path, files))
    report = run([Path(".")], CommandLine(), catalog)
    metadata_only = {
        (finding.kind, finding.span.line): any("metadata only" in fix.title for fix in finding.fixes)
        for finding in report.findings
    }
    assert metadata_only == {
        ("ConfigMap", 9): False,
        ("Secret", 9): True,
        ("ConfigMap", 13): False,
        ("ServiceAccount", 17): False,
    }


FRAMEWORK_MAIN = """package main

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	fw "example.com/platform/reconciler"
)

func main() {
	ctx := context.Background()
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_, _ = fw.ReconcilerFor(mgr, &appsv1.Deployment{}).Owns(&corev1.Secret{}).Build(ctx)
	sets := fw.ReconcilerFor(mgr, &appsv1.StatefulSet{})
	_, _ = sets.Owns(&corev1.ConfigMap{}).Build(ctx)
	_ = ctrl.NewControllerManagedBy(mgr).For(&appsv1.DaemonSet{}).
		Owns(&corev1.ServiceAccount{}).Complete(reconcile.Func(nil))
}
"""


def test_a_frameworks_builder_is_offered_no_only_metadata(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A framework's own builder (`fw.ReconcilerFor(mgr, obj).Owns(…)`) takes options of its own type:
    `builder.OnlyMetadata` would not compile there, in the fix or in the help; controller-runtime's gets it."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": FRAMEWORK_MAIN}))
    report = run([Path(".")], CommandLine(), catalog)
    offered = {
        (finding.kind, finding.span.line): (
            any("metadata only" in fix.title for fix in finding.fixes),
            "OnlyMetadata" in finding.help,
        )
        for finding in report.findings
    }
    assert offered == {
        ("Secret", 17): (False, False),
        ("ConfigMap", 19): (False, False),
        ("ServiceAccount", 21): (True, True),
    }


TYPED_HANDLER_MAIN = """package main

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

func nodeOf(_ context.Context, obj client.Object) []reconcile.Request {
	return []reconcile.Request{{NamespacedName: client.ObjectKey{Name: obj.(*corev1.Pod).Spec.NodeName}}}
}

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_ = ctrl.NewControllerManagedBy(mgr).For(&appsv1.DaemonSet{}).
		Watches(&corev1.Pod{}, handler.EnqueueRequestsFromMapFunc(nodeOf)).Complete(reconcile.Func(nil))
}
"""


def test_a_watch_whose_handler_asserts_the_kind_is_told_why_only_metadata_is_not_offered(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`obj.(*corev1.Pod)` would panic on the metav1.PartialObjectMetadata a metadata-only watch hands it: the
    help says so, and offers ByObject alone."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": TYPED_HANDLER_MAIN}))
    report = run([Path(".")], CommandLine(), catalog)
    assert [(finding.code, finding.kind, finding.span.line, finding.help) for finding in report.findings] == [
        (
            "WL001",
            "Pod",
            21,
            "Restrict Pod with cache.Options.ByObject (Label, Field or Namespaces) in the manager options: the "
            "watch's handler reads Pod typed, and would panic on the metav1.PartialObjectMetadata objects "
            "builder.OnlyMetadata hands it",
        )
    ]


def test_a_watch_whose_handler_asserts_the_kind_with_ok_is_told_it_would_drop_every_event(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`pod, ok := obj.(*corev1.Pod)` does not panic on metav1.PartialObjectMetadata: the handler returns
    nothing for every event, which the help says rather than that it would fail."""
    checked = TYPED_HANDLER_MAIN.replace(
        "\treturn []reconcile.Request{{NamespacedName: client.ObjectKey{Name: obj.(*corev1.Pod).Spec.NodeName}}}\n",
        "\tpod, ok := obj.(*corev1.Pod)\n\tif !ok {\n\t\treturn nil\n\t}\n"
        "\treturn []reconcile.Request{{NamespacedName: client.ObjectKey{Name: pod.Spec.NodeName}}}\n",
    )
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": checked}))
    report = run([Path(".")], CommandLine(), catalog)
    assert [(finding.span.line, finding.help) for finding in report.findings] == [
        (
            25,
            "Restrict Pod with cache.Options.ByObject (Label, Field or Namespaces) in the manager options: the "
            "watch's handler reads Pod typed, and its type assertion would fail on the "
            "metav1.PartialObjectMetadata objects builder.OnlyMetadata hands it",
        )
    ]


# a map function reading Secrets typed: a metadata-only watch would hand it what it cannot assert
SERVING_SECRET = """func servingSecret(_ context.Context, obj client.Object) []reconcile.Request {
	secret := obj.(*corev1.Secret)
	return []reconcile.Request{{NamespacedName: client.ObjectKey{Namespace: secret.Namespace, Name: secret.Name}}}
}
"""

SOURCE_KIND_TYPED_HANDLER_MAIN = """package main

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

SERVING_SECRET

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_ = ctrl.NewControllerManagedBy(mgr).For(&appsv1.Deployment{}).
		Owns(&corev1.Secret{}).
		WatchesRawSource(source.Kind[client.Object](mgr.GetCache(), &corev1.Secret{},
			handler.EnqueueRequestsFromMapFunc(servingSecret))).
		Complete(reconcile.Func(nil))
}
""".replace("SERVING_SECRET\n", SERVING_SECRET)


def test_a_source_kind_whose_handler_asserts_the_kind_keeps_every_watch_of_it_typed(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The handler a source.Kind is given reads Secrets typed: its help offers no metadata-only source.Kind,
    and the `Owns` of the same kind is told a metadata-only watch would add an informer beside that one."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": SOURCE_KIND_TYPED_HANDLER_MAIN}))
    report = run([Path(".")], CommandLine(), catalog)
    restrict = "Restrict Secret with cache.Options.ByObject (Label, Field or Namespaces) in the manager options: "
    assert [(finding.code, finding.span.line, finding.help, finding.fixes) for finding in report.findings] == [
        (
            "WL001",
            23,
            restrict + "the watch at main.go:24 reads Secret typed, so a metadata-only watch here would add a "
            "second informer beside its typed one; 1 other watch of Secret shares the informer: the selector must "
            "keep what each needs",
            (),
        ),
        (
            "WL001",
            24,
            restrict + "the watch's handler reads Secret typed, and would panic on the metav1.PartialObjectMetadata "
            "objects a metadata-only source.Kind hands it; 1 other watch of Secret shares the informer: the "
            "selector must keep what each needs",
            (),
        ),
    ]


def test_a_watch_beside_a_typed_handler_s_is_told_so_where_reads_keep_the_kind_typed_too(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cached typed Get of Secrets beside the watch whose handler reads them typed: the `Owns` is still told
    that the typed watch keeps the informer, not to go metadata-only once the reads bypass the cache."""
    source = SOURCE_KIND_TYPED_HANDLER_MAIN.replace(
        "func main() {",
        "func lookup(ctx context.Context, c client.Client) error {\n\tvar secret corev1.Secret\n"
        '\treturn c.Get(ctx, client.ObjectKey{Namespace: "ops", Name: "tls"}, &secret)\n}\n\nfunc main() {',
    ).replace(
        "\t_ = ctrl.NewControllerManagedBy",
        "\t_ = lookup(context.Background(), mgr.GetClient())\n\t_ = ctrl.NewControllerManagedBy",
    )
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": source}))
    report = run([Path(".")], CommandLine(), catalog)
    helps = [finding.help for finding in report.findings if finding.construct.startswith("Owns")]
    assert helps == [
        "Restrict Secret with cache.Options.ByObject (Label, Field or Namespaces) in the manager options: the watch "
        "at main.go:30 reads Secret typed, so a metadata-only watch here would add a second informer beside its "
        "typed one; 1 other watch of Secret shares the informer: the selector must keep what each needs"
    ]


# the map function reaches the watch as a parameter of the helper that sets the watches up
PASSED_TYPED_MAPPER_MAIN = """package main

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

type R struct{}

func (r *R) trustMapper(_ context.Context, o client.Object) []reconcile.Request {
	switch obj := o.(type) {
	case *corev1.Secret:
		return []reconcile.Request{{NamespacedName: client.ObjectKeyFromObject(obj)}}
	}
	return nil
}

func (r *R) watches(b *builder.Builder, trust handler.MapFunc) {
	h := handler.EnqueueRequestsFromMapFunc(trust)
	b.Watches(&corev1.Secret{}, h)
}

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	r := &R{}
	b := ctrl.NewControllerManagedBy(mgr).For(&appsv1.Deployment{})
	r.watches(b, r.trustMapper)
	_ = b.Complete(reconcile.Func(nil))
}
"""


def test_a_watch_whose_handler_is_passed_in_by_its_callers_is_told_it_reads_the_kind_typed(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The helper's caller hands it a mapper type-switching on Secrets (argocd-operator's setResourceWatches): a
    metadata-only watch would fail its type assertion, so neither the help nor a fix offers one."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": PASSED_TYPED_MAPPER_MAIN}))
    report = run([Path(".")], CommandLine(), catalog)
    assert [(finding.code, finding.span.line, finding.help, finding.fixes) for finding in report.findings] == [
        (
            "WL001",
            27,
            "Restrict Secret with cache.Options.ByObject (Label, Field or Namespaces) in the manager options: the "
            "watch's handler reads Secret typed, and its type assertion would fail on the "
            "metav1.PartialObjectMetadata objects builder.OnlyMetadata hands it",
            (),
        )
    ]


PROXY_WITH_A_TYPED_SECRET_HANDLER = """package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

SERVING_SECRET

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_ = ctrl.NewControllerManagedBy(mgr).Named("proxy").
		Watches(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(servingSecret)).
		Complete(reconcile.Func(nil))
}
""".replace("SERVING_SECRET\n", SERVING_SECRET)

OPERATOR_OWNING_SECRETS = """package main

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_ = ctrl.NewControllerManagedBy(mgr).For(&appsv1.Deployment{}).Owns(&corev1.Secret{}).Complete(reconcile.Func(nil))
}
"""


def test_a_typed_handler_of_another_binary_keeps_no_informer_of_this_one(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """greenhouse's service proxy watches Secrets with a typed handler in its own process: the operator's
    `Owns` was told a metadata-only watch would add an informer beside the proxy's, which lives elsewhere."""
    files = {"go.mod": GO_MOD, "cmd/proxy/main.go": PROXY_WITH_A_TYPED_SECRET_HANDLER}
    monkeypatch.chdir(write_tree(tmp_path, files | {"cmd/operator/main.go": OPERATOR_OWNING_SECRETS}))
    report = run([Path(".")], CommandLine(), catalog)
    assert [(finding.span.path, finding.span.line, finding.help) for finding in report.findings] == [
        (
            "cmd/operator/main.go",
            12,
            "Restrict Secret with cache.Options.ByObject (Label, Field or Namespaces) in the manager options, or "
            "watch it with builder.OnlyMetadata",
        ),
        (
            "cmd/proxy/main.go",
            21,
            "Restrict Secret with cache.Options.ByObject (Label, Field or Namespaces) in the manager options: the "
            "watch's handler reads Secret typed, and would panic on the metav1.PartialObjectMetadata objects "
            "builder.OnlyMetadata hands it",
        ),
    ]


TYPED_HANDLER_BEHIND_A_FLAG = """package main

import (
	"context"
	"flag"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

SERVING_SECRET

func main() {
	serving := flag.Bool("serving", false, "reload on serving certificate changes")
	flag.Parse()
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	b := ctrl.NewControllerManagedBy(mgr).For(&appsv1.Deployment{}).Owns(&corev1.Secret{})
	if *serving {
		b = b.Watches(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(servingSecret))
	}
	_ = b.Complete(reconcile.Func(nil))
}
""".replace("SERVING_SECRET\n", SERVING_SECRET)


def test_a_typed_handler_off_by_default_keeps_no_informer(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """jobset's typed Pod watch runs only under a feature gate off by default: the other watches' help named it
    as the informer a metadata-only watch would be added beside, which the default deployment does not have."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": TYPED_HANDLER_BEHIND_A_FLAG}))
    report = run([Path(".")], CommandLine(), catalog)
    assert [(finding.span.line, finding.help) for finding in report.findings] == [
        (
            24,
            "Restrict Secret with cache.Options.ByObject (Label, Field or Namespaces) in the manager options, or "
            "watch it with builder.OnlyMetadata",
        )
    ]


OWN_CACHE = """package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/cluster"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

func main() {
	ctx := context.Background()
	pods, _ := cache.New(ctrl.GetConfigOrDie(), cache.Options{})
	var pod corev1.Pod
	_ = pods.Get(ctx, client.ObjectKey{Namespace: "a", Name: "b"}, &pod)
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	account := &corev1.ServiceAccount{}
	_, _ = controllerutil.CreateOrUpdate(ctx, mgr.GetClient(), account, func() error { return nil })
	apiserver, _ := cluster.New(ctrl.GetConfigOrDie())
	var bundle corev1.ConfigMap
	_ = apiserver.GetCache().Get(ctx, client.ObjectKey{Namespace: "a", Name: "b"}, &bundle)
	var token corev1.Secret
	_ = apiserver.GetClient().Get(ctx, client.ObjectKey{Namespace: "a", Name: "b"}, &token)
}
"""


def test_reads_offer_only_the_remedies_that_apply_to_them(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read through a cache of its own has no manager options to edit, nor has a read of a cluster's cache
    itself; a read through the cluster's client follows the DisableFor of the cluster's options; CreateOrUpdate
    writes through the client it reads with, so an API reader cannot take its place."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": OWN_CACHE}))
    report = run([Path(".")], CommandLine(), catalog)
    helps = {finding.span.line: finding.help for finding in report.findings if finding.code == "WL002"}
    assert helps == {
        18: "Restrict Pod in the options of the cache built at main.go:16 (cache.Options.ByObject or "
        "DefaultNamespaces), or read it through a client without cache",
        21: "Add ServiceAccount to client.CacheOptions.DisableFor in the manager options: "
        "controllerutil.CreateOrUpdate writes through the client it reads with, which mgr.GetAPIReader() cannot",
        24: "Restrict ConfigMap in the options of the cache built at main.go:22 (cache.Options.ByObject or "
        "DefaultNamespaces), or read it through a client without cache",
        26: "Add Secret to client.CacheOptions.DisableFor in the options of the cluster built at main.go:22, or "
        "restrict it in that cluster's cache options (cache.Options.ByObject or DefaultNamespaces)",
    }


TWO_MANAGERS = """package main

import (
	"os"

	ctrl "sigs.k8s.io/controller-runtime"

	"example.com/nodes/internal/controller"
)

type server struct {
	managers map[string]ctrl.Manager
}

func (s *server) run() {
	mgr := s.managers["server"]
	_ = (&controller.SecretReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr)
}

func main() {
	if os.Args[1] == "server" {
		serverOptions := ctrl.Options{LeaderElectionID: "server"}
		mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), serverOptions)
		(&server{managers: map[string]ctrl.Manager{"server": mgr}}).run()
		return
	}
	agentOptions := ctrl.Options{LeaderElectionID: "agent"}
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), agentOptions)
	_ = (&controller.SecretReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr)
}
"""

SECRET_RECONCILER = """package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type SecretReconciler struct {
	client.Client
}

func (r *SecretReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Namespace{}).Complete(r)
}

func (r *SecretReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var secret corev1.Secret
	return ctrl.Result{}, r.Get(ctx, req.NamespacedName, &secret)
}
"""

ENVTEST_SUITE = """package controller

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func TestSecrets(t *testing.T) {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{LeaderElectionID: "test"})
	k8sClient := mgr.GetClient()
	var secret corev1.Secret
	_ = k8sClient.Get(context.Background(), client.ObjectKey{Name: "x"}, &secret)
}
"""


def test_a_fix_goes_to_the_binarys_main_manager_where_a_sites_managers_are_not_all_known(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reconciler's client comes from two managers, the server's through a map of managers that is not
    followed: knowing only the agent's, the edit stays in the binary's main options (the server's, first).
    A test's read through its envtest manager is fixed in the operator's options, never in the test's."""
    files = {
        "go.mod": GO_MOD,
        "main.go": TWO_MANAGERS,
        "internal/controller/secret.go": SECRET_RECONCILER,
        "internal/controller/suite_test.go": ENVTEST_SUITE,
    }
    monkeypatch.chdir(write_tree(tmp_path, files))
    report = run([Path(".")], CommandLine(include_tests=True), catalog)
    edited = {
        (finding.span.path, finding.span.line): [(edit.span.path, edit.span.line) for edit in finding.fixes[0].edits]
        for finding in report.findings
        if finding.code == "WL002"
    }
    assert edited == {
        ("internal/controller/secret.go", 21): [("main.go", 22), ("main.go", 6), ("main.go", 6)],
        ("internal/controller/suite_test.go", 16): [("main.go", 22), ("main.go", 6), ("main.go", 6)],
    }


MULTICLUSTER = Path(__file__).parent / "fixtures" / "go" / "WL002" / "manager-built-by-multicluster-runtime"


def test_a_fix_edits_the_options_multicluster_runtime_builds_the_manager_from(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """gitops-promoter reads through `mcMgr.GetLocalManager().GetClient()` of `mcmanager.New(cfg, provider,
    opts)`: the DisableFor edit goes into those options (line 54), not into the dashboard's manager's."""
    monkeypatch.chdir(MULTICLUSTER)
    (finding,) = run([Path(".")], CommandLine(), catalog).findings
    (fix,) = finding.fixes
    assert (fix.applicability, [(edit.span.path, edit.span.line) for edit in fix.edits]) == (
        Applicability.SAFE,
        [("main.go", 54)],
    )


CLIENT_OPTIONS_WRITTEN_LATER = """package main

import (
	"os"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/nodes/internal/controller"
)

func main() {
	clientOptions := client.Options{Cache: &client.CacheOptions{}}
	if os.Getenv("LIVE_READS") != "" {
		clientOptions = client.Options{Cache: &client.CacheOptions{Unstructured: true}}
	}
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{Client: clientOptions})
	_ = (&controller.SecretReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr)
}
"""


def test_no_edit_goes_into_client_options_a_local_holds_that_the_code_writes_again(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`Client: clientOptions` of a local the code replaces under a condition: a DisableFor added to its
    literal would be gone where the condition holds, so no edit is offered, only the help."""
    files = {
        "go.mod": GO_MOD,
        "main.go": CLIENT_OPTIONS_WRITTEN_LATER,
        "internal/controller/secret.go": SECRET_RECONCILER,
    }
    monkeypatch.chdir(write_tree(tmp_path, files))
    (finding,) = run([Path(".")], CommandLine(), catalog).findings
    assert (finding.code, [fix.title for fix in finding.fixes if "DisableFor" in fix.title]) == ("WL002", [])


OWNING_MAIN = """package main

import (
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/nodes/internal/controller"
)

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{
		Client: client.Options{Cache: &client.CacheOptions{DisableFor: []client.Object{&corev1.Pod{}}}},
	})
	_ = (&controller.AppReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr)
}
"""

OWNING_MAIN_OLD_ERA = """package main

import (
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/nodes/internal/controller"
)

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{
		ClientDisableCacheFor: []client.Object{&corev1.Pod{}},
	})
	_ = (&controller.AppReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr)
}
"""

OWNING = """package controller

import (
	"context"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type AppReconciler struct{ client.Client }

func (r *AppReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var secret corev1.Secret
	_ = r.Get(ctx, req.NamespacedName, &secret)
	var pod corev1.Pod
	_ = r.Get(ctx, req.NamespacedName, &pod)
	var jobs batchv1.JobList
	_ = r.List(ctx, &jobs, client.MatchingFields{".metadata.controller": req.Name})
	return ctrl.Result{}, nil
}

func (r *AppReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&corev1.Namespace{}).
		Owns(&corev1.Secret{}).
		Owns(&corev1.ConfigMap{}).
		Owns(&corev1.Pod{}).
		Owns(&batchv1.Job{}).
		Complete(r)
}
"""


@pytest.mark.parametrize(
    ("version", "main", "label_in", "reads_through"),
    [
        ("v0.19.0", OWNING_MAIN, "Cache.ByObject", "Client.Cache.DisableFor"),
        ("v0.14.6", OWNING_MAIN_OLD_ERA, "NewCache SelectorsByObject", "ClientDisableCacheFor"),
    ],
)
def test_a_label_selector_for_an_owned_kind_the_client_reads_sends_those_reads_to_the_api_server(
    tmp_path: Path,
    catalog: Catalog,
    monkeypatch: pytest.MonkeyPatch,
    version: str,
    main: str,
    label_in: str,
    reads_through: str,
) -> None:
    """Secret is read through the cached client: its ByObject fix adds it to DisableFor too, so the read still
    finds unlabelled Secrets. ConfigMap is not read; Pod's reads are DisableFor'd already; Job is listed by a
    cache index, which DisableFor would break: their fixes add the selector alone. Before v0.15, the entry goes
    into the NewCache builder's SelectorsByObject and the read into the manager's ClientDisableCacheFor."""
    files = {"go.mod": GO_MOD.replace("v0.19.0", version), "main.go": main, "internal/controller/app.go": OWNING}
    monkeypatch.chdir(write_tree(tmp_path, files))
    report = run([Path(".")], CommandLine(), catalog)
    by_object = {
        finding.kind: (fix.title, sum(f"{finding.kind}{{}}" in edit.new_text for edit in fix.edits))
        for finding in report.findings
        if finding.code == "WL001"
        for fix in finding.fixes[:1]
    }
    label = f"labelled app.kubernetes.io/managed-by=nodes ({label_in} in main.go)"

    def unlabelled(kind: str) -> str:  # the module sets no owner label: the one proposed is on nothing yet
        nothing_yet = "; the operator sets this label on nothing yet"
        return f"{nothing_yet}: label each {kind} it creates first, others become invisible"

    assert by_object == {
        "Secret": (
            f"Cache only Secret objects {label}, and read Secret through {reads_through}{unlabelled('Secret')}",
            2,
        ),
        "ConfigMap": (f"Cache only ConfigMap objects {label}{unlabelled('ConfigMap')}", 1),
        "Pod": (f"Cache only Pod objects {label}{unlabelled('Pod')}", 1),
        "Job": (f"Cache only Job objects {label}{unlabelled('Job')}", 1),
    }


def test_a_transform_makes_disable_for_unsafe_for_the_kinds_it_may_rewrite() -> None:
    """Stripping managed fields rewrites nothing; a ByObject transform rewrites its kind; a default transform
    whose function is seen rewrites the kinds it names, one not seen (another module's) any kind."""
    span = Span("main.go", 3, 1, 3, 9)
    strip = Transform(None, span, "DefaultTransform: cache.TransformStripManagedFields()", None)
    by_object = Transform("Secret", span, "Transform: redact", ("Secret",))
    seen = Transform(None, span, "DefaultTransform: trim", ("Object", "Pod"))
    unseen = Transform(None, span, "DefaultTransform: lib.Trim", None)
    policies = [
        CachePolicy("a", "binary a", (span,), (), transforms=(strip, by_object, seen)),
        CachePolicy("b", "binary b", (span,), (), transforms=(unseen,)),
    ]
    assert rewriting_transforms(policies) == {
        ("a", "Secret"): by_object,
        ("a", "Object"): seen,
        ("a", "Pod"): seen,
        ("b", None): unseen,
    }


OWNED_AND_WRITTEN = """package main

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_ = ctrl.NewControllerManagedBy(mgr).For(&appsv1.Deployment{}).
		Owns(&corev1.ServiceAccount{}).
		Complete(reconcile.Func(nil))
	account := &corev1.ServiceAccount{}
	_, _ = controllerutil.CreateOrUpdate(context.Background(), mgr.GetClient(), account, func() error { return nil })
}
"""


def test_a_read_first_write_of_a_watched_kind_is_told_the_watch_still_caches_it(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CreateOrUpdate's help says DisableFor is the remedy for the read; with an `Owns` of the kind, DisableFor
    alone saves nothing until the watch is narrowed, and the help says so."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": OWNED_AND_WRITTEN}))
    report = run([Path(".")], CommandLine(), catalog)
    helps = {finding.span.line: finding.help for finding in report.findings if finding.code == "WL002"}
    assert helps == {
        19: "Add ServiceAccount to client.CacheOptions.DisableFor in the manager options: "
        "controllerutil.CreateOrUpdate writes through the client it reads with, which mgr.GetAPIReader() cannot; "
        "the watch at main.go:16 caches every ServiceAccount until it is narrowed with cache.Options.ByObject",
    }


OWNER_MAIN = """package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

type BackupReconciler struct{}

func (BackupReconciler) Reconcile(context.Context, reconcile.Request) (reconcile.Result, error) {
	return reconcile.Result{}, nil
}

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_ = ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Owns(&corev1.ConfigMap{}).Complete(BackupReconciler{})
}
"""

OWNER_LABELS = """package main

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	{imported}
)

{declared}

func labelsOf(owner metav1.Object) map[string]string {{
	return map[string]string{{{key}: {value}}}
}}

func label(cm *corev1.ConfigMap, owner metav1.Object) {{
	cm.SetLabels(labelsOf(owner))
}}
"""


PREFIXED_KEY = 'const (\n\tprefix    = "app.kubernetes.io/"\n\tmanagedBy = prefix + "managed-by"\n)'


@pytest.mark.parametrize(
    ("imported", "declared", "key", "value", "label"),
    [
        ("", "", '"app.kubernetes.io/managed-by"', '"backups"', "app.kubernetes.io/managed-by=backups"),
        ("", "", '"app.kubernetes.io/created-by"', '"backups"', "app.kubernetes.io/created-by=backups"),
        ("", PREFIXED_KEY, "managedBy", '"backups"', "app.kubernetes.io/managed-by=backups"),
        ("", "", '"app.kubernetes.io/managed-by"', "owner.GetName()", None),
        ('types "github.com/example/operator-tools/types"', "", "types.ManagedByLabel", "owner.GetName()", None),
    ],
    ids=["written-value", "created-by", "key-joined-from-constants", "value-of-each-owner", "key-of-another-module"],
)
def test_the_label_selector_of_an_owned_kind_uses_the_owner_label_the_operator_writes(
    tmp_path: Path,
    catalog: Catalog,
    monkeypatch: pytest.MonkeyPatch,
    imported: str,
    declared: str,
    key: str,
    value: str,
    label: str | None,
) -> None:
    """The selector names the owner key and value the operator labels its objects with; where it writes a value
    that varies with the owner, a value made up for the selector would match none of them: no selector fix."""
    labels = OWNER_LABELS.format(imported=imported, declared=declared, key=key, value=value)
    files = {"go.mod": GO_MOD, "main.go": OWNER_MAIN, "labels.go": labels}
    monkeypatch.chdir(write_tree(tmp_path, files))
    report = run([Path(".")], CommandLine(), catalog)
    titles = [fix.title for finding in report.findings if finding.code == "WL001" for fix in finding.fixes]
    selectors = [title for title in titles if title.startswith("Cache only ConfigMap objects labelled")]
    expected = [] if label is None else [f"Cache only ConfigMap objects labelled {label} (Cache.ByObject in main.go)"]
    assert [title.split(";")[0] for title in selectors] == expected


OWNED_SECRETS_MAIN = """package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

type BackupReconciler struct{}

func (BackupReconciler) Reconcile(context.Context, reconcile.Request) (reconcile.Result, error) {
	return reconcile.Result{}, nil
}

func settings(name string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
		Name: name, Labels: map[string]string{"app.kubernetes.io/managed-by": "backup-operator"},
	}}
}

func credentials(name string) *corev1.Secret {
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"backups/role": "keys"}}}
}

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_ = ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).
		Owns(&corev1.ConfigMap{}).
		Owns(&corev1.Secret{}).
		Complete(BackupReconciler{})
}
"""


def test_an_owned_kind_none_of_whose_objects_carries_the_owner_label_is_selected_by_its_own(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """odh-model-controller labels its ConfigMaps with its owner label and its KEDA ServiceAccount with a label of
    its own only: a selector on the owner label would match none of the ServiceAccounts it owns, so the fix
    selects on the label every one of them carries."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": OWNED_SECRETS_MAIN}))
    report = run([Path(".")], CommandLine(), catalog)
    titles = {
        finding.kind: fix.title.split(" (")[0]
        for finding in report.findings
        if finding.code == "WL001"
        for fix in finding.fixes
        if fix.title.startswith("Cache only")
    }
    assert titles == {
        "ConfigMap": "Cache only ConfigMap objects labelled app.kubernetes.io/managed-by=backup-operator",
        "Secret": "Cache only Secret objects labelled backups/role=keys, as every Secret the operator builds is",
    }


HELPER_LABELS_MAIN = """package main

import (
	"context"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

const componentLabel = "example.com/component"

type NodeReconciler struct{}

func (NodeReconciler) Reconcile(context.Context, reconcile.Request) (reconcile.Result, error) {
	return reconcile.Result{}, nil
}

func bootstrapLabels(node string) map[string]string {
	return map[string]string{"example.com/node": node, componentLabel: "bootstrap"}
}

func bootstrapJob(node string) *batchv1.Job {
	labels := bootstrapLabels(node)
	return &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: node + "-bootstrap", Labels: labels}}
}

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_ = bootstrapJob("a")
	_ = ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Owns(&batchv1.Job{}).Complete(NodeReconciler{})
}
"""


def test_labels_a_helper_returns_for_every_object_of_a_kind_select_it(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """sei-k8s-controller builds its bootstrap Jobs with `labels := BootstrapLabels(node)`, a helper returning a
    map literal keyed by constants: the label every Job carries (not the node's name, which varies) selects them,
    where the owner label, which none carries, would hide them."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": HELPER_LABELS_MAIN}))
    report = run([Path(".")], CommandLine(), catalog)
    titles = [
        fix.title.split(" (")[0]
        for finding in report.findings
        if finding.code == "WL001"
        for fix in finding.fixes
        if fix.title.startswith("Cache only")
    ]
    assert titles == [
        "Cache only Job objects labelled example.com/component=bootstrap, as every Job the operator builds is"
    ]


ROLE_LABELS_MAIN = """package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

type ClusterReconciler struct{}

func (ClusterReconciler) Reconcile(context.Context, reconcile.Request) (reconcile.Result, error) {
	return reconcile.Result{}, nil
}

func podLabels(role string) map[string]string {
	workload := "data"
	if role == "sentinel" {
		workload = "sentinel"
	}
	return map[string]string{"example.com/workload": workload, "example.com/zone": "a"}
}

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_ = &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "data-0", Labels: podLabels("primary")}}
	_ = &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "sentinel-0", Labels: podLabels("sentinel")}}
	_ = ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Owns(&corev1.Pod{}).Complete(ClusterReconciler{})
}
"""


def test_a_label_whose_value_a_local_rewrites_by_role_is_no_selector(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """redis-operator labels data and sentinel Pods alike through one helper, whose `workload` local is
    rewritten for sentinels: its first value would hide the sentinel Pods; the label every Pod carries
    unchanged selects them."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": ROLE_LABELS_MAIN}))
    report = run([Path(".")], CommandLine(), catalog)
    titles = [
        fix.title.split(" (")[0]
        for finding in report.findings
        if finding.code == "WL001"
        for fix in finding.fixes
        if fix.title.startswith("Cache only")
    ]
    assert titles == ["Cache only Pod objects labelled example.com/zone=a, as every Pod the operator builds is"]


PREDICATES_MAIN = """package main

import (
	"reflect"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

func hashed(object client.Object) bool {
	_, ok := object.GetAnnotations()["example.com/config-hash"]
	return ok
}

func changed() predicate.Funcs {
	return predicate.Funcs{UpdateFunc: func(e event.UpdateEvent) bool {
		return !reflect.DeepEqual(e.ObjectOld.GetAnnotations(), e.ObjectNew.GetAnnotations())
	}}
}

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	labelled := predicate.NewPredicateFuncs(func(object client.Object) bool { return object.GetLabels()["app"] != "" })
	enqueue := &handler.EnqueueRequestForObject{}
	_ = ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).
		Watches(&corev1.Secret{}, enqueue, builder.WithPredicates(predicate.NewPredicateFuncs(hashed))).
		Watches(&corev1.ConfigMap{}, enqueue, builder.WithPredicates(labelled)).
		Watches(&corev1.Pod{}, enqueue, builder.WithPredicates(changed())).
		Complete(reconcile.Func(nil))
}
"""


def test_a_predicate_testing_an_annotation_is_told_no_selector_can_match_it(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cache selector reads labels and fields, not annotations: the help of a watch whose predicate tests
    only an annotation says to label what it keeps; one testing a label keeps the usual help, and so does one
    comparing an update's old and new annotations, which filters changes, not objects."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": PREDICATES_MAIN}))
    report = run([Path(".")], CommandLine(), catalog)
    helps = {(finding.code, finding.kind): finding.help for finding in report.findings}
    assert helps == {
        ("WL003", "Secret"): "The predicate tests an annotation, which no cache selector can match: label the Secret "
        "objects it keeps and restrict Secret with cache.Options.ByObject on that label",
        ("WL003", "ConfigMap"): "Restrict ConfigMap with cache.Options.ByObject (the label or field the predicate "
        "tests, if any, or namespaces) in the manager options, so the informer holds only the objects the controller "
        "needs",
        ("WL003", "Pod"): "Restrict Pod with cache.Options.ByObject (the label or field the predicate "
        "tests, if any, or namespaces) in the manager options, so the informer holds only the objects the controller "
        "needs",
    }


VERSIONED_MAIN = """package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

func read(ctx context.Context, c client.Client) error {
	var settings corev1.ConfigMap
	return c.Get(ctx, client.ObjectKey{Namespace: "apps", Name: "settings"}, &settings)
}

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_ = read(context.Background(), mgr.GetClient())
	_ = ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Owns(&corev1.Secret{}).Complete(reconcile.Func(nil))
}
"""


@pytest.mark.parametrize(
    ("version", "watch_help", "read_help"),
    [
        (
            "v0.19.0",
            "Restrict Secret with cache.Options.ByObject (Label, Field or Namespaces) in the manager options",
            "Add ConfigMap to client.CacheOptions.DisableFor in the manager options, or read it through "
            "mgr.GetAPIReader()",
        ),
        (
            "v0.15.3",
            "Restrict Secret with cache.Options.ByObject (Label or Field) in the manager options",
            "Add ConfigMap to client.CacheOptions.DisableFor in the manager options, or read it through "
            "mgr.GetAPIReader()",
        ),
        (
            "v0.14.6",
            "Restrict Secret with cache.Options.SelectorsByObject (Label or Field) in the options of the manager's "
            "NewCache (cache.BuilderWithOptions)",
            "Add ConfigMap to ClientDisableCacheFor in the manager options, or read it through mgr.GetAPIReader()",
        ),
    ],
    ids=["v0.16-and-later", "v0.15", "before-v0.15"],
)
def test_the_help_names_the_cache_options_of_the_controller_runtime_the_module_requires(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch, version: str, watch_help: str, read_help: str
) -> None:
    """controller-runtime renamed its cache options in v0.15: a module on an older one is told the names it has,
    as its fixes already edit them."""
    files = {"go.mod": GO_MOD.replace("v0.19.0", version), "main.go": VERSIONED_MAIN}
    monkeypatch.chdir(write_tree(tmp_path, files))
    report = run([Path(".")], CommandLine(), catalog)
    assert {(finding.code, finding.help) for finding in report.findings} == {
        ("WL001", f"{watch_help}, or watch it with builder.OnlyMetadata"),
        ("WL002", read_help),
    }


def test_a_kind_disabled_only_under_a_setting_is_helped_to_disable_it_always(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the options list the kind in DisableFor under a flag off by default, "add it to DisableFor" would
    change nothing: the help says to list it there whatever the setting."""
    monkeypatch.chdir(Path(__file__).parent / "fixtures" / "go" / "policy" / "conditional-disable-for-off-by-default")
    (finding,) = [finding for finding in run([Path(".")], CommandLine(), catalog).findings if finding.code == "WL002"]
    assert (finding.span.path, finding.span.line, finding.help) == (
        "internal/controller/database_controller.go",
        24,
        "The manager options list Secret in client.CacheOptions.DisableFor only when --uncached-secrets is set: "
        "list it there whatever the setting, or read it through mgr.GetAPIReader()",
    )


OPTIONS_REPLACED_BY_A_HELPER = """package main

import (
	"context"
	"os"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func applyScope(o *ctrl.Options, namespace string) {
	if namespace == "" {
		o.Cache = cache.Options{}
		return
	}
	o.Cache = cache.Options{DefaultNamespaces: map[string]cache.Config{namespace: {}}}
}

type AppReconciler struct{ client.Client }

func (r *AppReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var settings corev1.ConfigMap
	return ctrl.Result{}, r.Get(ctx, req.NamespacedName, &settings)
}

func main() {
	opts := ctrl.Options{LeaderElectionID: "apps.example.com"}
	applyScope(&opts, os.Getenv("WATCH_NAMESPACE"))
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), opts)
	_ = ctrl.NewControllerManagedBy(mgr).
		For(&appsv1.Deployment{}).
		Owns(&corev1.Secret{}).
		Complete(&AppReconciler{Client: mgr.GetClient()})
}
"""


def test_no_edit_goes_into_an_options_field_the_code_replaces_later(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A helper given &opts assigns opts.Cache whole: a ByObject entry added to the literal would be thrown
    away, so the Owns finding keeps only its metadata-only fix. The Client field is not replaced: DisableFor
    still goes into the literal."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": OPTIONS_REPLACED_BY_A_HELPER}))
    report = run([Path(".")], CommandLine(), catalog)
    fixes = {(finding.code, finding.span.line): [fix.title for fix in finding.fixes] for finding in report.findings}
    assert fixes == {
        ("WL002", 26): ["Add &corev1.ConfigMap{} to Client.Cache.DisableFor in main.go"],
        ("WL001", 35): ["Watch Secret metadata only (builder.OnlyMetadata); read it as metav1.PartialObjectMetadata"],
    }


BY_OBJECT_REPLACED_UNDER_A_FLAG = """package main

import (
	"context"
	"flag"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type AppReconciler struct{ client.Client }

func (r *AppReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var settings corev1.ConfigMap
	return ctrl.Result{}, r.Get(ctx, req.NamespacedName, &settings)
}

func main() {
	var instance string
	flag.StringVar(&instance, "instance", "", "watch only this instance's objects")
	flag.Parse()
	opts := ctrl.Options{LeaderElectionID: "apps.example.com"}
	if instance != "" {
		opts.Cache.ByObject = map[client.Object]cache.ByObject{
			&appsv1.Deployment{}: {Label: labels.SelectorFromSet(labels.Set{"instance": instance})},
		}
	}
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), opts)
	_ = ctrl.NewControllerManagedBy(mgr).
		For(&appsv1.Deployment{}).
		Owns(&corev1.Secret{}).
		Complete(&AppReconciler{Client: mgr.GetClient()})
}
"""


def test_no_edit_goes_into_a_nested_options_field_the_code_replaces_under_a_flag(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`opts.Cache.ByObject = map…{}` under --instance replaces the map a ByObject entry would be added to: the
    label fix would be lost as soon as the flag is set, so the Owns finding keeps only its metadata-only fix.
    DisableFor, under Client, is not replaced."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": BY_OBJECT_REPLACED_UNDER_A_FLAG}))
    report = run([Path(".")], CommandLine(), catalog)
    fixes = {(finding.code, finding.span.line): [fix.title for fix in finding.fixes] for finding in report.findings}
    assert fixes == {
        ("WL002", 19): ["Add &corev1.ConfigMap{} to Client.Cache.DisableFor in main.go"],
        ("WL001", 35): ["Watch Secret metadata only (builder.OnlyMetadata); read it as metav1.PartialObjectMetadata"],
    }


def test_a_site_two_binaries_leave_open_is_fixed_in_both(catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    """The store's Pod read runs in cmd/api and cmd/worker, neither of which disables Pod: the finding's one fix
    edits both managers' options, since the finding stays until each has the entry (cmd/audit restricts Pod)."""
    monkeypatch.chdir(Path(__file__).parent / "fixtures" / "go" / "WL002" / "library-read-left-open-by-two-binaries")
    report = run([Path(".")], CommandLine(), catalog)
    (finding,) = report.findings
    (fix,) = finding.fixes
    assert (
        fix.title
        == "Add &corev1.Pod{} to Client.Cache.DisableFor in cmd/api/main.go (and the same in cmd/worker/main.go:12)"
    )
    assert sorted({str(edit.span.path) for edit in fix.edits}) == ["cmd/api/main.go", "cmd/worker/main.go"]


SHARED_SETUP = """package app

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func Run() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	var token corev1.Secret
	_ = mgr.GetClient().Get(context.Background(), client.ObjectKey{Name: "token"}, &token)
}
"""

RUN_APP = """package main

import "example.com/shared/app"

func main() { app.Run() }
"""


def test_a_fix_two_binaries_share_names_its_one_place_once(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two binaries building their manager through one shared function leave the read open alike: the fix is
    one edit, and its title names no second place."""
    files = {"go.mod": GO_MOD.replace("example.com/nodes", "example.com/shared"), "app/app.go": SHARED_SETUP}
    files |= {"cmd/a/main.go": RUN_APP, "cmd/b/main.go": RUN_APP}
    monkeypatch.chdir(write_tree(tmp_path, files))
    report = run([Path(".")], CommandLine(), catalog)
    (finding,) = report.findings
    (fix,) = finding.fixes
    assert fix.title == "Add &corev1.Secret{} to Client.Cache.DisableFor in app/app.go"
    assert len([edit for edit in fix.edits if "DisableFor" in edit.new_text]) == 1


TWO_READERS = """package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/cluster"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

type actuator struct {
	seedClient   client.Client
	seedReader   client.Reader
	gardenReader client.Reader
}

func newActuator(mgr manager.Manager, garden cluster.Cluster) *actuator {
	a := &actuator{seedClient: mgr.GetClient(), seedReader: mgr.GetAPIReader()}
	if garden != nil {
		a.gardenReader = garden.GetAPIReader()
	}
	return a
}

func (a *actuator) secrets(ctx context.Context, namespace string) error {
	return a.seedClient.List(ctx, &corev1.SecretList{}, client.InNamespace(namespace))
}

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_ = newActuator(mgr, nil).secrets(context.Background(), "garden")
}
"""


def test_no_api_reader_is_chosen_among_several(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A struct holding its manager's API reader and another cluster's: which one reads the cluster the client
    does is not told, so no edit swaps the read to either (gardener's actuator read the garden through the seed
    reader's place); DisableFor stays offered."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": TWO_READERS}))
    (finding,) = run([Path(".")], CommandLine(), catalog).findings
    assert (finding.code, finding.span.line) == ("WL002", 28)
    assert [(fix.applicability, fix.title.split(" in ")[0]) for fix in finding.fixes] == [
        (Applicability.SAFE, "Add &corev1.Secret{} to Client.Cache.DisableFor")
    ]


def test_a_predicate_selector_other_watches_of_the_kind_do_not_share_is_told_why_it_stays(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A LabelSelectorPredicate whose kind another watch of the manager selects otherwise gets no selector edit
    (the cache selector would hide that watch's objects), and its help says so instead of offering the predicate's
    label to the cache; the kind it alone selects keeps the edit and the usual help, and the other watch of the
    first kind is told the selector it needs must keep what the first one sees too."""
    fixture = Path(__file__).parent / "fixtures/go/WL003/label-selector-predicate-beside-its-negation/main.go"
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": fixture.read_text()}))
    report = run([Path(".")], CommandLine(), catalog)
    helps = {(finding.code, finding.span.line): finding.help for finding in report.findings}
    assert helps == {
        ("WL003", 35): "The predicate's label selector cannot move into the cache as it is: other watches of Pod "
        "through this manager see objects it leaves out, and a cache.Options.ByObject selector would hide them from "
        "those watches too; select them by the same label first, or restrict Pod by namespace",
        ("WL003", 36): "Restrict Secret with cache.Options.ByObject (the label or field the predicate tests, if any, "
        "or namespaces) in the manager options, so the informer holds only the objects the controller needs",
        ("WL003", 40): "Restrict Pod with cache.Options.ByObject (the label or field the predicate tests, if any, or "
        "namespaces) in the manager options, so the informer holds only the objects the controller needs; 1 other "
        "watch of Pod shares the informer: the selector must keep what each needs",
    }


WATCHED_LISTS_MAIN = """package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

type Reconciler struct {
	client.Client
}

func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var everywhere, here corev1.PodList
	if err := r.List(ctx, &everywhere); err != nil {
		return reconcile.Result{}, err
	}
	return reconcile.Result{}, r.List(ctx, &here, client.InNamespace(req.Namespace))
}

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_ = ctrl.NewControllerManagedBy(mgr).For(&corev1.Pod{}).Complete(&Reconciler{Client: mgr.GetClient()})
}
"""


def test_a_watched_kinds_list_with_no_scope_of_its_own_is_told_disable_for_makes_it_list_everything(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """kube-image-keeper lists every Pod through the cache a Pod watch fills: DisableFor (or the API reader) would
    send that List to the API server whole on each call, which the fix title says; a List in one namespace is
    told only that the watch must be narrowed."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": WATCHED_LISTS_MAIN}))
    report = run([Path(".")], CommandLine(), catalog)
    titles = {
        finding.span.line: fix.title.split("; ", 1)[1]
        for finding in report.findings
        if finding.code == "WL002"
        for fix in finding.fixes
        if fix.title.startswith("Add")
    }
    assert titles == {
        18: "it saves memory only once the watch at main.go:26 is narrowed, and the List then reads every Pod from "
        "the API server on each call (WL004)",
        21: "it saves memory only once the watch at main.go:26 is narrowed",
    }


def test_a_read_watched_in_some_binaries_only_is_told_where_its_fix_waits_for_the_watch(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """infra-operator-aws registers the controller owning Secrets in one of the binaries reading them: the
    DisableFor fix saves memory at once in the others, and in that one only once the watch is narrowed."""
    fixture = Path(__file__).parent / "fixtures/go/WL002/read-of-kinds-watched-in-some-binaries-only"
    monkeypatch.chdir(fixture)
    report = run([Path(".")], CommandLine(), catalog)
    titles = {
        finding.kind: ([fix.title for fix in finding.fixes], {fix.applicability for fix in finding.fixes})
        for finding in report.findings
        if finding.code == "WL002"
    }
    assert titles == {
        "Secret": (
            [
                "Add &corev1.Secret{} to Client.Cache.DisableFor in cmd/audit/main.go (and the same in "
                "cmd/operator/main.go:12, cmd/webhook/main.go:12); in binary cmd/operator it saves memory only once "
                "the watch at internal/controller/controller.go:38 is narrowed"
            ],
            {Applicability.UNSAFE},
        ),
        "ConfigMap": (
            [
                "Add &corev1.ConfigMap{} to Client.Cache.DisableFor in cmd/audit/main.go (and the same in "
                "cmd/operator/main.go:12, cmd/webhook/main.go:12); in binaries cmd/audit and cmd/operator it "
                "saves memory only once the watch at internal/controller/controller.go:45 and 1 other watch of "
                "ConfigMap are narrowed"
            ],
            {Applicability.UNSAFE},
        ),
    }


UNWATCHED_LISTS_MAIN = WATCHED_LISTS_MAIN.replace(
    "_ = ctrl.NewControllerManagedBy(mgr).For(&corev1.Pod{}).Complete(&Reconciler{Client: mgr.GetClient()})",
    "_, _ = (&Reconciler{Client: mgr.GetClient()}).Reconcile(context.Background(), reconcile.Request{})",
)


def test_an_unwatched_kinds_list_with_no_scope_of_its_own_is_told_disable_for_makes_it_list_everything(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing watches Pods: DisableFor saves the informer the List starts, and sends the List to the API server,
    whole on each call where it names no namespace nor selector (a WL004 note then); a List in one namespace is
    told nothing more."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": UNWATCHED_LISTS_MAIN}))
    report = run([Path(".")], CommandLine(), catalog)
    titles = {
        finding.span.line: (fix.title, fix.applicability)
        for finding in report.findings
        if finding.code == "WL002"
        for fix in finding.fixes
        if fix.title.startswith("Add")
    }
    assert titles == {
        18: (
            "Add &corev1.Pod{} to Client.Cache.DisableFor in main.go, and the List then reads every Pod from the API "
            "server on each call (WL004)",
            Applicability.SAFE,
        ),
        21: ("Add &corev1.Pod{} to Client.Cache.DisableFor in main.go", Applicability.SAFE),
    }


TWO_SUBCOMMANDS_WATCHING_PODS = """package main

import (
	"os"

	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

var gateway = &cobra.Command{Use: "gateway", RunE: func(cmd *cobra.Command, _ []string) error {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	if err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).
		Watches(&corev1.Pod{}, nil, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Complete(reconcile.Func(nil)); err != nil {
		return err
	}
	return mgr.Start(cmd.Context())
}}

var audit = &cobra.Command{Use: "audit", RunE: func(cmd *cobra.Command, _ []string) error {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	if err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).
		Watches(&corev1.Pod{}, nil, builder.WithPredicates(predicate.LabelChangedPredicate{})).
		Complete(reconcile.Func(nil)); err != nil {
		return err
	}
	return mgr.Start(cmd.Context())
}}

func main() {
	root := &cobra.Command{Use: "manager"}
	root.AddCommand(gateway, audit)
	if err := root.Execute(); err != nil {
		os.Exit(1)
	}
}
"""


def test_a_predicate_filtered_watch_of_another_subcommands_manager_shares_no_informer(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each subcommand runs its own manager: the Pod watch of the other one starts its own informer, so WL003's
    help does not count it among the watches the selector must serve."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": TWO_SUBCOMMANDS_WATCHING_PODS}))
    findings = run([Path(".")], CommandLine(), catalog).findings
    assert [(finding.code, finding.span.line) for finding in findings] == [("WL003", 20), ("WL003", 33)]
    assert [finding.help.endswith("only the objects the controller needs") for finding in findings] == [True, True]


def test_a_library_read_through_a_client_parameter_is_offered_no_api_reader(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """crossplane-runtime's CommonCredentialExtractor and ExtractSecret take a client.Client: the reader
    mgr.GetAPIReader() returns cannot be passed to them, so the help offers DisableFor alone."""
    monkeypatch.chdir(Path(__file__).parent / "fixtures/go/WL002/library-reading-a-secret-through-the-client-given")
    report = run([Path(".")], CommandLine(), catalog)
    assert {(finding.span.line, finding.help) for finding in report.findings} == {
        (
            31,
            "Add Secret to client.CacheOptions.DisableFor in the manager options (CommonCredentialExtractor takes a "
            "client.Client, which mgr.GetAPIReader() is not)",
        ),
        (
            35,
            "Add Secret to client.CacheOptions.DisableFor in the manager options (ExtractSecret takes a "
            "client.Client, which mgr.GetAPIReader() is not)",
        ),
    }


def test_a_library_method_is_told_which_constructor_takes_its_client(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Flux's impersonator reads the ServiceAccount through the client NewImpersonator was handed: that call
    is the one that takes a client.Client."""
    monkeypatch.chdir(Path(__file__).parent / "fixtures/go/WL002/library-reading-secrets-a-reference-names")
    report = run([Path(".")], CommandLine(), catalog)
    helps = {finding.span.line: finding.help for finding in report.findings}
    assert helps[32] == (
        "Add ServiceAccount to client.CacheOptions.DisableFor in the manager options (NewImpersonator takes a "
        "client.Client, which mgr.GetAPIReader() is not)"
    )


OWNER_LABEL_ON_DEPLOYMENTS_ONLY = """package main

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

func deployment(name string) *appsv1.Deployment {
	return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{
		Name:   name,
		Labels: map[string]string{"app.kubernetes.io/managed-by": "nodes-operator"},
	}}
}

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_ = deployment("agent")
	_ = ctrl.NewControllerManagedBy(mgr).For(&appsv1.Deployment{}).
		Owns(&corev1.ConfigMap{}).Complete(reconcile.Func(nil))
}
"""


def test_an_owner_label_set_on_other_kinds_asks_to_label_what_the_operator_creates(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The module labels its Deployments `managed-by=nodes-operator` and builds no ConfigMap with labels: the
    ConfigMap selector takes that label, and the title asks to label what the operator creates (not "on nothing
    yet", as where the code sets no owner label at all)."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": OWNER_LABEL_ON_DEPLOYMENTS_ONLY}))
    (finding,) = run([Path(".")], CommandLine(), catalog).findings
    assert (finding.code, finding.span.line) == ("WL001", 22)
    assert finding.fixes[0].title == (
        "Cache only ConfigMap objects labelled app.kubernetes.io/managed-by=nodes-operator (Cache.ByObject in "
        "main.go); unlabelled ones become invisible, so label what the operator creates"
    )


SUBCOMMAND_MANAGERS_MAIN = """package main

import (
	"context"
	"os"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

type Provider interface {
	Manager(ctx context.Context, name string) (manager.Manager, error)
}

type Reconciler struct {
	Clusters Provider
}

func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	cluster, err := r.Clusters.Manager(ctx, req.Namespace)
	if err != nil {
		return ctrl.Result{}, err
	}
	var secret corev1.Secret
	return ctrl.Result{}, cluster.GetClient().Get(ctx, req.NamespacedName, &secret)
}

func runController() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{LeaderElection: true})
	_ = ctrl.NewControllerManagedBy(mgr).For(&corev1.Namespace{}).Complete(&Reconciler{})
	_ = mgr.Start(ctrl.SetupSignalHandler())
}

func runWebhooks() {
	webhooks, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_ = webhooks.GetWebhookServer()
	_ = webhooks.GetClient()
	_ = webhooks.GetScheme()
	_ = webhooks.Start(ctrl.SetupSignalHandler())
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "webhooks" {
		runWebhooks()
		return
	}
	runController()
}
"""


def test_subcommands_managers_are_not_told_apart_by_how_often_each_is_named(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """How often its function names a manager tells the main one only among managers one function builds: of
    subcommands each building its own, the webhooks server naming its manager most is not the one to edit."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": SUBCOMMAND_MANAGERS_MAIN}))
    report = run([Path(".")], CommandLine(), catalog)
    edits = [(edit.span.path, edit.span.line) for finding in report.findings for edit in finding.fixes[0].edits]
    assert ("main.go", 30) in edits


GENERATED_MAIN = """// Code generated by upjet. DO NOT EDIT.

package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func credentials(ctx context.Context, c client.Client) error {
	var secret corev1.Secret
	return c.Get(ctx, client.ObjectKey{Namespace: "crossplane-system", Name: "credentials"}, &secret)
}

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_ = credentials(context.Background(), mgr.GetClient())
}
"""


def test_an_options_edit_in_a_generated_main_is_unsafe_and_says_the_generator_decides(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """upjet renders each provider's zz_main.go from a template: an edit there is undone by the next `go
    generate`, so the fix is not applied by default and says where the change belongs."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": GENERATED_MAIN}))
    report = run([Path(".")], CommandLine(), catalog)
    fixes = [(fix.applicability, fix.title) for finding in report.findings for fix in finding.fixes]
    assert fixes == [
        (
            Applicability.UNSAFE,
            "Add &corev1.Secret{} to Client.Cache.DisableFor in main.go; the file is generated: make the same change "
            "where it is generated from, or it is undone",
        )
    ]


SCOPED_IN_TWO_BRANCHES_MAIN = """package main

import (
	"context"
	"os"
	"strings"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Members struct{ client.Client }

func (m *Members) Reconcile(ctx context.Context, _ ctrl.Request) (ctrl.Result, error) {
	var pods corev1.PodList
	return ctrl.Result{}, m.List(ctx, &pods, client.MatchingLabels{"app": "db"})
}

func main() {
	ns := os.Getenv("WATCH_NAMESPACE")
	opts := ctrl.Options{Cache: cache.Options{DefaultNamespaces: map[string]cache.Config{}}}
	if strings.Contains(ns, ",") {
		for _, n := range strings.Split(ns, ",") {
			opts.Cache.DefaultNamespaces[n] = cache.Config{}
		}
	} else if ns != "" {
		opts.Cache.DefaultNamespaces[ns] = cache.Config{}
	}
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), opts)
	_ = ctrl.NewControllerManagedBy(mgr).Named("members").Complete(&Members{mgr.GetClient()})
	_ = mgr.Start(ctrl.SetupSignalHandler())
}
"""


def test_the_unsafe_list_fix_names_every_branch_that_scopes_the_cache(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """k8ssandra scopes its cache where WATCH_NAMESPACE holds a list, and in another branch where it holds one
    namespace: the DisableFor fix of a List naming no namespace says where the List would then read more, which
    is wherever the variable is set, not only where it contains a comma."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": SCOPED_IN_TWO_BRANCHES_MAIN}))
    report = run([Path(".")], CommandLine(), catalog)
    assert [(f.code, f.span.line, [fix.title for fix in f.fixes]) for f in report.findings] == [
        (
            "WL002",
            18,
            [
                "Add &corev1.Pod{} to Client.Cache.DisableFor in main.go; where WATCH_NAMESPACE is non-empty, the "
                "List then reads every Pod the cache would leave out: give it the scope's namespace"
            ],
        )
    ]


OWN_CACHE_CLIENT_MAIN = """package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/config"
)

func main() {
	ctx := context.Background()
	cfg := config.GetConfigOrDie()
	informers, err := cache.New(cfg, cache.Options{})
	if err != nil {
		panic(err)
	}
	go func() { _ = informers.Start(ctx) }()
	c, err := client.New(cfg, client.Options{Cache: &client.CacheOptions{Reader: informers}})
	if err != nil {
		panic(err)
	}
	var secret corev1.Secret
	_ = c.Get(ctx, client.ObjectKey{Namespace: "ops", Name: "alerts"}, &secret)
}
"""


def test_a_client_over_a_cache_of_its_own_is_told_of_that_cache_not_of_a_manager(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """radix-operator builds no manager: its client.New reads through a cache.New of its own, so the help names
    that cache's options rather than a manager's API reader."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": OWN_CACHE_CLIENT_MAIN}))
    report = run([Path(".")], CommandLine(), catalog)
    assert [(finding.code, finding.span.line, finding.help) for finding in report.findings] == [
        (
            "WL002",
            25,
            "Add Secret to the DisableFor of the client options at main.go:20 (a client built with client.New over a "
            "cache follows its own options), or restrict it in the options of the cache built at main.go:15 "
            "(cache.Options.ByObject or DefaultNamespaces)",
        )
    ]


INDEXED_LISTS_MAIN = """package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func reconcile(ctx context.Context, c client.Client, owner string) error {
	var owned corev1.PodList
	err := c.List(ctx, &owned, client.InNamespace("db"), client.MatchingFields{".metadata.controller": owner})
	if err != nil {
		return err
	}
	var local corev1.PodList
	return c.List(ctx, &local, client.MatchingFields{".spec.nodeName": "node-1"})
}

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	ctx := context.Background()
	_ = mgr.GetFieldIndexer().IndexField(ctx, &corev1.Pod{}, ".metadata.controller", func(o client.Object) []string {
		if ref := metav1.GetControllerOf(o); ref != nil {
			return []string{ref.Name}
		}
		return nil
	})
	_ = mgr.GetFieldIndexer().IndexField(ctx, &corev1.Pod{}, ".spec.nodeName", func(o client.Object) []string {
		return []string{o.(*corev1.Pod).Spec.NodeName}
	})
	_ = reconcile(ctx, mgr.GetClient(), "primary")
}
"""


def test_lists_by_indexes_needing_different_selectors_are_each_told_their_own(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """cloudnative-pg lists Pods by their owner (an index only the cache serves: a label selector instead) and by
    their node (a field the API server serves): neither List's help tells the other to take its remedy."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": INDEXED_LISTS_MAIN}))
    report = run([Path(".")], CommandLine(), catalog)
    by_owner = (
        'by a label selector instead of the cache index ".metadata.controller", which the API server cannot serve'
    )
    by_node = (
        'by the field selector "spec.nodeName" instead of the cache index ".spec.nodeName" (the API server serves '
        "the field, which the index holds)"
    )
    helps = {finding.span.line: finding.help for finding in report.findings if finding.code == "WL002"}
    assert helps[14].startswith(f"Filter this List {by_owner}; the List at main.go:19 {by_node}; then add Pod to ")
    assert helps[19].startswith(f"Filter this List {by_node}; the List at main.go:14 {by_owner}; then add Pod to ")


WATCHED_LIST_SCOPED_BY_A_FLAG_MAIN = """package main

import (
	"context"
	"flag"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func owned(ctx context.Context, c client.Client, name string) error {
	var secrets corev1.SecretList
	return c.List(ctx, &secrets, client.MatchingLabels{"app": name})
}

func main() {
	namespace := flag.String("namespace", "", "the one namespace to watch; empty: every one")
	flag.Parse()
	options := ctrl.Options{}
	if *namespace != "" {
		options.Cache = cache.Options{DefaultNamespaces: map[string]cache.Config{*namespace: {}}}
	}
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), options)
	_ = ctrl.NewControllerManagedBy(mgr).For(&appsv1.StatefulSet{}).Owns(&corev1.Secret{}).Complete(nil)
	_ = owned(context.Background(), mgr.GetClient(), "db")
}
"""


def test_a_watched_list_the_cache_scopes_only_where_configured_is_told_both_hazards_of_disable_for(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ob-operator's Pod List by a label, beside an Owns of Pods: DisableFor saves nothing until the watch is
    narrowed, and where --namespace scopes the cache, it sends the List to every namespace."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": WATCHED_LIST_SCOPED_BY_A_FLAG_MAIN}))
    report = run([Path(".")], CommandLine(), catalog)
    titles = [fix.title for finding in report.findings if finding.code == "WL002" for fix in finding.fixes]
    assert titles[0] == (
        "Add &corev1.Secret{} to Client.Cache.DisableFor in main.go; where --namespace is set, the List then reads "
        "every Secret the cache would leave out: give it the scope's namespace; it saves memory only once the "
        "watch at main.go:27 is narrowed"
    )


EVENT_INDEX_MAIN = """package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func events(ctx context.Context, c client.Client, name string) error {
	var events corev1.EventList
	return c.List(ctx, &events, client.MatchingFields{"involvedObject.name": name})
}

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{OPTIONS})
	_ = mgr.GetFieldIndexer().IndexField(context.Background(), &corev1.Event{}, "involvedObject.name",
		func(o client.Object) []string { return []string{o.(*corev1.Event).InvolvedObject.Name} })
	_ = events(context.Background(), mgr.GetClient(), "db")
}
"""


@pytest.mark.parametrize(
    ("options", "advice"),
    [
        ("", "Restrict Event with cache.Options.ByObject"),
        (
            "Client: client.Options{Cache: &client.CacheOptions{DisableFor: []client.Object{&corev1.Event{}}}}",
            "No read of Event through the cache is seen, and an index serves only cached Lists filtering on it: "
            "where none does, remove the IndexField; else restrict Event with cache.Options.ByObject",
        ),
    ],
)
def test_an_index_of_a_kind_no_read_takes_from_the_cache_is_told_to_go(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch, options: str, advice: str
) -> None:
    """cass-operator's Event index once its List goes to the API server (DisableFor, its own fix): the index
    only fills an informer nothing reads, which removing it saves; while the List reads the cache, it needs it."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": EVENT_INDEX_MAIN.replace("OPTIONS", options)}))
    report = run([Path(".")], CommandLine(), catalog)
    [index] = [finding for finding in report.findings if finding.code == "WL001"]
    assert (index.span.path, index.span.line) == ("main.go", 18)
    assert index.help.startswith(advice)


EXISTENCE_CHECKS = """package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func anySlice(ctx context.Context, cs kubernetes.Interface) (bool, error) {
	slices, err := cs.DiscoveryV1().EndpointSlices("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return false, err
	}
	return len(slices.Items) > 0, nil
}

func podNames(ctx context.Context, cs kubernetes.Interface) []string {
	pods, err := cs.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
	if err != nil || len(pods.Items) == 0 {
		return nil
	}
	return []string{pods.Items[0].Name}
}

func noSecrets(ctx context.Context, reader client.Reader) bool {
	var secrets corev1.SecretList
	if err := reader.List(ctx, &secrets); err != nil {
		return false
	}
	return 0 == len(secrets.Items)
}

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	cs := kubernetes.NewForConfigOrDie(ctrl.GetConfigOrDie())
	_, _ = anySlice(context.Background(), cs)
	_ = podNames(context.Background(), cs)
	_ = noSecrets(context.Background(), mgr.GetAPIReader())
}
"""


def test_a_list_read_only_for_whether_any_object_exists_is_told_to_ask_for_one(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A List whose objects are only counted against zero (linkerd's `checkEndpointSlicesExist`) needs one
    object, not every one: its help says to pass a limit of one, in the form of its client; a List whose
    objects are read keeps the rule's help."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD, "main.go": EXISTENCE_CHECKS}))
    report = run([Path(".")], CommandLine(), catalog)
    assert [(finding.code, finding.kind, finding.span.line, finding.help) for finding in report.findings] == [
        (
            "WL004",
            "EndpointSlice",
            14,
            "Only whether any EndpointSlice exists is read (`len(slices.Items) > 0`): pass `Limit: 1` in the "
            "metav1.ListOptions, which returns one object rather than every one",
        ),
        ("WL004", "Pod", 22, "Pass a label or field selector, or list a single namespace"),
        (
            "WL004",
            "Secret",
            31,
            "Only whether any Secret exists is read (`0 == len(secrets.Items)`): pass client.Limit(1), which "
            "returns one object rather than every one",
        ),
    ]


POD_READ_ALSO_THROUGH_THE_CACHE = {
    "main.go": """package main

import (
	ctrl "sigs.k8s.io/controller-runtime"

	"example.com/nodes/internal/metrics"
	"example.com/nodes/internal/pods"
)

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	m := metrics.New(mgr.GetCache())
	_ = (&pods.Reconciler{Client: mgr.GetClient(), Metrics: m}).SetupWithManager(mgr)
	_ = mgr.Start(ctrl.SetupSignalHandler())
}
""",
    "internal/metrics/metrics.go": """package metrics

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Metrics struct {
	cache client.Reader
}

func New(cache client.Reader) *Metrics { return &Metrics{cache: cache} }

func (m *Metrics) PodExists(ctx context.Context, key types.NamespacedName) bool {
	pod := &corev1.Pod{}
	return m.cache.Get(ctx, key, pod) == nil
}
""",
    "internal/pods/pods.go": """package pods

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/nodes/internal/metrics"
)

type Reconciler struct {
	client.Client
	Metrics *metrics.Metrics
}

func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	pod := &corev1.Pod{}
	return ctrl.Result{}, client.IgnoreNotFound(r.Get(ctx, req.NamespacedName, pod))
}

func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Pod{}, builder.OnlyMetadata).Complete(r)
}
""",
}


def test_disable_for_saves_nothing_while_another_read_takes_the_kind_from_the_cache_itself(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """version-checker reads Pods typed through its client and through mgr.GetCache(), which DisableFor does
    not cover: the client read's DisableFor fix keeps the informer while the other read does, so it is applied
    only on request and says what must change first."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD} | POD_READ_ALSO_THROUGH_THE_CACHE))
    report = run([Path(".")], CommandLine(), catalog)
    reads = [finding for finding in report.findings if finding.code == "WL002"]
    assert [(finding.span.path, finding.span.line) for finding in reads] == [
        ("internal/metrics/metrics.go", 19),
        ("internal/pods/pods.go", 21),
    ]
    assert reads[0].fixes == ()
    assert [(fix.title, fix.applicability) for fix in reads[1].fixes] == [
        (
            "Add &corev1.Pod{} to Client.Cache.DisableFor in main.go; it saves memory only once the read at "
            "internal/metrics/metrics.go:19 stops reading Pod from the cache itself (DisableFor does not cover it)",
            Applicability.UNSAFE,
        )
    ]


OWNER_KEY_BUILT_FROM_A_PREFIX = {
    "pkg/naming/labels.go": """package naming

const (
	labelPrefix    = "app.kubernetes.io/"
	LabelManagedBy = labelPrefix + "managed-by"
)

func Labels() map[string]string {
	return map[string]string{LabelManagedBy: "nodes-operator"}
}
""",
    "pkg/controller/controller.go": """package controller

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"

	"example.com/nodes/pkg/naming"
)

func Add(mgr ctrl.Manager) error {
	labelled := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "users", Labels: naming.Labels()}}
	plain := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "keys"}}
	_, _ = labelled, plain
	return ctrl.NewControllerManagedBy(mgr).
		For(&corev1.ConfigMap{}).
		Owns(&corev1.Secret{}).
		Complete(nil)
}
""",
    "cmd/main.go": """package main

import (
	ctrl "sigs.k8s.io/controller-runtime"

	"example.com/nodes/pkg/controller"
)

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_ = controller.Add(mgr)
}
""",
}


def test_an_owner_key_built_from_a_prefix_constant_is_one_the_operator_sets(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """percona's `LabelManagedBy = labelKubernetesPrefix + "managed-by"`: the key is written nowhere whole, yet the
    operator sets it, so the proposed label is not one it "sets on nothing yet"."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD} | OWNER_KEY_BUILT_FROM_A_PREFIX))
    report = run([Path(".")], CommandLine(), catalog)
    assert [(finding.code, finding.span.path, finding.span.line) for finding in report.findings] == [
        ("WL001", "pkg/controller/controller.go", 16),
        ("WL001", "pkg/controller/controller.go", 17),
    ]
    assert [fix.title for fix in report.findings[1].fixes[:1]] == [
        "Cache only Secret objects labelled app.kubernetes.io/managed-by=nodes-operator (Cache.ByObject in "
        "cmd/main.go); unlabelled ones become invisible, so label what the operator creates"
    ]


def test_a_list_by_an_index_through_a_client_of_its_own_holds_back_only_that_clients_remedies(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """kruise lists Jobs by its ownerRefUID index through a client.New over the manager's cache: the manager's
    DisableFor leaves that List alone, so a Get through the manager's client gets its DisableFor fix, and the
    List's own help says its client's DisableFor needs the index replaced first. Its Pods are listed by the index
    through the manager's client, in a function literal given the options: the Pod read gets no DisableFor fix."""
    monkeypatch.chdir(Path(__file__).parent / "fixtures/go/WL002/list-by-an-index-through-a-client-of-its-own")
    report = run([Path(".")], CommandLine(), catalog)
    reads = {finding.span.line: finding for finding in report.findings if finding.code == "WL002"}
    assert reads[27].help.startswith(
        'Filter this List by a label selector instead of the cache index "ownerUID", which the API server cannot '
        "serve; then add Job to the DisableFor of the client options at main.go:75"
    )
    assert reads[27].fixes == ()
    assert [fix.title for fix in reads[37].fixes] == [
        "Add &batchv1.Job{} to Client.Cache.DisableFor in main.go; it saves memory only once the index at "
        "main.go:69 is narrowed"
    ]
    assert reads[42].help.startswith("Filter the List at main.go:47 by a label selector instead of the cache index")
    assert reads[42].fixes == ()


class _Range:
    def __init__(self, start_byte: int, end_byte: int) -> None:
        self.start_byte, self.end_byte = start_byte, end_byte


def test_an_owner_key_marker_counts_only_where_it_lies_wholly_inside_a_node() -> None:
    """The owner label's search of a file: a longer marker starting in a node may end past it while a shorter
    one starting later ends inside it; a marker starting before the node does not count."""
    data = b"k LabelManagedByKey y"
    index = _NeedleIndex(data, frozenset({b"LabelManagedByKey", b"ManagedBy"}))
    assert index.within(_Range(2, 17))  # "ManagedBy" (7-16), though "LabelManagedByKey" ends at 19
    assert not index.within(_Range(2, 15))
    assert index.within(_Range(2, 19))
    assert not index.within(_Range(8, 21))  # "ManagedBy" starts at 7


def test_a_list_by_a_field_selector_not_read_is_told_it_may_name_an_index(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A field selector watchlint cannot read (a parameter) keeps DisableFor from a kind indexed under a field the
    API server cannot serve: the help says the selector may name such an index, not that it is one."""
    monkeypatch.chdir(Path(__file__).parent / "fixtures" / "go" / "WL002" / "list-by-an-unknown-field-selector")
    report = run([Path(".")], CommandLine(), catalog)
    helps = {finding.span.line: finding.help for finding in report.findings if finding.code == "WL002"}
    assert helps[42].startswith(
        "Filter this List by a label selector instead of the field selector `fSelector`, which may name a cache "
        "index the API server cannot serve; then add ConfigMap to client.CacheOptions.DisableFor"
    )


def test_a_list_by_an_option_function_is_told_it_may_filter_on_an_index(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An option a function held in a field gives is no field selector: the help names it as a List option."""
    case = "list-by-an-option-function-on-an-index-a-helper-registers"
    monkeypatch.chdir(Path(__file__).parent / "fixtures" / "go" / "WL002" / case)
    report = run([Path(".")], CommandLine(), catalog)
    helps = {finding.span.line: finding.help for finding in report.findings if finding.code == "WL002"}
    assert helps[23].startswith(
        "Filter this List by a label selector instead of the List option `r.byOwner(req.Name)`, which may filter "
        "on a cache index the API server cannot serve; then add Pod to client.CacheOptions.DisableFor"
    )
