"""The language-neutral contract between front-ends and checks: sites, cache policies and comments.

No parser object crosses this module (DESIGN §2.2): everything here is a frozen dataclass of
strings, ints, spans and enums, so checks are pure functions testable from hand-built facts.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from watchlint import pickling
from watchlint.fixes import Fix
from watchlint.language import Language
from watchlint.notifications import Notification, NotificationLevel
from watchlint.settingphrases import either_given, given
from watchlint.source import Span

__all__ = [
    "Access",
    "CachePolicy",
    "Comment",
    "Condition",
    "Evidence",
    "Facts",
    "Language",
    "Mitigation",
    "Notification",
    "NotificationLevel",
    "ObjectForm",
    "Operation",
    "Restriction",
    "Site",
    "Transform",
]


class Operation(StrEnum):
    """What a site asks of the API server or of a cache."""

    WATCH = "watch"  # an informer, watch stream or kopf handler: every object of the kind flows in
    GET = "get"
    LIST = "list"


class Access(StrEnum):
    """What serves the operation, which decides the mitigations that can apply."""

    CACHE = "cache"  # a controller-runtime manager or cluster cache: one informer per kind
    API_READER = "api-reader"  # mgr.GetAPIReader(): reads straight from the API server
    DIRECT_CLIENT = "direct-client"  # client.New, Python API clients: one request per call, nothing kept
    CLIENTSET = "clientset"  # client-go typed clientsets
    INFORMER_FACTORY = "informer-factory"  # client-go shared informer factories, outside the manager cache
    KOPF = "kopf"  # a kopf handler or index: one watch stream per resource


class ObjectForm(StrEnum):
    """How the object passed to a site is typed, which decides what the cache keeps of it."""

    TYPED = "typed"  # the full object
    METADATA = "metadata"  # metav1.PartialObjectMetadata, builder.OnlyMetadata, WatchesMetadata
    UNSTRUCTURED = "unstructured"  # unstructured.Unstructured: uncached unless CacheOptions.Unstructured


class Mitigation(StrEnum):
    """Why a candidate site is not a finding; the vocabulary of `ok: [reason=…]` and --show-mitigated."""

    BY_OBJECT = "by-object"  # cache.Options.ByObject / SelectorsByObject with Label, Field or Namespaces
    DEFAULT_NAMESPACES = "default-namespaces"  # DefaultNamespaces, Namespace(s), MultiNamespacedCacheBuilder
    DEFAULT_SELECTOR = "default-selector"  # DefaultLabelSelector, DefaultFieldSelector, DefaultSelector
    DISABLE_FOR = "disable-for"  # client.CacheOptions.DisableFor, ClientDisableCacheFor
    FAIL_ON_MISSING_INFORMER = "fail-on-missing-informer"  # cache.Options.ReaderFailOnMissingInformer
    API_READER = "api-reader"  # the read goes through mgr.GetAPIReader()
    DIRECT_CLIENT = "direct-client"  # the read goes through a client without cache
    CLIENTSET = "clientset"  # the read goes through a client-go clientset
    METADATA_ONLY = "metadata-only"  # only metadata is cached
    UNSTRUCTURED = "unstructured"  # unstructured objects are not cached
    NAMESPACE = "namespace"  # the call itself is limited to a namespace
    SELECTOR = "selector"  # the call itself sends a label or field selector to the API server
    ONE_PAGE = "one-page"  # the call reads one page of at most `limit` objects and asks for no other
    OPERATOR_NAMESPACES = "operator-namespaces"  # a kopf operator serves only the namespaces it names
    OFF_BY_DEFAULT = "off-by-default"  # the site exists only under a condition false by default
    UNRESOLVED = "unresolved"  # something restricts the site but its value is not visible (SPEC §1)
    NOT_HIGH_CARDINALITY = "not-high-cardinality"  # the kind is outside the catalogue


@dataclass(frozen=True, slots=True)
class Evidence:
    """A located reason shown to the user as a related location."""

    span: Span  # where the evidence is in the source
    message: str  # one phrase, e.g. "manager options set no ByObject for Secret"


@dataclass(frozen=True, slots=True)
class Condition:
    """A condition a restriction or a site depends on, judged for the default deployment (SPEC §1)."""

    text: str  # what must hold, for messages: "--watch-namespace is set", "WATCH_NAMESPACE is non-empty"
    span: Span  # the conditional code (the `if`, `switch` or loop)
    holds_by_default: bool | None  # None: cannot be evaluated, which counts as holding
    origin: str = ""  # the setting that decides it, where one does: "OPERATOR_TARGET_NAMESPACES"


def any_of(conditions: list[Condition]) -> str:
    """`A is set or B is set` for the conditions one option is set under (postgres-operator's single- and
    multi-namespace variables), one phrase per setting: the same option set in several cases of one setting
    (trivy's DefaultNamespaces for each install mode OPERATOR_TARGET_NAMESPACES selects) names the setting."""
    texts = {condition.text for condition in conditions}
    # `A or (A and B)` is A: an option set in both branches of a test inside another's (grafana's ByObject)
    conditions = [
        condition
        for condition in conditions
        if not any(condition.text.startswith(f"{other} and ") for other in texts if other != condition.text)
    ]
    by_origin: dict[str, set[str]] = {}
    for condition in conditions:
        by_origin.setdefault(condition.origin or condition.text, set()).add(condition.text)
    phrases = [given(origin) if len(texts) > 1 else next(iter(texts)) for origin, texts in by_origin.items()]
    # an `if len(namespaces) > 0` and the loop over `namespaces` inside it: one setting, two conditions
    return either_given(list(dict.fromkeys(phrases)))


# The detail of a namespace scope that lists every namespace (a `""` key beside the others): it narrows nothing.
EVERY_NAMESPACE = "every namespace"
# the detail of a selector made of exclusions only (`owner!=helm`), followed by the selector: it leaves out the
# objects it names and keeps every other one, so it narrows nothing that grows with the cluster
EXCLUDES_ONLY = "excludes only "
# the detail of a DisableFor of every kind: the manager's NewClient builds its client without the cache
NO_CACHE = "reads no cache"


@dataclass(frozen=True, slots=True)
class Restriction:
    """One narrowing of what a cache or a call sees, with the span that sets it."""

    mitigation: Mitigation  # what kind of narrowing this is
    kind: str | None  # the canonical Kind it applies to; None for all kinds
    span: Span  # where it is set (evidence for messages and anchor for fixes)
    text: str  # the construct, for messages: "ByObject entry for &corev1.Secret{}"
    is_effective: bool = True  # False for a ByObject entry with no Label, Field or Namespaces
    condition: Condition | None = None  # set when it applies only under a condition
    detail: str = ""  # what it restricts to, for the inventory: "namespaces team-a, team-b", "fields spec.nodeName"
    # For a ByObject entry: the defaults it replaces for its kind (`Label: labels.Everything()` replaces
    # DefaultLabelSelector), named as the default restrictions' `text` names them.
    replaces: frozenset[str] = frozenset()
    # For a cache option: where the managers it is known to reach are built (their `NewManager`, as a site's
    # `managers`); empty when that is not known. A binary pools its managers' options all the same (SPEC §3.1).
    reaches: tuple[Span, ...] = ()
    # For DisableFor in the options of a client built with client.New over a cache (`CacheOptions{Reader: …}`):
    # those options (their CacheOptions literal), which apply to that client's reads only.
    client: Span | None = None
    # where a wrapper building the manager assigns the field holding it whole (`options.Cache = …`) before the
    # manager takes the options: set for a restriction its caller wrote, which is then not effective
    dropped_by: Evidence | None = None
    # the setting a namespace scope takes as is, its value out of the code's sight (`WATCH_NAMESPACE`): the
    # scope counts (SPEC §1), and where the setting is empty it names every namespace, which users should know
    assumed: str = ""
    # For a ByObject or DisableFor entry: the import path of the Go type its object names (`k8s.io/api/discovery/
    # v1`); "" where not known
    package: str = ""

    @property
    def is_active(self) -> bool:
        """Whether it restricts in the default deployment: effective, and unconditional or on by default."""
        return self.is_effective and (self.condition is None or self.condition.holds_by_default is not False)


@dataclass(frozen=True, slots=True)
class Transform:
    """A cache transform: every object is still kept, but smaller (SPEC §1: not a mitigation)."""

    kind: str | None  # None for DefaultTransform (every kind)
    span: Span
    text: str
    # the API types its function names (`obj.(*corev1.ConfigMap)`): the kinds it may rewrite beyond metadata;
    # None when its function is not seen
    names: tuple[str, ...] | None = None
    reaches: tuple[Span, ...] = ()  # where the managers it is known to reach are built (Restriction.reaches)


@dataclass(frozen=True, slots=True)
class CachePolicy:
    """What one binary's caches may hold: every manager, cluster, cache and client option it builds."""

    key: str  # unique within a unit; sites name the policies that judge them by it
    label: str  # for messages: "binary cmd/manager", "kopf operator"
    origins: tuple[Span, ...]  # where managers, caches or their options are built; empty when none was found
    restrictions: tuple[Restriction, ...]  # every narrowing found, effective or not, conditional or not
    caches_unstructured: Span | None = None  # CacheOptions.Unstructured: true, which caches unstructured reads
    transforms: tuple[Transform, ...] = ()  # DefaultTransform and ByObject.Transform, for the inventory
    # the origins that build client-go informer factories: they hold only their own informers, not what a
    # manager's watches and reads cache, nor the other way round
    factory_origins: tuple[Span, ...] = ()


@dataclass(frozen=True, slots=True)
class Site:
    """A construct that watches, gets or lists a kind: the candidate every check judges."""

    operation: Operation  # watch, get or list
    access: Access  # what serves it
    kind: str  # canonical Kind, e.g. "ConfigMap"
    form: ObjectForm  # typed, metadata-only or unstructured
    span: Span  # the method or function name token; a Python decorator's first line (SPEC §3)
    call: str  # the callee as written, for messages: "r.Get", "Owns", "@kopf.on.event"
    construct: str  # the whole construct, whitespace-normalised: "Owns(&corev1.Secret{})"
    enclosing: str = ""  # enclosing function or type, for line-free fingerprints
    policy_keys: tuple[str, ...] = ()  # the CachePolicy keys that judge it; empty when no policy applies
    # where the managers that run it are built, among its policies' origins; empty when they are not known
    managers: tuple[Span, ...] = ()
    restrictions: tuple[Restriction, ...] = ()  # narrowing on the site itself: namespace, selector, scope
    # a cached read's own namespace and selectors: they narrow only a read the client sends to the API server
    # all the same (its kind in DisableFor, or unstructured), which is then judged as an uncached List (WL004)
    read_restrictions: tuple[Restriction, ...] = ()
    filters: tuple[Evidence, ...] = ()  # in-process filters: predicates, WithEventFilter, kopf labels=/when=
    condition: Condition | None = None  # the site exists only when this holds
    # a setting the default deployment runs the site under (`if handleVolumeInUseError {…}`, true by default):
    # where the feature is not needed, changing it keeps the site from running
    switched_on: Condition | None = None
    access_evidence: Evidence | None = None  # why access is what it is, e.g. "r.Client is mgr.GetClient()"
    # reported at a helper's call (the kind is the call's): where the helper watches or reads it
    through: Evidence | None = None
    # a transform the informer is given (client-go's SetTransform): each object kept smaller, every one still kept
    transform: Evidence | None = None
    # the ListFunc beside a raw watch's WatchFunc (a ListerWatcher handed on through fields): the reflector or
    # informer given the pair keeps every object, so the watch caches rather than streams
    list_watch: Evidence | None = None
    # the list options a caller passes the function around the List, setting no selector (the site lists with
    # the options its callers pass, and one of them leaves every object in)
    unselected_caller: Evidence | None = None
    alone_in_factory: bool = False  # a client-go informer of a factory that hands out this kind only
    # a list method chosen at run time (a table of them, a key not known): the other kinds it may also list
    alternatives: Evidence | None = None
    # the fields a watch's object literal sets (`&corev1.Secret{Type: …}`), which select nothing: a watch takes
    # only the object's type
    object_fields: Evidence | None = None
    helper_call: str = ""  # and the callee that watches or reads there, as written (`NewIndexerInformer`)
    # a library function reading through the client.Client it is handed (`CommonCredentialExtractor`): the
    # reader mgr.GetAPIReader() returns cannot be passed to it
    library_reader: str = ""
    injected: bool = False  # an informer of knative's injection, which injection.WithNamespaceScope scopes
    reads_cache_itself: bool = False  # through `mgr.GetCache()`: the client's options (DisableFor) do not apply
    # through a client built with client.New over the cache: only the DisableFor of its own options (this
    # CacheOptions literal) applies, not the manager's
    own_client: Span | None = None
    # the policy key of the second cache that client reads, where the site also reads through the manager's
    # client (a helper given both): the manager's policies judge that read by the manager's own DisableFor
    own_cache: str = ""
    # that client over the manager's cache and the manager's own client both reach the read (a helper given
    # both): it goes to the API server only where the DisableFor of each names its kind
    own_client_shared: bool = False
    # judged by the module's options, but run only by a binary whose manager another module builds (karpenter's
    # kwok build): the module's managers' options are not where its cache is set, and are not cited
    manager_elsewhere: bool = False
    # through the manager's own GetClient(): the DisableFor of a client built with client.New does not apply
    manager_client: bool = False
    # the shapes of the cache options the module's controller-runtime has, as a key of cacheoptions.ERAS
    cache_options_era: str = "current"
    package: str = ""  # the import path of the Go type read or watched (`k8s.io/api/core/v1`); "" where not known
    fixes: tuple[Fix, ...] = ()  # concrete remedies the front-end could build; checks keep those for their rule
    suggestion: str = ""  # a site-specific text remedy the checks show in place of the rule's generic help; "" for none


@dataclass(frozen=True, slots=True)
class Comment:
    """A source comment that may carry a suppression directive."""

    span: Span  # the comment token
    text: str  # the comment with its marker (`//`, `#`)
    is_own_line: bool  # True when only whitespace precedes it on its line


@dataclass(frozen=True, slots=True)
class Facts:
    """Everything a front-end learned about one unit (a Go module or a Python project)."""

    language: Language
    root: str  # display path of the unit root
    files: tuple[str, ...] = ()  # display paths of the files analyzed
    sites: tuple[Site, ...] = ()
    policies: tuple[CachePolicy, ...] = ()
    comments: tuple[Comment, ...] = ()  # only comments that mention watchlint, nolint or noqa
    notifications: tuple[Notification, ...] = ()

    def policy(self, key: str) -> CachePolicy | None:
        return next((policy for policy in self.policies if policy.key == key), None)


# the packages of the Kubernetes API types, one per group and version
API_PACKAGES = "k8s.io/api/"


def names_kind(restriction: Restriction, site: Site) -> bool:
    """Whether a restriction naming a kind names the site's: the same Kind, and of the same group and version where
    both are Kubernetes API types (controller-runtime keys a cache's informers, ByObject and DisableFor by
    GroupVersionKind: discovery/v1beta1's EndpointSlice is not discovery/v1's)."""
    if restriction.kind != site.kind:
        return False
    packages = (restriction.package, site.package)
    return packages[0] == packages[1] or not all(package.startswith(API_PACKAGES) for package in packages)


def applies_to(restriction: Restriction, site: Site) -> bool:
    """Whether a restriction of every kind, or one naming the site's kind, applies to the site."""
    return restriction.kind is None or names_kind(restriction, site)


pickling.register(Evidence, Condition, Restriction, Transform, CachePolicy, Site, Comment, Facts)
