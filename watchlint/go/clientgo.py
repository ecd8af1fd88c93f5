"""client-go sites: clientset calls and informer factories, each with the namespace and selectors it lists with
(SPEC §3.1); the informers no factory builds are in informers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial

import tree_sitter

from watchlint.catalog import KindIndex
from watchlint.facts import Access, Evidence, Mitigation, ObjectForm, Operation, Restriction
from watchlint.go import parser
from watchlint.go.declarations import FunctionInfo, FunctionKey
from watchlint.go.dispatch import MethodIndex
from watchlint.go.heldclients import HeldClient, kind_client, read_key, same_key, typed_accessor
from watchlint.go.listoptions import ListOptionsReader, one_page
from watchlint.go.model import INFORMERS, KNATIVE_INFORMERS, GoFile, TypeRef, call_parts
from watchlint.go.pending import (
    PendingSite,
    calls_in,
    guard_added,
    method_name,
    names_every_namespace,
    operand_of,
    pending_site,
    restrict_namespace,
)
from watchlint.go.resolve import ObjectRef, Resolver, assigned_to, is_slice_literal, keyed_elements, literal_items
from watchlint.go.scope import innermost_function, returned_values
from watchlint.go.values import ValueTracer

_LIBRARY_GO_HELPERS = "github.com/openshift/library-go/pkg/operator/v1helpers"  # KubeInformersForNamespaces
# client-go's dynamic and metadata clients, by the form of the objects they return
_DYNAMIC_CLIENTS = {
    "k8s.io/client-go/dynamic": ObjectForm.UNSTRUCTURED,
    "k8s.io/client-go/metadata": ObjectForm.METADATA,
}
# KubeInformersForNamespaces' listers across its factories, by the kind each lists
_COMBINED_LISTERS = {"SecretLister": "Secret", "ConfigMapLister": "ConfigMap", "PodLister": "Pod"}
_KNATIVE_FACTORY = f"{KNATIVE_INFORMERS}/factory"  # `factory.Get(ctx)`: the factory the injected informers share
_KNATIVE_SYSTEM_FACTORY = "knative.dev/pkg/injection/clients/namespacedkube/informers/factory"

# The informer factories whose ForResource(gvr) registers an informer, and what it keeps of each object:
# client-go's typed objects, the dynamic client's unstructured ones (whole objects too), metadata only.
_RESOURCE_FACTORIES = {
    INFORMERS: ObjectForm.TYPED,
    "k8s.io/client-go/dynamic/dynamicinformer": ObjectForm.TYPED,
    "k8s.io/client-go/metadata/metadatainformer": ObjectForm.METADATA,
}
_SHOWN_RECEIVER = 32  # the longest field read a held client's call is shown with
# library-go's constructors of KubeInformersForNamespaces
_LIBRARY_GO_CONSTRUCTORS = frozenset({"NewKubeInformersForNamespaces", "NewKubeInformersForNamespacesWithResyncPeriod"})
# fields, getters and parameters a factory is handed through: descheduler's goes through a struct field, a constructor,
# a functional option, its options struct and the handle's getter
_FIELD_HOPS = 6
_FILTERED_FACTORIES = frozenset({"NewFilteredSharedInformerFactory", "NewFilteredDynamicSharedInformerFactory"})
# what an informer of a factory parameter or field is judged by until its factories are seen, and where a
# parameter's function has no call in the module
_BUILT_ELSEWHERE = "informer factory built elsewhere"
# the packages declaring the framework.Handle kube-scheduler gives its plugins (its staging copy since v1.34)
_SCHEDULER_FRAMEWORKS = frozenset({"k8s.io/kubernetes/pkg/scheduler/framework", "k8s.io/kube-scheduler/framework"})
# the fields holding the informer factory a controller manager framework builds over every namespace, with the
# packages of the structs holding them: a cloud controller manager's config, the ControllerContext
_FRAMEWORK_FACTORIES = {
    "SharedInformers": frozenset({"k8s.io/cloud-provider/app/config"}),
    "InformerFactory": frozenset(
        {"k8s.io/controller-manager/app", "k8s.io/kubernetes/cmd/kube-controller-manager/app"}
    ),
}
_FRAMEWORK_CONFIGS = ("CompletedConfig", "Config", "completedConfig", "ControllerContext")
_GIVEN_BY_NO_CALL = "informer factory no call in the module passes"
# informers of one resource outside any factory: (client, gvr, namespace, resync, indexers, tweak)
_RESOURCE_INFORMERS = {
    ("k8s.io/client-go/dynamic/dynamicinformer", "NewFilteredDynamicInformer"): ObjectForm.TYPED,
    ("k8s.io/client-go/metadata/metadatainformer", "NewFilteredMetadataInformer"): ObjectForm.METADATA,
}


@dataclass(frozen=True, slots=True)
class TypedClientNames:
    """Generated client-go method names per kind: `CoreV1()` + `Secrets()` (clientsets), `Core().V1()` (informers)."""

    clientset: dict[tuple[str, str], str]  # (CoreV1, Secrets) -> Secret
    informers: dict[tuple[str, str, str], str]  # (Core, V1, Secrets) -> Secret
    # (k8s.io/client-go/informers/core/v1, Secret) -> Secret: the package of NewSecretInformer and its kind
    standalone: dict[tuple[str, str], str]
    # knative.dev/pkg/client/injection/kube/informers/core/v1/secret -> Secret: an injected informer's package
    injected: dict[str, str]

    @classmethod
    def build(cls, kinds: KindIndex) -> TypedClientNames:
        clientset, informers, standalone, injected = {}, {}, {}, {}
        for kind in kinds.kinds:
            plural = go_plural(kind.name)
            for package in kind.go_packages:
                parts = package.split("/")
                if len(parts) < 2 or not package.startswith("k8s.io/api/"):
                    continue
                group, version = parts[-2].capitalize(), parts[-1].capitalize()
                clientset[(group + version, plural)] = kind.name
                informers[(group, version, plural)] = kind.name
                standalone[(f"{INFORMERS}/{'/'.join(parts[-2:])}", kind.name)] = kind.name
                injected[f"{KNATIVE_INFORMERS}/{'/'.join(parts[-2:])}/{kind.name.lower()}"] = kind.name
        return cls(clientset, informers, standalone, injected)


_PLURAL_EXCEPTIONS = {"Endpoints": "Endpoints"}  # client-gen's own exceptions among the catalogue's kinds


def go_plural(kind: str) -> str:
    """The plural client-gen names a kind's clientset and informer accessors with (`Secrets()`,
    `NetworkPolicies()`, `Ingresses()`, `Endpoints()`): the rules of gengo's plural namer."""
    if kind in _PLURAL_EXCEPTIONS or len(kind) < 2:
        return _PLURAL_EXCEPTIONS.get(kind, kind)
    last, before = kind[-1], kind[-2]
    if last in "sxz" or (last == "h" and before in "cs"):
        return f"{kind}es"
    if last == "y" and before not in "aeiou":
        return f"{kind[:-1]}ies"
    if last == "f":
        return f"{kind[:-1]}ves"
    if last == "e" and before == "f":
        return f"{kind[:-2]}ves"
    return f"{kind}s"


# the methods of those listers that read an informer (`SecretLister().Secrets(ns)`, `.List(selector)`)
COMBINED_LISTER_METHODS = frozenset({*(go_plural(kind) for kind in _COMBINED_LISTERS.values()), "List"})


# a typed client's chain (`cs.CoreV1().Pods(ns)`): its accessor, plural and kind, its clientset, its namespace
_Chain = tuple[tuple[str, str, str], tree_sitter.Node | None, tree_sitter.Node | None]


