"""An operator module's vendor/ folder: look-alike third-party code, skipped by watchlint, scanned by tools
that do not skip it."""

from __future__ import annotations

import random

from synthetic.utilities import GO_UTILITIES
from synthetic.vocabulary import CRD_KINDS, Era, go_imports
from synthetic.writer import Writer


def write_vendor(rng: random.Random, base: str, era: Era, writer: Writer) -> None:
    """A vendored copy of a made-up operator toolkit, github.com/acmecloud/opkit."""
    root = f"{base}/vendor/github.com/acmecloud/opkit"
    modules = (
        "# github.com/acmecloud/opkit v0.8.3\n## explicit; go 1.20\n"
        "github.com/acmecloud/opkit/secrets\ngithub.com/acmecloud/opkit/watchers\n"
        "github.com/acmecloud/opkit/leader\ngithub.com/acmecloud/opkit/apis/v1alpha1\n"
        "# github.com/fernwood/kit v1.2.0\n## explicit; go 1.19\ngithub.com/fernwood/kit/retry\n"
        f"# sigs.k8s.io/controller-runtime {era.controller_runtime}\n## explicit; go 1.20\n"
    )
    writer.write(f"{base}/vendor/modules.txt", modules, "vendor-other")
    writer.write(f"{root}/secrets/secrets.go", _vendor_secrets(), "go-vendor")
    writer.write(f"{root}/watchers/watchers.go", _vendor_watchers(era), "go-vendor")
    writer.write(f"{root}/leader/leader.go", _vendor_leader(), "go-vendor")
    for util in sorted(GO_UTILITIES):
        writer.write(f"{root}/internal/{util}/{util}.go", GO_UTILITIES[util](rng, util), "go-vendor")
    writer.write(f"{root}/apis/v1alpha1/types.go", _vendor_types(rng), "go-vendor")
    for util in sorted(GO_UTILITIES):  # a second, dependency-free library the toolkit pulls in
        relative = f"{base}/vendor/github.com/fernwood/kit/{util}/{util}.go"
        writer.write(relative, GO_UTILITIES[util](rng, util), "go-vendor")
    writer.write(f"{root}/LICENSE", "Apache License 2.0 (look-alike, benchmark data)\n", "vendor-other")


def _vendor_types(rng: random.Random) -> str:
    """API types of the toolkit's own resources: many small structs, as vendored API packages are."""
    parts = [
        "// Package v1alpha1 holds the toolkit's shared API types.",
        "package v1alpha1",
        "",
        'import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"',
    ]
    for kind in rng.sample(CRD_KINDS, 12):
        parts += [
            "",
            f"// {kind}Reference points at a {kind} in the same namespace.",
            f"type {kind}Reference struct {{",
            '\tName string `json:"name"`',
            "\t// +optional",
            '\tNamespace string `json:"namespace,omitempty"`',
            "}",
            "",
            f"// {kind}Health is the health a {kind} reports.",
            f"type {kind}Health struct {{",
            '\tReady bool `json:"ready"`',
            '\tReason string `json:"reason,omitempty"`',
            '\tLastProbe metav1.Time `json:"lastProbe,omitempty"`',
            '\tFailures int32 `json:"failures,omitempty"`',
            "}",
            "",
            "// IsZero reports whether the reference is unset.",
            f"func (r {kind}Reference) IsZero() bool {{",
            '\treturn r.Name == ""',
            "}",
        ]
    return "\n".join(parts) + "\n"


def _vendor_secrets() -> str:
    return (
        "// Package secrets reads credentials for operators.\n"
        "package secrets\n\n"
        + go_imports(
            [("", "context"), ("", "errors"), ("", "fmt")],
            [
                [
                    ("corev1", "k8s.io/api/core/v1"),
                    ("", "k8s.io/apimachinery/pkg/types"),
                    ("", "sigs.k8s.io/controller-runtime/pkg/client"),
                ]
            ],
        )
        + "\n// ErrMissingKey is returned when a Secret lacks the requested key.\n"
        'var ErrMissingKey = errors.New("secrets: missing key")\n\n'
        "// Loader reads credentials from Secrets.\n"
        "type Loader struct {\n\tClient client.Client\n}\n\n"
        "// Credentials returns the username and password stored in a basic-auth Secret.\n"
        "func (l *Loader) Credentials(ctx context.Context, namespace, name string) (string, string, error) {\n"
        "\tvar secret corev1.Secret\n"
        "\tif err := l.Client.Get(ctx, types.NamespacedName{Namespace: namespace, Name: name}, &secret); err != nil {\n"
        '\t\treturn "", "", fmt.Errorf("get secret: %w", err)\n'
        "\t}\n"
        '\tuser, ok := secret.Data["username"]\n'
        "\tif !ok {\n"
        '\t\treturn "", "", ErrMissingKey\n'
        "\t}\n"
        '\treturn string(user), string(secret.Data["password"]), nil\n'
        "}\n\n"
        "// All lists the Secrets of a type in a namespace.\n"
        "func (l *Loader) All(ctx context.Context, namespace string, secretType corev1.SecretType) "
        "([]corev1.Secret, error) {\n"
        "\tvar secrets corev1.SecretList\n"
        "\tif err := l.Client.List(ctx, &secrets, client.InNamespace(namespace)); err != nil {\n"
        "\t\treturn nil, err\n"
        "\t}\n"
        "\tvar out []corev1.Secret\n"
        "\tfor _, s := range secrets.Items {\n"
        "\t\tif s.Type == secretType {\n\t\t\tout = append(out, s)\n\t\t}\n"
        "\t}\n"
        "\treturn out, nil\n"
        "}\n\n"
        "// ConfigFor returns the ConfigMap that configures a component.\n"
        "func (l *Loader) ConfigFor(ctx context.Context, namespace, component string) (*corev1.ConfigMap, error) {\n"
        "\tvar cm corev1.ConfigMap\n"
        '\tkey := types.NamespacedName{Namespace: namespace, Name: component + "-config"}\n'
        "\tif err := l.Client.Get(ctx, key, &cm); err != nil {\n"
        "\t\treturn nil, err\n"
        "\t}\n"
        "\treturn &cm, nil\n"
        "}\n"
    )


