"""WL001 unfiltered-watch: a watch that streams and caches every object of a high-cardinality kind."""

from __future__ import annotations

import re
from collections.abc import Iterator

from watchlint.cacheoptions import cache_option_names
from watchlint.checks._context import CheckContext
from watchlint.checks._judge import Judgement, bypassing_restriction, fixes_for, judgement_of
from watchlint.checks._message import keeps, object_fields_note, shown
from watchlint.checks.wl002_implicit_informer_read import (
    open_watches,
    other_watches,
    shared_informer_note,
    sharing_watches,
)
from watchlint.facts import EXCLUDES_ONLY, Access, Facts, Mitigation, ObjectForm, Operation, Restriction, Site
from watchlint.findings import Finding, Mitigated, Verdict
from watchlint.language import Language
from watchlint.settingphrases import setting_of

CODE = "WL001"


def check(facts: Facts, context: CheckContext) -> Iterator[Verdict]:
    judged = [(site, judgement_of(site, facts, context)) for site in facts.sites]
    typed, cached = _read_typed(judged, facts), _read_cached(judged, facts)
    watches: dict[tuple[str, str], list[Site]] | None = None
    for site, judgement in judged:
        if judgement.code != CODE:
            continue
        if judgement.mitigation is not None:
            yield Mitigated(CODE, site.span, site.kind, site.construct, judgement.mitigation, judgement.evidence)
            continue
        shared = 0
        if site.access is Access.CACHE:
            watches = open_watches(facts, context) if watches is None else watches
            shared = sharing_watches(site, watches)
        help_text = suggestion(
            site,
            facts.language,
            any((site.kind, key) in typed for key in site.policy_keys),
            namespaced=site.kind not in context.cluster_scoped,
            shared=shared,
            read=any((site.kind, key) in cached for key in site.policy_keys),
        )
        if site.suggestion:  # the front-end's exact change: its selector serves the other watches too
            help_text += shared_informer_note(shared, site.kind)
        yield Finding(
            code=CODE,
            level=context.levels[CODE],
            span=site.span,
            message=f"{shown(site.construct)} {keeps(site)} every {site.kind} in the cluster{judgement.note}",
            kind=site.kind,
            construct=site.construct,
            enclosing=site.enclosing,
            related=object_fields_note(site) + judgement.related,
            fixes=fixes_for(site, judgement),
            help=help_text,
        )


def _read_typed(judged: list[tuple[Site, Judgement]], facts: Facts) -> frozenset[tuple[str, str]]:
    """The kinds, with the cache, a cache-backed Get or List reads typed: a metadata-only watch of them would
    not save the typed informer those reads start (WL005). Not a read DisableFor sends to the API server,
    which starts none."""
    return _read_cached(judged, facts, typed=True)


def _read_cached(
    judged: list[tuple[Site, Judgement]], facts: Facts, *, typed: bool = False
) -> frozenset[tuple[str, str]]:
    """The kinds, with the cache, a cache-backed Get or List reads (only typed, with `typed`)."""
    return frozenset(
        (site.kind, key)
        for site, judgement in judged
        if site.access is Access.CACHE
        and site.operation is not Operation.WATCH
        and (site.form is ObjectForm.TYPED or not typed)
        and not _sent_to_the_api_server(site, judgement, facts)
        for key in site.policy_keys
    )


def _sent_to_the_api_server(site: Site, judgement: Judgement, facts: Facts) -> bool:
    """Whether DisableFor sends a read to the API server: so judged, or judged off by default first while
    DisableFor covers it too wherever it runs."""
    if judgement.mitigation is Mitigation.DISABLE_FOR:
        return True
    return judgement.mitigation is Mitigation.OFF_BY_DEFAULT and bypassing_restriction(site, facts) is not None


# watches whose metadata form is another object than the builder's option (or none at all)
_SOURCES = frozenset({"GetInformer", "GetInformerForKind", "Watch", "WatchesRawSource"})


