"""The Go front-end: extract(unit) -> Facts is its only public entry point.

Files are parsed once; declarations, client flows, cache options and sites are then read from every file,
and resolved module-wide: which receivers are cache-backed, and which binaries' policies judge a site.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from typing import NamedTuple, TypeVar

import tree_sitter

from watchlint.facts import (
    Access,
    CachePolicy,
    Comment,
    Condition,
    Evidence,
    Facts,
    Language,
    Notification,
    NotificationLevel,
    ObjectForm,
    Operation,
    Restriction,
    Site,
)
from watchlint.frontend import UnitInput, file_failure
from watchlint.go import parser
from watchlint.go.binaries import MODULE_KEY, Binary, find_binaries
from watchlint.go.buildtags import header, in_default_build
from watchlint.go.callgraph import CallGraph
from watchlint.go.clientcollect import collect as collect_clients
from watchlint.go.clientgo import TypedClientNames, go_plural
from watchlint.go.clientrefs import FieldRef, ParamRef
from watchlint.go.clients import ClientGraph
from watchlint.go.declarations import Declarations, FunctionKey
from watchlint.go.deployment import Evaluator
from watchlint.go.flags import FlagRegistry
from watchlint.go.imports import extract_imports, name_module_imports
from watchlint.go.known import UNKNOWN, CallBindings, StructLiteral, Val
from watchlint.go.listoptions import local_values
from watchlint.go.managers import LiteralKey, ManagerLinks
from watchlint.go.model import KNATIVE_INFORMERS, GoFile, index_nodes
from watchlint.go.module import GoModule, read_go_mod
from watchlint.go.pending import PendingSite, names_every_namespace
from watchlint.go.policy import FilePolicy, constructs_a_cache, extract_policy
from watchlint.go.rbacmarkers import rbac_grants
from watchlint.go.remedies import (
    Anchors,
    OptionsFixes,
    SiteRemedies,
    cached_read_kinds,
    indexed_lists,
    options_anchors,
    rewriting_transforms,
    typed_from_a_cache,
    unevenly_selected,
)
from watchlint.go.replacedoptions import ReplacedOptions
from watchlint.go.resolve import Resolver, is_slice_literal, literal_items
from watchlint.go.sites import SiteExtractor
from watchlint.go.testonly import quoted_internal_paths, test_only_packages
from watchlint.settingphrases import given
from watchlint.source import SourceFile, Span

# The convention of `go generate` (https://go.dev/s/generatedcode), searched in the file's head.
_GENERATED = re.compile(rb"^// Code generated .* DO NOT EDIT\.\r?$", re.MULTILINE)
# watches of objects the operator may not create (users', or another controller's: a source.Kind watch with an
# owner handler of Jobs sees the Pods Jobs create): a label selector for `Owns` would hide them
_UNOWNED_WATCHES = frozenset({"For", "Watches", "Watch", "WatchesRawSource", "WatchesMetadata"})
# what a generated file holds of the operator's own: its controllers (Kong generates its reconcilers), or its
# manager (the ACK code generator writes each controller's main.go, cache options included)
_OPERATORS_OWN = (b"NewControllerManagedBy(", b"NewManager(", b"manager.New(")
_KUBERNETES_IMPORT = b"k8s.io/"  # files without it have no site, client or cache option
_KNATIVE_INJECTION = b"knative.dev/pkg/injection"  # a knative main scoping injection imports only that

_T = TypeVar("_T")
_EMPTY_BY = {"passes": 'passes ""', "leaves": "leaves it empty", "makes": "makes it empty"}
_CALLS_BOUND = 8  # calls of a helper whose arguments are bound one call at a time, at most


def is_generated(source: SourceFile) -> bool:
    """True when the generated-code marker comes before the package clause, as the convention requires; not
    for generated controllers or managers, which are the operator's own (see _OPERATORS_OWN)."""
    marked = _GENERATED.search(header(source.data)) is not None
    return marked and not any(own in source.data for own in _OPERATORS_OWN)


@dataclass(slots=True)
class _Run:
    unit: UnitInput
    module: GoModule
    files: list[GoFile] = field(default_factory=list)  # the files that import Kubernetes packages
    all_files: list[GoFile] = field(default_factory=list)  # declarations, flags and binaries come from every file
    modules: dict[str, GoModule | None] = field(default_factory=dict)  # folder -> module pulled in by `replace`
    analyzed: list[str] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)
    notifications: list[Notification] = field(default_factory=list)
    _failed_sites: set[str] = field(default_factory=set)  # files whose sites failed, notified once
    _binaries: list[Binary] | None = None  # see binaries

    def binaries(self) -> list[Binary]:
        """Every binary of the unit (`package main` and what it imports), found once the files are read: the
        evaluator, the deployed packages and the policies all ask."""
        if self._binaries is None:
            self._binaries = find_binaries(self.all_files, self.module_paths)
        return self._binaries

    def module_of(self, directory: str) -> tuple[str, GoModule]:
        """The module a folder belongs to: the unit's own, or one it pulls in with a local `replace`."""
        current = directory
        while current:
            if current not in self.modules:
                has_go_mod = (self.unit.root / current / "go.mod").is_file()
                self.modules[current] = read_go_mod(self.unit.root / current) if has_go_mod else None
            found = self.modules[current]
            if found is not None:
                return current, found
            current = current.rpartition("/")[0]
        return "", self.module

    @property
    def module_paths(self) -> frozenset[str]:
        return frozenset({self.module.path, *(m.path for m in self.modules.values() if m is not None)} - {""})

    def guarded(self, file: GoFile, step: Callable[[GoFile], None]) -> bool:
        try:
            step(file)
        except Exception:  # one file's failure must not lose the unit
            self.notifications.append(file_failure(file.source))
            return False
        return True

    def site_step(self, file: GoFile, step: Callable[[], _T | None]) -> _T | None:
        """`step` for one site of `file`; None when it fails, which the file's notification says (once): one
        site's failure must not lose the unit's other sites."""
        try:
            return step()
        except Exception:
            if file.path not in self._failed_sites:
                self._failed_sites.add(file.path)
                self.notifications.append(file_failure(file.source))
            return None


