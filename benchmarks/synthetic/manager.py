"""An operator module's go.mod and its manager (cmd/main.go, or main.go in the older kubebuilder layout),
with the cache options of its era and cache mode."""

from __future__ import annotations

from synthetic.operator_plan import OperatorPlan
from synthetic.vocabulary import go_imports


def go_mod(operator: OperatorPlan) -> str:
    era = operator.era
    requires = [
        ("github.com/go-logr/logr", "v1.4.2"),
        ("k8s.io/api", era.kubernetes),
        ("k8s.io/apimachinery", era.kubernetes),
        ("k8s.io/client-go", era.kubernetes),
        ("sigs.k8s.io/controller-runtime", era.controller_runtime),
    ]
    if operator.vendored:
        requires.append(("github.com/acmecloud/opkit", "v0.8.3"))
    indirect = [
        ("github.com/beorn7/perks", "v1.0.1"),
        ("github.com/cespare/xxhash/v2", "v2.3.0"),
        ("github.com/davecgh/go-spew", "v1.1.1"),
        ("github.com/evanphx/json-patch/v5", "v5.9.0"),
        ("github.com/fsnotify/fsnotify", "v1.7.0"),
        ("github.com/go-openapi/jsonpointer", "v0.21.0"),
        ("github.com/gogo/protobuf", "v1.3.2"),
        ("github.com/google/gnostic-models", "v0.6.8"),
        ("github.com/google/uuid", "v1.6.0"),
        ("github.com/json-iterator/go", "v1.1.12"),
        ("github.com/prometheus/client_golang", "v1.19.1"),
        ("golang.org/x/net", "v0.26.0"),
        ("golang.org/x/oauth2", "v0.21.0"),
        ("gomodules.xyz/jsonpatch/v2", "v2.4.0"),
        ("sigs.k8s.io/structured-merge-diff/v4", "v4.4.1"),
        ("sigs.k8s.io/yaml", "v1.4.0"),
    ]
    indirect = sorted(operator.rng.sample(indirect, operator.rng.randint(8, len(indirect))))
    direct = "\n".join(f"\t{path} {version}" for path, version in sorted(requires))
    rest = "\n".join(f"\t{path} {version} // indirect" for path, version in indirect)
    return f"module {operator.module}\n\ngo {era.go}\n\nrequire (\n{direct}\n)\n\nrequire (\n{rest}\n)\n"


