"""WL002 implicit-informer-read: a Get/List through a cache-backed client starts a cluster-wide informer."""

from __future__ import annotations

from collections.abc import Iterator

from watchlint.checks._context import CheckContext
from watchlint.checks._judge import fixes_for, judge
from watchlint.checks._message import shown
from watchlint.facts import Facts
from watchlint.findings import Finding, Mitigated, Related, Verdict

CODE = "WL002"


def check(facts: Facts, context: CheckContext) -> Iterator[Verdict]:
    for site in facts.sites:
        judgement = judge(site, facts, context.kinds)
        if judgement.code != CODE:
            continue
        if judgement.mitigation is not None:
            yield Mitigated(CODE, site.span, site.kind, site.construct, judgement.mitigation, judgement.evidence)
            continue
        related = judgement.related
        if site.access_evidence is not None:
            related = (*related, Related(site.access_evidence.span, site.access_evidence.message))
        yield Finding(
            code=CODE,
            level=context.levels[CODE],
            span=site.span,
            message=f"{shown(site.call)} on {site.kind} starts a cluster-wide {site.kind} informer{judgement.note}",
            kind=site.kind,
            construct=site.construct,
            enclosing=site.enclosing,
            related=related,
            fixes=fixes_for(site, judgement),
            help=site.suggestion  # the front-end's exact change: a cache index to replace first
            or (
                f"Add {site.kind} to client.CacheOptions.DisableFor in the manager options, "
                "or read it through mgr.GetAPIReader()"
            ),
        )