def extract(unit: UnitInput) -> Facts:
    run = _Run(unit, read_go_mod(unit.root))
    if (unit.root / "go.mod").is_file() and not run.module.path:
        go_mod = f"{unit.shown_root}/go.mod" if unit.shown_root != "." else "go.mod"
        message = "no module line; imports of the module's own packages cannot be followed"
        run.notifications.append(Notification(go_mod, message, NotificationLevel.WARNING))
    generated_imports: set[str] = set()
    generated: list[SourceFile] = []
    for source in unit.sources:
        if is_generated(source):
            generated_imports |= quoted_internal_paths(source.data)
            generated.append(source)
            continue
        if not in_default_build(source.data):
            continue  # `//go:build integration`: no code of the deployed binary
        try:
            _parse(run, source)
        except Exception:
            run.notifications.append(file_failure(source))
            continue
        run.analyzed.append(source.path)
    name_module_imports(run.all_files)
    test_only: frozenset[str] = frozenset()
    if not unit.options.include_tests:
        test_only = test_only_packages(run.all_files, generated_imports, run.module_paths)
        run.files = [file for file in run.files if file.package_path not in test_only]
    declarations = Declarations()
    for file in run.all_files:
        run.guarded(file, declarations.add_file)
    resolver = Resolver(declarations, unit.kinds)
    clients = ClientGraph(resolver)
    calls = CallGraph(resolver, run.all_files, test_only)
    calls.unparsed = tuple(source.data for source in generated)
    clients.listed_calls = calls.called_as_values
    clients.callers = calls.callers  # asked already while clients are collected (stored constructors)
    flags = FlagRegistry()
    for file in run.all_files:
        run.guarded(file, lambda item: flags.collect(item, resolver))
    flags.finish(run.all_files, resolver)
    evaluator = Evaluator(resolver, flags, calls)
    clients.stored = evaluator.fields.stored  # a cluster held in a field is told while clients are collected
    for file in run.all_files:  # a client can be passed along by files that import no Kubernetes package
        run.guarded(file, lambda item: collect_clients(clients, item))
    evaluator.find_deployed_packages = lambda: _deployed_packages(run)
    evaluator.find_binaries = lambda: [binary.packages for binary in run.binaries()]
    clients.runs_by_default = lambda file, node: _runs_by_default(evaluator, file, node)
    try:
        sites, cache_policies = _sites_and_policies(run, clients, calls, evaluator)
    finally:
        # The evaluator and its parts refer to each other: cut, the unit's trees and indexes go with their
        # last reference instead of waiting for the cyclic collector, paused while a front-end runs, to walk
        # them all (~3 % of a Go run).
        evaluator.release()
    return Facts(
        language=Language.GO,
        root=unit.shown_root,
        files=tuple(run.analyzed),
        sites=tuple(sites),
        policies=tuple(cache_policies),
        comments=tuple(run.comments),
        notifications=tuple(run.notifications),
    )


def _sites_and_policies(
    run: _Run, clients: ClientGraph, calls: CallGraph, evaluator: Evaluator
) -> tuple[list[Site], list[CachePolicy]]:
    """The unit's sites, resolved and with their fixes, and the cache policy of each binary."""
    resolver, unit = evaluator.resolver, run.unit
    policies: dict[str, FilePolicy] = {}
    pending: list[PendingSite] = []
    extractor = SiteExtractor(resolver, clients, TypedClientNames.build(unit.kinds))
    links = ManagerLinks(run.files, resolver, calls, clients.methods)
    links.stored = evaluator.fields.stored
    extractor.client_go.stored = evaluator.fields.stored
    replaced = ReplacedOptions(links, resolver)
    for file in run.files:
        run.guarded(
            file,
            lambda item: policies.__setitem__(item.path, extract_policy(item, resolver, evaluator, links, replaced)),
        )
        run.guarded(file, lambda item: pending.extend(extractor.extract(item)))
    every_binary = run.binaries()
    # knative's binaries scope injection in main and build their informers out of sight: each counts
    pending = extractor.without_served(pending)
    extractor.scope_injected(pending, [binary.packages for binary in every_binary], calls.runs_when_reached)
    binaries = [b for b in every_binary if _builds(b, run.files, policies, lambda p: bool(p.origins))]
    cache_policies = _policies(binaries, run.files, policies, unit.shown_root)
    pending = extractor.expand_helpers(
        pending, calls.callers_through_interfaces, calls.deployed_passing, evaluator.fields.stored
    )
    # the list-watches helpers' calls pass (prometheus' discovery) serve their List and Watch in turn
    pending = extractor.without_served(extractor.without_handed_out(pending, evaluator.fields.stored))
    anchors = options_anchors(
        binaries,
        run.files,
        policies,
        run.module,
        resolver,
        run.all_files,
        lambda f, n: _runs_by_default(evaluator, f, n),
    )
    # a controller-runtime client reads the cache of a binary that builds one, not a client-go factory's
    cached = [b for b in binaries if _builds(b, run.files, policies, lambda p: p.builds_cache)]
    outside = frozenset().union(*(b.packages for b in every_binary if b not in binaries))
    sites = _resolve_sites(run, pending, clients, binaries, evaluator, anchors, cached, links, cache_policies, outside)
    return sites, cache_policies


