"""Message helpers shared by the checks: shortened constructs and the verb for what a site keeps."""

from __future__ import annotations

from watchlint.facts import Access, Site

MAX_CONSTRUCT = 72


def shown(text: str) -> str:
    """Quote a construct for a message, shortened so the message stays about one line."""
    if len(text) > MAX_CONSTRUCT:
        text = text[: MAX_CONSTRUCT - 1].rstrip() + "…"
    return f"`{text}`"


def keeps(site: Site) -> str:
    """Say what the site does with every object: informers cache them, streams only pass them through."""
    return "caches" if site.access in (Access.CACHE, Access.INFORMER_FACTORY) else "streams"
