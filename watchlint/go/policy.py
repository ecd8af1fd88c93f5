"""Cache policy: every manager, cluster, cache and client option a file sets (SPEC §1), in all three eras.

Options are found wherever they are written — inline in `ctrl.NewManager`, in helpers that return them,
in variables assigned field by field, in maps filled by later statements — and each restriction keeps
the span that sets it. A restriction applied inside an `if`, `switch` or loop carries that Condition.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import tree_sitter

from watchlint.facts import EVERY_NAMESPACE, NO_CACHE, Condition, Evidence, Mitigation, Restriction, Transform, any_of
from watchlint.go import parser
from watchlint.go.byobjecthelpers import entries_by_callers
from watchlint.go.clientsyntax import reader_of
from watchlint.go.declarations import resolve_type
from watchlint.go.deployment import Evaluator
from watchlint.go.fieldselectors import fields_detail
from watchlint.go.known import Val
from watchlint.go.managers import ManagerLinks, is_idle_manager
from watchlint.go.model import (
    CONTROLLER_RUNTIME,
    CR_CACHE,
    CR_CLIENT,
    CR_CLUSTER,
    INFORMERS,
    MANAGER_PACKAGES,
    MC_MANAGER,
    META_V1,
    Call,
    GoFile,
    TypeRef,
)
from watchlint.go.objectlists import ObjectLists, literal_of
from watchlint.go.pending import method_name, uses_in
from watchlint.go.replacedoptions import ReplacedOptions
from watchlint.go.resolve import (
    ObjectRef,
    Resolver,
    append_arguments,
    assigned_to,
    holding_literal,
    keyed_elements,
    keyed_entries,
    literal_items,
    option_holder,
)
from watchlint.go.scope import enclosing_loop, innermost_function, return_statements, returned_values
from watchlint.go.secondcaches import (
    cache_built_by_helper,
    cache_fed_by,
    enclosing_second_cache,
    is_second_cache,
    second_cache_key,
)
from watchlint.go.unreadstores import unread_store
from watchlint.go.workloadcaches import WORKLOAD_CACHE, builds_a_workload_cache, in_workload_options, uncached_field
from watchlint.settingphrases import given
from watchlint.source import Span

_OPTION_TYPES = (
    (MANAGER_PACKAGES, "Options"),
    (frozenset({CR_CLUSTER}), "Options"),
    (frozenset({CR_CACHE}), "Options"),
    (frozenset({CR_CLIENT}), "Options"),
    (frozenset({CR_CLIENT}), "CacheOptions"),
)
_SELECTOR_TYPES = (
    (frozenset({CR_CACHE}), "ByObject"),
    (frozenset({CR_CACHE}), "ObjectSelector"),
)
_EVERYTHING = ("labels.Everything()", "fields.Everything()", "nil")
_SELECTOR_PACKAGES = frozenset({"k8s.io/apimachinery/pkg/labels", "k8s.io/apimachinery/pkg/fields"})
_CONFIG_SELECTORS = ("LabelSelector", "FieldSelector")  # a namespace's cache.Config narrows its objects with
# The defaults a ByObject entry's field replaces for its kind (controller-runtime applies a default only to an
# entry that leaves the field nil; the older SelectorsByObject replaced DefaultSelector whole).
_REPLACED_DEFAULTS = {
    "Label": ("DefaultLabelSelector", "DefaultSelector"),
    "Field": ("DefaultFieldSelector", "DefaultSelector"),
    "Namespaces": ("DefaultNamespaces",),
}
_ALL_NAMESPACES = (
    '""',
    "cache.AllNamespaces",
    *(f"{package}.{name}" for package in ("metav1", "corev1", "v1") for name in ("NamespaceAll", "NamespaceNone")),
)
# what names every namespace under whatever import name (`ctrlcache.AllNamespaces`, `k8smeta.NamespaceAll`)
_EVERY_NAMESPACE_CONSTANTS = frozenset(
    {(CR_CACHE, "AllNamespaces")}
    | {(package, name) for package in (META_V1, "k8s.io/api/core/v1") for name in ("NamespaceAll", "NamespaceNone")}
)
_LIST_HOLDERS = ("identifier", "call_expression")  # the first argument of an `append` whose objects are followed
_CONSTRUCTORS = {
    "NewManager": MANAGER_PACKAGES,
    "New": MANAGER_PACKAGES | {CR_CLUSTER, CR_CACHE, MC_MANAGER},
    "NewSharedInformerFactory": frozenset({INFORMERS}),
    "NewSharedInformerFactoryWithOptions": frozenset({INFORMERS}),
    "NewFilteredSharedInformerFactory": frozenset({INFORMERS}),
}


def constructs_a_cache(file: GoFile) -> bool:
    """Whether a file builds a manager, cluster, cache or informer factory (`_CONSTRUCTORS`)."""
    return any(
        call.operand is not None and file.imports.get(call.operand_text) in _CONSTRUCTORS.get(call.name, ())
        for call in file.calls()
    )


_OPTION_FIELDS = frozenset(
    {
        "Namespace",
        "Namespaces",
        "DefaultNamespaces",
        "DefaultLabelSelector",
        "DefaultFieldSelector",
        "DefaultSelector",
        "DisableFor",
        "ClientDisableCacheFor",
        "ReaderFailOnMissingInformer",
        "Unstructured",
        "NewCache",
        "NewClient",
        "DefaultTransform",
    }
)


_QUALIFIED_TYPES = "(qualified_type name: (type_identifier) @type)"
_FILTERED_CACHE = "github.com/IBM/controller-filtered-cache/filteredcache"


def _copied_into_options(literal: tree_sitter.Node) -> tree_sitter.Node | None:
    """For a ByObject map held in a local that the function only copies into another map (`extra :=
    map[client.Object]cache.ByObject{…}`, then `if monitoring { maps.Copy(opts.ByObject, extra) }`, or a loop
    over it), the first place it is copied: the entries apply where it runs."""
    values = literal.parent
    declared = values.parent if values is not None and values.type == "expression_list" else None
    left = declared.child_by_field_name("left") if declared is not None else None
    if declared is None or declared.type != "short_var_declaration" or left is None or len(parser.named(left)) != 1:
        return None
    name = parser.named(left)[0]
    function = innermost_function(literal)
    uses = [use for use in uses_in(function, parser.text(name)) if use != name] if function is not None else []
    places = [_copying(use) for use in uses]
    if not places or any(place is None for place in places):
        return None
    return min((place for place in places if place is not None), key=lambda place: place.start_byte)


def _copying(use: tree_sitter.Node) -> tree_sitter.Node | None:
    """The statement copying a map where `use` names it as the source: `maps.Copy(dst, use)`, or the `for`
    statement of `for k, v := range use`."""
    parent = use.parent
    if parent is not None and parent.type == "range_clause" and parent.child_by_field_name("right") == use:
        return parent.parent
    call = parent.parent if parent is not None and parent.type == "argument_list" else None
    arguments = parser.named(parent) if call is not None and parent is not None else []
    if call is not None and method_name(call) == "Copy" and len(arguments) == 2 and arguments[1] == use:
        return call
    return None


def _cache_dropped(function: tree_sitter.Node) -> tree_sitter.Node | None:
    """The statement of a NewClient function literal (`func(config *rest.Config, options client.Options)`) that
    empties the cache options it is given (`options.Cache = nil`), if one."""
    if function.type != "func_literal":
        return None
    parameters = [
        parser.text(name)
        for declaration in parser.named(function.child_by_field_name("parameters") or function)
        for name in declaration.children_by_field_name("name")
    ]
    if len(parameters) < 2:
        return None
    target = f"{parameters[1]}.Cache"
    statements = parser.captures("(assignment_statement) @a", function).get("a", [])
    return next(
        (
            statement
            for statement in statements
            if parser.text(statement.child_by_field_name("left")) == target
            and parser.text(statement.child_by_field_name("right")) == "nil"
        ),
        None,
    )


def _cache_ignored(function: tree_sitter.Node) -> bool:
    """Whether a function taking a cache.Cache first (controller-runtime's NewClientFunc before v0.15) leaves it
    unused: unnamed, `_`, or named nowhere in its body."""
    if function.type not in ("func_literal", "function_declaration"):
        return False
    declarations = parser.named(function.child_by_field_name("parameters") or function)
    first = declarations[0] if declarations else None
    kind = first.child_by_field_name("type") if first is not None else None
    if first is None or kind is None or not parser.text(kind).endswith("cache.Cache"):
        return False
    names = [parser.text(name) for name in first.children_by_field_name("name")]
    return not names or names[0] == "_" or not uses_in(function, names[0])


@dataclass(slots=True)
class FilePolicy:
    """What one file contributes to the cache policy of the binaries that reach it."""

    restrictions: list[Restriction] = field(default_factory=list)
    origins: list[Span] = field(default_factory=list)  # manager, cache and informer-factory constructions
    factory_origins: list[Span] = field(default_factory=list)  # the informer factories among them
    # for each origin, the guard that keeps it from being built by default (None: built by default)
    origin_guards: list[Span | None] = field(default_factory=list)
    builds_cache: bool = False  # a controller-runtime manager, cluster or cache is built here, not only a factory
    caches_unstructured: list[Span] = field(default_factory=list)
    clusters: dict[str, ClusterPolicy] = field(default_factory=dict)  # second caches built with cluster.New
    manager_options: list[tree_sitter.Node] = field(default_factory=list)  # `ctrl.Options{…}` literals, for fixes
    transforms: list[Transform] = field(default_factory=list)


@dataclass(slots=True)
class ClusterPolicy:
    """The options of one `cluster.New(…)`: its cache and client follow only these (SPEC §1)."""

    origin: Span
    restrictions: list[Restriction] = field(default_factory=list)
    # whether the default deployment builds it (None: no construction seen in this file)
    built_by_default: bool | None = None


def extract_policy(
    file: GoFile, resolver: Resolver, evaluator: Evaluator, links: ManagerLinks, replaced: ReplacedOptions
) -> FilePolicy:
    extractor = _Extractor(file, resolver, evaluator, links, replaced)
    extractor.run()
    return extractor.policy


@dataclass(slots=True)
class _Extractor:
    file: GoFile
    resolver: Resolver
    evaluator: Evaluator
    links: ManagerLinks
    replaced: ReplacedOptions
    policy: FilePolicy = field(default_factory=FilePolicy)
    # where the entries being read take effect, when not where they are written: the `maps.Copy(opts.ByObject,
    # extra)` (or the loop) that copies a map held in a local into the options; its guards are theirs
    copied_at: tree_sitter.Node | None = None

    def run(self) -> None:
        for literal in self.file.nodes("composite_literal"):
            self._literal(literal)
        for assignment in self.file.assignments():
            self._assignment(assignment.targets[0], assignment.values[0])
        for call in self.file.calls():
            if call.operand is not None:
                self._call(call, self.file.imports.get(call.operand_text), call.name)
            elif (aliased := self._aliased_constructor(call)) is not None:
                self._call(call, *aliased)

    def _aliased_constructor(self, call: Call) -> tuple[str, str] | None:
        """The package and name of the constructor a package variable holds (`var newManager = ctrl.NewManager`,
        so that tests can swap it), when it is one of `_CONSTRUCTORS`."""
        function = call.node.child_by_field_name("function")
        if function is None or function.type != "identifier":
            return None
        held = self.resolver.held_function(self.file.package_path, call.name)
        if held is None or held[0] not in _CONSTRUCTORS.get(held[1], ()):
            return None
        # a local of the name hides the variable: asked last, as it builds the scope of the function around
        return None if self.resolver.declaration(self.file, function) else held

    # -- literals ------------------------------------------------------------------------------------
    def _literal(self, literal: tree_sitter.Node) -> None:
        type_node = literal.child_by_field_name("type")
        if type_node is None:
            return
        if type_node.type == "map_type":
            value_type = resolve_type(type_node.child_by_field_name("value"), self.file)
            if _is_one_of(value_type, _SELECTOR_TYPES) and (
                in_workload_options(self.file, literal) is not None or not self._in_another_librarys_options(literal)
            ):
                self.copied_at = _copied_into_options(literal)
                older = value_type is not None and value_type.name == "ObjectSelector"  # a SelectorsByObject map
                try:
                    self._selector_map(literal, "SelectorsByObject" if older else "ByObject")
                finally:
                    self.copied_at = None
            return
        uncached = uncached_field(self.file, literal)
        if uncached:  # a workload cluster cache's DisableFor (its ByObject map is read as the manager's are)
            for key, value in keyed_elements(literal):
                if key == uncached:
                    self._disable_for(key, value, value)
            return
        type_ref = resolve_type(type_node, self.file)
        if type_ref is not None:  # `runtime.Options{}` of postgres-operator's `type Options = manager.Options`
            type_ref = self.resolver.declarations.unalias(type_ref)
        if type_ref is not None and type_ref.is_(CR_CACHE, "SelectorsByObject"):
            self._selector_map(literal, "SelectorsByObject")
        elif (
            type_ref is not None
            and _is_one_of(type_ref, _OPTION_TYPES)
            and not self._handed_to_another_library(literal)
            # the options of a manager built for its API reader (dynatrace's CSI init) scope no cache that runs
            and not self._of_idle_managers(literal)
        ):
            self._options_literal(literal, type_ref)

    def _options_literal(self, literal: tree_sitter.Node, type_ref: TypeRef) -> None:
        """A literal of the manager's, cache's or client's options: each field an option."""
        if type_ref.is_(MANAGER_PACKAGES, "Options") and enclosing_second_cache(self.file, literal) is None:
            self.policy.manager_options.append(literal)
        # a client built with client.New over a cache (`CacheOptions{Reader: …}`) has options of its own
        client = self.file.span(literal) if reader_of(literal) is not None else None
        if client is None and type_ref.is_(CR_CLIENT, "CacheOptions"):
            around = holding_literal(literal)
            if (
                around is not None
                and around.type == "composite_literal"
                and self.links.builds_a_client(self.file, around)
            ):
                return  # a client.New over no cache reads the API server: its cache options change nothing
        for key, value in keyed_elements(literal):
            self._option(key, value, value, client)

    def _second_cache(self, node: tree_sitter.Node) -> tuple[GoFile, tree_sitter.Node] | None:
        """The cache built apart from the managers' (`cache.New`, `cluster.New`) an option written at `node` is
        for, with its file: written in its call, in the options variable it is given, or handed to a helper
        building it. A transform written there rewrites none of what the managers' clients read
        (gitops-promoter's dashboard cache)."""
        cache = enclosing_second_cache(self.file, node) or cache_fed_by(self.file, self.resolver, node)
        if cache is not None:
            return self.file, cache
        return cache_built_by_helper(self.file, self.resolver, node)

    def _of_idle_managers(self, literal: tree_sitter.Node) -> bool:
        """Whether options are those of managers only ever asked for their API reader, or written in them
        (`ctrl.Options{Cache: cache.Options{…}}`)."""
        around: tree_sitter.Node | None = literal
        for _ in range(3):
            if around is None or around.type != "composite_literal":
                return False
            if self.links.only_idle_managers(self.file, around):
                return True
            around = holding_literal(around)
        return False

    def _in_another_librarys_options(self, literal: tree_sitter.Node) -> bool:
        """Whether a ByObject map is a field of another library's options (`clustercache.CacheOptions{ByObject:
        …}` of cluster-api, for the caches of workload clusters): those configure caches that library builds."""
        holder = holding_literal(literal)
        holder_type = holder.child_by_field_name("type") if holder is not None else None
        type_ref = resolve_type(holder_type, self.file) if holder_type is not None else None
        return type_ref is not None and self._of_another_library(type_ref.package)

    def _of_another_library(self, package: str | None) -> bool:
        """Whether an import path is a library's other than controller-runtime (or multicluster-runtime's manager,
        which builds a controller-runtime manager from the options it is given), nor the module's own."""
        if not package or package == MC_MANAGER:
            return False
        return not package.startswith(CONTROLLER_RUNTIME) and package not in self.evaluator.module_packages()

    def _handed_to_another_library(self, literal: tree_sitter.Node) -> bool:
        """Whether options are written as the argument of a function of a library other than controller-runtime
        (`managedcache.NewObjectBoundAccessManager(log, mapper, cfg, cache.Options{…})`): that library builds a
        cache of its own with them, which no manager of the module reads through."""
        node = literal.parent
        if node is not None and node.type == "unary_expression":
            node = node.parent
        call = node.parent if node is not None and node.type == "argument_list" else None
        function = call.child_by_field_name("function") if call is not None else None
        operand = (
            function.child_by_field_name("operand")
            if function is not None and function.type == "selector_expression"
            else None
        )
        if operand is None or operand.type != "identifier" or self.resolver.declaration(self.file, operand) is not None:
            return False
        return self._of_another_library(self.file.imports.get(parser.text(operand)))

    def _selector_map(self, literal: tree_sitter.Node, option: str) -> None:
        """The entries of a ByObject map, or of controller-runtime's older SelectorsByObject (`option`, as
        messages name the entries)."""
        for key, value in keyed_entries(literal):
            self._by_object_entry(key, value, option=option)

    def _named_types(self, value: tree_sitter.Node) -> tuple[str, ...] | None:
        """The types a transform's function names (`obj.(*corev1.Pod)`), in a function literal or a module
        function it names; None when the function is not seen (a call building one, another module's)."""
        body: tree_sitter.Node | None = value if value.type == "func_literal" else None
        if value.type in ("identifier", "selector_expression"):
            info = self.resolver.function_named(self.file, value)
            body = info.node if info is not None else self._local_function(value)
        if body is None:
            return None
        return tuple(sorted({parser.text(node) for node in parser.captures(_QUALIFIED_TYPES, body).get("type", [])}))

    def _local_function(self, value: tree_sitter.Node) -> tree_sitter.Node | None:
        """The function literal a local is declared with and never given another value (openyurt's
        `trimManagedFields := func(obj interface{}) …`, then `DefaultTransform: trimManagedFields`)."""
        declaration = self.resolver.declaration(self.file, value) if value.type == "identifier" else None
        declared = declaration.value_node if declaration is not None else None
        if declaration is None or declared is None or declared.type != "func_literal":
            return None
        return None if self.resolver.reassigned(self.file, value, declaration) else declared

    def _assigned_literals(self, value: tree_sitter.Node) -> list[tree_sitter.Node] | None:
        """The literals a local declared without a value (`var byLabel cache.ByObject`) is assigned before it is
        read (grafana-operator's selector by sharding labels, or by its own), where every write is such an
        assignment, outside function literals; None otherwise."""
        declaration = self.resolver.declaration(self.file, value) if value.type == "identifier" else None
        if declaration is None or declaration.value_node is not None:
            return None
        literals = [written for written, _ in self.resolver.assignments_before(self.file, value) or ()]
        if any(written.type != "composite_literal" for written in literals):
            return None
        return literals or None

    def _by_object_entry(
        self,
        key: tree_sitter.Node,
        value: tree_sitter.Node,
        named: ObjectRef | None = None,
        at: tuple[GoFile, tree_sitter.Node] | None = None,
        option: str = "ByObject",
    ) -> None:
        """`named`, `at`: the object a helper's caller names for the entry's key, and that call; `option`: the
        map the entry is in, as messages name it."""
        found = named or self.resolver.object_of(self.file, key)
        if found is not None and found.is_list:
            return  # `&corev1.SecretList{}`: keyed by SecretList's GroupVersionKind, no informer of Secret reads it
        if found is None:
            self._entries_named_elsewhere(key, value, option)
            return
        found_literal = literal_of(self.resolver, self.file, value) or self._returned_literal(value)
        entry_file, entry = found_literal if found_literal is not None else (self.file, None)
        assigned = self._assigned_literals(value) if entry is None and at is None else None
        if assigned:
            # `var byLabel cache.ByObject` given a literal in each branch: each entry holds where its write runs
            for literal in assigned:
                self._by_object_entry(key, literal, found, (self.file, literal), option)
            return
        if entry is None:
            # `&corev1.Secret{}: selectorFor(ns)`: an entry whose contents cannot be seen counts (SPEC §1)
            shown = " ".join(parser.text(value).split())
            text = f"{option} entry for {found.text}: {shown} (contents not visible)"
            self._add(Mitigation.BY_OBJECT, found.kind, key, text, at=at, package=found.package)
            return
        fields = {name: " ".join(parser.text(node).split()) for name, node in keyed_elements(entry)}
        nodes = dict(keyed_elements(entry))
        if "Transform" in fields and self._second_cache(key) is None:
            names = self._named_types(nodes["Transform"])
            where_file, where = at or (self.file, key)
            reaches = self.links.reaching(where_file, where)
            text = f"Transform: {fields['Transform']}"
            self.policy.transforms.append(Transform(found.kind, where_file.span(where), text, names, reaches))
        narrowing = [
            name
            for name in ("Label", "Field", "Namespaces")
            if name in fields
            and (
                self._names_a_namespace(nodes[name])
                if name == "Namespaces"
                else not self._selects_everything(nodes[name])
            )
        ]
        # A field the entry sets, to anything but nil, takes the place of the cache's default for its kind.
        replaces = frozenset(
            default
            for name, defaults in _REPLACED_DEFAULTS.items()
            if fields.get(name, "nil") != "nil"
            for default in defaults
        )
        detail = fields_detail(entry_file, nodes["Field"], self.resolver) if "Field" in narrowing else ""
        # selectors set only under a setting off by default narrow only with it (`Label: sel`, sel nil unless
        # --watch-filter is given); those of a helper's literal are not followed there
        built = [
            (self._namespaces_built(nodes[name]) if name == "Namespaces" else self._selector_built(nodes[name]))
            if entry_file is self.file
            else None
            for name in narrowing
        ]
        condition = built[0] if built and all(built) else None
        if narrowing:
            # `{cache.AllNamespaces: {LabelSelector: sel}, …}` narrows by the selectors, not by the namespaces
            by_selectors = "Namespaces" in narrowing and self._selects_every_namespace(nodes["Namespaces"])
            shown_fields = [
                "Namespaces (every namespace by a selector)" if name == "Namespaces" and by_selectors else name
                for name in narrowing
            ]
            text = f"{option} entry for {found.text} sets {', '.join(shown_fields)}"
        else:
            written = [f"{name}: {fields[name]}" for name in ("Label", "Field", "Namespaces") if name in fields]
            text = f"{option} entry for {found.text}" + (f" sets {', '.join(written)}" if written else "")
        effective = bool(narrowing)
        # namespaces read as is from a setting, the entry's only narrowing: every namespace if it is empty
        only_namespaces = narrowing == ["Namespaces"] and entry_file is self.file
        assumed = self._unseen_setting(nodes["Namespaces"]) if only_namespaces else ""
        self._add(
            Mitigation.BY_OBJECT,
            found.kind,
            key,
            text,
            effective,
            condition,
            detail=detail,
            replaces=replaces,
            at=at,
            assumed=assumed,
            package=found.package,
        )

    def _returned_literal(self, value: tree_sitter.Node) -> tuple[GoFile, tree_sitter.Node] | None:
        """The literal a module function called here returns from its one return (`wildcardsecret.
        SecretCacheByObject()` returning `cache.ByObject{…}`), also through a local holding the call, with the
        function's file."""
        held = self.resolver.held_value(self.file, value) if value.type == "identifier" else None
        if held is not None and held[0] is self.file:
            value = held[1]
        info = self.resolver.callee(self.file, value) if value.type == "call_expression" else None
        returned = returned_values(info.node) if info is not None else []
        if info is None or len(returned) != 1:
            return None
        return literal_of(self.resolver, info.file, returned[0])

    def _holds_an_entry(self, name: tree_sitter.Node, stored_at: tree_sitter.Node) -> bool:
        """Whether a local stored into a map holds a ByObject entry: declared so (`var e cache.ByObject`), or
        copied from where it is stored back (`e := opts.ByObject[pod]`, then `opts.ByObject[pod] = e`)."""
        if _is_one_of(self.resolver.type_of(self.file, name), _SELECTOR_TYPES):
            return True
        declaration = self.resolver.declaration(self.file, name)
        copied = declaration.value_node if declaration is not None else None
        return copied is not None and " ".join(parser.text(copied).split()) == " ".join(parser.text(stored_at).split())

    def _entry_option(self, entry: tree_sitter.Node) -> str:
        """The map an entry held in a local is stored in, as messages name it: an ObjectSelector is an entry of
        the older SelectorsByObject."""
        typed = self.resolver.type_of(self.file, entry)
        return "SelectorsByObject" if typed is not None and typed.is_(CR_CACHE, "ObjectSelector") else "ByObject"

    def _entry_fields_written(self, key: tree_sitter.Node, name: tree_sitter.Node) -> None:
        """`e.Label = sel; opts.ByObject[pod] = e`: each selector field written to the local before it is stored
        back is the entry's, under the conditions of its write (agent-sandbox's label behind a flag)."""
        found = self.resolver.object_of(self.file, key)
        declaration = self.resolver.declaration(self.file, name)
        function = self.file.enclosing_function(name)
        if found is None or declaration is None or function is None:
            return
        for _, _, targets, values in self.file.assignments():
            for target, value in zip(targets, values, strict=False):
                operand = target.child_by_field_name("operand") if target.type == "selector_expression" else None
                field_name = parser.text(target.child_by_field_name("field")) if operand is not None else ""
                if (
                    operand is None
                    or field_name not in ("Label", "Field", "Namespaces")
                    or not function.start_byte <= target.start_byte < name.start_byte
                    or parser.text(operand) != parser.text(name)
                    or self.resolver.declaration(self.file, operand) != declaration
                ):
                    continue
                effective = (
                    self._names_a_namespace(value)
                    if field_name == "Namespaces"
                    else not self._selects_everything(value)
                )
                built = self._selector_built(value)
                if field_name == "Namespaces" and _makes_empty_map(value):
                    # `e.Namespaces = make(…)`, then `e.Namespaces[sa.Namespace] = cache.Config{…}` (operator-
                    # controller's pull-secret cache): the keys written before the entry is stored name them
                    keys = self._keys_written(target, function.start_byte, name.start_byte)
                    effective = any(self._names_a_namespace(key) for key, _ in keys)
                    conditions = [self.evaluator.condition(self.file, write) for _, write in keys]
                    built = _all_off_by_default(conditions) if effective else None
                text = f"{self._entry_option(name)} entry for {found.text} sets {field_name}"
                self._add(Mitigation.BY_OBJECT, found.kind, target, text, effective, built, package=found.package)

    def _keys_written(
        self, target: tree_sitter.Node, start: int, end: int
    ) -> list[tuple[tree_sitter.Node, tree_sitter.Node]]:
        """The keys written to a map field of a local (`e.Namespaces[key] = …`) between two offsets, each with
        the assignment's target."""
        written = " ".join(parser.text(target).split())
        found = []
        for assignment in self.file.assignments():
            for element in assignment.targets:
                operand = element.child_by_field_name("operand") if element.type == "index_expression" else None
                index = element.child_by_field_name("index") if operand is not None else None
                if (
                    operand is not None
                    and index is not None
                    and start <= element.start_byte < end
                    and " ".join(parser.text(operand).split()) == written
                ):
                    found.append((index, element))
        return found

    # -- option fields -------------------------------------------------------------------------------
    def _option(self, name: str, value: tree_sitter.Node, anchor: tree_sitter.Node, client: Span | None = None) -> None:
        """`client`: the CacheOptions of a client built with client.New over a cache, which the option is in."""
        shown = " ".join(parser.text(value).split())
        if name in ("Namespace", "Namespaces", "DefaultNamespaces"):
            self._namespaces(name, value, anchor)
        elif name in ("DefaultLabelSelector", "DefaultFieldSelector"):
            effective = not self._selects_everything(value)
            reads_fields = name == "DefaultFieldSelector" and effective
            detail = fields_detail(self.file, value, self.resolver) if reads_fields else ""
            built = self._selector_built(value) or (self._selects_all_by_default(value) if effective else None)
            self._add(Mitigation.DEFAULT_SELECTOR, None, anchor, name, effective, built, detail=detail)
        elif name == "DefaultSelector":
            fields = [text for _, node in keyed_elements(value) if not self._everything(text := parser.text(node))]
            self._add(Mitigation.DEFAULT_SELECTOR, None, anchor, name, bool(fields) or value.type == "identifier")
        elif name in ("DisableFor", "ClientDisableCacheFor"):
            self._disable_for(name, value, anchor, client)
        elif name == "NewCache":
            self._filtered_cache(value, anchor)
        elif name == "NewClient" and (uncached := self._client_without_cache(value)) is not None:
            # `options.Cache = nil` before client.New (openshift's ingress operator): the manager's client reads
            # no cache, whatever kind it reads
            self._add(Mitigation.DISABLE_FOR, None, anchor, uncached, detail=NO_CACHE)
        elif name == "DefaultTransform" and shown != "nil" and self._second_cache(anchor) is None:
            names = self._named_types(value)
            reaches = self.links.reaching(self.file, anchor)
            text = f"DefaultTransform: {shown}"
            self.policy.transforms.append(Transform(None, self.file.span(anchor), text, names, reaches))
        elif name == "ReaderFailOnMissingInformer" and shown == "true":
            self._add(Mitigation.FAIL_ON_MISSING_INFORMER, None, anchor, "ReaderFailOnMissingInformer: true")
        elif name == "Unstructured" and shown == "true":
            self.policy.caches_unstructured.append(self.file.span(anchor))

    def _client_without_cache(self, value: tree_sitter.Node) -> str | None:
        """What says a NewClient function builds a client reading no cache: it empties the cache options it is
        given, or (controller-runtime before v0.15, whose NewClient is handed the cache) it leaves that cache
        unused (node-observability-operator's `func(_ cache.Cache, config, options, _ ...client.Object)`
        returning `client.New(config, options)`); the function may be held in a local or be a module's."""
        function = value
        if value.type in ("identifier", "selector_expression"):
            held = self.resolver.held_value(self.file, value)
            info = self.resolver.function_named(self.file, value) if held is None else None
            function = held[1] if held is not None else info.node if info is not None else value
        dropped = _cache_dropped(function)
        if dropped is not None:
            return f"NewClient sets `{' '.join(parser.text(dropped).split())}`"
        if _cache_ignored(function):
            return f"NewClient leaves the cache it is given unused (`{' '.join(parser.text(value).split())[:60]}`)"
        return None

    def _namespaces_built(self, value: tree_sitter.Node) -> Condition | None:
        """What makes a namespace map or list name a namespace, where by default it names every one (a key of
        a flag that is empty by default, a helper returning an empty map): see `_built_condition` and
        `_every_namespace_condition`."""
        built = self._built_condition(value)
        if built is None and value.type == "composite_literal":
            keys = [key for key, _ in keyed_entries(value)] or literal_items(value)
            built = self._every_namespace_condition(keys)
        return built

    def _selector_built(self, value: tree_sitter.Node) -> Condition | None:
        """For a selector a local holds that is nil until assigned, and assigned only under conditions false by
        default (`var sel labels.Selector; if watchFilter != "" { sel = … }`, k0smotron): those conditions."""
        declaration = self.resolver.declaration(self.file, value) if value.type == "identifier" else None
        if declaration is None or declaration.parameter_index >= 0:
            return None
        if declaration.value_node is not None and not self._everything(parser.text(declaration.value_node)):
            return None
        return _all_off_by_default(self._written_under(value, whole=True))

    def _selects_all_by_default(self, value: tree_sitter.Node) -> Condition | None:
        """For a selector a setting builds, one that selects everything while the setting is empty: grafana-
        operator's `getLabelSelectors(WATCH_LABEL_SELECTORS)`, `labels.Everything()` unless it is given. The
        evaluator reads selectors as the strings they print."""
        call = value
        if value.type == "identifier" and (declaration := self.resolver.declaration(self.file, value)) is not None:
            call = declaration.value_node or value
        info = self.resolver.callee(self.file, call) if call.type == "call_expression" else None
        # a selector parsed from a setting as is counts (SPEC §1): only a helper's own branch selecting
        # everything is followed
        if info is None or not any(self._everything(parser.text(node)) for node in returned_values(info.node)):
            return None
        evaluated = self.evaluator.value(self.file, value, {}, 0)
        printed = evaluated.value if isinstance(evaluated, Val) else None
        if isinstance(printed, tuple) and printed:  # `labels.Parse(s)`: the selector and its error
            printed = printed[0]
        if printed != "" or not isinstance(evaluated, Val) or not evaluated.origin:
            return None
        return Condition(given(evaluated.origin), self._turned_on_at(value), False)

    def _filtered_cache(self, value: tree_sitter.Node, anchor: tree_sitter.Node) -> None:
        """`NewCache: filteredcache.NewFilteredCacheBuilder(selectors)` (IBM's controller-filtered-cache): the
        cache keeps, of each kind its map names, only what the kind's selectors select (per-kind scope)."""
        function = value.child_by_field_name("function") if value.type == "call_expression" else None
        operand = function.child_by_field_name("operand") if function is not None else None
        if operand is None or self.file.imports.get(parser.text(operand)) != _FILTERED_CACHE:
            return
        arguments = parser.named(value.child_by_field_name("arguments") or value)
        found_literal = literal_of(self.resolver, self.file, arguments[0]) if arguments else None
        selectors = found_literal[1] if found_literal is not None else None
        if selectors is None:
            shown = " ".join(parser.text(value).split())
            self._add(Mitigation.BY_OBJECT, None, anchor, f"NewCache: {shown} (selectors not visible)")
            return
        for key, _ in keyed_entries(selectors):
            kind = self._gvk_kind(key)
            if kind is not None:
                self._add(Mitigation.BY_OBJECT, kind, key, f"filteredcache selectors for {kind}")

    def _gvk_kind(self, key: tree_sitter.Node) -> str | None:
        """The kind a GroupVersionKind names: `corev1.SchemeGroupVersion.WithKind("Secret")`, or a
        `schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}` literal."""
        kinds = self.resolver.kinds
        if key.type in ("composite_literal", "literal_value"):
            fields = {name: self.resolver.string_value(self.file, node) for name, node in keyed_elements(key)}
            group, version, named = fields.get("Group") or "", fields.get("Version") or "v1", fields.get("Kind")
            package = f"k8s.io/api/{group.split('.')[0] or 'core'}/{version}"
            return kinds.go_kind(package, named) if named else None
        function = key.child_by_field_name("function") if key.type == "call_expression" else None
        if function is None or function.type != "selector_expression":
            return None
        if parser.text(function.child_by_field_name("field")) != "WithKind":
            return None
        group_version = function.child_by_field_name("operand")
        alias = group_version.child_by_field_name("operand") if group_version is not None else None
        imported = self.file.imports.get(parser.text(alias)) if alias is not None else None
        arguments = parser.named(key.child_by_field_name("arguments") or key)
        kind_name = self.resolver.string_value(self.file, arguments[0]) if arguments else None
        return kinds.go_kind(imported, kind_name) if imported and kind_name else None

    def _entries_named_elsewhere(self, key: tree_sitter.Node, value: tree_sitter.Node, option: str) -> None:
        """The entries of a key that names no kind itself: one for each object of a list a loop variable takes in
        turn (`for _, obj := range []client.Object{&corev1.Secret{}, …} { byObject[obj] = … }`), or of each
        kind a helper's callers pass for its parameter."""
        ranged = self._ranged_objects(key)
        for item_file, item in ranged:
            if (found := self.resolver.object_of(item_file, item)) is not None:
                self._by_object_entry(key, value, found, None, option)
        if ranged:
            return
        for caller_file, call, object_ref in entries_by_callers(self.resolver, self.evaluator.calls, self.file, key):
            self._by_object_entry(key, value, object_ref, (caller_file, call), option)

    def _ranged_objects(self, key: tree_sitter.Node) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The objects a loop variable takes in turn, where it ranges over a list of objects the code writes
        (`for _, obj := range []client.Object{…}`, or a local holding one); none otherwise."""
        declaration = self.resolver.declaration(self.file, key) if key.type == "identifier" else None
        ranged = declaration.ranged_node if declaration is not None else None
        if ranged is None or declaration is None or not _written_for_every_item(key, ranged):
            return []
        items = ObjectLists(self.resolver, self.evaluator).objects_in(self.file, ranged, 0)
        # an item the list holds only under a setting off by default (`if restrict { objs = append(objs, …) }`)
        return [
            (file, item)
            for file, item in items
            if (condition := self.evaluator.condition(file, item)) is None or condition.holds_by_default is not False
        ]

    def _disable_for(
        self, name: str, value: tree_sitter.Node, anchor: tree_sitter.Node, client: Span | None = None
    ) -> None:
        seen = 0  # the items seen, of any kind (`[]client.Object{&rbacv1.ClusterRoleBinding{}}`)
        lists = ObjectLists(self.resolver, self.evaluator)
        passed = lists.passed(self.file, value)
        if passed is not None:
            self._disable_for_passed(name, passed, anchor, client)
            return
        appended = append_arguments(value)
        # `append(disableCacheFor, &corev1.ServiceAccount{})`: what the variable (or the helper returning the
        # list: `append(util.Uncached(), &v1.Widget{})`) holds, and what is appended
        base = appended[0] if appended else None
        held = lists.objects_in(self.file, base, 0) if base is not None and base.type in _LIST_HOLDERS else ()
        for file, item in [*held, *lists.objects_in(self.file, value, 0)]:
            found = self.resolver.object_of(file, item)
            if found is not None or _written_object(item):
                # an object written out is seen whatever its kind; an item held elsewhere (`info.object` of a
                # loop over a table) may be any kind
                seen += 1
            # `&corev1.SecretList{}`: the client looks DisableFor up by the read's kind, Secret, never SecretList
            if found is not None and not found.is_list:
                at = (file, item) if file is not self.file else None
                self._add(
                    Mitigation.DISABLE_FOR,
                    found.kind,
                    item if at is None else anchor,
                    f"{name} lists {found.text}",
                    at=at,
                    client=client,
                    package=found.package,
                )
        shown = " ".join(parser.text(value).split())
        if not seen and value.type != "composite_literal" and shown != "nil" and not self._never_filled(value):
            # A list whose contents cannot be seen still excludes what it holds: it counts (SPEC §1); one seen to
            # hold other kinds only excludes none of these.
            self._add(Mitigation.DISABLE_FOR, None, anchor, f"{name}: {shown} (contents not visible)", client=client)

    def _disable_for_passed(
        self,
        name: str,
        passed: list[list[tuple[GoFile, tree_sitter.Node]]],
        anchor: tree_sitter.Node,
        client: Span | None,
    ) -> None:
        """A DisableFor list a function is given: the kinds every call passes are left out of the cache (those of
        some calls only are not, for the others)."""
        types = [
            {
                (found.kind, found.package): (file, item, found)
                for file, item in items
                if (found := self.resolver.object_of(file, item)) and not found.is_list
            }
            for items in passed
        ]
        for typed in sorted(set(types[0]).intersection(*types[1:])):
            file, item, found = types[0][typed]
            at = (file, item) if file is not self.file else None
            self._add(
                Mitigation.DISABLE_FOR,
                found.kind,
                anchor,
                f"{name} lists {found.text} at every call",
                at=at,
                client=client,
                package=found.package,
            )

    def _never_filled(self, value: tree_sitter.Node) -> bool:
        """A local list declared empty (`var disableCacheFor []client.Object`, or `:= []client.Object{}`) that
        its function never writes again nor hands on by address: visibly empty, it excludes nothing."""
        declaration = self.resolver.declaration(self.file, value) if value.type == "identifier" else None
        if declaration is None or declaration.parameter_index >= 0 or declaration.ranged_node is not None:
            return False
        declared = declaration.value_node
        if declared is not None and not (declared.type == "composite_literal" and not literal_items(declared)):
            return False
        if self.resolver.reassigned(self.file, value, declaration, results=True):
            return False
        function = innermost_function(value)
        uses = uses_in(function, declaration.name) if function is not None else []
        return not any(use.parent is not None and parser.is_unary(use.parent, "&") for use in uses)

    # -- assignments and calls -----------------------------------------------------------------------
    def _assignment(self, left: tree_sitter.Node, right: tree_sitter.Node) -> None:
        if left.type == "index_expression":
            self._entry_assignment(left, right)
            return
        if left.type != "selector_expression":
            return
        name = parser.text(left.child_by_field_name("field"))
        operand = left.child_by_field_name("operand")
        if name not in _OPTION_FIELDS or operand is None or not self._is_options(operand):
            return
        if _rewrites_itself(left, right):
            return  # `o.DefaultNamespaces = maps.Clone(o.DefaultNamespaces)`: what the options held, no scope
        if name == "NewCache":
            self._filtered_cache(right, left)  # controller-runtime's own builders on the right are read by _call
            return
        self._option(name, right, left)

    def _entry_assignment(self, left: tree_sitter.Node, right: tree_sitter.Node) -> None:
        """`byObject[&corev1.Secret{}] = cache.ByObject{…}`, `opts.DefaultNamespaces[ns] = cache.Config{}`."""
        value_type = (
            resolve_type(right.child_by_field_name("type"), self.file) if right.type == "composite_literal" else None
        )
        index = left.child_by_field_name("index")
        operand = left.child_by_field_name("operand")
        if _is_one_of(value_type, _SELECTOR_TYPES) and index is not None:
            older = value_type is not None and value_type.name == "ObjectSelector"  # a SelectorsByObject's entry
            self._by_object_entry(index, right, option="SelectorsByObject" if older else "ByObject")
        elif right.type == "identifier" and index is not None and self._holds_an_entry(right, left):
            # `entry := cache.ByObject{…}`, or a literal in each branch (`var entry cache.ByObject`)
            if literal_of(self.resolver, self.file, right) is not None or self._assigned_literals(right):
                self._by_object_entry(index, right, option=self._entry_option(right))
            self._entry_fields_written(index, right)
        elif operand is not None and parser.text(operand.child_by_field_name("field")) == "DefaultNamespaces":
            if self.resolver.ranges_over(self.file, index, operand):
                # `for ns, c := range o.DefaultNamespaces { o.DefaultNamespaces[ns] = … }`: an entry it has, no new
                # one (controller-runtime's own defaulting of each namespace's cache.Config)
                return
            effective = index is not None and self._names_a_namespace(index)
            # `opts.DefaultNamespaces[ns] = …` in a loop over `strings.Split(os.Getenv(…), ",")`: "" by default
            built = self._every_namespace_condition([index]) if index is not None and effective else None
            self._add(Mitigation.DEFAULT_NAMESPACES, None, left, "DefaultNamespaces", effective, built)

    def _is_options(self, operand: tree_sitter.Node) -> bool:
        type_ref = self.resolver.type_of(self.file, operand)
        if type_ref is not None:
            return _is_one_of(type_ref.base, _OPTION_TYPES)
        built_by = self._built_in_package(operand)
        if built_by is not None and not built_by.startswith(CONTROLLER_RUNTIME):
            return False  # `o := replace.NewReplaceOptions(…); o.Namespace = ns`: kubectl's options, not a cache's
        text = parser.text(operand)
        return text.endswith(("Cache", "Options", "options", "opts", "Opts")) or text in ("o", "opt", "cfg")

    def _built_in_package(self, operand: tree_sitter.Node) -> str | None:
        """The import path of the library function that built a local variable (`o := pkg.NewX(…)`); None
        when it is not a local built by a call of another module (the module's own functions are typed)."""
        declaration = self.resolver.declaration(self.file, operand) if operand.type == "identifier" else None
        value = declaration.value_node if declaration is not None else None
        head = value.child_by_field_name("function") if value is not None and value.type == "call_expression" else None
        if value is None or head is None or head.type != "selector_expression":
            return None
        if self.resolver.callee(self.file, value) is not None:
            return None
        qualifier = head.child_by_field_name("operand")
        return self.file.imports.get(parser.text(qualifier)) if qualifier is not None else None

    def _call(self, selector_call: Call, package: str | None, name: str) -> None:
        """A call of function `name` of `package`, or of a package variable holding one (`newManager(cfg,
        opts)`)."""
        call = selector_call.node
        if package is None:
            return
        if package == CR_CACHE and name == "MultiNamespacedCacheBuilder":
            # its namespaces, as the v0.15 `Namespaces: []string{…}` option's: `""` among them caches every one
            first = parser.first_named(call.child_by_field_name("arguments"))
            if first is None:
                self._add(Mitigation.DEFAULT_NAMESPACES, None, call, "MultiNamespacedCacheBuilder")
            else:
                self._namespaces("MultiNamespacedCacheBuilder", first, call)
        elif is_second_cache(self.file, call):
            key = second_cache_key(self.file, call)
            built = self.policy.clusters.setdefault(key, ClusterPolicy(self.file.name_span(call)))
            condition = self.evaluator.condition(self.file, call)
            built.built_by_default = bool(built.built_by_default) or (
                condition is None or condition.holds_by_default is not False
            )
        elif builds_a_workload_cache(package, name):  # its options may set nothing of its cache nor client
            built = self.policy.clusters.setdefault(WORKLOAD_CACHE, ClusterPolicy(self.file.name_span(call)))
            built.origin = self.file.name_span(call)  # where it is built, rather than an options literal in it
        elif name in _CONSTRUCTORS and package in _CONSTRUCTORS[name]:
            if package == CR_CACHE and _in_new_cache_function(call):
                return  # `NewCache: func(…) { …; return cache.New(c, o) }` builds the manager's own cache
            if package in MANAGER_PACKAGES | {MC_MANAGER} and is_idle_manager(call, started=False):
                return  # asked only for its API reader and the like: its cache never starts (dynatrace's CSI init)
            self.policy.origins.append(self.file.name_span(call))
            self.policy.builds_cache = self.policy.builds_cache or package != INFORMERS
            if package == INFORMERS:
                self.policy.factory_origins.append(self.file.name_span(call))
            condition = self.evaluator.condition(self.file, call)
            off = condition is not None and condition.holds_by_default is False
            self.policy.origin_guards.append(condition.span if off and condition is not None else None)

    def _add(
        self,
        mitigation: Mitigation,
        kind: str | None,
        node: tree_sitter.Node,
        text: str,
        is_effective: bool = True,
        built: Condition | None = None,
        detail: str = "",
        at: tuple[GoFile, tree_sitter.Node] | None = None,
        replaces: frozenset[str] = frozenset(),
        client: Span | None = None,
        assumed: str = "",
        package: str = "",
    ) -> None:
        """`at`: where the restriction is written when that is in a helper of another file (`node` is then
        where the options take it); `client`, `assumed` and `package`: see Restriction."""
        if not self._may_run(node):
            return  # options a function builds that no code calls or hands on (a leftover): no manager takes them
        file, written = at if at is not None else (self.file, node)
        if unread_store(self.resolver, file, written):
            return  # `opts.Cache = …` after NewManager took its copy of the options, or on a copy no call is given
        guarded = self.copied_at if self.copied_at is not None and at is None else written
        condition = self.evaluator.condition(file, guarded)
        if built is not None and (condition is None or condition.holds_by_default is not False):
            condition = built
        cache_file, cache = self._second_cache(node) or (self.file, None)
        dropped = self.replaced.replacing(self.file, node) if cache is None and client is None else None
        restriction = Restriction(
            mitigation=mitigation,
            kind=kind,
            span=file.span(written),
            text=text,
            is_effective=is_effective and dropped is None,
            condition=condition,
            detail=detail,
            replaces=replaces,
            reaches=self.links.reaching(file, written),
            client=client,
            dropped_by=Evidence(dropped.span, f"`{dropped.shown} = …`") if dropped is not None else None,
            assumed=assumed,
            package=package,
        )
        workload = in_workload_options(self.file, node) if at is None else None
        if workload is not None:
            owner = self.policy.clusters.setdefault(WORKLOAD_CACHE, ClusterPolicy(self.file.span(workload)))
            owner.restrictions.append(restriction)
            return
        if cache is None:
            self.policy.restrictions.append(restriction)
            return
        built = self.evaluator.condition(cache_file, cache)
        if condition is not None and built is not None and built.span == condition.span:
            # written under the very condition the cache is built under: whenever the cache exists, it applies
            restriction = replace(restriction, condition=None)
        key = second_cache_key(cache_file, cache)
        owner = self.policy.clusters.setdefault(key, ClusterPolicy(cache_file.name_span(cache)))
        owner.restrictions.append(restriction)

    def _built_condition(self, value: tree_sitter.Node) -> Condition | None:
        """Follow a namespace map into the code that builds it: entries added only under a condition that is
        false by default, or a helper that returns an empty map by default, make the scope conditional."""
        if value.type not in ("identifier", "call_expression", "selector_expression"):
            return None
        if value.type == "identifier" and (entries := self._written_under(value, whole=False)):
            # the map made whole with entries counts too: `if ns != "" { m = map…{ns: {}} }` beside
            # `if extra != "" { m[extra] = … }` turns on with either
            filled = [self.evaluator.condition(self.file, node) for node in self._filled_whole(value)]
            if (condition := _all_off_by_default(entries + filled)) is not None:
                return condition
            # entries written by default may all be "" (`for _, ns := range strings.Split(flag, ",")` of an empty
            # flag): what the map holds decides
        if value.type == "identifier" and self._has_an_unseen_key(value):
            return None  # `m[ns] = cache.Config{}` with ns read from the environment as is: a namespace (SPEC §1)
        evaluated = self.evaluator.value(self.file, value, {}, 0)
        # `{cache.AllNamespaces: {}}` by default (datadog-operator's helper when no variable is set): every
        # namespace, as an empty map is
        if isinstance(evaluated, Val) and _every_namespace(evaluated.value) and evaluated.origin:
            return Condition(given(evaluated.origin), self._turned_on_at(value), False)
        if isinstance(evaluated, Val) and (_is_empty(evaluated.value) or _every_namespace(evaluated.value)):
            assigned = self._written_under(value, whole=True) if value.type == "identifier" else []
            if (condition := _all_off_by_default(assigned)) is not None:
                return condition  # `if !cfg.SeesEveryNamespace() { namespaces = … }`: what turns it on
            text = given(evaluated.origin) if evaluated.origin else f"`{parser.text(value)}` has entries"
            return Condition(text, self._turned_on_at(value), False)
        return None

    def _turned_on_at(self, value: tree_sitter.Node) -> Span:
        """Where the conditional code is: for a helper's call, the first condition false by default that keeps
        one of its returns from running (`if found { return map…{ns: {}} }` of emqx's getWatchNamespace), else
        the value itself."""
        info = self.resolver.callee(self.file, value) if value.type == "call_expression" else None
        if info is None:
            return self.file.span(value)
        for statement in return_statements(info.node):
            guards = self.evaluator.guarding.guards(info.file, statement, {})
            off = next((guard for guard in guards if guard.holds is False), None)
            if off is not None:
                return off.span
        return self.file.span(value)

    def _namespaces(self, name: str, value: tree_sitter.Node, anchor: tree_sitter.Node) -> None:
        """`Namespace: ns` (before v0.15), `Namespaces: []string{…}`, `DefaultNamespaces: map[string]…{…}`, and
        the namespaces given to `cache.MultiNamespacedCacheBuilder` (before v0.15)."""
        if name == "Namespace":
            shown = " ".join(parser.text(value).split())
            built = self._every_namespace_condition([value])
            text = f"Namespace: {shown}"
            effective = not self._every_namespace_key(value)
            assumed = self._unseen_setting(value)
            self._add(Mitigation.DEFAULT_NAMESPACES, None, anchor, text, effective, built, assumed=assumed)
            return
        built = self._namespaces_built(value)
        if built is not None and name == "MultiNamespacedCacheBuilder" and self._empty_by_default(value):
            built = None  # an empty list makes no namespace's cache (v0.14), or fails (v0.15): nothing is cached
        lists_every = self._lists_every_namespace(value) or (value.type == "identifier" and self._lists_every(value))
        effective = self._names_a_namespace(value) and not lists_every
        detail = EVERY_NAMESPACE if lists_every else _namespaces_detail(value)
        assumed = self._unseen_setting(value) if effective else ""
        self._add(Mitigation.DEFAULT_NAMESPACES, None, anchor, name, effective, built, detail, assumed=assumed)
        if name == "DefaultNamespaces" and value.type == "composite_literal":
            self._namespace_selectors(value, anchor)

    def _empty_by_default(self, value: tree_sitter.Node) -> bool:
        """Whether a namespace list holds no namespace at all by default (`strings.Fields(flag)` of an empty
        flag), rather than `""`."""
        evaluated = self.evaluator.value(self.file, value, {}, 0)
        return isinstance(evaluated, Val) and isinstance(evaluated.value, list | tuple) and not evaluated.value

    def _unseen_setting(self, value: tree_sitter.Node) -> str:
        """The setting a namespace scope names its namespace by, read as is (`{os.Getenv("WATCH_NAMESPACE"):
        {}}`, `Namespace: watchNamespace`); "" where the code shows every namespace it names."""
        if value.type == "composite_literal":
            nodes = [key for key, _ in keyed_entries(value)] or literal_items(value)
        elif value.type == "identifier" and self.resolver.declaration(self.file, value) is not None:
            nodes = [key for key, _ in self._entries(value)] or [value]
        else:
            nodes = [value]
        for node in nodes:
            found = self.evaluator.value_at(self.file, node)
            if isinstance(found, Val) and found.unseen and isinstance(found.value, str | None):
                return found.origin or "a setting"
        return ""

    def _names_a_namespace(self, value: tree_sitter.Node) -> bool:
        """False for an empty literal or one that lists all namespaces (`{ns: {}, metav1.NamespaceNone: {}}`: the
        `""` entry caches every namespace the others leave out); an unseen value counts (SPEC §1)."""
        if value.type == "call_expression" and parser.text(value.child_by_field_name("function")) == "make":
            return False  # `make(map[string]cache.Config, n)`: empty, the entries written after it name them
        if value.type != "composite_literal":
            return value.type not in ("nil",) and not self._every_namespace_key(value)
        keys = _literal_namespace_nodes(value)
        return any(not self._every_namespace_key(key) for key in keys) and not self._lists_every_namespace(value)

    def _every_namespace_key(self, key: tree_sitter.Node) -> bool:
        """Whether a namespace names every namespace: `""`, controller-runtime's cache.AllNamespaces or the API's
        NamespaceAll / NamespaceNone under whatever import name, or a name of the module holding `""` whatever the
        settings."""
        if parser.text(key) in _ALL_NAMESPACES:
            return True
        if key.type == "selector_expression" and (operand := key.child_by_field_name("operand")) is not None:
            package = self.file.imports.get(parser.text(operand))
            return (package, parser.text(key.child_by_field_name("field"))) in _EVERY_NAMESPACE_CONSTANTS
        # `const allNamespaces = ""`: "" whatever the settings (a variable a flag, the environment or code fills is
        # theirs)
        return key.type == "identifier" and self._constant(key) and self.resolver.string_value(self.file, key) == ""

    def _constant(self, name: tree_sitter.Node) -> bool:
        """Whether a name is a constant's, local or of a package."""
        declaration = self.resolver.declaration(self.file, name)
        if declaration is not None:
            declared: tree_sitter.Node | None = declaration.node
        else:
            variable = self.resolver.package_variable(self.file, name)
            held = self.resolver.declarations.variables.get(variable) if variable is not None else None
            declared = held.value_node if held is not None else None
        while declared is not None and declared.type not in ("const_spec", "var_spec", "source_file"):
            declared = declared.parent
        return declared is not None and declared.type == "const_spec"

    def _all_namespaces_configs(
        self, entries: list[tuple[tree_sitter.Node, tree_sitter.Node]]
    ) -> list[tree_sitter.Node]:
        """The cache.Config of a namespace map's all-namespaces entries (`""`, `cache.AllNamespaces`)."""
        return [config for key, config in entries if self._every_namespace_key(key)]

    def _lists_every_namespace(self, value: tree_sitter.Node) -> bool:
        """Whether a namespace literal lists all namespaces beside others: the `""` key, in a slice, or in a map
        with a cache.Config that selects nothing (`{cache.AllNamespaces: {LabelSelector: sel}, ns: {}}` narrows
        by sel)."""
        if value.type != "composite_literal":
            return False
        entries = keyed_entries(value)
        if not entries:
            keys = _literal_namespace_nodes(value)
            return len(keys) > 1 and any(self._every_namespace_key(key) for key in keys)
        return len(entries) > 1 and any(
            not self._config_selects(config) for config in self._all_namespaces_configs(entries)
        )

    def _selects_every_namespace(self, value: tree_sitter.Node) -> bool:
        """Whether a namespace map literal caches every namespace, each through a selector its all-namespaces
        entry's cache.Config sets."""
        entries = keyed_entries(value) if value.type == "composite_literal" else []
        return any(self._config_selects(config) for config in self._all_namespaces_configs(entries))

    def _config_selects(self, config: tree_sitter.Node | None) -> bool:
        """Whether a namespace's cache.Config (a literal, or unseen: None) sets a label or field selector other
        than everything."""
        if config is None or config.type not in ("literal_value", "composite_literal"):
            return False
        return any(
            parser.text(key) in _CONFIG_SELECTORS and not self._selects_everything(value)
            for key, value in keyed_entries(config)
        )

    def _may_run(self, node: tree_sitter.Node) -> bool:
        """Whether the function around a node may run: not a plain function of a binary's packages that no
        code of the binaries calls or hands on as a value (methods run through interfaces, main and init at
        start-up; a library's functions are for other modules to call)."""
        deployed = self.evaluator.deployed_packages()
        if deployed is None or self.file.package_path not in deployed:
            return True
        return self.evaluator.calls.runs_when_reached(self.file, node)

    def _selects_everything(self, value: tree_sitter.Node) -> bool:
        """`_everything`, also for a selector that prints "" whatever the settings: `labels.SelectorFromSet(nil)`,
        `labels.Set{}.AsSelector()`, `labels.Parse("")`, or a local only holding one (`all := labels.Everything()`).
        A selector a setting leaves empty is told by `_selects_all_by_default`."""
        if self._everything(" ".join(parser.text(value).split())):
            return True
        evaluated = self.evaluator.value(self.file, value, {}, 0)
        printed = evaluated.value if isinstance(evaluated, Val) else None
        if isinstance(printed, tuple) and printed:  # `labels.Parse(s)`: the selector and its error
            printed = printed[0]
        return isinstance(evaluated, Val) and printed == "" and not evaluated.origin and not evaluated.unseen

    def _everything(self, text: str) -> bool:
        """A selector that selects everything: nil, or `labels.Everything()` / `fields.Everything()` under any
        name the file imports the package as (`k8slabels.Everything()`)."""
        if text in _EVERYTHING:
            return True
        alias, _, call = text.partition(".")
        return call == "Everything()" and self.file.imports.get(alias) in _SELECTOR_PACKAGES

    def _namespace_selectors(self, value: tree_sitter.Node, anchor: tree_sitter.Node) -> None:
        """`DefaultNamespaces: {cache.AllNamespaces: {LabelSelector: sel}}`: a selector in the cache.Config of
        every namespace entry narrows every kind there, as a default selector does."""
        configs = [dict(keyed_elements(config)) for _, config in keyed_entries(value)]
        selected = [
            {
                name: node
                for name, node in fields.items()
                if name in _CONFIG_SELECTORS and not self._selects_everything(node)
            }
            for fields in configs
        ]
        if not configs or not all(selected):
            return
        field = next((found["FieldSelector"] for found in selected if "FieldSelector" in found), None)
        detail = fields_detail(self.file, field, self.resolver) if field is not None else ""
        names = " and ".join(sorted({name for found in selected for name in found}))
        text = f"DefaultNamespaces entries set {names}"
        self._add(Mitigation.DEFAULT_SELECTOR, None, anchor, text, detail=detail)

    def _every_namespace_condition(self, names: list[tree_sitter.Node]) -> Condition | None:
        """When a namespace a scope names is `""` by default, computed (`{cacheNamespace(): {}}` with a helper
        returning metav1.NamespaceAll unless the configuration names one; `{namespace: {}, "kube-system": {}}`
        with --namespace empty): what makes it a namespace, the `""` key caching every namespace the others
        leave out. None where each names a namespace, is not known, or is read from the environment as is
        (SPEC §1)."""
        for node in names:
            if node.type in parser.STRING_LITERALS or self._every_namespace_key(node):
                continue  # a namespace named, or the literal `""` key, which `_lists_every_namespace` reads
            every = self.evaluator.every_namespace(self.file, node)
            if every is not None:
                return Condition(every[1], self.file.span(node), False)
        return None

    def _lists_every(self, name: tree_sitter.Node) -> bool:
        """Whether a local map gets by default the key of all namespaces beside others (`namespaces :=
        map…{ns: {}, metav1.NamespaceNone: {}}`) with a cache.Config that selects nothing: every namespace is
        cached."""
        return any(
            parser.text(key) in _ALL_NAMESPACES
            and not self._config_selects(config)
            and not _all_off_by_default([self.evaluator.condition(self.file, key)])
            for key, config in self._entries(name)
        )

    def _has_an_unseen_key(self, name: tree_sitter.Node) -> bool:
        """Whether a local map gets by default a key the code does not show (read from the environment as is),
        in the literal it is made with or by `m[key] = …`: the inline `{ns: {}}` counts, and so does this."""
        for key, _ in self._entries(name):
            condition = self.evaluator.condition(self.file, key)
            if condition is not None and condition.holds_by_default is False:
                continue
            found = self.evaluator.value_at(self.file, key)
            if isinstance(found, Val) and found.unseen:
                return True
        return False

    def _entries(self, name: tree_sitter.Node) -> list[tuple[tree_sitter.Node, tree_sitter.Node | None]]:
        """The keys a local map is given, with their values where the code shows them: in a literal it is
        declared or assigned, and by `m[key] = …`."""
        text = parser.text(name)
        scope = self.resolver.scope(self.file, name)
        declaration = self.resolver.declaration(self.file, name)
        made = [*(scope.assignments.get(text, []) if scope is not None else [])]
        if declaration is not None and declaration.value_node is not None:
            made.append(declaration.value_node)
        entries: list[tuple[tree_sitter.Node, tree_sitter.Node | None]] = [
            entry for literal in made if literal.type == "composite_literal" for entry in keyed_entries(literal)
        ]
        for value in scope.element_writes.get(text, []) if scope is not None else []:
            target = assigned_to(value)
            index = target.child_by_field_name("index") if target is not None else None
            if index is not None:
                entries.append((index, value))
        return entries

    def _filled_whole(self, name: tree_sitter.Node) -> list[tree_sitter.Node]:
        """The values a local map is assigned whole that may have entries (not `m = map…{}` or `make(…)` before
        filling it)."""
        scope = self.resolver.scope(self.file, name)
        values = scope.assignments.get(parser.text(name), []) if scope is not None else []
        return [value for value in values if not _makes_empty_map(value)]

    def _written_under(self, name: tree_sitter.Node, *, whole: bool) -> list[Condition | None]:
        """The conditions of the statements that fill a local map, in source order: assigned whole
        (`namespaces = …`) or entry by entry (`namespaces[key] = …`)."""
        scope = self.resolver.scope(self.file, name)
        writes = (scope.assignments if whole else scope.element_writes) if scope is not None else {}
        return [self.evaluator.condition(self.file, value) for value in writes.get(parser.text(name), [])]


def _makes_empty_map(value: tree_sitter.Node) -> bool:
    if value.type == "composite_literal":
        return not parser.named(value.child_by_field_name("body") or value)
    return value.type == "call_expression" and parser.text(value.child_by_field_name("function")) == "make"


def _all_off_by_default(conditions: list[Condition | None]) -> Condition | None:
    """The conditions when every one is false by default, else None: any one of them applies the option."""
    found = [condition for condition in conditions if condition is not None and condition.holds_by_default is False]
    if not conditions or len(found) < len(conditions):
        return None
    by_text: dict[str, Condition] = {}  # the first of each text, in source order
    for condition in sorted(found, key=lambda condition: (condition.span.line, condition.span.column)):
        by_text.setdefault(condition.text, condition)
    distinct = list(by_text.values())
    if len(distinct) == 1:
        return distinct[0]
    return Condition(any_of(distinct), distinct[0].span, False)


def _namespaces_detail(value: tree_sitter.Node) -> str:
    """`namespaces a, b` when the names are written, else where they come from."""
    if value.type == "composite_literal":
        keys = _literal_namespaces(value)
        if keys and all(key[:1] in ('"', "`") for key in keys):
            return "namespaces " + ", ".join(key.strip('"`') for key in keys)
    return f"namespaces from `{' '.join(parser.text(value).split())[:60]}`"


def _every_namespace(value: object) -> bool:
    """A namespace map whose only key is `""` (cache.AllNamespaces), or a namespace list holding `""`
    (`strings.Split(flag, ",")` of an empty flag)."""
    if isinstance(value, list | tuple):
        return "" in value
    return isinstance(value, dict) and set(value) == {""}


def _is_empty(value: object) -> bool:
    return value is None or (isinstance(value, str | tuple | list | dict) and len(value) == 0)


def _is_one_of(type_ref: TypeRef | None, choices: tuple[tuple[frozenset[str], str], ...]) -> bool:
    return type_ref is not None and any(type_ref.is_(packages, name) for packages, name in choices)


def _written_object(item: tree_sitter.Node) -> bool:
    """Whether a list item is an object written out (`&rbacv1.ClusterRoleBinding{}`), of whatever kind."""
    operand = item.child_by_field_name("operand") if item.type == "unary_expression" else item
    return operand is not None and operand.type == "composite_literal"


def _rewrites_itself(target: tree_sitter.Node, value: tree_sitter.Node) -> bool:
    """Whether a write gives an options field a value made from that field itself (`o.DefaultNamespaces =
    maps.Clone(o.DefaultNamespaces)`): it keeps what the field held."""
    if value.type != "call_expression":
        return False
    arguments = parser.named(value.child_by_field_name("arguments") or value)
    # one argument, the field itself (a copy); `append(o.DisableFor, …)` adds to it
    return len(arguments) == 1 and parser.text(arguments[0]) == parser.text(target)


def _written_for_every_item(key: tree_sitter.Node, ranged: tree_sitter.Node) -> bool:
    """Whether the entry keyed by a loop variable is written for each item: no `if`, switch or inner loop of the
    loop's body around the write, and no `continue` before it."""
    loop = ranged.parent.parent if ranged.parent is not None else None
    body = loop.child_by_field_name("body") if loop is not None and loop.type == "for_statement" else None
    if body is None or not parser.encloses(body, key):
        return False
    current = key.parent
    while current is not None and current != body:
        if current.type in ("if_statement", "expression_switch_statement", "type_switch_statement", "for_statement"):
            return False
        current = current.parent
    skips = parser.captures("(continue_statement) @skip", body).get("skip", [])
    return not any(skip.start_byte < key.start_byte and enclosing_loop(skip) == loop for skip in skips)


def _literal_namespaces(value: tree_sitter.Node) -> list[str]:
    """The namespaces a map or slice literal writes, as written."""
    return [parser.text(key) for key in _literal_namespace_nodes(value)]


def _literal_namespace_nodes(value: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The keys of a map literal, or the items of a slice literal, of namespaces."""
    keys = [key for key, _ in keyed_entries(value)]
    if not keys:
        body = value.child_by_field_name("body")
        keys = [parser.first_named(element) or element for element in parser.named(body)] if body is not None else []
    return keys


def _in_new_cache_function(call: tree_sitter.Node) -> bool:
    """Whether a call sits in a function literal given as manager options' NewCache (`NewCache: func(…) {…}`,
    `opts.NewCache = func(…) {…}`), or of its type, which a helper returns for that (devworkspace-operator's
    `GetCacheFunc()`): the manager calls it to build its one cache, from its own options."""
    function = innermost_function(call)
    return function is not None and (option_holder(function, "NewCache") is not None or _new_cache_type(function))


def _new_cache_type(function: tree_sitter.Node) -> bool:
    """Whether a function literal a function returns is a cache.NewCacheFunc: `func(*rest.Config, cache.Options)
    (cache.Cache, error)`; not one the code calls itself to build a cache of its own."""
    returned = function.parent.parent if function.parent is not None else None
    if returned is None or returned.type != "return_statement":
        return False
    parameters = function.child_by_field_name("parameters") if function.type == "func_literal" else None
    result = function.child_by_field_name("result") if parameters is not None else None
    types = [parser.text(item.child_by_field_name("type")) for item in parser.named(parameters)] if parameters else []
    return (
        len(types) == 2
        and types[0].endswith("rest.Config")
        and types[1].endswith(".Options")
        and result is not None
        and parser.text(result).replace(" ", "").endswith(".Cache,error)")
    )
