"""Sites in Go code: builder chains, Watch with source.Kind, informers, indexers, informer factories,
clientset calls, and Get/List through controller-runtime readers (SPEC §3.1)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

import tree_sitter

from watchlint.catalog import KindIndex
from watchlint.facts import Access, Evidence, Mitigation, ObjectForm, Operation, Restriction
from watchlint.go import parser
from watchlint.go.clients import ClientGraph, ClientRef
from watchlint.go.declarations import FunctionKey, resolve_type
from watchlint.go.fieldselectors import FieldKey, extract_field_keys
from watchlint.go.model import (
    CR_CLIENT,
    CR_SOURCE,
    FAKE_CLIENTSET,
    INFORMERS,
    KNATIVE_INFORMERS,
    KNATIVE_INJECTION,
    META_V1,
    TOOLS_CACHE,
    GoFile,
    TypeRef,
)
from watchlint.go.resolve import (
    ObjectRef,
    Resolver,
    append_arguments,
    is_slice_literal,
    keyed_elements,
    literal_items,
)
from watchlint.go.scope import innermost_function, returned_values
from watchlint.go.writes import Write, WriteKind, writes_of
from watchlint.source import Span

BUILDER_METHODS = frozenset({"For", "Owns", "Watches", "WatchesMetadata", "WatchesRawSource"})
_READS = frozenset({"Get", "List"})
_MAX_OPTION_HOPS = 3  # variables followed to the List options they hold
_INFORMERS = frozenset({"GetInformer", "GetInformerForKind", "IndexField"})
_LIST_WATCH_INFORMERS = frozenset(
    {"NewSharedIndexInformer", "NewSharedInformer", "NewInformer", "NewIndexerInformer", "NewInformerWithOptions"}
)
_STANDALONE_INFORMER = re.compile(r"New(?P<filtered>Filtered)?(?P<kind>[A-Z]\w*)Informer")
_ALL_NAMESPACES = ('""', "metav1.NamespaceAll", "corev1.NamespaceAll", "v1.NamespaceAll", "cache.AllNamespaces")
_SELECTOR_OPTIONS = frozenset(
    {"MatchingLabels", "MatchingLabelsSelector", "MatchingFields", "MatchingFieldsSelector", "HasLabels"}
)
MAX_CONSTRUCT = 80
# What a list-options tweak may set a selector to that selects everything.
_NO_SELECTOR = frozenset({'""', "``", "labels.Everything().String()", "fields.Everything().String()"})
# Namespace expressions judged with their default value: a variable, or a pointer to one (`Pods(*namespace)`).
# Not a field nor a function's result: what reaches them is followed less surely than where they are read
# from (cert-manager reads a namespace field in informers built only behind a feature gate's interface).
_JUDGED_NAMESPACES = frozenset({"identifier", "unary_expression"})


@dataclass(slots=True)
class PendingSite:
    """A site before module-wide resolution: its client is still a reference, its policies unknown."""

    file: GoFile
    node: tree_sitter.Node  # the call
    operation: Operation
    access: Access
    object: ObjectRef
    span: Span
    call: str
    construct: str
    enclosing: str
    client: ClientRef | None = None  # for controller-runtime reads: the receiver, resolved later
    restrictions: list[Restriction] = field(default_factory=list)
    filters: list[Evidence] = field(default_factory=list)
    group: int | None = None  # builder chain identity, for builder-wide WithEventFilter
    cache: str = ""  # policy key of a cluster.New cache the site uses; "" for the binary's manager
    helper: tuple[FunctionKey, int] | None = None  # the object is this parameter of a helper: see its calls
    forwarded: int | None = None  # a helper's variadic parameter passed on as the watch's options (`opts...`)
    # namespace restrictions and the expression naming the namespace, judged for the default deployment later
    namespaces: list[tuple[Restriction, GoFile, tree_sitter.Node]] = field(default_factory=list)
    is_raw_source: bool = False  # WatchesRawSource: WithEventFilter does not apply
    field_keys: list[FieldKey] = field(default_factory=list)  # a List's field selector: cache indexes, for fixes
    factory_parameter: tuple[FunctionKey, int] | None = None  # the informer factory is this parameter
    # the informer factory is this field of a struct, or (True) one of the items of this field
    factory_field: tuple[TypeRef | None, str, bool] | None = None
    # restrictions a tweak of the list options sets under the conditions around the node, judged later
    guarded: list[tuple[Restriction, GoFile, tree_sitter.Node]] = field(default_factory=list)
    injected: bool = False  # an informer of knative's injection: injection's namespace scope applies


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
            plural = kind.name if kind.name.endswith("s") else f"{kind.name}s"
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


class SiteExtractor:
    """Finds the sites of one file; builder-wide event filters are applied per chain once all are found."""

    def __init__(self, resolver: Resolver, clients: ClientGraph, names: TypedClientNames) -> None:
        self.resolver = resolver
        self.clients = clients
        self.names = names
        self._served: list[tuple[int, int]] = []  # byte ranges of the ListFuncs and WatchFuncs informer sites read
        # `injection.WithNamespaceScope(ctx, ns)` calls of the module: they scope every injected informer
        self.injection_scopes: list[tuple[GoFile, tree_sitter.Node, list[tree_sitter.Node]]] = []
        # by file, the field assignments (`f.client = …`) by the field expression's text
        self._field_assignments: dict[str, dict[str, list[tuple[tree_sitter.Node, tree_sitter.Node]]]] = {}

    def extract(self, file: GoFile) -> list[PendingSite]:
        sites: list[PendingSite] = []
        event_filters: dict[int, list[Evidence]] = {}
        self._served = []
        for call, operand, method, argument_list in _method_calls(file):
            arguments = parser.named(argument_list)
            if method == "WithEventFilter":
                group = self._chain_group(file, call)
                event_filters.setdefault(group, []).append(_evidence(file, call, "WithEventFilter"))
                continue
            if method == "WithNamespaceScope" and file.imports.get(parser.text(operand)) == KNATIVE_INJECTION:
                self.injection_scopes.append((file, call, arguments))
                continue
            sites.extend(self._site(file, call, method, operand, arguments))
        if self._served:  # the List and Watch of a ListWatch an informer site stands for
            sites = [site for site in sites if not _served_by(site, self._served)]
        for site in sites:
            if site.operation is Operation.WATCH and not site.is_raw_source and site.group in event_filters:
                site.filters.extend(event_filters[site.group])
        return sites

    def _site(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        method: str,
        operand: tree_sitter.Node,
        arguments: list[tree_sitter.Node],
    ) -> Iterator[PendingSite]:
        if method in BUILDER_METHODS:
            yield from self._builder_site(file, call, method, arguments)
        elif method == "Watch" and arguments and self._source_kind(file, arguments[0]) is not None:
            yield from self._watch_site(file, call, arguments)
        elif method in _INFORMERS:
            yield from self._informer_site(file, call, method, arguments)
        elif method in _READS or method == "Watch":
            yield from self._read_or_watch(file, call, method, operand, arguments)
        elif not arguments:
            informer = self._factory_site(file, call, method, operand)
            if informer is not None:
                yield informer
        elif (standalone := _STANDALONE_INFORMER.fullmatch(method)) is not None or method in _LIST_WATCH_INFORMERS:
            yield from self._standalone_informer_site(file, call, method, operand, arguments, standalone)

    def _read_or_watch(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        method: str,
        operand: tree_sitter.Node,
        arguments: list[tree_sitter.Node],
    ) -> Iterator[PendingSite]:
        """A Get, List or Watch: of an injected informer (`Get(ctx)`), a clientset, or a controller-runtime
        reader."""
        injected = self._injected_informer_site(file, call, operand, arguments) if method == "Get" else None
        clientset = injected or self._clientset_site(file, call, method, operand, arguments)
        if clientset is not None:
            yield clientset
        elif method in _READS:
            yield from self._read_site(file, call, method, operand, arguments)

    # -- builder chains ------------------------------------------------------------------------------
    def _builder_site(
        self, file: GoFile, call: tree_sitter.Node, method: str, arguments: list[tree_sitter.Node]
    ) -> Iterator[PendingSite]:
        if not arguments:
            return
        first = arguments[0]
        options = arguments[1:]
        found = self.resolver.object_of(file, first)
        helper = self._helper_parameter(file, first) if found is None else None
        if helper is not None:
            found = ObjectRef("", ObjectForm.TYPED, parser.text(first), False)
        kind_predicates: list[tree_sitter.Node] = []
        cache = ""
        if found is None:
            source = self._source_kind(file, first)
            if source is None:
                return
            found, kind_call = source
            kind_predicates = self._kind_predicates(kind_call)
            cache = self._cache_of(file, kind_call)
        form = ObjectForm.METADATA if method == "WatchesMetadata" or _has_only_metadata(options) else found.form
        site = self._pending(file, call, method, Operation.WATCH, Access.CACHE, found, form)
        site.filters.extend(self._predicates(file, options, method))
        site.filters.extend(self._predicates(file, kind_predicates, "Watch"))
        site.cache = cache
        site.group = self._chain_group(file, call)
        site.is_raw_source = method == "WatchesRawSource"
        site.helper = helper
        site.forwarded = self._forwarded_options(file, options) if helper is not None else None
        yield site

    def _forwarded_options(self, file: GoFile, options: list[tree_sitter.Node]) -> int | None:
        """The index of the helper's parameter a watch takes its options from (`Watches(obj, h, opts...)`)."""
        last = options[-1] if options else None
        name = parser.first_named(last) if last is not None and last.type == "variadic_argument" else None
        declaration = self.resolver.declaration(file, name) if name is not None and name.type == "identifier" else None
        return declaration.parameter_index if declaration is not None and declaration.parameter_index >= 0 else None

    def _predicates(self, file: GoFile, options: list[tree_sitter.Node], method: str) -> Iterator[Evidence]:
        for option in options:
            text = parser.text(option)
            value = self._option_value(file, option)
            if value.type == "call_expression" and parser.text(value).split("(", 1)[0].endswith("WithPredicates"):
                yield _evidence(file, option, "WithPredicates" if value is option else None)
            elif method == "Watch" and not _is_handler(text):
                yield _evidence(file, option, None)

    def _helper_parameter(self, file: GoFile, node: tree_sitter.Node) -> tuple[FunctionKey, int] | None:
        """When an object argument is a parameter of the named function around it, that function is a helper
        (`watchOwned(b, &corev1.Secret{})`): its callers name the kind (SPEC §3.1 Helpers)."""
        target = node.child_by_field_name("operand") if node.type == "unary_expression" else node
        if target is None or target.type != "identifier":
            return None
        declaration = self.resolver.declaration(file, target)
        copied = _copied_from(declaration.value_node) if declaration is not None else None
        if copied is not None:  # `curr := empty.DeepCopyObject().(T)`: the same kind as the parameter
            declaration = self.resolver.declaration(file, copied)
        key = self.resolver.function_key(file, node)
        info = self.resolver.declarations.functions.get(key) if key is not None else None
        if declaration is None or declaration.parameter_index < 0 or info is None:
            return None
        if info.node.start_byte != declaration.scope_start:
            return None  # a parameter of a function literal: its callers are not known
        return info.key, declaration.parameter_index

    def expand_helpers(
        self,
        pending: list[PendingSite],
        callers: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]],
        deployed: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]],
        stored: Callable[..., list[tuple[GoFile, tree_sitter.Node]]],
    ) -> list[PendingSite]:
        """Replace each helper site by one site per call that passes a known kind, reported at that call; judge
        an informer of a factory parameter by the factories passed where the binary calls it (`deployed`),
        and one of a factory field by the factories the module stores in it (`stored`)."""
        expanded = []
        for site in pending:
            if site.factory_parameter is not None and not self._passed_factories(site, deployed):
                continue
            writes = []
            if site.factory_field is not None:
                owner, name, elements = site.factory_field
                writes = stored(owner, name, elements=elements)
            if writes and not self._held_factories(site, list(writes)):
                continue
            if site.helper is None:
                expanded.append(site)
                continue
            key, index = site.helper
            for caller_file, call in callers(key):
                arguments = call.child_by_field_name("arguments")
                values = parser.named(arguments) if arguments is not None else []
                found = self.resolver.object_of(caller_file, values[index]) if index < len(values) else None
                if found is None or (site.operation is Operation.LIST) != found.is_list:
                    continue
                copy = self._from_helper(site, caller_file, call, found)
                if site.forwarded is not None:  # the caller's options are the watch's
                    options = values[site.forwarded :]
                    copy.filters.extend(self._predicates(caller_file, options, "Watches"))
                    if _has_only_metadata(options):
                        copy.object = replace(copy.object, form=ObjectForm.METADATA)
                expanded.append(copy)
        return expanded

    def _from_helper(self, site: PendingSite, file: GoFile, call: tree_sitter.Node, found: ObjectRef) -> PendingSite:
        form = ObjectForm.METADATA if site.object.form is ObjectForm.METADATA else found.form
        function = call.child_by_field_name("function")
        name = " ".join(parser.text(function).split())
        shown = ObjectRef(found.kind, form, found.text, found.is_list, found.package)
        key = self.resolver.function_key(file, call)
        enclosing = (f"(*{key.receiver}).{key.name}" if key.receiver else key.name) if key is not None else ""
        construct = _construct(call, "", name, shown)
        copy = PendingSite(
            file, call, site.operation, site.access, shown, file.name_span(call), name, construct, enclosing
        )
        copy.client, copy.restrictions, copy.filters = site.client, list(site.restrictions), list(site.filters)
        copy.cache, copy.is_raw_source, copy.field_keys = site.cache, site.is_raw_source, list(site.field_keys)
        return copy

    def _option_value(self, file: GoFile, option: tree_sitter.Node) -> tree_sitter.Node:
        """A builder option given through a variable (`reconcilers.OnlyUpdates = builder.WithPredicates(…)`),
        or returned by a module function (`For(&corev1.Pod{}, r.forOption())`)."""
        if option.type == "call_expression" and not parser.text(option).split("(", 1)[0].endswith("WithPredicates"):
            info = self.resolver.callee(file, option)
            returned = returned_values(info.node) if info is not None else []
            return next((value for value in returned if value.type == "call_expression"), option)
        if option.type == "identifier":
            declaration = self.resolver.declaration(file, option)
            if declaration is not None:
                return declaration.value_node or option
            variable = self.resolver.declarations.variables.get((file.package_path, parser.text(option)))
            return variable.value_node if variable is not None and variable.value_node is not None else option
        if option.type == "selector_expression":
            operand = option.child_by_field_name("operand")
            package = file.imports.get(parser.text(operand)) if operand is not None else None
            if package is not None:
                name = parser.text(option.child_by_field_name("field"))
                variable = self.resolver.declarations.variables.get((package, name))
                if variable is not None and variable.value_node is not None:
                    return variable.value_node
        return option

    def _kind_predicates(self, kind_call: tree_sitter.Node | None) -> list[tree_sitter.Node]:
        """Predicates passed to a v0.18 `source.Kind(cache, obj, handler, predicates…)`."""
        if kind_call is None or kind_call.type != "call_expression":
            return []
        arguments = kind_call.child_by_field_name("arguments")
        return list(parser.named(arguments)[3:]) if arguments is not None else []

    def _source_kind(self, file: GoFile, node: tree_sitter.Node) -> tuple[ObjectRef, tree_sitter.Node] | None:
        """`source.Kind(cache, obj, …)`, `source.Kind[T](…)`, `source.TypedKind(…)` and `&source.Kind{Type: obj}`,
        also through a local variable."""
        target = self._defined_as(file, node, 2, through_address=True)
        if target is None:
            return None
        if target.type == "composite_literal":
            type_ref = resolve_type(target.child_by_field_name("type"), file)
            if type_ref is None or not type_ref.is_(CR_SOURCE, "Kind"):
                return None
            for key, value in keyed_elements(target):
                if key == "Type":
                    found = self.resolver.object_of(file, value)
                    return (found, target) if found else None
            return None
        if target.type != "call_expression":
            return None
        function = target.child_by_field_name("function")
        if function is None or not parser.text(function).split("[", 1)[0].endswith((".Kind", ".TypedKind")):
            return None
        operand = function.child_by_field_name("operand") if function.type == "selector_expression" else None
        if operand is not None and file.imports.get(parser.text(operand)) not in (CR_SOURCE, None):
            return None
        arguments = target.child_by_field_name("arguments")
        values = parser.named(arguments) if arguments is not None else []
        found = self.resolver.object_of(file, values[1]) if len(values) > 1 else None
        return (found, target) if found else None

    def _defined_as(
        self, file: GoFile, node: tree_sitter.Node | None, hops: int, *, through_address: bool = False
    ) -> tree_sitter.Node | None:
        """The expression behind at most `hops` local variables (`src := source.Kind(…)`, `factory :=
        informers.New…(…)`), and behind `&` when `through_address`; None where a variable has no value."""
        for _ in range(hops):
            if through_address and node is not None and node.type == "unary_expression":
                node = node.child_by_field_name("operand")
            if node is not None and node.type == "selector_expression":
                return self._assigned_before(file, node) or node
            if node is None or node.type != "identifier":
                return node
            declaration = self.resolver.declaration(file, node)
            node = declaration.value_node if declaration is not None else None
        return node

    def _watch_site(
        self, file: GoFile, call: tree_sitter.Node, arguments: list[tree_sitter.Node]
    ) -> Iterator[PendingSite]:
        source = self._source_kind(file, arguments[0])
        if source is None:
            return
        found, kind_call = source
        predicates = [*arguments[2:], *self._kind_predicates(kind_call)]
        site = self._pending(file, call, "Watch", Operation.WATCH, Access.CACHE, found, found.form)
        site.cache = self._cache_of(file, kind_call)
        site.filters.extend(self._predicates(file, predicates, "Watch"))
        yield site

    def _cache_of(self, file: GoFile, kind_call: tree_sitter.Node) -> str:
        """The cluster.New cache a `source.Kind(cache, …)` reads, "" for the manager's."""
        if kind_call.type != "call_expression":
            return ""
        arguments = kind_call.child_by_field_name("arguments")
        first = parser.first_named(arguments)
        known = self.clients.resolve(self.clients.ref_of(file, first)) if first is not None else None
        return known.cache if known is not None else ""

    def _chain_group(self, file: GoFile, call: tree_sitter.Node) -> int:
        """Identity of a builder chain: its root call, or the declaration of the builder variable it extends."""
        node = call
        for _ in range(64):
            function = node.child_by_field_name("function") if node.type == "call_expression" else None
            if function is None or function.type != "selector_expression":
                break
            operand = function.child_by_field_name("operand")
            if operand is None:
                break
            if operand.type == "identifier":
                if parser.text(operand) in file.imports and self.resolver.declaration(file, operand) is None:
                    return node.id  # a package function such as ctrl.NewControllerManagedBy(mgr)
                declaration = self.resolver.declaration(file, operand)
                if declaration is None:
                    return operand.id
                if declaration.value_node is not None and declaration.value_node.type == "call_expression":
                    node = declaration.value_node
                    continue
                return declaration.node.id
            node = operand
        return node.id

    # -- informers, indexers, factories --------------------------------------------------------------
    def _informer_site(
        self, file: GoFile, call: tree_sitter.Node, method: str, arguments: list[tree_sitter.Node]
    ) -> Iterator[PendingSite]:
        if len(arguments) < 2:
            return
        helper = None
        if method == "GetInformerForKind":
            kind = self.resolver.gvk_kind(arguments[1])
            if kind is None:
                return
            found = ObjectRef(kind, ObjectForm.TYPED, " ".join(parser.text(arguments[1]).split()), False)
        else:
            resolved = self.resolver.object_of(file, arguments[1])
            helper = self._helper_parameter(file, arguments[1]) if resolved is None else None
            if helper is not None:
                resolved = ObjectRef("", ObjectForm.TYPED, parser.text(arguments[1]), False)
            if resolved is None:
                return
            found = resolved
        site = self._pending(file, call, method, Operation.WATCH, Access.CACHE, found, found.form)
        site.helper = helper
        receiver = _operand_of(call)
        if receiver is not None:
            site.cache = self.clients.cluster_of(file, receiver)
            if not site.cache:
                known = self.clients.resolve(self.clients.ref_of(file, receiver))
                site.cache = known.cache if known is not None else ""
        yield site

    def _factory_site(
        self, file: GoFile, call: tree_sitter.Node, method: str, operand: tree_sitter.Node
    ) -> PendingSite | None:
        version_call = operand if operand.type == "call_expression" else None
        version = _method_name(version_call)
        group_call = _operand_of(version_call)
        group = _method_name(group_call)
        kind = self.names.informers.get((group or "", version or "", method))
        if kind is None or group_call is None:
            return None
        factory = _operand_of(group_call)
        built = self._factory_built(file, factory)
        if built is not None and self._is_fake_clientset(
            built[0], parser.first_named(built[1].child_by_field_name("arguments"))
        ):
            return None  # an in-memory clientset of tests: nothing is listed from a cluster
        found = ObjectRef(kind, ObjectForm.TYPED, f"{group}().{version}().{method}()", False)
        site = self._pending(file, call, method, Operation.WATCH, Access.INFORMER_FACTORY, found, ObjectForm.TYPED)
        if built is None:
            span = file.span(factory) if factory is not None else file.span(file.tree.root_node)
            site.restrictions.append(Restriction(Mitigation.UNRESOLVED, kind, span, "informer factory built elsewhere"))
            # a parameter or a field: the factories its callers pass, or the module stores in the field, decide
            # once the module's calls and writes are known
            site.factory_parameter = self._helper_parameter(file, factory) if factory is not None else None
            held = (
                factory.child_by_field_name("operand")
                if factory is not None and factory.type == "index_expression"
                else None
            )
            if factory is not None and factory.type == "selector_expression":
                owner = self.resolver.type_of(file, factory.child_by_field_name("operand"))
                site.factory_field = owner, parser.text(factory.child_by_field_name("field")), False
            elif held is not None and held.type == "selector_expression":  # `c.factories[ns]`: a map's items
                owner = self.resolver.type_of(file, held.child_by_field_name("operand"))
                site.factory_field = owner, parser.text(held.child_by_field_name("field")), True
        else:
            self._factory_restrictions(site, built[0], built[1], kind)
        return site

    def _passed_factories(
        self, site: PendingSite, callers: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]]
    ) -> bool:
        """Judge a factory parameter's informer by the factories its callers pass (see `_held_factories`)."""
        assert site.factory_parameter is not None
        passed: list[tuple[GoFile, tree_sitter.Node | None]] = []
        pending, seen = [(site.factory_parameter, 0)], set()
        while pending:
            (key, index), level = pending.pop()
            if (key, index) in seen:
                continue
            seen.add((key, index))
            for caller_file, call in callers(key):
                values = parser.named(call.child_by_field_name("arguments") or call)
                value = values[index] if index < len(values) else None
                # a parameter of the caller in turn: what its own callers pass (descheduler hands it down twice)
                above = self._helper_parameter(caller_file, value) if value is not None and level < 3 else None
                if above is not None and self._factory_built(caller_file, value) is None:
                    pending.append((above, level + 1))
                else:
                    passed.append((caller_file, value))
        return self._held_factories(site, passed)

    def _held_factories(self, site: PendingSite, values: list[tuple[GoFile, tree_sitter.Node | None]]) -> bool:
        """Judge the informer of a factory parameter or field by the factories it may hold (what the callers
        pass, what the module stores): narrowed only when each is; left "built elsewhere" when one of them
        cannot be seen. False when each is over a fake clientset (tests: nothing is listed from a cluster)."""
        judged, fakes, unseen = [], 0, 0
        for value_file, value in values:
            built = self._factory_built(value_file, value) if value is not None else None
            if built is None:
                unseen += 1
                continue
            if self._is_fake_clientset(built[0], parser.first_named(built[1].child_by_field_name("arguments"))):
                fakes += 1
                continue
            copy = PendingSite(site.file, site.node, site.operation, site.access, site.object, site.span, "", "", "")
            self._factory_restrictions(copy, built[0], built[1], site.object.kind)
            judged.append(copy)
        # one factory seen to leave the kind unrestricted decides (SPEC §1: a finding when any leaves it so);
        # otherwise one that cannot be seen keeps the site "built elsewhere"
        chosen = next((copy for copy in judged if not copy.restrictions), None)
        if chosen is None and unseen:
            return True
        if chosen is None and not judged:
            return fakes == 0
        chosen = chosen or judged[0]
        site.restrictions, site.namespaces = chosen.restrictions, chosen.namespaces
        return True

    def _list_func_restrictions(self, site: PendingSite, file: GoFile, list_watch: tree_sitter.Node, kind: str) -> bool:
        """`&cache.ListWatch{ListFunc: func(options metav1.ListOptions) … { return cs.CoreV1().Pods(ns).List(ctx,
        options) }, …}`: the informer lists as its ListFunc does, with the namespace it names and the options
        the reflector passes (no selector, unless the function sets one). False when that cannot be read."""
        literal_type = resolve_type(list_watch.child_by_field_name("type"), file)
        if (
            list_watch.type != "composite_literal"
            or literal_type is None
            or not literal_type.is_(TOOLS_CACHE, "ListWatch")
        ):
            return False
        function = next((value for key, value in keyed_elements(list_watch) if key == "ListFunc"), None)
        if function is None or function.type != "func_literal":
            return False
        listed = next((call for call in _calls_in(function) if _method_name(call) == "List"), None)
        values = parser.named(listed.child_by_field_name("arguments") or listed) if listed is not None else []
        resource = _operand_of(listed) if listed is not None else None
        namespaces = parser.named(resource.child_by_field_name("arguments") or resource) if resource is not None else []
        if listed is None or not values or resource is None or resource.type != "call_expression":
            return False
        if namespaces:
            _restrict_namespace(site, file, namespaces[0], "namespace")
        # the options come last: `List(ctx, options)`, `List(options)` before client-go 0.18
        site.restrictions.extend(self._list_options(file, values[-1], kind))
        self._served.extend(
            (value.start_byte, value.end_byte)
            for key, value in keyed_elements(list_watch)
            if key in ("ListFunc", "WatchFunc") and value.type == "func_literal"
        )
        return True

    def _reflector_options(self, file: GoFile, options: tree_sitter.Node, kind: str) -> list[Restriction] | None:
        """For the options parameter of a `func(options metav1.ListOptions)` (a ListFunc or WatchFunc handed to
        a reflector, which passes no selector): a selector when the function sets them (`options.LabelSelector
        = …`) or hands them to a tweak (`tweak(&options)`), else none. None for other options."""
        function = innermost_function(options)
        declaration = self.resolver.declaration(file, options) if options.type == "identifier" else None
        if (
            function is None
            or function.type != "func_literal"
            or declaration is None
            or declaration.parameter_index != 0
            or declaration.scope_start != function.start_byte
        ):
            return None
        declared = resolve_type(declaration.type_node, file) if declaration.type_node is not None else None
        if declared is None or not declared.is_(META_V1, "ListOptions"):
            return None
        name = parser.text(options)
        if len(_uses_in(function, name)) <= 1:
            return []
        return [Restriction(Mitigation.SELECTOR, kind, file.span(function), f"the function sets {name}")]

    def _factory_built(self, file: GoFile, factory: tree_sitter.Node | None) -> tuple[GoFile, tree_sitter.Node] | None:
        """The `informers.New…SharedInformerFactory…(…)` call that built a factory, with its file: through local
        variables, and through a module function returning it (`f := newFactory(cs)`)."""
        constructor = self._built_by(file, factory, INFORMERS)
        if constructor is not None:
            return file, constructor
        built = self._defined_as(file, factory, 3)
        info = self.resolver.callee(file, built) if built is not None and built.type == "call_expression" else None
        if info is None:
            return None
        for returned in returned_values(info.node):
            constructor = self._built_by(info.file, returned, INFORMERS)
            if constructor is not None:  # the first return that builds one: the others return errors
                return info.file, constructor
        return None

    def _standalone_informer_site(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        method: str,
        operand: tree_sitter.Node,
        arguments: list[tree_sitter.Node],
        match: re.Match[str] | None,
    ) -> Iterator[PendingSite]:
        """`corev1informers.NewSecretInformer(client, namespace, resync, indexers)` and its `NewFiltered…`
        form, whose last argument adjusts the list options: an informer of its own, outside any factory;
        tools/cache's informers over a list-watch have a form of their own."""
        package = file.imports.get(parser.text(operand)) if operand.type == "identifier" else None
        if package == TOOLS_CACHE and method in _LIST_WATCH_INFORMERS:
            yield from self._list_watch_informer_site(file, call, method, arguments)
            return
        if match is None:
            return
        kind = self.names.standalone.get((package or "", match.group("kind")))
        if kind is None or len(arguments) < 2 or self._is_fake_clientset(file, arguments[0]):
            return
        found = ObjectRef(kind, ObjectForm.TYPED, f"{match.group('kind')} informer", False)
        site = self._pending(file, call, method, Operation.WATCH, Access.INFORMER_FACTORY, found, ObjectForm.TYPED)
        _restrict_namespace(site, file, arguments[1], "namespace")
        tweak = arguments[4] if match.group("filtered") and len(arguments) > 4 else None
        if tweak is not None and parser.text(tweak) != "nil":
            self._tweak(site, file, tweak, "tweakListOptions")
        yield site

    def _list_watch_informer_site(
        self, file: GoFile, call: tree_sitter.Node, method: str, arguments: list[tree_sitter.Node]
    ) -> Iterator[PendingSite]:
        """`cache.NewSharedIndexInformer(lw, &corev1.Pod{}, …)` (and NewSharedInformer, NewInformer,
        NewIndexerInformer, and NewInformerWithOptions with its ListerWatcher and ObjectType) over
        `cache.NewListWatchFromClient(getter, "pods", namespace, fieldSelector)`: narrowed by the list-watch's
        namespace and selector; another list-watch counts as narrowing."""
        if method == "NewInformerWithOptions":
            options = self._defined_as(file, arguments[0], 2, through_address=True) if arguments else None
            fields = (
                dict(keyed_elements(options)) if options is not None and options.type == "composite_literal" else {}
            )
            if "ListerWatcher" not in fields or "ObjectType" not in fields:
                return
            arguments = [fields["ListerWatcher"], fields["ObjectType"]]
        found = self.resolver.object_of(file, arguments[1]) if len(arguments) > 1 else None
        if found is None:
            return
        site = self._pending(file, call, method, Operation.WATCH, Access.INFORMER_FACTORY, found, found.form)
        list_watch = self._defined_as(file, arguments[0], 2, through_address=True)
        name, values = None, []
        if list_watch is not None and list_watch.type == "call_expression":
            name = _method_name(list_watch)
            values = parser.named(list_watch.child_by_field_name("arguments") or list_watch)
        if list_watch is not None and self._list_func_restrictions(site, file, list_watch, found.kind):
            yield site
            return
        if name not in ("NewListWatchFromClient", "NewFilteredListWatchFromClient") or len(values) < 4:
            text = " ".join(parser.text(arguments[0]).split())
            site.restrictions.append(Restriction(Mitigation.UNRESOLVED, found.kind, file.span(arguments[0]), text))
            yield site
            return
        _restrict_namespace(site, file, values[2], "namespace")
        selector = values[3]
        if parser.text(selector).endswith(("Everything()", "Nothing()", "nil")):  # Nothing() sends no selector
            pass
        elif name.startswith("NewFiltered"):
            self._tweak(site, file, selector, "optionsModifier")
        else:
            site.restrictions.append(Restriction(Mitigation.SELECTOR, found.kind, file.span(selector), "fieldSelector"))
        yield site

    def _tweak(self, site: PendingSite, file: GoFile, tweak: tree_sitter.Node, text: str) -> None:
        """A function adjusting the list options (`func(options *metav1.ListOptions)`) narrows by the
        selectors it sets, each judged later under the conditions it is set in (Reloader sets a label selector
        only when a flag is given); one that cannot be read, or hands the options on, counts as narrowing."""
        kind = site.object.kind
        function = self._defined_as(file, tweak, 2) if tweak.type == "identifier" else tweak
        parameters = function.child_by_field_name("parameters") if function is not None else None
        names = parser.captures("(parameter_declaration name: (identifier) @name)", parameters) if parameters else {}
        options = [parser.text(node) for node in names.get("name", [])]
        if function is None or function.type != "func_literal" or len(options) != 1:
            site.restrictions.append(Restriction(Mitigation.SELECTOR, kind, file.span(tweak), text))
            return
        uses = _uses_in(function, options[0])
        written: list[tuple[tree_sitter.Node, tree_sitter.Node, str]] = []
        for left, right in file.assignments():
            target, value = parser.named(left)[0], parser.named(right)[0]
            operand = target.child_by_field_name("operand") if target.type == "selector_expression" else None
            if operand is not None and operand in uses:
                written.append((target, value, parser.text(target.child_by_field_name("field"))))
        if len(written) < len(uses):  # the options are handed on or read: what they end up holding is not seen
            site.restrictions.append(Restriction(Mitigation.SELECTOR, kind, file.span(tweak), text))
            return
        for target, value, name in written:
            if name in ("LabelSelector", "FieldSelector") and parser.text(value) not in _NO_SELECTOR:
                restriction = Restriction(Mitigation.SELECTOR, kind, file.span(target), f"{text}'s {name}")
                site.restrictions.append(restriction)
                site.guarded.append((restriction, file, target))

    def _injected_informer_site(
        self, file: GoFile, call: tree_sitter.Node, operand: tree_sitter.Node, arguments: list[tree_sitter.Node]
    ) -> PendingSite | None:
        """`secretinformer.Get(ctx)` of knative's injection: the informer of a factory over every namespace
        unless the module scopes injection (`injection.WithNamespaceScope`); its `filtered` form is given a
        label selector (`Get(ctx, selector)`)."""
        package = file.imports.get(parser.text(operand)) if operand.type == "identifier" else None
        if package is None or not package.startswith(KNATIVE_INFORMERS + "/"):
            return None
        filtered = package.endswith("/filtered")
        kind = self.names.injected.get(package.removesuffix("/filtered"))
        if kind is None:
            return None
        found = ObjectRef(kind, ObjectForm.TYPED, f"injected {kind} informer", False)
        access, alias = Access.INFORMER_FACTORY, parser.text(operand)
        site = self._pending(file, call, "Get", Operation.WATCH, access, found, ObjectForm.TYPED, receiver=alias)
        site.injected = True
        if filtered:
            selector = arguments[1] if len(arguments) > 1 else call
            site.restrictions.append(Restriction(Mitigation.SELECTOR, kind, file.span(selector), "filtered informer"))
        return site

    def scope_injected(self, pending: list[PendingSite]) -> None:
        """Narrow every injected informer by the namespace scopes the module gives injection, each judged
        under the conditions it is given in."""
        for site in pending:
            if not site.injected:
                continue
            for file, call, arguments in self.injection_scopes:
                if len(arguments) < 2:
                    continue
                scope = _restrict_namespace(site, file, arguments[1], "injection.WithNamespaceScope", file.span(call))
                if scope is not None:
                    site.guarded.append((scope, file, call))

    def _factory_restrictions(self, site: PendingSite, file: GoFile, constructor: tree_sitter.Node, kind: str) -> None:
        """The namespace and list-option tweaks a factory's constructor (in `file`) applies."""
        name = _method_name(constructor) or ""
        arguments = constructor.child_by_field_name("arguments")
        values = parser.named(arguments) if arguments is not None else []
        if name == "NewFilteredSharedInformerFactory" and len(values) >= 4:
            _restrict_namespace(site, file, values[2], "namespace")
            if parser.text(values[3]) != "nil":
                self._tweak(site, file, values[3], "tweakListOptions")
        for value in values[2:]:
            spread = parser.first_named(value) if value.type == "variadic_argument" else None
            if spread is None:
                self._factory_option(site, file, value)
                continue
            # `NewSharedInformerFactoryWithOptions(cs, 0, opts...)`: the options appended to `opts`, each
            # under the conditions it is appended in (mpi-operator adds WithNamespace only for -namespace)
            held = self._options_held(file, spread) if spread.type == "identifier" else _options_returned(spread)
            for item in held or []:
                before = len(site.restrictions)
                self._factory_option(site, file, item)
                guarded = {id(restriction) for restriction, _, _ in site.guarded}
                site.guarded.extend((r, file, item) for r in site.restrictions[before:] if id(r) not in guarded)

    def _factory_option(self, site: PendingSite, file: GoFile, value: tree_sitter.Node) -> None:
        """The restriction one informer factory option applies: WithNamespace or WithTweakListOptions."""
        text = parser.text(value)
        option = value.child_by_field_name("arguments") if value.type == "call_expression" else None
        if "WithNamespace(" in text and (namespace := parser.first_named(option)) is not None:
            _restrict_namespace(site, file, namespace, "informers.WithNamespace", file.span(value))
        elif "WithTweakListOptions(" in text and (tweak := parser.first_named(option)) is not None:
            self._tweak(site, file, tweak, "WithTweakListOptions")

    def _is_fake_clientset(self, file: GoFile, node: tree_sitter.Node | None) -> bool:
        """`fake.NewSimpleClientset(…)` or `fake.NewClientset(…)`, directly or through local variables."""
        return self._built_by(file, node, FAKE_CLIENTSET) is not None

    def _built_by(self, file: GoFile, node: tree_sitter.Node | None, package: str) -> tree_sitter.Node | None:
        """The call of a function of `package` that built a value, directly or through local variables."""
        built = self._defined_as(file, node, 3)
        if built is None or built.type != "call_expression":
            return None
        function = built.child_by_field_name("function")
        operand = function.child_by_field_name("operand") if function is not None else None
        return built if operand is not None and file.imports.get(parser.text(operand)) == package else None

    # -- clientsets ----------------------------------------------------------------------------------
    def _clientset_site(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        method: str,
        operand: tree_sitter.Node,
        arguments: list[tree_sitter.Node],
    ) -> PendingSite | None:
        if operand.type == "identifier":  # `pods := cs.CoreV1().Pods(ns); pods.List(…)`
            operand = self._defined_as(file, operand, 2) or operand
        if operand.type != "call_expression":
            return None
        plural = _method_name(operand)
        group = _operand_of(operand)
        if group is not None and group.type == "identifier":  # `core := cs.CoreV1(); core.Pods(ns).List(…)`
            group = self._defined_as(file, group, 2) or group
        accessor = _method_name(group)
        kind = self.names.clientset.get((accessor or "", plural or ""))
        if kind is None:
            return None
        namespace_arguments = operand.child_by_field_name("arguments")
        namespaces = parser.named(namespace_arguments) if namespace_arguments is not None else []
        found = ObjectRef(kind, ObjectForm.TYPED, f"{accessor}().{plural}()", method == "List")
        operation = {"Get": Operation.GET, "List": Operation.LIST, "Watch": Operation.WATCH}[method]
        site = self._pending(file, call, method, operation, Access.CLIENTSET, found, ObjectForm.TYPED)
        if namespaces:
            _restrict_namespace(site, file, namespaces[0], "namespace")
        if arguments and method != "Get":  # `List(ctx, options)`, `List(options)` before client-go 0.18
            site.restrictions.extend(self._list_options(file, arguments[-1], kind))
        return site

    def _list_options(self, file: GoFile, node: tree_sitter.Node, kind: str) -> Iterator[Restriction]:
        """Selectors in a `metav1.ListOptions{…}` (followed through a local variable), or those a reflector
        passes to a ListFunc or WatchFunc."""
        if (passed := self._reflector_options(file, node, kind)) is not None:
            yield from passed
            return
        target = node
        if target.type == "identifier":
            declaration = self.resolver.declaration(file, target)
            if declaration is None or declaration.value_node is None:
                yield Restriction(Mitigation.UNRESOLVED, kind, file.span(node), parser.text(node))
                return
            target = declaration.value_node
        if target.type != "composite_literal":
            yield Restriction(Mitigation.UNRESOLVED, kind, file.span(node), parser.text(node))
            return
        type_ref = resolve_type(target.child_by_field_name("type"), file)
        if type_ref is not None and not type_ref.is_(META_V1, "ListOptions"):
            return
        for key, value in keyed_elements(target):
            if key in ("LabelSelector", "FieldSelector") and parser.text(value) not in ('""', "``"):
                yield Restriction(Mitigation.SELECTOR, kind, file.span(value), f"{key}: {parser.text(value)}")

    # -- controller-runtime reads --------------------------------------------------------------------
    def _read_site(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        method: str,
        operand: tree_sitter.Node,
        arguments: list[tree_sitter.Node],
    ) -> Iterator[PendingSite]:
        position = 2 if method == "Get" else 1
        if len(arguments) <= position:
            return
        found = self.resolver.object_of(file, arguments[position])
        helper = self._helper_parameter(file, arguments[position]) if found is None else None
        if helper is not None:
            found = ObjectRef("", ObjectForm.TYPED, parser.text(arguments[position]), method == "List")
        if found is None or (method == "List") != found.is_list:
            return
        operation = Operation.GET if method == "Get" else Operation.LIST
        receiver = " ".join(parser.text(operand).split())
        site = self._pending(file, call, method, operation, Access.CACHE, found, found.form, receiver)
        site.client = self.clients.receiver_of(file, operand)
        site.helper = helper
        if method == "List":
            for option in (item for argument in arguments[2:] for item in self._list_options_of(file, argument)):
                site.restrictions.extend(self._read_option(file, option, found.kind))
                site.field_keys.extend(extract_field_keys(file, option, self.resolver))
        yield site

    def _list_options_of(self, file: GoFile, option: tree_sitter.Node, hops: int = 0) -> Iterator[tree_sitter.Node]:
        """The options a List argument passes, also held in local variables (`opts...`): their namespace and
        selectors narrow an uncached list only (SPEC §3.1 WL002), their field keys may name cache indexes."""
        if option.type == "variadic_argument" and parser.named(option):
            option = parser.named(option)[0]
            if is_slice_literal(option):  # `[]client.ListOption{…}...`
                for item in literal_items(option):
                    yield from self._list_options_of(file, item, hops + 1)
                return
        held = self._options_held(file, option) if option.type == "identifier" and hops < _MAX_OPTION_HOPS else None
        if held is None:
            yield option
        for item in held or ():
            yield from self._list_options_of(file, item, hops + 1)

    def _read_option(self, file: GoFile, option: tree_sitter.Node, kind: str) -> Iterator[Restriction]:
        text = " ".join(parser.text(option).split())
        head = text.lstrip("&").split("(", 1)[0].split("{", 1)[0]
        name = head.rsplit(".", 1)[-1]
        package = file.imports.get(head.rsplit(".", 1)[0]) if "." in head else None
        span = file.span(option)
        if package == CR_CLIENT and name == "InNamespace":
            arguments = option.child_by_field_name("arguments")
            namespace = parser.text(parser.first_named(arguments)) or '""'
            if namespace not in _ALL_NAMESPACES:
                yield Restriction(Mitigation.NAMESPACE, kind, span, text)
        elif package == CR_CLIENT and name in _SELECTOR_OPTIONS:
            yield Restriction(Mitigation.SELECTOR, kind, span, text)
        elif package == CR_CLIENT and name == "ListOptions":
            literal = option.child_by_field_name("operand") if option.type == "unary_expression" else option
            for field_name, field_value in keyed_elements(literal) if literal is not None else []:
                if field_name == "Namespace" and parser.text(field_value) not in _ALL_NAMESPACES:
                    yield Restriction(Mitigation.NAMESPACE, kind, span, text)
                elif field_name in ("LabelSelector", "FieldSelector"):
                    yield Restriction(Mitigation.SELECTOR, kind, span, text)
        elif package != CR_CLIENT:
            yield Restriction(Mitigation.UNRESOLVED, kind, span, text)

    def _options_held(self, file: GoFile, variable: tree_sitter.Node) -> list[tree_sitter.Node] | None:
        """The options a local variable holds: `opts := []client.ListOption{…}` with the items appended to
        it later, or `lo := client.MatchingLabels{…}`; None when they cannot all be seen (no value, a field
        of it written, its address taken, any other write)."""
        declaration = self.resolver.declaration(file, variable)
        if declaration is None or declaration.parameter_index >= 0 or declaration.ranged_node is not None:
            return None  # a parameter holds what its callers pass
        function = innermost_function(declaration.node)  # writes may sit in function literals below it
        if function is None or parser.text(variable) in _fields_written(function):
            return None
        value, declared_type = declaration.value_node, declaration.type_node
        if value is None and (declared_type is None or declared_type.type != "slice_type"):
            return None
        # `var opts []client.ListOption` is empty until appended to
        held = [] if value is None else literal_items(value) if is_slice_literal(value) else [value]
        declared_by = functools.partial(self.resolver.declaration, file)
        for write in writes_of(declaration, function, declared_by):
            appended = _appended_items(write, declaration.name) if write.kind is WriteKind.ASSIGN else None
            if appended is None:
                return None
            held.extend(appended)
        return held

    def _assigned_before(self, file: GoFile, field: tree_sitter.Node) -> tree_sitter.Node | None:
        """The value last assigned to a field (`f.kubeClient = fake.NewSimpleClientset()`) earlier in the
        function that reads it."""
        writes = self._field_assignments.get(file.path)
        if writes is None:
            writes = self._field_assignments[file.path] = {}
            for left, right in file.assignments():
                targets, values = parser.named(left), parser.named(right)
                if len(targets) == len(values):
                    for target, value in zip(targets, values, strict=True):
                        if target.type == "selector_expression":
                            writes.setdefault(parser.text(target), []).append((target, value))
        function = innermost_function(field)
        found = None
        for target, value in writes.get(parser.text(field), []):
            if target.start_byte < field.start_byte and innermost_function(target) == function:
                found = value
        return found

    # -- shared --------------------------------------------------------------------------------------
    def _pending(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        method: str,
        operation: Operation,
        access: Access,
        found: ObjectRef,
        form: ObjectForm,
        receiver: str = "",
    ) -> PendingSite:
        key = self.resolver.function_key(file, call)
        enclosing = ""
        if key is not None:
            enclosing = f"(*{key.receiver}).{key.name}" if key.receiver else key.name
        construct = _construct(call, receiver, method, found)
        shown_call = f"{receiver}.{method}" if receiver else method
        span = file.name_span(call)
        site = PendingSite(file, call, operation, access, found, span, shown_call, construct, enclosing)
        site.object = ObjectRef(found.kind, form, found.text, found.is_list, found.package)
        return site


