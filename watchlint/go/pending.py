"""A Go site before module-wide resolution, and the syntax helpers every kind of site is built with."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import tree_sitter

from watchlint.facts import Access, Evidence, Mitigation, ObjectForm, Operation, Restriction
from watchlint.go import parser
from watchlint.go.clientrefs import ClientRef
from watchlint.go.declarations import FunctionKey
from watchlint.go.fieldselectors import FieldKey
from watchlint.go.heldclients import HeldClient
from watchlint.go.model import GoFile, TypeRef
from watchlint.go.resolve import ObjectRef, Resolver
from watchlint.source import Span

ALL_NAMESPACES = ('""', "metav1.NamespaceAll", "corev1.NamespaceAll", "v1.NamespaceAll", "cache.AllNamespaces")
MAX_CONSTRUCT = 80  # characters of a call shown in full
# Namespace expressions judged with their default value: a variable, or a pointer to one (`Pods(*namespace)`),
# and a field (`Pods(cfg.Namespace)`), which only gives way to the site's other restrictions as its reason:
# what reaches a field is followed less surely than where it is read from (cert-manager reads a namespace field
# in informers built only where no lister was injected).
_JUDGED_NAMESPACES = frozenset({"identifier", "unary_expression", "selector_expression", "call_expression"})


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
    helper_call: str = ""  # reported at a helper's call: the callee inside the helper (Site.helper_call)
    library_reader: str = ""  # a library function reading through its client.Client parameter (Site.library_reader)
    restrictions: list[Restriction] = field(default_factory=list)
    filters: list[Evidence] = field(default_factory=list)
    # a client-go informer's FilteringResourceEventHandlers, each with its handler argument: one added only
    # under a condition false by default filters nothing then (traefik mesh's Pod handler, under ACL mode)
    handler_filters: list[tuple[Evidence, GoFile, tree_sitter.Node]] = field(default_factory=list)
    group: int | None = None  # builder chain identity, for builder-wide WithEventFilter
    cache: str = ""  # policy key of a cluster.New cache the site uses; "" for the binary's manager
    helper: tuple[FunctionKey, int] | None = None  # the object is this parameter of a helper: see its calls
    # the informer's list-watch is this parameter of the helper, stood in for by the restriction until a call of
    # the helper passes one
    list_watch_parameter: tuple[FunctionKey, int, Restriction] | None = None
    helper_items: bool = False  # …or an item of it (a variadic `objs ...client.Object`): each one its calls pass
    # …or the item of this map literal the parameter keys (Reloader's `kube.ResourceMap[resource]`): the items
    # of the keys its calls pass
    helper_map: tuple[GoFile, tree_sitter.Node] | None = None
    through: Evidence | None = None  # reported at a helper's call: where the helper watches or reads the kind
    object_fields: Evidence | None = None  # the fields a watch's object literal sets (Site.object_fields)
    transform: Evidence | None = None  # the informer's SetTransform, which keeps every object, only smaller
    # a factory option scoping to every namespace (`WithNamespace(corev1.NamespaceAll)`): the option to change
    every_namespace: Evidence | None = None
    list_watch: Evidence | None = None  # a WatchFunc's sibling ListFunc: the pair fills a reflector's store
    # …and the read or watch itself there, whose guards inside the helper keep it from running (an early return)
    read_at: tuple[GoFile, tree_sitter.Node] | None = None
    # the assignment that gives the watched local this object, whose guards keep the site from running (one of
    # the kinds a flag chooses between)
    chosen_at: tuple[GoFile, tree_sitter.Node] | None = None
    helper_field: str | None = None  # …or this field of it (`target.Object` of a `WatchTarget` parameter)
    forwarded: int | None = None  # a helper's variadic parameter passed on as the watch's options (`opts...`)
    # …or as its predicates (`builder.WithPredicates(preds...)`): what each call passes filters its copy
    forwarded_predicates: int | None = None
    # namespace restrictions and the expression naming the namespace, judged for the default deployment later
    namespaces: list[tuple[Restriction, GoFile, tree_sitter.Node]] = field(default_factory=list)
    # list-option tweaks held in variables or parameters: judged by the value they hold (nil narrows nothing)
    tweaks: list[tuple[Restriction, GoFile, tree_sitter.Node]] = field(default_factory=list)
    is_raw_source: bool = False  # WatchesRawSource: WithEventFilter does not apply
    # the cache a `source.Kind(cache, …)` watch is given, with its file: its manager's, not the builder's
    source_cache: tuple[GoFile, tree_sitter.Node] | None = None
    foreign_builder: bool = False  # a framework's builder, not controller-runtime's: no builder.OnlyMetadata
    tests_annotations: bool = False  # its predicates read annotations, never labels: no selector can stand in
    selected_labels: tuple[tuple[str, str], ...] | None = None  # what its one LabelSelectorPredicate selects
    handles_typed: str = ""  # how its handler or predicates read the objects typed (typedhandlers): no OnlyMetadata
    # the parameters of the function around a watch that its handler or predicates name: its callers' say too
    handler_parameters: list[tuple[FunctionKey, int]] = field(default_factory=list)
    looped: bool = False  # one of the kinds a loop hands the call: its options apply to all (no OnlyMetadata)
    field_keys: list[FieldKey] = field(default_factory=list)  # a List's field selector: cache indexes, for fixes
    # List options that are parameters of the function around the List: the field keys its callers pass count
    list_option_parameters: list[tuple[FunctionKey, int]] = field(default_factory=list)
    factory_parameter: tuple[FunctionKey, int] | None = None  # the informer factory is this parameter
    # …or that parameter holds the factory's informers of this group and version (`Core`, `V1`)
    given_group: tuple[str, str] | None = None
    # the informer factory is this field of a struct, or (True) one of the items of this field
    factory_field: tuple[TypeRef | None, str, bool] | None = None
    factory_getter: tuple[GoFile, tree_sitter.Node] | None = None  # …or what this call of a module method returns
    held_client: HeldClient | None = None  # a typed client read from a field or a map's items, judged later
    factory_constructor: tuple[str, int] | None = None  # the constructor (path, first byte) of the site's factory
    # selectors read from variables (a ListFunc's `o.FieldSelector = sel`, `client.MatchingLabels(labels)`),
    # judged by their default value later
    selector_values: list[tuple[Restriction, GoFile, tree_sitter.Node]] = field(default_factory=list)
    # restrictions a tweak of the list options sets under the conditions around the node, judged later
    guarded: list[tuple[Restriction, GoFile, tree_sitter.Node]] = field(default_factory=list)
    injected: bool = False  # an informer of knative's injection: injection's namespace scope applies
    library_go_factory: bool = False  # from library-go's `InformersFor(ns)`: one factory per namespace
    # a call taking the informer's namespace and tweak as arguments, shown in the help (a group-version
    # informers' `New(factory, namespace, tweak)`, `NewFilteredDynamicSharedInformerFactory(…)`)
    narrowing_call: str = ""
    # the API group of an informer a wrangler controller registers ("core"): the binary's factories scope it
    wrangler_group: str = ""
    factory_help: str = ""  # how to narrow the factory an informer comes from, where the rule's help does not fit
    options_call: str = ""  # the factory is built with options (`NewSharedInformerFactoryWithOptions(…)`): that call
    # the list options are this parameter of the function around the call: its callers' options decide
    options_parameter: tuple[FunctionKey, int] | None = None
    # …and the first call seen to pass options with no selector, which makes the site a finding
    unselected_caller: Evidence | None = None
    clientset_parameter: tuple[FunctionKey, int] | None = None  # the clientset is this parameter: fakes or not
    # the informer factory's options are this variadic parameter (`opts...`): what its callers pass decides
    factory_options_parameter: tuple[FunctionKey, int] | None = None
    reads_cache_itself: bool = False  # a read through `mgr.GetCache()`: client options (DisableFor) do not apply
    own_client: Span | None = None  # a read through client.New over the cache: the CacheOptions that apply
    own_client_shared: bool = False  # the manager's own client reaches the read too (Known.own_client_shared)
    also_managers: bool = False  # a read through a second cache's client, and a client taken for the manager's
    cluster_client: bool = False  # a read through a cluster's GetClient(), whose client options it follows
    manager_client: bool = False  # a read through the manager's own GetClient(): client.New's options do not apply
    # the options literals (path, offset) of the managers running the site, where known: the one whose client
    # a read reads through, or a watch registers with (go/managers.py)
    managers: frozenset[tuple[str, int]] = frozenset()


def pending_site(
    resolver: Resolver,
    file: GoFile,
    call: tree_sitter.Node,
    method: str,
    operation: Operation,
    access: Access,
    found: ObjectRef,
    form: ObjectForm,
    receiver: str = "",
) -> PendingSite:
    """A site at `call` with the construct, enclosing function and span findings show; `form` overrides the
    object's (a metadata-only watch of a typed object)."""
    key = resolver.function_key(file, call)
    enclosing = ""
    if key is not None:
        enclosing = f"(*{key.receiver}).{key.name}" if key.receiver else key.name
    construct = construct_text(call, receiver, method, found)
    shown_call = f"{receiver}.{method}" if receiver else method
    span = file.name_span(call)
    site = PendingSite(file, call, operation, access, found, span, shown_call, construct, enclosing)
    site.object = ObjectRef(found.kind, form, found.text, found.is_list, found.package)
    return site