def suggestion(
    site: Site,
    language: Language,
    read_typed: bool = False,
    *,
    namespaced: bool = True,
    shared: int = 0,
    read: bool = True,
) -> str:
    """The help of a watch; `namespaced` false for a kind no namespace holds (an extra Node), which no namespace
    scope narrows; `shared`: how many other typed watches of the kind start the same informer, which keeps it
    typed and whole unless they go metadata-only too (wandb's `Owns` beside a `Watches` of ConfigMap); `read`:
    whether any Get or List reads the kind through the cache."""
    if site.suggestion:  # the front-end's exact change: the selector the loop tests, the kopf scope
        return site.suggestion
    if site.access is Access.CACHE:
        return _cache_suggestion(site, read_typed, namespaced, shared, read)
    if site.access is Access.INFORMER_FACTORY:
        return informer_suggestion(site, namespaced=namespaced)
    if site.access is Access.KOPF:
        return (
            "Scope the operator's namespaces in code (kopf.run(namespaces=[...])), or set kopf-namespaced = true "
            "in the watchlint config when `kopf run -n` scopes it"
        )
    if language is Language.GO:  # a clientset Watch: its selectors are metav1.ListOptions fields, not keywords
        accessor = _clientset_accessor(site.kind)
        scope = f', or watch a single namespace ({accessor}(ns) rather than {accessor}(""))' if namespaced else ""
        selectors = "Set LabelSelector or FieldSelector in the metav1.ListOptions"
        return clientset_setting_help(site, "the watch", "sees", selectors) or f"{selectors}{scope}"
    return "Pass label_selector= or field_selector=" + (", or watch a single namespace" if namespaced else "")


def _cache_suggestion(site: Site, read_typed: bool, namespaced: bool, shared: int, read: bool) -> str:
    """The help of a watch through the manager's cache (see `suggestion`)."""
    names = cache_option_names(site.cache_options_era)
    fields = names.by_object_fields if namespaced else "Label or Field"
    restrict = f"Restrict {site.kind} with {names.by_object} ({fields}) {names.by_object_in}"
    others = f"the {other_watches(shared, site.kind)}" if shared > 1 else f"the other watch of {site.kind}"
    if shared:  # one selector serves them all (apisix's Secrets, watched in nine controllers)
        restrict += f", keeping what {others} {'need' if shared > 1 else 'needs'} too"
    method = (site.helper_call or site.call).rsplit(".", 1)[-1]  # inside a helper, the call that watches
    if method in ("GetInformer", "GetInformerForKind") and not read_typed:
        # no builder: the metadata form is another object, which only GetInformer takes (GetInformerForKind
        # builds a typed informer from the GroupVersionKind), and a typed lister of its indexer would break
        return (
            f"{restrict}, or, where nothing reads its objects typed, ask GetInformer for a "
            "metav1.PartialObjectMetadata of the kind (metadata only)"
        )
    if method == "IndexField" and not read:
        # an index serves cached Lists only: with the kind's reads sent to the API server (DisableFor,
        # cass-operator's Events once fixed), it fills an informer nothing reads; a read of objects a library or
        # an interface hands over (temporal-operator's builders) is not seen, so the help asks to check for one
        return (
            f"No read of {site.kind} through the cache is seen, and an index serves only cached Lists filtering on "
            f"it: where none does, remove the IndexField; else {restrict[:1].lower()}{restrict[1:]}"
        )
    if method == "IndexField" or (read_typed and method in _SOURCES):
        return restrict
    if read_typed:  # typed reads would start the full informer all the same, until they bypass the cache
        also = f" and {others} {'are' if shared > 1 else 'is'} metadata-only too" if shared else ""
        return (
            f"{restrict}, or watch it with {names.only_metadata} once its typed reads bypass the cache "
            f"({names.disable_for}, see their fixes){also}"
        )
    if method in ("Watch", "WatchesRawSource"):  # a source.Kind takes no builder option: its object says
        return f"{restrict}, or watch a metav1.PartialObjectMetadata of the kind in the source.Kind (metadata only)"
    if shared:  # one typed watch left keeps the full informer
        return f"{restrict}, or watch it and {others} with {names.only_metadata}"
    return f"{restrict}, or watch it with {names.only_metadata}"


def informer_suggestion(site: Site, *, namespaced: bool = True) -> str:
    """How to narrow a client-go informer; first, where the code scopes it only when a setting is given
    (`informers.WithNamespace(cf.Namespace)` of VPA's --vpa-object-namespace), giving that setting."""
    scoped = namespace_setting(site)
    unset = _restriction_off_by_default(site, Mitigation.NAMESPACE)
    # the factory already takes its namespace (from the setting, or a value empty by default): only a selector is
    # left to add to its options
    narrowing = _narrowing(site, namespaced and unset is None, selector_only=unset is not None)
    if scoped is None and (selected := selector_setting(site)) is not None:
        # the options set a selector already, under the setting: setting it, or dropping the condition, narrows
        return selector_setting_help(*selected, "the informer")
    if scoped is None and not site.injected and (given := unset_scope_help(site, narrowing)) is not None:
        return given
    if scoped is None:
        return narrowing
    conditional, setting = scoped
    if site.injected:  # the base help ends on the scope the setting turns on
        return (
            f"Set {setting} where it is deployed ({conditional.text} then scopes every injected informer to that "
            f"namespace), or take the informer from the package's filtered form (…/{site.kind.lower()}/filtered) "
            "with a label selector that main registers first with filteredFactory.WithSelectors "
            "(…/informers/factory/filtered)" + _system_namespace_form(site)
        )
    return (
        f"Set {setting} where it is deployed ({conditional.text} then scopes it to that namespace), or "
        f"{narrowing[:1].lower()}{narrowing[1:]}"
    )