def _parse(run: _Run, source: SourceFile) -> None:
    tree = parser.parse(source)
    error = parser.first_syntax_error(tree)
    if error is not None:
        line = error.start_point.row + 1
        # tree-sitter-go also fails on some valid Go (a label named `nil`): the message does not blame the code
        message = f"cannot parse line {line} (a syntax error, or Go the parser does not read); analyzed what parsed"
        run.notifications.append(Notification(source.path, message, NotificationLevel.WARNING, line=line))
    run.comments.extend(parser.extract_comments(source, tree))
    directory = os.path.relpath(os.path.dirname(source.path) or ".", run.unit.shown_root)
    directory = "" if directory == "." else directory.replace(os.sep, "/")
    module_directory, module = run.module_of(directory)
    inside = directory.removeprefix(module_directory).strip("/")
    index = index_nodes(tree)
    clauses = index["package_clause"]
    names = [child for clause in clauses[:1] for child in clause.named_children if child.type == "package_identifier"]
    file = GoFile(
        source=source,
        tree=tree,
        directory=directory,
        package_path=module.package_path(inside),
        package_name=parser.text(names[0]) if names else "",
        imports=extract_imports(index["import_spec"]),
        index=index,
    )
    run.all_files.append(file)
    data = source.data
    if _KUBERNETES_IMPORT in data or KNATIVE_INFORMERS.encode() in data or _KNATIVE_INJECTION in data:
        run.files.append(file)


def _runs_by_default(evaluator: Evaluator, file: GoFile, node: tree_sitter.Node) -> bool:
    """Whether code runs in the default deployment: not guarded by a condition false by default."""
    condition = evaluator.condition(file, node)
    return condition is None or condition.holds_by_default is not False


def _deployed_packages(run: _Run) -> frozenset[str] | None:
    """The packages of the binaries that build a cache (found by its constructor's call, before any policy);
    None when no binary does (a library)."""
    building = {file.package_path for file in run.files if constructs_a_cache(file)}
    binaries = run.binaries()
    reached = [binary.packages for binary in binaries if binary.packages & building]
    return frozenset().union(*reached) if reached else None


def _builds(
    binary: Binary, files: list[GoFile], policies: dict[str, FilePolicy], builds: Callable[[FilePolicy], bool]
) -> bool:
    """Whether a file built into the binary `builds` something (a manager, cache or informer factory; a
    controller-runtime cache)."""
    return any(_in_binary(file, binary.packages) and builds(policies.get(file.path, FilePolicy())) for file in files)


def _in_binary(file: GoFile, packages: frozenset[str] | None) -> bool:
    """Whether a file is built into a binary reaching `packages` (None: the module as a whole, whose policy
    pools every file): a binary never holds its packages' tests, whose envtest managers are not its own."""
    if packages is None:
        return True
    return file.package_path in packages and not file.path.endswith("_test.go")


def _policies(
    binaries: list[Binary], files: list[GoFile], policies: dict[str, FilePolicy], shown_root: str
) -> list[CachePolicy]:
    every_origin = {span for item in policies.values() for span in item.origins}

    def policy(key: str, label: str, packages: frozenset[str] | None) -> CachePolicy:
        chosen = [policies[f.path] for f in files if f.path in policies and _in_binary(f, packages)]
        unstructured = [span for item in chosen for span in item.caches_unstructured]
        origins = tuple(span for item in chosen for span in item.origins)
        # options a shared package builds for another binary's manager only (devworkspace-operator's webhook
        # cache function, beside the operator's) narrow nothing this binary builds
        others = every_origin.difference(origins)
        guards = [guard for item in chosen for guard in item.origin_guards]
        # beside a manager the default deployment builds, one built only when a setting asks for another program
        # (kubemacpool's RUN_CERT_MANAGER) does not run: its options narrow nothing that runs; a client-go
        # factory built unconditionally is no such manager (testkube's, beside its manager of a setting)
        factories = {span for item in chosen for span in item.factory_origins}
        managers = [(origin, guard) for origin, guard in zip(origins, guards, strict=True) if origin not in factories]
        idle = {origin for origin, guard in managers if guard is not None}
        if len(idle) == len({origin for origin, _ in managers}):
            idle = set()
        restrictions = [
            restriction
            for item in chosen
            for restriction in item.restrictions
            if not restriction.reaches
            or not (others.issuperset(restriction.reaches) or idle.issuperset(restriction.reaches))
        ]
        return CachePolicy(
            key=key,
            label=label,
            origins=tuple(origin for origin in origins if origin not in idle),
            restrictions=_relative_to_origins(restrictions, [guard for _, guard in managers]),
            caches_unstructured=unstructured[0] if unstructured else None,
            transforms=tuple(transform for item in chosen for transform in item.transforms),
            factory_origins=tuple(span for item in chosen for span in item.factory_origins),
        )

    result = [policy(binary.key, _binary_label(binary.key), binary.packages) for binary in binaries]
    result.append(policy(MODULE_KEY, f"module {shown_root}", None))
    caches: dict[str, tuple[list[Span], list[Restriction]]] = {}
    for item in policies.values():  # the workload clusters' caches are configured in one file or several
        for key, cluster in item.clusters.items():
            origins, restrictions = caches.setdefault(key, ([], []))
            origins.append(cluster.origin)
            restrictions.extend(cluster.restrictions)
    result.extend(CachePolicy(key, key, tuple(origins), tuple(found)) for key, (origins, found) in caches.items())
    return result