def restrict_namespace(
    site: PendingSite, file: GoFile, namespace: tree_sitter.Node, text: str, span: Span | None = None
) -> Restriction | None:
    """A namespace argument restricts the site unless it names all namespaces; a variable is judged later,
    with the value it holds by default (`namespace := metav1.NamespaceAll; if namespaced { … }`)."""
    if names_every_namespace(file, namespace):
        return None
    restriction = Restriction(Mitigation.NAMESPACE, site.object.kind, span or file.span(namespace), text)
    site.restrictions.append(restriction)
    if namespace.type in _JUDGED_NAMESPACES:
        site.namespaces.append((restriction, file, namespace))
    return restriction


def guard_added(site: PendingSite, before: int, file: GoFile, node: tree_sitter.Node) -> None:
    """Judge the restrictions added to a site since `before` under the conditions around `node` (where the
    option is appended, the factory or the list-options tweak assigned), unless they are judged already."""
    guarded = {id(restriction) for restriction, _, _ in site.guarded}
    site.guarded.extend((r, file, node) for r in site.restrictions[before:] if id(r) not in guarded)


def names_every_namespace(file: GoFile, namespace: tree_sitter.Node) -> bool:
    """`""`, `metav1.NamespaceAll` and the like, under any alias of their package."""
    return parser.text(namespace) in ALL_NAMESPACES or _names_every_namespace(file, namespace)


