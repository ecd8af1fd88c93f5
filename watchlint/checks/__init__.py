"""The checks, one module per rule, bound to their codes explicitly (no discovery at import time)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from watchlint.checks import (
    wl001_unfiltered_watch,
    wl002_implicit_informer_read,
    wl003_predicate_only_filter,
    wl004_unfiltered_cluster_list,
    wl005_duplicate_cache,
)
from watchlint.checks._context import CheckContext
from watchlint.facts import Facts
from watchlint.findings import Verdict

Check = Callable[[Facts, CheckContext], Iterator[Verdict]]

CHECKS: Mapping[str, Check] = {
    "WL001": wl001_unfiltered_watch.check,
    "WL002": wl002_implicit_informer_read.check,
    "WL003": wl003_predicate_only_filter.check,
    "WL004": wl004_unfiltered_cluster_list.check,
    "WL005": wl005_duplicate_cache.check,
}

__all__ = ["CHECKS", "Check", "CheckContext"]