def _factory_kinds(pending: list[PendingSite]) -> dict[tuple[str, int], frozenset[str]]:
    """The kinds each informer factory hands out informers of, by its constructor (path, first byte): the
    sites' kinds, and for a factory held in a local of the sites' file, every accessor read on the local
    (`f.Apps().V1().Deployments()`, a kind outside the catalogue too); a factory built in another file, or a
    local used otherwise (handed to a function, stored), may serve any kind, named "*"."""
    found: dict[tuple[str, int], set[str]] = {}
    for item in pending:
        constructor = item.factory_constructor
        if constructor is None:
            continue
        kinds = found.get(constructor)
        if kinds is None:  # the function holding the factory is read once, for its first site
            kinds = found[constructor] = _accessors_read(item.file, constructor, item.object.kind)
        kinds.add(item.object.kind)
        if constructor[0] != item.file.path:  # a site reaching it from another file: through a parameter or field
            kinds.add("*")
    return {constructor: frozenset(kinds) for constructor, kinds in found.items()}


_ASSIGNED_LOCAL = re.compile(rb"(\w+)\s*:?=\s*$")
_ACCESSOR = rb"\.\w+\(\)\.\w+\(\)\.(\w+)\(\)"


def _accessors_read(file: GoFile, constructor: tuple[str, int], kind: str) -> set[str]:
    """The informers a factory constructed in `file` and assigned to a local hands out in the function that
    declares the local, by accessor name (`kind`'s own as the kind); {"*"} where the factory is built in another
    file (reached through a parameter or a field), or the local is used otherwise or not found."""
    path, start = constructor
    node = file.tree.root_node.descendant_for_byte_range(start, start) if path == file.path else None
    function = file.enclosing_function(node) if node is not None else None
    if function is None:
        return {"*"}
    data = file.source.data
    line_start = data.rfind(b"\n", 0, start) + 1
    assigned = _ASSIGNED_LOCAL.search(data[line_start:start])
    if assigned is None:
        return {"*"}
    name = re.escape(assigned.group(1))
    used = re.compile(rb"\b" + name + rb"\b(" + _ACCESSOR + rb"|\.(?:Start|WaitForCacheSync|Shutdown)\(|\s*:?=)?")
    uses = used.findall(data, function.start_byte, function.end_byte)
    if any(not use[0] for use in uses):
        return {"*"}
    plural = go_plural(kind).encode()
    return {kind if accessor == plural else accessor.decode() for _, accessor in uses if accessor}


def _typed_handlers(pending: list[PendingSite]) -> dict[str, Span]:
    """Per kind, the first watch whose handler reads its objects typed: it stays typed, so a metadata-only watch
    of the kind elsewhere would add a second informer (WL005) rather than save one."""
    found: dict[str, Span] = {}
    for item in pending:
        if item.handles_typed and item.operation is Operation.WATCH:
            found.setdefault(item.object.kind, item.span)
    return found


def _drop_opaque_field_keys(pending: list[PendingSite]) -> None:
    """An option a function held in a field gives (`r.podMatchingFields(meta)`) may filter on a cache index
    only where the module indexes the kind: elsewhere it filters on no field the API server would reject."""
    indexed = {item.object.kind for item in pending if item.call == "IndexField"}
    for item in pending:
        if item.object.kind not in indexed and any(key.opaque for key in item.field_keys):
            item.field_keys = [key for key in item.field_keys if not key.opaque]


def _relative_to_origins(restrictions: list[Restriction], guards: list[Span | None]) -> tuple[Restriction, ...]:
    """A restriction kept off by the same guard as every manager of the binary applies whenever there is a
    manager at all (tetragon builds its one manager, ByObject included, only under --enable-k8s-api)."""
    shared = guards[0] if guards and all(guard == guards[0] for guard in guards) else None
    if shared is None:
        return tuple(restrictions)
    return tuple(
        replace(restriction, condition=None)
        if restriction.condition is not None and restriction.condition.span == shared
        else restriction
        for restriction in restrictions
    )


def _judged_namespaces(item: PendingSite, evaluator: Evaluator) -> tuple[Restriction, ...]:
    """The site's restrictions, a namespace variable that names all namespaces by default made conditional:
    `NewSharedInformerFactoryWithOptions(cs, 0, informers.WithNamespace(namespace))` with
    `namespace := metav1.NamespaceAll` unless a flag is set; a namespace field that does moved last."""
    judged = {id(restriction): restriction for restriction in item.restrictions}
    weak: list[
        Restriction
    ] = []  # fields naming every namespace by default: they still count, after the site's other restrictions
    for restriction, file, node in item.namespaces:
        if evaluator.variables.ranges_over_every_namespace(file, node):
            judged.pop(id(restriction))  # a loop one of whose rounds uses every namespace: the note says why
            every_round = f'`{parser.text(node)}` is "" in one round of the loop: every namespace'
            item.through = item.through or Evidence(file.span(node), every_round)
            continue
        every = evaluator.every_namespace(file, node)
        # a field filled by a setting names every namespace by default as a variable does; where the site itself
        # sits under a condition that cannot be told (cert-manager builds its rfc2136 informer only where no
        # lister was injected), and for a field of unknown source, it still counts, after the other restrictions
        configured = every is not None and bool(every[0].origin) and not _under_unknown_guard(item, evaluator)
        is_field = (
            node.type == "selector_expression" and parser.text(node.child_by_field_name("operand")) not in file.imports
        )
        if is_field and not configured and _passed_literal(file, node, evaluator) is None:
            _judge_field_namespace(restriction, (file, node), evaluator, every is not None, (judged, weak))
            continue
        # a value no setting gives (the callers of a helper pass `""`) is cited by the call that passes it
        caller = _passes_every_namespace(file, node, evaluator) if every is None or not every[0].origin else None
        if every is not None and not every[0].origin and caller is None and _names_a_constant(evaluator, file, node):
            judged.pop(id(restriction))  # `const namespace = corev1.NamespaceAll`: every namespace, unconditionally
            if item.library_go_factory and item.through is None:  # `InformersFor(allNamespaces)`, as of `""`
                every_factory = f"`{restriction.text}` is library-go's informer factory over every namespace"
                item.through = Evidence(restriction.span, every_factory)
            continue
        if caller is not None and caller.origin:  # a setting empty by default, one caller's: named as such
            text: str | None = f"{evaluator.guarding.set_text(caller.origin, file)} ({caller.where} passes it)"
        elif caller is not None:
            text = f"`{parser.text(node)}` is not empty ({caller.where} {_EMPTY_BY[caller.how]})"
        else:
            text = every[1] if every is not None else None
        if text is not None:
            judged[id(restriction)] = replace(restriction, condition=Condition(text, restriction.span, False))
    _judge_selectors(item, evaluator, judged)
    return (*judged.values(), *weak)


