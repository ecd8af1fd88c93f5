"""An operator module's API package (groupversion_info.go, one <kind>_types.go per CRD) and, in some
modules, the typed clients of a client-gen clientset."""

from __future__ import annotations

import random

from synthetic.operator_plan import OperatorPlan
from synthetic.vocabulary import go_imports, lower_first, plural_of


def groupversion(operator: OperatorPlan) -> str:
    return (
        f"// Package v1 contains API Schema definitions for the {operator.group} v1 API group.\n"
        "// +kubebuilder:object:generate=true\n"
        f"// +groupName={operator.group}\n"
        "package v1\n\n"
        "import (\n"
        '\t"k8s.io/apimachinery/pkg/runtime/schema"\n'
        '\t"sigs.k8s.io/controller-runtime/pkg/scheme"\n'
        ")\n\n"
        "var (\n"
        "\t// GroupVersion is group version used to register these objects.\n"
        f'\tGroupVersion = schema.GroupVersion{{Group: "{operator.group}", Version: "v1"}}\n\n'
        "\t// SchemeBuilder is used to add go types to the GroupVersionKind scheme.\n"
        "\tSchemeBuilder = &scheme.Builder{GroupVersion: GroupVersion}\n\n"
        "\t// AddToScheme adds the types in this group-version to the given scheme.\n"
        "\tAddToScheme = SchemeBuilder.AddToScheme\n"
        ")\n"
    )


def spec_fields(operator: OperatorPlan, kind: str) -> list[tuple[str, str, str]]:
    """(name, Go type, json name) of a kind's spec, drawn once per kind from its own seed."""
    rng = random.Random(f"{operator.module}/{kind}")
    pool = [
        ("Replicas", "*int32", "replicas"),
        ("Image", "string", "image"),
        ("Version", "string", "version"),
        ("SecretRef", "string", "secretRef"),
        ("ConfigMapRef", "string", "configMapRef"),
        ("ServiceAccountName", "string", "serviceAccountName"),
        ("Paused", "bool", "paused"),
        ("Schedule", "string", "schedule"),
        ("Retention", "int32", "retention"),
        ("StorageSize", "string", "storageSize"),
        ("Labels", "map[string]string", "labels"),
        ("Annotations", "map[string]string", "annotations"),
        ("Endpoints", "[]string", "endpoints"),
        ("Port", "int32", "port"),
        ("TLS", "*TLSSpec", "tls"),
        ("Resources", "corev1.ResourceRequirements", "resources"),
        ("Suspend", "*bool", "suspend"),
        ("Tier", "string", "tier"),
    ]
    chosen = rng.sample(pool, rng.randint(6, 12))
    return sorted(chosen, key=pool.index)


def types(operator: OperatorPlan, kind: str) -> str:
    fields = spec_fields(operator, kind)
    uses_core = any(go_type.startswith("corev1.") for _, go_type, _ in fields)
    uses_tls = any(go_type == "*TLSSpec" for _, go_type, _ in fields)
    imports = [("metav1", "k8s.io/apimachinery/pkg/apis/meta/v1")]
    if uses_core:
        imports.append(("corev1", "k8s.io/api/core/v1"))
    spec_lines = []
    for name, go_type, json_name in fields:
        spec_lines.append(f"\t// {name} of the {kind}.")
        if go_type.startswith(("*", "map", "[]", "bool")) or name in ("Paused", "Tier"):
            spec_lines.append("\t// +optional")
        if name == "Replicas":
            spec_lines.append("\t// +kubebuilder:validation:Minimum=0")
        if name == "Tier":
            spec_lines.append("\t// +kubebuilder:validation:Enum=bronze;silver;gold")
        omit = ",omitempty" if go_type.startswith(("*", "map", "[]")) or go_type == "bool" else ""
        spec_lines.append(f'\t{name} {go_type} `json:"{json_name}{omit}"`')
        spec_lines.append("")
    tls = ""
    if uses_tls:
        tls = (
            f"\n// TLSSpec configures TLS for a {kind}.\n"
            "type TLSSpec struct {\n"
            "\t// SecretName holds the certificate and key.\n"
            '\tSecretName string `json:"secretName"`\n'
            "\t// +optional\n"
            '\tInsecureSkipVerify bool `json:"insecureSkipVerify,omitempty"`\n'
            "}\n"
        )
    plural = plural_of(kind)
    short = kind[:3].lower()
    return (
        "package v1\n\n"
        + go_imports(imports)
        + "\n"
        + f"// {kind}Spec defines the desired state of {kind}.\n"
        + f"type {kind}Spec struct {{\n"
        + "\n".join(spec_lines).rstrip()
        + "\n}\n"
        + tls
        + f"\n// {kind}Status defines the observed state of {kind}.\n"
        + f"type {kind}Status struct {{\n"
        + "\t// ObservedGeneration is the last generation reconciled.\n"
        + "\t// +optional\n"
        + '\tObservedGeneration int64 `json:"observedGeneration,omitempty"`\n\n'
        + "\t// Phase summarises the conditions.\n"
        + "\t// +optional\n"
        + '\tPhase string `json:"phase,omitempty"`\n\n'
        + "\t// Conditions of the resource.\n"
        + "\t// +listType=map\n"
        + "\t// +listMapKey=type\n"
        + "\t// +optional\n"
        + '\tConditions []metav1.Condition `json:"conditions,omitempty"`\n'
        + "}\n\n"
        + "// +kubebuilder:object:root=true\n"
        + "// +kubebuilder:subresource:status\n"
        + f"// +kubebuilder:resource:shortName={short}\n"
        + '// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`\n\n'
        + f"// {kind} is the Schema for the {plural} API.\n"
        + f"type {kind} struct {{\n"
        + '\tmetav1.TypeMeta   `json:",inline"`\n'
        + '\tmetav1.ObjectMeta `json:"metadata,omitempty"`\n\n'
        + f'\tSpec   {kind}Spec   `json:"spec,omitempty"`\n'
        + f'\tStatus {kind}Status `json:"status,omitempty"`\n'
        + "}\n\n"
        + "// +kubebuilder:object:root=true\n\n"
        + f"// {kind}List contains a list of {kind}.\n"
        + f"type {kind}List struct {{\n"
        + '\tmetav1.TypeMeta `json:",inline"`\n'
        + '\tmetav1.ListMeta `json:"metadata,omitempty"`\n'
        + f'\tItems           []{kind} `json:"items"`\n'
        + "}\n\n"
        + "func init() {\n"
        + f"\tSchemeBuilder.Register(&{kind}{{}}, &{kind}List{{}})\n"
        + "}\n"
    )


