"""The files beside an operator module's reconcilers: the controller package's common.go and envtest tests,
and the helper package that takes a client."""

from __future__ import annotations

from synthetic.operator_plan import Controller, OperatorPlan
from synthetic.vocabulary import BUILTIN, go_imports, lower_first


def common(operator: OperatorPlan) -> str:
    return (
        f"package {operator.controller_package}\n\n"
        'import (\n\t"sort"\n\t"strings"\n)\n\n'
        "const (\n"
        "\t// instanceLabel names the custom resource a dependent belongs to.\n"
        '\tinstanceLabel = "app.kubernetes.io/instance"\n'
        "\t// managedByLabel names the operator that manages a dependent.\n"
        '\tmanagedByLabel = "app.kubernetes.io/managed-by"\n'
        ")\n\n"
        "// mergeLabels returns the union of the label maps; later maps win.\n"
        "func mergeLabels(maps ...map[string]string) map[string]string {\n"
        "\tout := map[string]string{}\n"
        "\tfor _, m := range maps {\n"
        "\t\tfor k, v := range m {\n"
        "\t\t\tout[k] = v\n"
        "\t\t}\n"
        "\t}\n"
        "\treturn out\n"
        "}\n\n"
        "// labelSummary renders labels as a stable, comma-separated list.\n"
        "func labelSummary(labels map[string]string) string {\n"
        "\tkeys := make([]string, 0, len(labels))\n"
        "\tfor k := range labels {\n"
        "\t\tkeys = append(keys, k)\n"
        "\t}\n"
        "\tsort.Strings(keys)\n"
        "\tparts := make([]string, 0, len(keys))\n"
        "\tfor _, k := range keys {\n"
        '\t\tparts = append(parts, k+"="+labels[k])\n'
        "\t}\n"
        '\treturn strings.Join(parts, ",")\n'
        "}\n"
    )


def suite_test(operator: OperatorPlan) -> str:
    return (
        f"package {operator.controller_package}\n\n"
        + go_imports(
            [("", "path/filepath"), ("", "testing")],
            [
                [
                    ("", "k8s.io/client-go/kubernetes/scheme"),
                    ("", "sigs.k8s.io/controller-runtime/pkg/client"),
                    ("", "sigs.k8s.io/controller-runtime/pkg/envtest"),
                ]
            ],
        )
        + "\nvar k8sClient client.Client\n\n"
        "func TestMain(m *testing.M) {\n"
        "\ttestEnv := &envtest.Environment{\n"
        '\t\tCRDDirectoryPaths:     []string{filepath.Join("..", "..", "config", "crd", "bases")},\n'
        "\t\tErrorIfCRDPathMissing: true,\n"
        "\t}\n"
        "\tcfg, err := testEnv.Start()\n"
        "\tif err != nil {\n"
        "\t\tpanic(err)\n"
        "\t}\n"
        "\tk8sClient, err = client.New(cfg, client.Options{Scheme: scheme.Scheme})\n"
        "\tif err != nil {\n"
        "\t\tpanic(err)\n"
        "\t}\n"
        "\tcode := m.Run()\n"
        "\t_ = testEnv.Stop()\n"
        "\tif code != 0 {\n"
        "\t\tpanic(code)\n"
        "\t}\n"
        "}\n"
    )


def controller_test(operator: OperatorPlan, plan: Controller) -> str:
    kind = plan.kind
    var = lower_first(kind)
    object_type = f"{BUILTIN[kind][0]}.{kind}" if plan.builtin else f"{operator.group_alias}.{kind}"
    imports = [("metav1", "k8s.io/apimachinery/pkg/apis/meta/v1"), ("", "k8s.io/apimachinery/pkg/types")]
    imports.append(("corev1", "k8s.io/api/core/v1"))
    if plan.builtin:
        imports.append((BUILTIN[kind][0], BUILTIN[kind][1]))
    own = [] if plan.builtin else [(operator.group_alias, f"{operator.module}/api/v1")]
    return (
        f"package {operator.controller_package}\n\n"
        + go_imports([("", "context"), ("", "testing")], [imports, own])
        + f"\nfunc Test{kind}Reconcile(t *testing.T) {{\n"
        "\tctx := context.Background()\n"
        f'\tobj := &{object_type}{{ObjectMeta: metav1.ObjectMeta{{Name: "test", Namespace: "default"}}}}\n'
        "\tif err := k8sClient.Create(ctx, obj); err != nil {\n"
        "\t\tt.Fatal(err)\n"
        "\t}\n"
        f"\tvar {var} {object_type}\n"
        '\tkey := types.NamespacedName{Namespace: "default", Name: "test"}\n'
        f"\tif err := k8sClient.Get(ctx, key, &{var}); err != nil {{\n"
        "\t\tt.Fatal(err)\n"
        "\t}\n"
        "\tvar secret corev1.Secret\n"
        '\tif err := k8sClient.Get(ctx, types.NamespacedName{Namespace: "default", Name: "creds"}, '
        "&secret); err == nil {\n"
        '\t\tt.Fatal("unexpected secret")\n'
        "\t}\n"
        "}\n"
    )