def _judge_field_namespace(
    restriction: Restriction,
    read: tuple[GoFile, tree_sitter.Node],
    evaluator: Evaluator,
    empty: bool,
    outcome: tuple[dict[int, Restriction], list[Restriction]],
) -> None:
    """A namespace read from a field no setting fills: conditional where the module writes every namespace to it
    outright; else, `empty` by default, moved to the weak restrictions that count after the site's others."""
    (file, node), (judged, weak) = read, outcome
    written = _writes_every_namespace(file, node, evaluator) if not empty else None
    if written is not None:
        text = f'`{parser.text(node)}` is not empty ({written} writes "")'
        judged[id(restriction)] = replace(restriction, condition=Condition(text, restriction.span, False))
    elif empty:
        weak.append(judged.pop(id(restriction)))


def _writes_every_namespace(file: GoFile, node: tree_sitter.Node, evaluator: Evaluator) -> str | None:
    """Where the module writes every namespace to the field a namespace is read from (`f.namespace`), as
    `file:line`; None when it does not, or the field's struct is not known."""
    operand = node.child_by_field_name("operand")
    owner = evaluator.resolver.type_of(file, operand) if operand is not None else None
    if owner is None:
        return None
    written = evaluator.fields.every_namespace_write(parser.text(node.child_by_field_name("field")), owner)
    return f"{written[0].path}:{written[1].start_point.row + 1}" if written is not None else None


def _judge_selectors(item: PendingSite, evaluator: Evaluator, judged: dict[int, Restriction]) -> None:
    """Judge the site's list-option tweaks and selectors held in variables in `judged` (by restriction id)."""
    for restriction, file, node in item.tweaks:
        judged_tweak = _judged_tweak(restriction, file, node, evaluator)
        if judged_tweak is None:
            judged.pop(id(restriction))
        else:
            judged[id(restriction)] = judged_tweak
    judged.update(_judged_selector_values(item, evaluator))
    for restriction, file, node in item.guarded:  # a selector a tweak sets only under a condition
        held = judged.get(id(restriction))
        if held is not None and held.condition is not None and held.condition.holds_by_default is False:
            continue  # its value is empty by default: it narrows nothing, whatever guards the write
        if (condition := evaluator.condition(file, node)) is not None:
            judged[id(restriction)] = replace(restriction, condition=condition)


def _names_a_constant(evaluator: Evaluator, file: GoFile, node: tree_sitter.Node) -> bool:
    """Whether an expression names a constant (`namespace` of `const namespace = apiv1.NamespaceAll`), or takes
    every namespace from a slice literal naming nothing else (`for _, ns := range []string{metav1.NamespaceAll}`)."""
    declaration = evaluator.resolver.declaration(file, node) if node.type == "identifier" else None
    ranged = declaration.ranged_node if declaration is not None else None
    if ranged is not None and is_slice_literal(ranged):
        items = literal_items(ranged)
        return bool(items) and all(names_every_namespace(file, item) for item in items)
    written = local_values(evaluator.resolver, file, node) if node.type == "identifier" else None
    if written and all(names_every_namespace(file, value) for value in written):
        return True  # `all := metav1.NamespaceAll`, never set otherwise (k8s-lookout's drain simulation)
    held = evaluator.resolver.held_value(file, node) if node.type in ("identifier", "selector_expression") else None
    spec = held[1].parent if held is not None else None
    if spec is not None and spec.type == "expression_list":
        spec = spec.parent
    return spec is not None and spec.type == "const_spec"


def _judged_selector_values(item: PendingSite, evaluator: Evaluator) -> Iterator[tuple[int, Restriction]]:
    """A ListFunc's selector read from a variable that is empty by default (`o.FieldSelector = sel` with `sel` set
    only under a flag, kwok's node selector), made conditional on what sets it; by the restriction's id."""
    for restriction, file, node in item.selector_values:
        value = evaluator.value_at(file, node)
        if isinstance(value, Val) and value.value in ("", None):
            text = given(value.origin) if value.origin else f"`{parser.text(node)}` is not empty"
            yield id(restriction), replace(restriction, condition=Condition(text, restriction.span, False))
        elif (caller := _passes(file, node, evaluator, "")) is not None:
            # a helper's callers disagree and one passes no selector (katalyst's metric binary): that one
            # lists every object (SPEC §1)
            text = given(caller.origin) if caller.origin else f"`{parser.text(node)}` is not empty"
            text = f"{text} ({caller.where} {_EMPTY_BY[caller.how]})"
            yield id(restriction), replace(restriction, condition=Condition(text, restriction.span, False))