def typed_client(operator: OperatorPlan, kind: str) -> str:
    lower = lower_first(kind)
    plural = plural_of(kind)
    return (
        "// Code generated by client-gen. DO NOT EDIT.\n\n"
        "package v1\n\n"
        + go_imports(
            [("", "context")],
            [
                [
                    ("metav1", "k8s.io/apimachinery/pkg/apis/meta/v1"),
                    ("", "k8s.io/apimachinery/pkg/types"),
                    ("", "k8s.io/apimachinery/pkg/watch"),
                    ("", "k8s.io/client-go/rest"),
                    ("v1", f"{operator.module}/api/v1"),
                ]
            ],
        )
        + f"\n// {kind}sGetter has a method to return a {kind}Interface.\n"
        + f"type {kind}sGetter interface {{\n\t{kind}s(namespace string) {kind}Interface\n}}\n\n"
        + f"// {kind}Interface has methods to work with {kind} resources.\n"
        + f"type {kind}Interface interface {{\n"
        + f"\tCreate(ctx context.Context, {lower} *v1.{kind}, opts metav1.CreateOptions) (*v1.{kind}, error)\n"
        + f"\tUpdate(ctx context.Context, {lower} *v1.{kind}, opts metav1.UpdateOptions) (*v1.{kind}, error)\n"
        + "\tDelete(ctx context.Context, name string, opts metav1.DeleteOptions) error\n"
        + f"\tGet(ctx context.Context, name string, opts metav1.GetOptions) (*v1.{kind}, error)\n"
        + f"\tList(ctx context.Context, opts metav1.ListOptions) (*v1.{kind}List, error)\n"
        + "\tWatch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)\n"
        + "\tPatch(ctx context.Context, name string, pt types.PatchType, data []byte, "
        + f"opts metav1.PatchOptions, subresources ...string) (result *v1.{kind}, err error)\n"
        + "}\n\n"
        + f"type {plural} struct {{\n\tclient rest.Interface\n\tns     string\n}}\n\n"
        + f"// Get takes name of the {lower}, and returns the corresponding object.\n"
        + f"func (c *{plural}) Get(ctx context.Context, name string, options metav1.GetOptions) "
        + f"(result *v1.{kind}, err error) {{\n"
        + f"\tresult = &v1.{kind}{{}}\n"
        + f'\terr = c.client.Get().Namespace(c.ns).Resource("{plural}").Name(name).\n'
        + "\t\tVersionedParams(&options, nil).Do(ctx).Into(result)\n\treturn\n}\n\n"
        + f"// List takes label and field selectors, and returns the list of {kind}s that match.\n"
        + f"func (c *{plural}) List(ctx context.Context, opts metav1.ListOptions) "
        + f"(result *v1.{kind}List, err error) {{\n"
        + f"\tresult = &v1.{kind}List{{}}\n"
        + f'\terr = c.client.Get().Namespace(c.ns).Resource("{plural}").\n'
        + "\t\tVersionedParams(&opts, nil).Do(ctx).Into(result)\n\treturn\n}\n\n"
        + f"// Watch returns a watch.Interface that watches the requested {plural}.\n"
        + f"func (c *{plural}) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {{\n"
        + "\topts.Watch = true\n"
        + f'\treturn c.client.Get().Namespace(c.ns).Resource("{plural}").\n'
        + "\t\tVersionedParams(&opts, nil).Watch(ctx)\n}\n\n"
        + f"// Delete takes name of the {lower} and deletes it.\n"
        + f"func (c *{plural}) Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error {{\n"
        + f'\treturn c.client.Delete().Namespace(c.ns).Resource("{plural}").Name(name).\n'
        + "\t\tBody(&opts).Do(ctx).Error()\n}\n"
    )
