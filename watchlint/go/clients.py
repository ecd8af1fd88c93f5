"""Which receivers are cache-backed (SPEC §3.1).

Cache-backed: `mgr.GetClient()`/`cluster.GetClient()` and what they flow into (struct fields, embedded
clients, parameters fed by same-module callers); unknown means cache-backed. Not cache-backed:
`GetAPIReader()`, `client.New` without a cache reader, clientsets. Values are first recorded as references
(a field, a parameter) while every file is read (clientcollect), then resolved once the whole module is known.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import tree_sitter

from watchlint.facts import Access, Evidence
from watchlint.go import parser
from watchlint.go.clientrefs import (
    PACKAGE_SCOPE,
    Assigned,
    ClientRef,
    FieldRef,
    ForeignRef,
    Known,
    LocalRef,
    Marker,
    ParamRef,
    ReturnRef,
)
from watchlint.go.clientsyntax import appended_item, cache_reader, call_operand, is_fake_client, is_map, map_values
from watchlint.go.declarations import FunctionInfo, FunctionKey, resolve_type
from watchlint.go.dispatch import MethodIndex
from watchlint.go.libraryreads import unversioned
from watchlint.go.model import (
    CR_CACHE,
    CR_CLIENT,
    CR_CLUSTER,
    KUBERNETES,
    MANAGER_PACKAGES,
    SAMBER_LO,
    GoFile,
    TypeRef,
    call_parts,
    is_client_type,
    shared_folders,
)
from watchlint.go.resolve import (
    Resolver,
    assigned_to,
    holding_literal,
    is_slice_literal,
    key_of,
    keyed_elements,
    literal_items,
    option_holder,
    struct_literal_of,
)
from watchlint.go.scope import (
    Declaration,
    function_starting_at,
    in_nil_test,
    innermost_function,
    named_results,
    receiver_name,
    return_items,
    return_statements,
    returned_values,
)
from watchlint.go.secondcaches import cluster_given_option, is_second_cache, second_cache_key
from watchlint.go.workloadcaches import (
    CACHED_GETTERS,
    UNCACHED_GETTER,
    WORKLOAD_CACHE,
    builds_a_workload_cache,
    is_workload_cache,
)
from watchlint.source import Span

_CYCLE = Known(Access.CACHE, None)  # a reference met again while resolving it: says nothing of its own
# a chain of references followed past MAX_DEPTH: taken as cache-backed where nothing else is known, but no
# match for a path resolved to a client (camel-k's 12 constructors down to client.New)
_TOO_DEEP = Known(Access.CACHE, None)
# references followed: kiali hands its cache on through 8 (parameters, results, a field, maps), camel-k its client
# to GetSecret through 11
MAX_DEPTH = 12
# fields copied from field to field, followed back to the seam tests fill (kueue's builder: one copy)
MAX_SEAM_COPIES = 3
# functions of other modules known to build a client with client.New (cluster-api's client of a workload cluster)
_UNCACHED_CONSTRUCTORS = frozenset({("sigs.k8s.io/cluster-api/controllers/remote", "NewClusterClient")})
# other modules' accessors handing out a client they build with client.New and no cache, by the package of the
# type they are called on (its major version left out) and their name: giantswarm's k8sclient "configures the client
# on its own instead of relying on the manager" (aws-operator's `r.k8sClient.CtrlClient().Get(…)`)
_UNCACHED_ACCESSORS = frozenset({("github.com/giantswarm/k8sclient/pkg/k8sclient", "CtrlClient")})
# the constructors named as values (a seam tests replace), by package, as a regular expression's alternatives
_CONSTRUCTOR_NAMES = {CR_CLIENT: b"New|NewWithWatch"} | {
    package: name.encode() for package, name in _UNCACHED_CONSTRUCTORS
}
# controller-runtime functions that wrap a client and read through it
_WRAPPERS = frozenset({"NewNamespacedClient", "WithFieldOwner", "WithFieldValidation", "NewDryRunClient"})
_PANICKING_ON_ERROR = frozenset({"Must", "Must1"})  # samber/lo's, giving the first result of the call in them
_EMBEDDING_DEPTH = 3  # structs embedded in structs embedded in the one a field is read through
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # a value that is only a name passed on
_LITERAL = re.compile(r"&?[A-Za-z_][A-Za-z0-9_.]*\{")  # a struct literal wrapping the client with other fields
# a parameter's evidence, `parameter c of outer (through a, b) is `r.Client``, read back to chain it on
_PARAMETER_EVIDENCE = re.compile(
    r"parameter \S+ of (?P<function>\S+)(?: \(through (?P<through>[^)]*)\))? is (?P<value>`.*`)"
)
_CHAIN_SHOWN = 2  # functions a chained parameter's evidence names
# the methods handing out a client, or a manager's or cluster's cache itself (_getter_ref)
_CACHE_GETTERS = frozenset({"GetCache", "GetFieldIndexer"})
_GETTERS = CACHED_GETTERS | {UNCACHED_GETTER} | _CACHE_GETTERS
# import path elements of another module's test infrastructure, whose clients serve in-memory stores
_TEST_INFRASTRUCTURE = frozenset({"test", "testing", "fake", "fakes", "testutil", "testutils"})
# what reads a container of another module (sync.Map, ttlcache.Cache, an LRU) holding clients: an item, or
# the value of an item it gives
_CONTAINER_READS = frozenset({"Load", "LoadOrStore", "Get", "Peek", "Value"})
_ITEM_VALUES = frozenset({"Value"})
_CLUSTER_HOPS = 4  # locals, fields and returns followed to the second cache a value holds


@dataclass(slots=True)
class ClientGraph:
    """The references a module's clients flow through, what each field, variable and parameter receives, and
    the access each resolves to."""

    resolver: Resolver
    field_values: dict[tuple[TypeRef, str], list[Assigned]] = field(default_factory=dict)
    call_arguments: dict[tuple[FunctionKey, int], list[Assigned]] = field(default_factory=dict)
    # fields of another module's container type the module stores clients in through its methods (`c.internal.
    # Set(key, value, ttl)` of a ttlcache.Cache, `Store` of a sync.Map): their values in field_values
    container_fields: set[tuple[TypeRef, str]] = field(default_factory=set)
    _client_functions: frozenset[str] | None = None  # names of functions taking a client, computed once
    _client_fields: frozenset[str] | None = None  # names of client-typed struct fields, computed once
    _client_like: dict[TypeRef, bool] = field(default_factory=dict)
    _stored_constructors: frozenset[str] | None = None  # see _constructors_stored
    _keys_by_struct: dict[TypeRef, list[frozenset[str]]] | None = None  # see _literal_keys
    _literals_by_struct: dict[TypeRef, list[tuple[GoFile, tree_sitter.Node]]] | None = None  # _struct_literals
    _slice_item_structs: frozenset[TypeRef] | None = None  # _built_in_slice_items
    _fields_assigned: dict[str, bool] = field(default_factory=dict)  # see _assigned_anywhere
    _files_declaring: list[GoFile] | None = None  # see _declaring_files
    _module_packages: frozenset[str] | None = None  # the packages of those files (see _foreign)
    _clusters_passed: dict[tuple[FunctionKey, int], str] = field(default_factory=dict)  # see _cluster_passed
    # the values of each local declared with one client and assigned others later (see LocalRef)
    _locals: dict[LocalRef, tuple[GoFile, list[tree_sitter.Node]]] = field(default_factory=dict)
    # the arguments the calls of a function literal pass for one of its parameters (see _literal_parameter_ref)
    # (and how messages name the literal: the package variable holding it, if one does)
    _literal_arguments: dict[LocalRef, tuple[list[tuple[GoFile, tree_sitter.Node]], str]] = field(default_factory=dict)
    _function_names: Counter[str] | None = None  # how many packages declare a function of each name (_named)
    methods: MethodIndex = field(init=False)  # what a call through an interface runs
    _value_names: dict[FunctionKey, bool] = field(default_factory=dict)  # functions named other than called
    generated: bytes = b""  # the module's generated files, left unparsed: their calls are not seen
    test_only: frozenset[str] = frozenset()  # packages only tests run (testonly.py): no evidence is taken there
    # what each function returns, as `_returned` finds it: asked for by every call of it (`_passed_through`),
    # and by the calls in its own returns where it recurses (`return unwrap(c, depth-1)`)
    _returned_by: dict[tuple[FunctionKey, int], list[Assigned]] = field(default_factory=dict)
    # the calls that run a function handed on as a value, listed in a slice of functions or stored in a struct
    # field (CallGraph.called_as_values), set once the call graph is built
    listed_calls: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]] = lambda _: []
    # whether code runs in the default deployment (not only under a setting that is off by default), set once
    # the evaluator is built: evidence is taken from such code where there is a choice
    runs_by_default: Callable[[GoFile, tree_sitter.Node], bool] = lambda _file, _node: True
    # the values the module stores in a field of a struct (the evaluator's, set once it is built): a cluster held
    # in a field (`opts.CPCluster`) is the one stored there
    stored: Callable[[TypeRef, str], list[tuple[GoFile, tree_sitter.Node]]] = lambda _owner, _name: []
    # the calls of a module function (CallGraph.callers), set once the call graph is built
    callers: Callable[[FunctionKey], list[tuple[GoFile, tree_sitter.Node]]] = lambda _: []
    # the CacheOptions literal of each client.New over a cache, by its span (Known.own_client): the fixes edit it
    own_client_options: dict[Span, tuple[GoFile, tree_sitter.Node]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.methods = MethodIndex(self.resolver)

    # -- references ----------------------------------------------------------------------------------
    def ref_of(self, file: GoFile, node: tree_sitter.Node | None, depth: int = 0) -> ClientRef:
        """What a client-valued expression refers to."""
        if node is None or depth > MAX_DEPTH:
            return Marker.UNKNOWN
        kind = node.type
        if kind == "nil":
            return Marker.NOT_CLIENT  # `return nil, err`: no client flows from here
        inner = parser.named(node) if kind in ("parenthesized_expression", "unary_expression") else None
        if inner:
            return self.ref_of(file, inner[-1], depth + 1)
        if kind in ("index_expression", "type_assertion_expression"):
            # `c.clients[0]`: an element of a list of clients; `mgr.GetClient().(client.Client)`: the same client
            return self.ref_of(file, node.child_by_field_name("operand"), depth + 1)
        if kind == "call_expression":
            return self._call_ref(file, node, depth)
        if kind == "identifier":
            return self._identifier_ref(file, node, depth)
        if kind == "selector_expression":
            return self._selector_ref(file, node, depth)
        if kind == "composite_literal":
            type_node = node.child_by_field_name("type")
            if type_node is not None and type_node.type in ("map_type", "slice_type"):
                # a container of clients: its first item; none flows from an empty one (filled later)
                items = map_values(node) if type_node.type == "map_type" else literal_items(node)
                return self.ref_of(file, items[0], depth + 1) if items else Marker.NOT_CLIENT
            return self._wrapper_ref(file, node, depth)
        return Marker.UNKNOWN

    def _wrapper_ref(self, file: GoFile, literal: tree_sitter.Node, depth: int) -> ClientRef:
        """`&defaultClient{Client: c}` returned as a client: the field its own reads go through
        (`&wrappedReader{client: c}`; cloud-credential-operator's `&delegatingClient{reader: mgr.GetAPIReader(),
        Client: mgr.GetClient()}`, whose Get and List override the embedded client's), or the client its
        embedded client field is given."""
        struct = resolve_type(literal.child_by_field_name("type"), file)
        if struct is None:
            return Marker.UNKNOWN
        base = self.resolver.declarations.unalias(struct.base)
        embedded = self._delegated_field(base) or self._carried_client(struct)
        if embedded is None and self._reads_no_client(base):
            return Marker.NOT_CLIENT
        if embedded is None or embedded.struct != base:
            return Marker.UNKNOWN  # held deeper than the literal's own fields: not followed
        given = dict(self.resolver.struct_elements(file, literal)).get(embedded.field)
        return self.ref_of(file, given, depth + 1) if given is not None else Marker.UNKNOWN

    def _delegated_field(self, struct: TypeRef) -> FieldRef | None:
        """The one client field a module struct's own Get and List read through (`func (w *wrappedReader)
        List(…) error { return w.client.List(…) }`, topolvm's reader wrapper); None where they read through
        none, several, or declare neither."""
        declarations = self.resolver.declarations
        fields = {info.name for info in declarations.structs.get(struct, ()) if self.is_client_like(info.type)}
        used: set[str] = set()
        for method in ("Get", "List"):
            info = declarations.functions.get(FunctionKey(struct.package, struct.name, method))
            receiver = receiver_name(info.node) if info is not None else None
            if info is None or receiver is None:
                continue
            for call in info.file.nodes_within("call_expression", info.node):
                called = call_parts(call)  # `w.client.List(…)`: the method, through a field of the receiver
                operand = called.operand if called is not None and called.name == method else None
                if operand is None or operand.type != "selector_expression":
                    continue
                holder = operand.child_by_field_name("operand")
                field_name = parser.text(operand.child_by_field_name("field"))
                if parser.text(holder) == parser.text(receiver) and field_name in fields:
                    used.add(field_name)
        return FieldRef(struct, used.pop()) if len(used) == 1 else None

    def _reads_no_client(self, struct: TypeRef) -> bool:
        """Whether a module struct's own Get and List read no client: it holds none, and what they call reads of is
        typed and none (goofy's simulated clusters, kept in memory: `c.cache.Get(group, key, obj)`)."""
        declarations = self.resolver.declarations
        fields = declarations.structs.get(struct)
        if fields is None or not declarations.declares_type(struct) or any(self.is_client_like(f.type) for f in fields):
            return False
        methods = [
            declarations.functions.get(FunctionKey(struct.package, struct.name, name)) for name in ("Get", "List")
        ]
        declared = [info for info in methods if info is not None]
        return bool(declared) and all(
            (operand := called.operand) is not None
            and (read := self.resolver.type_of(info.file, operand)) is not None
            and not self.is_client_like(read)
            for info in declared
            for call in info.file.nodes_within("call_expression", info.node)
            if (called := call_parts(call)) is not None and called.name in ("Get", "List")
        )

    def receiver_of(self, file: GoFile, operand: tree_sitter.Node) -> ClientRef:
        """The client behind `operand` in `operand.Get(…)`, following methods promoted from embedded clients."""
        resolver = self.resolver
        type_ref = resolver.type_of(file, operand)
        if type_ref is None or is_client_type(type_ref):
            return self.ref_of(file, operand)
        base = resolver.declarations.unalias(type_ref.base)
        if is_client_type(base):  # `type Client = client.Client` of the module's own
            return self.ref_of(file, operand)
        if base in resolver.declarations.interfaces:
            return self.ref_of(file, operand) if self.embeds_client(base) else Marker.NOT_CLIENT
        embedded = self._embedded_client(base, depth=0)
        if embedded is None:
            return Marker.NOT_CLIENT
        # The value itself, followed to the literal that builds it, tells whose client it holds; the embedded
        # field's values module-wide only where that flow ends unknown (built field by field, or elsewhere).
        value = self.ref_of(file, operand)
        if value is Marker.NOT_CLIENT and _built_by_a_literal(self.resolver, file, operand):
            # a local built from a literal whose client is none of controller-runtime's (config-policy-controller's
            # dry run hands its struct a fake client): no cache, whatever the module stores in the field elsewhere
            return Marker.NOT_CLIENT
        followed = self.resolve(value, near=file.path)
        if followed is None or followed.evidence is None:
            return embedded
        if followed.access is Access.CACHE and isinstance(value, FieldRef | ParamRef):
            # the field or parameter itself, resolved alike later: where each of its cache-backed values is written
            # off by default, so is the read (tofu-controller's runner server, given the manager's client only for
            # a local test run and a client.New one in its pod)
            return value
        return followed

    def _call_ref(self, file: GoFile, call: tree_sitter.Node, depth: int = 0) -> ClientRef:
        function = self._called(file, call)
        if function is None or function.type != "selector_expression":
            return self._function_call_ref(file, call, function, depth)
        name = parser.text(function.child_by_field_name("field"))
        if (got := self._got_ref(file, call, function, name)) is not None:
            return got
        text = " ".join(parser.text(call).split())
        if name == "GetAPIReader":
            return Known(Access.API_READER, Evidence(file.span(call), f"`{text}` reads from the API server"))
        operand = function.child_by_field_name("operand")
        package = file.imports.get(parser.text(operand)) if operand is not None else None
        if package == CR_CACHE and is_second_cache(file, call):
            # a cache of its own, read directly or handed to other packages: its own options judge it
            evidence = Evidence(file.span(call), f"`{text}` builds a cache of its own")
            return Known(Access.CACHE, evidence, second_cache_key(file, call))
        if is_fake_client(file, call, package, name):
            return Marker.NOT_CLIENT  # an in-memory client of tests: it starts no informer and reads no server
        if (
            package == CR_CLIENT and name in ("New", "NewWithWatch", "NewDelegatingClient")
        ) or self._calls_a_stored_constructor(file, call, function, name):
            return self._new_client_ref(file, call, name)
        if (uncached := self._other_modules_uncached(file, call, operand, package, name)) is not None:
            return uncached
        if (package == CR_CLIENT and name in _WRAPPERS) or (package == SAMBER_LO and name in _PANICKING_ON_ERROR):
            # the wrapped client reads as it did: `client.NewNamespacedClient(client.New(…), ns)` is uncached, and
            # so is `lo.Must(newClient(cfg))`, which panics on the error and gives the client
            return self.ref_of(file, parser.first_named(call.child_by_field_name("arguments")), depth + 1)
        if package == KUBERNETES and name.startswith("NewFor"):
            return Known(Access.CLIENTSET, Evidence(file.span(call), "a client-go clientset"))
        return self._returned_ref(file, call, depth=depth)

    def _got_ref(self, file: GoFile, call: tree_sitter.Node, function: tree_sitter.Node, name: str) -> ClientRef | None:
        """What a getter gives (`mgr.GetClient()`, `cluster.GetClient()`), or a read of a container the module
        keeps clients in."""
        if self.container_fields and name in _CONTAINER_READS and (held := self._container_read(file, function)):
            return held
        return self._getter_ref(file, call, function, name) if name in _GETTERS else None

    def _container_read(self, file: GoFile, function: tree_sitter.Node) -> FieldRef | None:
        """The field a read of a container the module stores clients in reads (`c.internal.Load(key)`), also
        through the item it gives (`c.internal.Get(key).Value()`, ttlcache's)."""
        operand = function.child_by_field_name("operand")
        if operand is None:
            return None
        found = self.resolver.selected_field(file, operand) if operand.type == "selector_expression" else None
        if found is not None and (found[0], found[1].name) in self.container_fields:
            return FieldRef(found[0], found[1].name)
        if parser.text(function.child_by_field_name("field")) in _ITEM_VALUES:
            held = self.ref_of(file, operand)
            return held if isinstance(held, FieldRef) and (held.struct, held.field) in self.container_fields else None
        return None

    def _other_modules_uncached(
        self, file: GoFile, call: tree_sitter.Node, operand: tree_sitter.Node | None, package: str | None, name: str
    ) -> Known | None:
        """A client another module builds without cache: by a known constructor (`remote.NewClusterClient`), or
        handed out by a known accessor of a value of its type (giantswarm's `k8sClient.CtrlClient()`)."""
        if (package, name) in _UNCACHED_CONSTRUCTORS:
            called = parser.text(call.child_by_field_name("function")) or name
            return Known(Access.DIRECT_CLIENT, Evidence(file.span(call), f"`{called}` builds a client without cache"))
        if operand is None or not any(accessor == name for _, accessor in _UNCACHED_ACCESSORS):
            return None
        owner = self.resolver.type_of(file, operand)
        if owner is None or (unversioned(owner.package), name) not in _UNCACHED_ACCESSORS:
            return None
        text = " ".join(parser.text(call).split())
        return Known(Access.DIRECT_CLIENT, Evidence(file.span(call), f"`{text}` is built without cache"))

    def _function_call_ref(
        self, file: GoFile, call: tree_sitter.Node, function: tree_sitter.Node | None, depth: int = 0
    ) -> ClientRef:
        """A call of a plain function: a module function's result, or none from `make(…)`."""
        if function is None or function.type != "identifier":
            return Marker.UNKNOWN
        if parser.text(function) == "make":
            return Marker.NOT_CLIENT  # `make(map[string]client.Client)`: an empty container, filled later
        return self._returned_ref(file, call, depth=depth)

    def _getter_ref(
        self, file: GoFile, call: tree_sitter.Node, function: tree_sitter.Node, name: str
    ) -> ClientRef | None:
        """A client a getter hands out: a manager's (`mgr.GetClient()`, `mgr.GetCache()`), or a workload
        cluster's that cluster-api's ClusterCache hands out (`cc.GetClient(ctx, cluster)`), which reads that
        cluster's cache, judged by the ClusterCache's options; None for a method of the module, no client for
        another module's test infrastructure's."""
        operand = function.child_by_field_name("operand")
        if operand is not None and self._holds_a_workload_cache(file, operand):
            if name == UNCACHED_GETTER:
                return Known(Access.DIRECT_CLIENT, Evidence(file.span(call), f"`{name}` reads the workload cluster"))
            text = " ".join(parser.text(call).split())
            evidence = Evidence(file.span(call), f"`{text}` reads a workload cluster's cache")
            return Known(Access.CACHE, evidence, WORKLOAD_CACHE) if name in CACHED_GETTERS else None
        if name in ("GetClient", *_CACHE_GETTERS) and not self._module_method(file, call):
            if operand is not None and self._of_test_infrastructure(file, operand):
                return Marker.NOT_CLIENT  # an in-memory API server's store: no informer, no server read
            known = self._manager_client_ref(file, call, function, name)
            typed = self.resolver.type_of(file, operand) if operand is not None else None
            interfaces = self.resolver.declarations.interfaces
            through = typed is not None and self.resolver.declarations.unalias(typed.base) in interfaces
            return dataclasses.replace(known, through_interface=True) if through else known
        return None

    def _of_test_infrastructure(self, file: GoFile, operand: tree_sitter.Node) -> bool:
        """Whether a getter's operand comes from another module's test infrastructure (cluster-api's in-memory
        runtime under `test/infrastructure/inmemory`, which metal3's fake API server serves from): a value of a
        type declared there, or a call into it, rooted at an import path with a `test`, `testing` or `fake`
        element that the module does not declare."""
        current = _chain_root(operand)
        if current is None:
            return False
        package = file.imports.get(parser.text(current)) if self.resolver.declaration(file, current) is None else None
        if package is None:
            owner = self.resolver.type_of(file, current)
            package = owner.package if owner is not None else None
        if package is None:
            return False
        return not self._declares(package) and bool(_TEST_INFRASTRUCTURE & set(package.split("/")))

    def _holds_a_workload_cache(self, file: GoFile, value: tree_sitter.Node) -> bool:
        """Whether a value is cluster-api's cache of workload clusters: so typed, or a local built by the
        function that builds one (`cc, err := clustercache.SetupWithManager(…)`)."""
        if is_workload_cache(self.resolver.type_of(file, value)):
            return True
        declaration = self.resolver.declaration(file, value) if value.type == "identifier" else None
        built = declaration.value_node if declaration is not None else None
        called = call_parts(built) if built is not None and built.type == "call_expression" else None
        return called is not None and builds_a_workload_cache(file.imports.get(called.operand_text), called.name)

    def _manager_client_ref(self, file: GoFile, call: tree_sitter.Node, function: tree_sitter.Node, name: str) -> Known:
        """`mgr.GetClient()`, or `mgr.GetCache()` and `mgr.GetFieldIndexer()` (the cache itself: tink's index on a
        `cluster.New` cluster), of a manager or cluster (a second cache's when `mgr` holds one)."""
        text = " ".join(parser.text(call).split())
        operand = function.child_by_field_name("operand")
        cache = self.cluster_of(file, operand) if operand is not None else ""
        if name in _CACHE_GETTERS:  # the cache itself: DisableFor, an option of the client, does not apply
            evidence = Evidence(file.span(call), f"`{text}` reads the cache itself")
            return Known(Access.CACHE, evidence, cache, is_cache_itself=True)
        evidence = Evidence(file.span(call), f"`{text}` reads through the cache")
        return Known(Access.CACHE, evidence, cache, cluster_client=bool(cache), manager_client=not cache)

    def manager_client(self, file: GoFile, manager: tree_sitter.Node) -> Known:
        """The client a library takes from a manager it is given (its `GetClient()`): the manager's cache."""
        cache = self.cluster_of(file, manager)
        evidence = Evidence(file.span(manager), f"`{parser.text(manager)}.GetClient()` reads through the cache")
        return Known(Access.CACHE, evidence, cache, cluster_client=bool(cache))

    def _called(self, file: GoFile, call: tree_sitter.Node) -> tree_sitter.Node | None:
        """The function a call invokes, as written; for a local holding a library function (`newClient :=
        client.New`, a seam tests replace), that function."""
        function = call.child_by_field_name("function")
        if function is None or function.type != "identifier":
            return function
        declaration = self.resolver.declaration(file, function)
        held = declaration.value_node if declaration is not None else None
        return held if held is not None and held.type == "selector_expression" else function

    def _calls_a_stored_constructor(
        self, file: GoFile, call: tree_sitter.Node, function: tree_sitter.Node, name: str
    ) -> bool:
        """Whether a call goes through a struct field the module stores only controller-runtime's client
        constructors in (`w.ClientFactory(cfg, opts)` of `ClientFactory: client.New`, a seam tests replace)."""
        operand = function.child_by_field_name("operand")
        if operand is None or (operand.type == "identifier" and file.imports.get(parser.text(operand))):
            return False
        return name in self._constructors_stored() and self.resolver.callee(file, call) is None

    def _holds_a_constructor(self, file: GoFile, value: tree_sitter.Node) -> bool:
        """Whether a value is a client constructor: `client.New` itself, or a parameter every deployed call of
        its function passes one for (`NewWithFactory(c, noCached, client.New)` storing `factory`)."""
        if _is_constructor(file, value):
            return True
        declaration = self.resolver.declaration(file, value) if value.type == "identifier" else None
        key = self.resolver.function_key(file, value) if declaration is not None else None
        if declaration is None or declaration.parameter_index < 0 or key is None:
            return False
        index = declaration.parameter_index
        # a test's fake factory says nothing of the binary
        deployed = [(caller_file, call) for caller_file, call in self.callers(key) if not caller_file.is_test]
        return bool(deployed) and all(
            index < len(arguments := parser.named(call.child_by_field_name("arguments") or call))
            and _is_constructor(caller_file, arguments[index])
            for caller_file, call in deployed
        )

    def _constructors_stored(self) -> frozenset[str]:
        """The names of the fields the module's code stores a client constructor (`client.New`) in, and nothing
        else, as far as the deployed files naming a constructor without calling it write them; found once."""
        if self._stored_constructors is None:
            stored: dict[str, list[bool]] = {}
            for file in self._declaring_files():
                if file.is_test or not _names_a_constructor(file):
                    continue
                for name, value in _field_writes(file):
                    stored.setdefault(name, []).append(self._holds_a_constructor(file, value))
            self._stored_constructors = frozenset(name for name, found in stored.items() if all(found))
        return self._stored_constructors

    def _implementation(self, file: GoFile, call: tree_sitter.Node) -> FunctionInfo | None:
        """The one method of the module a call through an interface may run (see MethodIndex): of those its
        dispatch finds, the one taking as many arguments as the call passes."""
        only = self.methods.through_interface(file, call)
        if only is not None:
            return only
        found = self._taking_its_arguments(file, call)
        return found[0] if len(found) == 1 else None

    def _implementations(self, file: GoFile, call: tree_sitter.Node) -> list[FunctionInfo]:
        """The methods of the module a call through one of its interfaces may run, where there are several taking
        as many arguments as the call passes (see `_implementation`); none otherwise."""
        if self.methods.through_interface(file, call) is not None:
            return []
        found = self._taking_its_arguments(file, call)
        return found if len(found) > 1 else []

    def _taking_its_arguments(self, file: GoFile, call: tree_sitter.Node) -> list[FunctionInfo]:
        """Of the methods a call through an interface may run (MethodIndex), those taking as many arguments as it
        passes."""
        arguments = call.child_by_field_name("arguments")
        count = len(parser.named(arguments)) if arguments is not None else 0
        return [info for info in self.methods.implementations(file, call) if len(info.parameters) == count]

    def _module_method(self, file: GoFile, call: tree_sitter.Node) -> bool:
        """Whether a call invokes a method the module declares (`args.GetClient()` building a client with
        client.New), also through an interface of the module with one implementation, where the call takes
        arguments a manager's does not (a pool of remote clusters' clients): its body tells what it returns, not
        its name."""
        info = self.resolver.callee(file, call)
        arguments = call.child_by_field_name("arguments")
        if info is None and arguments is not None and (parser.named(arguments) or self._returns_its_own(file, call)):
            # through an interface: a manager implements the module's `GetClient()` too (flyte hands its
            # manager on as a KubeClient), not one taking arguments (a pool's `GetClient(key)`) nor one declared
            # to return a type of the module (goofy's in-memory cloud: `GetClient() cclient.Client`)
            info = self._implementation(file, call)
        return info is not None and bool(info.results) and self.is_client_like(info.results[0])

    def _returns_its_own(self, file: GoFile, call: tree_sitter.Node) -> bool:
        """Whether a method called through an interface is declared to return a type the module declares."""
        results = self.resolver.interface_results(file, call)
        declarations = self.resolver.declarations
        first = results[0] if results else None
        return first is not None and declarations.declares_type(declarations.unalias(first.base))

    def _new_client_ref(self, file: GoFile, call: tree_sitter.Node, name: str) -> Known:
        """`client.New(cfg, opts)`: uncached, unless its options read through a cache (`Cache.Reader`); the older
        `client.NewDelegatingClient(client.NewDelegatingClientInput{CacheReader: c, …})` likewise."""
        arguments = call.child_by_field_name("arguments")
        found = cache_reader(arguments) if arguments is not None else None
        values = parser.named(arguments) if arguments is not None else []
        if found is None and len(values) > 1 and values[1].type == "identifier":
            # `opts := client.Options{Cache: &client.CacheOptions{Reader: mgr.GetCache()}}; client.New(cfg, opts)`
            declaration = self.resolver.declaration(file, values[1])
            held = declaration.value_node if declaration is not None else None
            found = cache_reader(held) if held is not None else None
            if found is None and declaration is not None:
                found = _cache_written_before(declaration.name, call)
        beside = self._new_client_cache(file, values[1]) if found is None and len(values) > 1 else None
        if beside is not None:
            # the manager (or cluster) calls its NewClient with options whose Cache.Reader is its own cache
            owner = "cluster" if beside else "manager"
            evidence = Evidence(file.span(call), f"`{name}` in the {owner}'s NewClient reads the {owner}'s cache")
            return Known(Access.CACHE, evidence, beside)
        if found is None:
            called = parser.text(call.child_by_field_name("function")) or name  # `client.New`, as written
            return Known(Access.DIRECT_CLIENT, Evidence(file.span(call), f"`{called}` builds a client without cache"))
        reader, options = found
        cache = self.cluster_of(file, reader)
        if not cache and reader.type == "call_expression":
            reader_operand = call_operand(reader)
            cache = self.cluster_of(file, reader_operand) if reader_operand is not None else ""
        if name == "NewDelegatingClient":  # controller-runtime before v0.15: its UncachedObjects are no DisableFor
            return Known(Access.CACHE, Evidence(file.span(call), "NewDelegatingClient reads its CacheReader"), cache)
        evidence = Evidence(file.span(call), "client.New with Cache.Reader reads the cache")
        own_client = file.span(options)
        self.own_client_options[own_client] = (file, options)
        return Known(Access.CACHE, evidence, cache, own_client=own_client)

    def _new_client_cache(self, file: GoFile, options: tree_sitter.Node) -> str | None:
        """Where client options are the parameter of a function literal given as NewClient, which controller-
        runtime calls with options whose Cache.Reader is the cache beside it: "" for a manager's, the key of a
        `cluster.New` cache for a cluster's option function; None otherwise, or where that is not told."""
        declaration = self.resolver.declaration(file, options) if options.type == "identifier" else None
        function = innermost_function(options) if declaration is not None and declaration.parameter_index >= 0 else None
        if function is None or function.type != "func_literal":
            return None
        given = option_holder(function, "NewClient")
        holder = (
            resolve_type(given.child_by_field_name("type"), file)
            if given is not None and given.type == "composite_literal"
            else self.resolver.type_of(file, given)
        )
        holder = self.resolver.declarations.unalias(holder) if holder is not None else None
        if holder is None or holder.name != "Options":
            return None
        if holder.package in MANAGER_PACKAGES:
            return ""
        built = (
            cluster_given_option(file, function.parent) if holder.package == CR_CLUSTER and function.parent else None
        )
        return second_cache_key(file, built) if built is not None else None

    def _returned_ref(self, file: GoFile, call: tree_sitter.Node, index: int = 0, depth: int = 0) -> ClientRef:
        """A same-module function that returns a client (`getK8sClient()`, `r.client()`), as its result at
        `index`."""
        info = self.resolver.callee(file, call) or self._implementation(file, call) or self._held_function(file, call)
        several = self._implementations(file, call) if info is None else []
        # through an interface several methods implement (a local client, a pool's): what each returns
        if several and all(index < len(each.results) and self.is_client_like(each.results[index]) for each in several):
            return ReturnRef(several[0].key, index, tuple(each.key for each in several[1:]))
        if info is None and index == 0 and self._foreign(file, call):
            return ForeignRef(file.span(call), " ".join(parser.text(call).split()))
        if info is None and index == 0 and (handed := self._client_given_to_a_hook(file, call)) is not None:
            return self.ref_of(file, handed, depth + 1)
        if info is None or index >= len(info.results) or not self.is_client_like(info.results[index]):
            return Marker.UNKNOWN
        passed = self._passed_through(file, call, info, index, depth)
        if passed is None:
            passed = self._built_without_reader(file, call, info, index)
        return passed if passed is not None else ReturnRef(info.key, index)

    def _held_function(self, file: GoFile, call: tree_sitter.Node) -> FunctionInfo | None:
        """The one module function a local function variable may hold where it is called: `factory :=
        r.WorkloadClientFactory; if factory == nil { factory = r.defaultWorkloadClient }` (kairos), where the
        field is set only by tests, holds the method. None where it may hold another value."""
        function = call.child_by_field_name("function")
        declaration = self.resolver.declaration(file, function) if function is not None else None
        if function is None or function.type != "identifier" or declaration is None or declaration.value_node is None:
            return None
        found: list[FunctionInfo] = []
        for value in (declaration.value_node, *self._reassigned(file, function, declaration)):
            info = self.resolver.function_named(file, value)
            if info is not None:
                found.append(info)
            elif not self._set_by_tests_only(file, value):
                return None
        return found[0] if len(found) == 1 else None

    def _set_by_tests_only(self, file: GoFile, value: tree_sitter.Node, depth: int = 0) -> bool:
        """Whether a value reads a struct field only tests write (a seam they fill with a fake): nil otherwise.
        A field the program writes only from another such field counts too (kueue's remote client copies the
        reconciler's `builderOverride`, which only tests set)."""
        operand = value.child_by_field_name("operand") if value.type == "selector_expression" else None
        owner = self.resolver.type_of(file, operand) if operand is not None else None
        if owner is None or parser.text(operand) in file.imports or depth > MAX_SEAM_COPIES:
            return False
        stored = self.stored(owner, parser.text(value.child_by_field_name("field")))
        return all(
            stored_file.is_test or self._set_by_tests_only(stored_file, stored_value, depth + 1)
            for stored_file, stored_value in stored
        )

    def _client_given_to_a_hook(self, file: GoFile, call: tree_sitter.Node) -> tree_sitter.Node | None:
        """The one client argument of a call of a function value, held by a field, parameter or local
        (component-operator-runtime's `r.options.NewClient(r.client)`, a hook "to modify or replace the default
        client" its users set): the client it returns is taken for the one it is given, wrapped, as what users
        give is not seen; None for calls of functions and methods."""
        function = call.child_by_field_name("function")
        if function is None or function.type not in ("identifier", "selector_expression"):
            return None
        if function.type == "identifier" and self.resolver.declaration(file, function) is None:
            return None  # a package function, not a value
        operand = function.child_by_field_name("operand") if function.type == "selector_expression" else None
        if operand is not None and operand.type == "identifier" and parser.text(operand) in file.imports:
            return None
        arguments = parser.named(call.child_by_field_name("arguments") or call)
        clients = [argument for argument in arguments if self.is_client_like(self.resolver.type_of(file, argument))]
        return clients[0] if len(clients) == 1 else None

    def _foreign(self, file: GoFile, call: tree_sitter.Node) -> bool:
        """Whether a call is of another module's function or of a method of its package variable
        (`singleton.KubeClient.Get()`): named from a package the module imports and does not declare."""
        function = call.child_by_field_name("function")
        current = _chain_root(function) if function is not None else None
        if current is None:
            return False
        package = file.imports.get(parser.text(current))
        if package is None or self.resolver.declaration(file, current) is not None:
            return False
        return not self._declares(package)

    def _declares(self, package: str) -> bool:
        """Whether the module declares a package (its files declaring functions say which)."""
        if self._module_packages is None:
            self._module_packages = frozenset(declaring.package_path for declaring in self._declaring_files())
        return package in self._module_packages

    def _built_without_reader(
        self, file: GoFile, call: tree_sitter.Node, info: FunctionInfo, index: int
    ) -> Known | None:
        """A constructor returning `client.New(cfg, client.Options{Cache: &client.CacheOptions{Reader: r}})` with
        `r` its parameter, called with `nil` there (gardener's `newClient(conf, nil)` beside `newClient(conf,
        cache)`): this call's client reads no cache."""
        returned = [value for value in returned_values(info.node, index) if value.type != "nil"]
        if not returned:
            return None
        arguments = parser.named(call.child_by_field_name("arguments") or call)
        positions = info.positions()
        for value in returned:
            found = self._reader_parameter(info.file, value)
            position = positions.get(found) if found is not None else None
            if position is None or position >= len(arguments) or arguments[position].type != "nil":
                return None
        text = " ".join(parser.text(call).split())
        return Known(Access.DIRECT_CLIENT, Evidence(file.span(call), f"`{text}` gives its client no cache to read"))

    def _reader_parameter(self, file: GoFile, value: tree_sitter.Node) -> str | None:
        """The name a `client.New(…)`'s `Cache.Reader` is set to, when it is an identifier."""
        operand = call_operand(value) if value.type == "call_expression" else None
        if operand is None or file.imports.get(parser.text(operand)) != CR_CLIENT:
            return None
        arguments = value.child_by_field_name("arguments")
        found = cache_reader(arguments) if arguments is not None else None
        return parser.text(found[0]) if found is not None and found[0].type == "identifier" else None

    def _passed_through(
        self, file: GoFile, call: tree_sitter.Node, info: FunctionInfo, index: int, depth: int = 0
    ) -> ClientRef | None:
        """What this call passes, for a function that returns (or wraps) one of its own parameters
        (`NewWrappedReader(mgr.GetAPIReader())`): that argument, not every value any caller passes; None for
        other functions, and for a call spreading a slice (`f(clients...)`), whose arguments do not line up."""
        refs = {value.ref for value in self._returned(info.key, index)}
        only = refs.pop() if len(refs) == 1 else None
        if not isinstance(only, ParamRef) or only.function != info.key:
            return None
        arguments = parser.named(call.child_by_field_name("arguments") or call)
        if only.index >= len(arguments) or any(argument.type == "variadic_argument" for argument in arguments):
            return None
        return self.ref_of(file, arguments[only.index], depth + 1)

    def cluster_of(self, file: GoFile, node: tree_sitter.Node, depth: int = 0) -> str:
        """The key of the second cache a local variable holds, built by `cluster.New`/`cache.New` here or by a
        module function returning one (`local, err := newLocalCluster(cfg)`), or a struct field the module
        stores one cluster in (`opts.CPCluster`)."""
        if node.type == "selector_expression" and depth <= _CLUSTER_HOPS:
            return self._cluster_stored(file, node, depth)
        if node.type != "identifier" or depth > _CLUSTER_HOPS:
            return ""
        declaration = self.resolver.declaration(file, node)
        if declaration is not None and declaration.parameter_index >= 0:
            return self._cluster_passed(file, node, declaration)
        value = declaration.value_node if declaration is not None else None
        if declaration is not None and (value is None or value.type in ("identifier", "selector_expression")):
            return self._cluster_copied(file, node, declaration, depth)
        if declaration is None or value is None or value.type != "call_expression":
            return ""
        return self._cluster_built(file, value, declaration.value_index, depth)

    def _cluster_built(self, file: GoFile, call: tree_sitter.Node, index: int, depth: int) -> str:
        """The second cache a call builds, or a module function it calls returns (at result `index`)."""
        if is_second_cache(file, call):
            return second_cache_key(file, call)
        info = self.resolver.callee(file, call)
        if info is None:
            return ""
        for returned in returned_values(info.node, index):
            if returned.type == "call_expression" and is_second_cache(info.file, returned):
                return second_cache_key(info.file, returned)
            if returned.type == "identifier" and (key := self.cluster_of(info.file, returned, depth + 1)):
                return key  # `c, err := cluster.New(…); …; return c, nil`
        return ""

    def _cluster_copied(self, file: GoFile, node: tree_sitter.Node, declaration: Declaration, depth: int) -> str:
        """The second cache a local copies (`informers := c`, `newInformers = ctrl.informers`), or where it is
        declared without a value (`var informers cache.Informers`), the one every assignment gives it: a call's
        result too (`topologyCache, err = newTopologyCache(cfg)`), but `nil`, which holds no cache (soperator's
        exporter drops its topology cache so on error)."""
        if declaration.value_node is not None:
            return self.cluster_of(file, declaration.value_node, depth + 1)
        scope = self.resolver.scope(file, node) if declaration.ranged_node is None else None
        assigned = scope.assignments.get(declaration.name, []) if scope is not None else []
        results = scope.results.get(declaration.name, []) if scope is not None else []
        keys = {self.cluster_of(file, item, depth + 1) for item in assigned if item.type != "nil"}
        keys |= {self._cluster_built(file, call, index, depth + 1) for call, index in results}
        return keys.pop() if len(keys) == 1 else ""

    def _cluster_stored(self, file: GoFile, node: tree_sitter.Node, depth: int) -> str:
        """The second cache every write of a struct field stores (hypershift's `Config{CPCluster: cp}`); "" where
        the writes store different ones, a manager, or none is seen."""
        operand, field_name = node.child_by_field_name("operand"), node.child_by_field_name("field")
        if operand is None or field_name is None or parser.text(operand) in file.imports:
            return ""
        owner = self.resolver.type_of(file, operand)
        stored = self.stored(owner, parser.text(field_name)) if owner is not None else []
        keys = {self.cluster_of(value_file, value, depth + 1) for value_file, value in stored if not value_file.is_test}
        return keys.pop() if len(keys) == 1 else ""

    def _cluster_passed(self, file: GoFile, node: tree_sitter.Node, declaration: Declaration) -> str:
        """The second cache a parameter holds: the one every production call passes (`AddToManager(ctx, mgr,
        garden)` with `garden, err := cluster.New(…)`), "" where the callers pass different ones or a manager."""
        parameter = self.resolver.parameter_of(file, node, declaration)
        if parameter is None:
            return ""  # a function literal's parameter: who calls it is not followed
        info, index = parameter
        memo = (info.key, index)
        found = self._clusters_passed.get(memo)
        if found is not None:
            return found
        self._clusters_passed[memo] = ""  # a call of itself hands on what it was given
        keys = set()
        for caller_file, call in self.callers(info.key):
            if caller_file.is_test and not info.file.is_test:
                continue
            arguments = parser.named(call.child_by_field_name("arguments") or call)
            if index >= len(arguments) or any(argument.type == "variadic_argument" for argument in arguments):
                keys.add("")
                continue
            keys.add(self.cluster_of(caller_file, arguments[index]))
        found = self._clusters_passed[memo] = keys.pop() if len(keys) == 1 else ""
        return found

    def _identifier_ref(self, file: GoFile, node: tree_sitter.Node, depth: int) -> ClientRef:
        resolver = self.resolver
        declaration = resolver.declaration(file, node)
        if declaration is None:
            return self._package_variable_ref(file.package_path, parser.text(node), depth)
        if declaration.parameter_index >= 0:
            parameter = resolver.parameter_of(file, node, declaration)
            if parameter is not None:
                return ParamRef(parameter[0].key, parameter[1], declaration.name)
            return self._literal_parameter_ref(file, node, declaration)
        if declaration.is_receiver:  # `res.Delete(r, ctx)` handing the reconciler itself on as its client
            receiver = resolver.type_of(file, node)
            embedded = self._embedded_client(resolver.declarations.unalias(receiver.base), 0) if receiver else None
            return embedded if embedded is not None else Marker.UNKNOWN
        if declaration.ranged_node is not None:  # `for name, c := range caches`: an element of the collection
            return self.ref_of(file, declaration.ranged_node, depth + 1)
        value = declaration.value_node
        if value is not None and (reassigned := self._reassigned(file, node, declaration)):
            replacing = tuple(
                index
                for index, later in enumerate(reassigned, 1)
                if _replaces_the_first(later, value) and _replaced_at(later, node)
            )
            local = LocalRef(file.path, value.start_byte, declaration.name, replacing)
            self._locals[local] = (file, [value, *reassigned])
            return local
        if value is not None:
            return self._value_ref(file, node, declaration.name, value, declaration.value_index, depth)
        scope = resolver.scope(file, node)
        # `c = nil` holds no client: the other writes say which (a cache dropped on error)
        # `c = NewDryRunClient(c)` wraps what `c` already holds: the other writes say which
        assigned = [
            item
            for item in (scope.assignments.get(declaration.name, []) if scope else [])
            if item.type != "nil" and not _wraps(item, declaration.name)
        ]
        if assigned:
            return self.ref_of(file, assigned[0], depth + 1)
        results = scope.results.get(declaration.name, []) if scope else []
        if results:  # `var c client.Client` set by `c, err = newClient(…)`
            call, index = results[0]
            return self.ref_of(file, call, depth + 1) if index == 0 else self._returned_ref(file, call, index)
        return Marker.UNKNOWN

    def _reassigned(self, file: GoFile, node: tree_sitter.Node, declaration: Declaration) -> list[tree_sitter.Node]:
        """The values a local declared with a single value (`reader := pm.apiReader`) is assigned later in its
        function (`reader = pm.client`), where the name is that local."""
        value = declaration.value_node
        if value is None or declaration.value_index != 0 or is_slice_literal(value) or is_map(value):
            return []
        assigned = self.resolver.reassigned(file, node, declaration)
        return [item for item in assigned if not _wraps(item, declaration.name)]

    def _value_ref(
        self, file: GoFile, node: tree_sitter.Node, name: str, value: tree_sitter.Node, index: int, depth: int
    ) -> ClientRef:
        """What a local declared with a value refers to: the value, a result of a call, an item of a list or a
        map (literal, or filled after: `clients = append(clients, c)`, `readers[name] = c`)."""
        if value.type == "call_expression" and index > 0:
            return self._returned_ref(file, value, index)  # `_, cl, cfg := setupEnv(…)`
        scope = self.resolver.scope(file, node)
        if is_map(value):  # `readers := make(map[string]client.Reader)`
            held = (scope.element_writes.get(name, []) if scope else []) or map_values(value)
            return self.ref_of(file, held[0], depth + 1) if held else Marker.UNKNOWN
        if not is_slice_literal(value):
            return self.ref_of(file, value, depth + 1)
        if (first := parser.first_named(value.child_by_field_name("body"))) is not None:
            return self.ref_of(file, parser.first_named(first) or first, depth + 1)  # `[]client.Client{c}`
        assigned = scope.assignments.get(name, []) if scope else []
        appended = [item for item in map(appended_item, assigned) if item is not None]
        return self.ref_of(file, appended[0], depth + 1) if appended else Marker.UNKNOWN

    def _selector_ref(self, file: GoFile, node: tree_sitter.Node, depth: int) -> ClientRef:
        resolver = self.resolver
        operand = node.child_by_field_name("operand")
        name = parser.text(node.child_by_field_name("field"))
        if operand is None:
            return Marker.UNKNOWN
        is_package = parser.text(operand) in file.imports and resolver.declaration(file, operand) is None
        if operand.type == "identifier" and is_package:
            return self._package_variable_ref(file.imports[parser.text(operand)], name, depth)
        owner = resolver.type_of(file, operand)
        if owner is None:
            return Marker.UNKNOWN
        found = resolver.declarations.field(owner, name)
        if found is None:
            return Marker.UNKNOWN
        struct, info = found
        if not is_client_type(info.type) and not self.embeds_client(info.type):
            return Marker.NOT_CLIENT
        if (given := self._constructed_with(file, operand, name)) is not None:
            return self.ref_of(file, given, depth + 1)
        built = self._literal_field(file, operand, name)
        if built is not None and self.resolve(self.ref_of(*built, depth + 1)) is None:
            # the literal the local holds gives the field no controller-runtime client (a dry run's fake): none
            # flows from here, whatever the module stores in the field elsewhere (config-policy-controller)
            return Marker.NOT_CLIENT
        outer = resolver.declarations.unalias(owner.base)
        within = outer if outer != struct else None
        return FieldRef(struct, name, self._filled_by_callers(file, operand, name), within)

    def _literal_field(
        self, file: GoFile, operand: tree_sitter.Node, name: str
    ) -> tuple[GoFile, tree_sitter.Node] | None:
        """The value a field has in the struct literal a local is declared with (`rec := R{Client: c}`), or the
        one literal the module function it is declared from returns (`rec, err := setup()`); None where the
        function writes the field after, or it is declared otherwise."""
        declaration = self.resolver.declaration(file, operand) if operand.type == "identifier" else None
        value = declaration.value_node if declaration is not None else None
        function = innermost_function(operand)
        if value is None or function is None or f"{parser.text(operand)}.{name} =" in parser.text(function):
            return None
        held_in = file
        if value.type == "call_expression" and declaration is not None and declaration.value_index == 0:
            info = self.resolver.callee(file, value)
            returned = [item for item in returned_values(info.node) if item.type != "nil"] if info else []
            if info is None or not returned or len({parser.text(item) for item in returned}) != 1:
                return None  # a constructor returning one literal, from any of its returns (`return &rec, nil`)
            held_in, value = info.file, self._held_literal(info.file, returned[0])
        literal = struct_literal_of(value)
        given = next((item for key, item in keyed_elements(literal) if key == name), None) if literal else None
        return (held_in, given) if given is not None else None

    def _held_literal(self, file: GoFile, value: tree_sitter.Node) -> tree_sitter.Node | None:
        """A returned value, or the literal the local it names is declared with (`return &rec, nil`)."""
        if value.type == "unary_expression":
            value = value.child_by_field_name("operand") or value
        if value.type != "identifier":
            return value
        declaration = self.resolver.declaration(file, value)
        return declaration.value_node if declaration is not None else None

    def _constructed_with(self, file: GoFile, operand: tree_sitter.Node, name: str) -> tree_sitter.Node | None:
        """For `cfg.Client` on a local a module constructor returned (`cfg := job.NewConfig(r.Kube)`, with
        NewConfig returning `Config{Client: c}` of its parameter c): the argument that call passes, what the
        field holds here whichever client other calls pass; None where the function writes the field after."""
        declaration = self.resolver.declaration(file, operand) if operand.type == "identifier" else None
        built = declaration.value_node if declaration is not None and declaration.value_index == 0 else None
        function = innermost_function(operand)
        if built is None or built.type != "call_expression" or function is None:
            return None
        if f"{parser.text(operand)}.{name} =" in parser.text(function):
            return None
        info = self.resolver.callee(file, built)
        returned = [value for value in returned_values(info.node) if value.type != "nil"] if info else []
        literal = struct_literal_of(returned[0]) if len(returned) == 1 else None  # `Config{…}`, `&Config{…}`
        if info is None or literal is None:
            return None
        value = next((value for key, value in keyed_elements(literal) if key == name), None)
        return self._argument_for(info, value, built) if value is not None else None

    def _argument_for(
        self, info: FunctionInfo, value: tree_sitter.Node, call: tree_sitter.Node
    ) -> tree_sitter.Node | None:
        """What a call of a function passes for the parameter a value in its body names; None where the value
        names none."""
        parameter = self.resolver.declaration(info.file, value) if value.type == "identifier" else None
        if parameter is None or parameter.parameter_index < 0 or parameter.scope_start != info.node.start_byte:
            return None
        arguments = parser.named(call.child_by_field_name("arguments") or call)
        return arguments[parameter.parameter_index] if parameter.parameter_index < len(arguments) else None

    def _filled_by_callers(self, file: GoFile, operand: tree_sitter.Node, name: str) -> tuple[FunctionKey, int] | None:
        """For `c.Client` read on a parameter `c` of a module function that every production call hands a literal
        setting that field (hypershift's components given `ControlPlaneContext{Client: …}` by one binary each):
        the function and the parameter's position; None otherwise, the field then holding what the module stores
        in it anywhere."""
        declaration = self.resolver.declaration(file, operand) if operand.type == "identifier" else None
        key = self.resolver.function_key(file, operand) if declaration is not None else None
        info = self.resolver.declarations.functions.get(key) if key is not None else None
        if declaration is None or info is None or declaration.parameter_index < 0:
            return None
        if info.node.start_byte != declaration.scope_start or f"{declaration.name}.{name} =" in parser.text(info.node):
            return None
        calls = [(f, call) for f, call in self.callers(info.key) if info.file.is_test or not f.is_test]
        index = declaration.parameter_index
        if not calls or any(_literal_field(f, call, index, name, self.resolver) is None for f, call in calls):
            return None
        return info.key, index

    def _field_values_of(self, ref: FieldRef) -> list[Assigned]:
        """The values a field may hold: those the literals the calls pass set, for a field read on such a
        parameter; those the literals of the embedding struct give it, for a field read through one; else every
        value the module stores in it."""
        if ref.passed is None and ref.within is not None and (within := self._values_within(ref)) is not None:
            return within
        if ref.passed is None:
            stored = self.field_values.get((ref.struct, ref.field), [])
            provided = self.resolver.declarations.provided_for(ref.struct, ref.field) if not stored else []
            return stored or [value for key in provided for value in self.field_values.get(key, [])]
        found = []
        for file, call in self.callers(ref.passed[0]):
            value = _literal_field(file, call, ref.passed[1], ref.field, self.resolver)
            if value is not None:
                found.append(self._assigned(file, value))
        return found

    def _values_within(self, ref: FieldRef) -> list[Assigned] | None:
        """What a promoted field holds when read through the struct embedding its own (mellanox's `stateOFED`
        and `statePlugins`, each embedding `stateSkel` and built with its own client), also through structs
        embedded in turn (CDI's `PvcCloneReconciler` embedding `CloneReconcilerBase` embedding
        `ReconcilerBase`): what each literal of the outer struct gives the embedded struct's field, directly
        (`stateOFED{stateSkel: stateSkel{client: c}}`) or through a constructor returning one literal
        (`{NewSharedMetadata(c)}`, given its argument). None where that cannot be told: no literal of the outer
        struct, one whose embedded value is built otherwise, or a field the module also assigns (`s.client =
        c`)."""
        assert ref.within is not None
        chain = self._embedding(ref.within, ref.struct, ref.field)
        literals = self._struct_literals().get(ref.within, [])
        if chain is None or not literals or any(self._assigned_anywhere(name) for name in (*chain, ref.field)):
            return None
        if ref.within in self._built_in_slice_items():
            return None  # items of a slice literal written without their type are not among the literals
        found: list[Assigned] = []
        for file, literal in literals:
            given: tuple[GoFile, tree_sitter.Node | None] | None = (
                file,
                dict(self.resolver.struct_elements(file, literal)).get(chain[0]),
            )
            for name in (*chain[1:], ref.field):
                if given is None or given[1] is None:
                    break
                if given[1].type == "call_expression" and name != ref.field:
                    return None  # a constructor of an embedded struct: its parameters are not followed further
                given = self._embedded_field(given[0], given[1], name)
            if given is None:
                return None
            if given[1] is not None:  # else left zero: its client is nil
                found.append(self._assigned(given[0], given[1]))
        return found

    def _embedding(self, outer: TypeRef, inner: TypeRef, field_name: str) -> tuple[str, ...] | None:
        """The embedded fields leading from a struct to the one it embeds that declares `field_name`, directly or
        through structs embedded in turn (three deep at most), where Go promotes that struct's field: no struct
        as shallow or shallower declares a field of that name. None otherwise."""
        declarations = self.resolver.declarations
        paths: list[tuple[TypeRef, tuple[str, ...]]] = [(outer, ())]
        for _ in range(_EMBEDDING_DEPTH):
            deeper = []
            for struct, path in paths:
                for info in declarations.structs.get(struct, ()):
                    if info.is_embedded and info.type is not None:
                        deeper.append((declarations.unalias(info.type.base), (*path, info.name)))
            declaring = [
                (struct, path)
                for struct, path in deeper
                if any(info.name == field_name for info in declarations.structs.get(struct, ()))
            ]
            if declaring:
                return declaring[0][1] if len(declaring) == 1 and declaring[0][0] == inner else None
            paths = deeper
        return None

    def _built_in_slice_items(self) -> frozenset[TypeRef]:
        """The module structs some slice literal holds items of written without their type (`[]*w{{c: x}}`)."""
        if self._slice_item_structs is None:
            found: set[TypeRef] = set()
            for file in self._declaring_files():
                for literal in file.nodes("composite_literal"):
                    element = _slice_element(literal.child_by_field_name("type"))
                    struct = resolve_type(element, file) if element is not None else None
                    if struct is not None and any(item.type == "literal_value" for item in literal_items(literal)):
                        found.add(self.resolver.declarations.unalias(struct.base))
            self._slice_item_structs = frozenset(found)
        return self._slice_item_structs

    def _embedded_field(
        self, file: GoFile, value: tree_sitter.Node, name: str
    ) -> tuple[GoFile, tree_sitter.Node | None] | None:
        """The value a struct value gives field `name`: a literal's element (None where it leaves it zero), or
        that of the one literal a module constructor returns, a parameter there being the call's argument;
        None where it cannot be told."""
        literal = struct_literal_of(value)
        if literal is not None:
            return file, dict(self.resolver.struct_elements(file, literal)).get(name)
        if value.type != "call_expression":
            return None
        info = self.resolver.callee(file, value)
        returned = [item for item in returned_values(info.node) if item.type != "nil"] if info else []
        if info is None or len({parser.text(item) for item in returned}) != 1:
            return None
        literal = struct_literal_of(self._held_literal(info.file, returned[0]))
        given = dict(self.resolver.struct_elements(info.file, literal)).get(name) if literal is not None else None
        if literal is None or given is None:
            return None if literal is None else (info.file, None)
        argument = self._argument_for(info, given, value)
        return (file, argument) if argument is not None else (info.file, given)

    def _assigned_anywhere(self, name: str) -> bool:
        """Whether the module's code assigns a field of this name (`s.client = c`), on any struct."""
        found = self._fields_assigned.get(name)
        if found is None:
            assignment = f".{name} =".encode()
            found = self._fields_assigned[name] = any(assignment in f.source.data for f in self._declaring_files())
        return found

    def _literal_parameter_ref(self, file: GoFile, node: tree_sitter.Node, declaration: Declaration) -> ClientRef:
        """A parameter of a function literal: what the calls of the struct field it is stored in pass (ECK's
        `defaultForwarderFactory`, a package variable holding the literal, stored as a dialer's `forwarderFactory`
        and called `d.forwarderFactory(ctx, d.client, …)` with a client.New client). Unknown where a call of it
        is not told."""
        literal = function_starting_at(node, declaration.scope_start)
        calls = self._literal_calls(file, literal) if literal is not None and literal.type == "func_literal" else []
        if not calls:
            return Marker.UNKNOWN
        arguments = []
        for call_file, call in calls:
            given = parser.named(call.child_by_field_name("arguments") or call)
            if (
                declaration.parameter_index >= len(given)
                or given[declaration.parameter_index].type == "variadic_argument"
            ):
                return Marker.UNKNOWN
            arguments.append((call_file, given[declaration.parameter_index]))
        assert literal is not None
        local = LocalRef(file.path, literal.start_byte, declaration.name)
        held = _package_variable_named(self._converted(file, literal))
        self._literal_arguments[local] = arguments, held or "the function literal"
        return local

    def _literal_calls(self, file: GoFile, literal: tree_sitter.Node) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The calls of a function literal through the struct fields it is stored in: directly (`F: func(…)
        {…}`, `x.F = func(…) {…}`) or through the package variable holding it (converted to a function type or
        not); empty where it is also handed on otherwise, or called by the variable's name."""
        value = self._converted(file, literal)
        stored = self._stored_as(file, value)
        if stored is None:
            variable = _package_variable_named(value)
            if variable is None:
                return []
            fields = self._variable_stored_as(file, variable)
            if fields is None:
                return []
            stored = fields
        names = {name for _, name in stored}
        return [
            (each, call.node)
            for each in self._declaring_files()
            for call in each.calls()
            if call.method is not None
            and call.name in names
            and (function := call.node.child_by_field_name("function")) is not None
            and (found := self.resolver.selected_field(each, function)) is not None
            and (found[0], call.name) in stored
        ]

    def _converted(self, file: GoFile, literal: tree_sitter.Node) -> tree_sitter.Node:
        """A function literal, or the conversion to a function type of the module it is the argument of
        (`factory(func(…) {…})`); not another call given it, whose result may be any function."""
        holder = literal.parent
        if holder is None or holder.type != "argument_list" or len(parser.named(holder)) != 1:
            return literal
        call = holder.parent
        function = call.child_by_field_name("function") if call is not None else None
        if call is None or function is None:
            return literal
        if function.type == "identifier":
            named = TypeRef(file.package_path, parser.text(function))
        elif function.type == "selector_expression" and (operand := function.child_by_field_name("operand")):
            named = TypeRef(
                file.imports.get(parser.text(operand), ""), parser.text(function.child_by_field_name("field"))
            )
        else:
            return literal
        return call if named in self.resolver.declarations.function_types else literal

    def _stored_as(self, file: GoFile, value: tree_sitter.Node) -> set[tuple[TypeRef, str]] | None:
        """The struct field a value is written to in a literal or an assignment (struct, field); None where it
        is not one."""
        if (key := key_of(value)) is not None:
            literal = holding_literal(value)
            struct = self.resolver.type_of(file, literal) if literal is not None else None
            return {(self.resolver.declarations.unalias(struct.base), key)} if struct is not None else None
        target = assigned_to(value)
        if target is None or target.type != "selector_expression":
            return None
        found = self.resolver.selected_field(file, target)
        return {(found[0], found[1].name)} if found is not None else None

    def _variable_stored_as(self, file: GoFile, name: str) -> set[tuple[TypeRef, str]] | None:
        """The struct fields a package variable's value is written to; None where a use of it is anything else
        (a call by its name, an argument, a copy)."""
        stored: set[tuple[TypeRef, str]] = set()
        for each in self._declaring_files():
            if each.package_path != file.package_path or name.encode() not in each.source.data:
                continue
            for use in parser.identifiers_named(each.tree.root_node, name):
                if _declares(use):
                    continue
                fields = self._stored_as(each, use)
                if fields is None:
                    return None
                stored |= fields
        return stored or None

    def _struct_literals(self) -> dict[TypeRef, list[tuple[GoFile, tree_sitter.Node]]]:
        """The literals of each module struct, by the struct; found once."""
        if self._literals_by_struct is None:
            self._literals_by_struct = {}
            for file in self._declaring_files():
                for literal in file.nodes("composite_literal"):
                    type_node = literal.child_by_field_name("type")
                    struct = resolve_type(type_node, file) if type_node is not None else None
                    if struct is not None and struct.base in self.resolver.declarations.structs:
                        self._literals_by_struct.setdefault(struct.base, []).append((file, literal))
        return self._literals_by_struct

    def _package_variable_ref(self, package: str, name: str, depth: int) -> ClientRef:
        """A package-level client: its initializer, or what statements assign to it (a pseudo-field)."""
        variable = self.resolver.declarations.variables.get((package, name))
        if variable is None:
            return Marker.UNKNOWN
        if variable.value_node is not None:
            return self.ref_of(variable.file, variable.value_node, depth + 1)
        return FieldRef(TypeRef(package, PACKAGE_SCOPE), name)

    def _carried_client(self, type_ref: TypeRef | None) -> FieldRef | None:
        """The client field a module struct a type names carries (embedded, at any depth), if any."""
        return self._embedded_client(self.resolver.declarations.unalias(type_ref.base), 0) if type_ref else None

    def _embedded_client(self, struct: TypeRef, depth: int) -> FieldRef | None:
        declarations = self.resolver.declarations
        for info in declarations.structs.get(struct, ()):
            if not info.is_embedded or info.type is None:
                continue
            # ECK's `k8s.Client`, a module alias of client.Client, embedded
            if is_client_type(declarations.unalias(info.type.base)) or self._is_client_interface(info.type):
                return FieldRef(struct, info.name)
        for info in declarations.structs.get(struct, ()):
            if info.is_embedded and info.type is not None and depth < 4:
                inner = self._embedded_client(declarations.unalias(info.type.base), depth + 1)
                if inner is not None:
                    return inner
        return None

    def _is_client_interface(self, ref: TypeRef) -> bool:
        base = self.resolver.declarations.unalias(ref.base)
        return base in self.resolver.declarations.interfaces and self.embeds_client(base)

    def embeds_client(self, ref: TypeRef | None, depth: int = 0) -> bool:
        """A module struct or interface that carries a controller-runtime client (embedded, at any depth), or
        an interface declaring its reads."""
        if ref is None or depth > 4:
            return False
        declarations = self.resolver.declarations
        base = declarations.unalias(ref.base)
        if is_client_type(base) or base in declarations.reader_interfaces:
            return True
        for embedded in declarations.interfaces.get(base, ()):
            if self.embeds_client(embedded, depth + 1):
                return True
        for info in declarations.structs.get(base, ()):
            if info.is_embedded and self.embeds_client(info.type, depth + 1):
                return True
        return False

    def is_client_like(self, ref: TypeRef | None) -> bool:
        if ref is None:
            return False
        cached = self._client_like.get(ref)
        if cached is None:
            cached = self._client_like[ref] = is_client_type(ref) or self.embeds_client(ref)
        return cached

    # -- what collection asks ------------------------------------------------------------------------
    def functions_with_client_parameters(self) -> frozenset[str]:
        """Names of the module's functions with a client-typed parameter: only their calls are recorded."""
        if self._client_functions is None:
            self._client_functions = self._compute_client_functions()
        return self._client_functions

    def client_field_names(self) -> frozenset[str]:
        """Names of client-typed struct fields: only literals and assignments setting one are typed."""
        if self._client_fields is None:
            structs = self.resolver.declarations.structs.values()
            names = {info.name for fields in structs for info in fields if self.is_client_like(info.type)}
            self._client_fields = frozenset(names)
        return self._client_fields

    def _compute_client_functions(self) -> frozenset[str]:
        names = set()
        for key, info in self.resolver.declarations.functions.items():
            if any(self.is_client_like(parameter.type) for parameter in info.parameters):
                names.add(key.name)
        # package variables holding one of them (`var NewExecer = newExecerImpl`): calls of the variable
        for key, aliases in self.resolver.function_aliases().items():
            if key.name in names:
                names.update(alias.name for alias in aliases)
        return frozenset(names)

    def _returned(self, key: FunctionKey, index: int) -> list[Assigned]:
        found = self._returned_by.get((key, index))
        if found is None:
            self._returned_by[key, index] = []  # asked again while computed (it recurses): nothing passed through
            found = self._returned_by[key, index] = self._compute_returned(key, index)
        return found

    def _compute_returned(self, key: FunctionKey, index: int) -> list[Assigned]:
        info = self.resolver.declarations.functions.get(key)
        if info is None:
            return []
        values = returned_values(info.node, index)
        names = named_results(info.node)
        if index < len(names) and any(not return_items(statement) for statement in return_statements(info.node)):
            # a bare `return` gives the named result as last assigned (`client, err = cluster.GetClient(r)`)
            values.append(names[index])
        # `if r.reader != nil { return r.reader }; return r.client`: the last return is a default for when the
        # first value is nil, and gives way to it as a field's nil default does
        preferred = {
            parser.text(value)
            for value in values
            if in_nil_test(value, parser.text(value), is_nil=False) and not self._may_be_left_nil(info.file, value)
        }
        result = info.results[index] if index < len(info.results) else None
        return [
            Assigned(
                self._returned_value_ref(info.file, value, result),
                info.file.span(value),
                parser.text(value),
                fallback=bool(preferred) and parser.text(value) not in preferred,
                in_test=info.file.is_test,
                place=(info.file, value),
            )
            for value in values
        ]

    def _may_be_left_nil(self, file: GoFile, value: tree_sitter.Node) -> bool:
        """Whether a field a function prefers when it is set (`if c.Reader != nil { return c.Reader }`) is left
        out of a keyed literal of its struct in deployed code (oci-service-operator's manager binaries build
        `&KubeSecretClient{Client: mgr.GetClient()}`): the default after it is then what those objects return."""
        operand = value.child_by_field_name("operand") if value.type == "selector_expression" else None
        owner = self.resolver.type_of(file, operand) if operand is not None else None
        if owner is None:
            return False
        name = parser.text(value.child_by_field_name("field"))
        return any(name not in keys for keys in self._literal_keys().get(owner.base, ()))

    def _literal_keys(self) -> dict[TypeRef, list[frozenset[str]]]:
        """The keys each keyed literal of a module struct in deployed code sets, by the struct; found once."""
        if self._keys_by_struct is None:
            self._keys_by_struct = {}
            for struct, literals in self._struct_literals().items():
                for file, literal in literals:
                    keys = frozenset(key for key, _ in keyed_elements(literal))
                    if keys and not file.is_test:
                        self._keys_by_struct.setdefault(struct, []).append(keys)
        return self._keys_by_struct

    def _returned_value_ref(self, file: GoFile, value: tree_sitter.Node, result: TypeRef | None) -> ClientRef:
        """What a returned value refers to; where it cannot be followed (a TTL cache's `item.Value()`) and the
        function returns a module struct carrying a client, the client the module stores in that struct."""
        ref = self.ref_of(file, value)
        embedded = self._carried_client(result) if ref is Marker.UNKNOWN else None
        return embedded if embedded is not None else ref

    def record(self, table: dict, key: tuple, file: GoFile, value: tree_sitter.Node, fallback: bool = False) -> None:  # type: ignore[type-arg]
        """Add what a field, variable or parameter receives to one of the tables."""
        table.setdefault(key, []).append(self._assigned(file, value, fallback))

    def record_target(
        self,
        table: dict,  # type: ignore[type-arg]
        key: tuple,  # type: ignore[type-arg]
        file: GoFile,
        values: list[tree_sitter.Node],
        targets: int,
        position: int,
        fallback: bool = False,
    ) -> None:
        """Add what the target at `position` of an assignment to `targets` names receives: its own value, or the
        call's result at its place (`app.cache, app.client = app.initClients()`)."""
        if len(values) == 1 and position:
            call = values[0]
            ref = self._returned_ref(file, call, position) if call.type == "call_expression" else Marker.UNKNOWN
            table.setdefault(key, []).append(self._assigned(file, call, ref=ref))
            return
        self.record(table, key, file, values[position] if len(values) == targets else values[0], fallback)

    def _assigned(
        self, file: GoFile, value: tree_sitter.Node, fallback: bool = False, ref: ClientRef | None = None
    ) -> Assigned:
        """What a field, variable or parameter receives, where it is written (`ref`: what it refers to, where
        that is not the value's own reference)."""
        text = " ".join(parser.text(value).split())
        held = ref if ref is not None else self.ref_of(file, value)
        return Assigned(held, file.span(value), text, fallback, file.is_test, (file, value))

    # -- resolution ----------------------------------------------------------------------------------
    def cached_value_places(self, ref: ParamRef | FieldRef) -> list[tuple[GoFile, tree_sitter.Node]]:
        """Where the module's production code passes a cache-backed client as this parameter, or stores one in
        this field."""
        # a parameter's values from calls by name and through the lists it is in (a Setup a loop runs)
        values = self._values_of(ref)[0] if isinstance(ref, ParamRef) else self._field_values_of(ref)
        return [
            value.place
            for value in values
            if value.place is not None
            and not value.in_test
            and (known := self.resolve(value.ref)) is not None
            and known.access is Access.CACHE
        ]

    def resolve(
        self, ref: ClientRef, depth: int = 0, seen: frozenset[ClientRef] = frozenset(), near: str = ""
    ) -> Known | None:
        """Decide the access of a reference; None when it is not a controller-runtime client. `near`: the file
        of the site asking, whose nearest value the evidence shows where several decide alike."""
        if isinstance(ref, Known):
            return ref
        if ref is Marker.NOT_CLIENT:
            return None
        if ref in seen:
            return _CYCLE
        if depth > MAX_DEPTH:
            return _TOO_DEEP
        if ref is Marker.UNKNOWN or isinstance(ref, ForeignRef):
            return Known(Access.CACHE, None, manager_client=True)  # unknown: taken for the manager's (SPEC §3.1)
        assert isinstance(ref, FieldRef | ParamRef | ReturnRef | LocalRef)
        values, label = self._values_of(ref)
        values = self._running(ref, values, depth)
        if not values and isinstance(ref, ParamRef) and (watching := self._watching_parameter(ref)) is not None:
            return watching
        outcomes = []
        for value in values:
            known = self.resolve(value.ref, depth + 1, seen | {ref}, near)
            if known is not None:
                outcomes.append((known, value))
        if values and not outcomes:  # each value is no client (fakes of tests, `nil`): neither is this
            return None
        return self._decided(outcomes, label, near)

    def _running(self, ref: ClientRef, values: list[Assigned], depth: int) -> list[Assigned]:
        """The values written where the code runs by default, when some are (SPEC §1): mig-controller's
        `GetClient` returns the manager's client only `if Settings.EnableCachedClient` (false unless
        ENABLE_CACHED_CLIENT is set), and the client it builds without a cache otherwise. A site's own field or
        parameter keeps every value: where its cached ones are written only off by default, the site is judged
        so, naming the setting (cached_value_places)."""
        if len(values) < 2 or (not depth and isinstance(ref, FieldRef | ParamRef)):
            return values
        running = [value for value in values if value.place is None or self.runs_by_default(*value.place)]
        return running or values

    def _watching_parameter(self, ref: ParamRef) -> Known | None:
        """A parameter no call passes anything, declared as controller-runtime's `client.WithWatch`: only
        `client.NewWithWatch` (or a test's fake) builds one, a client without cache; a manager's client is none."""
        info = self.resolver.declarations.functions.get(ref.function)
        parameter = info.parameter_at(ref.index) if info is not None else None
        declared = parameter.type if parameter is not None else None
        if info is None or declared is None or (declared.package, declared.name) != (CR_CLIENT, "WithWatch"):
            return None
        name = info.node.child_by_field_name("name") or info.node
        text = f"`{ref.name}` of {ref.function.name} is a client.WithWatch, which only client.NewWithWatch builds"
        return Known(Access.DIRECT_CLIENT, Evidence(info.file.span(name), text))

    def _decided(self, outcomes: list[tuple[Known, Assigned]], label: str, near: str = "") -> Known:
        """A reference's access from its values': a cache-backed value anywhere makes it cache-backed, an unknown
        one (assumed cache-backed) included; the evidence shown is that of a definite one."""
        definite = [(known, value) for known, value in outcomes if known.evidence is not None]
        # SPEC: an unknown client is cache-backed, next to a known one too; but a test helper's unknown value
        # says little next to the uncached client (an e2e suite's) other tests hand it
        # nor does a value handed in only through functions nothing calls (a deprecated constructor)
        unseen = next(
            (
                value
                for known, value in outcomes
                if known.evidence is None
                and known is not _CYCLE
                and known is not _TOO_DEEP
                and not value.in_test
                and not (definite and self._uncalled(value.ref))
            ),
            None,
        )
        assumed = unseen is not None
        cached_values = [(known, value) for known, value in definite if known.access is Access.CACHE]
        # a client.New over the cache among them follows its own options, not the manager's: the reads through it
        # escape the manager's DisableFor (kruise's configuration helper, given the manager's client by a webhook
        # and such a client by a controller), so it is the one judged, whichever caller comes first
        escaping = [(known, value) for known, value in cached_values if known.own_client is not None]
        cached = self._shown(escaping or cached_values, near)
        if not definite and not assumed and any(known is _TOO_DEEP for known, _ in outcomes):
            return _TOO_DEEP  # only too deep (or cycling) paths: the parent's other paths may tell
        if not definite and not assumed and any(known is _CYCLE for known, _ in outcomes):
            # only paths back to a reference being resolved (ramen's JobHook hands its reader back to the factory
            # that made it): they add nothing to what the reference's other values say
            return _CYCLE
        if not definite or (assumed and cached is None):
            return Known(Access.CACHE, None, manager_client=True)
        known, value = cached if cached is not None else self._shown(definite, near) or definite[0]
        caches = {
            cache
            for other, _ in definite
            if other.access is Access.CACHE
            for cache in (other.cache, *other.other_caches)
        }
        if unseen is not None and known.cache:
            # a client not seen is taken for the manager's, beside a second cache's: the finding the manager's
            # options give shows that client
            caches.add("")
            value = unseen
        # the manager's own client where every cache-backed value is, an assumed one taken for it (SPEC §3.1)
        manager_client = all(other.manager_client for other, _ in definite if other.access is Access.CACHE)
        # a manager's client taken for one through an interface names no manager beside one a chain does name
        told = [other for other, _ in definite if other.access is known.access]
        named = [other for other in told if not other.through_interface]
        roots = tuple(dict.fromkeys(root for other in (named or told) for root in other.origins))
        known = dataclasses.replace(
            known,
            other_caches=tuple(sorted(caches - {known.cache})),
            manager_client=manager_client,
            through_interface=bool(told) and not named,
            own_client_shared=bool(escaping) and len(escaping) < len(cached_values),
        )
        if caches - {""}:
            manager_roots = tuple(
                dict.fromkeys(
                    root
                    for other, _ in definite
                    if other.access is Access.CACHE and (not other.cache or other.manager_roots)
                    for root in (other.manager_roots or other.origins)
                )
            )
            known = dataclasses.replace(known, manager_roots=manager_roots)
        if (_IDENTIFIER.fullmatch(value.text) or _LITERAL.match(value.text)) and known.evidence is not None:
            # `parameter c of f is `c``: a name passed on says nothing, nor a literal wrapping the client among
            # other fields (over several lines); the link that gave it its value does, named from here
            evidence = _passed_through(label, known.evidence) if _IDENTIFIER.fullmatch(value.text) else None
            return dataclasses.replace(known, roots=roots, evidence=evidence or known.evidence)
        text = " ".join(value.text.split())  # one line, as messages are
        return dataclasses.replace(known, evidence=Evidence(value.span, f"{label} is `{text}`"), roots=roots)

    def _shown(self, outcomes: list[tuple[Known, Assigned]], near: str = "") -> tuple[Known, Assigned] | None:
        """The value whose evidence a message shows: of those written where the code runs by default, where
        several are (nova-operator's helper takes the manager's client from nine controllers, the first one
        registered only when ENABLE_CYBORG=true), and outside the packages only tests run, the one nearest the
        site's file (each of forklift's reconcilers sets the shared base's client in its own package), the first
        on a tie."""
        if len(outcomes) < 2:
            return outcomes[0] if outcomes else None
        running = [
            outcome for outcome in outcomes if outcome[1].place is None or self.runs_by_default(*outcome[1].place)
        ]
        if not running:
            return outcomes[0]
        # not an envtest fixture's setup beside the binary's own (kserve's `llmisvc/fixture`)
        deployed = [
            outcome
            for outcome in running
            if outcome[1].place is None or outcome[1].place[0].package_path not in self.test_only
        ]
        running = deployed or running
        if not near:
            return running[0]
        folder = near.rpartition("/")[0]
        return max(running, key=lambda outcome: shared_folders(outcome[1].span.path.rpartition("/")[0], folder))

    def _uncalled(self, ref: ClientRef) -> bool:
        """Whether a client is handed in only through functions nothing calls nor names as a value (a
        deprecated constructor): a function named as a value (in a list of setup functions, a registry) is
        called in ways not followed, and its parameters stay unknown."""
        leaves = self._assumed_leaves(ref)
        return leaves is not None and not any(self._named_as_value(leaf.function) for leaf in leaves)

    def _declaring_files(self) -> list[GoFile]:
        """The files declaring the module's functions, each once: what the module-wide scans read; found once
        (`_named_as_value` asks for every function it is asked about)."""
        if self._files_declaring is None:
            functions = self.resolver.declarations.functions.values()
            self._files_declaring = list({id(info.file): info.file for info in functions}.values())
        return self._files_declaring

    def _named_as_value(self, key: FunctionKey) -> bool:
        found = self._value_names.get(key)
        if found is None:
            name = key.name.encode()
            word = re.compile(rb"\b" + re.escape(name) + rb"\b")
            found = any(
                _names_without_calling(file, key.name)
                for file in self._declaring_files()
                if name in file.source.data and word.search(file.source.data)  # `in` first: a sixteenth of the time
            )
            self._value_names[key] = found
        return found

    def assumption(self, ref: ClientRef) -> Evidence | None:
        """Why a client nothing is seen to give a value is taken as cache-backed (SPEC §3.1: unknown means
        cache-backed): where every path of parameters (and fields) it is handed through ends at a parameter no
        call passes anything, the first such function, by its name; else None."""
        foreign = self._foreign_origin(ref)
        if foreign is not None:
            return Evidence(foreign.span, f"`{foreign.text}` is another module's client: taken as cache-backed")
        leaves = self._assumed_leaves(ref)
        info = self.resolver.declarations.functions.get(leaves[0].function) if leaves else None
        name = info.node.child_by_field_name("name") if info is not None else None
        if not leaves or info is None or name is None:
            return None
        leaf = leaves[0]
        text = f"no call seen passes `{leaf.name}` of {leaf.function.name}"
        if not leaf.function.receiver and self._named_as_value(leaf.function):
            # handed on as a function value (`runFinalizer(ctx, r.Client, kafkaDetachFinalizer)`): its calls there
            # are not followed, which "no call" alone would deny
            text += ", which is handed on as a function value"
        elif re.search(rb"\b" + re.escape(leaf.function.name.encode()) + rb"\(", self.generated):
            # crossplane-provider-grafana's upjet-generated connector calls it with the manager's client
            text += ", which generated code (not analyzed) calls"
        return Evidence(info.file.span(name), f"{text}: taken as cache-backed")

    def _foreign_origin(self, ref: ClientRef) -> ForeignRef | None:
        """The other module's call a client comes from, where every path of locals, fields and parameters from
        `ref` that gives it a value ends at one (`p.KubeClient = singleton.KubeClient.Get()`)."""
        ends = self._path_ends(ref)
        foreign = [end for end in ends if isinstance(end, ForeignRef)] if ends is not None else []
        return foreign[0] if ends and len(foreign) == len(ends) else None

    def _assumed_leaves(self, ref: ClientRef) -> list[ParamRef] | None:
        """The parameters no call passes anything that every path of parameters (and fields) from `ref`
        ends at; None where a path ends elsewhere."""
        ends = self._path_ends(ref)
        leaves = [end for end in ends if isinstance(end, ParamRef)] if ends is not None else []
        return leaves if ends and len(leaves) == len(ends) else None

    def _path_ends(self, ref: ClientRef) -> list[ClientRef] | None:
        """Where the paths of locals, fields and parameters from `ref` end: at a value of another sort, or at
        one of them nothing gives a value; None past 32 of them."""
        ends: list[ClientRef] = []
        pending: list[ClientRef] = [ref]
        seen: set[ClientRef] = set()
        while pending:
            current = pending.pop(0)
            if not isinstance(current, ParamRef | FieldRef | LocalRef):
                ends.append(current)
                continue
            if len(seen) > 32:
                return None
            if current in seen:
                continue
            seen.add(current)
            values = self._values_of(current)[0]
            if not values:
                ends.append(current)
            pending.extend(value.ref for value in values)
        return ends

    def _named(self, key: FunctionKey) -> str:
        """A function as notes name it: with its package where another package of the module declares a function
        of that name (koperator's `kafka.New` beside `cruisecontrol.New`)."""
        if self._function_names is None:
            self._function_names = Counter(
                other.name for other in self.resolver.declarations.functions if not other.receiver
            )
        if key.receiver or self._function_names[key.name] < 2:
            return key.name
        return f"{key.package.rsplit('/', 1)[-1]}.{key.name}"

    def _replaces_by_default(self, file: GoFile, value: tree_sitter.Node) -> bool:
        """Whether a value replacing a local's first client is there in the default deployment: its assignment
        runs then, and a field it reads (`r.APIReader`) is stored by code that runs then (not only under a flag
        off by default)."""
        if not self.runs_by_default(file, value):
            return False
        selected = self.resolver.selected_field(file, value) if value.type == "selector_expression" else None
        if selected is None:
            return True
        stored = self.stored(selected[0], selected[1].name)
        return any(self.runs_by_default(at, node) for at, node in stored)

    def _values_of(self, ref: FieldRef | ParamRef | ReturnRef | LocalRef) -> tuple[list[Assigned], str]:
        """What a reference may hold (returned, stored, passed), and how messages name it. What tests pass or
        store says nothing of the binary (--include-tests): a production function's parameter takes its
        production callers only, a field the values of tests only when production code stores none."""
        if isinstance(ref, ReturnRef):
            returned = [value for key in (ref.function, *ref.also) for value in self._returned(key, ref.index)]
            return _without_fallbacks(returned), f"{self._named(ref.function)}()"
        if isinstance(ref, LocalRef) and ref in self._literal_arguments:  # a function literal's parameter
            given, holder = self._literal_arguments[ref]
            received = [self._assigned(file, value) for file, value in given]
            return [value for value in received if not value.in_test] or received, f"parameter {ref.name} of {holder}"
        if isinstance(ref, LocalRef):
            # `if reader == nil { reader = r.Client }` (capsule): a default where the first value is nil; and
            # `reader := client.Reader(r.Client); if r.APIReader != nil { reader = r.APIReader }` (kube-agents): a
            # first value that stands in for a later one where that is nil, or that a later one always replaces,
            # before the read and in the default deployment
            file, values = self._locals[ref]
            replaced = any(self._replaces_by_default(file, values[index]) for index in ref.replacing)
            held = [
                self._assigned(file, value, in_nil_test(value, ref.name, is_nil=True) or (replaced and index == 0))
                for index, value in enumerate(values)
            ]
            return _without_fallbacks(held), ref.name
        if isinstance(ref, FieldRef):
            owner = ref.struct.package.rsplit("/", 1)[-1] if ref.struct.name == PACKAGE_SCOPE else ref.struct.name
            stored = _without_fallbacks(self._field_values_of(ref))
            deployed = [value for value in stored if not value.in_test]
            return deployed or stored, f"{owner}.{ref.field}"
        passed = self.call_arguments.get((ref.function, ref.index), [])
        info = self.resolver.declarations.functions.get(ref.function)
        if info is not None and not info.file.is_test:
            passed = [value for value in passed if not value.in_test]
        shown = f"parameter {ref.name} of {self._named(ref.function)}"
        if info is not None:
            # listed in a slice of functions and called through the loop's item (`probe(ctx, c)`), or stored in a
            # struct field and called through it (`r.newESClient(r.client, …)`), besides any call by name
            # (dynatrace calls NewClientFromDynakube with its API reader, and through a field with a cached client)
            passed = passed + [
                self._assigned(file, arguments[ref.index])
                for file, call in self.listed_calls(ref.function)
                if ref.index < len(arguments := parser.named(call.child_by_field_name("arguments") or call))
                and (info.file.is_test or not file.is_test)  # as above: a production function's production calls
            ]
        if not passed and info is not None and ref.index < len(info.parameters):
            # no call seen (a dependency-injection container calls it): a parameter of a module struct carrying
            # a client holds what the module stores in that struct (`UncachedClient{client.New(…)}`)
            declared = info.parameters[ref.index].type
            embedded = self._carried_client(declared)
            if embedded is not None and declared is not None:
                parameters = info.node.child_by_field_name("parameters") or info.node
                text = f"{declared.name}{{…}}"
                return [Assigned(embedded, info.file.span(parameters), text, in_test=info.file.is_test)], shown
        return passed, shown


def _slice_element(type_node: tree_sitter.Node | None) -> tree_sitter.Node | None:
    """The element type a slice or array literal names for its items (`w` of `[]*w`)."""
    if type_node is None or type_node.type not in ("slice_type", "array_type", "implicit_length_array_type"):
        return None
    element = type_node.child_by_field_name("element")
    return parser.first_named(element) if element is not None and element.type == "pointer_type" else element


def _cache_written_before(name: str, call: tree_sitter.Node) -> tuple[tree_sitter.Node, tree_sitter.Node] | None:
    """The `Reader:` a local's Cache field is given before `call` in its function (amazon-vpc-cni's `clientOpts :=
    client.Options{Scheme: s}; if cacheReader != nil { clientOpts.Cache = &client.CacheOptions{Reader: r} }`),
    with the literal that sets it; a condition around the write counts as holding (SPEC §1)."""
    function = innermost_function(call)
    for statement in parser.captures("(assignment_statement) @a", function).get("a", []) if function else []:
        left, right = statement.child_by_field_name("left"), statement.child_by_field_name("right")
        target = parser.first_named(left) if left is not None else None
        if statement.start_byte > call.start_byte or target is None or target.type != "selector_expression":
            continue
        operand, field_name = target.child_by_field_name("operand"), target.child_by_field_name("field")
        if parser.text(operand) == name and parser.text(field_name) == "Cache" and right is not None:
            return cache_reader(right)
    return None


def _chain_root(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The identifier a chain of selectors and calls starts from (`singleton` of `singleton.KubeClient.Get()`);
    None where it starts from another expression."""
    current: tree_sitter.Node | None = node
    while current is not None and current.type in ("selector_expression", "call_expression"):
        current = current.child_by_field_name("operand" if current.type == "selector_expression" else "function")
    return current if current is not None and current.type == "identifier" else None


def _built_by_a_literal(resolver: Resolver, file: GoFile, operand: tree_sitter.Node) -> bool:
    """Whether a name is a local declared with a struct literal (`rec := Recorder{Client: c}`, or its address)."""
    declaration = resolver.declaration(file, operand) if operand.type == "identifier" else None
    return declaration is not None and struct_literal_of(declaration.value_node) is not None


def _passed_through(label: str, evidence: Evidence) -> Evidence | None:
    """`parameter c of inner (through outer) is `r.Client``: a parameter's evidence where its function's callers
    hand it on a parameter of their own, whose evidence (`parameter c of outer is …`) names the function the
    value was given to; None for another label or evidence."""
    outer = _PARAMETER_EVIDENCE.fullmatch(evidence.message)
    if not label.startswith("parameter ") or outer is None:
        return None
    chain = [outer.group("function"), *(outer.group("through") or "").split(", ")]
    chain = [name for name in chain if name]
    shown = ", ".join(chain[:_CHAIN_SHOWN]) + (", …" if len(chain) > _CHAIN_SHOWN else "")
    return Evidence(evidence.span, f"{label} (through {shown}) is {outer.group('value')}")


def _wraps(value: tree_sitter.Node, name: str) -> bool:
    """Whether a value assigned to a local wraps the local itself (`userClient = wrapper(userClient)`, korifi's
    decorators): it reads as the client it wraps."""
    arguments = value.child_by_field_name("arguments") if value.type == "call_expression" else None
    return arguments is not None and any(
        argument.type == "identifier" and parser.text(argument) == name for argument in parser.named(arguments)
    )


def _literal_field(
    file: GoFile, call: tree_sitter.Node, index: int, name: str, resolver: Resolver
) -> tree_sitter.Node | None:
    """The value a call's argument at `index` sets field `name` to, where the argument is a struct literal
    (`Ctx{Client: c}`, `&Ctx{…}`) or a local holding one that is not written to after; None otherwise."""
    arguments = parser.named(call.child_by_field_name("arguments") or call)
    argument = arguments[index] if index < len(arguments) else None
    if argument is not None and argument.type == "identifier":
        declaration = resolver.declaration(file, argument)
        function = file.enclosing_function(call)
        written = function is not None and f"{parser.text(argument)}.{name} =" in parser.text(function)
        argument = declaration.value_node if declaration is not None and not written else None
    if argument is not None and argument.type == "unary_expression":
        argument = argument.child_by_field_name("operand")
    if argument is None or argument.type != "composite_literal":
        return None
    return next((value for key, value in keyed_elements(argument) if key == name), None)


def _names_without_calling(file: GoFile, name: str) -> bool:
    """Whether a file's code spells a function's name other than to call it or declare it (a value in a list
    of setup functions, a registry map, a struct field)."""
    for node in parser.identifiers_named(file.tree.root_node, name, kinds=("identifier", "field_identifier")):
        parent = node.parent
        if parent is not None and parent.type in ("function_declaration", "method_declaration"):
            continue
        called = parent
        if called is not None and called.type == "selector_expression" and called.child_by_field_name("field") == node:
            node, called = called, called.parent
        if called is not None and called.type == "call_expression" and called.child_by_field_name("function") == node:
            continue
        if called is not None and called.type == "index_expression":  # `f[T](…)`: a generic call
            continue
        return True
    return False


def _replaces_the_first(value: tree_sitter.Node, first: tree_sitter.Node) -> bool:
    """Whether a later value of a local replaces its first wherever it is not nil (`if r.APIReader != nil {
    reader = r.APIReader }`), or always: assigned in the very block the local is declared in, after it."""
    if in_nil_test(value, parser.text(value), is_nil=False):
        return True
    statement, declared = value.parent, first.parent
    while statement is not None and statement.type not in ("assignment_statement", "short_var_declaration"):
        statement = statement.parent
    while declared is not None and declared.type not in ("short_var_declaration", "var_declaration"):
        declared = declared.parent
    return (
        statement is not None
        and declared is not None
        and statement.parent == declared.parent
        and statement.start_byte > declared.start_byte
    )


def _replaced_at(value: tree_sitter.Node, read: tree_sitter.Node) -> bool:
    """Whether a replacing value of a local holds at a read of it: the statement making the replacement (the nil
    test around it, `if name != nil { … }` or the else of `if name == nil`, or the assignment itself) comes before
    the read in a block around the read, so a branch that returns after replacing leaves the reads after it with
    the first value. A read in a function literal of that block runs when the literal is called: deferred, at the
    return, after the replacement; called where it is written, there."""
    text = "".join(parser.text(value).split())
    holder, child, current = value, value, value.parent
    while current is not None and current.type not in ("function_declaration", "method_declaration", "func_literal"):
        condition = current.child_by_field_name("condition") if current.type == "if_statement" else None
        tested = "".join(parser.text(condition).split()) if condition is not None else ""
        in_else = current.type == "if_statement" and child == current.child_by_field_name("alternative")
        if tested == (text + ("==nil" if in_else else "!=nil")):
            holder = current
            break
        if current.type in ("assignment_statement", "short_var_declaration") and holder is value:
            holder = current
        child, current = current, current.parent
    block = holder.parent
    if block is None or not parser.encloses(block, read):
        return False
    closure = read.parent
    while closure is not None and closure != block and closure.type != "func_literal":
        closure = closure.parent
    if closure is not None and closure.type == "func_literal" and not parser.encloses(closure, holder):
        called = closure.parent
        if (
            called is not None
            and called.type == "call_expression"
            and called.child_by_field_name("function") == closure
        ):
            deferred = called.parent is not None and called.parent.type == "defer_statement"
            return deferred or holder.end_byte <= called.start_byte
        return True
    return holder.end_byte <= read.start_byte


def _without_fallbacks(values: list[Assigned]) -> list[Assigned]:
    """A default used where the value is nil (`if r.reader == nil { r.reader = c }`, a last `return r.client`
    after `if r.reader != nil { return r.reader }`) gives way to the values it stands in for."""
    return [value for value in values if not value.fallback] or values


def _names_a_constructor(file: GoFile) -> bool:
    """Whether a file names a client constructor without calling it (`Factory: client.New`, `r.getter =
    remote.NewClusterClient`)."""
    for alias, path in file.imports.items():
        names = _CONSTRUCTOR_NAMES.get(path)
        pattern = rb"\b" + re.escape(alias.encode()) + rb"\.(" + names + rb")\b(?!\s*\()" if names else None
        if pattern is not None and re.search(pattern, file.source.data) is not None:
            return True
    return False


def _is_constructor(file: GoFile, value: tree_sitter.Node) -> bool:
    """`client.New` or `client.NewWithWatch` of controller-runtime, or a library function known to build a client
    with it (cluster-api's `remote.NewClusterClient`), as a value."""
    if value.type != "selector_expression":
        return False
    operand = value.child_by_field_name("operand")
    package = file.imports.get(parser.text(operand)) if operand is not None else None
    name = parser.text(value.child_by_field_name("field"))
    return (package == CR_CLIENT and name in ("New", "NewWithWatch")) or (package, name) in _UNCACHED_CONSTRUCTORS


def _field_writes(file: GoFile) -> Iterator[tuple[str, tree_sitter.Node]]:
    """Every field a file writes, with the value: `Key: value` of its literals, `x.Key = value`."""
    for literal in file.nodes("composite_literal"):
        yield from keyed_elements(literal)
    for _, _, targets, values in file.assignments():
        for target, value in zip(targets, values, strict=False):
            if target.type == "selector_expression":
                yield parser.text(target.child_by_field_name("field")), value


def _package_variable_named(value: tree_sitter.Node) -> str | None:
    """The name of the package variable a value is declared with (`var f = …`), alone in its declaration."""
    values = value.parent
    spec = values.parent if values is not None and values.type == "expression_list" else None
    if values is None or spec is None or spec.type != "var_spec" or len(parser.named(values)) != 1:
        return None
    declaration = spec.parent
    if declaration is None or declaration.type != "var_declaration" or declaration.parent is None:
        return None
    if declaration.parent.type != "source_file":
        return None
    names = spec.children_by_field_name("name")
    return parser.text(names[0]) if len(names) == 1 else None


def _declares(name: tree_sitter.Node) -> bool:
    """Whether an identifier is the name a declaration declares (a var spec's, not a use)."""
    outer = name.parent
    return outer is not None and outer.type == "var_spec" and name in outer.children_by_field_name("name")
