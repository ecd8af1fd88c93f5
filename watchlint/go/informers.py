"""client-go informers outside a factory: standalone ones (`NewSecretInformer`), tools/cache's informers over a
list-watch, and knative's injected informers, each with the namespace and selectors it lists with (SPEC §3.1)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import tree_sitter

from watchlint.facts import Access, Evidence, Mitigation, ObjectForm, Operation, Restriction
from watchlint.go import parser
from watchlint.go.clientgo import TypedClientNames
from watchlint.go.declarations import FunctionKey, resolve_type
from watchlint.go.listoptions import (
    LIST_FUNCS,
    WATCH_FUNCS,
    Built,
    ListOptionsReader,
    list_options,
    local_values,
    option_restrictions,
    passed_at_build,
    selector_restriction,
)
from watchlint.go.model import KNATIVE_INFORMERS, TOOLS_CACHE, GoFile
from watchlint.go.pending import PendingSite, calls_in, method_name, operand_of, pending_site, restrict_namespace
from watchlint.go.resolve import ObjectRef, Resolver, holding_literal, is_map_literal, keyed_elements
from watchlint.go.scope import innermost_function, returned_values
from watchlint.go.values import ValueTracer

LIST_WATCH_INFORMERS = frozenset(
    {
        *("NewSharedIndexInformer", "NewSharedInformer", "NewInformer", "NewIndexerInformer", "NewInformerWithOptions"),
        "New",  # the low-level controller of a `cache.Config`: its queue is fed every object listed
        # a reflector fills a store with every object its list-watch lists, as an informer's does
        *("NewReflector", "NewNamedReflector", "NewReflectorWithOptions"),
    }
)
_LIST_WATCH_WRAPPERS = frozenset({"ToListWatcherWithWatchListSemantics"})  # list as the list-watch they wrap
_LIST_WATCH_HOPS = 3  # wrappers and functions followed to the list-watch they give
_NO_FIELD_SELECTOR = ("Everything()", "Nothing()", "nil")  # how a selector sending none ends; Nothing() sends none
STANDALONE_INFORMER = re.compile(r"New(?P<filtered>Filtered)?(?P<kind>[A-Z]\w*)Informer")
_KNATIVE_SYSTEM_INFORMERS = "knative.dev/pkg/injection/clients/namespacedkube/informers"


class InformerSites:
    """Finds the informer sites of a module's files that no factory builds; injected informers are scoped once
    the module's `injection.WithNamespaceScope` calls are known."""

    def __init__(
        self, resolver: Resolver, values: ValueTracer, names: TypedClientNames, options: ListOptionsReader
    ) -> None:
        self.resolver = resolver
        self.values = values
        self.names = names
        self.options = options
        # the ListFuncs and WatchFuncs informer sites read, as (path, first byte, end byte), in any file
        self.served: list[tuple[str, int, int]] = []
        # `injection.WithNamespaceScope(ctx, ns)` calls of the module: they scope every injected informer
        self.injection_scopes: list[tuple[GoFile, tree_sitter.Node, list[tree_sitter.Node]]] = []
        # `sharedmain.Main…(…)` calls of the module: where each binary starts injection
        self.injection_starts: list[tuple[GoFile, tree_sitter.Node]] = []

    def standalone_informer_site(
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
        if package == TOOLS_CACHE and method in LIST_WATCH_INFORMERS:
            yield from self._list_watch_informer_site(file, call, method, arguments)
            return
        if match is None:
            return
        kind = self.names.standalone.get((package or "", match.group("kind")))
        if kind is None or len(arguments) < 2 or self.values.is_fake_clientset(file, arguments[0]):
            return
        found = ObjectRef(kind, ObjectForm.TYPED, f"{match.group('kind')} informer", False)
        site = pending_site(
            self.resolver, file, call, method, Operation.WATCH, Access.INFORMER_FACTORY, found, ObjectForm.TYPED
        )
        restrict_namespace(site, file, arguments[1], "namespace")
        if arguments[0].type == "identifier":  # a helper of tests given a fake clientset lists no cluster
            site.clientset_parameter = self.values.helper_parameter(file, arguments[0])
        tweak = arguments[4] if match.group("filtered") and len(arguments) > 4 else None
        if tweak is not None and parser.text(tweak) != "nil":
            self.options.tweak(site, file, tweak, "tweakListOptions")
        yield site

    def _list_watch_informer_site(
        self, file: GoFile, call: tree_sitter.Node, method: str, arguments: list[tree_sitter.Node]
    ) -> Iterator[PendingSite]:
        """`cache.NewSharedIndexInformer(lw, &corev1.Pod{}, …)` (and NewSharedInformer, NewInformer,
        NewIndexerInformer, NewInformerWithOptions and New with their ListerWatcher and ObjectType, and the
        reflectors) over `cache.NewListWatchFromClient(getter, "pods", namespace, fieldSelector)`: narrowed by
        the list-watch's namespace and selector; another list-watch counts as narrowing."""
        given, built = file, None  # the file of the list-watch and object type, and the call building them
        if method in ("NewInformerWithOptions", "New"):  # `cache.New(&cache.Config{ListerWatcher: lw, …})`
            given, options, built = self._options(file, arguments[0]) if arguments else (file, None, None)
            fields = (
                dict(keyed_elements(options)) if options is not None and options.type == "composite_literal" else {}
            )
            if "ListerWatcher" not in fields or "ObjectType" not in fields:
                return
            arguments = [fields["ListerWatcher"], fields["ObjectType"]]
        elif method == "NewNamedReflector":  # (name, lw, expectedType, store, resync)
            arguments = arguments[1:]
        found = self.resolver.object_of(given, arguments[1]) if len(arguments) > 1 else None
        # `obj rt.Object` of a helper building an informer per kind it is given (opencost's NewCachingWatcher):
        # reported at each call naming the kind
        helper = self.values.helper_parameter(file, arguments[1]) if found is None and len(arguments) > 1 else None
        keyed = None
        if found is None and helper is None and len(arguments) > 1:  # Reloader's `kube.ResourceMap[resource]`
            keyed = self._keyed_item(file, arguments[1])
        if keyed is not None:
            helper, _ = keyed
        if helper is not None:
            found = ObjectRef("", ObjectForm.TYPED, parser.text(arguments[1]), False)
        if found is None:
            return
        site = pending_site(
            self.resolver, file, call, method, Operation.WATCH, Access.INFORMER_FACTORY, found, found.form
        )
        site.helper = helper
        site.helper_map = keyed[1] if keyed is not None else None
        yield from self._narrowed_by_list_watch(site, given, arguments[0], built)

    def _options(self, file: GoFile, node: tree_sitter.Node) -> tuple[GoFile, tree_sitter.Node | None, Built | None]:
        """The options literal an informer is built from (`cache.InformerOptions{…}`, `&cache.Config{…}`), with
        its file: behind local variables, and returned by a function of the module (nginx's
        `lbc.getConfigMapHandlerOptions(handlers, namespace)`), with that call (its parameters are what that
        call passes)."""
        options = self.values.defined_as(file, node, 2, through_address=True)
        returned = self._returned_by(file, options) if options is not None else None
        return returned if returned is not None else (file, options, None)

    def _returned_by(
        self, file: GoFile, call: tree_sitter.Node
    ) -> tuple[GoFile, tree_sitter.Node | None, Built] | None:
        """What the module function a call makes returns, where it has a single return (behind the local it
        may be held in), with its file and the call; None for any other expression."""
        info = self.resolver.callee(file, call) if call.type == "call_expression" else None
        returned = returned_values(info.node) if info is not None else []
        if info is None or len(returned) != 1:
            return None
        return info.file, self.values.defined_as(info.file, returned[0], 2, through_address=True), (file, call)

    def _keyed_item(
        self, file: GoFile, node: tree_sitter.Node
    ) -> tuple[tuple[FunctionKey, int], tuple[GoFile, tree_sitter.Node]] | None:
        """For an object that is the item of a package's map literal keyed by a parameter of the function
        (Reloader's `kube.ResourceMap[resource]`), the parameter and the literal with its file."""
        if node.type != "index_expression":
            return None
        operand, index = node.child_by_field_name("operand"), node.child_by_field_name("index")
        held = self.resolver.held_value(file, operand) if operand is not None else None
        parameter = self.values.helper_parameter(file, index) if index is not None else None
        if held is None or parameter is None or not is_map_literal(held[1]):
            return None
        return parameter, held

    def _narrowed_by_list_watch(
        self, site: PendingSite, file: GoFile, given: tree_sitter.Node, built: Built | None = None
    ) -> Iterator[PendingSite]:
        """The site of an informer over a list-watch, with the restrictions of that list-watch; `built` is the
        call of the function whose code gives it, if any."""
        kind = site.object.kind
        file_of_list_watch, list_watch, built = self._list_watch(file, given, built)
        name, values = None, []
        if list_watch is not None and list_watch.type == "call_expression":
            name = method_name(list_watch)
            values = parser.named(list_watch.child_by_field_name("arguments") or list_watch)
        if list_watch is not None and self._list_func_restrictions(site, file_of_list_watch, list_watch, kind, built):
            yield site
            return
        if name not in ("NewListWatchFromClient", "NewFilteredListWatchFromClient") or len(values) < 4:
            text = " ".join(parser.text(given).split())
            stand_in = Restriction(Mitigation.UNRESOLVED, kind, file.span(given), text)
            site.restrictions.append(stand_in)
            helper = site.helper
            parameter = self.values.helper_parameter(file, given) if helper is not None else None
            if parameter is not None and helper is not None and parameter[0] == helper[0]:  # each call passes one
                site.list_watch_parameter = (*parameter, stand_in)
            yield site
            return
        restrict_namespace(site, *passed_at_build(self.resolver, file_of_list_watch, values[2], built), "namespace")
        # the selector too as the building call passes it (velero's `f.NewListWatch("", fields.Everything())`)
        selector_file, selector = passed_at_build(self.resolver, file_of_list_watch, values[3], built)
        resource = values[1] if selector_file is file_of_list_watch else None
        self._list_watch_selector(site, selector_file, selector, name, resource)
        yield site

    def _list_watch_selector(
        self,
        site: PendingSite,
        file: GoFile,
        selector: tree_sitter.Node,
        name: str,
        resource: tree_sitter.Node | None = None,
    ) -> None:
        """Narrow an informer's site by the selector argument of `NewListWatchFromClient` (a field selector) or
        `NewFilteredListWatchFromClient` (a function adjusting the options, given the resource it lists)."""
        kind = site.object.kind
        if parser.text(selector).endswith(_NO_FIELD_SELECTOR):
            return
        if name.startswith("NewFiltered"):
            self.options.tweak(site, file, selector, "optionsModifier", resource)
        elif (written := local_values(self.resolver, file, selector)) is not None:
            # `sel := fields.Everything(); if node != "" { sel = fields.OneTermEqualSelector(…) }` (kube2iam): each
            # selector written narrows under the conditions it is written in
            for value in written:
                if not parser.text(value).endswith(_NO_FIELD_SELECTOR):
                    shown = " ".join(parser.text(value).split())
                    restriction = selector_restriction(self.resolver, file, value, value, "FieldSelector", kind, shown)
                    site.restrictions.append(restriction)
                    site.guarded.append((restriction, file, value))
        else:
            # `status.phase!=Pending` only excludes (VPA's recommender): no restriction in effect
            restriction = selector_restriction(
                self.resolver, file, selector, selector, "FieldSelector", kind, "fieldSelector"
            )
            site.restrictions.append(restriction)
            if site.helper is not None and selector.type == "identifier":
                site.selector_values.append((restriction, file, selector))  # what each call of the helper passes

    def narrow_by_passed_list_watch(
        self, copy: PendingSite, stand_in: Restriction, file: GoFile, passed: tree_sitter.Node
    ) -> None:
        """Narrow the copy of a helper's informer site at one of its calls by the list-watch the call passes
        (prometheus' `d.mustNewSharedInformer(plw, &apiv1.Pod{}, …)`), in place of its stand-in."""
        copy.restrictions = [restriction for restriction in copy.restrictions if restriction is not stand_in]
        for _ in self._narrowed_by_list_watch(copy, file, passed):
            pass

    def _list_watch(
        self, file: GoFile, node: tree_sitter.Node, built: Built | None = None
    ) -> tuple[GoFile, tree_sitter.Node | None, Built | None]:
        """The list-watch an informer is given, with its file: behind local variables, client-go's
        `cache.ToListWatcherWithWatchListSemantics(lw, client)` (which lists as `lw` does), and a function of
        the module that returns one (`podWatch(ctx, cs, ns)` returning `&cache.ListWatch{…}`), with the last
        such call (its parameters are what that call passes), else `built`."""
        found = self.values.defined_as(file, node, 2, through_address=True)
        for _ in range(_LIST_WATCH_HOPS):
            if found is None or found.type != "call_expression":
                break
            arguments = parser.named(found.child_by_field_name("arguments") or found)
            if method_name(found) in _LIST_WATCH_WRAPPERS and arguments:
                found = self.values.defined_as(file, arguments[0], 2, through_address=True)
                continue
            returned = self._returned_by(file, found)
            if returned is None:
                break
            file, found, built = returned
        return file, found, built

    def _list_func_restrictions(
        self,
        site: PendingSite,
        file: GoFile,
        list_watch: tree_sitter.Node,
        kind: str,
        built: Built | None = None,
    ) -> bool:
        """`&cache.ListWatch{ListFunc: func(options metav1.ListOptions) … { return cs.CoreV1().Pods(ns).List(ctx,
        options) }, …}`: the informer lists as its ListFunc does, with the namespace it names and the options
        the reflector passes (no selector, unless the function sets one). False when that cannot be read."""
        function = self._list_function(file, list_watch)
        if function is None:
            return False
        listed = next((call for call in calls_in(function) if method_name(call) == "List"), None)
        values = parser.named(listed.child_by_field_name("arguments") or listed) if listed is not None else []
        # `cs.CoreV1().Pods(ns).List(ctx, options)`, or a variable holding `cs.CoreV1().Pods(ns)`
        resource = self.values.defined_as(file, operand_of(listed), 2) if listed is not None else None
        namespaces = parser.named(resource.child_by_field_name("arguments") or resource) if resource is not None else []
        if listed is not None and len(values) >= 2 and self._lists_through_a_client(file, listed, values):
            # `c.List(ctx, &list, &client.ListOptions{Raw: &options})` of a controller-runtime client: narrowed by
            # its options (VictoriaMetrics' config-reloader builds the client with NewWithWatch, no namespace)
            for given in values[2:]:
                for option in list_options(self.values, file, given):  # also held in a local (`listOpts`)
                    site.restrictions.extend(option_restrictions(file, option, kind))
            self.served.append((file.path, function.start_byte, function.end_byte))
            return True
        if listed is None:
            return self._request_restrictions(site, file, function, built)
        if not values or resource is None or resource.type != "call_expression":
            return False
        if namespaces:
            restrict_namespace(site, *passed_at_build(self.resolver, file, namespaces[0], built), "namespace")
        # the options come last: `List(ctx, options)`, `List(options)` before client-go 0.18
        self.options.narrow(site, file, values[-1], built)
        # the WatchFunc is served too where it watches as the ListFunc lists; one that watches otherwise (a
        # ListFunc in one namespace, a WatchFunc over all) is a site of its own
        watched = next((value for key, value in keyed_elements(list_watch) if key in WATCH_FUNCS), None)
        if watched is not None and watched.type == "identifier":
            watched = self.values.defined_as(file, watched, 2)
        served = [function, watched] if watched is not None and _alike(function, watched) else [function]
        self.served.extend((file.path, value.start_byte, value.end_byte) for value in served)
        return True

    def _list_function(self, file: GoFile, list_watch: tree_sitter.Node) -> tree_sitter.Node | None:
        """The function literal a `cache.ListWatch{…}` literal is given as its ListFunc, also held in a local
        (`listFunc := func(options …) …` first)."""
        literal_type = resolve_type(list_watch.child_by_field_name("type"), file)
        if (
            list_watch.type != "composite_literal"
            or literal_type is None
            or not literal_type.is_(TOOLS_CACHE, "ListWatch")
        ):
            return None
        function = next((value for key, value in keyed_elements(list_watch) if key in LIST_FUNCS), None)
        if function is not None and function.type == "identifier":
            function = self.values.defined_as(file, function, 2)
        return function if function is not None and function.type == "func_literal" else None

    def _request_restrictions(
        self, site: PendingSite, file: GoFile, function: tree_sitter.Node, built: Built | None
    ) -> bool:
        """A ListFunc making the REST request client-go's NewListWatchFromClient makes, `c.Get().Namespace(ns).
        Resource("pods").VersionedParams(&options, metav1.ParameterCodec).Do(ctx).Get()` (kubevirt's helper of its
        own, which sends a label selector too): narrowed by the namespace it names, every one without, and by the
        options it sends."""
        request = next((call for call in calls_in(function) if method_name(call) == "VersionedParams"), None)
        sent = parser.named(request.child_by_field_name("arguments") or request) if request is not None else []
        if request is None or not sent or not parser.is_unary(sent[0], "&"):
            return False
        chain: dict[str, tree_sitter.Node] = {}
        part = operand_of(request)
        while part is not None and part.type == "call_expression":
            chain.setdefault(method_name(part) or "", part)
            part = operand_of(part)
        options = sent[0].child_by_field_name("operand")
        if "Resource" not in chain or options is None:
            return False
        scoped = chain.get("Namespace")
        named = parser.named(scoped.child_by_field_name("arguments") or scoped) if scoped is not None else []
        if named:
            restrict_namespace(site, *passed_at_build(self.resolver, file, named[0], built), "namespace")
        self.options.narrow(site, file, options, built)
        self.served.append((file.path, function.start_byte, function.end_byte))
        return True

    def _lists_through_a_client(self, file: GoFile, listed: tree_sitter.Node, values: list[tree_sitter.Node]) -> bool:
        """Whether a ListFunc's List is a controller-runtime client's (`c.List(ctx, &list, opts…)`): an object
        list as its second argument, rather than a clientset resource's `Pods(ns).List(ctx, options)`."""
        found = self.resolver.object_of(file, values[1])
        return found is not None and found.is_list and method_name(operand_of(listed)) is None

    def injected_informer_site(
        self, file: GoFile, call: tree_sitter.Node, operand: tree_sitter.Node, arguments: list[tree_sitter.Node]
    ) -> PendingSite | None:
        """`secretinformer.Get(ctx)` of knative's injection: the informer of a factory over every namespace
        unless the module scopes injection (`injection.WithNamespaceScope`); its `filtered` form is given a
        label selector (`Get(ctx, selector)`)."""
        package = file.imports.get(parser.text(operand)) if operand.type == "identifier" else None
        # the namespacedkube twin of an injected informer is built over the system namespace only
        system = package is not None and package.startswith(_KNATIVE_SYSTEM_INFORMERS + "/")
        if system and package is not None:
            package = KNATIVE_INFORMERS + package.removeprefix(_KNATIVE_SYSTEM_INFORMERS)
        if package is None or not package.startswith(KNATIVE_INFORMERS + "/"):
            return None
        filtered = package.endswith("/filtered")
        kind = self.names.injected.get(package.removesuffix("/filtered"))
        if kind is None:
            return None
        found = ObjectRef(kind, ObjectForm.TYPED, f"injected {kind} informer", False)
        access, alias = Access.INFORMER_FACTORY, parser.text(operand)
        site = pending_site(
            self.resolver, file, call, "Get", Operation.WATCH, access, found, ObjectForm.TYPED, receiver=alias
        )
        if system:
            text = "knative's namespacedkube informer (system.Namespace())"
            site.restrictions.append(Restriction(Mitigation.NAMESPACE, kind, file.span(call), text))
            return site
        site.injected = True
        if filtered:
            selector = arguments[1] if len(arguments) > 1 else call
            site.restrictions.append(Restriction(Mitigation.SELECTOR, kind, file.span(selector), "filtered informer"))
        return site

    def scope_injected(self, pending: list[PendingSite], binaries: list[frozenset[str]]) -> None:
        """Narrow every injected informer by the namespace scopes the binaries reaching it (the packages of
        each in `binaries`) give injection, each judged under the conditions it is given in: a binary that
        gives none serves every namespace, and its sites are left open (SPEC §3.1: a finding when any binary
        leaves it unrestricted); a site no binary reaches takes the module's scopes."""
        for site in pending:
            if not site.injected:
                continue
            reaching = [packages for packages in binaries if site.file.package_path in packages]
            scopes = self.injection_scopes
            if reaching:
                given = [[scope for scope in scopes if scope[0].package_path in packages] for packages in reaching]
                if not all(given):
                    self._unscoped_starts(site, [p for p, chosen in zip(reaching, given, strict=True) if not chosen])
                    continue
                scopes = [scope for scope in scopes if any(scope in chosen for chosen in given)]
            for file, call, arguments in scopes:
                if len(arguments) < 2:
                    continue
                scope = restrict_namespace(site, file, arguments[1], "injection.WithNamespaceScope", file.span(call))
                if scope is not None:
                    site.guarded.append((scope, file, call))

    def _unscoped_starts(self, site: PendingSite, binaries: list[frozenset[str]]) -> None:
        """Cite where the binaries that scope no injection start it (`sharedmain.MainWithConfig(…)`): their
        injected informers serve every namespace."""
        for file, call in self.injection_starts:
            if any(file.package_path in packages for packages in binaries):
                text = f"injection started by `{parser.text(call.child_by_field_name('function'))}`"
                site.restrictions.append(
                    Restriction(Mitigation.DEFAULT_NAMESPACES, site.object.kind, file.span(call), text, False)
                )


def served_by(site: PendingSite, functions: list[tuple[str, int, int]]) -> bool:
    """Whether a clientset call lies in one of the ListFuncs and WatchFuncs an informer site stands for."""
    start, path = site.node.start_byte, site.file.path
    return site.access is Access.CLIENTSET and any(
        where == path and first <= start < end for where, first, end in functions
    )


def reflector_lists(pending: list[PendingSite]) -> set[int]:
    """The clientset Lists (by `id`) of a ListFunc whose sibling WatchFunc watches the same kind, in a literal
    that is no `cache.ListWatch` (`syncer{ListFunc: func(o metav1.ListOptions) … { return cs.CoreV1().
    Secrets("").List(ctx, o) }, WatchFunc: …}`, handed to an informer through fields): the reflector's list,
    which the Watch site stands for; one informer is one finding. Each such Watch is given its List as
    `list_watch`: what the pair feeds is kept, not streamed."""
    watched: dict[tuple[str, int], list[PendingSite]] = {}  # Watches by their sibling ListFunc's (path, start)
    for site in pending:
        if site.access is not Access.CLIENTSET or site.operation is not Operation.WATCH:
            continue
        lister = _sibling_function(site.node, WATCH_FUNCS, LIST_FUNCS)
        if lister is not None:
            watched.setdefault((site.file.path, lister.start_byte), []).append(site)
    if not watched:
        return set()
    found: set[int] = set()
    for site in pending:
        if site.access is not Access.CLIENTSET or site.operation is not Operation.LIST:
            continue
        function = innermost_function(site.node)
        key = (site.file.path, function.start_byte) if function is not None else None
        watches = [watch for watch in watched.get(key, ()) if watch.object.kind == site.object.kind] if key else []
        for watch in watches:
            watch.list_watch = Evidence(
                site.span, f"its ListFunc lists here: a reflector given the pair keeps every {site.object.kind} listed"
            )
        if watches:
            found.add(id(site))
    return found


def _sibling_function(
    node: tree_sitter.Node, keys: dict[str, int], siblings: dict[str, int]
) -> tree_sitter.Node | None:
    """The function literal keyed by one of `siblings` in the composite literal that has the function literal
    around `node` under one of `keys`."""
    function = innermost_function(node)
    holder = holding_literal(function) if function is not None and function.type == "func_literal" else None
    fields = dict(keyed_elements(holder)) if holder is not None else {}
    if not any(fields.get(key) == function for key in keys):
        return None
    value = next((fields[sibling] for sibling in siblings if sibling in fields), None)
    return value if value is not None and value.type == "func_literal" else None


def _alike(listing: tree_sitter.Node, watching: tree_sitter.Node) -> bool:
    """Whether a ListWatch's WatchFunc narrows as its ListFunc does: the same resource (`Pods(ns)`), options
    passed alike and the same selectors written into them, each function under its own parameter name (other
    options, a resource version or bookmarks, differ freely)."""
    if watching.type != "func_literal":
        return False
    return _narrowing(listing, "List") == _narrowing(watching, "Watch")


def _narrowing(function: tree_sitter.Node, method: str) -> tuple[str, str, frozenset[str]] | None:
    """The resource a ListFunc or WatchFunc calls `method` on, the options it passes and the selectors it
    writes, with its parameter's name left out."""
    parameters = parser.named(function.child_by_field_name("parameters") or function)
    names = [parser.text(name) for parameter in parameters for name in parameter.children_by_field_name("name")]
    called = next((call for call in calls_in(function) if method_name(call) == method), None)
    resource = operand_of(called) if called is not None else None
    passed = parser.named(called.child_by_field_name("arguments") or called) if called is not None else []
    if len(names) not in (1, 2) or resource is None or not passed:
        return None

    def plain(node: tree_sitter.Node) -> str:  # the options are the last parameter, after a context if any
        return re.sub(rf"\b{re.escape(names[-1])}\b", "¶", " ".join(parser.text(node).split()))

    selectors = frozenset(
        plain(statement)
        for statement in parser.captures("(assignment_statement) @set", function).get("set", [])
        if re.search(
            r"\.(LabelSelector|FieldSelector)\b", parser.text(statement.child_by_field_name("left") or statement)
        )
    )
    return plain(resource), plain(passed[-1]), selectors
