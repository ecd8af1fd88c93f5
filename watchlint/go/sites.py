"""Sites in Go code: builder chains, Watch with source.Kind, informers, indexers, and Get/List through
controller-runtime readers; client-go's sites come from clientgo and informers (SPEC §3.1)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

import tree_sitter

from watchlint.facts import Access, Evidence, Mitigation, ObjectForm, Operation, Restriction
from watchlint.go import parser
from watchlint.go.clientgo import COMBINED_LISTER_METHODS, ClientGoSites, TypedClientNames
from watchlint.go.clientrefs import ClientRef, Marker, ParamRef
from watchlint.go.clients import ClientGraph
from watchlint.go.declarations import FunctionKey, resolve_type
from watchlint.go.fieldselectors import extract_field_keys
from watchlint.go.generics import TYPE_ARGUMENTS, generic_object, kind_in_type_arguments
from watchlint.go.handlerfilters import handler_filters
from watchlint.go.informers import (
    LIST_WATCH_INFORMERS,
    STANDALONE_INFORMER,
    InformerSites,
    reflector_lists,
    served_by,
)
from watchlint.go.libraryreads import (
    LIBRARY_METHODS,
    LibraryRead,
    library_method_reads,
    library_reads,
    major_version,
)
from watchlint.go.listoptions import list_options, option_restrictions, raw_selector
from watchlint.go.managers import BUILDER_STARTS
from watchlint.go.model import (
    BUILDER_PACKAGES,
    CONTROLLER_RUNTIME,
    CR_CONTROLLERUTIL,
    CR_SOURCE,
    KNATIVE_INJECTION,
    KNATIVE_SHAREDMAIN,
    READ_FIRST,
    GoFile,
    TypeRef,
    call_parts,
)
from watchlint.go.pending import (
    PendingSite,
    construct_text,
    evidence,
    guard_added,
    names_every_namespace,
    operand_of,
    pending_site,
)
from watchlint.go.predicateselectors import Labels, PredicateSelectors
from watchlint.go.registered import Registrations
from watchlint.go.resolve import (
    ObjectRef,
    Resolver,
    field_given,
    is_map_literal,
    is_slice_literal,
    keyed_elements,
    keyed_entries,
    literal_items,
    struct_literal_of,
)
from watchlint.go.scope import Declaration, enclosing_loop, returned_values
from watchlint.go.typedhandlers import TypedReads, handler_parameters, worst
from watchlint.go.values import ValueTracer
from watchlint.go.wrangler import HANDING_ON as WRANGLER_HANDING_ON
from watchlint.go.wrangler import REGISTERING as WRANGLER_REGISTERING
from watchlint.go.wrangler import WranglerSites
from watchlint.go.writes import written_names

BUILDER_METHODS = frozenset({"For", "Owns", "Watches", "WatchesMetadata", "WatchesRawSource"})
_WEBHOOK_STARTS = ("NewWebhookManagedBy", "WebhookManagedBy")  # builder.WebhookBuilder: no watch behind its `For`
_READS = frozenset({"Get", "List"})
_INFORMERS = frozenset({"GetInformer", "GetInformerForKind", "IndexField"})
_HANDED_OUT_INFORMERS = frozenset({"GetInformer", "GetInformerForKind"})  # return the informer, for its handlers
_READ_FIRST_PACKAGES = frozenset({CR_CONTROLLERUTIL, CONTROLLER_RUNTIME})
_MAX_CHAIN_STEPS = 64  # calls and locals followed from a builder call back to the chain's start
_KIND_WITH_CACHE = ".NewKindWithCache"  # controller-runtime before v0.15: source.NewKindWithCache(obj, cache)
_MAX_CALLEE = 48  # characters of a helper call's function shown whole in messages
_OPTION_CHAIN = 4  # helpers followed up to the one call that passes a List its options
_OUTER_HELPERS = 4  # helpers handing a read object on to a helper, followed out to the call naming its kind


# A `source.Kind` behind a watch: the object, the `source.Kind` call (or literal) with its file, and where a
# module function returns it, that function's call: its file and arguments.
_KindSource = tuple[ObjectRef, GoFile, tree_sitter.Node, tuple[GoFile, list[tree_sitter.Node]] | None]


class SiteExtractor:
    """Finds the sites of one file; builder-wide event filters are applied per chain once all are found."""

    def __init__(self, resolver: Resolver, clients: ClientGraph, names: TypedClientNames) -> None:
        self.resolver = resolver
        self.clients = clients
        self.values = ValueTracer(resolver)
        self.typed_reads = TypedReads(resolver, self.values)
        self.client_go = ClientGoSites(resolver, self.values, names, clients.methods)
        self.informers = InformerSites(resolver, self.values, names, self.client_go.options)
        self.registrations = Registrations(resolver, self.values, self.client_go)
        self.selectors = PredicateSelectors(resolver, self.values)
        self.wrangler = WranglerSites(resolver, self.values, resolver.kinds, self.client_go.informer_accessors)
        # builder-wide event filters by file and chain group, for chains a helper extends (`addOwned(b)`)
        self.event_filters: dict[tuple[str, int], list[Evidence]] = {}
        self._event_labels: dict[tuple[str, int], list[Labels | None]] = {}  # what each event filter selects
        self._package_writes: frozenset[tuple[str, str]] | None = None  # package variables functions assign
        # the items of the module's slice literals of a struct (FieldValues.stored_items, set once it exists), and
        # whether two packages are built into one binary (Evaluator.share_a_binary)
        self.stored_items: Callable[[TypeRef, str], list[tuple[GoFile, tree_sitter.Node]]] = lambda _o, _n: []
        self.share_a_binary: Callable[[str, str], bool] = lambda _package, _other: True

    def extract(self, file: GoFile) -> list[PendingSite]:
        sites: list[PendingSite] = []
        event_filters: dict[int, list[Evidence]] = {}
        for call, operand, method, argument_list, operand_text in _method_calls(file):
            arguments = parser.named(argument_list)
            if method == "WithEventFilter":
                self._record_event_filter(file, call, arguments, event_filters)
                continue
            if method == "WithNamespaceScope" and file.imports.get(parser.text(operand)) == KNATIVE_INJECTION:
                self.informers.injection_scopes.append((file, call, arguments))
                continue
            if _starts_injection(file, operand, method):
                self.informers.injection_starts.append((file, call))
                continue
            if method == "InformerFor":
                self.registrations.add(file, call, operand, arguments)
                continue
            if self.wrangler.record_factory(file, call, operand, method, operand_text):
                continue
            sites.extend(self._site(file, call, method, operand, arguments, operand_text))
        self._add_filters(file, sites, event_filters)
        self.event_filters.update(((file.path, group), found) for group, found in event_filters.items())
        return sites

    def _record_event_filter(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        arguments: list[tree_sitter.Node],
        event_filters: dict[int, list[Evidence]],
    ) -> None:
        """A builder-wide `WithEventFilter(p)`, and the labels it selects where p is a LabelSelectorPredicate."""
        group = self._chain_group(file, call)
        event_filters.setdefault(group, []).append(_event_filter(file, call))
        self._event_labels.setdefault((file.path, group), []).append(self.selectors.selected(file, arguments))

    def _add_filters(self, file: GoFile, sites: list[PendingSite], event_filters: dict[int, list[Evidence]]) -> None:
        """Builder-wide event filters, of the chain or of the wrapper function it starts from, and the filters
        of client-go handlers. A watch filtered by the chain's one event filter alone, a LabelSelectorPredicate,
        takes its labels for the WL003 fix."""
        wrapped: dict[int, list[Evidence]] = {}  # per chain group, a wrapper function's event filters
        for site in sites:
            if site.operation is Operation.WATCH and not site.is_raw_source and site.group in event_filters:
                labels = self._event_labels.get((file.path, site.group), [])
                if not site.filters and len(labels) == 1:
                    site.selected_labels = labels[0]
                site.filters.extend(event_filters[site.group])
            group = site.group
            if site.operation is Operation.WATCH and not site.is_raw_source and group is not None:
                if group not in wrapped:
                    wrapped[group] = self._wrapper_filters(file, site.node)
                site.filters.extend(wrapped[group])
            # a client-go informer's handlers, also of one a controller-runtime cache hands out (`informer, err :=
            # cache.GetInformer(ctx, &corev1.Secret{})`, kubesphere's identity providers)
            if site.operation is Operation.WATCH and (
                site.access is Access.INFORMER_FACTORY or site.call in _HANDED_OUT_INFORMERS
            ):
                site.handler_filters.extend(handler_filters(self.resolver, file, site.node))

    def _site(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        method: str,
        operand: tree_sitter.Node,
        arguments: list[tree_sitter.Node],
        operand_text: str,
    ) -> Iterator[PendingSite]:
        if (method in WRANGLER_REGISTERING or method in WRANGLER_HANDING_ON) and (
            wrangled := self.wrangler.sites(file, call, method, operand, arguments)
        ):
            yield from wrangled  # `secrets.OnChange(ctx, name, handler)` of a wrangler controller
        elif method in BUILDER_METHODS:
            yield from self._builder_site(file, call, method, arguments)
        elif method == "Watch" and arguments and (sources := self._watched_sources(file, arguments[0])):
            yield from (site for source in sources for site in self._watch_site(file, call, [source, *arguments[1:]]))
        elif method in _INFORMERS and not (operand is not None and parser.text(operand) in file.imports):
            # not a package's function (kubedl's `clientmgr.IndexField(obj, name, extract)` wrapping its cache's):
            # the helper's own IndexField is the site, reported at this call with that cache
            yield from self._informer_site(file, call, method, arguments)
        elif method in COMBINED_LISTER_METHODS and (
            lister := self.client_go.combined_lister_site(file, call, method, operand)
        ):
            yield lister  # library-go's `SecretLister().Secrets(ns)`, `.List(selector)`
        elif method in _READS or method == "Watch":
            yield from self._read_or_watch(file, call, method, operand, arguments)
        elif method in READ_FIRST and file.imports.get(operand_text) in _READ_FIRST_PACKAGES:
            # `controllerutil.CreateOrUpdate(ctx, c, obj, mutate)` begins with `c.Get(ctx, key, obj)`
            yield from self._read_site(file, call, method, operand, arguments, client=arguments[1:2])
        elif library := self._library_reads(file, method, operand, arguments, operand_text):
            given, reads = library
            for read in reads:
                yield from self._library_read_site(file, call, method, operand, given, read)
        else:
            yield from self._client_go_site(file, call, method, operand, arguments)

    def _client_go_site(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        method: str,
        operand: tree_sitter.Node,
        arguments: list[tree_sitter.Node],
    ) -> Iterator[PendingSite]:
        """An informer of a client-go factory, or one built on its own."""
        if not arguments or (method == "ForResource" and len(arguments) == 1):
            # `factory.Core().V1().Secrets()`, `factory.ForResource(gvr)`
            informer = (
                self.client_go.resource_site(file, call, operand, arguments[0])
                if arguments
                else self.client_go.factory_site(file, call, method, operand)
                if method in self.client_go.informer_accessors
                else None
            )
            if informer is not None:
                yield informer
        elif (standalone := STANDALONE_INFORMER.fullmatch(method)) is not None or method in LIST_WATCH_INFORMERS:
            resource = self.client_go.resource_informer_site(file, call, method, operand, arguments)
            if resource is not None:
                yield resource
            else:
                yield from self.informers.standalone_informer_site(file, call, method, operand, arguments, standalone)

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
        injected = self.informers.injected_informer_site(file, call, operand, arguments) if method == "Get" else None
        clientset = injected or self.client_go.clientset_site(file, call, method, operand, arguments)
        if clientset is not None:
            yield clientset
        elif method in _READS:
            yield from self._read_site(file, call, method, operand, arguments)

    # -- builder chains ------------------------------------------------------------------------------
    def _builder_site(
        self, file: GoFile, call: tree_sitter.Node, method: str, arguments: list[tree_sitter.Node]
    ) -> Iterator[PendingSite]:
        if not arguments or self._webhook_chain(file, call):
            return
        first = arguments[0]
        found = self.resolver.object_of(file, first)
        # the object is a parameter of the function, or a field of one (`For(resource.ForObject)`)
        helper, field = self.values.object_helper(file, first) if found is None else (None, None)
        items = self._items_of_parameter(file, first) if found is None and helper is None else None
        if items is not None:  # …or an item of one, or a field of each item
            helper, field = items
        if helper is not None:
            found = ObjectRef("", ObjectForm.TYPED, parser.text(first), False)
        source = self._source_kind(file, first) if found is None else None
        if source is not None:
            found = source[0]
        chosen = self.resolver.assigned_objects(file, first) if found is None and helper is None else []
        for ref, assignment in chosen:
            # `var obj client.Object; if slices { obj = &discv1.EndpointSlice{} } else { obj = … }`: a site per
            # object, under the guards of its assignment
            assigned = self._builder_watch(file, call, method, arguments[1:], ref)
            assigned.chosen_at = (file, assignment)
            assigned.looped = len(chosen) > 1
            yield assigned
        if chosen:
            return
        if found is None:
            # `for obj := range watches { b.Watches(obj, …) }` over a literal of the function: a site per kind;
            # `For(r.ForObject)` of a range over a literal of structs: one per struct
            kinds, shared = self._looped_objects(file, first)
            if not kinds and (ranged := _field_operand(first)) is not None:
                kinds = self._looped_fields(file, ranged, parser.text(first.child_by_field_name("field")))
                kinds = kinds or self._stored_in_ranged_field(file, ranged, first)
                shared = len(kinds) > 1
            for each in kinds:
                looped = self._builder_watch(file, call, method, arguments[1:], each)
                looped.looped = shared
                yield looped
            return
        site = self._builder_watch(file, call, method, arguments[1:], found, source)
        # the object's own fields, not those of the `&source.Kind{Type: obj}` wrapping it
        direct = self._kind_source(file, first) if source is not None else None
        watched = first if source is None else direct[1] if direct is not None else None
        site.object_fields = _fields_set(file, watched) if watched is not None else None
        site.helper, site.helper_field, site.helper_items = helper, field, items is not None
        site.forwarded = self._forwarded_options(file, arguments[1:]) if helper is not None else None
        self._predicates_forwarded(site, file, arguments[1:], helper[0] if helper is not None else None)
        yield site

    def _predicates_forwarded(
        self, site: PendingSite, file: GoFile, options: list[tree_sitter.Node], helper: FunctionKey | None
    ) -> None:
        """`builder.WithPredicates(preds...)` of the helper's variadic parameter: the predicates are each call's
        (sail-operator's helper watches with them only where a call passes any), not a filter of every copy.
        Not where the helper writes the parameter (a default predicate where a call passes none, its own
        appended), nor a slice parameter (whose argument is one list, which may be nil)."""
        info = self.resolver.declarations.functions.get(helper) if helper is not None else None
        for option in options if info is not None else ():
            given = parser.named(option.child_by_field_name("arguments") or option)
            if option.type != "call_expression" or not _is_with_predicates(option) or len(given) != 1:
                continue
            spread = parser.first_named(given[0]) if given[0].type == "variadic_argument" else None
            parameter = self.values.helper_parameter(file, spread) if spread is not None else None
            taking = info.parameter_at(parameter[1]) if info is not None and parameter is not None else None
            if parameter is None or parameter[0] != helper or taking is None or not taking.variadic:
                continue
            if info is not None and taking.name not in written_names(info.node):
                shown = file.span(option)
                site.filters = [item for item in site.filters if item.span != shown]
                site.forwarded_predicates = parameter[1]

    def _items_of_parameter(
        self, file: GoFile, node: tree_sitter.Node
    ) -> tuple[tuple[FunctionKey, int], str | None] | None:
        """Where a watched object is an item of a slice parameter (`for _, obj := range objs { b.Owns(obj) }`)
        or a field of each item (sail's `for _, wr := range list { b.Watches(wr.Object, h) }`): the parameter,
        and the field."""
        operand = _field_operand(node)
        if node.type == "selector_expression" and operand is None:
            return None
        parameter = self.values.items_parameter(file, operand if operand is not None else node)
        if parameter is None:
            return None
        return parameter, parser.text(node.child_by_field_name("field")) if operand is not None else None

    def _builder_watch(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        method: str,
        options: list[tree_sitter.Node],
        found: ObjectRef,
        source: _KindSource | None = None,
    ) -> PendingSite:
        """The watch of a builder's For/Owns/Watches of `found`, or of the kind a `source.Kind` names."""
        kind_predicates: list[tuple[GoFile, tree_sitter.Node]] = []
        cache = ""
        source_cache: tuple[GoFile, tree_sitter.Node] | None = None
        given: list[tuple[GoFile, list[tree_sitter.Node]]] = [(file, options)]  # what handles the objects
        if source is not None:
            _, kind_file, kind_call, _ = source
            # `source.Kind(cache, &corev1.Secret{}, handler, predicates…)`: its handler reads what it watches
            given.append((kind_file, parser.named(kind_call.child_by_field_name("arguments") or kind_call)[2:]))
            kind_predicates = self._kind_predicates(source)
            cache = self._cache_of(kind_file, kind_call)
            source_cache = _source_cache(kind_file, kind_call)
        form = ObjectForm.METADATA if method == "WatchesMetadata" or _has_only_metadata(options) else found.form
        site = pending_site(self.resolver, file, call, method, Operation.WATCH, Access.CACHE, found, form)
        site.filters.extend(self._predicates(file, options, method))
        for kind_file, predicate in kind_predicates:
            site.filters.extend(self._predicates(kind_file, [predicate], "Watch"))
        site.tests_annotations = self._tests_annotations(file, options)
        site.selected_labels = self.selectors.selected(file, self._predicates_given(file, options))
        if form is ObjectForm.TYPED:
            site.handles_typed = worst({self.typed_reads.reads_typed(at, handlers, found) for at, handlers in given})
            site.handler_parameters = [
                parameter for at, handlers in given for parameter in handler_parameters(self.values, at, handlers)
            ]
        site.cache, site.source_cache = cache, source_cache
        site.group = self._chain_group(file, call)
        site.foreign_builder = self._foreign_builder(file, call)
        site.is_raw_source = method == "WatchesRawSource"
        return site

    def _webhook_chain(self, file: GoFile, call: tree_sitter.Node) -> bool:
        """Whether a chain builds a webhook (`ctrl.NewWebhookManagedBy(mgr).For(&corev1.Pod{})`): its `For`
        names the type the webhook serves and starts no informer."""
        start = self._chain_start(file, call)
        function = start.child_by_field_name("function") if start is not None else None
        name = parser.text(function).split("[", 1)[0] if function is not None else ""
        return name.endswith(_WEBHOOK_STARTS)

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
            if value.type == "call_expression" and _is_with_predicates(value):
                yield evidence(file, option, "WithPredicates" if value is option else None)
            elif method == "Watch" and not _is_handler(text):
                yield evidence(file, option, None)

    def _predicates_given(self, file: GoFile, options: list[tree_sitter.Node]) -> list[tree_sitter.Node]:
        """The predicates of a watch's `builder.WithPredicates(…)` options."""
        found = []
        for option in options:
            value = self._option_value(file, option)
            if value.type == "call_expression" and _is_with_predicates(value):
                found.extend(parser.named(value.child_by_field_name("arguments") or value))
        return found

    def _tests_annotations(self, file: GoFile, options: list[tree_sitter.Node]) -> bool:
        """Whether the watch's predicates, written in place or as functions of the module they name, read
        annotations and never labels (`predicate.NewPredicateFuncs(hasHashAnnotation)`)."""
        texts = []
        for option in options:
            value = self._option_value(file, option)
            if not _is_with_predicates(value):
                continue
            texts.append(parser.text(value))
            for name in parser.captures("[(identifier) (selector_expression)] @name", value).get("name", []):
                info = self.resolver.function_named(file, name)
                if info is not None:
                    texts.append(parser.text(info.node))
        text = "".join(texts)
        if "ObjectOld" in text:  # comparing an update's old and new objects filters changes, not objects
            return False
        return any(read in text for read in _ANNOTATION_READS) and not any(read in text for read in _LABEL_READS)

    def expand_helpers(
        self,
        pending: list[PendingSite],
        callers: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]],
        passing: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]],
        stored: Callable[..., list[tuple[GoFile, tree_sitter.Node]]],
    ) -> list[PendingSite]:
        """Replace each helper site by one site per call that passes a known kind, reported at that call; judge
        an informer of a factory parameter by the factories passed where the binary calls it (`passing`),
        and one of a factory field by the factories the module stores in it (`stored`)."""
        expanded = []
        # one site per call and kind read or watched: a helper reading its object twice, or reading it and
        # handing it on to another helper that reads it (rook's removeFinalizer), is reported at a call once
        in_place = {
            (site.file.path, site.node.start_byte, site.object.kind, site.operation)
            for site in pending
            # a call both read or watched in place and through a wrapper's helper; not a module method of the
            # client's names, called on no client (elasticsearch-operator's `KibanaRequest.List(selector, pods)`)
            if site.helper is None and site.client is not Marker.NOT_CLIENT
        }
        helper_copies: dict[tuple[str, int, str, Operation], int] = {}  # place -> index of its copy in expanded
        for site in pending:
            if not self.client_go.judge_held(site, passing, stored):
                continue
            self._passed_field_keys(site, callers)
            self._passed_builder_filters(site, callers)
            self._passed_handlers(site, callers)
            if site.helper is None:
                expanded.append(site)
                continue
            for caller_file, values, named_in, naming_call, found in self._naming_calls(site, callers):
                if (site.operation is Operation.LIST) != found.is_list:
                    continue
                place = (named_in.path, naming_call.start_byte, found.kind, site.operation)
                if place in in_place:
                    continue
                copy = self._helper_copy(site, (caller_file, values), (named_in, naming_call), found, callers)
                if place in helper_copies:
                    # che's addPartOfCheLabelToObject reads its object through the cached client, then through
                    # one without a cache: the call is reported by the cached read, whichever is found first;
                    # sail-operator's helper watches with predicates where its item has any, else without: the
                    # call is reported by the watch that filters nothing
                    first = expanded[helper_copies[place]]
                    if (self._cached(copy) and not self._cached(first)) or _filters_less(copy, first, self._cached):
                        expanded[helper_copies[place]] = copy
                    continue
                helper_copies[place] = len(expanded)
                expanded.append(copy)
        return expanded

    def _list_watch_passed(
        self,
        file: GoFile,
        value: tree_sitter.Node,
        named_in: GoFile,
        naming_call: tree_sitter.Node,
        callers: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]],
    ) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The list-watches a helper's call passes for its list-watch parameter: the value itself, or where it is
        a parameter of the function making the call, what the call naming the kind passes for it (a helper in
        turn, `newIndexedEndpointSlicesInformer(elw, &disv1.EndpointSlice{})`) or else what each call of that
        function passes (prometheus' `newIndexedPodsInformer(plw)`)."""
        outer = self.values.helper_parameter(file, value) if value.type == "identifier" else None
        if outer is None:
            return [(file, value)]
        key, index = outer
        called = self.resolver.callee(named_in, naming_call)
        if called is not None and called.key == key:
            values = parser.named(naming_call.child_by_field_name("arguments") or naming_call)
            return [(named_in, values[index])] if index < len(values) else []
        passed = []
        for caller_file, call in callers(key):
            values = parser.named(call.child_by_field_name("arguments") or call)
            if index < len(values):
                passed.append((caller_file, values[index]))
        return passed

    def _narrow_by_list_watches(
        self, copy: PendingSite, stand_in: Restriction, passed: list[tuple[GoFile, tree_sitter.Node]]
    ) -> None:
        """Narrow a helper site's copy by the list-watches its call may pass, in place of the stand-in: the first
        that leaves the kind whole decides (SPEC §1), else the first; none seen keeps the stand-in."""
        judged = []
        for passed_file, value in passed:
            scratch = PendingSite(copy.file, copy.node, copy.operation, copy.access, copy.object, copy.span, "", "", "")
            scratch.restrictions = [r for r in copy.restrictions if r is not stand_in]
            self.informers.narrow_by_passed_list_watch(scratch, stand_in, passed_file, value)
            judged.append(scratch)
        if not judged:
            return
        chosen = next((item for item in judged if item.restrictions == []), judged[0])
        copy.restrictions = chosen.restrictions
        copy.namespaces.extend(chosen.namespaces)
        copy.guarded.extend(chosen.guarded)
        copy.tweaks.extend(chosen.tweaks)
        copy.selector_values.extend(chosen.selector_values)

    def _client_named_with(self, client: ClientRef, file: GoFile, naming_call: tree_sitter.Node) -> ClientRef:
        """Where an outer helper hands its own client parameter on with the kind (`Ensure(ctx, c, obj)` calling
        `inner(ctx, c, obj)`), the client the call naming the kind passes there, not every caller's."""
        if not isinstance(client, ParamRef):
            return client
        info = self.resolver.callee(file, naming_call)
        values = parser.named(naming_call.child_by_field_name("arguments") or naming_call)
        if info is None or info.key != client.function or client.index >= len(values):
            return client
        return self.clients.receiver_of(file, values[client.index])

    def _forwarded_to(self, copy: PendingSite, file: GoFile, options: list[tree_sitter.Node], call: str) -> None:
        """What a helper's call passes on as its options: a List's options restrict it, a watch's options (or
        predicates, to Watch) filter it, `OnlyMetadata` makes it metadata-only."""
        if copy.operation is Operation.LIST:
            self._list_options_into(copy, file, options)
            return
        copy.filters.extend(self._predicates(file, options, call))
        if _has_only_metadata(options):
            copy.object = replace(copy.object, form=ObjectForm.METADATA)

    def _naming_calls(
        self, site: PendingSite, callers: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]]
    ) -> Iterator[tuple[GoFile, list[tree_sitter.Node], GoFile, tree_sitter.Node, ObjectRef]]:
        """The calls of a helper site's function that name the kind: each call's file and arguments, the call
        naming the kind (with its file) and the object. Where a call passes on a parameter of its own function,
        a helper in turn (a generic `ReconcileObject` handing `desiredObject U` to `ReconcileAndGetObject`),
        the calls of that function name it, each once."""
        assert site.helper is not None
        key, index = site.helper
        named_at: set[tuple[str, int]] = set()
        for caller_file, call in callers(key):
            arguments = call.child_by_field_name("arguments")
            values = parser.named(arguments) if arguments is not None else []
            direct = self._named_directly(site, caller_file, call, values, index)
            if direct is not None:
                yield from ((caller_file, values, caller_file, call, named) for named in direct)
                continue
            passed_object = values[index] if index < len(values) else None
            if passed_object is None:
                continue
            passed, settled = self._objects_passed(site, caller_file, passed_object)
            if passed or settled:
                yield from ((caller_file, values, caller_file, call, named) for named in passed)
                continue
            for outer_file, outer_call, named in self._named_further_out(caller_file, passed_object, callers, {key}):
                if (outer_file.path, outer_call.start_byte) not in named_at:
                    named_at.add((outer_file.path, outer_call.start_byte))
                    yield caller_file, values, outer_file, outer_call, named

    def _objects_passed(
        self, site: PendingSite, file: GoFile, passed: tree_sitter.Node
    ) -> tuple[list[ObjectRef], bool]:
        """The objects a call hands a helper site as the argument `passed`: the object it names, each kind of the
        loop's literal it is in (`for _, t := range objects { watchOwned(c, mgr, t) }`); for a site reading a
        field of the argument, that field of the struct passed or of each struct of the loop's literal; for a
        site reading a map's item by the parameter, the items of the keys it passes. With whether the call says
        all there is to know: a call passing on a parameter of its own is followed further out otherwise."""
        if site.helper_field is not None:
            looped = self._looped_fields(file, passed, site.helper_field)
            value = self._field_passed(file, passed, site.helper_field) if not looped else None
            found = self.resolver.object_of(file, value) if value is not None else None
            if looped or found is not None or value is None:
                return looped or ([found] if found is not None else []), True
            return self._looped_objects(file, value)[0], True
        if site.helper_map is not None:
            return self._map_items_passed(site.helper_map, file, passed), True
        found = self.resolver.object_of(file, passed)
        return ([found] if found is not None else self._looped_objects(file, passed)[0]), False

    def _map_items_passed(
        self, held: tuple[GoFile, tree_sitter.Node], file: GoFile, passed: tree_sitter.Node
    ) -> list[ObjectRef]:
        """The objects of a map literal (`held`, with its file) a call's key selects: the item of a string key,
        or every item for the key of a range over that same map (Reloader's `for k := range kube.ResourceMap`)."""
        map_file, literal = held
        entries = keyed_entries(literal)
        if passed.type == "interpreted_string_literal":
            chosen = [value for key, value in entries if parser.text(key) == parser.text(passed)]
        else:
            declaration = self.resolver.declaration(file, passed) if passed.type == "identifier" else None
            ranged = declaration.indexes if declaration is not None and declaration.ranged_node is None else None
            over = self.resolver.held_value(file, ranged) if ranged is not None else None
            same = over is not None and over[0].path == map_file.path and over[1].start_byte == literal.start_byte
            chosen = [value for _, value in entries] if same else []
        return [named for value in chosen if (named := self.resolver.object_of(map_file, value)) is not None]

    def _helper_copy(
        self,
        site: PendingSite,
        caller: tuple[GoFile, list[tree_sitter.Node]],
        naming: tuple[GoFile, tree_sitter.Node],
        found: ObjectRef,
        callers: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]],
    ) -> PendingSite:
        """A helper site's copy at a call naming its kind, with the client, options and list-watches the call
        (`caller`: its file and arguments) hands the helper."""
        assert site.helper is not None
        (caller_file, values), (named_in, naming_call) = caller, naming
        copy = self._from_helper(site, named_in, naming_call, found)
        client = site.client
        passed = client if isinstance(client, ParamRef) and client.function == site.helper[0] else None
        if passed is not None and passed.index < len(values):  # the client this call hands the helper
            copy.client = self.clients.receiver_of(caller_file, values[passed.index])
            copy.client = self._client_named_with(copy.client, named_in, naming_call)
        if site.forwarded is not None:
            self._forwarded_to(copy, caller_file, values[site.forwarded :], site.call)
        if site.forwarded_predicates is not None:
            predicates = values[site.forwarded_predicates :]
            copy.filters.extend(evidence(caller_file, value, None) for value in predicates)
            copy.forwarded_predicates = site.forwarded_predicates
        if site.list_watch_parameter is not None and site.list_watch_parameter[1] < len(values):
            _, index, stand_in = site.list_watch_parameter
            given = self._list_watch_passed(caller_file, values[index], named_in, naming_call, callers)
            self._narrow_by_list_watches(copy, stand_in, given)
        return copy

    def _cached(self, site: PendingSite) -> bool:
        """Whether a site's client is (taken as) the cache-backed one."""
        known = self.clients.resolve(site.client) if site.client is not None else None
        return known is not None and known.access is Access.CACHE

    def _named_further_out(
        self,
        file: GoFile,
        passed: tree_sitter.Node,
        callers: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]],
        seen: set[FunctionKey],
    ) -> Iterator[tuple[GoFile, tree_sitter.Node, ObjectRef]]:
        """Where a helper's caller passes on a parameter of its own, the calls further out naming the kind, each
        with its file and object: che's `addPartOfCheLabelToObject(ctx, name, &corev1.Secret{})` hands `obj` to
        `GetNamespacedObject`, which hands it to `doGet`, which reads it, three calls in from the kind."""
        outer = self.values.helper_parameter(file, passed) or generic_object(self.resolver, file, passed)
        if outer is None or outer[0] in seen or len(seen) > _OUTER_HELPERS:
            return
        for outer_file, outer_call in callers(outer[0]):
            named = self._named_by_call(outer_file, outer_call, outer[1])
            if named is not None:
                yield outer_file, outer_call, named
                continue
            values = parser.named(outer_call.child_by_field_name("arguments") or outer_call)
            if 0 <= outer[1] < len(values):
                yield from self._named_further_out(outer_file, values[outer[1]], callers, seen | {outer[0]})

    def _named_directly(
        self, site: PendingSite, file: GoFile, call: tree_sitter.Node, values: list[tree_sitter.Node], index: int
    ) -> list[ObjectRef] | None:
        """The kinds a helper's call names by its type arguments, or by each item it passes as the parameter
        whose items the helper reads (`warmAll(ctx, mgr, &corev1.Secret{}, &corev1.Pod{})`); None for a call
        passing the object itself."""
        if index == TYPE_ARGUMENTS:
            named = kind_in_type_arguments(self.resolver, file, call, site.operation is Operation.LIST)
            return [named] if named is not None else []
        if not site.helper_items:
            return None
        assert site.helper is not None
        info = self.resolver.declarations.functions.get(site.helper[0])
        variadic = info is None or any(parameter.variadic for parameter in info.parameters[index : index + 1])
        # a slice parameter is given one slice, written out or held: its items
        passed = self.values.passed_items(file, values if variadic else values[: index + 1], index)
        held = self._held_items(file, passed[0]) if len(passed) == 1 else None
        # `Register(b, watches.Owned, h)` of a package variable's literal, in its own file
        held_file, items = held if held is not None else (file, passed)
        if site.helper_field is not None:
            found = (self._field_object(held_file, item, site.helper_field) for item in items)
        else:
            found = (self.resolver.object_of(held_file, item) for item in items)
        return [named for named in found if named is not None]

    def _held_items(self, file: GoFile, node: tree_sitter.Node) -> tuple[GoFile, list[tree_sitter.Node]] | None:
        """The items of the slice literal a package variable no function assigns is declared with (sail's
        `watches.IstiodWatches`), and the literal's file; None for another expression."""
        held = self._unwritten_package_value(file, node) if node.type in ("identifier", "selector_expression") else None
        return (held[0], literal_items(held[1])) if held is not None and is_slice_literal(held[1]) else None

    def _field_object(self, file: GoFile, item: tree_sitter.Node, name: str) -> ObjectRef | None:
        """The object field `name` of a struct literal item holds (`{Object: &corev1.ConfigMap{}}`, also
        `&T{…}`), where it is told."""
        value = field_given(item, name)
        return self.resolver.object_of(file, value) if value is not None else None

    def _named_by_call(self, file: GoFile, call: tree_sitter.Node, index: int) -> ObjectRef | None:
        """The object a call of a helper passes as its parameter at `index`, or names by type argument."""
        if index == TYPE_ARGUMENTS:
            return kind_in_type_arguments(self.resolver, file, call)
        values = parser.named(call.child_by_field_name("arguments") or call)
        return self.resolver.object_of(file, values[index]) if index < len(values) else None

    def _passed_builder_filters(
        self, site: PendingSite, callers: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]]
    ) -> None:
        """The event filters of the chains a helper's callers hand it (`kafkaWatches(builder)` of a builder
        with `WithEventFilter(…)`, its `builder.Owns(…)`): builder-wide, as if the helper's calls were there."""
        if site.operation is not Operation.WATCH or site.group is None or site.is_raw_source:
            return
        parameter = self._builder_parameter(site.file, site.node)
        if parameter is None:
            return
        for caller_file, call in callers(parameter[0]):
            values = parser.named(call.child_by_field_name("arguments") or call)
            group = self._argument_group(caller_file, values[parameter[1]]) if parameter[1] < len(values) else None
            site.filters.extend(self.event_filters.get((caller_file.path, group), []) if group is not None else [])

    def _passed_handlers(
        self, site: PendingSite, callers: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]]
    ) -> None:
        """How what a watch's callers hand its handler reads the objects (argocd-operator's
        `r.setResourceWatches(bldr, …, r.systemCATrustMapper)`, whose mapper type-switches on Secrets)."""
        uses = {site.handles_typed}
        for key, index in site.handler_parameters:
            for caller_file, call in callers(key):
                values = parser.named(call.child_by_field_name("arguments") or call)
                if index < len(values):
                    uses.add(self.typed_reads.reads_typed(caller_file, [values[index]], site.object))
        site.handles_typed = worst(uses)

    def _builder_parameter(self, file: GoFile, call: tree_sitter.Node) -> tuple[FunctionKey, int] | None:
        """The function and index of the parameter a builder chain starts from (`func addOwned(b
        *builder.Builder) { b.Owns(…) }`)."""
        root, declaration = self._chain_root(file, call)
        if declaration is None or declaration.parameter_index < 0:
            return None
        key = self.resolver.function_key(file, root)
        return (key, declaration.parameter_index) if key is not None else None

    def _argument_group(self, file: GoFile, argument: tree_sitter.Node) -> int | None:
        """The chain group of a builder a call hands on: a chain written there, or a local holding one."""
        if argument.type == "call_expression":
            return self._chain_group(file, argument)
        declaration = self.resolver.declaration(file, argument) if argument.type == "identifier" else None
        if declaration is None:
            return None
        value = declaration.value_node
        return self._chain_group(file, value) if value is not None and value.type == "call_expression" else None

    def _passed_field_keys(
        self, site: PendingSite, callers: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]]
    ) -> None:
        """The field keys of the List options a helper's callers pass it (`listPods(c, opts)` with a field
        selector on a cache index): DisableFor would send that List to an API server that cannot serve them.
        Where one call passes them, through helpers each called once (ngrok's `Seed(ctx, reader, seedOpts...)`
        handing its options on to `listObjectsForType`), they also restrict the List as that call's do."""
        for key, index in site.list_option_parameters:
            calls = callers(key)
            passed = self._passed_options(key, index, calls)
            for caller_file, _, option in passed:
                site.field_keys.extend(extract_field_keys(caller_file, option, self.resolver))
            if self._one_chain(key, index, callers):
                self._restricted_as_passed(site, key, index, passed)
            elif any(len(parser.named(call.child_by_field_name("arguments") or call)) <= index for _, call in calls):
                # a call passes no options at all (`listConfigMaps(ctx, reader)`): that List reads everything
                self._restricted_as_passed(site, key, index, [])

    def _passed_options(
        self, key: FunctionKey, index: int, calls: list[tuple[GoFile, tree_sitter.Node]]
    ) -> list[tuple[GoFile, tree_sitter.Node, tree_sitter.Node]]:
        """The List options calls of a function pass as its parameter at `index` (and the rest, for a variadic
        last one), each with the file and the call passing it."""
        info = self.resolver.declarations.functions.get(key)
        last = info is not None and index == len(info.parameters) - 1  # `opts ...client.ListOption` takes the rest
        found: list[tuple[GoFile, tree_sitter.Node, tree_sitter.Node]] = []
        for caller_file, call in calls:
            values = parser.named(call.child_by_field_name("arguments") or call)
            for value in values[index:] if last else values[index : index + 1]:
                found.extend((caller_file, call, option) for option in list_options(self.values, caller_file, value))
        return found

    def _one_chain(
        self, key: FunctionKey, index: int, callers: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]]
    ) -> bool:
        """Whether one call passes the parameter, and where it passes a parameter of its own, one call that one."""
        for _ in range(_OPTION_CHAIN):
            calls = callers(key)
            if len(calls) != 1:
                return False
            options = self._passed_options(key, index, calls)
            parameters = {
                parameter
                for caller_file, _, option in options
                if option.type == "identifier" and (parameter := self.values.helper_parameter(caller_file, option))
            }
            if not parameters:
                return True
            if len(parameters) > 1 or len(options) > 1:
                return False
            key, index = parameters.pop()
        return False

    def _restricted_as_passed(
        self,
        site: PendingSite,
        key: FunctionKey,
        index: int,
        passed: list[tuple[GoFile, tree_sitter.Node, tree_sitter.Node]],
    ) -> None:
        """Replace the unresolved option a parameter gave the site by what its one call passes, each under the
        conditions it is written in; a parameter passed on is followed to its own call."""
        taking = self.resolver.declarations.functions[key].parameter_at(index)
        name = taking.name if taking is not None else None
        site.restrictions = [
            item for item in site.restrictions if item.mitigation is not Mitigation.UNRESOLVED or item.text != name
        ]
        for caller_file, call, option in passed:
            before = len(site.restrictions)
            site.restrictions.extend(option_restrictions(caller_file, option, site.object.kind))
            parameter = self.values.helper_parameter(caller_file, option) if option.type == "identifier" else None
            if parameter is not None:
                site.list_option_parameters.append(parameter)  # followed in turn by _passed_field_keys' loop
            elif _conditional_apart(option, call):
                guard_added(site, before, caller_file, option)

    def _field_passed(self, file: GoFile, value: tree_sitter.Node, name: str) -> tree_sitter.Node | None:
        """The value of field `name` in the struct literal a call passes (`WatchTarget{Object: &corev1.Secret{}}`,
        also through `&` or a local holding it)."""
        literal = self.values.struct_literal(file, value)
        return field_given(literal, name) if literal is not None else None

    def _from_helper(self, site: PendingSite, file: GoFile, call: tree_sitter.Node, found: ObjectRef) -> PendingSite:
        form = ObjectForm.METADATA if site.object.form is ObjectForm.METADATA else found.form
        name = _callee_text(call.child_by_field_name("function"))
        shown = ObjectRef(found.kind, form, found.text, found.is_list, found.package)
        key = self.resolver.function_key(file, call)
        enclosing = (f"(*{key.receiver}).{key.name}" if key.receiver else key.name) if key is not None else ""
        construct = construct_text(call, "", name, shown)
        copy = PendingSite(
            file, call, site.operation, site.access, shown, file.name_span(call), name, construct, enclosing
        )
        copy.client, copy.restrictions, copy.filters = site.client, list(site.restrictions), list(site.filters)
        copy.filters.extend(evidence for evidence, _, _ in site.handler_filters)  # their guards are the helper's file's
        copy.cache, copy.is_raw_source, copy.field_keys = site.cache, site.is_raw_source, list(site.field_keys)
        copy.tests_annotations = site.tests_annotations
        copy.helper_call = site.helper_call or site.call
        self._namespaces_passed(site, copy, file, call)
        verb = "watches" if site.operation is Operation.WATCH else "reads"
        helper = site.enclosing or "the helper"
        copy.through = site.through or Evidence(site.span, f"{helper} {verb} it with `{site.construct}`")
        copy.read_at = site.read_at or (site.file, site.node)
        return copy

    def _namespaces_passed(self, site: PendingSite, copy: PendingSite, file: GoFile, call: tree_sitter.Node) -> None:
        """A namespace or selector the helper takes as a parameter is what this call passes (opencost's
        `NewCachingWatcher(…, "pods", &v1.Pod{}, "", fields.Everything())` lists every Pod; another call's
        namespace setting narrows that one)."""
        copy.namespaces = self._bound(
            site, copy, file, call, site.namespaces, lambda passed: names_every_namespace(file, passed)
        )
        copy.selector_values = self._bound(
            site,
            copy,
            file,
            call,
            site.selector_values,
            lambda passed: parser.text(passed).endswith(("Everything()", "nil")),
        )

    def _bound(
        self,
        site: PendingSite,
        copy: PendingSite,
        file: GoFile,
        call: tree_sitter.Node,
        entries: list[tuple[Restriction, GoFile, tree_sitter.Node]],
        narrows_nothing: Callable[[tree_sitter.Node], bool],
    ) -> list[tuple[Restriction, GoFile, tree_sitter.Node]]:
        """The entries (a restriction and the value judging it) of a helper's site, each value that is one of the
        helper's parameters replaced by what this call passes; a restriction whose passed value narrows nothing
        is dropped from the copy."""
        bound = []
        for restriction, held_file, held in entries:
            passed = self._passed_for(site, held_file, held, call)
            if passed is None:
                bound.append((restriction, held_file, held))
            elif narrows_nothing(passed):
                copy.restrictions = [r for r in copy.restrictions if r is not restriction]
            else:
                bound.append((restriction, file, passed))
        return bound

    def _passed_for(
        self, site: PendingSite, file: GoFile, name: tree_sitter.Node, call: tree_sitter.Node
    ) -> tree_sitter.Node | None:
        """What a call of a helper passes as the helper's parameter `name`; None for a name that is none of its
        parameters."""
        declaration = self.resolver.declaration(file, name) if name.type == "identifier" else None
        key = self.resolver.function_key(file, name) if declaration is not None else None
        index = declaration.parameter_index if declaration is not None else -1
        arguments = parser.named(call.child_by_field_name("arguments") or call)
        if site.helper is None or key != site.helper[0] or not 0 <= index < len(arguments):
            return None
        return arguments[index]

    def _option_value(self, file: GoFile, option: tree_sitter.Node) -> tree_sitter.Node:
        """A builder option given through a variable (`reconcilers.OnlyUpdates = builder.WithPredicates(…)`),
        or returned by a module function (`For(&corev1.Pod{}, r.forOption())`), or converted to the option
        interface of one builder method (`builder.WatchesOption(builder.WithPredicates(sel))`)."""
        converted = call_parts(option) if option.type == "call_expression" else None
        if converted is not None and converted.name in _OPTION_CONVERSIONS and converted.arguments is not None:
            inner = parser.named(converted.arguments)
            if len(inner) == 1:
                return self._option_value(file, inner[0])
        if option.type == "call_expression" and not _is_with_predicates(option):
            info = self.resolver.callee(file, option)
            returned = returned_values(info.node) if info is not None else []
            return next((value for value in returned if value.type == "call_expression"), option)
        if option.type in ("identifier", "selector_expression"):
            held = self.resolver.held_value(file, option)
            return held[1] if held is not None else option
        return option

    def _kind_predicates(self, source: _KindSource) -> list[tuple[GoFile, tree_sitter.Node]]:
        """Predicates passed to a v0.18 `source.Kind(cache, obj, handler, predicates…)`, each with its file; in a
        module function returning it, its parameters are what the call passes (`preds...`: the call's
        arguments from that position on, none when it passes none)."""
        _, kind_file, kind_call, called = source
        if kind_call.type != "call_expression":
            return []
        arguments = kind_call.child_by_field_name("arguments")
        predicates = list(parser.named(arguments)[3:]) if arguments is not None else []
        if called is None:
            return [(kind_file, predicate) for predicate in predicates]
        call_file, passed = called
        found: list[tuple[GoFile, tree_sitter.Node]] = []
        for predicate in predicates:
            spread = parser.first_named(predicate) if predicate.type == "variadic_argument" else None
            parameter = self.values.helper_parameter(kind_file, spread or predicate)
            if parameter is None:
                found.append((kind_file, predicate))
            elif spread is not None:
                found.extend((call_file, value) for value in passed[parameter[1] :])
            elif parameter[1] < len(passed):
                found.append((call_file, passed[parameter[1]]))
        return found

    def _source_kind(self, file: GoFile, node: tree_sitter.Node) -> _KindSource | None:
        """`source.Kind(cache, obj, …)`, `source.Kind[T](…)`, `source.TypedKind(…)` and `&source.Kind{Type: obj}`,
        also through a local variable, or returned by a module function given the object (`watches.
        NamespacedKind(m, mgr.GetCache(), &corev1.Secret{}, h)` returning `source.Kind(cache, obj, h)`): the
        object, the `source.Kind` with its file, and for a module function the arguments of its call."""
        found = self._kind_source(file, node)
        if found is not None:
            kind, obj = found
            object_ref = self.resolver.object_of(file, obj)
            return (object_ref, file, kind, None) if object_ref else None
        target = self.values.defined_as(file, node, 2)
        info = self.resolver.callee(file, target) if target is not None and target.type == "call_expression" else None
        if target is None or info is None:
            return None
        arguments = parser.named(target.child_by_field_name("arguments") or target)
        for returned in returned_values(info.node):
            inner = self._kind_source(info.file, returned)
            parameter = self.values.helper_parameter(info.file, inner[1]) if inner is not None else None
            if inner is not None and parameter is None:  # `source.TypedKind(mgr.GetCache(), &corev1.Secret{}, …)`
                object_ref = self.resolver.object_of(info.file, inner[1])
                return (object_ref, info.file, inner[0], None) if object_ref else None
            if inner is None or parameter is None or parameter[0] != info.key or parameter[1] >= len(arguments):
                continue
            object_ref = self.resolver.object_of(file, arguments[parameter[1]])
            return (object_ref, info.file, inner[0], (file, arguments)) if object_ref else None
        return None

    def _kind_source(self, file: GoFile, node: tree_sitter.Node) -> tuple[tree_sitter.Node, tree_sitter.Node] | None:
        """The `source.Kind` call or literal behind a node, with the object expression it is given."""
        target = self.values.defined_as(file, node, 2, through_address=True)
        if target is None:
            return None
        if target.type == "composite_literal":
            type_ref = resolve_type(target.child_by_field_name("type"), file)
            if type_ref is None or not type_ref.is_(CR_SOURCE, "Kind"):
                return None
            value = dict(keyed_elements(target)).get("Type")
            return (target, value) if value is not None else None
        if target.type != "call_expression":
            return None
        function = target.child_by_field_name("function")
        name = parser.text(function).split("[", 1)[0] if function is not None else ""
        if function is None or not name.endswith((".Kind", ".TypedKind", _KIND_WITH_CACHE)):
            return None
        operand = function.child_by_field_name("operand") if function.type == "selector_expression" else None
        if operand is not None and file.imports.get(parser.text(operand)) not in (CR_SOURCE, None):
            return None
        arguments = target.child_by_field_name("arguments")
        values = parser.named(arguments) if arguments is not None else []
        return (target, values[_kind_positions(target)[1]]) if len(values) > 1 else None

    def _watch_site(
        self, file: GoFile, call: tree_sitter.Node, arguments: list[tree_sitter.Node]
    ) -> Iterator[PendingSite]:
        source = self._source_kind(file, arguments[0])
        helper = None
        if source is None:  # `c.Watch(source.Kind(cache, obj, h, preds...))` in a helper given obj and preds
            inner = self._kind_source(file, arguments[0])
            helper = self.values.helper_parameter(file, inner[1]) if inner is not None else None
            if inner is not None and helper is None:
                # `for _, k := range []client.Object{&corev1.Pod{}, …} { c.Watch(source.Kind(cache, k, h)) }`
                looped, shared = self._looped_objects(file, inner[1])
                for each in looped:
                    for site in self._watch_site_of(file, call, arguments, (each, file, inner[0], None), None):
                        site.looped = shared
                        yield site
                return
            if inner is None or helper is None:
                return
            source = ObjectRef("", ObjectForm.TYPED, parser.text(inner[1]), False), file, inner[0], None
        yield from self._watch_site_of(file, call, arguments, source, helper)

    def _watch_site_of(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        arguments: list[tree_sitter.Node],
        source: _KindSource,
        helper: tuple[FunctionKey, int] | None,
    ) -> Iterator[PendingSite]:
        """The watch of a controller's `Watch(source)` of the object `source` names (see `_watch_site`)."""
        found, kind_file, kind_call, _ = source
        site = pending_site(self.resolver, file, call, "Watch", Operation.WATCH, Access.CACHE, found, found.form)
        site.cache, site.source_cache = self._cache_of(kind_file, kind_call), _source_cache(kind_file, kind_call)
        site.filters.extend(self._predicates(file, arguments[2:], "Watch"))
        site.helper = helper
        for predicate_file, predicate in self._kind_predicates(source):
            spread = parser.first_named(predicate) if predicate.type == "variadic_argument" else None
            forwarded = self.values.helper_parameter(predicate_file, spread) if spread is not None else None
            if site.helper is not None and forwarded is not None and forwarded[0] == site.helper[0]:
                site.forwarded = forwarded[1]  # the callers' predicates are the watch's
                continue
            site.filters.extend(self._predicates(predicate_file, [predicate], "Watch"))
        yield site

    def _watched_sources(self, file: GoFile, node: tree_sitter.Node) -> list[tree_sitter.Node]:
        """The `source.Kind`s `Watch(node)` watches (see `_watched_source`): the node, or for the item of a
        loop over a slice literal (`for _, src := range []source.Source{source.Kind(…), …} { c.Watch(src) }`,
        also through a local), each listed one."""
        declaration = self.resolver.declaration(file, node) if node.type == "identifier" else None
        ranged = declaration.ranged_node if declaration is not None else None
        listed = self.values.defined_as(file, ranged, 2) if ranged is not None else None
        items = literal_items(listed) if listed is not None and is_slice_literal(listed) else [node]
        return [item for item in items if self._watched_source(file, item)]

    def _watched_source(self, file: GoFile, node: tree_sitter.Node) -> bool:
        """Whether `Watch(node)` watches a `source.Kind`: one written here (whatever its object) or one a
        module function returns for the object it is given."""
        return self._kind_source(file, node) is not None or self._source_kind(file, node) is not None

    def _cache_of(self, file: GoFile, kind_call: tree_sitter.Node) -> str:
        """The cluster.New cache a `source.Kind(cache, …)` reads, "" for the manager's."""
        if kind_call.type != "call_expression":
            return ""
        given = _kind_cache_argument(kind_call)
        known = self.clients.resolve(self.clients.ref_of(file, given)) if given is not None else None
        return known.cache if known is not None else ""

    def _chain_root(self, file: GoFile, call: tree_sitter.Node) -> tuple[tree_sitter.Node, Declaration | None]:
        """Where a builder chain starts, followed through the locals holding part of it: the call it starts
        from (`ctrl.NewControllerManagedBy(mgr)`, a wrapper `kube.NewBuilder(mgr)`, `newBuilder(mgr)`), or the
        name of a builder it extends with that name's declaration (a parameter: `func addOwned(b …)`)."""
        node = call
        for _ in range(_MAX_CHAIN_STEPS):
            function = node.child_by_field_name("function") if node.type == "call_expression" else None
            operand = function.child_by_field_name("operand") if function is not None else None
            if function is None or function.type != "selector_expression" or operand is None:
                break
            if operand.type != "identifier":
                node = operand
                continue
            declaration = self.resolver.declaration(file, operand)
            if declaration is None:
                return (node if parser.text(operand) in file.imports else operand), None
            value = declaration.value_node
            if value is None or value.type != "call_expression":
                return operand, declaration
            node = value
        return node, None

    def _chain_group(self, file: GoFile, call: tree_sitter.Node) -> int:
        """Identity of a builder chain: its root call, or the declaration of the builder variable it extends."""
        root, declaration = self._chain_root(file, call)
        return declaration.node.id if declaration is not None else root.id

    def _chain_start(self, file: GoFile, call: tree_sitter.Node) -> tree_sitter.Node | None:
        """The call a builder chain starts from; None where it starts at a value."""
        root, declaration = self._chain_root(file, call)
        return root if declaration is None and root.type == "call_expression" else None

    def _wrapped_chain(self, file: GoFile, call: tree_sitter.Node) -> tuple[GoFile, tree_sitter.Node] | None:
        """The builder chain a module function returns where a chain starts from that function's call
        (`return ctrl.NewControllerManagedBy(mgr).WithEventFilter(p)`, also through a local)."""
        start = self._chain_start(file, call)
        info = self.resolver.callee(file, start) if start is not None else None
        if info is None:
            return None
        for returned in returned_values(info.node):
            value = self.values.defined_as(info.file, returned, 2)
            head = self._chain_start(info.file, value) if value is not None else None
            function = head.child_by_field_name("function") if head is not None else None
            operand = function.child_by_field_name("operand") if function is not None else None
            package = info.file.imports.get(parser.text(operand)) if operand is not None else None
            if value is not None and package in BUILDER_PACKAGES and parser.text(function).endswith(BUILDER_STARTS):
                return info.file, value
        return None

    def _wrapper_filters(self, file: GoFile, call: tree_sitter.Node) -> list[Evidence]:
        """The event filters of the builder a module function returns, where a chain starts from it: builder-
        wide, as if the chain called them (kubeblocks' namespace filter in its NewControllerManagedBy)."""
        wrapped = self._wrapped_chain(file, call)
        if wrapped is None:
            return []
        wrapper_file, node = wrapped
        found: list[Evidence] = []
        for _ in range(_MAX_CHAIN_STEPS):
            function = node.child_by_field_name("function") if node.type == "call_expression" else None
            if function is None or function.type != "selector_expression":
                break
            if parser.text(function.child_by_field_name("field")) == "WithEventFilter":
                found.append(_event_filter(wrapper_file, node))
            operand = function.child_by_field_name("operand")
            if operand is None:
                break
            node = operand
        return found

    def _foreign_builder(self, file: GoFile, call: tree_sitter.Node) -> bool:
        """Whether a builder chain is seen to start elsewhere than at controller-runtime's builder: a framework's
        own `ReconcilerFor(mgr, obj).Owns(…)`, whose options are no builder.WatchesOption."""
        root, declaration = self._chain_root(file, call)
        if declaration is None and root.type == "call_expression":
            function = root.child_by_field_name("function")
            operand = function.child_by_field_name("operand") if function is not None else None
            if operand is None or operand.type != "identifier" or parser.text(operand) not in file.imports:
                return False  # a function of this package (`newBuilder(mgr)`)
            # `pkg.F(mgr)` starts it: a framework's builder, unless F returns controller-runtime's
            foreign = file.imports[parser.text(operand)] not in BUILDER_PACKAGES
            return foreign and self._wrapped_chain(file, root) is None
        typed = self.resolver.type_of(file, root)  # a builder held in a parameter or a field
        return typed is not None and typed.package not in BUILDER_PACKAGES

    # -- controller-runtime informers and reads ------------------------------------------------------
    def _informer_site(
        self, file: GoFile, call: tree_sitter.Node, method: str, arguments: list[tree_sitter.Node]
    ) -> Iterator[PendingSite]:
        # before controller-runtime v0.5 these took no context: `IndexField(obj, field, extract)`, `GetInformer(obj)`
        position = 0 if len(arguments) == (3 if method == "IndexField" else 1) else 1
        if len(arguments) <= position:
            return
        target = arguments[position]
        helper: tuple[FunctionKey, int] | None = None
        field: str | None = None
        items: tuple[FunctionKey, int] | None = None
        if method == "GetInformerForKind":
            kind = self.resolver.gvk_kind(file, target)
            if kind is None:
                return
            found = ObjectRef(kind, ObjectForm.TYPED, " ".join(parser.text(target).split()), False)
        else:
            resolved = self.resolver.object_of(file, target)
            looped = self._looped_objects(file, target)[0] if resolved is None else None
            if not looped and resolved is None and (ranged := _field_operand(target)) is not None:
                # `for _, ia := range []indexArgs{{obj: &corev1.Event{}, …}} { IndexField(ctx, ia.obj, …) }`
                looped = self._looped_fields(file, ranged, parser.text(target.child_by_field_name("field")))
            if looped:  # `for _, ty := range types { informers.GetInformer(ctx, ty) }`: one site per kind
                for each in looped:
                    site = pending_site(
                        self.resolver, file, call, method, Operation.WATCH, Access.CACHE, each, each.form
                    )
                    self._informer_cache(site, file, call)
                    yield site
                return
            helper, field = self.values.object_helper(file, target) if resolved is None else (None, None)
            if resolved is None and helper is None:
                helper = items = self.values.items_parameter(file, target)
            if helper is not None:
                resolved = ObjectRef("", ObjectForm.TYPED, parser.text(target), False)
            if resolved is None:
                return
            found = resolved
        site = pending_site(self.resolver, file, call, method, Operation.WATCH, Access.CACHE, found, found.form)
        site.helper, site.helper_field, site.helper_items = helper, field, items is not None
        self._informer_cache(site, file, call)
        yield site

    def _informer_cache(self, site: PendingSite, file: GoFile, call: tree_sitter.Node) -> None:
        """The cache an informer is asked of: a second cache's key, or "" for the manager's."""
        receiver = operand_of(call)
        if receiver is not None:
            site.cache = self.clients.cluster_of(file, receiver)
            if not site.cache:
                known = self.clients.resolve(self.clients.ref_of(file, receiver))
                site.cache = known.cache if known is not None else ""

    def _looped_objects(self, file: GoFile, node: tree_sitter.Node) -> tuple[list[ObjectRef], bool]:
        """The objects a range variable takes from a literal of the function: the items of a slice (`types :=
        []client.Object{&corev1.Namespace{}, &corev1.Pod{}}`, then `for _, ty := range types`) or the keys of a
        map (`for obj, mapFunc := range map[client.Object]handler.MapFunc{…}`), those that are told; and whether the
        loop hands the call more than one object."""
        items_file, items = self._ranged_items(file, node)
        # an item not told (a custom resource of another module) is no kind of the catalogue
        found = [named for item in items if (named := self.resolver.object_of(items_file, item)) is not None]
        return _distinct_kinds(found), len(items) > 1

    def _stored_in_ranged_field(
        self, file: GoFile, ranged: tree_sitter.Node, node: tree_sitter.Node
    ) -> list[ObjectRef]:
        """The objects the items of the module's slice literals of a struct type hold in a field, for a watch of
        that field of a range variable over a collection of such structs (azure-service-operator's `for _, watch
        := range info.Watches { b.Watches(watch.Type, …) }`, its storage types declaring `Watches: []registration.
        Watch{{Type: &corev1.Secret{}, …}}`): the loop registers what the descriptors of its binary hold. None
        where the loop may pass an item over (a test, a `continue`), which the descriptors cannot tell."""
        declaration = self.resolver.declaration(file, ranged)
        field = node.child_by_field_name("field")
        loop = enclosing_loop(declaration.node) if declaration is not None and declaration.ranged_node else None
        if loop is None or field is None or _may_pass_over(loop, node):
            return []
        owner = self.resolver.type_of(file, ranged)
        if owner is None or owner.package == "" or owner.slice:
            return []
        found = []
        for held_file, value in self.stored_items(owner.base, parser.text(field)):
            named = self.resolver.object_of(held_file, value)
            if named is not None and self.share_a_binary(file.package_path, held_file.package_path):
                found.append(named)
        return _distinct_kinds(found)

    def _looped_fields(self, file: GoFile, node: tree_sitter.Node, name: str) -> list[ObjectRef]:
        """The objects a range variable's field takes from a slice literal of structs of the function (trivy's
        `for _, r := range []kube.Resource{{ForObject: &corev1.ConfigMap{}}, …}` handing `r` to a helper watching
        `r.ForObject`), those that are told."""
        items_file, items = self._ranged_items(file, node, keys=False)
        found = (self._field_object(items_file, item, name) for item in items)
        return _distinct_kinds([named for named in found if named is not None])

    def _ranged_items(
        self, file: GoFile, node: tree_sitter.Node, *, keys: bool = True
    ) -> tuple[GoFile, list[tree_sitter.Node]]:
        """The items of the literal a range variable takes them from, and the literal's file: a slice's, a map's
        keys (unless `keys` is false) or values, also of the one literal a module function returns (tigera's
        `for _, obj := range secondaryResources()`); none where the literal is not seen or is written to."""
        declaration = self.resolver.declaration(file, node) if node.type == "identifier" else None
        if declaration is None or (not keys and declaration.ranged_node is None):
            return file, []
        keys = declaration.ranged_node is None  # the first variable: a map's keys, a slice's indices
        ranged = declaration.indexes if keys else declaration.ranged_node
        if ranged is not None and ranged.type == "identifier":
            held = self.resolver.declaration(file, ranged)
            if held is None:  # a package variable (rook's `objectsToWatch`) no function writes
                unwritten = self._unwritten_package_value(file, ranged)
                ranged = unwritten[1] if unwritten is not None else None
            else:
                scope = self.resolver.scope(file, ranged)
                written = scope is None or held.name in scope.assignments  # appended to, say
                ranged = held.value_node if held.parameter_index < 0 and not written else None
        if ranged is not None and ranged.type == "call_expression":
            file, ranged = self._returned_literal(file, ranged)
        if ranged is None:
            return file, []
        if keys:
            return file, [key for key, _ in keyed_entries(ranged)] if is_map_literal(ranged) else []
        if is_map_literal(ranged):  # contour's `for _, obj := range map[string]client.Object{…}`: the values
            return file, [value for _, value in keyed_entries(ranged)]
        return file, literal_items(ranged) if is_slice_literal(ranged) else []

    def _returned_literal(self, file: GoFile, call: tree_sitter.Node) -> tuple[GoFile, tree_sitter.Node | None]:
        """The one slice or map literal a module function called without arguments returns, and its file."""
        info = self.resolver.callee(file, call)
        arguments = call.child_by_field_name("arguments")
        if info is None or (arguments is not None and parser.named(arguments)) or info.parameters:
            return file, None
        returned = returned_values(info.node)
        literal = returned[0] if len(returned) == 1 else None
        if literal is None or not (is_slice_literal(literal) or is_map_literal(literal)):
            return file, None
        return info.file, literal

    def _unwritten_package_value(self, file: GoFile, name: tree_sitter.Node) -> tuple[GoFile, tree_sitter.Node] | None:
        """The value a package variable is declared with, and its file, where no function of the module assigns
        it."""
        variable = self.resolver.package_variable(file, name)
        held = self.resolver.held_value(file, name)
        if variable is None or held is None:
            return None
        if self._package_writes is None:
            self._package_writes = frozenset(_assigned_package_variables(self.resolver))
        return held if variable not in self._package_writes else None

    def _read_site(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        method: str,
        operand: tree_sitter.Node,
        arguments: list[tree_sitter.Node],
        client: list[tree_sitter.Node] | None = None,
    ) -> Iterator[PendingSite]:
        """A Get or List through a controller-runtime reader, the operand, or a function's `client` argument
        (`CreateOrUpdate`, whose object also comes third)."""
        is_list = method == "List"
        position = 1 if is_list else 2
        if len(arguments) <= position or client == []:
            return
        found = self.resolver.object_of(file, arguments[position])
        helper = self.values.helper_parameter(file, arguments[position]) if found is None else None
        if found is None and helper is None:  # `c.Get(ctx, key, T(live))` in a generic helper
            helper = generic_object(self.resolver, file, arguments[position])
        if helper is not None:
            found = ObjectRef("", ObjectForm.TYPED, parser.text(arguments[position]), is_list)
        # `for _, list := range []client.ObjectList{sas, cms} { c.List(ctx, list) }`: a site per kind
        looped = self._looped_objects(file, arguments[position])[0] if found is None else [found]
        operation = Operation.LIST if is_list else Operation.GET
        receiver = " ".join(parser.text(operand).split())
        for each in looped:
            if is_list != each.is_list:
                continue
            site = pending_site(self.resolver, file, call, method, operation, Access.CACHE, each, each.form, receiver)
            site.client = self.clients.receiver_of(file, client[0] if client else operand)
            site.helper = helper
            site.looped = len(looped) > 1
            if is_list:
                options = arguments[2:]
                if helper is not None and (forwarded := self._forwarded_options(file, options)) is not None:
                    # `opts...` of the helper: its callers', and what the helper appends to it
                    spread = parser.first_named(options[-1])
                    appended = self.values.appended_to_parameter(file, spread) if spread is not None else []
                    site.forwarded, options = forwarded, [*options[:-1], *appended]
                self._list_options_into(site, file, options)
            yield site

    def _library_read_site(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        method: str,
        operand: tree_sitter.Node,
        arguments: list[tree_sitter.Node],
        read: LibraryRead,
    ) -> Iterator[PendingSite]:
        """`resource.CommonCredentialExtractor(ctx, source, c, selector)`: the Get the library makes through `c`,
        or through the field of an options literal (`clustercache.Options{SecretClient: c}`)."""
        if len(arguments) <= read.client:
            return
        client = arguments[read.client]
        manager = None
        if read.default_unless:
            if self._given_option(file, arguments, read.default_unless):
                return
            manager = client  # `managed.NewReconciler(mgr, kind, …)`: its default publisher reads through mgr
        elif read.field:
            literal = self._options_literal(file, client)
            held = (
                next((value for key, value in keyed_elements(literal) if key == read.field), None) if literal else None
            )
            if held is None and literal is not None and read.unset_reads_manager is not None:
                # `remote.NewClusterCacheTracker(mgr, remote.ClusterCacheTrackerOptions{…})` without a
                # SecretCachingClient reads through `mgr.GetClient()`
                manager = arguments[read.unset_reads_manager]
            elif held is None:
                return
            client = held if held is not None else client
        found = ObjectRef(read.kind, ObjectForm.TYPED, read.kind, False, read.package)
        package = parser.text(operand)
        site = pending_site(
            self.resolver, file, call, method, Operation.GET, Access.CACHE, found, ObjectForm.TYPED, package
        )
        if manager is not None:
            site.client = self.clients.manager_client(file, manager)
            missing = read.default_unless or read.field
            public = not read.option_until or major_version(file.imports.get(parser.text(operand))) < read.option_until
            without = f" without {missing}" if public else ""
            through = f"{method}{without} gets {read.read} through this manager's client"
            site.through = Evidence(file.span(manager), through)
            if not read.takes_reader:
                site.library_reader = f"{method}'s default publisher"
            yield site
            return
        site.client = self.clients.receiver_of(file, client)
        site.through = Evidence(file.span(client), f"{method} gets {read.read} through this client")
        if not read.takes_reader:
            # the function the client is handed: the method's constructor (`NewImpersonator(r.Client, …)`)
            taker = client.parent.parent if client.parent is not None else None
            parts = call_parts(taker) if taker is not None and taker.type == "call_expression" else None
            site.library_reader = parts.name if parts is not None else method
        yield site

    def _given_option(self, file: GoFile, arguments: list[tree_sitter.Node], name: str) -> bool:
        """Whether an option of this name is among a call's arguments, or in the literal of a list of options
        handed on whole (`managed.NewReconciler(mgr, kind, opts...)`) or appended to it."""
        for argument in arguments:
            spread = parser.first_named(argument) if argument.type == "variadic_argument" else None
            if spread is not None and spread.type == "identifier":
                options = self.values.options_held(file, spread)
                if options is None:
                    return True  # options not all seen: one may be it
            else:
                defined = self.values.defined_as(file, argument, 2) if argument.type == "identifier" else None
                options = [defined] if defined is not None else []
            if any(name.encode() in (value.text or b"") for value in [argument, *options]):
                return True
        return False

    def _options_literal(self, file: GoFile, options: tree_sitter.Node) -> tree_sitter.Node | None:
        """The options literal an argument is (written in place, or held by a local)."""
        literal = self.values.defined_as(file, options, 2) if options.type == "identifier" else options
        if literal is not None and literal.type == "unary_expression":
            literal = literal.child_by_field_name("operand")
        return literal if literal is not None and literal.type == "composite_literal" else None

    def _library_reads(
        self, file: GoFile, method: str, operand: tree_sitter.Node, arguments: list[tree_sitter.Node], operand_text: str
    ) -> tuple[list[tree_sitter.Node], tuple[LibraryRead, ...]] | None:
        """The reads a known library function makes through the client among `arguments`, or a known library
        method called on a local a library constructor built (`impersonation := runtimeClient.NewImpersonator(
        r.Client, …)`, then `impersonation.CanImpersonate(ctx)`) through the client among the constructor's."""
        package = file.imports.get(operand_text)
        # cluster-api's own calls of its util/secret: the module's function, whose reads are sites themselves
        if (reads := library_reads(package, method)) and self.resolver.package_function(package or "", method) is None:
            return arguments, reads
        if method not in LIBRARY_METHODS or operand.type != "identifier":
            return None
        built = self.values.defined_as(file, operand, 2)
        parts = call_parts(built) if built is not None and built.type == "call_expression" else None
        if built is None or parts is None or parts.operand is None:
            return None
        reads = library_method_reads(file.imports.get(parts.operand_text), parts.name, method)
        return (parser.named(built.child_by_field_name("arguments") or built), reads) if reads else None

    def _list_options_into(self, site: PendingSite, file: GoFile, arguments: list[tree_sitter.Node]) -> None:
        """What a List's options (in `file`) restrict, the fields they filter on, and those that are parameters
        of the function around them (their callers' options decide). An option a local holds applies under the
        conditions it is appended in (`if ns != "" { opts = append(opts, client.InNamespace(ns)) }`)."""
        # one page only where the limit is written at the call and nothing there asks for the next page (a
        # paging loop holds its options in a local, or passes `client.Continue(token)` beside the limit)
        paged = any("Continue" in parser.text(argument) for argument in arguments)
        for argument in arguments:
            for option in list_options(self.values, file, argument):
                before = len(site.restrictions)
                one_page = option == argument and not paged
                site.restrictions.extend(option_restrictions(file, option, site.object.kind, one_page=one_page))
                _judge_option_argument(site, before, file, option)
                if _conditional_apart(option, argument):
                    guard_added(site, before, file, option)
                site.field_keys.extend(extract_field_keys(file, option, self.resolver))
                if option.type == "identifier" and (parameter := self.values.helper_parameter(file, option)):
                    site.list_option_parameters.append(parameter)

    def scope_injected(
        self,
        pending: list[PendingSite],
        binaries: list[frozenset[str]],
        may_run: Callable[[GoFile, tree_sitter.Node], bool],
    ) -> None:
        """Narrow every injected informer by the namespace scopes the binaries reaching it give injection, and
        every wrangler informer by the factories they build, those written where code may run (`may_run`): a
        function nothing calls scopes or builds nothing."""
        self.informers.injection_scopes = [
            scope for scope in self.informers.injection_scopes if may_run(scope[0], scope[1])
        ]
        self.informers.scope_injected(pending, binaries)
        self.wrangler.factories = [
            factory for factory in self.wrangler.factories if may_run(factory.file, factory.call)
        ]
        self.wrangler.scope(pending, binaries)

    def without_handed_out(
        self,
        pending: list[PendingSite],
        stored: Callable[..., list[tuple[GoFile, tree_sitter.Node]]],
        callers: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]],
    ) -> list[PendingSite]:
        """The sites but the factory informers an `InformerFor` registration hands out (see registered)."""
        return self.registrations.without_handed_out(pending, stored, callers)

    def without_served(self, pending: list[PendingSite]) -> list[PendingSite]:
        """The sites but the List and Watch of a ListWatch an informer site stands for (in any file: a helper
        may build the list-watch)."""
        served = self.informers.served
        kept = [site for site in pending if not served_by(site, served)] if served else pending
        paired = reflector_lists(kept)
        return [site for site in kept if id(site) not in paired] if paired else kept