def _names_every_namespace(file: GoFile, namespace: tree_sitter.Node) -> bool:
    """`kapi.NamespaceAll`: the all-namespaces constant of an imported package under any alias."""
    if namespace.type != "selector_expression":
        return False
    operand, field = namespace.child_by_field_name("operand"), namespace.child_by_field_name("field")
    return (
        operand is not None
        and field is not None
        and parser.text(field) in ("NamespaceAll", "AllNamespaces")
        and parser.text(operand) in file.imports
    )


def evidence(file: GoFile, node: tree_sitter.Node, name: str | None) -> Evidence:
    """Evidence citing a node in at most 40 characters; a named call keeps its name and elides its arguments."""
    text = " ".join(parser.text(node).split())
    if name is not None:
        head = text.split("(", 1)[0]
        text = f"{head}(…)" if len(text) > 40 else text
    elif len(text) > 40:
        text = text[:39] + "…"
    return Evidence(file.span(node), f"`{text}`")


def method_name(call: tree_sitter.Node | None) -> str | None:
    """`M` of a call `x.M(…)`; None for any other node."""
    if call is None or call.type != "call_expression":
        return None
    function = call.child_by_field_name("function")
    if function is None or function.type != "selector_expression":
        return None
    return parser.text(function.child_by_field_name("field"))


def operand_of(call: tree_sitter.Node | None) -> tree_sitter.Node | None:
    """`x` of a call `x.M(…)`; None for any other node."""
    if call is None or call.type != "call_expression":
        return None
    function = call.child_by_field_name("function")
    if function is None or function.type != "selector_expression":
        return None
    return function.child_by_field_name("operand")


_LONG_OBJECT = 32  # an object literal longer than this is shown without its fields
_LITERAL = re.compile(r"(&?[\w.]+)\{.*\}", re.DOTALL)


def construct_text(call: tree_sitter.Node, receiver: str, method: str, found: ObjectRef) -> str:
    """The call as messages show it: long arguments other than the object elided when it would exceed
    MAX_CONSTRUCT characters."""
    arguments = call.child_by_field_name("arguments")
    texts = [" ".join(parser.text(node).split()) for node in (parser.named(arguments) if arguments else [])]
    head = f"{receiver}.{method}" if receiver else method
    full = f"{head}({', '.join(texts)})"
    if len(full) <= MAX_CONSTRUCT:
        return full
    shortened: list[str] = []
    for text in texts:
        item = text if text == found.text or len(text) <= 16 else "…"
        if item == found.text and len(item) > _LONG_OBJECT and (literal := _LITERAL.fullmatch(item)):
            item = f"{literal.group(1)}{{…}}"  # `&corev1.ConfigMap{ObjectMeta: …}` whose fields the watch ignores
        if not (item == "…" and shortened and shortened[-1] == "…"):
            shortened.append(item)
    return f"{head}({', '.join(shortened)})"


def uses_in(function: tree_sitter.Node, name: str) -> list[tree_sitter.Node]:
    """The identifiers in a function's body that spell `name`."""
    body = function.child_by_field_name("body") or function
    return parser.identifiers_named(body, name)


def calls_in(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    return parser.captures("(call_expression) @call", node).get("call", [])