def _under_unknown_guard(item: PendingSite, evaluator: Evaluator) -> bool:
    """Whether a site runs only where something was not injected (`if s.secrets == nil { … }`, cert-manager's
    rfc2136 informer), a condition the default deployment cannot be told to hold or not; any other condition
    (`switch creator.Kind`, VPA's updater) says nothing of the namespace the site's informer is given."""
    condition = evaluator.condition(item.file, item.node)
    return condition is not None and condition.holds_by_default is None and _under_a_nil_test(item.node)


def _under_a_nil_test(node: tree_sitter.Node) -> bool:
    """Whether a node sits in the block of an `if` testing something against nil, within its function."""
    child, current = node, node.parent
    while current is not None and current.type not in ("function_declaration", "method_declaration", "func_literal"):
        condition = current.child_by_field_name("condition") if current.type == "if_statement" else None
        if condition is not None and child is not condition and re.search(r"[!=]=\s*nil\b", parser.text(condition)):
            return True
        child, current = current, current.parent
    return False


def _judged_tweak(
    restriction: Restriction, file: GoFile, node: tree_sitter.Node, evaluator: Evaluator
) -> Restriction | None:
    """A list-option tweak held in a variable or parameter: none when it is nil, conditional when it is nil
    unless a flag is set (sealed-secrets' tweak for --label-selector) or a caller passes nil."""
    value = evaluator.value_at(file, node)
    if isinstance(value, Val) and value.value is None and not value.origin:
        return None
    if isinstance(value, Val) and value.value is None:
        text = evaluator.guarding.set_text(value.origin, file)
        return replace(restriction, condition=Condition(text, restriction.span, False))
    if (caller := _passes_nil(file, node, evaluator)) is not None:
        text = f"`{parser.text(node)}` is not nil ({caller.where} {caller.how} nil)"
        return replace(restriction, condition=Condition(text, restriction.span, False))
    return restriction


class _Passing(NamedTuple):
    """The call giving a helper's parameter the value in question: where, how ("passes" it as it is, "leaves" a
    field of the literal it passes so, "makes" a local of the helper so) and the setting it comes from, if any."""

    where: str
    how: str
    origin: str


def _passes_every_namespace(file: GoFile, node: tree_sitter.Node, evaluator: Evaluator) -> _Passing | None:
    """Where a namespace parameter's callers disagree, the call that passes every namespace (`""`), as
    `file:line`: that call lists the whole cluster (SPEC §1, a finding when any leaves it unrestricted)."""
    return _passes(file, node, evaluator, "")


def _passes_nil(file: GoFile, node: tree_sitter.Node, evaluator: Evaluator) -> _Passing | None:
    """Where a tweak parameter's callers disagree, the call that passes no tweak (nil), as `file:line`."""
    return _passes(file, node, evaluator, None)


def _passes(
    file: GoFile, node: tree_sitter.Node, evaluator: Evaluator, passed_value: str | None, hops: int = 3
) -> _Passing | None:
    """The call that passes `passed_value` for the parameter `node` names, followed up through callers that
    hand on a parameter of their own (`prepareController(cs, namespace, …)` passing it to the factory's
    helper), up to `hops` calls up; `*ns` names the parameter `ns` a caller passes `&namespace` for. With it,
    how: "passes" the value as it is, "leaves" a field of the literal it passes so, or "makes" a local the
    helper computes from its parameters so (`ns := namespace; if ns == "" {…}`)."""
    if node.type == "unary_expression" and parser.text(node.child_by_field_name("operator")) in ("*", "&"):
        node = node.child_by_field_name("operand") or node
    field = ""
    if _passed_literal(file, node, evaluator) is not None:  # `l.Namespace` of a literal `ListOpts{}` passed
        field, node = parser.text(node.child_by_field_name("field")), node.child_by_field_name("operand") or node
    declaration = evaluator.resolver.declaration(file, node) if node.type == "identifier" else None
    key = evaluator.resolver.function_key(file, node) if declaration is not None else None
    if declaration is None or key is None:
        return None
    if declaration.parameter_index < 0:
        return _computed_by_a_call(file, node, evaluator, key, passed_value)
    index = declaration.parameter_index
    for caller_file, call in evaluator.calls.passing_calls(key):
        passed = evaluator.argument(caller_file, call, index, 1)
        if field:
            literal = passed.value if isinstance(passed, Val) else None
            passed = evaluator.literal_field(literal, field, 1) if isinstance(literal, StructLiteral) else UNKNOWN
        if isinstance(passed, Val) and passed.value == passed_value and not passed.unseen:
            where = f"{caller_file.path}:{call.start_point.row + 1}"
            return _Passing(where, "leaves", "") if field else _Passing(where, "passes", passed.origin)
        values = parser.named(call.child_by_field_name("arguments") or call)
        if hops > 1 and index < len(values) and not isinstance(passed, Val) and not field:
            found = _passes(caller_file, values[index], evaluator, passed_value, hops - 1)
            if found is not None:
                return found
    return None


