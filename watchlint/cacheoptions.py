"""The names help texts give controller-runtime's cache options, by the version a module requires: ByObject and
client.CacheOptions.DisableFor from v0.15 (ByObject's Namespaces and DefaultNamespaces from v0.16), the cache's
SelectorsByObject (set through NewCache) and the manager's ClientDisableCacheFor before; before v0.9 there is no
per-kind selector at all, before v0.7 no ClientDisableCacheFor nor builder.OnlyMetadata either."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CacheOptionNames:
    by_object: str  # where a kind's cache is restricted
    by_object_fields: str  # what such an entry may restrict by
    by_object_in: str  # where that option is set
    disable_for: str  # where the client is told to read a kind from the API server
    namespaces: str  # where a cache is scoped to namespaces
    only_metadata: str = "builder.OnlyMetadata"  # the builder option watching a kind's metadata only


CURRENT = CacheOptionNames(
    "cache.Options.ByObject",
    "Label, Field or Namespaces",
    "in the manager options",
    "client.CacheOptions.DisableFor",
    "DefaultNamespaces",
)
# v0.15: ByObject and DisableFor, but ByObject entries take no Namespaces and the cache's namespaces are a list
FIRST_BY_OBJECT = CacheOptionNames(
    CURRENT.by_object,
    "Label or Field",
    CURRENT.by_object_in,
    CURRENT.disable_for,
    "cache.Options.Namespaces",
)
LEGACY = CacheOptionNames(
    "cache.Options.SelectorsByObject",
    "Label or Field",
    "in the options of the manager's NewCache (cache.BuilderWithOptions)",
    "ClientDisableCacheFor",
    "Namespace",
)

PRE_SELECTORS = CacheOptionNames(
    LEGACY.by_object,
    LEGACY.by_object_fields,
    "in the options of the manager's NewCache (cache.BuilderWithOptions), which need controller-runtime v0.9 or later",
    LEGACY.disable_for,
    LEGACY.namespaces,
)
_NEEDS_V07 = "controller-runtime v0.7 or later"
PRE_V07 = CacheOptionNames(
    LEGACY.by_object,
    LEGACY.by_object_fields,
    PRE_SELECTORS.by_object_in,
    f"ClientDisableCacheFor ({_NEEDS_V07})",
    LEGACY.namespaces,
    f"builder.OnlyMetadata ({_NEEDS_V07})",
)
# what Site.cache_options_era holds, by the controller-runtime version the module requires
ERAS = {
    "current": CURRENT,
    "v0.15": FIRST_BY_OBJECT,
    "legacy": LEGACY,
    "pre-selectors": PRE_SELECTORS,
    "pre-v0.7": PRE_V07,
}


def cache_option_names(era: str) -> CacheOptionNames:
    """`era`: "current" (v0.16 and later, or no requirement seen), "v0.15", "legacy" (before v0.15),
    "pre-selectors" (before v0.9), "pre-v0.7"."""
    return ERAS.get(era, CURRENT)