def namespace_setting(site: Site) -> tuple[Restriction, str] | None:
    """The namespace scope a site takes only when a setting is given (`Events(namespace)` of a flag empty by
    default), and that setting (`--osm-namespace`); None where there is none, or it names no setting."""
    return _off_by_default(site, Mitigation.NAMESPACE)


def selector_setting(site: Site) -> tuple[Restriction, str] | None:
    """The selector a site's options set only when a setting turns it on (a factory's WithTweakListOptions
    under `if *filterInformers`), and that setting; None where there is none, or it names no setting."""
    return _off_by_default(site, Mitigation.SELECTOR)


def clientset_setting_help(site: Site, call: str, reads: str, selectors: str, *, namespaced: bool = True) -> str | None:
    """The help of a clientset `call` ("the watch", "the list") whose namespace or selector the code sets only
    under a setting, or whose namespace is empty by default (`Events(namespace)` of a flag empty by default): give
    the setting or the namespace, or `selectors`; None where there is no such restriction. `namespaced` false
    for a kind no namespace holds."""
    if namespaced and (scoped := namespace_setting(site)) is not None:  # it names the namespace a setting gives
        return (
            f"Set {scoped[1]} where it is deployed ({call} then {reads} that namespace only), or "
            f"{selectors[:1].lower()}{selectors[1:]}"
        )
    if (selected := selector_setting(site)) is not None:
        return selector_setting_help(*selected, call)
    return unset_scope_help(site, selectors) if namespaced else None


def selector_setting_help(restriction: Restriction, setting: str, narrowed: str) -> str:
    """The help where the code sets a selector only when a setting is given: set it, or drop the condition."""
    return (
        f"Set {setting} where it is deployed ({restriction.text} then narrows {narrowed}), or apply that "
        "selector unconditionally"
    )


def _off_by_default(site: Site, mitigation: Mitigation) -> tuple[Restriction, str] | None:
    """A restriction of one kind the site has only when a setting off by default is given, and that setting."""
    conditional = _restriction_off_by_default(site, mitigation)
    if conditional is None or conditional.condition is None:
        return None
    # the condition may name the call of a helper that hands the setting on: the setting is still the one to set
    setting = setting_of(_CALLER_NOTE.sub("", conditional.condition.text))
    return (conditional, setting) if setting is not None else None


def unset_scope_help(site: Site, otherwise: str) -> str | None:
    """The help where the code scopes the site to a namespace no setting names that is empty by default (a
    caller passing "" for every namespace): give it one, or `otherwise`; None where there is no such scope."""
    unset = _restriction_off_by_default(site, Mitigation.NAMESPACE)
    if unset is None or unset.condition is None or namespace_setting(site) is not None:
        return None
    condition = _PASSED_NOTE.sub(r"; \1", unset.condition.text)
    # a variable's name (`Pods(namespace)`) is named as code, an option (`informers.WithNamespace`) as itself
    given = f"`{unset.text}` a value" if unset.text.isidentifier() else f"{unset.text} a namespace"
    return (
        f"Give {given} where the default deployment leaves it empty (it applies only when {condition}), or "
        f"{otherwise[:1].lower()}{otherwise[1:]}"
    )


def _restriction_off_by_default(site: Site, mitigation: Mitigation) -> Restriction | None:
    """A restriction of one kind the site has only under a condition that does not hold by default."""
    return next(
        (
            restriction
            for restriction in site.restrictions
            if restriction.mitigation is mitigation
            and restriction.condition is not None
            and restriction.condition.holds_by_default is False
        ),
        None,
    )


def _selectors_set(site: Site) -> str:
    """What the example's options function sets: a label selector, beside the excluding field selector the
    site's options set already (VPA's `status.phase!=Pending`), which a copy of the example would drop."""
    excluding = [r for r in site.restrictions if r.detail.startswith(EXCLUDES_ONLY)]
    if any("field" in restriction.text.lower() for restriction in excluding):
        return "o.FieldSelector = … (the one it sets now); o.LabelSelector = …"
    if excluding:
        return "o.LabelSelector = … (with the exclusion it sets now)"
    return "o.LabelSelector = …"


