"""What every check receives besides the facts: the levels in force and the high-cardinality kinds."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from watchlint.findings import Level


@dataclass(frozen=True, slots=True)
class CheckContext:
    levels: Mapping[str, Level]  # level per code, after configuration
    kinds: frozenset[str]  # canonical names of the high-cardinality kinds (catalogue plus extra-kinds)
    cluster_scoped: frozenset[str] = frozenset()  # those no namespace holds: helps offer no namespace for them