def _vendor_watchers(era: Era) -> str:
    if era.minor >= 15:
        watch = "\t\tWatches(&corev1.Secret{}, &handler.EnqueueRequestForObject{}).\n"
        imports = []
    else:
        watch = "\t\tWatches(&source.Kind{Type: &corev1.Secret{}}, &handler.EnqueueRequestForObject{}).\n"
        imports = [("", "sigs.k8s.io/controller-runtime/pkg/source")]
    return (
        "// Package watchers wires common watches into a controller.\n"
        "package watchers\n\n"
        + go_imports(
            [("", "context")],
            [
                [
                    ("corev1", "k8s.io/api/core/v1"),
                    ("ctrl", "sigs.k8s.io/controller-runtime"),
                    ("", "sigs.k8s.io/controller-runtime/pkg/client"),
                    ("", "sigs.k8s.io/controller-runtime/pkg/handler"),
                    ("", "sigs.k8s.io/controller-runtime/pkg/reconcile"),
                    *imports,
                ]
            ],
        )
        + "\n// SecretRotation requeues the owner of a Secret whenever the Secret changes.\n"
        "type SecretRotation struct {\n\tClient client.Client\n}\n\n"
        "// Reconcile restarts the pods that mount the rotated Secret.\n"
        "func (s *SecretRotation) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {\n"
        "\tvar secret corev1.Secret\n"
        "\tif err := s.Client.Get(ctx, req.NamespacedName, &secret); err != nil {\n"
        "\t\treturn reconcile.Result{}, client.IgnoreNotFound(err)\n"
        "\t}\n"
        "\tvar pods corev1.PodList\n"
        "\tif err := s.Client.List(ctx, &pods, client.InNamespace(req.Namespace)); err != nil {\n"
        "\t\treturn reconcile.Result{}, err\n"
        "\t}\n"
        "\tfor i := range pods.Items {\n"
        "\t\tif mounts(&pods.Items[i], secret.Name) {\n"
        "\t\t\tif err := s.Client.Delete(ctx, &pods.Items[i]); err != nil {\n"
        "\t\t\t\treturn reconcile.Result{}, client.IgnoreNotFound(err)\n"
        "\t\t\t}\n"
        "\t\t}\n"
        "\t}\n"
        "\treturn reconcile.Result{}, nil\n"
        "}\n\n"
        "func mounts(pod *corev1.Pod, secret string) bool {\n"
        "\tfor _, v := range pod.Spec.Volumes {\n"
        "\t\tif v.Secret != nil && v.Secret.SecretName == secret {\n\t\t\treturn true\n\t\t}\n"
        "\t}\n"
        "\treturn false\n"
        "}\n\n"
        "// SetupWithManager registers the rotation controller.\n"
        "func (s *SecretRotation) SetupWithManager(mgr ctrl.Manager) error {\n"
        "\treturn ctrl.NewControllerManagedBy(mgr).\n"
        '\t\tNamed("opkit-secret-rotation").\n'
        "\t\tFor(&corev1.Secret{}).\n"
        "\t\tOwns(&corev1.Pod{}).\n" + watch + "\t\tComplete(s)\n"
        "}\n"
    )


def _vendor_leader() -> str:
    return (
        "// Package leader records which replica leads, in a ConfigMap.\n"
        "package leader\n\n"
        + go_imports(
            [("", "context"), ("", "os"), ("", "time")],
            [
                [
                    ("corev1", "k8s.io/api/core/v1"),
                    ("metav1", "k8s.io/apimachinery/pkg/apis/meta/v1"),
                    ("", "sigs.k8s.io/controller-runtime/pkg/client"),
                ]
            ],
        )
        + "\n// Record writes the identity of the current leader.\n"
        "func Record(ctx context.Context, c client.Client, namespace, name string) error {\n"
        "\thost, _ := os.Hostname()\n"
        "\tcm := &corev1.ConfigMap{\n"
        "\t\tObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},\n"
        '\t\tData:       map[string]string{"holder": host, "since": time.Now().UTC().Format(time.RFC3339)},\n'
        "\t}\n"
        "\tvar existing corev1.ConfigMap\n"
        "\tif err := c.Get(ctx, client.ObjectKeyFromObject(cm), &existing); err != nil {\n"
        "\t\treturn c.Create(ctx, cm)\n"
        "\t}\n"
        "\texisting.Data = cm.Data\n"
        "\treturn c.Update(ctx, &existing)\n"
        "}\n"
    )
