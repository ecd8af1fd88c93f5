"""Go sites (watchlint/go/sites.py) where the fixture grammar cannot say enough: the evidence a site carries, and
what a test helper reads through with --include-tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import write_tree

from watchlint.catalog import Catalog
from watchlint.config import CommandLine
from watchlint.engine import run

FIXTURES = Path(__file__).parent / "fixtures" / "go"


def test_a_chained_event_filter_is_cited_where_the_chain_calls_it(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The evidence of `WithEventFilter` starts at its name, not at `ctrl.NewControllerManagedBy` heading the chain."""
    monkeypatch.chdir(FIXTURES / "WL003" / "builder-wide-event-filter")
    report = run([Path(".")], CommandLine(), catalog)
    (pods,) = [finding for finding in report.findings if finding.code == "WL003" and finding.kind == "Pod"]
    filters = [
        (related.span.line, related.span.column, related.message)
        for related in pods.related
        if "WithEventFilter" in related.message
    ]
    assert filters == [(39, 3, "`WithEventFilter(…)` filters events only")]


GO_MOD = """module example.com/{name}

go 1.22

require sigs.k8s.io/controller-runtime v0.19.0
"""

E2E_HELPER = """package util

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// PodsOf lists the Pods of a namespace through the client a test hands it.
func PodsOf(ctx context.Context, c client.Client, namespace string) (*corev1.PodList, error) {
	var pods corev1.PodList
	return &pods, c.List(ctx, &pods, client.InNamespace(namespace))
}
"""

E2E_SUITE = """package e2e

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/e2e/test/util"
)

var shared client.Client

func direct() {
	c, _ := client.New(ctrl.GetConfigOrDie(), client.Options{})
	_, _ = util.PodsOf(context.Background(), c, "e2e")
}

func fromSuite() {
	_, _ = util.PodsOf(context.Background(), shared, "e2e")
}
"""


