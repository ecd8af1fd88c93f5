"""WL005 duplicate-cache: a metadata-only watch or read whose saving a typed informer of the same kind defeats."""

from __future__ import annotations

from collections.abc import Iterator

from watchlint.checks._context import CheckContext
from watchlint.checks._judge import Judgement, bypassing_restriction, judgement_of
from watchlint.checks._message import shown
from watchlint.facts import Access, Facts, Mitigation, ObjectForm, Operation, Site
from watchlint.findings import Finding, Mitigated, Related, Verdict

CODE = "WL005"
_TWINS_SHOWN = 5  # typed twins a finding's notes name


def check(facts: Facts, context: CheckContext) -> Iterator[Verdict]:
    cached = [site for site in facts.sites if site.access is Access.CACHE and site.kind in context.kinds]
    # A typed twin defeats the saving when it keeps a full informer of the whole kind: a site that is itself
    # unrestricted. A read excluded by DisableFor, or one behind a false flag, starts no informer at all, nor
    # does a List DisableFor sends to the API server unrestricted (a WL004 of its own).
    typed = [
        site
        for site in cached
        if site.form is ObjectForm.TYPED and _keeps_an_informer(judgement_of(site, facts, context))
    ]
    for site in cached:
        if site.form is not ObjectForm.METADATA or not _is_live(site):
            continue
        if bypassing_restriction(site, facts) is not None:
            continue  # DisableFor sends it to the API server: no metadata informer to duplicate
        # every typed twin is named: fixing one leaves the others keeping the full informer
        twins = list({other.span: other for other in typed if _shares_cache(site, other)}.values())
        if not twins:
            yield Mitigated(CODE, site.span, site.kind, site.construct, Mitigation.METADATA_ONLY)
            continue
        what = _verb(twins[0])
        yield Finding(
            code=CODE,
            level=context.levels[CODE],
            span=site.span,
            message=(
                f"{shown(site.construct)} caches {site.kind} metadata only, but {site.kind} is also {what} typed; "
                "a second, full informer is kept"
            ),
            kind=site.kind,
            construct=site.construct,
            enclosing=site.enclosing,
            related=tuple(
                Related(other.span, f"typed {site.kind} {_verb(other)} here starts a full informer")
                for other in twins[:_TWINS_SHOWN]
            ),
            help=(
                f"Read and watch {site.kind} as metav1.PartialObjectMetadata everywhere, "
                "or drop the metadata-only form so one typed informer serves both"
            ),
        )


def _keeps_an_informer(judgement: Judgement) -> bool:
    return judgement.mitigation is None and judgement.code != "WL004"


def _verb(site: Site) -> str:
    return "watched" if site.operation is Operation.WATCH else "read"


def _is_live(site: Site) -> bool:
    return site.condition is None or site.condition.holds_by_default is not False


def _shares_cache(site: Site, other: Site) -> bool:
    return other.kind == site.kind and bool(set(other.policy_keys) & set(site.policy_keys) or not site.policy_keys)