class ClientGoSites:
    """Finds the client-go sites of a module's files; factories held in parameters and fields are judged once
    the module's calls and writes are known."""

    def __init__(self, resolver: Resolver, values: ValueTracer, names: TypedClientNames, methods: MethodIndex) -> None:
        self.resolver = resolver
        self.values = values
        self.names = names
        self.methods = methods
        self.options = ListOptionsReader(resolver, values)
        # the accessors of a factory's informers (`Secrets` of `Core().V1()`): most calls without arguments are none
        self.informer_accessors = frozenset(method for _, _, method in names.informers)
        # what the module stores in a struct's field (the evaluator's FieldValues.stored, set once it exists)
        self.stored: Callable[[TypeRef | None, str], list[tuple[GoFile, tree_sitter.Node]]] = lambda _o, _n: []
        # whether no binary runs a module function (CallGraph.unreached, set once the call graph exists)
        self.unreached: Callable[[FunctionKey], bool] = lambda _k: False

    def clientset_site(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        method: str,
        operand: tree_sitter.Node,
        arguments: list[tree_sitter.Node],
    ) -> PendingSite | None:
        dynamic = self._dynamic_site(file, call, method, operand, arguments)
        if dynamic is not None:
            return dynamic
        if operand.type == "identifier":  # `pods := cs.CoreV1().Pods(ns); pods.List(…)`
            operand = self.values.defined_as(file, operand, 2) or operand
        if operand.type in ("selector_expression", "index_expression"):
            return self._held_client_site(file, call, method, operand, arguments)
        if operand.type == "identifier":  # `func list(ctx context.Context, pods typedcorev1.PodInterface)`
            return self._given_client_site(file, call, method, operand, arguments)
        if operand.type != "call_expression":
            return None
        chain = self._typed_chain(file, operand)
        wrapped = self._wrapped_chain(file, operand) if chain is None else None
        if wrapped is not None:  # `k.PodClient(ns).Watch(…)`, the wrapper returning `c.cs.CoreV1().Pods(ns)`
            chain_file, _, (typed, _, namespace) = wrapped
            at = None
            if namespace is not None:  # what the call passes for the wrapper's parameter, else its own value
                at = self._passed_for(chain_file, namespace, file, operand) or (chain_file, namespace)
            return self._typed_client_call(file, call, method, typed, None, arguments, namespace_at=at)
        if chain is None:
            return None
        typed, clientset, namespace = chain
        site = self._typed_client_call(file, call, method, typed, namespace, arguments)
        if clientset is not None and clientset.type == "identifier":
            site.clientset_parameter = self.values.helper_parameter(file, clientset)
        return site

    def _typed_chain(self, file: GoFile, operand: tree_sitter.Node) -> _Chain | None:
        """For `cs.CoreV1().Pods(ns)`: its accessor, plural and kind, the clientset and the namespace argument;
        None where it names no typed client, or one of a fake clientset (a test's, listing nothing)."""
        plural = method_name(operand)
        group = held = operand_of(operand)
        if group is not None and group.type == "identifier":  # `core := cs.CoreV1(); core.Pods(ns).List(…)`
            group = self.values.defined_as(file, group, 2) or group
        accessor = method_name(group)
        if (accessor or "", plural or "") not in self.names.clientset:
            # a typed group client of a field, a parameter, or built (`core, err := corev1client.NewForConfig(…)`)
            accessor = self._typed_accessor(file, held)
        kind = self.names.clientset.get((accessor or "", plural or ""))
        clientset = operand_of(group)
        if kind is None or self.values.is_fake_clientset(file, clientset):
            return None
        namespace_arguments = operand.child_by_field_name("arguments")
        namespaces = parser.named(namespace_arguments) if namespace_arguments is not None else []
        return (accessor or "", plural or "", kind), clientset, namespaces[0] if namespaces else None

    def _wrapped_chain(self, file: GoFile, call: tree_sitter.Node) -> tuple[GoFile, tree_sitter.Node, _Chain] | None:
        """The typed client a module function returns (kubeflow pipelines' `func (c *KubernetesCore)
        PodClient(ns string) v1.PodInterface { return c.coreV1Client.Pods(ns) }`), with the file writing it and
        its chain (see `_typed_chain`): of every method an interface call may run, those returning such a chain
        (a fake beside them returns its own), where they agree on its kind and namespace parameter."""
        found = [
            (value_file, value, chain)
            for value_file, value in self._getter_values(file, call)
            if value is not None
            and value.type == "call_expression"
            and (chain := self._typed_chain(value_file, value)) is not None
        ]
        alike = {(chain[0], self._parameter_named(value_file, chain[2])) for value_file, _, chain in found}
        return found[0] if len(alike) == 1 else None

    def _parameter_named(self, file: GoFile, node: tree_sitter.Node | None) -> int | str:
        """The index of the parameter a node names, its text where it names none, "" for no node."""
        if node is None:
            return ""
        declaration = self.resolver.declaration(file, node) if node.type == "identifier" else None
        if declaration is not None and declaration.parameter_index >= 0:
            return declaration.parameter_index
        return parser.text(node)

    def _passed_for(
        self, file: GoFile, node: tree_sitter.Node, call_file: GoFile, call: tree_sitter.Node
    ) -> tuple[GoFile, tree_sitter.Node] | None:
        """What a call passes for the parameter a node of the called function names; None where the node is no
        parameter."""
        declaration = self.resolver.declaration(file, node) if node.type == "identifier" else None
        if declaration is None or declaration.parameter_index < 0 or declaration.variadic:
            return None
        values = parser.named(call.child_by_field_name("arguments") or call)
        index = declaration.parameter_index
        return (call_file, values[index]) if index < len(values) else None

    def _typed_client_call(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        method: str,
        typed: tuple[str, str, str],
        namespace: tree_sitter.Node | None,
        arguments: list[tree_sitter.Node],
        receiver: str = "",
        namespace_at: tuple[GoFile, tree_sitter.Node] | None = None,
    ) -> PendingSite:
        """The site of a typed client's Get, List or Watch (`typed`: its accessor, plural and kind), narrowed by
        the namespace the client is for, where it is seen (`namespace_at`: in another file than the call's, or
        what the call of a wrapper passes for it), and by the list options the call passes."""
        accessor, plural, kind = typed
        found = ObjectRef(kind, ObjectForm.TYPED, f"{accessor}().{plural}()", method == "List")
        return self._request_site(file, call, method, found, namespace, arguments, receiver, namespace_at)

    def _request_site(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        method: str,
        found: ObjectRef,
        namespace: tree_sitter.Node | None,
        arguments: list[tree_sitter.Node],
        receiver: str = "",
        namespace_at: tuple[GoFile, tree_sitter.Node] | None = None,
    ) -> PendingSite:
        """The site of a Get, List or Watch the API server answers (a typed, dynamic or metadata client's),
        narrowed by the namespace asked for, where it is seen (see `_typed_client_call`), and by the list options
        the call passes."""
        operation = {"Get": Operation.GET, "List": Operation.LIST, "Watch": Operation.WATCH}[method]
        site = pending_site(self.resolver, file, call, method, operation, Access.CLIENTSET, found, found.form, receiver)
        if namespace_at is not None:
            restrict_namespace(site, *namespace_at, "namespace")
        elif namespace is not None:
            restrict_namespace(site, file, namespace, "namespace")
        if arguments and method != "Get":  # `List(ctx, options)`, `List(options)` before client-go 0.18
            self.options.narrow(site, file, arguments[-1])
            if method == "List":
                site.restrictions.extend(one_page(file, arguments[-1], found.kind, self.resolver))
            site.options_parameter = self.options.parameter(file, arguments[-1])
        return site

    def _typed_accessor(self, file: GoFile, group: tree_sitter.Node | None) -> str | None:
        """`CoreV1` for a value of client-go's typed group client (`core typedcorev1.CoreV1Interface`, a field
        or parameter holding `cs.CoreV1()`, or the `*typedcorev1.CoreV1Client` that `NewForConfig` builds), or
        of one of its narrow getters (`secrets typedcorev1.SecretsGetter`, OCM's helpers)."""
        typed = self.resolver.type_of(file, group) if group is not None else None
        if typed is None or not typed.name.endswith(("Interface", "Client", "Getter")):
            return None
        return typed_accessor(typed)

    def _held_client_site(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        method: str,
        operand: tree_sitter.Node,
        arguments: list[tree_sitter.Node],
    ) -> PendingSite | None:
        """A call of a typed client of one kind read from a field or a map's items (`s.pods.List(…)`, of type
        `typedcorev1.PodInterface`): its namespace is judged once the module's writes of the field are known."""
        field = self.factory_field_of(file, operand)
        if field is None:
            return None
        held = partial(HeldClient, *field, read_key(operand))
        return self._one_kind_client_site(file, call, method, operand, arguments, held)

    def _given_client_site(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        method: str,
        operand: tree_sitter.Node,
        arguments: list[tree_sitter.Node],
    ) -> PendingSite | None:
        """A call of a typed client of one kind a function is given (policy-reporter's `secrets.NewClient(
        cs.CoreV1().Secrets(ns))`): its namespace is judged once the module's calls of the function are known."""
        parameter = self.values.helper_parameter(file, operand)
        if parameter is None:
            return None
        held = partial(HeldClient, None, "", False, None, parameter=parameter)
        return self._one_kind_client_site(file, call, method, operand, arguments, held)

    def _one_kind_client_site(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        method: str,
        operand: tree_sitter.Node,
        arguments: list[tree_sitter.Node],
        held: Callable[..., HeldClient],
    ) -> PendingSite | None:
        """The site of a typed client of one kind held or given (`held`: where it comes from, given the plural
        of the accessor the clients it may hold are built with)."""
        typed = self.resolver.type_of(file, operand)
        kind, accessor = kind_client(typed), typed_accessor(typed)
        if kind is None or accessor is None:
            return None
        plural = go_plural(kind)
        if self.names.clientset.get((accessor, plural)) != kind:
            return None
        shown = " ".join(parser.text(operand).split())  # named in messages where short: `m.pods`, `f.Client`
        receiver = shown if len(shown) <= _SHOWN_RECEIVER else ""
        site = self._typed_client_call(file, call, method, (accessor, plural, kind), None, arguments, receiver)
        site.held_client = held(plural)
        return site

    def factory_site(
        self, file: GoFile, call: tree_sitter.Node, method: str, operand: tree_sitter.Node
    ) -> PendingSite | None:
        held = self._held_call(file, operand)
        if held.type != "call_expression":  # `coreV1.Secrets()`, given `f.Core().V1()`
            return self._given_group_site(file, call, method, held)
        version_call = held
        grouped = self._group_version_new(file, version_call)
        if grouped is not None:  # `corev1informers.New(f, ns, tweak).Secrets()`
            return self._group_version_site(file, call, method, version_call, grouped)
        version = method_name(version_call)
        group_call = operand_of(version_call)
        group_call = self._held_call(file, group_call) if group_call is not None else None
        group = method_name(group_call)
        kind = self.names.informers.get((group or "", version or "", method))
        if kind is None or group_call is None:
            return None
        factory = operand_of(group_call)
        built = self.factory_built(file, factory)
        if built is not None and self.values.is_fake_clientset(
            built[0], parser.first_named(built[1].child_by_field_name("arguments"))
        ):
            return None  # an in-memory clientset of tests: nothing is listed from a cluster
        found = ObjectRef(kind, ObjectForm.TYPED, f"{group}().{version}().{method}()", False)
        site = pending_site(
            self.resolver, file, call, method, Operation.WATCH, Access.INFORMER_FACTORY, found, ObjectForm.TYPED
        )
        site.transform = self._transform_of(file, call, kind)
        self._judge_factory(site, file, factory, built, kind)
        return site

    def _judge_factory(
        self,
        site: PendingSite,
        file: GoFile,
        factory: tree_sitter.Node | None,
        built: tuple[GoFile, tree_sitter.Node] | None,
        kind: str,
    ) -> None:
        """Narrow a factory informer's site by the factory it is taken from: the one `built` (where seen), those
        assigned to the variable, or what decides once the module's calls and writes are known."""
        assigned = self._assigned_factories(file, factory) if built is None else []
        for constructor_file, constructor, value in assigned:
            # `var f informers.SharedInformerFactory; if all { f = New…(cs, 0) } else { f = New…(…,
            # WithNamespace(ns)) }`: each factory's restrictions hold where it is assigned
            before = len(site.restrictions)
            self._factory_restrictions(site, constructor_file, constructor, kind)
            guard_added(site, before, file, value)
        if built is None and not assigned and not self._knative_factory(site, file, factory):
            held = self._held_factory(file, factory)
            framework = self._scheduler_factory(site, file, held) or self._controller_manager_factory(site, file, held)
            if not self._library_go_factory(site, file, held) and not framework:
                self._built_elsewhere(site, file, factory, kind)
        elif built is not None:
            self._built_by(site, built, kind)
            self._bind_to_call(site, file, factory)
            _note_open_factory(site, built)
            site.clientset_parameter = self._clientset_parameter(built)
            if not site.restrictions:
                self._narrowed_when_reassigned(site, file, factory, kind)
            _options_to_add_to(site, built)
        elif len(assigned) == 1:  # `var f informers.SharedInformerFactory` assigned once: that constructor's
            one = assigned[0][:2]
            _note_open_factory(site, one)
            _options_to_add_to(site, one)

    def _given_group_site(
        self, file: GoFile, call: tree_sitter.Node, method: str, group: tree_sitter.Node
    ) -> PendingSite | None:
        """The informer of a factory's group-version informers a function is given (console-operator's
        `coreV1 corev1informers.Interface`, then `coreV1.Secrets()`): judged by the factories of the
        `f.Core().V1()` its callers pass."""
        typed = self.resolver.type_of(file, group) if group.type == "identifier" else None
        accessors = _informers_group_version(typed.package) if typed is not None and typed.name == "Interface" else None
        if accessors is None or self.values.helper_parameter(file, group) is None:
            return None
        kind = self.names.informers.get((*accessors, method))
        if kind is None:
            return None
        found = ObjectRef(kind, ObjectForm.TYPED, f"{accessors[0]}().{accessors[1]}().{method}()", False)
        site = pending_site(
            self.resolver, file, call, method, Operation.WATCH, Access.INFORMER_FACTORY, found, ObjectForm.TYPED
        )
        site.transform = self._transform_of(file, call, kind)
        self._built_elsewhere(site, file, group, kind)
        site.given_group = accessors
        return site

    def _clientset_parameter(self, built: tuple[GoFile, tree_sitter.Node]) -> tuple[FunctionKey, int] | None:
        """The parameter of a helper a factory is built over (`NewSharedInformerFactory(client, 0)`): where every
        call passes a fake clientset, the factory lists no cluster."""
        clientset = parser.first_named(built[1].child_by_field_name("arguments"))
        if clientset is None or clientset.type != "identifier":
            return None
        return self.values.helper_parameter(built[0], clientset)

    def _narrowed_when_reassigned(
        self, site: PendingSite, file: GoFile, factory: tree_sitter.Node | None, kind: str
    ) -> None:
        """An open factory a local holds, replaced by other factories under conditions (`podFactory := factory;
        if lite { podFactory = New…WithOptions(…, WithTweakListOptions(…)) }`, azure-container-networking):
        their restrictions hold under those conditions."""
        for constructor_file, constructor, value in self._assigned_factories(file, factory):
            before = len(site.restrictions)
            self._factory_restrictions(site, constructor_file, constructor, kind)
            guard_added(site, before, file, value)

    def _group_version_new(
        self, file: GoFile, call: tree_sitter.Node
    ) -> tuple[str, str, list[tree_sitter.Node]] | None:
        """The group, version and arguments of a call of a generated informers package's `New` (`k8s.io/client-
        go/informers/core/v1.New(factory, namespace, tweak)`); None for any other call."""
        function = call.child_by_field_name("function")
        operand = function.child_by_field_name("operand") if function is not None else None
        package = file.imports.get(parser.text(operand)) if operand is not None else None
        accessors = _informers_group_version(package)
        arguments = parser.named(call.child_by_field_name("arguments") or call)
        if accessors is None or method_name(call) != "New" or len(arguments) != 3:
            return None
        return *accessors, arguments

    def _group_version_site(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        method: str,
        grouped_call: tree_sitter.Node,
        grouped: tuple[str, str, list[tree_sitter.Node]],
    ) -> PendingSite | None:
        """The informer a group-version informers' `New` hands out: its own namespace and tweak narrow it, over
        what its factory does."""
        group, version, (factory, namespace, tweak) = grouped
        kind = self.names.informers.get((group, version, method))
        if kind is None:
            return None
        found = ObjectRef(kind, ObjectForm.TYPED, f"{group}().{version}().{method}()", False)
        site = pending_site(
            self.resolver, file, call, method, Operation.WATCH, Access.INFORMER_FACTORY, found, ObjectForm.TYPED
        )
        built = self.factory_built(file, factory)
        if built is not None:
            self._built_by(site, built, kind)
        function = parser.text(grouped_call.child_by_field_name("function"))
        site.narrowing_call = f"{function}(…)"
        if restrict_namespace(site, file, namespace, "namespace") is None:
            site.through = Evidence(file.span(grouped_call), f"`{function}` is given every namespace")
        self.options.tweak(site, file, tweak, "tweakListOptions")
        return site

    def _held_call(self, file: GoFile, node: tree_sitter.Node) -> tree_sitter.Node:
        """The call a local variable holds where nothing writes it again (osm's `v1api :=
        informerFactory.Core().V1()` then `v1api.Pods().Informer()`), or a struct field the file writes once
        (cluster-api-provider-nested's `&controller{informer: informer.Core().V1()}`, then
        `c.informer.Pods().Lister()`); the node itself otherwise."""
        if node.type == "selector_expression":
            return self._field_call(file, node) or node
        declaration = self.resolver.declaration(file, node) if node.type == "identifier" else None
        value = declaration.value_node if declaration is not None and declaration.value_index == 0 else None
        if value is None or value.type != "call_expression":
            return node
        scope = self.resolver.scope(file, node)
        return node if scope is None or scope.assignments.get(parser.text(node)) else value

    def _field_call(self, file: GoFile, field: tree_sitter.Node) -> tree_sitter.Node | None:
        """The call a struct field is given where the module gives it one value only, in this file (a literal of
        the struct or an assignment); a field other files write too is read as it is (a factory's own field)."""
        operand = field.child_by_field_name("operand")
        owner = self.resolver.type_of(file, operand) if operand is not None else None
        if owner is None:
            return None
        values = self.stored(owner, parser.text(field.child_by_field_name("field")))
        if len(values) != 1 or values[0][0] is not file or values[0][1].type != "call_expression":
            return None
        return values[0][1]

    def _knative_factory(self, site: PendingSite, file: GoFile, factory: tree_sitter.Node | None) -> bool:
        """`factory.Get(ctx)` of knative's injected kube informer factory: it serves every namespace unless the
        binary scopes injection, as the injected informers do; its namespacedkube twin is built over the
        system namespace, and the filtered one with a label selector."""
        if factory is None or method_name(factory) != "Get":
            return False
        package = file.imports.get(parser.text(operand_of(factory)))
        if package == _KNATIVE_FACTORY:
            site.injected = True  # judged by the binaries' injection.WithNamespaceScope (scope_injected)
            return True
        if package == _KNATIVE_SYSTEM_FACTORY:
            text = "knative's namespacedkube factory (system.Namespace())"
            site.restrictions.append(Restriction(Mitigation.NAMESPACE, site.object.kind, file.span(factory), text))
            return True
        if package == f"{_KNATIVE_FACTORY}/filtered":
            text = "knative's filtered factory"
            site.restrictions.append(Restriction(Mitigation.SELECTOR, site.object.kind, file.span(factory), text))
            return True
        return False

    def _scheduler_factory(self, site: PendingSite, file: GoFile, factory: tree_sitter.Node | None) -> bool:
        """`handle.SharedInformerFactory()` of a kube-scheduler plugin's framework.Handle: the scheduler's own
        factory, built with informers.NewSharedInformerFactory(client, 0) over every namespace (nebula-operator's
        node-zone plugin lists ConfigMaps through it). Its Pod informer is the one the scheduler schedules from,
        there whatever the plugin does: left to the factory built elsewhere."""
        if factory is None or method_name(factory) != "SharedInformerFactory" or site.object.kind == "Pod":
            return False
        holder = operand_of(factory)
        held = self.resolver.type_of(file, holder) if holder is not None else None
        if held is None or not held.is_(_SCHEDULER_FRAMEWORKS, "Handle"):
            return False
        text = "the informer factory kube-scheduler hands its plugins serves every namespace"
        site.through = site.through or Evidence(file.span(factory), text)
        return True

    def _controller_manager_factory(self, site: PendingSite, file: GoFile, factory: tree_sitter.Node | None) -> bool:
        """`cc.SharedInformers` of a cloud controller manager's CompletedConfig, or `ctx.InformerFactory` of the
        ControllerContext k8s.io/controller-manager hands its controllers: the framework's own factory, built with
        informers.NewSharedInformerFactory(client, …) over every namespace and started by it (qingcloud's
        Endpoints controller)."""
        field = parser.text(factory.child_by_field_name("field")) if factory is not None else ""
        if factory is None or factory.type != "selector_expression" or field not in _FRAMEWORK_FACTORIES:
            return False
        holder = factory.child_by_field_name("operand")
        held = self.resolver.type_of(file, holder) if holder is not None else None
        if held is None or not held.is_(_FRAMEWORK_FACTORIES[field], *_FRAMEWORK_CONFIGS):
            return False
        text = f"`{parser.text(factory)}` is the controller manager's informer factory, over every namespace"
        site.through = site.through or Evidence(file.span(factory), text)
        return True

    def _transform_of(self, file: GoFile, accessor: tree_sitter.Node, kind: str) -> Evidence | None:
        """The SetTransform given the informer an accessor hands out, in its function: on the chain itself
        (`….Pods().Informer().SetTransform(t)`) or on a local holding the informer or the accessor (calico's
        `podInformer.SetTransform(…)`, `saInformer.Informer().SetTransform(…)`)."""
        function = innermost_function(accessor)
        for call in calls_in(function) if function is not None else []:
            receiver = operand_of(call) if method_name(call) == "SetTransform" else None
            if receiver is not None and method_name(receiver) == "Informer":
                receiver = operand_of(receiver)
            held = (
                self.resolver.declaration(file, receiver)
                if receiver is not None and receiver.type == "identifier"
                else None
            )
            value = held.value_node if held is not None else receiver
            if value is not None and value.start_byte <= accessor.start_byte and accessor.end_byte <= value.end_byte:
                text = (
                    f"`{parser.text(call.child_by_field_name('function'))}(…)` keeps each {kind} smaller, but every one"
                )
                return Evidence(file.span(call), f"{text} is still cached")
        return None

    def _held_factory(self, file: GoFile, factory: tree_sitter.Node | None) -> tree_sitter.Node | None:
        """The factory expression a local holds (`informers := kubeInformersForNamespaces.InformersFor(ns)`)."""
        if factory is None or factory.type != "identifier":
            return factory
        return self.values.defined_as(file, factory, 2) or factory

    def combined_lister_site(
        self, file: GoFile, call: tree_sitter.Node, method: str, operand: tree_sitter.Node
    ) -> PendingSite | None:
        """`kubeInformersForNamespaces.SecretLister().Secrets(ns)` of OpenShift's library-go (ConfigMapLister,
        PodLister alike): the informer of the namespace's factory, as `InformersFor(ns)…Secrets()` is; its
        `List(selector)` the informer of the factory over every namespace (`InformersFor("")`)."""
        lister = self._held_call(file, operand)
        kind = _COMBINED_LISTERS.get(method_name(lister) or "") if lister.type == "call_expression" else None
        holder = operand_of(lister) if kind is not None else None
        if kind is None or holder is None or method not in (go_plural(kind), "List"):
            return None
        if not self._holds_informers_for_namespaces(file, holder):
            return None
        arguments = parser.named(call.child_by_field_name("arguments") or call)
        found = ObjectRef(kind, ObjectForm.TYPED, f"{method_name(lister)}().{method}()", False)
        receiver = " ".join(parser.text(operand).split())
        site = pending_site(
            self.resolver,
            file,
            call,
            method,
            Operation.WATCH,
            Access.INFORMER_FACTORY,
            found,
            ObjectForm.TYPED,
            receiver if len(receiver) <= _SHOWN_RECEIVER else "",
        )
        site.library_go_factory = True
        namespace = arguments[0] if method != "List" and arguments else None
        shown = f"{method_name(lister)}().{method}({parser.text(namespace) if namespace is not None else ''})"
        if namespace is None or restrict_namespace(site, file, namespace, shown, file.span(call)) is None:
            text = f"`{method_name(lister)}()` lists through library-go's informer factory over every namespace"
            site.through = Evidence(file.span(lister), text)
        return site

    def _holds_informers_for_namespaces(self, file: GoFile, holder: tree_sitter.Node) -> bool:
        """Whether a value is library-go's KubeInformersForNamespaces, by its type or its constructor."""
        held = self.resolver.type_of(file, holder)
        if held is not None:
            return held.is_(_LIBRARY_GO_HELPERS, "KubeInformersForNamespaces")
        built = self.values.defined_as(file, holder, 2)
        if built is None or built.type != "call_expression":
            return False
        package = file.imports.get(parser.text(operand_of(built)))
        return package == _LIBRARY_GO_HELPERS and method_name(built) in _LIBRARY_GO_CONSTRUCTORS

    def _library_go_factory(self, site: PendingSite, file: GoFile, factory: tree_sitter.Node | None) -> bool:
        """`kubeInformersForNamespaces.InformersFor(ns)` of OpenShift's library-go: the factory
        `v1helpers.NewKubeInformersForNamespaces(client, namespaces…)` built for that namespace, with
        informers.WithNamespace(ns); `InformersFor("")` is its factory over every namespace."""
        if factory is None or method_name(factory) != "InformersFor":
            return False
        holder = operand_of(factory)
        named = holder is not None and self._holds_informers_for_namespaces(file, holder)
        arguments = parser.named(factory.child_by_field_name("arguments") or factory)
        if not named or len(arguments) != 1:
            return False
        site.library_go_factory = True
        shown = f"InformersFor({' '.join(parser.text(arguments[0]).split())})"
        if restrict_namespace(site, file, arguments[0], shown, file.span(factory)) is None:
            text = '`InformersFor("")` is library-go\'s informer factory over every namespace'
            site.through = site.through or Evidence(file.span(factory), text)
        return True

    def _bind_to_call(self, site: PendingSite, file: GoFile, factory: tree_sitter.Node | None) -> None:
        """Where a module function built the factory from its parameters (`initSecretInformerFactory(cs, ns,
        tweak)`), judge the namespace and tweak it was given by what this call passes, not by every call
        of the function: the key informer's factory and the watched one's come from one helper."""
        built = self.values.defined_as(file, factory, 3)
        if built is None or built.type != "call_expression" or (info := self.resolver.callee(file, built)) is None:
            return
        arguments = parser.named(built.child_by_field_name("arguments") or built)

        def bound(entries: list[tuple[Restriction, GoFile, tree_sitter.Node]]) -> None:
            for position, (restriction, held_file, node) in enumerate(entries):
                declaration = self.resolver.declaration(held_file, node) if node.type == "identifier" else None
                index = declaration.parameter_index if declaration is not None else -1
                inside = (
                    held_file.path == info.file.path and info.node.start_byte <= node.start_byte < info.node.end_byte
                )
                if inside and 0 <= index < len(arguments):
                    entries[position] = (restriction, file, arguments[index])

        bound(site.namespaces)
        bound(site.tweaks)

    def _built_elsewhere(self, site: PendingSite, file: GoFile, factory: tree_sitter.Node | None, kind: str) -> None:
        """A factory whose constructor is not seen here: a parameter or a field, whose factories (what the
        callers pass, what the module stores) decide once the module's calls and writes are known."""
        span = file.span(factory) if factory is not None else file.span(file.tree.root_node)
        site.restrictions.append(Restriction(Mitigation.UNRESOLVED, kind, span, _BUILT_ELSEWHERE))
        site.factory_parameter = self.values.helper_parameter(file, factory) if factory is not None else None
        site.factory_field = self.factory_field_of(file, factory)
        if factory is not None and factory.type == "identifier":  # `f := informer.GetK8sFactory(ctx, ns)`
            defined = self.values.defined_as(file, factory, 2)
            factory = defined if defined is not None and defined.type == "call_expression" else factory
        if factory is not None and factory.type == "call_expression":  # `m.KubeInformerFactory().Core()…`
            site.factory_getter = (file, factory)

    def resource_site(
        self, file: GoFile, call: tree_sitter.Node, operand: tree_sitter.Node, resource: tree_sitter.Node
    ) -> PendingSite | None:
        """`factory.ForResource(corev1.SchemeGroupVersion.WithResource("secrets"))` on a client-go, dynamic or
        metadata informer factory: the call registers the resource's informer with the factory. None when the
        resource or the factory cannot be told (a module's own `ForResource`)."""
        kind = self._resource_kind(file, resource)
        if kind is None:
            return None
        built, package = None, None
        for candidate in _RESOURCE_FACTORIES:
            built = self.factory_built(file, operand, candidate)
            if built is not None:
                package = candidate
                break
        if built is None:
            typed = self.resolver.type_of(file, operand)
            package = typed.package if typed is not None and typed.package in _RESOURCE_FACTORIES else None
        if package is None:
            return None
        if built is not None and self.values.is_fake_clientset(
            built[0], parser.first_named(built[1].child_by_field_name("arguments"))
        ):
            return None
        form = _RESOURCE_FACTORIES[package]
        found = ObjectRef(kind, form, f"ForResource({' '.join(parser.text(resource).split())})", False)
        site = pending_site(
            self.resolver, file, call, "ForResource", Operation.WATCH, Access.INFORMER_FACTORY, found, form
        )
        if built is None:
            self._built_elsewhere(site, file, operand, kind)
        else:
            self._factory_restrictions(site, built[0], built[1], kind)
            _note_open_factory(site, built)
            if method_name(built[1]) in _FILTERED_FACTORIES:  # the factory takes a namespace and a tweak already
                site.narrowing_call = f"{parser.text(built[1].child_by_field_name('function'))}(…)"
        return site

    def resource_informer_site(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        method: str,
        operand: tree_sitter.Node,
        arguments: list[tree_sitter.Node],
    ) -> PendingSite | None:
        """`dynamicinformer.NewFilteredDynamicInformer(client, gvr, namespace, resync, indexers, tweak)` and its
        metadata form: an informer of the resource its GroupVersionResource names, narrowed by its namespace and
        tweak as a filtered factory is."""
        package = file.imports.get(parser.text(operand)) if operand.type == "identifier" else None
        form = _RESOURCE_INFORMERS.get((package or "", method))
        kind = self._resource_kind(file, arguments[1]) if form is not None and len(arguments) >= 6 else None
        if form is None or kind is None:
            return None
        found = ObjectRef(kind, form, f"{method}(…)", False)
        site = pending_site(self.resolver, file, call, method, Operation.WATCH, Access.INFORMER_FACTORY, found, form)
        restrict_namespace(site, file, arguments[2], "namespace")
        if parser.text(arguments[5]) != "nil":
            self.options.tweak(site, file, arguments[5], "tweakListOptions")
        return site

    def _dynamic_site(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        method: str,
        operand: tree_sitter.Node,
        arguments: list[tree_sitter.Node],
    ) -> PendingSite | None:
        """`dyn.Resource(gvr).Namespace(ns).List(ctx, options)` (or Get, Watch) of client-go's dynamic or
        metadata client: a request to the API server for the resource the GroupVersionResource names, in every
        namespace unless `Namespace(ns)` names one, narrowed by the list options' selectors."""
        if "Resource" not in file.called_methods():  # the chain is written in this file (see _held_call)
            return None
        held = self._held_call(file, operand)
        namespace_call = held if method_name(held) == "Namespace" else None
        scoped = operand_of(held) if namespace_call is not None else None
        resource_call = self._held_call(file, scoped) if scoped is not None else held
        if method_name(resource_call) != "Resource" or (client := operand_of(resource_call)) is None:
            return None
        form = self._dynamic_client_form(file, client)
        resource = parser.first_named(resource_call.child_by_field_name("arguments"))
        kind = self._resource_kind(file, resource) if form is not None else None
        if kind is None or form is None:
            return None
        found = ObjectRef(kind, form, f"Resource({' '.join(parser.text(resource).split())})", method == "List")
        namespace = parser.first_named(namespace_call.child_by_field_name("arguments")) if namespace_call else None
        return self._request_site(file, call, method, found, namespace, arguments)

    def _dynamic_client_form(self, file: GoFile, client: tree_sitter.Node) -> ObjectForm | None:
        """The form of the objects client-go's dynamic (unstructured) or metadata client returns, by the
        client's type or the constructor that builds it; None for another value, or a fake of tests."""
        typed = self.resolver.type_of(file, client)
        package = typed.package if typed is not None else None
        if package is None:
            built = self.values.defined_as(file, client, 2)
            called = call_parts(built) if built is not None and built.type == "call_expression" else None
            package = file.imports.get(called.operand_text) if called is not None and called.operand else None
        return _DYNAMIC_CLIENTS.get(package or "")

    def _resource_kind(self, file: GoFile, node: tree_sitter.Node | None) -> str | None:
        """The kind a GroupVersionResource names: `gv.WithResource("secrets")`, `WithResource(string(
        corev1.ResourceSecrets))`, a `schema.GroupVersionResource{…, Resource: "pods"}` literal, a local
        holding one, or a package variable declared as one (botkube's `var secretGVR = …`)."""
        defined = self.values.defined_as(file, node, 2)
        if defined is None and node is not None and node.type in ("identifier", "selector_expression"):
            held = self.resolver.held_value(file, node)
            file, defined = held if held is not None else (file, None)
        node = defined
        if node is None:
            return None
        if node.type == "composite_literal":
            resource = dict(keyed_elements(node)).get("Resource")
            plural = self._resource_name(file, resource) if resource is not None else None
        elif node.type == "call_expression" and method_name(node) == "WithResource":
            plural = self._resource_name(file, parser.first_named(node.child_by_field_name("arguments")))
        else:
            return None
        return self.resolver.kinds.python_kind(plural) if plural else None

    def _resource_name(self, file: GoFile, node: tree_sitter.Node | None) -> str | None:
        """A resource's plural name: a string, or core/v1's `ResourceSecrets` constant, converted or not."""
        if node is not None and node.type in ("call_expression", "type_conversion_expression"):
            arguments = node.child_by_field_name("arguments")
            node = parser.first_named(arguments) if arguments is not None else node.child_by_field_name("operand")
        if node is not None and node.type == "selector_expression":
            field = parser.text(node.child_by_field_name("field"))
            if field.startswith("Resource") and len(field) > len("Resource"):
                return field.removeprefix("Resource").lower()
        return self.resolver.string_value(file, node) if node is not None else None

    def _assigned_factories(
        self, file: GoFile, factory: tree_sitter.Node | None
    ) -> list[tuple[GoFile, tree_sitter.Node, tree_sitter.Node]]:
        """The factories a local declared without a value is assigned (`f = informers.New…(…)`), each as its
        constructor with its file and the value assigned; empty unless every assignment builds one."""
        if factory is None or factory.type != "identifier" or self.resolver.declaration(file, factory) is None:
            return []
        scope = self.resolver.scope(file, factory)
        values = scope.assignments.get(parser.text(factory), []) if scope is not None else []
        found = [(value, self.factory_built(file, value)) for value in values]
        if not found or any(built is None for _, built in found):
            return []
        return [(built[0], built[1], value) for value, built in found if built is not None]

    def factory_field_of(
        self, file: GoFile, factory: tree_sitter.Node | None
    ) -> tuple[TypeRef | None, str, bool] | None:
        """The struct field a factory is read from (`c.factory`), also through a local copy (`f :=
        setup.factory`), or (True) whose items it is (`c.factories[ns]`)."""
        if factory is not None and factory.type == "identifier":
            copied = self.values.defined_as(file, factory, 2)
            factory = (
                copied if copied is not None and copied.type in ("selector_expression", "index_expression") else factory
            )
        held = (
            factory.child_by_field_name("operand")
            if factory is not None and factory.type == "index_expression"
            else None
        )
        if factory is not None and factory.type == "selector_expression":
            owner = self.resolver.type_of(file, factory.child_by_field_name("operand"))
            return owner, parser.text(factory.child_by_field_name("field")), False
        if held is not None and held.type == "selector_expression":  # `c.factories[ns]`: a map's items
            owner = self.resolver.type_of(file, held.child_by_field_name("operand"))
            return owner, parser.text(held.child_by_field_name("field")), True
        return None

    def _called(self, file: GoFile, call: tree_sitter.Node) -> FunctionInfo | None:
        """The module function or method a call runs, also through an interface with one implementation."""
        return self.resolver.callee(file, call) or self.methods.through_interface(file, call)

    def judge_held(
        self,
        site: PendingSite,
        deployed: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]],
        stored: Callable[..., list[tuple[GoFile, tree_sitter.Node]]],
    ) -> bool:
        """Judge what a site's parameters and fields hold once the module's calls and writes are known: its
        informer factory, its list options. False when the site lists nothing from a cluster (fakes)."""
        if site.factory_parameter is not None and not self.passed_factories(site, deployed, stored):
            return False
        if site.options_parameter is not None:
            self.options.passed(site, deployed)
        if site.factory_options_parameter is not None:
            self.variadic_options(site, deployed)
        if site.clientset_parameter is not None and self._given_fakes_only(site.clientset_parameter, deployed):
            return False
        if site.held_client is not None and not self._held_client_namespace(site, stored, deployed):
            return False
        writes: list[tuple[GoFile, tree_sitter.Node | None]] = []
        if site.factory_field is not None:
            owner, name, elements = site.factory_field
            writes = stored_before(stored(owner, name, elements=elements), site.file, site.node)
        elif site.factory_getter is not None:
            writes = self._getter_values(*site.factory_getter)
        return not writes or self.held_factories(site, writes, stored, deployed)

    def _held_client_namespace(
        self,
        site: PendingSite,
        stored: Callable[..., list[tuple[GoFile, tree_sitter.Node]]],
        callers: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]],
    ) -> bool:
        """Narrow the site of a held or given typed client by the namespace of each client the module stores
        where it is read, or its callers pass (one for every namespace decides, SPEC §1); False where a value is
        no such client, or none is seen (built by other code: not judged)."""
        held = site.held_client
        assert held is not None
        if held.parameter is not None:
            values = [(file, value) for file, value in _passed_at(callers, *held.parameter) if value is not None]
        else:
            writes = stored_before(stored(held.owner, held.name, elements=held.elements), site.file, site.node)
            values = [(file, value) for file, value in writes if value is not None and same_key(value, held.key)]
        clients = self._typed_clients(values, held.plural, callers)
        if not clients:
            return False
        copies = []
        for client_file, client in clients:
            copy = PendingSite(site.file, site.node, site.operation, site.access, site.object, site.span, "", "", "")
            namespaces = parser.named(client.child_by_field_name("arguments") or client)
            if namespaces:
                restrict_namespace(copy, client_file, namespaces[0], "namespace")
            copies.append(copy)
        chosen = next((copy for copy in copies if not copy.restrictions), copies[0])
        site.restrictions.extend(chosen.restrictions)
        site.namespaces.extend(chosen.namespaces)
        return True

    def _typed_clients(
        self,
        values: list[tuple[GoFile, tree_sitter.Node]],
        plural: str,
        callers: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]],
        hops: int = _FIELD_HOPS,
    ) -> list[tuple[GoFile, tree_sitter.Node]] | None:
        """The `….Pods(ns)` calls (of `plural`) that built the values, a function's parameter followed to what
        its calls pass (a constructor storing the client it is given, `&Client{client: client}`); None where
        one is something else."""
        clients: list[tuple[GoFile, tree_sitter.Node]] = []
        for value_file, value in values:
            client = self.values.defined_as(value_file, value, 2) or value
            parameter = self.values.helper_parameter(value_file, client) if client.type == "identifier" else None
            if parameter is not None and hops:
                passed = [(file, given) for file, given in _passed_at(callers, *parameter) if given is not None]
                found = self._typed_clients(passed, plural, callers, hops - 1)
                if found is None:
                    return None
                clients.extend(found)
                continue
            if client.type != "call_expression" or method_name(client) != plural:
                return None
            clients.append((value_file, client))
        return clients

    def _given_fakes_only(
        self,
        parameter: tuple[FunctionKey, int],
        callers: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]],
    ) -> bool:
        """Whether every call of a function passes a fake clientset as the parameter (a test's helper)."""
        passed = [(file, value) for file, value in _passed_at(callers, *parameter) if value is not None]
        return bool(passed) and all(self.values.is_fake_clientset(file, value) for file, value in passed)

    def passed_factories(
        self,
        site: PendingSite,
        callers: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]],
        stored: Callable[..., list[tuple[GoFile, tree_sitter.Node]]],
    ) -> bool:
        """Judge a factory parameter's informer by the factories its callers pass (see `held_factories`)."""
        assert site.factory_parameter is not None
        passed: list[tuple[GoFile, tree_sitter.Node | None]] = []
        pending, seen = [(site.factory_parameter, 0)], set()
        selected, unasked = self._case_selected(site), 0
        while pending:
            (key, index), level = pending.pop()
            if (key, index) in seen:
                continue
            seen.add((key, index))
            for caller_file, call in callers(key):
                values = parser.named(call.child_by_field_name("arguments") or call)
                if level == 0 and selected is not None:
                    # linkerd's `newAPI(factory, resources...)` registering `case CM:` only where a caller asks
                    asked = self._items_asked(caller_file, values, selected[0], callers)
                    if asked is not None and not asked & selected[1]:
                        unasked += 1
                        continue
                value = values[index] if index < len(values) else None
                # a parameter of the caller in turn: what its own callers pass (descheduler hands it down twice)
                above = self.values.helper_parameter(caller_file, value) if value is not None and level < 3 else None
                if above is not None and self.factory_built(caller_file, value) is None:
                    pending.append((above, level + 1))
                else:
                    passed.append((caller_file, value))
        if unasked and not passed:
            return False  # no call asks for the case's kind: the informer is never taken
        if site.given_group is not None:  # `op.New(f.Core().V1())`: the factory of the informers passed
            passed = [(file, self._factory_of_group(file, value, site.given_group)) for file, value in passed]
        return self.held_factories(site, passed, stored, callers)

    def _factory_of_group(
        self, file: GoFile, value: tree_sitter.Node | None, accessors: tuple[str, str]
    ) -> tree_sitter.Node | None:
        """The factory of `f.Core().V1()` (`accessors`: its group and version), also held by a local; the value
        itself where it is no such call."""
        version_call = self._held_call(file, value) if value is not None else None
        group_call = operand_of(version_call) if version_call is not None else None
        if group_call is None or (method_name(group_call), method_name(version_call)) != accessors:
            return value
        return operand_of(group_call)

    def _case_selected(self, site: PendingSite) -> tuple[int, frozenset[str]] | None:
        """Where a factory parameter's informer is taken in a `case` of a switch on the items of a variadic
        parameter (`for _, r := range resources { switch r { case CM: … } }`): that parameter's index, and the
        names the case lists (`CM` of `k8s.CM`)."""
        case = site.node.parent
        while case is not None and case.type not in ("expression_case", "function_declaration", "method_declaration"):
            case = case.parent
        switch = case.parent if case is not None and case.type == "expression_case" else None
        tested = switch.child_by_field_name("value") if switch is not None else None
        listed = case.child_by_field_name("value") if case is not None else None
        if switch is None or tested is None or listed is None or tested.type != "identifier":
            return None
        declaration = self.resolver.declaration(site.file, tested)
        ranged = declaration.ranged_node if declaration is not None and declaration.indexes is None else None
        parameter = self.resolver.declaration(site.file, ranged) if ranged is not None else None
        if parameter is None or not parameter.variadic or parameter.parameter_index < 0:
            return None
        return parameter.parameter_index, frozenset(_last_name(value) for value in parser.named(listed))

    def _items_asked(
        self,
        file: GoFile,
        values: list[tree_sitter.Node],
        index: int,
        callers: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]],
        depth: int = 0,
    ) -> frozenset[str] | None:
        """The names a call passes as the items of a variadic parameter at `index`, also those its own callers
        pass where it hands its variadic parameter on (`newAPI(f, resources...)`); None where one cannot be
        told."""
        passed = values[index:]
        spread = parser.first_named(passed[0]) if len(passed) == 1 and passed[0].type == "variadic_argument" else None
        if spread is None:
            if any(value.type not in ("identifier", "selector_expression") for value in passed):
                return None
            return frozenset(_last_name(value) for value in passed)
        parameter = self.resolver.declaration(file, spread) if spread.type == "identifier" else None
        key = self.resolver.function_key(file, spread)
        if parameter is None or not parameter.variadic or parameter.parameter_index < 0 or key is None or depth > 2:
            return None
        asked: set[str] = set()
        for caller_file, call in callers(key):
            if (caller := self.resolver.function_key(caller_file, call)) is not None and self.unreached(caller):
                continue  # linkerd's fake API, asking for every resource in a `test_helper.go` only tests call
            found = self._items_asked(
                caller_file,
                parser.named(call.child_by_field_name("arguments") or call),
                parameter.parameter_index,
                callers,
                depth + 1,
            )
            if found is None:
                return None
            asked |= found
        return frozenset(asked)

    def held_factories(
        self,
        site: PendingSite,
        values: list[tuple[GoFile, tree_sitter.Node | None]],
        stored: Callable[..., list[tuple[GoFile, tree_sitter.Node]]],
        callers: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]] | None = None,
    ) -> bool:
        """Judge the informer of a factory parameter or field by the factories it may hold (what the callers
        pass, what the module stores, also in the field a value is copied from): narrowed only when each is;
        left "built elsewhere" when one of them cannot be seen. False when each is over a fake clientset (tests:
        nothing is listed from a cluster)."""
        judged, fakes, unseen = [], 0, 0
        for value_file, value in self.through_fields(values, stored, callers=callers):
            built = self.factory_built(value_file, value) if value is not None else None
            copy = PendingSite(site.file, site.node, site.operation, site.access, site.object, site.span, "", "", "")
            if built is None and self._library_go_factory(copy, value_file, self._held_factory(value_file, value)):
                judged.append(copy)  # `kubeInformersForNamespaces.InformersFor(ns)` passed for the parameter
                continue
            # `var f informers.SharedInformerFactory; if component != agent { f = New…(…) }` stored: each factory
            # assigned is one the value may hold (left nil, it starts nothing)
            assigned = self._assigned_factories(value_file, value) if built is None else []
            for constructor_file, constructor, _ in assigned:
                held = PendingSite(
                    site.file, site.node, site.operation, site.access, site.object, site.span, "", "", ""
                )
                self._built_by(held, (constructor_file, constructor), site.object.kind)
                held.through = _open_factory((constructor_file, constructor))
                judged.append(held)
            if built is None and assigned:
                continue
            if built is None:
                unseen += 1
                continue
            if self.values.is_fake_clientset(built[0], parser.first_named(built[1].child_by_field_name("arguments"))):
                fakes += 1
                continue
            self._built_by(copy, built, site.object.kind)
            self._bind_to_call(copy, value_file, value)
            copy.through = _open_factory(built)  # for the finding's note, where it leaves the kind whole
            judged.append(copy)
        # one factory seen to leave the kind unrestricted decides (SPEC §1: a finding when any leaves it so);
        # otherwise one that cannot be seen keeps the site "built elsewhere"
        chosen = next((copy for copy in judged if not copy.restrictions), None)
        if chosen is None and unseen:
            return True
        if chosen is None and not judged:
            return _none_judged(site, given=bool(values), fakes=fakes)
        if chosen is not None and site.through is None and site.helper is None:
            site.through = chosen.through
        chosen = chosen or judged[0]
        site.restrictions, site.namespaces = chosen.restrictions, chosen.namespaces
        site.library_go_factory = chosen.library_go_factory
        site.guarded, site.tweaks, site.selector_values = chosen.guarded, chosen.tweaks, chosen.selector_values
        site.factory_constructor = chosen.factory_constructor
        return True

    def through_fields(
        self,
        values: list[tuple[GoFile, tree_sitter.Node | None]],
        stored: Callable[..., list[tuple[GoFile, tree_sitter.Node]]],
        hops: int = _FIELD_HOPS,
        callers: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]] | None = None,
    ) -> list[tuple[GoFile, tree_sitter.Node | None]]:
        """The values, each one read from another field (`c.factory = opt.SharedInformerFactory`) replaced by
        what the module stores in that field, each getter's call by what the getter returns, and with `callers`
        each parameter of a function (a constructor storing the factory it is given, `&ctrl{kubeInformers:
        f}`) by what its calls pass, at most `hops` deep."""
        found: list[tuple[GoFile, tree_sitter.Node | None]] = []
        for value_file, value in values:
            if not hops or value is None or self.factory_built(value_file, value) is not None:
                found.append((value_file, value))
                continue
            held = self.factory_field_of(value_file, value)
            writes: list[tuple[GoFile, tree_sitter.Node | None]] = []
            if held is not None:
                writes = [
                    write for write in stored(held[0], held[1], elements=held[2]) if not self._stored_in_tests(*write)
                ]
            elif value.type == "call_expression":  # a getter (`manager.KubeInformerFactory()`): what it returns
                writes = self._getter_values(value_file, value)
            elif callers is not None and (parameter := self.values.helper_parameter(value_file, value)) is not None:
                writes = _passed_at(callers, *parameter)
            found.extend(self.through_fields(writes, stored, hops - 1, callers) if writes else [(value_file, value)])
        return found

    def _stored_in_tests(self, file: GoFile, value: tree_sitter.Node) -> bool:
        """Whether a factory is stored in a field only where no binary runs: a test helper filling a fake handle
        (descheduler's `InitFrameworkHandle`, of a package only tests import) builds none a binary uses."""
        key = self.resolver.function_key(file, value)
        return file.is_test or (key is not None and self.unreached(key))

    def _getter_values(self, file: GoFile, call: tree_sitter.Node) -> list[tuple[GoFile, tree_sitter.Node | None]]:
        """What the module methods a call may run return (every implementation of an interface's method)."""
        callee = self.resolver.callee(file, call)
        implementations = [callee] if callee is not None else self.methods.implementations(file, call)
        return [(info.file, value) for info in implementations for value in returned_values(info.node)]

    def factory_built(
        self, file: GoFile, factory: tree_sitter.Node | None, package: str = INFORMERS
    ) -> tuple[GoFile, tree_sitter.Node] | None:
        """The `informers.New…SharedInformerFactory…(…)` call (of `package`) that built a factory, with its file:
        through local variables, and through a module function or a local function literal returning it (`f :=
        newFactory(cs)`)."""
        constructor = self.values.built_by(file, factory, package)
        if constructor is not None:
            return file, constructor
        built = self.values.defined_as(file, factory, 3)
        if built is None or built.type != "call_expression":
            return None
        info = self._called(file, built)
        function, function_file = (info.node, info.file) if info is not None else (None, file)
        called = built.child_by_field_name("function")
        if function is None and called is not None and called.type == "identifier":
            literal = self.values.defined_as(file, called, 2)  # `newOneTerm := func(name string) … { … }`
            function = literal if literal is not None and literal.type == "func_literal" else None
        for returned in returned_values(function) if function is not None else []:
            constructor = self.values.built_by(function_file, returned, package)
            if constructor is not None:  # the first return that builds one: the others return errors
                return function_file, constructor
        return None

    def _built_by(self, site: PendingSite, built: tuple[GoFile, tree_sitter.Node], kind: str) -> None:
        """A site's factory is the one this constructor builds: its restrictions are the site's."""
        site.factory_constructor = (built[0].path, built[1].start_byte)
        self._factory_restrictions(site, built[0], built[1], kind)

    def _factory_restrictions(self, site: PendingSite, file: GoFile, constructor: tree_sitter.Node, kind: str) -> None:
        """The namespace and list-option tweaks a factory's constructor (in `file`) applies."""
        name = method_name(constructor) or ""
        arguments = constructor.child_by_field_name("arguments")
        values = parser.named(arguments) if arguments is not None else []
        if name in _FILTERED_FACTORIES and len(values) >= 4:
            restrict_namespace(site, file, values[2], "namespace")
            if parser.text(values[3]) != "nil":
                self.options.tweak(site, file, values[3], "tweakListOptions")
        for value in values[2:]:
            spread = parser.first_named(value) if value.type == "variadic_argument" else None
            if spread is None:
                self._factory_option(site, file, value)
                continue
            # `NewSharedInformerFactoryWithOptions(cs, 0, opts...)`: the options appended to `opts`, each
            # under the conditions it is appended in (mpi-operator adds WithNamespace only for -namespace)
            held = (
                self.values.options_held(file, spread) if spread.type == "identifier" else self._returned(file, spread)
            )
            if held is None and spread.type == "identifier":
                # a variadic parameter: a local function's calls decide now, a module function's callers later
                held = self._passed_to_literal(file, spread)
                if held is None:
                    site.factory_options_parameter = self.values.helper_parameter(file, spread)
            self._guarded_options(site, file, held or [])

    def _guarded_options(self, site: PendingSite, file: GoFile, options: list[tree_sitter.Node]) -> None:
        """The restrictions of factory options written apart from the constructor (appended to a slice, passed
        by a call), each judged later under the conditions where it is written."""
        for item in options:
            before = len(site.restrictions)
            self._factory_option(site, file, item)
            guard_added(site, before, file, item)

    def _passed_to_literal(self, file: GoFile, spread: tree_sitter.Node) -> list[tree_sitter.Node] | None:
        """The options the calls of a local function literal pass for its variadic parameter (`esl := func(opts
        ...informers.SharedInformerOption) {…}` called as `esl(informers.WithNamespace(ns), …)`): those of the
        first call, none where one call passes none; None where a call hands on a slice, or for another name."""
        declaration = self.resolver.declaration(file, spread)
        function = innermost_function(spread)
        held = assigned_to(function) if function is not None and function.type == "func_literal" else None
        scope = innermost_function(function.parent) if function is not None and function.parent is not None else None
        if declaration is None or declaration.parameter_index < 0 or held is None or scope is None:
            return None
        if function is None or declaration.scope_start != function.start_byte or held.type != "identifier":
            return None
        name, index = parser.text(held), declaration.parameter_index
        calls = [
            call
            for call in calls_in(scope)
            if parser.text(call.child_by_field_name("function")) == name and call.start_byte > function.end_byte
        ]
        return _variadic_items([parser.named(call.child_by_field_name("arguments") or call) for call in calls], index)

    def variadic_options(
        self, site: PendingSite, callers: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]]
    ) -> None:
        """Add the restrictions of the informer factory options a module function's callers pass for its
        variadic parameter (`build(cs, informers.WithNamespace(ns))`): those of the first call, none where one
        call passes none; left as they are where a call hands on a slice or none is seen."""
        assert site.factory_options_parameter is not None
        key, index = site.factory_options_parameter
        calls = callers(key)
        passed = _variadic_items(
            [parser.named(call.child_by_field_name("arguments") or call) for _, call in calls], index
        )
        if passed is not None and calls:
            self._guarded_options(site, calls[0][0], passed)

    def _returned(self, file: GoFile, call: tree_sitter.Node) -> list[tree_sitter.Node]:
        """The options a function literal called on the spot returns (`func() []informers.SharedInformerOption {
        if !canFilter { return nil }; return []…{…} }()...`): the items of its slice literals, or those a local
        it returns holds (`opts := …; if canFilter { opts = append(opts, …) }; return opts`), each judged later
        under the conditions around it."""
        function = call.child_by_field_name("function") if call.type == "call_expression" else None
        if function is None or function.type != "func_literal":
            return []
        found = []
        for value in returned_values(function):
            if is_slice_literal(value):
                found.extend(literal_items(value))
            elif value.type == "identifier":
                found.extend(self.values.options_held(file, value) or [])
        return found

    def _factory_option(self, site: PendingSite, file: GoFile, value: tree_sitter.Node) -> None:
        """The restriction one informer factory option applies: WithNamespace or WithTweakListOptions, also
        held in a local (`opt := informers.WithNamespace(ns)`)."""
        if value.type == "identifier":
            value = self.values.defined_as(file, value, 2) or value
        file, value = self._option_built_by_helper(file, value)
        text = parser.text(value)
        option = value.child_by_field_name("arguments") if value.type == "call_expression" else None
        if "WithNamespace(" in text and (namespace := parser.first_named(option)) is not None:
            # named as the file spells it: `kubeinformers.WithNamespace` beside the project's own `informers`
            named = parser.text(value.child_by_field_name("function")) or "informers.WithNamespace"
            if names_every_namespace(file, namespace):  # cluster-node-tuning-operator's `NamespaceAll`
                site.every_namespace = Evidence(file.span(value), f"`{parser.text(value)}` is every namespace")
            restrict_namespace(site, file, namespace, named, file.span(value))
        elif "WithTweakListOptions(" in text and (tweak := parser.first_named(option)) is not None:
            self.options.tweak(site, file, tweak, "WithTweakListOptions")
        elif "WithTransform(" in text and site.transform is None and parser.text(parser.first_named(option)) != "nil":
            # a transform shrinks each object and keeps them all (SPEC §1): the finding says so
            shown = parser.text(value.child_by_field_name("function")) or "informers.WithTransform"
            kind = site.object.kind
            site.transform = Evidence(
                file.span(value), f"`{shown}(…)` keeps each {kind} smaller, but every one is still cached"
            )

    def _option_built_by_helper(self, file: GoFile, value: tree_sitter.Node) -> tuple[GoFile, tree_sitter.Node]:
        """The option a module function returns where the factory is given its call (virtual-kubelet's
        `PodInformerFilter(name)` returning `kubeinformers.WithTweakListOptions(…)`): that function's one
        returned option, read in its file; the value itself otherwise."""
        info = self.resolver.callee(file, value) if value.type == "call_expression" else None
        returned = returned_values(info.node) if info is not None else []
        if info is None or len(returned) != 1 or returned[0].type != "call_expression":
            return file, value
        if not any(option in parser.text(returned[0]) for option in _FACTORY_OPTIONS):
            return file, value
        return info.file, returned[0]


