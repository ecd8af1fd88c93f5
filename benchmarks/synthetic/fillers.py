"""The filler functions a reconciler file carries besides its Reconcile (GO_FILLERS), and the imports a
reconciler file may need."""

from __future__ import annotations

from synthetic.vocabulary import lower_first


# Pure helpers a reconciler file carries besides its Reconcile: (kind, object type, builtin) -> Go source.
def _filler_spec_hash(kind: str, object_type: str, builtin: bool) -> str:
    source = "obj.Labels" if builtin else "obj.Spec"
    return (
        f"// {lower_first(kind)}SpecHash fingerprints the desired state, to skip no-op updates.\n"
        f"func {lower_first(kind)}SpecHash(obj *{object_type}) string {{\n"
        "\th := sha256.New()\n"
        f'\t_, _ = fmt.Fprintf(h, "%v", {source})\n'
        "\treturn hex.EncodeToString(h.Sum(nil))[:16]\n"
        "}"
    )


def _filler_backoff(kind: str, object_type: str, builtin: bool) -> str:
    return (
        f"// {lower_first(kind)}Backoff grows the requeue delay with the number of failed attempts.\n"
        f"func {lower_first(kind)}Backoff(attempts int) time.Duration {{\n"
        "\tdelay := 5 * time.Second\n"
        "\tfor i := 0; i < attempts && delay < 5*time.Minute; i++ {\n"
        "\t\tdelay *= 2\n"
        "\t}\n"
        "\tif delay > 5*time.Minute {\n"
        "\t\tdelay = 5 * time.Minute\n"
        "\t}\n"
        "\treturn delay\n"
        "}"
    )


def _filler_validate(kind: str, object_type: str, builtin: bool) -> str:
    return (
        f"// validate{kind}Name rejects names that cannot prefix the dependents' names.\n"
        f"func validate{kind}Name(name string) error {{\n"
        "\tif len(name) > 52 {\n"
        '\t\treturn fmt.Errorf("name %q is longer than 52 characters", name)\n'
        "\t}\n"
        '\tif strings.ContainsAny(name, "._") {\n'
        '\t\treturn fmt.Errorf("name %q must be a DNS label", name)\n'
        "\t}\n"
        "\treturn nil\n"
        "}"
    )


def _filler_sorted_keys(kind: str, object_type: str, builtin: bool) -> str:
    return (
        f"// {lower_first(kind)}AnnotationKeys returns the operator's annotation keys of an object, sorted.\n"
        f"func {lower_first(kind)}AnnotationKeys(obj *{object_type}) []string {{\n"
        "\tvar keys []string\n"
        "\tfor key := range obj.GetAnnotations() {\n"
        '\t\tif strings.HasPrefix(key, "operator.example.com/") {\n'
        "\t\t\tkeys = append(keys, key)\n"
        "\t\t}\n"
        "\t}\n"
        "\tsort.Strings(keys)\n"
        "\treturn keys\n"
        "}"
    )


def _filler_condition(kind: str, object_type: str, builtin: bool) -> str:
    return (
        f"// {lower_first(kind)}Degraded builds the condition reported when a dependent fails.\n"
        f"func {lower_first(kind)}Degraded(generation int64, reason string, err error) metav1.Condition {{\n"
        "\treturn metav1.Condition{\n"
        '\t\tType:               "Degraded",\n'
        "\t\tStatus:             metav1.ConditionTrue,\n"
        "\t\tObservedGeneration: generation,\n"
        "\t\tReason:             reason,\n"
        "\t\tMessage:            err.Error(),\n"
        "\t\tLastTransitionTime: metav1.Now(),\n"
        "\t}\n"
        "}"
    )


def _filler_diff(kind: str, object_type: str, builtin: bool) -> str:
    return (
        f"// {lower_first(kind)}ChangedKeys lists the keys whose values differ between two maps.\n"
        f"func {lower_first(kind)}ChangedKeys(before, after map[string]string) []string {{\n"
        "\tchanged := []string{}\n"
        "\tfor key, value := range after {\n"
        "\t\tif old, ok := before[key]; !ok || old != value {\n"
        "\t\t\tchanged = append(changed, key)\n"
        "\t\t}\n"
        "\t}\n"
        "\tfor key := range before {\n"
        "\t\tif _, ok := after[key]; !ok {\n"
        "\t\t\tchanged = append(changed, key)\n"
        "\t\t}\n"
        "\t}\n"
        "\tsort.Strings(changed)\n"
        "\treturn changed\n"
        "}"
    )


def _filler_event_reason(kind: str, object_type: str, builtin: bool) -> str:
    return (
        f"// {lower_first(kind)}EventReason turns an error into a short CamelCase event reason.\n"
        f"func {lower_first(kind)}EventReason(err error) string {{\n"
        "\tswitch {\n"
        "\tcase err == nil:\n"
        '\t\treturn "Reconciled"\n'
        '\tcase strings.Contains(err.Error(), "forbidden"):\n'
        '\t\treturn "Forbidden"\n'
        '\tcase strings.Contains(err.Error(), "conflict"):\n'
        '\t\treturn "Conflict"\n'
        '\tcase strings.Contains(err.Error(), "timeout"):\n'
        '\t\treturn "Timeout"\n'
        "\tdefault:\n"
        '\t\treturn "Failed"\n'
        "\t}\n"
        "}"
    )


CONTROLLER_STD_IMPORTS = (
    ("", "context"),
    ("", "crypto/sha256"),
    ("", "encoding/hex"),
    ("", "fmt"),
    ("", "sort"),
    ("", "strings"),
    ("", "time"),
)
CONTROLLER_K8S_IMPORTS = (
    ("", "k8s.io/apimachinery/pkg/api/errors"),
    ("", "k8s.io/apimachinery/pkg/api/meta"),
    ("metav1", "k8s.io/apimachinery/pkg/apis/meta/v1"),
    ("", "k8s.io/apimachinery/pkg/runtime"),
    ("", "k8s.io/apimachinery/pkg/types"),
    ("", "k8s.io/client-go/tools/record"),
    ("ctrl", "sigs.k8s.io/controller-runtime"),
    ("", "sigs.k8s.io/controller-runtime/pkg/builder"),
    ("", "sigs.k8s.io/controller-runtime/pkg/client"),
    ("", "sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"),
    ("", "sigs.k8s.io/controller-runtime/pkg/handler"),
    ("", "sigs.k8s.io/controller-runtime/pkg/log"),
    ("", "sigs.k8s.io/controller-runtime/pkg/predicate"),
    ("", "sigs.k8s.io/controller-runtime/pkg/reconcile"),
    ("", "sigs.k8s.io/controller-runtime/pkg/source"),
)

GO_FILLERS = {
    "spec-hash": _filler_spec_hash,
    "backoff": _filler_backoff,
    "validate": _filler_validate,
    "sorted-keys": _filler_sorted_keys,
    "condition": _filler_condition,
    "diff": _filler_diff,
    "event-reason": _filler_event_reason,
}