# builder's option interfaces, to which an option is converted (`builder.WatchesOption(opt)`)
def _judge_option_argument(site: PendingSite, before: int, file: GoFile, option: tree_sitter.Node) -> None:
    """`client.InNamespace(namespace)` or `client.MatchingLabels(selector)` of a variable or a parameter: judged
    later by the value it holds by default, `""` listing every namespace and a nil or empty selector every
    object (a helper's callers passing `""` or nil, a flag empty by default)."""
    function = option.child_by_field_name("function") if option.type == "call_expression" else None
    name = parser.text(function).rpartition(".")[2] if function is not None else ""
    mitigation = (
        Mitigation.NAMESPACE if name == "InNamespace" else Mitigation.SELECTOR if name in SELECTING_OPTIONS else None
    )
    value = parser.first_named(option.child_by_field_name("arguments") or option) if mitigation else None
    held: tuple[str, ...] = ("identifier", "selector_expression")
    if mitigation is None and (raw := _raw_of(option)) is not None:  # `&client.ListOptions{Raw: &metav1.…{…}}`
        # a metav1 selector string, as a flag or the environment gives it (`os.Getenv("SELECTOR")`)
        mitigation, value, held = Mitigation.SELECTOR, raw_selector(raw), (*held, "call_expression")
    added = [item for item in site.restrictions[before:] if item.mitigation is mitigation]
    if len(added) != 1 or value is None or value.type not in held:
        return
    (site.namespaces if mitigation is Mitigation.NAMESPACE else site.selector_values).append((added[0], file, value))