def main_go(operator: OperatorPlan) -> str:  # noqa: C901 - one branch per cache mode and era, as real managers differ
    era = operator.era
    rng = operator.rng
    std = [("", "flag"), ("", "os")]
    k8s = [
        ("", "k8s.io/apimachinery/pkg/runtime"),
        ("utilruntime", "k8s.io/apimachinery/pkg/util/runtime"),
        ("clientgoscheme", "k8s.io/client-go/kubernetes/scheme"),
        ("ctrl", "sigs.k8s.io/controller-runtime"),
        ("", "sigs.k8s.io/controller-runtime/pkg/healthz"),
        ("", "sigs.k8s.io/controller-runtime/pkg/log/zap"),
    ]
    own = [
        (operator.group_alias, f"{operator.module}/api/v1"),
        ("", f"{operator.module}/{operator.controller_dir}"),
    ]
    if era.minor >= 16:
        k8s.append(("metricsserver", "sigs.k8s.io/controller-runtime/pkg/metrics/server"))
    mode = operator.cache_mode
    options: list[str] = []
    prelude: list[str] = []
    flags = [
        '\tflag.StringVar(&metricsAddr, "metrics-bind-address", ":8080", "The address the metric endpoint binds to.")',
        '\tflag.StringVar(&probeAddr, "health-probe-bind-address", ":8081", '
        '"The address the probe endpoint binds to.")',
        '\tflag.BoolVar(&enableLeaderElection, "leader-elect", false,\n'
        '\t\t"Enable leader election for controller manager. "+\n'
        '\t\t\t"Enabling this will ensure there is only one active controller manager.")',
    ]
    variables = ["\tvar metricsAddr, probeAddr string", "\tvar enableLeaderElection bool"]
    selector = f'labels.SelectorFromSet(labels.Set{{"app.kubernetes.io/managed-by": "{operator.name}"}})'
    needs_core = False
    if "by-object" in mode:
        needs_core = True
        k8s.append(("", "k8s.io/apimachinery/pkg/labels"))
        k8s.append(("", "sigs.k8s.io/controller-runtime/pkg/cache"))
        if era.minor < 15:
            options.append(
                "\t\tNewCache: cache.BuilderWithOptions(cache.Options{\n"
                "\t\t\tSelectorsByObject: cache.SelectorsByObject{\n"
                f"\t\t\t\t&corev1.{operator.selected}{{}}: {{Label: {selector}}},\n"
                "\t\t\t},\n\t\t}),"
            )
        else:
            k8s.append(("", "sigs.k8s.io/controller-runtime/pkg/client"))
            options.append(
                "\t\tCache: cache.Options{\n"
                "\t\t\tByObject: map[client.Object]cache.ByObject{\n"
                f"\t\t\t\t&corev1.{operator.selected}{{}}: {{Label: {selector}}},\n"
                "\t\t\t},\n\t\t},"
            )
    if mode == "namespace-flag":
        variables.append("\tvar watchNamespace string")
        flags.append(
            '\tflag.StringVar(&watchNamespace, "watch-namespace", "",\n'
            '\t\t"Namespace the operator watches; all namespaces when empty.")'
        )
        if era.minor < 15:
            options.append("\t\tNamespace:              watchNamespace,")
        else:
            k8s.append(("", "sigs.k8s.io/controller-runtime/pkg/cache"))
            prelude.append("\tcacheOptions := cache.Options{}")
            prelude.append('\tif watchNamespace != "" {')
            if era.minor < 16:
                prelude.append("\t\tcacheOptions.Namespaces = []string{watchNamespace}")
            else:
                prelude.append("\t\tcacheOptions.DefaultNamespaces = map[string]cache.Config{watchNamespace: {}}")
            prelude.append("\t}")
            options.append("\t\tCache:                  cacheOptions,")
    if "disable-for" in mode:
        needs_core = True
        k8s.append(("", "sigs.k8s.io/controller-runtime/pkg/client"))
        objects = ", ".join(f"&corev1.{kind}{{}}" for kind in operator.disabled)
        if era.minor < 15:
            options.append(f"\t\tClientDisableCacheFor:  []client.Object{{{objects}}},")
        else:
            options.append(
                "\t\tClient: client.Options{\n"
                f"\t\t\tCache: &client.CacheOptions{{DisableFor: []client.Object{{{objects}}}}},\n"
                "\t\t},"
            )
    if needs_core:
        k8s.append(("corev1", "k8s.io/api/core/v1"))
    metrics = (
        "\t\tMetrics:                metricsserver.Options{BindAddress: metricsAddr},"
        if era.minor >= 16
        else "\t\tMetricsBindAddress:     metricsAddr,"
    )
    setups = []
    for controller in operator.controllers:
        fields = ["\t\tClient: mgr.GetClient(),", "\t\tScheme: mgr.GetScheme(),"]
        fields.append(f'\t\tRecorder: mgr.GetEventRecorderFor("{controller.kind.lower()}-controller"),')
        if controller.api_reader:
            fields.append("\t\tAPIReader: mgr.GetAPIReader(),")
        body = "\n".join(fields)
        setups.append(
            f"\tif err := (&{operator.controller_package}.{controller.kind}Reconciler{{\n{body}\n"
            "\t}).SetupWithManager(mgr); err != nil {\n"
            f'\t\tsetupLog.Error(err, "unable to create controller", "controller", "{controller.kind}")\n'
            "\t\tos.Exit(1)\n\t}"
        )
    zap_setup = "\topts := zap.Options{Development: true}\n\topts.BindFlags(flag.CommandLine)"
    leader = f"{rng.randrange(16**8):08x}.{operator.group}"
    lines = [
        f"// Command {operator.name} runs the manager of the {operator.name}.",
        "package main",
        "",
        go_imports(std, [k8s, own]),
        "var (",
        "\tscheme   = runtime.NewScheme()",
        '\tsetupLog = ctrl.Log.WithName("setup")',
        ")",
        "",
        "func init() {",
        "\tutilruntime.Must(clientgoscheme.AddToScheme(scheme))",
        f"\tutilruntime.Must({operator.group_alias}.AddToScheme(scheme))",
        "}",
        "",
        "func main() {",
        *variables,
        *flags,
        zap_setup,
        "\tflag.Parse()",
        "",
        "\tctrl.SetLogger(zap.New(zap.UseFlagOptions(&opts)))",
        "",
        *prelude,
        "\tmgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{",
        "\t\tScheme:                 scheme,",
        metrics,
        "\t\tHealthProbeBindAddress: probeAddr,",
        "\t\tLeaderElection:         enableLeaderElection,",
        f'\t\tLeaderElectionID:       "{leader}",',
        *options,
        "\t})",
        "\tif err != nil {",
        '\t\tsetupLog.Error(err, "unable to start manager")',
        "\t\tos.Exit(1)",
        "\t}",
        "",
        "\n\n".join(setups),
        "",
        '\tif err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {',
        '\t\tsetupLog.Error(err, "unable to set up health check")',
        "\t\tos.Exit(1)",
        "\t}",
        '\tif err := mgr.AddReadyzCheck("readyz", healthz.Ping); err != nil {',
        '\t\tsetupLog.Error(err, "unable to set up ready check")',
        "\t\tos.Exit(1)",
        "\t}",
        "",
        '\tsetupLog.Info("starting manager")',
        "\tif err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {",
        '\t\tsetupLog.Error(err, "problem running manager")',
        "\t\tos.Exit(1)",
        "\t}",
        "}",
    ]
    return "\n".join(lines)
