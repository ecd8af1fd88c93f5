"""The Go evaluator of the default deployment (watchlint/go/deployment.py) where the fixture grammar cannot say
enough: its bounds on evaluations nested one inside the other and on recomputing what the depth limit cut short,
where a conditional scope is cited, and the options of a manager the default deployment never builds."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_tree

from watchlint.catalog import Catalog
from watchlint.config import CommandLine
from watchlint.engine import run
from watchlint.go import deployment
from watchlint.go.configfiles import keys_to
from watchlint.go.declarations import Declarations, FieldInfo
from watchlint.go.known import either_origin
from watchlint.go.model import TypeRef

NESTED_FLAGS = Path(__file__).parent / "fixtures" / "go" / "deployment" / "restriction-behind-two-nested-flags"


def _findings(catalog: Catalog) -> list[tuple[str, str, int]]:
    report = run([Path(".")], CommandLine(), catalog)
    return [(finding.code, finding.span.path, finding.span.line) for finding in report.findings]


def test_evaluations_nested_past_the_bound_are_unknown(catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    """Chains of helpers whose parameters are bound to what their callers pass nest evaluations past Python's
    stack (argo-workflows' artifact server); past MAX_NESTING a value is unknown, and a condition that cannot
    be evaluated counts as holding: the scope the two flags set then counts, and the watch is no finding."""
    monkeypatch.chdir(NESTED_FLAGS)
    assert _findings(catalog) == [("WL001", "main.go", 17)]
    monkeypatch.setattr(deployment, "MAX_NESTING", 0)
    assert _findings(catalog) == []


HELPER_SCOPE = """package main

import (
	"os"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
)

func watchNamespaces() map[string]cache.Config {
	ns, found := os.LookupEnv("WATCH_NAMESPACE")
	if found {
		return map[string]cache.Config{ns: {}}
	}
	return nil
}

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{
		Cache: cache.Options{DefaultNamespaces: watchNamespaces()},
	})
	_ = ctrl.NewControllerManagedBy(mgr).For(&corev1.Pod{}).Complete(nil)
}
"""


def test_a_scope_a_helper_builds_by_default_empty_cites_the_helpers_condition(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`DefaultNamespaces: watchNamespaces()` with a helper returning entries only `if found`: the related location
    of the conditional scope is that condition in the helper (SPEC §1: it points at the conditional code), not the
    call in the options."""
    go_mod = "module example.com/scoped\n\ngo 1.22\n\nrequire sigs.k8s.io/controller-runtime v0.19.0\n"
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": go_mod, "main.go": HELPER_SCOPE}))
    (finding,) = run([Path(".")], CommandLine(), catalog).findings
    cited = [
        (related.span.path, related.span.line, related.span.column)
        for related in finding.related
        if related.message == "DefaultNamespaces applies only when WATCH_NAMESPACE is non-empty"
    ]
    assert (finding.code, finding.span.line, cited) == ("WL001", 23, [("main.go", 13, 5)])


ANOTHER_PROGRAM = (
    Path(__file__).parent / "fixtures" / "go" / "fixes-safe" / ("disable-for-the-manager-the-default-deployment-runs")
)


