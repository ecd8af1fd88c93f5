"""Which fixes each Go site is offered: the manager options each binary edits, and the site-local remedies."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import partial

import tree_sitter

from watchlint.cacheoptions import CacheOptionNames, cache_option_names
from watchlint.catalog import KindIndex
from watchlint.facts import Access, CachePolicy, Mitigation, ObjectForm, Operation, Transform
from watchlint.fixes import Applicability, Fix, merged
from watchlint.go import parser
from watchlint.go.binaries import Binary
from watchlint.go.buildtags import marked_generated
from watchlint.go.clientgo import go_plural
from watchlint.go.clientrefs import FieldRef
from watchlint.go.clients import ClientGraph
from watchlint.go.edits import (
    KindType,
    OptionsAnchor,
    api_reader_fix,
    by_object_fix,
    by_object_keeping_reads_fix,
    disable_for_fix,
    only_metadata_fix,
    own_client_disable_for_fix,
    predicate_selector_fix,
)
from watchlint.go.existence import existence_test
from watchlint.go.fieldselectors import FieldKey
from watchlint.go.guards import is_failing_return
from watchlint.go.managers import (
    LiteralKey,
    is_idle_manager,
    is_new_manager,
    is_opaque,
    options_argument,
    options_literals,
)
from watchlint.go.model import CR_CLIENT, READ_FIRST, GoFile, TypeRef
from watchlint.go.module import GoModule
from watchlint.go.ownerlabel import FileLabels, WrittenPairs, built_labels, owner_label, sets_an_owner_key
from watchlint.go.pending import PendingSite, uses_in
from watchlint.go.policy import FilePolicy
from watchlint.go.rbacmarkers import Grant, missing_grant
from watchlint.go.replacedoptions import options_path
from watchlint.go.resolve import Resolver, assigned_to, struct_literal_of
from watchlint.go.scope import innermost_function, returned_values, under_condition
from watchlint.go.typedhandlers import DROPS, PANICS
from watchlint.go.workloadcaches import WORKLOAD_CACHE
from watchlint.source import Span

_OBJECT_WATCHES = frozenset({"For", "Owns", "Watches"})
# what a handler reading the kind typed does with metadata-only objects (typedhandlers)
_TYPED_HANDLER_FARES = {PANICS: "would panic on", DROPS: "its type assertion would fail on"}


@dataclass(frozen=True, slots=True)
class Anchors:
    """Per policy key, the manager options literal its fixes edit by default, and every options literal of the
    managers its binary can build: a site whose manager is known (go/managers.py) is fixed in that one."""

    default: dict[str, OptionsAnchor]
    built: dict[str, dict[LiteralKey, OptionsAnchor]] = field(default_factory=dict)

    def for_site(
        self, key: str, managers: frozenset[LiteralKey], built_at: Callable[[LiteralKey], tuple[Span, ...]]
    ) -> list[OptionsAnchor]:
        """The options to edit for a site judged by `key` and run by `managers` (empty: not known), preferred
        first: the binary's default where it runs the site, then the other managers running it; where none is
        known, the default and the literals assigned whole in its place. Where a manager running it takes
        options from no literal (`ctrl.NewManager(cfg, s.options)`), the default only where no other manager
        is seen built from it (`built_at`): those may be what it holds."""
        default = self.default.get(key)
        if any(is_opaque(manager) for manager in managers):
            if default is None or built_at((default.file.path, default.literal.start_byte)):
                return []
            return [default]
        built = self.built.get(key, {})
        running = [built[manager] for manager in sorted(managers) if manager in built]
        if not running and default is not None:
            # the default, and the literals assigned whole in its place (either reaches the manager)
            replacing = [built[manager] for manager in sorted(built) if _replaces(default, built[manager])]
            return [default, *(anchor for anchor in replacing if anchor is not default)]
        if not running:
            return []
        return sorted(running, key=lambda anchor: anchor != default)


# the owner label of a binary's code, each kind's own label where it is made up or missing, whether it is made up
_Labels = tuple[tuple[str, str] | None, dict[tuple[str, str], tuple[str, str]], bool]


def options_anchors(
    binaries: list[Binary],
    files: list[GoFile],
    policies: dict[str, FilePolicy],
    module_of: Callable[[GoFile], GoModule],
    resolver: Resolver,
    all_files: list[GoFile],
    runs_by_default: Callable[[GoFile, tree_sitter.Node], bool],
    libraries: list[tuple[str, str, frozenset[str] | None]],
) -> Anchors:
    """The manager options literal each policy's fixes edit by default: one the default deployment builds a
    manager from (not a subcommand's run only where a setting asks for it), the one a `package main` hands to
    NewManager (followed through variables and the functions that return it) where there is one, else one
    passed to NewManager, so that a short-lived manager a library builds (to bootstrap certificates, say) is
    not the one edited; a test's manager only when there is no other."""
    labels: dict[tuple[frozenset[str] | None, str], _Labels] = {}
    file_labels: dict[str, FileLabels] = {}
    written: WrittenPairs = {}
    overwritten, replacing = _overwritten_fields(all_files, resolver)

    def label(packages: frozenset[str] | None, module: GoModule) -> _Labels:
        """The owner label the binary's own code sets (kuberay's API server labels its objects otherwise than
        the operator beside it; any file counts, where constants live too), and where it sets none, the labels
        each kind it builds carries (OptionsAnchor.built_labels); a made-up one is named after the binary's
        module (seldon's `operator/`, not the `scheduler/` module a local `replace` joined to it)."""
        if (packages, module.path) not in labels:
            reached = [f for f in all_files if packages is None or f.package_path in packages]
            owner = owner_label(reached, resolver, _operator_name(module.path), written)
            made_up = owner is not None and not sets_an_owner_key(reached, resolver)
            # a kind's own label where the owner label is made up, or where none of its objects carries it
            # (odh-model-controller labels its KEDA ServiceAccount `odh-model-controller=keda-reconciler`)
            carried = {
                kind: min(pairs)
                for kind, pairs in built_labels(reached, resolver, file_labels).items()
                if pairs and (made_up or owner not in pairs)
            }
            labels[packages, module.path] = owner, carried, made_up
        return labels[packages, module.path]

    candidates = [
        (file, literal)
        for file in files
        for literal in policies.get(file.path, FilePolicy()).manager_options
        if not _returned_with_an_error(literal)
    ]
    mains, idle, uses = _main_manager_options(files, resolver) if len(candidates) > 1 else (set(), set(), {})

    def reached(packages: frozenset[str] | None) -> list[tuple[GoFile, tree_sitter.Node]]:
        return [(f, n) for f, n in candidates if packages is None or f.package_path in packages]

    def best(packages: frozenset[str] | None) -> OptionsAnchor | None:
        if not (found := reached(packages)):
            return None
        file, literal = min(
            found,
            key=lambda item: (
                item[0].path.endswith("_test.go"),  # with --include-tests: an envtest manager is never the one
                len(found) > 1 and not runs_by_default(*item),
                (item[0].path, item[1].start_byte) not in mains,
                (item[0].path, item[1].start_byte) in idle,  # a manager built for its API reader runs no site
                os.path.basename(item[0].path) != "main.go",  # of a binary's subcommands, the main one's
                # of two managers of one main, the one its controllers are set up with (gardener's `mgr`, handed to
                # every SetupWithManager, beside the Gardener manager it adds to it)
                -uses.get((item[0].path, item[1].start_byte), 0),
                not _feeds_new_manager(item[0], item[1]),
                item[0].path,
            ),
        )
        return anchor_at(file, literal, packages, generated=marked_generated(file.source.data))

    def anchor_at(
        file: GoFile, literal: tree_sitter.Node, packages: frozenset[str] | None, *, generated: bool = False
    ) -> OptionsAnchor:
        """The anchor of one literal, shaped by its own module's go.mod."""
        module = module_of(file)
        owner, carried, made_up = label(packages, module)
        return OptionsAnchor(
            file,
            literal,
            module.has_legacy_cache_options,
            owner,
            _of(overwritten, packages),
            module.has_per_kind_selectors,
            module.has_client_objects,
            built_labels=carried,
            label_made_up=made_up,
            generated=generated,
            client_cache=_replacing(replacing, packages),
            era=module.cache_options_era,
        )

    def every(packages: frozenset[str] | None) -> dict[LiteralKey, OptionsAnchor]:
        # a test's manager (envtest) is edited only where it is the default, as the only one there is
        found = [(f, n) for f, n in reached(packages) if not f.path.endswith("_test.go")] if len(candidates) > 1 else []
        return {(f.path, n.start_byte): anchor_at(f, n, packages) for f, n in found}

    default = {binary.key: anchor for binary in binaries if (anchor := best(binary.packages)) is not None}
    built = {binary.key: every(binary.packages) for binary in binaries}
    for key, _, packages in libraries:
        if (library_anchor := best(packages)) is not None:
            default[key] = library_anchor
            built[key] = every(packages)
    return Anchors(default, built)


# the manager options fields the fixes create or extend
_EDITED_FIELDS = frozenset({"Cache", "Client", "NewCache"})


def _overwritten_fields(
    files: list[GoFile], resolver: Resolver
) -> tuple[dict[str, set[str]], dict[str, list[tuple[GoFile, tree_sitter.Node]]]]:
    """Per package, the manager options fields its code assigns whole, as dotted paths (`o.Cache =
    cache.Options{…}` in a helper given &opts, as operator-sdk's namespace helpers do; `opts.Cache.ByObject =
    map…{}` under a flag, as ytsaurus does): whatever a fix adds to the literal there, that assignment replaces.
    Beside them, per package, the `client.CacheOptions` literals assigned whole to `Client.Cache` unconditionally
    (percona's `options.Client.Cache = ClientCacheOptions()`), where a DisableFor fix goes instead."""
    found: dict[str, set[str]] = {}
    replacing: dict[str, list[tuple[GoFile, tree_sitter.Node]]] = {}
    for file in files:
        if file.is_test:
            continue
        for _, _, targets, values in file.assignments():
            for index, target in enumerate(targets):
                path = options_path(file, target, resolver)
                if path is None or path.split(".", 1)[0] not in _EDITED_FIELDS:
                    continue
                found.setdefault(file.package_path, set()).add(path)
                if path != "Client.Cache" or len(values) != len(targets) or under_condition(target):
                    continue
                literal = _cache_options_literal(file, values[index], resolver)
                if literal is not None:
                    replacing.setdefault(file.package_path, []).append(literal)
    return found, replacing


def _cache_options_literal(
    file: GoFile, value: tree_sitter.Node, resolver: Resolver
) -> tuple[GoFile, tree_sitter.Node] | None:
    """The `client.CacheOptions{…}` literal a value is the address of, in place or returned by the one return of
    a module function (percona's `ClientCacheOptions()`); None otherwise."""
    if value.type == "call_expression":
        info = resolver.callee(file, value)
        returned = returned_values(info.node) if info is not None else []
        if info is None or len(returned) != 1:
            return None
        file, value = info.file, returned[0]
    literal = struct_literal_of(value)
    kind = literal.child_by_field_name("type") if literal is not None else None
    return (
        (file, literal)
        if literal is not None and kind is not None and parser.text(kind).endswith("CacheOptions")
        else None
    )


def _of(overwritten: dict[str, set[str]], packages: frozenset[str] | None) -> frozenset[str]:
    """The fields assigned whole by the packages of a binary (by any, for the module's default)."""
    return frozenset().union(
        *(fields for package, fields in overwritten.items() if packages is None or package in packages)
    )


def _replacing(
    replacing: dict[str, list[tuple[GoFile, tree_sitter.Node]]], packages: frozenset[str] | None
) -> tuple[GoFile, tree_sitter.Node] | None:
    """The one `client.CacheOptions` literal the packages of a binary assign to the options' Client.Cache."""
    found = {
        (file.path, literal.start_byte): (file, literal)
        for package, literals in replacing.items()
        if packages is None or package in packages
        for file, literal in literals
    }
    return next(iter(found.values())) if len(found) == 1 else None


OptionsFix = Callable[[OptionsAnchor, KindType, str], Fix | None]


class OptionsFixes:
    """The fixes that edit a manager's options, built once per anchor and kind: every site of a kind that a
    manager caches is offered the same edit, and building it means re-reading the options literal."""

    def __init__(self, anchors: Anchors, built_at: Callable[[LiteralKey], tuple[Span, ...]]) -> None:
        self.anchors = anchors
        self.built_at = built_at  # where the managers an options literal feeds are built
        self._built: dict[tuple[OptionsFix, str, KindType, LiteralKey], Fix | None] = {}

    def get(
        self, build: OptionsFix, key: str, kind: KindType, managers: frozenset[LiteralKey] = frozenset()
    ) -> Fix | None:
        """The edit of the options of the managers running the site (`managers`), else of the key's default,
        that do not have it yet."""
        return self.chosen(build, key, kind, managers)[0]

    def chosen(
        self, build: OptionsFix, key: str, kind: KindType, managers: frozenset[LiteralKey] = frozenset()
    ) -> tuple[Fix | None, OptionsAnchor | None]:
        """`get`, with the options literal its first edit is in. Where several managers of a binary run the
        site (one per subcommand), one fix edits them all: the binary's options are pooled (SPEC §3.1), so
        the finding would go once the first is edited, leaving the others' caches as they were."""
        found: list[tuple[Fix, OptionsAnchor]] = []
        for anchor in self.anchors.for_site(key, managers, self.built_at):
            memo = (build, key, kind, (anchor.file.path, anchor.literal.start_byte))
            if memo not in self._built:
                self._built[memo] = build(anchor, kind, key)
            fix = self._built[memo]
            if fix is not None:
                found.append((fix, anchor))
        if not found:
            return None, None
        return merged([fix for fix, _ in found]), found[0][1]


def _replaces(first: OptionsAnchor, other: OptionsAnchor) -> bool:
    """Whether an options literal is assigned whole to the variable another one is declared or assigned to, in
    the same function (kubesphere's `if s.LeaderElect { cmOptions = manager.Options{…} }`): the manager gets
    either, so an edit of one alone is lost where the other is taken."""
    if first.file.path != other.file.path:
        return False
    name = _assigned_name(first.literal)
    around = innermost_function(first.literal)
    return (
        name is not None
        and name == _assigned_name(other.literal)
        and around is not None
        and around == innermost_function(other.literal)
    )


def _assigned_name(literal: tree_sitter.Node) -> str | None:
    """The variable a literal is declared with or assigned to whole (`opts := Options{…}`, `opts = Options{…}`,
    `var opts = Options{…}`)."""
    target = assigned_to(literal)
    if target is None:  # `var opts = Options{…}`, which assigned_to leaves to declarations
        values = literal.parent
        spec = values.parent if values is not None and values.type == "expression_list" else None
        target = spec.child_by_field_name("name") if spec is not None and spec.type == "var_spec" else None
    return parser.text(target) if target is not None and target.type == "identifier" else None


@dataclass(frozen=True, slots=True)
class IndexedList:
    """A cached List that filters on a field the API server does not serve: a cache index (`IndexField`)."""

    key: FieldKey  # the first such field
    span: Span  # the List call
    managers: frozenset[LiteralKey] = frozenset()  # the managers running it, where known (PendingSite.managers)

    @property
    def where(self) -> str:
        return f"{self.span.path}:{self.span.line}"


def unserved_fields(item: PendingSite, kinds: KindIndex) -> list[FieldKey]:
    """The fields a List filters on that the API server would reject for its kind ("field label not
    supported"); a field watchlint cannot resolve counts, since nothing shows the server serves it."""
    served = kinds.served_fields(item.object.kind, item.object.package)
    return [key for key in item.field_keys if key.value is None or key.value not in served]


def rewriting_transforms(policies: Iterable[CachePolicy]) -> dict[tuple[str, str | None], Transform]:
    """Per (policy key, kind; None for every kind), the first cache transform that changes what a read returns:
    DisableFor would hand the reads objects the transform no longer rewrites (trivy-operator empties the data
    of users' ConfigMaps). Stripping managed fields alone changes nothing a reconciler reads; a default
    transform whose function is seen rewrites only the kinds it names."""
    found: dict[tuple[str, str | None], Transform] = {}
    for policy in policies:
        for transform in policy.transforms:
            value = transform.text.split(":", 1)[-1].strip()
            if value.endswith("TransformStripManagedFields()"):
                continue
            if transform.kind is not None or transform.names is None:
                found.setdefault((policy.key, transform.kind), transform)
                continue
            # a default transform whose function is seen rewrites the kinds it names (`obj.(*corev1.Pod)`);
            # what it does to every object (managed fields, an annotation) changes no spec or data
            for name in transform.names:
                found.setdefault((policy.key, name), transform)
    return found


def disabled_kinds(policies: Iterable[CachePolicy]) -> frozenset[tuple[str, str | None]]:
    """(policy key, kind) of the kinds a manager's DisableFor sends to the API server."""
    return frozenset(
        (policy.key, restriction.kind)
        for policy in policies
        for restriction in policy.restrictions
        if restriction.mitigation is Mitigation.DISABLE_FOR and restriction.is_active and restriction.client is None
    )


def typed_from_a_cache(
    reads: Iterable[tuple[PendingSite, tuple[str, ...]]], policies: Iterable[CachePolicy]
) -> frozenset[str]:
    """The kinds a cache-backed Get or List reads typed, starting their typed informer: not where every manager
    reading it sends it to the API server (DisableFor); a read of a cache itself, of a cache of its own or
    through a client with options of its own counts whatever the managers disable."""
    disabled = disabled_kinds(policies)
    return frozenset(
        item.object.kind
        for item, keys in reads
        if item.object.form is ObjectForm.TYPED
        and item.operation is not Operation.WATCH
        and (
            item.reads_cache_itself
            or item.cache
            or item.own_client
            or not keys
            or any((key, item.object.kind) not in disabled for key in keys)
        )
    )


def cached_read_kinds(
    reads: Iterable[tuple[PendingSite, tuple[str, ...]]], policies: Iterable[CachePolicy]
) -> dict[tuple[str, str], bool]:
    """(policy key, kind) of every Get or List a manager's client serves from the cache, and whether a Get is
    among them: not of a kind that policy's DisableFor already sends to the API server."""
    disabled = disabled_kinds(policies)
    found: dict[tuple[str, str], bool] = {}
    for item, keys in reads:
        if item.operation not in (Operation.GET, Operation.LIST):
            continue
        if not _through_the_managers_client_options(item):
            continue
        for key in keys:
            if (key, item.object.kind) not in disabled:
                found[key, item.object.kind] = found.get((key, item.object.kind), False) or (
                    item.operation is Operation.GET
                )
    return found


def _through_the_managers_client_options(item: PendingSite) -> bool:
    """Whether the manager's client options (DisableFor) decide where a read goes: not a read of the cache
    itself, of a second cache's, or through a client.New of its own (whose options are its own)."""
    return not (item.reads_cache_itself or item.cache or item.own_client)


def unevenly_selected(watches: Iterable[tuple[PendingSite, tuple[str, ...]]]) -> frozenset[tuple[str, str]]:
    """(policy key, kind) whose cached watches select different labels (or some none): see SiteRemedies."""
    selections: dict[tuple[str, str], set[tuple[tuple[str, str], ...] | None]] = {}
    for item, keys in watches:
        if item.operation is Operation.WATCH and not item.cache:
            for key in keys:
                selections.setdefault((key, item.object.kind), set()).add(item.selected_labels)
    return frozenset(found for found, selected in selections.items() if len(selected) > 1)


def indexed_lists(
    reads: Iterable[tuple[PendingSite, tuple[str, ...]]], kinds: KindIndex
) -> dict[tuple[str, str], list[IndexedList]]:
    """Per (policy key, kind): the cached Lists that DisableFor for the kind in that policy's manager would
    send to the API server, and that filter on a field it cannot serve."""
    found: dict[tuple[str, str], list[IndexedList]] = {}
    for item, keys in reads:
        unserved = unserved_fields(item, kinds) if item.operation is Operation.LIST else []
        if not unserved:
            continue
        if item.own_client is not None and not item.reads_cache_itself:
            # kruise's Lists through its client.New over the cache keep their index whatever the manager's
            # options say, and lose it where that client's own DisableFor names the kind
            keys = (own_client_key(item.own_client),)
        elif not _through_the_managers_client_options(item):
            continue
        for key in keys:
            found.setdefault((key, item.object.kind), []).append(IndexedList(unserved[0], item.span, item.managers))
    return found


def own_client_key(options: Span) -> str:
    """The key of a client.New's own options among the policy keys of `indexed_lists` (none of which it can be)."""
    return f"client.New options at {options.path}:{options.line}:{options.column}"


@dataclass(slots=True)
class SiteRemedies:
    """What the fixes of every site are built from: the manager options edits, the kinds read or watched
    typed at several sites (an OnlyMetadata watch would be defeated by them, WL005), the kinds watched by
    `For` or `Watches` (a label selector for `Owns` would hide their objects), the client graph and the
    Lists by cache index."""

    options_fixes: OptionsFixes
    typed_elsewhere: frozenset[str]
    watched_unowned: frozenset[str]  # kinds a watch other than `Owns` watches (`For`, `Watches`, source.Kind)
    clients: ClientGraph
    kinds: KindIndex
    indexed: dict[tuple[str, str], list[IndexedList]] = field(default_factory=dict)
    # (policy key, kind) that a manager's client reads cached, and whether with a Get (see cached_read_kinds)
    read: dict[tuple[str, str], bool] = field(default_factory=dict)
    rewritten: dict[tuple[str, str | None], Transform] = field(default_factory=dict)  # see rewriting_transforms
    # where the manager an options literal feeds is built (ManagerLinks.constructions of one literal)
    built_at: Callable[[LiteralKey], tuple[Span, ...]] = lambda _: ()
    era: str = "current"  # the shapes of the cache options controller-runtime's version has (cacheoptions.ERAS)
    # (policy key, kind) watched through a manager's cache with different label selections (one watch's
    # predicate selects what another's does not, `predicate.Not(p)`): moving one into the cache hides the rest
    unevenly_selected: frozenset[tuple[str, str]] = frozenset()
    typed_handlers: dict[str, list[tuple[Span, str]]] = field(default_factory=dict)  # see go._typed_handlers
    # the kinds each informer factory (its constructor's path and first byte) hands out informers of
    factory_kinds: dict[tuple[str, int], frozenset[str]] = field(default_factory=dict)
    rbac: dict[tuple[str, str], Grant] = field(default_factory=dict)  # see rbacmarkers.rbac_grants
    # whether two packages are built into one binary (Evaluator.share_a_binary): another binary's watch is
    # another process's informer
    same_binary: Callable[[str, str], bool] = lambda _, __: True

    # per policy key, the era of the module holding its manager options (modules a local `replace` joins into
    # one unit may require different controller-runtime versions); `era` where a key has none
    eras: dict[str, str] = field(default_factory=dict)

    def era_for(self, keys: tuple[str, ...]) -> str:
        """The era of the options a site judged by `keys` is fixed in: its first binary's."""
        return next((self.eras[key] for key in keys if key in self.eras), self.era)

    def names(self, keys: tuple[str, ...]) -> CacheOptionNames:
        """How the texts name the options, by the era."""
        return cache_option_names(self.era_for(keys))

    def fixes(self, item: PendingSite, access: Access, keys: tuple[str, ...]) -> tuple[Fix, ...]:
        """Every fix that may answer the rule this site gets, preferred first."""
        if access is not Access.CACHE or item.object.form is not ObjectForm.TYPED or not item.object.package:
            return ()
        kind = KindType(item.object.package, item.object.kind)
        fixes: list[Fix | None] = []
        if item.operation in (Operation.GET, Operation.LIST) and not item.reads_cache_itself:
            if item.own_client is None:  # a client.New over the cache follows its own options, not these
                fixes.extend(self._granted(self._disable_for(key, kind, item.managers), item) for key in keys)
            else:
                fixes.append(self._granted(self._own_client_disable_for(item, item.own_client, kind), item))
            if not unserved_fields(item, self.kinds):  # the API reader could not serve this List either
                fixes.append(self._granted(_api_reader(item, self.clients), item))
        elif item.call in _OBJECT_WATCHES and not item.cache:
            # SPEC §4 labels what `Owns` watches: objects the operator creates, which it can label. A label
            # selector on a kind it also watches otherwise (`For`, `Watches`, a source.Kind: objects users or
            # other controllers make) would hide those.
            if item.call == "Owns" and item.object.kind not in self.watched_unowned:
                fixes.extend(self._by_object(key, kind, item.managers) for key in keys)
            if item.selected_labels:  # WL003: the predicate's selector, moved into the cache's
                build = partial(predicate_selector_fix, selected=item.selected_labels)
                fixes.extend(
                    self.options_fixes.get(build, key, kind, item.managers)
                    for key in keys
                    if (key, kind.name) not in self.unevenly_selected
                )
            # builder.OnlyMetadata came with controller-runtime v0.7
            typed_only = item.foreign_builder or item.handles_typed or item.looped
            metadata_only = not typed_only and self.era_for(keys) != "pre-v0.7"
            if item.object.kind not in self.typed_elsewhere and metadata_only:
                fixes.append(only_metadata_fix(item.file, item.node, item.object.kind))
        return tuple(fix for fix in fixes if fix is not None)

    def _own_client_disable_for(self, item: PendingSite, own_client: Span, kind: KindType) -> Fix | None:
        """The DisableFor of a client.New's own options; none where the manager's own client reaches the read
        too (that DisableFor alone would leave it cached), or where a List by a cache index of the kind reads
        through this client (the API server would reject it: the help says what to do first)."""
        found = self.clients.own_client_options.get(own_client)
        if found is None or item.own_client_shared:
            return None
        if self._indexed(own_client_key(own_client), kind.name, item.managers):
            return None
        return own_client_disable_for_fix(*found, kind)

    def _granted(self, fix: Fix | None, item: PendingSite) -> Fix | None:
        """A fix sending a Get to the API server, which needs `get` on the resource where the cache needed only
        `list` and `watch` (a List needs `list` either way): where the kubebuilder markers grant the operator no
        `get` (eventing-auth-manager's and mariadb-operator's `verbs=list;watch;…` on secrets), the read would
        fail after the fix."""
        if fix is None or item.operation is not Operation.GET:
            return fix
        return self._needing_get(fix, item.object.kind, item.object.package, "the read then needs")

    def _needing_get(self, fix: Fix, kind_name: str, package: str, needed_by: str) -> Fix:
        """The fix, told that the markers grant no `get` on the kind where they do not (unsafe then)."""
        kind = self.kinds.go_entry(kind_name, package)
        grant = missing_grant(self.rbac, kind, "get") if kind is not None else None
        if kind is None or grant is None:
            return fix
        title = (
            f"{fix.title}; the +kubebuilder:rbac markers ({grant.span.path}:{grant.span.line}) grant {kind.plural} "
            f"no get, which {needed_by}: add it"
        )
        return replace(fix, title=title, applicability=Applicability.UNSAFE)

    def alone_in_factory(self, item: PendingSite) -> bool:
        """Whether a client-go informer's factory hands out informers of its kind only: no other kind would keep
        a factory-wide namespace or selector from applying."""
        constructor = item.factory_constructor
        return constructor is not None and self.factory_kinds.get(constructor, frozenset()) <= {item.object.kind}

    def _watch_suggestion(self, item: PendingSite, keys: tuple[str, ...]) -> str:
        """The text remedy of a watch where the rule's own help does not fit: of a cache of its own, or of a
        framework's builder (which takes no builder.OnlyMetadata)."""
        names, kind = self.names(keys), item.object.kind
        if item.cache:
            where = item.cache.rsplit(" at ", 1)[-1]  # a cache of its own (cache.New, cluster.New): no manager
            return (
                f"Restrict {kind} in the options of the cache built at {where} ({names.by_object}: "
                f"{names.by_object_fields}; or {names.namespaces})"
            )
        restrict = f"Restrict {kind} with {names.by_object} ({names.by_object_fields}) {names.by_object_in}"
        if item.selected_labels and any((key, kind) in self.unevenly_selected for key in keys):
            # telemetry-operator's inventory Secrets: the predicate's labels beside unfiltered Secret watches
            return (
                f"The predicate's label selector cannot move into the cache as it is: other watches of {kind} "
                f"through this manager see objects it leaves out, and a {names.by_object} selector would hide them "
                f"from those watches too; select them by the same label first, or restrict {kind} by namespace"
            )
        if item.foreign_builder and not item.filters:  # WL003's own help moves the predicate's selector
            return restrict
        if item.looped and not item.filters:
            source = (item.helper_call or item.call).rsplit(".", 1)[-1] in ("Watch", "WatchesRawSource")
            metadata = "a metav1.PartialObjectMetadata in its source.Kind" if source else "builder.OnlyMetadata there"
            return (
                f"{restrict}; no metadata-only watch is offered, as the call watches every kind of the loop around "
                f"it, and {metadata} would make all of them metadata-only"
            )
        if item.handles_typed and not item.filters:
            # a type assertion on a metav1.PartialObjectMetadata fails: an event dropped, or a panic without `ok`
            source = (item.helper_call or item.call).rsplit(".", 1)[-1] in ("Watch", "WatchesRawSource")
            hands = "a metadata-only source.Kind" if source else "builder.OnlyMetadata"
            fares = _TYPED_HANDLER_FARES.get(item.handles_typed, "would fail on")
            return (
                f"{restrict}: the watch's handler reads {kind} typed, and {fares} the "
                f"metav1.PartialObjectMetadata objects {hands} hands it"
            )
        package = item.file.package_path
        typed = next(
            (
                span
                for span, other in self.typed_handlers.get(kind, ())
                if span != item.span and self.same_binary(package, other)
            ),
            None,
        )
        # whether cached reads keep the kind typed too or not, a watch whose handler needs it typed does: no
        # metadata-only watch here saves its informer (the rule's help would offer one once the reads bypass it)
        if typed is not None and not item.filters:
            return (
                f"{restrict}: the watch at {typed.path}:{typed.line} reads {kind} typed, so a metadata-only "
                "watch here would add a second informer beside its typed one"
            )
        return ""

    def _cache_itself_help(self, item: PendingSite, keys: tuple[str, ...]) -> str:
        """A read of the cache itself, which no DisableFor sends to the API server: of a cache of its own, its
        options alone; of the manager's, its cache options."""
        if item.cache:
            return self._own_cache_help(item, keys)
        names = self.names(keys)
        return (
            f"Restrict {item.object.kind} in the manager's cache options ({names.by_object}), or read it "
            f"through mgr.GetAPIReader(): mgr.GetCache() serves it whatever {names.disable_for} says"
        )

    def _own_cache_help(self, item: PendingSite, keys: tuple[str, ...]) -> str:
        if item.cache == WORKLOAD_CACHE:
            return (
                f"Add {item.object.kind} to the DisableFor of the ClusterCache's client options "
                "(clustercache.ClientCacheOptions; ClientUncachedObjects of the older ClusterCacheTracker), restrict "
                f"it with ByObject in its cache options (clustercache.CacheOptions), or read it through "
                "GetUncachedClient"
            )
        where, names = item.cache.rsplit(" at ", 1)[-1], self.names(keys)
        if item.cluster_client and not item.reads_cache_itself:
            # the cluster's client follows its options' Client.Cache.DisableFor, as a manager's does
            return (
                f"Add {item.object.kind} to {names.disable_for} in the options of the cluster built at {where}, "
                f"or restrict it in that cluster's cache options ({names.by_object} or {names.namespaces})"
            )
        return (
            f"Restrict {item.object.kind} in the options of the cache built at {where} ({names.by_object} "
            f"or {names.namespaces}), or read it through a client without cache"
        )

    def _own_client_help(self, item: PendingSite, client: Span, keys: tuple[str, ...]) -> str:
        """A client built with client.New over a cache: its own options' DisableFor, and the cache's options
        where that cache is its own (radix-operator's cache.New, no manager's reader to offer)."""
        where = f"{client.path}:{client.line}"
        if item.cache and item.cache != WORKLOAD_CACHE and not item.also_managers:
            built, names = item.cache.rsplit(" at ", 1)[-1], self.names(keys)
            return (
                f"Add {item.object.kind} to the DisableFor of the client options at {where} (a client built "
                f"with client.New over a cache follows its own options), or restrict it in the options of the "
                f"cache built at {built} ({names.by_object} or {names.namespaces})"
            )
        if own := unserved_fields(item, self.kinds):
            # kruise's Lists by its ownerRefUID index: the API server, which both remedies send it to, rejects them
            served = self.kinds.served_fields(item.object.kind, item.object.package)
            return (
                f"Filter this List {_instead_of_index(own[0], served)}; then add {item.object.kind} to the "
                f"DisableFor of the client options at {where} (a client built with client.New over the cache "
                "follows its own options, not the manager's)"
            )
        if item.own_client_shared:
            return (
                f"Add {item.object.kind} both to {self.names(keys).disable_for} in the manager options and to the "
                f"DisableFor of the client options at {where} (the read goes through the manager's own client "
                "too, and each client follows its own options), or read it through mgr.GetAPIReader()"
            )
        return (
            f"Add {item.object.kind} to the DisableFor of the client options at {where} (a client built with "
            "client.New over the cache follows its own options, not the manager's), or read it through "
            "mgr.GetAPIReader()"
        )

    def suggestion(self, item: PendingSite, access: Access, keys: tuple[str, ...]) -> str:
        """The text remedy of a read whose kind is listed by a cache index: DisableFor must wait for a label
        selector in the index's place; "" where the rule's own help says it all."""
        if access is Access.CACHE and item.tests_annotations and item.filters:
            return (
                f"The predicate tests an annotation, which no cache selector can match: label the {item.object.kind} "
                f"objects it keeps and restrict {item.object.kind} with {self.names(keys).by_object} on that label"
            )
        if access is Access.CACHE and item.operation is Operation.WATCH:
            return self._watch_suggestion(item, keys)
        if access is not Access.CACHE:
            return _uncached_help(item, access, alone=self.alone_in_factory(item))
        indexed = next((found for key in keys if (found := self._indexed(key, item.object.kind, item.managers))), None)
        if item.reads_cache_itself:
            return self._cache_itself_help(item, keys)
        if item.own_client is not None:
            return self._own_client_help(item, item.own_client, keys)
        if indexed is None and item.cache and not item.also_managers:
            # a cache of its own (cache.New, cluster.New): no manager options
            return self._own_cache_help(item, keys)
        if indexed is None and item.call.rsplit(".", 1)[-1] in READ_FIRST:  # Get, then write, through one client
            return (
                f"Add {item.object.kind} to {self.names(keys).disable_for} in the manager options: {item.call} "
                "writes through the client it reads with, which mgr.GetAPIReader() cannot"
            )
        return self._index_help(item, keys, indexed) if indexed is not None else ""

    def _index_help(self, item: PendingSite, keys: tuple[str, ...], indexed: list[IndexedList]) -> str:
        """What a cached read of a kind listed by a cache index does first: the List by index filters on what
        the API server serves, then DisableFor (or, for another read, the API reader) takes the reads past the
        cache."""
        own = unserved_fields(item, self.kinds)
        others = [entry for entry in indexed if entry.span != item.span]
        if own:
            which, index = "this List", own[0]
        else:
            which, index = f"the List at {others[0].where}", others[0].key
            others = others[1:]
        served = self.kinds.served_fields(item.object.kind, item.object.package)
        remedy = _instead_of_index(index, served)
        # a List by another index may need the other remedy (cloudnative-pg's Pods by node, and by owner)
        alike = [entry for entry in others if _instead_of_index(entry.key, served) == remedy]
        unlike = "".join(
            f"; the List at {entry.where} {_instead_of_index(entry.key, served)}"
            for entry in others
            if entry not in alike
        )
        text = (
            f"Filter {which} {remedy}{_more_lists(alike)}{unlike}; then add {item.object.kind} "
            f"to {self.names(keys).disable_for} in the manager options"
        )
        if own:
            return text
        text += ", or read this one through mgr.GetAPIReader()"
        scoped = item.operation is not Operation.LIST or any(found.is_active for found in item.restrictions)
        # vcluster's List of every virtual Pod: past the cache, it asks the API server for all of them each time
        return (
            text
            if scoped
            else f"{text}: it then reads every {item.object.kind} from the API server on each call (WL004)"
        )

    def _indexed(self, key: str, kind: str, managers: frozenset[LiteralKey]) -> list[IndexedList]:
        """The Lists by cache index of a kind that a site's managers may run: two managers a binary builds apart
        (one per subcommand) have caches, and so indexes, of their own."""
        return [
            entry
            for entry in self.indexed.get((key, kind), ())
            if not managers or not entry.managers or managers & entry.managers
        ]

    def _by_object(self, key: str, kind: KindType, managers: frozenset[LiteralKey]) -> Fix | None:
        """A label selector for an owned kind; where the client reads the kind too, DisableFor with it, so the
        reads still find what the selector leaves out (not where a List filters on a cache index, which
        DisableFor would break)."""
        keeps_reads = (key, kind.name) in self.read and not self._indexed(key, kind.name, managers)
        build = by_object_keeping_reads_fix if keeps_reads else by_object_fix
        fix = self.options_fixes.get(build, key, kind, managers)
        if fix is None or not (keeps_reads and self.read[key, kind.name]):
            return fix
        # the Gets DisableFor sends to the API server need `get`, which the cache did not (mariadb-operator's
        # `verbs=list;watch;create;patch` on the Secrets it owns and reads)
        return self._needing_get(fix, kind.name, kind.package, f"the Gets of {kind.name} then need")

    def _disable_for(self, key: str, kind: KindType, managers: frozenset[LiteralKey]) -> Fix | None:
        """DisableFor sends every cached read of the kind to the API server: where one lists by a cache
        index, which the server rejects, the edit would break that List, so only the help says what to do
        first (replace the index, then disable the cache)."""
        if self._indexed(key, kind.name, managers):
            return None
        fix, anchor = self.options_fixes.chosen(disable_for_fix, key, kind, managers)
        transform = self.rewritten.get((key, kind.name)) or self.rewritten.get((key, None))
        if transform is not None and anchor is not None and transform.reaches:
            # a transform given to another subcommand's manager leaves this one's reads as they are
            edited = self.built_at((anchor.file.path, anchor.literal.start_byte))
            transform = transform if not edited or set(edited) & set(transform.reaches) else None
        if fix is not None and transform is not None:
            title = (
                f"{fix.title}; reads then return {kind.name} objects as stored, not as the transform at "
                f"{transform.span.path}:{transform.span.line} leaves them in the cache"
            )
            return replace(fix, title=title, applicability=Applicability.UNSAFE)
        return fix


def _instead_of_index(index: FieldKey, served: frozenset[str]) -> str:
    """What a List by a cache index can filter on instead: the field an index named like one copies (`".spec.
    nodeName"`), or the fields its IndexField's function returns, where the API server serves each under its
    own name, else a label."""
    named = (index.value.lstrip("."),) if index.value is not None else ()
    fields = index.copies or named
    if fields and fields != (index.value,) and all(field in served for field in fields):
        holds = "which the index holds" if index.copies else "if the index holds it"
        if len(fields) > 1:
            joined = " and ".join(f'"{field}"' for field in fields)
            return (
                f"by the field selectors {joined} instead of the cache index {index.shown} (the API server serves "
                f"the fields, which the index joins)"
            )
        return (
            f'by the field selector "{fields[0]}" instead of the cache index {index.shown} (the API server serves '
            f"the field, {holds})"
        )
    if index.value is None:  # a selector or option watchlint cannot read: it may filter on one of the kind's indexes
        what, may = ("the List option", "filter on") if index.opaque else ("the field selector", "name")
        return (
            f"by a label selector instead of {what} {index.shown}, which may {may} a cache index the API server "
            "cannot serve"
        )
    return f"by a label selector instead of the cache index {index.shown}, which the API server cannot serve"


def _more_lists(others: list[IndexedList]) -> str:
    """` (likewise the Lists at a.go:3, b.go:9)`: the other Lists by cache index, up to three."""
    if not others:
        return ""
    shown = ", ".join(entry.where for entry in others[:3]) + (", …" if len(others) > 3 else "")
    return f" (likewise the List{'s' if len(others) > 1 else ''} at {shown})"


def _api_reader(item: PendingSite, clients: ClientGraph) -> Fix | None:
    """When the reconciler already holds a client.Reader set from mgr.GetAPIReader(), read through it."""
    function = item.node.child_by_field_name("function")
    operand = function.child_by_field_name("operand") if function is not None else None
    if operand is None:
        return None
    base = operand.child_by_field_name("operand") if operand.type == "selector_expression" else operand
    owner = clients.resolver.type_of(item.file, base) if base is not None else None
    if owner is None:
        return None
    reader = _api_reader_field(clients, owner)
    return api_reader_fix(item.file, operand, reader) if reader is not None else None


def _api_reader_field(clients: ClientGraph, owner: TypeRef) -> str | None:
    """The one client.Reader field of the struct set from an API reader; None where there are several (a seed's
    and another cluster's, gardener's actuator): which one reads the cluster the client does is not told."""
    declarations = clients.resolver.declarations
    struct = declarations.unalias(owner.base)
    found = []
    for info in declarations.structs.get(struct, ()):
        if info.is_embedded or info.type is None or not info.type.is_(CR_CLIENT, "Reader"):
            continue
        known = clients.resolve(FieldRef(struct, info.name))
        if known is not None and known.access is Access.API_READER and known.evidence is not None:
            found.append(info.name)
    return found[0] if len(found) == 1 else None


def _main_manager_options(
    files: list[GoFile], resolver: Resolver
) -> tuple[set[tuple[str, int]], set[tuple[str, int]], dict[tuple[str, int], int]]:
    """The options literals (file path, offset) that the NewManager calls of `package main` files receive, those
    of any package whose manager is idle (see is_idle_manager: dynatrace's CSI init command builds one for its
    API reader in a package of its own), and for those of a main, how often its function names the manager
    built with them."""
    found: set[tuple[str, int]] = set()
    idle: set[tuple[str, int]] = set()
    uses: dict[tuple[str, int], int] = {}
    built_in: dict[tuple[str, int], int] = {}  # managers built per function of a main: several ask which is main
    owners: dict[tuple[str, int], tuple[str, int]] = {}  # the function each options literal's manager is built in
    for file in files:
        if file.package_name != "main" and b"GetAPIReader" not in file.source.data:
            continue  # an idle manager is asked for its API reader, or at least nothing else
        for call in file.calls():
            function = call.node.child_by_field_name("function")
            options = options_argument(file, call.node) if is_new_manager(file, function) else None
            if options is not None:
                literals: set[tuple[str, int]] = set()
                options_literals(file, options, 0, resolver, literals)
                if file.package_name == "main":
                    found |= literals
                    function = innermost_function(call.node)
                    where = (file.path, function.start_byte if function is not None else -1)
                    built_in[where] = built_in.get(where, 0) + 1
                    owners.update(dict.fromkeys(literals, where))
                    uses.update(dict.fromkeys(literals, _uses_of_the_manager(call.node)))
                if is_idle_manager(call.node):
                    idle |= literals
    # subcommands each building their own manager are told apart otherwise (the site's package, main.go)
    return found, idle, {literal: n for literal, n in uses.items() if built_in[owners[literal]] > 1}


def _uses_of_the_manager(call: tree_sitter.Node) -> int:
    """How often the function around a manager's construction names the variable it is assigned to."""
    statement = call.parent.parent if call.parent is not None and call.parent.type == "expression_list" else None
    left = statement.child_by_field_name("left") if statement is not None else None
    target = parser.first_named(left) if left is not None else None
    function = innermost_function(call)
    if target is None or target.type != "identifier" or function is None:
        return 0
    return len(uses_in(function, parser.text(target)))


def _returned_with_an_error(literal: tree_sitter.Node) -> bool:
    """`return ctrl.Options{}, err` on a failure: the caller throws those options away."""
    statement = literal.parent
    if statement is not None and statement.type == "expression_list":
        statement = statement.parent
    return statement is not None and statement.type == "return_statement" and is_failing_return(statement)


def _feeds_new_manager(file: GoFile, literal: tree_sitter.Node) -> bool:
    current = literal.parent
    while current is not None and current.type not in ("function_declaration", "method_declaration"):
        if current.type == "call_expression":
            return is_new_manager(file, current.child_by_field_name("function"))
        current = current.parent
    return False


def _operator_name(module_path: str) -> str:
    parts = [part for part in module_path.split("/") if part and not (part[0] == "v" and part[1:].isdigit())]
    return parts[-1] if parts else "operator"


def _uncached_help(item: PendingSite, access: Access, *, alone: bool) -> str:
    """The remedy of a site outside controller-runtime's cache where the rule's own help does not fit: a
    client-go informer's (see _library_go_help; `alone` in its factory), a dynamic client's watch; ""
    otherwise."""
    if access is Access.INFORMER_FACTORY:
        return item.factory_help or _library_go_help(item, alone=alone)
    if access is Access.CLIENTSET and item.operation is Operation.WATCH and item.object.text.startswith("Resource("):
        # its namespace is asked for with Namespace(ns), not a typed accessor's argument
        return (
            "Set LabelSelector or FieldSelector in the metav1.ListOptions, or watch a single namespace "
            "(Resource(gvr).Namespace(ns))"
        )
    if item.operation is Operation.LIST and access in (Access.CLIENTSET, Access.API_READER, Access.DIRECT_CLIENT):
        return _existence_help(item, typed_client=access is not Access.CLIENTSET)
    return ""


def _existence_help(item: PendingSite, *, typed_client: bool) -> str:
    """The remedy of a List read only for whether any object exists: one page of one object answers it."""
    test = existence_test(item.file, item.node, typed_client)
    if test is None:
        return ""
    limit = "client.Limit(1)" if typed_client else "`Limit: 1` in the metav1.ListOptions"
    return (
        f"Only whether any {item.object.kind} exists is read (`{parser.text(test)}`): pass {limit}, which returns "
        "one object rather than every one"
    )


def _library_go_help(item: PendingSite, *, alone: bool = False) -> str:
    """The remedy of an informer of library-go's `InformersFor("")`: the namespaced factories beside it; of one
    a group-version informers' `New` hands out: its own namespace and tweak; of a factory built with options:
    those, and a factory of its own unless the kind is `alone` in the factory."""
    if item.narrowing_call:
        return f"Give {item.narrowing_call} a namespace, or a tweakListOptions that sets a label or field selector"
    if item.options_call:
        own = (
            ""
            if alone
            else f", or, where it serves other kinds that must stay whole, take {item.object.kind} from a factory "
            "of its own so built"
        )
        # the options are the constructor's package's, under the name the file imports it by (`kubeinformers`)
        package = item.options_call.split("(", 1)[0].rpartition(".")[0]
        if item.every_namespace is not None:  # `WithNamespace(corev1.NamespaceAll)`: the option is there already
            return (
                f"Give {package}{'.' if package else ''}WithNamespace a namespace rather than every namespace, or "
                f"add a label or field selector in WithTweakListOptions, to the options of {item.options_call}{own}"
            )
        return (
            f"Add {package}{'.' if package else ''}WithNamespace, or a label or field selector in "
            f"WithTweakListOptions, to the options of {item.options_call}{own}"
        )
    if not item.library_go_factory:
        return ""
    lister = item.object.text.split("().", 1)[0] if "Lister()." in item.object.text else ""
    if lister:  # a combined lister: per namespace it reads that namespace's factory
        return (
            f"Read {item.object.kind} through {lister}().{go_plural(item.object.kind)}(namespace) for a namespace "
            "the operator works in, "
            "whose factory NewKubeInformersForNamespaces builds with informers.WithNamespace, not across every "
            'namespace (List, or the namespace ""), which reads the factory over every namespace; where it must see '
            "every namespace, from a factory of its own whose WithTweakListOptions sets a label or field selector"
        )
    return (
        f"Take {item.object.kind} from InformersFor(namespace) for a namespace the operator works in, each a factory "
        'NewKubeInformersForNamespaces builds with informers.WithNamespace, not from InformersFor(""), the one over '
        "every namespace; where it must see every namespace, from a factory of its own whose WithTweakListOptions "
        "sets a label or field selector"
    )