SELECTING_OPTIONS = frozenset({"MatchingLabels", "MatchingFields"})  # controller-runtime's selector options of a map


def _raw_of(option: tree_sitter.Node) -> tree_sitter.Node | None:
    """The `Raw` a `client.ListOptions{…}` literal passes, if any."""
    literal = struct_literal_of(option)
    return dict(keyed_elements(literal)).get("Raw") if literal is not None else None


def _conditional_apart(option: tree_sitter.Node, use: tree_sitter.Node) -> bool:
    """Whether an option sits in a branch, case or loop that does not hold where it is used (`if ns != "" {
    opts = append(opts, client.InNamespace(ns)) }` before `List(ctx, &pods, opts...)`): it applies only under
    that condition. An option written beside the use is under the same conditions as the use."""
    current = option.parent
    while current is not None and current.type not in _FUNCTION_NODES:
        if current.type in _CONDITIONAL_NODES and not (
            current.start_byte <= use.start_byte and use.end_byte <= current.end_byte
        ):
            return True
        current = current.parent
    return False


_FUNCTION_NODES = frozenset({"function_declaration", "method_declaration", "func_literal", "source_file"})
_CONDITIONAL_NODES = frozenset({"if_statement", "expression_case", "default_case", "type_case", "for_statement"})


_OPTION_CONVERSIONS = frozenset({"ForOption", "OwnsOption", "WatchesOption"})