# -- helper package ------------------------------------------------------------------------------


def helper_configmaps(operator: OperatorPlan) -> str:
    return (
        f"// Package {operator.helper_package} creates and reads the dependents of the {operator.name}.\n"
        f"package {operator.helper_package}\n\n"
        + go_imports(
            [("", "context"), ("", "fmt"), ("", "reflect")],
            [
                [
                    ("corev1", "k8s.io/api/core/v1"),
                    ("apierrors", "k8s.io/apimachinery/pkg/api/errors"),
                    ("", "sigs.k8s.io/controller-runtime/pkg/client"),
                ]
            ],
        )
        + "\n// EnsureConfigMap creates the ConfigMap, or updates its data when it drifted.\n"
        "func EnsureConfigMap(ctx context.Context, c client.Client, desired *corev1.ConfigMap) error {\n"
        "\tvar existing corev1.ConfigMap\n"
        "\terr := c.Get(ctx, client.ObjectKeyFromObject(desired), &existing)\n"
        "\tif apierrors.IsNotFound(err) {\n"
        "\t\treturn c.Create(ctx, desired)\n"
        "\t}\n"
        "\tif err != nil {\n"
        '\t\treturn fmt.Errorf("get configmap %s: %w", desired.Name, err)\n'
        "\t}\n"
        "\tif reflect.DeepEqual(existing.Data, desired.Data) {\n"
        "\t\treturn nil\n"
        "\t}\n"
        "\texisting.Data = desired.Data\n"
        "\treturn c.Update(ctx, &existing)\n"
        "}\n\n"
        "// ConfigValue returns one key of a ConfigMap, or the fallback.\n"
        "func ConfigValue(ctx context.Context, c client.Reader, namespace, name, key, fallback string) "
        "(string, error) {\n"
        "\tcm := &corev1.ConfigMap{}\n"
        "\tif err := c.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, cm); err != nil {\n"
        "\t\treturn fallback, client.IgnoreNotFound(err)\n"
        "\t}\n"
        "\tif value, ok := cm.Data[key]; ok {\n"
        "\t\treturn value, nil\n"
        "\t}\n"
        "\treturn fallback, nil\n"
        "}\n"
    )


def helper_secrets(operator: OperatorPlan) -> str:
    return (
        f"package {operator.helper_package}\n\n"
        + go_imports(
            [("", "context"), ("", "fmt")],
            [[("corev1", "k8s.io/api/core/v1"), ("", "sigs.k8s.io/controller-runtime/pkg/client")]],
        )
        + "\n// SecretValue returns one key of a Secret.\n"
        "func SecretValue(ctx context.Context, c client.Reader, namespace, name, key string) ([]byte, error) {\n"
        "\tvar secret corev1.Secret\n"
        "\tif err := c.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, &secret); err != nil {\n"
        "\t\treturn nil, err\n"
        "\t}\n"
        "\tvalue, ok := secret.Data[key]\n"
        "\tif !ok {\n"
        '\t\treturn nil, fmt.Errorf("secret %s/%s has no key %q", namespace, name, key)\n'
        "\t}\n"
        "\treturn value, nil\n"
        "}\n\n"
        "// RedactedKeys lists the keys of a Secret without their values, for logs.\n"
        "func RedactedKeys(secret *corev1.Secret) []string {\n"
        "\tkeys := make([]string, 0, len(secret.Data))\n"
        "\tfor k := range secret.Data {\n"
        "\t\tkeys = append(keys, k)\n"
        "\t}\n"
        "\treturn keys\n"
        "}\n"
    )