def test_an_unknown_client_of_tests_does_not_outweigh_the_uncached_one_other_tests_pass(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unknown client counts as cache-backed next to an uncached one in production code; a test helper
    given an e2e suite's uncached client by one test and a client set nowhere in sight by another reads
    through the uncached one (--include-tests)."""
    files = {"go.mod": GO_MOD.format(name="e2e"), "test/util/pods.go": E2E_HELPER, "test/e2e/suite.go": E2E_SUITE}
    monkeypatch.chdir(write_tree(tmp_path, files))
    report = run([Path(".")], CommandLine(include_tests=True), catalog)
    assert [(f.code, f.span.path, f.span.line) for f in report.findings] == []
    assert [(m.code, m.span.path, m.span.line, m.reason.value) for m in report.mitigated] == [
        ("WL004", "test/util/pods.go", 13, "namespace")  # uncached: a namespaced List asks the server for one namespace
    ]


MANAGERS_MAIN = """package main

import (
	"os"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
)

type Holder struct {
	managers []ctrl.Manager
}

func main() {
	switch os.Args[1] {
	case "daemon":
		mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
		_ = ctrl.NewControllerManagedBy(mgr).For(&corev1.Pod{}).Complete(nil)
		holder := Holder{managers: []ctrl.Manager{mgr}}
		holder.watch()
	case "certs":
		bootstrap, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
		_ = bootstrap.Start(ctrl.SetupSignalHandler())
	}
}

func (h Holder) watch() {
	_ = ctrl.NewControllerManagedBy(h.managers[0]).For(&corev1.Secret{}).Complete(nil)
}
"""


def test_the_notes_name_the_managers_that_run_the_site_where_they_are_known(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A binary pools its subcommands' manager options to judge a site, but the notes of a site whose manager
    is known name that manager's options only, not a bootstrap manager's that never runs it; where the manager
    cannot be told (an item of a list), every manager's options are named."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD.format(name="managers"), "main.go": MANAGERS_MAIN}))
    report = run([Path(".")], CommandLine(), catalog)
    notes = {
        finding.kind: [(r.span.line, r.span.column, r.message) for r in finding.related] for finding in report.findings
    }
    assert notes == {
        "Pod": [(17, 18, "cache options here leave Pod unrestricted")],
        "Secret": [
            (17, 18, "cache options here leave Secret unrestricted"),
            (22, 24, "cache options here leave Secret unrestricted"),
        ],
    }


DISPATCHED_MAIN = """package main

import (
	"context"
	"os"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Controller interface {
	Setup(mgr ctrl.Manager) error
}

type PodController struct {
	client client.Client
}

func (c *PodController) Setup(mgr ctrl.Manager) error {
	c.client = mgr.GetClient()
	return nil
}

func (c *PodController) Read(ctx context.Context, key client.ObjectKey) error {
	var pod corev1.Pod
	return c.client.Get(ctx, key, &pod)
}

func main() {
	switch os.Args[1] {
	case "daemon":
		mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
		for _, controller := range []Controller{&PodController{}} {
			_ = controller.Setup(mgr)
		}
	case "certs":
		bootstrap, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
		_ = bootstrap.Start(ctrl.SetupSignalHandler())
	}
}
"""


def test_a_manager_handed_to_controllers_through_an_interface_is_the_one_that_runs_them(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`controller.Setup(mgr)` on a value of a module interface hands the manager to every implementation:
    the read of the client `Setup` takes from it is run by that manager, and its notes name it alone."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD.format(name="dispatch"), "main.go": DISPATCHED_MAIN}))
    report = run([Path(".")], CommandLine(), catalog)
    assert [
        (f.code, f.span.line, [(r.span.line, r.message) for r in f.related if "cache options" in r.message])
        for f in report.findings
    ] == [("WL002", 27, [(33, "cache options here leave Pod unrestricted")])]


def test_a_watch_of_a_managers_cache_is_explained_by_that_managers_options(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`c.Watch(source.Kind(mgr.GetCache(), …))` in a package the binary's main hands its manager, the cache
    also held in a local: the notes name that manager's options, not the audit manager's another package
    builds."""
    monkeypatch.chdir(FIXTURES / "policy" / "source-kind-given-one-managers-cache")
    report = run([Path(".")], CommandLine(), catalog)
    assert [
        (
            f.code,
            f.span.path,
            f.span.line,
            [(r.span.path, r.span.line) for r in f.related if "cache options" in r.message],
        )
        for f in report.findings
    ] == [
        ("WL001", "controllers/pods.go", 18, [("main.go", 19)]),
        ("WL001", "controllers/pods.go", 23, [("main.go", 19)]),
    ]


SUBCOMMANDS_MAIN = """package main

import (
	"context"
	"flag"
	"os"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var memoryOptimized = flag.Bool("mem-optim", false, "cache labelled Pods only")

type PodReader struct {
	client client.Client
}

func (r *PodReader) Read(ctx context.Context, key client.ObjectKey) error {
	var pod corev1.Pod
	return r.client.Get(ctx, key, &pod)
}

func scopeToNamespace(opts *ctrl.Options) {
	if namespace := os.Getenv("WATCH_NAMESPACE"); namespace != "" {
		opts.Cache.DefaultNamespaces = map[string]cache.Config{namespace: {}}
	}
}

func labelledPodsCache() cache.NewCacheFunc {
	if *memoryOptimized {
		return func(config *rest.Config, opts cache.Options) (cache.Cache, error) {
			opts.ByObject = map[client.Object]cache.ByObject{
				&corev1.Pod{}: {Label: labels.SelectorFromSet(labels.Set{"record": "true"})},
			}
			return cache.New(config, opts)
		}
	}
	return nil
}

func runDaemon() {
	options := ctrl.Options{NewCache: labelledPodsCache()}
	scopeToNamespace(&options)
	daemon, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), options)
	_ = daemon.Start(ctrl.SetupSignalHandler())
}

func runWebhook() {
	webhook, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	reader := &PodReader{client: webhook.GetClient()}
	_ = reader.Read(context.Background(), client.ObjectKey{})
}

func main() {
	flag.Parse()
	if os.Args[1] == "daemon" {
		runDaemon()
	} else {
		runWebhook()
	}
}
"""


def test_options_another_subcommands_manager_takes_do_not_explain_a_site(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The binary's pooled options judge the webhook's Pod read (SPEC §3.1), but the daemon's namespace scope
    (set through an `*ctrl.Options` parameter) and its flag-gated ByObject entry (in the `NewCache` function it
    is given) do not reach the webhook's manager: neither the message nor the notes cite them."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD.format(name="subcommands"), "main.go": SUBCOMMANDS_MAIN}))
    report = run([Path(".")], CommandLine(), catalog)
    assert [
        (f.code, f.span.line, f.message, [(r.span.line, r.message) for r in f.related]) for f in report.findings
    ] == [
        (
            "WL002",
            24,
            "`r.client.Get` on Pod starts a cluster-wide Pod informer",
            [(53, "cache options here leave Pod unrestricted"), (54, "PodReader.client is `webhook.GetClient()`")],
        )
    ]


EMBEDDED_CLIENT_MAIN = """package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Applicator struct {
	client.Client
}

func NewApplicator(c client.Client) Applicator {
	return Applicator{Client: c}
}

type Hooks struct {
	client Applicator
}

func NewHooks(c client.Client) *Hooks {
	return &Hooks{client: Applicator{Client: c}}
}

func (h *Hooks) Pre(ctx context.Context) error {
	return applyServiceAccount(ctx, h.client)
}

func applyServiceAccount(ctx context.Context, cl Applicator) error {
	var account corev1.ServiceAccount
	return cl.Get(ctx, client.ObjectKey{Name: "runtime"}, &account)
}

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	definitions := NewApplicator(mgr.GetClient())
	_ = definitions
	_ = NewHooks(mgr.GetClient()).Pre(context.Background())
}
"""


def test_a_struct_embedding_a_client_is_followed_to_the_value_the_site_reads(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`cl.Get` on a module struct that embeds a client: the evidence follows `cl` to what its callers pass
    (`h.client`), not to whichever value of the struct's client field the module stores first."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD.format(name="embedded"), "main.go": EMBEDDED_CLIENT_MAIN}))
    report = run([Path(".")], CommandLine(), catalog)
    assert [(f.code, f.span.line, [(r.span.line, r.message) for r in f.related]) for f in report.findings] == [
        (
            "WL002",
            33,
            [
                (37, "cache options here leave ServiceAccount unrestricted"),
                (28, "parameter cl of applyServiceAccount is `h.client`"),
            ],
        )
    ]


HANDED_ON_CLIENT_MAIN = """package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct{ Client client.Client }

func readToken(ctx context.Context, c client.Client) error {
	var secret corev1.Secret
	return c.Get(ctx, client.ObjectKey{Name: "token"}, &secret)
}

func credentials(ctx context.Context, c client.Client) error { return readToken(ctx, c) }

func kubeconfig(ctx context.Context, c client.Client) error { return credentials(ctx, c) }

func (r *Reconciler) run(ctx context.Context) { _ = kubeconfig(ctx, r.Client) }

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	(&Reconciler{Client: mgr.GetClient()}).run(context.Background())
}
"""


def test_a_client_handed_on_through_parameters_is_named_by_the_parameter_the_site_reads(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`c.Get` in readToken, whose `c` its callers hand on from their own parameters: the note names readToken's
    parameter and the functions it came through, cited where the value is given."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD.format(name="handed"), "main.go": HANDED_ON_CLIENT_MAIN}))
    report = run([Path(".")], CommandLine(), catalog)
    assert [(f.code, f.span.line, [(r.span.line, r.message) for r in f.related]) for f in report.findings] == [
        (
            "WL002",
            15,
            [
                (25, "cache options here leave Secret unrestricted"),
                (22, "parameter c of readToken (through credentials, kubeconfig) is `r.Client`"),
            ],
        )
    ]


FOREIGN_CLIENT_FILES = {
    "main.go": """package main

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"

	"example.com/foreign/pkg/providers"
)

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_ = providers.Load(context.Background())
	_ = mgr.Start(ctrl.SetupSignalHandler())
}
""",
    "pkg/providers/providers.go": """package providers

import (
	"context"

	"github.com/example/kit/singleton"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Load reads through the client another module hands out.
func Load(ctx context.Context) error {
	cli := singleton.KubeClient.Get()
	return cli.Get(ctx, client.ObjectKey{Namespace: "vela-system", Name: "settings"}, &corev1.ConfigMap{})
}
""",
}


def test_a_client_another_module_hands_out_is_taken_as_cache_backed_and_named(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`singleton.KubeClient.Get()` of a dependency: how it is built is not seen, so the read is judged as a
    cache-backed client's (SPEC §3.1), and the note names the call it is taken from."""
    files = {"go.mod": GO_MOD.format(name="foreign"), **FOREIGN_CLIENT_FILES}
    monkeypatch.chdir(write_tree(tmp_path, files))
    report = run([Path(".")], CommandLine(), catalog)
    assert [
        (f.code, f.span.path, f.span.line, [(r.span.path, r.span.line, r.message) for r in f.related])
        for f in report.findings
    ] == [
        (
            "WL002",
            "pkg/providers/providers.go",
            14,
            [
                ("main.go", 12, "cache options here leave ConfigMap unrestricted"),
                (
                    "pkg/providers/providers.go",
                    13,
                    "`singleton.KubeClient.Get()` is another module's client: taken as cache-backed",
                ),
            ],
        )
    ]


LISTED_SETUPS_MAIN = """package main

import (
	"os"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
)

func SetupSecrets(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(nil)
}

func SetupConfigMaps(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(nil)
}

func setupAll(mgr ctrl.Manager) error {
	for _, setup := range []func(ctrl.Manager) error{SetupSecrets, SetupConfigMaps} {
		if err := setup(mgr); err != nil {
			return err
		}
	}
	return nil
}

func main() {
	switch os.Args[1] {
	case "core":
		mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
		_ = setupAll(mgr)
	case "rbac":
		rbac, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
		_ = rbac.Start(ctrl.SetupSignalHandler())
	}
}
"""


def test_setup_functions_listed_in_a_slice_run_with_the_manager_the_loop_hands_them(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`for _, setup := range []func(ctrl.Manager) error{SetupSecrets, …} { setup(mgr) }`: the watches of the
    listed functions are run by the manager the loop passes, and their notes name it alone, not the manager
    of another subcommand."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD.format(name="listed"), "main.go": LISTED_SETUPS_MAIN}))
    report = run([Path(".")], CommandLine(), catalog)
    assert [
        (f.code, f.span.line, [(r.span.line, r.message) for r in f.related if "cache options" in r.message])
        for f in report.findings
    ] == [
        ("WL001", 11, [(30, "cache options here leave Secret unrestricted")]),
        ("WL001", 15, [(30, "cache options here leave ConfigMap unrestricted")]),
    ]


GET_METHOD_MAIN = """package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type secretCache struct{}

func (c *secretCache) Get(ctx context.Context, cl client.Client, name string) error {
	var secret corev1.Secret
	return cl.Get(ctx, types.NamespacedName{Name: name}, &secret)
}

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	direct, _ := client.New(mgr.GetConfig(), client.Options{})
	_ = (&secretCache{}).Get(context.Background(), direct, "tls")
}
"""


def test_a_library_interface_call_is_not_a_call_of_the_modules_method_of_that_name(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`cl.Get(ctx, key, &secret)` on a controller-runtime client calls the library's Get, not the module's one
    method named Get: its arguments are not what that method's client parameter receives, which is the
    uncached client its one caller passes (gatekeeper's nsCache.Get)."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD.format(name="getmethod"), "main.go": GET_METHOD_MAIN}))
    report = run([Path(".")], CommandLine(), catalog)
    assert [(f.code, f.span.line) for f in report.findings] == []
    assert [(m.code, m.span.line, m.reason.value) for m in report.mitigated] == [("WL002", 16, "direct-client")]


UNCALLED_HELPERS_MAIN = """package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func main() {
	_, _ = ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
}

func settings(ctx context.Context, c client.Client) (*corev1.ConfigMap, error) {
	var cm corev1.ConfigMap
	return &cm, c.Get(ctx, client.ObjectKey{Namespace: "ops", Name: "settings"}, &cm)
}

func reload(ctx context.Context, c client.Client) error {
	_, err := settings(ctx, c)
	return err
}
"""


MANAGER_MAIN = """package main

import ctrl "sigs.k8s.io/controller-runtime"

func main() {
	_, _ = ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
}
"""


def test_a_client_no_call_is_seen_to_pass_is_taken_as_cache_backed_and_says_where(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SPEC §3.1: unknown means cache-backed. The note names the function at the end of the chain of
    parameters that no call is seen to reach (`Reload`, which other modules may call), so the reader can check
    it."""
    library = UNCALLED_HELPERS_MAIN.replace("package main", "package ops").replace("func reload(", "func Reload(")
    library = library.replace('\tctrl "sigs.k8s.io/controller-runtime"\n', "")
    library = library.replace(
        "func main() {\n\t_, _ = ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})\n}\n\n", ""
    )
    tree = {"go.mod": GO_MOD.format(name="uncalled"), "main.go": MANAGER_MAIN, "ops/ops.go": library}
    monkeypatch.chdir(write_tree(tmp_path, tree))
    report = run([Path(".")], CommandLine(), catalog)
    assert [(f.code, f.span.line, [(r.span.line, r.message) for r in f.related]) for f in report.findings] == [
        (
            "WL002",
            12,
            [
                (6, "cache options here leave ConfigMap unrestricted"),
                (15, "no call seen passes `c` of Reload: taken as cache-backed"),
            ],
        )
    ]


def test_a_function_generated_code_calls_is_said_to_be_so(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A generated file is not analyzed (unless it builds a manager or a controller): a helper only it calls has
    no call seen, and the note says where the unseen ones are rather than that nothing calls it."""
    library = UNCALLED_HELPERS_MAIN.replace("package main", "package ops").replace("func reload(", "func Reload(")
    library = library.replace('\tctrl "sigs.k8s.io/controller-runtime"\n', "")
    library = library.replace(
        "func main() {\n\t_, _ = ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})\n}\n\n", ""
    )
    generated = (
        "// Code generated by connector-gen. DO NOT EDIT.\n\npackage ops\n\n"
        'import (\n\t"context"\n\n\t"sigs.k8s.io/controller-runtime/pkg/client"\n)\n\n'
        "func connect(ctx context.Context, kube client.Client) error {\n\treturn Reload(ctx, kube)\n}\n"
    )
    tree = {
        "go.mod": GO_MOD.format(name="generated"),
        "main.go": MANAGER_MAIN,
        "ops/ops.go": library,
        "ops/zz_connect.go": generated,
    }
    monkeypatch.chdir(write_tree(tmp_path, tree))
    report = run([Path(".")], CommandLine(), catalog)
    notes = [r.message for f in report.findings for r in f.related if "taken as cache-backed" in r.message]
    assert notes == [
        "no call seen passes `c` of Reload, which generated code (not analyzed) calls: taken as cache-backed"
    ]


def test_a_function_handed_on_as_a_value_is_said_to_be_so(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A helper registered as a function value (`finalizers = append(finalizers, reload)`) is called where those
    values run, with clients not followed: the note says so rather than that nothing calls it."""
    registry = (
        "var finalizers []func(context.Context, client.Client) error\n\n"
        "func init() {\n\tfinalizers = append(finalizers, reload)\n}\n\n"
    )
    source = UNCALLED_HELPERS_MAIN.replace("func reload(", registry + "func reload(")
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD.format(name="registered"), "main.go": source}))
    report = run([Path(".")], CommandLine(), catalog)
    notes = [r.message for f in report.findings for r in f.related if "taken as cache-backed" in r.message]
    assert notes == ["no call seen passes `c` of reload, which is handed on as a function value: taken as cache-backed"]


def test_an_injected_informer_cites_where_its_binary_starts_injection_unscoped(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """knative's injected informers come from the factory `sharedmain` starts: a binary that gives injection no
    namespace scope is cited there, as a manager's findings cite the manager."""
    monkeypatch.chdir(FIXTURES / "WL001" / "knative-injected-informers")
    report = run([Path(".")], CommandLine(), catalog)
    cited = [
        (finding.span.path, [(item.span.path, item.span.line, item.message) for item in finding.related])
        for finding in report.findings
    ]
    assert cited == [
        (
            "pkg/reconciler/controller.go",
            [("cmd/controller/main.go", 12, "injection started by `sharedmain.Main` names no namespace")],
        )
    ]


def test_a_finding_at_a_helpers_call_shows_where_the_helper_reads_or_watches(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A site reported at the call that names the kind (`fetch(ctx, c, key, &cm)`) says where the helper does the
    read or the watch, which the call's own text (`fetch`, `Delete`) does not show."""
    monkeypatch.chdir(FIXTURES / "helpers" / "watch-and-read-helpers")
    report = run([Path(".")], CommandLine(), catalog)
    first = [
        (f.code, f.span.line, (f.related[0].span.path, f.related[0].span.line, f.related[0].message))
        for f in report.findings
    ]
    helpers = "internal/controller/helpers.go"
    assert first == [
        ("WL002", 18, (helpers, 23, "fetch reads it with `c.Get(ctx, key, obj)`")),
        ("WL003", 30, (helpers, 13, "`builder.WithPredicates(…)` filters events only")),
        ("WL001", 31, (helpers, 18, "watchChild watches it with `Owns(obj)`")),
        ("WL001", 32, (helpers, 18, "watchChild watches it with `Owns(obj)`")),
    ]


def test_a_watch_of_a_cache_of_its_own_is_helped_with_that_caches_options(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cache built with cache.New has no manager options to edit; and a metadata-only informer would only add
    to the typed one its List starts."""
    monkeypatch.chdir(FIXTURES / "WL001" / "get-informer-of-a-cache-of-its-own")
    report = run([Path(".")], CommandLine(), catalog)
    (watch,) = [finding for finding in report.findings if finding.code == "WL001"]
    assert watch.help == (
        "Restrict EndpointSlice in the options of the cache built at main.go:17 "
        "(cache.Options.ByObject: Label, Field or Namespaces; or DefaultNamespaces)"
    )


def test_a_watch_in_a_loop_over_several_kinds_is_offered_no_metadata_only_option(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """builder.OnlyMetadata on a call in a loop would make every kind of the loop metadata-only; a loop over one
    kind may take it."""
    monkeypatch.chdir(FIXTURES / "WL001" / "kinds-watched-in-a-loop-over-a-literal")
    report = run([Path(".")], CommandLine(), catalog)
    helps = {finding.span.line: finding.help for finding in report.findings}
    assert helps[32] == (
        "Restrict ServiceAccount with cache.Options.ByObject (Label, Field or Namespaces) in the manager options; "
        "no metadata-only watch is offered, as the call watches every kind of the loop around it, and "
        "builder.OnlyMetadata there would make all of them metadata-only"
    )
    assert helps[35].startswith("Restrict ConfigMap")
    assert "the call watches every kind of the loop" in helps[35]
    assert helps[39].endswith(", or watch it with builder.OnlyMetadata")
    titles = {finding.span.line: [fix.title for fix in finding.fixes] for finding in report.findings}
    assert not any("OnlyMetadata" in title for title in titles[32] + titles[35])


def test_the_second_kind_a_loop_hands_a_helper_is_a_note_of_the_first(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One call, one finding: the ConfigMap the same loop hands the helper is named beside the Secret."""
    monkeypatch.chdir(FIXTURES / "helpers" / "kinds-a-loop-hands-a-helper")
    (secret,) = [finding for finding in run([Path(".")], CommandLine(), catalog).findings if finding.span.line == 39]
    assert [(related.span.line, related.message) for related in secret.related][-1] == (
        39,
        "the same call: `watchOwned(c, mgr, t)` caches every ConfigMap in the cluster",
    )


MANAGER_INFORMER = """package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
)

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_, _ = mgr.GetCache().GetInformer(context.Background(), &corev1.Pod{})
	var pod corev1.Pod
	_ = mgr.GetClient().Get(context.Background(), ctrl.Request{}.NamespacedName, &pod)
}
"""


def test_get_informer_is_offered_metadata_only_where_nothing_reads_the_kind_typed(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The metadata form of GetInformer saves nothing while a typed read of the kind keeps the typed informer."""
    root = write_tree(tmp_path / "op", {"go.mod": GO_MOD.format(name="op"), "main.go": MANAGER_INFORMER})
    monkeypatch.chdir(root)
    (watch,) = [finding for finding in run([Path(".")], CommandLine(), catalog).findings if finding.code == "WL001"]
    assert watch.help == "Restrict Pod with cache.Options.ByObject (Label, Field or Namespaces) in the manager options"
    (root / "main.go").write_text(MANAGER_INFORMER.replace("&pod)", "&corev1.Namespace{})"), encoding="utf-8")
    (watch,) = [finding for finding in run([Path(".")], CommandLine(), catalog).findings if finding.code == "WL001"]
    assert "ask GetInformer for a metav1.PartialObjectMetadata of the kind" in watch.help


HELPER_INFORMER = """package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type server struct{ mgr ctrl.Manager }

func (s *server) informOn(obj client.Object) error {
	_, err := s.mgr.GetCache().GetInformer(context.Background(), obj)
	return err
}

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	s := &server{mgr: mgr}
	_ = s.informOn(&corev1.Pod{})
}
"""


def test_get_informer_in_a_helper_is_helped_as_get_informer(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reported at the helper's call, the watch is still GetInformer's: no builder takes builder.OnlyMetadata."""
    root = write_tree(tmp_path / "op", {"go.mod": GO_MOD.format(name="op"), "main.go": HELPER_INFORMER})
    monkeypatch.chdir(root)
    (watch,) = [finding for finding in run([Path(".")], CommandLine(), catalog).findings if finding.code == "WL001"]
    assert (watch.span.line, watch.help) == (
        21,
        "Restrict Pod with cache.Options.ByObject (Label, Field or Namespaces) in the manager options, or, where "
        "nothing reads its objects typed, ask GetInformer for a metav1.PartialObjectMetadata of the kind "
        "(metadata only)",
    )


SWAPPABLE_MANAGER_MAIN = """package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// newManager is swapped out by tests.
var newManager = ctrl.NewManager

func main() {
	mgr, _ := newManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	var token corev1.Secret
	_ = mgr.GetClient().Get(context.Background(), client.ObjectKey{Namespace: "a", Name: "token"}, &token)
}
"""


def test_a_manager_built_through_a_package_variable_is_the_binarys(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`var newManager = ctrl.NewManager` (swapped by tests) builds the binary's manager: its options are the
    ones the site is judged by, not "no manager options were found"."""
    monkeypatch.chdir(
        write_tree(tmp_path, {"go.mod": GO_MOD.format(name="swappable"), "main.go": SWAPPABLE_MANAGER_MAIN})
    )
    report = run([Path(".")], CommandLine(), catalog)
    assert [
        (f.code, f.span.line, f.message, [(r.span.line, r.message) for r in f.related]) for f in report.findings
    ] == [
        (
            "WL002",
            17,
            "`mgr.GetClient().Get` on Secret starts a cluster-wide Secret informer",
            [(15, "cache options here leave Secret unrestricted"), (17, "`mgr.GetClient()` reads through the cache")],
        )
    ]


REMOTE_CLUSTER_MAIN = """package main

import (
	"context"
	"os"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/cluster"
)

type Syncer struct{ client.Client }

func (s *Syncer) Reconcile(ctx context.Context, _ ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, s.List(ctx, &corev1.PodList{}, client.MatchingLabels{"app": "db"})
}

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	if os.Getenv("CONTROL_PLANE") == "true" {
		remote, _ := cluster.New(&rest.Config{})
		_ = mgr.Add(remote)
		syncer := &Syncer{remote.GetClient()}
		_ = ctrl.NewControllerManagedBy(mgr).Named("remote").For(&corev1.Service{}).Complete(syncer)
	}
	_ = ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Complete(&Syncer{mgr.GetClient()})
	_ = mgr.Start(ctrl.SetupSignalHandler())
}
"""


def test_a_second_cluster_built_only_under_a_setting_off_by_default_is_not_named(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """k8ssandra's control-plane clusters: a read through both the manager's client and a cluster.New's, where
    the cluster is built only when CONTROL_PLANE is set, is judged by the manager's cache alone; the cluster
    the default deployment does not build is not named beside it."""
    files = {"go.mod": GO_MOD.format(name="remote-cluster"), "main.go": REMOTE_CLUSTER_MAIN}
    monkeypatch.chdir(write_tree(tmp_path, files))
    report = run([Path(".")], CommandLine(), catalog)
    assert [(f.code, f.span.line, f.message) for f in report.findings if f.code == "WL002"] == [
        ("WL002", 17, "`s.List` on Pod starts a cluster-wide Pod informer")
    ]


TEST_ONLY_INTERNAL = Path(__file__).parent / "fixtures" / "go" / "policy" / "internal-package-only-tests-import"


def test_an_internal_package_only_tests_import_is_test_code(catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its sites, those of a test-support folder's package only tests import (`itest/helper`, `pkg/testinfra/dsl`),
    of a package building fake clients only tests import (`pkg/mock`) and those of a package only such packages
    import (`internal/testsupport/secrets`, `pkg/testing`), are left out by default (the fixture says so) and
    reported with --include-tests, like the tests that import them."""
    monkeypatch.chdir(TEST_ONLY_INTERNAL)
    report = run([Path(".")], CommandLine(include_tests=True), catalog)
    assert [(finding.code, finding.span.path, finding.span.line) for finding in report.findings] == [
        ("WL001", "internal/controller/widget_controller.go", 19),
        ("WL002", "internal/features/register.go", 20),
        ("WL002", "internal/testsupport/fakekubelet.go", 21),
        ("WL001", "internal/testsupport/fakekubelet.go", 30),
        ("WL002", "internal/testsupport/secrets/secrets.go", 13),
        ("WL001", "internal/wiring/register.go", 11),
        ("WL002", "itest/helper/helper.go", 22),
        ("WL002", "pkg/mock/clients.go", 20),
        ("WL002", "pkg/testinfra/dsl/secrets.go", 14),
        ("WL002", "pkg/testing/events.go", 14),
    ]


NEW_CACHE_MAIN = """package main

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
)

func main() {
	options := ctrl.Options{
		NewCache: func(config *rest.Config, opts cache.Options) (cache.Cache, error) {
			resync := time.Hour
			opts.SyncPeriod = &resync
			return cache.New(config, opts)
		},
	}
	options.NewCache = func(config *rest.Config, opts cache.Options) (cache.Cache, error) {
		return cache.New(config, opts)
	}
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), options)
	_ = ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(nil)
}
"""


NEW_CACHE_READ = """package settings

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Read takes a client from callers out of sight: every cache of the module may serve it.
func Read(ctx context.Context, c client.Client) error {
	var settings corev1.ConfigMap
	return c.Get(ctx, client.ObjectKey{Namespace: "apps", Name: "settings"}, &settings)
}
"""


def test_the_cache_a_new_cache_function_builds_is_the_managers_own(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`NewCache: func(…) { …; return cache.New(c, o) }` (to set a sync period) builds the manager's one cache
    from its options: the notes of a read any cache may serve name the manager's options once, not the
    cache.New inside as well."""
    tree = {"go.mod": GO_MOD.format(name="newcache"), "main.go": NEW_CACHE_MAIN, "settings/read.go": NEW_CACHE_READ}
    monkeypatch.chdir(write_tree(tmp_path, tree))
    report = run([Path(".")], CommandLine(), catalog)
    found = [(f.code, f.span.path, f.span.line, [(r.span.line, r.message) for r in f.related]) for f in report.findings]
    assert found == [
        ("WL001", "main.go", 24, [(23, "cache options here leave Secret unrestricted")]),
        (
            "WL002",
            "settings/read.go",
            13,
            [
                (23, "cache options here leave ConfigMap unrestricted"),
                (11, "no call seen passes `c` of Read: taken as cache-backed"),
            ],
        ),
    ]


EVIDENCE_CONTROLLER = """package {name}

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/evidence/internal/common"
)

type R struct{{ Client client.Client }}

func (r *R) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {{
	return ctrl.Result{{}}, common.EnsureSecret(ctx, types.NamespacedName{{}}, r.Client)
}}

func (r *R) SetupWithManager(mgr ctrl.Manager) error {{
	return ctrl.NewControllerManagedBy(mgr).Named("{name}").For(&appsv1.Deployment{{}}).Complete(r)
}}
"""

EVIDENCE_TREE = {
    "go.mod": GO_MOD.format(name="evidence"),
    "cmd/main.go": """package main

import (
	"os"

	ctrl "sigs.k8s.io/controller-runtime"

	"example.com/evidence/internal/extra"
	"example.com/evidence/internal/standard"
)

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	if os.Getenv("ENABLE_EXTRA") == "true" {
		_ = (&extra.R{Client: mgr.GetClient()}).SetupWithManager(mgr)
	}
	_ = (&standard.R{Client: mgr.GetClient()}).SetupWithManager(mgr)
	_ = mgr.Start(ctrl.SetupSignalHandler())
}
""",
    "internal/common/secret.go": """package common

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func EnsureSecret(ctx context.Context, key types.NamespacedName, reader client.Reader) error {
	return reader.Get(ctx, key, &corev1.Secret{})
}
""",
    "internal/extra/controller.go": EVIDENCE_CONTROLLER.format(name="extra"),
    "internal/standard/controller.go": EVIDENCE_CONTROLLER.format(name="standard"),
}


def test_a_helpers_client_is_cited_from_a_caller_that_runs_by_default(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two controllers hand the helper the manager's client; the one registered only when ENABLE_EXTRA=true
    comes first, but the note cites the other, which runs by default (a note pointing at code that does not
    run would have the reader dismiss a real finding)."""
    monkeypatch.chdir(write_tree(tmp_path, EVIDENCE_TREE))
    report = run([Path(".")], CommandLine(), catalog)
    assert [
        (f.code, str(f.span.path), f.span.line, [(str(r.span.path), r.span.line, r.message) for r in f.related])
        for f in report.findings
    ] == [
        (
            "WL002",
            "internal/common/secret.go",
            12,
            [
                ("cmd/main.go", 13, "cache options here leave Secret unrestricted"),
                ("internal/standard/controller.go", 17, "parameter reader of EnsureSecret is `r.Client`"),
            ],
        )
    ]


CHAINED = """package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"example.org/retrying"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	reader := retrying.Wrap(mgr.GetClient()).CHAIN
	var secret corev1.Secret
	_ = reader.Get(context.Background(), client.ObjectKey{Name: "x"}, &secret)
}
"""


def test_the_type_of_a_chain_of_method_calls_takes_time_linear_in_its_length(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each link's receiver type is taken once: asking for it twice per link (for a module method, then again
    for an interface's) made envoy gateway's long builder chains of a library's type take exponential time."""
    from watchlint.go.resolve import Resolver

    calls = 0
    real = Resolver.type_of

    def counted(self: Resolver, *arguments: object) -> object:
        nonlocal calls
        calls += 1
        return real(self, *arguments)  # type: ignore[arg-type]

    monkeypatch.setattr(Resolver, "type_of", counted)
    chain = ".".join(["WithBackoff(2)"] * 16)
    files = {"go.mod": GO_MOD.format(name="chained"), "main.go": CHAINED.replace("CHAIN", chain)}
    monkeypatch.chdir(write_tree(tmp_path, files))
    report = run([Path(".")], CommandLine(), catalog)
    assert [(finding.code, finding.span.line) for finding in report.findings] == [("WL002", 16)]
    assert calls < 2_000


BUILT_FACTORY = """package main

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	ctrl "sigs.k8s.io/controller-runtime"
)

func newFactory(clientset kubernetes.Interface) informers.SharedInformerFactory {
	return informers.NewSharedInformerFactory(clientset, 0)
}

func main() {
	clientset := kubernetes.NewForConfigOrDie(ctrl.GetConfigOrDie())
	factory := newFactory(clientset)
	_ = factory.Core().V1().Secrets().Lister()
	_, _ = factory.ForResource(schema.GroupVersionResource{Version: "v1", Resource: "configmaps"})
	scoped := informers.NewSharedInformerFactoryWithOptions(clientset, 0, informers.WithNamespace("system"))
	_ = scoped.Core().V1().Pods().Lister()
}
"""


def test_an_informer_of_an_open_factory_names_where_the_factory_is_built(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An informer taken from a factory built without namespace or selector (here by a helper function) points
    at the factory's constructor, where the fix goes; one narrowed there is mitigated by it."""
    files = {"go.mod": GO_MOD.format(name="open"), "main.go": BUILT_FACTORY}
    monkeypatch.chdir(write_tree(tmp_path, files))
    report = run([Path(".")], CommandLine(), catalog)
    found = [(finding.code, finding.kind, finding.span.line, finding.related) for finding in report.findings]
    note = "the informer factory is built here, with no namespace or selector"
    assert [(code, kind, line, [(r.span.line, r.message) for r in related]) for code, kind, line, related in found] == [
        ("WL001", "Secret", 17, [(11, note)]),
        ("WL001", "ConfigMap", 18, [(11, note)]),
    ]
    assert [(item.kind, item.span.line) for item in report.mitigated] == [("Pod", 20)]


FACTORY_MAIN = """package main

import (
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	ctrl "sigs.k8s.io/controller-runtime"

	"example.com/factories/pkg/status"
)

func main() {
	clientset := kubernetes.NewForConfigOrDie(ctrl.GetConfigOrDie())
	factory := informers.NewSharedInformerFactory(clientset, 0)
	_ = status.NewController(factory)
}
"""

FACTORY_CONTROLLER = """package status

import (
	"k8s.io/client-go/informers"
	corelisters "k8s.io/client-go/listers/core/v1"
)

type Controller struct {
	pods corelisters.PodLister
}

func NewController(factory informers.SharedInformerFactory) *Controller {
	return &Controller{pods: factory.Core().V1().Pods().Lister()}
}
"""


def test_an_informer_of_a_factory_handed_in_names_where_the_factory_is_built(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A controller given its informer factory: the finding points at the factory's construction, where the
    namespace or selector belongs."""
    files = {
        "go.mod": GO_MOD.format(name="factories"),
        "main.go": FACTORY_MAIN,
        "pkg/status/controller.go": FACTORY_CONTROLLER,
    }
    monkeypatch.chdir(write_tree(tmp_path, files))
    report = run([Path(".")], CommandLine(), catalog)
    (pods,) = [finding for finding in report.findings if finding.code == "WL001"]
    assert (pods.span.path, pods.span.line) == ("pkg/status/controller.go", 13)
    assert [(related.span.path, related.span.line, related.message) for related in pods.related] == [
        ("main.go", 13, "the informer factory is built here, with no namespace or selector")
    ]


def test_an_informer_of_a_handles_factory_names_the_binarys_factory_not_a_test_helpers(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The handle interface a plugin reads its factory from has a fake implementation that a package only tests
    import fills (descheduler's `InitFrameworkHandle`): the finding points at the factory main builds and hands
    through a functional option, where the fix goes."""
    monkeypatch.chdir(FIXTURES / "WL001" / "informer-factory-a-test-helper-stores-in-a-fake-handle")
    report = run([Path(".")], CommandLine(), catalog)
    (pods,) = report.findings
    assert (pods.code, pods.span.path, pods.span.line) == ("WL001", "plugin/plugin.go", 6)
    assert [(related.span.path, related.span.line, related.message) for related in pods.related] == [
        ("cmd/main.go", 25, "the informer factory is built here, with no namespace or selector")
    ]


def test_a_read_given_a_clusters_client_and_one_not_seen_is_helped_as_the_managers(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Audit reads through the garden cluster's client (its cache restricts Secret) and through one a library
    outside the module builds, taken for the manager's: the finding shows that client and the manager's remedy,
    not the garden cache's."""
    monkeypatch.chdir(FIXTURES / "WL002" / "reads-through-a-cluster-handed-as-parameter")
    report = run([Path(".")], CommandLine(), catalog)
    (audit,) = [finding for finding in report.findings if finding.span.path == "pkg/controller/audit.go"]
    assert [(related.span.path, related.span.line, related.message) for related in audit.related] == [
        ("cmd/agent/main.go", 18, "cache options here leave Secret unrestricted"),
        ("cmd/agent/main.go", 36, "parameter c of Audit is `kubeutil.Client()`"),
    ]
    assert (
        audit.help
        == "Add Secret to client.CacheOptions.DisableFor in the manager options, or read it through mgr.GetAPIReader()"
    )


SHARED_RECONCILER = {
    "go.mod": GO_MOD.format(name="named"),
    "pkg/base/base.go": """package base

import "sigs.k8s.io/controller-runtime/pkg/client"

type Reconciler struct{ Client client.Client }
""",
    "pkg/kafka/kafka.go": """package kafka

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/named/pkg/base"
)

type Reconciler struct{ base.Reconciler }

func New(c client.Client) *Reconciler { return &Reconciler{Reconciler: base.Reconciler{Client: c}} }

func (r *Reconciler) Read(ctx context.Context) error {
	var config corev1.ConfigMap
	return r.Client.Get(ctx, client.ObjectKey{Namespace: "kafka", Name: "config"}, &config)
}
""",
    "pkg/cruise/cruise.go": """package cruise

import "sigs.k8s.io/controller-runtime/pkg/client"

type Reconciler struct{ Client client.Client }

func New(c client.Client) *Reconciler { return &Reconciler{Client: c} }
""",
    "main.go": """package main

import (
	ctrl "sigs.k8s.io/controller-runtime"

	"example.com/named/pkg/cruise"
	"example.com/named/pkg/kafka"
)

func main() {
	mgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	_ = kafka.New(mgr.GetClient())
	_ = cruise.New(mgr.GetClient())
}
""",
}


def test_a_parameter_of_a_function_several_packages_declare_is_named_with_its_package(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """kafka.New fills the reconciler's client; cruise.New, of the same name, another one: the note says which New
    it cites."""
    monkeypatch.chdir(write_tree(tmp_path, SHARED_RECONCILER))
    report = run([Path(".")], CommandLine(), catalog)
    (finding,) = report.findings
    assert [related.message for related in finding.related] == [
        "cache options here leave ConfigMap unrestricted",
        "parameter c of kafka.New is `mgr.GetClient()`",
    ]


FACTORY_ONLY_BINARY = {
    "go.mod": GO_MOD.format(name="factoryonly"),
    "pkg/common/common.go": """package common

import "sigs.k8s.io/controller-runtime/pkg/client"

var Client client.Client
""",
    "main.go": """package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/factoryonly/pkg/common"
)

func main() {
	clientset := kubernetes.NewForConfigOrDie(ctrl.GetConfigOrDie())
	factory := informers.NewSharedInformerFactoryWithOptions(clientset, 0, informers.WithNamespace("tools"))
	_ = factory.Core().V1().ConfigMaps().Lister()
	var token corev1.Secret
	_ = common.Client.Get(context.Background(), client.ObjectKey{Namespace: "tools", Name: "token"}, &token)
}
""",
}


def test_a_read_in_a_binary_building_only_informer_factories_cites_no_cache_options(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read through a client not seen counts as cache-backed, but the binary's namespaced informer factory is
    no cache that client reads: its options are not cited as leaving the kind unrestricted."""
    monkeypatch.chdir(write_tree(tmp_path, FACTORY_ONLY_BINARY))
    report = run([Path(".")], CommandLine(), catalog)
    (finding,) = report.findings
    assert (finding.code, finding.span.line) == ("WL002", 20)
    assert not [related for related in finding.related if "cache options" in related.message]


def test_an_index_through_a_manager_is_run_by_the_binaries_handing_that_manager(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hub imports the package for a constant only: the index its setup function registers through the
    manager it is given runs in the agent alone, so the finding names no other binary."""
    monkeypatch.chdir(FIXTURES / "policy" / "index-through-a-manager-only-one-binary-hands")
    report = run([Path(".")], CommandLine(), catalog)
    assert [finding.message for finding in report.findings] == [
        '`IndexField(ctx, &corev1.Pod{}, "spec.nodeName", …)` caches every Pod in the cluster'
    ]


def test_a_manager_built_only_for_its_api_reader_is_no_cache_of_the_binary(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A manager a package builds only to ask for its API reader never starts its cache: the finding cites the
    operator's manager alone (dynatrace-operator's CSI init command), and its fix edits that one's options."""
    monkeypatch.chdir(FIXTURES / "fixes-unsafe" / "by-object-label-beside-an-idle-manager-of-a-library")
    report = run([Path(".")], CommandLine(), catalog)
    notes = [(f.span.path, [(r.span.path, r.message) for r in f.related]) for f in report.findings]
    assert notes == [
        ("controllers/controllers.go", [("operator/operator.go", "cache options here leave Secret unrestricted")])
    ]


def test_a_by_object_entry_setting_only_a_transform_is_told_it_keeps_every_object(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An entry with a Transform and no Label, Field or Namespaces narrows nothing: its note says the transform
    keeps every object (argocd-operator strips Secrets' data); an empty entry's note does not mention one."""
    monkeypatch.chdir(FIXTURES / "WL001" / "by-object-entry-without-selector")
    report = run([Path(".")], CommandLine(), catalog)
    notes = [(f.span.line, [(r.span.line, r.message) for r in f.related]) for f in report.findings]
    assert notes == [
        (
            24,
            [
                (15, "cache options here leave Secret unrestricted"),
                (19, "ByObject entry for &corev1.Secret{} sets no Label, Field or Namespaces"),
            ],
        ),
        (
            25,
            [
                (15, "cache options here leave ConfigMap unrestricted"),
                (
                    20,
                    "ByObject entry for &corev1.ConfigMap{} sets no Label, Field or Namespaces; its Transform keeps "
                    "every ConfigMap, only smaller",
                ),
            ],
        ),
    ]


def test_a_selector_made_of_exclusions_only_is_told_it_keeps_every_other_object(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`owner!=helm`, `!ephemeral`, `tier notin (…)` leave out the objects they name and keep every other one: no
    mitigation, and the note shows the selector that only excludes (ingress-nginx's and traefik's Helm exclusions,
    kube-proxy's selector built from DoesNotExist requirements), once where both branches of an `if` write it."""
    monkeypatch.chdir(FIXTURES / "WL001" / "selectors-that-only-exclude")
    report = run([Path(".")], CommandLine(), catalog)
    notes = [(f.span.path, f.span.line, [(r.span.line, r.message) for r in f.related]) for f in report.findings]
    assert notes == [
        (
            "main.go",
            25,
            [(22, "WithTweakListOptions's LabelSelector `owner!=helm` only excludes and keeps every other Secret")],
        ),
        (
            "main.go",
            30,
            [
                (
                    28,
                    "WithTweakListOptions's FieldSelector "
                    '`fields.OneTermNotEqualSelector("type", "helm.sh/release.v1")` only excludes and keeps every '
                    "other ConfigMap",
                )
            ],
        ),
        (
            "main.go",
            38,
            [(38, "LabelSelector `!ephemeral, tier notin (cache, queue)` only excludes and keeps every other Pod")],
        ),
        (
            "proxy.go",
            30,
            [
                (
                    28,
                    "WithTweakListOptions's LabelSelector `!service.kubernetes.io/service-proxy-name,"
                    "!service.kubernetes.io/headless` only excludes and keeps every other EndpointSlice",
                )
            ],
        ),
        (
            "proxy.go",
            36,
            [
                (
                    34,
                    "WithTweakListOptions's LabelSelector `tier notin (cache,batch)` only excludes and keeps every "
                    "other Pod",
                )
            ],
        ),
        (
            "proxy.go",
            53,
            [
                (
                    48,
                    "WithTweakListOptions's FieldSelector "
                    '`fields.OneTermNotEqualSelector("type", "helm.sh/release.v1")` only excludes and keeps every '
                    "other Secret",
                )
            ],
        ),
    ]


def test_a_cache_copied_through_locals_and_a_field_is_the_one_its_informers_come_from(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """alloy's podlogs: `cache.New` stored in a field, copied into locals and handed to the helper asking it for
    informers, also for each object of a slice literal it loops over: the notes point at that cache's options."""
    monkeypatch.chdir(FIXTURES / "WL001" / "informers-of-a-cache-copied-and-kinds-looped-over")
    report = run([Path(".")], CommandLine(), catalog)
    assert [(f.kind, f.span.line, [(r.span.line, r.message) for r in f.related]) for f in report.findings] == [
        ("Pod", 44, [(24, "cache options here leave Pod unrestricted")]),
        ("ConfigMap", 51, [(24, "cache options here leave ConfigMap unrestricted")]),
    ]


def test_library_go_informers_for_every_namespace_are_told_to_take_a_namespaces_factory(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`InformersFor("")` of library-go's NewKubeInformersForNamespaces is its factory over every namespace: the
    note says so where it is asked for (or where a loop asks for it in one round, or a combined lister's List
    reads it), and the help names the namespaced factories it builds beside it."""
    monkeypatch.chdir(FIXTURES / "WL001" / "library-go-informers-for-namespaces")
    report = run([Path(".")], CommandLine(), catalog)
    every = '`InformersFor("")` is library-go\'s informer factory over every namespace'
    lister = next(f for f in report.findings if f.span.line == 39)
    assert (lister.code, lister.kind, [r.message for r in lister.related], lister.help) == (
        "WL001",
        "ConfigMap",
        ["`ConfigMapLister()` lists through library-go's informer factory over every namespace"],
        "Read ConfigMap through ConfigMapLister().ConfigMaps(namespace) for a namespace the operator works in, whose "
        "factory NewKubeInformersForNamespaces builds with informers.WithNamespace, not across every namespace "
        '(List, or the namespace ""), which reads the factory over every namespace; where it must see every '
        "namespace, from a factory of its own whose WithTweakListOptions sets a label or field selector",
    )
    others = [f for f in report.findings if f is not lister]
    assert [(f.span.path, f.span.line, [r.message for r in f.related], f.help) for f in others] == [
        (
            path,
            line,
            [note],
            f"Take {kind} from InformersFor(namespace) for a namespace the operator works in, each a factory "
            'NewKubeInformersForNamespaces builds with informers.WithNamespace, not from InformersFor(""), the one '
            "over every namespace; where it must see every namespace, from a factory of its own whose "
            "WithTweakListOptions sets a label or field selector",
        )
        for path, line, kind, note in [
            ("main.go", 31, "ConfigMap", every),
            (
                "main.go",
                33,
                "Pod",
                "`InformersFor(everyNamespace)` is library-go's informer factory over every namespace",
            ),
            ("main.go", 35, "ServiceAccount", '`namespace` is "" in one round of the loop: every namespace'),
            ("main.go", 46, "ReplicaSet", '`namespace` is "" in one round of the loop: every namespace'),
            ("main.go", 55, "Event", every),  # NewKubeInformersForNamespacesWithResyncPeriod's
            ("pkg/controllers/configs.go", 30, "Event", every),  # its factory parameter given InformersFor("")
            ("pkg/controllers/pods.go", 25, "Event", every),
        ]
    ]


def test_an_informer_given_a_transform_is_told_it_still_keeps_every_object(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """calico's and the EKS pod identity webhook's SetTransform strip each object the informer keeps: the finding
    stands, its note names the transform, on the informer's local, the accessor's, or the chain itself."""
    monkeypatch.chdir(FIXTURES / "WL001" / "informer-given-a-transform")
    report = run([Path(".")], CommandLine(), catalog)
    transforms = [
        (f.kind, f.span.line, [(r.span.line, r.message) for r in f.related if "SetTransform" in r.message])
        for f in report.findings
    ]

    def note(line: int, receiver: str, kind: str) -> list[tuple[int, str]]:
        return [(line, f"`{receiver}.SetTransform(…)` keeps each {kind} smaller, but every one is still cached")]

    assert transforms == [
        ("Pod", 27, note(29, "pods", "Pod")),
        ("ServiceAccount", 28, note(32, "accounts.Informer()", "ServiceAccount")),
        ("Secret", 35, note(35, "factory.Core().V1().Secrets().Informer()", "Secret")),
        ("ConfigMap", 38, []),
    ]


def test_a_kind_no_namespace_holds_is_helped_with_selectors_only(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Node added as an extra kind (`namespaced = false`): no namespace scope narrows it, so the helps of its
    informer, its List and its Watch offer selectors only."""
    monkeypatch.chdir(FIXTURES / "WL001" / "extra-kind-held-by-no-namespace")
    report = run([Path(".")], CommandLine(), catalog)
    assert [(f.code, f.span.line, f.help) for f in report.findings] == [
        (
            "WL001",
            22,
            # the factory serves Nodes alone: no factory of its own to take them from
            "Build the informer factory with NewSharedInformerFactoryWithOptions and a label or field selector in "
            "WithTweakListOptions",
        ),
        ("WL004", 23, "Pass a label or field selector"),
        ("WL001", 24, "Set LabelSelector or FieldSelector in the metav1.ListOptions"),
    ]


SHARED_FACTORY_MAIN = """package main

import (
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

func watchSecrets(clientset kubernetes.Interface, stop <-chan struct{}) {
	factory := informers.NewSharedInformerFactory(clientset, 0)
	factory.Core().V1().Secrets().Informer()
	factory.Apps().V1().Deployments().Informer()
	factory.Start(stop)
}

func watchPods(clientset kubernetes.Interface, stop <-chan struct{}) {
	factory := informers.NewSharedInformerFactory(clientset, 0)
	factory.Core().V1().Pods().Informer()
	factory.Start(stop)
}

func main() {
	clientset := kubernetes.NewForConfigOrDie(&rest.Config{})
	watchSecrets(clientset, nil)
	watchPods(clientset, nil)
}
"""


def test_a_factory_serving_other_kinds_keeps_the_help_to_a_factory_of_its_own(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A factory that also hands out Deployments (a kind outside the catalogue) would narrow them too: its help
    offers a factory of its own; the factory of the same name in another function serves Pods alone."""
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": GO_MOD.format(name="shared"), "main.go": SHARED_FACTORY_MAIN}))
    report = run([Path(".")], CommandLine(), catalog)
    build = (
        "Build the informer factory with NewSharedInformerFactoryWithOptions and informers.WithNamespace, or a label "
        "or field selector in WithTweakListOptions"
    )
    assert [(f.code, f.span.line, f.help) for f in report.findings] == [
        (
            "WL001",
            11,
            f"{build}, or, where it serves other kinds that must stay whole, take Secret from a factory of its own so "
            "built",
        ),
        ("WL001", 18, build),
    ]


def test_a_scope_set_under_a_setting_and_in_a_loop_over_it_names_the_setting_once(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DefaultNamespaces filled under `if len(namespaces) > 0` and in the loop over them inside it: two
    conditions of one setting, named once in the message (everest-operator)."""
    monkeypatch.chdir(FIXTURES / "WL001" / "default-namespaces-filled-in-a-loop-under-a-flag")
    report = run([Path(".")], CommandLine(), catalog)
    assert [(f.code, f.span.path, f.span.line, f.message) for f in report.findings] == [
        (
            "WL001",
            "main.go",
            46,
            "`For(&corev1.Secret{})` caches every Secret in the cluster; DefaultNamespaces applies only when "
            "--db-namespaces is set or DB_NAMESPACES is non-empty",
        )
    ]


def test_an_informer_of_a_factory_field_cites_the_factory_its_function_stores(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each constructor stores a factory of its own in one field (ovn-kubernetes' watch factories): the note of
    an informer asked for in one of them cites the factory that constructor builds, not the first one stored."""
    monkeypatch.chdir(FIXTURES / "WL001" / "informer-registered-with-one-of-the-factories-a-field-holds")
    report = run([Path(".")], CommandLine(), catalog)
    notes = [(f.span.line, [(r.span.line, r.message) for r in f.related]) for f in report.findings]
    assert notes == [
        (25, [(24, "the informer factory is built here, with no namespace or selector")]),
        (46, [(45, "the informer factory is built here, with no namespace or selector")]),
    ]


def test_an_informer_of_a_filtered_factory_is_helped_to_that_factorys_arguments(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dynamic factory built with NewFilteredDynamicSharedInformerFactory over every namespace takes a
    namespace and a tweak already: the help names that call, not the factories to build instead (k9s)."""
    monkeypatch.chdir(FIXTURES / "WL001" / "informer-for-resource")
    report = run([Path(".")], CommandLine(), catalog)
    helps = {f.span.line: f.help for f in report.findings}
    assert helps[44] == (
        "Give dynamicinformer.NewFilteredDynamicSharedInformerFactory(…) a namespace, or a tweakListOptions that "
        "sets a label or field selector"
    )
    assert helps[39].startswith("Build the informer factory with a namespace or a label selector")


def test_one_call_for_each_kind_of_a_loop_is_one_finding_citing_the_others(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`IndexField(ctx, object, …)` in a loop over a Pod and a ConfigMap: one site, one finding (SPEC §3),
    whose notes cite the ConfigMap the same call caches, and no internal error."""
    monkeypatch.chdir(FIXTURES / "WL001" / "index-field-for-each-kind-of-a-loop")
    report = run([Path(".")], CommandLine(), catalog)
    assert not report.notifications
    assert [(f.code, f.span.line, f.kind) for f in report.findings] == [("WL001", 28, "Pod")]
    assert [(r.span.line, r.message) for r in report.findings[0].related][-1] == (
        28,
        "the same call: `IndexField(ctx, object, ownerIndex, owner)` caches every ConfigMap in the cluster",
    )


def test_a_read_through_a_clustercache_cites_where_the_clustercache_is_built(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A workload cluster's client reads the ClusterCache's cache: the note cites `SetupWithManager`, whose
    options leave ConfigMap cached, not the manager's options (which exclude it from the manager's client)."""
    monkeypatch.chdir(FIXTURES / "WL002" / "workload-cluster-cache-of-cluster-api")
    report = run([Path(".")], CommandLine(), catalog)
    notes = [(f.span.line, [(r.span.line, r.message) for r in f.related]) for f in report.findings]
    assert notes == [
        (
            29,
            [
                (56, "cache options here leave ConfigMap unrestricted"),
                (24, "`r.ClusterCache.GetClient(ctx, cluster)` reads a workload cluster's cache"),
            ],
        )
    ]


OPEN_OPTIONS_FACTORY = """package main

import (
	"time"

	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

func main() {
	clientset := kubernetes.NewForConfigOrDie(&rest.Config{})
	pods := kubeinformers.NewSharedInformerFactoryWithOptions(clientset, time.Hour, kubeinformers.WithTransform(strip))
	pods.Core().V1().Pods().Informer()
	shared := kubeinformers.NewSharedInformerFactoryWithOptions(clientset, time.Hour)
	shared.Core().V1().Secrets().Informer()
	shared.Core().V1().ConfigMaps().Informer()
}

func strip(object interface{}) (interface{}, error) { return object, nil }
"""


def test_an_informer_of_a_factory_built_with_open_options_is_helped_to_those_options(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A factory NewSharedInformerFactoryWithOptions builds with options that narrow nothing (inspektor-gadget's
    transform): the help says to add a namespace or a selector to those options, not to build it so (and, where
    the factory serves other kinds too, to take the kind from a factory of its own), and a note says the
    transform keeps every Pod. The options are named as the file imports their package (`kubeinformers`)."""
    monkeypatch.chdir(
        write_tree(tmp_path, {"go.mod": GO_MOD.format(name="openoptions"), "main.go": OPEN_OPTIONS_FACTORY})
    )
    report = run([Path(".")], CommandLine(), catalog)
    options = (
        "Add kubeinformers.WithNamespace, or a label or field selector in WithTweakListOptions, to the options of "
        "kubeinformers.NewSharedInformerFactoryWithOptions(…)"
    )
    assert [(f.code, f.span.line, f.help) for f in report.findings] == [
        ("WL001", 14, options),
        (
            "WL001",
            16,
            f"{options}, or, where it serves other kinds that must stay whole, take Secret from a factory "
            "of its own so built",
        ),
        (
            "WL001",
            17,
            f"{options}, or, where it serves other kinds that must stay whole, take ConfigMap from a "
            "factory of its own so built",
        ),
    ]
    assert [(r.span.line, r.message) for r in report.findings[0].related] == [
        (13, "the informer factory is built here, with no namespace or selector"),
        (13, "`kubeinformers.WithTransform(…)` keeps each Pod smaller, but every one is still cached"),
    ]


def test_a_client_set_in_many_places_is_shown_where_the_site_s_own_package_sets_it(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every controller embeds one base reconciler and sets its client in its own package: each read's note names
    its own controller's write, not the first of the module's."""
    monkeypatch.chdir(FIXTURES / "WL002" / "shared-base-client-set-by-each-controller")
    report = run([Path(".")], CommandLine(), catalog)
    notes = {
        finding.kind: [r.span.path for r in finding.related if r.message.startswith("Reconciler.Client is")]
        for finding in report.findings
    }
    assert notes == {
        "Secret": ["internal/alpha/controller.go"],
        "ConfigMap": ["internal/beta/controller.go"],
    }


def test_a_managed_reconcilers_default_publisher_says_it_reads_through_the_managers_client(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """crossplane-runtime's NewReconciler, given no publishers, applies each connection Secret through the
    manager's client: the note names the option it lacks, the help that the API reader cannot stand in."""
    monkeypatch.chdir(FIXTURES / "WL002" / "connection-secrets-a-managed-reconciler-publishes")
    report = run([Path(".")], CommandLine(), catalog)
    default = next(finding for finding in report.findings if finding.span.line == 19)
    assert default.related[0].message == (
        "NewReconciler without WithConnectionPublishers gets the connection Secret each managed resource names "
        "through this manager's client"
    )
    assert default.help == (
        "Add Secret to client.CacheOptions.DisableFor in the manager options (NewReconciler's default publisher "
        "takes a client.Client, which mgr.GetAPIReader() is not)"
    )


def test_a_managed_reconciler_of_crossplane_runtime_v2_is_told_of_no_option_v2_keeps_for_its_tests(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """crossplane-runtime v2 keeps WithConnectionPublishers for its own tests: the note of a v2 NewReconciler
    names no option the provider could give it."""
    case = tmp_path / "v2"
    shutil.copytree(FIXTURES / "WL002" / "connection-secrets-a-managed-reconciler-publishes", case)
    for path in case.rglob("*"):
        if path.is_file():
            text = path.read_text()
            text = text.replace("crossplane/crossplane-runtime/pkg", "crossplane/crossplane-runtime/v2/pkg")
            path.write_text(text.replace("crossplane-runtime v1.16.0", "crossplane-runtime/v2 v2.0.0"))
    monkeypatch.chdir(case)
    report = run([Path(".")], CommandLine(), catalog)
    default = next(finding for finding in report.findings if finding.span.line == 19)
    assert default.related[0].message == (
        "NewReconciler gets the connection Secret each managed resource names through this manager's client"
    )


def test_fields_set_on_a_watched_object_are_told_to_select_nothing(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A watch of `&corev1.Secret{Type: …}` or of an object with labels and a name takes the type only
    (argocd-operator's watch of TLS Secrets): the note says so at the literal, the ObjectMeta's fields by name."""
    monkeypatch.chdir(FIXTURES / "WL001" / "watched-object-with-fields-set")
    report = run([Path(".")], CommandLine(), catalog)
    notes = [
        (f.code, f.span.line, [(r.span.line, r.span.column, r.message) for r in f.related if "watched" in r.message])
        for f in report.findings
    ]
    assert notes == [
        ("WL001", 23, [(23, 8, "setting `Type` on the watched object selects nothing: a watch takes only its type")]),
        (
            "WL003",
            24,
            [
                (
                    24,
                    12,
                    "setting `Name` and `Labels` on the watched object selects nothing: a watch takes only its type",
                )
            ],
        ),
    ]


def test_the_source_kind_wrapping_a_watched_object_sets_none_of_its_fields(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`&source.Kind{Type: obj}` (before controller-runtime v0.15) names the object in its own `Type` field
    (thanos-operator's Secret watch): only the fields set on the object itself are told to select nothing."""
    monkeypatch.chdir(FIXTURES / "WL001" / "watched-object-of-an-old-era-source-kind")
    report = run([Path(".")], CommandLine(), catalog)
    notes = [
        (f.span.line, f.kind, [(r.span.line, r.message) for r in f.related if "watched object" in r.message])
        for f in report.findings
    ]
    assert notes == [
        (28, "Secret", []),
        (29, "ConfigMap", [(29, "setting `Name` on the watched object selects nothing: a watch takes only its type")]),
    ]


def test_an_informer_of_a_maps_item_keyed_by_the_callers_range_is_one_site_per_item(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reloader's shape: `ObjectType: kinds.ByResource[resource]` in a helper its main calls for each key of
    that map. Each item's kind is watched at the call; the tweak's selector, from a flag main binds to another
    package's list and joins, is empty by default."""
    monkeypatch.chdir(FIXTURES / "WL001" / "informer-per-item-of-a-map-of-kinds")
    report = run([Path(".")], CommandLine(), catalog)
    [finding] = report.findings
    assert (finding.code, finding.span.path, finding.span.line, finding.kind) == ("WL001", "main.go", 47, "ConfigMap")
    assert [(r.span.path, r.span.line, r.message) for r in finding.related[2:]] == [
        ("watch/watch.go", 34, "optionsModifier's LabelSelector applies only when --resource-label-selector is set"),
        (
            "main.go",
            47,
            "the same call: `watch.NewWatcher(client, resource, namespace, selector)` caches every Secret in the "
            "cluster; namespace applies only when --namespaces is set or RELOADER_NAMESPACE is non-empty",
        ),
    ]


def test_the_client_a_read_is_given_is_shown_where_the_binary_gives_it_not_in_an_envtest_fixture(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """kserve's reconciler is given the manager's client by its binary and by an envtest fixture beside the
    controller, nearer the read: the evidence cites the binary's, as the fixture's package only tests run."""
    monkeypatch.chdir(FIXTURES / "helpers" / "client-evidence-of-the-binary-beside-an-envtest-fixture")
    report = run([Path(".")], CommandLine(), catalog)
    assert [(f.code, f.span.path, f.span.line) for f in report.findings] == [
        ("WL002", "pkg/controller/controller.go", 21)
    ]
    assert [(r.span.path, r.span.line, r.message) for r in report.findings[0].related] == [
        ("cmd/operator/main.go", 12, "cache options here leave ServiceAccount unrestricted"),
        ("cmd/operator/main.go", 16, "Reconciler.Client is `mgr.GetClient()`"),
    ]


def test_a_wrangler_controller_of_a_lasso_controller_factory_cites_that_factory(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """lasso's `NewSharedControllerFactoryFromConfig` builds the cache the wrangler factories handed it share: the
    finding cites it, and its help names its cache options, not the wrangler factory's Namespace, which a factory
    handed a shared controller factory ignores."""
    monkeypatch.chdir(FIXTURES / "WL001" / "wrangler-controllers-of-a-lasso-controller-factory")
    report = run([Path(".")], CommandLine(), catalog)
    (pods,) = [finding for finding in report.findings if finding.kind == "Pod"]
    notes = [(related.span.path, related.span.line, related.message) for related in pods.related]
    assert notes == [("main.go", 28, "the lasso shared controller factory is built here, with no namespace or tweak")]
    assert pods.help == (
        "Build the lasso shared controller factory with NewSharedControllerFactoryFromConfigWithOptions and "
        "CacheOptions (cache.SharedCacheFactoryOptions) giving a DefaultNamespace, or a KindTweakList entry for Pod "
        "that sets a label or field selector (a wrangler factory handed it ignores its own Namespace)"
    )


EVERY_NAMESPACE_OPTION = """package main

import (
	corev1 "k8s.io/api/core/v1"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

func main() {
	cfg, _ := rest.InClusterConfig()
	cs := kubernetes.NewForConfigOrDie(cfg)
	var pf kubeinformers.SharedInformerFactory
	pf = kubeinformers.NewSharedInformerFactoryWithOptions(cs, 0, kubeinformers.WithNamespace(corev1.NamespaceAll))
	pf.Core().V1().Pods().Informer()
	var secretFactory kubeinformers.SharedInformerFactory
	secretFactory = kubeinformers.NewSharedInformerFactory(cs, 0)
	secretFactory.Core().V1().Secrets().Informer()
}
"""


def test_a_factory_option_naming_every_namespace_is_cited_as_the_one_to_change(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """cluster-node-tuning-operator builds its Pod factory with `WithNamespace(corev1.NamespaceAll)`, in a variable
    declared apart: the finding cites that option, and its help asks for a namespace there rather than the
    WithNamespace the code has. A factory assigned once to a variable is cited where it is built."""
    go_mod = "module example.com/every\n\ngo 1.22\n\nrequire k8s.io/client-go v0.31.0\n"
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": go_mod, "main.go": EVERY_NAMESPACE_OPTION}))
    findings = {finding.kind: finding for finding in run([Path(".")], CommandLine(), catalog).findings}
    notes = {
        kind: [(related.span.line, related.span.column, related.message) for related in finding.related]
        for kind, finding in findings.items()
    }
    assert notes == {
        "Pod": [(14, 64, "`kubeinformers.WithNamespace(corev1.NamespaceAll)` is every namespace")],
        "Secret": [(17, 18, "the informer factory is built here, with no namespace or selector")],
    }
    assert findings["Pod"].help == (
        "Give kubeinformers.WithNamespace a namespace rather than every namespace, or add a label or field selector in "
        "WithTweakListOptions, to the options of kubeinformers.NewSharedInformerFactoryWithOptions(…), or, where it "
        "serves other kinds that must stay whole, take Pod from a factory of its own so built"
    )


def test_a_helpers_watch_through_a_builder_kept_in_a_field_is_of_that_builders_manager(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """mariadb-operator's watcher indexer keeps the builder each controller's SetupWithManager hands it, and
    watches through that field: the watch is the operator's manager's, though the helper's call sits in the API
    package the webhook binary imports too, so the finding names no other binary."""
    monkeypatch.chdir(FIXTURES / "policy" / "watch-of-a-builder-a-helper-keeps-in-a-field")
    report = run([Path(".")], CommandLine(), catalog)
    assert [(finding.span.path, finding.span.line, finding.message) for finding in report.findings] == [
        ("api/indexes.go", 18, "`indexer.Watch(&corev1.Secret{})` caches every Secret in the cluster")
    ]
    assert [(related.span.path, related.span.line) for related in report.findings[0].related] == [
        ("pkg/watch/watch.go", 22),
        ("cmd/operator/main.go", 12),
    ]


HELM_EXCLUSIONS = """package main

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

func main() {
	cs := kubernetes.NewForConfigOrDie(&rest.Config{})
	notReleases := func(options *metav1.ListOptions) {
		if options.LabelSelector != "" {
			options.LabelSelector += ",OWNER!=TILLER"
		} else {
			options.LabelSelector = "OWNER!=TILLER"
		}
	}
	configMaps := informers.NewSharedInformerFactoryWithOptions(cs, 0, informers.WithTweakListOptions(notReleases))
	configMaps.Core().V1().ConfigMaps().Informer()
}
"""


def test_an_exclusion_appended_to_a_selector_is_noted_as_the_selector_it_writes(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ingress-nginx appends its Helm exclusion with `+= ",OWNER!=TILLER"` where a selector is given and writes it
    whole otherwise: the finding notes it once, as the selector it is (`OWNER!=TILLER`)."""
    monkeypatch.chdir(
        write_tree(tmp_path, {"go.mod": "module example.com/ingress\n\ngo 1.22\n", "main.go": HELM_EXCLUSIONS})
    )
    report = run([Path(".")], CommandLine(), catalog)
    excludes = "only excludes and keeps every other"
    assert [
        (finding.kind, [(note.span.line, note.message) for note in finding.related]) for finding in report.findings
    ] == [
        ("ConfigMap", [(14, f"WithTweakListOptions's LabelSelector `OWNER!=TILLER` {excludes} ConfigMap")]),
    ]


OPTIONS_FROM_CALLERS = """package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

type pods struct{ clientset kubernetes.Interface }

func (p *pods) listAll(ctx context.Context, opts metav1.ListOptions) ([]corev1.Pod, error) {
	list, err := p.clientset.CoreV1().Pods("").List(ctx, opts)
	if err != nil {
		return nil, err
	}
	return list.Items, nil
}

func (p *pods) workers(ctx context.Context) ([]corev1.Pod, error) {
	return p.listAll(ctx, metav1.ListOptions{LabelSelector: "app=worker"})
}

func (p *pods) everything(ctx context.Context) ([]corev1.Pod, error) {
	return p.listAll(ctx, metav1.ListOptions{})
}

func main() {
	p := &pods{clientset: kubernetes.NewForConfigOrDie(nil)}
	_, _ = p.workers(context.Background())
	_, _ = p.everything(context.Background())
}
"""


def test_a_list_with_its_callers_options_cites_the_caller_passing_no_selector(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """listAll lists with the options its callers pass: one passes a label selector, the other none, which makes
    the List a finding; the note points at the options that select nothing (determined's pod listing)."""
    files = {"go.mod": "module example.com/callers\n\ngo 1.22\n", "main.go": OPTIONS_FROM_CALLERS}
    monkeypatch.chdir(write_tree(tmp_path, files))
    report = run([Path(".")], CommandLine(), catalog)
    notes = [
        (f.code, f.span.line, [(n.span.line, n.span.column, n.message) for n in f.related]) for f in report.findings
    ]
    assert notes == [("WL004", 14, [(26, 24, "the options passed here set no selector")])]


@pytest.mark.parametrize(
    ("version", "watches_every_secret"),
    [
        ("v0.6.3", True),
        ("v0.6.4-rc.1", True),
        ("v0.6.4", False),
        ("v0.7.0", True),
        ("v0.7.1-0.20250812122709-5bcd92291962", True),
        ("v0.7.1", False),
        ("v0.9.0", False),
    ],
)
def test_dynamiclistener_is_judged_by_the_release_the_module_requires(
    version: str, watches_every_secret: bool, tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """dynamiclistener registered a handler on the Secret controller it is handed up to v0.6.3 and in v0.7.0;
    v0.6.4 and v0.7.1 on watch only their certificate's Secret by name. A pre-release of either, or a
    pseudo-version of a commit before it, counts as the older code."""
    case = FIXTURES / "WL001" / "wrangler-secrets-handed-to-dynamiclistener"
    go_mod = (
        (case / "go.mod").read_text(encoding="utf-8").replace("dynamiclistener v0.6.1", f"dynamiclistener {version}")
    )
    main = (case / "cmd" / "webhook" / "main.go").read_text(encoding="utf-8")
    monkeypatch.chdir(write_tree(tmp_path, {"go.mod": go_mod, "main.go": main}))
    report = run([Path(".")], CommandLine(), catalog)
    expected = [("WL001", "main.go", 30)] if watches_every_secret else []
    assert [(f.code, f.span.path, f.span.line) for f in report.findings] == expected
