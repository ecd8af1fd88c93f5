"""WL004 unfiltered-cluster-list: an uncached list of every object of a kind, with no namespace or selector."""

from __future__ import annotations

from collections.abc import Iterator

from watchlint.checks._context import CheckContext
from watchlint.checks._judge import fixes_for, judgement_of
from watchlint.checks._message import shown
from watchlint.checks.wl001_unfiltered_watch import clientset_setting_help
from watchlint.facts import Facts, Site
from watchlint.findings import Finding, Mitigated, Verdict

CODE = "WL004"


def check(facts: Facts, context: CheckContext) -> Iterator[Verdict]:
    for site in facts.sites:
        judgement = judgement_of(site, facts, context)
        if judgement.code != CODE:
            continue
        if judgement.mitigation is not None:
            yield Mitigated(CODE, site.span, site.kind, site.construct, judgement.mitigation, judgement.evidence)
            continue
        yield Finding(
            code=CODE,
            level=context.levels[CODE],
            span=site.span,
            message=f"{shown(site.call)} lists every {site.kind} in the cluster on each call{judgement.note}",
            kind=site.kind,
            construct=site.construct,
            enclosing=site.enclosing,
            related=judgement.related,
            fixes=fixes_for(site, judgement),
            help=site.suggestion or _help(site, namespaced=site.kind not in context.cluster_scoped),
        )


def _help(site: Site, *, namespaced: bool) -> str:
    """A selector, or a namespace; where the list takes the namespace a setting names only when it is given
    (`Pods(namespace)` of a flag empty by default), that setting."""
    selectors = "Pass a label or field selector"
    given = clientset_setting_help(site, "the list", "reads", selectors, namespaced=namespaced)
    return given or selectors + (", or list a single namespace" if namespaced else "")
