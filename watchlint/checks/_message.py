"""Message helpers shared by the checks: shortened constructs, the verb for what a site keeps, and notes on a
watch's own object."""

from __future__ import annotations

from watchlint.facts import Access, Site
from watchlint.findings import Related

MAX_CONSTRUCT = 72
_NEAR = 16  # how far back from the cut an argument boundary is taken instead


def shown(text: str) -> str:
    """Quote a construct for a message, shortened so the message stays about one line."""
    if len(text) > MAX_CONSTRUCT:
        cut = text[: MAX_CONSTRUCT - 1]
        # at an argument's end where one is near: `labels={…, **extra}` cut inside `**` read as `*…`
        boundary = cut.rfind(", ")
        if boundary >= len(cut) - _NEAR:
            kept = cut[:boundary]
            text = kept if kept.endswith("…") else f"{kept}, …"  # an argument the front-end elided already
        else:
            text = cut.rstrip() + "…"
    return f"`{text}`"


def keeps(site: Site) -> str:
    """Say what the site does with every object: informers (and a watch paired with a ListFunc for one) cache
    them, streams only pass them through."""
    cached = site.access in (Access.CACHE, Access.INFORMER_FACTORY) or site.list_watch is not None
    return "caches" if cached else "streams"


def object_fields_note(site: Site) -> tuple[Related, ...]:
    """A note on the fields a watch's object literal sets, which select nothing: the watch takes its type only."""
    fields = site.object_fields
    if fields is None:
        return ()
    text = f"setting {fields.message} on the watched object selects nothing: a watch takes only its type"
    return (Related(fields.span, text),)
