"""WL001 unfiltered-watch: a watch that streams and caches every object of a high-cardinality kind."""

from __future__ import annotations

from collections.abc import Iterator

from watchlint.checks._context import CheckContext
from watchlint.checks._judge import fixes_for, judge
from watchlint.checks._message import keeps, shown
from watchlint.facts import Access, Facts, Site
from watchlint.findings import Finding, Mitigated, Verdict

CODE = "WL001"


def check(facts: Facts, context: CheckContext) -> Iterator[Verdict]:
    for site in facts.sites:
        judgement = judge(site, facts, context.kinds)
        if judgement.code != CODE:
            continue
        if judgement.mitigation is not None:
            yield Mitigated(CODE, site.span, site.kind, site.construct, judgement.mitigation, judgement.evidence)
            continue
        yield Finding(
            code=CODE,
            level=context.levels[CODE],
            span=site.span,
            message=f"{shown(site.construct)} {keeps(site)} every {site.kind} in the cluster{judgement.note}",
            kind=site.kind,
            construct=site.construct,
            enclosing=site.enclosing,
            related=judgement.related,
            fixes=fixes_for(site, judgement),
            help=suggestion(site),
        )


def suggestion(site: Site) -> str:
    if site.suggestion:  # the front-end's exact change: the selector the loop tests, the kopf scope
        return site.suggestion
    if site.access is Access.CACHE:
        return (
            f"Restrict {site.kind} with cache.Options.ByObject (Label, Field or Namespaces) in the manager "
            "options, or watch it with builder.OnlyMetadata"
        )
    if site.access is Access.INFORMER_FACTORY and site.call.startswith("New"):  # NewSecretInformer(…)
        return f"Give {site.call} a namespace, or use its NewFiltered… form with a label selector in tweakListOptions"
    if site.access is Access.INFORMER_FACTORY:
        return "Build the informer factory with informers.WithNamespace or a label selector in WithTweakListOptions"
    if site.access is Access.KOPF:
        return (
            "Scope the operator's namespaces in code (kopf.run(namespaces=[...])), or set kopf-namespaced = true "
            "in the watchlint config when `kopf run -n` scopes it"
        )
    return "Pass label_selector= or field_selector=, or watch a single namespace"
