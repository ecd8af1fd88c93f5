"""The caches cluster-api keeps of its workload clusters (`clustercache.ClusterCache`, the older
`remote.ClusterCacheTracker`): a client `GetClient(ctx, cluster)` hands out reads one of them, which the options
given to that cache judge, not the manager's; `GetUncachedClient` reads the workload cluster's API server."""

from __future__ import annotations

import tree_sitter

from watchlint.go.declarations import resolve_type
from watchlint.go.model import GoFile, TypeRef

CLUSTERCACHE = "sigs.k8s.io/cluster-api/controllers/clustercache"
REMOTE = "sigs.k8s.io/cluster-api/controllers/remote"
WORKLOAD_CACHE = "cluster-api's workload cluster caches"  # their policy's key, one for the module
CACHED_GETTERS = frozenset({"GetClient", "GetReader"})
UNCACHED_GETTER = "GetUncachedClient"
# the options literals of those caches, and the field of each listing the kinds read past the cache
_OPTIONS = {
    (CLUSTERCACHE, "ClientCacheOptions"): "DisableFor",
    (CLUSTERCACHE, "CacheOptions"): "",
    (REMOTE, "ClusterCacheTrackerOptions"): "ClientUncachedObjects",
}
_LITERAL_DEPTH = 12  # nodes between a value and the options literal it is written in (a ByObject entry's key)


def is_workload_cache(typed: TypeRef | None) -> bool:
    """Whether a value's type is cluster-api's cache of workload clusters."""
    return typed is not None and (typed.is_(CLUSTERCACHE, "ClusterCache") or typed.is_(REMOTE, "ClusterCacheTracker"))


def builds_a_workload_cache(package: str | None, name: str) -> bool:
    """Whether a library function builds one (`clustercache.SetupWithManager`, `remote.NewClusterCacheTracker`)."""
    return (package, name) in ((CLUSTERCACHE, "SetupWithManager"), (REMOTE, "NewClusterCacheTracker"))


def uncached_field(file: GoFile, literal: tree_sitter.Node) -> str | None:
    """For a literal of those caches' options, the field listing the kinds their clients read uncached ("" for
    one without such a field); None for any other literal."""
    type_node = literal.child_by_field_name("type") if literal.type == "composite_literal" else None
    typed = resolve_type(type_node, file) if type_node is not None else None
    if typed is None:
        return None
    return _OPTIONS.get((typed.package, typed.name))


def in_workload_options(file: GoFile, node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The options literal of a workload cluster cache a node is written in, if any."""
    current = node.parent
    for _ in range(_LITERAL_DEPTH):
        if current is None or current.type in ("function_declaration", "method_declaration", "func_literal"):
            return None
        if current.type == "composite_literal" and uncached_field(file, current) is not None:
            return current
        current = current.parent
    return None
