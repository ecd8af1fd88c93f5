"""Informers of wrangler's generated controllers, over rancher's lasso shared cache (SPEC §3.1, informer
factories): `secrets.OnChange(ctx, name, handler)` or `Core().V1().Secret().Cache()` registers an informer of
the kind in the factory's shared cache, cluster-wide unless the cache is built with a namespace or a list tweak.

The controllers travel far from the factory (a `corecontrollers.SecretController` parameter, an `Interface`
held in a context struct), so the factories are judged binary by binary, as knative's injection is: a site is
open when a binary reaching it builds a factory of its group, or a lasso shared cache, with neither namespace
nor tweak.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

import tree_sitter

from watchlint.catalog import KindIndex
from watchlint.facts import Access, Evidence, Mitigation, ObjectForm, Operation, Restriction
from watchlint.go import parser
from watchlint.go.model import GoFile, TypeRef, shared_folders
from watchlint.go.module import DYNAMICLISTENER, GoModule, release
from watchlint.go.pending import PendingSite, guard_added, method_name, operand_of, pending_site, restrict_namespace
from watchlint.go.resolve import ObjectRef, Resolver, keyed_elements, keyed_entries
from watchlint.go.values import ValueTracer

# the package of a group-version's generated controllers (`…/generated/controllers/core/v1`), wrangler's or
# a module's own, and of the group's factory (`…/generated/controllers/core`)
_CONTROLLERS = re.compile(r"/pkg/generated/controllers/(?P<group>[^/]+)/(?P<version>v[0-9a-z]+)$")
_FACTORY = re.compile(r"/pkg/generated/controllers/(?P<group>[^/]+)$")
_WRANGLER = re.compile(
    r"^github\.com/rancher/wrangler(?:/v[0-9]+)?/pkg/(?P<package>clients|generic|relatedresource|apply)$"
)
_LASSO_CACHE = "github.com/rancher/lasso/pkg/cache"
_LASSO_CONTROLLER = "github.com/rancher/lasso/pkg/controller"
# lasso's shared controller factory built from a config, over a shared cache of its own
_CONTROLLER_FACTORIES = frozenset(
    {"NewSharedControllerFactoryFromConfig", "NewSharedControllerFactoryFromConfigWithOptions"}
)
# the API packages of the groups wrangler generates controllers for, where catalogue kinds live
_API_PACKAGES = {
    "core": "k8s.io/api/core/v1",
    "batch": "k8s.io/api/batch/v1",
    "apps": "k8s.io/api/apps/v1",
    "discovery": "k8s.io/api/discovery/v1",
    "events": "k8s.io/api/events/v1",
}
# a group's accessor on a factory or on wrangler's Clients: `Core()`, `Batch()`…
_GROUP_ACCESSORS = {"Core": "core", "Batch": "batch", "Apps": "apps", "Discovery": "discovery", "Events": "events"}
# what a controller does that registers its informer in the shared cache
REGISTERING = frozenset({"OnChange", "OnRemove", "Cache", "Informer", "AddGenericHandler", "AddGenericRemoveHandler"})
# what hands controllers on to have their informers registered: apply's cache types, relatedresource, apply.New,
# dynamiclistener's server and Kubernetes storage (which store certificates in a Secret they watch)
HANDING_ON = frozenset({"WithCacheTypes", "Watch", "WatchClusterScoped", "New", "ListenAndServe", "Load"})
_SHOWN = 32  # the longest controller expression a construct is shown with
_OPEN_FACTORIES = frozenset({"NewFactoryFromConfig", "NewFactoryFromConfigOrDie"})
_OPTIONS_FACTORIES = frozenset({"NewFactoryFromConfigWithOptions", "NewFactoryFromConfigWithOptionsOrDie"})
_FACTORY_HELP = (
    "Build the wrangler factory with a namespace (FactoryOptions{{Namespace: ns}}), or hand it a lasso shared cache "
    "built with a DefaultNamespace or a KindTweakList entry for {kind} that sets a label or field selector"
)
_CACHE_HELP = (
    "Give the lasso shared cache a DefaultNamespace in its SharedCacheFactoryOptions, or a KindTweakList entry "
    "for {kind} that sets a label or field selector (a factory handed this cache ignores its own Namespace)"
)
_CONTROLLER_FACTORY_HELP = (
    "Build the lasso shared controller factory with NewSharedControllerFactoryFromConfigWithOptions and "
    "CacheOptions (cache.SharedCacheFactoryOptions) giving a DefaultNamespace, or a KindTweakList entry for {kind} "
    "that sets a label or field selector (a wrangler factory handed it ignores its own Namespace)"
)
_WITH_KIND = re.compile(r'\.WithKind\("(?P<kind>[A-Za-z]+)"\)$')  # `corev1.SchemeGroupVersion.WithKind("Secret")`


class _Scope(Enum):
    OPEN = "open"  # every namespace, no tweak
    NAMESPACE = "namespace"  # a namespace, judged for the default deployment
    TWEAK = "tweak"  # a list tweak: a selector the code sets
    UNKNOWN = "unknown"  # options not seen: they count (SPEC §1)


@dataclass(frozen=True, slots=True)
class _Factory:
    """A construction of a wrangler factory or lasso cache with what it scopes informers to."""

    file: GoFile
    call: tree_sitter.Node
    scope: _Scope
    value: tree_sitter.Node | None = None  # the namespace expression, for NAMESPACE
    group: str | None = None  # the one group whose informers it builds (`core.NewFactory…`); None: any group
    kinds: frozenset[str] | None = None  # the kinds a per-kind tweak or namespace scopes; None: every kind

    @property
    def is_cache(self) -> bool:
        """A lasso shared cache, whose options are the ones to change (a factory given it ignores its own)."""
        return self.group is None and method_name(self.call) == "NewSharedCachedFactory"

    @property
    def is_controller_factory(self) -> bool:
        """A lasso shared controller factory built from a config, whose cache options are the ones to change."""
        return self.group is None and method_name(self.call) in _CONTROLLER_FACTORIES

    @property
    def noun(self) -> str:
        """What messages call it."""
        if self.is_cache:
            return "lasso shared cache"
        return "lasso shared controller factory" if self.is_controller_factory else "wrangler factory"

    def covers(self, group: str, kind: str) -> bool:
        return (self.group is None or self.group == group) and (self.kinds is None or kind in self.kinds)


class WranglerSites:
    """Finds the informers wrangler controllers register, and the factories of the module."""

    def __init__(
        self, resolver: Resolver, values: ValueTracer, kinds: KindIndex, client_go_accessors: frozenset[str]
    ) -> None:
        self.resolver = resolver
        self.values = values
        self.kinds = kinds
        # client-go's informer accessors (`Endpoints()` of `factory.Core().V1()`): no wrangler controller's
        # unless its type says so
        self.client_go_accessors = client_go_accessors
        self.factories: list[_Factory] = []
        self.module_of: Callable[[GoFile], GoModule] | None = None  # the go.mod a file is built with

    def record_factory(
        self, file: GoFile, call: tree_sitter.Node, operand: tree_sitter.Node, method: str, operand_text: str
    ) -> bool:
        """Keep a construction of a factory or shared cache; whether the call is one (`operand_text`: the
        operand's text, which the caller has)."""
        package = file.imports.get(operand_text, "") if operand.type == "identifier" else ""
        if "/rancher/" not in package and "/generated/controllers/" not in package:
            return False  # most calls: no package, or another one
        arguments = parser.named(call.child_by_field_name("arguments") or call)
        wrangler = _WRANGLER.search(package)
        # a factory of a custom resource group builds a cache of its own kinds only, unless it shares one
        grouped = (matched := _FACTORY.search(package)) is not None and matched["group"] in _API_PACKAGES
        group = matched["group"] if grouped and matched is not None else None
        if grouped and method in _OPEN_FACTORIES:
            scope = _Factory(file, call, _Scope.OPEN, group=group)
        elif grouped and method == "NewFactoryFromConfigWithNamespace" and len(arguments) > 1:
            scope = _Factory(file, call, _Scope.NAMESPACE, arguments[1], group=group)
        elif len(arguments) > 1 and (
            (grouped and method in _OPTIONS_FACTORIES)
            or (wrangler is not None and wrangler["package"] == "clients" and method in ("New", "NewFromConfig"))
            or (wrangler is not None and wrangler["package"] == "generic" and method in _OPTIONS_FACTORIES)
        ):
            found = self._factory_options(file, call, arguments[1], group)
            if found is None:
                return True  # its cache is another factory's, recorded where that one is built
            scope = found
        elif package == _LASSO_CACHE and method == "NewSharedCachedFactory" and len(arguments) > 1:
            scope = self._cache_options(file, call, arguments[1])
        elif package == _LASSO_CONTROLLER and method in _CONTROLLER_FACTORIES:
            scope = self._controller_factory_options(file, call, arguments[2] if len(arguments) > 2 else None)
        else:
            return False
        if not file.is_test:
            self.factories.append(scope)
        return True

    def _factory_options(
        self, file: GoFile, call: tree_sitter.Node, options: tree_sitter.Node, group: str | None
    ) -> _Factory | None:
        """What `FactoryOptions` give a factory of `group` (None: wrangler's Clients, every group): a namespace,
        its own cache over every one; None where they hand it a shared cache or controller factory built
        elsewhere, whose options alone count (wrangler's generic factory ignores its Namespace then)."""
        fields = self._fields_given(file, options)
        if isinstance(fields, _Scope):
            return _Factory(file, call, fields, group=group)
        if "SharedControllerFactory" in fields or "SharedCacheFactory" in fields:
            return None
        if "Namespace" in fields:
            return _Factory(file, call, _Scope.NAMESPACE, fields["Namespace"], group=group)
        return _Factory(file, call, _Scope.OPEN, group=group)

    def _controller_factory_options(
        self, file: GoFile, call: tree_sitter.Node, options: tree_sitter.Node | None
    ) -> _Factory:
        """What lasso's `SharedControllerFactoryOptions` scope the cache of a controller factory built from a config
        to (harvester's `NewSharedControllerFactoryFromConfig(cfg, scheme)`): every namespace, unless their
        CacheOptions say otherwise."""
        fields = self._fields_given(file, options) if options is not None else _Scope.OPEN
        if isinstance(fields, _Scope):
            return _Factory(file, call, fields)
        if "CacheOptions" in fields:
            return self._cache_options(file, call, fields["CacheOptions"])
        return _Factory(file, call, _Scope.OPEN)

    def _cache_options(self, file: GoFile, call: tree_sitter.Node, options: tree_sitter.Node) -> _Factory:
        """What `SharedCacheFactoryOptions` scope the lasso cache's informers to."""
        fields = self._fields_given(file, options)
        if isinstance(fields, _Scope):
            return _Factory(file, call, fields)
        if "DefaultTweakList" in fields:
            return _Factory(file, call, _Scope.TWEAK)
        if "DefaultNamespace" in fields:
            return _Factory(file, call, _Scope.NAMESPACE, fields["DefaultNamespace"])
        per_kind = [fields[name] for name in ("KindTweakList", "KindNamespace") if name in fields]
        if per_kind:
            # the kinds the maps key (`corev1.SchemeGroupVersion.WithKind("Secret")`): the others stay open
            kinds = self._keyed_kinds(file, per_kind)
            return (
                _Factory(file, call, _Scope.TWEAK, kinds=kinds)
                if kinds is not None
                else _Factory(file, call, _Scope.UNKNOWN)
            )
        return _Factory(file, call, _Scope.OPEN)

    def _keyed_kinds(self, file: GoFile, maps: list[tree_sitter.Node]) -> frozenset[str] | None:
        """The kinds per-kind maps of a cache's options key, where every key is a `WithKind("…")`; None
        otherwise."""
        kinds: set[str] = set()
        for value in maps:
            literal = self.values.struct_literal(file, value)
            if literal is None:
                return None
            for key, _ in keyed_entries(literal):
                named = _WITH_KIND.search(parser.text(key))
                if named is None:
                    return None
                kinds.add(named["kind"])
        return frozenset(kinds)

    def _fields_given(self, file: GoFile, options: tree_sitter.Node) -> dict[str, tree_sitter.Node] | _Scope:
        """The fields an options literal sets; OPEN for `nil` options, UNKNOWN where no literal is seen."""
        if parser.text(options) == "nil":
            return _Scope.OPEN
        literal = self.values.struct_literal(file, options)
        return dict(keyed_elements(literal)) if literal is not None else _Scope.UNKNOWN

    def sites(
        self,
        file: GoFile,
        call: tree_sitter.Node,
        method: str,
        operand: tree_sitter.Node,
        arguments: list[tree_sitter.Node],
    ) -> list[PendingSite]:
        """The informer a controller's `OnChange`, `Cache()`… registers, or those `relatedresource.Watch(ctx,
        name, resolve, enqueuer, watched...)` (or its WatchClusterScoped) registers for each controller it
        watches."""
        if method in REGISTERING:
            controllers = [operand]
        elif method == "WithCacheTypes":  # an apply.Apply asks each controller for its informer
            controllers = arguments
        elif method in ("Watch", "WatchClusterScoped") and self._of_package(file, operand, "relatedresource"):
            controllers = arguments[4:]
        elif method == "New" and self._of_package(file, operand, "apply"):
            controllers = arguments[2:]  # `apply.New(discovery, clientFactory, informerGetters...)`
        elif method in ("ListenAndServe", "Load") and (
            listened := self._listener_secrets(file, method, operand, arguments)
        ):
            controllers = listened
        else:
            return []
        receiver = parser.text(operand)
        found = []
        for controller in controllers:
            grouped = self._controller_kind(file, controller)
            if grouped is None:
                continue
            group, kind = grouped
            shown = parser.text(controller)
            site = pending_site(
                self.resolver,
                file,
                call,
                method,
                Operation.WATCH,
                Access.INFORMER_FACTORY,
                ObjectRef(kind, ObjectForm.TYPED, shown, False),
                ObjectForm.TYPED,
                receiver=receiver if len(receiver) <= _SHOWN else "",
            )
            site.wrangler_group = group
            site.factory_help = _FACTORY_HELP.format(kind=kind)
            found.append(site)
        return found

    def _listener_secrets(
        self, file: GoFile, method: str, operand: tree_sitter.Node, arguments: list[tree_sitter.Node]
    ) -> list[tree_sitter.Node]:
        """The Secret controller dynamiclistener is handed, whose `OnChange` it registers to keep its certificate:
        `server.ListenAndServe(ctx, https, http, handler, &server.ListenOpts{Secrets: …})` (harvester's webhooks)
        or `kubernetes.Load(ctx, secrets, namespace, name, backing)` of its storage."""
        imported = file.imports.get(parser.text(operand), "")
        if not imported.startswith(f"{DYNAMICLISTENER}/") or not self._listener_watches_every_secret(file):
            return []
        if method == "Load" and imported == f"{DYNAMICLISTENER}/storage/kubernetes" and len(arguments) > 1:
            return [arguments[1]]
        if method != "ListenAndServe" or imported != f"{DYNAMICLISTENER}/server" or len(arguments) < 5:
            return []
        literal = self.values.struct_literal(file, arguments[4])
        return [value for key, value in keyed_elements(literal) if key == "Secrets"] if literal is not None else []

    def _listener_watches_every_secret(self, file: GoFile) -> bool:
        """Whether the dynamiclistener a file is built with registers a handler on every Secret: up to v0.6.3,
        and v0.7.0; later releases watch only their certificate's Secret by name, in its namespace. A version
        that cannot be told (a fork or a folder replacing it), or one before v0.6.4 or v0.7.1 (their pre-releases,
        a pseudo-version of a commit after v0.6.3 or v0.7.0) counts as the older behaviour."""
        version = self.module_of(file).required(DYNAMICLISTENER) if self.module_of is not None else None
        parsed = release(version) if version is not None else None
        if parsed is None:
            return True
        numbers, before = parsed
        fixed_in = (0, 6, 4) if numbers[:2] <= (0, 6) else (0, 7, 1) if numbers[:2] == (0, 7) else None
        return fixed_in is not None and (numbers < fixed_in or (numbers == fixed_in and before))

    @staticmethod
    def _of_package(file: GoFile, operand: tree_sitter.Node, package: str) -> bool:
        """Whether a call's operand names wrangler's package of that name (`relatedresource.Watch`)."""
        matched = _WRANGLER.search(file.imports.get(parser.text(operand), ""))
        return matched is not None and matched["package"] == package

    def _controller_kind(self, file: GoFile, controller: tree_sitter.Node) -> tuple[str, str] | None:
        """The catalogue kind of a wrangler controller: by its type (`corecontrollers.SecretController`), or by
        the accessor that hands it out (`Core().V1().Secret()`, `corev.Secret()` of a held group-version)."""
        declared = self.resolver.type_of(file, controller)
        matched = _CONTROLLERS.search(declared.package) if declared is not None else None
        if declared is not None and matched is not None and declared.name.endswith("Controller"):
            return self._kind(matched["group"], declared.name.removesuffix("Controller"))
        held = self.values.defined_as(file, controller, 2)
        given = held.child_by_field_name("arguments") if held is not None else None
        if held is None or held.type != "call_expression" or given is None or parser.named(given):
            return None
        accessor = method_name(held)
        if accessor in self.client_go_accessors:
            return None
        group_version = operand_of(held)
        group = self._group_of(file, group_version) if group_version is not None else None
        return self._kind(group, accessor) if group is not None and accessor else None

    def _group_of(self, file: GoFile, node: tree_sitter.Node) -> str | None:
        """The group of a group-version's controllers: `x.Core().V1()`, or a value of its `Interface` type."""
        declared = self.resolver.type_of(file, node)
        matched = _CONTROLLERS.search(declared.package) if declared is not None else None
        if declared is not None and matched is not None and declared.name == "Interface":
            return matched["group"]
        if node.type == "selector_expression" and (holder := node.child_by_field_name("operand")) is not None:
            # `clients.Core` of wrangler's Clients, or of a struct embedding it (longhorn's)
            group = _GROUP_ACCESSORS.get(parser.text(node.child_by_field_name("field")))
            if group is not None and self._holds_clients(self.resolver.type_of(file, holder)):
                return group
        held = self.values.defined_as(file, node, 2)
        version = held if held is not None and held.type == "call_expression" else None
        group_call = operand_of(version) if version is not None else None
        if version is None or group_call is None or not (method_name(version) or "").startswith("V"):
            return None
        return _GROUP_ACCESSORS.get(method_name(group_call) or "")

    def _holds_clients(self, struct: TypeRef | None, depth: int = 0) -> bool:
        """Whether a struct is wrangler's Clients or embeds it."""
        if struct is None or depth > 2:
            return False
        wrangler = _WRANGLER.search(struct.package)
        if wrangler is not None and wrangler["package"] == "clients" and struct.name == "Clients":
            return True
        fields = self.resolver.declarations.structs.get(self.resolver.declarations.unalias(struct.base), ())
        return any(info.is_embedded and self._holds_clients(info.type, depth + 1) for info in fields)

    def _kind(self, group: str, type_name: str) -> tuple[str, str] | None:
        """The group and catalogue kind of a controller of `group` named after `type_name`."""
        package = _API_PACKAGES.get(group)
        kind = self.kinds.go_kind(package, type_name) if package is not None else None
        return (group, kind) if kind is not None else None

    def scope(self, pending: list[PendingSite], binaries: list[frozenset[str]]) -> None:
        """Narrow every wrangler informer by the factories of the binaries reaching it: open where one of them
        builds a factory over every namespace (cited as the place to fix), else restricted by each one's
        namespace or tweak; a site no binary reaches takes the module's factories, and one whose factories are
        not seen is left open."""
        for site in pending:
            if not site.wrangler_group:
                continue
            reaching = [packages for packages in binaries if site.file.package_path in packages]
            factories = [
                factory
                for factory in self.factories
                if (not reaching or any(factory.file.package_path in packages for packages in reaching))
                and factory.covers(site.wrangler_group, site.object.kind)
            ]
            # of several, the one nearest the site (its own command's, not another command's of the binary)
            opened = max(
                (factory for factory in factories if factory.scope is _Scope.OPEN),
                key=lambda factory: shared_folders(factory.file.directory, site.file.directory),
                default=None,
            )
            if opened is not None:
                site.through = Evidence(
                    opened.file.span(opened.call), f"the {opened.noun} is built here, with no namespace or tweak"
                )
                if opened.is_cache:
                    site.factory_help = _CACHE_HELP.format(kind=site.object.kind)
                elif opened.is_controller_factory:
                    site.factory_help = _CONTROLLER_FACTORY_HELP.format(kind=site.object.kind)
                continue
            if not factories:  # handed in by another module's code: nothing says it is scoped
                site.through = Evidence(site.span, "no wrangler factory of the module is seen: taken as cluster-wide")
            for factory in factories:
                before = len(site.restrictions)
                self._restrict(site, factory)
                guard_added(site, before, factory.file, factory.call)

    def _restrict(self, site: PendingSite, factory: _Factory) -> None:
        kind, span = site.object.kind, factory.file.span(factory.call)
        built = f"`{parser.text(factory.call.child_by_field_name('function'))}(…)`"
        if factory.scope is _Scope.NAMESPACE and factory.value is not None:
            restrict_namespace(site, factory.file, factory.value, f"the namespace of the {factory.noun} {built}", span)
        elif factory.scope is _Scope.TWEAK:
            text = f"the list tweak of the shared cache {built}"
            site.restrictions.append(Restriction(Mitigation.SELECTOR, kind, span, text))
        elif factory.scope is _Scope.UNKNOWN:
            text = f"the options of the wrangler factory {built}"
            site.restrictions.append(Restriction(Mitigation.UNRESOLVED, kind, span, text))