def _system_namespace_form(site: Site) -> str:
    """knative's namespaced twin of its Secret informer, for code that reads only the Secrets of its own
    namespace (tekton's tracing credentials): scoped to system.Namespace(), the other informers left whole."""
    if site.kind != "Secret":
        return ""
    return (
        "; where only Secrets of the system namespace are read, knative.dev/pkg/injection/clients/namespacedkube/"
        "informers/core/v1/secret holds those alone"
    )


_PASSED_NOTE = re.compile(r" \(([^()]* passes .*)\)$")  # `… is not empty (k8s.go:26 passes "")`
_CALLER_NOTE = re.compile(r" \([^()]* passes it\)$")  # `--watch-namespace is set (main.go:32 passes it)`


def _narrowing(site: Site, namespaced: bool = True, *, selector_only: bool = False) -> str:
    """Client-go informers outside the manager cache, narrowed where each constructor takes it (inside the helper
    for a site reported at a helper's call); `selector_only` where a factory built with its options takes a
    namespace already."""
    call = site.helper_call or site.call
    if site.injected:  # knative's injected informer (`secretinformer.Get(ctx)`) or its factory's accessor
        # the filtered form first: a namespace scope narrows every injected informer, the operator's own
        # objects in other namespaces included
        return (
            f"Take the informer from the package's filtered form (…/{site.kind.lower()}/filtered) with a label "
            "selector that main registers first with filteredFactory.WithSelectors (…/informers/factory/filtered), or "
            "scope knative's injection with injection.WithNamespaceScope (every injected informer then sees that "
            "namespace only)" + _system_namespace_form(site)
        )
    if call == f"New{site.kind}Informer":  # generated informers/core/v1 and the like
        if selector_only:  # given its namespace by a setting already
            return f"Use the NewFiltered… form of {call} with a label selector in tweakListOptions"
        return f"Give {call} a namespace, or use its NewFiltered… form with a label selector in tweakListOptions"
    if call in (f"NewFiltered{site.kind}Informer", "NewFilteredDynamicInformer", "NewFilteredMetadataInformer"):
        # NewFilteredSecretInformer(client, "", resync, indexers, nil), dynamicinformer's of a resource
        if selector_only:
            return f"Give {call} a tweakListOptions that sets a label selector"
        return f"Give {call} a namespace, or a tweakListOptions that sets a label selector"
    if call.startswith("New"):
        # tools/cache's NewSharedIndexInformer(lw, &corev1.Pod{}, …), NewInformerWithOptions and the like take no
        # namespace and have no NewFiltered… form: the ListerWatcher they list through decides what is cached
        resource = _clientset_accessor(site.kind).lower()
        return (
            f"Narrow the ListerWatcher passed to {call} to a namespace, or set LabelSelector or "
            "FieldSelector in its ListFunc and WatchFunc options, e.g. cache.NewFilteredListWatchFromClient("
            f'restClient, "{resource}", namespace, func(o *metav1.ListOptions) {{ {_selectors_set(site)} }})'
        )
    if call == "ForResource":  # client-go's or the dynamic client's factory
        return (
            "Build the informer factory with a namespace or a label selector (informers.WithNamespace or "
            "WithTweakListOptions; dynamicinformer.NewFilteredDynamicSharedInformerFactory), or from "
            "metadatainformer when the objects' metadata is enough"
        )
    # a shared factory serves other kinds too, which a factory-wide namespace or selector would narrow as well;
    # the options go to NewSharedInformerFactoryWithOptions: NewSharedInformerFactory takes none
    own = (
        ""
        if site.alone_in_factory
        else f", or, where it serves other kinds that must stay whole, take {site.kind} from a factory of its own so "
        "built"
    )
    if selector_only:
        return f"Give the factory a label or field selector too (WithTweakListOptions){own}"
    scope = "informers.WithNamespace, or " if namespaced else ""
    return (
        f"Build the informer factory with NewSharedInformerFactoryWithOptions and {scope}a label or field selector in "
        f"WithTweakListOptions{own}"
    )


def _clientset_accessor(kind: str) -> str:
    """`Secrets`, `Endpoints`: the typed clientset's method for a kind, named as the Go front-end matches it."""
    return kind if kind.endswith("s") else f"{kind}s"