# the informer factory options whose restriction (or transform) a site takes
_FACTORY_OPTIONS = ("WithNamespace(", "WithTweakListOptions(", "WithTransform(")


def _variadic_items(arguments: list[list[tree_sitter.Node]], index: int) -> list[tree_sitter.Node] | None:
    """Of each call's arguments, those from `index` on (a variadic parameter's): the first call's; none where a
    call passes none (SPEC §1: a finding when any leaves the kind whole); None where one hands on a slice
    (`opts...`) or there is no call."""
    passed = [values[index:] for values in arguments]
    if not passed or any(item.type == "variadic_argument" for items in passed for item in items):
        return None
    return [] if any(not items for items in passed) else passed[0]


def _passed_at(
    callers: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]], key: FunctionKey, index: int
) -> list[tuple[GoFile, tree_sitter.Node | None]]:
    """What each call of a function passes as its parameter at `index` (None where the call passes too few)."""
    passed: list[tuple[GoFile, tree_sitter.Node | None]] = []
    for file, call in callers(key):
        values = parser.named(call.child_by_field_name("arguments") or call)
        passed.append((file, values[index] if index < len(values) else None))
    return passed


def _informers_group_version(package: str | None) -> tuple[str, str] | None:
    """The accessors of a generated group-version informers package (`Core`, `V1` of `k8s.io/client-go/
    informers/core/v1`); None for another package."""
    parts = package.removeprefix(INFORMERS + "/").split("/") if package and package.startswith(INFORMERS + "/") else []
    return (parts[0].capitalize(), parts[1].capitalize()) if len(parts) == 2 else None


