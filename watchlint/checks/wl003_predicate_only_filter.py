"""WL003 predicate-only-filter: a watch narrowed only by predicates or in-process filters."""

from __future__ import annotations

from collections.abc import Iterator

from watchlint.cacheoptions import cache_option_names
from watchlint.checks._context import CheckContext
from watchlint.checks._judge import WATCHES_THAT_CACHE, fixes_for, judgement_of
from watchlint.checks._message import object_fields_note, shown
from watchlint.checks.wl001_unfiltered_watch import informer_suggestion
from watchlint.checks.wl002_implicit_informer_read import open_watches, shared_informer_note, sharing_watches
from watchlint.facts import Access, Facts, Site
from watchlint.findings import Finding, Mitigated, Related, Verdict

CODE = "WL003"


def check(facts: Facts, context: CheckContext) -> Iterator[Verdict]:
    watches: dict[tuple[str, str], list[Site]] | None = None
    for site in facts.sites:
        judgement = judgement_of(site, facts, context)
        if judgement.code != CODE:
            continue
        if judgement.mitigation is not None:
            yield Mitigated(CODE, site.span, site.kind, site.construct, judgement.mitigation, judgement.evidence)
            continue
        is_cached = site.access in WATCHES_THAT_CACHE
        filters = tuple(
            Related(item.span, f"{item.message} filters {'events' if is_cached else 'in the operator'} only")
            for item in site.filters
        )
        where = "filters events only" if is_cached else "filters in the operator only"
        help_text = suggestion(site, namespaced=site.kind not in context.cluster_scoped)
        if is_cached and not site.suggestion:
            watches = open_watches(facts, context) if watches is None else watches
            help_text += shared_informer_note(sharing_watches(site, watches), site.kind)
        consequence = "cached" if is_cached else "streamed"
        yield Finding(
            code=CODE,
            level=context.levels[CODE],
            span=site.span,
            message=f"{shown(site.construct)} {where}; every {site.kind} is still {consequence}{judgement.note}",
            kind=site.kind,
            construct=site.construct,
            enclosing=site.enclosing,
            related=filters + object_fields_note(site) + judgement.related,
            fixes=fixes_for(site, judgement),
            help=help_text,
        )


def suggestion(site: Site, *, namespaced: bool = True) -> str:
    """The help of a watch narrowed by a predicate only; `namespaced` false for a kind no namespace holds."""
    if site.suggestion:  # the front-end's exact change: the selector the loop tests, the kopf scope
        return site.suggestion
    if site.access is Access.INFORMER_FACTORY:  # a client-go FilteringResourceEventHandler's FilterFunc
        narrowing = informer_suggestion(site, namespaced=namespaced)
        return f"{narrowing}, so the informer holds only the objects the controller needs"
    if site.access in WATCHES_THAT_CACHE:
        names = cache_option_names(site.cache_options_era)
        # before v0.15 a kind's entry takes no namespaces (SelectorsByObject: Label or Field)
        namespaces = ", or namespaces" if "Namespaces" in names.by_object_fields and namespaced else ""
        return (  # not every predicate tests a selector (ResourceVersionChangedPredicate filters updates)
            f"Restrict {site.kind} with {names.by_object} (the label or field the predicate tests, if any"
            f"{namespaces}) {names.by_object_in}, so the informer holds only the objects the controller needs"
        )
    if site.access is Access.KOPF:
        return (
            "kopf applies handler filters after streaming every object: scope the operator's namespaces, "
            "or watch through an API client with label_selector="
        )
    return "Send the label the loop filters on as label_selector= so the API server filters"