def _computed_by_a_call(
    file: GoFile, node: tree_sitter.Node, evaluator: Evaluator, key: FunctionKey, passed_value: str | None
) -> _Passing | None:
    """The call of a helper whose arguments make a local of it `passed_value` where the calls disagree (fission:
    `ns := namespace; if ns == "" { ns = metav1.NamespaceAll }`, one caller passing `os.Getenv("NS")`, another
    `"fission"`): the helper's parameters bound to what each call passes, as the evaluation binds a call's."""
    info = evaluator.resolver.declarations.functions.get(key)
    if info is None or not info.parameters:
        return None
    unbound = evaluator.value_at(file, node)
    if isinstance(unbound, Val) and unbound.value == passed_value:
        return None  # so whatever the calls pass: no call makes it so
    for caller_file, call in evaluator.calls.passing_calls(key)[:_CALLS_BOUND]:
        values = parser.named(call.child_by_field_name("arguments") or call)
        bound = evaluator.arguments_bound(caller_file, info, values, evaluator.parameters(caller_file, call), 1)
        value = evaluator.value(file, node, CallBindings(info.node, bound), 1)
        if isinstance(value, Val) and value.value == passed_value and not value.unseen:
            return _Passing(f"{caller_file.path}:{call.start_point.row + 1}", "makes", "")
    return None


def _passed_literal(file: GoFile, node: tree_sitter.Node, evaluator: Evaluator) -> StructLiteral | None:
    """The struct literal every call passes for the parameter whose field a selector reads (`l.Namespace`
    where the calls pass `ListOpts{}`), if they do."""
    operand = node.child_by_field_name("operand") if node.type == "selector_expression" else None
    if operand is None or operand.type != "identifier":
        return None
    bound = evaluator.parameters(file, node)
    name = parser.text(operand)
    if name not in bound:  # reading the parameter binds it, which `get` would not
        return None
    passed = bound[name]
    return passed.value if isinstance(passed, Val) and isinstance(passed.value, StructLiteral) else None


def _binary_label(key: str) -> str:
    return "binary at the module root" if key == "." else f"binary {key}"


def _resolve_sites(
    run: _Run,
    pending: list[PendingSite],
    clients: ClientGraph,
    binaries: list[Binary],
    evaluator: Evaluator,
    anchors: Anchors,
    cached: list[Binary],
    links: ManagerLinks,
    policies: list[CachePolicy],
    outside: frozenset[str] = frozenset(),
) -> list[Site]:
    """Resolve every site's client first: a fix may depend on other sites (DisableFor on every cached List of
    its kind, OnlyMetadata on the typed reads), so fixes are built only once all are known. `outside`: the
    packages of the binaries that build no manager of the module's (see _site)."""
    typed = [item for item in pending if item.object.form is ObjectForm.TYPED]
    watched = Counter(item.object.kind for item in typed if item.operation is Operation.WATCH)
    # a label selector on a kind the operator also watches without owning (_UNOWNED_WATCHES) would hide those
    watched_unowned = frozenset(item.object.kind for item in pending if item.call in _UNOWNED_WATCHES)
    package_of = {file.path: file.package_path for file in evaluator.files}
    resolved = [
        found
        for item in pending
        if (
            found := run.site_step(
                item.file, partial(_resolve_access, item, clients, binaries, evaluator, package_of, cached, links)
            )
        )
    ]
    kinds = clients.resolver.kinds
    _drop_opaque_field_keys(pending)
    cached_reads = [(r.item, r.keys) for r in resolved if r.access is Access.CACHE]
    # an OnlyMetadata watch saves nothing while its kind is watched typed at another site, or read typed from
    # the cache (WL005): not by a client without one, nor where DisableFor sends the reads to the API server
    typed_elsewhere = typed_from_a_cache(cached_reads, policies) | {kind for kind, n in watched.items() if n > 1}

    def built_at(literal: LiteralKey) -> tuple[Span, ...]:
        return links.constructions(frozenset({literal}))

    remedies = SiteRemedies(
        OptionsFixes(anchors, built_at),
        typed_elsewhere,
        watched_unowned,
        clients,
        kinds,
        indexed_lists(cached_reads, kinds),
        cached_read_kinds(cached_reads, policies),
        rewriting_transforms(policies),
        built_at,
        run.module.cache_options_era,
        unevenly_selected((r.item, r.keys) for r in resolved if r.access is Access.CACHE),
        _typed_handlers(pending),
        _factory_kinds(pending),
        rbac_grants(run.all_files),
    )
    return [
        site
        for found in resolved
        if (site := run.site_step(found.item.file, partial(_site, found, evaluator, remedies, links, clients, outside)))
    ]


@dataclass(frozen=True, slots=True)
class _Resolved:
    """A pending site with what serves it: its access, the evidence for that, and the policies judging it."""

    item: PendingSite
    access: Access
    evidence: Evidence | None
    restrictions: tuple[Restriction, ...]
    keys: tuple[str, ...]
    read_restrictions: tuple[Restriction, ...] = ()  # a cached read's own, kept for a read served uncached


def _resolve_access(
    item: PendingSite,
    clients: ClientGraph,
    binaries: list[Binary],
    evaluator: Evaluator,
    package_of: dict[str, str],
    cached: list[Binary],
    links: ManagerLinks,
) -> _Resolved | None:
    """None when the receiver is not a controller-runtime client (a vault client, a map, …)."""
    access, evidence, restrictions = item.access, None, _judged_namespaces(item, evaluator)
    origins: tuple[Span, ...] = ()
    read_restrictions: tuple[Restriction, ...] = ()
    other_caches: tuple[str, ...] = ()
    manager_origins: tuple[Span, ...] = ()  # where the manager's clients come from, beside a second cache's
    if item.client is not None:
        known = clients.resolve(item.client)
        if known is None:
            return None
        access, evidence, origins, other_caches = known.access, known.evidence, known.origins, known.other_caches
        manager_origins = known.manager_roots or origins
        if evidence is None and access is Access.CACHE:
            evidence = clients.assumption(item.client)
        elif evidence is not None and access is Access.DIRECT_CLIENT and origins and origins[0] != evidence.span:
            # a chain's last link names a field or parameter: say where the client it holds is built
            root = origins[0]
            evidence = replace(evidence, message=f"{evidence.message}, built without cache at {root.path}:{root.line}")
        item.cache, item.reads_cache_itself, item.own_client = known.cache, known.is_cache_itself, known.own_client
        item.also_managers = bool(known.cache) and "" in other_caches
        item.cluster_client = known.cluster_client
        if access is Access.CACHE and not item.cache:
            item.managers = links.options_of(origins)
        if access is Access.CACHE:  # InNamespace and selectors filter the read, not the informer (SPEC §3.1)
            restrictions, read_restrictions = (), restrictions
    if item.operation is Operation.WATCH and not item.cache:
        given = links.cache_options(*item.source_cache) if item.source_cache is not None else None
        item.managers = links.builder_options(item.file, item.node) if given is None else given
    keys: tuple[str, ...] = ()
    if access is Access.CACHE:
        # the caches the client reads: a cluster's, the manager's (""), or, for a helper given both, each
        keys = tuple(
            key
            for cache in dict.fromkeys((item.cache, *other_caches))
            for key in ((cache,) if cache else _manager_keys(item, binaries, package_of, cached, manager_origins))
        )
    return _Resolved(item, access, evidence, restrictions, keys, read_restrictions)


