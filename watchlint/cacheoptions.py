"""The names help texts give controller-runtime's cache options, by the version a module requires: ByObject and
client.CacheOptions.DisableFor from v0.15, the cache's SelectorsByObject (set through NewCache) and the
manager's ClientDisableCacheFor before."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CacheOptionNames:
    by_object: str  # where a kind's cache is restricted
    by_object_fields: str  # what such an entry may restrict by
    by_object_in: str  # where that option is set
    disable_for: str  # where the client is told to read a kind from the API server
    namespaces: str  # where a cache is scoped to namespaces


CURRENT = CacheOptionNames(
    "cache.Options.ByObject",
    "Label, Field or Namespaces",
    "in the manager options",
    "client.CacheOptions.DisableFor",
    "DefaultNamespaces",
)
LEGACY = CacheOptionNames(
    "cache.Options.SelectorsByObject",
    "Label or Field",
    "in the options of the manager's NewCache (cache.BuilderWithOptions)",
    "ClientDisableCacheFor",
    "Namespace",
)


def cache_option_names(legacy: bool) -> CacheOptionNames:
    """`legacy`: the module requires controller-runtime before v0.15."""
    return LEGACY if legacy else CURRENT