def _is_with_predicates(node: tree_sitter.Node) -> bool:
    """`builder.WithPredicates(…)`, by the callee's text."""
    return parser.text(node).split("(", 1)[0].endswith("WithPredicates")


_ANNOTATION_READS = ("GetAnnotations()", ".Annotations")
_LABEL_READS = ("GetLabels()", ".Labels", "MatchingLabels", "LabelSelector")


def _method_calls(
    file: GoFile,
) -> Iterator[tuple[tree_sitter.Node, tree_sitter.Node, str, tree_sitter.Node, str]]:
    """Every `operand.Method(arguments)` call of the file as (call, operand, method name, argument list, the
    operand's text)."""
    for call in file.calls():
        operand, method, arguments = call.operand, call.method, call.arguments
        if operand is None or method is None or method.type != "field_identifier" or arguments is None:
            continue
        if arguments.type == "argument_list":  # not the special list of new() and make()
            yield call.node, operand, call.name, arguments, call.operand_text


def _callee_text(function: tree_sitter.Node | None) -> str:
    """How a helper call's function reads in messages: a method called on a long expression keeps its name and
    the head of the expression (`(&EventCollector{…}).Setup`, not the literal's fields)."""
    text = " ".join(parser.text(function).split()) if function is not None else ""
    if function is None or function.type != "selector_expression" or len(text) <= _MAX_CALLEE:
        return text
    operand = " ".join(parser.text(function.child_by_field_name("operand")).split())
    brace = operand.find("{")
    head = f"{operand[:brace]}{{…}}{')' * operand[:brace].count('(')}" if brace > 0 else "…"
    return f"{head}.{parser.text(function.child_by_field_name('field'))}"