def test_a_manager_built_only_for_another_program_is_left_out_of_the_notes(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Beside the operator's manager, main builds a certificate manager scoped to its namespace only when
    RUN_CERT_MANAGER asks for that other program: its options narrow nothing the default deployment runs, so
    the finding neither says the scope applies only when RUN_CERT_MANAGER is non-empty (setting it would stop the
    operator) nor cites that manager's options as leaving Secret unrestricted."""
    monkeypatch.chdir(ANOTHER_PROGRAM)
    (finding,) = run([Path(".")], CommandLine(), catalog).findings
    notes = [(related.span.path, related.span.line, related.message) for related in finding.related]
    assert finding.message == "`r.Get` on Secret starts a cluster-wide Secret informer"
    assert notes == [
        ("internal/operator/operator.go", 21, "cache options here leave Secret unrestricted"),
        ("internal/controller/settings.go", 24, "settingsReconciler.Client is `mgr.GetClient()`"),
    ]


FROM_THE_ENVIRONMENT = (
    Path(__file__).parent / "fixtures" / "go" / "deployment" / ("namespace-read-from-the-environment-by-a-helper")
)


def test_a_scope_read_from_the_environment_as_is_says_an_empty_one_is_every_namespace(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A namespace scope keyed by POD_NAMESPACE, read as is, counts (SPEC §1); its evidence names the variable
    and says that, empty, it caches every namespace, as an AllNamespaces install leaves it."""
    monkeypatch.chdir(FROM_THE_ENVIRONMENT)
    report = run([Path(".")], CommandLine(), catalog)
    evidence = [
        (item.span.path, item.span.line, item.evidence.span.line, item.evidence.message)
        for item in report.mitigated
        if item.evidence is not None
    ]
    assert evidence == [
        ("cmd/main.go", 24, 17, "DefaultNamespaces (POD_NAMESPACE; every namespace if empty)"),
    ]


def test_a_case_a_flag_selects_is_named_by_the_value_the_flag_takes(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`switch *nodeSettings { case settingsOn: … }` with `settingsOn = "on"`: the reason names the flag's value,
    not the constant spelling it (ceph-csi's `--type selects controllerType`)."""
    monkeypatch.chdir(Path(__file__).parent / "fixtures" / "go" / "deployment" / "flag-required-by-an-exiting-helper")
    report = run([Path(".")], CommandLine(), catalog)
    assert [(item.span.line, item.evidence.message) for item in report.mitigated if item.evidence is not None] == [
        (50, 'only when --node-settings selects "on"')
    ]


def test_a_range_over_every_namespace_alone_is_no_condition(catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    """`for _, namespace := range []string{metav1.NamespaceAll}` lists every namespace whatever the calls pass:
    the message says no condition ("`namespace` is not empty" would say it could be)."""
    monkeypatch.chdir(
        Path(__file__).parent / "fixtures" / "go" / "deployment" / "helper-local-computed-from-what-a-call-passes"
    )
    report = run([Path(".")], CommandLine(), catalog)
    assert [(f.span.line, f.message) for f in report.findings if f.kind == "Endpoints"] == [
        (43, "`List` lists every Endpoints in the cluster on each call")
    ]


def test_a_local_only_ever_holding_every_namespace_is_no_condition(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`all := metav1.NamespaceAll`, never set otherwise, lists every namespace as the constant does: the message
    says no condition ("`all` is not empty" would say it could be)."""
    monkeypatch.chdir(
        Path(__file__).parent / "fixtures" / "go" / "WL004" / "namespace-field-one-constructor-sets-to-every-namespace"
    )
    report = run([Path(".")], CommandLine(), catalog)
    assert [(f.span.line, f.message) for f in report.findings if f.kind == "ConfigMap"] == [
        (58, "`List` lists every ConfigMap in the cluster on each call")
    ]


def _bare_evaluator() -> deployment.Evaluator:
    """An evaluator with its memo only: enough for `once`, which needs no module."""
    evaluator = deployment.Evaluator.__new__(deployment.Evaluator)
    evaluator.cutoffs = 0
    evaluator._memo = {}
    evaluator._cut_short = {}
    evaluator._depth = 0
    evaluator._nesting = 0
    return evaluator


def test_a_result_cut_short_inside_deep_evaluations_is_computed_again_from_fewer() -> None:
    """hypershift's `hyperv1.NonePlatform`, first read inside a chain of 78 field copies past MAX_NESTING, was
    kept unknown for the switch on --private-platform that reads it from a handful of evaluations deep."""
    evaluator = _bare_evaluator()
    computed: list[str] = []

    def constant() -> str:
        computed.append("constant")
        if evaluator._nesting > 40:
            evaluator.cutoffs += 1
            return "unknown"
        return "None"

    evaluator._nesting = 80
    assert evaluator.once(("constant",), constant, "cycle") == "unknown"
    assert evaluator.once(("constant",), constant, "cycle") == "unknown"  # from as deep: kept
    evaluator._nesting = 3
    assert evaluator.once(("constant",), constant, "cycle") == "None"
    assert computed == ["constant", "constant"]


def test_a_result_cut_short_at_the_depth_limit_is_computed_again_only_from_nearer_the_start() -> None:
    """The memo's keys hold no depth: a value first asked for from deep in a chain, where the depth limit cut
    it short, is computed again when asked for from nearer the start (with more steps to spare it may be known:
    hive's managed domains, read first at the end of another package's helpers); asked for from as deep or
    deeper, it is kept, so that a chain of keys each asking for the next twice takes linear time, not
    exponential."""
    evaluator = _bare_evaluator()
    computed: list[str] = []
    past_the_limit = True

    def leaf() -> str:
        computed.append("leaf")
        if past_the_limit:
            evaluator.cutoffs += 1
            return "unknown"
        return "known"

    def level(index: int) -> object:
        evaluator._depth = index
        if index == 30:
            return evaluator.once(("leaf",), leaf, "cycle")
        evaluator.once(("level", index + 1), lambda: level(index + 1), "cycle")
        return evaluator.once(("level", index + 1), lambda: level(index + 1), "cycle")

    assert evaluator.once(("level", 0), lambda: level(0), "cycle") == "unknown"
    assert computed == ["leaf"]
    past_the_limit = False
    evaluator._depth = 30
    assert evaluator.once(("leaf",), leaf, "cycle") == "unknown"  # from as deep: kept
    evaluator._depth = 3
    assert evaluator.once(("leaf",), leaf, "cycle") == "known"  # from nearer the start: computed again
    assert evaluator.once(("leaf",), lambda: "not asked", "cycle") == "known"  # a whole result is memoized
    assert computed == ["leaf", "leaf"]


def test_a_setting_already_named_is_not_named_again() -> None:
    """A write skipped by default under a guard reading the value's own sources (`if !strings.Contains(ns,
    own) { ns = ns + "," + own }`, security-profiles-operator) adds no setting the origin already names."""
    assert either_origin("RESTRICT_TO_NAMESPACE or WATCH_NAMESPACE", "RESTRICT_TO_NAMESPACE or WATCH_NAMESPACE") == (
        "RESTRICT_TO_NAMESPACE or WATCH_NAMESPACE"
    )
    assert (
        either_origin("WATCH_NAMESPACE", "--watch-current-namespace") == "WATCH_NAMESPACE or --watch-current-namespace"
    )


def test_a_configuration_section_is_named_by_the_one_field_holding_each_struct_on_the_way() -> None:
    """traefik's providers: a struct the decoded one holds through `providers` then `kubernetesCRD` is named
    `providers.kubernetesCRD`; an embedded struct's fields sit in its holder's section; a struct two fields
    hold (which one a message means is not told) and the decoded struct itself are named by no section."""
    package = "example.com/proxy/config"
    static, providers, crd, shared, endpoint = (
        TypeRef(package, name) for name in ("Static", "Providers", "CRD", "Shared", "Endpoint")
    )
    declarations = Declarations()
    declarations.structs.update(
        {
            static: (FieldInfo("Providers", providers, is_embedded=False, file_key="providers"),),
            providers: (
                FieldInfo("KubernetesCRD", crd, is_embedded=False, file_key="kubernetesCRD"),
                FieldInfo("Primary", endpoint, is_embedded=False, file_key="primary"),
                FieldInfo("Fallback", endpoint, is_embedded=False, file_key="fallback"),
            ),
            crd: (FieldInfo("Shared", shared, is_embedded=True), FieldInfo("Namespaces", None, is_embedded=False)),
            shared: (FieldInfo("Token", None, is_embedded=False),),
            endpoint: (FieldInfo("URL", None, is_embedded=False),),
        }
    )
    structs = frozenset({static, providers, crd, shared, endpoint})
    assert keys_to(structs, [static], declarations) == {
        static: "",
        providers: "providers",
        crd: "providers.kubernetesCRD",
        shared: "providers.kubernetesCRD",
        endpoint: "",
    }


EACH_BINARY_OPEN = Path(__file__).parent / "fixtures" / "go" / "policy" / "binaries-each-leaving-a-watch-open"


def test_a_finding_of_several_binaries_notes_why_each_leaves_it_open(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The agent's options leave Secret open, and the manager's DefaultNamespaces applies only with
    --watch-namespace: the finding names both binaries, and its notes tell the reason of each, not only of the
    first (SPEC §1: a conditional scope is cited where it is written)."""
    monkeypatch.chdir(EACH_BINARY_OPEN)
    (finding,) = run([Path(".")], CommandLine(), catalog).findings
    notes = [(related.span.path, related.span.line, related.message) for related in finding.related]
    assert finding.code == "WL003"
    assert notes[1:] == [
        ("cmd/agent/main.go", 10, "cache options here leave Secret unrestricted"),
        ("cmd/manager/main.go", 17, "DefaultNamespaces applies only when --watch-namespace is set"),
    ]


NO_OPTIONS_EITHER = (
    Path(__file__).parent / "fixtures" / "go" / "policy" / "binaries-each-building-a-manager-with-no-options"
)


def test_a_finding_of_several_binaries_notes_each_managers_construction(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two binaries build a manager with no options and run the informer: the finding named both binaries but
    noted the first one's manager only; the second has no options to cite, so where it is built is noted
    (hwameistor's scheduler beside its local-storage member)."""
    monkeypatch.chdir(NO_OPTIONS_EITHER)
    (finding,) = run([Path(".")], CommandLine(), catalog).findings
    notes = [(related.span.path, related.span.line, related.message) for related in finding.related]
    assert notes == [
        ("cmd/a/main.go", 12, "cache options here leave Pod unrestricted"),
        ("pkg/bmgr/bmgr.go", 15, "cache options here leave Pod unrestricted"),
    ]


CACHE_FUNCTIONS = (
    Path(__file__).parent / "fixtures" / "go" / "policy" / "cache-functions-a-shared-package-returns-for-each-binary"
)


def test_a_cache_function_a_helper_returns_is_cited_as_the_managers_own(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A package returns each binary's NewCache function; the `cache.New` in each built the manager's own
    cache, yet both were cited as caches of the operator's binary leaving Event unrestricted, the webhook's
    among them, which restricts it and which the operator never builds (devworkspace-operator). A literal of the
    same shape the agent calls itself builds a cache of its own, cited at its `cache.New`."""
    monkeypatch.chdir(CACHE_FUNCTIONS)
    findings = run([Path(".")], CommandLine(), catalog).findings
    notes = [[(related.span.path, related.span.line, related.message) for related in f.related] for f in findings]
    assert notes == [
        [("cmd/agent/main.go", 16, "cache options here leave Secret unrestricted")],
        [("cmd/operator/main.go", 15, "cache options here leave Event unrestricted")],
    ]


SWITCHED_ON = """package main

import (
	"flag"

	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

type controller struct{ factory informers.SharedInformerFactory }

func newController(factory informers.SharedInformerFactory, handleInUse bool, trackEvents bool) *controller {
	c := &controller{factory: factory}
	if handleInUse {
		factory.Core().V1().Pods().Informer()
	}
	if trackEvents {
		factory.Core().V1().Events().Informer()
	}
	factory.Core().V1().Secrets().Informer()
	return c
}

func main() {
	handleInUse := flag.Bool("handle-volume-inuse-error", true, "Handle volumes in use.")
	trackEvents := flag.Bool("track-events", false, "Track events.")
	flag.Parse()
	cfg, _ := rest.InClusterConfig()
	factory := informers.NewSharedInformerFactory(kubernetes.NewForConfigOrDie(cfg), 0)
	newController(factory, *handleInUse, *trackEvents)
}
"""


def test_a_finding_a_setting_on_by_default_turns_on_names_that_setting(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Pod informer runs only under --handle-volume-inuse-error, true by default: its finding notes that
    setting, where turning the feature off is a remedy too. The Event informer's flag is off by default (no
    finding); the Secret informer runs whatever the settings (no such note)."""
    go_mod = "module example.com/switched\n\ngo 1.22\n\nrequire k8s.io/client-go v0.31.0\n"
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": go_mod, "main.go": SWITCHED_ON}))
    findings = run([Path(".")], CommandLine(), catalog).findings
    switched = {
        finding.kind: [
            (related.span.line, related.span.column, related.message)
            for related in finding.related
            if related.message.startswith("runs only when")
        ]
        for finding in findings
    }
    assert switched == {
        "Pod": [(15, 5, "runs only when `handleInUse` holds, as by default (--handle-volume-inuse-error decides it)")],
        "Secret": [],
    }


ONE_BINARY_SWITCHES_ON = (
    Path(__file__).parent / "fixtures" / "go" / "policy" / "site-one-binary-switches-on-through-its-config-literal"
)


def _one_binary_switches_on() -> dict[str, str]:
    """The files of the fixture, by path, for a test to derive a case from."""
    root = ONE_BINARY_SWITCHES_ON
    return {path.relative_to(root).as_posix(): path.read_text() for path in root.rglob("*") if path.is_file()}


def test_a_site_names_only_the_binaries_whose_own_calls_switch_it_on(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """metallb's controller and speaker both run the shared manager code; only the speaker's config literal sets
    ReadEndpoints, so only the speaker indexes and watches EndpointSlices: the findings name it alone (one
    binary: no list of binaries), not the controller, whose config (a local pointing to a literal, one field
    written after it) binds the guard to false. Where the controller writes ReadEndpoints too, its value is
    not known there, and both binaries are named."""
    monkeypatch.chdir(ONE_BINARY_SWITCHES_ON)
    report = run([Path(".")], CommandLine(), catalog)
    assert [(finding.span.path, finding.span.line, finding.message) for finding in report.findings] == [
        (
            "pkg/k8s/k8s.go",
            28,
            '`IndexField(ctx, &discoveryv1.EndpointSlice{}, "service", serviceOf)` caches every EndpointSlice in the '
            "cluster",
        ),
        (
            "pkg/k8s/k8s.go",
            52,
            "`Watches(&discoveryv1.EndpointSlice{}, &handler.EnqueueRequestForObject{…` caches every EndpointSlice "
            "in the cluster",
        ),
    ]
    controller = (ONE_BINARY_SWITCHES_ON / "cmd/controller/main.go").read_text()
    files = _one_binary_switches_on()
    files["cmd/controller/main.go"] = controller.replace("cfg.Namespace = os.Args[1]", "cfg.ReadEndpoints = true")
    monkeypatch.chdir(write_tree(tmp_path, files))
    report = run([Path(".")], CommandLine(), catalog)
    assert [finding.message.endswith("(binaries cmd/controller and cmd/speaker)") for finding in report.findings] == [
        True,
        True,
    ]


def test_a_site_set_up_under_a_callback_every_binary_passes_names_only_the_binary_switching_it_on(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """metallb builds its service reconciler under `if cfg.ServiceChanged != nil`, a callback of an embedded
    Listener that each binary's main passes as a function value: the guard holds in both, reads no setting, and
    the reconciler's `endpoints` is what each binary's config gives. The watch was taken to run in both binaries
    (a function value was unknown, the embedded literal not read, the guarded write not followed)."""
    files = _one_binary_switches_on()
    files["pkg/k8s/k8s.go"] = (
        files["pkg/k8s/k8s.go"]
        .replace(
            "type Config struct {\n\tReadEndpoints bool",
            "type Listener struct {\n\tChanged func(string) int\n}\n\n"
            "type Config struct {\n\tListener\n\tReadEndpoints bool",
        )
        .replace(
            "\tr := &reconciler{Client: mgr.GetClient(), endpoints: cfg.ReadEndpoints}\n"
            "\tif err := r.setup(mgr); err != nil {\n\t\treturn err\n\t}\n",
            "\tif cfg.Changed != nil {\n\t\tr := &reconciler{Client: mgr.GetClient(), endpoints: cfg.ReadEndpoints}\n"
            "\t\tif err := r.setup(mgr); err != nil {\n\t\t\treturn err\n\t\t}\n\t}\n",
        )
    )
    for binary in ("controller", "speaker"):
        main = files[f"cmd/{binary}/main.go"].replace(
            "k8s.Config{", "k8s.Config{Listener: k8s.Listener{Changed: announce}, "
        )
        files[f"cmd/{binary}/main.go"] = main + "\nfunc announce(string) int { return 0 }\n"
    assert all("Changed: announce" in files[f"cmd/{binary}/main.go"] for binary in ("controller", "speaker"))
    monkeypatch.chdir(write_tree(tmp_path, files))
    report = run([Path(".")], CommandLine(), catalog)
    assert [(finding.span.path, finding.span.line, finding.message) for finding in report.findings] == [
        (
            "pkg/k8s/k8s.go",
            33,
            '`IndexField(ctx, &discoveryv1.EndpointSlice{}, "service", serviceOf)` caches every EndpointSlice in the '
            "cluster",
        ),
        (
            "pkg/k8s/k8s.go",
            59,
            "`Watches(&discoveryv1.EndpointSlice{}, &handler.EnqueueRequestForObject{…` caches every EndpointSlice "
            "in the cluster",
        ),
    ]


def test_a_helper_called_only_where_a_binarys_config_switches_it_on_runs_in_that_binary_alone(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """metallb's reconciler lists a service's endpoint slices through a helper it calls only `if r.Endpoints`:
    the helper has no guard of its own, yet runs only in the speaker, whose config sets the field. Its read was
    said to start an informer of its own in the controller, which never runs it."""
    files = _one_binary_switches_on()
    reconcile = "func (r *reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {\n"
    assert reconcile in files["pkg/k8s/k8s.go"]
    files["pkg/k8s/k8s.go"] = files["pkg/k8s/k8s.go"].replace(
        reconcile,
        reconcile
        + "\tif r.endpoints {\n\t\tif _, err := slicesOf(ctx, r, req.Namespace); err != nil {\n"
        + "\t\t\treturn ctrl.Result{}, err\n\t\t}\n\t}\n",
    ) + (
        "\nfunc slicesOf(ctx context.Context, c client.Reader, namespace string) "
        "([]discoveryv1.EndpointSlice, error) {\n"
        "\tvar slices discoveryv1.EndpointSliceList\n"
        "\terr := c.List(ctx, &slices, client.InNamespace(namespace))\n"
        "\treturn slices.Items, err\n}\n"
    )
    monkeypatch.chdir(write_tree(tmp_path, files))
    report = run([Path(".")], CommandLine(), catalog)
    assert [(finding.code, finding.span.line, finding.message) for finding in report.findings] == [
        (
            "WL001",
            28,
            '`IndexField(ctx, &discoveryv1.EndpointSlice{}, "service", serviceOf)` caches every EndpointSlice in the '
            "cluster",
        ),
        (
            "WL001",
            52,
            "`Watches(&discoveryv1.EndpointSlice{}, &handler.EnqueueRequestForObject{…` caches every EndpointSlice "
            "in the cluster",
        ),
        (
            "WL002",
            68,
            "`c.List` on EndpointSlice reads the cluster-wide EndpointSlice informer that the index at "
            "pkg/k8s/k8s.go:28 starts",
        ),
    ]


SERVICE_READER = """package reader

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func Token(ctx context.Context, c client.Client, key types.NamespacedName) error {
	var secret corev1.Secret
	return c.Get(ctx, key, &secret)
}
"""

SERVICE_MAIN = """package main

import (
	"context"

	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"

	"example.com/services/pkg/reader"
)

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_ = reader.Token(context.Background(), mgr.GetClient(), types.NamespacedName{})
}
"""


@pytest.mark.parametrize(
    ("count", "named"),
    [
        (8, "cmd/s0, cmd/s1, cmd/s2, cmd/s3, cmd/s4, cmd/s5, cmd/s6 and cmd/s7"),
        (9, "cmd/s0, cmd/s1, cmd/s2 and 6 more"),
    ],
)
def test_a_message_names_at_most_eight_binaries_and_counts_the_rest(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch, count: int, named: str
) -> None:
    """A module building one binary per service (oci-service-operator: 110 under cmd/manager) made a read's
    message list every binary, 7,000 characters; past eight, the first three are named and the rest counted."""
    files = {"go.mod": "module example.com/services\n\ngo 1.22\n", "pkg/reader/reader.go": SERVICE_READER}
    files |= {f"cmd/s{index}/main.go": SERVICE_MAIN for index in range(count)}
    monkeypatch.chdir(write_tree(tmp_path, files))
    assert [
        (f.code, f.span.path, f.span.line, f.message) for f in run([Path(".")], CommandLine(), catalog).findings
    ] == [
        (
            "WL002",
            "pkg/reader/reader.go",
            13,
            f"`c.Get` on Secret starts a cluster-wide Secret informer (binaries {named})",
        )
    ]


CLUSTERS_NEW_CLIENT = Path(__file__).parent / "fixtures" / "go" / "WL002" / "client-new-in-a-clusters-new-client"


def test_a_clusters_scope_written_under_the_condition_it_is_built_under_scopes_its_clients_reads(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """client-new-in-a-clusters-new-client with the hosted mode read from a file at run time, which the code
    cannot tell: the reads through the management cluster's client may run, and the scope its option function
    writes under that same condition applies to each, through the client.New in its NewClient too."""
    main = (CLUSTERS_NEW_CLIENT / "main.go").read_text()
    hosted = 'if os.Getenv("HOSTED") == "true" {'
    assert hosted in main
    files = {
        "go.mod": (CLUSTERS_NEW_CLIENT / "go.mod").read_text(),
        "main.go": main.replace(hosted, 'if _, err := os.Stat("/etc/operator/hosted"); err == nil {'),
    }
    monkeypatch.chdir(write_tree(tmp_path, files))
    report = run([Path(".")], CommandLine(), catalog)
    assert report.findings == ()
    assert [(item.code, item.span.line, str(item.reason)) for item in report.mitigated] == [
        ("WL002", 26, "default-namespaces"),
        ("WL002", 41, "default-namespaces"),
    ]


FIRST_USER = """package main

import (
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
)

type inventory struct {
	users   int
	factory informers.SharedInformerFactory
}

func (c *inventory) start(clientset kubernetes.Interface) {
	if c.users == 0 {
		c.factory = informers.NewSharedInformerFactory(clientset, 0)
		_ = c.factory.Core().V1().Pods().Informer()
	}
	c.users++
}

func main() {
	var clientset kubernetes.Interface
	cache := &inventory{}
	cache.start(clientset)
}
"""


def test_a_counter_the_program_keeps_is_no_setting_left_at_its_zero_value(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """inspektor-gadget starts its Pod informer for the first user of its cache (`if cache.useCount == 0`): a
    field the program counts is state, not a setting switched on by default, and no note says it is."""
    monkeypatch.chdir(
        write_tree(tmp_path, {"go.mod": "module example.com/inventory\n\ngo 1.22\n", "main.go": FIRST_USER})
    )
    (finding,) = run([Path(".")], CommandLine(), catalog).findings
    assert (finding.code, finding.span.line, finding.message) == (
        "WL001",
        16,
        "`Pods()` caches every Pod in the cluster",
    )
    assert [(related.span.line, related.message) for related in finding.related] == [
        (15, "the informer factory is built here, with no namespace or selector")
    ]


ANOTHER_MODULES_MANAGER = {
    "go.mod": "module example.com/provider\n\ngo 1.22\n",
    "tools/diff/main.go": """package main

import (
	ctrl "sigs.k8s.io/controller-runtime"
)

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_ = mgr.Start(ctrl.SetupSignalHandler())
}
""",
    "fake/main.go": """package main

import (
	"context"

	"example.com/core/operator"

	"example.com/provider/fake/cloud"
)

func main() {
	op := operator.NewOperator()
	_ = cloud.NewClient(op.GetClient()).Prices(context.Background())
}
""",
    "fake/cloud/cloud.go": """package cloud

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Client struct {
	kubeClient client.Client
}

func NewClient(kubeClient client.Client) *Client {
	return &Client{kubeClient: kubeClient}
}

func (c *Client) Prices(ctx context.Context) error {
	var prices corev1.ConfigMapList
	return c.kubeClient.List(ctx, &prices)
}
""",
}


def test_a_read_a_binary_runs_under_another_modules_manager_cites_no_options_of_this_module(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """karpenter's kwok build runs the core module's manager (built by `operator.NewOperator()`, outside this
    module) and reads ConfigMaps through its client. The module's own options, those of a tool no code of the
    read reaches, are neither cited nor edited."""
    monkeypatch.chdir(write_tree(tmp_path, ANOTHER_MODULES_MANAGER))
    (finding,) = run([Path(".")], CommandLine(), catalog).findings
    assert (finding.code, finding.span.path, finding.span.line, finding.message) == (
        "WL002",
        "fake/cloud/cloud.go",
        20,
        "`c.kubeClient.List` on ConfigMap starts a cluster-wide ConfigMap informer",
    )
    assert [(related.span.path, related.span.line, related.message) for related in finding.related] == [
        ("fake/main.go", 13, "parameter kubeClient of NewClient is `op.GetClient()`")
    ]
    assert finding.fixes == ()


UNCHANGED_UNDER_A_FLAG = (
    Path(__file__).parent / "fixtures" / "go" / "deployment" / "namespaces-a-helper-returns-unchanged-under-a-flag"
)


def test_a_flag_whose_write_leaves_the_namespaces_as_they_are_is_not_named(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--extra rewrites the namespaces with a helper that returns a map naming every namespace unchanged: by
    default, setting it scopes nothing, so the finding names WATCH_NAMESPACE alone (datadog-operator's
    --remoteConfigEnabled)."""
    monkeypatch.chdir(UNCHANGED_UNDER_A_FLAG)
    (finding,) = run([Path(".")], CommandLine(), catalog).findings
    assert (finding.code, finding.span.line) == ("WL001", 44)
    assert finding.message == (
        "`For(&corev1.Secret{})` caches every Secret in the cluster; DefaultNamespaces applies only when "
        "WATCH_NAMESPACE is non-empty"
    )


VIPER_SCOPED_MAIN = """package main

import (
	"context"
	"os"
	"strings"

	"github.com/spf13/viper"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
)

type reconciler struct{}

func (reconciler) Reconcile(context.Context, ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, nil
}

func load() *viper.Viper {
	v := viper.New()
	DEFAULTS
	return v
}

func main() {
	options := ctrl.Options{}
	if namespace := load().GetString(KEY); namespace != "" {
		options.Cache = cache.Options{DefaultNamespaces: map[string]cache.Config{namespace: {}}}
	}
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), options)
	if err != nil {
		os.Exit(1)
	}
	_ = strings.TrimSpace
	_ = ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(reconciler{})
}
"""


@pytest.mark.parametrize(
    ("defaults", "key"),
    [
        ('v.SetDefault("cache", map[string]any{"namespace": "operators"})', '"cache.namespace"'),
        (
            'for key, value := range map[string]any{"namespace": "operators"} {\n\t\tv.SetDefault(key, value)\n\t}',
            '"namespace"',
        ),
        ('_ = v.ReadConfig(strings.NewReader("namespace: operators\\n"))', '"namespace"'),
        ('builtIn := strings.NewReader("namespace: operators\\n")\n\t_ = v.ReadConfig(builtIn)', '"namespace"'),
        ('defaults := map[string]any{"namespace": "operators"}\n\t_ = v.MergeConfigMap(defaults)', '"namespace"'),
        (
            'for key, name := range map[string]string{"namespace": "watch-namespace"} {\n'
            "\t\t_ = v.BindPFlag(key, pflag.Lookup(name))\n\t}",
            '"namespace"',
        ),
    ],
)
def test_a_viper_key_the_module_may_fill_without_naming_it_is_not_taken_as_empty(
    defaults: str, key: str, tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A map holding the dotted key, defaults set in a loop, configuration read from code: the key may hold a
    namespace, which the cache's scope is then given (SPEC §1: an unknown value counts as a restriction)."""
    main = VIPER_SCOPED_MAIN.replace("DEFAULTS", defaults).replace("KEY", key)
    go_mod = "module example.com/viper\n\ngo 1.22\n\nrequire sigs.k8s.io/controller-runtime v0.19.0\n"
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": go_mod, "main.go": main}))
    report = run([Path(".")], CommandLine(), catalog)
    assert report.findings == ()
    line = next(number for number, text in enumerate(main.splitlines(), 1) if "For(&corev1.ConfigMap{})" in text)
    assert [(site.code, site.span.line, str(site.reason)) for site in report.mitigated] == [
        ("WL001", line, "default-namespaces")
    ]


@pytest.mark.parametrize(
    ("defaults", "key", "reason"),
    [
        # a flag bound under its own name, as viper lower-cases it, with a namespace by default
        (
            'fs := pflag.NewFlagSet("operator", pflag.ExitOnError)\n\tfs.String("watchNamespace", "operators", "")\n'
            "\t_ = v.BindPFlags(fs)",
            '"watchNamespace"',
            "default-namespaces",
        ),
        # flags bound in a loop bind those keys only: the namespace key is left to its environment variable
        (
            'for _, name := range []string{"sync", "debug"} {\n\t\t_ = v.BindPFlag(name, pflag.Lookup(name))\n\t}',
            '"namespace"',
            None,
        ),
        # a configuration file the program opens is the deployment's, which the code does not show
        ('file, _ := os.Open("/etc/operator/config.yaml")\n\t_ = v.ReadConfig(file)', '"namespace"', None),
    ],
)
def test_a_viper_key_is_read_from_the_sources_that_name_it(
    defaults: str, key: str, reason: str | None, tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """BindPFlags binds a flag named with capitals to the key viper reads in lower case; a loop binding other
    flags, or a configuration file read from disk, leaves the namespace key empty by default (SPEC §1)."""
    main = VIPER_SCOPED_MAIN.replace("DEFAULTS", defaults).replace("KEY", key)
    main = main.replace('"github.com/spf13/viper"', '"github.com/spf13/pflag"\n\t"github.com/spf13/viper"')
    go_mod = "module example.com/viper\n\ngo 1.22\n\nrequire sigs.k8s.io/controller-runtime v0.19.0\n"
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": go_mod, "main.go": main}))
    report = run([Path(".")], CommandLine(), catalog)
    line = next(number for number, text in enumerate(main.splitlines(), 1) if "For(&corev1.ConfigMap{})" in text)
    if reason is None:
        assert [(finding.code, finding.span.line) for finding in report.findings] == [("WL001", line)]
    else:
        assert report.findings == ()
        assert [(site.code, site.span.line, str(site.reason)) for site in report.mitigated] == [("WL001", line, reason)]


CONSTRUCTOR_MAIN = """package main

import (
	"context"
	"flag"
	"log"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/seed/config"
)

type reconciler struct{ client.Client }

func (r *reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var key corev1.Secret
	return ctrl.Result{}, r.Get(ctx, req.NamespacedName, &key)
}

func main() {
	var namespace string
	flag.StringVar(&namespace, "namespace", "", "the seed namespace")
	flag.Parse()
	_, err := config.New(&config.Options{SeedNamespace: namespace})
	if err != nil {
		ON_ERROR
	}
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{
		Cache: cache.Options{DefaultNamespaces: map[string]cache.Config{namespace: {}}},
	})
	_ = ctrl.NewControllerManagedBy(mgr).For(&appsv1.Deployment{}).Complete(&reconciler{Client: mgr.GetClient()})
}
"""

CONSTRUCTOR_CONFIG = """package config

import "errors"

type Options struct{ SeedNamespace string }

type PeerOptions struct{ SeedNamespace string }

func New(options *Options) (*Options, error) {
	CHECK
	return options, nil
}

func (o *Options) validate() error {
	if o.SeedNamespace == "" {
		return errors.New("seed namespace must be specified")
	}
	return nil
}

func (o *PeerOptions) Validate() error {
	if o.SeedNamespace == "" {
		return errors.New("seed namespace must be specified")
	}
	return nil
}
"""


@pytest.mark.parametrize(
    ("check", "on_error", "required"),
    [
        (
            'if options.SeedNamespace == "" {\n\t\treturn nil, errors.New("no seed namespace")\n\t}',
            "log.Fatal(err)",
            True,
        ),
        ("if err := options.validate(); err != nil {\n\t\treturn nil, err\n\t}", "log.Fatal(err)", True),
        ("if err := options.validate(); err != nil {\n\t\treturn nil, err\n\t}", "log.Print(err)", False),
        ("_ = errors.New", "log.Fatal(err)", False),
        # an error block calling nothing
        ("if err := options.validate(); err != nil {\n\t\treturn nil, err\n\t}", "", False),
    ],
)
def test_a_flag_a_constructor_of_another_package_fails_without_is_required_where_the_program_stops(
    check: str, on_error: str, required: bool, tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`config.New(&config.Options{SeedNamespace: namespace})` failing without the field, itself or through a
    method of the value, makes --namespace required where main stops on the error: the cache is always scoped.
    An error only logged, or a check on another struct of the package, leaves the flag empty by default."""
    files = {
        "go.mod": "module example.com/seed\n\ngo 1.22\n\nrequire sigs.k8s.io/controller-runtime v0.19.0\n",
        "main.go": CONSTRUCTOR_MAIN.replace("ON_ERROR", on_error),
        "config/config.go": CONSTRUCTOR_CONFIG.replace("CHECK", check),
    }
    monkeypatch.chdir(write_tree(tmp_path, files))
    report = run([Path(".")], CommandLine(), catalog)
    expected = [] if required else [("WL002", "main.go", 21)]
    assert [(finding.code, finding.span.path, finding.span.line) for finding in report.findings] == expected
    assert report.notifications == ()