def _options_returned(call: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The options a function literal called on the spot returns (`func() []informers.SharedInformerOption {
    if !canFilter { return nil }; return []…{…} }()...`): the items of its slice literals, each judged later
    under the conditions around it."""
    function = call.child_by_field_name("function") if call.type == "call_expression" else None
    if function is None or function.type != "func_literal":
        return []
    return [item for value in returned_values(function) if is_slice_literal(value) for item in literal_items(value)]


def _uses_in(function: tree_sitter.Node, name: str) -> list[tree_sitter.Node]:
    """The identifiers in a function's body that spell `name`."""
    body = function.child_by_field_name("body") or function
    return [node for node in parser.captures("(identifier) @name", body).get("name", []) if parser.text(node) == name]


def _served_by(site: PendingSite, functions: list[tuple[int, int]]) -> bool:
    start = site.node.start_byte
    return site.access is Access.CLIENTSET and any(first <= start < end for first, end in functions)


def _calls_in(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    return parser.captures("(call_expression) @call", node).get("call", [])


def _copied_from(value: tree_sitter.Node | None) -> tree_sitter.Node | None:
    """The variable a value copies: `x.DeepCopyObject().(T)`, `x.DeepCopy()`, `x.DeepCopyObject()`, or `x`
    itself (`current := emptyObj`: the same object)."""
    if value is not None and value.type == "identifier":
        return value
    if value is not None and value.type == "type_assertion_expression":
        value = value.child_by_field_name("operand")
    function = value.child_by_field_name("function") if value is not None and value.type == "call_expression" else None
    if function is None or function.type != "selector_expression":
        return None
    if parser.text(function.child_by_field_name("field")) not in ("DeepCopyObject", "DeepCopy"):
        return None
    operand = function.child_by_field_name("operand")
    return operand if operand is not None and operand.type == "identifier" else None


def _restrict_namespace(
    site: PendingSite, file: GoFile, namespace: tree_sitter.Node, text: str, span: Span | None = None
) -> Restriction | None:
    """A namespace argument restricts the site unless it names all namespaces; a variable is judged later,
    with the value it holds by default (`namespace := metav1.NamespaceAll; if namespaced { … }`)."""
    if parser.text(namespace) in _ALL_NAMESPACES:
        return None
    restriction = Restriction(Mitigation.NAMESPACE, site.object.kind, span or file.span(namespace), text)
    site.restrictions.append(restriction)
    if namespace.type in _JUDGED_NAMESPACES:
        site.namespaces.append((restriction, file, namespace))
    return restriction


def _method_calls(
    file: GoFile,
) -> Iterator[tuple[tree_sitter.Node, tree_sitter.Node, str, tree_sitter.Node]]:
    """Every `operand.Method(arguments)` call of the file as (call, operand, method name, argument list)."""
    for call in file.calls():
        operand, method, arguments = call.operand, call.method, call.arguments
        if operand is None or method is None or method.type != "field_identifier" or arguments is None:
            continue
        if arguments.type == "argument_list":  # not the special list of new() and make()
            yield call.node, operand, call.name, arguments


def _evidence(file: GoFile, node: tree_sitter.Node, name: str | None) -> Evidence:
    text = " ".join(parser.text(node).split())
    if name is not None:
        head = text.split("(", 1)[0]
        text = f"{head}(…)" if len(text) > 40 else text
    elif len(text) > 40:
        text = text[:39] + "…"
    return Evidence(file.span(node), f"`{text}`")


def _has_only_metadata(options: list[tree_sitter.Node]) -> bool:
    return any(parser.text(option).endswith("OnlyMetadata") for option in options)


def _is_handler(text: str) -> bool:
    """An event handler, by the head of its expression: a predicate's body may well call `shouldEnqueue`."""
    head = text.lstrip("&").split("(", 1)[0].split("{", 1)[0]
    return "handler." in head or "Enqueue" in head


def _method_name(call: tree_sitter.Node | None) -> str | None:
    if call is None or call.type != "call_expression":
        return None
    function = call.child_by_field_name("function")
    if function is None or function.type != "selector_expression":
        return None
    return parser.text(function.child_by_field_name("field"))


def _operand_of(call: tree_sitter.Node | None) -> tree_sitter.Node | None:
    if call is None or call.type != "call_expression":
        return None
    function = call.child_by_field_name("function")
    if function is None or function.type != "selector_expression":
        return None
    return function.child_by_field_name("operand")


def _construct(call: tree_sitter.Node, receiver: str, method: str, found: ObjectRef) -> str:
    arguments = call.child_by_field_name("arguments")
    texts = [" ".join(parser.text(node).split()) for node in (parser.named(arguments) if arguments else [])]
    head = f"{receiver}.{method}" if receiver else method
    full = f"{head}({', '.join(texts)})"
    if len(full) <= MAX_CONSTRUCT:
        return full
    shortened: list[str] = []
    for text in texts:
        item = text if text == found.text or len(text) <= 16 else "…"
        if not (item == "…" and shortened and shortened[-1] == "…"):
            shortened.append(item)
    return f"{head}({', '.join(shortened)})"


_FIELD_WRITES = "(assignment_statement left: (expression_list (selector_expression operand: (identifier) @name)))"


def _fields_written(function: tree_sitter.Node) -> set[str]:
    """Names of the variables whose fields a function assigns (`lo.Namespace = ns`)."""
    return {parser.text(name) for name in parser.captures(_FIELD_WRITES, function).get("name", [])}


def _appended_items(write: Write, name: str) -> list[tree_sitter.Node] | None:
    """The items of `opts = append(opts, a, b)`; None for any other assignment."""
    right = write.node.child_by_field_name("right")
    values = parser.named(right) if right is not None else []
    arguments = append_arguments(values[write.index]) if write.index < len(values) else None
    if not arguments or parser.text(arguments[0]) != name:
        return None
    items = []
    for argument in arguments[1:]:
        if argument.type == "variadic_argument":
            return None  # `append(opts, more...)`: what `more` holds is not followed
        items.append(argument)
    return items