def _starts_injection(file: GoFile, operand: tree_sitter.Node, method: str) -> bool:
    """Where a binary starts knative's injected informers: `sharedmain.Main…(…)`, `injection.EnableInjectionOrDie
    (ctx, cfg)` or `injection.Default.SetupInformers(ctx, cfg)`."""
    if method.startswith("Main"):
        return file.imports.get(parser.text(operand)) == KNATIVE_SHAREDMAIN
    if method == "EnableInjectionOrDie":
        return file.imports.get(parser.text(operand)) == KNATIVE_INJECTION
    if method == "SetupInformers" and operand.type == "selector_expression":
        package = operand.child_by_field_name("operand")
        named = parser.text(operand.child_by_field_name("field"))
        return (
            named == "Default" and package is not None and file.imports.get(parser.text(package)) == KNATIVE_INJECTION
        )
    return False


def _fields_set(file: GoFile, argument: tree_sitter.Node) -> Evidence | None:
    """The fields a watched object literal sets (`&corev1.Secret{Type: corev1.SecretTypeTLS}`), its ObjectMeta's
    by their own names (`Labels`); None for an object setting none."""
    literal = parser.first_named(argument) if argument.type == "unary_expression" else argument
    if literal is None or literal.type != "composite_literal":
        return None
    names: list[str] = []
    for key, value in keyed_elements(literal):
        inner = keyed_elements(value) if key == "ObjectMeta" and value.type == "composite_literal" else []
        names.extend([name for name, _ in inner] or [key])
    shown = [f"`{name}`" for name in names]
    listed = f"{', '.join(shown[:-1])} and {shown[-1]}" if len(shown) > 1 else "".join(shown)
    return Evidence(file.span(literal), listed) if names else None