def _options_to_add_to(site: PendingSite, built: tuple[GoFile, tree_sitter.Node]) -> None:
    """Where a factory built with options narrows nothing, those options: to add to, rather than a factory to
    build."""
    if not site.restrictions and method_name(built[1]) == "NewSharedInformerFactoryWithOptions":
        site.options_call = f"{parser.text(built[1].child_by_field_name('function'))}(…)"


def _none_judged(site: PendingSite, *, given: bool, fakes: int) -> bool:
    """Where no factory a parameter or field may hold was judged: the site stays unresolved (True) unless each
    was a fake clientset's. Of a parameter no call in the module passes (clickhouse-operator's
    `addEventHandlersEndpoints`, whose one call is commented out) it says so, not that it is built elsewhere."""
    if not given and not fakes:
        site.restrictions = [
            replace(restriction, text=_GIVEN_BY_NO_CALL) if restriction.text == _BUILT_ELSEWHERE else restriction
            for restriction in site.restrictions
        ]
    return fakes == 0


def _open_factory(built: tuple[GoFile, tree_sitter.Node]) -> Evidence:
    return Evidence(built[0].span(built[1]), "the informer factory is built here, with no namespace or selector")


def _note_open_factory(site: PendingSite, built: tuple[GoFile, tree_sitter.Node]) -> None:
    """Point a finding at the factory's constructor, where its fix goes, when nothing there narrows the kind
    (scylla-operator's 22 accessors of one factory built in another function)."""
    if not site.restrictions and site.through is None:
        site.through = site.every_namespace or _open_factory(built)


def stored_before(
    writes: Sequence[tuple[GoFile, tree_sitter.Node | None]], file: GoFile, node: tree_sitter.Node
) -> list[tuple[GoFile, tree_sitter.Node | None]]:
    """The values a field is written in the function around `node`, before it, where there are any (each
    component's constructor storing a factory of its own in one field: the one it stores is the one it uses);
    otherwise every value written."""
    function = innermost_function(node)
    here: list[tuple[GoFile, tree_sitter.Node | None]] = [
        (value_file, value)
        for value_file, value in writes
        if function is not None
        and value is not None
        and value_file.path == file.path
        and parser.encloses(function, value)
        and value.start_byte < node.start_byte
    ]
    return here or list(writes)


def _last_name(value: tree_sitter.Node) -> str:
    """`CM` of `k8s.CM` or `CM`: the name a package-qualified constant ends with."""
    return parser.text(value).rsplit(".", 1)[-1]