def _manager_keys(
    item: PendingSite,
    binaries: list[Binary],
    package_of: dict[str, str],
    cached: list[Binary],
    origins: tuple[Span, ...],
) -> tuple[str, ...]:
    """The binaries whose manager caches a read through a manager's client."""
    reaching = [b for b in binaries if item.file.package_path in b.packages]
    # a binary building only client-go factories (kiali's tools/cmd/generate) runs no manager cache
    reaching = [b for b in reaching if b in cached] or reaching
    wired = frozenset(package_of[origin.path] for origin in origins if origin.path in package_of)
    if not origins:  # a watch's builder runs with the manager whose options are known: the binaries building it
        wired |= {package_of[path] for path, _ in item.managers if path in package_of}
    # the binaries that also hold the code handing the site its client: a tool that only imports the
    # package (argo-cd's hack/gen-catalog) does not run the site with that manager's client
    running = [b for b in reaching if wired & b.packages]
    return tuple(b.key for b in running or reaching) or (MODULE_KEY,)


def _handler_filters(item: PendingSite, evaluator: Evaluator) -> Iterator[Evidence]:
    """The filtering handlers of an informer added by default, or under the site's own guards: one a setting
    false by default adds (`if cfg.ACLEnabled { pods.Informer().AddEventHandler(…) }`) leaves the informer of an
    unguarded `Lister()` unfiltered."""
    site_condition: Condition | None = None
    for evidence, handler in item.handler_filters:
        condition = evaluator.condition(item.file, handler)
        if condition is not None and condition.holds_by_default is False:
            site_condition = site_condition or evaluator.condition(item.file, item.node)
            if site_condition is None or site_condition.holds_by_default is not False:
                continue
        yield evidence


def _site_condition(found: _Resolved, evaluator: Evaluator, clients: ClientGraph) -> Condition | None:
    """The conditions of a site; for a cached read through a parameter or a field that may run, those of the
    calls passing it a cache-backed client or the writes storing one: where each is off by default, so is the
    informer (liqo's leader-election labeler, whose helper other code calls with a client.New client;
    tofu-controller's runner server, given the manager's client only for a local test run)."""
    item = found.item
    condition = evaluator.condition(item.file, item.node)
    if item.read_at is not None and (condition is None or condition.holds_by_default is not False):
        # reported at a helper's call: the helper's own guards of the read (envoy gateway's checkOwnership
        # returns before its Get unless gateway-namespace mode is on)
        inside = evaluator.guarding.within(*item.read_at)
        condition = inside if inside is not None and inside.holds_by_default is False else condition
    if condition is not None or found.access is not Access.CACHE or not isinstance(item.client, ParamRef | FieldRef):
        return condition
    places = clients.cached_value_places(item.client)
    return evaluator.guarding.off_at_every_place(places) if places else None


def _site(
    found: _Resolved,
    evaluator: Evaluator,
    remedies: SiteRemedies,
    links: ManagerLinks,
    clients: ClientGraph,
    outside: frozenset[str] = frozenset(),
) -> Site:
    """`outside`: the packages of binaries that build no manager of the module's. A site judged by the module's
    options that one of them runs is run by another module's manager (karpenter's kwok code): no edit of the
    module's options would narrow it, though a site no binary runs (a build-tagged provider) may be."""
    item = found.item
    runs_elsewhere = found.keys == (MODULE_KEY,) and item.file.package_path in outside
    fix_keys = () if runs_elsewhere else found.keys
    return Site(
        operation=item.operation,
        access=found.access,
        kind=item.object.kind,
        form=item.object.form,
        span=item.span,
        call=item.call,
        helper_call=item.helper_call,
        library_reader=item.library_reader,
        injected=item.injected,
        construct=item.construct,
        enclosing=item.enclosing,
        policy_keys=found.keys,
        managers=links.constructions(item.managers),
        restrictions=found.restrictions,
        read_restrictions=found.read_restrictions,
        filters=(*item.filters, *_handler_filters(item, evaluator)),
        condition=_site_condition(found, evaluator, clients),
        access_evidence=found.evidence,
        through=item.through,
        transform=item.transform,
        list_watch=item.list_watch,
        alone_in_factory=remedies.alone_in_factory(item),
        reads_cache_itself=item.reads_cache_itself,
        own_client=item.own_client,
        cache_options_era=remedies.era,
        fixes=remedies.fixes(item, found.access, fix_keys),
        suggestion=remedies.suggestion(item, found.access, found.keys),
    )