def _has_only_metadata(options: list[tree_sitter.Node]) -> bool:
    return any(parser.text(option).endswith("OnlyMetadata") for option in options)


def _is_handler(text: str) -> bool:
    """An event handler, by the head of its expression: a predicate's body may well call `shouldEnqueue`."""
    head = text.lstrip("&").split("(", 1)[0].split("{", 1)[0]
    return "handler." in head or "Enqueue" in head


def _event_filter(file: GoFile, call: tree_sitter.Node) -> Evidence:
    """`WithEventFilter(…)` where the chain calls it: from the method's name to the end of its arguments, not
    the whole chain before it."""
    name, whole = file.name_span(call), file.span(call)
    return Evidence(replace(name, end_line=whole.end_line, end_column=whole.end_column), "`WithEventFilter(…)`")


def _source_cache(file: GoFile, kind_call: tree_sitter.Node) -> tuple[GoFile, tree_sitter.Node] | None:
    """The cache a `source.Kind(cache, obj, …)` is given (`mgr.GetCache()`): whose manager's options hold."""
    given = _kind_cache_argument(kind_call)
    return (file, given) if given is not None else None


def _kind_cache_argument(kind_call: tree_sitter.Node) -> tree_sitter.Node | None:
    """The cache argument of `source.Kind(cache, obj, …)`, or of the older `source.NewKindWithCache(obj, cache)`."""
    arguments = parser.named(kind_call.child_by_field_name("arguments") or kind_call)
    at = _kind_positions(kind_call)[0]
    return arguments[at] if len(arguments) > at else None


def _kind_positions(kind_call: tree_sitter.Node) -> tuple[int, int]:
    """Where a kind source takes its cache and its object: `source.Kind(cache, obj, …)`, or (controller-runtime
    before v0.15) `source.NewKindWithCache(obj, cache)`, the object first."""
    function = kind_call.child_by_field_name("function")
    old = function is not None and parser.text(function).split("[", 1)[0].endswith(_KIND_WITH_CACHE)
    return (1, 0) if old else (0, 1)


def _assigned_package_variables(resolver: Resolver) -> Iterator[tuple[str, str]]:
    """The package variables, or their elements, some function of the module assigns (`watched = append(…)`)."""
    files = {id(info.file): info.file for info in resolver.declarations.functions.values()}
    for file in files.values():
        for assignment in file.assignments():
            for target in assignment.targets:
                named = target.child_by_field_name("operand") if target.type == "index_expression" else target
                variable = resolver.package_variable(file, named) if named is not None else None
                if variable is not None:
                    yield variable


def _may_pass_over(loop: tree_sitter.Node, node: tree_sitter.Node) -> bool:
    """Whether a loop may pass an item over before reaching `node`: a `continue`, `break`, `goto` or `return` in
    its body, or a branch or case around the node within it."""
    body = loop.child_by_field_name("body")
    if body is None:
        return True
    jumps = "[(continue_statement) (break_statement) (goto_statement) (return_statement)] @jump"
    if parser.captures(jumps, body).get("jump"):
        return True
    current = node.parent
    while current is not None and current != body:
        if current.type in ("if_statement", "expression_case", "type_case", "default_case", "communication_case"):
            return True
        current = current.parent
    return False


def _field_operand(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The variable of a field read (`ia` of `ia.obj`); None for any other expression."""
    operand = node.child_by_field_name("operand") if node.type == "selector_expression" else None
    return operand if operand is not None and operand.type == "identifier" else None


def _filters_less(copy: PendingSite, first: PendingSite, cached: Callable[[PendingSite], bool]) -> bool:
    """Whether a helper's watch reports its call rather than the one found first, the two reading the cache
    alike: a watch that filters nothing in the helper before one that filters; one that filters before one
    given no predicates by the call (a helper's `if len(preds) > 0 { … WithPredicates(preds...) } else { …
    its own predicate }` takes the other path then)."""
    if cached(copy) != cached(first):
        return False
    if copy.filters:
        return not first.filters and first.forwarded_predicates is not None
    return bool(first.filters) and copy.forwarded_predicates is None


def _distinct_kinds(objects: list[ObjectRef]) -> list[ObjectRef]:
    """The first object of each kind and form a loop hands one call: koordinator's table indexing Pods by two
    fields is one site of Pod, not two findings at one place."""
    firsts: dict[tuple[str, str, ObjectForm, bool], ObjectRef] = {}
    for item in objects:
        firsts.setdefault((item.package, item.kind, item.form, item.is_list), item)
    return list(firsts.values())
